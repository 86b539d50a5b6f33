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
#endif
  printf("compat_device_names: ok\n");
  return 0;
}
