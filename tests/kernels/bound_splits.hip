// SPDX-License-Identifier: MIT
// Thread loops split at a uniform bound (kernel-compiler/bound_split.cpp):
// a region's `if (tid < s)` or `if (tid >= off)` becomes two loops over the
// threads below and above the bound. Each kernel is checked against a host
// loop, in both modes (ctest's cpu/ and cpu-fibers/ entries), with bounds
// below, inside and above the block, and inside a warp that runs alone:
//  - a tree sum in shared memory (`tid < s`, s halving);
//  - a Hillis-Steele scan (`tid >= off`, off doubling);
//  - a kernel argument as the bound, 1D and 2D blocks, k = 0 .. past the end;
//  - the same test in the one warp left after the others returned (its
//    loop starts at the warp's first thread, not 0).
#include "engine_test.h"

#include <vector>

__global__ void tree_sum(const int *in, int *out) {
  __shared__ int sh[256];
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

__global__ void scan(const int *in, int *out) {
  __shared__ int sh[256];
  unsigned tid = threadIdx.x;
  sh[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    int v = tid >= off ? sh[tid - off] : 0;
    __syncthreads();
    sh[tid] += v;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = sh[tid];
}

__global__ void below_k(const int *in, int *out, unsigned k) {
  __shared__ int sh[256];
  unsigned n = blockDim.x * blockDim.y;
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  sh[t] = in[t];
  __syncthreads();
  if (threadIdx.x < k) // a store: the branch stays a branch
    sh[t] += 1000;
  __syncthreads();
  out[t] = sh[(t + 1) % n];
}

__global__ void alone(const int *in, int *out, unsigned k) {
  __shared__ int sh[256];
  unsigned t = threadIdx.x;
  if (t / warpSize != 1)
    return;
  sh[t] = in[t];
  __syncthreads();
  if (t < k)
    sh[t] += 1000;
  __syncthreads();
  out[t] = sh[t ^ 1];
}

// `if (warp == 0)` with the lane read in both branches: below the bound
// the lane is the thread index (kernel-compiler folds `tid % warpSize` and
// `tid & (warpSize - 1)` there), above it not.
__global__ void warp0_lanes(const int *in, int *out, unsigned k) {
  __shared__ int sh[256];
  unsigned tid = threadIdx.x;
  unsigned lane = tid % warpSize, warp = tid / warpSize;
  sh[tid] = in[tid];
  __syncthreads();
  if (warp == 0)
    out[tid] = lane < k ? sh[blockDim.x - 1 - lane] : -(int)(tid & (warpSize - 1));
  else
    out[tid] = sh[lane] + 1000 * (int)warp + (int)(tid & (warpSize - 1));
}

static int body(int ws) {
  int fails = 0;
  const unsigned n = 256, blocks = 3;
  std::vector<int> in(blocks * n), got(blocks * n);
  for (unsigned i = 0; i < in.size(); i++)
    in[i] = (int)(i * 37 % 101) - 50;
  int *din, *dout;
  CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&dout, got.size() * sizeof(int)));
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));

  for (unsigned bs : {256u, 64u}) {
    tree_sum<<<blocks, bs>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; b++) {
      int want = 0;
      for (unsigned i = 0; i < bs; i++)
        want += in[b * bs + i];
      CHECK_EQ(got[b], want);
    }
    scan<<<blocks, bs>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, blocks * bs * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; b++) {
      int want = 0;
      for (unsigned i = 0; i < bs; i++) {
        want += in[b * bs + i];
        CHECK_EQ(got[b * bs + i], want);
      }
    }
  }

  for (dim3 bs : {dim3(256), dim3(16, 16), dim3(100)})
    for (unsigned k : {0u, 5u, 37u, 99u, 100u, 1000u}) {
      unsigned m = bs.x * bs.y;
      below_k<<<1, bs>>>(din, dout, k);
      CHECK_HIP(hipMemcpy(got.data(), dout, m * sizeof(int), hipMemcpyDeviceToHost));
      for (unsigned t = 0; t < m; t++) {
        unsigned u = (t + 1) % m;
        CHECK_EQ(got[t], in[u] + (u % bs.x < k ? 1000 : 0));
      }
    }

  for (unsigned k : {0u, (unsigned)ws + 3, 2u * ws, 500u}) {
    const unsigned m = 3 * ws;
    std::vector<int> before(m, -7);
    CHECK_HIP(hipMemcpy(dout, before.data(), m * sizeof(int), hipMemcpyHostToDevice));
    alone<<<1, m>>>(din, dout, k);
    CHECK_HIP(hipMemcpy(got.data(), dout, m * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < m; t++)
      CHECK_EQ(got[t], t / ws == 1 ? in[t ^ 1] + ((t ^ 1) < k ? 1000 : 0) : -7);
  }
  for (unsigned m : {256u, 100u, 96u, 40u})
    for (unsigned k : {0u, 3u, 31u, 64u}) {
      dim3 bs(m);
      warp0_lanes<<<1, bs>>>(din, dout, k);
      CHECK_HIP(hipMemcpy(got.data(), dout, m * sizeof(int), hipMemcpyDeviceToHost));
      for (unsigned t = 0; t < m; t++) {
        int lane = (int)(t % ws), warp = (int)(t / ws);
        int want = warp == 0 ? ((unsigned)lane < k ? in[m - 1 - lane] : -lane)
                             : in[lane] + 1000 * warp + lane;
        CHECK_EQ(got[t], want);
      }
    }
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
  return fails == 0 ? AH_PASS : AH_FAIL;
}

int main(int argc, char **argv) {
  (void)argc;
  return ah_run_both_warp_sizes(argv, body);
}
