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

/* HIP 6.3 documents it as hipGetLastError: the thread's last error, then cleared. */
AH_EXPORT hipError_t hipExtGetLastError(void) {
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

/* hipDrvGetErrorString's wording: the driver API's messages, as AMD's runtime
 * gives them (CUDA's driver wording, "invalid argument" rather than
 * hipGetErrorString's description), which programs and ROCm's unit suite
 * compare with. A code not listed here gets hipGetErrorString's text. */
static const struct {
  hipError_t code;
  const char *text;
} drv_strings[] = {
    {hipSuccess, "no error"},
    {hipErrorInvalidValue, "invalid argument"},
    {hipErrorOutOfMemory, "out of memory"},
    {hipErrorNotInitialized, "initialization error"},
    {hipErrorDeinitialized, "driver shutting down"},
    {hipErrorProfilerDisabled, "profiler disabled while using external profiling tool"},
    {hipErrorProfilerNotInitialized, "profiler is not initialized"},
    {hipErrorProfilerAlreadyStarted, "profiler already started"},
    {hipErrorProfilerAlreadyStopped, "profiler already stopped"},
    {hipErrorInvalidConfiguration, "invalid configuration argument"},
    {hipErrorInvalidPitchValue, "invalid pitch argument"},
    {hipErrorInvalidSymbol, "invalid device symbol"},
    {hipErrorInvalidDevicePointer, "invalid device pointer"},
    {hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"},
    {hipErrorInsufficientDriver, "driver version is insufficient for runtime version"},
    {hipErrorMissingConfiguration, "__global__ function call is not configured"},
    {hipErrorPriorLaunchFailure, "unspecified launch failure in prior launch"},
    {hipErrorInvalidDeviceFunction, "invalid device function"},
    {hipErrorNoDevice, "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "invalid device ordinal"},
    {hipErrorInvalidImage, "device kernel image is invalid"},
    {hipErrorInvalidContext, "invalid device context"},
    {hipErrorContextAlreadyCurrent, "context is already current context"},
    {hipErrorMapFailed, "mapping of buffer object failed"},
    {hipErrorUnmapFailed, "unmapping of buffer object failed"},
    {hipErrorArrayIsMapped, "array is mapped"},
    {hipErrorAlreadyMapped, "resource already mapped"},
    {hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device"},
    {hipErrorAlreadyAcquired, "resource already acquired"},
    {hipErrorNotMapped, "resource not mapped"},
    {hipErrorNotMappedAsArray, "resource not mapped as array"},
    {hipErrorNotMappedAsPointer, "resource not mapped as pointer"},
    {hipErrorECCNotCorrectable, "uncorrectable ECC error encountered"},
    {hipErrorUnsupportedLimit, "limit is not supported on this architecture"},
    {hipErrorContextAlreadyInUse, "exclusive-thread device already in use by a different thread"},
    {hipErrorPeerAccessUnsupported, "peer access is not supported between these two devices"},
    {hipErrorInvalidKernelFile, "invalid kernel file"},
    {hipErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context"},
    {hipErrorInvalidSource, "device kernel image is invalid"},
    {hipErrorFileNotFound, "file not found"},
    {hipErrorSharedObjectSymbolNotFound, "shared object symbol not found"},
    {hipErrorSharedObjectInitFailed, "shared object initialization failed"},
    {hipErrorOperatingSystem, "OS call failed or operation not supported on this OS"},
    {hipErrorInvalidHandle, "invalid resource handle"},
    {hipErrorIllegalState, "the operation cannot be performed in the present state"},
    {hipErrorNotFound, "named symbol not found"},
    {hipErrorNotReady, "device not ready"},
    {hipErrorIllegalAddress, "an illegal memory access was encountered"},
    {hipErrorLaunchOutOfResources, "too many resources requested for launch"},
    {hipErrorLaunchTimeOut, "the launch timed out and was terminated"},
    {hipErrorPeerAccessAlreadyEnabled, "peer access is already enabled"},
    {hipErrorPeerAccessNotEnabled, "peer access has not been enabled"},
    {hipErrorSetOnActiveProcess, "cannot set while device is active in this process"},
    {hipErrorContextIsDestroyed, "context is destroyed"},
    {hipErrorAssert, "device-side assert triggered"},
    {hipErrorHostMemoryAlreadyRegistered,
     "part or all of the requested memory range is already mapped"},
    {hipErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region"},
    {hipErrorLaunchFailure, "unspecified launch failure"},
    {hipErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"},
    {hipErrorNotSupported, "operation not supported"},
    {hipErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"},
    {hipErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"},
    {hipErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences"},
    {hipErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"},
    {hipErrorStreamCaptureUnjoined, "capturing stream has unjoined work"},
    {hipErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream"},
    {hipErrorStreamCaptureImplicit,
     "operation would make the legacy stream depend on a capturing blocking stream"},
    {hipErrorCapturedEvent,
     "operation not permitted on an event last recorded in a capturing stream"},
    {hipErrorStreamCaptureWrongThread,
     "attempt to terminate a thread-local capture sequence from another thread"},
    {hipErrorGraphExecUpdateFailure,
     "the graph update was not performed because it included changes "
     "which violated constraints specific to instantiated graph update"},
    {hipErrorRuntimeMemory, "runtime memory call returned error"},
    {hipErrorRuntimeOther, "runtime call other than memory returned error"},
};

static const char *drv_string(hipError_t e) {
  for (size_t i = 0; i < sizeof(drv_strings) / sizeof(drv_strings[0]); i++)
    if (drv_strings[i].code == e)
      return drv_strings[i].text;
  return ah_error_string(e);
}

AH_EXPORT hipError_t hipDrvGetErrorString(hipError_t hipError, const char **errorString) {
  AH_REQUIRE(errorString != NULL, hipErrorInvalidValue);
  *errorString = code_known(hipError) ? drv_string(hipError) : ah_error_string(hipError);
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
