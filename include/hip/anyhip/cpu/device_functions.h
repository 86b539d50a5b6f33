/* SPDX-License-Identifier: MIT */
/* HIP's integer and bit intrinsics, type-punning and rounding conversions,
 * bit fields, cached loads, timers, dynamic shared memory and __trap on the
 * CPU device: each the plain host operation with the GPU's result. The
 * rounding-mode variants (_rn, _rz, _ru, _rd) of conversions round as named
 * (math_round.h); float to integer saturates, as GPUs do. */
#ifndef ANYHIP_CPU_DEVICE_FUNCTIONS_H
#define ANYHIP_CPU_DEVICE_FUNCTIONS_H

#include <hip/anyhip/cpu/state.h>
#include <hip/anyhip/cpu/math_round.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <sched.h>
#include <limits>

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

namespace anyhip {
namespace cpu {
/* Rounds to an integral value: ties to even for _rn, regardless of the
 * current rounding mode. */
template <typename F> AH_DEV_INLINE F round_even(F x) {
  F r = std::round(x);
  if (std::fabs(x - std::trunc(x)) == (F)0.5)
    r = (F)2 * std::round(x / (F)2);
  return r;
}
/* An integral floating-point value to integer type I, saturating as NVIDIA's
 * and AMD's conversion instructions do (HIP leaves out-of-range results
 * undefined): below the range gives the minimum, above it the maximum. NaN
 * gives what PTX's cvt gives (docs/semantics.md): 0 from a float to a 32-bit
 * type, otherwise only the top bit set (INT_MIN, LLONG_MIN, 0x80000000,
 * 0x8000000000000000). */
template <typename I, typename F> AH_DEV_INLINE I to_int_sat(F r) {
  if (r != r) {
    if (sizeof(F) == 4 && sizeof(I) == 4)
      return 0;
    return std::numeric_limits<I>::is_signed ? std::numeric_limits<I>::min()
                                             : (I)(std::numeric_limits<I>::max() / 2 + 1);
  }
  /* Both ends are powers of two (or 0), so exact in F. */
  const F lo = (F)std::numeric_limits<I>::min();
  const F hi_excl = (F)2 * ((F)(std::numeric_limits<I>::max() / 2 + 1));
  if (r < lo)
    return std::numeric_limits<I>::min();
  if (r >= hi_excl)
    return std::numeric_limits<I>::max();
  return (I)r;
}
/* unsigned long long to F in the current rounding mode. x86-64 converts
 * only signed integers; clang's branch-free sequence for the unsigned ones
 * ((2^52 + lo) - 2^52 + ...) gives -0 for 0 when rounding down. A value below
 * 2^63 is converted as signed; above, half of it with the lost bit kept as a
 * sticky bit (far below F's last digit, so rounding is unchanged), doubled
 * exactly. This is also what GCC emits. */
template <typename F> AH_DEV_INLINE F u64_to_fp(unsigned long long x) {
  if ((long long)x >= 0)
    return (F)(long long)x;
  return (F)2 * (F)(long long)((x >> 1) | (x & 1));
}
} // namespace cpu
} // namespace anyhip

#define AH_CONV(from, to, name, T)                                                                 \
  AH_DEV_INLINE T __##from##2##to##_rn(name x) {                                                   \
    return anyhip::cpu::to_int_sat<T>(anyhip::cpu::round_even(x));                                 \
  }                                                                                                \
  AH_DEV_INLINE T __##from##2##to##_rz(name x) {                                                   \
    return anyhip::cpu::to_int_sat<T>(std::trunc(x));                                              \
  }                                                                                                \
  AH_DEV_INLINE T __##from##2##to##_ru(name x) {                                                   \
    return anyhip::cpu::to_int_sat<T>(std::ceil(x));                                               \
  }                                                                                                \
  AH_DEV_INLINE T __##from##2##to##_rd(name x) {                                                   \
    return anyhip::cpu::to_int_sat<T>(std::floor(x));                                              \
  }
AH_CONV(float, int, float, int)
AH_CONV(float, uint, float, unsigned int)
AH_CONV(float, ll, float, long long)
AH_CONV(float, ull, float, unsigned long long)
AH_CONV(double, int, double, int)
AH_CONV(double, uint, double, unsigned int)
AH_CONV(double, ll, double, long long)
AH_CONV(double, ull, double, unsigned long long)
#undef AH_CONV
AH_DEV_INLINE int __float2int(float x) { return __float2int_rz(x); }

/* Integer to floating point and double to float: the host's conversion
 * instruction, run in the named rounding mode (math_round.h). */
#define AH_TOFP(from, to, name, T)                                                                 \
  AH_ROUND_ALL(__##from##2##to, T, (name x), ::anyhip::cpu::fp_pin(x), (T)x)
AH_TOFP(int, float, int, float)
AH_TOFP(uint, float, unsigned int, float)
AH_TOFP(ll, float, long long, float)
AH_ROUND_ALL(__ull2float, float, (unsigned long long x), ::anyhip::cpu::fp_pin(x),
             ::anyhip::cpu::u64_to_fp<float>(x))
AH_TOFP(ll, double, long long, double)
AH_ROUND_ALL(__ull2double, double, (unsigned long long x), ::anyhip::cpu::fp_pin(x),
             ::anyhip::cpu::u64_to_fp<double>(x))
AH_TOFP(double, float, double, float)
#undef AH_TOFP
/* Exact: every int and unsigned int is a double. */
AH_DEV_INLINE double __int2double_rn(int x) { return x; }
AH_DEV_INLINE double __uint2double_rn(unsigned int x) { return x; }

/* ---- bit fields (AMD's bfe and bfi; offset and width taken mod 32 or 64) ---- */

/* Width bits of src from bit offset (bits past the top read as 0). */
AH_DEV_INLINE unsigned int __bitextract_u32(unsigned int src, unsigned int offset,
                                            unsigned int width) {
  offset &= 31;
  width &= 31;
  return width == 0 ? 0u : (src >> offset) & ((1u << width) - 1u);
}
/* 64 bits: AMD's device library shifts left by 64 - offset - width and back
 * by 64 - width, with the GPU's shift counts taken mod 64; a field that runs
 * past bit 63 therefore gives what AMD gives (ROCm's unit suite, bitExtract,
 * checks that formula): its bits below bit 64 read as 0 and the rest wrap
 * round to bit 0. Within the 64 bits it is the plain field. */
AH_DEV_INLINE uint64_t __bitextract_u64(uint64_t src, unsigned int offset, unsigned int width) {
  offset &= 63;
  width &= 63;
  return width == 0 ? 0u : (src << ((64u - offset - width) & 63u)) >> (64u - width);
}
/* src with `width` bits from bit offset replaced by the low bits of ins. */
AH_DEV_INLINE unsigned int __bitinsert_u32(unsigned int src, unsigned int ins,
                                           unsigned int offset, unsigned int width) {
  unsigned int mask = (1u << (width & 31)) - 1u;
  offset &= 31;
  return (src & ~(mask << offset)) | ((ins & mask) << offset);
}
AH_DEV_INLINE uint64_t __bitinsert_u64(uint64_t src, uint64_t ins, unsigned int offset,
                                       unsigned int width) {
  uint64_t mask = (1ull << (width & 63)) - 1u;
  offset &= 63;
  return (src & ~(mask << offset)) | ((ins & mask) << offset);
}
/* The lowest set bit's index, or ~0u for 0. */
AH_DEV_INLINE unsigned int __lastbit_u32_u64(uint64_t x) {
  return x == 0 ? ~0u : (unsigned int)__builtin_ctzll(x);
}
AH_DEV_INLINE unsigned int __lastbit_u32_u32(unsigned int x) {
  return x == 0 ? ~0u : (unsigned int)__builtin_ctz(x);
}

namespace anyhip {
namespace cpu {
/* The position of the n-th set bit of mask counting from bit base (base
 * included): upward for n > 0, downward for n < 0; n = 0 asks whether bit
 * base itself is set. ~0u when there is none. */
AH_DEV_INLINE unsigned int find_nth_set(unsigned long long mask, int bits, unsigned int base,
                                        int n) {
  base &= (unsigned int)(bits - 1);
  if (n == 0)
    return (mask >> base) & 1 ? base : ~0u;
  int step = n > 0 ? 1 : -1, left = n > 0 ? n : -n;
  for (int i = (int)base; i >= 0 && i < bits; i += step)
    if ((mask >> i) & 1 && --left == 0)
      return (unsigned int)i;
  return ~0u;
}
} // namespace cpu
} // namespace anyhip

/* CUDA's __fns: see find_nth_set. */
AH_DEV_INLINE unsigned int __fns32(unsigned int mask, unsigned int base, int offset) {
  return anyhip::cpu::find_nth_set(mask, 32, base, offset);
}
AH_DEV_INLINE unsigned int __fns64(unsigned long long mask, unsigned int base, int offset) {
  return anyhip::cpu::find_nth_set(mask, 64, base, offset);
}
AH_DEV_INLINE unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  return __fns32(mask, base, offset);
}

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
  __ah_cpu_poll(); /* a polling point: the block's other threads may run */
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* clock64(): also nanoseconds, the rate the CPU device reports as
 * hipDeviceAttributeClockInstructionRate, so that cycles / rate is time as
 * on a GPU. clock() is the C library's (process time in CLOCKS_PER_SEC),
 * which also only goes forward. */
AH_DEV_INLINE long long clock64() { return wall_clock64(); }
AH_DEV_INLINE long long __clock64() { return clock64(); }
AH_DEV_INLINE long long __clock() { return clock64(); }

/* AMD's s_sleep(n) waits about 64*n cycles so that a polling wave leaves the SIMD to others;
 * here the worker thread gives its core away for a moment, as polling code expects. */
AH_DEV_INLINE void __builtin_amdgcn_s_sleep(int n) {
  (void)n;
  __ah_cpu_poll();
  sched_yield();
}

/* ---- AMD's mixed-precision dot products ---- */

/* amd_mixed_dot(a, b, c, saturate): the sum of the lanes' products plus c,
 * as AMD's v_dot instructions compute it: 2 lanes of 16 bits, 4 of 8 bits,
 * or 8 of 4 bits packed in an int; signed or unsigned as the operands. With
 * saturate the sum is clamped to the result type's range, else it wraps. */
namespace anyhip {
namespace cpu {
AH_DEV_INLINE int dot_result(long long sum, bool saturate) {
  if (saturate)
    return sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int)sum;
  return (int)(uint32_t)(unsigned long long)sum;
}
AH_DEV_INLINE unsigned int dot_result_u(unsigned long long sum, bool saturate) {
  if (saturate && sum > UINT32_MAX)
    return UINT32_MAX;
  return (unsigned int)sum;
}
} // namespace cpu
} // namespace anyhip

AH_DEV_INLINE int amd_mixed_dot(short2 a, short2 b, int c, bool saturate) {
  return anyhip::cpu::dot_result((long long)a.x * b.x + (long long)a.y * b.y + c, saturate);
}
AH_DEV_INLINE unsigned int amd_mixed_dot(ushort2 a, ushort2 b, unsigned int c, bool saturate) {
  return anyhip::cpu::dot_result_u(
      (unsigned long long)a.x * b.x + (unsigned long long)a.y * b.y + c, saturate);
}
AH_DEV_INLINE int amd_mixed_dot(char4 a, char4 b, int c, bool saturate) {
  long long s = (long long)(signed char)a.x * (signed char)b.x +
                (long long)(signed char)a.y * (signed char)b.y +
                (long long)(signed char)a.z * (signed char)b.z +
                (long long)(signed char)a.w * (signed char)b.w;
  return anyhip::cpu::dot_result(s + c, saturate);
}
AH_DEV_INLINE unsigned int amd_mixed_dot(uchar4 a, uchar4 b, unsigned int c, bool saturate) {
  unsigned long long s = (unsigned long long)a.x * b.x + (unsigned long long)a.y * b.y +
                         (unsigned long long)a.z * b.z + (unsigned long long)a.w * b.w;
  return anyhip::cpu::dot_result_u(s + c, saturate);
}
AH_DEV_INLINE int amd_mixed_dot(int a, int b, int c, bool saturate) {
  long long s = c;
  for (int i = 0; i < 8; i++) { /* signed 4-bit lanes */
    int x = (int)((unsigned)a << (28 - 4 * i)) >> 28, y = (int)((unsigned)b << (28 - 4 * i)) >> 28;
    s += (long long)x * y;
  }
  return anyhip::cpu::dot_result(s, saturate);
}
AH_DEV_INLINE unsigned int amd_mixed_dot(unsigned int a, unsigned int b, unsigned int c,
                                         bool saturate) {
  unsigned long long s = c;
  for (int i = 0; i < 8; i++)
    s += (unsigned long long)(a >> 4 * i & 15u) * (b >> 4 * i & 15u);
  return anyhip::cpu::dot_result_u(s, saturate);
}

/* ---- traps ---- */

/* Ends the kernel with a fault (SIGILL): the launch fails with
 * hipErrorLaunchFailure and a report, as a GPU trap ends the dispatch. */
[[noreturn]] AH_DEV_INLINE void __trap() { __builtin_trap(); }

#endif
