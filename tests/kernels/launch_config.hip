// SPDX-License-Identifier: MIT
// Kernel launches as HIP programs write them: triple chevrons with two, three
// and four configuration arguments (integers, dim3, expressions), template
// kernels, kernels in namespaces, hipLaunchKernelGGL, hipLaunchKernel with an
// argument pointer array, arguments passed by value (copied at launch), every
// thread of a 3D grid, and each refused configuration (block over 1024
// threads or a dimension limit, zero sizes, too much dynamic shared memory, a
// null kernel): HIP's error from hipGetLastError, and nothing runs.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(c)                                                              \
  do {                                                                        \
    if (!(c)) {                                                               \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #c);     \
      return 1;                                                               \
    }                                                                         \
  } while (0)
#define CHECK_HIP(x)                                                          \
  do {                                                                        \
    hipError_t e_ = (x);                                                      \
    if (e_ != hipSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,         \
                   hipGetErrorName(e_));                                      \
      return 1;                                                               \
    }                                                                         \
  } while (0)
#define CHECK_ERR(x, want)                                                    \
  do {                                                                        \
    hipError_t e_ = (x);                                                      \
    if (e_ != (want)) {                                                       \
      std::fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__,      \
                   __LINE__, #x, hipGetErrorName(e_), hipGetErrorName(want)); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

// Counts the threads that ran.
__global__ void count(int *n) { atomicAdd(n, 1); }

// out[linear id] = linear id + base, over a 3D grid of 3D blocks.
__global__ void index3d(int *out, int base) {
  unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned tpb = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned id = bx * tpb + t;
  out[id] = (int)id + base;
}

template <typename T, int Scale> __global__ void scale(T *p, T add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = p[i] * Scale + add;
}

template <typename A, typename B> __global__ void pair_sum(const A *a, const B *b, double *out) {
  int i = threadIdx.x;
  out[i] = (double)a[i] + (double)b[i];
}

namespace outer {
namespace inner {
__global__ void fill(int *p, int v) { p[threadIdx.x + blockIdx.x * blockDim.x] = v; }
} // namespace inner
struct Params {
  int mul;
  int table[60]; // a struct of 244 bytes, passed by value
};
__global__ void from_struct(int *out, Params prm) {
  int i = threadIdx.x;
  out[i] = prm.table[i] * prm.mul;
}
} // namespace outer

// A float parameter given an int, a pointer parameter given 0.
__global__ void convert(float *out, float x, int *maybe) {
  out[0] = x * 0.5f;
  out[1] = maybe == nullptr ? 1.0f : 2.0f;
}

static int *alloc_counter() {
  int *n = nullptr;
  if (hipMalloc(&n, sizeof(int)) != hipSuccess || hipMemset(n, 0, sizeof(int)) != hipSuccess)
    return nullptr;
  return n;
}

static int read_int(const int *d) {
  int v = -1;
  if (hipMemcpy(&v, d, sizeof(int), hipMemcpyDeviceToHost) != hipSuccess)
    return -1;
  return v;
}

static void gate_fn(void *p) {
  volatile int *open = static_cast<volatile int *>(p);
  while (!__atomic_load_n(open, __ATOMIC_ACQUIRE)) {
  }
}

static int bad_configs() {
  hipDeviceProp_t prop;
  int *n = alloc_counter();
  CHECK(n != nullptr);
  CHECK_HIP(hipGetDeviceProperties(&prop, 0));
  CHECK(prop.maxThreadsPerBlock == 1024);
  CHECK_HIP(hipGetLastError());

  count<<<1, 1025>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<1, dim3(1024, 2)>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<1, dim3(1, 1, prop.maxThreadsDim[2] + 1)>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<1, dim3(prop.maxThreadsDim[0] + 1)>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<0, 1>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<dim3(1, 0, 1), 1>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<1, 0>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<1, dim3(4, 1, 0)>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  count<<<1, 1, prop.sharedMemPerBlock + 1>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidValue);
  hipLaunchKernelGGL(count, dim3(1), dim3(2048), 0, 0, n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration);

  // A null kernel, through each way of launching.
  void (*none)(int *) = nullptr;
  none<<<1, 1>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidDeviceFunction);
  hipLaunchKernelGGL(none, dim3(1), dim3(1), 0, 0, n);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidDeviceFunction);
  void *args[] = {&n};
  CHECK_ERR(hipLaunchKernel(nullptr, dim3(1), dim3(1), args, 0, 0),
            hipErrorInvalidDeviceFunction);

  // A destroyed stream.
  hipStream_t s;
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamDestroy(s));
  count<<<1, 1, 0, s>>>(n);
  CHECK_ERR(hipGetLastError(), hipErrorContextIsDestroyed);

  CHECK_HIP(hipDeviceSynchronize());
  CHECK(read_int(n) == 0); // nothing ran

  // The limits themselves are accepted.
  count<<<1, 1024>>>(n);
  count<<<1, dim3(1, 1, prop.maxThreadsDim[2]), prop.sharedMemPerBlock>>>(n);
  count<<<dim3(2, 2, 2), dim3(8, 8, 16)>>>(n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK(read_int(n) == 1024 + prop.maxThreadsDim[2] + 8 * 1024);
  CHECK_HIP(hipFree(n));
  return 0;
}

static int chevron_forms() {
  const dim3 grid(3, 2, 2), block(4, 2, 3);
  const int total = 12 * 24;
  int *d = nullptr;
  std::vector<int> h(total);
  hipStream_t s;
  CHECK_HIP(hipMalloc(&d, total * sizeof(int)));
  CHECK_HIP(hipStreamCreate(&s));

  index3d<<<grid, block>>>(d, 7); // two arguments
  CHECK_HIP(hipMemcpy(h.data(), d, total * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < total; i++)
    CHECK(h[i] == i + 7);

  index3d<<<grid, block, 64>>>(d, 100); // three
  CHECK_HIP(hipMemcpy(h.data(), d, total * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < total; i++)
    CHECK(h[i] == i + 100);

  index3d<<<grid, block, 0, s>>>(d, -5); // four, on a stream
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(h.data(), d, total * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < total; i++)
    CHECK(h[i] == i - 5);

  // Integers and expressions for the sizes, the per-thread stream.
  int n = 6;
  index3d<<<n / 2, (n + 2) * 4, 0, hipStreamPerThread>>>(d, 1);
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_HIP(hipMemcpy(h.data(), d, 96 * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 96; i++)
    CHECK(h[i] == i + 1);

  hipLaunchKernelGGL(index3d, grid, block, 0, s, d, 3);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(h.data(), d, total * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < total; i++)
    CHECK(h[i] == i + 3);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return 0;
}

static int templates_and_namespaces() {
  float *f = nullptr;
  int *i = nullptr;
  double *out = nullptr;
  std::vector<float> hf(64, 2.0f);
  std::vector<int> hi(64);
  double ho[8];
  CHECK_HIP(hipMalloc(&f, 64 * sizeof(float)));
  CHECK_HIP(hipMalloc(&i, 64 * sizeof(int)));
  CHECK_HIP(hipMalloc(&out, 8 * sizeof(double)));
  CHECK_HIP(hipMemcpy(f, hf.data(), 64 * sizeof(float), hipMemcpyHostToDevice));

  scale<float, 3><<<2, 32>>>(f, 0.5f);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 2>), dim3(2), dim3(32), 0, 0, f, 1.0f);
  CHECK_HIP(hipMemcpy(hf.data(), f, 64 * sizeof(float), hipMemcpyDeviceToHost));
  for (int k = 0; k < 64; k++)
    CHECK(hf[k] == (2.0f * 3 + 0.5f) * 2 + 1.0f);

  outer::inner::fill<<<4, 16>>>(i, 42);
  CHECK_HIP(hipMemcpy(hi.data(), i, 64 * sizeof(int), hipMemcpyDeviceToHost));
  for (int k = 0; k < 64; k++)
    CHECK(hi[k] == 42);

  pair_sum<int, float><<<1, 8>>>(i, f, out);
  CHECK_HIP(hipMemcpy(ho, out, sizeof(ho), hipMemcpyDeviceToHost));
  for (int k = 0; k < 8; k++)
    CHECK(ho[k] == 42.0 + 14.0);

  // hipLaunchKernel finds a registered kernel's parameters by its address.
  int v = 9;
  void *args[] = {&i, &v};
  CHECK_HIP(hipLaunchKernel(reinterpret_cast<const void *>(&outer::inner::fill), dim3(2),
                            dim3(32), args, 0, 0));
  CHECK_HIP(hipMemcpy(hi.data(), i, 64 * sizeof(int), hipMemcpyDeviceToHost));
  for (int k = 0; k < 64; k++)
    CHECK(hi[k] == 9);
  CHECK_ERR(hipLaunchKernel(reinterpret_cast<const void *>(&outer::inner::fill), dim3(1),
                            dim3(1025), args, 0, 0),
            hipErrorInvalidConfiguration);
  CHECK_ERR(hipGetLastError(), hipErrorInvalidConfiguration); // kept, and now cleared

  float *cv = nullptr;
  float hc[2];
  CHECK_HIP(hipMalloc(&cv, 2 * sizeof(float)));
  convert<<<1, 1>>>(cv, 5, 0);
  CHECK_HIP(hipMemcpy(hc, cv, sizeof(hc), hipMemcpyDeviceToHost));
  CHECK(hc[0] == 2.5f && hc[1] == 1.0f);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipFree(cv));
  CHECK_HIP(hipFree(f));
  CHECK_HIP(hipFree(i));
  CHECK_HIP(hipFree(out));
  return 0;
}

// Arguments are copied when the launch is made: a struct changed after the
// launch (while the stream is held back) reaches the kernel unchanged.
static int by_value() {
  outer::Params prm;
  int *d = nullptr, h[60];
  volatile int open = 0;
  hipStream_t s;
  prm.mul = 3;
  for (int k = 0; k < 60; k++)
    prm.table[k] = k;
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, const_cast<int *>(&open)));
  outer::from_struct<<<1, 60, 0, s>>>(d, prm);
  prm.mul = -1000;
  std::memset(prm.table, 0, sizeof(prm.table));
  CHECK(hipStreamQuery(s) == hipErrorNotReady);
  __atomic_store_n(&open, 1, __ATOMIC_RELEASE);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int k = 0; k < 60; k++)
    CHECK(h[k] == 3 * k);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return 0;
}

int main() {
  if (bad_configs() || chevron_forms() || templates_and_namespaces() || by_value())
    return 1;
  std::printf("launch_config: ok\n");
  return 0;
}
