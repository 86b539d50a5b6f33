// SPDX-License-Identifier: MIT
// Interchange of a thread loop and the grid-stride loop inside it. A
// grid-stride loop, `for (i = base + tid; i < n; i += stride)`, inside the
// loop over a block's threads runs each thread's whole share before the next
// thread starts: thread x reads byte x, x + stride, x + 2 stride, ..., so
// every cache line and page of the input is fetched again by each thread of
// the block (a histogram of 16 MB ran 12x slower than OpenMP). Interchanged,
// step k runs every thread's k-th element, neighbours in memory one after
// another, as the GPU's warps do. Any order of the threads' steps that keeps
// each thread's own order is one the GPU may run; the loop has no barrier
// (it is inside one region).
#ifndef ANYHIP_KERNEL_COMPILER_STRIDE_INTERCHANGE_H
#define ANYHIP_KERNEL_COMPILER_STRIDE_INTERCHANGE_H

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>

namespace anyhip {

// For each thread loop X of f (an induction variable x from x0 by one while
// `x <u end`) whose only inner loop L is a grid-stride loop (`i <u n` in
// its header, its only exit; i from a start computed from x without memory
// access, stepping by a stride invariant in X; no other value carried
// around L or used after it), adds before X a loop over steps k that runs
// L's body for every thread x with start(x) + k * stride <u n, and makes L
// run no step in X itself. Taken at run time only when stride != 0 and
// n + stride does not wrap (else i could wrap around and L run on, which
// the original loop keeps doing). Returns how many loops were interchanged;
// the caller recomputes its analyses when it is not 0.
unsigned interchangeStrideLoops(llvm::Function &f, llvm::LoopInfo &li);

} // namespace anyhip

#endif
