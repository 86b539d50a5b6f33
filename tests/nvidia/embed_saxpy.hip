// SPDX-License-Identifier: MIT
// The program tests/nvidia/embed_check.sh builds through hipcc's NVIDIA pass:
// SAXPY with a __device__ and a __constant__ variable set from the host, run
// on the current device (the first NVIDIA GPU when there is one, else the CPU
// device) and checked against a CPU loop. Also launches through
// hipLaunchKernel and reads the variables back through their device address.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#define CHECK(c)                                                          \
  do {                                                                    \
    if (!(c)) {                                                           \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #c); \
      return 1;                                                           \
    }                                                                     \
  } while (0)
#define CHECK_HIP(x)                                                                        \
  do {                                                                                      \
    hipError_t e_ = (x);                                                                    \
    if (e_ != hipSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorName(e_)); \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

__device__ float bias = 0.0f;
__constant__ float factors[2];

namespace demo {
__global__ void saxpy(float a, const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    y[i] = a * x[i] + y[i] * factors[1] + bias;
}
} // namespace demo

int main() {
  const unsigned n = 1u << 20;
  const float a = 2.0f, f[2] = {0.0f, 3.0f}, b = 0.5f;
  std::vector<float> x(n), y(n), out(n);
  float *dx, *dy, back = 0.0f, *bias_addr = nullptr;
  size_t bias_size = 0;
  int count = 0, dev;
  hipDeviceProp_t p;

  if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    std::printf("skipped: no device\n");
    return 77;
  }
  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&p, dev));
  std::printf("device %d: %s (%s)\n", dev, p.name, p.gcnArchName);
  for (unsigned i = 0; i < n; i++) {
    x[i] = (float)(i % 1000);
    y[i] = (float)(i % 7);
  }
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(bias), &b, sizeof(b)));
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(factors), f, sizeof(f)));
  CHECK_HIP(hipGetSymbolAddress((void **)&bias_addr, HIP_SYMBOL(bias)));
  CHECK_HIP(hipGetSymbolSize(&bias_size, HIP_SYMBOL(bias)));
  CHECK(bias_addr != nullptr && bias_size == sizeof(float));
  CHECK_HIP(hipMemcpy(&back, bias_addr, sizeof(back), hipMemcpyDeviceToHost));
  CHECK(back == b);

  CHECK_HIP(hipMalloc(&dx, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&dy, n * sizeof(float)));
  CHECK_HIP(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  demo::saxpy<<<(n + 255) / 256, 256>>>(a, dx, dy, n);
  CHECK_HIP(hipGetLastError());
  {
    // The same kernel again through hipLaunchKernel: y = a*x + 3*y + b twice.
    unsigned nn = n;
    void *args[] = {(void *)&a, (void *)&dx, (void *)&dy, (void *)&nn};
    CHECK_HIP(hipLaunchKernel((const void *)demo::saxpy, dim3((n + 255) / 256), dim3(256), args,
                              0, nullptr));
  }
  CHECK_HIP(hipMemcpy(out.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; i++) {
    float once = a * x[i] + y[i] * f[1] + b, twice = a * x[i] + once * f[1] + b;

    if (out[i] != twice) {
      std::fprintf(stderr, "y[%u] = %g, expected %g\n", i, out[i], twice);
      return 1;
    }
  }
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  std::printf("ok\n");
  return 0;
}
