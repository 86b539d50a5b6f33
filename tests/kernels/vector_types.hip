// SPDX-License-Identifier: MIT
// HIP vector types on the host and in a kernel: make_*, component-wise
// arithmetic with vectors and scalars, integer-only operators, comparisons,
// the layouts host and device share, and (host side) HIP's constructors. Each
// thread computes the same expressions as the host loop below; results must
// match exactly. The kernel code sticks to make_* because hipcc's NVIDIA pass
// compiles it with CUDA's vector structs, which have no constructors (as with
// ROCm's HIP on NVIDIA); the constructor checks are for the CPU pass only.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define HIP_CHECK(x)                                                              \
  do {                                                                            \
    hipError_t e_ = (x);                                                          \
    if (e_ != hipSuccess) {                                                       \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorName(e_)); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 layout");
static_assert(sizeof(float3) == 12, "float3 layout");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2 layout");
static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4, "uchar4 layout");

struct result {
  float4 f;
  int4 i;
  double2 d;
  uchar4 u;
  short2 s;
  int eq; // bit 0: equal vectors compare equal, bit 1: different ones unequal
};

// The one definition both sides use, so host and device must agree.
__host__ __device__ static result compute(int n) {
  result r;
  float4 a = make_float4(n, n + 1, n + 2, n + 3);
  float4 b = make_float4(0.5f, 0.5f, 0.5f, 0.5f);
  r.f = (a + b) * 2.0f - a / 4.0f;
  r.f += make_float4(1, 2, 3, 4);
  r.f = -r.f;
  ++r.f;

  int4 i = make_int4(n, 2 * n, 3 * n, n + 5); // non-negative: shifting a negative left is UB
  r.i = ((i << 2) | 1) ^ (i >> 1);
  r.i %= 7;
  r.i = r.i + ~make_int4(n, n, n, n);

  double2 d = make_double2(2.0, 4.0);
  r.d = d * (double)n + 1.5 / d;

  uchar4 u = make_uchar4(250, 251, 252, 253);
  r.u = u + (unsigned char)(n & 7); // wraps modulo 256, as a uchar component does

  short2 s = make_short2(-n, n);
  r.s = s * (short)3;
  r.s -= make_short2(1, 1);

  r.eq = (a == make_float4(n, n + 1, n + 2, n + 3) ? 1 : 0) | (a != b ? 2 : 0);
  return r;
}

__global__ void vector_kernel(result *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = compute(i);
}

static bool same(const result &x, const result &y) {
  return x.f == y.f && x.i == y.i && x.d == y.d && x.u == y.u && x.s == y.s && x.eq == y.eq;
}

int main() {
  const int n = 1000;

  // Host-only checks with known values, independent of compute().
  double2 d2 = make_double2(2.0, 4.0);
  if (d2.x != 2.0 || d2.y != 4.0) {
    std::printf("make_double2 gave (%g, %g)\n", d2.x, d2.y);
    return 1;
  }
  float4 f = make_float4(1, 2, 3, 4) * 2.0f + 1.0f;
  if (!(f == make_float4(3, 5, 7, 9))) {
    std::printf("float4 arithmetic gave (%g %g %g %g)\n", f.x, f.y, f.z, f.w);
    return 1;
  }
  uchar4 u = make_uchar4(255, 0, 0, 0) + (unsigned char)1;
  int4 m = make_int4(7, 8, 9, 10) % 4;
  if (u.x != 0 || u.y != 1 || !(m == make_int4(3, 0, 1, 2)) ||
      (make_int2(1, 2) != make_int2(1, 2))) {
    std::printf("integer vector operators are wrong\n");
    return 1;
  }
#if !defined(__CUDACC__)
  // HIP's constructors: one value per component, or one value for all.
  float4 c4(1, 2, 3, 4);
  float4 b4(0.5f);
  int2 c2{7, 8};
  double3 z3{};
  if (!(c4 == make_float4(1, 2, 3, 4)) || !(b4 == 0.5f) || c2.y != 8 || z3.z != 0.0) {
    std::printf("vector constructors are wrong\n");
    return 1;
  }
#endif
  dim3 g(4);
  if (g.x != 4 || g.y != 1 || g.z != 1) {
    std::printf("dim3(4) gave (%u %u %u)\n", g.x, g.y, g.z);
    return 1;
  }

  // The same expressions in a kernel.
  result *d_out;
  HIP_CHECK(hipMalloc(&d_out, n * sizeof(result)));
  hipLaunchKernelGGL(vector_kernel, dim3((n + 127) / 128), dim3(128), 0, 0, d_out, n);
  HIP_CHECK(hipGetLastError());
  vector_kernel<<<(n + 255) / 256, 256>>>(d_out, n);
  HIP_CHECK(hipGetLastError());
  result *h_out = new result[n];
  HIP_CHECK(hipMemcpy(h_out, d_out, n * sizeof(result), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_out));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    result want = compute(i);
    if (!same(h_out[i], want) || want.eq != 3) {
      if (bad++ < 5)
        std::printf("thread %d: f.x %g want %g, i.x %d want %d, eq %d\n", i, h_out[i].f.x,
                    want.f.x, h_out[i].i.x, want.i.x, h_out[i].eq);
    }
  }
  delete[] h_out;
  if (bad) {
    std::printf("%d of %d threads wrong\n", bad, n);
    return 1;
  }
  std::printf("vector types: %d threads agree with the host\n", n);
  return 0;
}
