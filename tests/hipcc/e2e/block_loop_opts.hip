// SPDX-License-Identifier: MIT
// Two kernels whose block functions the kernel compiler optimises in ways
// that change no result (e2e.cmake, CASE=kernel_compiler, reads its debug
// lines): a tree level's `if (tid < s)` splits its thread loop at s, and a
// shuffle of 32-bit values uses 32-bit exchange arrays.
#include <hip/hip_runtime.h>

__global__ void tree_sum(const unsigned *in, unsigned *out) {
  __shared__ unsigned sh[256];
  unsigned tid = threadIdx.x;
  sh[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sh[0];
}

__global__ void warp_sums(const unsigned *in, unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += __shfl_down(v, d);
  out[t] = v;
}
