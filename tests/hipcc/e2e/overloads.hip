// SPDX-License-Identifier: MIT
// Overloads a launch must resolve as a call would (hip-tests' atomics and
// cooperative groups do all three): two template kernels of one name whose
// function parameters differ, launched with all template arguments given;
// template arguments partly given, the rest deduced; a host function and a
// kernel of the same name. Prints PASSED.
#include <hip/hip_runtime.h>

#include "check.h"

enum Op { kAdd, kSub };

template <typename T, Op op, bool shared, int scope = 1>
__global__ void TestKernel(T *mem, T *old) {
  old[threadIdx.x] = mem[threadIdx.x];
  mem[threadIdx.x] = op == kAdd ? mem[threadIdx.x] + scope : mem[threadIdx.x] - scope;
}

template <typename T, Op op, bool shared, int scope = 1>
__global__ void TestKernel(T *mem, T *old, int width, int pitch) {
  old[threadIdx.x] = mem[threadIdx.x];
  mem[threadIdx.x] += width * pitch;
}

enum Where { global_memory, shared_memory };

template <Where where, typename T> __global__ void sync_check(T *p, T v) {
  p[threadIdx.x] = where == global_memory ? v : -v;
}

__global__ void same_name(int *p, int v) {
  p[threadIdx.x] = v;
}
int same_name() {
  return 42;
}

int main() {
  int *mem, *old, h[32];

  CHECK(hipMalloc(&mem, sizeof(h)));
  CHECK(hipMalloc(&old, sizeof(h)));
  EXPECT(same_name() == 42);
  same_name<<<1, 32>>>(mem, 10);
  TestKernel<int, kAdd, false, 2><<<1, 32>>>(mem, old);
  TestKernel<int, kSub, true><<<1, 32, 0, nullptr>>>(mem, old);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(TestKernel<int, kAdd, false>), dim3(1), dim3(32), 0, 0,
                     mem, old, 2, 3);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(h, mem, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[3] == 10 + 2 - 1 + 6);
  CHECK(hipMemcpy(h, old, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[3] == 11);
  sync_check<global_memory><<<1, 32>>>(mem, 5);
  sync_check<shared_memory><<<1, 32>>>(old, 4);
  CHECK(hipMemcpy(h, mem, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[31] == 5);
  CHECK(hipMemcpy(h, old, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[0] == -4);
  CHECK(hipFree(mem));
  CHECK(hipFree(old));
  std::printf("PASSED\n");
  return 0;
}
