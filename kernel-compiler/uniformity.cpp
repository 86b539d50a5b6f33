// SPDX-License-Identifier: MIT
// A divergence analysis in the spirit of the GPU compilers' (LLVM's
// DivergenceAnalysis), small and conservative: the seeds of divergence are
// the thread's index and lane, loads from memory (another thread may have
// written it), the addresses of locals (each thread's own) and calls with
// effects; divergence flows through operands,
// and through control: a phi is divergent when threads can reach it along
// edges that divergent branches decide differently. Each block gets the
// set of divergent branch directions it depends on (its *guard*, through
// uniform branches too); a phi whose every incoming edge has its block's
// guard is uniform: a loop counter inside `if (warp == 0)` is the same for
// the threads that run it. A value leaving a loop that threads leave at
// different iterations differs in guard (the exiting branch), so it stays
// divergent.
#include "uniformity.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

#include <set>
#include <vector>

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

// A divergent branch and one of its directions (successor index).
using Direction = std::pair<const BasicBlock *, unsigned>;
using Guard = std::set<Direction>;

// The guard of every block: the divergent branch directions that decide
// whether it runs, transitively (a block under a uniform branch inside
// `if (tid < 32)` has that branch's guard). Blocks on no divergent path
// have none.
DenseMap<const BasicBlock *, Guard> guards(Function &f, PostDominatorTree &pdt,
                                           const DenseSet<const BasicBlock *> &divergent) {
  // Direct control dependence: (branch block, successor) -> blocks.
  std::vector<std::pair<Direction, std::vector<const BasicBlock *>>> deps;
  for (BasicBlock &b : f) {
    const Instruction *t = b.getTerminator();
    if (t == nullptr || t->getNumSuccessors() < 2)
      continue;
    DomTreeNode *bn = pdt.getNode(&b);
    DomTreeNode *stop = bn != nullptr ? bn->getIDom() : nullptr;
    for (unsigned k = 0; k < t->getNumSuccessors(); k++) {
      std::vector<const BasicBlock *> under;
      for (DomTreeNode *n = pdt.getNode(t->getSuccessor(k)); n != nullptr && n != stop;
           n = n->getIDom())
        if (n->getBlock() != nullptr)
          under.push_back(n->getBlock());
      deps.push_back({{&b, k}, std::move(under)});
    }
  }
  DenseMap<const BasicBlock *, Guard> g;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &d : deps) {
      Guard add = g.lookup(d.first.first); // what decides whether the branch runs
      if (divergent.count(d.first.first))
        add.insert(d.first);
      if (add.empty())
        continue;
      for (const BasicBlock *x : d.second) {
        Guard &gx = g[x];
        size_t before = gx.size();
        gx.insert(add.begin(), add.end());
        changed |= gx.size() != before;
      }
    }
  }
  return g;
}

// The guard of the edge p -> j: p's, and p's own direction when p's branch
// is divergent.
Guard edgeGuard(const DenseMap<const BasicBlock *, Guard> &g, const BasicBlock *p,
                const BasicBlock *j, const DenseSet<const BasicBlock *> &divergent) {
  Guard e = g.lookup(p);
  if (divergent.count(p)) {
    const Instruction *t = p->getTerminator();
    for (unsigned k = 0; k < t->getNumSuccessors(); k++)
      if (t->getSuccessor(k) == j)
        e.insert({p, k});
  }
  return e;
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
  DenseSet<const BasicBlock *> branches; // blocks ending in a divergent branch
  DenseMap<const BasicBlock *, Guard> guard;
  auto divergentInst = [&](const Instruction &i) -> bool {
    if (auto *phi = dyn_cast<PHINode>(&i)) {
      const Guard &at = guard.lookup(phi->getParent());
      for (unsigned k = 0; k < phi->getNumIncomingValues(); k++)
        if (divergent_.count(phi->getIncomingValue(k)) ||
            edgeGuard(guard, phi->getIncomingBlock(k), phi->getParent(), branches) != at)
          return true;
      return false;
    }
    // Each thread has its own locals: a pointer to one (a local array passed
    // to a device function) differs per thread once the local lives across
    // a split point (frame storage). The per-block built-ins' locals are
    // the block's.
    if (auto *a = dyn_cast<AllocaInst>(&i))
      return !in.blockVars.count(a);
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
      guard = guards(f, pdt, branches);
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
