/* SPDX-License-Identifier: MIT */
/* Sets: hipMemset and its element-size, 2D and 3D variants, synchronous and
 * on a stream. core/memset.c checks the destination and queues the sets. */
#include "memory.h"

AH_EXPORT hipError_t hipMemset(void *dst, int value, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(ah_memset(dst, (uint8_t)value, 1, sizeBytes, sizeBytes, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memset(dst, (uint8_t)value, 1, sizeBytes, sizeBytes, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count) {
  AH_ENTER();
  AH_RETURN(ah_memset(dest, value, 1, count, count, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count) {
  AH_ENTER();
  AH_RETURN(ah_memset(dest, value, 2, count, 0, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count) {
  AH_ENTER();
  AH_RETURN(ah_memset(dest, (uint32_t)value, 4, count, 0, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count,
                                      hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memset(dest, value, 1, count, count, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count,
                                       hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memset(dest, value, 2, count, 0, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                                       hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memset(dst, (uint32_t)value, 4, count, 0, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height) {
  AH_ENTER();
  AH_REQUIRE(pitch >= width, hipErrorInvalidValue);
  AH_RETURN(ah_memset(dst, (uint8_t)value, 1, width, pitch, height, NULL, 1));
}

AH_EXPORT hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
                                      size_t height, hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(pitch >= width, hipErrorInvalidValue);
  AH_RETURN(ah_memset(dst, (uint8_t)value, 1, width, pitch, height, stream, 0));
}

AH_EXPORT hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent) {
  AH_ENTER();
  AH_RETURN(ah_memset_3d(pitchedDevPtr, value, extent, NULL, 1));
}

AH_EXPORT hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent,
                                      hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memset_3d(pitchedDevPtr, value, extent, stream, 0));
}
