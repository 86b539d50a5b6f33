/* SPDX-License-Identifier: MIT */
/* Error reporting entry points, and hipGetProcAddress. The first four never start the
 * runtime or record an error of their own: reading the last error must not change it, and a
 * code that HIP does not know reads as hipErrorUnknown / "unknown error". */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <string.h>

#include "internal.h"

AH_EXPORT hipError_t hipGetLastError(void) {
  return ah_last_error_take();
}

AH_EXPORT hipError_t hipPeekAtLastError(void) {
  return ah_last_error_peek();
}

AH_EXPORT const char *hipGetErrorName(hipError_t hip_error) {
  return ah_error_name(hip_error);
}

AH_EXPORT const char *hipGetErrorString(hipError_t hipError) {
  return ah_error_string(hipError);
}

/* Unlike the two above these are checked calls: AMD's runtime refuses a NULL output and a
 * code it does not know with hipErrorInvalidValue (the name is then "hipErrorUnknown"). */
static int code_known(hipError_t err) {
  return err == hipErrorUnknown || strcmp(ah_error_name(err), "hipErrorUnknown") != 0;
}

AH_EXPORT hipError_t hipDrvGetErrorName(hipError_t hipError, const char **errorString) {
  AH_REQUIRE(errorString != NULL, hipErrorInvalidValue);
  *errorString = ah_error_name(hipError);
  AH_REQUIRE(code_known(hipError), hipErrorInvalidValue);
  return hipSuccess;
}

AH_EXPORT hipError_t hipDrvGetErrorString(hipError_t hipError, const char **errorString) {
  AH_REQUIRE(errorString != NULL, hipErrorInvalidValue);
  *errorString = ah_error_string(hipError);
  AH_REQUIRE(code_known(hipError), hipErrorInvalidValue);
  return hipSuccess;
}

/* Looks the name up among the library's own exported symbols; only HIP entry points ("hip"
 * prefix) are given out, whatever the caller's version. */
AH_EXPORT hipError_t hipGetProcAddress(const char *symbol, void **pfn, int hipVersion,
                                       uint64_t flags,
                                       hipDriverProcAddressQueryResult *symbolStatus) {
  const uint64_t known = HIP_GET_PROC_ADDRESS_LEGACY_STREAM |
                         HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  static void *self;
  Dl_info info;
  void *addr = NULL;

  AH_ENTER();
  AH_REQUIRE(symbol != NULL && pfn != NULL, hipErrorInvalidValue);
  AH_REQUIRE(hipVersion > 0, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~known) == 0, hipErrorInvalidValue);
  *pfn = NULL;
  if (self == NULL && dladdr((void *)hipGetProcAddress, &info) != 0)
    self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (self != NULL && strncmp(symbol, "hip", 3) == 0)
    addr = dlsym(self, symbol);
  if (addr == NULL) {
    if (symbolStatus != NULL)
      *symbolStatus = HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return ah_fail(hipErrorNotFound, __func__, symbol);
  }
  *pfn = addr;
  if (symbolStatus != NULL)
    *symbolStatus = HIP_GET_PROC_ADDRESS_SUCCESS;
  return hipSuccess;
}
