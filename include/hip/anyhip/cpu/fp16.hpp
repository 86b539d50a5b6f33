/* SPDX-License-Identifier: MIT */
/* hip_fp16.h for the CPU pass: __half and __half2 on 16-bit storage, with
 * the intrinsics and operators of HIP's (and CUDA's) half-precision API,
 * usable in host code and in CPU-device kernels alike. Conversions are exact
 * bit-level IEEE binary16 (fp16_convert.hpp). Arithmetic is done in float
 * and rounded once to half: float's 24 bits are at least 2 * 11 + 2, so
 * + - * / and sqrt rounded twice still give the correctly rounded half;
 * fma rounds a double result to odd first. Shuffles of __half and __half2
 * are the generic warp templates (any value of up to 8 bytes). */
#ifndef ANYHIP_CPU_FP16_HPP
#define ANYHIP_CPU_FP16_HPP

#include <hip/anyhip/cpu/fp16_convert.hpp>
#include <hip/hip_vector_types.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

#define AH_HF inline __attribute__((always_inline))

struct __half_raw {
  unsigned short x;
};
/* `data` is HIP's name for both lanes at once (a two-lane vector there): data.x, data.y. */
struct __half2_raw {
  union {
    struct {
      unsigned short x;
      unsigned short y;
    };
    struct {
      unsigned short x;
      unsigned short y;
    } data;
  };
};

struct __half;
AH_HF __half __ah_half_bits(unsigned short b);

struct __half {
  /* CUDA's name for the bits; use __half_as_ushort() or __half_raw. */
  unsigned short __x;

  __half() = default;
  constexpr __half(const __half_raw &r) : __x(r.x) {}
  __half(float f) : __x(anyhip::fp16::from_float(f)) {}
  __half(double d) : __x(anyhip::fp16::from_double(d)) {}
#if !defined(__CUDA_NO_HALF_CONVERSIONS__) && !defined(__HIP_NO_HALF_CONVERSIONS__)
  __half(short v) : __x(anyhip::fp16::from_float((float)v)) {}
  __half(unsigned short v) : __x(anyhip::fp16::from_float((float)v)) {}
  __half(int v)
      : __x(anyhip::fp16::from_int(v < 0, v < 0 ? 0ull - (unsigned long long)v : v,
                                   anyhip::fp16::rn)) {}
  __half(unsigned int v) : __x(anyhip::fp16::from_int(false, v, anyhip::fp16::rn)) {}
  __half(long v)
      : __x(anyhip::fp16::from_int(v < 0, v < 0 ? 0ull - (unsigned long long)v : v,
                                   anyhip::fp16::rn)) {}
  __half(unsigned long v) : __x(anyhip::fp16::from_int(false, v, anyhip::fp16::rn)) {}
  __half(long long v)
      : __x(anyhip::fp16::from_int(v < 0, v < 0 ? 0ull - (unsigned long long)v : v,
                                   anyhip::fp16::rn)) {}
  __half(unsigned long long v) : __x(anyhip::fp16::from_int(false, v, anyhip::fp16::rn)) {}
#endif

  __half &operator=(const __half_raw &r) {
    __x = r.x;
    return *this;
  }
  volatile __half &operator=(const __half_raw &r) volatile {
    __x = r.x;
    return *this;
  }
  /* From a volatile __half_raw too, lvalue or rvalue (AMD's __half). */
  __half &operator=(const volatile __half_raw &r) {
    __x = r.x;
    return *this;
  }
  __half &operator=(const volatile __half_raw &&r) {
    __x = r.x;
    return *this;
  }
  constexpr operator __half_raw() const { return __half_raw{__x}; }
  operator __half_raw() const volatile { return __half_raw{__x}; }

  operator float() const { return anyhip::fp16::to_float(__x); }
#if !defined(__CUDA_NO_HALF_CONVERSIONS__) && !defined(__HIP_NO_HALF_CONVERSIONS__)
  /* Integer conversions truncate (rz), as CUDA's; out-of-range values
   * saturate, NaN gives 0. */
  template <typename I> I __ah_to_int_rz() const {
    return anyhip::fp16::to_int<I>(__x, anyhip::fp16::rz, std::numeric_limits<I>::min(),
                                   std::numeric_limits<I>::max(), 0);
  }
  operator signed char() const { return __ah_to_int_rz<signed char>(); }
  operator unsigned char() const { return __ah_to_int_rz<unsigned char>(); }
  operator char() const { return __ah_to_int_rz<char>(); }
  operator short() const { return __ah_to_int_rz<short>(); }
  operator unsigned short() const { return __ah_to_int_rz<unsigned short>(); }
  operator int() const { return __ah_to_int_rz<int>(); }
  operator unsigned int() const { return __ah_to_int_rz<unsigned int>(); }
  operator long() const { return __ah_to_int_rz<long>(); }
  operator unsigned long() const { return __ah_to_int_rz<unsigned long>(); }
  operator long long() const { return __ah_to_int_rz<long long>(); }
  operator unsigned long long() const { return __ah_to_int_rz<unsigned long long>(); }
  /* Nonzero, NaN included. */
  constexpr operator bool() const { return (__x & 0x7fffu) != 0; }
#endif
};

struct __attribute__((aligned(4))) __half2 {
  __half x;
  __half y;

  __half2() = default;
  constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
  constexpr __half2(const __half2_raw &r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  /* A scalar gives both halves (HIP's __half2 is a two-lane vector, which a scalar splats). */
  template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
  explicit __half2(T v) : x(__half(v)), y(x) {}
  __half2 &operator=(const __half2_raw &r) {
    x = __half_raw{r.x};
    y = __half_raw{r.y};
    return *this;
  }
  constexpr operator __half2_raw() const { return __half2_raw{{{x.__x, y.__x}}}; }
};

typedef __half half;
typedef __half2 half2;

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half is 16 bits");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2 is 32 bits");

AH_HF __half __ah_half_bits(unsigned short b) { return __half(__half_raw{b}); }

/* ---- conversions -------------------------------------------------------- */

namespace anyhip {
namespace fp16 {
AH_HF std::uint16_t from_signed(long long v, round_mode m) {
  return from_int(v < 0, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, m);
}
AH_HF float f(__half h) { return to_float(h.__x); }
AH_HF __half h(float v) { return __ah_half_bits(from_float(v, rn)); }
} // namespace fp16
} // namespace anyhip

AH_HF float __half2float(__half a) { return anyhip::fp16::to_float(a.__x); }
AH_HF __half __float2half(float a) { return __ah_half_bits(anyhip::fp16::from_float(a)); }
AH_HF __half __float2half_rn(float a) { return __ah_half_bits(anyhip::fp16::from_float(a)); }
AH_HF __half __float2half_rz(float a) {
  return __ah_half_bits(anyhip::fp16::from_float(a, anyhip::fp16::rz));
}
AH_HF __half __float2half_ru(float a) {
  return __ah_half_bits(anyhip::fp16::from_float(a, anyhip::fp16::ru));
}
AH_HF __half __float2half_rd(float a) {
  return __ah_half_bits(anyhip::fp16::from_float(a, anyhip::fp16::rd));
}
AH_HF __half __double2half(double a) { return __ah_half_bits(anyhip::fp16::from_double(a)); }

AH_HF __half2 __float2half2_rn(float a) { return __half2(__float2half(a), __float2half(a)); }
AH_HF __half2 __floats2half2_rn(float a, float b) {
  return __half2(__float2half(a), __float2half(b));
}
AH_HF __half2 __float22half2_rn(float2 a) { return __floats2half2_rn(a.x, a.y); }
AH_HF float2 __half22float2(__half2 a) {
  float2 r;
  r.x = __half2float(a.x);
  r.y = __half2float(a.y);
  return r;
}
AH_HF __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
AH_HF __half2 make_half2(__half a, __half b) { return __half2(a, b); }
AH_HF __half2 __half2half2(__half a) { return __half2(a, a); }
AH_HF __half2 __half2_from_raw(__half2_raw r) { return __half2(r); }
AH_HF __half __low2half(__half2 a) { return a.x; }
AH_HF __half __high2half(__half2 a) { return a.y; }
AH_HF float __low2float(__half2 a) { return __half2float(a.x); }
AH_HF float __high2float(__half2 a) { return __half2float(a.y); }
AH_HF __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
AH_HF __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
AH_HF __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
AH_HF __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
AH_HF __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }

AH_HF short __half_as_short(__half a) { return (short)a.__x; }
AH_HF unsigned short __half_as_ushort(__half a) { return a.__x; }
AH_HF __half __short_as_half(short a) { return __ah_half_bits((unsigned short)a); }
AH_HF __half __ushort_as_half(unsigned short a) { return __ah_half_bits(a); }

/* __half2<T>_<mode> and __<T>2half_<mode> for each integer type T. NaN gives
 * 0, except for the 64-bit types: 0x8000000000000000, as CUDA documents. */
#define AH_FP16_INT(T, name, lo, hi, nanv, neg_of, mag_of)                                         \
  AH_HF T __half2##name##_rn(__half a) {                                                           \
    return anyhip::fp16::to_int<T>(a.__x, anyhip::fp16::rn, lo, hi, nanv);                         \
  }                                                                                                \
  AH_HF T __half2##name##_rz(__half a) {                                                           \
    return anyhip::fp16::to_int<T>(a.__x, anyhip::fp16::rz, lo, hi, nanv);                         \
  }                                                                                                \
  AH_HF T __half2##name##_ru(__half a) {                                                           \
    return anyhip::fp16::to_int<T>(a.__x, anyhip::fp16::ru, lo, hi, nanv);                         \
  }                                                                                                \
  AH_HF T __half2##name##_rd(__half a) {                                                           \
    return anyhip::fp16::to_int<T>(a.__x, anyhip::fp16::rd, lo, hi, nanv);                         \
  }                                                                                                \
  AH_HF __half __##name##2half_rn(T v) {                                                           \
    return __ah_half_bits(anyhip::fp16::from_int(neg_of, mag_of, anyhip::fp16::rn));               \
  }                                                                                                \
  AH_HF __half __##name##2half_rz(T v) {                                                           \
    return __ah_half_bits(anyhip::fp16::from_int(neg_of, mag_of, anyhip::fp16::rz));               \
  }                                                                                                \
  AH_HF __half __##name##2half_ru(T v) {                                                           \
    return __ah_half_bits(anyhip::fp16::from_int(neg_of, mag_of, anyhip::fp16::ru));               \
  }                                                                                                \
  AH_HF __half __##name##2half_rd(T v) {                                                           \
    return __ah_half_bits(anyhip::fp16::from_int(neg_of, mag_of, anyhip::fp16::rd));               \
  }
#define AH_SNEG (v < 0)
#define AH_SMAG (v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v)
AH_FP16_INT(short, short, SHRT_MIN, SHRT_MAX, 0, AH_SNEG, AH_SMAG)
AH_FP16_INT(unsigned short, ushort, 0, USHRT_MAX, 0, false, (unsigned long long)v)
AH_FP16_INT(int, int, INT_MIN, INT_MAX, 0, AH_SNEG, AH_SMAG)
AH_FP16_INT(unsigned int, uint, 0, UINT_MAX, 0, false, (unsigned long long)v)
AH_FP16_INT(long long, ll, LLONG_MIN, LLONG_MAX, LLONG_MIN, AH_SNEG, AH_SMAG)
AH_FP16_INT(unsigned long long, ull, 0, ULLONG_MAX, 0x8000000000000000ull, false,
            (unsigned long long)v)
#undef AH_SNEG
#undef AH_SMAG
#undef AH_FP16_INT
AH_HF signed char __half2char_rz(__half a) {
  return anyhip::fp16::to_int<signed char>(a.__x, anyhip::fp16::rz, SCHAR_MIN, SCHAR_MAX, 0);
}
AH_HF unsigned char __half2uchar_rz(__half a) {
  return anyhip::fp16::to_int<unsigned char>(a.__x, anyhip::fp16::rz, 0, UCHAR_MAX, 0);
}

/* ---- arithmetic --------------------------------------------------------- */

namespace anyhip {
namespace fp16 {
/* NaN, -0 and everything below 0 give +0, above 1 give 1 (CUDA's _sat). */
AH_HF __half sat(__half a) {
  float v = f(a);
  return v > 1.0f ? h(1.0f) : v > 0.0f ? a : h(0.0f);
}
AH_HF __half relu(__half a) {
  float v = f(a);
  return v != v ? __ah_half_bits(0x7fffu) : v < 0.0f ? h(0.0f) : a;
}
} // namespace fp16
} // namespace anyhip

AH_HF __half __hadd(__half a, __half b) {
  return anyhip::fp16::h(__half2float(a) + __half2float(b));
}
AH_HF __half __hsub(__half a, __half b) {
  return anyhip::fp16::h(__half2float(a) - __half2float(b));
}
AH_HF __half __hmul(__half a, __half b) {
  return anyhip::fp16::h(__half2float(a) * __half2float(b));
}
AH_HF __half __hdiv(__half a, __half b) {
  return anyhip::fp16::h(__half2float(a) / __half2float(b));
}
AH_HF __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
AH_HF __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
AH_HF __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
AH_HF __half __hfma(__half a, __half b, __half c) {
  return __ah_half_bits(anyhip::fp16::fma_bits(__half2float(a), __half2float(b), __half2float(c)));
}
AH_HF __half __hneg(__half a) { return __ah_half_bits((unsigned short)(a.__x ^ 0x8000u)); }
AH_HF __half __habs(__half a) { return __ah_half_bits((unsigned short)(a.__x & 0x7fffu)); }
AH_HF __half __hadd_sat(__half a, __half b) { return anyhip::fp16::sat(__hadd(a, b)); }
AH_HF __half __hsub_sat(__half a, __half b) { return anyhip::fp16::sat(__hsub(a, b)); }
AH_HF __half __hmul_sat(__half a, __half b) { return anyhip::fp16::sat(__hmul(a, b)); }
AH_HF __half __hfma_sat(__half a, __half b, __half c) { return anyhip::fp16::sat(__hfma(a, b, c)); }
AH_HF __half __hfma_relu(__half a, __half b, __half c) {
  return anyhip::fp16::relu(__hfma(a, b, c));
}

/* The 2-wide forms apply the 1-wide one to each lane. */
#define AH_FP16_LANES2(name2, name)                                                                \
  AH_HF __half2 name2(__half2 a, __half2 b) { return __half2(name(a.x, b.x), name(a.y, b.y)); }
AH_FP16_LANES2(__hadd2, __hadd)
AH_FP16_LANES2(__hsub2, __hsub)
AH_FP16_LANES2(__hmul2, __hmul)
AH_FP16_LANES2(__h2div, __hdiv)
AH_FP16_LANES2(__hadd2_rn, __hadd)
AH_FP16_LANES2(__hsub2_rn, __hsub)
AH_FP16_LANES2(__hmul2_rn, __hmul)
AH_FP16_LANES2(__hadd2_sat, __hadd_sat)
AH_FP16_LANES2(__hsub2_sat, __hsub_sat)
AH_FP16_LANES2(__hmul2_sat, __hmul_sat)
AH_HF __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
AH_HF __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
AH_HF __half2 __hfma2_relu(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
AH_HF __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
AH_HF __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }

/* ---- comparisons -------------------------------------------------------- */

/* The plain forms are false when either operand is NaN (ordered); the u
 * forms are true then (unordered). __hne is ordered: false for NaN. */
#define AH_FP16_CMP(name, op)                                                                      \
  AH_HF bool __h##name(__half a, __half b) { return __half2float(a) op __half2float(b); }          \
  AH_HF bool __h##name##u(__half a, __half b) {                                                    \
    float x = __half2float(a), y = __half2float(b);                                                \
    return x != x || y != y || x op y;                                                             \
  }                                                                                                \
  AH_HF __half2 __h##name##2(__half2 a, __half2 b) {                                               \
    return __half2(anyhip::fp16::h(__h##name(a.x, b.x)), anyhip::fp16::h(__h##name(a.y, b.y)));    \
  }                                                                                                \
  AH_HF __half2 __h##name##u2(__half2 a, __half2 b) {                                              \
    return __half2(anyhip::fp16::h(__h##name##u(a.x, b.x)),                                        \
                   anyhip::fp16::h(__h##name##u(a.y, b.y)));                                       \
  }                                                                                                \
  AH_HF bool __hb##name##2(__half2 a, __half2 b) {                                                 \
    return __h##name(a.x, b.x) && __h##name(a.y, b.y);                                             \
  }                                                                                                \
  AH_HF bool __hb##name##u2(__half2 a, __half2 b) {                                                \
    return __h##name##u(a.x, b.x) && __h##name##u(a.y, b.y);                                       \
  }                                                                                                \
  AH_HF unsigned __h##name##2_mask(__half2 a, __half2 b) {                                         \
    return (__h##name(a.x, b.x) ? 0xffffu : 0u) | (__h##name(a.y, b.y) ? 0xffff0000u : 0u);        \
  }                                                                                                \
  AH_HF unsigned __h##name##u2_mask(__half2 a, __half2 b) {                                        \
    return (__h##name##u(a.x, b.x) ? 0xffffu : 0u) | (__h##name##u(a.y, b.y) ? 0xffff0000u : 0u);  \
  }
/* __hne is ordered, so it cannot be `x != y` (true for NaN). */
AH_HF bool __ah_hne_ord(float x, float y) { return x < y || x > y; }
AH_FP16_CMP(eq, ==)
AH_FP16_CMP(lt, <)
AH_FP16_CMP(le, <=)
AH_FP16_CMP(gt, >)
AH_FP16_CMP(ge, >=)
/* ne: hand-written, with the ordered/unordered split above. */
AH_HF bool __hne(__half a, __half b) { return __ah_hne_ord(__half2float(a), __half2float(b)); }
AH_HF bool __hneu(__half a, __half b) { return !__heq(a, b); }
AH_HF __half2 __hne2(__half2 a, __half2 b) {
  return __half2(anyhip::fp16::h(__hne(a.x, b.x)), anyhip::fp16::h(__hne(a.y, b.y)));
}
AH_HF __half2 __hneu2(__half2 a, __half2 b) {
  return __half2(anyhip::fp16::h(__hneu(a.x, b.x)), anyhip::fp16::h(__hneu(a.y, b.y)));
}
AH_HF bool __hbne2(__half2 a, __half2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }
AH_HF bool __hbneu2(__half2 a, __half2 b) { return __hneu(a.x, b.x) && __hneu(a.y, b.y); }
AH_HF unsigned __hne2_mask(__half2 a, __half2 b) {
  return (__hne(a.x, b.x) ? 0xffffu : 0u) | (__hne(a.y, b.y) ? 0xffff0000u : 0u);
}
AH_HF unsigned __hneu2_mask(__half2 a, __half2 b) {
  return (__hneu(a.x, b.x) ? 0xffffu : 0u) | (__hneu(a.y, b.y) ? 0xffff0000u : 0u);
}
#undef AH_FP16_CMP

AH_HF bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
/* 1 for either infinity, 0 otherwise: AMD's (its device library's isinf;
 * ROCm's unit suite, hipTestHalf, checks it). CUDA's says -1 for -infinity. */
AH_HF int __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u ? 1 : 0; }
AH_HF __half2 __hisnan2(__half2 a) {
  return __half2(anyhip::fp16::h(__hisnan(a.x)), anyhip::fp16::h(__hisnan(a.y)));
}

/* max/min: a NaN operand yields the other one (both NaN: canonical NaN);
 * the _nan forms return NaN when either is. */
AH_HF __half __hmax(__half a, __half b) {
  if (__hisnan(a) && __hisnan(b))
    return __ah_half_bits(0x7fffu);
  if (__hisnan(a))
    return b;
  if (__hisnan(b))
    return a;
  return __hlt(a, b) ? b : a;
}
AH_HF __half __hmin(__half a, __half b) {
  if (__hisnan(a) && __hisnan(b))
    return __ah_half_bits(0x7fffu);
  if (__hisnan(a))
    return b;
  if (__hisnan(b))
    return a;
  return __hlt(b, a) ? b : a;
}
AH_HF __half __hmax_nan(__half a, __half b) {
  return __hisnan(a) || __hisnan(b) ? __ah_half_bits(0x7fffu) : __hmax(a, b);
}
AH_HF __half __hmin_nan(__half a, __half b) {
  return __hisnan(a) || __hisnan(b) ? __ah_half_bits(0x7fffu) : __hmin(a, b);
}
AH_FP16_LANES2(__hmax2, __hmax)
AH_FP16_LANES2(__hmin2, __hmin)
AH_FP16_LANES2(__hmax2_nan, __hmax_nan)
AH_FP16_LANES2(__hmin2_nan, __hmin_nan)

/* ---- math --------------------------------------------------------------- */

/* hsqrt, hrcp, the rounding functions and the arithmetic above are
 * correctly rounded; the others are the host's float function rounded to
 * half (within 1 ulp of half, usually exact). */
#define AH_FP16_MATH(hname, h2name, expr)                                                          \
  AH_HF __half hname(__half a) {                                                                   \
    float x = __half2float(a);                                                                     \
    return anyhip::fp16::h(expr);                                                                  \
  }                                                                                                \
  AH_HF __half2 h2name(__half2 a) { return __half2(hname(a.x), hname(a.y)); }
AH_FP16_MATH(hsqrt, h2sqrt, std::sqrt(x))
AH_FP16_MATH(hrsqrt, h2rsqrt, (float)(1.0 / std::sqrt((double)x)))
AH_FP16_MATH(hrcp, h2rcp, 1.0f / x)
AH_FP16_MATH(hexp, h2exp, std::exp(x))
AH_FP16_MATH(hexp2, h2exp2, std::exp2(x))
AH_FP16_MATH(hexp10, h2exp10, (float)std::pow(10.0, (double)x))
AH_FP16_MATH(hlog, h2log, std::log(x))
AH_FP16_MATH(hlog2, h2log2, std::log2(x))
AH_FP16_MATH(hlog10, h2log10, std::log10(x))
AH_FP16_MATH(hsin, h2sin, std::sin(x))
AH_FP16_MATH(hcos, h2cos, std::cos(x))
AH_FP16_MATH(htanh, h2tanh, std::tanh(x))
AH_FP16_MATH(hceil, h2ceil, anyhip::fp16::round_integral(x, anyhip::fp16::ru))
AH_FP16_MATH(hfloor, h2floor, anyhip::fp16::round_integral(x, anyhip::fp16::rd))
AH_FP16_MATH(htrunc, h2trunc, anyhip::fp16::round_integral(x, anyhip::fp16::rz))
AH_FP16_MATH(hrint, h2rint, anyhip::fp16::round_integral(x, anyhip::fp16::rn))
#undef AH_FP16_MATH
#undef AH_FP16_LANES2

/* AMD's a.x * b.x + a.y * b.y + c in float (v_dot2_f32_f16); saturate
 * clamps the result to [0, 1]. The products are exact in float. */
AH_HF float amd_mixed_dot(__half2 a, __half2 b, float c, bool saturate) {
  float r = __half2float(a.x) * __half2float(b.x) + (__half2float(a.y) * __half2float(b.y) + c);
  return saturate ? (r > 1.0f ? 1.0f : r > 0.0f ? r : 0.0f) : r;
}

/* ---- operators ---------------------------------------------------------- */

#if !defined(__CUDA_NO_HALF_OPERATORS__) && !defined(__HIP_NO_HALF_OPERATORS__)
AH_HF __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
AH_HF __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
AH_HF __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
AH_HF __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
AH_HF __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }
AH_HF __half &operator-=(__half &a, const __half &b) { return a = __hsub(a, b); }
AH_HF __half &operator*=(__half &a, const __half &b) { return a = __hmul(a, b); }
AH_HF __half &operator/=(__half &a, const __half &b) { return a = __hdiv(a, b); }
AH_HF __half &operator++(__half &a) { return a = __hadd(a, __ah_half_bits(0x3c00u)); }
AH_HF __half &operator--(__half &a) { return a = __hsub(a, __ah_half_bits(0x3c00u)); }
AH_HF __half operator++(__half &a, int) {
  __half old = a;
  ++a;
  return old;
}
AH_HF __half operator--(__half &a, int) {
  __half old = a;
  --a;
  return old;
}
AH_HF __half operator+(const __half &a) { return a; }
AH_HF __half operator-(const __half &a) { return __hneg(a); }
/* The comparisons are templates that take __half alone: a program may define its own
 * host comparisons of __half by value (HIP's are device-only, so ROCm's unit suite does),
 * and a non-template is then the better match instead of an ambiguous one. */
#define AH_HALF_ONLY(H, T) \
  template <typename H, typename std::enable_if<std::is_same<H, T>::value, int>::type = 0>
AH_HALF_ONLY(H, __half) AH_HF bool operator==(const H &a, const H &b) { return __heq(a, b); }
AH_HALF_ONLY(H, __half) AH_HF bool operator!=(const H &a, const H &b) { return __hneu(a, b); }
AH_HALF_ONLY(H, __half) AH_HF bool operator<(const H &a, const H &b) { return __hlt(a, b); }
AH_HALF_ONLY(H, __half) AH_HF bool operator<=(const H &a, const H &b) { return __hle(a, b); }
AH_HALF_ONLY(H, __half) AH_HF bool operator>(const H &a, const H &b) { return __hgt(a, b); }
AH_HALF_ONLY(H, __half) AH_HF bool operator>=(const H &a, const H &b) { return __hge(a, b); }

AH_HF __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
AH_HF __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
AH_HF __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
AH_HF __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
AH_HF __half2 &operator+=(__half2 &a, const __half2 &b) { return a = __hadd2(a, b); }
AH_HF __half2 &operator-=(__half2 &a, const __half2 &b) { return a = __hsub2(a, b); }
AH_HF __half2 &operator*=(__half2 &a, const __half2 &b) { return a = __hmul2(a, b); }
AH_HF __half2 &operator/=(__half2 &a, const __half2 &b) { return a = __h2div(a, b); }
/* A number on the right of a compound assignment is both halves' (AMD's
 * __half2 is a vector of two halves: `h2 += 1` adds 1 to each). */
#define AH_HALF2_SCALAR_ASSIGN(op, fn)                                                             \
  template <typename S, typename std::enable_if<std::is_arithmetic<S>::value, int>::type = 0>      \
  AH_HF __half2 &operator op(__half2 &a, S s) {                                                    \
    const __half h(static_cast<double>(s));                                                       \
    return a = fn(a, __half2(h, h));                                                              \
  }
AH_HALF2_SCALAR_ASSIGN(+=, __hadd2)
AH_HALF2_SCALAR_ASSIGN(-=, __hsub2)
AH_HALF2_SCALAR_ASSIGN(*=, __hmul2)
AH_HALF2_SCALAR_ASSIGN(/=, __h2div)
#undef AH_HALF2_SCALAR_ASSIGN
AH_HF __half2 &operator++(__half2 &a) {
  return a = __hadd2(a, __half2(__half2_raw{{{0x3c00u, 0x3c00u}}}));
}
AH_HF __half2 &operator--(__half2 &a) {
  return a = __hsub2(a, __half2(__half2_raw{{{0x3c00u, 0x3c00u}}}));
}
AH_HF __half2 operator++(__half2 &a, int) {
  __half2 old = a;
  ++a;
  return old;
}
AH_HF __half2 operator--(__half2 &a, int) {
  __half2 old = a;
  --a;
  return old;
}
AH_HF __half2 operator+(const __half2 &a) { return a; }
AH_HF __half2 operator-(const __half2 &a) { return __hneg2(a); }
AH_HALF_ONLY(H, __half2) AH_HF bool operator==(const H &a, const H &b) { return __hbeq2(a, b); }
AH_HALF_ONLY(H, __half2) AH_HF bool operator!=(const H &a, const H &b) { return __hbneu2(a, b); }
#undef AH_HALF_ONLY
AH_HF bool operator<(const __half2 &a, const __half2 &b) { return __hblt2(a, b); }
AH_HF bool operator<=(const __half2 &a, const __half2 &b) { return __hble2(a, b); }
AH_HF bool operator>(const __half2 &a, const __half2 &b) { return __hbgt2(a, b); }
AH_HF bool operator>=(const __half2 &a, const __half2 &b) { return __hbge2(a, b); }
#endif

/* ---- atomics ------------------------------------------------------------ */

/* CUDA's atomicAdd on __half and __half2 (each lane rounded separately), as
 * compare-and-swap loops on the 16- or 32-bit word; return the old value. */
AH_HF __half atomicAdd(__half *addr, __half val) {
  unsigned short *p = reinterpret_cast<unsigned short *>(addr);
  unsigned short old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
  do {
    want = __hadd(__ah_half_bits(old), val).__x;
  } while (!__atomic_compare_exchange_n(p, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return __ah_half_bits(old);
}
AH_HF __half2 atomicAdd(__half2 *addr, __half2 val) {
  unsigned *p = reinterpret_cast<unsigned *>(addr);
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
  do {
    __half2 a(__half2_raw{{{(unsigned short)old, (unsigned short)(old >> 16)}}});
    __half2 s = __hadd2(a, val);
    want = (unsigned)s.x.__x | ((unsigned)s.y.__x << 16);
  } while (!__atomic_compare_exchange_n(p, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return __half2(__half2_raw{{{(unsigned short)old, (unsigned short)(old >> 16)}}});
}
AH_HF __half2 unsafeAtomicAdd(__half2 *addr, __half2 val) { return atomicAdd(addr, val); }
AH_HF __half2 safeAtomicAdd(__half2 *addr, __half2 val) { return atomicAdd(addr, val); }
AH_HF __half unsafeAtomicAdd(__half *addr, __half val) { return atomicAdd(addr, val); }

#undef AH_HF

#endif
