/* SPDX-License-Identifier: MIT */
/* hip_bf16.h for the CPU pass: __hip_bfloat16 (bfloat16: float's sign and
 * exponent, 7 fraction bits) and __hip_bfloat162, with the conversions,
 * arithmetic, comparisons, operators and math that HIP's hip_bf16.h and
 * CUDA's cuda_bf16.h share, in host code and CPU-device kernels alike.
 * Results are computed in double, rounded to odd in double and then in
 * float, then rounded once to bfloat16 in the requested mode: correctly
 * rounded for + - * / sqrt and fma, in every range (denormals included). */
#ifndef ANYHIP_CPU_FP16_BF16_HPP
#define ANYHIP_CPU_FP16_BF16_HPP

#include <hip/anyhip/cpu/fp16_convert.hpp>
#include <hip/hip_vector_types.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>

#define AH_BF inline __attribute__((always_inline))

namespace anyhip {
namespace bf16 {

using fp16::round_mode;
__extension__ typedef __int128 i128;

/* float to bfloat16 in mode; NaN stays NaN (quiet, sign and top payload). */
AH_BF std::uint16_t from_float(float f, round_mode mode = fp16::rn) {
  std::uint32_t u = fp16::f2u(f), hi = u >> 16, lo = u & 0xffffu;
  bool neg = u >> 31;

  if ((u & 0x7fffffffu) > 0x7f800000u)
    return (std::uint16_t)(hi | 0x40u);
  if (lo == 0)
    return (std::uint16_t)hi;
  bool away;
  switch (mode) {
  case fp16::rn:
    away = lo > 0x8000u || (lo == 0x8000u && (hi & 1));
    break;
  case fp16::ru:
    away = !neg;
    break;
  case fp16::rd:
    away = neg;
    break;
  default:
    away = false;
  }
  /* A carry out of the fraction steps the exponent, up to infinity. */
  return (std::uint16_t)(hi + (away ? 1 : 0));
}

/* A double rounded to odd at float's precision (exact when it fits). */
AH_BF float to_odd_float(double d) {
  float f = (float)d;
  if (d != d || (double)f == d)
    return f;
  if (std::isinf(f))
    f = std::copysign(FLT_MAX, f); /* odd: all fraction bits set */
  std::uint32_t u = fp16::f2u(f);
  if (u & 1)
    return f;
  if (((double)f < d) == (d > 0))
    u++;
  else
    u--;
  return fp16::u2f(u);
}

AH_BF std::uint16_t from_double(double d, round_mode mode = fp16::rn) {
  return bf16::from_float(to_odd_float(d), mode);
}

} // namespace bf16
} // namespace anyhip

struct __hip_bfloat16_raw {
  unsigned short x;
};
struct __hip_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

struct __hip_bfloat16 {
  unsigned short __x;

  __hip_bfloat16() = default;
  constexpr __hip_bfloat16(const __hip_bfloat16_raw &r) : __x(r.x) {}
  __hip_bfloat16(float f) : __x(anyhip::bf16::from_float(f)) {}
  __hip_bfloat16(double d) : __x(anyhip::bf16::from_double(d)) {}
  __hip_bfloat16(int v) : __x(anyhip::bf16::from_double((double)v)) {}
  __hip_bfloat16(unsigned int v) : __x(anyhip::bf16::from_double((double)v)) {}
  __hip_bfloat16(short v) : __x(anyhip::bf16::from_double((double)v)) {}
  __hip_bfloat16(unsigned short v) : __x(anyhip::bf16::from_double((double)v)) {}
  /* 64-bit integers: the double's rounding error, exact in 128 bits, sets
   * the odd bit, so the one rounding to bfloat16 stays correct. */
  __hip_bfloat16(long long v)
      : __x(anyhip::bf16::from_float(anyhip::bf16::to_odd_float(anyhip::fp16::to_odd(
            (double)v, (double)((anyhip::bf16::i128)v - (anyhip::bf16::i128)(double)v))))) {}
  __hip_bfloat16(unsigned long long v)
      : __x(anyhip::bf16::from_float(anyhip::bf16::to_odd_float(anyhip::fp16::to_odd(
            (double)v, (double)((anyhip::bf16::i128)v - (anyhip::bf16::i128)(double)v))))) {}
  __hip_bfloat16 &operator=(const __hip_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  constexpr operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{__x}; }
  operator float() const { return anyhip::fp16::u2f((std::uint32_t)__x << 16); }
};

struct __attribute__((aligned(4))) __hip_bfloat162 {
  __hip_bfloat16 x;
  __hip_bfloat16 y;

  __hip_bfloat162() = default;
  constexpr __hip_bfloat162(const __hip_bfloat16 &a, const __hip_bfloat16 &b) : x(a), y(b) {}
  constexpr __hip_bfloat162(const __hip_bfloat162_raw &r)
      : x(__hip_bfloat16_raw{r.x}), y(__hip_bfloat16_raw{r.y}) {}
  constexpr operator __hip_bfloat162_raw() const { return __hip_bfloat162_raw{x.__x, y.__x}; }
  /* Both halves widened (AMD's header converts so too). */
  operator float2() const { return float2{(float)x, (float)y}; }
};

/* CUDA's spellings, so that code written for cuda_bf16.h builds too. */
typedef __hip_bfloat16 __nv_bfloat16;
typedef __hip_bfloat162 __nv_bfloat162;
typedef __hip_bfloat16 nv_bfloat16;
typedef __hip_bfloat162 nv_bfloat162;

static_assert(sizeof(__hip_bfloat16) == 2 && sizeof(__hip_bfloat162) == 4, "bfloat16 sizes");

/* ---- conversions -------------------------------------------------------- */

AH_BF __hip_bfloat16 __ah_bf16_bits(unsigned short b) { return __hip_bfloat16_raw{b}; }
AH_BF float __bfloat162float(__hip_bfloat16 a) { return (float)a; }
AH_BF __hip_bfloat16 __float2bfloat16(float a) {
  return __ah_bf16_bits(anyhip::bf16::from_float(a));
}
AH_BF __hip_bfloat16 __float2bfloat16_rn(float a) { return __float2bfloat16(a); }
AH_BF __hip_bfloat16 __float2bfloat16_rz(float a) {
  return __ah_bf16_bits(anyhip::bf16::from_float(a, anyhip::fp16::rz));
}
AH_BF __hip_bfloat16 __float2bfloat16_ru(float a) {
  return __ah_bf16_bits(anyhip::bf16::from_float(a, anyhip::fp16::ru));
}
AH_BF __hip_bfloat16 __float2bfloat16_rd(float a) {
  return __ah_bf16_bits(anyhip::bf16::from_float(a, anyhip::fp16::rd));
}
AH_BF __hip_bfloat16 __double2bfloat16(double a) {
  return __ah_bf16_bits(anyhip::bf16::from_double(a));
}
AH_BF __hip_bfloat162 __float2bfloat162_rn(float a) {
  return __hip_bfloat162(__float2bfloat16(a), __float2bfloat16(a));
}
AH_BF __hip_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __hip_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
AH_BF __hip_bfloat162 __float22bfloat162_rn(float2 a) { return __floats2bfloat162_rn(a.x, a.y); }
AH_BF float2 __bfloat1622float2(__hip_bfloat162 a) {
  float2 r;
  r.x = (float)a.x;
  r.y = (float)a.y;
  return r;
}
AH_BF __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hip_bfloat162(a, b);
}
AH_BF __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
AH_BF __hip_bfloat16 __low2bfloat16(__hip_bfloat162 a) { return a.x; }
AH_BF __hip_bfloat16 __high2bfloat16(__hip_bfloat162 a) { return a.y; }
AH_BF float __low2float(__hip_bfloat162 a) { return (float)a.x; }
AH_BF float __high2float(__hip_bfloat162 a) { return (float)a.y; }
AH_BF __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162(a.x, b.x);
}
AH_BF __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162(a.y, b.y);
}
AH_BF __hip_bfloat162 __low2bfloat162(__hip_bfloat162 a) { return __hip_bfloat162(a.x, a.x); }
AH_BF __hip_bfloat162 __high2bfloat162(__hip_bfloat162 a) { return __hip_bfloat162(a.y, a.y); }
AH_BF __hip_bfloat162 __lowhigh2highlow(__hip_bfloat162 a) { return __hip_bfloat162(a.y, a.x); }
AH_BF short __bfloat16_as_short(__hip_bfloat16 a) { return (short)a.__x; }
AH_BF unsigned short __bfloat16_as_ushort(__hip_bfloat16 a) { return a.__x; }
AH_BF __hip_bfloat16 __short_as_bfloat16(short a) { return __ah_bf16_bits((unsigned short)a); }
AH_BF __hip_bfloat16 __ushort_as_bfloat16(unsigned short a) { return __ah_bf16_bits(a); }
/* Integer conversions truncate; NaN gives 0, out-of-range values saturate. */
AH_BF int __bfloat162int_rz(__hip_bfloat16 a) {
  float f = (float)a;
  return f != f ? 0 : f >= 2147483648.0f ? INT_MAX : f <= -2147483648.0f ? INT_MIN : (int)f;
}
AH_BF __hip_bfloat16 __int2bfloat16_rn(int v) { return __hip_bfloat16(v); }

/* ---- arithmetic, comparisons, min/max, math ----------------------------- */

namespace anyhip {
namespace bf16 {
AH_BF double d(__hip_bfloat16 a) { return (double)(float)a; }
AH_BF __hip_bfloat16 b(double v) { return __ah_bf16_bits(bf16::from_double(v)); }
AH_BF bool isnan(__hip_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
} // namespace bf16
} // namespace anyhip

/* Products of two bfloat16 values are exact in double, and so are their sums
 * and differences, except for far-apart exponents: there the error of the
 * double sum sets the odd bit (see fp16::to_odd). */
AH_BF __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) {
  double x = anyhip::bf16::d(a), y = anyhip::bf16::d(b), s = x + y;
  if (!std::isfinite(s))
    return anyhip::bf16::b(s);
  double bb = s - x, err = (x - (s - bb)) + (y - bb);
  return anyhip::bf16::b(s == 0 ? s : anyhip::fp16::to_odd(s, err));
}
AH_BF __hip_bfloat16 __hneg(__hip_bfloat16 a) { return __ah_bf16_bits(a.__x ^ 0x8000u); }
AH_BF __hip_bfloat16 __habs(__hip_bfloat16 a) { return __ah_bf16_bits(a.__x & 0x7fffu); }
AH_BF __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) { return __hadd(a, __hneg(b)); }
AH_BF __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) {
  return anyhip::bf16::b(anyhip::bf16::d(a) * anyhip::bf16::d(b));
}
/* Division and sqrt rounded once in double: 53 >= 2 * 8 + 2 bits. */
AH_BF __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) {
  return anyhip::bf16::b(anyhip::bf16::d(a) / anyhip::bf16::d(b));
}
AH_BF __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  double p = anyhip::bf16::d(a) * anyhip::bf16::d(b), cc = anyhip::bf16::d(c), s = p + cc;
  if (!std::isfinite(s) || s == 0)
    return anyhip::bf16::b(s);
  double bb = s - p, err = (p - (s - bb)) + (cc - bb);
  return anyhip::bf16::b(anyhip::fp16::to_odd(s, err));
}
AH_BF __hip_bfloat16 __hadd_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hadd(a, b); }
AH_BF __hip_bfloat16 __hsub_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hsub(a, b); }
AH_BF __hip_bfloat16 __hmul_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hmul(a, b); }

#define AH_BF_CMP(name, expr)                                                                      \
  AH_BF bool name(__hip_bfloat16 a, __hip_bfloat16 b) {                                            \
    double x = anyhip::bf16::d(a), y = anyhip::bf16::d(b);                                         \
    bool un = x != x || y != y;                                                                    \
    (void)un;                                                                                      \
    return expr;                                                                                   \
  }
AH_BF_CMP(__heq, x == y)
AH_BF_CMP(__hne, x<y || x> y)
AH_BF_CMP(__hlt, x < y)
AH_BF_CMP(__hle, x <= y)
AH_BF_CMP(__hgt, x > y)
AH_BF_CMP(__hge, x >= y)
AH_BF_CMP(__hequ, un || x == y)
AH_BF_CMP(__hneu, x != y)
AH_BF_CMP(__hltu, un || x < y)
AH_BF_CMP(__hleu, un || x <= y)
AH_BF_CMP(__hgtu, un || x > y)
AH_BF_CMP(__hgeu, un || x >= y)
#undef AH_BF_CMP
AH_BF bool __hisnan(__hip_bfloat16 a) { return anyhip::bf16::isnan(a); }
AH_BF int __hisinf(__hip_bfloat16 a) { return (a.__x & 0x7fffu) == 0x7f80u ? 1 : 0; } /* AMD's, as __half's */
AH_BF __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) {
  bool na = __hisnan(a), nb = __hisnan(b);
  if (na || nb)
    return na && nb ? __ah_bf16_bits(0x7fffu) : na ? b : a;
  return __hlt(a, b) ? b : a;
}
AH_BF __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) {
  bool na = __hisnan(a), nb = __hisnan(b);
  if (na || nb)
    return na && nb ? __ah_bf16_bits(0x7fffu) : na ? b : a;
  return __hlt(b, a) ? b : a;
}
AH_BF __hip_bfloat16 __hmax_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __ah_bf16_bits(0x7fffu) : __hmax(a, b);
}
AH_BF __hip_bfloat16 __hmin_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __ah_bf16_bits(0x7fffu) : __hmin(a, b);
}

#define AH_BF_MATH(hname, h2name, expr)                                                            \
  AH_BF __hip_bfloat16 hname(__hip_bfloat16 a) {                                                   \
    double x = anyhip::bf16::d(a);                                                                 \
    return anyhip::bf16::b(expr);                                                                  \
  }                                                                                                \
  AH_BF __hip_bfloat162 h2name(__hip_bfloat162 a) {                                                \
    return __hip_bfloat162(hname(a.x), hname(a.y));                                                \
  }
AH_BF_MATH(hsqrt, h2sqrt, std::sqrt(x))
AH_BF_MATH(hrsqrt, h2rsqrt, 1.0 / std::sqrt(x))
AH_BF_MATH(hrcp, h2rcp, 1.0 / x)
AH_BF_MATH(hexp, h2exp, std::exp(x))
AH_BF_MATH(hexp2, h2exp2, std::exp2(x))
AH_BF_MATH(hexp10, h2exp10, std::pow(10.0, x))
AH_BF_MATH(hlog, h2log, std::log(x))
AH_BF_MATH(hlog2, h2log2, std::log2(x))
AH_BF_MATH(hlog10, h2log10, std::log10(x))
AH_BF_MATH(hsin, h2sin, std::sin(x))
AH_BF_MATH(hcos, h2cos, std::cos(x))
AH_BF_MATH(htanh, h2tanh, std::tanh(x))
AH_BF_MATH(hceil, h2ceil, std::ceil(x))
AH_BF_MATH(hfloor, h2floor, std::floor(x))
AH_BF_MATH(htrunc, h2trunc, std::trunc(x))
AH_BF_MATH(hrint, h2rint, std::nearbyint(x))
#undef AH_BF_MATH

#define AH_BF_LANES2(name2, name)                                                                  \
  AH_BF __hip_bfloat162 name2(__hip_bfloat162 a, __hip_bfloat162 b) {                              \
    return __hip_bfloat162(name(a.x, b.x), name(a.y, b.y));                                        \
  }
AH_BF_LANES2(__hadd2, __hadd)
AH_BF_LANES2(__hsub2, __hsub)
AH_BF_LANES2(__hmul2, __hmul)
AH_BF_LANES2(__h2div, __hdiv)
AH_BF_LANES2(__hmax2, __hmax)
AH_BF_LANES2(__hmin2, __hmin)
AH_BF_LANES2(__hmax2_nan, __hmax_nan)
AH_BF_LANES2(__hmin2_nan, __hmin_nan)
#undef AH_BF_LANES2
AH_BF __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
AH_BF __hip_bfloat162 __hneg2(__hip_bfloat162 a) {
  return __hip_bfloat162(__hneg(a.x), __hneg(a.y));
}
AH_BF __hip_bfloat162 __habs2(__hip_bfloat162 a) {
  return __hip_bfloat162(__habs(a.x), __habs(a.y));
}
#define AH_BF_CMP2(name)                                                                           \
  AH_BF __hip_bfloat162 __h##name##2(__hip_bfloat162 a, __hip_bfloat162 b) {                       \
    return __hip_bfloat162(__ah_bf16_bits(__h##name(a.x, b.x) ? 0x3f80u : 0),                      \
                           __ah_bf16_bits(__h##name(a.y, b.y) ? 0x3f80u : 0));                     \
  }                                                                                                \
  AH_BF bool __hb##name##2(__hip_bfloat162 a, __hip_bfloat162 b) {                                 \
    return __h##name(a.x, b.x) && __h##name(a.y, b.y);                                             \
  }
AH_BF_CMP2(eq)
AH_BF_CMP2(ne)
AH_BF_CMP2(lt)
AH_BF_CMP2(le)
AH_BF_CMP2(gt)
AH_BF_CMP2(ge)
AH_BF_CMP2(equ)
AH_BF_CMP2(neu)
AH_BF_CMP2(ltu)
AH_BF_CMP2(leu)
AH_BF_CMP2(gtu)
AH_BF_CMP2(geu)
#undef AH_BF_CMP2

/* ---- operators ---------------------------------------------------------- */

#define AH_BF_OPS(T, add, sub, mul, div, neg, eq, ne, lt, le, gt, ge)                              \
  AH_BF T operator+(const T &a, const T &b) { return add(a, b); }                                  \
  AH_BF T operator-(const T &a, const T &b) { return sub(a, b); }                                  \
  AH_BF T operator*(const T &a, const T &b) { return mul(a, b); }                                  \
  AH_BF T operator/(const T &a, const T &b) { return div(a, b); }                                  \
  AH_BF T &operator+=(T &a, const T &b) { return a = add(a, b); }                                  \
  AH_BF T &operator-=(T &a, const T &b) { return a = sub(a, b); }                                  \
  AH_BF T &operator*=(T &a, const T &b) { return a = mul(a, b); }                                  \
  AH_BF T &operator/=(T &a, const T &b) { return a = div(a, b); }                                  \
  AH_BF T operator+(const T &a) { return a; }                                                      \
  AH_BF T operator-(const T &a) { return neg(a); }                                                 \
  AH_BF bool operator==(const T &a, const T &b) { return eq(a, b); }                               \
  AH_BF bool operator!=(const T &a, const T &b) { return ne(a, b); }                               \
  AH_BF bool operator<(const T &a, const T &b) { return lt(a, b); }                                \
  AH_BF bool operator<=(const T &a, const T &b) { return le(a, b); }                               \
  AH_BF bool operator>(const T &a, const T &b) { return gt(a, b); }                                \
  AH_BF bool operator>=(const T &a, const T &b) { return ge(a, b); }
AH_BF_OPS(__hip_bfloat16, __hadd, __hsub, __hmul, __hdiv, __hneg, __heq, __hneu, __hlt, __hle,
          __hgt, __hge)
AH_BF_OPS(__hip_bfloat162, __hadd2, __hsub2, __hmul2, __h2div, __hneg2, __hbeq2, __hbneu2, __hblt2,
          __hble2, __hbgt2, __hbge2)
#undef AH_BF_OPS

/* ---- atomics ------------------------------------------------------------ */

/* atomicAdd on bfloat16 and bfloat162 (CUDA's; HIP's unsafeAtomicAdd and
 * safeAtomicAdd), each lane rounded separately: compare-and-swap loops on
 * the 16- or 32-bit word; they return the old value. */
AH_BF __hip_bfloat16 atomicAdd(__hip_bfloat16 *addr, __hip_bfloat16 val) {
  unsigned short *p = reinterpret_cast<unsigned short *>(addr);
  unsigned short old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
  do {
    want = __bfloat16_as_ushort(__hadd(__ushort_as_bfloat16(old), val));
  } while (!__atomic_compare_exchange_n(p, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return __ushort_as_bfloat16(old);
}
AH_BF __hip_bfloat162 atomicAdd(__hip_bfloat162 *addr, __hip_bfloat162 val) {
  unsigned *p = reinterpret_cast<unsigned *>(addr);
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
  do {
    __hip_bfloat162 a(__ushort_as_bfloat16((unsigned short)old),
                      __ushort_as_bfloat16((unsigned short)(old >> 16)));
    __hip_bfloat162 s = __hadd2(a, val);
    want = (unsigned)__bfloat16_as_ushort(s.x) | ((unsigned)__bfloat16_as_ushort(s.y) << 16);
  } while (!__atomic_compare_exchange_n(p, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return __hip_bfloat162(__ushort_as_bfloat16((unsigned short)old),
                         __ushort_as_bfloat16((unsigned short)(old >> 16)));
}
AH_BF __hip_bfloat16 unsafeAtomicAdd(__hip_bfloat16 *addr, __hip_bfloat16 val) {
  return atomicAdd(addr, val);
}
AH_BF __hip_bfloat162 unsafeAtomicAdd(__hip_bfloat162 *addr, __hip_bfloat162 val) {
  return atomicAdd(addr, val);
}
AH_BF __hip_bfloat16 safeAtomicAdd(__hip_bfloat16 *addr, __hip_bfloat16 val) {
  return atomicAdd(addr, val);
}
AH_BF __hip_bfloat162 safeAtomicAdd(__hip_bfloat162 *addr, __hip_bfloat162 val) {
  return atomicAdd(addr, val);
}

#undef AH_BF

#endif
