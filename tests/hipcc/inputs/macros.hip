// SPDX-License-Identifier: MIT
// Launches, extern __shared__ and kernel definitions inside macros, kernels under #if (registered
// under the same conditions), an include guard (not repeated), code in #if 0.
#ifndef MACROS_HIP
#define MACROS_HIP

#define LAUNCH(kernel, n, ...) kernel<<<(n + 255) / 256, 256>>>(__VA_ARGS__)
#define LAUNCH_ON(kernel, s) \
  kernel<<<1, 1, 0, s>>>()

#define DYNAMIC_SHARED(type, name) extern __shared__ type name[]

// Kernels a macro defines register in the macro's body, names pasted.
#define DEFINE_ZERO(T) \
  __global__ void __launch_bounds__(64) T##_zero(T *p) { p[threadIdx.x] = 0; } \
  __global__ void T##_nop() {}
DEFINE_ZERO(int)

__global__ void uses_macro(float *out) {
  DYNAMIC_SHARED(float, buf);
  out[0] = buf[0];
}

#ifdef USE_DOUBLE
__global__ void scale(double *p) {}
#elif defined(USE_HALF)
__global__ void scale(short *p) {}
#else
__global__ void scale(float *p) {}
#endif

#if 0
__global__ void gone( { unbalanced k<<<1>>>
#endif

#if defined(__HIPCC__)
__global__ void always() {}
#endif

void host(float *p, hipStream_t s) {
  LAUNCH(scale, 1000, p);
  LAUNCH_ON(always, s);
}

#endif
