// SPDX-License-Identifier: MIT
#include "devfns.h"

__device__ int scale = 3;
__device__ int bias() { return 100; }
__device__ int scaled(int x) { return x * scale + bias(); }
__device__ int block_sum(int v) {
  __shared__ int s[128];
  s[threadIdx.x] = v;
  __syncthreads();
  int t = 0;
  for (unsigned i = 0; i < blockDim.x; i++)
    t += s[i];
  __syncthreads();
  return t;
}
__device__ int my_thread() { return threadIdx.x; }
__device__ int read_mailbox(int t) {
  __syncthreads();
  int v = mailbox()[t];
  __syncthreads();
  return v;
}
namespace lib {
__device__ float half(float x) { return x * 0.5f; }
}
