// SPDX-License-Identifier: MIT
// hipCUB's device-wide algorithms (hipcub/hipcub.hpp) on large arrays, each
// beside a plain baseline: DeviceReduce::Sum of 16M ints vs an OpenMP
// reduction; DeviceScan::InclusiveSum of 16M ints vs a two-pass OpenMP scan
// (per-thread sums, then per-thread rescans); DeviceRadixSort::SortKeys of 4M
// 32-bit keys vs std::sort (one thread, as the issue's target names it) and
// vs an OpenMP-parallel sort of per-thread halves merged (std::inplace_merge).
// Issue 9's target: hipCUB within 3x of the baseline on 2 cores.
#include "common/bench.hpp"

#ifndef ANYHIP_BENCH_NATIVE_CUB // bench/cuda/hipcub.cu: CUB itself
#include <hipcub/hipcub.hpp>
#endif

#include <algorithm>

static void scan_omp(const int *in, int *out, size_t n) {
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  std::vector<long long> part(threads + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    size_t b = n * t / threads, e = n * (t + 1) / threads;
    int s = 0;
    for (size_t i = b; i < e; i++)
      s += in[i];
    part[t + 1] = s;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= threads; k++)
      part[k] += part[k - 1];
    int run = (int)part[t];
    for (size_t i = b; i < e; i++) {
      run += in[i];
      out[i] = run;
    }
  }
}

static void sort_omp(std::vector<unsigned> &v) {
  size_t mid = v.size() / 2;
#pragma omp parallel sections
  {
#pragma omp section
    std::sort(v.begin(), v.begin() + mid);
#pragma omp section
    std::sort(v.begin() + mid, v.end());
  }
  std::inplace_merge(v.begin(), v.begin() + mid, v.end());
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "hipcub");
  const size_t n = c.gpu ? (size_t)1 << 26 : (size_t)1 << 24;
  const size_t ns = c.gpu ? (size_t)1 << 26 : (size_t)1 << 22;
  std::vector<int> in(n), got(n), want(n);
  for (size_t i = 0; i < n; i++)
    in[i] = (int)(bench::hash((uint32_t)i) % 201) - 100;
  int *din, *dout;
  BENCH_HIP(hipMalloc((void **)&din, n * sizeof(int)));
  BENCH_HIP(hipMalloc((void **)&dout, n * sizeof(int)));
  BENCH_HIP(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));

  // Reduce.
  size_t bytes = 0;
  BENCH_HIP(hipcub::DeviceReduce::Sum(nullptr, bytes, din, dout, (int)n));
  void *temp;
  BENCH_HIP(hipMalloc(&temp, bytes));
  auto reduce = [&] { BENCH_HIP(hipcub::DeviceReduce::Sum(temp, bytes, din, dout, (int)n)); };
  reduce();
  int sum = 0;
  BENCH_HIP(hipMemcpy(&sum, dout, sizeof(int), hipMemcpyDeviceToHost));
  long long want_sum = 0;
  for (size_t i = 0; i < n; i++)
    want_sum += in[i];
  if (sum != (int)want_sum)
    bench::fail("hipcub", "DeviceReduce::Sum differs from the host's sum");
  BENCH_HIP(hipFree(temp));

  // Scan.
  BENCH_HIP(hipcub::DeviceScan::InclusiveSum(nullptr, bytes, din, dout, (int)n));
  BENCH_HIP(hipMalloc(&temp, bytes));
  auto scan = [&] { BENCH_HIP(hipcub::DeviceScan::InclusiveSum(temp, bytes, din, dout, (int)n)); };
  scan();
  BENCH_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  scan_omp(in.data(), want.data(), n);
  bench::check_equal(c, "DeviceScan::InclusiveSum", got.data(), want.data(), n);
  BENCH_HIP(hipFree(temp));

  // Radix sort.
  std::vector<unsigned> keys(ns), sorted(ns), base(ns);
  for (size_t i = 0; i < ns; i++)
    keys[i] = bench::hash((uint32_t)i * 2654435761u);
  unsigned *dk, *dko;
  BENCH_HIP(hipMalloc((void **)&dk, ns * sizeof(unsigned)));
  BENCH_HIP(hipMalloc((void **)&dko, ns * sizeof(unsigned)));
  BENCH_HIP(hipMemcpy(dk, keys.data(), ns * sizeof(unsigned), hipMemcpyHostToDevice));
  BENCH_HIP(hipcub::DeviceRadixSort::SortKeys(nullptr, bytes, dk, dko, (int)ns));
  BENCH_HIP(hipMalloc(&temp, bytes));
  auto sort = [&] { BENCH_HIP(hipcub::DeviceRadixSort::SortKeys(temp, bytes, dk, dko, (int)ns)); };
  sort();
  BENCH_HIP(hipMemcpy(sorted.data(), dko, ns * sizeof(unsigned), hipMemcpyDeviceToHost));
  base = keys;
  std::sort(base.begin(), base.end());
  bench::check_equal(c, "DeviceRadixSort::SortKeys", sorted.data(), base.data(), ns);

  if (c.gpu) {
    bench::gpu_row("hipcub DeviceReduce::Sum", bench::event_ms(c, reduce), n * sizeof(int));
    bench::gpu_row("hipcub DeviceScan::InclusiveSum", bench::event_ms(c, scan),
                   2.0 * n * sizeof(int));
    bench::gpu_row("hipcub DeviceRadixSort::SortKeys", bench::event_ms(c, sort),
                   8.0 * ns * sizeof(unsigned));
  } else {
    auto t = bench::time_pair(
        c,
        [&] {
          reduce();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] {
          long long s = 0;
#pragma omp parallel for reduction(+ : s)
          for (long long i = 0; i < (long long)n; i++)
            s += in[i];
          want_sum = s;
        });
    bench::row(c, "hipCUB DeviceReduce::Sum, 16M ints", t.first, t.second);
    t = bench::time_pair(
        c,
        [&] {
          scan();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] { scan_omp(in.data(), want.data(), n); });
    bench::row(c, "hipCUB DeviceScan::InclusiveSum, 16M ints", t.first, t.second);
    t = bench::time_pair(
        c,
        [&] {
          sort();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] {
          base = keys;
          std::sort(base.begin(), base.end());
        });
    bench::row(c, "hipCUB DeviceRadixSort::SortKeys, 4M uints (vs std::sort)", t.first, t.second);
    t = bench::time_pair(
        c,
        [&] {
          sort();
          BENCH_HIP(hipDeviceSynchronize());
        },
        [&] {
          base = keys;
          sort_omp(base);
        });
    bench::row(c, "hipCUB DeviceRadixSort::SortKeys, 4M uints (vs OpenMP halves + merge)", t.first,
               t.second);
  }
  BENCH_HIP(hipFree(temp));
  BENCH_HIP(hipFree(din));
  BENCH_HIP(hipFree(dout));
  BENCH_HIP(hipFree(dk));
  BENCH_HIP(hipFree(dko));
  return 0;
}
