// SPDX-License-Identifier: MIT
// Device intrinsics on the CPU device, each against a value worked out by
// hand or by the host's plain arithmetic: bit functions (__popc, __clz,
// __ffs, __brev, __byte_perm, __funnelshift), integer ones (__mulhi,
// __umul64hi, __mul24, __hadd, __sad), reinterpretation and rounding
// conversions, fast math (__expf, __fdividef, __saturatef, rsqrtf, ...),
// and HIP's min/max overloads including mixed argument types.
#include "engine_test.h"

#include <cmath>

struct R {
  long long i[40];
  double f[24];
};

__global__ void intrinsics(R *r) {
  long long *i = r->i;
  double *f = r->f;
  i[0] = __popc(0xf0f0u);
  i[1] = __popcll(0xffffffffffull);
  i[2] = __clz(1);
  i[3] = __clz(0);
  i[4] = __clzll(1ll << 40);
  i[5] = __ffs(0);
  i[6] = __ffs(0x80);
  i[7] = __ffsll(1ll << 50);
  i[8] = __brev(1u);
  i[9] = (long long)(__brevll(0x3ull) >> 62);
  i[10] = __byte_perm(0x33221100u, 0x77665544u, 0x7531u);
  i[11] = __funnelshift_l(0x80000000u, 0x1u, 1);
  i[12] = __funnelshift_r(0x1u, 0x3u, 1);
  i[13] = __mulhi(0x40000000, 8);
  i[14] = (long long)__umul64hi(1ull << 63, 6);
  i[15] = __mul24(0x1000001, 3); // bit 24 is ignored
  i[16] = __umul24(0xff000002u, 5u);
  i[17] = __hadd(7, 10);
  i[18] = __rhadd(7, 10);
  i[19] = __sad(3, 10, 100);
  i[20] = __float_as_int(1.0f);
  i[21] = __double_as_longlong(2.0);
  i[22] = __float2int_rn(2.5f);
  i[23] = __float2int_rz(-2.7f);
  i[24] = __float2int_ru(2.1f);
  i[25] = __float2int_rd(-2.1f);
  i[26] = __double2hiint(1.0);
  i[27] = min(3, 7);
  i[28] = max(-3, 7u); // int and unsigned int: compared as unsigned
  i[29] = (long long)min((size_t)5, (size_t)3);
  i[30] = umin(4u, 9u) + llmax(-5ll, 2ll);
  i[31] = __double2loint(__hiloint2double(5, 6));
  f[0] = __expf(1.0f);
  f[1] = __logf(2.0f);
  f[2] = __fdividef(1.0f, 4.0f);
  f[3] = __saturatef(1.5f);
  f[4] = __saturatef(-0.5f);
  f[5] = rsqrtf(16.0f);
  f[6] = rsqrt(0.25);
  f[7] = __fmul_rn(1.5f, 2.0f) + __fadd_rz(1.0f, 0.5f);
  f[8] = __fsqrt_rn(9.0f);
  f[9] = __powf(2.0f, 10.0f);
  f[10] = min(1.5f, -2.0f);
  f[11] = max(1.5, 2.5);
  f[12] = sinpif(0.5f);
  f[13] = cospi(1.0);
  f[14] = norm3df(2.0f, 3.0f, 6.0f);
  f[15] = __int_as_float(0x3f800000);
  f[16] = max(2.0f, 3.5); // mixed float and double
  f[17] = sqrt(2.0f);     // the float overload
  f[18] = rcbrt(8.0);
  f[19] = normcdf(0.0);
}

int main() {
  R h, *d = nullptr;
  CHECK_HIP(hipMalloc(&d, sizeof(R)));
  intrinsics<<<1, 1>>>(d);
  CHECK_HIP(hipMemcpy(&h, d, sizeof(R), hipMemcpyDeviceToHost));
  const long long want[32] = {8,
                              40,
                              31,
                              32,
                              23,
                              0,
                              8,
                              51,
                              0x80000000ll,
                              3,
                              0x77553311,
                              3,
                              0x80000000ll,
                              2,
                              3,
                              3,
                              10,
                              8,
                              9,
                              107,
                              0x3f800000,
                              0x4000000000000000ll,
                              2,
                              -2,
                              3,
                              -3,
                              0x3ff00000,
                              3,
                              0xfffffffdll,
                              3,
                              6,
                              6};
  for (int k = 0; k < 32; k++)
    if (h.i[k] != want[k]) {
      std::fprintf(stderr, "integer result %d: %lld, want %lld\n", k, h.i[k], want[k]);
      return AH_FAIL;
    }
  const double wf[20] = {std::exp(1.0f),
                         std::log(2.0f),
                         0.25,
                         1.0,
                         0.0,
                         0.25,
                         2.0,
                         4.5,
                         3.0,
                         1024.0,
                         -2.0,
                         2.5,
                         1.0,
                         -1.0,
                         7.0,
                         1.0,
                         3.5,
                         (double)std::sqrt(2.0f),
                         0.5,
                         0.5};
  for (int k = 0; k < 20; k++)
    if (std::fabs(h.f[k] - wf[k]) > 1e-6 * std::fabs(wf[k]) + 1e-12) {
      std::fprintf(stderr, "float result %d: %.9g, want %.9g\n", k, h.f[k], wf[k]);
      return AH_FAIL;
    }
  CHECK_HIP(hipFree(d));
  std::printf("passed\n");
  return AH_PASS;
}
