/* SPDX-License-Identifier: MIT */
/* HIP's function and variable qualifiers for the CPU pass, where the host
 * compiler compiles every function for the host: kernels are ordinary
 * functions, __device__ variables ordinary globals, and __shared__ variables
 * thread-local (a worker runs one block at a time, and all GPU threads of
 * that block run on that worker). Each macro yields to an earlier
 * definition (a -D on the command line). */
#ifndef ANYHIP_CPU_QUALIFIERS_H
#define ANYHIP_CPU_QUALIFIERS_H

#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
/* Under clang, kernels carry an annotation that anyhip's kernel compiler
 * (kernel-compiler/) looks for; it is nothing to the C++ itself. */
#ifndef __global__
#if defined(__clang__)
#define __global__ __attribute__((annotate("anyhip.kernel")))
#else
#define __global__
#endif
#endif
#ifndef __constant__
#define __constant__ /* stays writable: hipMemcpyToSymbol writes it */
#endif
#ifndef __managed__
#define __managed__
#endif
/* `thread_local`, not `static thread_local`: at block scope it already means
 * static storage, and `static __shared__ int x;` stays valid. Under the
 * kernel compiler an annotation tells its pass which thread_locals are
 * __shared__: it moves them to the engine's arena, so that threads that run
 * no block do not pay for them (docs/cpu-engine.md#shared-memory). */
#ifndef __shared__
#if defined(__clang__) && defined(__ANYHIP_KERNEL_COMPILER__)
#define __shared__ __attribute__((annotate("anyhip.shared"))) thread_local
#else
#define __shared__ thread_local
#endif
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
/* Empty: libstdc++ writes __attribute__((__noinline__)) in its headers, which
 * a function-like spelling would break. It is a hint only. */
#ifndef __noinline__
#define __noinline__
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __grid_constant__
#define __grid_constant__
#endif

#endif
