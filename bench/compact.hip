// SPDX-License-Identifier: MIT
// Stream compaction with warp votes: each 256-thread block keeps, in order,
// the elements of its 2048-element tile that exceed a threshold, and writes
// them to the start of the tile's place in the output, their count to
// counts[block]. Each warp owns a contiguous run of 8 rounds of warpSize
// elements (warpSize is read at run time: 32 or 64, 8 or 4 warps a block). A
// warp counts its kept elements with __ballot and __popcll (first pass), the
// block exchanges the warps' counts through shared memory (one
// __syncthreads), lane 0 adds up the warps before its own and broadcasts that
// offset with __shfl, and a second pass writes each kept element at
// offset + __popcll(ballot & the lanes below). 17 warp collectives and one
// barrier per thread.
// Baseline: the sequential compaction of each tile under
// `#pragma omp parallel for`.
#include "common/bench.hpp"

constexpr unsigned kBlock = 256, kRounds = 8, kTile = kRounds * kBlock;

__global__ void compact_ballot(const unsigned *in, unsigned *out, unsigned *counts, unsigned n,
                               unsigned threshold) {
  __shared__ unsigned warp_count[kBlock / 32]; // one per warp, for 32- or 64-wide warps
  const unsigned lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const unsigned base = blockIdx.x * kTile + warp * kRounds * warpSize;
  const unsigned long long below = (1ull << lane) - 1; // the lanes before this one
  unsigned count = 0;
  for (unsigned r = 0; r < kRounds; r++) {
    unsigned i = base + r * warpSize + lane;
    count += __popcll(warp_ballot(i < n && in[i] > threshold));
  }
  if (lane == 0)
    warp_count[warp] = count;
  __syncthreads();
  unsigned offset = 0;
  if (lane == 0)
    for (unsigned w = 0; w < warp; w++)
      offset += warp_count[w];
  offset = warp_shfl(offset, 0);
  unsigned *dst = out + blockIdx.x * kTile;
  for (unsigned r = 0; r < kRounds; r++) {
    unsigned i = base + r * warpSize + lane;
    unsigned v = i < n ? in[i] : 0;
    bool keep = i < n && v > threshold;
    unsigned long long mask = warp_ballot(keep);
    if (keep)
      dst[offset + __popcll(mask & below)] = v;
    offset += __popcll(mask);
  }
  if (warp == blockDim.x / warpSize - 1 && lane == 0)
    counts[blockIdx.x] = offset;
}

static void compact_omp(const unsigned *in, unsigned *out, unsigned *counts, unsigned n,
                        unsigned threshold) {
  const int tiles = (int)((n + kTile - 1) / kTile);
#pragma omp parallel for schedule(static)
  for (int b = 0; b < tiles; b++) {
    unsigned *dst = out + (size_t)b * kTile, kept = 0;
    for (unsigned i = b * kTile; i < std::min(n, (b + 1) * kTile); i++)
      if (in[i] > threshold)
        dst[kept++] = in[i];
    counts[b] = kept;
  }
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "compact");
  const unsigned n = c.gpu ? 1u << 26 : 1u << 21;
  const unsigned grid = (n + kTile - 1) / kTile;
  const unsigned threshold = 0x9fffffffu; // keeps 3/8 of the elements
  std::vector<unsigned> in(n), want(n, 0), got(n), want_counts(grid), got_counts(grid);
  unsigned *din, *dout, *dcounts;

  for (unsigned i = 0; i < n; i++)
    in[i] = bench::hash(i);
  BENCH_HIP(hipMalloc((void **)&din, n * sizeof(unsigned)));
  BENCH_HIP(hipMalloc((void **)&dout, n * sizeof(unsigned)));
  BENCH_HIP(hipMalloc((void **)&dcounts, grid * sizeof(unsigned)));
  BENCH_HIP(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  // What the kernel leaves unwritten (past each tile's count) reads 0 on both sides.
  BENCH_HIP(hipMemsetAsync(dout, 0, n * sizeof(unsigned), 0));

  auto run = [&] { compact_ballot<<<grid, kBlock>>>(din, dout, dcounts, n, threshold); };
  run();
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  BENCH_HIP(hipMemcpy(got_counts.data(), dcounts, grid * sizeof(unsigned), hipMemcpyDeviceToHost));
  compact_omp(in.data(), want.data(), want_counts.data(), n, threshold);
  bench::check_equal(c, "compact counts", got_counts.data(), want_counts.data(), grid);
  bench::check_equal(c, "compact", got.data(), want.data(), n);

  if (c.gpu) {
    // Bytes: the input read twice, the kept elements written.
    double kept = 0;
    for (unsigned k : want_counts)
      kept += k;
    bench::gpu_row("compact ballots", bench::event_ms(c, run), (2.0 * n + kept) * sizeof(unsigned));
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { compact_omp(in.data(), want.data(), want_counts.data(), n, threshold); });
    bench::fiber_note("compact", f0, bench::fibers_created(), c.runs(), grid);
    bench::row(c, "stream compaction, ballots, 2M uints", t.first, t.second);
  }
  BENCH_HIP(hipFree(din));
  BENCH_HIP(hipFree(dout));
  BENCH_HIP(hipFree(dcounts));
  return 0;
}
