// SPDX-License-Identifier: MIT
// Kernels, thread dependence and registration: the module-wide parts of the
// kernel compiler (kernel_module.h).
#include "kernel_module.h"
#include "split_points.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>

using namespace llvm;

namespace anyhip {

// The kernels of the module: definitions annotated "anyhip.kernel".
std::vector<Function *> findKernels(Module &m) {
  std::vector<Function *> out;
  GlobalVariable *ann = m.getNamedGlobal("llvm.global.annotations");
  if (ann == nullptr || !ann->hasInitializer())
    return out;
  auto *arr = dyn_cast<ConstantArray>(ann->getInitializer());
  if (arr == nullptr)
    return out;
  for (Value *op : arr->operands()) {
    auto *entry = dyn_cast<ConstantStruct>(op);
    if (entry == nullptr || entry->getNumOperands() < 2)
      continue;
    auto *fn = dyn_cast<Function>(entry->getOperand(0)->stripPointerCasts());
    auto *str = dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    if (fn == nullptr || str == nullptr || !str->hasInitializer() || fn->isDeclaration() ||
        fn->hasAvailableExternallyLinkage())
      continue;
    auto *text = dyn_cast<ConstantDataSequential>(str->getInitializer());
    if (text != nullptr && text->isCString() && text->getAsCString() == "anyhip.kernel" &&
        std::find(out.begin(), out.end(), fn) == out.end())
      out.push_back(fn);
  }
  return out;
}

// ---- which functions must be inlined into a block function ----

// Functions whose bodies use v (through constant expressions too).
static void userFunctions(Value *v, SmallPtrSetImpl<Function *> &out) {
  for (User *u : v->users()) {
    if (auto *inst = dyn_cast<Instruction>(u))
      out.insert(inst->getFunction());
    else if (isa<Constant>(u) && !isa<GlobalValue>(u))
      userFunctions(u, out);
  }
}

// The device functions of other translation units that this one calls
// (-fgpu-rdc): hipcc lists their names in __anyhip_rdc_extern_device
// ("a\0b\0"). A declaration of this module whose name, demangled to its
// base name, is listed may wait at a barrier or read threadIdx: it counts as
// a split point that cannot be inlined, so a kernel reaching it keeps the
// fiber engine (BlockBuilder fails on it).
static void externDeviceFunctions(Module &m, SmallPtrSetImpl<Function *> &out) {
  // A static of the prepared C++ source: its name is mangled (_ZL...).
  GlobalVariable *g = m.getNamedGlobal("_ZL26__anyhip_rdc_extern_device");
  if (g == nullptr)
    g = m.getNamedGlobal("__anyhip_rdc_extern_device");
  auto *data = g && g->hasInitializer()
                   ? dyn_cast<ConstantDataSequential>(g->getInitializer())
                   : nullptr;
  if (data == nullptr)
    return;
  StringSet<> names;
  StringRef raw = data->getRawDataValues();
  while (!raw.empty()) {
    auto [name, rest] = raw.split('\0');
    if (!name.empty())
      names.insert(name);
    raw = rest;
  }
  for (Function &f : m) {
    if (!f.isDeclaration() || f.isIntrinsic())
      continue;
    std::string base = f.getName().str();
    ItaniumPartialDemangler d;
    if (!d.partialDemangle(base.c_str())) {
      size_t n = 0;
      if (char *b = d.getFunctionBaseName(nullptr, &n)) {
        base = b;
        std::free(b);
      }
    }
    if (names.count(base))
      out.insert(&f);
  }
}

ThreadDependence analyseThreadDependence(Module &m) {
  ThreadDependence td;
  SmallPtrSet<Function *, 32> direct, directSplit, directGrid, directPoll;
  for (const char *name : {kBarrierFn, kWarpFn})
    if (Function *f = m.getFunction(name))
      userFunctions(f, directSplit);
  for (const char *name : {kGridSyncFn, kMultiGridSyncFn})
    if (Function *f = m.getFunction(name))
      userFunctions(f, directGrid);
  if (Function *f = m.getFunction(kPollFn))
    userFunctions(f, directPoll);
  for (const char *name : {kThreadIdxVar, kLaneVar})
    if (GlobalVariable *g = m.getNamedGlobal(name))
      userFunctions(g, direct);
  SmallPtrSet<Function *, 8> externs;
  externDeviceFunctions(m, externs);
  directSplit.insert(externs.begin(), externs.end());
  // Callers of each defined function.
  DenseMap<Function *, SmallVector<Function *, 4>> callers;
  for (Function &f : m)
    for (Instruction &i : instructions(f))
      if (auto *cb = dyn_cast<CallBase>(&i))
        if (Function *callee = cb->getCalledFunction())
          if (!callee->isDeclaration() || externs.count(callee))
            callers[callee].push_back(&f);
  auto propagate = [&](const SmallPtrSetImpl<Function *> &seed, DenseSet<Function *> &set) {
    SmallVector<Function *, 32> work(seed.begin(), seed.end());
    while (!work.empty()) {
      Function *f = work.pop_back_val();
      if (!set.insert(f).second)
        continue;
      for (Function *c : callers.lookup(f))
        work.push_back(c);
    }
  };
  propagate(directGrid, td.gridSyncs);
  propagate(directPoll, td.polls);
  SmallPtrSet<Function *, 32> splitSeed(directSplit.begin(), directSplit.end());
  splitSeed.insert(directGrid.begin(), directGrid.end());
  propagate(splitSeed, td.splits);
  SmallPtrSet<Function *, 32> needSeed(direct.begin(), direct.end());
  needSeed.insert(splitSeed.begin(), splitSeed.end());
  propagate(needSeed, td.needs);
  return td;
}

// ---- static shared memory ----

// The __shared__ variables (thread_local definitions of this module) that v
// names, through constant expressions; functions it names go to `work`.
static void collectShared(Value *v, SmallVectorImpl<Function *> &work,
                          SmallPtrSetImpl<GlobalVariable *> &vars,
                          SmallPtrSetImpl<Constant *> &seen) {
  if (auto *g = dyn_cast<GlobalVariable>(v)) {
    if (g->isThreadLocal() && !g->isDeclaration())
      vars.insert(g);
  } else if (auto *f = dyn_cast<Function>(v)) {
    work.push_back(f);
  } else if (auto *c = dyn_cast<Constant>(v)) {
    if (!isa<GlobalValue>(c) && seen.insert(c).second)
      for (Value *op : c->operands())
        collectShared(op, work, vars, seen);
  }
}

// The bytes of static __shared__ memory kernel k uses: hipcc makes each
// __shared__ variable a thread_local, so the thread_local definitions of
// this module that k or a function it reaches here names. Variables of
// other translation units (-fgpu-rdc) are not seen.
static uint64_t staticSharedBytes(Function *k) {
  const DataLayout &dl = k->getParent()->getDataLayout();
  SmallVector<Function *, 16> work{k};
  SmallPtrSet<Function *, 16> done;
  SmallPtrSet<GlobalVariable *, 16> vars;
  SmallPtrSet<Constant *, 16> seen;
  while (!work.empty()) {
    Function *f = work.pop_back_val();
    if (!done.insert(f).second || f->isDeclaration())
      continue;
    for (Instruction &i : instructions(*f))
      for (Value *op : i.operands())
        collectShared(op, work, vars, seen);
  }
  uint64_t total = 0;
  for (GlobalVariable *g : vars) {
    Type *t = g->getValueType();
    total = alignTo(total, dl.getValueOrABITypeAlignment(g->getAlign(), t));
    total += dl.getTypeAllocSize(t);
  }
  return total;
}

// A constructor registering every kernel's block function (or why none).
void emitRegistration(Module &m, const std::vector<Function *> &kernels,
                      const std::vector<Function *> &blocks,
                      const std::vector<Function *> &avx2,
                      const std::vector<GlobalVariable *> &descs,
                      const std::vector<std::string> &whys) {
  LLVMContext &c = m.getContext();
  Type *i8p = Type::getInt8PtrTy(c);
  FunctionCallee reg = m.getOrInsertFunction(
      "__ahCpuRegisterBlock", FunctionType::get(Type::getVoidTy(c), {i8p, i8p, i8p, i8p}, false));
  Function *ctor = Function::Create(FunctionType::get(Type::getVoidTy(c), false),
                                    GlobalValue::InternalLinkage, "ah.register.block.kernels", m);
  IRBuilder<> ir(BasicBlock::Create(c, "entry", ctor));
  for (size_t i = 0; i < kernels.size(); i++) {
    Value *why = Constant::getNullValue(i8p);
    if (blocks[i] == nullptr)
      why = ir.CreateGlobalStringPtr(whys[i], "ah.why");
    Value *block = blocks[i] != nullptr ? ir.CreatePointerCast(blocks[i], i8p)
                                        : Constant::getNullValue(i8p);
    Value *desc = descs[i] != nullptr ? ir.CreatePointerCast(descs[i], i8p)
                                      : Constant::getNullValue(i8p);
    ir.CreateCall(reg, {ir.CreatePointerCast(kernels[i], i8p), block, desc, why});
    if (uint64_t shared = staticSharedBytes(kernels[i])) {
      Type *i64 = Type::getInt64Ty(c);
      FunctionCallee regShared = m.getOrInsertFunction(
          "__ahCpuRegisterShared", FunctionType::get(Type::getVoidTy(c), {i8p, i64}, false));
      ir.CreateCall(regShared,
                    {ir.CreatePointerCast(kernels[i], i8p), ConstantInt::get(i64, shared)});
    }
    if (avx2[i] != nullptr) {
      FunctionCallee regAvx2 = m.getOrInsertFunction(
          "__ahCpuRegisterBlockAvx2", FunctionType::get(Type::getVoidTy(c), {i8p, i8p}, false));
      ir.CreateCall(regAvx2, {ir.CreatePointerCast(kernels[i], i8p),
                              ir.CreatePointerCast(avx2[i], i8p)});
    }
  }
  ir.CreateRetVoid();
  appendToGlobalCtors(m, ctor, 65535);
}


} // namespace anyhip
