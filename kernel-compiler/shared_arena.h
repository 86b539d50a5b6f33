// SPDX-License-Identifier: MIT
// Static __shared__ memory in a per-worker arena instead of thread-local
// storage. On the CPU device `__shared__` is `thread_local` (qualifiers.h),
// and glibc gives every thread of the process a zeroed copy of every
// thread_local of the program when the thread starts, whether or not it
// ever runs a block: 500 stream threads paid 500 copies. Here the variables
// are laid out in one block per module, placed by the engine in an arena
// that only threads that run blocks get (block_abi.h,
// __ahCpuRegisterSharedArena), and each use becomes the thread's arena base
// plus the module's place plus the variable's offset.
//
// Two passes. SharedMarkPass runs first, at the start of the pipeline: it
// finds the __shared__ variables (hipcc's qualifiers.h annotates them
// "anyhip.shared" under the kernel compiler), drops the annotation, which
// takes their address and would make every later pass (GlobalsAA) treat
// them as escaped, and marks them with metadata instead. SharedArenaPass
// runs last (OptimizerLast), so that the block loops, the vectoriser, the
// plain shared atomics and the alias scopes all saw distinct globals; it
// rewrites the uses and emits the registration.
#ifndef ANYHIP_KERNEL_COMPILER_SHARED_ARENA_H
#define ANYHIP_KERNEL_COMPILER_SHARED_ARENA_H

#include <llvm/IR/PassManager.h>

namespace anyhip {

struct SharedMarkPass : llvm::PassInfoMixin<SharedMarkPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &mam);
  static bool isRequired() { return true; }
};

struct SharedArenaPass : llvm::PassInfoMixin<SharedArenaPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &mam);
  static bool isRequired() { return true; } // at -O0 too: the runtime has no TLS copy
};

} // namespace anyhip

#endif
