// SPDX-License-Identifier: MIT
// Calls a kernel defined in kernels.hip, with a chevron launch and by address
// through hipLaunchKernel, and a C helper from helper.c. Prints PASSED.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void axpy(int a, const int *x, int *y, int n); // in kernels.hip
extern "C" int helper_factor(void);                      // in helper.c

#define CHECK(x)                                                                   \
  do {                                                                             \
    hipError_t e_ = (x);                                                           \
    if (e_ != hipSuccess) {                                                        \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorName(e_)); \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

int main() {
  const int n = 300;
  int x[n], y[n], *dx, *dy, a = helper_factor(), nn = n;
  void *args[] = {&a, &dx, &dy, &nn};

  for (int i = 0; i < n; i++) {
    x[i] = i;
    y[i] = 1;
  }
  CHECK(hipMalloc(&dx, sizeof(x)));
  CHECK(hipMalloc(&dy, sizeof(y)));
  CHECK(hipMemcpy(dx, x, sizeof(x), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dy, y, sizeof(y), hipMemcpyHostToDevice));
  axpy<<<(n + 63) / 64, 64>>>(a, dx, dy, n);
  CHECK(hipGetLastError());
  CHECK(hipLaunchKernel(reinterpret_cast<const void *>(&axpy), dim3(5), dim3(64), args, 0,
                        nullptr));
  CHECK(hipMemcpy(y, dy, sizeof(y), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    if (y[i] != 1 + 2 * a * i) {
      std::printf("element %d is %d, expected %d\n", i, y[i], 1 + 2 * a * i);
      return 1;
    }
  }
  CHECK(hipFree(dx));
  CHECK(hipFree(dy));
  std::printf("PASSED\n");
  return 0;
}
