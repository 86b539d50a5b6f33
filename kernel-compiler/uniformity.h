// SPDX-License-Identifier: MIT
// Which values of a kernel are the same for every GPU thread of a block
// (uniform), and which split points every running thread reaches together
// (aligned). The block-loops pass keeps a uniform value that lives across an
// aligned barrier once per block instead of once per thread, and reads it
// once per region instead of once per thread, so that the optimizer sees a
// loop-invariant value: a uniform branch (a loop counter's test) is then
// taken out of the thread loop, and a test like `tid < s` becomes a bound.
#ifndef ANYHIP_KERNEL_COMPILER_UNIFORMITY_H
#define ANYHIP_KERNEL_COMPILER_UNIFORMITY_H

#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <functional>

namespace anyhip {

struct UniformityInputs {
  llvm::DenseSet<const llvm::Value *> threadVars; // locals holding the thread's index, lane
  llvm::DenseSet<const llvm::Value *> blockVars;  // locals holding per-block built-ins
  llvm::DenseSet<const llvm::BasicBlock *> splitBlocks; // blocks that end at a split point
  std::function<bool(const llvm::CallInst *)> uniformCall; // calls with a uniform result
};

class Uniformity {
public:
  Uniformity(llvm::Function &f, const UniformityInputs &in);
  // v has one value for every thread that computes it at one point of the
  // block's execution (constants, arguments, built-ins, what is computed
  // from them through uniform control flow).
  // Instructions made after the analysis are not known to be uniform.
  bool uniform(const llvm::Value *v) const {
    if (llvm::isa<llvm::Instruction>(v))
      return analysed_.count(v) && !divergent_.count(v);
    return !divergent_.count(v);
  }
  // Every thread of the block that still runs reaches bb together: no
  // branch on a divergent value decides whether bb runs, except branches
  // whose other side reaches no split point again (threads that return).
  bool aligned(const llvm::BasicBlock *bb) const { return !unaligned_.count(bb); }

private:
  llvm::DenseSet<const llvm::Value *> analysed_, divergent_;
  llvm::DenseSet<const llvm::BasicBlock *> unaligned_;
};

} // namespace anyhip

#endif
