// SPDX-License-Identifier: MIT
// anyhip's kernel compiler for the CPU device: the pass that gives every
// kernel a block function (include/hip/anyhip/cpu/block_abi.h says what one
// is and how the engine calls it). docs/cpu-engine.md explains the method.
#ifndef ANYHIP_KERNEL_COMPILER_BLOCK_LOOPS_H
#define ANYHIP_KERNEL_COMPILER_BLOCK_LOOPS_H

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/OptimizationLevel.h>

namespace anyhip {

class BlockLoopsPass : public llvm::PassInfoMixin<BlockLoopsPass> {
public:
  explicit BlockLoopsPass(llvm::OptimizationLevel level) : level_(level) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &am);
  // Also at -O0, where clang skips passes that are not required: kernels
  // get block functions in every build.
  static bool isRequired() { return true; }

private:
  llvm::OptimizationLevel level_;
};

} // namespace anyhip

#endif
