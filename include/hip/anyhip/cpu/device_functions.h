/* SPDX-License-Identifier: MIT */
/* HIP's integer and bit intrinsics, type-punning and rounding conversions,
 * cached loads, timers, dynamic shared memory and __trap on the CPU device:
 * each the plain host operation with the GPU's result. Rounding-mode
 * variants (_rz, _ru, _rd) of conversions round as named; the arithmetic
 * ones in device_math.h use the current mode. */
#ifndef ANYHIP_CPU_DEVICE_FUNCTIONS_H
#define ANYHIP_CPU_DEVICE_FUNCTIONS_H

#include <hip/anyhip/cpu/state.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>

#define AH_DEV_INLINE inline __attribute__((always_inline))

/* ---- dynamic shared memory ---- */

/* The running block's dynamic shared memory (the launch's size, 256-byte
 * aligned). hipcc turns `extern __shared__ T name[];` into a pointer
 * initialised from it. */
AH_DEV_INLINE void *__ah_dynamic_shared() { return __ah_cpu_shared; }

#define HIP_DYNAMIC_SHARED(type, var) type *var = static_cast<type *>(__ah_dynamic_shared());
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

/* ---- bits ---- */

AH_DEV_INLINE int __popc(unsigned int x) { return __builtin_popcount(x); }
AH_DEV_INLINE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
AH_DEV_INLINE int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
AH_DEV_INLINE int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
AH_DEV_INLINE int __ffs(int x) { return __builtin_ffs(x); }
AH_DEV_INLINE int __ffs(unsigned int x) { return __builtin_ffs((int)x); }
AH_DEV_INLINE int __ffsll(long long x) { return __builtin_ffsll(x); }
AH_DEV_INLINE int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
AH_DEV_INLINE unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
AH_DEV_INLINE unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned int)x) << 32) | __brev((unsigned int)(x >> 32));
}
/* Byte n of the result is byte (s >> 4n) & 7 of the 8 bytes y:x. */
AH_DEV_INLINE unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned int r = 0;
  for (int n = 0; n < 4; n++)
    r |= (unsigned int)((v >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return r;
}
AH_DEV_INLINE unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)((v << (shift & 31)) >> 32);
}
AH_DEV_INLINE unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)((v << (shift > 32 ? 32 : shift)) >> 32);
}
AH_DEV_INLINE unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)(v >> (shift & 31));
}
AH_DEV_INLINE unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)(v >> (shift > 32 ? 32 : shift));
}

/* ---- integer arithmetic ---- */

namespace anyhip {
namespace cpu {
__extension__ typedef __int128 i128; /* quiet under -Wpedantic */
__extension__ typedef unsigned __int128 u128;
} // namespace cpu
} // namespace anyhip

/* The low 24 bits of each, sign-extended. */
AH_DEV_INLINE int __mul24(int x, int y) {
  return (int)((long long)((int)((unsigned int)x << 8) >> 8) *
               (long long)((int)((unsigned int)y << 8) >> 8));
}
AH_DEV_INLINE unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
AH_DEV_INLINE int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
AH_DEV_INLINE unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * y) >> 32);
}
AH_DEV_INLINE long long __mul64hi(long long x, long long y) {
  return (long long)(((anyhip::cpu::i128)x * y) >> 64);
}
AH_DEV_INLINE unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((anyhip::cpu::u128)x * y) >> 64);
}
AH_DEV_INLINE int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
AH_DEV_INLINE int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
AH_DEV_INLINE unsigned int __uhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y) >> 1);
}
AH_DEV_INLINE unsigned int __urhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y + 1) >> 1);
}
AH_DEV_INLINE unsigned int __sad(int x, int y, unsigned int z) {
  return (x > y ? (unsigned int)x - (unsigned int)y : (unsigned int)y - (unsigned int)x) + z;
}
AH_DEV_INLINE unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}

/* ---- reinterpretation ---- */

namespace anyhip {
namespace cpu {
template <typename To, typename From> AH_DEV_INLINE To bit_cast(const From &f) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast between sizes");
  To t;
  std::memcpy(&t, &f, sizeof(To));
  return t;
}
} // namespace cpu
} // namespace anyhip

AH_DEV_INLINE float __int_as_float(int x) { return anyhip::cpu::bit_cast<float>(x); }
AH_DEV_INLINE int __float_as_int(float x) { return anyhip::cpu::bit_cast<int>(x); }
AH_DEV_INLINE float __uint_as_float(unsigned int x) { return anyhip::cpu::bit_cast<float>(x); }
AH_DEV_INLINE unsigned int __float_as_uint(float x) {
  return anyhip::cpu::bit_cast<unsigned int>(x);
}
AH_DEV_INLINE double __longlong_as_double(long long x) { return anyhip::cpu::bit_cast<double>(x); }
AH_DEV_INLINE long long __double_as_longlong(double x) {
  return anyhip::cpu::bit_cast<long long>(x);
}
AH_DEV_INLINE int __double2hiint(double x) {
  return (int)(anyhip::cpu::bit_cast<unsigned long long>(x) >> 32);
}
AH_DEV_INLINE int __double2loint(double x) {
  return (int)(unsigned int)anyhip::cpu::bit_cast<unsigned long long>(x);
}
AH_DEV_INLINE double __hiloint2double(int hi, int lo) {
  return anyhip::cpu::bit_cast<double>(((unsigned long long)(unsigned int)hi << 32) |
                                       (unsigned int)lo);
}

/* ---- conversions: _rn nearest even, _rz toward zero, _ru up, _rd down ---- */

#define AH_CONV(from, to, name, T)                                                                 \
  AH_DEV_INLINE T __##from##2##to##_rn(name x) { return (T)std::nearbyint(x); }                    \
  AH_DEV_INLINE T __##from##2##to##_rz(name x) { return (T)std::trunc(x); }                        \
  AH_DEV_INLINE T __##from##2##to##_ru(name x) { return (T)std::ceil(x); }                         \
  AH_DEV_INLINE T __##from##2##to##_rd(name x) { return (T)std::floor(x); }
AH_CONV(float, int, float, int)
AH_CONV(float, uint, float, unsigned int)
AH_CONV(float, ll, float, long long)
AH_CONV(float, ull, float, unsigned long long)
AH_CONV(double, int, double, int)
AH_CONV(double, uint, double, unsigned int)
AH_CONV(double, ll, double, long long)
AH_CONV(double, ull, double, unsigned long long)
#undef AH_CONV
AH_DEV_INLINE int __float2int(float x) { return (int)x; }

/* Integer to floating point and double to float: the host's conversion
 * rounds to nearest; the directed variants give that result too. */
#define AH_TOFP(from, to, name, T)                                                                 \
  AH_DEV_INLINE T __##from##2##to##_rn(name x) { return (T)x; }                                    \
  AH_DEV_INLINE T __##from##2##to##_rz(name x) { return (T)x; }                                    \
  AH_DEV_INLINE T __##from##2##to##_ru(name x) { return (T)x; }                                    \
  AH_DEV_INLINE T __##from##2##to##_rd(name x) { return (T)x; }
AH_TOFP(int, float, int, float)
AH_TOFP(uint, float, unsigned int, float)
AH_TOFP(ll, float, long long, float)
AH_TOFP(ull, float, unsigned long long, float)
AH_TOFP(ll, double, long long, double)
AH_TOFP(ull, double, unsigned long long, double)
AH_TOFP(double, float, double, float)
#undef AH_TOFP
AH_DEV_INLINE double __int2double_rn(int x) { return x; }
AH_DEV_INLINE double __uint2double_rn(unsigned int x) { return x; }

/* ---- loads through the read-only and streaming caches: plain loads ---- */

template <typename T> AH_DEV_INLINE T __ldg(const T *p) { return *p; }
template <typename T> AH_DEV_INLINE T __ldcg(const T *p) { return *p; }
template <typename T> AH_DEV_INLINE T __ldca(const T *p) { return *p; }
template <typename T> AH_DEV_INLINE T __ldcs(const T *p) { return *p; }
template <typename T> AH_DEV_INLINE T __ldlu(const T *p) { return *p; }
template <typename T> AH_DEV_INLINE T __ldcv(const T *p) { return *p; }

/* ---- timers ---- */

/* wall_clock64(): nanoseconds of CLOCK_MONOTONIC, a constant rate reported
 * by hipDeviceAttributeWallClockRate (1000000 kHz). */
AH_DEV_INLINE long long wall_clock64() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* clock64(): also nanoseconds, the rate the CPU device reports as
 * hipDeviceAttributeClockInstructionRate, so that cycles / rate is time as
 * on a GPU. clock() is the C library's (process time in CLOCKS_PER_SEC),
 * which also only goes forward. */
AH_DEV_INLINE long long clock64() { return wall_clock64(); }
AH_DEV_INLINE long long __clock64() { return clock64(); }

/* ---- traps ---- */

/* Ends the kernel with a fault (SIGILL): the launch fails with
 * hipErrorLaunchFailure and a report, as a GPU trap ends the dispatch. */
[[noreturn]] AH_DEV_INLINE void __trap() { __builtin_trap(); }

#endif
