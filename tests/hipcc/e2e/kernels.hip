// SPDX-License-Identifier: MIT
// Kernels compiled on their own (-c, or -shared -fPIC) and launched from
// main_separate.hip: launches across translation units, and registration
// done by this file's hipcc run.
#include <hip/hip_runtime.h>

__global__ void axpy(int a, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}
