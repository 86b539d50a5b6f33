/* SPDX-License-Identifier: MIT */
/* IEEE 754 binary16 <-> float/double/integer conversions in portable C++,
 * for hip_fp16.h on the CPU pass (host code and CPU-device kernels alike).
 * Everything is bit-level integer work, so results do not depend on the
 * host having _Float16 (x86-64 and aarch64 give the same bits) nor on the
 * floating-point environment's rounding mode. */
#ifndef ANYHIP_CPU_FP16_CONVERT_HPP
#define ANYHIP_CPU_FP16_CONVERT_HPP

#include <cstdint>
#include <cstring>

namespace anyhip {
namespace fp16 {

#define AH_FP16_INLINE inline __attribute__((always_inline))

/* The four rounding modes of the _rn/_rz/_ru/_rd conversions. */
enum round_mode { rn, rz, ru, rd };

AH_FP16_INLINE std::uint32_t f2u(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
AH_FP16_INLINE float u2f(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
AH_FP16_INLINE std::uint64_t d2u(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
AH_FP16_INLINE double u2d(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

/* Every binary16 value is exact in binary32, so this never rounds. A
 * signalling NaN comes back quiet (as F16C's and Arm's converters do), with
 * its sign and payload. */
AH_FP16_INLINE float to_float(std::uint16_t h) {
  std::uint32_t sign = (std::uint32_t)(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu;

  if (exp == 0x1f)
    return u2f(sign | 0x7f800000u | (man ? 0x400000u | (man << 13) : 0));
  if (exp != 0)
    return u2f(sign | ((exp + 112) << 23) | (man << 13));
  if (man == 0)
    return u2f(sign);
  /* Subnormal: man * 2^-24, normalised into float's range. */
  exp = 113;
  while ((man & 0x400u) == 0) {
    man <<= 1;
    exp--;
  }
  return u2f(sign | (exp << 23) | ((man & 0x3ffu) << 13));
}

/* Rounds the exact value (-1)^neg * m * 2^e (m > 0) to binary16 in mode. */
AH_FP16_INLINE std::uint16_t round_pack(bool neg, std::uint64_t m, int e, round_mode mode) {
  std::uint16_t sign = neg ? 0x8000u : 0;
  int p = 63 - __builtin_clzll(m); /* m is in [2^p, 2^(p+1)) */
  int E = p + e;                   /* the value's unbiased exponent */
  bool away;

  if (E > 15)
    goto overflow;
  {
    /* The result's quantum 2^q: 11 significant bits for normals, 2^-24 for
     * subnormals. Then bits = ((q + 24) << 10) + r encodes both: a carry of
     * r into bit 10 or 11 steps the exponent field correctly. */
    int q = (E < -14 ? -14 : E) - 10;
    int s = q - e;
    std::uint64_t r;
    bool guard, sticky;
    unsigned bits;

    if (s <= 0) {
      r = m << -s; /* exact: r < 2^11 */
      guard = sticky = false;
    } else if (s < 64) {
      r = m >> s;
      guard = (m >> (s - 1)) & 1;
      sticky = (m & ((1ull << (s - 1)) - 1)) != 0;
    } else if (s == 64) {
      r = 0;
      guard = m >> 63;
      sticky = (m << 1) != 0;
    } else {
      r = 0;
      guard = false;
      sticky = true;
    }
    switch (mode) {
    case rn:
      away = guard && (sticky || (r & 1));
      break;
    case ru:
      away = !neg && (guard || sticky);
      break;
    case rd:
      away = neg && (guard || sticky);
      break;
    default:
      away = false;
    }
    bits = (unsigned)((q + 24) << 10) + (unsigned)r + (away ? 1u : 0u);
    if (bits < 0x7c00u)
      return (std::uint16_t)(sign | bits);
  }
overflow:
  /* Beyond the largest finite value (65504): infinity, unless the mode
   * rounds toward zero for this sign. */
  if (mode == rz || (mode == ru && neg) || (mode == rd && !neg))
    return (std::uint16_t)(sign | 0x7bffu);
  return (std::uint16_t)(sign | 0x7c00u);
}

/* NaN keeps its sign and the top 9 bits of its payload and becomes quiet
 * (as x86's F16C and AMD GPUs do; CUDA returns the canonical 0x7fff). */
AH_FP16_INLINE std::uint16_t from_float(float f, round_mode mode = rn) {
  std::uint32_t u = f2u(f);
  bool neg = u >> 31;
  std::uint32_t exp = (u >> 23) & 0xff, man = u & 0x7fffffu;

  if (exp == 0xff)
    return (std::uint16_t)((neg ? 0x8000u : 0) | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
  if (exp == 0 && man == 0)
    return neg ? 0x8000u : 0;
  if (exp == 0)
    return round_pack(neg, man, -149, mode);
  return round_pack(neg, man | 0x800000u, (int)exp - 150, mode);
}

AH_FP16_INLINE std::uint16_t from_double(double d, round_mode mode = rn) {
  std::uint64_t u = d2u(d);
  bool neg = u >> 63;
  std::uint64_t exp = (u >> 52) & 0x7ff, man = u & 0xfffffffffffffull;

  if (exp == 0x7ff)
    return (std::uint16_t)((neg ? 0x8000u : 0) | 0x7c00u | (man ? 0x200u | (man >> 42) : 0));
  if (exp == 0 && man == 0)
    return neg ? 0x8000u : 0;
  if (exp == 0)
    return round_pack(neg, man, -1074, mode);
  return round_pack(neg, man | (1ull << 52), (int)exp - 1075, mode);
}

AH_FP16_INLINE std::uint16_t from_int(bool neg, std::uint64_t mag, round_mode mode) {
  return mag == 0 ? 0 : round_pack(neg, mag, 0, mode);
}

/* Rounds a double to a neighbouring double with an odd last bit when `err`
 * (the exact remainder) is not zero: round-to-odd, after which a single
 * rounding to binary16 is correct in every mode (53 >= 11 + 2 bits). */
AH_FP16_INLINE double to_odd(double s, double err) {
  std::uint64_t u = d2u(s);

  if (err == 0 || (u & 1))
    return s;
  if ((err > 0) == (s > 0))
    u++;
  else
    u--;
  return u2d(u);
}

/* a * b + c with one rounding to binary16: the product of two halves is
 * exact in double, the sum's error comes from TwoSum. */
AH_FP16_INLINE std::uint16_t fma_bits(float a, float b, float c, round_mode mode = rn) {
  double p = (double)a * (double)b, cc = c;
  double s = p + cc;

  if (s != s || s - s != 0) /* NaN or infinity: nothing to correct */
    return from_double(s, mode);
  double bb = s - p;
  double err = (p - (s - bb)) + (cc - bb);
  if (s == 0) /* an exact zero: no error term (RN's sign of zero, as in rn) */
    return from_double(s, mode);
  return from_double(to_odd(s, err), mode);
}

/* Rounds a float to an integral value in mode, independently of fenv. */
AH_FP16_INLINE float round_integral(float x, round_mode mode) {
  if (!(x - x == 0) || x >= 8388608.0f || x <= -8388608.0f)
    return x;                       /* NaN, infinity, or already integral */
  float t = (float)(std::int32_t)x; /* truncation, exact */
  if (t == 0 && (f2u(x) >> 31))
    t = -0.0f; /* the result keeps x's sign: ceil(-0.5) and trunc(-0) are -0 */
  switch (mode) {
  case rz:
    return t;
  case rd:
    return t > x ? t - 1 : t;
  case ru:
    return t < x ? t + 1 : t;
  default: {
    float d = x - t; /* exact */
    if (d > 0.5f || (d == 0.5f && ((std::int32_t)t & 1)))
      return t + 1;
    if (d < -0.5f || (d == -0.5f && ((std::int32_t)t & 1)))
      return t - 1;
    return t;
  }
  }
}

/* Half to an integer type, rounding in mode, saturating; NaN gives nan_val. */
template <typename I>
AH_FP16_INLINE I to_int(std::uint16_t h, round_mode mode, I lo, I hi, I nan_val) {
  float f = to_float(h);

  if (f != f)
    return nan_val;
  f = round_integral(f, mode);
  if (f <= (float)lo)
    return lo;
  if (f >= (float)hi)
    return hi;
  return (I)f;
}

} // namespace fp16
} // namespace anyhip

#endif
