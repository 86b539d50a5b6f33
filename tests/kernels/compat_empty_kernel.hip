// SPDX-License-Identifier: MIT
// A kernel whose body is empty (`{}`) runs no block on the CPU device: ROCm's
// unit suite launches `__global__ void NOPKernel() {}` with grids of
// maxGridSize (2^31 - 1) blocks (module/hipModuleLaunchKernel.cc,
// hipExtModuleLaunchKernel.cc), minutes of empty blocks on a CPU. What must
// still hold: the launch's configuration is checked, it keeps its place in
// its stream, and a kernel with anything between its braces (even only a
// preprocessor line) runs.
#include "engine_test.h"

#include <chrono>

__global__ void nop() {}
__global__ void nop_args(int *, float) {}
__global__ void __launch_bounds__(64) nop_bounded() {}
__global__ void only_directive(int *p) {
#if 1
  p[blockIdx.x] = 1;
#endif
}
__global__ void set(int *p, int v) { p[blockIdx.x] = v; }

int main() {
  int *d;
  CHECK_HIP(hipMalloc(&d, 4 * sizeof(int)));
  CHECK_HIP(hipMemset(d, 0, 4 * sizeof(int)));
  bool cpu = ah_on_cpu_device();

  // 2^31 - 1 empty blocks: done at once, and no block ran.
  unsigned long long before = ah_cpu_blocks();
  auto t0 = std::chrono::steady_clock::now();
  nop<<<dim3(0x7fffffffu), 1>>>();
  CHECK_HIP(hipGetLastError());
  nop_args<<<dim3(1, 65535, 65535), 1>>>(d, 1.0f);
  CHECK_HIP(hipDeviceSynchronize());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (cpu) {
    CHECK(s < 5.0);
    CHECK_EQ(ah_cpu_blocks(), before);
  }

  // The configuration is checked as for any kernel.
  nop<<<1, 2048>>>();
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  nop_bounded<<<1, 128>>>();
  CHECK_ERR(hipGetLastError(), hipErrorLaunchFailure);
  nop_bounded<<<1, 64>>>();
  CHECK_HIP(hipGetLastError());

  // Its place in the stream: work after it waits for work before it.
  hipStream_t st;
  CHECK_HIP(hipStreamCreate(&st));
  set<<<4, 1, 0, st>>>(d, 7);
  nop<<<1000, 1, 0, st>>>();
  hipEvent_t ev;
  CHECK_HIP(hipEventCreate(&ev));
  CHECK_HIP(hipEventRecord(ev, st));
  CHECK_HIP(hipEventSynchronize(ev));
  int h[4];
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    CHECK_EQ(h[i], 7);

  // A body holding only a preprocessor line is not empty: its blocks run.
  before = ah_cpu_blocks();
  only_directive<<<4, 1, 0, st>>>(d);
  CHECK_HIP(hipStreamSynchronize(st));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    CHECK_EQ(h[i], 1);
  if (cpu)
    CHECK_EQ(ah_cpu_blocks(), before + 4);

  CHECK_HIP(hipEventDestroy(ev));
  CHECK_HIP(hipStreamDestroy(st));
  CHECK_HIP(hipFree(d));
  std::printf("empty kernels: %.3f s for 2^31 - 1 + 2^32 - 2^17 + 1 blocks\n", s);
  return AH_PASS;
}
