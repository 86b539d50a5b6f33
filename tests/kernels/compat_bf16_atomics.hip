// SPDX-License-Identifier: MIT
// atomicAdd, unsafeAtomicAdd and safeAtomicAdd on __hip_bfloat16 and
// __hip_bfloat162 (ROCm's unit suite: atomics/unsafeAtomicAdd.cc adds a
// __hip_bfloat162 from 32 threads). 64 threads each add (1, 0.5) to a pair
// and 1 to a scalar: every partial sum is exact in bfloat16, so the results
// are (64, 32) and 64 whatever the order, and the old values each thread
// got back are distinct.
#include "engine_test.h"

#include <hip/hip_bf16.h>

#include <algorithm>
#include <vector>

__global__ void adds(__hip_bfloat162 *pair, __hip_bfloat16 *one, float *olds) {
#if !defined(__CUDACC__)
  const __hip_bfloat162 v = __floats2bfloat162_rn(1.0f, 0.5f);
  __hip_bfloat162 old;
  if (threadIdx.x % 3 == 0)
    old = atomicAdd(pair, v);
  else if (threadIdx.x % 3 == 1)
    old = unsafeAtomicAdd(pair, v);
  else
    old = safeAtomicAdd(pair, v);
  olds[threadIdx.x] = __low2float(old);
  (void)(threadIdx.x % 2 ? unsafeAtomicAdd(one, __float2bfloat16(1.0f))
                         : atomicAdd(one, __float2bfloat16(1.0f)));
#endif
}

int main() {
  if (!ah_on_cpu_device()) {
    std::printf("skipped: the CPU device's bfloat16 atomics\n");
    return AH_SKIP;
  }
  __hip_bfloat162 *pair;
  __hip_bfloat16 *one;
  float *olds;
  CHECK_HIP(hipMalloc(&pair, sizeof(*pair)));
  CHECK_HIP(hipMalloc(&one, sizeof(*one)));
  CHECK_HIP(hipMalloc(&olds, 64 * sizeof(float)));
  CHECK_HIP(hipMemset(pair, 0, sizeof(*pair)));
  CHECK_HIP(hipMemset(one, 0, sizeof(*one)));
  adds<<<1, 64>>>(pair, one, olds);
  __hip_bfloat162 hp;
  __hip_bfloat16 h1;
  std::vector<float> ho(64);
  CHECK_HIP(hipMemcpy(&hp, pair, sizeof(hp), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(&h1, one, sizeof(h1), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(ho.data(), olds, 64 * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(__low2float(hp) == 64.0f && __high2float(hp) == 32.0f);
  CHECK(__bfloat162float(h1) == 64.0f);
  std::sort(ho.begin(), ho.end());
  for (int i = 0; i < 64; i++)
    CHECK(ho[i] == (float)i); // each thread saw a different old value
  CHECK_HIP(hipFree(pair));
  CHECK_HIP(hipFree(one));
  CHECK_HIP(hipFree(olds));
  std::printf("bfloat16 atomics: passed\n");
  return AH_PASS;
}
