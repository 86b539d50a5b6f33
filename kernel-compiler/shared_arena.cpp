// SPDX-License-Identifier: MIT
// Static __shared__ variables in the engine's per-worker arena
// (shared_arena.h): marked at the start of the pipeline, rewritten at its end.
#include "shared_arena.h"

#include <hip/anyhip/cpu/block_abi.h>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <cstdlib>
#include <vector>

using namespace llvm;

namespace anyhip {
namespace {

constexpr const char *kSharedAnnotation = "anyhip.shared"; // qualifiers.h's
constexpr const char *kSharedMark = "anyhip.shared";       // metadata kind and named list
constexpr const char *kArenaVar = "__ah_cpu_shared_arena"; // block_abi.h
constexpr const char *kRegisterFn = "__ahCpuRegisterSharedArena";
// Before every other constructor of the program (101 is the first priority
// a program may use): a static object's constructor may launch a kernel.
constexpr int kCtorPriority = 101;

bool debugEnabled() {
  static const bool on = [] {
    const char *v = std::getenv("ANYHIP_KERNEL_COMPILER_DEBUG");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return on;
}

// The annotation's text, or "" when e is not a {ptr, text, ...} entry.
StringRef annotationText(const ConstantStruct *e) {
  if (e->getNumOperands() < 2)
    return "";
  auto *str = dyn_cast<GlobalVariable>(e->getOperand(1)->stripPointerCasts());
  if (str == nullptr || !str->hasInitializer())
    return "";
  auto *text = dyn_cast<ConstantDataSequential>(str->getInitializer());
  return text != nullptr && text->isCString() ? text->getAsCString() : "";
}

// ---- which variables move ----

// Whether every use of c reaches an instruction, through constant
// expressions and aggregates only (not another global's initializer).
bool usedByCodeOnly(const Constant *c, SmallPtrSetImpl<const Constant *> &seen) {
  for (const User *u : c->users()) {
    if (isa<Instruction>(u))
      continue;
    auto *uc = dyn_cast<Constant>(u);
    if (uc == nullptr || isa<GlobalValue>(uc))
      return false;
    if (seen.insert(uc).second && !usedByCodeOnly(uc, seen))
      return false;
  }
  return true;
}

// The name without LLVM's ".N" suffixes: a global GlobalOpt split up
// (_ZL1s.0, _ZL1s.4) or shrank to a boolean (_ZL1s.b) keeps the name of the
// __shared__ variable it came from, but not the mark.
StringRef baseName(StringRef name) {
  for (;;) {
    size_t dot = name.rfind('.');
    if (dot == StringRef::npos || dot == 0)
      return name;
    StringRef tail = name.drop_front(dot + 1);
    bool llvmSuffix = tail == "b" || (!tail.empty() && tail.find_first_not_of("0123456789") ==
                                                           StringRef::npos);
    if (!llvmSuffix)
      return name;
    name = name.take_front(dot);
  }
}

// The __shared__ variables that move to the arena: marked by SharedMarkPass
// (or split from one that was), thread_local definitions with no initial
// value (HIP allows none) and no dynamic initialisation (no guard and no
// init function), used by code only.
std::vector<GlobalVariable *> arenaVariables(Module &m) {
  StringSet<> names;
  if (NamedMDNode *list = m.getNamedMetadata(kSharedMark))
    for (MDNode *n : list->operands())
      if (n->getNumOperands() == 1)
        if (auto *s = dyn_cast<MDString>(n->getOperand(0)))
          names.insert(s->getString());
  std::vector<GlobalVariable *> out;
  for (GlobalVariable &g : m.globals()) {
    if (!g.isThreadLocal() || g.isDeclaration() || !g.hasInitializer())
      continue;
    bool marked = g.getMetadata(kSharedMark) != nullptr ||
                  (g.hasLocalLinkage() && names.count(baseName(g.getName())) != 0);
    if (!marked)
      continue;
    Constant *init = g.getInitializer();
    if (!init->isNullValue() && !isa<UndefValue>(init))
      continue;
    StringRef name = baseName(g.getName());
    if (name.startswith("_Z") && (m.getNamedValue(("_ZGV" + name.drop_front(2)).str()) ||
                                  m.getNamedValue(("_ZTH" + name.drop_front(2)).str())))
      continue;
    SmallPtrSet<const Constant *, 16> seen;
    if (!usedByCodeOnly(&g, seen))
      continue;
    out.push_back(&g);
  }
  return out;
}

// ---- rewriting the uses ----

// A function's addresses in the arena, computed once in its entry block.
struct FunctionBases {
  Instruction *at = nullptr; // the entry block's instructions go before it
  Value *arena = nullptr;    // this thread's arena
  Value *module = nullptr;   // arena + this module's place
  DenseMap<GlobalVariable *, Value *> vars;
};

class Rewriter {
public:
  Rewriter(Module &m, GlobalVariable *moduleSlot, DenseMap<GlobalVariable *, uint64_t> &offsets,
           DenseMap<GlobalVariable *, GlobalVariable *> &slots)
      : m_(m), c_(m.getContext()), moduleSlot_(moduleSlot), offsets_(offsets), slots_(slots) {
    Type *i8p = Type::getInt8PtrTy(c_);
    arenaVar_ = m.getNamedGlobal(kArenaVar);
    if (arenaVar_ == nullptr)
      arenaVar_ = new GlobalVariable(m, i8p, false, GlobalValue::ExternalLinkage, nullptr,
                                     kArenaVar, nullptr, GlobalValue::InitialExecTLSModel);
  }

  // Every constant that (through expressions and aggregates) names a
  // moved variable.
  void taint(Constant *c) {
    for (User *u : c->users())
      if (auto *uc = dyn_cast<Constant>(u))
        if (!isa<GlobalValue>(uc) && tainted_.insert(uc).second)
          taint(uc);
  }

  // Replaces each operand of i that names a moved variable with the same
  // value computed from the arena.
  void rewrite(Instruction *i) {
    auto *phi = dyn_cast<PHINode>(i);
    DenseMap<BasicBlock *, Value *> perBlock; // a phi's repeated predecessors
    for (unsigned n = 0; n < i->getNumOperands(); n++) {
      auto *op = dyn_cast<Constant>(i->getOperand(n));
      if (op == nullptr || !isMoved(op))
        continue;
      Instruction *at = i;
      if (phi != nullptr) {
        BasicBlock *pred = phi->getIncomingBlock(n);
        if (Value *v = perBlock.lookup(pred)) {
          i->setOperand(n, v);
          continue;
        }
        at = pred->getTerminator();
      }
      Value *v = build(op, at, *i->getFunction());
      if (phi != nullptr)
        perBlock[phi->getIncomingBlock(n)] = v;
      i->setOperand(n, v);
    }
  }

  // The functions that now read the arena: they read memory.
  const SmallPtrSetImpl<Function *> &functions() const { return touched_; }

private:
  bool isMoved(Constant *c) const {
    if (auto *g = dyn_cast<GlobalVariable>(c))
      return offsets_.count(g) != 0 || slots_.count(g) != 0;
    return tainted_.count(c) != 0;
  }

  // c as instructions before `at` (its moved variables from the arena).
  Value *build(Constant *c, Instruction *at, Function &f) {
    if (auto *g = dyn_cast<GlobalVariable>(c))
      return isMoved(g) ? address(g, f) : c;
    if (!tainted_.count(c))
      return c;
    if (auto *ce = dyn_cast<ConstantExpr>(c)) {
      Instruction *inst = ce->getAsInstruction();
      for (unsigned n = 0; n < inst->getNumOperands(); n++)
        if (auto *op = dyn_cast<Constant>(inst->getOperand(n)))
          inst->setOperand(n, build(op, at, f));
      inst->insertBefore(at);
      return inst;
    }
    // A vector, struct or array of addresses (the vectorisers make them).
    IRBuilder<> ir(at);
    Value *agg = UndefValue::get(c->getType());
    for (unsigned n = 0; n < c->getNumOperands(); n++) {
      Value *e = build(cast<Constant>(c->getOperand(n)), at, f);
      agg = c->getType()->isVectorTy() ? ir.CreateInsertElement(agg, e, n)
                                       : ir.CreateInsertValue(agg, e, n);
    }
    return agg;
  }

  // g's address in f: arena + slot (a variable of its own place), or
  // arena + module place + offset.
  Value *address(GlobalVariable *g, Function &f) {
    FunctionBases &b = bases_[&f];
    if (Value *v = b.vars.lookup(g))
      return v;
    if (b.at == nullptr) {
      BasicBlock::iterator it = f.getEntryBlock().begin();
      while (isa<AllocaInst>(*it))
        ++it;
      b.at = &*it;
      touched_.insert(&f);
    }
    IRBuilder<> ir(b.at);
    Type *i8 = Type::getInt8Ty(c_), *i64 = Type::getInt64Ty(c_);
    if (b.arena == nullptr)
      b.arena = ir.CreateLoad(Type::getInt8PtrTy(c_), arenaVar_, "ah.arena");
    Value *p;
    if (GlobalVariable *slot = slots_.lookup(g)) {
      p = opaque(ir, ir.CreateInBoundsGEP(i8, b.arena, ir.CreateAlignedLoad(i64, slot, Align(8))));
    } else {
      if (b.module == nullptr)
        b.module = opaque(
            ir, ir.CreateInBoundsGEP(
                    i8, b.arena, ir.CreateAlignedLoad(i64, moduleSlot_, Align(8), "ah.place")),
            "ah.shared");
      uint64_t off = offsets_.lookup(g);
      p = off != 0 ? ir.CreateConstInBoundsGEP1_64(i8, b.module, off) : b.module;
    }
    Value *v = ir.CreateBitCast(p, g->getType(), g->getName());
    b.vars[g] = v;
    return v;
  }

  // p itself, through an empty inline asm: the code generator keeps the
  // block's base in one register and addresses each variable as a constant
  // displacement from it (and an index), as it addressed the thread-local
  // variables, instead of reassociating arena + place + index apart and
  // keeping both in registers (2.8% more instructions in bench_transpose's
  // block function without it).
  Value *opaque(IRBuilder<> &ir, Value *p, const Twine &name = "") {
    auto *t = FunctionType::get(p->getType(), {p->getType()}, false);
    return ir.CreateCall(InlineAsm::get(t, "", "=r,0", /*hasSideEffects=*/false), {p}, name);
  }

  Module &m_;
  LLVMContext &c_;
  GlobalVariable *arenaVar_;
  GlobalVariable *moduleSlot_;
  DenseMap<GlobalVariable *, uint64_t> &offsets_;
  DenseMap<GlobalVariable *, GlobalVariable *> &slots_;
  SmallPtrSet<Constant *, 32> tainted_;
  DenseMap<Function *, FunctionBases> bases_;
  SmallPtrSet<Function *, 16> touched_;
};

} // namespace

// ---- the passes ----

PreservedAnalyses SharedMarkPass::run(Module &m, ModuleAnalysisManager &) {
  GlobalVariable *ann = m.getNamedGlobal("llvm.global.annotations");
  if (ann == nullptr || !ann->hasInitializer())
    return PreservedAnalyses::all();
  auto *arr = dyn_cast<ConstantArray>(ann->getInitializer());
  if (arr == nullptr)
    return PreservedAnalyses::all();
  LLVMContext &c = m.getContext();
  std::vector<Constant *> keep;
  SmallPtrSet<GlobalVariable *, 8> strings;
  NamedMDNode *list = nullptr;
  for (Value *op : arr->operands()) {
    auto *e = dyn_cast<ConstantStruct>(op);
    if (e == nullptr || annotationText(e) != kSharedAnnotation) {
      keep.push_back(cast<Constant>(op));
      continue;
    }
    for (unsigned n = 1; n < e->getNumOperands(); n++)
      if (auto *s = dyn_cast<GlobalVariable>(e->getOperand(n)->stripPointerCasts()))
        strings.insert(s);
    auto *g = dyn_cast<GlobalVariable>(e->getOperand(0)->stripPointerCasts());
    if (g == nullptr || !g->isThreadLocal())
      continue;
    g->setMetadata(kSharedMark, MDNode::get(c, {}));
    if (list == nullptr)
      list = m.getOrInsertNamedMetadata(kSharedMark);
    list->addOperand(MDNode::get(c, {MDString::get(c, g->getName())}));
  }
  if (keep.size() == arr->getNumOperands())
    return PreservedAnalyses::all();
  // The annotation took the variable's address: gone, GlobalsAA can see
  // that nothing else does.
  if (keep.empty()) {
    ann->eraseFromParent();
  } else {
    auto *t = ArrayType::get(arr->getType()->getElementType(), keep.size());
    auto *na = new GlobalVariable(m, t, false, ann->getLinkage(), ConstantArray::get(t, keep),
                                  "", ann, ann->getThreadLocalMode());
    na->setSection(ann->getSection());
    na->takeName(ann);
    ann->eraseFromParent();
  }
  for (GlobalVariable *s : strings) {
    s->removeDeadConstantUsers();
    if (s->use_empty() && s->hasLocalLinkage())
      s->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

PreservedAnalyses SharedArenaPass::run(Module &m, ModuleAnalysisManager &) {
  std::vector<GlobalVariable *> vars = arenaVariables(m);
  if (NamedMDNode *list = m.getNamedMetadata(kSharedMark))
    list->eraseFromParent();
  if (vars.empty())
    return PreservedAnalyses::all();
  LLVMContext &c = m.getContext();
  const DataLayout &dl = m.getDataLayout();
  Type *i64 = Type::getInt64Ty(c);
  Constant *unplaced = ConstantInt::get(i64, AH_CPU_ARENA_UNPLACED);

  // The module's block: its own variables (internal ones), in order, each
  // at its alignment. A variable other modules may name too (an inline
  // function's or a template's static, a namespace-scope one) gets a place
  // of its own, whose slot the linker merges as it would the variable.
  DenseMap<GlobalVariable *, uint64_t> offsets;
  DenseMap<GlobalVariable *, GlobalVariable *> slots;
  uint64_t bytes = 0, align = 1;
  for (GlobalVariable *g : vars) {
    Type *t = g->getValueType();
    uint64_t a = dl.getValueOrABITypeAlignment(g->getAlign(), t).value();
    if (g->hasLocalLinkage()) {
      bytes = alignTo(bytes, a);
      offsets[g] = bytes;
      bytes += dl.getTypeAllocSize(t);
      align = std::max(align, a);
      continue;
    }
    auto *slot = new GlobalVariable(m, i64, false, g->getLinkage(), unplaced,
                                    g->getName() + ".ahplace");
    slot->setVisibility(g->getVisibility());
    slot->setDSOLocal(g->isDSOLocal());
    slot->setAlignment(Align(8));
    if (g->hasComdat())
      slot->setComdat(m.getOrInsertComdat(slot->getName()));
    slots[g] = slot;
  }
  GlobalVariable *moduleSlot = nullptr;
  if (!offsets.empty())
    moduleSlot = new GlobalVariable(m, i64, false, GlobalValue::InternalLinkage, unplaced,
                                    "ah.shared.place");

  Rewriter rw(m, moduleSlot, offsets, slots);
  SmallVector<Instruction *, 64> users;
  SmallPtrSet<Instruction *, 32> seen;
  std::vector<User *> work;
  for (GlobalVariable *g : vars) {
    rw.taint(g);
    work.assign(g->user_begin(), g->user_end());
    SmallPtrSet<User *, 32> visited;
    while (!work.empty()) {
      User *u = work.back();
      work.pop_back();
      if (!visited.insert(u).second)
        continue;
      if (auto *i = dyn_cast<Instruction>(u)) {
        if (seen.insert(i).second)
          users.push_back(i);
      } else {
        work.insert(work.end(), u->user_begin(), u->user_end());
      }
    }
  }
  for (Instruction *i : users)
    rw.rewrite(i);
  // Functions that read nothing before now read the arena's place.
  for (Function *f : rw.functions()) {
    bool readNone = f->doesNotAccessMemory();
    for (Attribute::AttrKind k : {Attribute::ReadNone, Attribute::WriteOnly, Attribute::ArgMemOnly,
                                  Attribute::InaccessibleMemOnly,
                                  Attribute::InaccessibleMemOrArgMemOnly})
      f->removeFnAttr(k);
    if (readNone)
      f->addFnAttr(Attribute::ReadOnly);
  }
  // The constructor that asks the engine for the places.
  Type *i64p = PointerType::getUnqual(i64);
  FunctionCallee reg = m.getOrInsertFunction(
      kRegisterFn, FunctionType::get(Type::getVoidTy(c), {i64p, i64, i64}, false));
  Function *ctor = Function::Create(FunctionType::get(Type::getVoidTy(c), false),
                                    GlobalValue::InternalLinkage, "ah.register.shared.arena", m);
  IRBuilder<> ir(BasicBlock::Create(c, "entry", ctor));
  if (moduleSlot != nullptr)
    ir.CreateCall(reg, {moduleSlot, ConstantInt::get(i64, bytes), ConstantInt::get(i64, align)});
  for (GlobalVariable *g : vars)
    if (GlobalVariable *slot = slots.lookup(g)) {
      Type *t = g->getValueType();
      uint64_t a = dl.getValueOrABITypeAlignment(g->getAlign(), t).value();
      ir.CreateCall(reg, {slot, ConstantInt::get(i64, dl.getTypeAllocSize(t)),
                          ConstantInt::get(i64, a)});
    }
  ir.CreateRetVoid();

  for (GlobalVariable *g : vars) {
    g->removeDeadConstantUsers();
    if (!g->use_empty()) { // usedByCodeOnly said every use was rewritten
      errs() << "anyhip kernel compiler: internal error: __shared__ '" << g->getName()
             << "' still used after its move to the arena\n";
      continue;
    }
    if (debugEnabled())
      errs() << "anyhip kernel compiler: __shared__ '" << g->getName() << "' ("
             << dl.getTypeAllocSize(g->getValueType()) << " bytes) in the arena"
             << (slots.count(g) ? ", a place of its own\n" : "\n");
    g->eraseFromParent();
  }
  appendToGlobalCtors(m, ctor, kCtorPriority);
  return PreservedAnalyses::none();
}

} // namespace anyhip
