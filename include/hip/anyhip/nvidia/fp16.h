/* SPDX-License-Identifier: MIT */
/* hip_fp16.h under nvcc (hipcc's NVIDIA pass): CUDA's cuda_fp16.h, which has
 * every name of HIP's half-precision API with the same meaning. HIP's warp
 * function names are macros in nvidia/kernel.h, and cuda_fp16.h declares
 * functions with those names, so the macros are set aside while it is read;
 * HIP's mask-less __shfl(h, ...) then reaches CUDA's __shfl_sync overloads
 * for __half and __half2 through anyhip::nv::shfl. */
#ifndef ANYHIP_NVIDIA_FP16_H
#define ANYHIP_NVIDIA_FP16_H

#if !defined(__CUDACC__)
#error "hip/anyhip/nvidia/fp16.h is for nvcc (hipcc's NVIDIA pass) only"
#endif

#include <hip/anyhip/nvidia/cuda_header_begin.h>
#include <cuda_fp16.h>
#include <hip/anyhip/nvidia/cuda_header_end.h>

/* AMD's mixed-precision dot product, which CUDA lacks: a.x * b.x + a.y * b.y
 * + c in float, clamped to [0, 1] when saturate is set (as on the CPU). */
__host__ __device__ inline float amd_mixed_dot(__half2 a, __half2 b, float c, bool saturate) {
  float r = __low2float(a) * __low2float(b) + (__high2float(a) * __high2float(b) + c);
  return saturate ? (r > 1.0f ? 1.0f : r > 0.0f ? r : 0.0f) : r;
}

/* HIP's half-precision atomic adds: CUDA's (__half2 from sm_60, __half from
 * sm_70). */
__device__ inline __half2 unsafeAtomicAdd(__half2 *addr, __half2 val) { return atomicAdd(addr, val); }
__device__ inline __half unsafeAtomicAdd(__half *addr, __half val) { return atomicAdd(addr, val); }

#endif
