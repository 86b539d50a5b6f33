// SPDX-License-Identifier: MIT
// An independent binary16 reference for the fp16_*.hip tests: a half's value
// comes from its fields by integer arithmetic, and rounding searches the
// sorted table of finite halves for the two neighbours of the exact value,
// instead of shifting bits as hip_fp16.h does. Values are compared in units
// of 2^-25 (every half, and every midpoint of two neighbours, is an integer
// there), so ties are found exactly.
#ifndef AH_FP16_REF_H
#define AH_FP16_REF_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ref {

enum { RN, RZ, RU, RD };

// |half| * 2^25 for magnitude bits h in [0, 0x7c00]; 0x7c00 (infinity) is
// given the value 65536, the next step after 65504, as IEEE's overflow rule
// for round-to-nearest wants.
inline int64_t vq(unsigned h) {
  unsigned e = h >> 10, m = h & 0x3ff;
  return e == 0 ? 2 * (int64_t)m : (int64_t)(m + 1024) << e;
}

// The half's value as a double (exact), NaN for NaNs.
inline double value(uint16_t h) {
  unsigned mag = h & 0x7fff;
  double v;
  if (mag > 0x7c00)
    return NAN;
  v = mag == 0x7c00 ? INFINITY : std::ldexp((double)vq(mag), -25);
  return (h & 0x8000) ? -v : v;
}

// Rounds the magnitude X (known to the caller; cmp(K) is the sign of
// X - K * 2^-25) to a half in mode; neg is X's sign.
template <typename Cmp> uint16_t round(bool neg, Cmp cmp, int mode) {
  unsigned lo = 0, hi = 0x7bff; // largest finite half <= X
  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (cmp(vq(mid)) >= 0)
      lo = mid;
    else
      hi = mid - 1;
  }
  uint16_t s = neg ? 0x8000 : 0;
  if (cmp(vq(lo)) == 0)
    return s | lo;
  unsigned up = lo + 1, r;
  switch (mode) {
  case RZ:
    r = lo;
    break;
  case RU:
    r = neg ? lo : up;
    break;
  case RD:
    r = neg ? up : lo;
    break;
  default: {
    int c = cmp((vq(lo) + vq(up)) / 2);
    r = c > 0 ? up : c < 0 ? lo : (lo & 1) ? up : lo;
  }
  }
  return s | r;
}

// A finite double to half.
inline uint16_t from_double(double x, int mode) {
  double ax = std::fabs(x);
  return round(
      std::signbit(x),
      [ax](int64_t k) {
        double kv = std::ldexp((double)k, -25);
        return ax > kv ? 1 : ax < kv ? -1 : 0;
      },
      mode);
}

// A finite or infinite float to half; NaN: quiet, sign and top payload kept.
inline uint16_t from_float(float f, int mode) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint16_t s = (u >> 16) & 0x8000;
  if ((u & 0x7fffffff) > 0x7f800000)
    return s | 0x7e00 | ((u >> 13) & 0x3ff);
  if ((u & 0x7fffffff) == 0x7f800000)
    return s | 0x7c00;
  return from_double((double)f, mode);
}

inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline bool is_nan(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

// Deterministic pseudo-random numbers.
struct rng {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

} // namespace ref

#endif
