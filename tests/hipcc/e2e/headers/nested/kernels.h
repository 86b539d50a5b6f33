// SPDX-License-Identifier: MIT
// Kernels defined in a header two sources include (static: each program
// part has its own, as each of HIP's code objects would).
#pragma once

static __global__ void fill(int *p, int v) {
  p[threadIdx.x] = v;
}

template <typename T> __global__ void scale(T *p, T f) {
  p[threadIdx.x] *= f;
}

#include "deep.h"
