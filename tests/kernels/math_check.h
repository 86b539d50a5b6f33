// SPDX-License-Identifier: MIT
// Helpers for the math_*.hip tests: error in ulps of a float or double result
// against a long double reference, the inputs every function sees (zeros,
// infinities, NaN, subnormals, the largest values), sweeps over a domain, and
// one line per function with its worst error. The reference is the host's
// long double libm (x86's 64-bit significand): 11 bits beyond double.
#ifndef AH_MATH_CHECK_H
#define AH_MATH_CHECK_H

#include <hip/hip_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "ah_test.h"

#define MCHECK_HIP(x)                                                                              \
  do {                                                                                             \
    hipError_t e_ = (x);                                                                           \
    if (e_ != hipSuccess) {                                                                        \
      std::printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_));             \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

typedef long double ldbl;

// Whether long double carries the bits beyond double that the references
// need. It does not where long double is double, nor under valgrind, which
// runs x87 arithmetic in double precision.
static bool long_double_is_wider() {
  volatile ldbl one = 1, tiny = 0x1p-60L;
  return one + tiny != one;
}
// Exits 77 when there is no device to run on.
#define MATH_REQUIRE_DEVICE()                                                                      \
  do {                                                                                             \
    int count_ = 0;                                                                                \
    if (hipGetDeviceCount(&count_) != hipSuccess || count_ == 0) {                                 \
      std::printf("SKIP: no device\n");                                                            \
      return 77;                                                                                   \
    }                                                                                              \
  } while (0)
#define MATH_REQUIRE_LONG_DOUBLE()                                                                 \
  do {                                                                                             \
    MATH_REQUIRE_DEVICE();                                                                         \
    if (!long_double_is_wider()) {                                                                 \
      std::printf("SKIP: long double is no wider than double here (valgrind?); the references "  \
                  "need its extra bits\n");                                                        \
      return 77;                                                                                   \
    }                                                                                              \
  } while (0)

// The distance from got to the exact value ref in units of the last place of
// T at ref (the spacing of T's values around ref, subnormal spacing at the
// bottom). Both NaN: 0. One NaN, or infinities that differ, or a zero of the
// wrong sign where ref is an exact zero: +inf.
template <typename T> static double ulp_error(T got, ldbl ref) {
  if (std::isnan(ref) || std::isnan(got))
    return std::isnan(ref) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(ref) || std::isinf(got)) {
    if ((ldbl)got == ref)
      return 0;
    // A finite result next to an infinite reference: the reference overflowed
    // T only by rounding (T's largest value, within an ulp, passes).
    if (std::isinf(ref) && (std::fabs(got) == std::numeric_limits<T>::max()) &&
        std::signbit(got) == std::signbit(ref))
      return 1;
    if (std::isinf(got) && std::fabs(ref) >= (ldbl)std::numeric_limits<T>::max() &&
        std::signbit(got) == std::signbit(ref))
      return 1;
    return INFINITY;
  }
  if (ref == 0 && got == 0)
    return std::signbit(got) == std::signbit(ref) ? 0 : INFINITY;
  int e;
  std::frexp((double)ref, &e); // ref = m 2^e, 0.5 <= |m| < 1
  const int digits = std::numeric_limits<T>::digits;
  const int emin = std::numeric_limits<T>::min_exponent; // FLT_MIN = 2^(emin-1)
  if (e < emin)
    e = emin;
  ldbl ulp = std::ldexp((ldbl)1, e - digits);
  return (double)(std::fabs((ldbl)got - ref) / ulp);
}

// Edge inputs: signed zeros, infinities, NaN, subnormals, the extremes and a
// few exact integers and halves.
template <typename T> static std::vector<T> edge_inputs() {
  typedef std::numeric_limits<T> L;
  std::vector<T> v = {(T)0,         -(T)0,          L::infinity(), -L::infinity(),
                      L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min() / 4,
                      L::min(),     -L::min(),      L::max(),      -L::max(),
                      (T)1,         (T)-1,          (T)0.5,        (T)-0.5,
                      (T)2,         (T)-3,          (T)1e-30,      (T)100};
  return v;
}

// n values spread over [lo, hi]: evenly, and for ranges with a positive
// bound also geometrically between the smallest positive bound and hi.
template <typename T> static void sweep(std::vector<T> &v, double lo, double hi, int n) {
  for (int i = 0; i <= n; i++)
    v.push_back((T)(lo + (hi - lo) * i / n));
  if (hi > 0) {
    double a = lo > 0 ? lo : hi * 1e-6;
    for (int i = 0; i <= n; i++)
      v.push_back((T)(a * std::pow(hi / a, (double)i / n)));
  }
}

struct worst_case {
  double ulp = 0;
  double at = 0, at2 = 0;
  double got = 0;
  ldbl ref = 0;
  void note(double u, double x, double y, double g, ldbl r) {
    if (u > ulp || (u != u)) {
      ulp = u;
      at = x;
      at2 = y;
      got = g;
      ref = r;
    }
  }
};

// Whether the current device is the CPU device. Elsewhere (an NVIDIA GPU)
// the functions are CUDA's, whose documented bounds differ from HIP's per
// function (and were not measured here): the bounds are relaxed to 2b + 2, and
// the fast intrinsics, which are approximations there, are left out.
static bool on_cpu_device() {
  static int cached = -1;
  if (cached < 0) {
    hipDeviceProp_t p;
    int dev = 0;
    cached = hipGetDevice(&dev) == hipSuccess && hipGetDeviceProperties(&p, dev) == hipSuccess &&
             std::strcmp(p.gcnArchName, "cpu") == 0;
  }
  return cached == 1;
}

// Prints the function's line and returns whether it stayed within bound.
// HIP's bounds count ulps from the correctly rounded result; the reference
// here is (nearly) exact, so the rounding's own half ulp is added.
static bool report(const char *name, const worst_case &w, double bound) {
  if (!on_cpu_device())
    bound = 2 * bound + 2;
  bool ok = w.ulp <= bound + 0.5;
  std::printf("%-4s %-18s max %8.3f ulp (bound %g)", ok ? "ok" : "FAIL", name, w.ulp, bound);
  if (!ok || w.ulp > 0)
    std::printf("  at x=%.17g y=%.17g: got %.17g want %.21Lg", w.at, w.at2, w.got, w.ref);
  std::printf("\n");
  return ok;
}

#endif
