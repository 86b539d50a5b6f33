// SPDX-License-Identifier: MIT
// SAXPY (y = a*x + y), the guide's first kernel: one GPU thread per element,
// memory-bound. Baseline: the same loop under `#pragma omp parallel for`.
#include "common/bench.hpp"

__global__ void saxpy(float a, const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static void saxpy_omp(float a, const float *x, float *y, unsigned n) {
#pragma omp parallel for
  for (unsigned i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "saxpy");
  const unsigned n = c.gpu ? 1u << 26 : 1u << 22;
  const unsigned block = 256, grid = (n + block - 1) / block;
  const float a = 2.0f;
  const size_t bytes = (size_t)n * sizeof(float);
  std::vector<float> x(n), y0(n), y(n), got(n);
  float *dx, *dy;

  for (unsigned i = 0; i < n; i++) {
    x[i] = bench::unit_float(i);
    y0[i] = bench::unit_float(i + n);
  }
  BENCH_HIP(hipMalloc((void **)&dx, bytes));
  BENCH_HIP(hipMalloc((void **)&dy, bytes));
  BENCH_HIP(hipMemcpy(dx, x.data(), bytes, hipMemcpyHostToDevice));
  BENCH_HIP(hipMemcpy(dy, y0.data(), bytes, hipMemcpyHostToDevice));

  // One checked run on fresh data first; the timed runs keep updating y.
  saxpy<<<grid, block>>>(a, dx, dy, n);
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got.data(), dy, bytes, hipMemcpyDeviceToHost));
  y = y0;
  saxpy_omp(a, x.data(), y.data(), n);
  bench::check_close(c, "y", got.data(), y.data(), n, 1e-6f);

  auto run = [&] { saxpy<<<grid, block>>>(a, dx, dy, n); };
  if (c.gpu) {
    bench::gpu_row("saxpy kernel", bench::event_ms(c, run), 3.0 * bytes);
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { saxpy_omp(a, x.data(), y.data(), n); });
    bench::fiber_note("saxpy", f0, bench::fibers_created(), c.runs(), grid);
    bench::row(c, "saxpy, 4M floats", t.first, t.second);
  }
  BENCH_HIP(hipFree(dx));
  BENCH_HIP(hipFree(dy));
  return 0;
}
