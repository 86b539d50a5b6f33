/* SPDX-License-Identifier: MIT */
/* The region scheduler of compiled block functions (block_abi.h). A block
 * function runs a region for many threads, then asks __ah_cpu_block_next
 * which region runs next and for whom, with the same semantics as the fiber
 * engine (docs/cpu-engine.md): threads released earlier run first; then a
 * warp split point with lanes waiting there, lowest id first, completed per
 * warp with the lanes that reached it (the active lanes of a diverged warp);
 * then a barrier, which every live thread has reached (any barrier site
 * counts, as on AMD GPUs; returned threads take no part). When every thread
 * stopped at one split point (the usual case) nothing is scanned, and a
 * plain __syncthreads costs no work per thread. Runs on the block's worker
 * only, so nothing is locked. */
#include "cpu_engine.h"

#include <stdlib.h>
#include <string.h>

#define PC_NONE 0xffffffffu

/* A block function called outside the engine (host code): a block of one. */
static __thread struct ah_cpu_region host_region;

/* Grows r's buffers for n threads of `frame` bytes each; 0 when out of memory. */
static int grow(struct ah_cpu_region *r, unsigned n, size_t frame) {
  if (n > r->cap) {
    uint32_t *pc = realloc(r->ctx.pc, n * sizeof(*pc));
    ahCpuSplitSlot *slot;
    uint64_t *xch;

    if (pc == NULL)
      return 0;
    r->ctx.pc = pc;
    slot = realloc(r->ctx.slot, n * sizeof(*slot));
    if (slot == NULL)
      return 0;
    r->ctx.slot = slot;
    xch = r->ctx.xch != NULL ? r->ctx.xch - AH_CPU_XCH_PAD : NULL;
    xch = realloc(xch, (AH_CPU_XCH_PAD + 2 * ((size_t)n + AH_CPU_XCH_PAD)) * sizeof(*xch));
    if (xch == NULL)
      return 0;
    /* The pads are read (and the values thrown away): defined for valgrind. */
    memset(xch, 0, (AH_CPU_XCH_PAD + 2 * ((size_t)n + AH_CPU_XCH_PAD)) * sizeof(*xch));
    r->ctx.xch = xch + AH_CPU_XCH_PAD;
    r->cap = n;
  }
  frame *= n;
  if (frame > r->frame_cap) {
    void *p = NULL;

    frame = (frame + 63) & ~(size_t)63;
    if (posix_memalign(&p, 64, frame) != 0)
      return 0;
    free(r->ctx.frame);
    r->ctx.frame = p;
    r->frame_cap = frame;
  }
  return 1;
}

void ah_cpu_region_free(struct ah_cpu_worker *w) {
  struct ah_cpu_region *r = &w->region;

  free(r->ctx.pc);
  free(r->ctx.slot);
  free(r->ctx.frame);
  free(r->ctx.xch != NULL ? r->ctx.xch - AH_CPU_XCH_PAD : NULL);
  memset(r, 0, sizeof(*r));
}

AH_EXPORT ahCpuBlockCtx *__ah_cpu_block_begin(const ahCpuBlockKernel *k) {
  struct ah_cpu_worker *w = ah_cpu_self;
  struct ah_cpu_region *r;

  if (w != NULL && w->in_kernel) {
    const dim3 *d = &w->block.grid->block;

    r = &w->region;
    r->nthreads = w->block.nthreads;
    r->warp_size = w->block.warp_size;
    r->warp_shift = w->block.warp_shift;
    r->dx = d->x;
    r->one_d = d->y == 1 && d->z == 1;
  } else {
    r = &host_region;
    r->nthreads = 1;
    r->warp_size = 1;
    r->warp_shift = 0;
    r->dx = 1;
    r->one_d = 1;
  }
  r->k = k;
  r->all_live = 0;
  r->sub = 0;
  r->ctx.x_begin = 0;
  r->ctx.x_end = r->dx;
  if (!grow(r, r->nthreads, k->frame_bytes)) {
    if (r == &host_region)
      return NULL;
    ah_cpu_block_fail(w, hipErrorOutOfMemory, "no memory for a compiled block's thread state");
  }
  return &r->ctx;
}

/* A block function broke its contract (block_abi.h): a kernel compiler bug.
 * Gives up the block, saying why. */
static void compiler_bug(const char *why) {
  struct ah_cpu_worker *w = ah_cpu_self;

  if (w != NULL && w->in_kernel)
    ah_cpu_block_fail(w, hipErrorLaunchFailure, why);
}

/* The block function stopped at a split point that its descriptor does not
 * have. */
static void bad_split(void) {
  compiler_bug("compiled block stopped at an unknown split point (kernel compiler bug)");
}

/* The barrier op a thread stopped with at barrier split point `info`. */
static int bar_op(uint32_t info, const ahCpuSplitSlot *s) {
  unsigned op = info & 0xffu;

  return op == AH_CPU_SPLIT_OP_DYNAMIC ? s->op : (int)op;
}

/* A thread's predicate: __syncthreads() passes 1 (as the fiber engine counts
 * it) and stores none. */
static unsigned bar_pred(int op, const ahCpuSplitSlot *s) {
  return op == AH_CPU_BAR_SYNC ? 1u : s->value != 0;
}

/* Completes a warp collective of the lanes W of the warp whose lane 0 has
 * slots `lanes`, as the fiber engine does: lanes that wait with the same
 * mask form one collective (a warp can hold several). */
static void warp_groups(ahCpuSplitSlot *lanes, uint64_t W, unsigned ws, int op) {
  uint64_t res[64];

  while (W != 0) {
    unsigned l = (unsigned)__builtin_ctzll(W);
    uint64_t mask = lanes[l].mask, G = 0;

    for (uint64_t m = W; m != 0; m &= m - 1) {
      unsigned k = (unsigned)__builtin_ctzll(m);

      if (lanes[k].mask == mask)
        G |= 1ull << k;
    }
    ah_cpu_warp_compute(lanes, G, ws, op, res);
    for (uint64_t m = G; m != 0; m &= m - 1) {
      unsigned k = (unsigned)__builtin_ctzll(m);

      lanes[k].value = res[k];
    }
    W &= ~G;
  }
}

static int warp_op(uint32_t info) {
  unsigned op = info & 0xffu;

  return op == AH_CPU_SPLIT_OP_DYNAMIC ? -1 : (int)op;
}

/* Every thread of the block stopped at the split point described by info. */
static void all_at(struct ah_cpu_region *r, uint32_t info) {
  ahCpuSplitSlot *slot = r->ctx.slot;
  unsigned n = r->nthreads, ws = r->warp_size;

  if (info & AH_CPU_SPLIT_INLINE)
    return; /* the block function computes it */
  if (info & AH_CPU_SPLIT_WARP) {
    int op = warp_op(info);

    for (unsigned base = 0; base < n; base += ws) {
      unsigned lanes = n - base < ws ? n - base : ws;

      if (lanes == ws && ah_cpu_warp_shuffle_full(slot + base, ws, op))
        continue;
      warp_groups(slot + base, lanes == 64 ? ~0ull : (1ull << lanes) - 1, ws, op);
    }
    return;
  }
  if ((info & 0xffu) == AH_CPU_BAR_SYNC)
    return; /* the common case: nothing to compute */
  if ((info & 0xffu) == AH_CPU_SPLIT_OP_DYNAMIC) {
    unsigned t = 0;

    for (unsigned i = 0; i < n; i++)
      t += bar_pred(slot[i].op, &slot[i]);
    for (unsigned i = 0; i < n; i++)
      slot[i].value = (uint32_t)ah_cpu_bar_value(slot[i].op, t, n);
  } else {
    int op = (int)(info & 0xffu);
    unsigned t = 0;
    uint64_t v;

    for (unsigned i = 0; i < n; i++)
      t += slot[i].value != 0;
    v = (uint32_t)ah_cpu_bar_value(op, t, n);
    for (unsigned i = 0; i < n; i++)
      slot[i].value = v;
  }
}

/* Split point s is released for every live thread, `count` of them, the
 * first and last live ones at first..last, and they are to run region s
 * masked. When they are whole warps in one range of a one-dimensional
 * block, region s runs unmasked over that range instead: no pass over the
 * block's pc[] in the block function, nor here while they stay together
 * (__ah_cpu_block_next). Threads outside the range have returned. */
static int32_t release_live(struct ah_cpu_region *r, uint32_t s, unsigned first, unsigned last,
                            unsigned count) {
  unsigned ws = r->warp_size, end = last + 1;

  if (r->one_d && count == end - first && first % ws == 0 &&
      (end % ws == 0 || end == r->nthreads)) {
    r->sub = 1;
    r->ctx.x_begin = first;
    r->ctx.x_end = end;
    return (int32_t)(s * 2);
  }
  r->all_live = 1;
  return (int32_t)(s * 2 + 1);
}

/* Whether split point `info` needs nothing from the engine once every live
 * thread stopped there: a plain barrier, or a shuffle the block function
 * computes. */
static int plain_split(uint32_t info) {
  return (info & AH_CPU_SPLIT_INLINE) ||
         (!(info & AH_CPU_SPLIT_WARP) && (info & 0xffu) == AH_CPU_BAR_SYNC);
}

/* The usual divergent stop: every live thread waits at one plain split
 * point, in one range of whole warps (after `if (warp == 0)`, warp 0 at its
 * first shuffle and the others returned). The range then runs unmasked, as
 * release_live would have it, and no pc[] entry is written. One pass that
 * vectorises (cpu/CMakeLists.txt): the live threads are one range exactly
 * when their indices add up to the range's sum, the smallest any `live`
 * distinct indices from `first` on can have. -2 when the threads are not so. */
static inline __attribute__((always_inline)) int32_t plain_range_scan(struct ah_cpu_region *r) {
  const uint32_t *pc = r->ctx.pc;
  unsigned n = r->nthreads, ws = r->warp_size, first = 0, live = 0, other = 0, sum = 0, end;
  uint32_t p;

  if (!r->one_d)
    return -2;
  while (first < n && pc[first] == AH_CPU_PC_DONE)
    first++;
  if (first == n)
    return -2;
  p = pc[first];
  if (p == 0 || p > r->k->nsplits || !plain_split(r->k->split_info[p]))
    return -2;
  for (unsigned i = first; i < n; i++) {
    unsigned is_live = pc[i] != AH_CPU_PC_DONE;

    live += is_live;
    other |= is_live & (pc[i] != p);
    sum += is_live * i;
  }
  end = first + live;
  if (other || sum != live * first + live * (live - 1) / 2 || first % ws != 0 ||
      (end % ws != 0 && end != n))
    return -2;
  r->sub = 1;
  r->ctx.x_begin = first;
  r->ctx.x_end = end;
  return (int32_t)(p * 2);
}

/* The scan, also built for AVX2 (twice the threads per step) where the
 * CPU has it: after `if (warp == 0)` it runs once per block. */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static int32_t plain_range_avx2(struct ah_cpu_region *r) {
  return plain_range_scan(r);
}
#endif

static int32_t one_plain_range(struct ah_cpu_region *r) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (ah_cpu_avx2_ok())
    return plain_range_avx2(r);
#endif
  return plain_range_scan(r);
}

/* The threads stopped at different places, or some did not run: scan them. */
static int32_t general(struct ah_cpu_region *r) {
  uint32_t *pc = r->ctx.pc;
  ahCpuSplitSlot *slot = r->ctx.slot;
  const uint32_t *info = r->k->split_info;
  uint32_t nsplits = r->k->nsplits;
  unsigned n = r->nthreads, ws = r->warp_size, live = 0, bar_n = 0;
  unsigned first = n, last = 0; /* of the live threads */
  uint32_t run = PC_NONE, warp = PC_NONE, bar_lo = PC_NONE, bar_hi = 0;
  int preds = 0; /* some barrier needs the predicates */
  int32_t fast;

  r->all_live = 0;
  r->sub = 0;
  r->ctx.x_begin = 0;
  r->ctx.x_end = r->dx;
  if ((fast = one_plain_range(r)) != -2)
    return fast;

  for (unsigned i = 0; i < n; i++) {
    uint32_t p = pc[i];

    if (p == AH_CPU_PC_DONE)
      continue;
    live++;
    first = i < first ? i : first;
    last = i;
    if (p & AH_CPU_PC_RUN) {
      if ((p & ~AH_CPU_PC_RUN) < run)
        run = p & ~AH_CPU_PC_RUN;
      continue;
    }
    if (p == 0 || p > nsplits) {
      bad_split();
      return -1;
    }
    if (info[p] & AH_CPU_SPLIT_WARP) {
      if (p < warp)
        warp = p;
    } else {
      bar_n++;
      bar_lo = p < bar_lo ? p : bar_lo;
      bar_hi = p > bar_hi ? p : bar_hi;
      preds |= (info[p] & 0xffu) != AH_CPU_BAR_SYNC;
    }
  }
  /* Threads already released go on first. */
  if (run != PC_NONE)
    return (int32_t)(run * 2 + 1);

  if (warp != PC_NONE) {
    int op = warp_op(info[warp]);
    unsigned taking = 0;

    for (unsigned base = 0; base < n; base += ws) {
      unsigned lanes = n - base < ws ? n - base : ws;
      uint64_t W = 0;

      for (unsigned l = 0; l < lanes; l++)
        if (pc[base + l] == warp)
          W |= 1ull << l;
      if (W == 0)
        continue;
      if (!(info[warp] & AH_CPU_SPLIT_INLINE))
        warp_groups(slot + base, W, ws, op);
      for (uint64_t m = W; m != 0; m &= m - 1)
        pc[base + (unsigned)__builtin_ctzll(m)] = AH_CPU_PC_RUN | warp;
      taking += (unsigned)__builtin_popcountll(W);
    }
    if (taking == n)
      return (int32_t)(warp * 2);
    if (taking == live)
      return release_live(r, warp, first, last, live);
    return (int32_t)(warp * 2 + 1);
  }

  if (live == 0)
    return -1;

  /* Every live thread waits at a barrier: it opens for all of them. */
  if (preds) {
    unsigned t = 0;

    for (unsigned i = 0; i < n; i++)
      if (pc[i] != AH_CPU_PC_DONE)
        t += bar_pred(bar_op(info[pc[i]], &slot[i]), &slot[i]);
    for (unsigned i = 0; i < n; i++)
      if (pc[i] != AH_CPU_PC_DONE) {
        int op = bar_op(info[pc[i]], &slot[i]);

        if (op != AH_CPU_BAR_SYNC)
          slot[i].value = (uint32_t)ah_cpu_bar_value(op, t, bar_n);
      }
  }
  if (live == n && bar_lo == bar_hi)
    return (int32_t)(bar_lo * 2);
  for (unsigned i = 0; i < n; i++)
    if (pc[i] != AH_CPU_PC_DONE)
      pc[i] |= AH_CPU_PC_RUN;
  if (bar_lo == bar_hi)
    return release_live(r, bar_lo, first, last, live);
  return (int32_t)(bar_lo * 2 + 1);
}

/* The masked region just run was every live thread's (all_live), and they
 * all stopped at split point s (none returned): a plain barrier opens for
 * all of them and an inline shuffle needs nothing, so they are released
 * without the scan (threads that returned earlier, e.g. the other warps
 * after `if (warp == 0)`, no longer cost a pass over the block each time).
 * Other split points need general()'s work. */
static int32_t all_live_at(struct ah_cpu_region *r, uint32_t s) {
  uint32_t *pc = r->ctx.pc;

  if (!plain_split(r->k->split_info[s]))
    return general(r);
  for (unsigned i = 0; i < r->nthreads; i++)
    pc[i] = pc[i] == s ? (AH_CPU_PC_RUN | s) : pc[i];
  return (int32_t)(s * 2 + 1);
}

/* After an unmasked region that counted its live threads (all == 2) and
 * where they did not all stop at one place with the others: when every live
 * thread stopped at one plain split point, in one range of whole warps of a
 * one-dimensional block, that range runs on unmasked, as plain_range_scan
 * would find, with no pass over pc[]. -2 otherwise. */
static int32_t live_range(struct ah_cpu_region *r, uint32_t lo) {
  const ahCpuBlockCtx *c = &r->ctx;
  unsigned ws = r->warp_size, first = c->live_first, end = c->live_last + 1;

  if (c->live_count == 0)
    return -1; /* every thread has returned */
  if (!r->one_d || c->live_hi != lo || lo == 0 || lo > r->k->nsplits ||
      !plain_split(r->k->split_info[lo]) || c->live_count != end - first || first % ws != 0 ||
      (end % ws != 0 && end != r->nthreads))
    return -2;
  r->all_live = 0;
  r->sub = 1;
  r->ctx.x_begin = first;
  r->ctx.x_end = end;
  return (int32_t)(lo * 2);
}

AH_EXPORT void __ah_cpu_block_unknown(ahCpuBlockCtx *c, int32_t next) {
  (void)c;
  (void)next;
  compiler_bug("compiled block: the engine chose a region the block function does not have "
               "(kernel compiler bug)");
}

AH_EXPORT int32_t __ah_cpu_block_next(ahCpuBlockCtx *c, uint32_t lo, uint32_t hi, int32_t all) {
  struct ah_cpu_region *r = (struct ah_cpu_region *)c;

  ah_cpu_progress(ah_cpu_self); /* a split point: the watchdog's sign of life */
  if (all == 3 && lo != hi) {
    /* The region wrote no pc[]: the compiler found that its threads all
     * leave it the same way, and they did not. */
    compiler_bug("compiled block: threads left a uniform region apart (kernel compiler bug)");
    return -1;
  }
  if (all == 2 && lo != hi) {
    int32_t fast = live_range(r, lo);

    if (fast != -2)
      return fast;
  }
  if (r->sub) {
    /* The live threads ran together over x_begin..x_end: while they stop
     * together at plain split points they go on so, with no scan. */
    if (lo == hi && lo == AH_CPU_PC_DONE)
      return -1;
    if (lo == hi && lo != 0 && lo <= r->k->nsplits && plain_split(r->k->split_info[lo]))
      return (int32_t)(lo * 2);
    return general(r);
  }
  if (all && lo == hi) {
    /* Every thread stopped at the same place: nothing to scan. */
    if (lo == AH_CPU_PC_DONE)
      return -1;
    if (lo == 0 || lo > r->k->nsplits) {
      bad_split();
      return -1;
    }
    all_at(r, r->k->split_info[lo]);
    return (int32_t)(lo * 2);
  }
  if (!all && lo == hi && r->all_live) {
    if (lo == AH_CPU_PC_DONE)
      return -1; /* the last live threads returned */
    if (lo == 0 || lo > r->k->nsplits) {
      bad_split();
      return -1;
    }
    return all_live_at(r, lo);
  }
  return general(r);
}
