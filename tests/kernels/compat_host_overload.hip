// SPDX-License-Identifier: MIT
// A host function may overload a kernel's name (ROCm's unit suite,
// memory/hipSVMTestSharedAddressSpaceFineGrain.cpp: a host wrapper
// create_linked_lists_on_device(stream, ...) launches the kernel of the same
// name). hipcc's registration then names the kernel by its exact type, and
// the kernel is found by address (hipLaunchKernel) as any other; the
// wrapper's chevron launch still reaches the kernel.
#include "engine_test.h"

__global__ void fill(int *p, int v) { p[blockIdx.x * blockDim.x + threadIdx.x] = v; }

// The host overload, defined after the kernel (as in the suite).
static void fill(hipStream_t s, int *p, int v, int n) { fill<<<n / 4, 4, 0, s>>>(p, v); }

int main() {
  const int n = 8;
  int *d, h[n];
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  fill(nullptr, d, 3, n);
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    CHECK_EQ(h[i], 3);

  int v = 9;
  void *args[] = {&d, &v};
  CHECK_HIP(hipLaunchKernel(reinterpret_cast<const void *>(static_cast<void (*)(int *, int)>(fill)),
                            dim3(2), dim3(4), args, 0, nullptr));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    CHECK_EQ(h[i], 9);
  hipFuncAttributes a;
  CHECK_HIP(hipFuncGetAttributes(&a, reinterpret_cast<const void *>(
                                         static_cast<void (*)(int *, int)>(fill))));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}
