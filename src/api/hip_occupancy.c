/* SPDX-License-Identifier: MIT */
/* Occupancy entry points: blocks of a kernel resident per multiprocessor, and
 * the block size that maximizes them (the C function, and the search the C++
 * templates of hip_runtime.h call with a per-block-size shared memory
 * function), for kernels and for a module's function handles. Codes are
 * HIP's: a block size of 0 is hipErrorInvalidValue, one above the kernel's
 * limit gives 0 blocks and hipSuccess, a pointer that is no registered kernel
 * hipErrorInvalidDeviceFunction. */
#include "launch.h"
#include "occupancy.h"

#define OCCUPANCY_FLAGS hipOccupancyDisableCachingOverride

AH_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(numBlocks != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_launch_is_kernel(f));
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(blockSize > 0, hipErrorInvalidValue);
  AH_RETURN(ah_occupancy_blocks(dev, f, blockSize, dynSharedMemPerBlk, flags, numBlocks));
}

AH_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *f,
                                                                  int blockSize,
                                                                  size_t dynSharedMemPerBlk) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, f, blockSize,
                                                               dynSharedMemPerBlk,
                                                               hipOccupancyDefault);
}

AH_EXPORT hipError_t __ahOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize,
                                                        const void *f,
                                                        size_t (*smem)(void *ctx, int blockSize),
                                                        void *ctx, size_t dynSharedMemPerBlk,
                                                        int blockSizeLimit, unsigned int flags) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(gridSize != NULL && blockSize != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_launch_is_kernel(f));
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(blockSizeLimit >= 0, hipErrorInvalidValue); /* 0: the kernel's own limit */
  AH_RETURN(ah_occupancy_block_size(dev, f, smem, ctx, dynSharedMemPerBlk, blockSizeLimit, flags,
                                    gridSize, blockSize));
}

AH_EXPORT hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize,
                                                       const void *f, size_t dynSharedMemPerBlk,
                                                       int blockSizeLimit) {
  return __ahOccupancyMaxPotentialBlockSize(gridSize, blockSize, f, NULL, NULL,
                                            dynSharedMemPerBlk, blockSizeLimit,
                                            hipOccupancyDefault);
}

/* ---- the same for a module's function handle ------------------------------ */

AH_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(numBlocks != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_module_function(f, &fn, &sig));
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(blockSize > 0, hipErrorInvalidValue);
  AH_RETURN(ah_occupancy_blocks(dev, fn, blockSize, dynSharedMemPerBlk, flags, numBlocks));
}

AH_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                        hipFunction_t f,
                                                                        int blockSize,
                                                                        size_t dynSharedMemPerBlk) {
  return hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, f, blockSize, dynSharedMemPerBlk, hipOccupancyDefault);
}

AH_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize,
                                                                      hipFunction_t f,
                                                                      size_t dynSharedMemPerBlk,
                                                                      int blockSizeLimit,
                                                                      unsigned int flags) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(gridSize != NULL && blockSize != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_module_function(f, &fn, &sig));
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(blockSizeLimit >= 0, hipErrorInvalidValue); /* 0: the kernel's own limit */
  AH_RETURN(ah_occupancy_block_size(dev, fn, NULL, NULL, dynSharedMemPerBlk, blockSizeLimit, flags,
                                    gridSize, blockSize));
}

AH_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize,
                                                             hipFunction_t f,
                                                             size_t dynSharedMemPerBlk,
                                                             int blockSizeLimit) {
  return hipModuleOccupancyMaxPotentialBlockSizeWithFlags(
      gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit, hipOccupancyDefault);
}
