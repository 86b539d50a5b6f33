// SPDX-License-Identifier: MIT
// Loop metadata for the kernel compiler's thread loops (loop_marks.h).
#include "loop_marks.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Type.h>

using namespace llvm;

namespace anyhip {

namespace {

constexpr const char *kLaneChunk = "anyhip.lane.chunk";
constexpr const char *kIndexRest = "anyhip.index.rest";
constexpr const char *kMaskedCopy = "anyhip.masked.copy";

bool marked(const Loop &l, const char *mark) {
  MDNode *id = l.getLoopID();
  if (id == nullptr)
    return false;
  for (const MDOperand &op : id->operands())
    if (auto *n = dyn_cast<MDNode>(op.get()); n != nullptr && n->getNumOperands() > 0)
      if (auto *s = dyn_cast<MDString>(n->getOperand(0)); s != nullptr && s->getString() == mark)
        return true;
  return false;
}

// A loop ID: `mark`, unrolled no further, and interleaved once or not
// vectorised at all.
MDNode *loopId(LLVMContext &c, const char *mark, bool vectorise) {
  Metadata *m = MDNode::get(c, MDString::get(c, mark));
  Metadata *width =
      vectorise ? MDNode::get(c, {MDString::get(c, "llvm.loop.interleave.count"),
                                  ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(c), 1))})
                : MDNode::get(c, {MDString::get(c, "llvm.loop.vectorize.enable"),
                                  ConstantAsMetadata::get(ConstantInt::getFalse(c))});
  Metadata *rolled = MDNode::get(c, MDString::get(c, "llvm.loop.unroll.disable"));
  TempMDTuple self = MDNode::getTemporary(c, None);
  MDNode *id = MDNode::getDistinct(c, {self.get(), m, width, rolled});
  id->replaceOperandWith(0, id);
  return id;
}

} // namespace

MDNode *laneChunkLoopId(LLVMContext &c) { return loopId(c, kLaneChunk, true); }

bool isLaneChunkLoop(const Loop &l) { return marked(l, kLaneChunk); }

MDNode *indexRestLoopId(LLVMContext &c) { return loopId(c, kIndexRest, false); }

bool isIndexRestLoop(const Loop &l) { return marked(l, kIndexRest); }

MDNode *maskedCopyLoopId(LLVMContext &c) { return loopId(c, kMaskedCopy, false); }

bool inMaskedCopy(const Loop &l) {
  for (const Loop *p = &l; p != nullptr; p = p->getParentLoop())
    if (marked(*p, kMaskedCopy))
      return true;
  return false;
}

} // namespace anyhip
