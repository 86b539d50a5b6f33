// SPDX-License-Identifier: MIT
// End-to-end test of hipcc: one program exercising every rewrite hipcc does
// (launches with 2, 3 and 4 configuration arguments, a namespaced kernel, a
// template kernel, extern __shared__) and the kernel registration that lets
// hipLaunchKernel find a kernel by address. Each result is checked against a
// CPU loop; prints PASSED and exits 0 when all agree.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#define CHECK(x)                                                                     \
  do {                                                                               \
    hipError_t e_ = (x);                                                             \
    if (e_ != hipSuccess) {                                                          \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_)); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

namespace e2e {
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
} // namespace e2e

template <typename T, int Factor>
__global__ void scale(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= Factor;
}

// Reverses each block's slice of p through dynamic shared memory.
__global__ void reverse_blocks(int *p) {
  extern __shared__ int tile[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;

  tile[t] = p[base + t];
  __syncthreads();
  p[base + t] = tile[blockDim.x - 1 - t];
}

static int compare(const std::vector<float> &got, const std::vector<float> &want,
                   const char *what) {
  for (size_t i = 0; i < want.size(); i++) {
    if (got[i] != want[i]) {
      std::printf("%s: element %zu is %g, expected %g\n", what, i, got[i], want[i]);
      return 1;
    }
  }
  return 0;
}

int main() {
  const int n = 1000, threads = 64, blocks = 4;
  std::vector<float> a(n), b(n), c(n), want(n);
  std::vector<int> r(threads * blocks), rwant(threads * blocks);
  float *da, *db, *dc;
  int *dr;
  hipStream_t stream;

  for (int i = 0; i < n; i++) {
    a[i] = (float)i;
    b[i] = (float)(2 * i + 1);
    want[i] = a[i] + b[i];
  }
  CHECK(hipMalloc(&da, n * sizeof(float)));
  CHECK(hipMalloc(&db, n * sizeof(float)));
  CHECK(hipMalloc(&dc, n * sizeof(float)));
  CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipStreamCreate(&stream));

  // Two configuration arguments, dim3 expressions with commas inside.
  e2e::add<<<dim3((n + 255) / 256, 1, 1), dim3(256)>>>(da, db, dc, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  if (compare(c, want, "chevron launch"))
    return 1;

  // A template kernel, four configuration arguments, on a stream.
  scale<float, 3><<<(n + 127) / 128, 128, 0, stream>>>(dc, n);
  CHECK(hipGetLastError());
  CHECK(hipStreamSynchronize(stream));
  CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    want[i] *= 3;
  if (compare(c, want, "template kernel"))
    return 1;

  // By address: works only if hipcc registered e2e::add.
  {
    int nn = n;
    void *args[] = {&da, &db, &dc, &nn};

    CHECK(hipMemset(dc, 0, n * sizeof(float)));
    CHECK(hipLaunchKernel(reinterpret_cast<const void *>(&e2e::add), dim3(4), dim3(256), args,
                          0, stream));
    CHECK(hipStreamSynchronize(stream));
    CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
      want[i] = a[i] + b[i];
    if (compare(c, want, "hipLaunchKernel"))
      return 1;
  }

  // Dynamic shared memory: three configuration arguments.
  for (int i = 0; i < threads * blocks; i++) {
    r[i] = i;
    rwant[i] = (i / threads) * threads + (threads - 1 - i % threads);
  }
  CHECK(hipMalloc(&dr, r.size() * sizeof(int)));
  CHECK(hipMemcpy(dr, r.data(), r.size() * sizeof(int), hipMemcpyHostToDevice));
  reverse_blocks<<<blocks, threads, threads * sizeof(int)>>>(dr);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(r.data(), dr, r.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < r.size(); i++) {
    if (r[i] != rwant[i]) {
      std::printf("extern __shared__: element %zu is %d, expected %d\n", i, r[i], rwant[i]);
      return 1;
    }
  }

  CHECK(hipStreamDestroy(stream));
  CHECK(hipFree(da));
  CHECK(hipFree(db));
  CHECK(hipFree(dc));
  CHECK(hipFree(dr));
  std::printf("PASSED\n");
  return 0;
}
