/* SPDX-License-Identifier: MIT */
/* HIP's device math library on the CPU device: the C library's functions in
 * the global namespace with their float overloads (as device code calls
 * them: sqrt(x) on a float is a float), HIP's fast intrinsics (__expf,
 * __sinf, ...) as the precise functions, the arithmetic with a rounding mode
 * (__fadd_rz, __fsqrt_ru, ...) correctly rounded in that mode (math_round.h),
 * rsqrt, norms, sinpi, normcdf, powi and the min/max overloads; the special
 * functions (erfinv, erfcx, cyl_bessel_i0, ...) are in math_special.h.
 * docs/math.md lists everything and its accuracy. */
#ifndef ANYHIP_CPU_DEVICE_MATH_H
#define ANYHIP_CPU_DEVICE_MATH_H

#include <cmath>
#include <math.h> /* libstdc++'s wrapper: std's overloads in the global namespace */
#include <type_traits>

#include <hip/anyhip/cpu/math_round.h>
#include <hip/anyhip/cpu/math_special.h>

#define AH_MATH_INLINE inline __attribute__((always_inline))

/* lgammaf and lgamma set libm's global signgam: every thread of a kernel
 * would write it at once. Here they are bound to libanyhip's versions built
 * on lgammaf_r/lgamma_r (src/backends/cpu/cpu_math.c), which leave signgam
 * alone inside kernels and set it in host code as C says. GCC binds
 * std::lgamma(float) too; clang 14 (the kernel compiler) still calls
 * libm's lgammaf for std::lgamma(float) and lgamma(float), so device code
 * built with it should call lgammaf (docs/math.md). */
#ifdef __THROW
#define AH_LGAMMA_THROW __THROW
#else
#define AH_LGAMMA_THROW
#endif
extern "C" float lgammaf(float) AH_LGAMMA_THROW __asm__("__ah_lgammaf");
extern "C" double lgamma(double) AH_LGAMMA_THROW __asm__("__ah_lgamma");
#undef AH_LGAMMA_THROW

/* ---- fast intrinsics ---- */

AH_MATH_INLINE float __expf(float x) { return expf(x); }
AH_MATH_INLINE float __exp10f(float x) { return exp10f(x); }
AH_MATH_INLINE float __logf(float x) { return logf(x); }
AH_MATH_INLINE float __log2f(float x) { return log2f(x); }
AH_MATH_INLINE float __log10f(float x) { return log10f(x); }
AH_MATH_INLINE float __sinf(float x) { return sinf(x); }
AH_MATH_INLINE float __cosf(float x) { return cosf(x); }
AH_MATH_INLINE float __tanf(float x) { return tanf(x); }
AH_MATH_INLINE void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }
AH_MATH_INLINE float __powf(float x, float y) { return powf(x, y); }
AH_MATH_INLINE float __fdividef(float x, float y) { return x / y; }
AH_MATH_INLINE float fdividef(float x, float y) { return x / y; }
AH_MATH_INLINE double fdivide(double x, double y) { return x / y; }
/* Clamps to [0, 1]; NaN gives 0. */
AH_MATH_INLINE float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

/* ---- arithmetic with a rounding mode ---- */

#define AH_PIN(v) ::anyhip::cpu::fp_pin(v)
AH_ROUND_ALL(__fadd, float, (float x, float y), (AH_PIN(x), AH_PIN(y)), x + y)
AH_ROUND_ALL(__fsub, float, (float x, float y), (AH_PIN(x), AH_PIN(y)), x - y)
AH_ROUND_ALL(__fmul, float, (float x, float y), (AH_PIN(x), AH_PIN(y)), x * y)
AH_ROUND_ALL(__fdiv, float, (float x, float y), (AH_PIN(x), AH_PIN(y)), x / y)
AH_ROUND_ALL(__frcp, float, (float x), AH_PIN(x), 1.0f / x)
AH_ROUND_ALL(__fsqrt, float, (float x), AH_PIN(x), __builtin_sqrtf(x))
AH_ROUND_ALL(__fmaf, float, (float x, float y, float z), (AH_PIN(x), AH_PIN(y), AH_PIN(z)),
             __builtin_fmaf(x, y, z))
AH_ROUND_ALL(__dadd, double, (double x, double y), (AH_PIN(x), AH_PIN(y)), x + y)
AH_ROUND_ALL(__dsub, double, (double x, double y), (AH_PIN(x), AH_PIN(y)), x - y)
AH_ROUND_ALL(__dmul, double, (double x, double y), (AH_PIN(x), AH_PIN(y)), x * y)
AH_ROUND_ALL(__ddiv, double, (double x, double y), (AH_PIN(x), AH_PIN(y)), x / y)
AH_ROUND_ALL(__drcp, double, (double x), AH_PIN(x), 1.0 / x)
AH_ROUND_ALL(__dsqrt, double, (double x), AH_PIN(x), __builtin_sqrt(x))
AH_ROUND_ALL(__fma, double, (double x, double y, double z), (AH_PIN(x), AH_PIN(y), AH_PIN(z)),
             __builtin_fma(x, y, z))
#undef AH_PIN
/* 1/sqrt(x) in double, then rounded: correctly rounded but for rare double
 * rounding (within 0.5 ulp + 2^-29 ulp). */
AH_MATH_INLINE float __frsqrt_rn(float x) { return (float)(1.0 / __builtin_sqrt((double)x)); }
AH_MATH_INLINE float __fmaf_ieee_rn(float x, float y, float z) { return fmaf(x, y, z); }

/* ---- functions HIP has and the C library has not ---- */

/* Computed one precision up (float in double, double in long double) and
 * rounded once: within 0.5 ulp plus a rare double rounding, and no overflow
 * of the intermediate (rhypot of huge values is a tiny number, not 0). */
AH_MATH_INLINE float rsqrtf(float x) { return (float)(1.0 / __builtin_sqrt((double)x)); }
AH_MATH_INLINE double rsqrt(double x) { return (double)(1.0L / sqrtl(x)); }
AH_MATH_INLINE float rcbrtf(float x) { return (float)(1.0 / cbrt((double)x)); }
AH_MATH_INLINE double rcbrt(double x) { return (double)(1.0L / cbrtl(x)); }
AH_MATH_INLINE float rhypotf(float x, float y) { return (float)(1.0 / hypot((double)x, y)); }
AH_MATH_INLINE double rhypot(double x, double y) { return (double)(1.0L / hypotl(x, y)); }

namespace anyhip {
namespace cpu {
/* The Euclidean norm of n values as hypot defines it: +inf when one is
 * infinite (even beside a NaN), else NaN when one is NaN. In long double,
 * after scaling by a power of two (exact) that brings the largest near 1, so
 * that no square overflows or underflows and the reciprocal of a huge norm
 * stays representable until the final rounding. */
template <typename T> AH_MATH_INLINE long double norm_n(int n, const T *a) {
  long double big = 0;
  bool nan = false;
  for (int i = 0; i < n; i++) {
    long double v = __builtin_fabsl((long double)a[i]);
    if (__builtin_isinf(v))
      return __builtin_infl();
    if (v != v)
      nan = true;
    else if (v > big)
      big = v;
  }
  if (nan)
    return __builtin_nanl("");
  if (big == 0)
    return 0.0L;
  int e = ilogbl(big);
  long double s = 0;
  for (int i = 0; i < n; i++) {
    long double v = scalbnl((long double)a[i], -e);
    s += v * v;
  }
  return scalbnl(sqrtl(s), e);
}
} // namespace cpu
} // namespace anyhip

AH_MATH_INLINE float norm3df(float a, float b, float c) {
  const float v[3] = {a, b, c};
  return (float)anyhip::cpu::norm_n(3, v);
}
AH_MATH_INLINE float rnorm3df(float a, float b, float c) {
  const float v[3] = {a, b, c};
  return (float)(1.0 / anyhip::cpu::norm_n(3, v));
}
AH_MATH_INLINE float norm4df(float a, float b, float c, float d) {
  const float v[4] = {a, b, c, d};
  return (float)anyhip::cpu::norm_n(4, v);
}
AH_MATH_INLINE float rnorm4df(float a, float b, float c, float d) {
  const float v[4] = {a, b, c, d};
  return (float)(1.0 / anyhip::cpu::norm_n(4, v));
}
AH_MATH_INLINE double norm3d(double a, double b, double c) {
  const double v[3] = {a, b, c};
  return (double)anyhip::cpu::norm_n(3, v);
}
AH_MATH_INLINE double rnorm3d(double a, double b, double c) {
  const double v[3] = {a, b, c};
  return (double)(1.0L / anyhip::cpu::norm_n(3, v));
}
AH_MATH_INLINE double norm4d(double a, double b, double c, double d) {
  const double v[4] = {a, b, c, d};
  return (double)anyhip::cpu::norm_n(4, v);
}
AH_MATH_INLINE double rnorm4d(double a, double b, double c, double d) {
  const double v[4] = {a, b, c, d};
  return (double)(1.0L / anyhip::cpu::norm_n(4, v));
}
AH_MATH_INLINE float normf(int dim, const float *a) { return (float)anyhip::cpu::norm_n(dim, a); }
AH_MATH_INLINE float rnormf(int dim, const float *a) {
  return (float)(1.0 / anyhip::cpu::norm_n(dim, a));
}
AH_MATH_INLINE double norm(int dim, const double *a) {
  return (double)anyhip::cpu::norm_n(dim, a);
}
AH_MATH_INLINE double rnorm(int dim, const double *a) {
  return (double)(1.0L / anyhip::cpu::norm_n(dim, a));
}

/* The standard normal distribution function. In float the argument is scaled
 * in double: erfc is steep, and a rounded x / sqrt(2) would cost up to
 * x^2 ulp in the result. */
AH_MATH_INLINE float normcdff(float x) { return (float)(0.5 * erfc(-(double)x * M_SQRT1_2)); }
AH_MATH_INLINE double normcdf(double x) {
  /* t = -x / sqrt(2) is carried as t + err (1/sqrt(2) in two doubles, the
   * product's rounding error by fma), and erfc's derivative applies err. */
  const double lo = -4.8336466567264567e-17; /* 1/sqrt(2) - M_SQRT1_2 */
  double t = -x * M_SQRT1_2;
  double err = fma(-x, M_SQRT1_2, -t) - x * lo;
  double r = erfc(t);
  if (__builtin_isfinite(t) && r > 0)
    r -= err * M_2_SQRTPI * exp(-t * t);
  return 0.5 * r;
}

/* x^n for an integer n (HIP's pown): pow is exact for integer powers that
 * are representable and within 1 ulp otherwise. */
AH_MATH_INLINE float powif(float x, int n) { return (float)pow((double)x, (double)n); }
AH_MATH_INLINE double powi(double x, int n) { return pow(x, (double)n); }
/* HIP's pow(float, int) returns float (std's returns double). */
AH_MATH_INLINE float pow(float x, int n) { return powif(x, n); }
AH_MATH_INLINE double pow(double x, int n) { return powi(x, n); }

/* sinpi and cospi reach the C library in glibc 2.41 (C23). */
#if !defined(__GLIBC__) || !(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 41))
namespace anyhip {
namespace cpu {
/* sin(pi x) and cos(pi x) after an exact reduction: r = x mod 2 in [-1, 1]
 * (remainder is exact), then folded into |t| <= 1/4 by subtractions from 1
 * and 1/2 that are exact too; only pi * t rounds. Integers give exact zeros
 * (sinpi(-n) is -0) and half-integers give cospi exactly 0. */
AH_MATH_INLINE void sincospi_core(double x, double *sp, double *cp) {
  if (!__builtin_isfinite(x)) {
    *sp = *cp = x - x; /* NaN, with the invalid exception for inf */
    return;
  }
  double r = remainder(x, 2.0);
  double sg = __builtin_signbit(r) ? -1.0 : 1.0;
  double a = __builtin_fabs(r), cs = 1.0, s, c;
  if (a > 0.5) { /* sin(pi a) = sin(pi (1 - a)), cos(pi a) = -cos(pi (1 - a)) */
    a = 1.0 - a;
    cs = -1.0;
  }
  if (a > 0.25) {
    double t = M_PI * (0.5 - a);
    s = cos(t);
    c = sin(t);
  } else {
    double t = M_PI * a;
    s = sin(t);
    c = cos(t);
  }
  /* An exact zero takes the sign of x (C23's sinpi); cospi's zeros are +0. */
  *sp = s == 0 ? __builtin_copysign(0.0, x) : sg * s;
  *cp = c == 0 ? 0.0 : cs * c;
}
} // namespace cpu
} // namespace anyhip
AH_MATH_INLINE double sinpi(double x) {
  double s, c;
  anyhip::cpu::sincospi_core(x, &s, &c);
  return s;
}
AH_MATH_INLINE double cospi(double x) {
  double s, c;
  anyhip::cpu::sincospi_core(x, &s, &c);
  return c;
}
AH_MATH_INLINE float sinpif(float x) { return (float)sinpi(x); }
AH_MATH_INLINE float cospif(float x) { return (float)cospi(x); }
#endif
AH_MATH_INLINE void sincospi(double x, double *s, double *c) {
  *s = sinpi(x);
  *c = cospi(x);
}
AH_MATH_INLINE void sincospif(float x, float *s, float *c) {
  *s = sinpif(x);
  *c = cospif(x);
}

/* ---- min and max, as HIP declares them for device code ---- */

#define AH_MINMAX(T, lt)                                                                           \
  AH_MATH_INLINE T min(T a, T b) { return lt(b, a) ? b : a; }                                      \
  AH_MATH_INLINE T max(T a, T b) { return lt(a, b) ? b : a; }
#define AH_LESS(a, b) ((a) < (b))
AH_MINMAX(int, AH_LESS)
AH_MINMAX(unsigned int, AH_LESS)
AH_MINMAX(long, AH_LESS)
AH_MINMAX(unsigned long, AH_LESS)
AH_MINMAX(long long, AH_LESS)
AH_MINMAX(unsigned long long, AH_LESS)
#undef AH_LESS
#undef AH_MINMAX
AH_MATH_INLINE float min(float a, float b) { return fminf(a, b); }
AH_MATH_INLINE float max(float a, float b) { return fmaxf(a, b); }
AH_MATH_INLINE double min(double a, double b) { return fmin(a, b); }
AH_MATH_INLINE double max(double a, double b) { return fmax(a, b); }
/* Mixed argument types: compared in their common type, as HIP's mixed
 * overloads (int and unsigned int give unsigned int) do. */
template <typename T, typename U,
          typename = std::enable_if_t<std::is_arithmetic<T>::value &&
                                      std::is_arithmetic<U>::value && !std::is_same<T, U>::value>>
AH_MATH_INLINE std::common_type_t<T, U> min(T a, U b) {
  return min((std::common_type_t<T, U>)a, (std::common_type_t<T, U>)b);
}
template <typename T, typename U,
          typename = std::enable_if_t<std::is_arithmetic<T>::value &&
                                      std::is_arithmetic<U>::value && !std::is_same<T, U>::value>>
AH_MATH_INLINE std::common_type_t<T, U> max(T a, U b) {
  return max((std::common_type_t<T, U>)a, (std::common_type_t<T, U>)b);
}
AH_MATH_INLINE unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
AH_MATH_INLINE unsigned int umax(unsigned int a, unsigned int b) { return a < b ? b : a; }
AH_MATH_INLINE long long llmin(long long a, long long b) { return a < b ? a : b; }
AH_MATH_INLINE long long llmax(long long a, long long b) { return a < b ? b : a; }
AH_MATH_INLINE unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
AH_MATH_INLINE unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a < b ? b : a;
}

#include <hip/anyhip/common/device_names.hpp>

#endif
