// SPDX-License-Identifier: MIT
// hipMemcpyPeerAsync of 256 MiB between devices 0 and 1, both directions,
// with peer access enabled and without, event-timed on a stream of the
// source device (hipDeviceEnablePeerAccess lets the copy go over the link;
// without it the runtime stages it). GPU mode (--gpu) on two or more
// devices, beside the same source built as native CUDA; with fewer devices,
// or on the CPU device, it says so and exits 0.
#include "common/bench.hpp"

int main(int argc, char **argv) {
  bench::Config c(argc, argv, "peer_copy");
  int n = 0;
  BENCH_HIP(hipGetDeviceCount(&n));
  if (!c.gpu || n < 2) {
    std::printf("# peer_copy: needs --gpu and two devices (%d here); skipped\n", n);
    return 0;
  }
  const size_t bytes = (size_t)256 << 20, words = bytes / sizeof(uint32_t);
  uint32_t *buf[2], *host = (uint32_t *)std::malloc(bytes), *back = (uint32_t *)std::malloc(bytes);
  hipStream_t stream[2];
  if (host == nullptr || back == nullptr)
    bench::fail(c.program, "out of host memory");
  for (size_t i = 0; i < words; i++)
    host[i] = bench::hash((uint32_t)i);
  for (int d = 0; d < 2; d++) {
    BENCH_HIP(hipSetDevice(d));
    BENCH_HIP(hipMalloc((void **)&buf[d], bytes));
    BENCH_HIP(hipStreamCreate(&stream[d]));
  }
  int can01 = 0, can10 = 0;
  BENCH_HIP(hipDeviceCanAccessPeer(&can01, 0, 1));
  BENCH_HIP(hipDeviceCanAccessPeer(&can10, 1, 0));

  // One direction, timed by events of the source device's stream.
  auto copy_ms = [&](int src, int dst) {
    hipEvent_t start, stop;
    std::vector<double> t;
    BENCH_HIP(hipSetDevice(src));
    BENCH_HIP(hipEventCreate(&start));
    BENCH_HIP(hipEventCreate(&stop));
    for (int i = 0; i <= c.reps(); i++) { // the first is a warm-up
      float ms = 0;
      BENCH_HIP(hipEventRecord(start, stream[src]));
      BENCH_HIP(hipMemcpyPeerAsync(buf[dst], dst, buf[src], src, bytes, stream[src]));
      BENCH_HIP(hipEventRecord(stop, stream[src]));
      BENCH_HIP(hipEventSynchronize(stop));
      BENCH_HIP(hipEventElapsedTime(&ms, start, stop));
      if (i > 0)
        t.push_back(ms);
    }
    BENCH_HIP(hipEventDestroy(start));
    BENCH_HIP(hipEventDestroy(stop));
    return bench::median(t);
  };
  // Checked each way: host -> src -> dst -> host gives back the input.
  auto check = [&](int src, int dst, const char *what) {
    BENCH_HIP(hipSetDevice(src));
    BENCH_HIP(hipMemcpy(buf[src], host, bytes, hipMemcpyHostToDevice));
    BENCH_HIP(hipMemcpyPeer(buf[dst], dst, buf[src], src, bytes));
    BENCH_HIP(hipSetDevice(dst));
    BENCH_HIP(hipMemcpy(back, buf[dst], bytes, hipMemcpyDeviceToHost));
    bench::check_equal(c, what, back, host, words);
    std::memset(back, 0, bytes);
  };

  check(0, 1, "peer copy 0 -> 1, no peer access");
  check(1, 0, "peer copy 1 -> 0, no peer access");
  bench::gpu_row("peer copy 0->1, no peer access", copy_ms(0, 1), bytes);
  bench::gpu_row("peer copy 1->0, no peer access", copy_ms(1, 0), bytes);
  if (can01 && can10) {
    BENCH_HIP(hipSetDevice(0));
    BENCH_HIP(hipDeviceEnablePeerAccess(1, 0));
    BENCH_HIP(hipSetDevice(1));
    BENCH_HIP(hipDeviceEnablePeerAccess(0, 0));
    check(0, 1, "peer copy 0 -> 1, peer access");
    check(1, 0, "peer copy 1 -> 0, peer access");
    bench::gpu_row("peer copy 0->1, peer access", copy_ms(0, 1), bytes);
    bench::gpu_row("peer copy 1->0, peer access", copy_ms(1, 0), bytes);
  } else {
    std::printf("# peer_copy: devices 0 and 1 cannot access each other: no peer-access rows\n");
  }
  for (int d = 0; d < 2; d++) {
    BENCH_HIP(hipSetDevice(d));
    BENCH_HIP(hipStreamDestroy(stream[d]));
    BENCH_HIP(hipFree(buf[d]));
  }
  std::free(host);
  std::free(back);
  return 0;
}
