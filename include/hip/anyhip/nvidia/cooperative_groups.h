/* SPDX-License-Identifier: MIT */
/* Cooperative groups for hipcc's NVIDIA pass: CUDA's <cooperative_groups.h>
 * already has HIP's names (this_thread_block, this_grid, tiled_partition,
 * thread_block_tile, coalesced_threads, sync, shfl*, ballot, any, all,
 * match_*), with CUDA's return types: a tile's ballot is a 32-bit mask there.
 * HIP's cg_type() and thread_block::is_valid() have no CUDA counterpart;
 * multi_grid_group is left out, as on the CPU device. */
#ifndef ANYHIP_NVIDIA_COOPERATIVE_GROUPS_H
#define ANYHIP_NVIDIA_COOPERATIVE_GROUPS_H

#if !defined(__CUDACC__)
#error "hip/anyhip/nvidia/cooperative_groups.h is for nvcc (hipcc's NVIDIA pass) only"
#endif

/* hip/anyhip/nvidia/kernel.h spells HIP's warp functions as macros over
 * CUDA's; CUDA's headers declare those names themselves, so the macros are
 * set aside while they are read. */
#pragma push_macro("__shfl")
#undef __shfl
#pragma push_macro("__shfl_up")
#undef __shfl_up
#pragma push_macro("__shfl_down")
#undef __shfl_down
#pragma push_macro("__shfl_xor")
#undef __shfl_xor
#pragma push_macro("__ballot")
#undef __ballot
#pragma push_macro("__any")
#undef __any
#pragma push_macro("__all")
#undef __all
#pragma push_macro("__activemask")
#undef __activemask
#pragma push_macro("__ballot_sync")
#undef __ballot_sync
#pragma push_macro("__match_any_sync")
#undef __match_any_sync
#pragma push_macro("__match_all_sync")
#undef __match_all_sync
#pragma push_macro("__all_sync")
#undef __all_sync
#pragma push_macro("__any_sync")
#undef __any_sync
#pragma push_macro("__shfl_sync")
#undef __shfl_sync
#pragma push_macro("__shfl_up_sync")
#undef __shfl_up_sync
#pragma push_macro("__shfl_down_sync")
#undef __shfl_down_sync
#pragma push_macro("__shfl_xor_sync")
#undef __shfl_xor_sync
#pragma push_macro("__reduce_add_sync")
#undef __reduce_add_sync
#pragma push_macro("__reduce_min_sync")
#undef __reduce_min_sync
#pragma push_macro("__reduce_max_sync")
#undef __reduce_max_sync
#pragma push_macro("__reduce_and_sync")
#undef __reduce_and_sync
#pragma push_macro("__reduce_or_sync")
#undef __reduce_or_sync
#pragma push_macro("__reduce_xor_sync")
#undef __reduce_xor_sync

#include <cooperative_groups.h>

#pragma pop_macro("__shfl")
#pragma pop_macro("__shfl_up")
#pragma pop_macro("__shfl_down")
#pragma pop_macro("__shfl_xor")
#pragma pop_macro("__ballot")
#pragma pop_macro("__any")
#pragma pop_macro("__all")
#pragma pop_macro("__activemask")
#pragma pop_macro("__ballot_sync")
#pragma pop_macro("__match_any_sync")
#pragma pop_macro("__match_all_sync")
#pragma pop_macro("__all_sync")
#pragma pop_macro("__any_sync")
#pragma pop_macro("__shfl_sync")
#pragma pop_macro("__shfl_up_sync")
#pragma pop_macro("__shfl_down_sync")
#pragma pop_macro("__shfl_xor_sync")
#pragma pop_macro("__reduce_add_sync")
#pragma pop_macro("__reduce_min_sync")
#pragma pop_macro("__reduce_max_sync")
#pragma pop_macro("__reduce_and_sync")
#pragma pop_macro("__reduce_or_sync")
#pragma pop_macro("__reduce_xor_sync")

#endif
