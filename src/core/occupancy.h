/* SPDX-License-Identifier: MIT */
/* Occupancy (src/core/occupancy.c): how many blocks of a kernel fit on one
 * multiprocessor, and the block size that keeps the most threads resident.
 * A backend may answer the first question itself (the occupancy op); the
 * core answers it otherwise from the device's properties, and always runs the
 * block-size search. No argument checks here: src/api/hip_occupancy.c. */
#ifndef AH_OCCUPANCY_H
#define AH_OCCUPANCY_H

#include "internal.h"

/* The model used when the backend has no occupancy op (docs/occupancy.md):
 * the least of the limits of p on threads, blocks, shared memory and
 * registers for blocks of `threads` threads using `shmem` bytes of dynamic
 * shared memory plus what fa says the kernel needs. */
int ah_occupancy_model(const hipDeviceProp_t *p, const hipFuncAttributes *fa, int threads,
                       size_t shmem);

/* Blocks per multiprocessor for kernel fn on dev; threads >= 1. A block
 * larger than the kernel or device allows gives 0, as HIP does. */
hipError_t ah_occupancy_blocks(struct ah_device *dev, const void *fn, int threads, size_t shmem,
                               unsigned flags, int *blocks);

/* The block size (at most `limit` threads when limit > 0) that keeps the most
 * threads of fn resident per multiprocessor, the largest such size on ties,
 * and the grid that fills the device with it. smem(ctx, b), if not NULL,
 * gives the dynamic shared memory of a block of b threads; else every block
 * uses shmem. Nothing fits: both 0. */
hipError_t ah_occupancy_block_size(struct ah_device *dev, const void *fn,
                                   size_t (*smem)(void *ctx, int threads), void *ctx,
                                   size_t shmem, int limit, unsigned flags, int *grid,
                                   int *block);

#endif
