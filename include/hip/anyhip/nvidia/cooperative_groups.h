/* SPDX-License-Identifier: MIT */
/* Cooperative groups for hipcc's NVIDIA pass: CUDA's <cooperative_groups.h>
 * already has HIP's names (this_thread_block, this_grid, tiled_partition,
 * thread_block_tile, coalesced_threads, sync, shfl*, ballot, any, all,
 * match_*), with CUDA's return types: a tile's ballot is a 32-bit mask there.
 * HIP's cg_type() and thread_block::is_valid() have no CUDA counterpart;
 * multi_grid_group is left out: CUDA 12 removed it (the CPU device has it). */
#ifndef ANYHIP_NVIDIA_COOPERATIVE_GROUPS_H
#define ANYHIP_NVIDIA_COOPERATIVE_GROUPS_H

#if !defined(__CUDACC__)
#error "hip/anyhip/nvidia/cooperative_groups.h is for nvcc (hipcc's NVIDIA pass) only"
#endif

#include <hip/anyhip/nvidia/cuda_header_begin.h> /* HIP's warp macros set aside */
#include <cooperative_groups.h>
#include <hip/anyhip/nvidia/cuda_header_end.h>

#endif
