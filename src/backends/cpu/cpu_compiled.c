/* SPDX-License-Identifier: MIT */
/* Kernels compiled into block functions (hip/anyhip/cpu/block_abi.h): the
 * registry that the kernel compiler's constructors fill, keyed by the
 * per-thread entry's address, and the choice per launch between a kernel's
 * block function and the fiber engine (ANYHIP_CPU_COMPILED, the ABI
 * version), said once per kernel under ANYHIP_LOG=cpu. Registration may
 * come before the runtime is initialized, from several threads (dlopen) and
 * several times per kernel (one per translation unit): an open-addressing
 * hash table under a read-write lock, like core/kernel.c's. */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <stdio.h>
#include <stdlib.h>

#include "../../os/symbols.h"

struct entry {
  const void *fn; /* the per-thread entry; NULL: empty slot */
  const void *block_fn;
  const void *block_fn_avx2; /* the same compiled for AVX2, or NULL */
  const ahCpuBlockKernel *k;
  const char *why;   /* why there is no block function (may be NULL) */
  atomic_int logged; /* ANYHIP_LOG=cpu said how this kernel runs */
};

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static struct entry *table; /* cap slots, a power of two */
static size_t cap, used;
/* Entries with a block function: launches skip the lookup while there are none. */
static atomic_size_t nblock;


/* fn's slot, empty if fn is not there. Lock held; cap != 0. */
static struct entry *find(struct entry *t, size_t n, const void *fn) {
  size_t i = ah_addr_slot(fn, n - 1);

  while (t[i].fn != NULL && t[i].fn != fn)
    i = (i + 1) & (n - 1);
  return &t[i];
}

/* fn's slot, made when missing; NULL when out of memory. Write lock held. */
static struct entry *insert(const void *fn) {
  struct entry *e;

  if ((used + 1) * 2 > cap) {
    size_t ncap = cap != 0 ? cap * 2 : 64;
    struct entry *nt = calloc(ncap, sizeof(*nt));

    if (nt == NULL)
      return NULL;
    for (size_t i = 0; i < cap; i++)
      if (table[i].fn != NULL) {
        struct entry *d = find(nt, ncap, table[i].fn);

        d->fn = table[i].fn;
        d->block_fn = table[i].block_fn;
        d->k = table[i].k;
        d->why = table[i].why;
        atomic_init(&d->logged, atomic_load(&table[i].logged));
      }
    free(table);
    table = nt;
    cap = ncap;
  }
  e = find(table, cap, fn);
  if (e->fn == NULL) {
    e->fn = fn;
    used++;
  }
  return e;
}

/* Idempotent: a kernel compiled in several translation units registers the
 * same information several times. A block function, once known, stays (a
 * unit that could not compile the kernel says nothing about the others). */
AH_EXPORT void __ahCpuRegisterBlock(const void *kernel, const void *block_fn,
                                    const ahCpuBlockKernel *k, const char *why) {
  struct entry *e;

  if (kernel == NULL)
    return;
  pthread_rwlock_wrlock(&lock);
  e = insert(kernel); /* out of memory: the kernel runs on fibers */
  if (e != NULL) {
    if (block_fn != NULL && k != NULL) {
      if (e->block_fn == NULL)
        atomic_fetch_add(&nblock, 1);
      e->block_fn = block_fn;
      e->k = k;
    } else if (e->block_fn == NULL && why != NULL) {
      e->why = why;
    }
  }
  pthread_rwlock_unlock(&lock);
}

AH_EXPORT void __ahCpuRegisterShared(const void *kernel, uint64_t bytes) {
  ah_kernel_set_static_shared(kernel, bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes);
}

AH_EXPORT void __ahCpuRegisterBlockAvx2(const void *kernel, const void *block_fn) {
  struct entry *e;

  if (kernel == NULL || block_fn == NULL)
    return;
  pthread_rwlock_wrlock(&lock);
  e = insert(kernel);
  if (e != NULL)
    e->block_fn_avx2 = block_fn;
  pthread_rwlock_unlock(&lock);
}

/* Whether code compiled for AVX2 (block functions, the region scheduler's
 * scan) may run: the CPU has it and ANYHIP_CPU_AVX2 does not say 0. */
int ah_cpu_avx2_ok(void) {
#if defined(__x86_64__)
  static atomic_int cached = -1; /* workers may race to set it, to the same value */
  int ok = atomic_load_explicit(&cached, memory_order_relaxed);

  if (ok < 0) {
    __builtin_cpu_init();
    ok = ah_cpu_config.avx2 && __builtin_cpu_supports("avx2");
    atomic_store_explicit(&cached, ok, memory_order_relaxed);
  }
  return ok;
#else
  return 0;
#endif
}

/* ANYHIP_LOG=cpu, at a kernel's first launch: how it runs, and why. */
static void say(const struct ah_cpu_grid *g, const struct entry *e) {
  char name[512];

  if (ah_symbol_pretty(g->fn, name, sizeof(name)) == NULL)
    snprintf(name, sizeof(name), "%p", g->fn);
  if (g->block_fn != NULL)
    ah_log("CPU", "kernel '%s': compiled block function (%u split points%s)", name,
           g->block_k->nsplits, g->block_fn == e->block_fn_avx2 ? ", AVX2" : "");
  else if (e->block_fn != NULL && e->k->abi != AH_CPU_BLOCK_ABI)
    ah_log("CPU", "kernel '%s': fibers: block function of ABI %u, this engine runs ABI %u", name,
           e->k->abi, (unsigned)AH_CPU_BLOCK_ABI);
  else if (e->block_fn != NULL)
    ah_log("CPU", "kernel '%s': fibers: ANYHIP_CPU_COMPILED=0", name);
  else
    ah_log("CPU", "kernel '%s': fibers: %s", name,
           e->why != NULL ? e->why : "not compiled by anyhip's kernel compiler");
}

/* What a launch needs of a table entry, read under the lock (`logged`, an
 * atomic, stays in the table). */
static void copy_entry(struct entry *e, const struct entry *p) {
  e->block_fn = p->block_fn;
  e->block_fn_avx2 = p->block_fn_avx2;
  e->k = p->k;
  e->why = p->why;
}

void ah_cpu_compiled_pick(struct ah_cpu_grid *g) {
  int log = (ah_config.log & AH_LOG_CPU) != 0, first = 0, found = 0;
  struct entry e = {0};
  struct entry *p;

  g->block_fn = NULL;
  g->block_k = NULL;
  if (!log && (!ah_cpu_config.compiled || atomic_load_explicit(&nblock, memory_order_relaxed) == 0))
    return;
  pthread_rwlock_rdlock(&lock);
  p = cap != 0 ? find(table, cap, g->fn) : NULL;
  if (p != NULL && p->fn != NULL) {
    found = 1;
    copy_entry(&e, p);
    first = log && atomic_exchange(&p->logged, 1) == 0;
  }
  pthread_rwlock_unlock(&lock);
  if (!found && log) {
    /* Remember the kernel, so that it is reported once. */
    pthread_rwlock_wrlock(&lock);
    p = insert(g->fn);
    if (p != NULL) {
      copy_entry(&e, p);
      first = atomic_exchange(&p->logged, 1) == 0;
    }
    pthread_rwlock_unlock(&lock);
  }
  if (e.block_fn != NULL && e.k->abi == AH_CPU_BLOCK_ABI && ah_cpu_config.compiled) {
    g->block_fn = e.block_fn_avx2 != NULL && ah_cpu_avx2_ok() ? e.block_fn_avx2 : e.block_fn;
    g->block_k = e.k;
  }
  if (first)
    say(g, &e);
}
