// SPDX-License-Identifier: MIT
// What alias analysis may assume about a block function's memory. The
// engine's per-block buffers (the threads' stop codes, their split-point
// slots, one array per frame variable, the exchange buffers a region reads
// and writes) are separate allocations that the kernel's own pointers never
// reach. Said with alias scopes, a thread loop that reads and writes several
// frame arrays needs no run-time overlap checks, and LLVM vectorises it.
#ifndef ANYHIP_KERNEL_COMPILER_ENGINE_BUFFERS_H
#define ANYHIP_KERNEL_COMPILER_ENGINE_BUFFERS_H

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Function.h>

#include <vector>

namespace anyhip {

struct EngineBuffer {
  const llvm::Value *base; // every access to the buffer is a GEP or cast of it
  // -1: a buffer of its own. r >= 0: one of the two exchange buffers region
  // r uses: those two never overlap, but another region's may be either.
  int region;
};

// Tags each load and store of f whose address is based on one of `buffers`,
// or on memory `isKernelMemory` accepts (kernel arguments, globals, shared
// memory), with alias scopes saying which of them cannot overlap. Accesses
// through anything else (a pointer loaded from memory, a phi of pointers)
// are left alone.
void addEngineAliasScopes(llvm::Function &f, const std::vector<EngineBuffer> &buffers,
                          llvm::function_ref<bool(const llvm::Value *)> isKernelMemory);

} // namespace anyhip

#endif
