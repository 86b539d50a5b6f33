// SPDX-License-Identifier: MIT
// A __hip_bfloat162 converts to float2, both halves widened (AMD's header
// has the conversion; ROCm's unit suite, deviceLib/bfloat16.cc, assigns a
// shuffled __hip_bfloat162 to a float2). Checked against the bfloat16 values
// the host computes by truncating the float's bits, for values bfloat16
// holds exactly and for ones it rounds. On NVIDIA __hip_bfloat162 is CUDA's
// __nv_bfloat162, which has no such conversion: skipped there.
#include "engine_test.h"

#include <hip/hip_bf16.h>

#include <cstring>

// The NVIDIA pass sees none of it (CUDA's __nv_bfloat162 has no conversion to float2): the host code,
// always the CPU pass's, skips on an NVIDIA device.
#if !defined(__HIP_PLATFORM_NVIDIA__)
__global__ void widen(const float2 *in, float2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __hip_bfloat162 v = __float22bfloat162_rn(in[i]);
    out[i] = v; // the conversion under test
  }
}

// bfloat16 round-to-nearest-even of a finite float, as a float.
static float bf16_rn(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  u &= 0xffff0000u;
  std::memcpy(&f, &u, 4);
  return f;
}

int main() {
  // The program's host code is the CPU pass's (this branch) on every device.
  if (!ah_on_cpu_device()) {
    std::printf("skipped: CUDA's __nv_bfloat162 has no conversion to float2\n");
    return AH_SKIP;
  }
  const int n = 6;
  float2 in[n] = {{1.0f, -2.5f}, {0.0f, 3.0f}, {1.00390625f, 1.01171875f},
                  {3.14159265f, -1e-3f}, {65504.0f, -0.15625f}, {123456.0f, 7.0f}};
  float2 out[n], *din, *dout;
  CHECK_HIP(hipMalloc(&din, sizeof(in)));
  CHECK_HIP(hipMalloc(&dout, sizeof(out)));
  CHECK_HIP(hipMemcpy(din, in, sizeof(in), hipMemcpyHostToDevice));
  widen<<<1, 32>>>(din, dout, n);
  CHECK_HIP(hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    CHECK_EQ(out[i].x, bf16_rn(in[i].x));
    CHECK_EQ(out[i].y, bf16_rn(in[i].y));
  }
  // On the host too.
  __hip_bfloat162 h = __floats2bfloat162_rn(0.5f, -3.0f);
  float2 f = h;
  CHECK_EQ(f.x, 0.5f);
  CHECK_EQ(f.y, -3.0f);
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
  return AH_PASS;
}
#endif
