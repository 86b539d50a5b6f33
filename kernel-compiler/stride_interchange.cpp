// SPDX-License-Identifier: MIT
// Interchange of a thread loop and its grid-stride loop (stride_interchange.h).
#include "stride_interchange.h"

#include "loop_marks.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace anyhip {

namespace {

// The thread loop X and its grid-stride loop L, as interchange() needs them.
struct Shape {
  BasicBlock *xPre, *xHead;     // X's predecessor outside it, and its header
  PHINode *x;                   // X's induction variable: x0, x0 + 1, ... while x <u end
  Value *x0, *end;
  BasicBlock *lPre, *lHead;     // L's preheader (X's body: computes start) and header
  BasicBlock *lBody;            // L's first body block
  PHINode *i;                   // start, start + stride, ... while i <u n
  Value *start, *stride, *n;
  Value *offset;                // c when start is x + c (x: c is 0), else null
  std::vector<BasicBlock *> body; // L's blocks but its header
};

bool definedOutside(const Loop &l, const Value *v) {
  auto *inst = dyn_cast<Instruction>(v);
  return inst == nullptr || !l.contains(inst);
}

// `v <u bound` branching into the loop on true, out of it on false.
bool topTest(const Loop &l, BasicBlock *head, PHINode *v, Value *&bound) {
  auto *br = dyn_cast<BranchInst>(head->getTerminator());
  if (br == nullptr || !br->isConditional() || !l.contains(br->getSuccessor(0)) ||
      l.contains(br->getSuccessor(1)))
    return false;
  auto *test = dyn_cast<ICmpInst>(br->getCondition());
  if (test == nullptr || test->getPredicate() != ICmpInst::ICMP_ULT ||
      test->getOperand(0) != v || !test->hasOneUse())
    return false;
  bound = test->getOperand(1);
  return true;
}

bool findShape(Loop &xl, Shape &s) {
  if (xl.getSubLoops().size() != 1)
    return false;
  Loop &ll = *xl.getSubLoops()[0];
  s.xPre = xl.getLoopPredecessor(); // its branch may go elsewhere too: interchange() splits
  s.xHead = xl.getHeader();
  s.lPre = ll.getLoopPreheader();
  s.lHead = ll.getHeader();
  if (s.xPre == nullptr || xl.getLoopLatch() == nullptr || xl.getExitingBlock() != s.xHead ||
      !ll.getSubLoops().empty() || s.lPre == nullptr || ll.getLoopLatch() == nullptr ||
      ll.getExitingBlock() != s.lHead || ll.getExitBlock() == nullptr ||
      !ll.getExitBlock()->phis().empty())
    return false;
  // X: x0, x0 + 1, ... while x <u end; straight from its header into L's
  // preheader, which only computes (no memory, no effects) and enters L.
  s.x = nullptr;
  for (PHINode &phi : s.xHead->phis())
    if (match(phi.getIncomingValueForBlock(xl.getLoopLatch()), m_Add(m_Specific(&phi), m_One())))
      s.x = &phi;
  if (s.x == nullptr || !topTest(xl, s.xHead, s.x, s.end) || !definedOutside(xl, s.end) ||
      s.lPre->getSinglePredecessor() != s.xHead)
    return false;
  s.x0 = s.x->getIncomingValueForBlock(s.xPre);
  auto fromXOrOutside = [&](const Instruction &inst, const BasicBlock *own) {
    for (const Value *op : inst.operands()) {
      auto *d = dyn_cast<Instruction>(op);
      if (d != nullptr && xl.contains(d) && d != s.x && d->getParent() != s.lPre &&
          d->getParent() != own && !(own != nullptr && ll.contains(d)))
        return false;
    }
    return true;
  };
  for (Instruction &inst : *s.lPre)
    if (&inst != s.lPre->getTerminator() &&
        (inst.mayReadOrWriteMemory() || inst.mayHaveSideEffects() || isa<PHINode>(inst) ||
         !fromXOrOutside(inst, s.lPre)))
      return false;
  auto *enter = dyn_cast<BranchInst>(s.lPre->getTerminator());
  if (enter == nullptr || enter->isConditional())
    return false;
  // L: i from start by an X-invariant stride while i <u n (X-invariant);
  // its header holds nothing else, and nothing but i is carried around L.
  if (s.lHead->sizeWithoutDebug() != 3 || !isa<PHINode>(s.lHead->front()))
    return false;
  s.i = cast<PHINode>(&s.lHead->front());
  s.start = s.i->getIncomingValueForBlock(s.lPre);
  if (!match(s.i->getIncomingValueForBlock(ll.getLoopLatch()),
             m_c_Add(m_Specific(s.i), m_Value(s.stride))) ||
      !definedOutside(xl, s.stride) || !topTest(ll, s.lHead, s.i, s.n) ||
      !definedOutside(xl, s.n))
    return false;
  // A step of one is no grid stride: it is a thread loop itself (an x loop
  // inside the y loop, split by index_tests.h), or a thread's own sequence.
  if (match(s.stride, m_One()))
    return false;
  s.lBody = cast<BranchInst>(s.lHead->getTerminator())->getSuccessor(0);
  if (!s.lBody->phis().empty() || s.lBody->getSinglePredecessor() != s.lHead)
    return false;
  s.body.clear();
  for (BasicBlock *bb : ll.blocks()) {
    if (bb == s.lHead)
      continue;
    s.body.push_back(bb);
    for (Instruction &inst : *bb) {
      if (!fromXOrOutside(inst, bb))
        return false;
      for (const User *u : inst.users())
        if (!ll.contains(cast<Instruction>(u)))
          return false; // a value leaving L
    }
  }
  for (const User *u : s.i->users())
    if (!ll.contains(cast<Instruction>(u)))
      return false;
  s.offset = nullptr;
  if (s.start == s.x && s.x->getType() == s.i->getType())
    s.offset = ConstantInt::get(s.i->getType(), 0);
  else if (match(s.start, m_c_Add(m_Specific(s.x), m_Value(s.offset))) &&
           !definedOutside(xl, s.offset))
    s.offset = nullptr;
  return true;
}

// a + b, and whether it wrapped (or `wrapped` did already).
Value *addChecked(IRBuilder<> &ir, Value *a, Value *b, Value *&wrapped) {
  Value *r = ir.CreateBinaryIntrinsic(Intrinsic::uadd_with_overflow, a, b);
  Value *o = ir.CreateExtractValue(r, 1);
  wrapped = wrapped != nullptr ? ir.CreateOr(wrapped, o) : o;
  return ir.CreateExtractValue(r, 0);
}

void interchange(Shape &s) {
  Function *f = s.xHead->getParent();
  LLVMContext &ctx = f->getContext();
  Type *ty = s.i->getType();
  Value *zero = ConstantInt::get(ty, 0);
  auto block = [&](const char *name) { return BasicBlock::Create(ctx, name, f, s.xHead); };
  BasicBlock *check = block("stride.check"), *kHead = block("stride.k"),
             *x2Head = block("stride.x"), *x2Body = block("stride.x.body"),
             *x2Latch = block("stride.x.next"), *kLatch = block("stride.k.next"),
             *hPre = block("stride.done");
  s.xPre->getTerminator()->replaceUsesOfWith(s.xHead, check);

  // Taken when L's i cannot wrap (stride != 0, n + stride fits) and, for a
  // start x + c, neither can x + c + koff (c + end + n + stride fits).
  IRBuilder<> ir(check);
  Value *wrapped = nullptr, *top = addChecked(ir, s.n, s.stride, wrapped);
  if (s.offset != nullptr)
    addChecked(ir, addChecked(ir, top, s.offset, wrapped), s.end, wrapped);
  Value *flag = ir.CreateAnd(ir.CreateNot(wrapped), ir.CreateICmpNE(s.stride, zero), "stride.ok");
  ir.CreateCondBr(flag, kHead, hPre);

  // Step k (koff = k * stride). With start x + c, the threads whose step is
  // below n are x0 .. hi: no test per thread, and none when hi is x0.
  ir.SetInsertPoint(kHead);
  PHINode *koff = ir.CreatePHI(ty, 2, "stride.koff");
  Value *hi = nullptr;
  if (s.offset != nullptr) {
    Value *lim = ir.CreateBinaryIntrinsic(Intrinsic::usub_sat, s.n, ir.CreateAdd(s.offset, koff));
    hi = ir.CreateBinaryIntrinsic(
        Intrinsic::umin, s.end, ir.CreateBinaryIntrinsic(Intrinsic::umax, s.x0, lim), nullptr,
        "stride.hi");
    ir.CreateCondBr(ir.CreateICmpUGT(hi, s.x0), x2Head, hPre);
  } else {
    ir.CreateBr(x2Head);
  }

  ir.SetInsertPoint(x2Head);
  PHINode *x2 = ir.CreatePHI(s.x->getType(), 2, "stride.tid");
  PHINode *any = s.offset == nullptr ? ir.CreatePHI(ir.getInt1Ty(), 2, "stride.any") : nullptr;
  ir.CreateCondBr(ir.CreateICmpULT(x2, hi != nullptr ? hi : s.end), x2Body, kLatch);

  // Thread x2's start, then its step at koff (if that is below n).
  ValueToValueMapTy vm;
  vm[s.x] = x2;
  vm[s.lHead] = x2Latch;
  ir.SetInsertPoint(x2Body);
  for (Instruction &inst : *s.lPre) {
    if (&inst == s.lPre->getTerminator())
      break;
    if (isa<DbgInfoIntrinsic>(inst))
      continue;
    Instruction *c = inst.clone();
    ir.Insert(c, inst.getName());
    RemapInstruction(c, vm, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    vm[&inst] = c;
  }
  Value *start = vm.count(s.start) ? (Value *)vm[s.start] : s.start, *active = nullptr, *any2 = nullptr;
  if (s.offset != nullptr) {
    vm[s.i] = ir.CreateNUWAdd(start, koff, "stride.i");
  } else {
    Value *step = ir.CreateBinaryIntrinsic(Intrinsic::uadd_with_overflow, start, koff);
    Value *ii = ir.CreateExtractValue(step, 0, "stride.i");
    active = ir.CreateAnd(ir.CreateNot(ir.CreateExtractValue(step, 1)), ir.CreateICmpULT(ii, s.n),
                          "stride.active");
    any2 = ir.CreateOr(any, active);
    vm[s.i] = ii;
  }
  SmallVector<BasicBlock *, 8> clones;
  for (BasicBlock *bb : s.body) {
    BasicBlock *c = CloneBasicBlock(bb, vm, ".stride", f);
    vm[bb] = c;
    clones.push_back(c);
  }
  remapInstructionsInBlocks(clones, vm);
  if (active != nullptr)
    ir.CreateCondBr(active, cast<BasicBlock>(vm[s.lBody]), x2Latch);
  else
    ir.CreateBr(cast<BasicBlock>(vm[s.lBody]));

  ir.SetInsertPoint(x2Latch);
  Value *x2n = ir.CreateAdd(x2, ConstantInt::get(x2->getType(), 1));
  ir.CreateBr(x2Head);
  x2->addIncoming(s.x0, kHead);
  x2->addIncoming(x2n, x2Latch);

  // The next step while some thread took this one.
  ir.SetInsertPoint(kLatch);
  Value *knext = ir.CreateAdd(koff, s.stride);
  if (any != nullptr) {
    any->addIncoming(ir.getFalse(), kHead);
    any->addIncoming(any2, x2Latch);
    ir.CreateCondBr(any, kHead, hPre);
  } else {
    ir.CreateBr(kHead);
  }
  koff->addIncoming(zero, check);
  koff->addIncoming(knext, kLatch);

  // X itself then runs no step of L: i starts at n.
  BranchInst::Create(s.xHead, hPre);
  for (PHINode &phi : s.xHead->phis())
    phi.setIncomingBlock(phi.getBasicBlockIndex(s.xPre), hPre);
  IRBuilder<> at(s.lPre->getTerminator());
  s.i->setIncomingValue(s.i->getBasicBlockIndex(s.lPre), at.CreateSelect(flag, s.n, s.start));
}

} // namespace

unsigned interchangeStrideLoops(Function &f, LoopInfo &li) {
  std::vector<Shape> todo;
  for (Loop *l : li.getLoopsInPreorder()) {
    Shape s;
    if (!inMaskedCopy(*l) && findShape(*l, s))
      todo.push_back(s);
  }
  for (Shape &s : todo)
    interchange(s);
  return (unsigned)todo.size();
}

} // namespace anyhip
