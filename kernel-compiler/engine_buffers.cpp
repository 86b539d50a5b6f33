// SPDX-License-Identifier: MIT
// Alias scopes for a block function's memory (engine_buffers.h).
#include "engine_buffers.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Operator.h>

using namespace llvm;

namespace anyhip {

// The buffer or object an address is computed from by GEPs and casts.
static const Value *baseOf(const Value *p, const DenseMap<const Value *, unsigned> &buffers) {
  for (int i = 0; i < 64; i++) {
    if (buffers.count(p) != 0)
      return p;
    if (auto *g = dyn_cast<GEPOperator>(p))
      p = g->getPointerOperand();
    else if (auto *c = dyn_cast<BitCastOperator>(p))
      p = c->getOperand(0);
    else
      break;
  }
  return p;
}

void addEngineAliasScopes(Function &f, const std::vector<EngineBuffer> &buffers,
                          function_ref<bool(const Value *)> isKernelMemory) {
  if (buffers.empty())
    return;
  MDBuilder mdb(f.getContext());
  MDNode *domain = mdb.createAnonymousAliasScopeDomain(f.getName());
  // Scope 0 is the kernel's memory; scope i + 1 is buffers[i].
  std::vector<MDNode *> scopes{mdb.createAnonymousAliasScope(domain, "kernel")};
  DenseMap<const Value *, unsigned> index;
  for (unsigned i = 0; i < buffers.size(); i++) {
    scopes.push_back(mdb.createAnonymousAliasScope(domain, buffers[i].base->getName()));
    index[buffers[i].base] = i + 1;
  }
  // What scope s is disjoint from: every other scope, but an exchange
  // buffer only from its own region's other one.
  auto region = [&](unsigned s) { return s == 0 ? -1 : buffers[s - 1].region; };
  std::vector<MDNode *> scopeList, noalias;
  for (unsigned s = 0; s < scopes.size(); s++) {
    SmallVector<Metadata *, 16> others;
    for (unsigned o = 0; o < scopes.size(); o++)
      if (o != s && (region(s) < 0 || region(o) < 0 || region(s) == region(o)))
        others.push_back(scopes[o]);
    scopeList.push_back(MDNode::get(f.getContext(), {scopes[s]}));
    noalias.push_back(MDNode::get(f.getContext(), others));
  }
  for (Instruction &i : instructions(f)) {
    const Value *ptr = nullptr;
    if (auto *ld = dyn_cast<LoadInst>(&i))
      ptr = ld->getPointerOperand();
    else if (auto *st = dyn_cast<StoreInst>(&i))
      ptr = st->getPointerOperand();
    if (ptr == nullptr)
      continue;
    const Value *base = baseOf(ptr, index);
    auto it = index.find(base);
    unsigned s;
    if (it != index.end())
      s = it->second;
    else if (isKernelMemory(base))
      s = 0;
    else
      continue;
    // Scopes of other domains (from inlined noalias arguments) stay.
    i.setMetadata(LLVMContext::MD_alias_scope,
                  MDNode::concatenate(i.getMetadata(LLVMContext::MD_alias_scope), scopeList[s]));
    i.setMetadata(LLVMContext::MD_noalias,
                  MDNode::concatenate(i.getMetadata(LLVMContext::MD_noalias), noalias[s]));
  }
}

} // namespace anyhip
