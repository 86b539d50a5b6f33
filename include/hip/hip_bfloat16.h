/* SPDX-License-Identifier: MIT */
/* HIP's older bfloat16 type, hip_bfloat16 (from rocBLAS; <hip/hip_bf16.h> has the newer
 * __hip_bfloat16): 16 bits holding the upper half of a float. Converting from float rounds to
 * nearest even and keeps NaNs quiet; the `truncate` tag and round_to_bfloat16(f, truncate)
 * cut the low bits instead. Arithmetic goes through float. In C it is the bare struct. */
#ifndef HIP_INCLUDE_HIP_HIP_BFLOAT16_H
#define HIP_INCLUDE_HIP_HIP_BFLOAT16_H

#include <hip/hip_common.h>

#include <stdint.h>

#ifndef __cplusplus

typedef struct {
  uint16_t data;
} hip_bfloat16;

#else

#include <cmath>
#include <cstring>
#include <ostream>
#include <type_traits>

struct hip_bfloat16 {
  uint16_t data;

  enum truncate_t { truncate };

  AH_HOST_DEVICE hip_bfloat16() = default;
  explicit AH_HOST_DEVICE hip_bfloat16(float f) : data(float_to_bfloat16(f)) {}
  explicit AH_HOST_DEVICE hip_bfloat16(float f, truncate_t) : data(truncate_float(f)) {}

  AH_HOST_DEVICE operator float() const {
    uint32_t u = uint32_t(data) << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
  }
  AH_HOST_DEVICE hip_bfloat16 &operator=(const float &f) {
    data = float_to_bfloat16(f);
    return *this;
  }

  static AH_HOST_DEVICE hip_bfloat16 round_to_bfloat16(float f) {
    hip_bfloat16 r;
    r.data = float_to_bfloat16(f);
    return r;
  }
  static AH_HOST_DEVICE hip_bfloat16 round_to_bfloat16(float f, truncate_t) {
    hip_bfloat16 r;
    r.data = truncate_float(f);
    return r;
  }

private:
  static AH_HOST_DEVICE uint16_t float_to_bfloat16(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    if ((~u & 0x7f800000u) == 0) { /* Inf or NaN: no rounding; a NaN stays a NaN */
      if ((u & 0xffffu) != 0)
        u |= 0x10000u;
    } else {
      u += 0x7fffu + ((u >> 16) & 1u); /* round to nearest even */
    }
    return uint16_t(u >> 16);
  }
  static AH_HOST_DEVICE uint16_t truncate_float(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return uint16_t(u >> 16) | ((u & 0x7f800000u) == 0x7f800000u && (u & 0xffffu) ? 1 : 0);
  }
};

typedef struct {
  uint16_t data;
} hip_bfloat16_public;

static_assert(std::is_standard_layout<hip_bfloat16>::value, "hip_bfloat16 is standard layout");
static_assert(std::is_trivial<hip_bfloat16>::value, "hip_bfloat16 is trivial");

inline std::ostream &operator<<(std::ostream &os, const hip_bfloat16 &bf16) {
  return os << float(bf16);
}

#define AH_BF AH_HOST_DEVICE inline
AH_BF hip_bfloat16 operator+(hip_bfloat16 a) { return a; }
AH_BF hip_bfloat16 operator-(hip_bfloat16 a) {
  a.data ^= 0x8000;
  return a;
}
AH_BF hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) + float(b));
}
AH_BF hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) - float(b));
}
AH_BF hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) * float(b));
}
AH_BF hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) / float(b));
}
AH_BF bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
AH_BF bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
AH_BF bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return b < a; }
AH_BF bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return !(a > b); }
AH_BF bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return !(a == b); }
AH_BF bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return !(a < b); }
AH_BF hip_bfloat16 &operator+=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a + b; }
AH_BF hip_bfloat16 &operator-=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a - b; }
AH_BF hip_bfloat16 &operator*=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a * b; }
AH_BF hip_bfloat16 &operator/=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a / b; }
AH_BF hip_bfloat16 &operator++(hip_bfloat16 &a) { return a += hip_bfloat16(1.0f); }
AH_BF hip_bfloat16 &operator--(hip_bfloat16 &a) { return a -= hip_bfloat16(1.0f); }
AH_BF hip_bfloat16 operator++(hip_bfloat16 &a, int) {
  hip_bfloat16 orig = a;
  ++a;
  return orig;
}
AH_BF hip_bfloat16 operator--(hip_bfloat16 &a, int) {
  hip_bfloat16 orig = a;
  --a;
  return orig;
}

namespace std {
AH_BF bool isinf(hip_bfloat16 a) { return !(~a.data & 0x7f80) && !(a.data & 0x7f); }
AH_BF bool isnan(hip_bfloat16 a) { return !(~a.data & 0x7f80) && +(a.data & 0x7f); }
AH_BF bool iszero(hip_bfloat16 a) { return !(a.data & 0x7fff); }
AH_BF hip_bfloat16 abs(hip_bfloat16 a) {
  a.data &= 0x7fff;
  return a;
}
AH_BF hip_bfloat16 sin(hip_bfloat16 a) { return hip_bfloat16(sinf(float(a))); }
AH_BF hip_bfloat16 cos(hip_bfloat16 a) { return hip_bfloat16(cosf(float(a))); }
AH_BF hip_bfloat16 real(hip_bfloat16 a) { return a; }
} // namespace std
#undef AH_BF

#endif /* __cplusplus */

#endif
