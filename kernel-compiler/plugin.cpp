// SPDX-License-Identifier: MIT
// anyhip's kernel compiler: an LLVM 14 pass plugin that clang loads during
// hipcc's CPU pass (-fpass-plugin=anyhip-kernel-compiler.so). This file is
// the plugin's entry point; for now it registers a pass that changes
// nothing, so that the toolchain around it (CMake, hipcc, the tests) can be
// built and checked before the passes that make block functions land.
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

namespace {

// Placeholder: leaves every module as it is.
struct AnyhipKernelCompilerPass : llvm::PassInfoMixin<AnyhipKernelCompilerPass> {
  llvm::PreservedAnalyses run(llvm::Module &, llvm::ModuleAnalysisManager &) {
    return llvm::PreservedAnalyses::all();
  }
  // Also at -O0, where clang would otherwise skip a pass that is not required.
  static bool isRequired() { return true; }
};

void registerCallbacks(llvm::PassBuilder &pb) {
  pb.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
        mpm.addPass(AnyhipKernelCompilerPass());
      });
}

} // namespace

// The one symbol clang looks up in the plugin; everything else stays hidden.
extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default")))
::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "anyhip-kernel-compiler", "0.1", registerCallbacks};
}
