/* SPDX-License-Identifier: MIT */
/* The header every handle object starts with, and the check that turns a
 * user's handle back into an object. Live objects are kept in a registry (a
 * hash set of their addresses), and a handle is read only once the registry
 * knows it: a garbage handle such as (hipStream_t)0x1234 or a pointer to
 * some other memory is refused without being dereferenced, so validation
 * cannot crash. Magic and kind then tell a stream from an event. The
 * registry's lock is a leaf: nothing else is taken while it is held. */
#include "internal.h"

#include <stdlib.h>

/* Open addressing with linear probing. A slot holds a live address, EMPTY,
 * or TOMB (a removed entry; probes go on past it). Addresses of objects are
 * aligned, so 1 can never be one. */
#define EMPTY ((uintptr_t)0)
#define TOMB ((uintptr_t)1)

static pthread_rwlock_t reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static uintptr_t *slots; /* cap entries, a power of two */
static size_t cap;
static size_t live;  /* addresses in the set */
static size_t taken; /* live + tombstones: what makes probes long */

static size_t hash(uintptr_t x, size_t mask) {
  uint64_t h = (uint64_t)x;

  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h & mask;
}

/* The slot holding x, or NULL. reg_lock held (either mode). */
static uintptr_t *find(uintptr_t x) {
  if (cap == 0)
    return NULL;
  for (size_t i = hash(x, cap - 1);; i = (i + 1) & (cap - 1)) {
    if (slots[i] == x)
      return &slots[i];
    if (slots[i] == EMPTY)
      return NULL;
  }
}

/* Rebuilds the table with room for one more entry, dropping tombstones.
 * reg_lock held for writing. */
static int grow(void) {
  size_t ncap = cap != 0 ? cap : 64;
  uintptr_t *nt;

  while ((live + 1) * 2 > ncap)
    ncap *= 2;
  nt = calloc(ncap, sizeof(*nt));
  if (nt == NULL)
    return 0;
  for (size_t i = 0; i < cap; i++) {
    if (slots[i] == EMPTY || slots[i] == TOMB)
      continue;
    size_t j = hash(slots[i], ncap - 1);

    while (nt[j] != EMPTY)
      j = (j + 1) & (ncap - 1);
    nt[j] = slots[i];
  }
  free(slots);
  slots = nt;
  cap = ncap;
  taken = live;
  return 1;
}

hipError_t ah_object_init(struct ah_object *o, enum ah_kind kind) {
  uintptr_t x = (uintptr_t)o;
  size_t i;

  o->magic = AH_MAGIC;
  o->kind = kind;
  atomic_init(&o->refs, 1);
  pthread_rwlock_wrlock(&reg_lock);
  /* Keep at least half the slots EMPTY so that every probe ends quickly. */
  if ((taken + 1) * 2 > cap && !grow()) {
    pthread_rwlock_unlock(&reg_lock);
    o->magic = 0;
    return hipErrorOutOfMemory;
  }
  if (find(x) == NULL) {
    for (i = hash(x, cap - 1); slots[i] != EMPTY && slots[i] != TOMB; i = (i + 1) & (cap - 1))
      ;
    taken += slots[i] == EMPTY;
    slots[i] = x;
    live++;
  }
  pthread_rwlock_unlock(&reg_lock);
  return hipSuccess;
}

void ah_object_fini(struct ah_object *o) {
  uintptr_t *s;

  pthread_rwlock_wrlock(&reg_lock);
  s = find((uintptr_t)o);
  if (s != NULL) {
    *s = TOMB;
    live--;
  }
  o->magic = 0;
  o->kind = 0;
  pthread_rwlock_unlock(&reg_lock);
}

void *ah_object_cast(const void *o, enum ah_kind kind) {
  const struct ah_object *obj = o;
  int ok;

  if (obj == NULL || ((uintptr_t)obj & (_Alignof(struct ah_object) - 1)) != 0)
    return NULL;
  pthread_rwlock_rdlock(&reg_lock);
  /* Read the header under the lock: fini clears it under the write lock. */
  ok = find((uintptr_t)obj) != NULL && obj->magic == AH_MAGIC && obj->kind == (uint32_t)kind;
  pthread_rwlock_unlock(&reg_lock);
  return ok ? (void *)obj : NULL;
}
