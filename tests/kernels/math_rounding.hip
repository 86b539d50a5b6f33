// SPDX-License-Identifier: MIT
// The arithmetic and conversion intrinsics with a rounding mode (__fadd_rz,
// __fmul_ru, __fsqrt_rd, __fmaf_rn, __dadd_*, __ddiv_*, __fma_*, __int2float_*,
// __ull2double_*, __double2float_*, __float2int_*, ...) against results
// worked out exactly on the host without changing its rounding mode: the
// round-to-nearest result plus the sign of the rounding error (from
// error-free transformations: TwoSum, fma residuals, exact wider types) give
// the neighbours toward zero, up and down. Also: zero signs of exact sums in
// round-down, overflow to the largest finite value, float to integer
// saturation, and NaN to integer as PTX's cvt gives it (0, or the top bit).
#include "math_check.h"

#include <cfenv>
#include <climits>
#include <cstdint>

enum { RN, RZ, RU, RD };
static const char *mode_name[4] = {"rn", "rz", "ru", "rd"};

#define FOPS 7
#define DOPS 7

__global__ void float_ops(const float *x, const float *y, const float *z, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i], b = y[i], c = z[i];
  float *o = out + (size_t)i * FOPS * 4;
#define F4(k, name, ...)                                                                           \
  o[4 * k + RN] = name##_rn(__VA_ARGS__);                                                          \
  o[4 * k + RZ] = name##_rz(__VA_ARGS__);                                                          \
  o[4 * k + RU] = name##_ru(__VA_ARGS__);                                                          \
  o[4 * k + RD] = name##_rd(__VA_ARGS__);
  F4(0, __fadd, a, b)
  F4(1, __fsub, a, b)
  F4(2, __fmul, a, b)
  F4(3, __fdiv, a, b)
  F4(4, __frcp, a)
  F4(5, __fsqrt, a)
  F4(6, __fmaf, a, b, c)
}

__global__ void double_ops(const double *x, const double *y, const double *z, double *out,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = x[i], b = y[i], c = z[i];
  double *o = out + (size_t)i * DOPS * 4;
  F4(0, __dadd, a, b)
  F4(1, __dsub, a, b)
  F4(2, __dmul, a, b)
  F4(3, __ddiv, a, b)
  F4(4, __drcp, a)
  F4(5, __dsqrt, a)
  F4(6, __fma, a, b, c)
}

// Conversions to floating point: 7 kinds x 4 modes, as doubles.
__global__ void to_fp(const long long *v, const double *d, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long s = v[i];
  double *o = out + (size_t)i * 7 * 4;
  F4(0, __int2float, (int)s)
  F4(1, __uint2float, (unsigned int)s)
  F4(2, __ll2float, s)
  F4(3, __ull2float, (unsigned long long)s)
  F4(4, __ll2double, s)
  F4(5, __ull2double, (unsigned long long)s)
  F4(6, __double2float, d[i])
}

// Conversions to integers: 8 kinds x 4 modes, as 64-bit patterns.
__global__ void to_int(const float *f, const double *d, unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = f[i];
  double b = d[i];
  unsigned long long *o = out + (size_t)i * 8 * 4;
#define I4(k, name, arg, T)                                                                        \
  o[4 * k + RN] = (unsigned long long)(T)name##_rn(arg);                                           \
  o[4 * k + RZ] = (unsigned long long)(T)name##_rz(arg);                                           \
  o[4 * k + RU] = (unsigned long long)(T)name##_ru(arg);                                           \
  o[4 * k + RD] = (unsigned long long)(T)name##_rd(arg);
  I4(0, __float2int, a, int)
  I4(1, __float2uint, a, unsigned int)
  I4(2, __float2ll, a, long long)
  I4(3, __float2ull, a, unsigned long long)
  I4(4, __double2int, b, int)
  I4(5, __double2uint, b, unsigned int)
  I4(6, __double2ll, b, long long)
  I4(7, __double2ull, b, unsigned long long)
}

// ---- host references ----

static int sgn(ldbl v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

// The four results for a value whose round-to-nearest result is r and whose
// exact value lies in direction dir (-1, 0, +1) from r. `pos` says whether
// the exact value is positive (used for toward-zero). `sum_zero` marks an
// exact zero sum of operands of opposite signs: +0, but -0 when rounding
// down (IEEE 754 6.3).
template <typename T> static void four(T r, int dir, bool pos, bool sum_zero, T out[4]) {
  const T inf = std::numeric_limits<T>::infinity();
  out[RN] = r;
  out[RU] = dir > 0 ? std::nextafter(r, inf) : r;
  out[RD] = dir < 0 ? std::nextafter(r, -inf) : r;
  out[RZ] = pos ? out[RD] : out[RU];
  if (dir == 0 && r == 0 && sum_zero && !std::signbit(r))
    out[RD] = -(T)0;
}

// TwoSum: a + b = s + e exactly.
template <typename T> static void two_sum(T a, T b, T &s, T &e) {
  s = a + b;
  T bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// Exact results of the float operations, through double.
static void float_ref(int op, float a, float b, float c, float out[4]) {
  double s = 0, e = 0;
  float r = 0;
  bool sum_zero = false;
  switch (op) {
  case 0:
  case 1: {
    double bb = op == 0 ? (double)b : -(double)b;
    two_sum((double)a, bb, s, e);
    r = op == 0 ? a + b : a - b;
    sum_zero = (double)a == -bb && std::signbit(a) != std::signbit(bb);
    break;
  }
  case 2:
    s = (double)a * b; // exact: 48 bits
    r = a * b;
    break;
  case 3:
  case 4: {
    double num = op == 3 ? a : 1.0, den = op == 3 ? b : a;
    s = num / den;
    e = std::fma(-s, den, num) * (den < 0 ? -1 : 1); // sign of the quotient's error
    r = op == 3 ? a / b : 1.0f / a;
    break;
  }
  case 5:
    s = std::sqrt((double)a);
    e = std::fma(-s, s, (double)a);
    r = std::sqrt(a);
    break;
  case 6: {
    double p = (double)a * b;
    two_sum(p, (double)c, s, e);
    r = std::fma(a, b, c);
    sum_zero = p == -(double)c && std::signbit(p) != std::signbit(c);
    break;
  }
  }
  if (std::isnan(r)) {
    for (int m = 0; m < 4; m++)
      out[m] = r;
    return;
  }
  int dir;
  if (std::isinf(r) && std::isfinite(s))
    dir = r > 0 ? -1 : 1; // overflow: the exact value is finite
  else if (std::isinf(r))
    dir = 0;
  else
    dir = s != (double)r ? sgn(s - (double)r) : sgn(e);
  four(r, dir, s > 0 || (s == 0 && e > 0), sum_zero, out);
}

// Exact results of the double operations: the error term of each is itself
// exact (TwoSum, or an fma residual), or for fma the sum of three exact
// parts, accumulated in long double.
static void double_ref(int op, double a, double b, double c, double out[4]) {
  double r = 0;
  ldbl err = 0;
  bool sum_zero = false;
  switch (op) {
  case 0:
  case 1: {
    double bb = op == 0 ? b : -b, s, e;
    two_sum(a, bb, s, e);
    r = s;
    err = e;
    sum_zero = a == -bb && std::signbit(a) != std::signbit(bb);
    break;
  }
  case 2:
    r = a * b;
    err = std::fma(a, b, -r);
    break;
  case 3:
  case 4: {
    double num = op == 3 ? a : 1.0, den = op == 3 ? b : a;
    r = num / den;
    err = std::fma(-r, den, num) * (den < 0 ? -1 : 1);
    break;
  }
  case 5:
    r = std::sqrt(a);
    err = std::fma(-r, r, a);
    break;
  case 6: {
    double ph = a * b, pl = std::fma(a, b, -ph), sh, sl;
    two_sum(ph, c, sh, sl);
    r = std::fma(a, b, c);
    err = ((ldbl)(sh - r) + sl) + pl;
    sum_zero = ph == -c && pl == 0 && std::signbit(ph) != std::signbit(c);
    break;
  }
  }
  if (std::isnan(r)) {
    for (int m = 0; m < 4; m++)
      out[m] = r;
    return;
  }
  int dir = std::isinf(r) ? 0 : sgn(err);
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b) && std::isfinite(c) &&
      !(op >= 3 && op <= 4 && (op == 3 ? b : a) == 0))
    dir = r > 0 ? -1 : 1;
  four(r, dir, r > 0 || (r == 0 && dir > 0), sum_zero, out);
}

// Float to integer: the integral value by long double functions, saturated.
// NaN is handled by the caller (nan_int).
template <typename I> static unsigned long long int_ref(ldbl v, int mode) {
  ldbl r = mode == RN ? nearbyintl(v) : mode == RZ ? truncl(v) : mode == RU ? ceill(v) : floorl(v);
  if (r < (ldbl)std::numeric_limits<I>::min())
    return (unsigned long long)std::numeric_limits<I>::min();
  if (r > (ldbl)std::numeric_limits<I>::max())
    return (unsigned long long)std::numeric_limits<I>::max();
  return (unsigned long long)(I)r;
}

// What a NaN converts to, on every device (docs/semantics.md): PTX's cvt
// rule, 0 from a float to a 32-bit type, otherwise only the top bit of the
// result set. k: 0-3 float to int, uint, ll, ull; 4-7 the same from double.
static unsigned long long nan_int(int k) {
  switch (k) {
  case 0:
  case 1: return 0;
  case 4: return (unsigned long long)(long long)INT_MIN;
  case 5: return 0x80000000ull;
  default: return 0x8000000000000000ull;
  }
}

static uint64_t lcg_state = 0x9e3779b97f4a7c15ull;
static uint64_t lcg() {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return lcg_state >> 11;
}
// A value with a random 53-bit significand, exponent in [-e, e], random sign.
static double rnd(int e) {
  double m = 1 + (double)(lcg() & ((1ull << 52) - 1)) / 4503599627370496.0;
  return std::ldexp(lcg() & 1 ? -m : m, (int)(lcg() % (2 * e + 1)) - e);
}

template <typename T> static bool same(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

// Whether the host's arithmetic follows fesetround: valgrind, for one, runs
// SSE arithmetic in round-to-nearest whatever the mode.
static bool host_honours_rounding_mode() {
  volatile float one = 1.0f, tiny = 0x1p-30f;
  int old = std::fegetround();
  std::fesetround(FE_UPWARD);
  float up = one + tiny;
  std::fesetround(old);
  return up > 1.0f;
}

int main() {
  bool ok = true;
  char label[64];

  MATH_REQUIRE_DEVICE();
  if (!host_honours_rounding_mode()) {
    std::printf("SKIP: the host ignores the rounding mode (running under valgrind?)\n");
    return 77;
  }

  // ---- float arithmetic ----
  std::vector<float> fx, fy, fz;
  const float fl_max = FLT_MAX, tiny = std::numeric_limits<float>::denorm_min();
  const float specials[][3] = {
      {1, 0x1p-24f, 0},   // a tie: even is 1
      {1, 0x1.8p-24f, 0}, // just above a tie
      {-1, -0x1p-24f, 0}, {1, -1, 0},       {-0.0f, -0.0f, -0.0f}, {0.0f, -0.0f, 0.0f},
      {fl_max, fl_max, fl_max}, {-fl_max, fl_max, -fl_max}, {tiny, 0.5f, tiny},
      {3, 0, 1},          {0, 0, 0},        {2, INFINITY, -INFINITY}, {NAN, 1, 1},
      {1e-30f, 1e-30f, 1e-40f}, {16777216.0f, 1, 0.5f}, {-2, 3, 1e10f}};
  for (auto &s : specials) {
    fx.push_back(s[0]);
    fy.push_back(s[1]);
    fz.push_back(s[2]);
  }
  for (int i = 0; i < 3000; i++) {
    int e = i % 3 == 0 ? 3 : i % 3 == 1 ? 30 : 126;
    fx.push_back((float)rnd(e));
    fy.push_back((float)rnd(e));
    fz.push_back(i % 5 == 0 ? -fx.back() * fy.back() : (float)rnd(e)); // near-cancelling fmas
  }
  for (size_t i = 0; i < fx.size(); i++) // sqrt sees |x|
    if (i % 2)
      fx[i] = std::fabs(fx[i]);
  {
    int n = (int)fx.size();
    float *dx, *dy, *dz, *dout;
    MCHECK_HIP(hipMalloc(&dx, n * sizeof(float)));
    MCHECK_HIP(hipMalloc(&dy, n * sizeof(float)));
    MCHECK_HIP(hipMalloc(&dz, n * sizeof(float)));
    MCHECK_HIP(hipMalloc(&dout, (size_t)n * FOPS * 4 * sizeof(float)));
    MCHECK_HIP(hipMemcpy(dx, fx.data(), n * sizeof(float), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dy, fy.data(), n * sizeof(float), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dz, fz.data(), n * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(float_ops, dim3((n + 63) / 64), dim3(64), 0, 0, dx, dy, dz, dout, n);
    std::vector<float> out((size_t)n * FOPS * 4);
    MCHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(float), hipMemcpyDeviceToHost));
    const char *names[FOPS] = {"__fadd", "__fsub", "__fmul", "__fdiv", "__frcp", "__fsqrt",
                               "__fmaf"};
    int bad[FOPS] = {0}, shown = 0;
    for (int i = 0; i < n; i++)
      for (int op = 0; op < FOPS; op++) {
        float want[4];
        float_ref(op, fx[i], fy[i], fz[i], want);
        for (int m = 0; m < 4; m++) {
          float got = out[((size_t)i * FOPS + op) * 4 + m];
          if (!same(got, want[m])) {
            bad[op]++;
            if (shown++ < 10)
              std::printf("FAIL %s_%s(%a, %a, %a) = %a, want %a\n", names[op], mode_name[m],
                          fx[i], fy[i], fz[i], got, want[m]);
          }
        }
      }
    for (int op = 0; op < FOPS; op++) {
      std::printf("%-4s %s_{rn,rz,ru,rd}: %d inputs, %d wrong\n", bad[op] ? "FAIL" : "ok",
                  names[op], n, bad[op]);
      ok &= bad[op] == 0;
    }
    MCHECK_HIP(hipFree(dx));
    MCHECK_HIP(hipFree(dy));
    MCHECK_HIP(hipFree(dz));
    MCHECK_HIP(hipFree(dout));
  }

  // ---- double arithmetic ----
  std::vector<double> dxs, dys, dzs;
  const double dspecials[][3] = {{1, 0x1p-53, 0},  {1, 0x1.8p-53, 0}, {1, -1, 0},
                                 {-0.0, -0.0, -0.0}, {DBL_MAX, DBL_MAX, DBL_MAX},
                                 {-DBL_MAX, 2, 1},  {3, 0, 1},         {NAN, 1, 2},
                                 {2, INFINITY, -INFINITY}};
  for (auto &s : dspecials) {
    dxs.push_back(s[0]);
    dys.push_back(s[1]);
    dzs.push_back(s[2]);
  }
  for (int i = 0; i < 3000; i++) {
    int e = i % 3 == 0 ? 3 : i % 3 == 1 ? 60 : 300;
    dxs.push_back(rnd(e));
    dys.push_back(rnd(e));
    dzs.push_back(i % 5 == 0 ? -dxs.back() * dys.back() : rnd(e));
    if (i % 2)
      dxs.back() = std::fabs(dxs.back());
  }
  {
    int n = (int)dxs.size();
    double *dx, *dy, *dz, *dout;
    MCHECK_HIP(hipMalloc(&dx, n * sizeof(double)));
    MCHECK_HIP(hipMalloc(&dy, n * sizeof(double)));
    MCHECK_HIP(hipMalloc(&dz, n * sizeof(double)));
    MCHECK_HIP(hipMalloc(&dout, (size_t)n * DOPS * 4 * sizeof(double)));
    MCHECK_HIP(hipMemcpy(dx, dxs.data(), n * sizeof(double), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dy, dys.data(), n * sizeof(double), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dz, dzs.data(), n * sizeof(double), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(double_ops, dim3((n + 63) / 64), dim3(64), 0, 0, dx, dy, dz, dout, n);
    std::vector<double> out((size_t)n * DOPS * 4);
    MCHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(double), hipMemcpyDeviceToHost));
    const char *names[DOPS] = {"__dadd", "__dsub", "__dmul", "__ddiv", "__drcp", "__dsqrt",
                               "__fma"};
    int bad[DOPS] = {0}, shown = 0;
    for (int i = 0; i < n; i++)
      for (int op = 0; op < DOPS; op++) {
        double want[4];
        double_ref(op, dxs[i], dys[i], dzs[i], want);
        for (int m = 0; m < 4; m++) {
          double got = out[((size_t)i * DOPS + op) * 4 + m];
          if (!same(got, want[m])) {
            bad[op]++;
            if (shown++ < 10)
              std::printf("FAIL %s_%s(%a, %a, %a) = %a, want %a\n", names[op], mode_name[m],
                          dxs[i], dys[i], dzs[i], got, want[m]);
          }
        }
      }
    for (int op = 0; op < DOPS; op++) {
      std::printf("%-4s %s_{rn,rz,ru,rd}: %d inputs, %d wrong\n", bad[op] ? "FAIL" : "ok",
                  names[op], n, bad[op]);
      ok &= bad[op] == 0;
    }
    MCHECK_HIP(hipFree(dx));
    MCHECK_HIP(hipFree(dy));
    MCHECK_HIP(hipFree(dz));
    MCHECK_HIP(hipFree(dout));
  }

  // ---- conversions to floating point ----
  {
    std::vector<long long> v = {0, 1, -1, 16777217, -16777217, 16777219, INT32_MAX, INT32_MIN,
                                (1ll << 53) + 1, -(1ll << 53) - 3, INT64_MAX, INT64_MIN};
    std::vector<double> d = {0.0, -0.0, 1 + 0x1p-24, 1 + 0x1p-30, -1 - 0x1p-30, 1e39, -1e39,
                             1e-46, -1e-46, NAN, INFINITY, 3.4028235677973366e38};
    while (v.size() < 2000) {
      v.push_back((long long)(lcg() << (lcg() % 12)) * (lcg() & 1 ? -1 : 1) >> (lcg() % 40));
      d.push_back(rnd(140));
    }
    while (d.size() < v.size())
      d.push_back(rnd(140));
    int n = (int)v.size();
    long long *dv;
    double *dd, *dout;
    MCHECK_HIP(hipMalloc(&dv, n * sizeof(long long)));
    MCHECK_HIP(hipMalloc(&dd, n * sizeof(double)));
    MCHECK_HIP(hipMalloc(&dout, (size_t)n * 28 * sizeof(double)));
    MCHECK_HIP(hipMemcpy(dv, v.data(), n * sizeof(long long), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dd, d.data(), n * sizeof(double), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(to_fp, dim3((n + 63) / 64), dim3(64), 0, 0, dv, dd, dout, n);
    std::vector<double> out((size_t)n * 28);
    MCHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(double), hipMemcpyDeviceToHost));
    const char *names[7] = {"__int2float", "__uint2float", "__ll2float", "__ull2float",
                            "__ll2double", "__ull2double", "__double2float"};
    int bad[7] = {0}, shown = 0;
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 7; k++) {
        // The exact value (long double holds every 64-bit integer) and the
        // nearest result of the target type.
        ldbl exact;
        switch (k) {
        case 0: exact = (int)v[i]; break;
        case 1: exact = (unsigned int)v[i]; break;
        case 2: case 4: exact = v[i]; break;
        case 3: case 5: exact = (unsigned long long)v[i]; break;
        default: exact = d[i]; break;
        }
        double want[4];
        if (k == 4 || k == 5) {
          double r = (double)exact;
          four(r, sgn(exact - r), exact > 0, false, want);
        } else {
          float r = (float)exact, w4[4];
          int dir = std::isnan(r) ? 0
                    : std::isinf(r) && std::isfinite(exact) ? (r > 0 ? -1 : 1)
                                                            : sgn(exact - (ldbl)r);
          four(r, dir, exact > 0, false, w4);
          for (int m = 0; m < 4; m++)
            want[m] = w4[m];
        }
        for (int m = 0; m < 4; m++) {
          double got = out[((size_t)i * 7 + k) * 4 + m];
          if (!same(got, want[m])) {
            bad[k]++;
            if (shown++ < 10)
              std::printf("FAIL %s_%s(%lld / %a) = %a, want %a\n", names[k], mode_name[m], v[i],
                          d[i], got, want[m]);
          }
        }
      }
    for (int k = 0; k < 7; k++) {
      snprintf(label, sizeof(label), "%s_{rn,rz,ru,rd}", names[k]);
      std::printf("%-4s %s: %d inputs, %d wrong\n", bad[k] ? "FAIL" : "ok", label, n, bad[k]);
      ok &= bad[k] == 0;
    }
    MCHECK_HIP(hipFree(dv));
    MCHECK_HIP(hipFree(dd));
    MCHECK_HIP(hipFree(dout));
  }

  // ---- conversions to integers ----
  {
    std::vector<float> f = {0.5f, 1.5f, 2.5f, -2.5f, -0.5f, 2.7f, -2.7f, 1e10f, -1e10f, 3e9f,
                            -3e9f, 1e19f, 2e19f, -1e19f, NAN, INFINITY, -INFINITY, -0.0f,
                            2147483520.0f, 4294967040.0f, 9.2233715e18f, 1.8446743e19f};
    std::vector<double> d = {0.5, 1.5, 2.5, -2.5, -0.5, 2147483647.5, 2147483648.0,
                             -2147483648.5, 4294967295.5, 4294967296.0, 9.2233720368547748e18,
                             -9.2233720368547758e18, 1.8446744073709550e19, 1.9e19, NAN,
                             -INFINITY, -0.0, 1e300, -1e300, 4503599627370497.0};
    while (f.size() < 2000)
      f.push_back((float)rnd(66));
    while (d.size() < f.size())
      d.push_back(d.size() % 2 ? rnd(66) : std::ldexp((double)(lcg() % 64) - 32, -1));
    int n = (int)f.size();
    float *df;
    double *dd;
    unsigned long long *dout;
    MCHECK_HIP(hipMalloc(&df, n * sizeof(float)));
    MCHECK_HIP(hipMalloc(&dd, n * sizeof(double)));
    MCHECK_HIP(hipMalloc(&dout, (size_t)n * 32 * sizeof(unsigned long long)));
    MCHECK_HIP(hipMemcpy(df, f.data(), n * sizeof(float), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dd, d.data(), n * sizeof(double), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(to_int, dim3((n + 63) / 64), dim3(64), 0, 0, df, dd, dout, n);
    std::vector<unsigned long long> out((size_t)n * 32);
    MCHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(out[0]), hipMemcpyDeviceToHost));
    const char *names[8] = {"__float2int", "__float2uint", "__float2ll", "__float2ull",
                            "__double2int", "__double2uint", "__double2ll", "__double2ull"};
    int bad[8] = {0}, shown = 0;
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 8; k++)
        for (int m = 0; m < 4; m++) {
          ldbl x = k < 4 ? (ldbl)f[i] : (ldbl)d[i];
          unsigned long long want;
          if (std::isnan(x)) {
            want = nan_int(k);
          } else {
            switch (k % 4) {
          case 0: want = (unsigned long long)(int)int_ref<int>(x, m); break;
          case 1: want = int_ref<unsigned int>(x, m); break;
          case 2: want = int_ref<long long>(x, m); break;
          default: want = int_ref<unsigned long long>(x, m); break;
            }
          }
          if (k % 4 == 0)
            want = (unsigned long long)(long long)(int)(unsigned int)want;
          unsigned long long got = out[((size_t)i * 8 + k) * 4 + m];
          if (got != want) {
            bad[k]++;
            if (shown++ < 10)
              std::printf("FAIL %s_%s(%.17Lg) = %llx, want %llx\n", names[k], mode_name[m], x, got,
                          want);
          }
        }
    for (int k = 0; k < 8; k++) {
      snprintf(label, sizeof(label), "%s_{rn,rz,ru,rd}", names[k]);
      std::printf("%-4s %s: %d inputs, %d wrong\n", bad[k] ? "FAIL" : "ok", label, n, bad[k]);
      ok &= bad[k] == 0;
    }
    MCHECK_HIP(hipFree(df));
    MCHECK_HIP(hipFree(dd));
    MCHECK_HIP(hipFree(dout));
  }

  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? AH_PASS : AH_FAIL;
}
