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
};

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static struct entry *table; /* cap slots, a power of two; fn == NULL is empty */
static size_t cap, used;


/* Inserts without growing; the caller made room. */
static void put(struct entry *t, size_t n, const void *fn, const ahKernelSig *sig, size_t *count) {
  size_t i = ah_addr_slot(fn, n - 1);

  while (t[i].fn != NULL && t[i].fn != fn)
    i = (i + 1) & (n - 1);
  if (t[i].fn == NULL)
    (*count)++;
  t[i].fn = fn;
  t[i].sig = sig;
}

/* Registering the same kernel again (a second translation unit, a reloaded
 * object) keeps the newest layout; they describe the same parameters. */
void ah_kernel_register(const void *fn, const ahKernelSig *sig) {
  if (fn == NULL || sig == NULL)
    return;
  pthread_rwlock_wrlock(&lock);
  if ((used + 1) * 2 > cap) {
    size_t ncap = cap != 0 ? cap * 2 : 64, ncount = 0;
    struct entry *nt = calloc(ncap, sizeof(*nt));

    if (nt == NULL) {
      /* Out of memory at static-constructor time: hipLaunchKernel will
       * report this kernel as unknown. Nothing better to do. */
      pthread_rwlock_unlock(&lock);
      return;
    }
    for (size_t i = 0; i < cap; i++)
      if (table[i].fn != NULL)
        put(nt, ncap, table[i].fn, table[i].sig, &ncount);
    free(table);
    table = nt;
    cap = ncap;
    used = ncount;
  }
  put(table, cap, fn, sig, &used);
  pthread_rwlock_unlock(&lock);
}

const ahKernelSig *ah_kernel_sig(const void *fn) {
  const ahKernelSig *sig = NULL;

  if (fn == NULL)
    return NULL;
  pthread_rwlock_rdlock(&lock);
  if (cap != 0) {
    size_t i = ah_addr_slot(fn, cap - 1);

    while (table[i].fn != NULL && table[i].fn != fn)
      i = (i + 1) & (cap - 1);
    sig = table[i].sig;
  }
  pthread_rwlock_unlock(&lock);
  return sig;
}
