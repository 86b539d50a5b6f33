/* SPDX-License-Identifier: MIT */
/* AMD's typed launch extension, hipExtLaunchKernelGGL: a kernel launch
 * that records an event just before and just after the kernel. The C
 * functions (hipExtLaunchKernel, hipExtModuleLaunchKernel, CU masks, link
 * types, multi-device launches) are declared by hip_runtime_api.h, as in
 * HIP 6. What they do on each device: docs/ext.md. */
#ifndef HIP_INCLUDE_HIP_HIP_EXT_H
#define HIP_INCLUDE_HIP_HIP_EXT_H

#include <hip/hip_runtime.h>

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* hipExtLaunchKernelGGL's entry: the kernel's parameter layout comes with
 * the call, as for triple chevrons (no registration needed). */
hipError_t __ahExtLaunchKernel(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                               size_t shmem, hipStream_t stream, void **args,
                               hipEvent_t startEvent, hipEvent_t stopEvent, int flags);

#ifdef __cplusplus
}
#endif
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#if defined(__cplusplus)
namespace anyhip {
namespace detail {
/* Converts each argument to the kernel's parameter type, as a direct call
 * would, and hands their addresses to the runtime, which copies them. */
template <typename... P> struct ext_launcher {
  void (*fn)(P...);
  dim3 grid, block;
  std::uint32_t shm;
  hipStream_t stream;
  hipEvent_t start, stop;
  std::uint32_t flags;

  void operator()(P... a) const {
    void *args[sizeof...(P) + 1] = {const_cast<void *>(static_cast<const void *>(&a))...,
                                    nullptr};
    (void)__ahExtLaunchKernel(reinterpret_cast<const void *>(fn), &sig<P...>::value, grid, block,
                              shm, stream, args, start, stop, (int)flags);
  }
};
} // namespace detail
} // namespace anyhip

namespace anyhip {
namespace detail {
template <typename... P, typename... A>
inline void ext_launch(void (*kernel)(P...), const dim3 &grid, const dim3 &block,
                       std::uint32_t shm, hipStream_t stream, hipEvent_t start, hipEvent_t stop,
                       std::uint32_t flags, A &...args) {
  static_assert(sizeof...(P) == sizeof...(A), "hipExtLaunchKernelGGL: wrong number of kernel "
                                              "arguments");
  ext_launcher<P...>{kernel, grid, block, shm, stream, start, stop, flags}(args...);
}
} // namespace detail
} // namespace anyhip

/* HIP's form: F defaults to the pointer type the arguments' own types give,
 * so a template kernel named without its template arguments resolves to the
 * specialisation taking exactly those types. */
template <typename... Args, typename F = void (*)(Args...)>
inline void hipExtLaunchKernelGGL(F kernel, const dim3 &numBlocks, const dim3 &dimBlocks,
                                  std::uint32_t sharedMemBytes, hipStream_t stream,
                                  hipEvent_t startEvent, hipEvent_t stopEvent,
                                  std::uint32_t flags, Args... args) {
  ::anyhip::detail::ext_launch(kernel, numBlocks, dimBlocks, sharedMemBytes, stream, startEvent,
                               stopEvent, flags, args...);
}
#endif

#endif
