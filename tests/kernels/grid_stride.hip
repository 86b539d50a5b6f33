// SPDX-License-Identifier: MIT
// Grid-stride loops (kernel-compiler/stride_interchange.cpp): the compiler
// runs each step of `for (i = start; i < n; i += stride)` across the block's
// threads instead of each thread's whole share in turn. Each kernel is
// checked against a host loop, in both modes (ctest's cpu/ and cpu-fibers/
// entries, and cpu-sse2/ for the plain copy):
//  - a byte histogram in shared memory, between barriers (the bench's), with
//    n not a multiple of the stride and blocks past n;
//  - a barrier-free y = a x + y, 1D and 2D blocks (start x + c);
//  - a start that is not x + c (every second element: the per-thread test);
//  - i wrapping around 2^32 (n + stride does not fit), where the loop must
//    keep the threads' own order and counts: the interchange is not taken.
#include "engine_test.h"

#include <vector>

__global__ void histogram(const unsigned char *data, unsigned n, unsigned *hist) {
  __shared__ unsigned local[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
    atomicAdd(&hist[i], local[i]);
}

__global__ void axpy(unsigned a, const unsigned *x, unsigned *y, unsigned n) {
  unsigned threads = blockDim.x * blockDim.y;
  for (unsigned i = blockIdx.x * threads + threadIdx.y * blockDim.x + threadIdx.x; i < n;
       i += threads * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void every_second(unsigned *out, unsigned n) {
  for (unsigned i = 2 * (blockIdx.x * blockDim.x + threadIdx.x); i < n;
       i += 2 * blockDim.x * gridDim.x)
    out[i] += i + 1;
}

// Each thread counts its steps; with n + stride past 2^32, i wraps around
// and the thread goes on from a small i (HIP's unsigned arithmetic).
__global__ void wrapping(unsigned *steps, unsigned n, unsigned stride) {
  for (unsigned i = threadIdx.x; i < n; i += stride)
    steps[threadIdx.x]++;
}

static int body(int) {
  int fails = 0;

  // histogram: two grids and block sizes, n not a multiple of the stride.
  for (unsigned block : {256u, 96u}) {
    const unsigned n = 100003, grid = 5;
    std::vector<unsigned char> data(n);
    std::vector<unsigned> want(256, 0), got(256);
    for (unsigned i = 0; i < n; i++) {
      data[i] = (unsigned char)((i * 2654435761u) >> 24);
      want[data[i]]++;
    }
    unsigned char *dd;
    unsigned *dh;
    CHECK_HIP(hipMalloc(&dd, n));
    CHECK_HIP(hipMalloc(&dh, 256 * sizeof(unsigned)));
    CHECK_HIP(hipMemcpy(dd, data.data(), n, hipMemcpyHostToDevice));
    CHECK_HIP(hipMemset(dh, 0, 256 * sizeof(unsigned)));
    histogram<<<grid, block>>>(dd, n, dh);
    // A grid much larger than n: most blocks have no step at all.
    histogram<<<400, block>>>(dd, 1000, dh);
    for (unsigned i = 0; i < 1000; i++)
      want[data[i]]++;
    CHECK_HIP(hipMemcpy(got.data(), dh, 256 * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < 256; b++)
      CHECK_EQ(got[b], want[b]);
    CHECK_HIP(hipFree(dd));
    CHECK_HIP(hipFree(dh));
  }

  // axpy: 1D and 2D blocks.
  for (dim3 block : {dim3(128), dim3(16, 6)}) {
    const unsigned n = 50021, grid = 7, a = 3;
    std::vector<unsigned> x(n), y(n), got(n);
    for (unsigned i = 0; i < n; i++) {
      x[i] = i * 7u;
      y[i] = i ^ 0x55u;
    }
    unsigned *dx, *dy;
    CHECK_HIP(hipMalloc(&dx, n * sizeof(unsigned)));
    CHECK_HIP(hipMalloc(&dy, n * sizeof(unsigned)));
    CHECK_HIP(hipMemcpy(dx, x.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(dy, y.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
    axpy<<<grid, block>>>(a, dx, dy, n);
    CHECK_HIP(hipMemcpy(got.data(), dy, n * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
      CHECK_EQ(got[i], a * x[i] + y[i]);
    CHECK_HIP(hipFree(dx));
    CHECK_HIP(hipFree(dy));
  }

  // every_second: odd elements untouched.
  {
    const unsigned n = 30001;
    std::vector<unsigned> got(n);
    unsigned *d;
    CHECK_HIP(hipMalloc(&d, n * sizeof(unsigned)));
    CHECK_HIP(hipMemset(d, 0, n * sizeof(unsigned)));
    every_second<<<3, 100>>>(d, n);
    CHECK_HIP(hipMemcpy(got.data(), d, n * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
      CHECK_EQ(got[i], i % 2 == 0 ? i + 1 : 0u);
    CHECK_HIP(hipFree(d));
  }

  // wrapping: 64 threads, n = 2^32 - 16, stride 2^31 - 8.
  {
    const unsigned threads = 64, n = 0xfffffff0u, stride = 0x7ffffff8u;
    std::vector<unsigned> got(threads);
    unsigned *d;
    CHECK_HIP(hipMalloc(&d, threads * sizeof(unsigned)));
    CHECK_HIP(hipMemset(d, 0, threads * sizeof(unsigned)));
    wrapping<<<1, threads>>>(d, n, stride);
    CHECK_HIP(hipMemcpy(got.data(), d, threads * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < threads; t++) {
      unsigned want = 0;
      for (unsigned i = t; i < n; i += stride)
        want++;
      CHECK_EQ(got[t], want);
    }
    CHECK_HIP(hipFree(d));
  }
  return fails == 0 ? AH_PASS : AH_FAIL;
}

int main(int argc, char **argv) {
  (void)argc;
  return ah_run_both_warp_sizes(argv, body);
}
