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
#include <hip/anyhip/nvidia/texture.h>
#else
#include <hip/anyhip/cpu/kernel.h>
#include <hip/anyhip/cpu/texture.h>
#endif

/* AMD's hip_runtime.h declares these short names (device_library_decls.h); HIP code such
 * as ROCm's unit suite uses them as types (glibc's <sys/types.h> has the same ushort, uint
 * and ulong, which C++ allows twice). */
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

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

/* Occupancy with a kernel instead of its address (HIP's and CUDA's C++
 * overloads). The block-size search itself is in the runtime
 * (__ahOccupancyMaxPotentialBlockSize); a functor giving the dynamic shared
 * memory per block size reaches it through a plain function pointer. */
namespace anyhip {
namespace detail {
template <class F> size_t occupancy_smem(void *ctx, int block_size) {
  return static_cast<size_t>((*static_cast<F *>(ctx))(block_size));
}
} // namespace detail
} // namespace anyhip

template <class T>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T f, int blockSize,
                                                               size_t dynSharedMemPerBlk) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)f, blockSize,
                                                      dynSharedMemPerBlk);
}
template <class T>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)f, blockSize, dynSharedMemPerBlk, flags);
}
template <class T>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, T f,
                                                    size_t dynSharedMemPerBlk = 0,
                                                    int blockSizeLimit = 0) {
  return hipOccupancyMaxPotentialBlockSize(gridSize, blockSize, (const void *)f,
                                           dynSharedMemPerBlk, blockSizeLimit);
}
template <class T>
inline hipError_t hipOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize, T f,
                                                             size_t dynSharedMemPerBlk = 0,
                                                             int blockSizeLimit = 0,
                                                             unsigned int flags = 0) {
  return __ahOccupancyMaxPotentialBlockSize(gridSize, blockSize, (const void *)f, nullptr, nullptr,
                                            dynSharedMemPerBlk, blockSizeLimit, flags);
}
template <typename UnaryFunction, class T>
inline hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *gridSize, int *blockSize, T f, UnaryFunction blockSizeToDynamicSMemSize,
    int blockSizeLimit = 0, unsigned int flags = 0) {
  /* AMD's template refuses a null kernel as an invalid value (the other
   * occupancy functions say hipErrorInvalidDeviceFunction). */
  if ((const void *)f == nullptr)
    return hipErrorInvalidValue;
  return __ahOccupancyMaxPotentialBlockSize(
      gridSize, blockSize, (const void *)f, &::anyhip::detail::occupancy_smem<UnaryFunction>,
      &blockSizeToDynamicSMemSize, 0, blockSizeLimit, flags);
}
template <typename UnaryFunction, class T>
inline hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMem(
    int *gridSize, int *blockSize, T f, UnaryFunction blockSizeToDynamicSMemSize,
    int blockSizeLimit = 0) {
  return hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      gridSize, blockSize, f, blockSizeToDynamicSMemSize, blockSizeLimit, hipOccupancyDefault);
}
#endif

#endif
