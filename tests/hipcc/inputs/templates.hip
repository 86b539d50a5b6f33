// SPDX-License-Identifier: MIT
// Template kernels: commas in template arguments, nested templates closed by
// `>>`, explicit template arguments at the launch, `>>>` right after `>`.
#include <utility>
#include <vector>

template <typename T, int N>
__global__ void fill(T *p, T v) { p[N] = v; }

template <typename T>
__global__ void touch(T *p) {}

template <>
__global__ void touch<int>(int *p) {}

template <typename A, typename B> struct Pair {};

void host(float *f, int *i, Pair<int, std::vector<int>> *pp) {
  fill<float, 4><<<1, 64>>>(f, 1.0f);
  fill<Pair<int, std::vector<int>>, 2><<<1, 1>>>(pp, {});
  touch<std::vector<std::vector<int>>><<<2, 2>>>(nullptr);
  touch<int><<<1, 1>>>(i);
  ::fill<float,1><<<1,1>>>(f, 2.0f);
  std::vector<std::vector<int>> vv; // `>>` closing templates, no launch
  int shifted = 256 >> 2;
  bool less = shifted < 3 && 2 > shifted;
}
