// SPDX-License-Identifier: MIT
// HIP's special functions that the C library lacks (erfinv, erfcinv,
// normcdfinv, erfcx, cyl_bessel_i0/i1, norm3d/norm4d/norm and their
// reciprocals, powi), the Bessel functions j0..yn, and the fast float
// intrinsics (__expf, __sinf, ...), in float and double. The references are
// computed on the host in long double by other methods than the device's:
// bisection on erfl/erfcl for the inverses, the trapezoidal rule on
// I_n(x) = (1/pi) int_0^pi e^(x cos t) cos(n t) dt (exact to rounding for this
// periodic integrand) for the modified Bessel functions.
#include "math_check.h"

#include <string>

#define SPECIAL_FUNCTIONS(X)                                                                       \
  X(erfinv, erfinvf(a), erfinv(a), 2, 5)                                                           \
  X(erfcinv, erfcinvf(a), erfcinv(a), 4, 6)                                                        \
  X(normcdfinv, normcdfinvf(a), normcdfinv(a), 5, 8)                                               \
  X(erfcx, erfcxf(a), erfcx(a), 5, 5)                                                              \
  X(cyl_bessel_i0, cyl_bessel_i0f(a), cyl_bessel_i0(a), 6, 6)                                      \
  X(cyl_bessel_i1, cyl_bessel_i1f(a), cyl_bessel_i1(a), 6, 6)                                      \
  X(norm3d, norm3df(a, b, a - b), norm3d(a, b, a - b), 1, 1)                                       \
  X(rnorm3d, rnorm3df(a, b, a - b), rnorm3d(a, b, a - b), 1, 1)                                    \
  X(norm4d, norm4df(a, b, a - b, b), norm4d(a, b, a - b, b), 2, 2)                                 \
  X(rnorm4d, rnorm4df(a, b, a - b, b), rnorm4d(a, b, a - b, b), 2, 2)                              \
  X(norm, normf(5, v), norm(5, v), 2, 2)                                                           \
  X(rnorm, rnormf(5, v), rnorm(5, v), 2, 2)                                                        \
  X(powi, powif(a, (int)b), powi(a, (int)b), 1, 1)                                                 \
  X(fast_exp, __expf(a), exp(a), 6, 1)                                                             \
  X(fast_exp10, __exp10f(a), exp10(a), 18, 2)                                                      \
  X(fast_log, __logf(a), log(a), 2, 1)                                                             \
  X(fast_log2, __log2f(a), log2(a), 1, 1)                                                          \
  X(fast_log10, __log10f(a), log10(a), 2, 2)                                                       \
  X(fast_sin, __sinf(a), sin(a), 18, 1)                                                            \
  X(fast_cos, __cosf(a), cos(a), 4, 1)                                                             \
  X(fast_tan, __tanf(a), tan(a), 1, 1)                                                             \
  X(fast_pow, __powf(a, b), pow(a, b), 1, 1)

enum {
#define SP_ENUM(name, f, d, uf, ud) sp_##name,
  SPECIAL_FUNCTIONS(SP_ENUM)
#undef SP_ENUM
      sp_count
};

template <typename T> __global__ void special_eval(int fn, const T *x, const T *y, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T a = x[i], b = y[i], r = 0;
  const T v[5] = {a, b, a - b, b, (T)0.5 * a};
  (void)v;
  switch (fn) {
#define SP_CASE(name, f, d, uf, ud)                                                                \
  case sp_##name:                                                                                  \
    if constexpr (sizeof(T) == sizeof(float))                                                      \
      r = f;                                                                                       \
    else                                                                                           \
      r = d;                                                                                       \
    break;
    SPECIAL_FUNCTIONS(SP_CASE)
#undef SP_CASE
  }
  out[i] = r;
}

static const ldbl PI_L = 3.14159265358979323846264338327950288L;

// erfinv by bisection: on erfl below 1/2, on erfcl of 1 - |y| above.
static ldbl erfinv_ref(ldbl y) {
  if (std::isnan(y) || fabsl(y) > 1)
    return NAN;
  if (fabsl(y) == 1)
    return copysignl(INFINITY, y);
  if (y == 0)
    return y;
  ldbl a = fabsl(y), lo = 0, hi = 10;
  if (a < 1e-10L) // the series' first two terms, beyond bisection's resolution
    return sqrtl(PI_L) / 2 * (y + PI_L / 12 * y * y * y);
  bool tail = a >= 0.5L;
  ldbl c = 1 - a; // exact
  if (tail)
    hi = 110;
  for (int i = 0; i < 200; i++) {
    ldbl mid = (lo + hi) / 2;
    bool below = tail ? erfcl(mid) > c : erfl(mid) < a; // root lies above mid
    (below ? lo : hi) = mid;
  }
  return copysignl((lo + hi) / 2, y);
}
// erfcinv(z) = erfinv(1 - z) in value; near 0 and 2 by bisection on erfcl.
static ldbl erfcinv_ref(ldbl z) {
  if (std::isnan(z) || z < 0 || z > 2)
    return NAN;
  if (z == 0)
    return INFINITY;
  if (z == 2)
    return -INFINITY;
  if (z > 1)
    return -erfcinv_ref(2 - z);
  if (z >= 0.5L)
    return erfinv_ref(1 - z);
  ldbl lo = 0, hi = 110;
  for (int i = 0; i < 200; i++) {
    ldbl mid = (lo + hi) / 2;
    (erfcl(mid) > z ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}
// exp(x^2) erfc(x); beyond erfcl's range, erfc's asymptotic series.
static ldbl erfcx_ref(ldbl x) {
  if (std::isnan(x))
    return x;
  if (x < -27)
    return INFINITY;
  if (x < 100) {
    // x^2 as three exact parts (x has 53 bits; each part fits in 64).
    double xd = (double)x, xh = (double)(float)xd, xl = xd - xh;
    return expl((ldbl)xh * xh) * expl(2 * (ldbl)xh * xl) * expl((ldbl)xl * xl) * erfcl(x);
  }
  ldbl s = 0, t = 1, h = 1 / (2 * x * x);
  for (int k = 1; k < 12; k++) {
    s += t;
    t *= -(2 * k - 1) * h;
  }
  return s / (x * sqrtl(PI_L));
}
// I_n(x) by the trapezoidal rule, scaled by e^-|x| while summing.
static ldbl bessel_i_ref(ldbl x, int n) {
  if (std::isnan(x))
    return x;
  if (std::isinf(x))
    return n == 1 && x < 0 ? -INFINITY : INFINITY;
  ldbl a = fabsl(x);
  if (a < 2) { // the sum cancels for I1 of small x: the power series, smallest term first
    ldbl q = x * x / 4, t[40];
    t[0] = n ? x / 2 : 1;
    for (int k = 1; k < 40; k++)
      t[k] = t[k - 1] * q / (k * (k + n));
    ldbl s = t[39]; // (a sum starting from +0 would lose I1(-0) = -0)
    for (int k = 38; k >= 0; k--)
      s += t[k];
    return s;
  }
  const int m = 2048;
  ldbl s = 0;
  for (int k = 0; k <= m; k++) {
    ldbl t = PI_L * k / m, w = (k == 0 || k == m) ? 0.5L : 1;
    s += w * expl(a * (cosl(t) - 1)) * (n ? cosl(t) : 1);
  }
  ldbl r = s / m * expl(a);
  return n == 1 && x < 0 ? -r : r;
}
static ldbl norm_ref(int n, const ldbl *v) {
  ldbl s = 0;
  for (int i = 0; i < n; i++)
    if (std::isinf(v[i]))
      return INFINITY;
  for (int i = 0; i < n; i++)
    s += v[i] * v[i];
  return sqrtl(s);
}

template <typename T> static ldbl special_ref(int fn, T ta, T tb) {
  ldbl a = ta, b = tb, c = (ldbl)(T)(ta - tb);
  ldbl v5[5] = {a, b, c, b, (ldbl)(T)((T)0.5 * ta)};
  ldbl v3[3] = {a, b, c}, v4[4] = {a, b, c, b};
  switch (fn) {
  case sp_erfinv:
    return erfinv_ref(a);
  case sp_erfcinv:
    return erfcinv_ref(a);
  case sp_normcdfinv:
    return a == 0.5L ? 0.0L : -sqrtl(2) * erfcinv_ref(2 * a);
  case sp_erfcx:
    return erfcx_ref(a);
  case sp_cyl_bessel_i0:
    return bessel_i_ref(a, 0);
  case sp_cyl_bessel_i1:
    return bessel_i_ref(a, 1);
  case sp_norm3d:
    return norm_ref(3, v3);
  case sp_rnorm3d:
    return 1 / norm_ref(3, v3);
  case sp_norm4d:
    return norm_ref(4, v4);
  case sp_rnorm4d:
    return 1 / norm_ref(4, v4);
  case sp_norm:
    return norm_ref(5, v5);
  case sp_rnorm:
    return 1 / norm_ref(5, v5);
  case sp_powi:
    return powl(a, (ldbl)(int)tb);
  case sp_fast_exp:
    return expl(a);
  case sp_fast_exp10:
    return powl(10, a);
  case sp_fast_log:
    return logl(a);
  case sp_fast_log2:
    return log2l(a);
  case sp_fast_log10:
    return log10l(a);
  case sp_fast_sin:
    return sinl(a);
  case sp_fast_cos:
    return cosl(a);
  case sp_fast_tan:
    return tanl(a);
  case sp_fast_pow:
    return powl(a, b);
  }
  return NAN;
}

// Inputs per function: its domain swept finely near the ends where the
// functions are steep, plus the edge inputs.
template <typename T> static void inputs(int fn, std::vector<T> &xs, std::vector<T> &ys) {
  xs = edge_inputs<T>();
  switch (fn) {
  case sp_erfinv:
    sweep(xs, -1, 1, 600);
    for (int k = 1; k < 50; k++) { // 1 - 2^-k and its negation
      xs.push_back((T)(1 - std::ldexp(1.0, -k)));
      xs.push_back((T)(-1 + std::ldexp(1.0, -k)));
    }
    break;
  case sp_erfcinv:
  case sp_normcdfinv:
    sweep(xs, 0, fn == sp_erfcinv ? 2 : 1, 600);
    for (int k = 1; k < (sizeof(T) == 4 ? 149 : 1074); k += 3) {
      xs.push_back((T)std::ldexp(1.0, -k)); // down to the subnormals
      xs.push_back((T)(1 - std::ldexp(1.0, -k / 20 - 1)));
    }
    break;
  case sp_erfcx:
    sweep(xs, -26, 1e30, 600);
    sweep(xs, -10, 120, 600);
    break;
  case sp_cyl_bessel_i0:
  case sp_cyl_bessel_i1:
    sweep(xs, -(sizeof(T) == 4 ? 90 : 713), sizeof(T) == 4 ? 90 : 713, 400);
    sweep(xs, -30, 30, 400);
    break;
  case sp_powi:
    sweep(xs, -10, 10, 300);
    break;
  case sp_fast_log:
  case sp_fast_log2:
  case sp_fast_log10:
    sweep(xs, 1e-6, 1e6, 400);
    break;
  case sp_fast_sin:
  case sp_fast_cos:
    sweep(xs, -PI_L, PI_L, 400);
    break;
  case sp_fast_tan:
    sweep(xs, -1.47 * PI_L, 1.47 * PI_L, 400);
    break;
  case sp_fast_exp:
  case sp_fast_exp10:
    sweep(xs, -10, 10, 400);
    break;
  case sp_fast_pow:
    sweep(xs, 0, 4, 400);
    break;
  default:
    sweep(xs, -1e30, 1e30, 300);
    sweep(xs, -10, 10, 300);
    break;
  }
  ys.resize(xs.size());
  for (size_t i = 0; i < xs.size(); i++) {
    if (fn == sp_powi)
      ys[i] = (T)((int)(i % 13) - 6); // exponents -6..6
    else if (fn == sp_fast_pow)
      ys[i] = (T)(-2 + 4.0 * (double)((i * 37) % 101) / 100);
    else
      ys[i] = xs[(i * 7 + 3) % xs.size()];
  }
}

template <typename T> static bool run_special() {
  bool ok = true;
  const bool is_float = sizeof(T) == sizeof(float);
  struct row {
    const char *fname, *dname;
    double uf, ud;
  };
  const row rows[] = {
#define SP_ROW(name, f, d, uf, ud) {#f, #d, uf, ud},
      SPECIAL_FUNCTIONS(SP_ROW)
#undef SP_ROW
  };
  for (int fn = 0; fn < sp_count; fn++) {
    // The fast intrinsics are float-only; their double rows are the precise
    // functions again, not worth a second run.
    if (fn >= sp_fast_exp && (!is_float || !on_cpu_device()))
      break;
    std::vector<T> xs, ys;
    inputs<T>(fn, xs, ys);
    int n = (int)xs.size();
    T *dx, *dy, *dout;
    MCHECK_HIP(hipMalloc(&dx, n * sizeof(T)));
    MCHECK_HIP(hipMalloc(&dy, n * sizeof(T)));
    MCHECK_HIP(hipMalloc(&dout, n * sizeof(T)));
    MCHECK_HIP(hipMemcpy(dx, xs.data(), n * sizeof(T), hipMemcpyHostToDevice));
    MCHECK_HIP(hipMemcpy(dy, ys.data(), n * sizeof(T), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(special_eval<T>, dim3((n + 127) / 128), dim3(128), 0, 0, fn, dx, dy, dout,
                       n);
    MCHECK_HIP(hipGetLastError());
    std::vector<T> out(n);
    MCHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(T), hipMemcpyDeviceToHost));
    MCHECK_HIP(hipFree(dx));
    MCHECK_HIP(hipFree(dy));
    MCHECK_HIP(hipFree(dout));
    worst_case w;
    for (int i = 0; i < n; i++) {
      ldbl ref = special_ref<T>(fn, xs[i], ys[i]);
      if (std::isfinite(ref) && std::isinf((T)ref))
        ref = ref > 0 ? INFINITY : -INFINITY;
      w.note(ulp_error<T>(out[i], ref), (double)xs[i], (double)ys[i], (double)out[i], ref);
    }
    std::string name = is_float ? rows[fn].fname : rows[fn].dname;
    name = name.substr(0, name.find('(')); // "erfinvf(a)" -> "erfinvf"
    ok &= report(name.c_str(), w, is_float ? rows[fn].uf : rows[fn].ud);
  }
  return ok;
}

// j0, j1, jn, y0, y1, yn: the C library's on the CPU device. Their relative
// error is unbounded near the zeros, so (as CUDA documents them) the
// absolute error is checked: against the long double functions.
template <typename T> __global__ void bessel_jy(const T *x, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T a = x[i];
  if constexpr (sizeof(T) == sizeof(float)) {
    out[6 * i + 0] = j0f(a);
    out[6 * i + 1] = j1f(a);
    out[6 * i + 2] = jnf(3, a);
    out[6 * i + 3] = y0f(a);
    out[6 * i + 4] = y1f(a);
    out[6 * i + 5] = ynf(3, a);
  } else {
    out[6 * i + 0] = j0(a);
    out[6 * i + 1] = j1(a);
    out[6 * i + 2] = jn(3, a);
    out[6 * i + 3] = y0(a);
    out[6 * i + 4] = y1(a);
    out[6 * i + 5] = yn(3, a);
  }
}

template <typename T> static bool run_bessel_jy() {
  std::vector<T> xs;
  sweep(xs, 0.01, 100, 500);
  int n = (int)xs.size();
  T *dx, *dout;
  MCHECK_HIP(hipMalloc(&dx, n * sizeof(T)));
  MCHECK_HIP(hipMalloc(&dout, 6 * n * sizeof(T)));
  MCHECK_HIP(hipMemcpy(dx, xs.data(), n * sizeof(T), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(bessel_jy<T>, dim3((n + 127) / 128), dim3(128), 0, 0, dx, dout, n);
  std::vector<T> out(6 * n);
  MCHECK_HIP(hipMemcpy(out.data(), dout, 6 * n * sizeof(T), hipMemcpyDeviceToHost));
  MCHECK_HIP(hipFree(dx));
  MCHECK_HIP(hipFree(dout));
  // CUDA's documented absolute bounds are 2.2e-6 (float) and 5e-12 (double).
  const double bound = sizeof(T) == sizeof(float) ? 2.2e-6 : 5e-12;
  const char *names[6] = {"j0", "j1", "jn(3)", "y0", "y1", "yn(3)"};
  bool ok = true;
  for (int f = 0; f < 6; f++) {
    double worst = 0, at = 0;
    for (int i = 0; i < n; i++) {
      ldbl x = xs[i];
      ldbl ref = f == 0 ? j0l(x) : f == 1 ? j1l(x) : f == 2 ? jnl(3, x)
               : f == 3 ? y0l(x) : f == 4 ? y1l(x) : ynl(3, x);
      // y's are large near 0: their error is relative there.
      double err = (double)(fabsl(out[6 * i + f] - ref) / (fabsl(ref) > 1 ? fabsl(ref) : 1));
      if (!(err <= worst)) {
        worst = err;
        at = (double)x;
      }
    }
    bool good = worst <= bound;
    std::printf("%-4s %s%-14s max abs error %.3g (bound %.3g) at x=%.9g\n", good ? "ok" : "FAIL",
                names[f], sizeof(T) == 4 ? "f" : "", worst, bound, at);
    ok &= good;
  }
  return ok;
}

int main() {
  MATH_REQUIRE_LONG_DOUBLE();
  bool ok = run_special<float>();
  ok &= run_special<double>();
  ok &= run_bessel_jy<float>();
  ok &= run_bessel_jy<double>();
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? AH_PASS : AH_FAIL;
}
