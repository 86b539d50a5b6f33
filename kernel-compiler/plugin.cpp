// SPDX-License-Identifier: MIT
// anyhip's kernel compiler as an LLVM 14 pass plugin: hipcc's CPU pass loads
// it into clang++-14 (-fpass-plugin=anyhip-kernel-compiler.so), which runs
// BlockLoopsPass at the start of the optimisation pipeline, so that the
// block functions it makes are optimised (and vectorised) with the rest;
// and moves static __shared__ variables out of thread-local storage at its
// end (shared_arena.h).
#include "block_loops.h"
#include "shared_arena.h"

#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

namespace {

void registerCallbacks(llvm::PassBuilder &pb) {
  pb.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel level) {
        mpm.addPass(anyhip::SharedMarkPass());
        mpm.addPass(anyhip::BlockLoopsPass(level));
      });
  pb.registerOptimizerLastEPCallback(
      [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
        mpm.addPass(anyhip::SharedArenaPass());
      });
}

} // namespace

// The one symbol clang looks up in the plugin; everything else stays hidden.
extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default")))
::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "anyhip-kernel-compiler", "1", registerCallbacks};
}
