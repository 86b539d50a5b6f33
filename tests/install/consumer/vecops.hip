/* SPDX-License-Identifier: MIT */
/* A HIP source in a shared library built by anyhip_add_library(): a kernel
 * launched with triple chevrons, which only hipcc's preparation makes valid. */
#include "vecops.h"

__global__ void saxpy(int n, float a, const float *x, const float *y, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = a * x[i] + y[i];
}

int vecops_saxpy(int n, float a, const float *x, const float *y, float *out) {
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
