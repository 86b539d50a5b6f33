/* SPDX-License-Identifier: MIT */
/* Occupancy: the core's model of how many blocks fit on a multiprocessor
 * (used by backends without an occupancy op, the CPU's included) and the
 * block-size search behind hipOccupancyMaxPotentialBlockSize and its C++
 * variants, which asks the backend (or the model) about each candidate size
 * in turn, as CUDA's own helper does. */
#include "occupancy.h"
#include "device_ops.h"

#include <limits.h>
#include <string.h>

static int min_int(int a, int b) {
  return a < b ? a : b;
}

int ah_occupancy_model(const hipDeviceProp_t *p, const hipFuncAttributes *fa, int threads,
                       size_t shmem) {
  int warp = p->warpSize > 0 ? p->warpSize : 1;
  int max_block = p->maxThreadsPerBlock;
  size_t shared_limit, used;
  long long rounded;
  int n = INT_MAX;

  if (fa->maxThreadsPerBlock > 0 && fa->maxThreadsPerBlock < max_block)
    max_block = fa->maxThreadsPerBlock;
  if (threads <= 0 || threads > max_block)
    return 0;
  /* Hardware schedules whole warps: 65 threads hold two warps' resources. */
  rounded = ((long long)threads + warp - 1) / warp * warp;
  if (p->maxThreadsPerMultiProcessor > 0)
    n = (int)(p->maxThreadsPerMultiProcessor / rounded);
  if (p->maxBlocksPerMultiProcessor > 0)
    n = min_int(n, p->maxBlocksPerMultiProcessor);

  shared_limit = p->sharedMemPerBlockOptin > p->sharedMemPerBlock ? p->sharedMemPerBlockOptin
                                                                  : p->sharedMemPerBlock;
  if (shmem > SIZE_MAX - fa->sharedSizeBytes)
    return 0;
  used = fa->sharedSizeBytes + shmem;
  if (used > shared_limit)
    return 0;
  if (used > 0 && p->sharedMemPerMultiprocessor > 0) {
    size_t by_shared = p->sharedMemPerMultiprocessor / used;
    n = by_shared < (size_t)n ? (int)by_shared : n;
  }

  if (fa->numRegs > 0) {
    long long regs = (long long)fa->numRegs * rounded;

    if (p->regsPerBlock > 0 && regs > p->regsPerBlock)
      return 0;
    if (p->regsPerMultiprocessor > 0)
      n = min_int(n, (int)(p->regsPerMultiprocessor / regs));
  }
  return n == INT_MAX ? 1 : n; /* no limit known: the checks above passed */
}

/* What the model needs to know of fn: the backend's attributes when it has
 * them, else none of its own (a host-compiled kernel uses no registers or
 * shared memory the device must reserve) and the device's thread limit. */
static hipError_t kernel_attributes(struct ah_device *dev, const void *fn, hipFuncAttributes *fa) {
  hipError_t err;

  memset(fa, 0, sizeof(*fa));
  if ((err = ah_dev_function_check(dev, fn)) != hipSuccess)
    return err;
  err = ah_dev_function_attributes(dev, fn, fa);
  if (err != hipErrorNotSupported)
    return err;
  fa->maxThreadsPerBlock = dev->props.maxThreadsPerBlock;
  return hipSuccess;
}

/* As ah_occupancy_blocks, with fn's attributes already in hand. */
static hipError_t blocks_for(struct ah_device *dev, const void *fn, const hipFuncAttributes *fa,
                             int threads, size_t shmem, unsigned flags, int *blocks) {
  if (dev->backend->occupancy != NULL) {
    int max_block = dev->props.maxThreadsPerBlock;

    if (fa->maxThreadsPerBlock > 0 && fa->maxThreadsPerBlock < max_block)
      max_block = fa->maxThreadsPerBlock;
    if (threads > max_block) {
      *blocks = 0;
      return hipSuccess;
    }
    return dev->backend->occupancy(dev, fn, threads, shmem, flags, blocks);
  }
  *blocks = ah_occupancy_model(&dev->props, fa, threads, shmem);
  /* HIP's and CUDA's rule: a cooperative grid of this many blocks per
   * multiprocessor launches (their documented recipe sizes one so). Where the
   * backend's cooperative limit is lower, that is the answer, 1 at least. */
  if (*blocks > 1 && dev->backend->coop_max_blocks != NULL && dev->props.multiProcessorCount > 0) {
    uint64_t per = ah_dev_coop_max_blocks(dev, (unsigned)threads, shmem) /
                   (uint64_t)dev->props.multiProcessorCount;

    if ((uint64_t)*blocks > per)
      *blocks = per < 1 ? 1 : (int)per;
  }
  return hipSuccess;
}

hipError_t ah_occupancy_blocks(struct ah_device *dev, const void *fn, int threads, size_t shmem,
                               unsigned flags, int *blocks) {
  hipFuncAttributes fa;
  hipError_t err = kernel_attributes(dev, fn, &fa);

  if (err != hipSuccess)
    return err;
  return blocks_for(dev, fn, &fa, threads, shmem, flags, blocks);
}

hipError_t ah_occupancy_block_size(struct ah_device *dev, const void *fn,
                                   size_t (*smem)(void *ctx, int threads), void *ctx,
                                   size_t shmem, int limit, unsigned flags, int *grid,
                                   int *block) {
  const hipDeviceProp_t *p = &dev->props;
  int warp = p->warpSize > 0 ? p->warpSize : 1;
  long long best_threads = 0;
  int best_block = 0, best_blocks = 0, max_block, aligned;
  hipFuncAttributes fa;
  hipError_t err = kernel_attributes(dev, fn, &fa);

  if (err != hipSuccess)
    return err;
  max_block = p->maxThreadsPerBlock;
  if (fa.maxThreadsPerBlock > 0 && fa.maxThreadsPerBlock < max_block)
    max_block = fa.maxThreadsPerBlock;
  if (limit > 0 && limit < max_block)
    max_block = limit;
  /* Candidates: the largest allowed size, then each whole number of warps
   * below it. Scanning down keeps the largest size among equals. */
  aligned = (max_block + warp - 1) / warp * warp;
  for (; aligned > 0; aligned -= warp) {
    int threads = aligned < max_block ? aligned : max_block;
    size_t bytes = smem != NULL ? smem(ctx, threads) : shmem;
    int n = 0;

    err = blocks_for(dev, fn, &fa, threads, bytes, flags, &n);
    if (err != hipSuccess)
      return err;
    if ((long long)n * threads > best_threads) {
      best_threads = (long long)n * threads;
      best_block = threads;
      best_blocks = n;
    }
    /* A full multiprocessor cannot be beaten by a smaller block. */
    if (p->maxThreadsPerMultiProcessor > 0 && best_threads >= p->maxThreadsPerMultiProcessor)
      break;
  }
  *block = best_block;
  *grid = best_blocks * (p->multiProcessorCount > 0 ? p->multiProcessorCount : 1);
  return hipSuccess;
}
