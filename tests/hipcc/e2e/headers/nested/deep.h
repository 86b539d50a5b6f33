// SPDX-License-Identifier: MIT
// Two levels down (other.hip -> launch.h -> nested/kernels.h -> deep.h): a
// launcher and a kernel of its own, and a launch of a kernel its includer
// defines; launch.h's includers reach it through both sources.
#pragma once

static __global__ void deep_add(int *p, int v) {
  p[threadIdx.x] += v;
}

template <typename T> __global__ void scale(T *p, T f);

inline void deep_launch(int *d, int v, float *f) {
  deep_add<<<dim3(1), dim3(64)>>>(d, v);
  if (f != nullptr)
    scale<<<1, 64>>>(f, 0.5f); // a template of the including header, deduced
}
