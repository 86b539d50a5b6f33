// SPDX-License-Identifier: MIT
// The exact device math functions in float and double: frexp, modf, remquo,
// ilogb, ldexp, scalbn, scalbln, nan, the classification functions, lrint,
// llrint, lround, llround, abs; sincos and sincospi (within the bounds of sin
// and cos, and equal to them); and the result types of the overloads device
// code relies on (sqrt(float) is float, pow(float, int) is float). Compared
// bit for bit with the host's C library over the edge inputs and a sweep.
#include "math_check.h"

#include <type_traits>

#define NMISC 20

// Results as doubles (ints converted exactly), NMISC per input.
template <typename T> __global__ void misc(const T *x, const T *y, double *out, int n) {
  static_assert(std::is_same<decltype(sqrt((T)1)), T>::value, "sqrt keeps the type");
#if !defined(__HIP_PLATFORM_NVIDIA__) // CUDA's pow(float, int) is std's (double) there
  static_assert(std::is_same<decltype(pow((T)2, 3)), T>::value, "pow(T, int) is T");
#endif
  static_assert(std::is_same<decltype(fabs((T)1)), T>::value, "fabs keeps the type");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T a = x[i], b = y[i], ip, s, c, s2, c2;
  int e = 0, q = 0;
  double *o = out + (size_t)i * NMISC;
  auto same = [](T u, T v) { return u == v || (isnan(u) && isnan(v)); };
  if constexpr (sizeof(T) == sizeof(float)) {
    o[0] = frexpf(a, &e);
    o[1] = e;
    o[2] = modff(a, &ip);
    o[3] = ip;
    o[4] = remquof(a, b, &q);
    o[5] = q & 7; // C99: the sign and at least the low 3 bits
    o[6] = std::isfinite(a) && a != 0 ? ilogbf(a) : 0;
    o[7] = ldexpf(a, (int)b % 300);
    o[8] = scalbnf(a, -((int)b % 300));
    o[9] = scalblnf(a, (long)b % 300);
    sincosf(a, &s, &c);
    o[10] = s;
    o[11] = c;
    o[12] = same(s, sinf(a)) && same(c, cosf(a));
    sincospif(a, &s2, &c2);
    o[13] = same(s2, sinpif(a)) && same(c2, cospif(a));
    o[14] = std::fabs(a) < 1e9f ? (double)lrintf(a) + 1e10 * (double)llroundf(a) : 0;
    o[15] = std::fabs(a) < 1e9f ? (double)llrintf(a) + 1e10 * (double)lroundf(a) : 0;
    o[16] = isnan(nanf("")) + 2 * isnan(nanf("7"));
  } else {
    o[0] = frexp(a, &e);
    o[1] = e;
    o[2] = modf(a, &ip);
    o[3] = ip;
    o[4] = remquo(a, b, &q);
    o[5] = q & 7;
    o[6] = std::isfinite(a) && a != 0 ? ilogb(a) : 0;
    o[7] = ldexp(a, (int)b % 3000);
    o[8] = scalbn(a, -((int)b % 3000));
    o[9] = scalbln(a, (long)b % 3000);
    sincos(a, &s, &c);
    o[10] = s;
    o[11] = c;
    o[12] = same(s, sin(a)) && same(c, cos(a));
    sincospi(a, &s2, &c2);
    o[13] = same(s2, sinpi(a)) && same(c2, cospi(a));
    o[14] = std::fabs(a) < 1e9 ? (double)lrint(a) + 1e10 * (double)llround(a) : 0;
    o[15] = std::fabs(a) < 1e9 ? (double)llrint(a) + 1e10 * (double)lround(a) : 0;
    o[16] = isnan(nan("")) + 2 * isnan(nan("7"));
  }
  o[17] = isfinite(a) + 2 * isinf(a) + 4 * isnan(a) + 8 * (signbit(a) != 0);
  o[18] = abs(a);
  o[19] = (double)abs((long long)b % 1000000) + 1e7 * abs((int)(b / 4) % 1000);
}

// The same on the host, with std::.
template <typename T> static void misc_ref(T a, T b, double *o) {
  int e = 0, q = 0;
  T ip;
  o[0] = std::frexp(a, &e);
  o[1] = e;
  o[2] = std::modf(a, &ip);
  o[3] = ip;
  o[4] = std::remquo(a, b, &q);
  o[5] = q & 7;
  o[6] = std::isfinite(a) && a != 0 ? std::ilogb(a) : 0;
  int lim = sizeof(T) == sizeof(float) ? 300 : 3000;
  o[7] = std::ldexp(a, (int)b % lim);
  o[8] = std::scalbn(a, -((int)b % lim));
  o[9] = std::scalbln(a, (long)b % lim);
  o[10] = std::sin(a); // checked within 1 ulp, not bit for bit
  o[11] = std::cos(a);
  o[12] = 1;
  o[13] = 1;
  o[14] = std::fabs(a) < (T)1e9 ? (double)std::lrint(a) + 1e10 * (double)std::llround(a) : 0;
  o[15] = std::fabs(a) < (T)1e9 ? (double)std::llrint(a) + 1e10 * (double)std::lround(a) : 0;
  o[16] = 3;
  o[17] = std::isfinite(a) + 2 * std::isinf(a) + 4 * std::isnan(a) + 8 * (std::signbit(a) != 0);
  o[18] = std::fabs(a);
  o[19] = (double)std::llabs((long long)b % 1000000) + 1e7 * std::abs((int)(b / 4) % 1000);
}

template <typename T> static bool run_misc() {
  std::vector<T> xs = edge_inputs<T>(), ys;
  sweep(xs, -1e3, 1e3, 300);
  sweep(xs, -4, 4, 100); // halves and quarters for the rounding functions
  for (int k = -8; k <= 8; k++)
    xs.push_back((T)k / 2);
  for (size_t i = 0; i < xs.size(); i++)
    ys.push_back(i % 5 == 0 ? (T)(int)(i % 17) - 8 : xs[(i * 7 + 3) % xs.size()]);
  // Keep the integer conversions of b defined.
  for (T &v : ys)
    if (!(std::fabs(v) < (T)1e9))
      v = (T)3;
  int n = (int)xs.size();
  T *dx, *dy;
  double *dout;
  MCHECK_HIP(hipMalloc(&dx, n * sizeof(T)));
  MCHECK_HIP(hipMalloc(&dy, n * sizeof(T)));
  MCHECK_HIP(hipMalloc(&dout, (size_t)n * NMISC * sizeof(double)));
  MCHECK_HIP(hipMemcpy(dx, xs.data(), n * sizeof(T), hipMemcpyHostToDevice));
  MCHECK_HIP(hipMemcpy(dy, ys.data(), n * sizeof(T), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(misc<T>, dim3((n + 127) / 128), dim3(128), 0, 0, dx, dy, dout, n);
  MCHECK_HIP(hipGetLastError());
  std::vector<double> out((size_t)n * NMISC);
  MCHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(double), hipMemcpyDeviceToHost));
  MCHECK_HIP(hipFree(dx));
  MCHECK_HIP(hipFree(dy));
  MCHECK_HIP(hipFree(dout));
  const char *names[NMISC] = {"frexp", "frexp exponent", "modf", "modf integral", "remquo",
                              "remquo quotient bits", "ilogb", "ldexp", "scalbn", "scalbln",
                              "sincos sin", "sincos cos", "sincos == sin, cos",
                              "sincospi == sinpi, cospi", "lrint + llround", "llrint + lround",
                              "nan", "isfinite/isinf/isnan/signbit", "abs", "abs(int, long long)"};
  int bad[NMISC] = {0}, shown = 0;
  for (int i = 0; i < n; i++) {
    double want[NMISC];
    misc_ref<T>(xs[i], ys[i], want);
    for (int k = 0; k < NMISC; k++) {
      double got = out[(size_t)i * NMISC + k];
      bool good;
      if (k == 10 || k == 11)
        good = ulp_error<T>((T)got, k == 10 ? sinl(xs[i]) : cosl(xs[i])) <= 1.5;
      else
        good = (std::isnan(got) && std::isnan(want[k])) ||
               (got == want[k] && std::signbit(got) == std::signbit(want[k]));
      if (!good) {
        bad[k]++;
        if (shown++ < 10)
          std::printf("FAIL %s(%.9g, %.9g) = %.17g, want %.17g\n", names[k], (double)xs[i],
                      (double)ys[i], got, want[k]);
      }
    }
  }
  bool ok = true;
  for (int k = 0; k < NMISC; k++) {
    std::printf("%-4s %-6s %-30s %d inputs, %d wrong\n", bad[k] ? "FAIL" : "ok",
                sizeof(T) == sizeof(float) ? "float" : "double", names[k], n, bad[k]);
    ok &= bad[k] == 0;
  }
  return ok;
}

int main() {
  MATH_REQUIRE_DEVICE();
  bool ok = run_misc<float>();
  ok &= run_misc<double>();
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? AH_PASS : AH_FAIL;
}
