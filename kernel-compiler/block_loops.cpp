// SPDX-License-Identifier: MIT
// The block-loops pass: for each kernel K (a function annotated
// "anyhip.kernel" by __global__ under clang), a block function K.ahblock
// with K's signature that runs every GPU thread of one block as loops over
// threadIdx, so that threadIdx is an induction variable the optimizer can
// vectorise. K itself stays as it is: it is the per-thread entry the fiber
// engine runs when the block function cannot be used.
//
// Method (docs/cpu-engine.md has the picture):
//  1. Clone K; inline into the clone every function that reaches a barrier,
//     a warp function or a built-in thread index; promote locals (SROA).
//  2. Cut the clone at each barrier and warp function ("split point"): the
//     call's operands go to the thread's slot, the thread stops, and the
//     region after the split reads the result from the slot.
//  3. SSA values live across a split point move to per-thread storage (the
//     frame), and so do local arrays used on both sides of one.
//  4. Each region becomes loops over z, y, x; between regions the engine
//     (__ah_cpu_block_next) says which region runs next, for which threads.
// Kernels the pass cannot handle keep the fiber engine, registered with the
// reason, which ANYHIP_LOG=cpu prints at run time.
#include "block_loops.h"
#include "bound_split.h"
#include "demanded_lanes.h"
#include "engine_buffers.h"
#include "index_tests.h"
#include "kernel_module.h"
#include "lane_chunks.h"
#include "loop_marks.h"
#include "split_points.h"
#include "stride_interchange.h"
#include "uniformity.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/Triple.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/KnownBits.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Pass.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LowerAtomic.h>
#include <llvm/Transforms/Scalar/SimpleLoopUnswitch.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace anyhip {
namespace {

bool debugEnabled() {
  static const bool on = [] {
    const char *v = std::getenv("ANYHIP_KERNEL_COMPILER_DEBUG");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return on;
}

// ---- building one block function ----

struct Split {
  CallInst *call;        // the barrier or warp call, last in `pre`
  BasicBlock *pre;       // ends with the call and a branch to `cont`
  BasicBlock *cont;      // the region after the split starts here
  CallInst *result;      // placeholder for the call's result in `cont`, or null
  bool warp;
  uint32_t info;         // block_abi.h split_info
  bool inlined = false;  // a shuffle computed by the block function itself
  bool halving = false;  // the step of a halving shuffle loop (demanded_lanes.h)
};

// Types of block_abi.h, as the block function sees them.
struct AbiTypes {
  StructType *slot; // ahCpuSplitSlot {i64 value, i64 mask, i32 arg, i32 width, i32 op, i32 pad}
  StructType *ctx;  // ahCpuBlockCtx {i32 *pc, slot *slot, i8 *frame, i64 *xch, i32 x_begin, x_end}
  StructType *desc; // ahCpuBlockKernel {i32 abi, i32 frame_bytes, i32 nsplits, i32 flags, i32 *info}
};

AbiTypes abiTypes(LLVMContext &c) {
  AbiTypes t;
  Type *i32 = Type::getInt32Ty(c), *i64 = Type::getInt64Ty(c);
  t.slot = StructType::get(c, {i64, i64, i32, i32, i32, i32});
  t.ctx = StructType::get(c, {i32->getPointerTo(), t.slot->getPointerTo(), Type::getInt8PtrTy(c),
                              i64->getPointerTo(), i32, i32, i32, i32, i32, i32});
  t.desc = StructType::get(c, {i32, i32, i32, i32, i32->getPointerTo()});
  return t;
}

// A thread-local built-in of state.h (threadIdx, blockDim, ...), declared if
// the module does not use it yet.
GlobalVariable *builtinVar(Module &m, StringRef name, Type *ty) {
  if (GlobalVariable *g = m.getNamedGlobal(name))
    return g;
  auto *g = new GlobalVariable(m, ty, false, GlobalValue::ExternalLinkage, nullptr, name, nullptr,
                               GlobalValue::InitialExecTLSModel);
  return g;
}

// Replaces, inside f only, every use of global g (also inside constant
// expressions, which are turned into instructions) with v.
void replaceGlobalInFunction(GlobalVariable *g, Value *v, Function &f) {
  SmallVector<Instruction *, 64> insts;
  for (Instruction &i : instructions(f))
    insts.push_back(&i);
  std::function<bool(Constant *)> usesG = [&](Constant *c) -> bool {
    if (c == g)
      return true;
    if (!isa<ConstantExpr>(c))
      return false;
    for (Value *op : c->operands())
      if (usesG(cast<Constant>(op)))
        return true;
    return false;
  };
  // Expands constant operand `u` of inst (a use of g) into instructions.
  std::function<void(Instruction *, Use &)> expand = [&](Instruction *inst, Use &u) {
    auto *c = cast<Constant>(u.get());
    if (c == g) {
      u.set(v);
      return;
    }
    Instruction *at = inst;
    if (auto *phi = dyn_cast<PHINode>(inst))
      at = phi->getIncomingBlock(u)->getTerminator();
    Instruction *ni = cast<ConstantExpr>(c)->getAsInstruction(at);
    for (Use &op : ni->operands())
      if (auto *oc = dyn_cast<Constant>(op.get()); oc != nullptr && usesG(oc))
        expand(ni, op);
    u.set(ni);
  };
  for (Instruction *inst : insts)
    for (Use &u : inst->operands())
      if (auto *c = dyn_cast<Constant>(u.get()); c != nullptr && usesG(c))
        expand(inst, u);
}

class BlockBuilder {
public:
  BlockBuilder(Module &m, Function &kernel, const ThreadDependence &td, OptimizationLevel level,
               FunctionAnalysisManager &fam)
      : m_(m), c_(m.getContext()), k_(kernel), td_(td), level_(level), fam_(fam),
        abi_(abiTypes(m.getContext())) {}

  // The block function, or null with why_ set.
  Function *build();
  const std::string &why() const { return why_; }
  GlobalVariable *descriptor() const { return desc_; }
  unsigned nsplits() const { return (unsigned)splits_.size(); }
  unsigned nkept() const { return (unsigned)kept_.size(); }
  unsigned ninlined() const {
    unsigned n = 0;
    for (const Split &s : splits_)
      n += s.inlined;
    return n;
  }
  unsigned nreread() const { return nreread_; }
  unsigned nchunked() const { return nchunked_; }
  unsigned nhalving() const {
    unsigned n = 0;
    for (const Split &s : splits_)
      n += s.halving;
    return n;
  }
  unsigned nlive() const { return nlive_; }
  unsigned npcless() const { return npcless_; }
  unsigned nmasked() const { return nmasked_; }
  unsigned nframe() const { return (unsigned)frameVars_.size(); }

private:
  bool inlineThreadDependent();
  void promoteLocals();
  void cutAtSplitPoints();
  void analyseUniformity();
  void inlineShuffles();
  void findHalvingLoops();
  struct ThreadLoops;
  Value *shuffleResult(IRBuilder<> &ir, CallInst *ph, const ThreadLoops &loops, Value *rbuf);
  Value *effectiveWidth(IRBuilder<> &ir, Value *w);
  Value *laneChunkCheck(unsigned r, IRBuilder<> &ir, const DenseMap<unsigned, Value *> &vins,
                        Value **delta);
  SmallVector<unsigned, 4> crossedSplits(Instruction *inst);
  void demoteValuesAcrossSplits();
  bool rereadPhiSlot(Instruction *i);
  void keepUniform(BasicBlock *threadEntry, ValueToValueMapTy &vm,
                   const std::vector<BasicBlock *> &clones,
                   const std::vector<std::pair<BasicBlock *, unsigned>> &stops,
                   const DenseMap<unsigned, Value *> &vins);
  bool recomputable(Value *v, int depth);
  Value *recompute(Value *v, Instruction *before);
  void findRegions();
  bool placeAllocas();
  void buildBody();
  BasicBlock *buildRegion(unsigned r, bool masked, BasicBlock *dispatch, PHINode *next,
                          int takeSucc = -1);
  void buildRegionLoops(unsigned r, bool masked, const std::string &tag, IRBuilder<> &ir,
                        BasicBlock *after, Value *rbuf, Value *wbuf,
                        const DenseMap<unsigned, Value *> &vins, int takeSucc, bool chunked,
                        Value *chunkLanes = nullptr);
  bool findGuard(Value *&ok, unsigned &takeSucc);
  struct ThreadLoops {
    Value *x, *y, *z, *t; // the thread's index and linear id
    BasicBlock *next;     // branch here when the thread is done (x's latch)
    BasicBlock *xh, *yh, *zh, *yl, *zl;
    Value *xw = nullptr;  // chunked: the x of lane 0 of the chunk's warp (may wrap below 0)
    Value *xa = nullptr;  // chunked: the chunk's first x rounded down to the warp size
    bool masked = false;  // a masked copy's loop (loop_marks.h): one loop over t
  };
  ThreadLoops openThreadLoops(IRBuilder<> &ir, const std::string &tag, BasicBlock *after,
                              bool chunked = false, Value *chunkLanes = nullptr);
  ThreadLoops openMaskedLoop(IRBuilder<> &ir, const std::string &tag, BasicBlock *after);
  void closeThreadLoops(const ThreadLoops &loops);
  void storeThreadBuiltins(IRBuilder<> &ir, const ThreadLoops &loops);
  BasicBlock *buildGuardCheck(Value *ok, BasicBlock *checked, BasicBlock *unchecked);
  void emitDescriptor();
  void plainSharedAtomics();
  void hoistUniformBranches();
  void describeBuiltins();
  void tagEngineBuffers();
  bool fail(const std::string &why) {
    why_ = why;
    return false;
  }

  Module &m_;
  LLVMContext &c_;
  Function &k_;
  const ThreadDependence &td_;
  OptimizationLevel level_;
  FunctionAnalysisManager &fam_;
  AbiTypes abi_;
  Function *b_ = nullptr;
  std::string why_;
  bool storeTls_ = false; // keep threadIdx's TLS current (O0, or callees read it)
  std::vector<Split> splits_;
  DenseMap<BasicBlock *, unsigned> preToSplit_; // pre block -> split index
  DenseMap<CallInst *, unsigned> resultToSplit_;
  std::vector<std::vector<BasicBlock *>> regions_; // blocks of region r, in function order
  std::vector<DenseSet<BasicBlock *>> regionSets_;
  SmallSetVector<AllocaInst *, 16> frameVars_;
  DenseSet<AllocaInst *> phiSlots_; // frame slots of demoted phis (rereadPhiSlot)
  unsigned nreread_ = 0;             // loads of them that rereadPhiSlot spared a slot
  unsigned nchunked_ = 0;            // regions with a copy in lane chunks (laneChunkCheck)
  unsigned nlive_ = 0;               // regions that count their live threads (liveTracked_)
  unsigned npcless_ = 0;             // regions that write no pc[t] (pcSkipped_)
  unsigned nmasked_ = 0;             // regions with a masked copy (maskedRegions)
  // Uniform values live across aligned barriers only: kept as SSA values,
  // one copy per block (`slot`, a local of the block function) that each
  // thread stopping at such a barrier writes and the next region reads
  // once, before its thread loops (keepUniform).
  std::unique_ptr<Uniformity> uni_;
  struct Kept {
    Instruction *v;
    SmallVector<unsigned, 4> splits; // the split points it lives across
    AllocaInst *slot;
  };
  std::vector<Kept> kept_;
  DenseMap<Instruction *, unsigned> keptIndex_;
  DenseMap<BasicBlock *, unsigned> contToSplit_;
  DenseMap<AllocaInst *, std::pair<uint64_t, uint64_t>> frameLayout_; // prefix, stride
  uint64_t frameBytes_ = 0;
  AllocaInst *tidVar_ = nullptr, *laneVar_ = nullptr;
  // Per-block built-ins (blockIdx, blockDim, gridDim, warpSize, dynamic
  // shared memory) read once at the block function's entry into locals: a
  // store through a kernel pointer could alias the thread-local originals,
  // which would keep the optimizer from hoisting them out of thread loops.
  SmallVector<std::pair<AllocaInst *, GlobalVariable *>, 6> blockVars_;
  // The block function's local for the per-block built-in `name`, or null.
  AllocaInst *blockVar(const char *name) const {
    for (auto &bv : blockVars_)
      if (bv.second->getName() == name)
        return bv.first;
    return nullptr;
  }
  bool isBuiltinVar(const Value *v) const {
    if (v == tidVar_ || v == laneVar_)
      return true;
    for (auto &bv : blockVars_)
      if (bv.first == v)
        return true;
    return false;
  }
  // Values of the new entry block
  BasicBlock *entry_ = nullptr;
  Value *dx_ = nullptr, *dy_ = nullptr, *dz_ = nullptr, *nthreads_ = nullptr;
  Value *ctx_ = nullptr, *pc_ = nullptr, *slot_ = nullptr, *frame_ = nullptr, *warpMask_ = nullptr;
  Value *xch_ = nullptr;                 // inline shuffles' two buffers
  Type *xchTy_ = nullptr;                // their element: i32 when every operand fits
  std::vector<EngineBuffer> xchBuffers_; // each region's read and write buffer
  AllocaInst *parityVar_ = nullptr;      // which of them the next region reads
  bool hasInline_ = false;
  bool lockstep_ = false; // every split point aligned (inlineShuffles)
  // Insertion-ordered: the regions' per-thread pointers and the alias
  // scopes are made in this order, the same in every compile.
  MapVector<AllocaInst *, Value *> frameBase_;
  AllocaInst *loVar_ = nullptr, *hiVar_ = nullptr, *xVar_ = nullptr, *yVar_ = nullptr,
             *zVar_ = nullptr, *tVar_ = nullptr; // tVar_: a masked copy's loop counter
  AllocaInst *stepsVar_ = nullptr; // region changes at inline shuffles the engine was not told of
  // The live threads' stops in a region where some threads may return and
  // others stop (block_abi.h's live_*): the OR of the stops, the first and
  // last live thread and their count. liveTracked_: the region being built has them.
  AllocaInst *liveVars_[4] = {nullptr, nullptr, nullptr, nullptr};
  bool liveTracked_ = false;
  // The region being built writes no pc[t] (uniform exits, pcSkippable).
  bool pcSkipped_ = false;
  bool pcSkippable(unsigned r, const std::vector<std::pair<BasicBlock *, unsigned>> &stops);
  // divergentExit of each region, found once (buildBody) for its copies and
  // for maskedRegions; exitDivergent_: the unmasked copy being built's.
  std::vector<bool> divergent_;
  bool exitDivergent_ = false;
  bool divergentExit(unsigned r);
  std::vector<bool> maskedRegions();
  GlobalVariable *desc_ = nullptr;
};

// A small callee the pipeline's inliner would take anyway (not noinline,
// optnone or recursive). Inlined before SROA, the locals its caller passes
// it by address become SSA values: a lambda's closure and what it captures
// by reference, a functor's `this` (`op(a, b)`), a local array passed down.
// Left a call until the pipeline's inliner, each such local escapes, and
// every one that more than region 0 touches lives in the frame, a copy per
// thread written and read through memory in each region: the guide's
// reduction v8 kept 34 frame arrays, and its block function ran 2.3x the
// instructions it does now (examples/reduction.hip: 274 M to 210 M,
// callgrind, one worker; v6 and v7 4x fewer).
static bool smallCallee(const Function &f) {
  constexpr unsigned kMaxInstructions = 200; // about the inliner's own threshold
  if (f.isDeclaration() || f.hasFnAttribute(Attribute::NoInline) ||
      f.hasFnAttribute(Attribute::OptimizeNone) || f.getInstructionCount() > kMaxInstructions)
    return false;
  for (const Instruction &i : instructions(f))
    if (auto *cb = dyn_cast<CallBase>(&i); cb != nullptr && cb->getCalledFunction() == &f)
      return false;
  return true;
}

bool BlockBuilder::inlineThreadDependent() {
  DenseMap<const Function *, bool> isSmall; // smallCallee, once per callee
  DenseSet<const CallBase *> keptCalls;     // small calls InlineFunction refused
  for (int round = 0; round < 32; round++) {
    SmallVector<CallBase *, 16> calls, small;
    for (Instruction &i : instructions(*b_))
      if (auto *cb = dyn_cast<CallBase>(&i)) {
        Function *callee = cb->getCalledFunction();
        if (callee == nullptr || callee->isDeclaration() || callee == b_)
          continue;
        // always_inline ones too (atomics, warp wrappers): they would be
        // inlined anyway, and plainSharedAtomics must see their insides.
        if (td_.needs.count(callee) || callee->hasFnAttribute(Attribute::AlwaysInline))
          calls.push_back(cb);
        else if (level_ != OptimizationLevel::O0 && !keptCalls.count(cb)) {
          auto it = isSmall.try_emplace(callee, false);
          if (it.second)
            it.first->second = smallCallee(*callee);
          if (it.first->second)
            small.push_back(cb);
        }
      }
    if (calls.empty() && small.empty())
      break;
    for (CallBase *cb : calls) {
      InlineFunctionInfo ifi;
      if (!InlineFunction(*cb, ifi).isSuccess())
        return fail("a device function with barriers or thread indices could not be inlined");
    }
    for (CallBase *cb : small) { // for speed only: a call left is still right
      InlineFunctionInfo ifi;
      if (!InlineFunction(*cb, ifi).isSuccess())
        keptCalls.insert(cb);
    }
  }
  // What is left: recursion, indirect calls.
  for (Instruction &i : instructions(*b_)) {
    auto *cb = dyn_cast<CallBase>(&i);
    if (cb == nullptr || isa<DbgInfoIntrinsic>(cb))
      continue;
    Function *callee = cb->getCalledFunction();
    if (callee == nullptr) {
      if (!cb->isInlineAsm())
        storeTls_ = true; // an indirect call may read threadIdx
      continue;
    }
    if (callee->getName() == kGridSyncFn || callee->getName() == kMultiGridSyncFn ||
        td_.gridSyncs.count(callee))
      return fail("calls grid.sync() (cooperative groups): needs every block resident at once");
    if (callee->getName() == kPollFn || td_.polls.count(callee))
      return fail("polls the clock (clock64, s_sleep): its block's threads must interleave");
    if (!callee->isDeclaration() && td_.splits.count(callee))
      return fail("a recursive device function reaches a barrier or warp function");
    if (callee->isDeclaration() && td_.splits.count(callee))
      return fail("calls a device function of another source (-fgpu-rdc): its barriers and "
                  "thread indices are not known here");
    if (!callee->isDeclaration() && td_.needs.count(callee))
      storeTls_ = true;
  }
  return true;
}

void BlockBuilder::promoteLocals() {
  if (level_ == OptimizationLevel::O0)
    return;
  FunctionPassManager fpm;
  fpm.addPass(SROAPass());
  fpm.run(*b_, fam_);
}

void BlockBuilder::cutAtSplitPoints() {
  SmallVector<CallInst *, 16> calls;
  for (Instruction &i : instructions(*b_))
    if (auto *ci = dyn_cast<CallInst>(&i))
      if (Function *callee = ci->getCalledFunction())
        if (callee->getName() == kBarrierFn || callee->getName() == kWarpFn)
          calls.push_back(ci);
  for (CallInst *ci : calls) {
    Split s{};
    s.call = ci;
    s.warp = ci->getCalledFunction()->getName() == kWarpFn;
    auto *op = dyn_cast<ConstantInt>(ci->getArgOperand(0));
    s.info = (s.warp ? kSplitWarp : 0) | (op != nullptr ? (uint32_t)op->getZExtValue() & 0xff
                                                        : kOpDynamic);
    s.pre = ci->getParent();
    s.cont = s.pre->splitBasicBlock(ci->getNextNode(), "ah.after.split");
    if (!ci->use_empty()) {
      // The result arrives in the thread's slot; a placeholder stands for
      // the load until each region is built.
      std::string name = "ah.split.result." + std::to_string(splits_.size() + 1);
      FunctionCallee ph = m_.getOrInsertFunction(
          "ah.split.result." + std::string(ci->getType()->isIntegerTy(32) ? "i32" : "i64"),
          FunctionType::get(ci->getType(), {Type::getInt32Ty(c_)}, false));
      s.result = CallInst::Create(
          ph, {ConstantInt::get(Type::getInt32Ty(c_), splits_.size() + 1)}, name,
          &*s.cont->getFirstInsertionPt());
      ci->replaceAllUsesWith(s.result);
      resultToSplit_[s.result] = (unsigned)splits_.size();
    }
    preToSplit_[s.pre] = (unsigned)splits_.size();
    contToSplit_[s.cont] = (unsigned)splits_.size();
    splits_.push_back(s);
  }
}

// Whether v depends only on the running thread's indices (threadIdx, the
// lane), the block's built-ins, the kernel's arguments and constants, through
// operations without side effects: then any region can compute it again.
bool BlockBuilder::recomputable(Value *v, int depth) {
  if (isa<Constant>(v) || isa<Argument>(v) || isBuiltinVar(v))
    return true;
  auto *inst = dyn_cast<Instruction>(v);
  if (inst == nullptr || depth > 12)
    return false;
  if (auto *ld = dyn_cast<LoadInst>(inst)) {
    if (ld->isVolatile() || ld->isAtomic())
      return false;
    Value *base = ld->getPointerOperand()->stripInBoundsConstantOffsets();
    if (isBuiltinVar(base))
      return recomputable(ld->getPointerOperand(), depth + 1);
    auto *g = dyn_cast<GlobalVariable>(base);
    return g != nullptr && (g->getName() == kBlockIdxVar || g->getName() == kBlockDimVar ||
                            g->getName() == kGridDimVar || g->getName() == kWarpSizeVar);
  }
  if (!isa<BinaryOperator>(inst) && !isa<CastInst>(inst) && !isa<CmpInst>(inst) &&
      !isa<SelectInst>(inst) && !isa<GetElementPtrInst>(inst) && !isa<UnaryOperator>(inst) &&
      !isa<FreezeInst>(inst))
    return false;
  for (Value *op : inst->operands())
    if (!recomputable(op, depth + 1))
      return false;
  return true;
}

// A copy of v's computation right before `before`.
Value *BlockBuilder::recompute(Value *v, Instruction *before) {
  auto *inst = dyn_cast<Instruction>(v);
  if (inst == nullptr || isBuiltinVar(inst))
    return v;
  Instruction *copy = inst->clone();
  for (Use &op : copy->operands())
    op.set(recompute(op.get(), before));
  copy->insertBefore(before);
  return copy;
}

void BlockBuilder::analyseUniformity() {
  UniformityInputs in;
  in.threadVars.insert(tidVar_);
  in.threadVars.insert(laneVar_);
  for (auto &bv : blockVars_)
    in.blockVars.insert(bv.first);
  for (Split &s : splits_)
    in.splitBlocks.insert(s.pre);
  // A barrier's result (__syncthreads_count/_and/_or) is the block's.
  in.uniformCall = [this](const CallInst *ci) {
    auto it = resultToSplit_.find(const_cast<CallInst *>(ci));
    return it != resultToSplit_.end() && !splits_[it->second].warp;
  };
  uni_ = std::make_unique<Uniformity>(*b_, in);
}

// In a kernel whose every split point is aligned (lockstep_: all running
// threads stop at each one in the same region run, so the region after it
// runs next, for all of them), shuffles are computed by the block function: each thread stopping there writes its operand to the
// block's exchange buffer, and the region after it reads the source lane's
// (shuffleResult), with no call into the engine per lane. The result's
// placeholder takes the shuffle's lane argument and width as operands, so
// that they reach the region after the split like any value.
void BlockBuilder::inlineShuffles() {
  Type *i32 = Type::getInt32Ty(c_), *i64 = Type::getInt64Ty(c_);
  lockstep_ = true;
  for (Split &s : splits_)
    lockstep_ &= uni_->aligned(s.pre);
  if (!lockstep_)
    return;
  for (unsigned k = 0; k < splits_.size(); k++) {
    Split &s = splits_[k];
    uint32_t op = s.info & 0xff;
    if (!s.warp || op < kShfl || op > kShflXor)
      continue;
    s.inlined = true;
    s.info |= kSplitInline;
    hasInline_ = true;
    if (s.result == nullptr)
      continue;
    FunctionCallee ph = m_.getOrInsertFunction(
        "ah.split.inline", FunctionType::get(i64, {i32, i32, i32}, false));
    auto *ci = CallInst::Create(ph,
                                {ConstantInt::get(i32, k + 1), s.call->getArgOperand(2),
                                 s.call->getArgOperand(3)},
                                s.result->getName(), s.result);
    Value *r = ci;
    if (!s.result->getType()->isIntegerTy(64))
      r = new TruncInst(ci, s.result->getType(), "", s.result);
    s.result->replaceAllUsesWith(r);
    resultToSplit_.erase(s.result);
    s.result->eraseFromParent();
    s.result = ci;
    resultToSplit_[ci] = k;
  }
  // 32-bit exchange arrays when every inline shuffle's operand has a zero
  // upper half (warp_pack of a 32-bit value): every result, some lane's
  // operand or 0, then has one too, so a 32-bit array extended back to 64
  // bits gives the same values, with half the memory traffic and loops that
  // vectorise eight lanes wide without 64-bit shuffling.
  bool narrow = true;
  for (Split &s : splits_)
    if (s.inlined)
      narrow &= computeKnownBits(s.call->getArgOperand(1), m_.getDataLayout())
                    .countMinLeadingZeros() >= 32;
  xchTy_ = narrow ? i32 : i64;
  if (debugEnabled() && hasInline_)
    errs() << "anyhip kernel compiler: " << k_.getName() << ": exchange arrays of "
           << (narrow ? "32" : "64") << "-bit values\n";
}

// Steps of halving shuffle loops whose lanes past the delta need not run
// (demanded_lanes.h): inline shuffles down, before values move to the frame.
void BlockBuilder::findHalvingLoops() {
  const Value *ws = blockVar(kWarpSizeVar);
  for (Split &s : splits_)
    s.halving = s.inlined && (s.info & 0xff) == kShflDown && s.result != nullptr &&
                ws != nullptr && halvingShuffleLoop(s.pre, s.cont, s.result, tidVar_, laneVar_, ws);
}

// The split points inst lives across: those whose continuation a use of
// inst is reached from without passing its definition.
SmallVector<unsigned, 4> BlockBuilder::crossedSplits(Instruction *inst) {
  BasicBlock *def = inst->getParent();
  SmallVector<BasicBlock *, 16> work;
  SmallPtrSet<BasicBlock *, 16> seen;
  SmallVector<unsigned, 4> out;
  for (Use &u : inst->uses()) {
    auto *user = cast<Instruction>(u.getUser());
    BasicBlock *at = user->getParent();
    if (auto *phi = dyn_cast<PHINode>(user))
      at = phi->getIncomingBlock(u);
    if (at != def)
      work.push_back(at);
  }
  while (!work.empty()) {
    BasicBlock *bb = work.pop_back_val();
    if (!seen.insert(bb).second)
      continue;
    auto c = contToSplit_.find(bb);
    if (c != contToSplit_.end())
      out.push_back(c->second);
    for (BasicBlock *pred : predecessors(bb))
      if (pred != def)
        work.push_back(pred);
  }
  return out;
}

// An SSA value is live across split s when a use of it is reached from
// s.cont without passing its definition: it then moves to the frame, or is
// computed again, or (uniform, across aligned barriers only) kept.
void BlockBuilder::demoteValuesAcrossSplits() {
  auto crosses = [&](Instruction *inst) { return !crossedSplits(inst).empty(); };
  // A demoted phi leaves one load where it was, which can itself be live
  // across a split: repeat until nothing is (loads that DemoteRegToStack
  // makes sit right before their use). Values computed from the thread's
  // indices, the arguments and constants alone (tid, i = blockIdx.x *
  // blockDim.x + tid, lane, ...) are computed again where they are used
  // instead: no frame traffic, and the optimizer sees them as affine in x.
  for (bool firstRound = true;; firstRound = false) {
    SmallVector<Instruction *, 32> live;
    for (Instruction &i : instructions(*b_))
      if (!isa<AllocaInst>(i) && !i.getType()->isVoidTy() && !keptIndex_.count(&i) &&
          crosses(&i))
        live.push_back(&i);
    if (live.empty())
      break;
    for (Instruction *i : live) {
      // Only instructions the analysis saw (the first round: later rounds
      // hold the loads demotion made, which may even reuse the addresses
      // of instructions it erased).
      if (firstRound && !recomputable(i, 0) && uni_ != nullptr && uni_->uniform(i) &&
          !i->getType()->isTokenTy()) {
        SmallVector<unsigned, 4> crossed = crossedSplits(i);
        bool keep = !crossed.empty();
        // Across a barrier every thread stores the same value before any
        // reads it; across a warp split only if no warp can run ahead.
        for (unsigned k : crossed)
          keep &= uni_->aligned(splits_[k].pre) && (!splits_[k].warp || lockstep_);
        if (keep) {
          keptIndex_[i] = (unsigned)kept_.size();
          kept_.push_back(Kept{i, crossed, nullptr});
          continue;
        }
      }
      if (recomputable(i, 0)) {
        SmallVector<Use *, 8> uses;
        for (Use &u : i->uses())
          uses.push_back(&u);
        for (Use *u : uses) {
          auto *user = cast<Instruction>(u->getUser());
          Instruction *at = user;
          if (auto *phi = dyn_cast<PHINode>(user))
            at = phi->getIncomingBlock(*u)->getTerminator();
          if (at->getParent() == i->getParent())
            continue;
          u->set(recompute(i, at));
        }
        continue;
      }
      if (rereadPhiSlot(i))
        continue;
      AllocaInst *slot = isa<PHINode>(i) ? DemotePHIToStack(cast<PHINode>(i))
                                         : DemoteRegToStack(*i, false);
      if (slot != nullptr)
        frameVars_.insert(slot);
      if (slot != nullptr && isa<PHINode>(i))
        phiSlots_.insert(slot);
    }
  }
}

// The load a demoted phi leaves in its block (DemotePHIToStack) holds what
// the phi's slot holds until control comes back to that block: the slot is
// stored only at the ends of the phi's incoming blocks. When each of those
// goes nowhere else, a use past a split point reads the slot again instead
// of the load moving to a second frame array (a shuffle loop's `v` was
// stored to two arrays per thread and step).
bool BlockBuilder::rereadPhiSlot(Instruction *i) {
  auto *ld = dyn_cast<LoadInst>(i);
  auto *slot = ld != nullptr ? dyn_cast<AllocaInst>(ld->getPointerOperand()) : nullptr;
  if (slot == nullptr || !phiSlots_.count(slot))
    return false;
  for (User *u : slot->users()) {
    if (u == ld)
      continue;
    auto *st = dyn_cast<StoreInst>(u);
    if (st == nullptr || st->getPointerOperand() != slot ||
        st->getParent()->getTerminator()->getNumSuccessors() != 1 ||
        st->getParent()->getTerminator()->getSuccessor(0) != ld->getParent())
      return false;
  }
  SmallVector<Use *, 8> uses;
  for (Use &u : ld->uses()) {
    auto *user = cast<Instruction>(u.getUser());
    if (isa<PHINode>(user))
      return false;
    if (user->getParent() != ld->getParent() || !ld->comesBefore(user))
      uses.push_back(&u);
  }
  for (Use *u : uses)
    u->set(new LoadInst(ld->getType(), slot, ld->getName() + ".again",
                        cast<Instruction>(u->getUser())));
  nreread_++;
  return true;
}

void BlockBuilder::findRegions() {
  DenseMap<BasicBlock *, unsigned> order;
  for (BasicBlock &bb : *b_)
    order[&bb] = order.size();
  unsigned n = (unsigned)splits_.size();
  regions_.assign(n + 1, {});
  regionSets_.assign(n + 1, {});
  for (unsigned r = 0; r <= n; r++) {
    BasicBlock *start = r == 0 ? &b_->getEntryBlock() : splits_[r - 1].cont;
    SmallVector<BasicBlock *, 16> work{start};
    DenseSet<BasicBlock *> &set = regionSets_[r];
    while (!work.empty()) {
      BasicBlock *bb = work.pop_back_val();
      if (!set.insert(bb).second)
        continue;
      if (preToSplit_.count(bb))
        continue; // the thread stops at the split
      for (BasicBlock *succ : successors(bb))
        work.push_back(succ);
    }
    regions_[r].assign(set.begin(), set.end());
    std::sort(regions_[r].begin(), regions_[r].end(),
              [&](BasicBlock *a, BasicBlock *b) { return order[a] < order[b]; });
  }
}

// Local variables left in memory (arrays, address-taken ones) stay one copy
// for all threads when only region 0 touches them (each thread runs region
// 0 from start to end before the next begins, as in one call of the kernel);
// otherwise they move to the frame, one copy per thread.
bool BlockBuilder::placeAllocas() {
  SmallVector<AllocaInst *, 32> allocas;
  for (Instruction &i : instructions(*b_))
    if (auto *a = dyn_cast<AllocaInst>(&i))
      allocas.push_back(a);
  DenseSet<BasicBlock *> onlyRegion0;
  for (BasicBlock *bb : regions_[0]) {
    bool other = false;
    for (unsigned r = 1; r < regions_.size() && !other; r++)
      other = regionSets_[r].count(bb) != 0;
    if (!other)
      onlyRegion0.insert(bb);
  }
  for (AllocaInst *a : allocas) {
    if (!a->isStaticAlloca() && !splits_.empty())
      return fail("a variable-size local array (alloca) in a kernel with barriers");
    // The built-ins are written at the start of every thread's run.
    if (splits_.empty() || frameVars_.count(a) || isBuiltinVar(a))
      continue;
    // Every instruction that touches memory derived from a.
    bool escapes = false, local = true;
    SmallVector<Value *, 16> work{a};
    SmallPtrSet<Value *, 16> seen;
    while (!work.empty() && local && !escapes) {
      Value *v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (User *u : v->users()) {
        auto *inst = dyn_cast<Instruction>(u);
        if (inst == nullptr)
          continue;
        if (!onlyRegion0.count(inst->getParent()))
          local = false;
        if (auto *st = dyn_cast<StoreInst>(inst)) {
          if (st->getValueOperand() == v)
            escapes = true;
        } else if (isa<PtrToIntInst>(inst)) {
          escapes = true;
        } else if (isa<GetElementPtrInst>(inst) || isa<BitCastInst>(inst) || isa<PHINode>(inst) ||
                   isa<SelectInst>(inst) || isa<AddrSpaceCastInst>(inst)) {
          work.push_back(inst);
        }
      }
    }
    if (!local || escapes)
      frameVars_.insert(a);
  }
  // Frame variables: no lifetime markers or debug declarations (the frame
  // slot of a thread is not an alloca).
  const DataLayout &dl = m_.getDataLayout();
  std::vector<AllocaInst *> vars(frameVars_.begin(), frameVars_.end());
  for (AllocaInst *a : vars) {
    SmallVector<DbgVariableIntrinsic *, 2> dbgs;
    findDbgUsers(dbgs, a);
    for (DbgVariableIntrinsic *d : dbgs)
      d->eraseFromParent();
    SmallVector<Value *, 8> work{a};
    SmallVector<Instruction *, 8> dead;
    while (!work.empty()) {
      Value *v = work.pop_back_val();
      for (User *u : v->users()) {
        if (auto *ii = dyn_cast<IntrinsicInst>(u)) {
          if (ii->isLifetimeStartOrEnd())
            dead.push_back(ii);
        } else if (isa<BitCastInst>(u)) {
          work.push_back(u);
        }
      }
    }
    for (Instruction *d : dead)
      d->eraseFromParent();
  }
  // Layout: strongest alignment first, so each variable's array starts
  // aligned at frame + nthreads * prefix.
  std::stable_sort(vars.begin(), vars.end(), [](AllocaInst *x, AllocaInst *y) {
    return x->getAlign().value() > y->getAlign().value();
  });
  uint64_t prefix = 0;
  for (AllocaInst *a : vars) {
    uint64_t align = a->getAlign().value();
    uint64_t size = *a->getAllocationSizeInBits(dl) / 8;
    uint64_t stride = (size + align - 1) / align * align;
    if (stride == 0)
      stride = align;
    frameLayout_[a] = {prefix, stride};
    prefix += stride;
  }
  frameBytes_ = prefix;
  return true;
}

void BlockBuilder::emitDescriptor() {
  Type *i32 = Type::getInt32Ty(c_);
  Constant *infoPtr = Constant::getNullValue(i32->getPointerTo());
  if (!splits_.empty()) { // a barrier-free kernel has no split_info
    std::vector<Constant *> info{ConstantInt::get(i32, 0)};
    for (Split &s : splits_)
      info.push_back(ConstantInt::get(i32, s.info));
    auto *infoTy = ArrayType::get(i32, info.size());
    auto *infoVar = new GlobalVariable(m_, infoTy, true, GlobalValue::PrivateLinkage,
                                       ConstantArray::get(infoTy, info), "ah.split.info");
    infoPtr = ConstantExpr::getPointerCast(infoVar, i32->getPointerTo());
  }
  Constant *fields[] = {ConstantInt::get(i32, kAbi), ConstantInt::get(i32, frameBytes_),
                        ConstantInt::get(i32, splits_.size()), ConstantInt::get(i32, 0), infoPtr};
  desc_ = new GlobalVariable(m_, abi_.desc, true, GlobalValue::PrivateLinkage,
                             ConstantStruct::get(abi_.desc, fields), "ah.block.kernel");
}

// Loops over the block's threads around a copy of region r's blocks. The
// loop counters live in allocas that SROA turns into induction variables.
BasicBlock *BlockBuilder::buildRegion(unsigned r, bool masked, BasicBlock *dispatch,
                                      PHINode *next, int takeSucc) {
  Type *i32 = Type::getInt32Ty(c_), *i64 = Type::getInt64Ty(c_);
  bool hasSplits = !splits_.empty();
  std::string tag = "r" + std::to_string(r) + (masked ? "m" : "");
  auto block = [&](const char *name) { return BasicBlock::Create(c_, tag + "." + name, b_); };
  BasicBlock *pre = block("pre"), *after = block("after");
  IRBuilder<> ir(pre);
  // Where the threads stopped: each thread's pc, and the AND and the OR of
  // them all (lo, hi). A store and two bitwise reductions per thread, no
  // branch and no call, so the thread loop still vectorises; when lo == hi
  // (every thread stopped at one place, the rule) the engine reads no pc.
  liveTracked_ = false;
  pcSkipped_ = false;
  exitDivergent_ = !masked && hasSplits && divergent_[r];
  if (hasSplits) {
    ir.CreateStore(ir.getInt32(kPcDone), loVar_);
    ir.CreateStore(ir.getInt32(0), hiVar_);
    // hi, first, last, count of the live threads (where they may be counted).
    const uint32_t init[4] = {0, kPcDone, 0, 0};
    for (int k = 0; k < 4 && exitDivergent_; k++)
      ir.CreateStore(ir.getInt32(init[k]), liveVars_[k]);
  }
  // Kept uniform values the region uses or stores: read once, here.
  DenseMap<unsigned, Value *> vins;
  for (unsigned k = 0; k < kept_.size(); k++) {
    bool used = false;
    for (User *u : kept_[k].v->users())
      used |= regionSets_[r].count(cast<Instruction>(u)->getParent()) != 0;
    for (unsigned sp : kept_[k].splits)
      used |= regionSets_[r].count(splits_[sp].pre) != 0;
    if (used)
      vins[k] = ir.CreateLoad(kept_[k].v->getType(), kept_[k].slot, kept_[k].v->getName() + ".in");
  }
  // Inline shuffles: this region reads the buffer the last one wrote, and
  // writes the other (a thread may write before another thread reads).
  Value *rbuf = nullptr, *wbuf = nullptr;
  if (hasInline_) {
    Value *p = ir.CreateLoad(i32, parityVar_, "parity");
    Value *stride = ir.CreateAdd(ir.CreateZExt(nthreads_, i64), ir.getInt64(AH_CPU_XCH_PAD));
    rbuf = ir.CreateInBoundsGEP(xchTy_, xch_, ir.CreateMul(ir.CreateZExt(p, i64), stride),
                                "xch.read");
    Value *q = ir.CreateXor(p, ir.getInt32(1));
    wbuf = ir.CreateInBoundsGEP(xchTy_, xch_, ir.CreateMul(ir.CreateZExt(q, i64), stride),
                                "xch.write");
    int id = (int)xchBuffers_.size() / 2;
    xchBuffers_.push_back({rbuf, id});
    xchBuffers_.push_back({wbuf, id});
    ir.CreateStore(q, parityVar_);
  }
  // After an inline shuffle down or up, a second copy of the thread loops
  // runs each warp's threads as one chunk (laneChunkCheck says when). Not
  // for the masked copy: it runs only after threads diverged, and every
  // copy costs compile time (the examples' limit is 1.5x g++'s).
  Value *delta = nullptr;
  Value *fast = masked ? nullptr : laneChunkCheck(r, ir, vins, &delta);
  if (fast != nullptr) {
    BasicBlock *chunks = block("chunks"), *general = block("general");
    nchunked_++;
    ir.CreateCondBr(fast, chunks, general);
    ir.SetInsertPoint(chunks);
    // A step of a halving shuffle loop that goes on (d >= 2) runs lanes
    // below d only, where a thread's lane is threadIdx.x's (rows of whole
    // warps). Not where threads may return: they count themselves.
    Value *lanes = nullptr;
    if (splits_[r - 1].halving && !exitDivergent_) {
      Value *ws = ir.CreateAdd(warpMask_, ir.getInt32(1));
      Value *on = ir.CreateAnd(ir.CreateICmpUGE(delta, ir.getInt32(2)),
                               ir.CreateICmpEQ(ir.CreateAnd(dx_, warpMask_), ir.getInt32(0)));
      lanes = ir.CreateSelect(on, delta, ws, "demanded.lanes");
    }
    buildRegionLoops(r, masked, tag + "c", ir, after, rbuf, wbuf, vins, takeSucc, true, lanes);
    ir.SetInsertPoint(general);
  }
  buildRegionLoops(r, masked, tag, ir, after, rbuf, wbuf, vins, takeSucc, false);
  ir.SetInsertPoint(after);
  if (!hasSplits) {
    ir.CreateRetVoid();
  } else {
    FunctionCallee nextFn = m_.getOrInsertFunction(
        "__ah_cpu_block_next", FunctionType::get(i32, {abi_.ctx->getPointerTo(), i32, i32, i32},
                                                 false));
    Value *lo = ir.CreateLoad(i32, loVar_), *hi = ir.CreateLoad(i32, hiVar_);
    for (int k = 0; k < 4 && liveTracked_; k++)
      ir.CreateStore(ir.CreateLoad(i32, liveVars_[k]), ir.CreateStructGEP(abi_.ctx, ctx_, 6 + k));
    int all = masked ? 0 : liveTracked_ ? 2 : pcSkipped_ ? 3 : 1;
    nlive_ += liveTracked_;
    npcless_ += pcSkipped_;
    Value *n = nullptr;
    if (!masked && hasInline_) {
      // Every thread stopped at one inline shuffle: the engine would only
      // say "its region next" (lo * 2), so the block function says it
      // itself, but for one such step in 64, which goes to the engine as
      // the watchdog's sign of life (__ah_cpu_block_next counts it).
      Value *inl = ir.getFalse();
      for (unsigned k = 0; k < splits_.size(); k++)
        if (splits_[k].inlined)
          inl = ir.CreateOr(inl, ir.CreateICmpEQ(lo, ir.getInt32(k + 1)));
      Value *steps = ir.CreateAdd(ir.CreateLoad(i32, stepsVar_), ir.getInt32(1));
      ir.CreateStore(steps, stepsVar_);
      Value *quiet = ir.CreateICmpNE(ir.CreateAnd(steps, ir.getInt32(63)), ir.getInt32(0));
      BasicBlock *own = BasicBlock::Create(c_, tag + ".next.inline", b_);
      BasicBlock *call = BasicBlock::Create(c_, tag + ".next.engine", b_);
      ir.CreateCondBr(ir.CreateAnd(ir.CreateAnd(ir.CreateICmpEQ(lo, hi), inl), quiet), own, call);
      IRBuilder<> ob(own);
      next->addIncoming(ob.CreateShl(lo, 1), own);
      ob.CreateBr(dispatch);
      ir.SetInsertPoint(call);
    }
    n = ir.CreateCall(nextFn, {ctx_, lo, hi, ir.getInt32(all)});
    next->addIncoming(n, ir.GetInsertBlock());
    ir.CreateBr(dispatch);
  }
  return pre;
}

// Region r's thread loops from ir's block to `after`, around a copy of the
// region's blocks; chunked: the x loop in chunks of one warp's threads, of
// which only the first chunkLanes run when it is not null.
void BlockBuilder::buildRegionLoops(unsigned r, bool masked, const std::string &tag,
                                    IRBuilder<> &ir, BasicBlock *after, Value *rbuf, Value *wbuf,
                                    const DenseMap<unsigned, Value *> &vins, int takeSucc,
                                    bool chunked, Value *chunkLanes) {
  Type *i32 = Type::getInt32Ty(c_), *i64 = Type::getInt64Ty(c_), *i8 = Type::getInt8Ty(c_);
  bool hasSplits = !splits_.empty();
  auto block = [&](const char *name) { return BasicBlock::Create(c_, tag + "." + name, b_); };
  BasicBlock *exit = block("exit");
  ThreadLoops loops = masked ? openMaskedLoop(ir, tag, after)
                             : openThreadLoops(ir, tag, after, chunked, chunkLanes);
  Value *t = loops.t;
  BasicBlock *xl = loops.next;
  Value *t64 = ir.CreateZExt(t, i64);
  Value *pcAt = hasSplits ? ir.CreateInBoundsGEP(i32, pc_, t64, "pc.t") : nullptr;
  if (masked) {
    BasicBlock *run = block("run");
    Value *mine = ir.CreateLoad(i32, pcAt);
    BasicBlock *skip = xl;
    if (hasInline_) {
      // A thread that has returned writes 0 to the buffer the next region
      // reads (it did at its return, for the one after that region).
      skip = block("skip");
      BasicBlock *zero = block("zero");
      IRBuilder<> sb(skip);
      sb.CreateCondBr(sb.CreateICmpEQ(mine, sb.getInt32(kPcDone)), zero, xl);
      sb.SetInsertPoint(zero);
      sb.CreateStore(Constant::getNullValue(xchTy_), sb.CreateInBoundsGEP(xchTy_, wbuf, t64));
      sb.CreateBr(xl);
    }
    ir.CreateCondBr(ir.CreateICmpEQ(mine, ir.getInt32(kPcRun | r)), run, skip);
    ir.SetInsertPoint(run);
  }
  storeThreadBuiltins(ir, loops);
  if (chunked)
    markLaneChunk(ir, loops.x, t, loops.xa, loops.xw, warpMask_);
  Value *x = loops.x, *y = loops.y, *z = loops.z;
  Type *tidTy = tidVar_->getAllocatedType();
  Value *lane = ir.CreateAnd(t, warpMask_, "lane");
  if (storeTls_) {
    GlobalVariable *tls = builtinVar(m_, kThreadIdxVar, tidTy);
    tls->setConstant(false);
    Type *gty = tls->getValueType();
    ir.CreateStore(x, ir.CreateConstInBoundsGEP2_32(gty, tls, 0, 0));
    ir.CreateStore(y, ir.CreateConstInBoundsGEP2_32(gty, tls, 0, 1));
    ir.CreateStore(z, ir.CreateConstInBoundsGEP2_32(gty, tls, 0, 2));
    GlobalVariable *tlsLane = builtinVar(m_, kLaneVar, i32);
    tlsLane->setConstant(false);
    ir.CreateStore(lane, tlsLane);
  }
  ValueToValueMapTy vm;
  for (auto &fv : frameBase_) {
    AllocaInst *a = fv.first;
    Value *p = ir.CreateInBoundsGEP(
        i8, fv.second, ir.CreateMul(t64, ir.getInt64(frameLayout_[a].second)));
    vm[a] = ir.CreatePointerCast(p, a->getType(), a->getName() + ".t");
  }
  Value *slotAt = hasSplits ? ir.CreateInBoundsGEP(abi_.slot, slot_, t64, "slot.t") : nullptr;

  // The region's blocks.
  DenseSet<BasicBlock *> inRegion = regionSets_[r];
  std::vector<BasicBlock *> clones;
  for (BasicBlock *bb : regions_[r]) {
    BasicBlock *nb = CloneBasicBlock(bb, vm, "." + tag, b_);
    vm[bb] = nb;
    clones.push_back(nb);
  }
  BasicBlock *threadEntry = ir.GetInsertBlock();
  ir.CreateBr(cast<BasicBlock>(vm[r == 0 ? regions_[0].front() : splits_[r - 1].cont]));
  PHINode *code = nullptr;
  if (hasSplits) {
    ir.SetInsertPoint(exit);
    code = ir.CreatePHI(i32, 4, "pc.exit");
  }
  for (BasicBlock *nb : clones)
    for (Instruction &i : *nb)
      RemapInstruction(&i, vm, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  std::vector<std::pair<BasicBlock *, unsigned>> stops; // (copy, split) where threads stop
  for (size_t bi = 0; bi < clones.size(); bi++) {
    BasicBlock *orig = regions_[r][bi], *nb = clones[bi];
    // Edges from blocks outside the region do not exist in this copy.
    for (PHINode &phi : nb->phis())
      for (unsigned k = phi.getNumIncomingValues(); k-- > 0;)
        if (!inRegion.count(phi.getIncomingBlock(k)) &&
            std::find(clones.begin(), clones.end(), phi.getIncomingBlock(k)) == clones.end())
          phi.removeIncomingValue(k, false);
    // Placeholders for split results: the slot's value, or the source
    // lane's operand of an inline shuffle.
    for (Instruction &i : make_early_inc_range(*nb)) {
      auto *ci = dyn_cast<CallInst>(&i);
      Function *callee = ci != nullptr ? ci->getCalledFunction() : nullptr;
      if (callee == nullptr)
        continue;
      IRBuilder<> rb(ci);
      if (callee->getName() == "ah.split.inline") {
        ci->replaceAllUsesWith(shuffleResult(rb, ci, loops, rbuf));
        ci->eraseFromParent();
      } else if (callee->getName().startswith("ah.split.result.")) {
        Value *v = rb.CreateLoad(i64, rb.CreateStructGEP(abi_.slot, slotAt, 0));
        if (!ci->getType()->isIntegerTy(64))
          v = rb.CreateTrunc(v, ci->getType());
        ci->replaceAllUsesWith(v);
        ci->eraseFromParent();
      }
    }
    auto sp = preToSplit_.find(orig);
    if (sp != preToSplit_.end()) {
      // The thread stops here: operands to its slot, then out.
      stops.push_back({nb, sp->second});
      Split &s = splits_[sp->second];
      auto *call = cast<CallInst>(vm[s.call]);
      IRBuilder<> sb(call);
      uint32_t op = s.info & 0xff;
      if (s.inlined) {
        sb.CreateStore(sb.CreateTrunc(call->getArgOperand(1), xchTy_),
                       sb.CreateInBoundsGEP(xchTy_, wbuf, t64));
      } else if (s.warp) {
        sb.CreateStore(call->getArgOperand(1), sb.CreateStructGEP(abi_.slot, slotAt, 0));
        sb.CreateStore(call->getArgOperand(4), sb.CreateStructGEP(abi_.slot, slotAt, 1));
        sb.CreateStore(call->getArgOperand(2), sb.CreateStructGEP(abi_.slot, slotAt, 2));
        sb.CreateStore(call->getArgOperand(3), sb.CreateStructGEP(abi_.slot, slotAt, 3));
      } else if (op != 0) { // AH_CPU_BAR_SYNC has no operand
        sb.CreateStore(sb.CreateZExt(call->getArgOperand(1), i64),
                       sb.CreateStructGEP(abi_.slot, slotAt, 0));
      }
      if (op == kOpDynamic)
        sb.CreateStore(call->getArgOperand(0), sb.CreateStructGEP(abi_.slot, slotAt, 4));
      call->eraseFromParent();
      Instruction *term = nb->getTerminator();
      BranchInst::Create(exit, term);
      term->eraseFromParent();
      code->addIncoming(ConstantInt::get(i32, sp->second + 1), nb);
      continue;
    }
    if (auto *ret = dyn_cast<ReturnInst>(nb->getTerminator())) {
      if (hasInline_) { // a lane that returned reads as 0 in later shuffles
        IRBuilder<> zb(ret);
        zb.CreateStore(Constant::getNullValue(xchTy_), zb.CreateInBoundsGEP(xchTy_, wbuf, t64));
      }
      BranchInst::Create(hasSplits ? exit : xl, ret);
      ret->eraseFromParent();
      if (hasSplits)
        code->addIncoming(ConstantInt::get(i32, kPcDone), nb);
    }
  }
  if (!vins.empty())
    keepUniform(threadEntry, vm, clones, stops, vins);
  // Some threads may return while others stop (`if (warp == 0)` after a
  // barrier): each thread that stops also counts itself, and the first and
  // last of them, so that the engine needs no pass over pc[] to see that the
  // live threads are one range (on the stop paths only: nothing per thread
  // that returns). Only where a thread-dependent branch decides it: in a
  // loop's body (go on or leave together) the count would cost every thread
  // and keep the loop from being unswitched.
  bool returns = code != nullptr && code->getNumIncomingValues() > stops.size();
  if (!masked && returns && !stops.empty() && exitDivergent_) {
    liveTracked_ = true;
    for (auto &st : stops) {
      IRBuilder<> lb(st.first->getTerminator());
      Value *old[4];
      for (int k = 0; k < 4; k++)
        old[k] = lb.CreateLoad(i32, liveVars_[k]);
      lb.CreateStore(lb.CreateOr(old[0], lb.getInt32(st.second + 1)), liveVars_[0]);
      lb.CreateStore(lb.CreateBinaryIntrinsic(Intrinsic::umin, old[1], t), liveVars_[1]);
      lb.CreateStore(lb.CreateBinaryIntrinsic(Intrinsic::umax, old[2], t), liveVars_[2]);
      lb.CreateStore(lb.CreateAdd(old[3], lb.getInt32(1)), liveVars_[3]);
    }
  }
  if (takeSucc >= 0) { // every thread passes the kernel's guard: no test
    auto *br = cast<BranchInst>(clones.front()->getTerminator());
    BranchInst::Create(br->getSuccessor((unsigned)takeSucc), br);
    br->eraseFromParent();
  }
  ir.SetInsertPoint(exit);
  if (hasSplits && code->getNumIncomingValues() > 0) {
    // Every thread leaves this region the same way: the engine reads no
    // pc[t] after it (it checks that lo == hi), so none is written.
    if (!masked && pcSkippable(r, stops))
      pcSkipped_ = true;
    else
      ir.CreateStore(code, pcAt);
    ir.CreateStore(ir.CreateAnd(ir.CreateLoad(i32, loVar_), code), loVar_);
    ir.CreateStore(ir.CreateOr(ir.CreateLoad(i32, hiVar_), code), hiVar_);
  } else if (code != nullptr) {
    code->eraseFromParent();
  }
  ir.CreateBr(xl);
  closeThreadLoops(loops);
}

// Whether an unmasked copy of region r (region 0, or one after an inline
// shuffle) may leave pc[t] unwritten: no thread-dependent branch chooses its
// exit (so every thread returns, or every thread stops at one split point),
// and each split point it stops at is one the engine completes without pc[]
// (a plain barrier, an inline shuffle).
// The engine gets `all == 3` and fails the block, as a compiler bug, if the
// threads did leave in different ways after all.
bool BlockBuilder::pcSkippable(unsigned r,
                               const std::vector<std::pair<BasicBlock *, unsigned>> &stops) {
  for (auto &st : stops) {
    uint32_t info = splits_[st.second].info;
    bool plain = (info & kSplitInline) || (!(info & kSplitWarp) && (info & 0xff) == 0 /* sync */);
    if (!plain)
      return false;
  }
  // Only after an inline shuffle: in a barrier loop such as a shared-memory
  // tree (`if (tid < s) ...; __syncthreads()`) the threads past the bound
  // then have an empty body, and the loop was no longer split at s (3x
  // slower), where the pc store costs little.
  return (r == 0 || splits_[r - 1].inlined) && !exitDivergent_;
}

// Whether, in region r, a branch (or switch) on a thread-dependent value decides between
// a return and a split point (or two split points): the exits each side can
// reach in the region differ. `if (warp == 0) { shuffles }` does; a loop
// counter's test (uniform) and `if (tid < s) ...` before a barrier do not.
bool BlockBuilder::divergentExit(unsigned r) {
  const DenseSet<BasicBlock *> &in = regionSets_[r];
  DenseMap<BasicBlock *, std::set<unsigned>> reach; // exits: split index, or ~0u (return)
  std::function<std::set<unsigned>(BasicBlock *)> exits = [&](BasicBlock *bb) {
    auto it = reach.find(bb);
    if (it != reach.end())
      return it->second; // done, or on the path (a loop): what it has so far
    reach[bb] = {};
    std::set<unsigned> found;
    if (auto sp = preToSplit_.find(bb); sp != preToSplit_.end())
      found.insert(sp->second);
    else if (isa<ReturnInst>(bb->getTerminator()))
      found.insert(~0u);
    else
      for (BasicBlock *succ : successors(bb))
        if (in.count(succ)) {
          std::set<unsigned> se = exits(succ);
          found.insert(se.begin(), se.end());
        }
    reach[bb] = found;
    return found;
  };
  for (BasicBlock *bb : regions_[r]) {
    Instruction *term = bb->getTerminator();
    if (term->getNumSuccessors() < 2 || preToSplit_.count(bb))
      continue;
    // A branch or switch on a uniform value sends every thread one way;
    // any other terminator with two ways may part them.
    Value *cond = nullptr;
    if (auto *br = dyn_cast<BranchInst>(term))
      cond = br->getCondition();
    else if (auto *sw = dyn_cast<SwitchInst>(term))
      cond = sw->getCondition();
    if (cond != nullptr && uni_ != nullptr && uni_->uniform(cond))
      continue;
    std::set<unsigned> first;
    for (unsigned k = 0; k < term->getNumSuccessors(); k++) {
      BasicBlock *succ = term->getSuccessor(k);
      std::set<unsigned> e = in.count(succ) ? exits(succ) : std::set<unsigned>{};
      if (k == 0)
        first = e;
      else if (e != first)
        return true;
    }
  }
  return false;
}

// The regions whose masked copy may run. The engine answers r * 2 + 1 only
// once the block's threads went apart: some stopped where others did not
// (lo != hi), or returned while others stopped. That takes a region with a
// divergent exit; until one has run, every thread leaves each region the
// same way and the engine answers r * 2. So a masked copy is built for the
// regions reachable, through the split points regions stop at, from one
// with a divergent exit, and none for the others. A kernel of barriers in
// uniform control flow (a tree reduction, a tiled matmul) then has none;
// each copy holds its region's whole body, and in examples/reduction.hip
// the masked copies were about 40 % of the code the compiler made.
// __ah_cpu_block_unknown reports a masked answer that finds no copy.
std::vector<bool> BlockBuilder::maskedRegions() {
  unsigned n = (unsigned)splits_.size();
  std::vector<bool> masked(n + 1, false);
  std::vector<unsigned> work;
  for (unsigned r = 0; r <= n; r++)
    if (divergent_[r])
      work.push_back(r);
  std::vector<bool> seen(n + 1, false);
  while (!work.empty()) {
    unsigned r = work.back();
    work.pop_back();
    if (seen[r])
      continue;
    seen[r] = true;
    for (BasicBlock *bb : regions_[r])
      if (auto sp = preToSplit_.find(bb); sp != preToSplit_.end()) {
        masked[sp->second + 1] = true; // region s + 1 starts after split point s
        work.push_back(sp->second + 1);
      }
  }
  return masked;
}

// An inline shuffle's result for linear thread t: the source lane's operand
// from rbuf, by the engine's rules (cpu_warp.c, shfl_source): a width that
// is 0, above the warp or not a power of two means the warp; a source out
// of the caller's sub-group reads the caller's own; a lane beyond the block
// reads 0, as one that returned does.
// A shuffle's width as the engine takes it: 0, above the warp or not a
// power of two means the warp.
Value *BlockBuilder::effectiveWidth(IRBuilder<> &ir, Value *w) {
  Value *ws = ir.CreateAdd(warpMask_, ir.getInt32(1));
  Value *bad = ir.CreateOr(ir.CreateOr(ir.CreateICmpEQ(w, ir.getInt32(0)), ir.CreateICmpUGT(w, ws)),
                           ir.CreateICmpNE(ir.CreateAnd(w, ir.CreateSub(w, ir.getInt32(1))),
                                           ir.getInt32(0)));
  return ir.CreateSelect(bad, ws, w);
}

// Whether region r may run its threads in chunks of one warp (in `pre`,
// null when that cannot be known there): the region starts at an inline
// shuffle down or up over the whole warp (the warp's width, a delta below
// it, both known before the thread loops) and the block holds whole warps.
// Each thread's lane is then its x minus the chunk's lane-0 x, so which
// lanes read their own value is a bound on x (shuffleResult), at which
// bound_split.h splits the chunk's loop: no per-thread lane arithmetic.
Value *BlockBuilder::laneChunkCheck(unsigned r, IRBuilder<> &ir,
                                    const DenseMap<unsigned, Value *> &vins, Value **delta) {
  if (r == 0 || !splits_[r - 1].inlined || splits_[r - 1].result == nullptr)
    return nullptr;
  uint32_t op = splits_[r - 1].info & 0xff;
  if (op != kShflDown && op != kShflUp)
    return nullptr;
  // The placeholder's delta and width as `pre` sees them: constants, kept
  // uniform values (read in pre) or a per-block built-in.
  auto inPre = [&](Value *v) -> Value * {
    if (isa<Constant>(v))
      return v;
    if (auto *i = dyn_cast<Instruction>(v)) {
      auto k = keptIndex_.find(i);
      if (k != keptIndex_.end() && vins.count(k->second))
        return vins.lookup(k->second);
    }
    if (auto *ld = dyn_cast<LoadInst>(v))
      for (auto &bv : blockVars_)
        if (ld->getPointerOperand() == bv.first)
          return ir.CreateLoad(ld->getType(), bv.first);
    return nullptr;
  };
  CallInst *ph = splits_[r - 1].result;
  Value *arg = inPre(ph->getArgOperand(1)), *w = inPre(ph->getArgOperand(2));
  if (arg == nullptr || w == nullptr)
    return nullptr;
  *delta = arg;
  Value *ws = ir.CreateAdd(warpMask_, ir.getInt32(1));
  Value *whole = ir.CreateICmpEQ(ir.CreateAnd(nthreads_, warpMask_), ir.getInt32(0));
  return ir.CreateAnd(ir.CreateAnd(ir.CreateICmpEQ(effectiveWidth(ir, w), ws),
                                   ir.CreateICmpULT(arg, ws)),
                      whole, "lane.chunks");
}

Value *BlockBuilder::shuffleResult(IRBuilder<> &ir, CallInst *ph, const ThreadLoops &loops,
                                   Value *rbuf) {
  Type *i64 = ir.getInt64Ty();
  uint32_t op = splits_[cast<ConstantInt>(ph->getArgOperand(0))->getZExtValue() - 1].info & 0xff;
  Value *arg = ph->getArgOperand(1), *w = effectiveWidth(ir, ph->getArgOperand(2));
  Value *t = loops.t;
  auto load = [&](Value *at) {
    return ir.CreateZExt(ir.CreateLoad(xchTy_, ir.CreateInBoundsGEP(xchTy_, rbuf, at)), i64);
  };
  Value *t64 = ir.CreateZExt(t, i64);
  if (loops.xw != nullptr) {
    // In lane chunks (laneChunkCheck): lane = x - xw, the warp's width, a
    // delta below it, every source lane in the block. Down: lanes below
    // W - arg read lane + arg, the others their own; up: lanes from arg on
    // read lane - arg. The bound is signed: a row may start inside a warp.
    Value *own = load(t64), *a64 = ir.CreateZExt(arg, i64);
    Value *ws = ir.CreateAdd(warpMask_, ir.getInt32(1));
    Value *edge = op == kShflDown ? ir.CreateSub(ws, arg) : arg;
    Value *bound = ir.CreateBinaryIntrinsic(Intrinsic::smax, ir.CreateAdd(loops.xw, edge),
                                            ir.getInt32(0), nullptr, "lane.bound");
    Value *below = ir.CreateICmpULT(loops.x, bound);
    return op == kShflDown ? ir.CreateSelect(below, load(ir.CreateAdd(t64, a64)), own)
                           : ir.CreateSelect(below, own, load(ir.CreateSub(t64, a64)));
  }
  Value *wm = ir.CreateSub(w, ir.getInt32(1));
  Value *l = ir.CreateAnd(t, warpMask_, "lane");
  Value *base = ir.CreateAnd(l, ir.CreateNot(wm));
  if (op == kShflUp || op == kShflDown) {
    // The source is t -/+ arg, or the caller itself: two loads at addresses
    // linear in t, so the thread loop vectorises without a gather. The delta
    // is clamped to the pad (AH_CPU_XCH_PAD entries of slack around each
    // buffer) where the result is the caller's own anyway; a down delta
    // that wraps below the width, as on AMD's hardware, reads a lower lane.
    Value *pad = ir.getInt64(AH_CPU_XCH_PAD);
    Value *own = load(t64);
    if (op == kShflUp) {
      Value *d = ir.CreateZExt(ir.CreateSelect(ir.CreateICmpULT(arg, w), arg, w), i64);
      return ir.CreateSelect(ir.CreateICmpUGT(arg, ir.CreateSub(l, base)), own,
                             load(ir.CreateSub(t64, d)));
    }
    Value *d = ir.CreateBinaryIntrinsic(
        Intrinsic::smax, ir.CreateBinaryIntrinsic(Intrinsic::smin, ir.CreateSExt(arg, i64), pad),
        ir.CreateNeg(pad));
    Value *st = ir.CreateAdd(t, arg, "shfl.src");
    Value *other = ir.CreateSelect(ir.CreateICmpULT(st, nthreads_), load(ir.CreateAdd(t64, d)),
                                   ir.getInt64(0));
    return ir.CreateSelect(ir.CreateICmpUGE(ir.CreateAdd(ir.CreateSub(l, base), arg), w), own,
                           other);
  }
  Value *src;
  if (op == kShfl) {
    src = ir.CreateAdd(base, ir.CreateAnd(arg, wm));
  } else {
    Value *x = ir.CreateXor(l, arg);
    src = ir.CreateSelect(ir.CreateICmpUGE(x, ir.CreateAdd(base, w)), l, x);
  }
  Value *st = ir.CreateAdd(ir.CreateSub(t, l), src, "shfl.src");
  Value *in = ir.CreateICmpULT(st, nthreads_);
  // The load is made safe with a clamped index (a select of two addresses
  // would keep the optimizer from vectorising it).
  Value *v = load(ir.CreateZExt(ir.CreateSelect(in, st, t), i64));
  return ir.CreateSelect(in, v, ir.getInt64(0));
}

// Alias scopes (engine_buffers.h): the engine's buffers are disjoint from
// each other and from what the kernel's arguments, globals and shared
// memory point to.
void BlockBuilder::tagEngineBuffers() {
  std::vector<EngineBuffer> bufs = xchBuffers_;
  for (Value *v : {pc_, slot_})
    if (v != nullptr)
      bufs.push_back({v, -1});
  for (auto &fb : frameBase_)
    bufs.push_back({fb.second, -1});
  const Value *dynShared = blockVar(kSharedVar);
  addEngineAliasScopes(*b_, bufs, [&](const Value *base) {
    if (isa<Argument>(base) || isa<GlobalVariable>(base))
      return true;
    auto *ld = dyn_cast<LoadInst>(base);
    return ld != nullptr && dynShared != nullptr && ld->getPointerOperand() == dynShared;
  });
}

// A region's copy sees each kept uniform value as `vin` (read before the
// thread loops) where it enters the region, and as the copy's own
// definition after that; threads stopping at a barrier the value lives
// across store it. Each thread starts from vin again: a definition by the
// previous thread (a loop counter's next value) must not reach the next.
void BlockBuilder::keepUniform(BasicBlock *threadEntry, ValueToValueMapTy &vm,
                               const std::vector<BasicBlock *> &clones,
                               const std::vector<std::pair<BasicBlock *, unsigned>> &stops,
                               const DenseMap<unsigned, Value *> &vins) {
  for (auto &kv : vins) {
    Kept &k = kept_[kv.first];
    Instruction *def = nullptr;
    auto it = vm.find(k.v);
    if (it != vm.end())
      def = cast<Instruction>(it->second);
    SmallVector<PHINode *, 8> phis;
    SSAUpdater su(&phis);
    su.Initialize(k.v->getType(), k.v->getName());
    su.AddAvailableValue(threadEntry, kv.second);
    if (def != nullptr)
      su.AddAvailableValue(def->getParent(), def);
    SmallVector<Use *, 16> uses;
    for (BasicBlock *nb : clones)
      for (Instruction &i : *nb)
        for (Use &u : i.operands())
          if (u.get() == k.v || (def != nullptr && u.get() == def))
            uses.push_back(&u);
    for (Use *u : uses) {
      auto *user = cast<Instruction>(u->getUser());
      if (def != nullptr && !isa<PHINode>(user) && user->getParent() == def->getParent() &&
          def->comesBefore(user)) {
        u->set(def);
        continue;
      }
      su.RewriteUse(*u);
    }
    for (auto &st : stops)
      if (std::find(k.splits.begin(), k.splits.end(), st.second) != k.splits.end())
        new StoreInst(su.GetValueAtEndOfBlock(st.first), k.slot, st.first->getTerminator());
  }
}

// Non-trivial unswitching, but not of a masked copy's loops: each way a
// branch goes would be one more copy of a loop that runs only after the
// threads diverged (loop_marks.h).
struct UnswitchUnmasked : PassInfoMixin<UnswitchUnmasked> {
  SimpleLoopUnswitchPass unswitch{/*NonTrivial=*/true};
  PreservedAnalyses run(Loop &l, LoopAnalysisManager &am, LoopStandardAnalysisResults &ar,
                        LPMUpdater &u) {
    return inMaskedCopy(l) ? PreservedAnalyses::all() : unswitch.run(l, am, ar, u);
  }
};

// Kept uniform values are loop-invariant in the thread loops: LICM takes
// what is computed from them out, and non-trivial unswitching (which -O2
// does not do) makes one thread loop per way a uniform branch goes (a loop
// counter's test), so that each holds straight-line code. Then a thread
// loop testing `tid < s` is split at s (bound_split.h).
void BlockBuilder::hoistUniformBranches() {
  FunctionPassManager fpm;
  fpm.addPass(SROAPass());
  fpm.addPass(EarlyCSEPass(true));
  fpm.addPass(InstCombinePass());
  fpm.addPass(createFunctionToLoopPassAdaptor(LICMPass(), /*UseMemorySSA=*/true));
  fpm.addPass(createFunctionToLoopPassAdaptor(UnswitchUnmasked()));
  fpm.addPass(SimplifyCFGPass());
  fpm.addPass(LoopSimplifyPass()); // preheaders, for the splits below
  fam_.invalidate(*b_, PreservedAnalyses::none()); // the function was rebuilt
  fpm.run(*b_, fam_);
  // Lanes in warp chunks as bounds (lane_chunks.h), folded into the tests.
  if (unsigned n = rewriteChunkLanes(*b_)) {
    FunctionPassManager again;
    again.addPass(InstCombinePass());
    again.run(*b_, fam_);
    if (debugEnabled())
      errs() << "anyhip kernel compiler: " << k_.getName() << ": " << n
             << " lanes in warp chunks as bounds\n";
  }
  // A global index's tests as the thread loop's own (index_tests.h).
  if (unsigned n = rewriteIndexTests(*b_, fam_.getResult<LoopAnalysis>(*b_))) {
    fam_.invalidate(*b_, PreservedAnalyses::none());
    if (debugEnabled())
      errs() << "anyhip kernel compiler: " << k_.getName() << ": " << n
             << " thread loops split around their global index's tests\n";
  }
  // Now that the uniform branches are out, `if (tid < s)` splits its loop;
  // a warp chunk's loop is split again at each further bound it has.
  unsigned split = 0;
  for (int round = 0; round < 4; round++) {
    unsigned n = splitLoopsAtBounds(*b_, fam_.getResult<LoopAnalysis>(*b_), round > 0);
    if (n == 0)
      break;
    fam_.invalidate(*b_, PreservedAnalyses::none());
    split += n;
  }
  if (split != 0 && debugEnabled())
    errs() << "anyhip kernel compiler: " << k_.getName() << ": " << split
           << " thread loops split at a uniform bound\n";
  // And a grid-stride loop runs its steps across the threads.
  if (unsigned n = interchangeStrideLoops(*b_, fam_.getResult<LoopAnalysis>(*b_))) {
    fam_.invalidate(*b_, PreservedAnalyses::none());
    if (debugEnabled())
      errs() << "anyhip kernel compiler: " << k_.getName() << ": " << n
             << " grid-stride loops interchanged with their thread loops\n";
  }
}

// Atomics on shared memory need no atomicity here: a block's shared memory
// is its worker's (thread-local static __shared__, the worker's dynamic
// buffer), and the block function runs every thread of the block on that
// one OS thread, one at a time. A plain read-modify-write (histograms in
// shared memory) costs a few cycles where a locked one costs tens.
void BlockBuilder::plainSharedAtomics() {
  Value *dynShared = blockVar(kSharedVar);
  auto isShared = [&](Value *ptr) {
    const Value *obj = getUnderlyingObject(ptr, 16);
    if (auto *g = dyn_cast<GlobalVariable>(obj))
      return g->isThreadLocal();
    if (auto *ld = dyn_cast<LoadInst>(obj))
      return dynShared != nullptr && ld->getPointerOperand() == dynShared;
    return false;
  };
  SmallVector<Instruction *, 16> atomics;
  for (Instruction &i : instructions(*b_))
    if (auto *rmw = dyn_cast<AtomicRMWInst>(&i)) {
      if (isShared(rmw->getPointerOperand()))
        atomics.push_back(rmw);
    } else if (auto *cx = dyn_cast<AtomicCmpXchgInst>(&i)) {
      if (isShared(cx->getPointerOperand()))
        atomics.push_back(cx);
    }
  for (Instruction *i : atomics) {
    if (auto *rmw = dyn_cast<AtomicRMWInst>(i)) {
      lowerAtomicRMWInst(rmw);
      continue;
    }
    auto *cx = cast<AtomicCmpXchgInst>(i);
    IRBuilder<> ir(cx);
    Value *ptr = cx->getPointerOperand();
    Value *old = ir.CreateAlignedLoad(cx->getCompareOperand()->getType(), ptr, cx->getAlign());
    Value *eq = ir.CreateICmpEQ(old, cx->getCompareOperand());
    ir.CreateAlignedStore(ir.CreateSelect(eq, cx->getNewValOperand(), old), ptr, cx->getAlign());
    Value *res = ir.CreateInsertValue(UndefValue::get(cx->getType()), old, 0);
    res = ir.CreateInsertValue(res, eq, 1);
    cx->replaceAllUsesWith(res);
    cx->eraseFromParent();
  }
}

// The kernel's bounds guard: its entry block ends in a branch one side of
// which only returns, on a condition computed from the thread's indices,
// the built-ins and the arguments alone. `ok` is the condition under which
// the thread does its work; takeSucc the successor it then takes.
bool BlockBuilder::findGuard(Value *&ok, unsigned &takeSucc) {
  auto *br = dyn_cast<BranchInst>(regions_[0].front()->getTerminator());
  if (br == nullptr || !br->isConditional() || !recomputable(br->getCondition(), 0))
    return false;
  auto onlyReturns = [](BasicBlock *bb) {
    for (Instruction &i : *bb)
      if (!isa<DbgInfoIntrinsic>(i) && !isa<ReturnInst>(i))
        return false;
    return true;
  };
  for (unsigned k = 0; k < 2; k++)
    if (onlyReturns(br->getSuccessor(1 - k)) && !onlyReturns(br->getSuccessor(k))) {
      ok = br->getCondition();
      takeSucc = k;
      return true;
    }
  return false;
}

// Loops over the block's threads that compute whether `ok` holds for all of
// them, then branch to `unchecked` if so, else to `checked`.
BasicBlock *BlockBuilder::buildGuardCheck(Value *ok, BasicBlock *checked, BasicBlock *unchecked) {
  Type *i1 = Type::getInt1Ty(c_);
  const std::string tag = "guard";
  BasicBlock *pre = BasicBlock::Create(c_, tag + ".pre", b_),
             *done = BasicBlock::Create(c_, tag + ".done", b_);
  AllocaInst *all = new AllocaInst(i1, 0, "guard.all", &*entry_->getFirstInsertionPt());
  IRBuilder<> ir(pre);
  ir.CreateStore(ir.getTrue(), all);
  ThreadLoops loops = openThreadLoops(ir, tag, done);
  storeThreadBuiltins(ir, loops);
  BranchInst *br = ir.CreateBr(loops.next);
  Value *v = recompute(ok, br);
  ir.SetInsertPoint(br);
  ir.CreateStore(ir.CreateAnd(ir.CreateLoad(i1, all), v), all);
  closeThreadLoops(loops);
  ir.SetInsertPoint(done);
  ir.CreateCondBr(ir.CreateLoad(i1, all), unchecked, checked);
  return pre;
}

// Loops over z, y, x from ir's block (which they end), x fastest, the
// counters in allocas that SROA turns into induction variables; `after`
// follows the last thread. Leaves ir in the body, with the thread's index.
// Chunked: a loop between y and x takes x in chunks that each lie in one
// warp and in one aligned warp-sized run of x (a chunk ends where the next
// warp or run starts, or at the row's end); xw is the x of the chunk's lane
// 0 and xa its first x rounded down (lane_chunks.h).
BlockBuilder::ThreadLoops BlockBuilder::openThreadLoops(IRBuilder<> &ir, const std::string &tag,
                                                        BasicBlock *after, bool chunked,
                                                        Value *chunkLanes) {
  Type *i32 = Type::getInt32Ty(c_);
  auto block = [&](const char *name) { return BasicBlock::Create(c_, tag + "." + name, b_); };
  BasicBlock *zh = block("z"), *yh = block("y"), *xh = block("x"), *body = block("thread"),
             *xl = block("x+"), *yl = block("y+"), *zl = block("z+");
  // The engine may narrow x to the live threads' range (block_abi.h).
  Value *xBegin = ir.getInt32(0), *xEnd = dx_;
  if (ctx_ != nullptr) {
    xBegin = ir.CreateLoad(i32, ir.CreateStructGEP(abi_.ctx, ctx_, 4), "x.begin");
    xEnd = ir.CreateLoad(i32, ir.CreateStructGEP(abi_.ctx, ctx_, 5), "x.end");
  }
  ir.CreateStore(ir.getInt32(0), zVar_);
  ir.CreateBr(zh);
  ir.SetInsertPoint(zh);
  Value *z = ir.CreateLoad(i32, zVar_, "z");
  ir.CreateStore(ir.getInt32(0), yVar_);
  ir.CreateCondBr(ir.CreateICmpULT(z, dz_), yh, after);
  ir.SetInsertPoint(yh);
  Value *y = ir.CreateLoad(i32, yVar_, "y");
  ir.CreateStore(xBegin, xVar_);
  BasicBlock *ch = chunked ? block("chunk") : xh;
  ir.CreateCondBr(ir.CreateICmpULT(y, dy_), ch, zl);
  Value *xw = nullptr, *xa = nullptr, *xStop = xEnd;
  BasicBlock *xDone = yl;
  if (chunked) {
    ir.SetInsertPoint(ch);
    Value *xc = ir.CreateLoad(i32, xVar_, "chunk.x");
    Value *row = ir.CreateMul(ir.CreateAdd(ir.CreateMul(z, dy_), y), dx_);
    Value *p0 = ir.CreateAnd(ir.CreateAdd(row, xc), warpMask_, "chunk.lane");
    xw = ir.CreateSub(xc, p0, "chunk.lane0");
    xa = ir.CreateAnd(xc, ir.CreateNot(warpMask_), "chunk.run");
    Value *ws = ir.CreateAdd(warpMask_, ir.getInt32(1));
    xStop = ir.CreateBinaryIntrinsic(
        Intrinsic::umin,
        ir.CreateBinaryIntrinsic(Intrinsic::umin, ir.CreateAdd(xw, ws), ir.CreateAdd(xa, ws)),
        xEnd, nullptr, "chunk.end");
    if (chunkLanes != nullptr) {
      // Only the chunk's first lanes run (demanded lanes, see
      // halvingShuffleLoop); the next chunk starts where this one ends.
      Value *end = xStop;
      xStop = ir.CreateBinaryIntrinsic(Intrinsic::umin, end, ir.CreateAdd(xw, chunkLanes),
                                       nullptr, "chunk.demanded");
      xDone = block("chunk.skip");
      IRBuilder<> sk(xDone);
      sk.CreateStore(end, xVar_);
      sk.CreateBr(ch);
    } else {
      xDone = ch;
    }
    ir.CreateCondBr(ir.CreateICmpULT(xc, xEnd), xh, yl);
  }
  ir.SetInsertPoint(xh);
  Value *x = ir.CreateLoad(i32, xVar_, "x");
  ir.CreateCondBr(ir.CreateICmpULT(x, xStop), body, xDone);
  ir.SetInsertPoint(body);
  // nuw: a block has at most 1024 threads (bound_split.cpp relies on it).
  Value *t = ir.CreateAdd(ir.CreateMul(ir.CreateAdd(ir.CreateMul(z, dy_), y), dx_), x, "tid",
                          /*HasNUW=*/true);
  return ThreadLoops{x, y, z, t, xl, xh, yh, zh, yl, zl, xw, xa}; // latches: closeThreadLoops
}

// A masked copy's loop: one loop over the linear thread id t, with x, y and
// z carried along (x wraps at blockDim.x into y, y at blockDim.y into z). It
// runs only after the threads went apart, testing each one's pc, so it is
// built for compile time, not speed (the examples' limit is 1.5x g++'s):
// one plain loop per region instead of three nested ones.
BlockBuilder::ThreadLoops BlockBuilder::openMaskedLoop(IRBuilder<> &ir, const std::string &tag,
                                                       BasicBlock *after) {
  auto block = [&](const char *name) { return BasicBlock::Create(c_, tag + "." + name, b_); };
  BasicBlock *head = block("t"), *body = block("thread"), *latch = block("t+");
  for (AllocaInst *v : {tVar_, xVar_, yVar_, zVar_})
    ir.CreateStore(ir.getInt32(0), v);
  ir.CreateBr(head);
  ir.SetInsertPoint(head);
  Value *t = ir.CreateLoad(ir.getInt32Ty(), tVar_, "tid");
  ir.CreateCondBr(ir.CreateICmpULT(t, nthreads_), body, after);
  ir.SetInsertPoint(body);
  Value *x = ir.CreateLoad(ir.getInt32Ty(), xVar_, "x");
  Value *y = ir.CreateLoad(ir.getInt32Ty(), yVar_, "y");
  Value *z = ir.CreateLoad(ir.getInt32Ty(), zVar_, "z");
  ThreadLoops loops{x, y, z, t, latch, head, nullptr, nullptr, nullptr, nullptr};
  loops.masked = true;
  return loops;
}

// The loops' latches: each counter is below 1024, so no increment wraps.
void BlockBuilder::closeThreadLoops(const ThreadLoops &loops) {
  BasicBlock *xl = loops.next, *xh = loops.xh, *yl = loops.yl, *yh = loops.yh, *zl = loops.zl,
             *zh = loops.zh;
  IRBuilder<> ir(xl);
  if (loops.masked) {
    ir.CreateStore(ir.CreateAdd(loops.t, ir.getInt32(1), "", true, true), tVar_);
    Value *x1 = ir.CreateAdd(loops.x, ir.getInt32(1), "", true, true);
    Value *xWraps = ir.CreateICmpEQ(x1, dx_);
    ir.CreateStore(ir.CreateSelect(xWraps, ir.getInt32(0), x1), xVar_);
    Value *y1 = ir.CreateAdd(loops.y, ir.CreateZExt(xWraps, ir.getInt32Ty()), "", true, true);
    Value *yWraps = ir.CreateICmpEQ(y1, dy_);
    ir.CreateStore(ir.CreateSelect(yWraps, ir.getInt32(0), y1), yVar_);
    ir.CreateStore(ir.CreateAdd(loops.z, ir.CreateZExt(yWraps, ir.getInt32Ty()), "", true, true),
                   zVar_);
    ir.CreateBr(xh)->setMetadata(LLVMContext::MD_loop, maskedCopyLoopId(c_));
    return;
  }
  ir.CreateStore(ir.CreateAdd(loops.x, ir.getInt32(1), "", true, true), xVar_);
  BranchInst *back = ir.CreateBr(xh);
  if (loops.xw != nullptr) // a chunk's loop: bound_split may split it at a select
    back->setMetadata(LLVMContext::MD_loop, laneChunkLoopId(c_));
  ir.SetInsertPoint(yl);
  ir.CreateStore(ir.CreateAdd(loops.y, ir.getInt32(1), "", true, true), yVar_);
  ir.CreateBr(yh);
  ir.SetInsertPoint(zl);
  ir.CreateStore(ir.CreateAdd(loops.z, ir.getInt32(1), "", true, true), zVar_);
  ir.CreateBr(zh);
}

// threadIdx and the lane of the thread the loops are at.
void BlockBuilder::storeThreadBuiltins(IRBuilder<> &ir, const ThreadLoops &loops) {
  Type *tidTy = tidVar_->getAllocatedType();
  ir.CreateStore(loops.x, ir.CreateConstInBoundsGEP2_32(tidTy, tidVar_, 0, 0));
  ir.CreateStore(loops.y, ir.CreateConstInBoundsGEP2_32(tidTy, tidVar_, 0, 1));
  ir.CreateStore(loops.z, ir.CreateConstInBoundsGEP2_32(tidTy, tidVar_, 0, 2));
  ir.CreateStore(ir.CreateAnd(loops.t, warpMask_), laneVar_);
}

void BlockBuilder::buildBody() {
  Type *i32 = Type::getInt32Ty(c_), *i8 = Type::getInt8Ty(c_);
  // The original blocks, to be replaced by the regions' copies.
  std::vector<BasicBlock *> original;
  for (BasicBlock &bb : *b_)
    original.push_back(&bb);
  // Every static alloca moves to the new entry: locals are then shared by
  // the regions' copies, frame variables are replaced in each copy.
  SmallVector<AllocaInst *, 32> allocas;
  for (BasicBlock *bb : original)
    for (Instruction &i : *bb)
      if (auto *a = dyn_cast<AllocaInst>(&i); a != nullptr && a->isStaticAlloca())
        allocas.push_back(a);
  entry_ = BasicBlock::Create(c_, "ah.block", b_, &b_->getEntryBlock());
  for (AllocaInst *a : allocas)
    a->moveBefore(*entry_, entry_->end());
  IRBuilder<> ir(entry_);
  Type *idxTy = tidVar_->getAllocatedType();
  loVar_ = ir.CreateAlloca(i32, nullptr, "ah.lo");
  hiVar_ = ir.CreateAlloca(i32, nullptr, "ah.hi");
  for (AllocaInst *&a : liveVars_)
    a = ir.CreateAlloca(i32, nullptr, "ah.live");
  xVar_ = ir.CreateAlloca(i32, nullptr, "ah.x");
  yVar_ = ir.CreateAlloca(i32, nullptr, "ah.y");
  zVar_ = ir.CreateAlloca(i32, nullptr, "ah.z");
  tVar_ = ir.CreateAlloca(i32, nullptr, "ah.t");
  stepsVar_ = ir.CreateAlloca(i32, nullptr, "ah.inline.steps");
  ir.CreateStore(ir.getInt32(0), stepsVar_);
  // warpSize is 32 or 64, chosen at run time: written as 1 << cttz(ws),
  // `tid % warpSize` and `tid / warpSize` become a mask and a shift
  // (a division per thread would keep its loop from vectorising).
  GlobalVariable *ws = builtinVar(m_, kWarpSizeVar, i32);
  ws->setThreadLocal(false);
  Value *warpSize = ir.CreateShl(
      ir.getInt32(1),
      ir.CreateBinaryIntrinsic(Intrinsic::cttz, ir.CreateLoad(i32, ws), ir.getTrue()), "warpSize");
  for (auto &bv : blockVars_)
    ir.CreateStore(bv.second == ws ? warpSize
                                   : ir.CreateLoad(bv.second->getValueType(), bv.second),
                   bv.first);
  for (Kept &k : kept_)
    k.slot = ir.CreateAlloca(k.v->getType(), nullptr, k.v->getName() + ".uniform");
  GlobalVariable *dim = builtinVar(m_, kBlockDimVar, idxTy);
  Type *dimTy = dim->getValueType();
  dx_ = ir.CreateLoad(i32, ir.CreateConstInBoundsGEP2_32(dimTy, dim, 0, 0), "dx");
  dy_ = ir.CreateLoad(i32, ir.CreateConstInBoundsGEP2_32(dimTy, dim, 0, 1), "dy");
  dz_ = ir.CreateLoad(i32, ir.CreateConstInBoundsGEP2_32(dimTy, dim, 0, 2), "dz");
  nthreads_ = ir.CreateMul(ir.CreateMul(dx_, dy_), dz_, "nthreads");
  warpMask_ = ir.CreateSub(warpSize, ir.getInt32(1));
  emitDescriptor();
  if (!splits_.empty()) {
    FunctionCallee begin = m_.getOrInsertFunction(
        "__ah_cpu_block_begin",
        FunctionType::get(abi_.ctx->getPointerTo(), {abi_.desc->getPointerTo()}, false));
    ctx_ = ir.CreateCall(begin, {desc_}, "ctx");
    pc_ = ir.CreateLoad(i32->getPointerTo(), ir.CreateStructGEP(abi_.ctx, ctx_, 0), "pc");
    slot_ = ir.CreateLoad(abi_.slot->getPointerTo(), ir.CreateStructGEP(abi_.ctx, ctx_, 1), "slot");
    frame_ = ir.CreateLoad(Type::getInt8PtrTy(c_), ir.CreateStructGEP(abi_.ctx, ctx_, 2), "frame");
    if (hasInline_) {
      xch_ = ir.CreatePointerCast(
          ir.CreateLoad(ir.getInt64Ty()->getPointerTo(), ir.CreateStructGEP(abi_.ctx, ctx_, 3)),
          xchTy_->getPointerTo(), "xch");
      parityVar_ = ir.CreateAlloca(i32, nullptr, "ah.parity");
      ir.CreateStore(ir.getInt32(0), parityVar_);
    }
    Value *n64 = ir.CreateZExt(nthreads_, ir.getInt64Ty());
    for (AllocaInst *a : frameVars_)
      frameBase_[a] = ir.CreateInBoundsGEP(
          i8, frame_, ir.CreateMul(n64, ir.getInt64(frameLayout_[a].first)), a->getName() + ".base");
  }
  BasicBlock *dispatch = nullptr;
  PHINode *next = nullptr;
  if (!splits_.empty()) {
    dispatch = BasicBlock::Create(c_, "ah.dispatch", b_);
    next = PHINode::Create(i32, splits_.size() * 2 + 1, "next", dispatch);
    for (unsigned r = 0; r <= splits_.size(); r++)
      divergent_.push_back(divergentExit(r));
  }
  Value *guardOk = nullptr;
  unsigned takeSucc = 0;
  if (splits_.empty() && findGuard(guardOk, takeSucc)) {
    // The kernel's guard (`if (i < n)`) holds for every thread of most
    // blocks: check that first (a loop LLVM vectorises), then run a copy
    // without the test, which vectorises where the guarded one cannot.
    BasicBlock *unchecked = buildRegion(0, false, dispatch, next, (int)takeSucc);
    BasicBlock *checked = buildRegion(0, false, dispatch, next);
    ir.CreateBr(buildGuardCheck(guardOk, checked, unchecked));
  } else {
    ir.CreateBr(buildRegion(0, false, dispatch, next));
  }
  if (!splits_.empty()) {
    BasicBlock *done = BasicBlock::Create(c_, "ah.done", b_);
    ReturnInst::Create(c_, done);
    IRBuilder<> db(dispatch);
    // Any answer but -1 and the regions built is the engine's or this
    // compiler's bug: said so, not a block silently cut short.
    BasicBlock *unknown = BasicBlock::Create(c_, "ah.unknown", b_);
    IRBuilder<> ub(unknown);
    ub.CreateCall(m_.getOrInsertFunction("__ah_cpu_block_unknown",
                                         FunctionType::get(ub.getVoidTy(),
                                                           {abi_.ctx->getPointerTo(), i32}, false)),
                  {ctx_, next});
    ub.CreateBr(done);
    SwitchInst *sw = db.CreateSwitch(next, unknown, splits_.size() * 2 + 1);
    sw->addCase(db.getInt32(-1), done);
    std::vector<bool> masked = maskedRegions();
    for (unsigned r = 1; r <= splits_.size(); r++) {
      sw->addCase(db.getInt32(r * 2), buildRegion(r, false, dispatch, next));
      if (masked[r]) {
        sw->addCase(db.getInt32(r * 2 + 1), buildRegion(r, true, dispatch, next));
        nmasked_++;
      }
    }
  }
  // Out with the originals.
  for (BasicBlock *bb : original)
    bb->dropAllReferences();
  for (BasicBlock *bb : original)
    bb->eraseFromParent();
  for (AllocaInst *a : frameVars_) {
    if (a->use_empty())
      a->eraseFromParent();
  }
}

// With -g: the block function's own threadIdx (and the per-block copies of
// blockIdx, blockDim, gridDim) become local variables of its debug scope,
// so gdb reads the running GPU thread's index from the variable the code
// uses: `print threadIdx` and `break f.hip:N if threadIdx.x == 5` then need
// neither libanyhip's debug information nor the process started (a program
// carries no debug entry for the extern thread-local originals), and at -O2
// they are tracked like any local (or shown as optimized out, never stale).
void BlockBuilder::describeBuiltins() {
  DISubprogram *sp = b_->getSubprogram();
  if (sp == nullptr || sp->getUnit() == nullptr ||
      sp->getUnit()->getEmissionKind() != DICompileUnit::FullDebug)
    return;
  DIBuilder db(m_, /*AllowUnresolved=*/false, sp->getUnit());
  DIFile *file = sp->getFile();
  DIType *u32 = db.createBasicType("unsigned int", 32, dwarf::DW_ATE_unsigned);
  SmallVector<Metadata *, 3> members;
  DICompositeType *idx = db.createStructType(sp->getUnit(), "ahCpuIndex", file, 0, 96, 32,
                                             DINode::FlagZero, nullptr, DINodeArray());
  for (unsigned i = 0; i < 3; i++)
    members.push_back(db.createMemberType(idx, i == 0 ? "x" : i == 1 ? "y" : "z", file, 0, 32,
                                          32, 32 * i, DINode::FlagZero, u32));
  db.replaceArrays(idx, db.getOrCreateArray(members));
  DILocation *at = DILocation::get(c_, sp->getLine(), 0, sp);
  Instruction *before = entry_->getTerminator();
  auto declare = [&](AllocaInst *a, StringRef name) {
    if (a == nullptr || a->getParent() == nullptr)
      return;
    DILocalVariable *v = db.createAutoVariable(sp, name, file, sp->getLine(), idx);
    db.insertDeclare(a, v, db.createExpression(), at, before);
  };
  declare(tidVar_, kThreadIdxVar);
  for (auto &bv : blockVars_)
    if (bv.second->getName() == kBlockIdxVar || bv.second->getName() == kBlockDimVar ||
        bv.second->getName() == kGridDimVar)
      declare(bv.first, bv.second->getName());
}

Function *BlockBuilder::build() {
  ValueToValueMapTy vm;
  b_ = CloneFunction(&k_, vm);
  b_->setName(k_.getName() + ".ahblock");
  b_->setLinkage(k_.hasLocalLinkage() ? GlobalValue::InternalLinkage
                 : k_.isDiscardableIfUnused() ? GlobalValue::LinkOnceODRLinkage
                                              : GlobalValue::ExternalLinkage);
  if (!b_->hasLocalLinkage()) // local symbols must keep the default visibility
    b_->setVisibility(GlobalValue::HiddenVisibility);
  if (k_.hasComdat())
    b_->setComdat(m_.getOrInsertComdat(b_->getName()));
  // At -O0 (debugging) each thread also writes the real threadIdx, so that
  // gdb's `print threadIdx` shows the GPU thread a breakpoint stopped in.
  storeTls_ = level_ == OptimizationLevel::O0;
  bool ok = inlineThreadDependent();
  if (ok) {
    // Before the built-ins become allocas, which SROA would fold away.
    promoteLocals();
    Type *i32 = Type::getInt32Ty(c_);
    GlobalVariable *tls = m_.getNamedGlobal(kThreadIdxVar);
    Type *idxTy = tls != nullptr ? tls->getValueType() : ArrayType::get(i32, 3);
    IRBuilder<> ir(&*b_->getEntryBlock().getFirstInsertionPt());
    tidVar_ = ir.CreateAlloca(idxTy, nullptr, "threadIdx");
    laneVar_ = ir.CreateAlloca(i32, nullptr, "lane");
    if (tls != nullptr)
      replaceGlobalInFunction(tls, tidVar_, *b_);
    if (GlobalVariable *lane = m_.getNamedGlobal(kLaneVar))
      replaceGlobalInFunction(lane, laneVar_, *b_);
    for (const char *name : {kBlockIdxVar, kBlockDimVar, kGridDimVar, kWarpSizeVar, kSharedVar})
      if (GlobalVariable *g = m_.getNamedGlobal(name)) {
        AllocaInst *local = ir.CreateAlloca(g->getValueType(), nullptr, name);
        replaceGlobalInFunction(g, local, *b_);
        blockVars_.push_back({local, g});
      }
    cutAtSplitPoints();
    if (level_ != OptimizationLevel::O0) {
      analyseUniformity();
      inlineShuffles();
      findHalvingLoops();
    }
    demoteValuesAcrossSplits();
    findRegions();
    ok = placeAllocas();
  }
  if (ok) {
    buildBody();
    plainSharedAtomics();
    tagEngineBuffers();
    describeBuiltins();
    // Kernels with barriers: uniform branches out of thread loops, then
    // loops split at uniform bounds (kernel arguments too: `tid < n`);
    // kernels with a loop inside the thread loops: grid-stride loops.
    if (level_ != OptimizationLevel::O0)
      hoistUniformBranches();
    std::string err;
    raw_string_ostream os(err);
    if (verifyFunction(*b_, &os)) {
      if (debugEnabled())
        errs() << "anyhip kernel compiler: " << k_.getName() << ": " << os.str() << "\n" << *b_;
      ok = fail("internal error of the kernel compiler (ANYHIP_KERNEL_COMPILER_DEBUG=1 at "
                "compile time shows it)");
    }
  }
  if (!ok) {
    b_->eraseFromParent();
    b_ = nullptr;
    if (desc_ != nullptr) {
      desc_->eraseFromParent();
      desc_ = nullptr;
    }
  }
  return b_;
}

// On x86-64 at -O3, a copy of block function b for CPUs with AVX2 (the
// engine picks it at run time): the optimizer then vectorises 8 lanes of 32 bits
// where SSE2 gives 4, and conditional loads and stores (`if (tid < s)`)
// with masks. No FMA: contracted a*b+c would round differently from b.
Function *avx2Copy(Function &b) {
  if (!Triple(b.getParent()->getTargetTriple()).isX86() ||
      b.getParent()->getDataLayout().getPointerSizeInBits() != 64)
    return nullptr;
  ValueToValueMapTy vm;
  Function *v = CloneFunction(&b, vm);
  v->setName(b.getName() + ".avx2");
  if (b.hasComdat())
    v->setComdat(b.getParent()->getOrInsertComdat(v->getName()));
  std::string features = b.getFnAttribute("target-features").getValueAsString().str();
  for (const char *f : {"+sse3", "+ssse3", "+sse4.1", "+sse4.2", "+popcnt", "+avx", "+avx2"})
    features += (features.empty() ? "" : ",") + std::string(f);
  v->addFnAttr("target-features", features);
  return v;
}

} // namespace

PreservedAnalyses BlockLoopsPass::run(Module &m, ModuleAnalysisManager &am) {
  std::vector<Function *> kernels = findKernels(m);
  if (kernels.empty())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &fam = am.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
  ThreadDependence td = analyseThreadDependence(m);
  std::vector<Function *> blocks;
  std::vector<GlobalVariable *> descs;
  std::vector<std::string> whys;
  for (Function *k : kernels) {
    BlockBuilder bb(m, *k, td, level_, fam);
    Function *b = bb.build();
    blocks.push_back(b);
    whys.push_back(bb.why());
    GlobalVariable *desc = bb.descriptor();
    descs.push_back(desc);
    if (debugEnabled())
      errs() << "anyhip kernel compiler: " << k->getName() << ": "
             << (b != nullptr ? "block function, " + std::to_string(bb.nsplits()) +
                                    " split points, " + std::to_string(bb.nkept()) +
                                    " uniform values kept once per block, " +
                                    std::to_string(bb.ninlined()) + " shuffles inline, " +
                                    std::to_string(bb.nreread()) + " loop values read again, " +
                                    std::to_string(bb.nchunked()) + " regions in lane chunks, " +
                                    std::to_string(bb.nhalving()) + " halving shuffle loops, " +
                                    std::to_string(bb.nlive()) + " count their live threads, " +
                                    std::to_string(bb.npcless()) + " write no pc, " +
                                    std::to_string(bb.nmasked()) + " masked copies, " +
                                    std::to_string(bb.nframe()) + " frame arrays"
                              : "fibers: " + bb.why())
             << "\n";
  }
  // AVX2 copies at -O3 only: optimising every block function twice made the
  // examples' -O2 compile 1.8x g++'s (1.4x without; issue 14's limit: 1.5).
  std::vector<Function *> avx2;
  for (Function *b : blocks)
    avx2.push_back(b != nullptr && level_ == OptimizationLevel::O3 ? avx2Copy(*b) : nullptr);
  emitRegistration(m, kernels, blocks, avx2, descs, whys);
  return PreservedAnalyses::none();
}

} // namespace anyhip
