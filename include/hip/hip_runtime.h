/* SPDX-License-Identifier: MIT */
/* What a HIP program includes: the runtime API, the vector types and, in
 * C++, the launch machinery and the kernel language of the compiler in use:
 * the CPU device's for the host compiler, CUDA's underpinnings under nvcc
 * (hipcc's NVIDIA pass). In C only the API and the vector types. */
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H

#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>

#ifdef __cplusplus
/* AMD's hip_runtime.h brings these along; HIP programs use them unannounced. */
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <hip/anyhip/common/arch_features.h>
#include <hip/anyhip/common/launch.hpp>

#if defined(__CUDACC__)
#include <hip/anyhip/nvidia/kernel.h>
#else
#include <hip/anyhip/cpu/kernel.h>
#endif

/* HIP's older spellings of the built-in indices, still found in HIP code. */
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
#endif

#endif
