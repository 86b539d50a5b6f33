// SPDX-License-Identifier: MIT
// 2D 5-point stencil (one Jacobi step, border copied): one GPU thread per
// output point, 32x8 blocks, no shared memory and no barrier, so it shows the
// CPU device's barrier-free path. Baseline: the same loop nest under
// `#pragma omp parallel for` over the rows.
#include "common/bench.hpp"

__global__ void stencil5(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  size_t i = (size_t)y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
    out[i] = in[i];
  else
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

static void stencil_omp(const float *in, float *out, int w, int h) {
#pragma omp parallel for
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      size_t i = (size_t)y * w + x;
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        out[i] = in[i];
      else
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "stencil");
  const int w = c.gpu ? 8192 : 2048, h = w;
  const size_t elems = (size_t)w * h, bytes = elems * sizeof(float);
  const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  std::vector<float> in(elems), want(elems), got(elems);
  float *din, *dout;

  for (size_t i = 0; i < elems; i++)
    in[i] = bench::unit_float((uint32_t)i);
  BENCH_HIP(hipMalloc((void **)&din, bytes));
  BENCH_HIP(hipMalloc((void **)&dout, bytes));
  BENCH_HIP(hipMemcpy(din, in.data(), bytes, hipMemcpyHostToDevice));

  auto run = [&] { stencil5<<<grid, block>>>(din, dout, w, h); };
  run();
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got.data(), dout, bytes, hipMemcpyDeviceToHost));
  stencil_omp(in.data(), want.data(), w, h);
  bench::check_close(c, "stencil", got.data(), want.data(), elems, 1e-6f);

  if (c.gpu) {
    bench::gpu_row("stencil 5-point kernel", bench::event_ms(c, run), 2.0 * bytes);
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { stencil_omp(in.data(), want.data(), w, h); });
    bench::fiber_note("stencil", f0, bench::fibers_created(), c.runs(), grid.x * grid.y);
    bench::row(c, "2D 5-point stencil, 2048x2048 floats", t.first, t.second);
  }
  BENCH_HIP(hipFree(din));
  BENCH_HIP(hipFree(dout));
  return 0;
}
