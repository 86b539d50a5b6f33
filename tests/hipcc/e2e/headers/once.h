// SPDX-License-Identifier: MIT
// A kernel defined in a header only main.hip includes, twice (the guard
// keeps one definition and one registration).
#ifndef HEADERS_ONCE_H
#define HEADERS_ONCE_H

__global__ void add_one(int *p) {
  p[threadIdx.x] += 1;
}

#endif
