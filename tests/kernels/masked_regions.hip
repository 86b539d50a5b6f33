// SPDX-License-Identifier: MIT
// Regions that run for only some of a block's threads (the engine's masked
// answer, kernel-compiler/block_loops.cpp), against host models, in both
// modes and at both warp sizes:
//  - a 3D block of 5 x 3 x 4 threads (no whole warps) where every third
//    thread returns before two barriers: the live threads are no range, so
//    the regions after the barriers run masked, in one loop over the
//    block's threads that carries threadIdx.x, .y and .z along (x wraps into
//    y, y into z); each live thread writes its own index and a neighbour's
//    value from shared memory;
//  - a switch on the thread (not a branch) that returns for one case and
//    goes on to a barrier for the others: the threads leave the first region
//    apart, which the compiler must see (the region then writes every
//    thread's pc, and the one after the barrier has a masked copy);
//  - a kernel whose threads never part (a tree reduction): the compiler
//    builds no masked copy for it (tests/hipcc/e2e.cmake sees that in its
//    debug lines) and it still sums right.
#include "engine_test.h"

#include <vector>

constexpr unsigned kDx = 5, kDy = 3, kDz = 4, kThreads = kDx * kDy * kDz;

__global__ void apart_3d(int *out) {
  __shared__ int sh[kThreads];
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned g = blockIdx.x * kThreads + t;
  if (t % 3 == 1)
    return;
  sh[t] = (int)(t * 7 + blockIdx.x);
  __syncthreads();
  int idx = (int)(threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z + 1000 * blockIdx.x);
  unsigned n = (t + 3) % kThreads; // same t % 3: a live thread's value
  int v = sh[n];
  __syncthreads();
  sh[t] = v + 1;
  __syncthreads();
  out[2 * g] = idx;
  out[2 * g + 1] = sh[(t + 3) % kThreads];
}

__global__ void switch_exit(int *out) {
  __shared__ int sh[256];
  unsigned t = threadIdx.x;
  switch (t % 4) {
  case 1:
    out[t] = -2;
    return;
  case 2:
    sh[t] = 2 * (int)t;
    break;
  default:
    sh[t] = (int)t;
    break;
  }
  __syncthreads();
  out[t] = sh[(t + 4) % blockDim.x] + 1;
}

__global__ void tree_sum(const int *in, int *out) {
  __shared__ int sh[256];
  unsigned t = threadIdx.x;
  sh[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = sh[0];
}

static int body(int ws) {
  (void)ws;
  unsigned long long compiled0 = __ah_cpu_blocks_compiled();
  const unsigned blocks = 3, n = 2 * blocks * kThreads;
  std::vector<int> got(n, 0);
  int *dout, *din;
  CHECK_HIP(hipMalloc(&dout, 1024 * sizeof(int)));
  CHECK_HIP(hipMalloc(&din, 1024 * sizeof(int)));

  CHECK_HIP(hipMemset(dout, 0xff, n * sizeof(int)));
  apart_3d<<<blocks, dim3(kDx, kDy, kDz)>>>(dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned z = 0; z < kDz; z++)
      for (unsigned y = 0; y < kDy; y++)
        for (unsigned x = 0; x < kDx; x++) {
          unsigned t = x + kDx * (y + kDy * z), g = b * kThreads + t;
          bool live = t % 3 != 1;
          unsigned nn = (t + 3) % kThreads, nnn = (nn + 3) % kThreads;
          CHECK_EQ(got[2 * g], live ? (int)(x + 10 * y + 100 * z + 1000 * b) : -1);
          CHECK_EQ(got[2 * g + 1], live ? (int)(nnn * 7 + b) + 1 : -1);
        }

  const unsigned m = 100; // a multiple of 4: (t + 4) % m has t's case
  CHECK_HIP(hipMemset(dout, 0xff, m * sizeof(int)));
  switch_exit<<<1, m>>>(dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, m * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned t = 0; t < m; t++) {
    unsigned s = (t + 4) % m;
    CHECK_EQ(got[t], t % 4 == 1 ? -2 : t % 4 == 2 ? 2 * (int)s + 1 : (int)s + 1);
  }

  std::vector<int> in(4 * 256);
  for (unsigned i = 0; i < in.size(); i++)
    in[i] = (int)(i * 13 % 29) - 14;
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
  tree_sum<<<4, 256>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, 4 * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned b = 0; b < 4; b++) {
    int sum = 0;
    for (unsigned t = 0; t < 256; t++)
      sum += in[b * 256 + t];
    CHECK_EQ(got[b], sum);
  }

  CHECK_HIP(hipFree(dout));
  CHECK_HIP(hipFree(din));
  unsigned long long compiled = __ah_cpu_blocks_compiled() - compiled0;
  if (ah_compiled_blocks_on())
    CHECK(compiled > 0);
  else
    CHECK_EQ(compiled, 0ull);
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  if (!ah_on_cpu_device()) {
    std::printf("skipped: masked regions are the CPU device's kernel compiler's\n");
    return 77;
  }
  return ah_run_both_warp_sizes(argv, body);
}
