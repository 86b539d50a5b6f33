// SPDX-License-Identifier: MIT
// Launchers in a header (as hip-tests keeps them), included by both
// main.hip and other.hip: hipcc prepares it for each of them.
#ifndef HEADERS_LAUNCH_H
#define HEADERS_LAUNCH_H

#include "nested/kernels.h"

inline void fill_launch(int *d, int v, hipStream_t s) {
  fill<<<1, 64, 0, s>>>(d, v);
}

// A template kernel of a nested header, launched without template arguments.
template <typename T> void scale_launch(T *d, T f) {
  hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, 0, d, f);
  scale<<<1, 64>>>(d, f);
}

// Launches through hipLaunchKernel: the header's kernel must be registered
// in each translation unit that includes it.
inline hipError_t fill_by_address(int *d, int v) {
  void *args[] = {&d, &v};

  return hipLaunchKernel(reinterpret_cast<const void *>(&fill), dim3(1), dim3(64), args, 0,
                         nullptr);
}

#endif
