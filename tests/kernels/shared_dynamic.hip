// SPDX-License-Identifier: MIT
// Dynamic shared memory: `extern __shared__` inside a kernel and at file
// scope, HIP_DYNAMIC_SHARED, and the CUDA idiom of an aligned byte array
// cast to T in a template kernel. The buffer has the launch's size (each
// thread fills its slots and the block reads them back in another order
// after a barrier, at several sizes), is at least 16-byte aligned, is the
// same memory under every name, and is private to its block.
#include "engine_test.h"

#include <cstdint>
#include <vector>

extern __shared__ int file_scope[];

// Each thread fills `per` ints, then reads the slots of the mirrored thread.
__global__ void fill_mirror(int *out, int per) {
  extern __shared__ int buf[];
  int t = threadIdx.x, n = blockDim.x;
  for (int k = 0; k < per; k++)
    buf[t * per + k] = blockIdx.x * 100000 + t * per + k;
  __syncthreads();
  int sum = 0;
  for (int k = 0; k < per; k++)
    sum += buf[(n - 1 - t) * per + k] - (int)blockIdx.x * 100000;
  out[blockIdx.x * n + t] = sum;
}

// The same memory under three names, and its alignment.
__global__ void names(uintptr_t *out) {
  extern __shared__ double local_name[];
  HIP_DYNAMIC_SHARED(float, macro_name)
  if (threadIdx.x == 0) {
    out[0] = (uintptr_t)local_name;
    out[1] = (uintptr_t)macro_name;
    out[2] = (uintptr_t)file_scope;
  }
}

template <typename T> __global__ void reverse(const T *in, T *out) {
  extern __shared__ __align__(sizeof(T)) unsigned char smem[];
  T *s = reinterpret_cast<T *>(smem);
  int t = threadIdx.x, n = blockDim.x;
  s[t] = in[blockIdx.x * n + t];
  __syncthreads();
  out[blockIdx.x * n + t] = s[n - 1 - t];
}

int main() {
  const int blocks = 12, n = 128;
  std::vector<int> h(blocks * n);
  int *d = nullptr;

  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(int)));
  for (int per : {1, 7, 32, 100}) { // up to 51200 bytes
    fill_mirror<<<blocks, n, n * per * sizeof(int)>>>(d, per);
    CHECK_HIP(hipGetLastError());
    CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < n; t++) {
        int m = n - 1 - t, want = 0;
        for (int k = 0; k < per; k++)
          want += m * per + k;
        CHECK_EQ(h[b * n + t], want);
      }
  }

  uintptr_t *dp = nullptr, p[3];
  CHECK_HIP(hipMalloc(&dp, sizeof(p)));
  names<<<1, 4, 64>>>(dp);
  CHECK_HIP(hipMemcpy(p, dp, sizeof(p), hipMemcpyDeviceToHost));
  CHECK(p[0] != 0);
  CHECK_EQ(p[0] % 16, 0);
  CHECK_EQ(p[1], p[0]);
  CHECK_EQ(p[2], p[0]);

  std::vector<double> din(blocks * n), dout(blocks * n);
  double *a = nullptr, *b = nullptr;
  for (int i = 0; i < blocks * n; i++)
    din[i] = i * 1.25;
  CHECK_HIP(hipMalloc(&a, din.size() * sizeof(double)));
  CHECK_HIP(hipMalloc(&b, din.size() * sizeof(double)));
  CHECK_HIP(hipMemcpy(a, din.data(), din.size() * sizeof(double), hipMemcpyHostToDevice));
  reverse<double><<<blocks, n, n * sizeof(double)>>>(a, b);
  CHECK_HIP(hipMemcpy(dout.data(), b, dout.size() * sizeof(double), hipMemcpyDeviceToHost));
  for (int i = 0; i < blocks * n; i++)
    CHECK(dout[i] == din[(i / n) * n + (n - 1 - i % n)]);

  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(dp));
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipFree(b));
  std::printf("passed\n");
  return AH_PASS;
}
