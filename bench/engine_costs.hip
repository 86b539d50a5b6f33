// SPDX-License-Identifier: MIT
// Micro-measures of the CPU device's kernel engine, for docs/performance.md:
// the cost of a block, of a GPU thread on the fast path, of the first
// barrier (the block switches to fibers), of each further barrier, of each
// further block-wide __syncthreads_count, of a warp shuffle and of a
// shared-memory atomic, each as the difference between two
// kernels that differ only in that. CPU device only (elsewhere it says so and
// exits 0); not part of the ratio table.
#include "common/bench.hpp"

constexpr unsigned kBlock = 256;

__global__ void one_thread_blocks(unsigned *out) {
  if (blockIdx.x == 0)
    out[0] = 1;
}

__global__ void store(unsigned *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void barriers(unsigned *out, int n) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < n; i++) {
    v = v * 3 + 1;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void barrier_counts(unsigned *out, int n) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < n; i++)
    v += __syncthreads_count(v & 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void shuffles(unsigned *out, int n) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < n; i++)
    v += warp_shfl_down(v, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void shared_adds(unsigned *out, int n, int atomic) {
  __shared__ unsigned bins[kBlock];
  bins[threadIdx.x] = 0;
  unsigned *mine = &bins[(threadIdx.x * 7) % kBlock];
  for (int i = 0; i < n; i++) {
    if (atomic)
      atomicAdd(mine, 1u);
    else
      *(volatile unsigned *)mine += 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = *mine;
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "engine_costs");
  if (c.gpu || bench::fibers_created() < 0 ||
      std::strncmp(c.device_name.c_str(), "anyhip CPU", 10)) {
    std::printf("# engine_costs: measures the CPU device only; skipped on \"%s\"\n",
                c.device_name.c_str());
    return 0;
  }
  const unsigned blocks = 512, threads = blocks * kBlock;
  unsigned *out;
  BENCH_HIP(hipMalloc((void **)&out, threads * sizeof(unsigned)));

  // The minimum of the runs, not the median: each cost is a difference of two
  // times, and the least disturbed run of each is the best estimate of it.
  auto t = [&](auto launch) {
    std::vector<double> v;
    for (int i = 0; i < c.runs(); i++) {
      double t0 = bench::now_ms();
      launch();
      BENCH_HIP(hipDeviceSynchronize());
      v.push_back(bench::now_ms() - t0);
    }
    return *std::min_element(v.begin() + 1, v.end()); // the first run warms up
  };
  const unsigned many = 16384;
  double t_blocks = t([&] { one_thread_blocks<<<many, 1>>>(out); });
  double t_store = t([&] { store<<<blocks, kBlock>>>(out); });
  double t_bar0 = t([&] { barriers<<<blocks, kBlock>>>(out, 0); });
  double t_bar1 = t([&] { barriers<<<blocks, kBlock>>>(out, 1); });
  double t_bar17 = t([&] { barriers<<<blocks, kBlock>>>(out, 17); });
  double t_count1 = t([&] { barrier_counts<<<blocks, kBlock>>>(out, 1); });
  double t_count17 = t([&] { barrier_counts<<<blocks, kBlock>>>(out, 17); });
  double t_shfl1 = t([&] { shuffles<<<blocks, kBlock>>>(out, 1); });
  double t_shfl17 = t([&] { shuffles<<<blocks, kBlock>>>(out, 17); });
  double t_plain = t([&] { shared_adds<<<blocks, kBlock>>>(out, 64, 0); });
  double t_atomic = t([&] { shared_adds<<<blocks, kBlock>>>(out, 64, 1); });
  BENCH_HIP(hipGetLastError());

  // Nanoseconds of one worker's time per unit named in the row: wall time
  // times the workers that shared the work.
  const int workers = c.device_units;
  auto ns = [&](double ms, double units) { return ms * 1e6 * workers / units; };
  std::printf("| engine cost (%d workers) | ns per unit, one worker's time | measured as |\n"
              "| --- | --- | --- |\n",
              workers);
  std::printf("| a block of one thread | %.0f | %u one-thread blocks |\n", ns(t_blocks, many),
              many);
  std::printf("| a GPU thread, barrier-free (fast path) | %.1f | %u blocks of %u, one store |\n",
              ns(t_store, threads), blocks, kBlock);
  std::printf("| first `__syncthreads` (fiber per thread) | %.1f | per thread: 1 barrier - 0 |\n",
              ns(t_bar1 - t_bar0, threads));
  std::printf("| each further `__syncthreads` | %.1f | per thread: (17 barriers - 1) / 16 |\n",
              ns(t_bar17 - t_bar1, 16.0 * threads));
  std::printf("| each further `__syncthreads_count` | %.1f | per thread: (17 counts - 1) / 16 |\n",
              ns(t_count17 - t_count1, 16.0 * threads));
  std::printf("| each `__shfl_down` (warp of %d) | %.1f | per lane: (17 shuffles - 1) / 16 |\n",
              warpSize, ns(t_shfl17 - t_shfl1, 16.0 * threads));
  std::printf(
      "| shared `atomicAdd` over a plain add | %.1f | per op: (64 atomics - 64 adds) / 64 |\n",
      ns(t_atomic - t_plain, 64.0 * threads));
  BENCH_HIP(hipFree(out));
  return 0;
}
