/* SPDX-License-Identifier: MIT */
/* The C++ conveniences HIP's runtime header offers on top of the C API:
 * typed allocation (hipMalloc(T**), ...), the symbol functions taking the
 * variable itself, HIP_SYMBOL and HIP_KERNEL_NAME, and hipLaunchKernel with a
 * typed kernel pointer. Included at the end of hip_runtime_api.h in C++
 * unless __HIP_DISABLE_CPP_FUNCTIONS__ is defined, as in HIP. */
#ifndef ANYHIP_API_CXX_HPP
#define ANYHIP_API_CXX_HPP

#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#error "include <hip/hip_runtime_api.h> instead"
#endif

/* HIP_KERNEL_NAME protects a template kernel's commas inside a macro
 * argument; HIP_SYMBOL names a device variable as the symbol functions take
 * it (the variable itself, as on AMD's HIP). */
#ifndef HIP_KERNEL_NAME
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#endif
#ifndef HIP_SYMBOL
#define HIP_SYMBOL(X) X
#endif

typedef int hipLaunchParm;

/* Typed allocation: no (void **) casts in user code. */
template <class T> static inline hipError_t hipMalloc(T **devPtr, size_t size) {
  return hipMalloc((void **)devPtr, size);
}

template <class T>
static inline hipError_t hipHostMalloc(T **ptr, size_t size,
                                       unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc((void **)ptr, size, flags);
}

template <class T>
static inline hipError_t hipHostAlloc(T **ptr, size_t size,
                                      unsigned int flags = hipHostAllocDefault) {
  return hipHostAlloc((void **)ptr, size, flags);
}

template <class T>
static inline hipError_t hipMallocManaged(T **devPtr, size_t size,
                                          unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged((void **)devPtr, size, flags);
}

template <class T>
static inline hipError_t hipMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height) {
  return hipMallocPitch((void **)ptr, pitch, width, height);
}

template <class T>
static inline hipError_t hipExtMallocWithFlags(T **ptr, size_t size, unsigned int flags) {
  return hipExtMallocWithFlags((void **)ptr, size, flags);
}

template <class T>
static inline hipError_t hipHostGetDevicePointer(T **devPtr, void *hostPtr, unsigned int flags) {
  return hipHostGetDevicePointer((void **)devPtr, hostPtr, flags);
}

/* Symbols. A device variable passed by name (or HIP_SYMBOL(name)) binds to
 * `const T &` and its address is the symbol, as in HIP. A pointer prvalue
 * (`&var`, or a cast) binds to the `T *&&` overloads instead and its value is
 * used: without them `&var` would name the address of a temporary. A pointer
 * variable passed by name is still a symbol in its own right. */
template <typename T>
static inline hipError_t hipGetSymbolAddress(void **devPtr, const T &symbol) {
  return ::hipGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <typename T> static inline hipError_t hipGetSymbolAddress(void **devPtr, T *&&symbol) {
  return ::hipGetSymbolAddress(devPtr, (const void *)symbol);
}

template <typename T> static inline hipError_t hipGetSymbolSize(size_t *size, const T &symbol) {
  return ::hipGetSymbolSize(size, (const void *)&symbol);
}
template <typename T> static inline hipError_t hipGetSymbolSize(size_t *size, T *&&symbol) {
  return ::hipGetSymbolSize(size, (const void *)symbol);
}

template <typename T>
static inline hipError_t hipMemcpyToSymbol(const T &symbol, const void *src, size_t sizeBytes,
                                           size_t offset = 0,
                                           hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return ::hipMemcpyToSymbol((const void *)&symbol, src, sizeBytes, offset, kind);
}
template <typename T>
static inline hipError_t hipMemcpyToSymbol(T *&&symbol, const void *src, size_t sizeBytes,
                                           size_t offset = 0,
                                           hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return ::hipMemcpyToSymbol((const void *)symbol, src, sizeBytes, offset, kind);
}

template <typename T>
static inline hipError_t hipMemcpyToSymbolAsync(const T &symbol, const void *src,
                                                size_t sizeBytes, size_t offset,
                                                hipMemcpyKind kind, hipStream_t stream = 0) {
  return ::hipMemcpyToSymbolAsync((const void *)&symbol, src, sizeBytes, offset, kind, stream);
}
template <typename T>
static inline hipError_t hipMemcpyToSymbolAsync(T *&&symbol, const void *src, size_t sizeBytes,
                                                size_t offset, hipMemcpyKind kind,
                                                hipStream_t stream = 0) {
  return ::hipMemcpyToSymbolAsync((const void *)symbol, src, sizeBytes, offset, kind, stream);
}

template <typename T>
static inline hipError_t hipMemcpyFromSymbol(void *dst, const T &symbol, size_t sizeBytes,
                                             size_t offset = 0,
                                             hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return ::hipMemcpyFromSymbol(dst, (const void *)&symbol, sizeBytes, offset, kind);
}
template <typename T>
static inline hipError_t hipMemcpyFromSymbol(void *dst, T *&&symbol, size_t sizeBytes,
                                             size_t offset = 0,
                                             hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return ::hipMemcpyFromSymbol(dst, (const void *)symbol, sizeBytes, offset, kind);
}

template <typename T>
static inline hipError_t hipMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t sizeBytes,
                                                  size_t offset, hipMemcpyKind kind,
                                                  hipStream_t stream = 0) {
  return ::hipMemcpyFromSymbolAsync(dst, (const void *)&symbol, sizeBytes, offset, kind, stream);
}
template <typename T>
static inline hipError_t hipMemcpyFromSymbolAsync(void *dst, T *&&symbol, size_t sizeBytes,
                                                  size_t offset, hipMemcpyKind kind,
                                                  hipStream_t stream = 0) {
  return ::hipMemcpyFromSymbolAsync(dst, (const void *)symbol, sizeBytes, offset, kind, stream);
}

/* The kernel-pointer forms of the launch functions. A kernel named by its
 * typed pointer needs no registration: its signature is known here. */
namespace anyhip {
namespace detail {
template <typename... P> struct sig;
}
} // namespace anyhip

template <typename... P>
static inline hipError_t hipLaunchKernel(void (*f)(P...), dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMemBytes = 0,
                                         hipStream_t stream = 0) {
  return __ahLaunchKernel((const void *)f, &::anyhip::detail::sig<P...>::value, gridDim,
                          blockDim, sharedMemBytes, stream, args);
}

/* A kernel named by its typed pointer (a template kernel too, which hipcc
 * does not register) brings its signature along. */
template <typename... P>
static inline hipError_t hipLaunchCooperativeKernel(void (*f)(P...), dim3 gridDim, dim3 blockDim,
                                                    void **kernelParams,
                                                    unsigned int sharedMemBytes,
                                                    hipStream_t stream) {
  return __ahLaunchCooperativeKernel((const void *)f, &::anyhip::detail::sig<P...>::value, gridDim,
                                     blockDim, sharedMemBytes, stream, kernelParams);
}

template <class T>
static inline hipError_t hipLaunchCooperativeKernel(T f, dim3 gridDim, dim3 blockDim,
                                                    void **kernelParams,
                                                    unsigned int sharedMemBytes,
                                                    hipStream_t stream) {
  return hipLaunchCooperativeKernel((const void *)f, gridDim, blockDim, kernelParams,
                                    sharedMemBytes, stream);
}

template <class T>
static inline hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, T f) {
  return hipFuncGetAttributes(attr, (const void *)f);
}

template <class T>
static inline hipError_t hipFuncSetAttribute(T f, hipFuncAttribute attr, int value) {
  return hipFuncSetAttribute((const void *)f, attr, value);
}

template <class T> static inline hipError_t hipFuncSetCacheConfig(T f, hipFuncCache_t config) {
  return hipFuncSetCacheConfig((const void *)f, config);
}

/* The signature descriptor lives with the launch code. */
#include <hip/anyhip/common/launch.hpp>

#endif
