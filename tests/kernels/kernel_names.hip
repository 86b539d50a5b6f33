// SPDX-License-Identifier: MIT
// Kernel names for callback/activity code: hipKernelNameRefByPtr names a
// kernel by its host function, hipKernelNameRef by the handle
// hipGetFuncBySymbol gives; both are the kernel's mangled symbol, which the
// reference here is (a C++ kernel's name holds its identifier, an extern "C"
// kernel's is the identifier itself). The kernels run too, and
// hipGetStreamDeviceId names the device of the stream they ran on.
#include "engine_test.h"

#include <string.h>

__global__ void scale_by(float *a, float k) { a[threadIdx.x] *= k; }
extern "C" __global__ void plain_c_kernel(int *a) { a[threadIdx.x] = threadIdx.x; }

static int run() {
  hipStream_t s;
  CHECK_HIP(hipStreamCreate(&s));
  const char *n1 = hipKernelNameRefByPtr((const void *)scale_by, s);
  CHECK(n1 != nullptr && strstr(n1, "scale_by") != nullptr);
  const char *n2 = hipKernelNameRefByPtr((const void *)plain_c_kernel, s);
  CHECK(n2 != nullptr && strcmp(n2, "plain_c_kernel") == 0);
  hipFunction_t f;
  CHECK_HIP(hipGetFuncBySymbol(&f, (const void *)scale_by));
  const char *n3 = hipKernelNameRef(f);
  CHECK(n3 != nullptr && strcmp(n3, n1) == 0);
  // Not a kernel, and a bad stream: NULL.
  CHECK(hipKernelNameRefByPtr((const void *)run, s) == nullptr);
  CHECK(hipKernelNameRefByPtr((const void *)scale_by, (hipStream_t)&s) == nullptr);
  CHECK(hipGetLastError() != hipSuccess);

  float *a;
  int *b;
  CHECK_HIP(hipMalloc(&a, 64 * sizeof(float)));
  CHECK_HIP(hipMalloc(&b, 64 * sizeof(int)));
  float ones[64];
  for (int i = 0; i < 64; i++)
    ones[i] = 1.5f;
  CHECK_HIP(hipMemcpy(a, ones, sizeof(ones), hipMemcpyHostToDevice));
  scale_by<<<1, 64, 0, s>>>(a, 2.0f);
  plain_c_kernel<<<1, 64, 0, s>>>(b);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipStreamSynchronize(s));
  int dev = -1;
  CHECK_HIP(hipGetDevice(&dev));
  CHECK_EQ(hipGetStreamDeviceId(s), dev);
  float back[64];
  int ib[64];
  CHECK_HIP(hipMemcpy(back, a, sizeof(back), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(ib, b, sizeof(ib), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) {
    CHECK_EQ(back[i], 3.0f);
    CHECK_EQ(ib[i], i);
  }
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipFree(b));
  CHECK_HIP(hipStreamDestroy(s));
  printf("kernel_names: %s, %s\n", n1, n2);
  return AH_PASS;
}

int main() { return run(); }
