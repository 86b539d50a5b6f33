// SPDX-License-Identifier: MIT
// Shared helpers of the guide's examples: HIP_CHECK (the guide borrows it from
// rocm-examples' utilities; this is our own) and a device banner.
#ifndef ANYHIP_EXAMPLE_UTILS_HPP
#define ANYHIP_EXAMPLE_UTILS_HPP

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define HIP_CHECK(expression)                                                      \
  do {                                                                             \
    const hipError_t status_ = (expression);                                       \
    if (status_ != hipSuccess) {                                                   \
      std::fprintf(stderr, "HIP error %d (%s: %s) at %s:%d\n", status_,            \
                   hipGetErrorName(status_), hipGetErrorString(status_), __FILE__, \
                   __LINE__);                                                      \
      std::exit(EXIT_FAILURE);                                                     \
    }                                                                              \
  } while (0)

// Prints which device the example runs on, so output names it.
inline void print_device_banner() {
  int device = 0;
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDevice(&device));
  HIP_CHECK(hipGetDeviceProperties(&props, device));
  std::printf("Device %d: %s\n", device, props.name);
}

// ---- Shared helpers of the examples (examples engineer) ----

#include <cstddef>
#include <cstdint>
#include <random>

// Deterministic input data. std::mt19937's output is fixed by the C++ standard, but the
// standard distributions are not, so the examples derive their numbers from the raw bits
// and get the same data with every compiler and library.
class example_rng {
public:
  explicit example_rng(std::uint32_t seed) : gen_(seed) {}
  std::uint32_t next() { return static_cast<std::uint32_t>(gen_()); }
  // Uniform in [0, 1), 24 random bits.
  float uniform() { return static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }
  // Uniform integer in [lo, hi), for small ranges.
  int range(int lo, int hi) {
    return lo + static_cast<int>(next() % static_cast<std::uint32_t>(hi - lo));
  }

private:
  std::mt19937 gen_;
};

// Prints "<what>: PASSED" or "<what>: FAILED (<n> mismatches)" and returns 1 on failure,
// 0 otherwise, so that a program can add up its parts' failures and exit non-zero.
inline int report_check(const char *what, std::size_t mismatches) {
  if (mismatches == 0)
    std::printf("%s: PASSED\n", what);
  else
    std::printf("%s: FAILED (%zu mismatches)\n", what, mismatches);
  std::fflush(stdout);
  return mismatches == 0 ? 0 : 1;
}

// The warp size of the current device, as host code must query it (HIP guide §9.2.2).
inline int current_warp_size() {
  int device = 0, warp_size = 0;
  HIP_CHECK(hipGetDevice(&device));
  HIP_CHECK(hipDeviceGetAttribute(&warp_size, hipDeviceAttributeWarpSize, device));
  return warp_size;
}

#endif
