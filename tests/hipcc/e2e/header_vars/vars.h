// SPDX-License-Identifier: MIT
// Device variables defined in a header that two sources include: each
// translation unit has its own (HIP without -fgpu-rdc), and they link.
#ifndef HEADER_VARS_H
#define HEADER_VARS_H

__device__ int counter;
__constant__ float coeffs[4] = {1, 2, 3, 4};
namespace ns {
__device__ __managed__ int flag;
}

static __global__ void bump(int by) {
  counter += by;
  ns::flag = static_cast<int>(coeffs[3]);
}

#endif
