// SPDX-License-Identifier: MIT
// hip_bf16.h: every bfloat16 bit pattern to float and back, float to
// bfloat16 in all four rounding modes (ties, float denormals, overflow,
// NaN), and + - * / fma sqrt, comparisons and min/max in a kernel, against a
// reference that searches the sorted bfloat16 values for the neighbours of
// the exact result (operands with exponents in [-8, 8], where + - * and fma
// are exact in double and / and sqrt rounded once there).
#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ah_test.h"
#include "fp16_ref.h"

enum { ADD, SUB, MUL, DIV, FMA, SQRT, MAX, MIN, OPS, NRES };

__global__ void arith(const unsigned short *in, unsigned short *out, unsigned *cmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __hip_bfloat16 a = __ushort_as_bfloat16(in[3 * i]), b = __ushort_as_bfloat16(in[3 * i + 1]),
                 c = __ushort_as_bfloat16(in[3 * i + 2]);
  unsigned short *o = out + NRES * i;
  o[ADD] = __bfloat16_as_ushort(__hadd(a, b));
  o[SUB] = __bfloat16_as_ushort(__hsub(a, b));
  o[MUL] = __bfloat16_as_ushort(__hmul(a, b));
  o[DIV] = __bfloat16_as_ushort(__hdiv(a, b));
  o[FMA] = __bfloat16_as_ushort(__hfma(a, b, c));
  o[SQRT] = __bfloat16_as_ushort(hsqrt(__habs(a)));
  o[MAX] = __bfloat16_as_ushort(__hmax(a, b));
  o[MIN] = __bfloat16_as_ushort(__hmin(a, b));
  __hip_bfloat162 p = __halves2bfloat162(a, b) * __halves2bfloat162(b, a);
  o[OPS] = __bfloat16_as_ushort(__low2bfloat16(p)) == __bfloat16_as_ushort(a * b) &&
           __bfloat16_as_ushort(__high2bfloat16(p)) == __bfloat16_as_ushort(b * a);
  cmp[i] = __heq(a, b) | __hlt(a, b) << 1 | __hle(a, b) << 2 | __hgt(a, b) << 3 | __hge(a, b) << 4 |
           __hne(a, b) << 5 | __hneu(a, b) << 6 | (a < b) << 7;
}

static double bval(uint16_t h) { return (double)ref::from_bits((uint32_t)h << 16); }

// Rounds a finite double to bfloat16 by searching positive patterns
// 0..0x7f7f (0x7f80, infinity, stands for 2^128, the next step).
static uint16_t ref_bf(double x, int mode) {
  double ax = std::fabs(x);
  auto v = [](unsigned h) { return h == 0x7f80 ? std::ldexp(1.0, 128) : bval((uint16_t)h); };
  unsigned lo = 0, hi = 0x7f7f;
  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (v(mid) <= ax)
      lo = mid;
    else
      hi = mid - 1;
  }
  uint16_t s = std::signbit(x) ? 0x8000 : 0;
  if (v(lo) == ax)
    return s | lo;
  unsigned up = lo + 1, r;
  bool neg = s != 0;
  if (mode == ref::RZ)
    r = lo;
  else if (mode == ref::RU)
    r = neg ? lo : up;
  else if (mode == ref::RD)
    r = neg ? up : lo;
  else {
    double m = (v(lo) + v(up)) / 2;
    r = ax > m ? up : ax < m ? lo : (lo & 1) ? up : lo;
  }
  return s | r;
}

static uint16_t ref_float(float f, int mode) {
  uint32_t u = ref::bits(f);
  if ((u & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((u >> 16) | 0x40);
  if ((u & 0x7fffffff) == 0x7f800000)
    return (uint16_t)(u >> 16);
  return ref_bf((double)f, mode);
}

int main() {
  int bad = 0;
  // Every pattern to float (exact: the top half of a float) and back.
  for (int i = 0; i < 65536; i++) {
    __hip_bfloat16 h = __ushort_as_bfloat16((unsigned short)i);
    float f = __bfloat162float(h);
    uint16_t back = __bfloat16_as_ushort(__float2bfloat16(f));
    bool nan = (i & 0x7fff) > 0x7f80;
    if (ref::bits(f) != (uint32_t)i << 16 &&
        !(nan && ref::bits(f) == ((uint32_t)i << 16 | 0x400000u)))
      bad++;
    if (back != (nan ? (i | 0x40) : i) && bad++ < 10)
      std::fprintf(stderr, "%04x -> %a -> %04x\n", i, f, back);
  }
  // Float to bfloat16 in every mode.
  ref::rng r;
  std::vector<float> fs;
  for (int i = 0; i < 300000; i++) {
    uint32_t u = (uint32_t)r.next();
    fs.push_back(ref::from_bits(u));
    fs.push_back(ref::from_bits((u & 0xffff0000u) | 0x8000u)); // a tie
    fs.push_back(ref::from_bits((u & 0xffff0000u) | 0x8001u));
  }
  const float special[] = {0.0f,          -0.0f,    INFINITY, -INFINITY, NAN,
                           3.4028235e38f, 3.39e38f, 1e-45f,   1e-40f};
  for (float f : special)
    fs.push_back(f);
  for (float f : fs) {
    uint16_t got[4] = {
        __bfloat16_as_ushort(__float2bfloat16_rn(f)), __bfloat16_as_ushort(__float2bfloat16_rz(f)),
        __bfloat16_as_ushort(__float2bfloat16_ru(f)), __bfloat16_as_ushort(__float2bfloat16_rd(f))};
    for (int m = 0; m < 4; m++) {
      uint16_t want = ref_float(f, m);
      if (got[m] != want && bad++ < 10)
        std::fprintf(stderr, "%a mode %d: %04x, want %04x\n", f, m, got[m], want);
    }
  }
  CHECK_EQ(__bfloat16_as_ushort(__float2bfloat16(ref::from_bits(0x7f7f8000u))),
           0x7f80); // tie -> infinity

  // Arithmetic in a kernel.
  const int n = 1 << 16;
  std::vector<unsigned short> in(3 * n), out(NRES * n);
  std::vector<unsigned> cmp(n);
  for (auto &x : in) {
    uint64_t v = r.next();
    int e = (int)(v % 17) - 8 + 127; // exponents -8..8
    x = (unsigned short)(((v >> 8) & 0x8000) | (e << 7) | ((v >> 20) & 0x7f));
    if ((v & 63) == 0)
      x = (v >> 6) & 1 ? 0x7fc0 : 0x0000; // some NaN and zero
  }
  unsigned short *d_in, *d_out;
  unsigned *d_cmp;
  CHECK_HIP(hipMalloc(&d_in, in.size() * 2));
  CHECK_HIP(hipMalloc(&d_out, out.size() * 2));
  CHECK_HIP(hipMalloc(&d_cmp, n * sizeof(unsigned)));
  CHECK_HIP(hipMemcpy(d_in, in.data(), in.size() * 2, hipMemcpyHostToDevice));
  arith<<<n / 256, 256>>>(d_in, d_out, d_cmp, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(out.data(), d_out, out.size() * 2, hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(cmp.data(), d_cmp, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d_in));
  CHECK_HIP(hipFree(d_out));
  CHECK_HIP(hipFree(d_cmp));
  for (int i = 0; i < n; i++) {
    uint16_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    double x = bval(a), y = bval(b), z = bval(c);
    double res[] = {x + y, x - y, x * y, x / y, x * y + z, std::sqrt(std::fabs(x))};
    for (int k = 0; k <= SQRT; k++) {
      uint16_t got = out[NRES * i + k];
      bool ok = std::isnan(res[k]) ? (got & 0x7fff) > 0x7f80
                : std::isinf(res[k])
                    ? got == (res[k] > 0 ? 0x7f80 : 0xff80)
                    : got == ref_bf(res[k], ref::RN) || (res[k] == 0 && (got & 0x7fff) == 0);
      if (!ok && bad++ < 20)
        std::fprintf(stderr, "op %d (%04x, %04x, %04x) = %04x, want %04x\n", k, a, b, c, got,
                     std::isfinite(res[k]) ? ref_bf(res[k], ref::RN) : 0);
    }
    bool na = std::isnan(x), nb = std::isnan(y);
    double mx = na ? y : nb ? x : std::fmax(x, y), mn = na ? y : nb ? x : std::fmin(x, y);
    double gmx = bval(out[NRES * i + MAX]), gmn = bval(out[NRES * i + MIN]);
    if (!((gmx == mx || (std::isnan(gmx) && std::isnan(mx))) &&
          (gmn == mn || (std::isnan(gmn) && std::isnan(mn))) && out[NRES * i + OPS] == 1) &&
        bad++ < 20)
      std::fprintf(stderr, "max/min/ops (%04x, %04x)\n", a, b);
    bool un = na || nb;
    unsigned wc = (x == y) | (x < y) << 1 | (x <= y) << 2 | (x > y) << 3 | (x >= y) << 4 |
                  (!un && x != y) << 5 | (un || x != y) << 6 | (x < y) << 7;
    if (cmp[i] != wc && bad++ < 20)
      std::fprintf(stderr, "compare (%04x, %04x): %02x, want %02x\n", a, b, cmp[i], wc);
  }
  // Integer and 64-bit conversions.
  CHECK_EQ(__bfloat16_as_ushort(__hip_bfloat16(257)), 0x4380); // 257 -> 256 (tie)
  CHECK_EQ(__bfloat16_as_ushort(__hip_bfloat16(259)), 0x4382); // 259 -> 260
  CHECK_EQ(__bfloat16_as_ushort(__hip_bfloat16((1ll << 60) + (1ll << 52) + 1)), 0x5d81);
  CHECK_EQ(__bfloat162int_rz(__float2bfloat16(-2.75f)), -2);
  // HIP's named values (HIPRT_*_BF16), by their bits and by value.
  CHECK_EQ(__bfloat16_as_ushort(HIPRT_ONE_BF16), 0x3f80);
  CHECK_EQ(__bfloat16_as_ushort(HIPRT_ZERO_BF16), 0x0000);
  CHECK_EQ(__bfloat16_as_ushort(HIPRT_NEG_ZERO_BF16), 0x8000);
  CHECK_EQ(__bfloat16_as_ushort(HIPRT_INF_BF16), 0x7f80);
  CHECK_EQ(__bfloat16_as_ushort(HIPRT_MAX_NORMAL_BF16), 0x7f7f);
  CHECK_EQ(__bfloat16_as_ushort(HIPRT_MIN_DENORM_BF16), 0x0001);
  CHECK(std::isnan(__bfloat162float(HIPRT_NAN_BF16)));
  CHECK(__bfloat162float(HIPRT_ONE_BF16) == 1.0f && __bfloat162float(HIPRT_MAX_NORMAL_BF16) == 0x1.fep127f);
  std::printf("bfloat16: %zu float inputs, %d operand triples\n", fs.size(), n);
  CHECK_EQ(bad, 0);
  return AH_PASS;
}
