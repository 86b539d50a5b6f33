// SPDX-License-Identifier: MIT
// Kernels in an anonymous namespace (rocm-examples' static_host_library
// keeps its kernels there): nvcc gives such a kernel a device name of its
// own (`<n>_GLOBAL__N__<hash>_<file>_<hash>` for the host compiler's
// `12_GLOBAL__N_1`), which the NVIDIA backend finds by the rest of the name
// (nvidia_module.c, anonymous_function). Plain kernels and a template's
// two instances, each checked against the host.
#include "engine_test.h"

#include <vector>

namespace {

__global__ void scale(float a, float *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

__global__ void scale_int(int a, int *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

template <typename T> __global__ void add_index(T *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += T(i);
}

} // namespace

int main() {
  const unsigned n = 1000;
  std::vector<float> f(n), fgot(n);
  std::vector<int> k(n), kgot(n);
  for (unsigned i = 0; i < n; i++) {
    f[i] = float(i % 17);
    k[i] = int(i % 23) - 11;
  }
  float *df;
  int *dk;
  CHECK_HIP(hipMalloc(&df, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&dk, n * sizeof(int)));
  CHECK_HIP(hipMemcpy(df, f.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dk, k.data(), n * sizeof(int), hipMemcpyHostToDevice));
  scale<<<(n + 127) / 128, 128>>>(3.0f, df, n);
  CHECK_HIP(hipGetLastError());
  scale_int<<<(n + 127) / 128, 128>>>(-2, dk, n);
  CHECK_HIP(hipGetLastError());
  add_index<float><<<(n + 127) / 128, 128>>>(df, n);
  CHECK_HIP(hipGetLastError());
  add_index<int><<<(n + 127) / 128, 128>>>(dk, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(fgot.data(), df, n * sizeof(float), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(kgot.data(), dk, n * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; i++) {
    CHECK_EQ(fgot[i], f[i] * 3.0f + float(i));
    CHECK_EQ(kgot[i], k[i] * -2 + int(i));
  }
  CHECK_HIP(hipFree(df));
  CHECK_HIP(hipFree(dk));
  std::printf("passed\n");
  return AH_PASS;
}
