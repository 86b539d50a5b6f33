// SPDX-License-Identifier: MIT
// hipGraphLaunch of a graph of 100 kernel nodes (a chain, captured from a
// stream) against the same 100 kernels launched one by one on that stream,
// per launch of the whole set. The kernels are small (one block adds 1 to
// each of 256 integers), so the time is the launch path: the graph's replay
// against plain launches. Checked first: both ways give 100 per element.
// On the CPU device the baseline is OpenMP: 100 parallel loops of the same
// work; on a GPU bench/run.sh --nvidia pairs each row with native CUDA's
// cudaGraphLaunch and <<<>>> (bench/cuda/graph_launch.cu, the same text).
#include "common/bench.hpp"

#include <vector>

constexpr int kNodes = 100;
constexpr int kElems = 256;

__global__ void bump(int *a) {
  a[threadIdx.x] += 1;
}

static void bump_omp(int *a) {
#pragma omp parallel for
  for (int i = 0; i < kElems; i++)
    a[i] += 1;
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "graph_launch");
  const int sets = c.gpu ? 200 : 20; // sets of 100 kernels per timed run
  hipStream_t s;
  hipGraph_t g;
  hipGraphExec_t x;
  int *d;
  BENCH_HIP(hipStreamCreate(&s));
  BENCH_HIP(hipMalloc((void **)&d, kElems * sizeof(int)));

  BENCH_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  for (int i = 0; i < kNodes; i++)
    bump<<<1, kElems, 0, s>>>(d);
  // A launch refused during capture (no device code for this device: a
  // program built with --offload-arch=cpu run on a GPU) adds no node, and
  // the graph would silently be empty.
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipStreamEndCapture(s, &g));
  BENCH_HIP(hipGraphInstantiateWithFlags(&x, g, 0));

  // Both ways run every kernel once per set.
  std::vector<int> h(kElems, 0), want(kElems, 2 * kNodes);
  BENCH_HIP(hipMemsetAsync(d, 0, kElems * sizeof(int), s));
  BENCH_HIP(hipGraphLaunch(x, s));
  for (int i = 0; i < kNodes; i++)
    bump<<<1, kElems, 0, s>>>(d);
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipStreamSynchronize(s));
  BENCH_HIP(hipMemcpy(h.data(), d, kElems * sizeof(int), hipMemcpyDeviceToHost));
  bench::check_equal(c, "graph and plain launches of 100 kernels", h.data(), want.data(), kElems);

  auto graph_run = [&] {
    for (int k = 0; k < sets; k++)
      BENCH_HIP(hipGraphLaunch(x, s));
    BENCH_HIP(hipStreamSynchronize(s));
  };
  auto plain_run = [&] {
    for (int k = 0; k < sets; k++)
      for (int i = 0; i < kNodes; i++)
        bump<<<1, kElems, 0, s>>>(d);
    BENCH_HIP(hipGetLastError());
    BENCH_HIP(hipStreamSynchronize(s));
  };
  if (c.gpu) {
    double tg = bench::time_ms(c, graph_run) / sets, tp = bench::time_ms(c, plain_run) / sets;
    bench::gpu_row("graph: hipGraphLaunch of 100 kernels", tg);
    bench::gpu_row("launch x100 on a stream (the graph's kernels)", tp);
    std::printf("# graph / plain launches: %.3f\n", tg / tp);
  } else {
    std::vector<int> ho(kElems, 0);
    auto omp_run = [&] {
      for (int k = 0; k < sets; k++)
        for (int i = 0; i < kNodes; i++)
          bump_omp(ho.data());
    };
    auto t1 = bench::time_pair(c, graph_run, omp_run);
    auto t2 = bench::time_pair(c, plain_run, omp_run);
    bench::row(c, "hipGraphLaunch of 100 kernels (per graph)", t1.first / sets, t1.second / sets);
    bench::row(c, "100 kernel launches (per 100)", t2.first / sets, t2.second / sets);
    std::printf("# graph / plain launches: %.3f\n", t1.first / t2.first);
  }
  BENCH_HIP(hipGraphExecDestroy(x));
  BENCH_HIP(hipGraphDestroy(g));
  BENCH_HIP(hipFree(d));
  BENCH_HIP(hipStreamDestroy(s));
  return 0;
}
