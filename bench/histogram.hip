// SPDX-License-Identifier: MIT
// 256-bin byte histogram privatised in shared memory (what the guide's §11.4
// recommends): each block counts its grid-stride share of the input with
// atomicAdd on a shared histogram, then adds it to the global one. The grid
// is 8 blocks per compute unit. Baseline: `#pragma omp parallel for` with an
// array reduction, `reduction(+:hist[:256])`.
#include "common/bench.hpp"

constexpr int kBins = 256;

__global__ void histogram_shared(const unsigned char *data, unsigned n, unsigned *hist) {
  __shared__ unsigned local[kBins];
  for (unsigned i = threadIdx.x; i < kBins; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kBins; i += blockDim.x)
    atomicAdd(&hist[i], local[i]);
}

static void histogram_omp(const unsigned char *data, unsigned n, unsigned *hist) {
  for (int b = 0; b < kBins; b++)
    hist[b] = 0;
#pragma omp parallel for reduction(+ : hist[:kBins])
  for (unsigned i = 0; i < n; i++)
    hist[data[i]]++;
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "histogram");
  const unsigned n = c.gpu ? 1u << 28 : 1u << 24;
  const unsigned block = 256, grid = 8 * (unsigned)c.device_units;
  std::vector<unsigned char> data(n);
  unsigned want[kBins], got[kBins];
  unsigned char *dd;
  unsigned *dh;

  // Bytes of a smooth "image" plus noise: every bin is used, some much more.
  for (unsigned i = 0; i < n; i++)
    data[i] = (unsigned char)((i / 4096 + (bench::hash(i) & 63)) & 255);
  BENCH_HIP(hipMalloc((void **)&dd, n));
  BENCH_HIP(hipMalloc((void **)&dh, sizeof(got)));
  BENCH_HIP(hipMemcpy(dd, data.data(), n, hipMemcpyHostToDevice));

  auto run = [&] {
    BENCH_HIP(hipMemsetAsync(dh, 0, sizeof(got), 0));
    histogram_shared<<<grid, block>>>(dd, n, dh);
  };
  run();
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got, dh, sizeof(got), hipMemcpyDeviceToHost));
  histogram_omp(data.data(), n, want);
  bench::check_equal(c, "histogram", got, want, kBins);

  if (c.gpu) {
    bench::gpu_row("histogram shared-atomics kernel", bench::event_ms(c, run), (double)n);
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { histogram_omp(data.data(), n, want); });
    bench::fiber_note("histogram", f0, bench::fibers_created(), c.runs(), grid);
    bench::row(c, "histogram, shared atomics, 16M bytes", t.first, t.second);
  }
  BENCH_HIP(hipFree(dd));
  BENCH_HIP(hipFree(dh));
  return 0;
}
