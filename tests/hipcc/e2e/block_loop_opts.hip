// SPDX-License-Identifier: MIT
// Kernels whose block functions the kernel compiler optimises in ways
// that change no result (e2e.cmake, CASE=kernel_compiler, reads its debug
// lines): a tree level's `if (tid < s)` splits its thread loop at s, a
// shuffle of 32-bit values uses 32-bit exchange arrays, and warp 0's sum of
// the partial sums (below) keeps its loop counter and its value lean, a
// grid-stride loop runs step by step across the threads, and a lambda that
// captures a thread's value by reference, called after a barrier, leaves
// only that value in the frame (its closure is inlined away, not kept per
// thread beside it); and the same source compiles to the same object.
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

// After the barrier only warp 0 sums the warps' partial sums: `tid /
// warpSize == 0` splits its thread loop at warpSize, the loop counter `d`
// under that divergent branch is still uniform (kept once per block), and
// the loop's `v`, past each shuffle, is read again from its own slot
// instead of moving to a second frame array; only thread 0 uses the sum, so
// the loop's steps run only the lanes it needs (demanded_lanes.h; not in
// warp_sums, where every lane stores its own).
__global__ void warp0_sum(const unsigned *in, unsigned *out) {
  __shared__ unsigned part[16];
  unsigned tid = threadIdx.x;
  unsigned v = in[blockIdx.x * blockDim.x + tid];
  if (tid % warpSize == 0)
    part[tid / warpSize] = v;
  __syncthreads();
  if (tid / warpSize == 0) {
    v = tid < blockDim.x / warpSize ? part[tid] : 0;
    for (int d = warpSize / 2; d > 0; d /= 2)
      v += __shfl_down(v, d);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

// A grid-stride loop runs step by step across the block's threads.
__global__ void stride_copy(const unsigned *in, unsigned *out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + 1;
}

// `mine` lives across the barrier (one frame array); the closure holding
// its address, were it left to a call, would be a second and keep `mine` in
// memory.
__global__ void lambda_after_barrier(const unsigned *in, unsigned *out) {
  __shared__ unsigned sh[256];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  unsigned mine = in[g] * 3;
  auto plus_mine = [&](unsigned x) { return x + mine; };
  sh[t] = in[g];
  __syncthreads();
  out[g] = plus_mine(sh[(t + 1) % blockDim.x]);
}

// Eight values live across a barrier: eight frame arrays, whose per-thread
// pointers the compiler must emit in the same order in every compile
// (e2e.cmake compiles this file three times and compares the objects).
__global__ void eight_values(const unsigned *in, unsigned *out) {
  __shared__ unsigned sh[256];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  unsigned a = in[g], b = a * 3, c = a ^ 7, d = a + 11, e = a * a, f = b - c, h = d * 5, k = e >> 2;
  sh[t] = a;
  __syncthreads();
  out[g] = sh[(t + 1) % blockDim.x] + a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + h * 7 + k * 8;
}
