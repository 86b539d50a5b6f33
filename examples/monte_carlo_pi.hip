// SPDX-License-Identifier: MIT
// Monte Carlo estimate of pi with hipRAND's host API and hipCUB's
// DeviceReduce (docs/libraries.md), as most HIP programs use them: a Philox
// generator fills device memory with 2M uniform floats (1M points), a kernel
// marks the points inside the quarter circle, DeviceReduce::Sum counts them
// (CUB's two calls: the size of the temporary storage, then the sum). Built
// with `hipcc monte_carlo_pi.hip -lhiprand`. Checked two ways: a host
// generator (hiprandCreateGeneratorHost) with the same seed gives the same
// numbers, whose points are counted here (a GPU may fuse multiply-adds, so
// points within 1e-6 of the circle may count either way), and the estimate
// is within 5 standard errors of pi.
#include "common/example_utils.hpp"

#include <hipcub/hipcub.hpp>
#include <hiprand/hiprand.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define RAND_CHECK(expression)                                                                     \
  do {                                                                                             \
    hiprandStatus_t status_ = (expression);                                                        \
    if (status_ != HIPRAND_STATUS_SUCCESS) {                                                       \
      std::fprintf(stderr, "hipRAND error %d at %s:%d\n", (int)status_, __FILE__, __LINE__);       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

constexpr size_t kPoints = 1 << 20;
constexpr unsigned long long kSeed = 20261125;

// inside[i] = 1 when point i = (xy[2i], xy[2i + 1]) is inside the circle.
__global__ void mark_inside(const float *xy, unsigned int *inside, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) {
    float x = xy[2 * i], y = xy[2 * i + 1];
    inside[i] = x * x + y * y <= 1.0f;
  }
}

int main() {
  print_device_banner();
  float *d_xy;
  unsigned int *d_inside, *d_count;
  HIP_CHECK(hipMalloc(&d_xy, 2 * kPoints * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_inside, kPoints * sizeof(unsigned int)));
  HIP_CHECK(hipMalloc(&d_count, sizeof(unsigned int)));

  hiprandGenerator_t gen;
  RAND_CHECK(hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_PHILOX4_32_10));
  RAND_CHECK(hiprandSetPseudoRandomGeneratorSeed(gen, kSeed));
  RAND_CHECK(hiprandGenerateUniform(gen, d_xy, 2 * kPoints));
  RAND_CHECK(hiprandDestroyGenerator(gen));

  mark_inside<<<(kPoints + 255) / 256, 256>>>(d_xy, d_inside, kPoints);
  HIP_CHECK(hipGetLastError());

  void *d_temp = nullptr;
  size_t temp_bytes = 0;
  HIP_CHECK(hipcub::DeviceReduce::Sum(d_temp, temp_bytes, d_inside, d_count, (int)kPoints));
  HIP_CHECK(hipMalloc(&d_temp, temp_bytes));
  HIP_CHECK(hipcub::DeviceReduce::Sum(d_temp, temp_bytes, d_inside, d_count, (int)kPoints));
  unsigned int total = 0;
  HIP_CHECK(hipMemcpy(&total, d_count, sizeof(total), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_temp));
  HIP_CHECK(hipFree(d_count));
  HIP_CHECK(hipFree(d_inside));
  HIP_CHECK(hipFree(d_xy));

  // The same numbers from a host generator, counted here.
  std::vector<float> xy(2 * kPoints);
  RAND_CHECK(hiprandCreateGeneratorHost(&gen, HIPRAND_RNG_PSEUDO_PHILOX4_32_10));
  RAND_CHECK(hiprandSetPseudoRandomGeneratorSeed(gen, kSeed));
  RAND_CHECK(hiprandGenerateUniform(gen, xy.data(), xy.size()));
  RAND_CHECK(hiprandDestroyGenerator(gen));
  unsigned long long inside = 0, edge = 0;
  for (size_t i = 0; i < kPoints; i++) {
    double d = (double)xy[2 * i] * xy[2 * i] + (double)xy[2 * i + 1] * xy[2 * i + 1];
    inside += d <= 1.0 - 1e-6;
    edge += d > 1.0 - 1e-6 && d <= 1.0 + 1e-6;
  }
  const double points = (double)kPoints;
  const double pi = 4.0 * total / points;
  const double se = 4.0 * std::sqrt((M_PI / 4) * (1 - M_PI / 4) / points);
  std::printf("pi ~= %.6f from %.0f points (standard error %.6f)\n", pi, points, se);
  int failed = report_check("device count equals the host generator's",
                            total >= inside && total <= inside + edge ? 0 : 1);
  failed +=
      report_check("estimate within 5 standard errors", std::fabs(pi - M_PI) < 5 * se ? 0 : 1);
  return failed ? 1 : 0;
}
