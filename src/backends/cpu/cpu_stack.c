/* SPDX-License-Identifier: MIT */
/* Fiber stacks for the CPU engine: each is an anonymous mapping with a
 * PROT_NONE guard page below it, so that a GPU thread that overflows its
 * stack faults (and is reported) instead of writing over its neighbour, and
 * one more page above the size asked for, so that fibers can start at
 * different offsets in a page (ah_cpu_stack_top) without losing any of it.
 * Every worker keeps a pool of stacks of the current size (the device's
 * hipLimitStackSize); mapping is done once, not per block. Under valgrind
 * every stack is registered with it while mapped (see AH_VG_* in
 * cpu_engine.h), and a pooled stack handed out again reads as undefined. */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Read once: ah_cpu_stack_setsize runs before every block. Workers may
 * race to set it (to the same value): relaxed atomics keep that defined. */
static size_t page_size(void) {
  static _Atomic size_t page;
  size_t p = atomic_load_explicit(&page, memory_order_relaxed);

  if (p == 0) {
    p = (size_t)sysconf(_SC_PAGESIZE);
    atomic_store_explicit(&page, p, memory_order_relaxed);
  }
  return p;
}

/* Remembers valgrind's id for a new stack, to deregister it at unmap. Only
 * under valgrind; if the table cannot grow, the stack stays unregistered
 * (valgrind then warns about stack switches, nothing else goes wrong). */
static void vg_register(struct ah_cpu_worker *w, char *stack, size_t bytes) {
  if (!AH_VG_RUNNING())
    return;
  if (w->vg_n == w->vg_cap) {
    unsigned cap = w->vg_cap ? 2 * w->vg_cap : 64;
    struct ah_cpu_vgstack *t = realloc(w->vg_stacks, cap * sizeof(*t));

    if (t == NULL)
      return;
    w->vg_stacks = t;
    w->vg_cap = cap;
  }
  w->vg_stacks[w->vg_n].stack = stack;
  w->vg_stacks[w->vg_n].id = AH_VG_STACK_REGISTER(stack, stack + bytes);
  w->vg_n++;
}

/* Stacks are unmapped rarely (size change, worker exit): a linear search. */
static void vg_deregister(struct ah_cpu_worker *w, void *stack) {
  for (unsigned i = w->vg_n; i-- > 0;) {
    if (w->vg_stacks[i].stack == stack) {
      AH_VG_STACK_DEREGISTER(w->vg_stacks[i].id);
      w->vg_stacks[i] = w->vg_stacks[--w->vg_n];
      return;
    }
  }
}

static void *map_stack(struct ah_cpu_worker *w, size_t size) {
  size_t guard = page_size();
  char *p = mmap(NULL, size + 2 * guard, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);

  if (p == MAP_FAILED)
    return NULL;
  if (mprotect(p, guard, PROT_NONE) != 0) {
    munmap(p, size + 2 * guard);
    return NULL;
  }
  vg_register(w, p + guard, size + guard);
  return p + guard;
}

static void unmap_stack(struct ah_cpu_worker *w, void *stack, size_t size) {
  size_t guard = page_size();

  vg_deregister(w, stack);
  munmap((char *)stack - guard, size + 2 * guard);
}

/* The usable bytes of a stack for the fiber of thread `tid`: its top moves
 * down by a different multiple of 128 bytes per thread, so that the hot top
 * frames of a block's fibers do not all fall in the same cache sets (they
 * would, page-aligned: 4 KiB apart maps to the same L1 set). */
size_t ah_cpu_stack_usable(struct ah_cpu_worker *w, unsigned tid) {
  size_t color = ((size_t)tid * 128) & (w->guard_size - 1); /* a page: a power of two */

  return w->stack_size + w->guard_size - color;
}

/* Makes w's stacks `size` bytes (rounded up to pages, at least
 * AH_CPU_STACK_MIN); pooled stacks of another size are unmapped. */
hipError_t ah_cpu_stack_setsize(struct ah_cpu_worker *w, size_t size) {
  size_t page = page_size();

  if (size < AH_CPU_STACK_MIN)
    size = AH_CPU_STACK_MIN;
  size = (size + page - 1) & ~(page - 1);
  w->guard_size = page;
  if (size == w->stack_size)
    return hipSuccess;
  ah_cpu_stacks_free(w);
  w->stack_size = size;
  return hipSuccess;
}

void *ah_cpu_stack_get(struct ah_cpu_worker *w) {
  if (w->nstacks > 0) {
    void *stack = w->stacks[--w->nstacks];

    /* What the last block left there is garbage to the next one. */
    AH_VG_UNDEFINED(stack, w->stack_size + w->guard_size);
    return stack;
  }
  return map_stack(w, w->stack_size);
}

/* Never fails: the pool grows, or the stack is unmapped. */
void ah_cpu_stack_put(struct ah_cpu_worker *w, void *stack) {
  if (w->nstacks == w->stacks_cap) {
    unsigned cap = w->stacks_cap ? 2 * w->stacks_cap : 64;
    void **s = realloc(w->stacks, cap * sizeof(*s));

    if (s == NULL) {
      unmap_stack(w, stack, w->stack_size);
      return;
    }
    w->stacks = s;
    w->stacks_cap = cap;
  }
  w->stacks[w->nstacks++] = stack;
}

void ah_cpu_stacks_free(struct ah_cpu_worker *w) {
  while (w->nstacks > 0)
    unmap_stack(w, w->stacks[--w->nstacks], w->stack_size);
}
