// SPDX-License-Identifier: MIT
// Times the parts of hipCUB's GPU radix sort (include/hipcub/device_gpu.hpp) on 64M
// random uint32 keys, and the scan, beside a 256 MB device-to-device copy:
//   build/bin/hipcc -O2 --offload-arch=sm_90 -o parts bench/hipcub_parts.hip
//   ANYHIP_DEVICES=nvidia ./parts
// Not one of bench/run.sh's programs (it has no CUB twin).
#include <hipcub/hipcub.hpp>
#include <cstdio>
#include <vector>
using namespace hipcub::detail;
#define CK(e) do { hipError_t x = (e); if (x) { printf("%s: %s\n", #e, hipGetErrorString(x)); return 1; } } while (0)
template <typename F> float ms(F f, int reps = 20) {
  hipEvent_t a, b; hipEventCreate(&a); hipEventCreate(&b);
  f(); hipDeviceSynchronize();
  hipEventRecord(a, 0);
  for (int i = 0; i < reps; i++) f();
  hipEventRecord(b, 0); hipEventSynchronize(b);
  float t; hipEventElapsedTime(&t, a, b); return t / reps;
}
int main() {
  const size_t n = (size_t)1 << 26;
  std::vector<unsigned> h(n);
  unsigned s = 1;
  for (auto &x : h) { s = s * 1664525u + 1013904223u; x = s ^ (s >> 13); }
  unsigned *k, *o, *counts; void *status;
  CK(hipMalloc(&k, n * 4)); CK(hipMalloc(&o, n * 4));
  CK(hipMemcpy(k, h.data(), n * 4, hipMemcpyHostToDevice));
  size_t cb, sb; radix_gpu_sizes<unsigned, char>(n, 4, cb, sb);
  CK(hipMalloc(&counts, cb)); CK(hipMalloc(&status, sb));
  printf("status bytes %zu\n", sb);
  printf("memset status: %.3f ms\n", ms([&] { hipMemsetAsync(status, 0, sb, 0); }));
  size_t hb = div_up(n, (size_t)GPU_BLOCK * 16), most = (size_t)sm_count() * HIPCUB_GPU_HIST_BLOCKS_PER_SM;
  printf("hist: %.3f ms\n", ms([&] {
    hipMemsetAsync(counts, 0, cb, 0);
    hipLaunchKernelGGL((radix_gpu_hist<unsigned>), dim3((unsigned)(hb < most ? hb : most)), dim3(GPU_BLOCK), 0, 0,
                       (const unsigned *)k, n, 0, 32, 4, false, counts); }));
  const size_t tile = (size_t)GPU_BLOCK * sort_items<unsigned, char>();
  unsigned tiles = (unsigned)div_up(n, tile);
  for (int pass = 0; pass < 4; pass++)
    printf("pass %d (memset + kernel): %.3f ms\n", pass, ms([&] {
      hipMemsetAsync(status, 0, sb, 0);
      hipMemsetAsync(counts + 4 * 256 + pass, 0, 4, 0);
      hipLaunchKernelGGL((radix_gpu_pass<unsigned, char, false, unsigned>), dim3(tiles), dim3(GPU_BLOCK), 0, 0,
                         (const unsigned *)k, o, (const char *)nullptr, (char *)nullptr, n,
                         (const unsigned *)(counts + pass * 256), (unsigned *)status, counts + 4 * 256 + pass,
                         pass * 8, 8, false); }));
  size_t bytes = 0; void *temp;
  hipcub::DeviceRadixSort::SortKeys(nullptr, bytes, k, o, (int)n);
  CK(hipMalloc(&temp, bytes));
  printf("SortKeys: %.3f ms\n", ms([&] { hipcub::DeviceRadixSort::SortKeys(temp, bytes, k, o, (int)n); }));
  int *si = (int *)k, *so = (int *)o;
  hipcub::DeviceScan::InclusiveSum(nullptr, bytes, si, so, (int)n);
  void *t2; CK(hipMalloc(&t2, bytes));
  printf("InclusiveSum: %.3f ms\n", ms([&] { hipcub::DeviceScan::InclusiveSum(t2, bytes, si, so, (int)n); }));
  printf("memcpy D2D 256MB: %.3f ms\n", ms([&] { hipMemcpyAsync(o, k, n * 4, hipMemcpyDeviceToDevice, 0); }));
  CK(hipDeviceSynchronize());
  return 0;
}
