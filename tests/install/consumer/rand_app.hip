// SPDX-License-Identifier: MIT
// hipRAND's host API and hipCUB from an installed anyhip, through
// find_package(hiprand) / find_package(hipcub) and hip::hiprand, hip::hipcub:
// the mean of 64K uniform floats (Philox), summed by DeviceReduce::Sum.
#include <hipcub/hipcub.hpp>
#include <hiprand/hiprand.h>

#include <cmath>
#include <cstdio>

int main() {
  const int n = 1 << 16;
  float *d, *sum;
  if (hipMalloc(&d, n * sizeof(float)) != hipSuccess ||
      hipMalloc(&sum, sizeof(float)) != hipSuccess)
    return 1;
  hiprandGenerator_t g;
  if (hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_PHILOX4_32_10) != HIPRAND_STATUS_SUCCESS ||
      hiprandGenerateUniform(g, d, n) != HIPRAND_STATUS_SUCCESS)
    return 1;
  hiprandDestroyGenerator(g);
  void *temp = nullptr;
  size_t bytes = 0;
  if (hipcub::DeviceReduce::Sum(temp, bytes, d, sum, n) != hipSuccess ||
      hipMalloc(&temp, bytes) != hipSuccess ||
      hipcub::DeviceReduce::Sum(temp, bytes, d, sum, n) != hipSuccess)
    return 1;
  float h = 0;
  if (hipMemcpy(&h, sum, sizeof h, hipMemcpyDeviceToHost) != hipSuccess)
    return 1;
  double mean = h / n;
  std::printf("rand_app: %s (mean %.4f)\n", std::fabs(mean - 0.5) < 0.01 ? "ok" : "wrong", mean);
  return std::fabs(mean - 0.5) < 0.01 ? 0 : 1;
}
