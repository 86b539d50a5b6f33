/* SPDX-License-Identifier: MIT */
/* HIP's kernel language on CUDA, for hipcc's NVIDIA pass (nvcc compiles the
 * HIP source; hip_runtime.h includes this header under __CUDACC__). nvcc
 * already provides most of HIP's device language (qualifiers, threadIdx,
 * __syncthreads*, fences, clock64, printf, malloc, CUDA's atomics); this adds
 * HIP's spellings on top: 64-bit lane masks on 32-wide warps (upper half
 * zero), warp functions without a mask, __lane_id, wall_clock64, the atomics
 * HIP has and CUDA lacks and HIP_DYNAMIC_SHARED.
 * docs/nvidia.md lists every mapping. */
#ifndef ANYHIP_NVIDIA_KERNEL_H
#define ANYHIP_NVIDIA_KERNEL_H

#if !defined(__CUDACC__)
#error "hip/anyhip/nvidia/kernel.h is for nvcc (hipcc's NVIDIA pass) only"
#endif

#include <cuda_runtime.h>
#include <stdint.h>

#include <hip/anyhip/nvidia/math.h>

/* ---- platform ----------------------------------------------------------- */

#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__ 1
#endif
/* The __HIP_ARCH_HAS_* macros: hip/anyhip/common/arch_features.h. */

/* The hipThreadIdx_x family is in hip/hip_runtime.h, for every device. */

/* ---- shared memory ------------------------------------------------------ */

/* hipcc leaves `extern __shared__` to nvcc in this pass: CUDA's own dynamic
 * shared memory, sized by the launch. HIP_DYNAMIC_SHARED (used inside a
 * kernel) declares one byte array for every type and points `var` at it, so
 * a template kernel can use it with several types; CUDA rejects
 * `extern __shared__ T var[]` redeclared with another T. */
#ifndef HIP_DYNAMIC_SHARED
#define HIP_DYNAMIC_SHARED(type, var)                                \
  extern __shared__ __align__(16) unsigned char __ah_dynamic_shared[]; \
  type *var = reinterpret_cast<type *>(__ah_dynamic_shared);
#endif
#ifndef HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#endif

namespace anyhip {
namespace nv {

/* ---- warps -------------------------------------------------------------- */

/* HIP's mask-less shuffles assume the whole warp takes part (AMD runs warps
 * in lockstep); on NVIDIA's independent thread scheduling that is the full
 * 32-lane mask, which also makes the warp converge first. */
constexpr unsigned full_mask = 0xffffffffu;

template <typename T> __device__ inline T shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(full_mask, var, src_lane, width);
}
template <typename T> __device__ inline T shfl_up(T var, unsigned int delta, int width = warpSize) {
  return __shfl_up_sync(full_mask, var, delta, width);
}
template <typename T>
__device__ inline T shfl_down(T var, unsigned int delta, int width = warpSize) {
  return __shfl_down_sync(full_mask, var, delta, width);
}
template <typename T> __device__ inline T shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(full_mask, var, lane_mask, width);
}

/* Votes count the lanes that execute them, as on AMD (where inactive lanes
 * are masked off): the mask is the active mask, never one that would wait for
 * lanes in another branch. */
__device__ inline unsigned long long ballot(int pred) {
  return (unsigned long long)__ballot_sync(__activemask(), pred);
}
__device__ inline int any(int pred) {
  return __any_sync(__activemask(), pred);
}
__device__ inline int all(int pred) {
  return __all_sync(__activemask(), pred);
}

} // namespace nv
} // namespace anyhip

/* CUDA 13 no longer has the mask-less forms for current GPUs (and declares
 * them with 32-bit results where it still does), so HIP's names are macros
 * over the functions above. A function-like macro may name itself: the
 * inner __activemask() below is CUDA's. */
#define __shfl(...) ::anyhip::nv::shfl(__VA_ARGS__)
#define __shfl_up(...) ::anyhip::nv::shfl_up(__VA_ARGS__)
#define __shfl_down(...) ::anyhip::nv::shfl_down(__VA_ARGS__)
#define __shfl_xor(...) ::anyhip::nv::shfl_xor(__VA_ARGS__)
#define __ballot(pred) ::anyhip::nv::ballot(pred)
#define __any(pred) ::anyhip::nv::any(pred)
#define __all(pred) ::anyhip::nv::all(pred)
#define __activemask() ((unsigned long long)__activemask())
/* HIP's _sync forms take and return 64-bit masks; CUDA's use 32 bits. */
#define __ballot_sync(mask, pred) \
  ((unsigned long long)__ballot_sync((unsigned)(mask), (pred)))
#define __match_any_sync(mask, value) \
  ((unsigned long long)__match_any_sync((unsigned)(mask), (value)))
#define __match_all_sync(mask, value, pred) \
  ((unsigned long long)__match_all_sync((unsigned)(mask), (value), (pred)))
/* The other _sync forms only narrow the mask (no warning for ~0ull). */
#define __all_sync(mask, pred) __all_sync((unsigned)(mask), (pred))
#define __any_sync(mask, pred) __any_sync((unsigned)(mask), (pred))
#define __shfl_sync(mask, ...) __shfl_sync((unsigned)(mask), __VA_ARGS__)
#define __shfl_up_sync(mask, ...) __shfl_up_sync((unsigned)(mask), __VA_ARGS__)
#define __shfl_down_sync(mask, ...) __shfl_down_sync((unsigned)(mask), __VA_ARGS__)
#define __shfl_xor_sync(mask, ...) __shfl_xor_sync((unsigned)(mask), __VA_ARGS__)
#define __reduce_add_sync(mask, value) __reduce_add_sync((unsigned)(mask), (value))
#define __reduce_min_sync(mask, value) __reduce_min_sync((unsigned)(mask), (value))
#define __reduce_max_sync(mask, value) __reduce_max_sync((unsigned)(mask), (value))
#define __reduce_and_sync(mask, value) __reduce_and_sync((unsigned)(mask), (value))
#define __reduce_or_sync(mask, value) __reduce_or_sync((unsigned)(mask), (value))
#define __reduce_xor_sync(mask, value) __reduce_xor_sync((unsigned)(mask), (value))

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
template <typename T> __device__ inline unsigned long long __match_any(T value) {
  return __match_any_sync(__activemask(), value);
}
template <typename T> __device__ inline unsigned long long __match_all(T value, int *pred) {
  return __match_all_sync(__activemask(), value, pred);
}
#endif

/* The lane's index in its warp, 0..31. */
__device__ inline unsigned int __lane_id() {
  unsigned int id;

  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

/* ---- timers ------------------------------------------------------------- */

/* HIP's constant-rate clock. NVIDIA's is %globaltimer, in nanoseconds, so
 * hipDeviceAttributeWallClockRate reports 1000000 kHz on the NVIDIA device.
 * The timer ticks in steps of the GPU's update interval (around 32 ns to 1 us
 * depending on the GPU): fine for durations, not for counting cycles, which
 * is what clock64() (CUDA's, the SM cycle counter) is for. */
__device__ inline long long wall_clock64() {
  unsigned long long t;

  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return (long long)t;
}

/* AMD's s_sleep(n) (about 64*n cycles): a nanosleep of the same order. */
__device__ inline void __builtin_amdgcn_s_sleep(int n) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  __nanosleep(64u * (unsigned)n);
#endif
}

/* ---- atomics HIP has and CUDA lacks ------------------------------------- */

namespace anyhip {
namespace nv {

/* Scope-selected compare-and-swap on the 32- or 64-bit word. */
enum scope { scope_device, scope_system, scope_block };

template <scope S> __device__ inline unsigned cas32(unsigned *p, unsigned cmp, unsigned val) {
  return S == scope_system  ? atomicCAS_system(p, cmp, val)
         : S == scope_block ? atomicCAS_block(p, cmp, val)
                            : atomicCAS(p, cmp, val);
}
template <scope S>
__device__ inline unsigned long long cas64(unsigned long long *p, unsigned long long cmp,
                                           unsigned long long val) {
  return S == scope_system  ? atomicCAS_system(p, cmp, val)
         : S == scope_block ? atomicCAS_block(p, cmp, val)
                            : atomicCAS(p, cmp, val);
}

/* Applies op to *addr atomically with a CAS loop; returns the old value. */
template <scope S, typename Op> __device__ inline float update(float *addr, Op op) {
  unsigned *p = reinterpret_cast<unsigned *>(addr);
  unsigned old = *reinterpret_cast<volatile unsigned *>(p), assumed;

  do {
    assumed = old;
    old = cas32<S>(p, assumed, __float_as_uint(op(__uint_as_float(assumed))));
  } while (old != assumed);
  return __uint_as_float(old);
}
template <scope S, typename Op> __device__ inline double update(double *addr, Op op) {
  unsigned long long *p = reinterpret_cast<unsigned long long *>(addr);
  unsigned long long old = *reinterpret_cast<volatile unsigned long long *>(p), assumed;

  do {
    assumed = old;
    old = cas64<S>(p, assumed,
                   (unsigned long long)__double_as_longlong(op(__longlong_as_double(
                       (long long)assumed))));
  } while (old != assumed);
  return __longlong_as_double((long long)old);
}

template <typename T> __device__ inline T minimum(T a, T b) {
  return b < a ? b : a;
}
template <typename T> __device__ inline T maximum(T a, T b) {
  return a < b ? b : a;
}

typedef unsigned long long ull;
static_assert(sizeof(unsigned long) == sizeof(ull), "LP64 expected");

} // namespace nv
} // namespace anyhip

/* unsigned long (HIP's list has it; CUDA's does not): the 64-bit atomics. */
#define AH_NV_ULONG_OP(name)                                                              \
  __device__ inline unsigned long name(unsigned long *addr, unsigned long val) {          \
    return (unsigned long)name(reinterpret_cast<unsigned long long *>(addr),              \
                               (unsigned long long)val);                                  \
  }
#define AH_NV_ULONG_SCOPES(op) AH_NV_ULONG_OP(op) AH_NV_ULONG_OP(op##_system)
AH_NV_ULONG_SCOPES(atomicAdd)
AH_NV_ULONG_SCOPES(atomicExch)
AH_NV_ULONG_SCOPES(atomicMin)
AH_NV_ULONG_SCOPES(atomicMax)
AH_NV_ULONG_SCOPES(atomicAnd)
AH_NV_ULONG_SCOPES(atomicOr)
AH_NV_ULONG_SCOPES(atomicXor)
#undef AH_NV_ULONG_SCOPES
#undef AH_NV_ULONG_OP

__device__ inline unsigned long atomicCAS(unsigned long *addr, unsigned long cmp,
                                          unsigned long val) {
  return (unsigned long)atomicCAS(reinterpret_cast<unsigned long long *>(addr),
                                  (unsigned long long)cmp, (unsigned long long)val);
}
__device__ inline unsigned long atomicCAS_system(unsigned long *addr, unsigned long cmp,
                                                 unsigned long val) {
  return (unsigned long)atomicCAS_system(reinterpret_cast<unsigned long long *>(addr),
                                         (unsigned long long)cmp, (unsigned long long)val);
}

/* atomicSub on the 64-bit and floating-point types: an add of the negation. */
__device__ inline unsigned long long atomicSub(unsigned long long *addr, unsigned long long val) {
  return atomicAdd(addr, 0ull - val);
}
__device__ inline unsigned long long atomicSub_system(unsigned long long *addr,
                                                      unsigned long long val) {
  return atomicAdd_system(addr, 0ull - val);
}
__device__ inline unsigned long atomicSub(unsigned long *addr, unsigned long val) {
  return atomicAdd(addr, 0ul - val);
}
__device__ inline unsigned long atomicSub_system(unsigned long *addr, unsigned long val) {
  return atomicAdd_system(addr, 0ul - val);
}
__device__ inline float atomicSub(float *addr, float val) {
  return atomicAdd(addr, -val);
}
__device__ inline float atomicSub_system(float *addr, float val) {
  return atomicAdd_system(addr, -val);
}
__device__ inline double atomicSub(double *addr, double val) {
  return atomicAdd(addr, -val);
}
__device__ inline double atomicSub_system(double *addr, double val) {
  return atomicAdd_system(addr, -val);
}

/* Floating-point exchange, compare-and-swap (bitwise, as HIP's), min, max. */
__device__ inline double atomicExch(double *addr, double val) {
  return __longlong_as_double((long long)atomicExch(
      reinterpret_cast<unsigned long long *>(addr), (unsigned long long)__double_as_longlong(val)));
}
__device__ inline double atomicExch_system(double *addr, double val) {
  return __longlong_as_double((long long)atomicExch_system(
      reinterpret_cast<unsigned long long *>(addr), (unsigned long long)__double_as_longlong(val)));
}
__device__ inline float atomicCAS(float *addr, float cmp, float val) {
  return __uint_as_float(atomicCAS(reinterpret_cast<unsigned *>(addr), __float_as_uint(cmp),
                                   __float_as_uint(val)));
}
__device__ inline float atomicCAS_system(float *addr, float cmp, float val) {
  return __uint_as_float(atomicCAS_system(reinterpret_cast<unsigned *>(addr),
                                          __float_as_uint(cmp), __float_as_uint(val)));
}
__device__ inline double atomicCAS(double *addr, double cmp, double val) {
  return __longlong_as_double((long long)atomicCAS(
      reinterpret_cast<unsigned long long *>(addr), (unsigned long long)__double_as_longlong(cmp),
      (unsigned long long)__double_as_longlong(val)));
}
__device__ inline double atomicCAS_system(double *addr, double cmp, double val) {
  return __longlong_as_double((long long)atomicCAS_system(
      reinterpret_cast<unsigned long long *>(addr), (unsigned long long)__double_as_longlong(cmp),
      (unsigned long long)__double_as_longlong(val)));
}

#define AH_NV_FP_MINMAX(T)                                                                 \
  __device__ inline T atomicMin(T *addr, T val) {                                          \
    return ::anyhip::nv::update<::anyhip::nv::scope_device>(                               \
        addr, [val](T old) { return ::anyhip::nv::minimum(old, val); });                   \
  }                                                                                        \
  __device__ inline T atomicMin_system(T *addr, T val) {                                   \
    return ::anyhip::nv::update<::anyhip::nv::scope_system>(                               \
        addr, [val](T old) { return ::anyhip::nv::minimum(old, val); });                   \
  }                                                                                        \
  __device__ inline T atomicMax(T *addr, T val) {                                          \
    return ::anyhip::nv::update<::anyhip::nv::scope_device>(                               \
        addr, [val](T old) { return ::anyhip::nv::maximum(old, val); });                   \
  }                                                                                        \
  __device__ inline T atomicMax_system(T *addr, T val) {                                   \
    return ::anyhip::nv::update<::anyhip::nv::scope_system>(                               \
        addr, [val](T old) { return ::anyhip::nv::maximum(old, val); });                   \
  }
AH_NV_FP_MINMAX(float)
AH_NV_FP_MINMAX(double)
#undef AH_NV_FP_MINMAX

/* HIP's explicitly safe and unsafe floating-point adds: NVIDIA's hardware
 * float and double atomics are exact on every kind of memory, so both are
 * the plain add. */
__device__ inline float safeAtomicAdd(float *addr, float val) {
  return atomicAdd(addr, val);
}
__device__ inline double safeAtomicAdd(double *addr, double val) {
  return atomicAdd(addr, val);
}
__device__ inline float unsafeAtomicAdd(float *addr, float val) {
  return atomicAdd(addr, val);
}
__device__ inline double unsafeAtomicAdd(double *addr, double val) {
  return atomicAdd(addr, val);
}

#include <hip/anyhip/nvidia/compat.h>

#endif
