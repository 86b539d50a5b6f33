// SPDX-License-Identifier: MIT
// Tiled matrix multiplication C = A*B (the guide's §15.7 shared-memory
// tiling): 16x16 blocks stage 16x16 tiles of A and B in shared memory, two
// __syncthreads per tile. Baseline: the straightforward loop nest, one output
// element per (i, j) under `#pragma omp parallel for`, summing over k in the
// same order as the kernel.
#include "common/bench.hpp"

constexpr int kTile = 16;

__global__ void matmul_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += kTile) {
    ta[ty][tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0.0f;
    tb[ty][tx] = t + ty < n && col < n ? b[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; k++)
      sum += ta[ty][k] * tb[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    c[row * n + col] = sum;
}

// Rows i of C with i % row_step == 0 (GPU mode checks a sample: the full
// product on the host would take longer than the whole GPU run).
static void matmul_omp(const float *a, const float *b, float *c, int n, int row_step = 1) {
#pragma omp parallel for
  for (int i = 0; i < n; i += row_step)
    for (int j = 0; j < n; j++) {
      float sum = 0.0f;
      for (int k = 0; k < n; k++)
        sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "matmul");
  const int n = c.gpu ? 2048 : 256;
  const int row_step = c.gpu ? 61 : 1;
  const size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
  const dim3 block(kTile, kTile), grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
  std::vector<float> a(elems), b(elems), want(elems), got(elems);
  float *da, *db, *dc;

  for (size_t i = 0; i < elems; i++) {
    a[i] = bench::unit_float((uint32_t)i) - 0.5f;
    b[i] = bench::unit_float((uint32_t)(i + elems)) - 0.5f;
  }
  BENCH_HIP(hipMalloc((void **)&da, bytes));
  BENCH_HIP(hipMalloc((void **)&db, bytes));
  BENCH_HIP(hipMalloc((void **)&dc, bytes));
  BENCH_HIP(hipMemcpy(da, a.data(), bytes, hipMemcpyHostToDevice));
  BENCH_HIP(hipMemcpy(db, b.data(), bytes, hipMemcpyHostToDevice));

  auto run = [&] { matmul_tiled<<<grid, block>>>(da, db, dc, n); };
  run();
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got.data(), dc, bytes, hipMemcpyDeviceToHost));
  matmul_omp(a.data(), b.data(), want.data(), n, row_step);
  for (int i = 0; i < n; i += row_step)
    bench::check_close(c, "C", &got[(size_t)i * n], &want[(size_t)i * n], n);

  if (c.gpu) {
    bench::gpu_row("matmul tiled kernel", bench::event_ms(c, run), 3.0 * bytes);
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { matmul_omp(a.data(), b.data(), want.data(), n); });
    bench::fiber_note("matmul", f0, bench::fibers_created(), c.runs(), grid.x * grid.y);
    bench::row(c, "tiled matmul, 256x256 floats", t.first, t.second);
  }
  BENCH_HIP(hipFree(da));
  BENCH_HIP(hipFree(db));
  BENCH_HIP(hipFree(dc));
  return 0;
}
