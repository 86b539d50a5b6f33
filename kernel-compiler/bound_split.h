// SPDX-License-Identifier: MIT
// Index-set splitting of thread loops at a uniform bound. In a tree
// reduction's region, `if (tid < s) sh[tid] += sh[tid + s]` runs inside a
// loop over every thread of the block: the work is s threads, the test is
// paid by all, and the vectoriser's overlap check between sh[tid] (written
// over the whole loop) and sh[tid + s] (read) fails, so the loop runs
// scalar. Split at s, the first loop runs [0, s) with the test known true
// (both ranges disjoint: it vectorises), the second [s, n) with it false.
// LLVM 14's LoopBoundSplit does not take these loops (top-tested, unsigned
// conditions).
#ifndef ANYHIP_KERNEL_COMPILER_BOUND_SPLIT_H
#define ANYHIP_KERNEL_COMPILER_BOUND_SPLIT_H

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

namespace anyhip {

// An innermost loop of the shape both need: top-tested, a counter x
// stepping by one, `x <u end` or `x != end` in the header, its only exit,
// at most a few hundred instructions (each split copies it), not one of
// index_tests.h's rest pieces nor a masked copy's loop (loop_marks.h).
struct CountedLoop {
  llvm::PHINode *x = nullptr;
  llvm::ICmpInst *exitTest = nullptr;
  llvm::Value *end = nullptr;
};
bool countedLoop(llvm::Loop &l, CountedLoop &c);

// Puts a copy of l before it: pre -> the copy, x from l's start to `until`
// (at least that start, at most l's end) -> l, from the copy's last values
// on -> l's exit. vm maps l's values to the copy's; suffix names its blocks.
void prependPiece(llvm::Loop &l, const CountedLoop &counted, llvm::Value *until,
                  llvm::ValueToValueMapTy &vm, const char *suffix);

// Splits each innermost loop of f (top-tested, an induction variable x
// stepping by one, `x <u end` or `x != end` in the header, its only exit)
// at the first branch on `x <u b` or `x >=u b` (or x + c, with nuw) for a
// loop-invariant b, or, in a lane chunk's loop, the first such select. Returns how many loops were split; the caller
// recomputes its analyses when it is not 0.
// In a warp chunk's loop (loop_marks.h), also at a select's condition,
// and at `x == b` / `x != b`: the part from b on is then tested against
// b + 1, split again by the next call. chunksOnly: only those loops.
unsigned splitLoopsAtBounds(llvm::Function &f, llvm::LoopInfo &li, bool chunksOnly = false);

} // namespace anyhip

#endif
