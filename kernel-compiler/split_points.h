// SPDX-License-Identifier: MIT
// The names and codes the pass recognises, from the kernel language's
// contract with the CPU engine (include/hip/anyhip/cpu/state.h and
// block_abi.h). Kept in one place so that a rename there is one edit here.
#ifndef ANYHIP_KERNEL_COMPILER_SPLIT_POINTS_H
#define ANYHIP_KERNEL_COMPILER_SPLIT_POINTS_H

#include <hip/anyhip/cpu/block_abi.h>
#include <hip/anyhip/cpu/state.h>

#include <cstdint>

namespace anyhip {

// Calls that every thread of a block (or warp) must reach before any goes
// on: the block function is cut at each of them.
constexpr const char *kBarrierFn = "__ah_cpu_barrier"; // int (int op, int predicate)
constexpr const char *kWarpFn = "__ah_cpu_warp";       // u64 (int op, u64 value, int arg, int width, u64 mask)
// grid.sync(): needs every block resident at once; such kernels keep fibers.
constexpr const char *kGridSyncFn = "__ah_cpu_grid_sync";
// multi_grid_group::sync(): every block of every grid of a multi-device launch.
constexpr const char *kMultiGridSyncFn = "__ah_cpu_multi_grid_sync";
// A polling point (clock64(), wall_clock64(), s_sleep): a thread that spins
// on the clock or on another thread's store needs its block-mates to run
// meanwhile, so such kernels keep fibers too (the engine switches there).
constexpr const char *kPollFn = "__ah_cpu_poll";

// Thread-local built-ins.
constexpr const char *kThreadIdxVar = "threadIdx";
constexpr const char *kBlockDimVar = "blockDim";
constexpr const char *kBlockIdxVar = "blockIdx";
constexpr const char *kGridDimVar = "gridDim";
constexpr const char *kLaneVar = "__ah_cpu_lane";
constexpr const char *kWarpSizeVar = "warpSize";
constexpr const char *kSharedVar = "__ah_cpu_shared"; // dynamic shared memory

// block_abi.h's numbers, as the pass uses them.
constexpr uint32_t kAbi = AH_CPU_BLOCK_ABI;
constexpr uint32_t kPcDone = AH_CPU_PC_DONE;
constexpr uint32_t kPcRun = AH_CPU_PC_RUN;
constexpr uint32_t kSplitWarp = AH_CPU_SPLIT_WARP;
constexpr uint32_t kSplitInline = AH_CPU_SPLIT_INLINE;
// state.h's shuffle ops: the ones a block function may compute itself.
constexpr uint32_t kShfl = AH_CPU_WARP_SHFL, kShflUp = AH_CPU_WARP_SHFL_UP,
                   kShflDown = AH_CPU_WARP_SHFL_DOWN, kShflXor = AH_CPU_WARP_SHFL_XOR;
constexpr uint32_t kOpDynamic = AH_CPU_SPLIT_OP_DYNAMIC;

} // namespace anyhip

#endif
