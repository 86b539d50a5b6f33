// SPDX-License-Identifier: MIT
// The device math functions of one precision (T = float or double) in a
// kernel, each over the edge inputs and a sweep of its domain, compared with
// the host's long double libm within the maximum ulp error HIP documents (or
// CUDA's, where HIP gives none). Double cbrt, exp10 and tanh are the C
// library's on the CPU device and allowed glibc's documented 4, 2 and 2 ulp
// (HIP documents 1; see docs/math.md). Included by math_float.hip and
// math_double.hip; launches go through hipLaunchKernelGGL, which needs no
// preparation by hipcc.
#ifndef AH_MATH_TABLE_H
#define AH_MATH_TABLE_H

#include "math_check.h"

// X(name, float function, double function, reference of (long double) x and y,
//   sweep low, sweep high, float bound, double bound, arity)
#define MATH_FUNCTIONS(X)                                                                          \
  X(sqrt, sqrtf, sqrt, sqrtl(x), 0, 1e30, 1, 1, 1)                                                 \
  X(rsqrt, rsqrtf, rsqrt, 1 / sqrtl(x), 1e-30, 1e30, 1, 1, 1)                                      \
  X(cbrt, cbrtf, cbrt, cbrtl(x), -1e30, 1e30, 2, 4, 1)                                             \
  X(rcbrt, rcbrtf, rcbrt, 1 / cbrtl(x), -1e30, 1e30, 1, 1, 1)                                      \
  X(exp, expf, exp, expl(x), -110, 90, 1, 1, 1)                                                    \
  X(exp2, exp2f, exp2, exp2l(x), -160, 130, 1, 1, 1)                                               \
  X(exp10, exp10f, exp10, powl(10, x), -45, 39, 1, 2, 1)                                           \
  X(expm1, expm1f, expm1, expm1l(x), -20, 90, 1, 1, 1)                                             \
  X(log, logf, log, logl(x), 1e-30, 1e30, 2, 1, 1)                                                 \
  X(log2, log2f, log2, log2l(x), 1e-30, 1e30, 1, 1, 1)                                             \
  X(log10, log10f, log10, log10l(x), 1e-30, 1e30, 2, 1, 1)                                         \
  X(log1p, log1pf, log1p, log1pl(x), -0.999, 1e30, 1, 1, 1)                                        \
  X(sin, sinf, sin, sinl(x), -1e4, 1e4, 1, 1, 1)                                                   \
  X(cos, cosf, cos, cosl(x), -1e4, 1e4, 1, 1, 1)                                                   \
  X(tan, tanf, tan, tanl(x), -1e4, 1e4, 1, 1, 1)                                                   \
  X(asin, asinf, asin, asinl(x), -1, 1, 2, 1, 1)                                                   \
  X(acos, acosf, acos, acosl(x), -1, 1, 1, 1, 1)                                                   \
  X(atan, atanf, atan, atanl(x), -1e6, 1e6, 2, 1, 1)                                               \
  X(sinh, sinhf, sinh, sinhl(x), -89, 89, 1, 1, 1)                                                 \
  X(cosh, coshf, cosh, coshl(x), -89, 89, 1, 1, 1)                                                 \
  X(tanh, tanhf, tanh, tanhl(x), -20, 20, 2, 2, 1)                                                 \
  X(asinh, asinhf, asinh, asinhl(x), -1e30, 1e30, 1, 1, 1)                                         \
  X(acosh, acoshf, acosh, acoshl(x), 1, 1e30, 1, 1, 1)                                             \
  X(atanh, atanhf, atanh, atanhl(x), -0.999, 0.999, 1, 1, 1)                                       \
  X(erf, erff, erf, erfl(x), -6, 6, 4, 4, 1)                                                       \
  X(erfc, erfcf, erfc, erfcl(x), -6, 26, 2, 2, 1)                                                  \
  X(lgamma, lgammaf, lgamma, lgammal(x), 0.5, 1e30, 4, 2, 1)                                       \
  X(tgamma, tgammaf, tgamma, tgammal(x), 0.5, 34, 6, 6, 1)                                         \
  X(sinpi, sinpif, sinpi, trig_pi_ref(x, 0), -100, 100, 2, 2, 1)                                   \
  X(cospi, cospif, cospi, trig_pi_ref(x, 1), -100, 100, 1, 2, 1)                                   \
  X(normcdf, normcdff, normcdf, 0.5L * erfcl(-x / sqrtl(2)), -38, 9, 5, 5, 1)                      \
  X(fabs, fabsf, fabs, fabsl(x), -1e30, 1e30, 0, 0, 1)                                             \
  X(ceil, ceilf, ceil, ceill(x), -1e3, 1e3, 0, 0, 1)                                               \
  X(floor, floorf, floor, floorl(x), -1e3, 1e3, 0, 0, 1)                                           \
  X(trunc, truncf, trunc, truncl(x), -1e3, 1e3, 0, 0, 1)                                           \
  X(round, roundf, round, roundl(x), -1e3, 1e3, 0, 0, 1)                                           \
  X(rint, rintf, rint, rintl(x), -1e3, 1e3, 0, 0, 1)                                               \
  X(nearbyint, nearbyintf, nearbyint, nearbyintl(x), -1e3, 1e3, 0, 0, 1)                           \
  X(logb, logbf, logb, logbl(x), -1e30, 1e30, 0, 0, 1)                                             \
  X(pow, powf, pow, powl(x, y), 0, 40, 1, 1, 2)                                                    \
  X(atan2, atan2f, atan2, atan2l(x, y), -1e3, 1e3, 1, 1, 2)                                        \
  X(hypot, hypotf, hypot, hypotl(x, y), -1e30, 1e30, 1, 1, 2)                              \
  X(rhypot, rhypotf, rhypot, 1 / hypotl(x, y), -1e30, 1e30, 1, 1, 2)                       \
  X(fmod, fmodf, fmod, fmodl(x, y), -1e3, 1e3, 0, 0, 2)                                            \
  X(remainder, remainderf, remainder, remainderl(x, y), -1e3, 1e3, 0, 0, 2)                        \
  X(fdim, fdimf, fdim, fdiml(x, y), -1e3, 1e3, 0, 0, 2)                                            \
  X(fmin, fminf, fmin, fminl(x, y), -1e3, 1e3, 0, 0, 2)                                            \
  X(fmax, fmaxf, fmax, fmaxl(x, y), -1e3, 1e3, 0, 0, 2)                                            \
  X(copysign, copysignf, copysign, copysignl(x, y), -1e3, 1e3, 0, 0, 2)                            \
  X(nextafter, nextafterf, nextafter, (ldbl)nextafter_ref(x, y), -1e3, 1e3, 0, 0, 2)               \
  X(fdivide, fdividef, fdivide, x / y, -1e30, 1e30, 0, 0, 2)                                       \
  X(divide, __fdividef, __ddiv_rn, x / y, -1e30, 1e30, 0, 0, 2)

enum {
#define MATH_ENUM(name, f, d, ref, lo, hi, uf, ud, ar) fn_##name,
  MATH_FUNCTIONS(MATH_ENUM)
#undef MATH_ENUM
      fn_count
};

// sin(pi x) (c = 0) or cos(pi x) (c = 1) in long double: x = k/2 + t with
// |t| <= 1/4 exactly, so that only pi * t rounds (a plain sinl(pi * x) loses
// all precision near the zeros).
static ldbl trig_pi_ref(ldbl x, int c) {
  if (!std::isfinite(x))
    return NAN;
  ldbl k = nearbyintl(2 * x), t = x - k / 2, pt = 3.14159265358979323846264338327950288L * t;
  int q = (int)fmodl(fabsl(k), 4) ;
  if (k < 0)
    q = (4 - q) % 4;
  q = (q + c) % 4;  // cos(pi x) = sin(pi (x + 1/2))
  ldbl r = q == 0 ? sinl(pt) : q == 1 ? cosl(pt) : q == 2 ? -sinl(pt) : -cosl(pt);
  if (r == 0)
    r = c ? 0.0L : copysignl(0.0L, x);  // sinpi's zeros carry x's sign, cospi's are +0
  return r;
}

// nextafter's result in T (so that the reference is T's neighbour).
template <typename T> static T nextafter_ref_t(T x, T y) { return std::nextafter(x, y); }

template <typename T> __global__ void math_eval(int fn, const T *x, const T *y, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T a = x[i], b = y[i], r = 0;
  switch (fn) {
#define MATH_CASE(name, f, d, ref, lo, hi, uf, ud, ar)                                             \
  case fn_##name:                                                                                  \
    if constexpr (sizeof(T) == sizeof(float))                                                      \
      r = MATH_CALL##ar(f);                                                                        \
    else                                                                                           \
      r = MATH_CALL##ar(d);                                                                        \
    break;
#define MATH_CALL1(fn) fn(a)
#define MATH_CALL2(fn) fn(a, b)
    MATH_FUNCTIONS(MATH_CASE)
#undef MATH_CASE
  }
  out[i] = r;
}

// Runs every function of the table for T; returns AH_PASS or AH_FAIL.
template <typename T> static int run_math_table() {
  bool ok = true;
  const int digits = std::numeric_limits<T>::digits;
  struct entry {
    const char *name;
    double lo, hi, bound;
    int arity;
  };
  const entry table[] = {
#define MATH_ROW(name, f, d, ref, lo, hi, uf, ud, ar)                                              \
  {digits == 24 ? #f : #d, lo, hi, digits == 24 ? (double)uf : (double)ud, ar},
      MATH_FUNCTIONS(MATH_ROW)
#undef MATH_ROW
  };
  for (int fn = 0; fn < fn_count; fn++) {
    const entry &e = table[fn];
    if (fn == fn_divide && digits == 24 && !on_cpu_device())
      continue; // __fdividef is an approximation on GPUs (see on_cpu_device)
    std::vector<T> xs = edge_inputs<T>(), ys;
    sweep(xs, e.lo, e.hi, 400);
    if (e.arity == 2) {
      // Every x with a rotating partner from the same set, plus edge pairs.
      std::vector<T> base = xs;
      ys.resize(xs.size());
      for (size_t i = 0; i < xs.size(); i++)
        ys[i] = base[(i * 7 + 3) % base.size()];
      std::vector<T> edges = edge_inputs<T>();
      for (T a : edges)
        for (T b : edges) {
          xs.push_back(a);
          ys.push_back(b);
        }
    } else {
      ys.assign(xs.size(), (T)0);
    }
    int n = (int)xs.size();
    T *dx, *dy, *dout;
    MCHECK_HIP(hipMalloc(&dx, n * sizeof(T)));
    MCHECK_HIP(hipMalloc(&dy, n * sizeof(T)));
    MCHECK_HIP(hipMalloc(&dout, n * sizeof(T)));
    MCHECK_HIP(hipMemcpy(dx, xs.data(), n * sizeof(T), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dy, ys.data(), n * sizeof(T), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(math_eval<T>, dim3((n + 127) / 128), dim3(128), 0, 0, fn, dx, dy, dout, n);
    MCHECK_HIP(hipGetLastError());
    std::vector<T> out(n);
    MCHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(T), hipMemcpyDeviceToHost));
    MCHECK_HIP(hipFree(dx));
    MCHECK_HIP(hipFree(dy));
    MCHECK_HIP(hipFree(dout));
    worst_case w;
    for (int i = 0; i < n; i++) {
      ldbl x = xs[i], y = ys[i], ref = 0;
      auto nextafter_ref = [&](ldbl, ldbl) { return nextafter_ref_t<T>(xs[i], ys[i]); };
      (void)nextafter_ref;
      switch (fn) {
#define MATH_REF(name, f, d, r, lo, hi, uf, ud, ar)                                                \
  case fn_##name:                                                                                  \
    ref = r;                                                                                       \
    break;
        MATH_FUNCTIONS(MATH_REF)
#undef MATH_REF
      }
      (void)y;
      // fmin and fmax of +0 and -0 may return either zero (C99 F.10.9.2).
      if ((fn == fn_fmin || fn == fn_fmax) && x == 0 && y == 0 && out[i] == 0)
        ref = out[i];
      // The reference as T would give it: a value beyond T's range is T's
      // infinity, one below its subnormals a zero (of ref's sign).
      if (std::isfinite(ref) && std::isinf((T)ref))
        ref = ref > 0 ? INFINITY : -INFINITY;
      double u = ulp_error<T>(out[i], ref);
      w.note(u, (double)xs[i], (double)ys[i], (double)out[i], ref);
    }
    ok &= report(e.name, w, e.bound);
  }
  return ok ? AH_PASS : AH_FAIL;
}

#endif
