// SPDX-License-Identifier: MIT
// Template kernels launched without template arguments: chevron_deduce with a
// lambda that picks the specialisation through __ah_deduce_NAME, declared
// after each declaration of a template that a launch names (and only those).
#include <cstddef>
#include <memory>

#define LAUNCH(p) scale<<<1, 64>>>(p, 2.0f, 64)
#define GGL(p) hipLaunchKernelGGL(scale, 1, 64, 0, 0, p, 2.0f, 64)

template <typename T> __global__ void scale(T *p, T s, int n);

template <typename T>
__global__ void scale(T *p, T s, int n) { p[threadIdx.x] *= s; }

namespace ns {
template <typename T, int B = 256, typename = void, template <class> class Tt = std::allocator,
          class... Rest>
__global__ void many(T *p, Rest... r) {}

template <typename T, size_t = 8, std::size_t = 4, unsigned int = 2u>
__global__ void unnamed(T *p) {}

template <int N = 3> __global__ void noparams() {}

template <typename T> __global__ void unused(T *p) {} // no launch: no declaration added
__global__ void other(float *p) {}
}

namespace a { template <typename T> __global__ void twice(T *p) {} }
namespace b {
__global__ void twice(float *p) {} // another namespace: there b::twice is meant
void launch_twice(float *f) { twice<<<1, 1>>>(f); }
}

template <typename T> __global__ void over(T *p) {}
__global__ void over(int *p) {} // an overload beside the template: deduction picks

void host(float *f, hipStream_t s) {
  scale<<<1, 64>>>(f, 2.0f, 64);
  ::scale<<<dim3(1), dim3(64), 0, s>>>(f, 2.0f, 64);
  ns::many<<<1,
             64, 128>>>(f, 1, 2);
  (ns::unnamed)<<<1, 1>>>(f);
  ns::noparams<<<1, 1>>>();                    // no arguments
  HIP_KERNEL_NAME(ns::unnamed)<<<1, 1>>>(f);
  ns::other<<<1, 1>>>(f);
  scale<float><<<1, 64>>>(f, 2.0f, 64);      // explicit: chevron
  over<<<1, 1>>>(f);
  LAUNCH(f);
  hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, s, f, 2.0f, 64);
  hipLaunchKernelGGL(ns::many, dim3(1),
                     dim3(64), 0, 0, f);
  hipLaunchKernelGGL(ns::other, 1, 1, 0, 0, f);            // not a template: the macro
  hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::many<float, 4>), 1, 1, 0, 0, f); // the macro
  GGL(f);
}
