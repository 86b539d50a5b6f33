// SPDX-License-Identifier: MIT
// Loop metadata the kernel compiler puts on the thread loops it builds, so
// that its later steps (and LLVM's loop passes) treat some copies apart.
// Each ID is distinct, as LLVM requires of a loop ID; clones of a loop
// (unswitching, splitting) carry it on.
#ifndef ANYHIP_KERNEL_COMPILER_LOOP_MARKS_H
#define ANYHIP_KERNEL_COMPILER_LOOP_MARKS_H

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>

namespace anyhip {

// A thread loop over one warp's chunk of threads (the lanes after an inline
// shuffle, block_loops.cpp): its selects on `x <u b` are split at too
// (bound_split.h), and it is neither interleaved nor unrolled (at most a
// warp of iterations, split in two: a wider step would leave them to the
// scalar remainder, and costs set-up on each of the chunk's loops).
llvm::MDNode *laneChunkLoopId(llvm::LLVMContext &c);
bool isLaneChunkLoop(const llvm::Loop &l);

// The pieces index_tests.h leaves its tests in (a few threads at a block's
// edges): neither vectorised, unrolled nor split.
llvm::MDNode *indexRestLoopId(llvm::LLVMContext &c);
bool isIndexRestLoop(const llvm::Loop &l);

// A loop of a region's masked copy (the threads the engine released, each
// testing its pc): it runs only after the block's threads diverged, so it
// is built plainly, for compile time (issue 14 bounds it at 1.5x g++'s):
// neither vectorised nor unrolled, and no uniform branch is unswitched out
// of it, no bound or index test split, no grid-stride loop interchanged.
llvm::MDNode *maskedCopyLoopId(llvm::LLVMContext &c);
// l, or a loop around it, is one of a masked copy's thread loops.
bool inMaskedCopy(const llvm::Loop &l);

} // namespace anyhip

#endif
