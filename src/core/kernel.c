/* SPDX-License-Identifier: MIT */
/* The kernel registry: kernel host address -> parameter layout. hipcc-made
 * code registers every non-template __global__ function from a static
 * constructor (so this works before the runtime is initialized), and
 * hipLaunchKernel(fn, ..., void **args, ...) finds the layout here. An
 * open-addressing hash table; readers take a shared lock. */
#include "internal.h"

#include <stdlib.h>

struct entry {
  const void *fn;
  const ahKernelSig *sig;
  unsigned max_threads; /* __launch_bounds__'s first argument; 0: none */
  size_t static_shared; /* static __shared__ bytes (the kernel compiler says); 0: unknown */
  int empty;            /* hipcc saw an empty body: launches run no block */
};

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static struct entry *table; /* cap slots, a power of two; fn == NULL is empty */
static size_t cap, used;


/* Inserts without growing; the caller made room. */
static struct entry *put(struct entry *t, size_t n, const void *fn, const ahKernelSig *sig,
                         size_t *count) {
  size_t i = ah_addr_slot(fn, n - 1);

  while (t[i].fn != NULL && t[i].fn != fn)
    i = (i + 1) & (n - 1);
  if (t[i].fn == NULL)
    (*count)++;
  t[i].fn = fn;
  t[i].sig = sig;
  return &t[i];
}

/* Registering the same kernel again (a second translation unit, a reloaded
 * object) keeps the newest layout; they describe the same parameters. */
void ah_kernel_register(const void *fn, const ahKernelSig *sig) {
  ah_kernel_register_bounds(fn, sig, 0);
}

/* max_threads: the kernel's __launch_bounds__ (hipcc passes it), 0 for none;
 * a registration without bounds keeps the bound an earlier one gave. */
/* Makes room for one more entry. Write lock held. Returns 0 when out of
 * memory (static-constructor time: the kernel stays unknown, nothing better
 * to do). */
static int grow(void) {
  if ((used + 1) * 2 > cap) {
    size_t ncap = cap != 0 ? cap * 2 : 64, ncount = 0;
    struct entry *nt = calloc(ncap, sizeof(*nt));

    if (nt == NULL)
      return 0;
    for (size_t i = 0; i < cap; i++)
      if (table[i].fn != NULL) {
        struct entry *e = put(nt, ncap, table[i].fn, table[i].sig, &ncount);

        e->max_threads = table[i].max_threads;
        e->static_shared = table[i].static_shared;
        e->empty = table[i].empty;
      }
    free(table);
    table = nt;
    cap = ncap;
    used = ncount;
  }
  return 1;
}

void ah_kernel_register_bounds(const void *fn, const ahKernelSig *sig, unsigned max_threads) {
  struct entry *e;

  if (fn == NULL || sig == NULL)
    return;
  pthread_rwlock_wrlock(&lock);
  if (!grow()) {
    pthread_rwlock_unlock(&lock);
    return;
  }
  e = put(table, cap, fn, sig, &used);
  if (max_threads != 0)
    e->max_threads = max_threads;
  pthread_rwlock_unlock(&lock);
}

/* fn's entry, made without a layout when missing (a registration that may
 * come before hipcc's: constructors run in any order; that one adds the
 * layout); NULL when out of memory. Write lock held. */
static struct entry *entry_for(const void *fn) {
  size_t i;

  if (!grow())
    return NULL;
  i = ah_addr_slot(fn, cap - 1);
  while (table[i].fn != NULL && table[i].fn != fn)
    i = (i + 1) & (cap - 1);
  if (table[i].fn == NULL) {
    table[i].fn = fn;
    used++;
  }
  return &table[i];
}

/* The kernel compiler's count of fn's static __shared__ bytes. */
void ah_kernel_set_static_shared(const void *fn, size_t bytes) {
  struct entry *e;

  if (fn == NULL)
    return;
  pthread_rwlock_wrlock(&lock);
  if ((e = entry_for(fn)) != NULL)
    e->static_shared = bytes;
  pthread_rwlock_unlock(&lock);
}

/* hipcc saw fn's body empty. */
void ah_kernel_set_empty(const void *fn) {
  struct entry *e;

  if (fn == NULL)
    return;
  pthread_rwlock_wrlock(&lock);
  if ((e = entry_for(fn)) != NULL)
    e->empty = 1;
  pthread_rwlock_unlock(&lock);
}

/* fn's entry, a copy (a zeroed one when fn is not registered). */
static struct entry lookup(const void *fn) {
  struct entry e = {0};

  if (fn == NULL)
    return e;
  pthread_rwlock_rdlock(&lock);
  if (cap != 0) {
    size_t i = ah_addr_slot(fn, cap - 1);

    while (table[i].fn != NULL && table[i].fn != fn)
      i = (i + 1) & (cap - 1);
    e = table[i];
  }
  pthread_rwlock_unlock(&lock);
  return e;
}

size_t ah_kernel_static_shared(const void *fn) { return lookup(fn).static_shared; }

const ahKernelSig *ah_kernel_sig(const void *fn) { return lookup(fn).sig; }

/* Whether fn's body is empty (hipcc says so at registration). */
int ah_kernel_empty(const void *fn) { return lookup(fn).empty; }

/* The kernel's __launch_bounds__ maximum of threads per block; 0: none known. */
unsigned ah_kernel_max_threads(const void *fn) { return lookup(fn).max_threads; }
