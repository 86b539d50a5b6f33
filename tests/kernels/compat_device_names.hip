// SPDX-License-Identifier: MIT
// Device-code names HIP programs (and ROCm's unit suite) use that the host compiler lacks, each
// against a known value: std::sinf-style float functions, clang's __hip_atomic_* builtins on
// float (exchange, load, store, compare-exchange), unsafeAtomicAdd on __half2 and __half,
// unsafeAtomicMax/Min on float and double, __half2 from a scalar (both halves), and a
// program's own host comparisons of __half by value next to anyhip's (as hip-tests has them),
// __half2_raw::data.
#include "engine_test.h"

#include <hip/hip_fp16.h>

#include <cmath>
#include <type_traits>

static bool operator!=(__half x, __half y) {
  return static_cast<__half_raw>(x).x != static_cast<__half_raw>(y).x;
}
static bool operator==(__half2 x, __half2 y) { return __hbeq2(x, y); }

__global__ void names(float *f, double *d, __half2 *h2, __half *h) {
  int i = threadIdx.x;
  if (i == 0) {
    f[0] = std::sinf(0.0f) + std::floorf(2.5f) + std::sqrtf(16.0f); // 0 + 2 + 4
    f[1] = __hip_atomic_exchange(&f[2], 7.5f, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    float expected = 7.5f;
    bool ok = __hip_atomic_compare_exchange_strong(&f[2], &expected, 8.5f, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __hip_atomic_store(&f[3], ok ? 1.0f : -1.0f, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    f[4] = __hip_atomic_load(&f[2], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  }
  __syncthreads();
  // 64 threads: each adds (1, 0.5) to the __half2, 1 to the __half, and its index to the maxima.
  unsafeAtomicAdd(h2, __floats2half2_rn(1.0f, 0.5f));
  unsafeAtomicAdd(h, __float2half(1.0f));
  unsafeAtomicMax(&f[5], (float)i);
  unsafeAtomicMin(&d[0], (double)-i);
}

int main() {
  float *f;
  double *d;
  __half2 *h2;
  __half *h;
  CHECK_HIP(hipMallocManaged(&f, 6 * sizeof(float)));
  CHECK_HIP(hipMallocManaged(&d, sizeof(double)));
  CHECK_HIP(hipMallocManaged(&h2, sizeof(__half2)));
  CHECK_HIP(hipMallocManaged(&h, sizeof(__half)));
  for (int i = 0; i < 6; i++)
    f[i] = 0;
  f[2] = 3.25f;
  d[0] = 0;
  *h2 = __floats2half2_rn(0.0f, 0.0f);
  *h = __float2half(0.0f);
  names<<<1, 64>>>(f, d, h2, h);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(f[0], 6);
  CHECK_EQ(f[1] * 4, 13); // the old value, 3.25
  CHECK_EQ(f[3], 1);
  CHECK_EQ(f[4] * 2, 17); // 8.5
  CHECK_EQ(f[5], 63);
  CHECK_EQ(d[0], -63);
  CHECK_EQ(__low2float(*h2), 64);
  CHECK_EQ(__high2float(*h2), 32);
  CHECK_EQ(__half2float(*h), 64);
  CHECK_HIP(hipFree(f));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(h2));
  CHECK_HIP(hipFree(h));
  // Host-side __half2/__half names of anyhip's own fp16 types: the program's
  // host code is the CPU pass's (nvcc's pass sees CUDA's types, which lack them).
#if !defined(__CUDACC__)
  __half2 splat = static_cast<__half2>(3ull);
  CHECK_EQ(__low2float(splat), 3);
  CHECK_EQ(__high2float(splat), 3);
  CHECK(splat == __half2(__half(3.0f), __half(3.0f)));
  CHECK(__float2half(1.0f) != __float2half(2.0f));
  CHECK(__float2half(1.0f) < __float2half(2.0f)); // anyhip's, no program one
  auto raw = static_cast<const __half2_raw &>(__floats2half2_rn(1.0f, 2.0f));
  CHECK_EQ(raw.data.x, 0x3c00);
  CHECK_EQ(raw.data.y, 0x4000);
  CHECK_EQ(raw.x, raw.data.x);
  // __half assigned from a volatile __half_raw (AMD's operators).
  static_assert(std::is_assignable<__half, volatile __half_raw &>::value &&
                    std::is_assignable<__half, volatile __half_raw &&>::value,
                "__half = volatile __half_raw");
  volatile __half_raw vr;
  vr.x = 0x4200; // 3.0
  __half hv;
  hv = vr;
  CHECK_EQ(__half2float(hv), 3.0f);
  // A number on the right of a __half2 compound assignment is both halves'.
  __half2 v = __floats2half2_rn(1.5f, -2.0f);
  v += 2;
  CHECK(__low2float(v) == 3.5f && __high2float(v) == 0.0f);
  v -= 0.5;
  v *= 2;
  CHECK(__low2float(v) == 6.0f && __high2float(v) == -1.0f);
  v /= 4u;
  CHECK(__low2float(v) == 1.5f && __high2float(v) == -0.25f);
  // amd_mixed_dot: lane products plus c; saturate clamps, else it wraps.
  CHECK_EQ(amd_mixed_dot(make_short2(3, -4), make_short2(5, 6), 7, false), 3 * 5 - 4 * 6 + 7);
  CHECK_EQ(amd_mixed_dot(make_short2(32767, 32767), make_short2(32767, 32767), INT32_MAX, true),
           INT32_MAX);
  CHECK_EQ(amd_mixed_dot(make_short2(32767, 32767), make_short2(32767, 32767), INT32_MAX, false),
           (int)(uint32_t)(2ll * 32767 * 32767 + INT32_MAX));
  CHECK_EQ(amd_mixed_dot(make_ushort2(65535, 2), make_ushort2(65535, 3), 1u, false),
           65535u * 65535u + 6u + 1u);
  CHECK_EQ(amd_mixed_dot(make_ushort2(65535, 65535), make_ushort2(65535, 65535), 0xffffffffu, true),
           0xffffffffu);
  CHECK_EQ(amd_mixed_dot(make_char4(-1, 2, -3, 4), make_char4(5, -6, 7, 8), -10, false),
           -5 - 12 - 21 + 32 - 10);
  CHECK_EQ(amd_mixed_dot(make_uchar4(255, 1, 2, 3), make_uchar4(255, 4, 5, 6), 1u, false),
           255u * 255u + 4u + 10u + 18u + 1u);
  // 4-bit lanes, lowest first: a = (1, -1, 7, -8, 0, ...), b = (2, 3, -8, 7, 0, ...)
  CHECK_EQ(amd_mixed_dot((int)0x87f1, (int)0x7832, 5, false), 1 * 2 - 1 * 3 - 7 * 8 - 8 * 7 + 5);
  CHECK_EQ(amd_mixed_dot(0xffffffffu, 0xffffffffu, 1u, false), 8u * 225u + 1u);
#endif
  printf("compat_device_names: ok\n");
  return 0;
}
