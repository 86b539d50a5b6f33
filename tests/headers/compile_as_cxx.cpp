/* SPDX-License-Identifier: MIT */
/* Compiles the public headers as C++17 and checks, at compile time, what
 * only C++ has: dim3's constructors, the typed API templates, the launch
 * machinery's overloads (integer or dim3 sizes, template kernels, literal 0
 * for pointers and streams), the signature descriptors and the vector types'
 * constructors and operators. Nothing here runs. */
#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>
#include <hip/anyhip/common/launch.hpp>

#include <type_traits>

/* dim3: defaults of 1, constexpr, C-compatible layout. */
static_assert(dim3().x == 1 && dim3().y == 1 && dim3().z == 1, "dim3 defaults");
static_assert(dim3(4).x == 4 && dim3(4).y == 1 && dim3(4, 5).y == 5, "dim3 constructor");
static_assert(std::is_trivially_copyable<dim3>::value && sizeof(dim3) == 12, "dim3 layout");

/* Signature descriptors: one per parameter list, sizes and alignments as C++
 * sees them, a trailing 0 so that a kernel without parameters still works. */
struct big {
  double d[3];
  char c;
};
using sig3 = anyhip::detail::sig<float, const float *, big>;
static_assert(sig3::sizes[0] == sizeof(float) && sig3::sizes[2] == sizeof(big), "sizes");
static_assert(sig3::aligns[1] == alignof(const float *) && sig3::aligns[2] == alignof(big),
              "aligns");
static_assert(anyhip::detail::sig<>::sizes[0] == 0, "no parameters");

/* Kernels as the CPU pass sees them: plain functions. */
static void k0() {}
static void saxpy(float a, const float *x, float *y, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    y[i] += a * x[i];
}
template <typename T, int N> static void fill(T *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = T(N);
}

/* Vector types: constructors, operators, value semantics. */
static_assert(std::is_trivially_copyable<float4>::value && alignof(float4) == 16, "float4");
static_assert(std::is_standard_layout<double2>::value && sizeof(double2) == 16, "double2");
constexpr int2 v2 = int2(3, 4) + int2(1) * 2;
static_assert(v2.x == 5 && v2.y == 6, "int2 arithmetic");
static_assert((int4(1, 2, 3, 4) << 1) == int4(2, 4, 6, 8), "shift");
static_assert(float3(1.0f) == 1.0f && float3(1, 2, 3) != float3(1, 2, 4), "compare");

/* The API templates resolve as HIP's do. Referenced, never called. */
int ah_header_compiles_as_cxx();
int ah_header_compiles_as_cxx() {
  static int symbol[4];
  float *p = nullptr;
  void *args[4] = {};
  size_t bytes = 0;

  if (hipMalloc(&p, 16) != hipSuccess || hipHostMalloc(&p, 16) != hipSuccess ||
      hipMallocManaged(&p, 16) != hipSuccess || hipMallocPitch(&p, &bytes, 4, 4) != hipSuccess)
    return 1;
  if (hipMemcpyToSymbol(symbol, p, 4) != hipSuccess ||
      hipMemcpyToSymbol(HIP_SYMBOL(symbol), p, 4, 0, hipMemcpyHostToDevice) != hipSuccess ||
      hipMemcpyFromSymbol(p, symbol, 4) != hipSuccess ||
      hipMemcpyToSymbolAsync(symbol, p, 4, 0, hipMemcpyHostToDevice, 0) != hipSuccess ||
      hipMemcpyFromSymbolAsync(p, symbol, 4, 0, hipMemcpyDeviceToHost) != hipSuccess ||
      hipGetSymbolSize(&bytes, symbol) != hipSuccess ||
      hipGetSymbolAddress((void **)&p, &symbol) != hipSuccess)
    return 1;
  if (hipLaunchKernel(saxpy, dim3(1), dim3(64), args) != hipSuccess ||
      hipLaunchKernel((const void *)saxpy, dim3(1), dim3(64), args, 0, nullptr) != hipSuccess)
    return 1;

  /* What hipcc writes for k<<<...>>>(...): integers or dim3, optional shared
   * size and stream, template kernels, a literal 0 for a pointer. */
  anyhip::detail::chevron(saxpy, 4, 256)(2.0, p, p, 1000);
  anyhip::detail::chevron(saxpy, dim3(4), dim3(256), 0, 0)(2.0f, 0, p, 1000u);
  anyhip::detail::chevron(fill<float, 4>, 1u, 64, 0, hipStreamPerThread)(p, 16);
  anyhip::detail::chevron(k0, size_t(1), 1)();
  hipLaunchKernelGGL(saxpy, dim3(4), dim3(256), 0, 0, 2.0f, p, p, 1000);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<float, 4>), 1, 64, 0, hipStreamDefault, p, 16);
  hipLaunchKernelGGL(k0, dim3(1), dim3(1), 0, 0);
  anyhip::detail::launch_ggl(saxpy, 4, 256, 0, nullptr, 2.0f, p, p, 1000u);
  static int registered = anyhip::detail::register_kernel(saxpy);

  hipPointerAttribute_t attr;
  attr.memoryType = hipMemoryTypeHost;
  float4 f(1, 2, 3, 4);
  f = -f * 2.0f + make_float4(1, 1, 1, 1);
  f += float4(1.0f);
  ++f;
  return registered + (attr.type == hipMemoryTypeHost) + (int)f.x;
}
