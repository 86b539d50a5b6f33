// SPDX-License-Identifier: MIT
// The code object of the module test (tests/module/module_test.c), built with
// `hipcc --genco -o kernels.co kernels.hip`: kernels found by name, with
// parameter lists whose packed `extra` layout needs padding, device
// variables read through hipModuleGetGlobal, and texture references found by
// hipModuleGetTexRef.

extern "C" {
__device__ int counter = 42;
__device__ float table[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
}

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    y[i] = a * x[i] + y[i];
}

// Padding everywhere: char, then double at 8, pointer at 16, short at 24.
extern "C" __global__ void mixed(char c, double d, long long *out, short s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = (long long)c * 1000000 + (long long)d * 1000 + s + i;
}

// Counts threads into `counter`, and copies table[] out.
extern "C" __global__ void bump(float *copy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  atomicAdd(&counter, 1);
  if (i < 16)
    copy[i] = table[i];
}

// A C++ kernel: found by its mangled name, _Z5scalePffi.
__global__ void scale(float *p, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    p[i] *= f;
}

// A host function with C linkage: a symbol of the library, not a kernel.
extern "C" int not_a_kernel(int x) { return x + 1; }

// For hipModuleLaunchCooperativeKernel: out[0] sums data[], and after the
// grid-wide barrier thread 0 copies the complete sum to out[1].
#include <hip/hip_cooperative_groups.h>
extern "C" __global__ void grid_sum(const int *data, int *out, int n) {
  cooperative_groups::grid_group g = cooperative_groups::this_grid();
  int i = (int)g.thread_rank();

  if (i < n)
    atomicAdd(&out[0], data[i]);
  g.sync();
  if (i == 0)
    out[1] = out[0];
}

// Static __shared__ memory in a loaded module (the arena of
// docs/cpu-engine.md): each block reverses its slice of data through a
// __shared__ array, spread over 16 KiB (4 pages: a second copy of the
// module is placed past them, where an arena that did not grow ends).
extern "C" __global__ void reverse_blocks(int *data) {
  __shared__ int tile[256 * 16];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;

  tile[t * 16] = data[base + t];
  __syncthreads();
  data[base + t] = tile[(blockDim.x - 1 - t) * 16];
}

// Kernels and variables defined through a macro, names pasted (ROCm's unit
// suite, module/get_global_test_module.cc): hipcc registers each kernel the
// macro's expansions define, so the module finds int_set and float_set.
#define DEFINE_SETTER(type)                                                          \
  __device__ type type##_value = 0;                                                  \
  extern "C" {                                                                       \
  __global__ void type##_set(type v, int *same) {                                    \
    type##_value = v;                                                                \
    *same = (void *)&type##_value == (void *)&type##_value;                          \
  }                                                                                  \
  __global__ void type##_nop() {}                                                    \
  }
DEFINE_SETTER(int)
DEFINE_SETTER(float)

// Texture references (HIP's deprecated texture<T, dim, mode>), host objects
// of the code object that hipModuleGetTexRef finds (ROCm's unit suite,
// module/get_tex_ref_module.cc). The NVIDIA pass sees none (CUDA 12 has no
// texture references); the host code is always the CPU pass's.
#if !defined(__HIP_PLATFORM_NVIDIA__)
texture<float, 2> tex;
texture<int, 1> tex_wrap(1, hipFilterModePoint, hipAddressModeWrap);
#endif
