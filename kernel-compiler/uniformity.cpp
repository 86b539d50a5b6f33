// SPDX-License-Identifier: MIT
// A divergence analysis in the spirit of the GPU compilers' (LLVM's
// DivergenceAnalysis), small and conservative: the seeds of divergence are
// the thread's index and lane, loads from memory (another thread may have
// written it) and calls with effects; divergence flows through operands,
// and through control: a phi whose incoming edge comes from a block that
// runs only for some threads (control-dependent on a divergent branch) is
// divergent, which also covers values leaving a loop that threads leave at
// different iterations.
#include "uniformity.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace anyhip {
namespace {

// The blocks control-dependent on the branches of `from`, transitively:
// those that run or not depending on which way a branch went.
DenseSet<const BasicBlock *> controlDependent(PostDominatorTree &pdt,
                                              const DenseSet<const BasicBlock *> &from) {
  DenseSet<const BasicBlock *> out;
  SmallVector<const BasicBlock *, 16> work(from.begin(), from.end());
  DenseSet<const BasicBlock *> done;
  while (!work.empty()) {
    const BasicBlock *b = work.pop_back_val();
    if (!done.insert(b).second)
      continue;
    DomTreeNode *bn = pdt.getNode(b);
    DomTreeNode *stop = bn != nullptr ? bn->getIDom() : nullptr;
    for (const BasicBlock *s : successors(b))
      for (DomTreeNode *n = pdt.getNode(s); n != nullptr && n != stop; n = n->getIDom()) {
        const BasicBlock *x = n->getBlock();
        if (x == nullptr || !out.insert(x).second)
          continue;
        if (x->getTerminator()->getNumSuccessors() > 1)
          work.push_back(x); // its own branches decide only where x runs
      }
  }
  return out;
}

// Whether no path from s reaches a split point.
bool reachesNoSplit(const BasicBlock *s, const DenseSet<const BasicBlock *> &splitBlocks) {
  SmallVector<const BasicBlock *, 16> work{s};
  DenseSet<const BasicBlock *> seen;
  while (!work.empty()) {
    const BasicBlock *b = work.pop_back_val();
    if (!seen.insert(b).second)
      continue;
    if (splitBlocks.count(b))
      return false;
    for (const BasicBlock *n : successors(b))
      work.push_back(n);
  }
  return true;
}

} // namespace

Uniformity::Uniformity(Function &f, const UniformityInputs &in) {
  PostDominatorTree pdt(f);
  for (Instruction &i : instructions(f))
    analysed_.insert(&i);
  DenseSet<const BasicBlock *> branches, reached; // divergent branches, what they decide
  auto divergentInst = [&](const Instruction &i) -> bool {
    if (auto *phi = dyn_cast<PHINode>(&i)) {
      for (unsigned k = 0; k < phi->getNumIncomingValues(); k++)
        if (divergent_.count(phi->getIncomingValue(k)) || reached.count(phi->getIncomingBlock(k)))
          return true;
      return false;
    }
    if (auto *ld = dyn_cast<LoadInst>(&i)) {
      const Value *base = getUnderlyingObject(ld->getPointerOperand(), 16);
      return ld->isVolatile() || ld->isAtomic() || !in.blockVars.count(base) ||
             divergent_.count(ld->getPointerOperand());
    }
    if (auto *ci = dyn_cast<CallInst>(&i)) {
      if (in.uniformCall && in.uniformCall(ci))
        return false;
      if (!ci->doesNotAccessMemory() || ci->mayHaveSideEffects() || ci->isConvergent())
        return true;
    } else if (i.mayReadOrWriteMemory() || isa<InvokeInst>(i)) {
      return true;
    }
    for (const Value *op : i.operands())
      if (divergent_.count(op))
        return true;
    return false;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Instruction &i : instructions(f)) {
      if (divergent_.count(&i))
        continue;
      bool d = false;
      if (auto *ld = dyn_cast<LoadInst>(&i))
        d = in.threadVars.count(getUnderlyingObject(ld->getPointerOperand(), 16)) != 0;
      if (d || divergentInst(i)) {
        divergent_.insert(&i);
        changed = true;
      }
    }
    bool newBranch = false;
    for (BasicBlock &b : f) {
      Instruction *t = b.getTerminator();
      Value *cond = nullptr;
      if (auto *br = dyn_cast<BranchInst>(t); br != nullptr && br->isConditional())
        cond = br->getCondition();
      else if (auto *sw = dyn_cast<SwitchInst>(t))
        cond = sw->getCondition();
      else if (t->getNumSuccessors() > 1)
        cond = t; // indirectbr and the like: assume the worst
      if (cond != nullptr && (cond == t || divergent_.count(cond)) && branches.insert(&b).second)
        newBranch = true;
    }
    if (newBranch) {
      reached = controlDependent(pdt, branches);
      changed = true;
    }
  }
  // Alignment: the same, without branches one side of which never meets
  // the other threads again (an early return, a guard).
  DenseSet<const BasicBlock *> meeting;
  for (const BasicBlock *b : branches) {
    bool exitSide = false;
    for (const BasicBlock *s : successors(b))
      exitSide |= reachesNoSplit(s, in.splitBlocks);
    if (!exitSide)
      meeting.insert(b);
  }
  unaligned_ = controlDependent(pdt, meeting);
}

} // namespace anyhip
