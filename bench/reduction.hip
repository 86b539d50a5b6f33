// SPDX-License-Identifier: MIT
// Sum of unsigned integers, two ways (the guide's §15.6 variants 4 and 8):
// a shared-memory tree with a __syncthreads per level, and warp shuffles with
// one shared-memory exchange between warps. Each block sums 2*256 inputs and
// the kernel is launched again on the partial sums until one is left.
// Baseline: `#pragma omp parallel for reduction(+:sum)`.
#include "common/bench.hpp"

constexpr unsigned kBlock = 256;

__global__ void reduce_shared(const unsigned *in, unsigned *out, unsigned n) {
  __shared__ unsigned sh[kBlock];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * kBlock) + tid;
  unsigned v = i < n ? in[i] : 0;
  if (i + kBlock < n)
    v += in[i + kBlock];
  sh[tid] = v;
  __syncthreads();
  for (unsigned s = kBlock / 2; s > 0; s >>= 1) {
    if (tid < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sh[0];
}

__device__ unsigned warp_sum(unsigned v) {
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += warp_shfl_down(v, d);
  return v;
}

__global__ void reduce_shuffle(const unsigned *in, unsigned *out, unsigned n) {
  __shared__ unsigned partial[kBlock / 32]; // one per warp, for 32- or 64-wide warps
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * kBlock) + tid;
  unsigned v = i < n ? in[i] : 0;
  if (i + kBlock < n)
    v += in[i + kBlock];
  unsigned lane = tid % warpSize, warp = tid / warpSize;
  v = warp_sum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kBlock / warpSize ? partial[lane] : 0;
    v = warp_sum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

static unsigned sum_omp(const unsigned *in, unsigned n) {
  unsigned sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (unsigned i = 0; i < n; i++)
    sum += in[i];
  return sum;
}

typedef void (*reduce_kernel)(const unsigned *, unsigned *, unsigned);

// Launches k until one value is left; returns where it is (on the device).
static unsigned *reduce(reduce_kernel k, const unsigned *in, unsigned n, unsigned *buf[2]) {
  const unsigned *src = in;
  unsigned *dst = buf[0];
  for (int b = 0; n > 1; b ^= 1) {
    unsigned grid = (n + 2 * kBlock - 1) / (2 * kBlock);
    dst = buf[b];
    k<<<grid, kBlock>>>(src, dst, n);
    src = dst;
    n = grid;
  }
  return dst;
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "reduction");
  const unsigned n = c.gpu ? 1u << 26 : 1u << 18;
  const unsigned grid1 = (n + 2 * kBlock - 1) / (2 * kBlock);
  std::vector<unsigned> in(n);
  unsigned *din, *buf[2];

  for (unsigned i = 0; i < n; i++)
    in[i] = bench::hash(i) >> 8;
  BENCH_HIP(hipMalloc((void **)&din, n * sizeof(unsigned)));
  BENCH_HIP(hipMalloc((void **)&buf[0], grid1 * sizeof(unsigned)));
  BENCH_HIP(hipMalloc((void **)&buf[1], grid1 * sizeof(unsigned)));
  BENCH_HIP(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  const unsigned want = sum_omp(in.data(), n);

  struct {
    const char *name, *key;
    reduce_kernel k;
  } variants[] = {
      {"reduction, shared memory, 256K uints", "reduction shared-memory", reduce_shared},
      {"reduction, shuffles, 256K uints", "reduction shuffles", reduce_shuffle},
  };
  for (auto &v : variants) {
    unsigned got = 0;
    BENCH_HIP(hipMemcpy(&got, reduce(v.k, din, n, buf), sizeof(got), hipMemcpyDeviceToHost));
    bench::check_equal(c, v.key, &got, &want, 1);

    auto run = [&] { reduce(v.k, din, n, buf); };
    if (c.gpu) {
      bench::gpu_row(v.key, bench::event_ms(c, run), (double)n * sizeof(unsigned));
      continue;
    }
    long long f0 = bench::fibers_created();
    volatile unsigned sink = 0;
    auto t = bench::time_pair(
        c,
        [&] {
          run();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { sink = sum_omp(in.data(), n); });
    bench::fiber_note(v.key, f0, bench::fibers_created(), c.runs(), grid1);
    bench::row(c, v.name, t.first, t.second);
  }
  BENCH_HIP(hipFree(din));
  BENCH_HIP(hipFree(buf[0]));
  BENCH_HIP(hipFree(buf[1]));
  return 0;
}
