// SPDX-License-Identifier: MIT
// Lanes in a warp's chunk of threads. A region after an inline shuffle
// runs its x loop in chunks that each lie in one warp and in one aligned
// warp-sized run of x (block_loops.cpp, openThreadLoops). In such a chunk
// a thread's lane and the kernel's own `threadIdx.x % warpSize` are the
// loop counter minus a value fixed for the chunk, which the optimizer
// cannot see by itself: `if (lane == 0)` and `lane < k` then become bounds
// at which bound_split.h splits the chunk's loop, instead of a mask test
// per thread (and, for a store, a scatter).
#ifndef ANYHIP_KERNEL_COMPILER_LANE_CHUNKS_H
#define ANYHIP_KERNEL_COMPILER_LANE_CHUNKS_H

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>

namespace anyhip {

// Marks, in a chunk's loop body, x (the loop counter, threadIdx.x), t (the
// linear thread id), xa (the chunk's first x rounded down to the warp
// size), xw (the x of the chunk's lane 0) and the warp mask.
void markLaneChunk(llvm::IRBuilder<> &ir, llvm::Value *x, llvm::Value *t, llvm::Value *xa,
                   llvm::Value *xw, llvm::Value *warpMask);

// Once the thread loops' counters are SSA values (after SROA and
// InstCombine): `x & mask` becomes x - xa and `t & mask` becomes x - xw
// inside each marked chunk; the marks are removed. Returns how many were
// rewritten.
unsigned rewriteChunkLanes(llvm::Function &f);

} // namespace anyhip

#endif
