/* SPDX-License-Identifier: MIT */
/* Symbols that compiled code registers itself: hipcc emits, for each
 * namespace-scope __device__, __constant__ and __managed__ variable of a
 * HIP source, a static initializer calling __ahRegisterVariable with its
 * address, size and mangled name. ah_symbol_lookup looks here before the ELF
 * tables, so device variables are found in a stripped program too (whose
 * tables no longer list them). An array sorted by address under a
 * read-write lock; registration may run before main and from any thread. */
#include "symbols.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static struct ah_symbol *table; /* sorted by start */
static size_t count, cap;

/* Index of the first entry whose start is above addr. */
static size_t upper(const void *addr) {
  size_t lo = 0, hi = count;

  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;

    if ((uintptr_t)table[mid].start <= (uintptr_t)addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The same address registered again (a second translation unit including
 * the definition through `inline`, a library loaded twice) keeps the newest
 * entry. Out of memory at static-initialisation time leaves the variable to
 * the ELF tables: nothing better to do. */
void ah_symbol_register(const void *start, size_t size, const char *name) {
  size_t i;

  if (start == NULL)
    return;
  pthread_rwlock_wrlock(&lock);
  i = upper(start);
  if (i > 0 && table[i - 1].start == start) {
    table[i - 1].size = size;
    table[i - 1].name = name;
  } else {
    if (count == cap) {
      size_t ncap = cap ? cap * 2 : 64;
      struct ah_symbol *nt = realloc(table, ncap * sizeof(*nt));

      if (nt == NULL) {
        pthread_rwlock_unlock(&lock);
        return;
      }
      table = nt;
      cap = ncap;
    }
    memmove(&table[i + 1], &table[i], (count - i) * sizeof(*table));
    table[i] = (struct ah_symbol){.name = name, .start = start, .size = size};
    count++;
  }
  pthread_rwlock_unlock(&lock);
}

int ah_symbol_registered(const void *addr, struct ah_symbol *out) {
  int found = 0;
  size_t i;

  pthread_rwlock_rdlock(&lock);
  i = upper(addr);
  if (i > 0) {
    const struct ah_symbol *s = &table[i - 1];
    uintptr_t off = (uintptr_t)addr - (uintptr_t)s->start;

    if (off == 0 || off < s->size) {
      *out = *s;
      found = 1;
    }
  }
  pthread_rwlock_unlock(&lock);
  return found;
}
