// SPDX-License-Identifier: MIT
// Static __shared__ memory per kernel (issue 15 item 8): anyhip's kernel
// compiler records the bytes of the __shared__ variables each kernel uses
// (its own and those of the __device__ functions it calls), so that a launch
// whose static plus dynamic shared memory is over sharedMemPerBlock is
// refused with hipErrorInvalidValue, as on HIP, and hipFuncGetAttributes
// reports sharedSizeBytes. Each array here fits the 64 KiB (hipcc refuses one
// that does not); two together do not. Needs the kernel compiler; CPU device.
#include "engine_test.h"

#if defined(__HIP_PLATFORM_NVIDIA__)
#define WORDS 256 // nvcc's pass: the sizes matter only on the CPU device
#else
#define WORDS (40 * 1024 / 4)
#endif
#define HALF (32 * 1024 / 4)

__device__ int neighbour(int t) {
  __shared__ int h[WORDS]; // a __device__ function's: the kernel's too
  h[t] = t + 1000;
  __syncthreads();
  return h[(t + 1) % blockDim.x];
}

__global__ void two_arrays(int *out) {
  __shared__ int a[WORDS];
  int t = threadIdx.x;
  a[t] = t * 2;
  __syncthreads();
  out[t] = a[(t + 1) % blockDim.x] + neighbour(t);
}

__global__ void half_and_dynamic(int *out) {
  __shared__ int s[HALF];
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  s[t] = t;
  dyn[t] = 3 * t;
  __syncthreads();
  out[t] = s[(t + 1) % blockDim.x] + dyn[(t + 2) % blockDim.x];
}

__global__ void dynamic_only(int *out) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  dyn[t] = t;
  __syncthreads();
  out[t] = dyn[blockDim.x - 1 - t];
}

int main() {
  if (!ah_on_cpu_device())
    SKIP("static shared sizes are checked on the CPU device");
#if !defined(__ANYHIP_KERNEL_COMPILER__)
  SKIP("static shared sizes come from anyhip's kernel compiler");
#endif
  hipDeviceProp_t p;
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  if (p.sharedMemPerBlock != 64 * 1024)
    SKIP("the test's sizes assume 64 KiB of shared memory per block");
  const int n = 64;
  int *d = nullptr, h[n];
  CHECK_HIP(hipMalloc(&d, n * sizeof(int)));

  hipFuncAttributes a;
  CHECK_HIP(hipFuncGetAttributes(&a, reinterpret_cast<const void *>(two_arrays)));
  CHECK_EQ(a.sharedSizeBytes, (size_t)2 * WORDS * sizeof(int));
  CHECK_HIP(hipFuncGetAttributes(&a, reinterpret_cast<const void *>(half_and_dynamic)));
  CHECK_EQ(a.sharedSizeBytes, (size_t)HALF * sizeof(int));
  CHECK_HIP(hipFuncGetAttributes(&a, reinterpret_cast<const void *>(dynamic_only)));
  CHECK_EQ(a.sharedSizeBytes, (size_t)0);

  // 80 KiB of static arrays: refused, with no dynamic bytes at all.
  two_arrays<<<1, n>>>(d);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  void *args[] = {&d};
  CHECK_EQ(hipLaunchKernel(reinterpret_cast<const void *>(two_arrays), dim3(1), dim3(n), args, 0,
                           nullptr),
           hipErrorInvalidValue);
  (void)hipGetLastError();

  // 32 KiB static + 32 KiB dynamic: exactly the limit, runs.
  CHECK_HIP(hipMemset(d, 0, n * sizeof(int)));
  half_and_dynamic<<<1, n, 32 * 1024>>>(d);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int t = 0; t < n; t++)
    CHECK_EQ(h[t], (t + 1) % n + 3 * ((t + 2) % n));
  // One dynamic byte more: refused.
  half_and_dynamic<<<1, n, 32 * 1024 + 4>>>(d);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);

  // No static arrays: the whole 64 KiB is the launch's.
  dynamic_only<<<1, n, 64 * 1024>>>(d);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int t = 0; t < n; t++)
    CHECK_EQ(h[t], n - 1 - t);
  CHECK_HIP(hipFree(d));
  std::printf("passed\n");
  return AH_PASS;
}
