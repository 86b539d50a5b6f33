/* SPDX-License-Identifier: MIT */
/* Warp collectives: shuffles, votes, match and reductions. Lanes are
 * consecutive linear thread ids of the block. A collective waits until every
 * lane that takes part has reached it (all fibers of a block run on one
 * worker, so no atomics are needed), then the last lane to arrive computes
 * every lane's result at once. Lanes take part when they have not returned,
 * are in the call's mask (the _sync forms) and are at the same call site;
 * when the block can go no further because a warp's lanes wait at different
 * places (a divergent warp), the collective with the lowest call-site address
 * runs with the lanes that reached it, as the active lanes of a diverged warp
 * would on a GPU. That is right when the other lanes wait at a barrier, have
 * returned, or wait at a collective of their own branch; lanes that
 * reconverge at a collective right after a branch may be told apart (the
 * compiler can duplicate the call into both paths), which a GPU would not.
 * ah_cpu_warp_compute, the results of one collective, serves compiled block
 * functions' warp split points too (cpu_region.c). */
#include "cpu_engine.h"

#include <string.h>

static uint64_t bit(unsigned lane) { return 1ull << lane; }

static float as_f32(uint64_t v) {
  uint32_t u = (uint32_t)v;
  float f;

  memcpy(&f, &u, sizeof(f));
  return f;
}

static double as_f64(uint64_t v) {
  double d;

  memcpy(&d, &v, sizeof(d));
  return d;
}

static uint64_t from_f32(float f) {
  uint32_t u;

  memcpy(&u, &f, sizeof(u));
  return u;
}

static uint64_t from_f64(double d) {
  uint64_t u;

  memcpy(&u, &d, sizeof(u));
  return u;
}

/* One reduction over the lanes G of lanes[], in lane order. */
#define AH_FOLD(T, get, put)                                                                       \
  do {                                                                                             \
    T acc = get(lanes[first].value);                                                               \
    for (uint64_t m = G & (G - 1); m != 0; m &= m - 1) {                                           \
      T v = get(lanes[__builtin_ctzll(m)].value);                                                  \
      switch (op) {                                                                                \
      case AH_CPU_WARP_RED_ADD:                                                                    \
        acc = acc + v;                                                                             \
        break;                                                                                     \
      case AH_CPU_WARP_RED_MIN:                                                                    \
        acc = v < acc ? v : acc;                                                                   \
        break;                                                                                     \
      case AH_CPU_WARP_RED_MAX:                                                                    \
        acc = v > acc ? v : acc;                                                                   \
        break;                                                                                     \
      default:                                                                                     \
        break;                                                                                     \
      }                                                                                            \
    }                                                                                              \
    return put(acc);                                                                               \
  } while (0)

#define AH_ID(x) (x)
#define AH_I32(x) ((int32_t)(uint32_t)(x))
#define AH_U32(x) ((uint32_t)(x))
#define AH_I64(x) ((int64_t)(x))
#define AH_PUT_I32(x) ((uint64_t)(uint32_t)(x))
#define AH_PUT_I64(x) ((uint64_t)(x))

static uint64_t reduce(const ahCpuSplitSlot *lanes, uint64_t G, int op, int type) {
  unsigned first = (unsigned)__builtin_ctzll(G);

  if (op == AH_CPU_WARP_RED_AND || op == AH_CPU_WARP_RED_OR || op == AH_CPU_WARP_RED_XOR) {
    uint64_t acc = lanes[first].value;

    for (uint64_t m = G & (G - 1); m != 0; m &= m - 1) {
      uint64_t v = lanes[__builtin_ctzll(m)].value;

      acc = op == AH_CPU_WARP_RED_AND ? acc & v : op == AH_CPU_WARP_RED_OR ? acc | v : acc ^ v;
    }
    return type == AH_CPU_T_I32 || type == AH_CPU_T_U32 ? (uint32_t)acc : acc;
  }
  switch (type) {
  case AH_CPU_T_I32:
    AH_FOLD(int64_t, AH_I32, AH_PUT_I32); /* wraps like the GPU's 32-bit add */
  case AH_CPU_T_U32:
    AH_FOLD(uint32_t, AH_U32, AH_PUT_I32);
  case AH_CPU_T_I64:
    AH_FOLD(int64_t, AH_I64, AH_PUT_I64);
  case AH_CPU_T_F32:
    AH_FOLD(float, as_f32, from_f32);
  case AH_CPU_T_F64:
    AH_FOLD(double, as_f64, from_f64);
  default:
    AH_FOLD(uint64_t, AH_ID, AH_ID);
  }
}

/* Which lane a shuffle of lane `l` reads, HIP's rules for `width`
 * sub-groups: out of range reads the caller's own value. */
static unsigned shfl_source(int op, unsigned l, int arg, unsigned width) {
  unsigned base = l & ~(width - 1);

  switch (op) {
  case AH_CPU_WARP_SHFL:
    return base + ((unsigned)arg & (width - 1));
  case AH_CPU_WARP_SHFL_UP:
    return (unsigned)arg > l - base ? l : l - (unsigned)arg;
  case AH_CPU_WARP_SHFL_DOWN:
    return (l - base) + (unsigned)arg >= width ? l : l + (unsigned)arg;
  default: { /* xor: a later sub-group reads the caller's own */
    unsigned s = l ^ (unsigned)arg;
    return s >= base + width ? l : s;
  }
  }
}

int ah_cpu_warp_shuffle_full(ahCpuSplitSlot *lanes, unsigned ws, int op) {
  uint64_t v[64], mask = lanes[0].mask;
  int arg = lanes[0].arg, width = lanes[0].width;
  int same = 1;

  if (op < AH_CPU_WARP_SHFL || op > AH_CPU_WARP_SHFL_XOR)
    return 0;
  for (unsigned l = 0; l < ws; l++) {
    if (lanes[l].mask != mask)
      return 0;
    same &= lanes[l].arg == arg && lanes[l].width == width;
    v[l] = lanes[l].value;
  }
  if (same) { /* one offset for the warp (reductions, scans): no per-lane decode */
    unsigned w = (unsigned)width;

    if (w == 0 || w > ws || (w & (w - 1)) != 0)
      w = ws;
    for (unsigned l = 0; l < ws; l++)
      lanes[l].value = v[shfl_source(op, l, arg, w)];
    return 1;
  }
  for (unsigned l = 0; l < ws; l++) {
    unsigned w = (unsigned)lanes[l].width;

    if (w == 0 || w > ws || (w & (w - 1)) != 0)
      w = ws;
    lanes[l].value = v[shfl_source(op, l, lanes[l].arg, w)];
  }
  return 1;
}

void ah_cpu_warp_compute(const ahCpuSplitSlot *lanes, uint64_t G, unsigned ws, int op,
                         uint64_t *res) {
  unsigned first = (unsigned)__builtin_ctzll(G);
  int op0 = op >= 0 ? op : lanes[first].op;
  uint64_t ballot = 0, red = 0, all_equal = 1;

  /* Shuffles (the common case) need no group-wide values. */
  if (op0 > AH_CPU_WARP_SHFL_XOR)
    for (uint64_t m = G; m != 0; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);

      if (lanes[l].value != 0)
        ballot |= bit(l);
      if (lanes[l].value != lanes[first].value)
        all_equal = 0;
    }
  if (op0 >= AH_CPU_WARP_RED_ADD)
    red = reduce(lanes, G, op0, lanes[first].arg);

  for (uint64_t m = G; m != 0; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    const ahCpuSplitSlot *t = &lanes[l];
    int lop = op >= 0 ? op : t->op;
    uint64_t r = 0;

    switch (lop) {
    case AH_CPU_WARP_SHFL:
    case AH_CPU_WARP_SHFL_UP:
    case AH_CPU_WARP_SHFL_DOWN:
    case AH_CPU_WARP_SHFL_XOR: {
      unsigned width = (unsigned)t->width;
      unsigned s;

      if (width == 0 || width > ws || (width & (width - 1)) != 0)
        width = ws;
      s = shfl_source(lop, l, t->arg, width);
      /* A lane that does not take part (returned, diverged, beyond the
       * block) reads as 0, like an inactive lane of a GPU warp. */
      r = s < ws && (G & bit(s)) ? lanes[s].value : 0;
      break;
    }
    case AH_CPU_WARP_BALLOT:
      r = ballot;
      break;
    case AH_CPU_WARP_ANY:
      r = ballot != 0;
      break;
    case AH_CPU_WARP_ALL:
      r = ballot == G;
      break;
    case AH_CPU_WARP_ACTIVE:
      r = G;
      break;
    case AH_CPU_WARP_MATCH_ANY:
      for (uint64_t k = G; k != 0; k &= k - 1)
        if (lanes[__builtin_ctzll(k)].value == t->value)
          r |= bit((unsigned)__builtin_ctzll(k));
      break;
    case AH_CPU_WARP_MATCH_ALL:
      r = all_equal ? G : 0;
      break;
    case AH_CPU_WARP_SYNC:
      break;
    default:
      r = red;
      break;
    }
    res[l] = r;
  }
}

/* The lanes of warp w waiting at the same collective as lane l (ops: the
 * warp's slots). Such a lane is in its mask, which is l's, or calls outside
 * its own mask (w->outside; undefined in HIP, kept as it was): only those
 * are looked at, so that a tile's sync costs its own lanes, not the warp's
 * (tiles of 2 in a warp of 64 made every arrival scan 64 lanes). */
static uint64_t group_of(const struct ah_cpu_gthread *lanes, const ahCpuSplitSlot *ops,
                         const struct ah_cpu_warp *w, unsigned l) {
  uint64_t G = 0;

  for (uint64_t m = w->waiting & (ops[l].mask | w->outside | bit(l)); m != 0; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctzll(m);

    if (lanes[k].wsite == lanes[l].wsite && ops[k].mask == ops[l].mask)
      G |= bit(k);
  }
  return G;
}

/* After lanes left the waiting set of a mixed warp: whether the lanes still
 * waiting are one group again. */
static void regroup(struct ah_cpu_gthread *lanes, const ahCpuSplitSlot *ops,
                    struct ah_cpu_warp *w) {
  unsigned l;

  if (w->waiting == 0) {
    w->mixed = 0;
    w->same = 0;
    return;
  }
  l = (unsigned)__builtin_ctzll(w->waiting);
  w->site = lanes[l].wsite;
  w->mask = ops[l].mask;
  w->same = group_of(lanes, ops, w, l);
  w->mixed = w->same != w->waiting;
}

/* Runs the collective of the lanes G of warp wi; they may all go on. */
static void complete(struct ah_cpu_block *b, unsigned wi, uint64_t G) {
  struct ah_cpu_gthread *lanes = &b->threads[wi << b->warp_shift];
  const ahCpuSplitSlot *ops = &b->wslot[wi << b->warp_shift];
  struct ah_cpu_warp *w = &b->warps[wi];
  uint64_t res[64];

  ah_cpu_warp_compute(ops, G, b->warp_size, -1, res);
  for (uint64_t m = G; m != 0; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);

    lanes[l].wresult = res[l];
    lanes[l].state = AH_T_READY;
    b->runnable++;
  }
  w->waiting &= ~G;
  w->outside &= ~G;
  if (w->mixed)
    regroup(lanes, ops, w);
  else
    w->same &= ~G;
}

/* Completes lane l's collective if every lane it waits for is there. */
static int try_complete(struct ah_cpu_block *b, unsigned wi, unsigned l) {
  struct ah_cpu_gthread *lanes = &b->threads[wi << b->warp_shift];
  const ahCpuSplitSlot *ops = &b->wslot[wi << b->warp_shift];
  struct ah_cpu_warp *w = &b->warps[wi];
  uint64_t G = w->mixed ? group_of(lanes, ops, w, l) : w->same;
  uint64_t need = w->live & ops[l].mask;

  if ((need & ~G) != 0)
    return 0;
  complete(b, wi, G);
  return 1;
}

/* Lane `lane` starts waiting at (site, mask). */
static void arrive(struct ah_cpu_warp *w, unsigned lane, const void *site, uint64_t mask) {
  if (w->waiting == 0) {
    w->site = site;
    w->mask = mask;
    w->same = 0;
    w->mixed = 0;
    w->outside = 0;
  }
  if ((mask & bit(lane)) == 0)
    w->outside |= bit(lane);
  if (!w->mixed && site == w->site && mask == w->mask)
    w->same |= bit(lane);
  else
    w->mixed = 1;
  w->waiting |= bit(lane);
}

void ah_cpu_warp_recheck(struct ah_cpu_block *b, unsigned wi) {
  struct ah_cpu_gthread *lanes = &b->threads[wi << b->warp_shift];
  const ahCpuSplitSlot *ops = &b->wslot[wi << b->warp_shift];
  uint64_t pending = b->warps[wi].waiting;

  while (pending != 0) {
    unsigned l = (unsigned)__builtin_ctzll(pending);

    pending &= ~group_of(lanes, ops, &b->warps[wi], l);
    try_complete(b, wi, l);
  }
}

int ah_cpu_warp_resolve(struct ah_cpu_block *b) {
  for (unsigned wi = 0; wi < b->nwarps; wi++) {
    struct ah_cpu_gthread *lanes = &b->threads[wi << b->warp_shift];
    const ahCpuSplitSlot *ops = &b->wslot[wi << b->warp_shift];
    uint64_t pending = b->warps[wi].waiting, best = 0;
    unsigned bl = 0;

    if (pending == 0)
      continue;
    while (pending != 0) {
      unsigned l = (unsigned)__builtin_ctzll(pending);
      uint64_t G = group_of(lanes, ops, &b->warps[wi], l);

      pending &= ~G;
      if (best == 0 || (uintptr_t)lanes[l].wsite < (uintptr_t)lanes[bl].wsite) {
        best = G;
        bl = l;
      }
    }
    complete(b, wi, best);
    return 1;
  }
  return 0;
}

AH_EXPORT uint64_t __ah_cpu_warp(int op, uint64_t value, int arg, int width, uint64_t mask) {
  const void *site = __builtin_return_address(0);
  struct ah_cpu_worker *w = ah_cpu_self;
  struct ah_cpu_block *b;
  struct ah_cpu_gthread *self;
  ahCpuSplitSlot *ops;
  unsigned tid, wi, lane;

  if (w == NULL || !w->in_kernel) {
    /* Host code: a warp of one lane. */
    ahCpuSplitSlot solo = {.value = value, .mask = mask, .arg = arg, .width = width, .op = op};
    uint64_t r;

    ah_cpu_warp_compute(&solo, 1, 1, -1, &r);
    return r;
  }
  b = &w->block;
  if (!b->fiber_mode && b->compiled)
    ah_cpu_block_fail(w, hipErrorLaunchFailure,
                      "warp function called by a compiled block function (kernel compiler bug)");
  tid = b->fiber_mode ? b->cur : (b->cur = ah_cpu_fast_tid(b));
  wi = tid >> b->warp_shift;
  lane = tid & (b->warp_size - 1);
  self = &b->threads[tid];
  ops = &b->wslot[tid];
  *ops = (ahCpuSplitSlot){.value = value, .mask = mask, .arg = arg, .width = width, .op = op};
  self->wsite = site;
  if (!b->fiber_mode) {
    unsigned end = (wi + 1) << b->warp_shift;

    if (end > b->nthreads)
      end = b->nthreads;
    if (tid == end - 1) {
      /* The fast path's lanes before this one have returned, and there is
       * no lane after it: it is alone. */
      uint64_t res[64];

      ah_cpu_warp_compute(ops - lane, bit(lane), b->warp_size, -1, res);
      return res[lane];
    }
    ah_cpu_block_convert(w, b);
  }
  self->state = AH_T_WARP;
  arrive(&b->warps[wi], lane, site, mask);
  if (try_complete(b, wi, lane)) {
    self->state = AH_T_RUNNING;
    b->runnable--;
  } else {
    ah_cpu_block_yield(w, b);
  }
  return self->wresult;
}
