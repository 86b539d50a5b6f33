// SPDX-License-Identifier: MIT
// A global index's tests as bounds on the thread loop's own counter. A
// barrier-free kernel tests `int x = blockIdx.x * blockDim.x + threadIdx.x`
// against its arguments: `if (x >= w) return;`, `x == 0 || x == w - 1` (a
// stencil's border). In the x thread loop that is `c + t` (c uniform, t the
// counter, wrapping 32-bit arithmetic) compared signed or unsigned, which
// bound_split.h cannot split at, so the vectoriser masks every load and
// store of the loop (masked stores are slow on AMD cores: a 5-point stencil
// ran 2.3x OpenMP's time with them, 1.4x without).
// While `c + t` cannot wrap for any t of the loop (a grid of fewer than
// 2^31 threads in that dimension), each such test is one on t alone:
// `c + t <s w` is `t <u clamp(w - c)`, `c + t == k` is `t == k - c`. The
// loop is versioned on that: the copy that runs when it could wrap keeps
// the tests and is neither vectorised nor unrolled; in the other the tests
// become unsigned ones of t, which bound_split.h splits at.
#ifndef ANYHIP_KERNEL_COMPILER_INDEX_TESTS_H
#define ANYHIP_KERNEL_COMPILER_INDEX_TESTS_H

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>

namespace anyhip {

// Rewrites the offset index tests of f's innermost loops (top-tested,
// counter stepping by one, the header their only exit; at most a few
// hundred instructions) as above. Returns how many loops were versioned;
// the caller recomputes its analyses when it is not 0.
unsigned rewriteIndexTests(llvm::Function &f, llvm::LoopInfo &li);

} // namespace anyhip

#endif
