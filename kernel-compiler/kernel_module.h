// SPDX-License-Identifier: MIT
// What the kernel compiler needs to know about a whole module before and
// after it builds block functions: which functions are kernels, which
// functions depend on the GPU thread running them (and so must be inlined
// into a block function), and the constructor that registers the results
// with the CPU engine (include/hip/anyhip/cpu/block_abi.h).
#ifndef ANYHIP_KERNEL_COMPILER_KERNEL_MODULE_H
#define ANYHIP_KERNEL_COMPILER_KERNEL_MODULE_H

#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace anyhip {

// The kernels of the module: definitions annotated "anyhip.kernel".
std::vector<llvm::Function *> findKernels(llvm::Module &m);

// Functions that reach (directly or through the functions they call) a
// split point, grid.sync() or a per-thread built-in.
struct ThreadDependence {
  llvm::DenseSet<llvm::Function *> needs;     // must be inlined
  llvm::DenseSet<llvm::Function *> splits;    // reach a split point or grid.sync()
  llvm::DenseSet<llvm::Function *> gridSyncs; // reach grid.sync()
  llvm::DenseSet<llvm::Function *> polls;     // reach a polling point (clock64, s_sleep)
};
ThreadDependence analyseThreadDependence(llvm::Module &m);

// A constructor calling __ahCpuRegisterBlock once per kernel: its block
// function and descriptor, or null and why there is none; and
// __ahCpuRegisterBlockAvx2 for the kernels with an AVX2 copy (avx2[i]);
// __ahCpuRegisterShared for each kernel that uses static __shared__ memory.
void emitRegistration(llvm::Module &m, const std::vector<llvm::Function *> &kernels,
                      const std::vector<llvm::Function *> &blocks,
                      const std::vector<llvm::Function *> &avx2,
                      const std::vector<llvm::GlobalVariable *> &descs,
                      const std::vector<std::string> &whys);

} // namespace anyhip

#endif
