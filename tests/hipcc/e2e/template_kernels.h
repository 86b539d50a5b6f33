// SPDX-License-Identifier: MIT
// A template kernel in a header: hipcc prepares only the .hip source, so it
// does not know this is a template. hipLaunchKernelGGL still deduces it
// (through the header's overload) when the arguments have exactly its
// parameter types.
#pragma once

template <typename T>
__global__ void hdr_axpy(T a, T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}
