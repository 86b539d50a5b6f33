/* SPDX-License-Identifier: MIT */
/* A .cpp source that the project marks LANGUAGE HIP: a block reduction in
 * dynamic shared memory (C++17: a structured binding and if constexpr) and the
 * shared library's SAXPY, each checked against a CPU loop. */
#include <hip/hip_runtime.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "lang_vecops.h"

#if __cplusplus < 201703L
#error "CMAKE_HIP_STANDARD 17 did not reach the compiler"
#endif

__global__ void block_sum(const int *in, int *out) {
  extern __shared__ int part[];
  unsigned t = threadIdx.x;

  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = part[0];
}

static std::pair<int, int> sizes() { return {8, LANG_APP_THREADS}; }

static int check_block_sum() {
  auto [blocks, threads] = sizes();
  std::vector<int> in(blocks * threads), out(blocks, -1);
  int *din, *dout;

  for (size_t i = 0; i < in.size(); i++)
    in[i] = (int)(i % 13) - 4;
  if (hipMalloc(&din, in.size() * sizeof(int)) != hipSuccess ||
      hipMalloc(&dout, blocks * sizeof(int)) != hipSuccess ||
      hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice) != hipSuccess)
    return 1;
  block_sum<<<blocks, threads, threads * sizeof(int)>>>(din, dout);
  if (hipMemcpy(out.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess)
    return 1;
  for (int b = 0; b < blocks; b++) {
    int want = 0;

    for (int t = 0; t < threads; t++)
      want += in[b * threads + t];
    if (out[b] != want) {
      std::printf("lang_app: block %d sum %d, expected %d\n", b, out[b], want);
      return 1;
    }
  }
  return hipFree(din) != hipSuccess || hipFree(dout) != hipSuccess;
}

static int check_saxpy() {
  const int n = 1000;
  std::vector<float> x(n), y(n), out(n, 0.0f);

  for (int i = 0; i < n; i++) {
    x[i] = (float)i;
    y[i] = (float)(n - i);
  }
  if (lang_saxpy(n, 2.0f, x.data(), y.data(), out.data()) != 0) {
    std::printf("lang_app: lang_saxpy failed\n");
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (out[i] != 2.0f * x[i] + y[i]) {
      std::printf("lang_app: saxpy[%d] = %g, expected %g\n", i, out[i], 2.0f * x[i] + y[i]);
      return 1;
    }
  }
  return 0;
}

int main() {
  if constexpr (sizeof(void *) == 8) {
    if (check_block_sum() != 0 || check_saxpy() != 0)
      return 1;
  }
  std::printf("lang_app: block_sum ok saxpy ok\n");
  return 0;
}
