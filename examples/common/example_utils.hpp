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

#endif
