// SPDX-License-Identifier: MIT
// HIP's double device math functions (the C99 set, HIP's extra ones
// such as rsqrt, rcbrt, sinpi, normcdf, rhypot, fdivide, and the fast
// intrinsics) evaluated in a kernel over edge inputs (zeros, infinities, NaN,
// subnormals, extremes) and a sweep of each domain, against the host's long
// double libm within HIP's documented maximum ulp error (math_table.h).
#include "math_table.h"

int main() {
  MATH_REQUIRE_LONG_DOUBLE();
  int r = run_math_table<double>();
  std::printf("%s\n", r == AH_PASS ? "PASS" : "FAIL");
  return r;
}
