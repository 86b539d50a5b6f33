// SPDX-License-Identifier: MIT
// hipMemcpy host-to-device, device-to-host and device-to-device, each timed
// to completion (hipMemcpy, then hipDeviceSynchronize). On the CPU device the
// host side is pageable memory and the baseline is the same copy done by
// OpenMP threads, one memcpy per thread over equal chunks. On a GPU the host
// side is pageable and pinned (hipHostMalloc), beside native CUDA.
#include "common/bench.hpp"

static void memcpy_omp(void *dst, const void *src, size_t bytes) {
  const int parts = bench::cpu_threads();
#pragma omp parallel for schedule(static, 1)
  for (int p = 0; p < parts; p++) {
    size_t begin = bytes * p / parts, end = bytes * (p + 1) / parts;
    std::memcpy((char *)dst + begin, (const char *)src + begin, end - begin);
  }
}

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "memcpy");
  const size_t bytes = c.gpu ? (size_t)256 << 20 : (size_t)64 << 20;
  const size_t words = bytes / sizeof(uint32_t);
  uint32_t *pageable = (uint32_t *)std::malloc(bytes);
  uint32_t *back = (uint32_t *)std::malloc(bytes);
  uint32_t *pinned = nullptr, *d1, *d2;

  if (pageable == nullptr || back == nullptr)
    bench::fail(c.program, "out of host memory");
  for (size_t i = 0; i < words; i++)
    pageable[i] = bench::hash((uint32_t)i);
  std::memset(back, 0, bytes);
  BENCH_HIP(hipMalloc((void **)&d1, bytes));
  BENCH_HIP(hipMalloc((void **)&d2, bytes));
  if (c.gpu) {
    BENCH_HIP(hipHostMalloc((void **)&pinned, bytes, hipHostMallocDefault));
    std::memcpy(pinned, pageable, bytes);
  }

  // Checked once: host -> d1 -> d2 -> host gives back the input.
  BENCH_HIP(hipMemcpy(d1, pageable, bytes, hipMemcpyHostToDevice));
  BENCH_HIP(hipMemcpy(d2, d1, bytes, hipMemcpyDeviceToDevice));
  BENCH_HIP(hipMemcpy(back, d2, bytes, hipMemcpyDeviceToHost));
  bench::check_equal(c, "round trip", back, pageable, words);

  auto copy = [&](void *dst, const void *src, hipMemcpyKind kind) {
    return bench::time_ms(c, [&] {
      BENCH_HIP(hipMemcpy(dst, src, bytes, kind));
      BENCH_HIP(hipDeviceSynchronize());
    });
  };
  if (c.gpu) {
    bench::gpu_row("memcpy H2D pageable", copy(d1, pageable, hipMemcpyHostToDevice), bytes);
    bench::gpu_row("memcpy D2H pageable", copy(back, d1, hipMemcpyDeviceToHost), bytes);
    bench::gpu_row("memcpy H2D pinned", copy(d1, pinned, hipMemcpyHostToDevice), bytes);
    bench::gpu_row("memcpy D2H pinned", copy(pinned, d1, hipMemcpyDeviceToHost), bytes);
    bench::gpu_row("memcpy D2D", copy(d2, d1, hipMemcpyDeviceToDevice), bytes);
    BENCH_HIP(hipHostFree(pinned));
  } else {
    struct {
      const char *name;
      void *dst;
      const void *src;
      hipMemcpyKind kind;
      void *base_dst;
    } rows[] = {
        {"hipMemcpy host-to-device, 64 MiB", d1, pageable, hipMemcpyHostToDevice, back},
        {"hipMemcpy device-to-host, 64 MiB", back, d1, hipMemcpyDeviceToHost, back},
        {"hipMemcpy device-to-device, 64 MiB", d2, d1, hipMemcpyDeviceToDevice, back},
    };
    for (auto &r : rows) {
      auto t = bench::time_pair(
          c,
          [&] {
            BENCH_HIP(hipMemcpy(r.dst, r.src, bytes, r.kind));
            BENCH_HIP(hipDeviceSynchronize());
          },
          [&] { memcpy_omp(r.base_dst, pageable, bytes); });
      bench::row(c, r.name, t.first, t.second);
    }
  }
  BENCH_HIP(hipFree(d1));
  BENCH_HIP(hipFree(d2));
  std::free(pageable);
  std::free(back);
  return 0;
}
