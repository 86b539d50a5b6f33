// SPDX-License-Identifier: MIT
// Bitonic sort of 1024-element tiles in shared memory: 512 threads per block,
// each doing one compare-and-exchange per step, 55 steps with a __syncthreads
// after each (56 barriers per thread). The output is every tile sorted
// ascending (the first stage of a merge sort). Baseline: std::sort of each
// tile under `#pragma omp parallel for`.
#include "common/bench.hpp"

constexpr unsigned kTile = 1024, kThreads = kTile / 2;

__global__ void bitonic_tiles(const unsigned *in, unsigned *out) {
  __shared__ unsigned sh[kTile];
  const unsigned t = threadIdx.x, base = blockIdx.x * kTile;
  sh[t] = in[base + t];
  sh[t + kThreads] = in[base + t + kThreads];
  __syncthreads();
  for (unsigned k = 2; k <= kTile; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      // Thread t's pair is (i, i + j), i being t with a 0 inserted at bit log2(j).
      unsigned i = 2 * t - (t & (j - 1));
      unsigned a = sh[i], b = sh[i + j];
      bool ascending = (i & k) == 0;
      if ((a > b) == ascending) {
        sh[i] = b;
        sh[i + j] = a;
      }
      __syncthreads();
    }
  }
  out[base + t] = sh[t];
  out[base + t + kThreads] = sh[t + kThreads];
}

static void sort_omp(const unsigned *in, unsigned *out, unsigned n) {
  const int tiles = (int)(n / kTile);
#pragma omp parallel for schedule(static)
  for (int b = 0; b < tiles; b++) {
    std::copy(in + (size_t)b * kTile, in + (size_t)(b + 1) * kTile, out + (size_t)b * kTile);
    std::sort(out + (size_t)b * kTile, out + (size_t)(b + 1) * kTile);
  }
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "sort");
  const unsigned n = c.gpu ? 1u << 26 : 1u << 19; // a multiple of kTile
  const unsigned grid = n / kTile;
  std::vector<unsigned> in(n), want(n), got(n);
  unsigned *din, *dout;

  // Many repeated keys (16 bits of hash), so equal elements meet too.
  for (unsigned i = 0; i < n; i++)
    in[i] = bench::hash(i) >> 16;
  BENCH_HIP(hipMalloc((void **)&din, n * sizeof(unsigned)));
  BENCH_HIP(hipMalloc((void **)&dout, n * sizeof(unsigned)));
  BENCH_HIP(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));

  auto run = [&] { bitonic_tiles<<<grid, kThreads>>>(din, dout); };
  run();
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  sort_omp(in.data(), want.data(), n);
  bench::check_equal(c, "sort", got.data(), want.data(), n);

  if (c.gpu) {
    bench::gpu_row("sort bitonic tiles", bench::event_ms(c, run), 2.0 * n * sizeof(unsigned));
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { sort_omp(in.data(), want.data(), n); });
    bench::fiber_note("sort", f0, bench::fibers_created(), c.runs(), grid);
    bench::row(c, "bitonic sort, 1024-element tiles, 512K uints", t.first, t.second);
  }
  BENCH_HIP(hipFree(din));
  BENCH_HIP(hipFree(dout));
  return 0;
}
