// SPDX-License-Identifier: MIT
// A template kernel launched with arguments that do not deduce its template
// arguments (T is float from the pointer, double from 2.0): the build fails
// with anyhip's message and the user's line, as a call scale(p, 2.0, 4) would.
#include <hip/hip_runtime.h>

template <typename T> __global__ void scale(T *p, T s, int n) { p[threadIdx.x] *= s; }

void host(float *p) {
  scale<<<1, 64>>>(p, 2.0, 64);
}
