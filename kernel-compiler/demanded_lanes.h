// SPDX-License-Identifier: MIT
// Demanded lanes of a halving shuffle loop. The warp reduction
//
//   for (int d = warpSize / 2; d > 0; d /= 2)
//     v += __shfl_down(v, d);
//   if (lane == 0) out = v;
//
// computes every lane's v in every step, but only lane 0's is used: the
// step with delta d needs, for the steps after it, only lanes below d
// (lane l of the next step, delta d >> 1, reads lanes l and l + (d >> 1),
// both below d when l is below d >> 1; the last step needs lane 0). On a
// GPU the other lanes cost nothing; here they are 5 of every 6 lanes of
// the loop's work. So the region after such a shuffle, in a step the loop
// goes on from (d >= 2), runs only the first d lanes of each warp
// (block_loops.cpp, the chunked copy's loops); the last step runs them all,
// since the code after the loop runs for every thread.
#ifndef ANYHIP_KERNEL_COMPILER_DEMANDED_LANES_H
#define ANYHIP_KERNEL_COMPILER_DEMANDED_LANES_H

#include <llvm/IR/Instructions.h>

namespace anyhip {

// The shuffle-down split point that ends in `pre` (its operand written
// there) and whose result placeholder `result` starts `cont`, before values
// move to the frame: whether it is the step of a loop that only lane 0's
// value leaves. The loop must be exactly header -> pre -> cont -> header,
// the header testing the delta (`d > 0`, `d != 0`) and holding two phis,
// the delta and one value v (nothing else is carried); the delta halves in
// `cont` (`d / 2`, `d >> 1`); nothing in the loop writes memory but the
// split point, nothing in `cont` can trap on any value (the last step
// runs every lane, from values the skipped steps left behind); nothing
// computed in the loop is used after it but v, and every use of v after it
// is where `lane == 0` holds: `threadIdx.x % warpSize == 0`,
// `threadIdx.x & (warpSize - 1)`, `threadIdx.x == 0` (lane 0 when
// blockDim.x is a multiple of the warp size, which the caller checks at run
// time) or the lane variable.
// tidVar, laneVar and warpSizeVar are the block function's locals for
// threadIdx, the lane and warpSize.
bool halvingShuffleLoop(llvm::BasicBlock *pre, llvm::BasicBlock *cont, llvm::CallInst *result,
                        const llvm::Value *tidVar, const llvm::Value *laneVar,
                        const llvm::Value *warpSizeVar);

} // namespace anyhip

#endif
