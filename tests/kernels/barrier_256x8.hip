// SPDX-License-Identifier: MIT
// Blocks of 256 threads that pass 8 barriers each: four rounds in which
// every thread reads two other threads' shared-memory values written in the
// previous round (barrier), then overwrites its own (barrier). A missing or
// leaky barrier mixes rounds and changes the result. Run with 1-D (256),
// 2-D (16x16) and 3-D (8x8x4) blocks over 96 blocks and compared with the
// same rounds computed on the host.
#include "engine_test.h"

#include <vector>

constexpr int kThreads = 256;
constexpr int kBlocks = 96;
constexpr int kRounds = 4;

__device__ __host__ int mix(int a, int b, int c, int r) { return a + 3 * b - c * (r + 1) + r; }

__global__ void rounds(const int *in, int *out) {
  __shared__ int s[kThreads];
  int t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  int b = blockIdx.x;

  s[t] = in[b * kThreads + t];
  for (int r = 0; r < kRounds; r++) {
    __syncthreads();
    int v = mix(s[t], s[(t + (1 << r) * 7) % kThreads], s[(t + kThreads - 1 - r) % kThreads], r);
    __syncthreads();
    s[t] = v;
  }
  out[b * kThreads + t] = s[t];
}

static int run(dim3 block) {
  std::vector<int> in(kBlocks * kThreads), out(in.size()), want(in.size());
  int *din = nullptr, *dout = nullptr;

  for (size_t i = 0; i < in.size(); i++)
    in[i] = (int)((i * 2654435761u) % 1000) - 500;
  for (int b = 0; b < kBlocks; b++) {
    std::vector<int> s(in.begin() + b * kThreads, in.begin() + (b + 1) * kThreads), n(kThreads);
    for (int r = 0; r < kRounds; r++) {
      for (int t = 0; t < kThreads; t++)
        n[t] = mix(s[t], s[(t + (1 << r) * 7) % kThreads], s[(t + kThreads - 1 - r) % kThreads], r);
      s = n;
    }
    for (int t = 0; t < kThreads; t++)
      want[b * kThreads + t] = s[t];
  }
  CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&dout, in.size() * sizeof(int)));
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
  rounds<<<kBlocks, block>>>(din, dout);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < out.size(); i++)
    CHECK_EQ(out[i], want[i]);
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
  return AH_PASS;
}

int main() {
  if (run(dim3(256)) || run(dim3(16, 16)) || run(dim3(8, 8, 4)))
    return AH_FAIL;
  std::printf("passed\n");
  return AH_PASS;
}
