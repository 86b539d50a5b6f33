// SPDX-License-Identifier: MIT
// Headers and device names ROCm's unit suite (hip-tests) includes, each against known values:
// <hip/hip_complex.h> (operations on host and device), <hip/hip_bfloat16.h> (round to nearest
// even, truncation, arithmetic), <hip/math_functions.h> and <hip/device_functions.h>,
// __builtin_amdgcn_s_sleep and __clock() in a kernel, hipGetFuncBySymbol (a handle launched
// with hipModuleLaunchKernel; a host function is refused), hipFuncSetSharedMemConfig and
// hipCreateChannelDesc<T>().
#include "engine_test.h"

#include <hip/device_functions.h>
#include <hip/hip_bfloat16.h>
#include <hip/hip_complex.h>
#include <hip/math_functions.h>

__global__ void complex_ops(hipFloatComplex *f, hipDoubleComplex *d) {
  hipFloatComplex a = make_hipFloatComplex(1.0f, 2.0f), b = make_hipFloatComplex(3.0f, -1.0f);
  hipDoubleComplex c = make_hipDoubleComplex(1.0, 2.0), e = make_hipDoubleComplex(3.0, -1.0);
  f[0] = hipCmulf(a, b);            // (5, 5)
  f[1] = hipCdivf(f[0], b);         // (1, 2)
  f[2] = hipCaddf(a, hipConjf(b));  // (4, 3)
  d[0] = hipCmul(c, e);
  d[1] = hipCsub(c, e);             // (-2, 3)
  d[2] = hipCfma(c, e, c);          // (6, 7)
}

__global__ void sleepy(long long *t) {
  long long t0 = __clock();
  __builtin_amdgcn_s_sleep(1);
  t[0] = __clock() - t0;
}

__global__ void add_one(int *p) { p[threadIdx.x] += 1; }

static void host_function() {}

int main() {
  // Complex numbers on the host.
  hipFloatComplex z = hipCdivf(make_hipFloatComplex(5.0f, 5.0f), make_hipFloatComplex(3, -1));
  CHECK_NEAR(hipCrealf(z), 1.0, 1e-6);
  CHECK_NEAR(hipCimagf(z), 2.0, 1e-6);
  CHECK_NEAR(hipCabs(make_hipDoubleComplex(3.0, 4.0)), 5.0, 1e-12);
  CHECK_NEAR(hipCsqabsf(make_hipFloatComplex(3.0f, 4.0f)), 25.0, 1e-6);
  hipDoubleComplex w = hipComplexFloatToDouble(make_hipComplex(0.5f, -0.25f));
  CHECK_EQ(hipCreal(w) * 4, 2);
  CHECK_EQ(hipCimag(w) * 4, -1);

  // ... and in a kernel.
  hipFloatComplex *f;
  hipDoubleComplex *d;
  CHECK_HIP(hipMallocManaged(&f, 3 * sizeof(*f)));
  CHECK_HIP(hipMallocManaged(&d, 3 * sizeof(*d)));
  complex_ops<<<1, 1>>>(f, d);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(f[0].x, 5);
  CHECK_EQ(f[0].y, 5);
  CHECK_NEAR(f[1].x, 1.0, 1e-6);
  CHECK_NEAR(f[1].y, 2.0, 1e-6);
  CHECK_EQ(f[2].x, 4);
  CHECK_EQ(f[2].y, 3);
  CHECK_EQ(d[0].x, 5);
  CHECK_EQ(d[0].y, 5);
  CHECK_EQ(d[1].x, -2);
  CHECK_EQ(d[1].y, 3);
  CHECK_EQ(d[2].x, 6);
  CHECK_EQ(d[2].y, 7);

  // bfloat16: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7 and rounds to the even one (1);
  // 1 + 3 * 2^-8 rounds up to 1 + 2^-6; truncation cuts; arithmetic goes through float.
  CHECK_EQ(hip_bfloat16(1.0f + 1.0f / 256).data, 0x3f80);
  CHECK_EQ(hip_bfloat16(1.0f + 3.0f / 256).data, 0x3f82);
  CHECK_EQ(hip_bfloat16(1.0f + 3.0f / 256, hip_bfloat16::truncate).data, 0x3f81);
  CHECK_EQ(hip_bfloat16::round_to_bfloat16(-2.0f).data, 0xc000);
  CHECK_EQ(float(hip_bfloat16(1.5f) * hip_bfloat16(2.0f)), 3);
  hip_bfloat16 x(1.0f);
  x++;
  x += hip_bfloat16(0.5f);
  CHECK_EQ(float(x), 2.5);
  CHECK(std::isnan(hip_bfloat16(NAN)));
  CHECK(std::isinf(hip_bfloat16(INFINITY)));
  CHECK(!std::isnan(hip_bfloat16(1.0f)));
  CHECK(hip_bfloat16(2.0f) > hip_bfloat16(1.0f));

  // s_sleep and __clock in a kernel: the clock goes forward.
  long long *t;
  CHECK_HIP(hipMallocManaged(&t, sizeof(*t)));
  *t = -1;
  sleepy<<<1, 1>>>(t);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK(*t >= 0);

  // hipGetFuncBySymbol: a handle of the program's own kernel, launched as a module's.
  hipFunction_t fn = nullptr, fn2 = nullptr;
  int *p;
  CHECK_HIP(hipMallocManaged(&p, 64 * sizeof(int)));
  memset(p, 0, 64 * sizeof(int));
  CHECK_HIP(hipGetFuncBySymbol(&fn, reinterpret_cast<const void *>(add_one)));
  CHECK_HIP(hipGetFuncBySymbol(&fn2, reinterpret_cast<const void *>(add_one)));
  CHECK(fn != nullptr && fn == fn2);
  void *args[] = {&p};
  CHECK_HIP(hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
  CHECK_HIP(hipDeviceSynchronize());
  for (int i = 0; i < 64; i++)
    CHECK_EQ(p[i], 1);
  CHECK_ERR(hipGetFuncBySymbol(&fn, reinterpret_cast<const void *>(host_function)),
            hipErrorInvalidDeviceFunction);
  CHECK_ERR(hipGetFuncBySymbol(&fn, nullptr), hipErrorInvalidDeviceFunction);
  CHECK_ERR(hipGetFuncBySymbol(nullptr, reinterpret_cast<const void *>(add_one)),
            hipErrorInvalidValue);

  // hipFuncSetSharedMemConfig: checked, accepted.
  CHECK_HIP(hipFuncSetSharedMemConfig(reinterpret_cast<const void *>(add_one),
                                      hipSharedMemBankSizeFourByte));
  CHECK_ERR(hipFuncSetSharedMemConfig(reinterpret_cast<const void *>(add_one),
                                      (hipSharedMemConfig)7),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetSharedMemConfig(nullptr, hipSharedMemBankSizeDefault),
            hipErrorInvalidDeviceFunction);

  // hipCreateChannelDesc<T>(): bits per component and kind.
  hipChannelFormatDesc cd = hipCreateChannelDesc<float4>();
  CHECK(cd.x == 32 && cd.y == 32 && cd.z == 32 && cd.w == 32);
  CHECK_EQ(cd.f, hipChannelFormatKindFloat);
  cd = hipCreateChannelDesc<unsigned char>();
  CHECK(cd.x == 8 && cd.y == 0 && cd.f == hipChannelFormatKindUnsigned);
  cd = hipCreateChannelDesc<short2>();
  CHECK(cd.x == 16 && cd.y == 16 && cd.z == 0 && cd.f == hipChannelFormatKindSigned);
  cd = hipCreateChannelDesc<double>();
  CHECK(cd.x == 0 && cd.f == hipChannelFormatKindNone);

  CHECK_HIP(hipFree(f));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(t));
  CHECK_HIP(hipFree(p));
  printf("compat_headers: ok\n");
  return 0;
}
