/* SPDX-License-Identifier: MIT */
/* The common part of HIP's device math on the CPU device: the C library's
 * functions in the global namespace with their float overloads (as device
 * code calls them: sqrt(x) on a float is a float), HIP's fast intrinsics
 * (__expf, __sinf, ...) as the precise functions, the rounding-mode
 * arithmetic (__fadd_rn, __fmul_rz, ...) in the current rounding mode,
 * rsqrt and friends, and the min/max overloads HIP defines. The complete
 * device math library is left for later. */
#ifndef ANYHIP_CPU_DEVICE_MATH_H
#define ANYHIP_CPU_DEVICE_MATH_H

#include <cmath>
#include <math.h> /* libstdc++'s wrapper: std's overloads in the global namespace */
#include <type_traits>

#define AH_MATH_INLINE inline __attribute__((always_inline))

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

#define AH_ROUNDED(name, T, params, expr)                                                          \
  AH_MATH_INLINE T name##_rn params { return expr; }                                               \
  AH_MATH_INLINE T name##_rz params { return expr; }                                               \
  AH_MATH_INLINE T name##_ru params { return expr; }                                               \
  AH_MATH_INLINE T name##_rd params { return expr; }
AH_ROUNDED(__fadd, float, (float x, float y), x + y)
AH_ROUNDED(__fsub, float, (float x, float y), x - y)
AH_ROUNDED(__fmul, float, (float x, float y), x *y)
AH_ROUNDED(__fdiv, float, (float x, float y), x / y)
AH_ROUNDED(__frcp, float, (float x), 1.0f / x)
AH_ROUNDED(__fsqrt, float, (float x), sqrtf(x))
AH_ROUNDED(__fmaf, float, (float x, float y, float z), fmaf(x, y, z))
AH_ROUNDED(__dadd, double, (double x, double y), x + y)
AH_ROUNDED(__dsub, double, (double x, double y), x - y)
AH_ROUNDED(__dmul, double, (double x, double y), x *y)
AH_ROUNDED(__ddiv, double, (double x, double y), x / y)
AH_ROUNDED(__drcp, double, (double x), 1.0 / x)
AH_ROUNDED(__dsqrt, double, (double x), sqrt(x))
AH_ROUNDED(__fma, double, (double x, double y, double z), fma(x, y, z))
#undef AH_ROUNDED
AH_MATH_INLINE float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
AH_MATH_INLINE float __fmaf_ieee_rn(float x, float y, float z) { return fmaf(x, y, z); }

/* ---- functions HIP has and the C library has not ---- */

AH_MATH_INLINE float rsqrtf(float x) { return 1.0f / sqrtf(x); }
AH_MATH_INLINE double rsqrt(double x) { return 1.0 / sqrt(x); }
AH_MATH_INLINE float rcbrtf(float x) { return 1.0f / cbrtf(x); }
AH_MATH_INLINE double rcbrt(double x) { return 1.0 / cbrt(x); }
AH_MATH_INLINE float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
AH_MATH_INLINE double rhypot(double x, double y) { return 1.0 / hypot(x, y); }
AH_MATH_INLINE float norm3df(float a, float b, float c) {
  return (float)sqrt((double)a * a + (double)b * b + (double)c * c);
}
AH_MATH_INLINE float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
AH_MATH_INLINE float norm4df(float a, float b, float c, float d) {
  return (float)sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d);
}
AH_MATH_INLINE float rnorm4df(float a, float b, float c, float d) {
  return 1.0f / norm4df(a, b, c, d);
}
AH_MATH_INLINE double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
AH_MATH_INLINE double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
AH_MATH_INLINE double norm4d(double a, double b, double c, double d) {
  return sqrt(a * a + b * b + c * c + d * d);
}
AH_MATH_INLINE double rnorm4d(double a, double b, double c, double d) {
  return 1.0 / norm4d(a, b, c, d);
}
AH_MATH_INLINE float normf(int dim, const float *a) {
  double s = 0;
  for (int i = 0; i < dim; i++)
    s += (double)a[i] * a[i];
  return (float)sqrt(s);
}
AH_MATH_INLINE float rnormf(int dim, const float *a) { return 1.0f / normf(dim, a); }
AH_MATH_INLINE double norm(int dim, const double *a) {
  double s = 0;
  for (int i = 0; i < dim; i++)
    s += a[i] * a[i];
  return sqrt(s);
}
AH_MATH_INLINE double rnorm(int dim, const double *a) { return 1.0 / norm(dim, a); }
AH_MATH_INLINE float normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
AH_MATH_INLINE double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }

/* sinpi and cospi reach the C library in glibc 2.41 (C23). */
#if !defined(__GLIBC__) || !(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 41))
/* x reduced to [-1, 1] first, so that pi * x is exact where it matters. */
AH_MATH_INLINE double sinpi(double x) { return sin(M_PI * remainder(x, 2.0)); }
AH_MATH_INLINE double cospi(double x) { return cos(M_PI * remainder(x, 2.0)); }
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

#endif
