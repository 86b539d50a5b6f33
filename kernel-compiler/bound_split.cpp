// SPDX-License-Identifier: MIT
// Index-set splitting of thread loops at a uniform bound (bound_split.h).
#include "bound_split.h"
#include "loop_marks.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace anyhip {

namespace {

// The loop's shape, as splitLoop needs it.
struct Candidate {
  PHINode *x = nullptr;        // the induction variable
  ICmpInst *exitTest = nullptr; // x <u end or x != end, in the header
  Value *end = nullptr;
  Instruction *branch = nullptr; // the branch (or select) to split at
  Value *bound = nullptr;       // x is below it on the first side
  bool belowIsTrue = true;      // the branch's condition holds below the bound
  bool equal = false;           // `x == bound` (belowIsTrue false) or `!=`: from the bound
                                // on, the condition is tested against bound + 1
  Value *compared = nullptr;    // y, with y <u limit exactly below the bound
  Value *limit = nullptr;
};

constexpr unsigned kMaxLoopSize = 400; // instructions: each split copies the loop

bool invariant(const Loop &l, const Value *v) {
  auto *i = dyn_cast<Instruction>(v);
  return i == nullptr || !l.contains(i);
}

// `x`, or `x + c` / `c + x` with nuw and c invariant: then x + c <u b holds
// exactly for x <u b -sat c; `x - c` with nuw (a lane in a warp chunk,
// lane_chunks.h): x <u b +sat c. Returns the bound for x, built at `at`.
Value *boundFor(const Loop &l, PHINode *x, Value *lhs, Value *b, Instruction *at) {
  if (lhs == x)
    return b;
  auto *add = dyn_cast<BinaryOperator>(lhs);
  if (add != nullptr && add->getOpcode() == Instruction::Sub && add->hasNoUnsignedWrap() &&
      add->getOperand(0) == x && invariant(l, add->getOperand(1)))
    return IRBuilder<>(at).CreateBinaryIntrinsic(Intrinsic::uadd_sat, b, add->getOperand(1),
                                                 nullptr, "split.bound");
  if (add == nullptr || add->getOpcode() != Instruction::Add || !add->hasNoUnsignedWrap())
    return nullptr;
  Value *c = add->getOperand(0) == x ? add->getOperand(1)
             : add->getOperand(1) == x ? add->getOperand(0)
                                       : nullptr;
  if (c == nullptr || !invariant(l, c))
    return nullptr;
  IRBuilder<> ir(at);
  return ir.CreateBinaryIntrinsic(Intrinsic::usub_sat, b, c, nullptr, "split.bound");
}

// `y >> k` or `y / d` (k, d invariant) is 0 exactly when y <u 1 << k (or
// d): `if (warp == 0)` with warp = tid / warpSize is `tid < warpSize`.
// Returns that limit, built at `at`, and y in `y`; null for other shapes.
Value *quotientLimit(const Loop &l, Value *q, Value *&y, Instruction *at) {
  Value *v, *k;
  if (match(q, m_LShr(m_Value(v), m_Value(k))) && invariant(l, k)) {
    y = v;
    return IRBuilder<>(at).CreateShl(ConstantInt::get(q->getType(), 1), k, "split.limit");
  }
  if (match(q, m_UDiv(m_Value(v), m_Value(k))) && invariant(l, k)) {
    y = v;
    return k;
  }
  return nullptr;
}

bool findCandidate(Loop &l, Candidate &c) {
  CountedLoop counted;
  if (!countedLoop(l, counted))
    return false;
  BasicBlock *pre = l.getLoopPreheader();
  PHINode *x = counted.x;
  c.x = x;
  c.exitTest = counted.exitTest;
  c.end = counted.end;
  bool chunk = isLaneChunkLoop(l);
  // Whether `user`'s condition is `x <u b` (or a form of it): fills c.
  auto take = [&](Instruction *user, Value *cond) {
    auto *cmp = dyn_cast<ICmpInst>(cond);
    if (cmp == nullptr)
      return false;
    Value *lhs = cmp->getOperand(0), *rhs = cmp->getOperand(1);
    ICmpInst::Predicate p = cmp->getPredicate();
    if (invariant(l, lhs)) {
      std::swap(lhs, rhs);
      p = ICmpInst::getSwappedPredicate(p);
    }
    if (!invariant(l, rhs))
      return false;
    Value *limit = nullptr;
    if ((p == ICmpInst::ICMP_EQ || p == ICmpInst::ICMP_NE) && match(rhs, m_Zero()) &&
        (limit = quotientLimit(l, lhs, lhs, pre->getTerminator())) != nullptr) {
      rhs = limit;
      p = p == ICmpInst::ICMP_EQ ? ICmpInst::ICMP_ULT : ICmpInst::ICMP_UGE;
    }
    bool eq = (p == ICmpInst::ICMP_EQ || p == ICmpInst::ICMP_NE) && chunk;
    if ((p != ICmpInst::ICMP_ULT && p != ICmpInst::ICMP_UGE && !eq) ||
        lhs->getType() != x->getType())
      return false;
    Value *b = boundFor(l, x, lhs, rhs, pre->getTerminator());
    if (b == nullptr)
      return false;
    c.branch = user;
    c.bound = b;
    c.compared = eq ? nullptr : lhs;
    c.limit = eq ? nullptr : rhs;
    c.belowIsTrue = p == ICmpInst::ICMP_ULT || p == ICmpInst::ICMP_NE;
    c.equal = eq;
    return true;
  };
  for (BasicBlock *bb : l.blocks()) {
    if (bb == l.getHeader())
      continue;
    auto *br = dyn_cast<BranchInst>(bb->getTerminator());
    if (br != nullptr && br->isConditional() && take(br, br->getCondition()))
      return true;
  }
  if (!chunk)
    return false;
  for (BasicBlock *bb : l.blocks())
    for (Instruction &i : *bb)
      if (auto *sel = dyn_cast<SelectInst>(&i); sel != nullptr && take(sel, sel->getCondition()))
        return true;
  return false;
}

void setCondition(Instruction *user, bool value) {
  Constant *k = ConstantInt::getBool(user->getContext(), value);
  if (auto *br = dyn_cast<BranchInst>(user))
    br->setCondition(k);
  else
    cast<SelectInst>(user)->setCondition(k);
}

// Whether m is limit - 1 for a limit 1 << k: `(1 << k) - 1`, `~(-1 << k)`.
bool lowMask(Value *m, Value *limit) {
  Value *k, *k2, *l;
  if (!match(limit, m_Shl(m_One(), m_Value(k))))
    return false;
  if (match(m, m_Add(m_Value(l), m_AllOnes())) || match(m, m_Sub(m_Value(l), m_One())))
    return l == limit || (match(l, m_Shl(m_One(), m_Value(k2))) && k2 == k);
  return match(m, m_Xor(m_Shl(m_AllOnes(), m_Value(k2)), m_AllOnes())) && k2 == k;
}

// Below the bound y <u limit, so `y % limit` and `y & (limit - 1)` (limit a
// power of two) are y: in `if (warp == 0)`'s threads the lane is the thread
// index, and `partial[lane]` a load the vectoriser takes as consecutive.
// Rewrites those in the loop's copy below the bound (vm).
void foldRemainders(const Loop &l, const Candidate &c, ValueToValueMapTy &vm) {
  if (c.compared == nullptr)
    return;
  Value *y = c.compared;
  if (auto *i = dyn_cast<Instruction>(y); i != nullptr && l.contains(i))
    y = vm[i];
  SmallPtrSet<BasicBlock *, 16> piece;
  for (BasicBlock *bb : l.blocks())
    piece.insert(cast<BasicBlock>(vm[bb]));
  SmallVector<Instruction *, 4> folds;
  for (User *u : y->users()) {
    auto *i = dyn_cast<BinaryOperator>(u);
    if (i == nullptr || !piece.count(i->getParent()))
      continue;
    Value *other = i->getOperand(0) == y ? i->getOperand(1) : i->getOperand(0);
    if ((i->getOpcode() == Instruction::URem && i->getOperand(0) == y && other == c.limit) ||
        (i->getOpcode() == Instruction::And && lowMask(other, c.limit)))
      folds.push_back(i);
  }
  for (Instruction *i : folds)
    i->replaceAllUsesWith(y);
}

// pre -> A (x in [start, m), the branch folded one way) -> B (x in [m, end),
// folded the other way) -> the loop's exit; m = umin(umax(bound, start), end).
void splitLoop(Loop &l, Candidate &c) {
  BasicBlock *pre = l.getLoopPreheader();
  IRBuilder<> ir(pre->getTerminator());
  Value *start = c.x->getIncomingValueForBlock(pre);
  Value *m = ir.CreateBinaryIntrinsic(
      Intrinsic::umin, ir.CreateBinaryIntrinsic(Intrinsic::umax, c.bound, start), c.end, nullptr,
      "split.at");
  ValueToValueMapTy vm;
  prependPiece(l, {c.x, c.exitTest, c.end}, m, vm, ".below");
  setCondition(cast<Instruction>(vm[c.branch]), c.belowIsTrue);
  foldRemainders(l, c, vm);
  if (c.equal) {
    // From the bound on: x == b is x <u b + 1 (x != b the opposite).
    IRBuilder<> eb(c.branch);
    Value *next = IRBuilder<>(pre->getTerminator())
                      .CreateBinaryIntrinsic(Intrinsic::uadd_sat, c.bound,
                                             ConstantInt::get(c.bound->getType(), 1), nullptr,
                                             "split.next");
    Value *cond = c.belowIsTrue ? eb.CreateICmpUGE(c.x, next) : eb.CreateICmpULT(c.x, next);
    if (auto *br = dyn_cast<BranchInst>(c.branch))
      br->setCondition(cond);
    else
      cast<SelectInst>(c.branch)->setCondition(cond);
  } else {
    setCondition(c.branch, !c.belowIsTrue);
  }
}

} // namespace

bool countedLoop(Loop &l, CountedLoop &c) {
  BasicBlock *h = l.getHeader();
  if (l.getLoopPreheader() == nullptr || l.getLoopLatch() == nullptr || !l.getSubLoops().empty() ||
      isIndexRestLoop(l) || inMaskedCopy(l))
    return false;
  SmallVector<BasicBlock *, 4> exiting;
  l.getExitingBlocks(exiting);
  if (exiting.size() != 1 || exiting[0] != h)
    return false;
  unsigned size = 0;
  for (BasicBlock *bb : l.blocks())
    size += bb->size();
  if (size > kMaxLoopSize)
    return false;
  auto *hb = dyn_cast<BranchInst>(h->getTerminator());
  if (hb == nullptr || !hb->isConditional() || !l.contains(hb->getSuccessor(0)) ||
      l.contains(hb->getSuccessor(1)))
    return false;
  auto *test = dyn_cast<ICmpInst>(hb->getCondition());
  if (test == nullptr || !test->hasOneUse() ||
      (test->getPredicate() != ICmpInst::ICMP_ULT && test->getPredicate() != ICmpInst::ICMP_NE))
    return false;
  auto *x = dyn_cast<PHINode>(test->getOperand(0));
  if (x == nullptr || x->getParent() != h || !l.isLoopInvariant(test->getOperand(1)))
    return false;
  // x = phi [start, pre], [x + 1, latch]
  Value *next = x->getIncomingValueForBlock(l.getLoopLatch());
  if (!match(next, m_Add(m_Specific(x), m_One())))
    return false;
  c.x = x;
  c.exitTest = test;
  c.end = test->getOperand(1);
  return true;
}

void prependPiece(Loop &l, const CountedLoop &counted, Value *until, ValueToValueMapTy &vm,
                  const char *suffix) {
  BasicBlock *h = l.getHeader(), *pre = l.getLoopPreheader();
  Function *f = h->getParent();
  SmallVector<BasicBlock *, 16> clones;
  for (BasicBlock *bb : l.blocks()) {
    BasicBlock *nb = CloneBasicBlock(bb, vm, suffix, f);
    vm[bb] = nb;
    clones.push_back(nb);
  }
  remapInstructionsInBlocks(clones, vm);
  auto *ah = cast<BasicBlock>(vm[h]);
  BasicBlock *between = BasicBlock::Create(f->getContext(), "split.between", f, h);
  BranchInst::Create(h, between);
  // The piece's header test stops at `until`, and leaves to the loop.
  cast<ICmpInst>(vm[counted.exitTest])->setOperand(1, until);
  cast<BranchInst>(ah->getTerminator())->setSuccessor(1, between);
  // The loop goes on from the piece's last values.
  for (PHINode &phi : h->phis()) {
    int i = phi.getBasicBlockIndex(pre);
    phi.setIncomingBlock(i, between);
    phi.setIncomingValue(i, vm[&phi]);
  }
  pre->getTerminator()->replaceUsesOfWith(h, ah);
}

unsigned splitLoopsAtBounds(Function &f, LoopInfo &li, bool chunksOnly) {
  SmallVector<Loop *, 8> loops;
  for (Loop *l : li.getLoopsInPreorder())
    if (l->getSubLoops().empty() && (!chunksOnly || isLaneChunkLoop(*l)))
      loops.push_back(l);
  // All candidates first: splitting changes the function under LoopInfo.
  SmallVector<std::pair<Loop *, Candidate>, 8> todo;
  for (Loop *l : loops) {
    Candidate c;
    if (findCandidate(*l, c))
      todo.push_back({l, c});
  }
  for (auto &t : todo)
    splitLoop(*t.first, t.second);
  return (unsigned)todo.size();
}

} // namespace anyhip
