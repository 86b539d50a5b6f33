/* SPDX-License-Identifier: MIT */
/* The HIP shared library of the HIP-language project: compiled as HIP by
 * CMake (the .hip extension), a kernel launched with triple chevrons. */
#include <hip/hip_runtime.h>

#include "lang_vecops.h"

#ifndef __HIP__
#error "CMake's HIP language did not compile this source as HIP"
#endif

__global__ void saxpy(int n, float a, const float *x, const float *y, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = a * x[i] + y[i];
}

int lang_saxpy(int n, float a, const float *x, const float *y, float *out) {
  size_t bytes = (size_t)n * sizeof(float);
  float *dx, *dy, *dout;

  if (hipMalloc(&dx, bytes) != hipSuccess || hipMalloc(&dy, bytes) != hipSuccess ||
      hipMalloc(&dout, bytes) != hipSuccess)
    return 1;
  if (hipMemcpy(dx, x, bytes, hipMemcpyHostToDevice) != hipSuccess ||
      hipMemcpy(dy, y, bytes, hipMemcpyHostToDevice) != hipSuccess)
    return 1;
  saxpy<<<(n + 127) / 128, 128>>>(n, a, dx, dy, dout);
  if (hipGetLastError() != hipSuccess ||
      hipMemcpy(out, dout, bytes, hipMemcpyDeviceToHost) != hipSuccess)
    return 1;
  return hipFree(dx) != hipSuccess || hipFree(dy) != hipSuccess || hipFree(dout) != hipSuccess;
}
