// SPDX-License-Identifier: MIT
// Lanes in a warp's chunk of threads (lane_chunks.h).
#include "lane_chunks.h"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace anyhip {

namespace {

constexpr const char *kMark = "ah.lane.chunk";

// a and b compute the same value: the same SSA value, or the same
// instruction over the same operands (InstCombine writes the warp mask
// again for each `% warpSize` it turns into a mask).
bool same(const Value *a, const Value *b, int depth = 4) {
  if (a == b)
    return true;
  auto *ia = dyn_cast<Instruction>(a), *ib = dyn_cast<Instruction>(b);
  if (ia == nullptr || ib == nullptr || depth == 0 || !ia->isSameOperationAs(ib) ||
      ia->mayReadOrWriteMemory())
    return false;
  for (unsigned i = 0; i < ia->getNumOperands(); i++)
    if (!same(ia->getOperand(i), ib->getOperand(i), depth - 1))
      return false;
  return true;
}

} // namespace

void markLaneChunk(IRBuilder<> &ir, Value *x, Value *t, Value *xa, Value *xw, Value *warpMask) {
  Module &m = *ir.GetInsertBlock()->getModule();
  Type *i32 = ir.getInt32Ty();
  // Touches no memory the kernel sees: loads and stores move past it.
  FunctionCallee mark = m.getOrInsertFunction(
      kMark, FunctionType::get(ir.getVoidTy(), {i32, i32, i32, i32, i32}, false));
  auto *fn = cast<Function>(mark.getCallee());
  fn->setOnlyAccessesInaccessibleMemory();
  fn->setDoesNotThrow();
  fn->setWillReturn();
  ir.CreateCall(mark, {x, t, xa, xw, warpMask});
}

unsigned rewriteChunkLanes(Function &f) {
  SmallVector<CallInst *, 8> marks;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (auto *ci = dyn_cast<CallInst>(&i))
        if (Function *callee = ci->getCalledFunction(); callee && callee->getName() == kMark)
          marks.push_back(ci);
  if (marks.empty())
    return 0;
  DominatorTree dt(f);
  unsigned n = 0;
  for (CallInst *mk : marks) {
    Value *x = mk->getArgOperand(0), *mask = mk->getArgOperand(4);
    // `v & mask` where the mark runs first (the chunk's x is below its end
    // there) becomes x - base: lane - xw (no nuw: xw may wrap below 0), or
    // x - xa for the kernel's own threadIdx.x % warpSize.
    auto rewrite = [&](Value *v, Value *base, bool nuw) {
      SmallVector<BinaryOperator *, 4> ands;
      for (User *u : v->users())
        if (auto *bo = dyn_cast<BinaryOperator>(u); bo != nullptr &&
            bo->getOpcode() == Instruction::And && dt.dominates(mk, bo) &&
            ((bo->getOperand(0) == v && same(bo->getOperand(1), mask)) ||
             (bo->getOperand(1) == v && same(bo->getOperand(0), mask))))
          ands.push_back(bo);
      for (BinaryOperator *bo : ands) {
        IRBuilder<> ir(bo);
        bo->replaceAllUsesWith(ir.CreateSub(x, base, "chunk.lane", nuw));
        bo->eraseFromParent();
        n++;
      }
    };
    rewrite(x, mk->getArgOperand(2), true);
    rewrite(mk->getArgOperand(1), mk->getArgOperand(3), false);
    mk->eraseFromParent();
  }
  return n;
}

} // namespace anyhip
