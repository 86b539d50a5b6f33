// SPDX-License-Identifier: MIT
// hipLaunchKernelGGL with its whole configuration from one macro, as HIP's
// variadic macro allows (hip-tests' hipLaunchParm.cc does this), with and
// without kernel arguments and for a template kernel. Prints PASSED.
#include <hip/hip_runtime.h>

#include "check.h"

#define KERNEL_CONFIG dim3(4), dim3(64), 0, 0
#define GRID_BLOCK dim3(1), dim3(1)

__global__ void fill(int *p, int v) {
  p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void mark(int *p) {
  p[0] = 7;
}

template <typename T> __global__ void add(T *p, T v) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += v;
}

int *g_flag;
__global__ void no_args() {}

int main() {
  int *d, h[256];

  CHECK(hipMalloc(&d, sizeof(h)));
  hipLaunchKernelGGL(fill, KERNEL_CONFIG, d, 3);
  hipLaunchKernelGGL(add<int>, KERNEL_CONFIG, d, 2);
  hipLaunchKernelGGL(mark, GRID_BLOCK, 0, 0, d);
  hipLaunchKernelGGL(no_args, KERNEL_CONFIG);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[0] == 7);
  for (int i = 1; i < 256; i++)
    EXPECT(h[i] == 5);
  CHECK(hipFree(d));
  std::printf("PASSED\n");
  return 0;
}
