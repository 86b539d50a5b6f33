/* SPDX-License-Identifier: MIT */
/* HIP's bfloat16 API: __hip_bfloat16 and __hip_bfloat162 with conversions,
 * arithmetic, comparisons, operators and math (the names of CUDA's
 * cuda_bf16.h, overloaded as hip_fp16.h's are for __half). On the CPU pass
 * they are anyhip's own, correctly rounded; under nvcc (hipcc's NVIDIA pass)
 * they are CUDA's __nv_bfloat16 and functions. docs/fp16.md. */
#ifndef HIP_INCLUDE_HIP_HIP_BF16_H
#define HIP_INCLUDE_HIP_HIP_BF16_H

#include <hip/hip_common.h>

#ifdef __cplusplus
#if defined(__CUDACC__)
#include <hip/anyhip/nvidia/fp16_bf16.h>
#else
#include <hip/anyhip/cpu/fp16_bf16.hpp>
#endif
#endif

#endif
