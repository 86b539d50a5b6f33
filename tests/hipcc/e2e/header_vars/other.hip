// SPDX-License-Identifier: MIT
// The second source including vars.h: works on its own copies.
#include <hip/hip_runtime.h>

#include "vars.h"

int other_counter() {
  int v = 0;

  if (hipMemcpyToSymbol(HIP_SYMBOL(counter), &v, sizeof(v)) != hipSuccess)
    return -1;
  hipLaunchKernelGGL(bump, dim3(1), dim3(1), 0, 0, 5);
  if (hipMemcpyFromSymbol(&v, HIP_SYMBOL(counter), sizeof(v)) != hipSuccess)
    return -1;
  return v;
}
