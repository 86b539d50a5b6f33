// SPDX-License-Identifier: MIT
// Monte Carlo estimate of pi with hipRAND's device API (docs/libraries.md):
// every thread owns a Philox generator (seed, subsequence = its index), draws
// points in the unit square with hiprand_uniform4 and counts those inside the
// quarter circle; a block reduction in shared memory and one atomicAdd per
// block give the total. Checked two ways: the count equals the same draws
// counted on the host (hiprand_kernel.h's functions are __host__ __device__;
// a GPU may fuse multiply-adds, so points within 1e-6 of the circle may count
// either way), and the estimate is within 5 standard errors of pi.
// (examples/monte_carlo_pi.hip does the same with the host API and hipCUB.)
#include "common/example_utils.hpp"

#include <hiprand/hiprand_kernel.h>

#include <cmath>
#include <cstdio>

constexpr int kBlocks = 64, kThreads = 256, kRounds = 64; // 4 points per round and thread
constexpr unsigned long long kSeed = 20261125;

// Points inside the quarter circle among one thread's kRounds * 2 points.
__host__ __device__ unsigned int count_hits(unsigned long long thread) {
  hiprandStatePhilox4_32_10_t state;
  hiprand_init(kSeed, thread, 0, &state);
  unsigned int hits = 0;
  for (int r = 0; r < kRounds; r++) {
    float4 u = hiprand_uniform4(&state); // two points: (x, y) and (z, w)
    hits += u.x * u.x + u.y * u.y <= 1.0f;
    hits += u.z * u.z + u.w * u.w <= 1.0f;
  }
  return hits;
}

__global__ void monte_carlo_pi(unsigned long long *total) {
  __shared__ unsigned int part[kThreads];
  unsigned int t = threadIdx.x;
  part[t] = count_hits(blockIdx.x * blockDim.x + t);
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(total, (unsigned long long)part[0]);
}

int main() {
  print_device_banner();
  unsigned long long *d_total, total = 0;
  HIP_CHECK(hipMalloc(&d_total, sizeof(total)));
  HIP_CHECK(hipMemset(d_total, 0, sizeof(total)));
  monte_carlo_pi<<<kBlocks, kThreads>>>(d_total);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(&total, d_total, sizeof(total), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_total));

  // The same points on the host: surely inside, and inside or on the edge.
  unsigned long long inside = 0, edge = 0;
  for (unsigned long long t = 0; t < (unsigned long long)kBlocks * kThreads; t++) {
    hiprandStatePhilox4_32_10_t state;
    hiprand_init(kSeed, t, 0, &state);
    for (int r = 0; r < kRounds; r++) {
      float4 u = hiprand_uniform4(&state);
      for (double d :
           {(double)u.x * u.x + (double)u.y * u.y, (double)u.z * u.z + (double)u.w * u.w}) {
        inside += d <= 1.0 - 1e-6;
        edge += d > 1.0 - 1e-6 && d <= 1.0 + 1e-6;
      }
    }
  }
  const double points = (double)kBlocks * kThreads * kRounds * 2;
  const double pi = 4.0 * total / points;
  // The hit fraction is binomial with p = pi/4: its standard error, times 4.
  const double se = 4.0 * std::sqrt((M_PI / 4) * (1 - M_PI / 4) / points);
  std::printf("pi ~= %.6f from %.0f points (standard error %.6f)\n", pi, points, se);
  int failed = report_check("device count equals the host's",
                            total >= inside && total <= inside + edge ? 0 : 1);
  failed +=
      report_check("estimate within 5 standard errors", std::fabs(pi - M_PI) < 5 * se ? 0 : 1);
  return failed ? 1 : 0;
}
