/* SPDX-License-Identifier: MIT */
/* HIP's atomic functions on the CPU device, with the compiler's __atomic
 * builtins on real memory: blocks run in parallel on several workers, so
 * global memory needs true atomics (shared memory would not, but is cheap
 * enough to treat the same). Every function returns the old value. Ordering
 * is relaxed, as HIP's atomics are; use __threadfence() to order. The
 * _system and _block forms are the same operations. Floating-point add, min
 * and max, atomicInc/Dec and integer min/max are compare-and-swap loops. */
#ifndef ANYHIP_CPU_ATOMIC_H
#define ANYHIP_CPU_ATOMIC_H

#include <cmath>
#include <type_traits>

namespace anyhip {
namespace cpu {

#define AH_ATOMIC_INLINE inline __attribute__((always_inline))

/* Applies f to *p atomically; returns the old value. Works for any 4- or
 * 8-byte type (floats compare bit-for-bit, so NaNs do not loop forever). */
template <typename T, typename F> AH_ATOMIC_INLINE T atomic_update(T *p, F f) {
  T old, desired;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  do {
    desired = f(old);
  } while (!__atomic_compare_exchange(p, &old, &desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return old;
}

/* min/max: no write at all when the value would not change. */
template <typename T, typename Better> AH_ATOMIC_INLINE T atomic_extreme(T *p, T v, Better better) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  while (better(v, old)) {
    if (__atomic_compare_exchange(p, &old, &v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      break;
  }
  return old;
}

template <typename T> AH_ATOMIC_INLINE T atomic_min(T *p, T v) {
  if constexpr (std::is_floating_point<T>::value)
    return atomic_extreme(p, v, [](T a, T b) { return a < b || std::isnan(b); });
  else
    return atomic_extreme(p, v, [](T a, T b) { return a < b; });
}
template <typename T> AH_ATOMIC_INLINE T atomic_max(T *p, T v) {
  if constexpr (std::is_floating_point<T>::value)
    return atomic_extreme(p, v, [](T a, T b) { return a > b || std::isnan(b); });
  else
    return atomic_extreme(p, v, [](T a, T b) { return a > b; });
}

template <typename T> AH_ATOMIC_INLINE T atomic_add(T *p, T v) {
  if constexpr (std::is_floating_point<T>::value)
    return atomic_update(p, [v](T a) { return a + v; });
  else
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
template <typename T> AH_ATOMIC_INLINE T atomic_sub(T *p, T v) {
  if constexpr (std::is_floating_point<T>::value)
    return atomic_update(p, [v](T a) { return a - v; });
  else
    return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);
}
template <typename T> AH_ATOMIC_INLINE T atomic_exch(T *p, T v) {
  T old;
  __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
  return old;
}
template <typename T> AH_ATOMIC_INLINE T atomic_cas(T *p, T compare, T v) {
  __atomic_compare_exchange(p, &compare, &v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare; /* the old value, whether or not it matched */
}

/* For the __hip_atomic_* builtins: the operand converts to the pointee. */
template <typename T, typename U> AH_ATOMIC_INLINE T atomic_add_any(T *p, U v) {
  return atomic_add(p, (T)v);
}
template <typename T, typename U> AH_ATOMIC_INLINE T atomic_min_any(T *p, U v) {
  return atomic_min(p, (T)v);
}
template <typename T, typename U> AH_ATOMIC_INLINE T atomic_max_any(T *p, U v) {
  return atomic_max(p, (T)v);
}

} // namespace cpu
} // namespace anyhip

/* Each operation under its three names. */
#define AH_ATOMIC_3(name, T, params, call)                                                         \
  AH_ATOMIC_INLINE T name params { return call; }                                                  \
  AH_ATOMIC_INLINE T name##_system params { return call; }                                         \
  AH_ATOMIC_INLINE T name##_block params { return call; }

#define AH_ATOMIC_BINARY(name, fn, T)                                                              \
  AH_ATOMIC_3(name, T, (T * address, T val), anyhip::cpu::fn(address, val))

/* Integers: the types HIP lists, plus the signed 64-bit ones. */
#define AH_ATOMIC_INTEGERS(X, name, fn)                                                            \
  X(name, fn, int)                                                                                 \
  X(name, fn, unsigned int)                                                                        \
  X(name, fn, long)                                                                                \
  X(name, fn, unsigned long)                                                                       \
  X(name, fn, long long)                                                                           \
  X(name, fn, unsigned long long)
#define AH_ATOMIC_ALL(X, name, fn)                                                                 \
  AH_ATOMIC_INTEGERS(X, name, fn)                                                                  \
  X(name, fn, float)                                                                               \
  X(name, fn, double)

AH_ATOMIC_ALL(AH_ATOMIC_BINARY, atomicAdd, atomic_add)
AH_ATOMIC_ALL(AH_ATOMIC_BINARY, atomicSub, atomic_sub)
/* atomicExch: exactly HIP's types (no long, no long long), so that code HIP
 * refuses is refused here too (ROCm's unit suite counts the errors). */
AH_ATOMIC_BINARY(atomicExch, atomic_exch, int)
AH_ATOMIC_BINARY(atomicExch, atomic_exch, unsigned int)
AH_ATOMIC_BINARY(atomicExch, atomic_exch, unsigned long)
AH_ATOMIC_BINARY(atomicExch, atomic_exch, unsigned long long)
AH_ATOMIC_BINARY(atomicExch, atomic_exch, float)
AH_ATOMIC_BINARY(atomicExch, atomic_exch, double)
AH_ATOMIC_ALL(AH_ATOMIC_BINARY, atomicMin, atomic_min)
AH_ATOMIC_ALL(AH_ATOMIC_BINARY, atomicMax, atomic_max)

#define AH_ATOMIC_BITS(name, op, T)                                                                \
  AH_ATOMIC_3(name, T, (T * address, T val), op(address, val, __ATOMIC_RELAXED))
AH_ATOMIC_INTEGERS(AH_ATOMIC_BITS, atomicAnd, __atomic_fetch_and)
AH_ATOMIC_INTEGERS(AH_ATOMIC_BITS, atomicOr, __atomic_fetch_or)
AH_ATOMIC_INTEGERS(AH_ATOMIC_BITS, atomicXor, __atomic_fetch_xor)

#define AH_ATOMIC_CAS(name, fn, T)                                                                 \
  AH_ATOMIC_3(name, T, (T * address, T compare, T val), anyhip::cpu::fn(address, compare, val))
AH_ATOMIC_ALL(AH_ATOMIC_CAS, atomicCAS, atomic_cas)
AH_ATOMIC_CAS(atomicCAS, atomic_cas, unsigned short)

/* atomicInc: old >= val ? 0 : old + 1; atomicDec: old == 0 || old > val ? val : old - 1. */
AH_ATOMIC_3(atomicInc, unsigned int, (unsigned int *address, unsigned int val),
            anyhip::cpu::atomic_update(address, [val](unsigned int old) {
              return old >= val ? 0u : old + 1;
            }))
AH_ATOMIC_3(atomicDec, unsigned int, (unsigned int *address, unsigned int val),
            anyhip::cpu::atomic_update(address, [val](unsigned int old) {
              return old == 0 || old > val ? val : old - 1;
            }))

/* AMD's explicit fast and safe floating-point adds: one implementation here. */
AH_ATOMIC_INLINE float unsafeAtomicAdd(float *address, float val) {
  return anyhip::cpu::atomic_add(address, val);
}
AH_ATOMIC_INLINE double unsafeAtomicAdd(double *address, double val) {
  return anyhip::cpu::atomic_add(address, val);
}
AH_ATOMIC_INLINE float safeAtomicAdd(float *address, float val) {
  return anyhip::cpu::atomic_add(address, val);
}
AH_ATOMIC_INLINE double safeAtomicAdd(double *address, double val) {
  return anyhip::cpu::atomic_add(address, val);
}
AH_ATOMIC_INLINE void atomicAddNoRet(float *address, float val) {
  (void)anyhip::cpu::atomic_add(address, val);
}
/* ... and min/max, fast and safe alike. */
AH_ATOMIC_INLINE float unsafeAtomicMax(float *address, float val) {
  return anyhip::cpu::atomic_max(address, val);
}
AH_ATOMIC_INLINE double unsafeAtomicMax(double *address, double val) {
  return anyhip::cpu::atomic_max(address, val);
}
AH_ATOMIC_INLINE float unsafeAtomicMin(float *address, float val) {
  return anyhip::cpu::atomic_min(address, val);
}
AH_ATOMIC_INLINE double unsafeAtomicMin(double *address, double val) {
  return anyhip::cpu::atomic_min(address, val);
}
AH_ATOMIC_INLINE float safeAtomicMax(float *address, float val) {
  return anyhip::cpu::atomic_max(address, val);
}
AH_ATOMIC_INLINE double safeAtomicMax(double *address, double val) {
  return anyhip::cpu::atomic_max(address, val);
}
AH_ATOMIC_INLINE float safeAtomicMin(float *address, float val) {
  return anyhip::cpu::atomic_min(address, val);
}
AH_ATOMIC_INLINE double safeAtomicMin(double *address, double val) {
  return anyhip::cpu::atomic_min(address, val);
}

#undef AH_ATOMIC_3
#undef AH_ATOMIC_BINARY
#undef AH_ATOMIC_INTEGERS
#undef AH_ATOMIC_ALL
#undef AH_ATOMIC_BITS
#undef AH_ATOMIC_CAS

/* Clang's HIP builtins, which some HIP code calls directly. The scope
 * argument is accepted and ignored: every scope is the whole machine here. */
#include <hip/anyhip/common/device_names.hpp>
/* Loads, stores, exchanges and compare-exchanges of any type of 1 to 8 bytes, floats included
 * (clang's __hip_atomic_* take them; GCC's _n builtins take only integers and pointers). */
namespace anyhip {
namespace cpu {
template <typename T> AH_ATOMIC_INLINE T hip_atomic_load(T *p, int order) {
  typename std::remove_cv<T>::type r;
  __atomic_load(p, &r, order);
  return r;
}
template <typename T, typename U> AH_ATOMIC_INLINE void hip_atomic_store(T *p, U v, int order) {
  T t = static_cast<T>(v);
  __atomic_store(p, &t, order);
}
template <typename T, typename U> AH_ATOMIC_INLINE T hip_atomic_exchange(T *p, U v, int order) {
  T t = static_cast<T>(v), r;
  __atomic_exchange(p, &t, &r, order);
  return r;
}
template <typename T, typename U>
AH_ATOMIC_INLINE bool hip_atomic_cas(T *p, T *expected, U desired, bool weak, int succ, int fail) {
  T d = static_cast<T>(desired);
  return __atomic_compare_exchange(p, expected, &d, weak, succ, fail);
}
} // namespace cpu
} // namespace anyhip
#define __hip_atomic_load(p, order, scope) anyhip::cpu::hip_atomic_load((p), (order))
#define __hip_atomic_store(p, v, order, scope) anyhip::cpu::hip_atomic_store((p), (v), (order))
#define __hip_atomic_exchange(p, v, order, scope)                                                 \
  anyhip::cpu::hip_atomic_exchange((p), (v), (order))
#define __hip_atomic_fetch_add(p, v, order, scope) anyhip::cpu::atomic_add_any((p), (v))
#define __hip_atomic_fetch_and(p, v, order, scope) __atomic_fetch_and((p), (v), (order))
#define __hip_atomic_fetch_or(p, v, order, scope) __atomic_fetch_or((p), (v), (order))
#define __hip_atomic_fetch_xor(p, v, order, scope) __atomic_fetch_xor((p), (v), (order))
#define __hip_atomic_fetch_min(p, v, order, scope) anyhip::cpu::atomic_min_any((p), (v))
#define __hip_atomic_fetch_max(p, v, order, scope) anyhip::cpu::atomic_max_any((p), (v))
#define __hip_atomic_compare_exchange_strong(p, expected, desired, succ, fail, scope)              \
  anyhip::cpu::hip_atomic_cas((p), (expected), (desired), false, (succ), (fail))
#define __hip_atomic_compare_exchange_weak(p, expected, desired, succ, fail, scope)                \
  anyhip::cpu::hip_atomic_cas((p), (expected), (desired), true, (succ), (fail))

#endif
