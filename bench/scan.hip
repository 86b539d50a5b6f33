// SPDX-License-Identifier: MIT
// Inclusive prefix sum of unsigned integers, a full device scan in three
// steps: each 256-thread block scans its 256 elements in shared memory
// (Hillis-Steele, double-buffered: one __syncthreads per step, 9 per thread),
// the blocks' totals are scanned the same way (recursively, until one block
// is left), and a barrier-free kernel adds each block's prefix back.
// Baseline: a two-pass OpenMP scan, `#pragma omp parallel for` over one
// contiguous part per thread (scan each part, then add the parts' offsets).
#include "common/bench.hpp"

constexpr unsigned kBlock = 256;

// out[i] = in[0] + ... + in[i] within each block of kBlock elements; the
// block's total goes to sums[blockIdx.x] unless sums is null. in == out is
// fine: a block reads its elements before it writes them.
__global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned *sums, unsigned n) {
  __shared__ unsigned buf[2][kBlock];
  unsigned tid = threadIdx.x, i = blockIdx.x * kBlock + tid;
  int src = 0;
  buf[0][tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned d = 1; d < kBlock; d <<= 1) {
    unsigned v = buf[src][tid];
    if (tid >= d)
      v += buf[src][tid - d];
    buf[src ^ 1][tid] = v;
    src ^= 1;
    __syncthreads();
  }
  if (i < n)
    out[i] = buf[src][tid];
  if (sums != nullptr && tid == kBlock - 1)
    sums[blockIdx.x] = buf[src][tid];
}

// Block b + 1 of the scan gets the inclusive sum of blocks 0..b.
__global__ void add_block_sums(unsigned *out, const unsigned *scanned_sums, unsigned n) {
  unsigned i = (blockIdx.x + 1) * kBlock + threadIdx.x;
  if (i < n)
    out[i] += scanned_sums[blockIdx.x];
}

// The device scan of in[0..n) into out; sums[l] holds the block totals of
// recursion level l (as many as there are blocks at that level).
static void scan(const unsigned *in, unsigned *out, unsigned n, unsigned *const *sums) {
  unsigned grid = (n + kBlock - 1) / kBlock;
  if (grid == 1) {
    scan_blocks<<<1, kBlock>>>(in, out, nullptr, n);
    return;
  }
  scan_blocks<<<grid, kBlock>>>(in, out, sums[0], n);
  scan(sums[0], sums[0], grid, sums + 1);
  add_block_sums<<<grid - 1, kBlock>>>(out, sums[0], n);
}

static void scan_omp(const unsigned *in, unsigned *out, unsigned n, int parts) {
  std::vector<unsigned> offset(parts + 1, 0);
  // Part p is [edge(p), edge(p + 1)).
  auto edge = [&](int p) { return (unsigned)((uint64_t)n * p / parts); };
#pragma omp parallel for schedule(static)
  for (int p = 0; p < parts; p++) {
    unsigned s = 0, hi = edge(p + 1);
    for (unsigned i = edge(p); i < hi; i++)
      out[i] = s += in[i];
    offset[p + 1] = s;
  }
  for (int p = 1; p <= parts; p++)
    offset[p] += offset[p - 1];
#pragma omp parallel for schedule(static)
  for (int p = 1; p < parts; p++) {
    unsigned add = offset[p], hi = edge(p + 1);
    for (unsigned i = edge(p); i < hi; i++)
      out[i] += add;
  }
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "scan");
  const unsigned n = c.gpu ? 1u << 26 : 1u << 20;
  const unsigned grid1 = (n + kBlock - 1) / kBlock;
  std::vector<unsigned> in(n), want(n), got(n);
  std::vector<unsigned *> sums;
  unsigned *din, *dout;

  for (unsigned i = 0; i < n; i++)
    in[i] = bench::hash(i) >> 8;
  BENCH_HIP(hipMalloc((void **)&din, n * sizeof(unsigned)));
  BENCH_HIP(hipMalloc((void **)&dout, n * sizeof(unsigned)));
  for (unsigned m = grid1; m > 1; m = (m + kBlock - 1) / kBlock) {
    sums.push_back(nullptr);
    BENCH_HIP(hipMalloc((void **)&sums.back(), m * sizeof(unsigned)));
  }
  BENCH_HIP(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));

  auto run = [&] { scan(din, dout, n, sums.data()); };
  run();
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipMemcpy(got.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  scan_omp(in.data(), want.data(), n, c.threads);
  bench::check_equal(c, "scan", got.data(), want.data(), n);

  if (c.gpu) {
    // Bytes: the block scan reads and writes every element, the add-back again.
    bench::gpu_row("scan block-sums", bench::event_ms(c, run), 4.0 * n * sizeof(unsigned));
  } else {
    long long f0 = bench::fibers_created();
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { scan_omp(in.data(), want.data(), n, c.threads); });
    bench::fiber_note("scan (first level)", f0, bench::fibers_created(), c.runs(), grid1);
    bench::row(c, "block scan, Hillis-Steele + block sums, 1M uints", t.first, t.second);
  }
  BENCH_HIP(hipFree(din));
  BENCH_HIP(hipFree(dout));
  for (unsigned *s : sums)
    BENCH_HIP(hipFree(s));
  return 0;
}
