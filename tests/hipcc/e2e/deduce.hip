// SPDX-License-Identifier: MIT
// Template kernels launched without template arguments, as CUDA and HIP
// allow: k<<<g, b>>>(args) and hipLaunchKernelGGL(k, ...) deduce the
// specialisation from the arguments as a call would (const T * from a
// float *, an int parameter from a size_t), in namespaces, through a using
// directive, with a defaulted non-type parameter, an unnamed defaulted type
// parameter, a pack, an overload with a non-template kernel, a template
// defined after the launch, inside a macro, HIP_KERNEL_NAME, and a functor
// parameter given a lambda (whose type has no name to write). Also
// HIP_KERNEL_NAME with explicit template arguments holding commas. Every
// result is checked against a CPU loop; prints PASSED and exits 0.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <type_traits>
#include <vector>

#include "template_kernels.h"

#define CHECK(x)                                                                     \
  do {                                                                               \
    hipError_t e_ = (x);                                                             \
    if (e_ != hipSuccess) {                                                          \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_)); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)
#define EXPECT(c)                                                   \
  do {                                                              \
    if (!(c)) {                                                     \
      std::printf("%s:%d: %s is false\n", __FILE__, __LINE__, #c); \
      return 1;                                                     \
    }                                                               \
  } while (0)

// A launch in a macro defined before the kernel it names.
#define LAUNCH_SCALE(p, s, n) scale<<<((n) + 63) / 64, 64>>>(p, s, n)

template <typename T>
__global__ void scale(T *p, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= s;
}

// Const pointers and an int count: a call deduces T from the pointers and
// converts the rest.
template <typename T>
__global__ void vadd(const T *a, const T *b, T *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

namespace lib {
// Add is not deducible: its default is used. The unnamed parameter keeps T
// arithmetic.
template <typename T, int Add = 5,
          typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
__global__ void offset(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += Add;
}

template <typename... Ts>
__global__ void count(int *out, Ts... xs) {
  double sum = 0;
  for (double x : {0.0, (double)xs...})
    sum += x;
  out[0] = (int)sizeof...(Ts) * 1000 + (int)sum;
}
} // namespace lib

// A template and a non-template kernel of one name: the non-template takes
// its exact types, as in a call.
template <typename T>
__global__ void put(T *p, T v) {
  p[0] = v;
}
__global__ void put(int *p, int v) {
  p[0] = v + 1000;
}

// Declared here, defined after main.
template <typename T>
__global__ void later(T *p, int n);

// A functor: only deduction can name a lambda's type.
template <typename F>
__global__ void apply(int *out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(i);
}

// Explicit template arguments with a comma, through HIP_KERNEL_NAME.
template <typename T, int N>
__global__ void fill(T *p, T v) {
  p[threadIdx.x % N] = v;
}

static float *to_device(const std::vector<float> &h) {
  float *d = nullptr;

  if (hipMalloc(&d, h.size() * sizeof(float)) != hipSuccess ||
      hipMemcpy(d, h.data(), h.size() * sizeof(float), hipMemcpyHostToDevice) != hipSuccess)
    return nullptr;
  return d;
}

int main() {
  const int n = 300;
  const size_t len = n; // a size_t for an int parameter
  std::vector<float> a(n), b(n), c(n), want(n);
  std::vector<int> ia(n), iwant(n);
  hipStream_t stream;

  for (int i = 0; i < n; i++) {
    a[i] = 0.5f * (float)i;
    b[i] = (float)(n - i);
    ia[i] = i - 7;
  }
  float *da = to_device(a), *db = to_device(b), *dc = to_device(c);
  int *di = nullptr, *dout = nullptr;
  EXPECT(da && db && dc);
  CHECK(hipMalloc(&di, n * sizeof(int)));
  CHECK(hipMalloc(&dout, 4 * sizeof(int)));
  CHECK(hipMemcpy(di, ia.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipStreamCreate(&stream));

  // scale<float> and scale<int>, with 2, 3 and 4 configuration arguments.
  scale<<<(n + 63) / 64, 64>>>(da, 2.0f, n);
  scale<<<dim3((n + 127) / 128), dim3(128), 0, stream>>>(di, 3, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(c.data(), da, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(c[i] == a[i] * 2.0f);
  CHECK(hipMemcpy(iwant.data(), di, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(iwant[i] == ia[i] * 3);

  // vadd<float> from float * arguments for const float * parameters, and a
  // size_t count for its int; then hipLaunchKernelGGL the same way.
  ::vadd<<<(n + 63) / 64, 64, 0>>>(da, db, dc, len);
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(c[i] == a[i] * 2.0f + b[i]);
  hipLaunchKernelGGL(vadd, dim3((n + 63) / 64), dim3(64), 0, 0, dc, db, dc, len);
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(c[i] == a[i] * 2.0f + 2.0f * b[i]);

  // The defaulted non-type parameter, qualified, then through a using directive.
  lib::offset<<<(n + 63) / 64, 64>>>(di, n);
  {
    using namespace lib;
    offset<<<(n + 63) / 64, 64>>>(di, n);
    count<<<1, 1>>>(dout);
  }
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(iwant.data(), di, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(iwant[i] == ia[i] * 3 + 10);
  int out[4];
  CHECK(hipMemcpy(out, dout, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(out[0] == 0);

  // A pack: three arguments of three types; then through HIP_KERNEL_NAME and
  // hipLaunchKernelGGL.
  HIP_KERNEL_NAME(lib::count)<<<1, 1>>>(dout, 1, 2.0, 'A');
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(out, dout, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(out[0] == 3000 + 1 + 2 + 'A');
  hipLaunchKernelGGL(lib::count, 1, 1, 0, stream, dout + 1, 4L, 5u);
  CHECK(hipStreamSynchronize(stream));
  CHECK(hipMemcpy(out, dout, 2 * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(out[1] == 2000 + 9);

  // The overload: put(int *, int) is not a template; put<float> is.
  put<<<1, 1>>>(dout + 2, 7);
  put<<<1, 1>>>(dc, 7.5f);
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(out, dout, 3 * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(out[2] == 1007);
  CHECK(hipMemcpy(c.data(), dc, sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(c[0] == 7.5f);

  // Declared above, defined below; a launch in a macro; parentheses.
  later<<<(n + 63) / 64, 64>>>(db, n);
  LAUNCH_SCALE(db, 0.5f, n);
  (scale)<<<(n + 63) / 64, 64>>>(db, 4.0f, n);
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(c.data(), db, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(c[i] == (b[i] + (float)i) * 2.0f);

  // A template kernel from a header hipcc did not prepare: hipLaunchKernelGGL
  // deduces it from exactly-typed arguments (float, float *, float *, int).
  std::vector<float> y(n, 1.0f);
  float *dy = to_device(y);
  EXPECT(dy);
  hipLaunchKernelGGL(hdr_axpy, dim3((n + 63) / 64), dim3(64), 0, 0, 3.0f, da, dy, n);
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(y[i] == 1.0f + 3.0f * (a[i] * 2.0f));

  // HIP_KERNEL_NAME with template arguments holding a comma, in a launch and
  // in hipLaunchKernelGGL; a parenthesised template-id.
  HIP_KERNEL_NAME(fill<float, 4>)<<<1, 64>>>(dy, 9.0f);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<int, 3>), dim3(1), dim3(64), 0, 0, di, 11);
  (fill<int, 2>)<<<1, 2, 0, stream>>>(dout, -4);
  hipLaunchKernelGGL((fill<float, 2>), 1, 2, 0, stream, dy + 4, 6.0f);
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(y.data(), dy, 8 * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(iwant.data(), di, 4 * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(out, dout, 3 * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    EXPECT(y[i] == 9.0f);
  EXPECT(y[4] == 6.0f && y[5] == 6.0f);
  EXPECT(iwant[0] == 11 && iwant[1] == 11 && iwant[2] == 11 && iwant[3] == ia[3] * 3 + 10);
  EXPECT(out[0] == -4 && out[1] == -4 && out[2] == 1007);

  // Lambdas for the functor, by a launch and by hipLaunchKernelGGL.
  const int k = 3;
  apply<<<(n + 63) / 64, 64>>>(di, n, [=] __device__(int i) { return i * k; });
  hipLaunchKernelGGL(apply, dim3(1), dim3(64), 0, 0, di, 50, [] __device__(int i) { return -i; });
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(iwant.data(), di, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(iwant[i] == (i < 50 ? -i : 3 * i));

  CHECK(hipStreamDestroy(stream));
  CHECK(hipFree(da));
  CHECK(hipFree(db));
  CHECK(hipFree(dc));
  CHECK(hipFree(dy));
  CHECK(hipFree(di));
  CHECK(hipFree(dout));
  std::printf("PASSED\n");
  return 0;
}

template <typename T>
__global__ void later(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += (T)i;
}
