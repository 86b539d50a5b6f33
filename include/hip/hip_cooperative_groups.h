/* SPDX-License-Identifier: MIT */
/* HIP's cooperative groups: namespace cooperative_groups with thread_block,
 * grid_group, thread_block_tile, coalesced_group, tiled_partition and the
 * free functions, for kernels (C++ only). The CPU device's version runs on
 * the CPU engine (hip/anyhip/cpu/cooperative_groups.hpp); under nvcc it is
 * CUDA's own <cooperative_groups.h>. grid.sync() needs a launch with
 * hipLaunchCooperativeKernel. docs/cooperative-groups.md has the details. */
#ifndef HIP_INCLUDE_HIP_HIP_COOPERATIVE_GROUPS_H
#define HIP_INCLUDE_HIP_HIP_COOPERATIVE_GROUPS_H

#include <hip/hip_runtime.h>

#ifdef __cplusplus
#if defined(__CUDACC__)
#include <hip/anyhip/nvidia/cooperative_groups.h>
#else
#include <hip/anyhip/cpu/cooperative_groups.hpp>
#endif
#endif

#endif
