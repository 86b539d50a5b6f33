// SPDX-License-Identifier: MIT
// __launch_bounds__ is enforced (ROCm's unit suite, hipLaunchBounds.cc and
// launch_bounds.cc): hipcc records a kernel's maximum threads per block when
// it registers the kernel, and a launch of a larger block fails with
// hipErrorLaunchFailure, as on AMD's runtime, and runs nothing. Up to the
// bound, launches run; hipFuncGetAttributes reports the bound as the
// kernel's maxThreadsPerBlock. The bound may be a constant of the kernel's
// namespace, and may be on another declaration than the definition.
#include "engine_test.h"

namespace lb {
constexpr int kMax = 128;

__launch_bounds__(kMax, 2) __global__ void add_ns(int *sum) { atomicAdd(sum, 1); }
} // namespace lb

__global__ void __launch_bounds__(64) add64(int *sum) { atomicAdd(sum, 1); }

__global__ void __launch_bounds__(32 * 3) add_declared(int *sum);
__global__ void add_declared(int *sum) { atomicAdd(sum, 1); }

__global__ void add_free(int *sum) { atomicAdd(sum, 1); }

static int *d_sum;

static int read_reset() {
  int h = -1, zero = 0;
  CHECK_HIP(hipMemcpy(&h, d_sum, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(d_sum, &zero, sizeof(int), hipMemcpyHostToDevice));
  return h;
}

int main() {
  hipFuncAttributes a;
  int max_block = 0;

  CHECK_HIP(hipMalloc((void **)&d_sum, sizeof(int)));
  CHECK_HIP(hipMemset(d_sum, 0, sizeof(int)));
  CHECK_HIP(hipDeviceGetAttribute(&max_block, hipDeviceAttributeMaxThreadsPerBlock, 0));

  // Up to the bound: runs.
  add64<<<2, 64>>>(d_sum);
  CHECK_HIP(hipGetLastError());
  add64<<<2, dim3(8, 4, 2)>>>(d_sum);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(read_reset(), 256);

  // Past it, counting all three dimensions: refused, nothing runs.
  add64<<<2, 65>>>(d_sum);
  CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure);
  add64<<<1, dim3(8, 3, 3)>>>(d_sum);
  CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure);
  add_declared<<<1, 97>>>(d_sum);
  CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure);
  lb::add_ns<<<1, 129>>>(d_sum);
  CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure);
  {
    void *args[] = {&d_sum};
    CHECK_ERR(hipLaunchKernel((const void *)add64, dim3(1), dim3(128), args, 0, nullptr),
              hipErrorLaunchFailure);
    CHECK_HIP(hipLaunchKernel((const void *)lb::add_ns, dim3(1), dim3(128), args, 0, nullptr));
  }
  // A zero block is the configuration error it always was.
  add64<<<1, 0>>>(d_sum);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidConfiguration);
  add_declared<<<1, 96>>>(d_sum);
  add_free<<<1, max_block>>>(d_sum);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(read_reset(), 128 + 96 + max_block);

  CHECK_HIP(hipFuncGetAttributes(&a, (const void *)add64));
  CHECK_EQ(a.maxThreadsPerBlock, 64);
  CHECK_HIP(hipFuncGetAttributes(&a, (const void *)lb::add_ns));
  CHECK_EQ(a.maxThreadsPerBlock, 128);
  CHECK_HIP(hipFuncGetAttributes(&a, (const void *)add_declared));
  CHECK_EQ(a.maxThreadsPerBlock, 96);
  CHECK_HIP(hipFuncGetAttributes(&a, (const void *)add_free));
  CHECK_EQ(a.maxThreadsPerBlock, max_block);
  CHECK_HIP(hipFree(d_sum));
  std::printf("launch bounds: passed\n");
  return AH_PASS;
}
