// SPDX-License-Identifier: MIT
// anyhip's kernel compiler as an LLVM pass plugin: clang -fpass-plugin=<this>
// runs BlockLoopsPass at the start of the optimisation pipeline, so that the
// block functions it makes are optimised (and vectorised) with the rest.
#include "block_loops.h"

#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "anyhip-kernel-compiler", "1", [](llvm::PassBuilder &pb) {
            pb.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel level) {
                  mpm.addPass(anyhip::BlockLoopsPass(level));
                });
          }};
}
