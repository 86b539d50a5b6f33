/* SPDX-License-Identifier: MIT */
/* HIP's special functions that the C library lacks, for the CPU device:
 * erfcx, erfinv, erfcinv, normcdfinv and the modified Bessel functions
 * cyl_bessel_i0/i1, in double and float. They are computed in long double
 * (x86's 64-bit significand or a 113-bit one) or refined by Newton steps on
 * the C library's erf/erfc, so the double results stay within a few ulp and
 * the float ones (computed in double) within 1 ulp; docs/math.md has the
 * measured bounds. */
#ifndef ANYHIP_CPU_MATH_SPECIAL_H
#define ANYHIP_CPU_MATH_SPECIAL_H

#include <cmath>
#include <math.h>

namespace anyhip {
namespace cpu {

typedef long double ldouble;

/* exp(x^2) erfc(x). Below 10 directly, with x^2 kept as hi + lo (fma) so
 * that exp sees it exactly; from 10 on by erfc's asymptotic series, whose
 * terms fall below 1e-20 well before they would grow again. */
inline double erfcx_d(double x) {
  if (x != x)
    return x;
  if (x < -27.0) /* 2 e^(x^2) is beyond double's range */
    return __builtin_inf();
  if (x < 10.0) {
    double hi = x * x, lo = fma(x, x, -hi);
    return (double)(expl((ldouble)hi + lo) * erfcl(x));
  }
  if (x > 1e10) /* the series' first term is exact enough; x*x would overflow */
    return (double)(1.0L / ((ldouble)x * 1.7724538509055160272981674833411452L));
  ldouble h = 1.0L / (2.0L * x * x), t = 1.0L, s = 1.0L;
  for (int k = 1; k < 40 && __builtin_fabsl(t) > 1e-21L; k++) {
    t *= -(2 * k - 1) * h;
    s += t;
  }
  return (double)(s / ((ldouble)x * 1.7724538509055160272981674833411452L));
}

/* x with erf(x) = y for |y| < 1/2 (x < 0.48): Newton on erf from
 * x0 = y sqrt(pi) / 2, which lies on the near side of the root (erf is
 * concave there), so the steps approach it from one side. */
inline double erfinv_small(double y) {
  double x = y * 0.88622692545275801365;
  if (y == 0 || __builtin_fabs(y) < 1e-300)
    return x;
  for (int i = 0; i < 60; i++) {
    ldouble f = erfl(x) - (ldouble)y;
    ldouble d = f / (1.1283791670955125738961589031215452L * expl(-(ldouble)x * x));
    double nx = (double)((ldouble)x - d);
    if (nx == x)
      break;
    x = nx;
  }
  return x;
}

/* x >= 0 with erfc(x) = z for 0 < z <= 1/2: Newton on log erfc(x) - log z,
 * a concave decreasing function, from x0 = sqrt(-log z), beyond the root;
 * the steps then approach it from above. log erfc(x) = log erfcx(x) - x^2
 * keeps its precision where erfc(x) is subnormal. */
inline double erfcinv_tail(double z) {
  ldouble lz = logl(z);
  double x = (double)sqrtl(-lz);
  for (int i = 0; i < 60; i++) {
    ldouble ex = erfcx_d(x);
    ldouble g = logl(ex) - (ldouble)x * x - lz;
    ldouble d = g * 0.88622692545275801364908374167057259L * ex; /* g / g' */
    double nx = (double)((ldouble)x + d);
    if (nx == x)
      break;
    x = nx;
  }
  return x;
}

/* erfinv(y): NaN outside [-1, 1], +-inf at +-1, odd. For |y| >= 1/2 the
 * root is found through erfc: 1 - |y| is exact there. */
inline double erfinv_d(double y) {
  double a = __builtin_fabs(y);
  if (!(a <= 1.0))
    return __builtin_nan("");
  if (a == 1.0)
    return __builtin_copysign(__builtin_inf(), y);
  if (a < 0.5)
    return erfinv_small(y);
  return __builtin_copysign(erfcinv_tail(1.0 - a), y);
}

/* erfcinv(z): NaN outside [0, 2], +inf at 0, -inf at 2; erfcinv(z) =
 * -erfcinv(2 - z) and erfcinv(z) = erfinv(1 - z), both differences exact
 * where they are used. */
inline double erfcinv_d(double z) {
  if (!(z >= 0.0 && z <= 2.0))
    return __builtin_nan("");
  if (z == 0.0)
    return __builtin_inf();
  if (z == 2.0)
    return -__builtin_inf();
  if (z > 1.5)
    return -erfcinv_tail(2.0 - z);
  if (z >= 0.5)
    return erfinv_small(1.0 - z);
  return erfcinv_tail(z);
}

/* The standard normal quantile: -sqrt(2) erfcinv(2p), with sqrt(2) in two
 * parts so that the product rounds once. */
inline double normcdfinv_d(double p) {
  double e = erfcinv_d(2.0 * p);
  if (e == 0)
    return 0.0;
  return -(double)((ldouble)e * 1.4142135623730950488016887242096981L);
}

/* I0 (nu = 0) or I1 (nu = 1) of a >= 0: the power series, all terms
 * positive, below 20; beyond, the asymptotic series times e^a / sqrt(2 pi a)
 * (e^a as the square of e^(a/2), finite up to a = 2 * 709). In long double. */
inline double bessel_i(double a, int nu) {
  if (__builtin_isinf(a))
    return a;
  if (a < 20.0) {
    ldouble q = (ldouble)a * a * 0.25L, t = nu ? a * 0.5L : 1.0L, s = t;
    for (int k = 1; k < 200 && t > s * 1e-21L; k++) {
      t *= q / ((ldouble)k * (k + nu));
      s += t;
    }
    return (double)s;
  }
  ldouble t = 1, s = 1, m = 4.0L * nu * nu;
  for (int k = 1; k < 80; k++) {
    ldouble nt = t * ((ldouble)(2 * k - 1) * (2 * k - 1) - m) / (8.0L * k * a);
    if (__builtin_fabsl(nt) >= __builtin_fabsl(t))
      break;
    t = nt;
    s += t;
    if (__builtin_fabsl(t) < 1e-21L * s)
      break;
  }
  ldouble e = expl(a * 0.5L);
  return (double)(e * (e * s / sqrtl(6.2831853071795864769252867665590058L * a)));
}

} // namespace cpu
} // namespace anyhip

inline __attribute__((always_inline)) double erfcx(double x) { return anyhip::cpu::erfcx_d(x); }
inline __attribute__((always_inline)) float erfcxf(float x) {
  return (float)anyhip::cpu::erfcx_d(x);
}
inline __attribute__((always_inline)) double erfinv(double y) { return anyhip::cpu::erfinv_d(y); }
inline __attribute__((always_inline)) float erfinvf(float y) {
  return (float)anyhip::cpu::erfinv_d(y);
}
inline __attribute__((always_inline)) double erfcinv(double z) {
  return anyhip::cpu::erfcinv_d(z);
}
inline __attribute__((always_inline)) float erfcinvf(float z) {
  return (float)anyhip::cpu::erfcinv_d(z);
}
inline __attribute__((always_inline)) double normcdfinv(double p) {
  return anyhip::cpu::normcdfinv_d(p);
}
inline __attribute__((always_inline)) float normcdfinvf(float p) {
  return (float)anyhip::cpu::normcdfinv_d(p);
}
/* I0 is even and I1 odd; NaN stays NaN. */
inline __attribute__((always_inline)) double cyl_bessel_i0(double x) {
  return x != x ? x : anyhip::cpu::bessel_i(__builtin_fabs(x), 0);
}
inline __attribute__((always_inline)) double cyl_bessel_i1(double x) {
  return x != x ? x : __builtin_copysign(anyhip::cpu::bessel_i(__builtin_fabs(x), 1), x);
}
inline __attribute__((always_inline)) float cyl_bessel_i0f(float x) {
  return (float)cyl_bessel_i0(x);
}
inline __attribute__((always_inline)) float cyl_bessel_i1f(float x) {
  return (float)cyl_bessel_i1(x);
}

#endif
