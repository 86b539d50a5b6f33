// SPDX-License-Identifier: MIT
// Kernels launched by address, which needs them registered: template
// specialisations (HIP registers every instantiated kernel) through
// (const void *)k<T>, reinterpret_cast<const void *>(&k<T>) and in a
// function template, given to hipLaunchKernel, hipLaunchCooperativeKernel
// and hipFuncGetAttributes; non-template kernels whose name is overloaded or
// is also a template's. Prints PASSED.
#include <hip/hip_runtime.h>

#include "check.h"

namespace ns {
template <typename T> __global__ void axpy(T a, const T *x, T *y) {
  y[threadIdx.x] += a * x[threadIdx.x];
}
} // namespace ns

template <typename T, int N> __global__ void add_n(T *y) {
  y[threadIdx.x] += N;
}

__global__ void mixed(int *y, int v) {
  y[threadIdx.x] = v;
}
template <typename T> __global__ void mixed(T *y) {
  y[threadIdx.x] = 0;
}

__global__ void over(int *y) {
  y[threadIdx.x] += 100;
}
__global__ void over(float *y, float v = 1) {
  y[threadIdx.x] += v;
}

template <typename T> hipError_t add_n_launch(T *y) {
  void *args[] = {&y};

  return hipLaunchCooperativeKernel(reinterpret_cast<const void *>(&add_n<T, 3>), dim3(1),
                                    dim3(32), args, 0, nullptr);
}

int main() {
  float *x, *y, hx[32], hy[32], a = 2;
  int *d, hd[32];
  hipFuncAttributes attr;

  for (int i = 0; i < 32; i++)
    hx[i] = i, hy[i] = 1;
  CHECK(hipMalloc(&x, sizeof(hx)));
  CHECK(hipMalloc(&y, sizeof(hy)));
  CHECK(hipMalloc(&d, sizeof(hd)));
  CHECK(hipMemcpy(x, hx, sizeof(hx), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(y, hy, sizeof(hy), hipMemcpyHostToDevice));
  {
    void *args[] = {&a, &x, &y};

    CHECK(hipFuncGetAttributes(&attr, (const void *)ns::axpy<float>));
    CHECK(hipLaunchKernel((const void *)ns::axpy<float>, dim3(1), dim3(32), args, 0, nullptr));
  }
  CHECK(add_n_launch(y));
  CHECK(hipMemcpy(hy, y, sizeof(hy), hipMemcpyDeviceToHost));
  for (int i = 0; i < 32; i++)
    EXPECT(hy[i] == 1 + 2 * i + 3);
  {
    int v = 7;
    void *args[] = {&d, &v};
    void *args1[] = {&d};

    CHECK(hipLaunchKernel(reinterpret_cast<const void *>(static_cast<void (*)(int *, int)>(mixed)),
                          dim3(1), dim3(32), args, 0, nullptr));
    CHECK(hipLaunchKernel(reinterpret_cast<const void *>(static_cast<void (*)(int *)>(over)),
                          dim3(1), dim3(32), args1, 0, nullptr));
  }
  CHECK(hipMemcpy(hd, d, sizeof(hd), hipMemcpyDeviceToHost));
  EXPECT(hd[5] == 107);
  CHECK(hipFree(x));
  CHECK(hipFree(y));
  CHECK(hipFree(d));
  std::printf("PASSED\n");
  return 0;
}
