// SPDX-License-Identifier: MIT
// A small HIP program for the -### plans (never compiled by the plan tests).
#include <hip/hip_runtime.h>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  saxpy<<<dim3(4), dim3(256)>>>(2.0f, nullptr, nullptr, 0);
  return 0;
}
