/* SPDX-License-Identifier: MIT */
/* Copies: hipMemcpy and its driver-style, peer, 2D and symbol variants, and
 * the symbol queries. The checks against the allocation map and the
 * commands are core/memcpy.c's work. */
#include "memory.h"

/* ---- 1D copies ---------------------------------------------------------- */

AH_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, kind, NULL, AH_COPY_SYNC_API));
}

AH_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes,
                                    hipMemcpyKind kind, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, kind, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes,
                                         hipMemcpyKind kind, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, kind, stream, AH_COPY_WAIT));
}

AH_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void *src, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, hipMemcpyHostToDevice, NULL, AH_COPY_SYNC_API));
}

AH_EXPORT hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, hipMemcpyDeviceToHost, NULL, AH_COPY_SYNC_API));
}

AH_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, NULL, AH_COPY_SYNC_API));
}

AH_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const void *src, size_t sizeBytes,
                                        hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, hipMemcpyHostToDevice, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes,
                                        hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, hipMemcpyDeviceToHost, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                                        hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, 0));
}

/* Peer copies: with unified addressing a device-to-device copy reaches any
 * device's memory; it runs on the source device's queue. */
AH_EXPORT hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                                   size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_peer(dst, dstDeviceId, src, srcDeviceId, sizeBytes, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                                        size_t sizeBytes, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_peer(dst, dstDeviceId, src, srcDevice, sizeBytes, stream, 0));
}

/* ---- 2D copies ---------------------------------------------------------- */

AH_EXPORT hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                 size_t width, size_t height, hipMemcpyKind kind) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_2d(dst, dpitch, src, spitch, width, height, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                      size_t width, size_t height, hipMemcpyKind kind,
                                      hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_2d(dst, dpitch, src, spitch, width, height, kind, stream, 0));
}

/* ---- device variables --------------------------------------------------- */

AH_EXPORT hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t sizeBytes,
                                       size_t offset, hipMemcpyKind kind) {
  AH_ENTER();
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_REQUIRE(src != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_memcpy_symbol_copy(symbol, (void *)src, sizeBytes, offset, kind, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t sizeBytes,
                                            size_t offset, hipMemcpyKind kind, hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_REQUIRE(src != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_memcpy_symbol_copy(symbol, (void *)src, sizeBytes, offset, kind, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t sizeBytes,
                                         size_t offset, hipMemcpyKind kind) {
  AH_ENTER();
  AH_REQUIRE(dst != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(ah_memcpy_symbol_copy(symbol, dst, sizeBytes, offset, kind, 0, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t sizeBytes,
                                              size_t offset, hipMemcpyKind kind,
                                              hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(dst != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(ah_memcpy_symbol_copy(symbol, dst, sizeBytes, offset, kind, 0, stream, 0));
}

AH_EXPORT hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol) {
  size_t size;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(ah_memcpy_symbol(ah_current_device(), symbol, devPtr, &size));
}

AH_EXPORT hipError_t hipGetSymbolSize(size_t *size, const void *symbol) {
  void *addr;

  AH_ENTER();
  AH_REQUIRE(size != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(ah_memcpy_symbol(ah_current_device(), symbol, &addr, size));
}
