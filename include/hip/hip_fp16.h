/* SPDX-License-Identifier: MIT */
/* HIP's half-precision API: __half, __half2 (and half, half2), their
 * conversions, arithmetic, comparisons, operators, math and shuffles. On
 * the CPU pass (host compiler) the types and functions are anyhip's own,
 * bit-exact IEEE binary16 in portable C++; under nvcc (hipcc's NVIDIA pass)
 * they are CUDA's cuda_fp16.h, whose names HIP mirrors. docs/fp16.md. */
#ifndef HIP_INCLUDE_HIP_HIP_FP16_H
#define HIP_INCLUDE_HIP_HIP_FP16_H

#include <hip/hip_common.h>

#ifdef __cplusplus
#if defined(__CUDACC__)
#include <hip/anyhip/nvidia/fp16.h>
#else
#include <hip/anyhip/cpu/fp16.hpp>
#endif
#endif

#endif
