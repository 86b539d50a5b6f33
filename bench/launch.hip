// SPDX-License-Identifier: MIT
// Launch cost of an empty kernel, per launch: asynchronous (N launches, then
// one hipDeviceSynchronize) and synchronous (hipDeviceSynchronize after each).
// On the CPU device the grid has one 64-thread block per worker, so every
// worker wakes; the baseline is an empty `#pragma omp parallel for` over as
// many iterations (OpenMP's fork and join). On a GPU the grid is <<<1, 1>>>.
#include "common/bench.hpp"

__global__ void empty_kernel() {}

__global__ void count_kernel(unsigned *counter) {
  atomicAdd(counter, 1u);
}

static void empty_omp(int iterations) {
#pragma omp parallel for
  for (int i = 0; i < iterations; i++)
    asm volatile("" ::: "memory");
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "launch");
  const int n_async = c.gpu ? 20000 : 2000, n_sync = c.gpu ? 5000 : 1000;
  const dim3 grid(c.gpu ? 1 : c.device_units), block(c.gpu ? 1 : 64);
  const int iterations = (int)(grid.x * block.x);

  // Checked first: N asynchronous launches all run, every thread once.
  unsigned *counter, count = 0;
  const unsigned want = (unsigned)n_async * iterations;
  BENCH_HIP(hipMalloc((void **)&counter, sizeof(unsigned)));
  BENCH_HIP(hipMemcpy(counter, &count, sizeof(count), hipMemcpyHostToDevice));
  for (int i = 0; i < n_async; i++)
    count_kernel<<<grid, block>>>(counter);
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(&count, counter, sizeof(count), hipMemcpyDeviceToHost));
  BENCH_HIP(hipFree(counter));
  bench::check_equal(c, "threads run by N launches", &count, &want, 1);

  // Each run launches N kernels; the result is per launch.
  auto async_run = [&] {
    for (int i = 0; i < n_async; i++)
      empty_kernel<<<grid, block>>>();
    BENCH_HIP(hipGetLastError());
    BENCH_HIP(hipDeviceSynchronize());
  };
  auto sync_run = [&] {
    for (int i = 0; i < n_sync; i++) {
      empty_kernel<<<grid, block>>>();
      BENCH_HIP(hipDeviceSynchronize());
    }
    BENCH_HIP(hipGetLastError());
  };
  if (c.gpu) {
    bench::gpu_row("launch async, per launch", bench::time_ms(c, async_run) / n_async);
    bench::gpu_row("launch + synchronize, per launch", bench::time_ms(c, sync_run) / n_sync);
    return 0;
  }
  auto omp_run = [&] {
    for (int i = 0; i < n_sync; i++)
      empty_omp(iterations);
  };
  auto ta = bench::time_pair(c, async_run, omp_run);
  auto ts = bench::time_pair(c, sync_run, omp_run);
  bench::row(c, "empty kernel launch, async (per launch)", ta.first / n_async, ta.second / n_sync);
  bench::row(c, "empty kernel launch + synchronize", ts.first / n_sync, ts.second / n_sync);
  return 0;
}
