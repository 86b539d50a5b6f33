// SPDX-License-Identifier: MIT
// Tiled matrix transpose (the guide's §15.8 shared-memory version): a block
// of 32x8 threads reads a 32x32 tile with coalesced loads into shared memory
// (padded against bank conflicts), one __syncthreads, then writes the tile
// transposed, again coalesced. Baseline: out[x][y] = in[y][x] under
// `#pragma omp parallel for` over the input rows.
#include "common/bench.hpp"

constexpr int kTile = 32, kRows = 8;

__global__ void transpose_tiled(const float *in, float *out, int w, int h) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int r = 0; r < kTile; r += kRows)
    if (x < w && y + r < h)
      tile[threadIdx.y + r][threadIdx.x] = in[(size_t)(y + r) * w + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int r = 0; r < kTile; r += kRows)
    if (x < h && y + r < w)
      out[(size_t)(y + r) * h + x] = tile[threadIdx.x][threadIdx.y + r];
}

static void transpose_omp(const float *in, float *out, int w, int h) {
#pragma omp parallel for
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[(size_t)x * h + y] = in[(size_t)y * w + x];
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "transpose");
  const int w = c.gpu ? 8192 : 2048, h = w;
  const size_t elems = (size_t)w * h, bytes = elems * sizeof(float);
  const dim3 block(kTile, kRows), grid((w + kTile - 1) / kTile, (h + kTile - 1) / kTile);
  std::vector<float> in(elems), want(elems), got(elems);
  float *din, *dout;

  for (size_t i = 0; i < elems; i++)
    in[i] = (float)i;
  BENCH_HIP(hipMalloc((void **)&din, bytes));
  BENCH_HIP(hipMalloc((void **)&dout, bytes));
  BENCH_HIP(hipMemcpy(din, in.data(), bytes, hipMemcpyHostToDevice));

  auto run = [&] { transpose_tiled<<<grid, block>>>(din, dout, w, h); };
  run();
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got.data(), dout, bytes, hipMemcpyDeviceToHost));
  transpose_omp(in.data(), want.data(), w, h);
  bench::check_equal(c, "transpose", got.data(), want.data(), elems);

  if (c.gpu) {
    bench::gpu_row("transpose tiled kernel", bench::event_ms(c, run), 2.0 * bytes);
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { transpose_omp(in.data(), want.data(), w, h); });
    bench::fiber_note("transpose", f0, bench::fibers_created(), c.runs(), grid.x * grid.y);
    bench::row(c, "tiled transpose, 2048x2048 floats", t.first, t.second);
  }
  BENCH_HIP(hipFree(din));
  BENCH_HIP(hipFree(dout));
  return 0;
}
