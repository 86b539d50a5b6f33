/* SPDX-License-Identifier: MIT */
/* The contract between kernels compiled into block functions by anyhip's
 * kernel compiler (the LLVM pass plugin in kernel-compiler/, loaded by
 * hipcc's CPU pass) and the CPU engine. Plain C: the engine is C11, and the
 * plugin emits calls that follow these declarations.
 *
 * A block function has the kernel's own C++ signature, so the engine calls
 * it exactly as it calls the per-thread kernel, through the kernel's
 * ahKernelSig::invoke, once per block instead of once per GPU thread. It
 * reads blockIdx, blockDim, gridDim and dynamic shared memory from the
 * thread-local objects of state.h (the engine writes them per block, as for
 * the per-thread path) and runs every GPU thread of the block as loops over
 * threadIdx.
 *
 * Split points. A kernel whose threads meet at barriers or warp functions is
 * cut at each such call ("split point", numbered 1..nsplits) into regions:
 * region 0 starts at the kernel's entry, region s right after split point s.
 * The block function runs region 0 for every thread, then asks the engine
 * (__ah_cpu_block_next) which region to run next and for which threads,
 * until the engine says the block is done. Values that live across a split
 * point are kept per thread in `frame`. */
#ifndef ANYHIP_CPU_BLOCK_ABI_H
#define ANYHIP_CPU_BLOCK_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump when the layout below changes: the engine refuses block functions of
 * another version (and runs the per-thread entry instead). */
#define AH_CPU_BLOCK_ABI 4

/* A thread's pc[t] (one uint32_t per thread, linear id t = x + dx*(y + dy*z)):
 *   - after the thread ran a region: the split point s (1..nsplits) it
 *     stopped at, or AH_CPU_PC_DONE when it returned from the kernel;
 *   - written by the engine before a masked region r: AH_CPU_PC_RUN | r for
 *     the threads that are to run region r now (others keep their value). */
#define AH_CPU_PC_DONE 0xffffffffu
#define AH_CPU_PC_RUN 0x80000000u

/* The operands of the call at a split point, stored by each thread that
 * stops there, and its result, written by the engine before the thread runs
 * the region after it. They are the arguments of __ah_cpu_barrier(op,
 * predicate) and __ah_cpu_warp(op, value, arg, width, mask) (state.h):
 *   barrier: value = predicate (stored only for the _count/_and/_or forms);
 *   warp:    value, arg, width, mask as passed.
 * `op` is stored only when it is not a constant at the call (split_info). */
typedef struct ahCpuSplitSlot {
  uint64_t value; /* operand; the engine overwrites it with the result */
  uint64_t mask;
  int32_t arg;
  int32_t width;
  int32_t op;
  int32_t pad;
} ahCpuSplitSlot;

/* split_info[s] for split point s (index 0 unused):
 *   bits 0..7:  the op (AH_CPU_BAR_* or AH_CPU_WARP_*), or AH_CPU_SPLIT_OP_DYNAMIC
 *               when the thread stored it in its slot;
 *   bit 8:      AH_CPU_SPLIT_WARP for a warp function, else a block barrier;
 *   bit 9:      AH_CPU_SPLIT_INLINE: a shuffle the block function computes
 *               itself (every thread reaches it together): the engine only
 *               releases the threads, and leaves the slots alone. Each
 *               thread stopping there writes its operand to `xch`, and the
 *               region after it reads the source lane's (block_loops.cpp). */
#define AH_CPU_SPLIT_OP_DYNAMIC 0xffu
#define AH_CPU_SPLIT_WARP 0x100u
#define AH_CPU_SPLIT_INLINE 0x200u

/* One per compiled kernel, static in the compiled program. */
typedef struct ahCpuBlockKernel {
  uint32_t abi;         /* AH_CPU_BLOCK_ABI */
  uint32_t frame_bytes; /* per-thread bytes of `frame` (0: none) */
  uint32_t nsplits;     /* split points; 0 for a kernel without any */
  uint32_t flags;       /* none yet */
  const uint32_t *split_info; /* nsplits + 1 entries */
} ahCpuBlockKernel;

/* What a block function works with while it runs one block; the engine owns
 * the memory (per worker, reused between blocks). */
typedef struct ahCpuBlockCtx {
  uint32_t *pc;         /* nthreads entries */
  ahCpuSplitSlot *slot; /* nthreads entries */
  char *frame;          /* frame_bytes * nthreads bytes, 64-byte aligned */
  uint64_t *xch;        /* inline shuffles' operands: two buffers used in
                           turn by successive regions, buffer p at
                           xch + p * (nthreads + AH_CPU_XCH_PAD), with
                           AH_CPU_XCH_PAD readable entries before the first
                           and after each (whatever they hold): a shuffle's
                           loads stay linear in the thread */
  /* The threadIdx.x range the next region's loops run over, written by the
   * engine: [0, blockDim.x) but for a one-dimensional block whose live
   * threads are whole warps in one range (after `if (warp == 0)`), which
   * then runs as an unmasked region over that range only. */
  uint32_t x_begin, x_end;
  /* Written by the block function before __ah_cpu_block_next with all == 2,
   * after an unmasked region where some threads may return and others stop:
   * the OR of the stops of the threads that did not return, the first and
   * last of those threads (linear ids) and how many there are. */
  uint32_t live_hi, live_first, live_last, live_count;
} ahCpuBlockCtx;

#define AH_CPU_XCH_PAD 64

/* Called once by the block function of a kernel with split points, before
 * region 0: sizes the per-thread storage for this block. Never fails (the
 * engine gives up the block, as on a fault, when it has no memory). */
ahCpuBlockCtx *__ah_cpu_block_begin(const ahCpuBlockKernel *k);

/* Called after each region. lo and hi are the bitwise AND and OR of the
 * pc[t] the threads that ran it wrote (lo == hi: they all stopped at the
 * same place: the engine then reads no pc[]); `all` is 1 when the region
 * ran unmasked, for every thread in [x_begin, x_end), 2 when it also wrote the
 * live_* fields, 3 when it wrote no pc[t] because every thread leaves that
 * region the same way (lo == hi, else the engine fails the block). Otherwise
 * every thread that ran writes its pc[t].
 * Returns the next region to run as r * 2 + masked (masked: only threads
 * with pc[t] == (AH_CPU_PC_RUN | r)), or -1 when every thread has returned.
 * Before returning it completes the split point: barrier results and warp
 * collectives are written to the slots of the threads that go on.
 * After an unmasked region whose threads all stopped at one inline shuffle
 * (lo == hi == that split) the answer is always lo * 2, and the block
 * function may go there without calling; it still calls for at least one
 * such step in 64, which the engine counts as the block's progress (the
 * watchdog's sign of life). */
int32_t __ah_cpu_block_next(ahCpuBlockCtx *c, uint32_t lo, uint32_t hi, int32_t all);

/* Called when __ah_cpu_block_next answered `next`, a region the block
 * function has no code for: the kernel compiler builds a region's masked
 * copy only where the block's threads may have gone apart before it (a
 * region with a divergent exit runs first), so this is a compiler bug. The
 * engine fails the block, as on a fault; the block function then returns. */
void __ah_cpu_block_unknown(ahCpuBlockCtx *c, int32_t next);

/* Emitted by the plugin in a constructor of each compiled program, once per
 * kernel: `kernel` is the per-thread entry (the address HIP code launches),
 * `block_fn` the block function with the same signature and `k` its
 * descriptor; or block_fn == NULL and `why` says why the kernel was left to
 * the fiber engine (ANYHIP_LOG=cpu prints it at the first launch). */
void __ahCpuRegisterBlock(const void *kernel, const void *block_fn, const ahCpuBlockKernel *k,
                          const char *why);

/* After __ahCpuRegisterBlock, on x86-64: the same block function compiled
 * for AVX2 (wider vectors, masked loads and stores; no FMA contraction, so
 * results are bit for bit those of block_fn). The engine runs it instead
 * where the CPU has AVX2, unless ANYHIP_CPU_AVX2=0. */
void __ahCpuRegisterBlockAvx2(const void *kernel, const void *block_fn);

/* After __ahCpuRegisterBlock, for a kernel that uses static __shared__
 * memory: its bytes (the thread_local definitions of the translation unit
 * that the kernel and the functions it calls there name, laid out with
 * their alignment). Launches check it plus the dynamic bytes against
 * sharedMemPerBlock; hipFuncGetAttributes reports it as sharedSizeBytes.
 * Not part of the block ABI's version: a kernel compiled without it reports
 * 0 and is not checked. */
void __ahCpuRegisterShared(const void *kernel, uint64_t bytes);

/* Static __shared__ variables in an arena, not thread-local storage (the
 * plugin's shared_arena.cpp; docs/cpu-engine.md#shared-memory). The plugin
 * lays out a module's __shared__ variables in one block and rewrites each
 * use as __ah_cpu_shared_arena + *place + offset; a variable that other
 * modules may name too (a template's or an inline function's static, a
 * namespace-scope one) gets a place of its own, in a slot the linker merges
 * as it would the variable. A constructor (priority 101, before a program's
 * own) calls __ahCpuRegisterSharedArena once per block: unless *place
 * already holds a place (AH_CPU_ARENA_UNPLACED: not yet; a merged slot
 * registered by another module), the engine gives it the next `bytes` of
 * every worker's arena at `align` and writes the offset to *place. Places
 * only grow: a module loaded later (hipModuleLoad) adds to them, and each
 * worker's arena grows to the total before its next block.
 *
 * __ah_cpu_shared_arena is the running thread's arena, set by the engine
 * before each block; a thread that never runs a block has none (NULL) and
 * pays nothing else. Not part of the block ABI's version: it serves the
 * per-thread kernel (fibers) as much as block functions. */
#define AH_CPU_ARENA_UNPLACED UINT64_MAX
extern __thread __attribute__((tls_model("initial-exec"))) char *__ah_cpu_shared_arena;
void __ahCpuRegisterSharedArena(uint64_t *place, uint64_t bytes, uint64_t align);

#ifdef __cplusplus
}
#endif

#endif
