/* SPDX-License-Identifier: MIT */
/* hip_bf16.h under nvcc (hipcc's NVIDIA pass): CUDA's cuda_bf16.h, whose
 * __nv_bfloat16 and functions HIP's __hip_bfloat16 API mirrors. HIP's warp
 * function names are macros in nvidia/kernel.h, and cuda_bf16.h declares
 * functions with those names, so the macros are set aside while it is read
 * (as in nvidia/fp16.h). */
#ifndef ANYHIP_NVIDIA_FP16_BF16_H
#define ANYHIP_NVIDIA_FP16_BF16_H

#if !defined(__CUDACC__)
#error "hip/anyhip/nvidia/fp16_bf16.h is for nvcc (hipcc's NVIDIA pass) only"
#endif

#include <hip/anyhip/nvidia/cuda_header_begin.h>
#include <cuda_bf16.h>
#include <hip/anyhip/nvidia/cuda_header_end.h>

typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16_raw __hip_bfloat16_raw;
typedef __nv_bfloat162_raw __hip_bfloat162_raw;

#endif
