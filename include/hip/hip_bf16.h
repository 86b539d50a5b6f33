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

/* HIP's named bfloat16 values (AMD's amd_hip_bf16.h; CUDA's CUDART_*_BF16). */
#define HIPRT_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define HIPRT_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define HIPRT_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define HIPRT_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define HIPRT_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define HIPRT_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
#define HIPRT_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#endif

#endif
