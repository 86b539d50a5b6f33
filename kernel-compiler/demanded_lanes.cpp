// SPDX-License-Identifier: MIT
// Demanded lanes of a halving shuffle loop (demanded_lanes.h).
#include "demanded_lanes.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace anyhip {

namespace {

bool loadOf(const Value *v, const Value *var) {
  auto *ld = dyn_cast<LoadInst>(v);
  return ld != nullptr && ld->getPointerOperand() == var;
}

// threadIdx.x: a load of the index variable's first field.
bool threadIdxX(const Value *v, const Value *tidVar) {
  auto *ld = dyn_cast<LoadInst>(v);
  if (ld == nullptr)
    return false;
  const Value *p = ld->getPointerOperand();
  if (auto *gep = dyn_cast<GetElementPtrInst>(p); gep != nullptr && gep->hasAllZeroIndices())
    p = gep->getPointerOperand();
  return p == tidVar;
}

// `l == 0` holds in lane 0 only: l is the lane variable, `threadIdx.x %
// warpSize`, `threadIdx.x & (warpSize - 1)` or threadIdx.x (0 only in the
// first lane of a row of whole warps).
bool isLane(Value *l, const Value *tidVar, const Value *laneVar, const Value *wsVar) {
  if (loadOf(l, laneVar) || threadIdxX(l, tidVar))
    return true;
  Value *tx, *ws;
  return (match(l, m_URem(m_Value(tx), m_Value(ws))) ||
          match(l, m_c_And(m_Value(tx), m_Add(m_Value(ws), m_AllOnes()))) ||
          match(l, m_c_And(m_Value(tx), m_Sub(m_Value(ws), m_One())))) &&
         threadIdxX(tx, tidVar) && loadOf(ws, wsVar);
}

// b runs only where `lane == 0`: it, or a block dominating it, has a single
// predecessor that branches to it on that test.
bool underLaneZero(BasicBlock *b, DominatorTree &dt, const Value *tidVar, const Value *laneVar,
                   const Value *wsVar) {
  for (DomTreeNode *n = dt.getNode(b); n != nullptr; n = n->getIDom()) {
    BasicBlock *x = n->getBlock();
    BasicBlock *p = x->getSinglePredecessor();
    auto *br = p != nullptr ? dyn_cast<BranchInst>(p->getTerminator()) : nullptr;
    if (br == nullptr || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1))
      continue;
    ICmpInst::Predicate q;
    Value *l;
    if (!match(br->getCondition(), m_ICmp(q, m_Value(l), m_Zero())))
      continue;
    bool taken = (q == ICmpInst::ICMP_EQ && br->getSuccessor(0) == x) ||
                 (q == ICmpInst::ICMP_NE && br->getSuccessor(1) == x);
    if (taken && isLane(l, tidVar, laneVar, wsVar))
      return true;
  }
  return false;
}

// `d / 2` or `d >> 1`.
bool halves(const Value *next, const Value *d) {
  return match(next, m_SDiv(m_Specific(d), m_SpecificInt(2))) ||
         match(next, m_UDiv(m_Specific(d), m_SpecificInt(2))) ||
         match(next, m_LShr(m_Specific(d), m_SpecificInt(1))) ||
         match(next, m_AShr(m_Specific(d), m_SpecificInt(1)));
}

} // namespace

bool halvingShuffleLoop(BasicBlock *pre, BasicBlock *cont, CallInst *result,
                        const Value *tidVar, const Value *laneVar, const Value *warpSizeVar) {
  auto *d = dyn_cast<PHINode>(result->getArgOperand(1));
  if (d == nullptr)
    return false;
  BasicBlock *h = d->getParent();
  // The loop: h -> pre -> cont -> the rest of its body (branches that meet
  // again, the increment: no cycle, entered only from cont) -> h.
  SmallVector<BasicBlock *, 8> tail{cont};
  DenseMap<BasicBlock *, unsigned> order{{cont, 0}};
  for (unsigned k = 0; k < tail.size(); k++) {
    // Branches only: every path from cont, acyclic, ends at h.
    if (tail.size() > 16 || !isa<BranchInst>(tail[k]->getTerminator()))
      return false;
    for (BasicBlock *s : successors(tail[k]))
      if (s != h && order.try_emplace(s, (unsigned)tail.size()).second)
        tail.push_back(s);
  }
  for (BasicBlock *b : tail)
    for (BasicBlock *p : predecessors(b)) {
      auto it = order.find(p);
      if (b == cont ? p != pre : it == order.end() || it->second >= order.lookup(b))
        return false;
    }
  BasicBlock *latch = nullptr;
  for (BasicBlock *p : predecessors(h))
    if (order.count(p))
      latch = p;
  auto *test = dyn_cast<BranchInst>(h->getTerminator());
  if (latch == nullptr || order.count(pre) || order.count(h) ||
      pre->getSinglePredecessor() != h || test == nullptr || !test->isConditional() ||
      test->getSuccessor(0) != pre || pred_size(h) != 2)
    return false;
  auto inLoop = [&](const Instruction *i) {
    const BasicBlock *b = i->getParent();
    return b == h || b == pre || order.count(b) != 0;
  };
  if (inLoop(&test->getSuccessor(1)->front()))
    return false;
  // The loop goes on while d > 0 (d != 0): with d below the warp size (the
  // chunked copy's condition), a step goes on exactly when d >= 2.
  ICmpInst::Predicate p;
  auto *cond = dyn_cast<ICmpInst>(test->getCondition());
  if (cond == nullptr || cond->getParent() != h || !cond->hasOneUse() ||
      !match(cond, m_ICmp(p, m_Specific(d), m_Zero())) ||
      (p != ICmpInst::ICMP_SGT && p != ICmpInst::ICMP_UGT && p != ICmpInst::ICMP_NE))
    return false;
  if (!halves(d->getIncomingValueForBlock(latch), d))
    return false;
  // Two values go around: d and v.
  PHINode *v = nullptr;
  for (Instruction &i : *h) {
    if (auto *phi = dyn_cast<PHINode>(&i)) {
      if (phi == d)
        continue;
      if (v != nullptr)
        return false;
      v = phi;
    } else if (&i != cond && &i != test && !isa<DbgInfoIntrinsic>(&i)) {
      return false;
    }
  }
  if (v == nullptr)
    return false;
  // Nothing in the loop writes memory but the split point, the call right
  // before pre's branch; nothing after it traps.
  for (Instruction &i : *pre)
    if (i.mayHaveSideEffects() && !isa<DbgInfoIntrinsic>(&i) &&
        &i != pre->getTerminator()->getPrevNode())
      return false;
  for (BasicBlock *b : tail)
    for (Instruction &i : *b)
      if (&i != result && !i.isTerminator() && !isa<PHINode>(&i) &&
          !isa<DbgInfoIntrinsic>(&i) && !isSafeToSpeculativelyExecute(&i))
        return false;
  // Only v leaves the loop (and d, the same in every thread), and only
  // where lane == 0.
  SmallVector<BasicBlock *, 8> blocks{h, pre};
  blocks.append(tail.begin(), tail.end());
  for (BasicBlock *b : blocks)
    for (Instruction &i : *b)
      if (&i != v && &i != d)
        for (User *u : i.users())
          if (!inLoop(cast<Instruction>(u)))
            return false;
  DominatorTree dt(*h->getParent());
  for (User *u : v->users()) {
    auto *ui = cast<Instruction>(u);
    if (inLoop(ui))
      continue;
    if (isa<PHINode>(ui) ||
        !underLaneZero(ui->getParent(), dt, tidVar, laneVar, warpSizeVar))
      return false;
  }
  return true;
}

} // namespace anyhip
