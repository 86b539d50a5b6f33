/* SPDX-License-Identifier: MIT */
/* Device-code names HIP programs use (ROCm's unit suite among them) that CUDA
 * spells otherwise or lacks, for hipcc's NVIDIA pass; the CPU device's are in
 * cpu/atomic.h, cpu/device_math.h and cpu/device_functions.h:
 *   - std::sinf-style float functions (C++ names libstdc++ does not declare);
 *   - clang's __hip_atomic_* builtins and the __HIP_MEMORY_SCOPE_* values,
 *     on CUDA's atomics (4- and 8-byte types through their bits);
 *   - unsafeAtomicMax/Min and the safe forms, __clock (s_sleep: kernel.h). */
#ifndef ANYHIP_NVIDIA_COMPAT_H
#define ANYHIP_NVIDIA_COMPAT_H

#include <string.h>

#include <hip/anyhip/common/device_names.hpp>

namespace anyhip {
namespace nv {

/* The unsigned type of T's size, for CUDA's atomics on any 4- or 8-byte T. */
template <unsigned N> struct bits_of;
template <> struct bits_of<4> { typedef unsigned int type; };
template <> struct bits_of<8> { typedef unsigned long long type; };

template <class T> __device__ inline typename bits_of<sizeof(T)>::type to_bits(T v) {
  typename bits_of<sizeof(T)>::type b;
  memcpy(&b, &v, sizeof(b));
  return b;
}
template <class T> __device__ inline T from_bits(typename bits_of<sizeof(T)>::type b) {
  T v;
  memcpy(&v, &b, sizeof(v));
  return v;
}

template <class T> __device__ inline T hip_atomic_load(T *p, int order) {
  T v = *(volatile T *)p;
  if (order != __ATOMIC_RELAXED)
    __threadfence();
  return v;
}
template <class T, class U> __device__ inline void hip_atomic_store(T *p, U v, int order) {
  if (order != __ATOMIC_RELAXED)
    __threadfence();
  *(volatile T *)p = (T)v;
}
template <class T, class U> __device__ inline T hip_atomic_exchange(T *p, U v) {
  typedef typename bits_of<sizeof(T)>::type B;
  return from_bits<T>(atomicExch((B *)p, to_bits((T)v)));
}
template <class T, class U>
__device__ inline bool hip_atomic_cas(T *p, T *expected, U desired) {
  typedef typename bits_of<sizeof(T)>::type B;
  B want = to_bits(*expected), old = atomicCAS((B *)p, want, to_bits((T)desired));
  if (old == want)
    return true;
  *expected = from_bits<T>(old);
  return false;
}

} // namespace nv
} // namespace anyhip

#define __hip_atomic_load(p, order, scope) ::anyhip::nv::hip_atomic_load((p), (order))
#define __hip_atomic_store(p, v, order, scope) ::anyhip::nv::hip_atomic_store((p), (v), (order))
#define __hip_atomic_exchange(p, v, order, scope) ::anyhip::nv::hip_atomic_exchange((p), (v))
#define __hip_atomic_fetch_add(p, v, order, scope) atomicAdd((p), (v))
#define __hip_atomic_fetch_and(p, v, order, scope) atomicAnd((p), (v))
#define __hip_atomic_fetch_or(p, v, order, scope) atomicOr((p), (v))
#define __hip_atomic_fetch_xor(p, v, order, scope) atomicXor((p), (v))
#define __hip_atomic_fetch_min(p, v, order, scope) atomicMin((p), (v))
#define __hip_atomic_fetch_max(p, v, order, scope) atomicMax((p), (v))
#define __hip_atomic_compare_exchange_strong(p, expected, desired, succ, fail, scope)              \
  ::anyhip::nv::hip_atomic_cas((p), (expected), (desired))
#define __hip_atomic_compare_exchange_weak(p, expected, desired, succ, fail, scope)                \
  ::anyhip::nv::hip_atomic_cas((p), (expected), (desired))

/* AMD's unsafe (fast, no denormal guarantee on some memory) and safe
 * floating-point min and max: on NVIDIA both are atomicMin/atomicMax. */
#define AH_NV_SAFE_MINMAX(T)                                                                  \
  __device__ inline T unsafeAtomicMax(T *addr, T val) { return atomicMax(addr, val); }         \
  __device__ inline T unsafeAtomicMin(T *addr, T val) { return atomicMin(addr, val); }         \
  __device__ inline T safeAtomicMax(T *addr, T val) { return atomicMax(addr, val); }           \
  __device__ inline T safeAtomicMin(T *addr, T val) { return atomicMin(addr, val); }
AH_NV_SAFE_MINMAX(float)
AH_NV_SAFE_MINMAX(double)
#undef AH_NV_SAFE_MINMAX

__device__ inline long long __clock() { return clock64(); }
__device__ inline long long __clock64() { return clock64(); }

#endif
