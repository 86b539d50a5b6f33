// SPDX-License-Identifier: MIT
// hip_fp16.h arithmetic, comparisons, min/max and math in a kernel, for every
// half bit pattern as the first operand against random second and third
// operands (infinities, NaNs, zeros and denormals among them). References:
// + - * exact in double, / and sqrt rounded once in double (53 >= 2*11+2
// bits, so the second rounding to half is still correct), fma exact in
// 128-bit integers, each rounded to half by fp16_ref.h; comparisons in
// double with IEEE's NaN rules. The 2-wide forms must equal the 1-wide ones
// lane by lane, and the C++ operators the intrinsics.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "ah_test.h"
#include "fp16_ref.h"

enum {
  ADD,
  SUB,
  MUL,
  DIV,
  FMA,
  SQRT,
  NEG,
  ABS,
  ADD_SAT,
  FMA_SAT,
  MAX,
  MIN,
  MAX_NAN,
  MIN_NAN,
  RCP,
  CEIL,
  FLOOR,
  TRUNC,
  RINT,
  OP_ADD,
  OP_MUL,
  OP_DIV,
  OP_ASSIGN,
  H2_ADD,
  H2_MUL,
  H2_FMA,
  H2_MAX,
  H2_CMP,
  NRES
};

struct result {
  unsigned short r[NRES];
  unsigned cmp;  // one bit per comparison (see below)
  unsigned cmp2; // __hb*2 forms, bit per comparison
};

#define U(x) __half_as_ushort(x)

// Equal bits, or both NaN (the compiler may commute a + b, and with it which
// NaN's payload comes out).
__device__ bool eq(__half a, __half b) { return U(a) == U(b) || (__hisnan(a) && __hisnan(b)); }

__global__ void arith(const unsigned short *in, result *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half a = __ushort_as_half(in[3 * i]), b = __ushort_as_half(in[3 * i + 1]),
         c = __ushort_as_half(in[3 * i + 2]);
  result &o = out[i];
  o.r[ADD] = U(__hadd(a, b));
  o.r[SUB] = U(__hsub(a, b));
  o.r[MUL] = U(__hmul(a, b));
  o.r[DIV] = U(__hdiv(a, b));
  o.r[FMA] = U(__hfma(a, b, c));
  o.r[SQRT] = U(hsqrt(a));
  o.r[NEG] = U(__hneg(a));
  o.r[ABS] = U(__habs(a));
  o.r[ADD_SAT] = U(__hadd_sat(a, b));
  o.r[FMA_SAT] = U(__hfma_sat(a, b, c));
  o.r[MAX] = U(__hmax(a, b));
  o.r[MIN] = U(__hmin(a, b));
  o.r[MAX_NAN] = U(__hmax_nan(a, b));
  o.r[MIN_NAN] = U(__hmin_nan(a, b));
  o.r[RCP] = U(hrcp(a));
  o.r[CEIL] = U(hceil(a));
  o.r[FLOOR] = U(hfloor(a));
  o.r[TRUNC] = U(htrunc(a));
  o.r[RINT] = U(hrint(a));
  o.r[OP_ADD] = U(a + b);
  o.r[OP_MUL] = U(a * b);
  o.r[OP_DIV] = U(a / b);
  __half t = a;
  t -= b;
  t *= c;
  o.r[OP_ASSIGN] = U(t);
  // 2-wide: lane y holds (b, a, c) so that both lanes are exercised.
  __half2 x2 = __halves2half2(a, b), y2 = __halves2half2(b, a), z2 = __halves2half2(c, c);
  __half2 s = __hadd2(x2, y2), p = x2 * y2, f = __hfma2(x2, y2, z2), m = __hmax2(x2, y2);
  o.r[H2_ADD] = eq(s.x, __hadd(a, b)) && eq(s.y, __hadd(b, a));
  o.r[H2_MUL] = eq(p.x, __hmul(a, b)) && eq(p.y, __hmul(b, a));
  o.r[H2_FMA] = eq(f.x, __hfma(a, b, c)) && eq(f.y, __hfma(b, a, c));
  o.r[H2_MAX] = eq(m.x, __hmax(a, b)) && eq(m.y, __hmax(b, a));
  __half2 e2 = __hlt2(x2, y2);
  o.r[H2_CMP] = U(__low2half(e2)) == (__hlt(a, b) ? 0x3c00 : 0) &&
                U(__high2half(e2)) == (__hlt(b, a) ? 0x3c00 : 0);
  bool cmps[] = {__heq(a, b),  __hne(a, b),       __hlt(a, b),  __hle(a, b),      __hgt(a, b),
                 __hge(a, b),  __hequ(a, b),      __hneu(a, b), __hltu(a, b),     __hleu(a, b),
                 __hgtu(a, b), __hgeu(a, b),      __hisnan(a),  __hisinf(a) != 0, a == b,
                 a != b,       a<b, a <= b, a> b, a >= b};
  o.cmp = 0;
  for (int k = 0; k < 20; k++)
    o.cmp |= (unsigned)cmps[k] << k;
  __half2 aa = __half2half2(a), bb = __half2half2(b);
  bool cmps2[] = {__hbeq2(aa, bb),  __hbne2(aa, bb),  __hblt2(aa, bb),  __hble2(aa, bb),
                  __hbgt2(aa, bb),  __hbge2(aa, bb),  __hbequ2(aa, bb), __hbneu2(aa, bb),
                  __hbltu2(aa, bb), __hbleu2(aa, bb), __hbgtu2(aa, bb), __hbgeu2(aa, bb)};
  o.cmp2 = 0;
  for (int k = 0; k < 12; k++)
    o.cmp2 |= (unsigned)cmps2[k] << k;
}

static double v(uint16_t h) { return ref::value(h); }

// The expected half of a double result that is exact or once-rounded.
static uint16_t expect(double x) {
  if (std::isnan(x))
    return 0x7e00; // any NaN; compared with is_nan
  if (std::isinf(x))
    return x > 0 ? 0x7c00 : 0xfc00;
  return ref::from_double(x, ref::RN);
}

static uint16_t expect_fma(uint16_t a, uint16_t b, uint16_t c) {
  double va = v(a), vb = v(b), vc = v(c);
  if (!std::isfinite(va) || !std::isfinite(vb) || !std::isfinite(vc))
    return expect(va * vb + vc);
  // In units of 2^-48: A*B + C*2^24, exact in 128 bits.
  __int128 A = (__int128)(ref::vq(a & 0x7fff) / 2) * ((a & 0x8000) ? -1 : 1);
  __int128 B = (__int128)(ref::vq(b & 0x7fff) / 2) * ((b & 0x8000) ? -1 : 1);
  __int128 C = (__int128)(ref::vq(c & 0x7fff) / 2) * ((c & 0x8000) ? -1 : 1);
  __int128 S = A * B + C * ((__int128)1 << 24);
  if (S == 0) {
    bool pneg = ((a ^ b) & 0x8000) != 0;
    return (A * B == 0 && C == 0 && pneg && (c & 0x8000)) ? 0x8000 : 0;
  }
  unsigned __int128 mag = S < 0 ? (unsigned __int128)-S : (unsigned __int128)S;
  return ref::round(
      S < 0,
      [mag](int64_t k) {
        unsigned __int128 kk = (unsigned __int128)k << 23;
        return mag > kk ? 1 : mag < kk ? -1 : 0;
      },
      ref::RN);
}

static uint16_t sat(uint16_t h) {
  double x = v(h);
  return std::isnan(x) || x <= 0 ? 0 : x >= 1 ? 0x3c00 : h;
}

static uint16_t ref_max(uint16_t a, uint16_t b, bool is_max, bool nan) {
  bool na = ref::is_nan(a), nb = ref::is_nan(b);
  if (na || nb)
    return nan || (na && nb) ? 0x7fff : na ? b : a;
  double x = v(a), y = v(b);
  if (x == y)
    return a; // only zeros of either sign; checked by value
  return (x < y) == is_max ? b : a;
}

static bool same(uint16_t got, uint16_t want) {
  return ref::is_nan(want) ? ref::is_nan(got) : got == want;
}

int main() {
  const int n = 65536;
  std::vector<unsigned short> in(3 * n);
  const unsigned short specials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe01,
                                     0x7c01, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff,
                                     0x7bff, 0xfbff, 0x3800, 0x3bff, 0x3c01, 0x0400};
  ref::rng r;
  for (int i = 0; i < n; i++) {
    in[3 * i] = (unsigned short)i;
    for (int k = 1; k < 3; k++) {
      uint64_t x = r.next();
      // One in eight is special; otherwise a random pattern, often close to a.
      in[3 * i + k] = (x & 7) == 0   ? specials[(x >> 3) % (sizeof(specials) / 2)]
                      : (x & 7) == 1 ? (unsigned short)(i + ((x >> 8) & 15) - 8)
                                     : (unsigned short)(x >> 16);
    }
  }
  std::vector<result> out(n);
  unsigned short *d_in;
  result *d_out;
  CHECK_HIP(hipMalloc(&d_in, in.size() * sizeof(unsigned short)));
  CHECK_HIP(hipMalloc(&d_out, n * sizeof(result)));
  CHECK_HIP(hipMemcpy(d_in, in.data(), in.size() * sizeof(unsigned short), hipMemcpyHostToDevice));
  arith<<<n / 256, 256>>>(d_in, d_out, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(out.data(), d_out, n * sizeof(result), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d_in));
  CHECK_HIP(hipFree(d_out));

  static const char *names[NRES] = {
      "add", "sub", "mul",     "div",     "fma",   "sqrt",  "neg",   "abs",   "add_sat", "fma_sat",
      "max", "min", "max_nan", "min_nan", "rcp",   "ceil",  "floor", "trunc", "rint",    "op+",
      "op*", "op/", "op-=*=",  "h2add",   "h2mul", "h2fma", "h2max", "h2cmp"};
  int bad = 0;
  for (int i = 0; i < n; i++) {
    uint16_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    double x = v(a), y = v(b);
    uint16_t want[NRES];
    want[ADD] = expect(x + y);
    want[SUB] = expect(x - y);
    want[MUL] = expect(x * y);
    want[DIV] = expect(x / y);
    want[FMA] = expect_fma(a, b, c);
    want[SQRT] = expect(std::sqrt(x));
    want[NEG] = a ^ 0x8000;
    want[ABS] = a & 0x7fff;
    want[ADD_SAT] = sat(want[ADD]);
    want[FMA_SAT] = sat(want[FMA]);
    want[MAX] = ref_max(a, b, true, false);
    want[MIN] = ref_max(a, b, false, false);
    want[MAX_NAN] = ref_max(a, b, true, true);
    want[MIN_NAN] = ref_max(a, b, false, true);
    want[RCP] = expect(1.0 / x);
    want[CEIL] = ref::is_nan(a) ? 0x7e00 : std::isinf(x) ? a : expect(std::ceil(x));
    want[FLOOR] = ref::is_nan(a) ? 0x7e00 : std::isinf(x) ? a : expect(std::floor(x));
    want[TRUNC] = ref::is_nan(a) ? 0x7e00 : std::isinf(x) ? a : expect(std::trunc(x));
    want[RINT] = ref::is_nan(a) ? 0x7e00 : std::isinf(x) ? a : expect(std::nearbyint(x));
    want[OP_ADD] = want[ADD];
    want[OP_MUL] = want[MUL];
    want[OP_DIV] = want[DIV];
    want[OP_ASSIGN] = expect(v(want[SUB]) * v(c));
    for (int k = H2_ADD; k <= H2_CMP; k++)
      want[k] = 1;
    for (int k = 0; k < NRES; k++) {
      bool ok = same(out[i].r[k], want[k]);
      if ((k == MAX || k == MIN) && !ok && x == y)
        ok = v(out[i].r[k]) == x; // max(+0, -0): either zero
      if ((k == CEIL || k == TRUNC || k == RINT || k == FLOOR) && !ok)
        ok = out[i].r[k] == want[k] || (v(out[i].r[k]) == 0 && v(want[k]) == 0 &&
                                        std::signbit(v(out[i].r[k])) == std::signbit(x));
      if (!ok && bad++ < 20)
        std::fprintf(stderr, "%s(%04x, %04x, %04x) = %04x, want %04x\n", names[k], a, b, c,
                     out[i].r[k], want[k]);
    }
    bool un = std::isnan(x) || std::isnan(y);
    bool cmp[] = {x == y,       !un && x != y, x<y, x <= y, x> y, x >= y,
                  un || x == y, un || x != y,  un || x < y,       un || x <= y,
                  un || x > y,  un || x >= y,  std::isnan(x),     std::isinf(x),
                  x == y,       un || x != y,  x<y, x <= y, x> y, x >= y};
    unsigned wc = 0, wc2 = 0;
    for (int k = 0; k < 20; k++)
      wc |= (unsigned)cmp[k] << k;
    for (int k = 0; k < 12; k++)
      wc2 |= (unsigned)cmp[k] << k;
    if ((out[i].cmp != wc || out[i].cmp2 != wc2) && bad++ < 20)
      std::fprintf(stderr, "compare(%04x, %04x): %05x %03x, want %05x %03x\n", a, b, out[i].cmp,
                   out[i].cmp2, wc, wc2);
  }

  // Math functions (host code): within one half ulp step of double's result.
  for (int i = 0; i < 65536; i++) {
    uint16_t a = (uint16_t)i;
    double x = v(a);
    if (!std::isfinite(x))
      continue;
    __half h = __ushort_as_half(a);
    struct {
      const char *name;
      __half got;
      double want;
    } m[] = {{"hexp", hexp(h), std::exp(x)},         {"hexp2", hexp2(h), std::exp2(x)},
             {"hexp10", hexp10(h), std::pow(10, x)}, {"hlog", hlog(h), std::log(x)},
             {"hlog2", hlog2(h), std::log2(x)},      {"hlog10", hlog10(h), std::log10(x)},
             {"hsin", hsin(h), std::sin(x)},         {"hcos", hcos(h), std::cos(x)},
             {"hrsqrt", hrsqrt(h), 1 / std::sqrt(x)}};
    for (auto &e : m) {
      uint16_t got = __half_as_ushort(e.got), want = expect(e.want);
      bool ok =
          same(got, want) || (!ref::is_nan(want) && !ref::is_nan(got) &&
                              ((got ^ want) & 0x8000) == 0 && (got - want == 1 || want - got == 1));
      if (!ok && bad++ < 30)
        std::fprintf(stderr, "%s(%04x) = %04x, want %04x\n", e.name, a, got, want);
    }
  }
  // A few by hand.
  CHECK_EQ(U(__hadd(__float2half(1.0f), __float2half(0x1p-11f))), 0x3c00);  // tie to even
  CHECK_EQ(U(__hadd(__float2half(65504.0f), __float2half(16.0f))), 0x7c00); // overflow
  CHECK_EQ(U(__hmul(__float2half(0x1p-14f), __float2half(0x1p-10f))), 0x0001);
  CHECK_EQ(U(__hfma(__float2half(1.0f + 0x1p-10f), __float2half(1.0f - 0x1p-10f),
                    __float2half(0x1p-20f))),
           0x3c00);
  // 3 * 683 = 2049 is a tie between 2048 and 2050; the tiny addend breaks it,
  // which a float intermediate (ulp 2^-12 there) would lose.
  CHECK_EQ(U(__hfma(__float2half(3.0f), __float2half(683.0f), __ushort_as_half(0x0001))), 0x6801);
  CHECK_EQ(U(__hfma(__float2half(3.0f), __float2half(683.0f), __ushort_as_half(0x8001))), 0x6800);
  CHECK_EQ(U(__hfma(__float2half(3.0f), __float2half(683.0f), __float2half(0.0f))), 0x6800);
  // 1 for either infinity, as AMD's device library (CUDA says -1 for -inf).
  CHECK_EQ(__hisinf(__ushort_as_half(0xfc00)), 1);
  CHECK_EQ(__hisinf(__ushort_as_half(0x7c00)), 1);
  CHECK_EQ(__hisinf(__ushort_as_half(0x7e00)), 0);
  CHECK(__heq(__float2half(0.0f), __float2half(-0.0f)));
  CHECK_EQ(amd_mixed_dot(__floats2half2_rn(1.5f, -2.0f), __floats2half2_rn(2.0f, 0.25f), 0.5f,
                         false),
           3.0f);
  CHECK_EQ(amd_mixed_dot(__floats2half2_rn(1.5f, -2.0f), __floats2half2_rn(2.0f, 0.25f), 0.5f,
                         true),
           1.0f);
  // Host-side C++ conversions and the less common forms.
  __half i2049 = 2049, big = 70000, third = 1.0 / 3.0;
  CHECK_EQ(U(i2049), 0x6800); // int -> half rounds to nearest even
  CHECK_EQ(U(big), 0x7c00);   // and overflows to infinity
  CHECK_EQ(U(third), 0x3555); // double -> half in one rounding
  CHECK(!(bool)__float2half(-0.0f) && (bool)__ushort_as_half(0x7e00));
  __half2 p2 = __floats2half2_rn(1.0f, NAN), q2 = __floats2half2_rn(2.0f, 1.0f);
  CHECK_EQ(__hlt2_mask(p2, q2), 0x0000ffffu);
  CHECK_EQ(__hltu2_mask(p2, q2), 0xffffffffu);
  CHECK_EQ(__hne2_mask(p2, q2), 0x0000ffffu);
  CHECK(p2 != q2 && !(p2 == p2) && !(p2 < q2));
  CHECK_EQ(U(__low2half(__hisnan2(p2))), 0);
  CHECK_EQ(U(__high2half(__hisnan2(p2))), 0x3c00);
  CHECK_EQ(U(__hfma_relu(__float2half(-2.0f), __float2half(3.0f), __float2half(1.0f))), 0);
  CHECK_EQ(U(__hmul_sat(__float2half(4.0f), __float2half(0.5f))), 0x3c00);
  CHECK_EQ(U(__hsub_sat(__float2half(0.25f), __float2half(0.5f))), 0);
  CHECK_EQ(U(__lowhigh2highlow(q2).x), 0x3c00);
  __half inc = 1.5f;
  inc++;
  ++inc;
  CHECK_EQ(__half2float(inc), 3.5f);
  volatile __half vh;
  __half_raw back = (vh = __half_raw{0x3c00});
  CHECK_EQ(back.x, 0x3c00);
  std::printf("fp16 arithmetic: %d operand triples\n", n);
  CHECK_EQ(bad, 0);
  return AH_PASS;
}
