/* SPDX-License-Identifier: MIT */
/* Static __shared__ memory of kernels built by the kernel compiler: one
 * arena per thread that runs blocks (block_abi.h, __ahCpuRegisterSharedArena).
 * Modules register their blocks from constructors, before or after the
 * runtime starts and from any thread (dlopen); places are handed out once and
 * only grow. A worker maps an arena of the registered total lazily, at its
 * first block, and maps a larger one between blocks when a module loaded
 * since needs more. The memory comes from mmap: zero, like the thread-local
 * storage it replaces, and pages no block touches cost nothing. */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

AH_EXPORT AH_CPU_TLS char *__ah_cpu_shared_arena;

static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;
/* The registered total and the largest alignment asked for: written under
 * arena_lock, read by workers before each block without it. */
static _Atomic uint64_t arena_bytes;
static _Atomic uint64_t arena_align = 1;

AH_EXPORT void __ahCpuRegisterSharedArena(uint64_t *place, uint64_t bytes, uint64_t align) {
  uint64_t at;

  if (place == NULL)
    return;
  if (align == 0 || (align & (align - 1)) != 0)
    align = 16;
  pthread_mutex_lock(&arena_lock);
  if (*place == AH_CPU_ARENA_UNPLACED) {
    at = atomic_load_explicit(&arena_bytes, memory_order_relaxed);
    at = (at + align - 1) & ~(align - 1);
    *place = at;
    atomic_store_explicit(&arena_bytes, at + bytes, memory_order_release);
    if (align > atomic_load_explicit(&arena_align, memory_order_relaxed))
      atomic_store_explicit(&arena_align, align, memory_order_release);
  }
  pthread_mutex_unlock(&arena_lock);
}

/* Before each block of w: its arena holds every place registered so far.
 * A larger one replaces it (nothing in an arena outlives a block). */
hipError_t ah_cpu_arena_reserve(struct ah_cpu_worker *w) {
  uint64_t need = atomic_load_explicit(&arena_bytes, memory_order_acquire);
  uint64_t align;
  size_t page, size;
  char *p;

  if (need <= w->arena_cap) {
    __ah_cpu_shared_arena = w->arena;
    return hipSuccess;
  }
  align = atomic_load_explicit(&arena_align, memory_order_acquire);
  page = (size_t)sysconf(_SC_PAGESIZE);
  if (need > SIZE_MAX / 2 || align > SIZE_MAX / 4)
    return hipErrorOutOfMemory;
  size = ((size_t)need + page - 1) & ~(page - 1);
  /* mmap's pages are aligned to `page`; a larger alignment gets slack. */
  if (align > page)
    size += (size_t)align;
  p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
           0);
  if (p == MAP_FAILED)
    return hipErrorOutOfMemory;
  ah_cpu_arena_free(w);
  w->arena_map = p;
  w->arena_map_size = size;
  w->arena = align > page ? (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1)) : p;
  w->arena_cap = need;
  __ah_cpu_shared_arena = w->arena;
  return hipSuccess;
}

void ah_cpu_arena_free(struct ah_cpu_worker *w) {
  if (w->arena_map != NULL)
    munmap(w->arena_map, w->arena_map_size);
  w->arena_map = w->arena = NULL;
  w->arena_map_size = w->arena_cap = 0;
  if (ah_cpu_self == w)
    __ah_cpu_shared_arena = NULL;
}
