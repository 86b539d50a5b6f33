// SPDX-License-Identifier: MIT
// A global index's tests as bounds on the thread loop's counter
// (index_tests.h).
#include "index_tests.h"

#include "bound_split.h"
#include "loop_marks.h"

#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace anyhip {

namespace {

// One test `c + t P k` of the loop: c uniform (a sum of terms added or
// subtracted; none: 0) and k uniform, t the counter (or its truncation),
// in a type of at most 32 bits, so that the bounds are exact in 64-bit
// arithmetic.
struct IndexTest {
  ICmpInst *cmp;
  SmallVector<std::pair<Value *, bool>, 2> terms; // (term, subtracted)
  Value *limit;                                    // k
  ICmpInst::Predicate p;
};

bool isCounter(Value *v, PHINode *x) {
  if (v == x)
    return true;
  auto *t = dyn_cast<TruncInst>(v);
  return t != nullptr && t->getOperand(0) == x;
}

// v as t plus uniform terms (`blockIdx.x * blockDim.x + threadIdx.x`,
// `i + 256`, `i - 1`), in wrapping arithmetic, where the order of the
// terms does not matter.
bool offsetIndex(const Loop &l, PHINode *x, Value *v, IndexTest &t, unsigned depth = 0) {
  if (isCounter(v, x))
    return true;
  Value *a, *b;
  if (depth == 4)
    return false;
  if (match(v, m_Add(m_Value(a), m_Value(b)))) {
    if (l.isLoopInvariant(a))
      std::swap(a, b);
    if (!l.isLoopInvariant(b))
      return false;
    t.terms.push_back({b, false});
    return offsetIndex(l, x, a, t, depth + 1);
  }
  if (match(v, m_Sub(m_Value(a), m_Value(b))) && l.isLoopInvariant(b)) {
    t.terms.push_back({b, true});
    return offsetIndex(l, x, a, t, depth + 1);
  }
  return false;
}

bool findTest(const Loop &l, PHINode *x, ICmpInst *cmp, IndexTest &t) {
  Value *lhs = cmp->getOperand(0), *rhs = cmp->getOperand(1);
  ICmpInst::Predicate p = cmp->getPredicate();
  if (l.isLoopInvariant(lhs)) {
    std::swap(lhs, rhs);
    p = ICmpInst::getSwappedPredicate(p);
  }
  auto *ty = dyn_cast<IntegerType>(lhs->getType());
  if (ty == nullptr || ty->getBitWidth() > 32 || !l.isLoopInvariant(rhs) ||
      !offsetIndex(l, x, lhs, t))
    return false;
  // `t <u k` and `t + c <u k` with no unsigned wrap bound_split.h takes as
  // they are.
  if (ICmpInst::isUnsigned(p) &&
      (t.terms.empty() ||
       (t.terms.size() == 1 && !t.terms[0].second && cast<Instruction>(lhs)->hasNoUnsignedWrap())))
    return false;
  t.cmp = cmp;
  t.limit = rhs;
  t.p = p;
  return true;
}

// The tests l's branches make, each compare once: a branch's condition
// and the compares it combines with `&&` and `||` (`x == 0 || x == w - 1`).
SmallVector<IndexTest, 4> findTests(const Loop &l, PHINode *x) {
  SmallVector<IndexTest, 4> tests;
  SmallVector<Value *, 8> work;
  for (BasicBlock *bb : l.blocks()) {
    auto *br = dyn_cast<BranchInst>(bb->getTerminator());
    if (bb != l.getHeader() && br != nullptr && br->isConditional())
      work.push_back(br->getCondition());
  }
  while (!work.empty()) {
    Value *v = work.pop_back_val();
    auto *i = dyn_cast<Instruction>(v);
    if (i == nullptr || !l.contains(i))
      continue;
    Value *a, *b;
    if (match(i, m_LogicalAnd(m_Value(a), m_Value(b))) || match(i, m_LogicalOr(m_Value(a), m_Value(b)))) {
      work.push_back(a);
      work.push_back(b);
      continue;
    }
    auto *cmp = dyn_cast<ICmpInst>(i);
    IndexTest t;
    if (cmp != nullptr &&
        std::none_of(tests.begin(), tests.end(), [&](const IndexTest &o) { return o.cmp == cmp; }) &&
        findTest(l, x, cmp, t))
      tests.push_back(t);
  }
  return tests;
}

bool signedTest(ICmpInst::Predicate p) { return ICmpInst::isSigned(p) || ICmpInst::isEquality(p); }

// v widened to 64 bits as the test reads it (sign-extended for signed and
// equality tests).
Value *widen(const IndexTest &t, Value *v, IRBuilder<> &ir) {
  return signedTest(t.p) ? ir.CreateSExt(v, ir.getInt64Ty()) : ir.CreateZExt(v, ir.getInt64Ty());
}

// c, built at ir (the preheader), widened to 64 bits.
Value *offsetOf(const IndexTest &t, IRBuilder<> &ir) {
  Value *c = nullptr;
  for (auto [v, subtracted] : t.terms)
    c = c == nullptr ? (subtracted ? ir.CreateNeg(v) : v)
                     : (subtracted ? ir.CreateSub(c, v) : ir.CreateAdd(c, v));
  return c == nullptr ? ir.getInt64(0) : widen(t, c, ir);
}

// Where the test's value changes over t in [0, end) while c + t cannot
// wrap, built at ir: `c + t <s k` holds exactly for t < clamp(k - c, 0,
// end), `c + t == k` for t == k - c (end when that is outside [0, end):
// never). 64-bit.
Value *cutOf(const IndexTest &t, Value *c, Value *end64, IRBuilder<> &ir) {
  Value *d = ir.CreateSub(widen(t, t.limit, ir), c, "index.cut");
  // `<= k` and `> k` are `< k + 1` and `>= k + 1`.
  if (t.p == ICmpInst::ICMP_SLE || t.p == ICmpInst::ICMP_ULE || t.p == ICmpInst::ICMP_SGT ||
      t.p == ICmpInst::ICMP_UGT)
    d = ir.CreateAdd(d, ir.getInt64(1));
  Value *zero = ir.getInt64(0);
  if (ICmpInst::isEquality(t.p))
    return ir.CreateSelect(ir.CreateAnd(ir.CreateICmpSGE(d, zero), ir.CreateICmpSLT(d, end64)), d,
                           end64);
  return ir.CreateBinaryIntrinsic(Intrinsic::smin, ir.CreateBinaryIntrinsic(Intrinsic::smax, d, zero),
                                  end64);
}

// Whether c + t can wrap for some t in [0, end): c + end > 2^31 (signed
// and equality tests) or 2^32 (unsigned), for a 32-bit type.
Value *mayWrap(const IndexTest &t, Value *c, Value *end64, IRBuilder<> &ir) {
  unsigned bits = t.cmp->getOperand(0)->getType()->getIntegerBitWidth();
  uint64_t room = uint64_t(1) << (signedTest(t.p) ? bits - 1 : bits);
  return ir.CreateICmpSGT(ir.CreateAdd(c, end64), ir.getInt64(room));
}

// The middle piece [lo, hi) lies on one side of each test's cut, so that
// the test is a constant there: an equality's is false (a cut in the lower
// half of the loop raises lo past it, one in the upper half lowers hi to
// it). An inequality against a constant (`x > 0`, `x >= 1`: a border)
// keeps the middle above its cut, one against a uniform value (`x < n`,
// `if (x >= w) return;`: the grid's end) below it.
bool lowerBound(const IndexTest &t) { return isa<Constant>(t.limit); }

std::pair<Value *, Value *> middle(ArrayRef<IndexTest> tests, Value *start64, Value *end64,
                                   IRBuilder<> &ir) {
  Value *lo = start64, *hi = end64, *wrap = ir.getFalse();
  Value *mid = ir.CreateAdd(start64, ir.CreateLShr(ir.CreateSub(end64, start64), 1));
  for (const IndexTest &t : tests) {
    Value *c = offsetOf(t, ir);
    Value *cut = cutOf(t, c, end64, ir);
    wrap = ir.CreateOr(wrap, mayWrap(t, c, end64, ir));
    if (ICmpInst::isEquality(t.p)) {
      Value *low = ir.CreateICmpSLT(cut, mid);
      lo = ir.CreateSelect(low, ir.CreateBinaryIntrinsic(Intrinsic::smax, lo,
                                                         ir.CreateAdd(cut, ir.getInt64(1))),
                           lo);
      hi = ir.CreateSelect(low, hi, ir.CreateBinaryIntrinsic(Intrinsic::smin, hi, cut));
    } else if (lowerBound(t)) {
      lo = ir.CreateBinaryIntrinsic(Intrinsic::smax, lo, cut);
    } else {
      hi = ir.CreateBinaryIntrinsic(Intrinsic::smin, hi, cut);
    }
  }
  // When an index could wrap, the last piece (the loop itself) runs all.
  lo = ir.CreateSelect(wrap, start64, ir.CreateBinaryIntrinsic(Intrinsic::smin, lo, end64));
  hi = ir.CreateSelect(wrap, start64, ir.CreateBinaryIntrinsic(Intrinsic::smax, hi, lo));
  return {lo, hi};
}

// The test's value in the middle piece.
bool middleValue(const IndexTest &t) {
  if (ICmpInst::isEquality(t.p))
    return t.p == ICmpInst::ICMP_NE;
  bool below = t.p == ICmpInst::ICMP_SLT || t.p == ICmpInst::ICMP_ULT ||
               t.p == ICmpInst::ICMP_SLE || t.p == ICmpInst::ICMP_ULE;
  return lowerBound(t) ? !below : below;
}

// pre -> [start, lo) with the tests -> [lo, hi) without -> [hi, end) with
// them (the loop itself) -> exit. The pieces with tests are marked
// (indexRestLoopId); the middle is what the vectoriser sees.
void splitAtTests(Loop &l, const CountedLoop &counted, ArrayRef<IndexTest> tests) {
  BasicBlock *pre = l.getLoopPreheader();
  IRBuilder<> ir(pre->getTerminator());
  Type *xt = counted.x->getType();
  Value *start64 = ir.CreateZExtOrTrunc(counted.x->getIncomingValueForBlock(pre), ir.getInt64Ty());
  Value *end64 = ir.CreateZExtOrTrunc(counted.end, ir.getInt64Ty());
  auto [lo, hi] = middle(tests, start64, end64, ir);
  lo = ir.CreateZExtOrTrunc(lo, xt, "index.lo");
  hi = ir.CreateZExtOrTrunc(hi, xt, "index.hi");
  MDNode *rest = indexRestLoopId(pre->getContext());
  ValueToValueMapTy first;
  prependPiece(l, counted, lo, first, ".edge");
  cast<BasicBlock>(first[l.getLoopLatch()])->getTerminator()->setMetadata(LLVMContext::MD_loop, rest);
  ValueToValueMapTy inner;
  prependPiece(l, counted, hi, inner, ".inner");
  for (const IndexTest &t : tests) {
    auto *cmp = cast<ICmpInst>(inner[t.cmp]);
    replaceAndRecursivelySimplify(cmp, ConstantInt::getBool(cmp->getContext(), middleValue(t)));
  }
  for (BasicBlock *bb : l.blocks())
    ConstantFoldTerminator(cast<BasicBlock>(inner[bb]));
  l.getLoopLatch()->getTerminator()->setMetadata(LLVMContext::MD_loop, rest);
}

} // namespace

unsigned rewriteIndexTests(Function &f, LoopInfo &li) {
  struct Todo {
    Loop *l;
    CountedLoop counted;
    SmallVector<IndexTest, 4> tests;
  };
  SmallVector<Todo, 4> todo;
  for (Loop *l : li.getLoopsInPreorder()) {
    CountedLoop counted;
    // A warp chunk's loop has its lanes' tests as bounds already, split
    // at by bound_split.h, and runs a warp at most: three pieces would
    // cost more than they save.
    if (!l->getSubLoops().empty() || isLaneChunkLoop(*l) || !countedLoop(*l, counted) ||
        counted.x->getType()->getIntegerBitWidth() > 64)
      continue;
    SmallVector<IndexTest, 4> tests = findTests(*l, counted.x);
    if (!tests.empty())
      todo.push_back({l, counted, std::move(tests)});
  }
  for (Todo &t : todo)
    splitAtTests(*t.l, t.counted, t.tests);
  if (!todo.empty())
    removeUnreachableBlocks(f);
  return (unsigned)todo.size();
}

} // namespace anyhip
