/* SPDX-License-Identifier: MIT */
/* The hints given to managed memory, as a sorted list of disjoint byte
 * ranges that each carry one state; bytes in no range have the default state
 * (nothing advised, never prefetched). Each update rebuilds the list around
 * the updated range and merges neighbours with equal states, so the list
 * stays as short as the distinct advice a program gives. */
#include "managed.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hint {
  int read_mostly;
  int coarse;
  int preferred;     /* hipCpuDeviceId, an ordinal, or hipInvalidDeviceId */
  int last_prefetch; /* the same */
  uint64_t accessed_by; /* bit 0: hipCpuDeviceId; bit d + 1: device d */
};

struct seg {
  uintptr_t start, end;
  struct hint h;
};

static const struct hint none = {0, 0, hipInvalidDeviceId, hipInvalidDeviceId, 0};

/* Guards the list. Taken last: nothing else is locked while it is held. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct seg *segs;
static size_t nsegs;

static int same(const struct hint *a, const struct hint *b) {
  return a->read_mostly == b->read_mostly && a->coarse == b->coarse &&
         a->preferred == b->preferred && a->last_prefetch == b->last_prefetch &&
         a->accessed_by == b->accessed_by;
}

static uint64_t loc_bit(int loc) {
  return loc == hipCpuDeviceId ? 1 : (uint64_t)1 << (loc + 1);
}

/* What an update does to the state of each byte of its range. */
struct change {
  enum { CH_ADVISE, CH_PREFETCH, CH_RESET } what;
  hipMemoryAdvise advice;
  int loc;
};

static void apply(struct hint *h, const struct change *c) {
  if (c->what == CH_RESET) {
    *h = none;
    return;
  }
  if (c->what == CH_PREFETCH) {
    h->last_prefetch = c->loc;
    return;
  }
  switch (c->advice) {
  case hipMemAdviseSetReadMostly:
    h->read_mostly = 1;
    break;
  case hipMemAdviseUnsetReadMostly:
    h->read_mostly = 0;
    break;
  case hipMemAdviseSetPreferredLocation:
    h->preferred = c->loc;
    break;
  case hipMemAdviseUnsetPreferredLocation:
    h->preferred = hipInvalidDeviceId;
    break;
  case hipMemAdviseSetAccessedBy:
    h->accessed_by |= loc_bit(c->loc);
    break;
  case hipMemAdviseUnsetAccessedBy:
    h->accessed_by &= ~loc_bit(c->loc);
    break;
  case hipMemAdviseSetCoarseGrain:
    h->coarse = 1;
    break;
  case hipMemAdviseUnsetCoarseGrain:
    h->coarse = 0;
    break;
  }
}

/* Appends [start, end) with state h to out, merging it into the previous
 * range when they touch and agree; default-state ranges are left out. */
static void push(struct seg *out, size_t *n, uintptr_t start, uintptr_t end, const struct hint *h) {
  if (start >= end || same(h, &none))
    return;
  if (*n > 0 && out[*n - 1].end == start && same(&out[*n - 1].h, h)) {
    out[*n - 1].end = end;
    return;
  }
  out[*n] = (struct seg){start, end, *h};
  (*n)++;
}

static hipError_t update(uintptr_t lo, uintptr_t hi, const struct change *c) {
  struct seg *out;
  struct hint h;
  uintptr_t cur = lo;
  size_t n = 0;

  pthread_mutex_lock(&lock);
  /* Each old range gives at most three pieces (before, inside, after) and
   * each gap inside [lo, hi) one more. */
  out = malloc((3 * nsegs + 2) * sizeof(*out));
  if (out == NULL) {
    pthread_mutex_unlock(&lock);
    return hipErrorOutOfMemory;
  }
  for (size_t i = 0; i < nsegs; i++) {
    const struct seg *s = &segs[i];

    if (s->end <= lo || s->start >= hi) {
      if (s->start >= hi && cur < hi) { /* the rest of [lo, hi) was a gap */
        h = none;
        apply(&h, c);
        push(out, &n, cur, hi, &h);
        cur = hi;
      }
      push(out, &n, s->start, s->end, &s->h);
      continue;
    }
    push(out, &n, s->start, lo, &s->h); /* empty unless s starts before lo */
    if (cur < s->start) {
      h = none;
      apply(&h, c);
      push(out, &n, cur, s->start, &h);
    }
    h = s->h;
    apply(&h, c);
    cur = s->end < hi ? s->end : hi;
    push(out, &n, s->start > lo ? s->start : lo, cur, &h);
    push(out, &n, hi, s->end, &s->h); /* empty unless s ends after hi */
  }
  if (cur < hi) {
    h = none;
    apply(&h, c);
    push(out, &n, cur, hi, &h);
  }
  free(segs);
  segs = out;
  nsegs = n;
  pthread_mutex_unlock(&lock);
  return hipSuccess;
}

/* Advice and prefetches apply to whole pages, as on HIP's and CUDA's devices
 * (ROCm's unit suite reads a range rounded out to pages back): the range is
 * rounded out to the host's page size. */
static void page_round(uintptr_t *lo, uintptr_t *hi) {
  static uintptr_t page;

  if (page == 0) {
    long ps = sysconf(_SC_PAGESIZE);

    page = ps > 0 ? (uintptr_t)ps : 4096;
  }
  *lo -= *lo % page;
  if (*hi % page != 0 && *hi <= UINTPTR_MAX - page)
    *hi += page - *hi % page;
}

hipError_t ah_managed_advise(uintptr_t base, size_t bytes, hipMemoryAdvise advice, int loc) {
  struct change c = {CH_ADVISE, advice, loc};
  uintptr_t lo = base, hi = base + bytes;

  page_round(&lo, &hi);
  return update(lo, hi, &c);
}

hipError_t ah_managed_prefetched(uintptr_t base, size_t bytes, int loc) {
  struct change c = {CH_PREFETCH, 0, loc};
  uintptr_t lo = base, hi = base + bytes;

  page_round(&lo, &hi);
  return update(lo, hi, &c);
}

void ah_managed_forget(uintptr_t base, size_t bytes) {
  struct change c = {CH_RESET, 0, 0};

  int any;

  pthread_mutex_lock(&lock);
  any = nsegs > 0; /* most programs never advise: keep their frees cheap */
  pthread_mutex_unlock(&lock);
  /* Out of memory leaves stale hints behind: harmless, they are hints. */
  if (any)
    update(base, base + bytes, &c);
}

/* Folds the state of one piece of the queried range into the answer. */
struct fold {
  int first;
  int read_mostly, coarse_all, coarse_any, preferred, last_prefetch;
  uint64_t accessed_by;
};

static void fold(struct fold *f, const struct hint *h) {
  if (f->first) {
    f->first = 0;
    f->read_mostly = h->read_mostly;
    f->coarse_all = f->coarse_any = h->coarse;
    f->preferred = h->preferred;
    f->last_prefetch = h->last_prefetch;
    f->accessed_by = h->accessed_by;
    return;
  }
  f->read_mostly &= h->read_mostly;
  f->coarse_all &= h->coarse;
  f->coarse_any |= h->coarse;
  if (f->preferred != h->preferred)
    f->preferred = hipInvalidDeviceId;
  if (f->last_prefetch != h->last_prefetch)
    f->last_prefetch = hipInvalidDeviceId;
  f->accessed_by &= h->accessed_by;
}

void ah_managed_query(uintptr_t base, size_t bytes, hipMemRangeAttribute attr, void *data,
                      size_t data_size) {
  uintptr_t lo = base, hi = base + bytes, cur = lo;
  struct fold f = {.first = 1};
  int *out = data;
  size_t slots, k = 0;

  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nsegs && cur < hi; i++) {
    if (segs[i].end <= lo)
      continue;
    if (segs[i].start >= hi)
      break;
    if (segs[i].start > cur)
      fold(&f, &none); /* a gap: bytes with no hint */
    fold(&f, &segs[i].h);
    cur = segs[i].end;
  }
  if (cur < hi)
    fold(&f, &none);
  pthread_mutex_unlock(&lock);

  switch (attr) {
  case hipMemRangeAttributeReadMostly:
    *out = f.read_mostly;
    break;
  case hipMemRangeAttributePreferredLocation:
    *out = f.preferred;
    break;
  case hipMemRangeAttributeLastPrefetchLocation:
    *out = f.last_prefetch;
    break;
  case hipMemRangeAttributeCoherencyMode:
    *out = f.coarse_all   ? hipMemRangeCoherencyModeCoarseGrain
           : f.coarse_any ? hipMemRangeCoherencyModeIndeterminate
                          : hipMemRangeCoherencyModeFineGrain;
    break;
  case hipMemRangeAttributeAccessedBy:
    /* Every location advised for the whole range, in ascending order (the
     * host, -1, first); the slots left over hold hipInvalidDeviceId. */
    slots = data_size / sizeof(int);
    for (int d = -1; d < AH_HINT_MAX_DEVICES && k < slots; d++)
      if (f.accessed_by & loc_bit(d))
        out[k++] = d;
    while (k < slots)
      out[k++] = hipInvalidDeviceId;
    break;
  }
}
