/* SPDX-License-Identifier: MIT */
/* Error reporting entry points. None of them starts the runtime or records
 * an error of its own: reading the last error must not change it, and a code
 * that HIP does not know reads as hipErrorUnknown / "unknown error". */
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
