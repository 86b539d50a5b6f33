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

/* The checks that follow the kernel's (a device, a block size), then the
 * count: for a kernel and a module's function alike. */
static hipError_t blocks_of(const void *fn, int block_size, size_t shmem, unsigned flags,
                            int *blocks) {
  struct ah_device *dev = ah_current_device();

  if (dev == NULL)
    return hipErrorNoDevice;
  if (block_size <= 0)
    return hipErrorInvalidValue;
  return ah_occupancy_blocks(dev, fn, block_size, shmem, flags, blocks);
}

/* The same for the block-size search (a limit of 0: the kernel's own). */
static hipError_t block_size_of(const void *fn, size_t (*smem)(void *ctx, int threads), void *ctx,
                                size_t shmem, int limit, unsigned flags, int *grid, int *block) {
  struct ah_device *dev = ah_current_device();

  if (dev == NULL)
    return hipErrorNoDevice;
  if (limit < 0)
    return hipErrorInvalidValue;
  return ah_occupancy_block_size(dev, fn, smem, ctx, shmem, limit, flags, grid, block);
}

AH_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(numBlocks != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_launch_is_kernel(f));
  AH_RETURN(blocks_of(f, blockSize, dynSharedMemPerBlk, flags, numBlocks));
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
  AH_ENTER();
  AH_REQUIRE(gridSize != NULL && blockSize != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_launch_is_kernel(f));
  AH_RETURN(block_size_of(f, smem, ctx, dynSharedMemPerBlk, blockSizeLimit, flags, gridSize,
                          blockSize));
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
  AH_ENTER();
  AH_REQUIRE(numBlocks != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_module_function(f, &fn, &sig));
  AH_RETURN(blocks_of(fn, blockSize, dynSharedMemPerBlk, flags, numBlocks));
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
  AH_ENTER();
  AH_REQUIRE(gridSize != NULL && blockSize != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_module_function(f, &fn, &sig));
  AH_RETURN(block_size_of(fn, NULL, NULL, dynSharedMemPerBlk, blockSizeLimit, flags, gridSize,
                          blockSize));
}

AH_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize,
                                                             hipFunction_t f,
                                                             size_t dynSharedMemPerBlk,
                                                             int blockSizeLimit) {
  return hipModuleOccupancyMaxPotentialBlockSizeWithFlags(
      gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit, hipOccupancyDefault);
}
