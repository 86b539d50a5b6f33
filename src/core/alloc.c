/* SPDX-License-Identifier: MIT */
/* The allocation map: every range that hipMalloc, hipHostMalloc,
 * hipHostRegister and hipMallocManaged handed out, found from any address
 * inside it. Two libc search trees hold the records: one keyed by the range
 * at `base`, one by the other side's address when it differs (the device
 * address of registered host memory). Ranges in one tree never overlap, so
 * the comparator calls two ranges equal when they overlap: that makes
 * tfind() a range lookup and lets tsearch() refuse an overlapping insert.
 * A rwlock lets lookups (every memcpy) run in parallel. */
#define _GNU_SOURCE
#include "internal.h"
#include "managed.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

struct rec {
  uintptr_t key[2]; /* [0]: base; [1]: the other side's address, 0 if none */
  size_t len;       /* bytes, at least 1 so that every range is non-empty */
  struct ah_alloc a;
};

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static void *by_base;  /* tree of struct rec, by key[0] */
static void *by_other; /* tree of struct rec, by key[1] */

static int overlap_cmp(uintptr_t a, size_t alen, uintptr_t b, size_t blen) {
  if (a + alen <= b)
    return -1;
  if (b + blen <= a)
    return 1;
  return 0;
}

static int cmp_base(const void *x, const void *y) {
  const struct rec *a = x, *b = y;

  return overlap_cmp(a->key[0], a->len, b->key[0], b->len);
}

static int cmp_other(const void *x, const void *y) {
  const struct rec *a = x, *b = y;

  return overlap_cmp(a->key[1], a->len, b->key[1], b->len);
}

/* Inserts a copy of *a. Returns hipErrorHostMemoryAlreadyRegistered when the
 * range overlaps one already in the map (hipHostRegister reports exactly
 * that; other callers treat it as a failed allocation). */
/* Buffer ids: never 0, wrapping after 4 billion allocations. */
static atomic_uint next_id;

hipError_t ah_alloc_insert(const struct ah_alloc *a) {
  struct rec *r = calloc(1, sizeof(*r));
  uintptr_t other;
  void **node;
  hipError_t err = hipSuccess;

  if (r == NULL)
    return hipErrorOutOfMemory;
  r->a = *a;
  r->a.id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed) + 1;
  r->len = a->bytes ? a->bytes : 1;
  r->key[0] = a->base;
  other = (uintptr_t)a->device_ptr;
  if (other == a->base)
    other = (uintptr_t)a->host_ptr;
  r->key[1] = other != a->base ? other : 0;

  pthread_rwlock_wrlock(&lock);
  node = tsearch(r, &by_base, cmp_base);
  if (node == NULL || *node != r) {
    err = node == NULL ? hipErrorOutOfMemory : hipErrorHostMemoryAlreadyRegistered;
    goto fail;
  }
  if (r->key[1] != 0) {
    node = tsearch(r, &by_other, cmp_other);
    if (node == NULL || *node != r) {
      err = node == NULL ? hipErrorOutOfMemory : hipErrorHostMemoryAlreadyRegistered;
      tdelete(r, &by_base, cmp_base);
      goto fail;
    }
  }
  pthread_rwlock_unlock(&lock);
  return hipSuccess;
fail:
  pthread_rwlock_unlock(&lock);
  free(r);
  return err;
}

/* Returns the record holding addr, or NULL. Called with the lock held. */
static struct rec *lookup(uintptr_t addr) {
  struct rec key = {.key = {addr, addr}, .len = 1};
  void **node;

  if (addr == 0)
    return NULL;
  node = tfind(&key, &by_base, cmp_base);
  if (node == NULL)
    node = tfind(&key, &by_other, cmp_other);
  return node != NULL ? *node : NULL;
}

int ah_alloc_find(const void *addr, struct ah_alloc *out) {
  struct rec *r;

  pthread_rwlock_rdlock(&lock);
  r = lookup((uintptr_t)addr);
  if (r != NULL && out != NULL)
    *out = r->a;
  pthread_rwlock_unlock(&lock);
  return r != NULL;
}

int ah_alloc_set_sync_memops(const void *addr, int on) {
  struct rec *r;

  pthread_rwlock_wrlock(&lock);
  r = lookup((uintptr_t)addr);
  if (r != NULL)
    r->a.sync_memops = on;
  pthread_rwlock_unlock(&lock);
  return r != NULL;
}

static void unlink_rec(struct rec *r) {
  tdelete(r, &by_base, cmp_base);
  if (r->key[1] != 0)
    tdelete(r, &by_other, cmp_other);
}

int ah_alloc_remove(const void *base, enum ah_mem_kind kind, struct ah_alloc *out) {
  struct rec key = {.key = {(uintptr_t)base, 0}, .len = 1};
  struct rec *r = NULL;
  void **node;

  if (base == NULL)
    return 0;
  pthread_rwlock_wrlock(&lock);
  node = tfind(&key, &by_base, cmp_base);
  if (node != NULL) {
    r = *node;
    /* Only the exact start frees; an interior pointer is not an allocation. */
    if (r->a.base != (uintptr_t)base || (kind != 0 && r->a.kind != kind))
      r = NULL;
    else
      unlink_rec(r);
  }
  pthread_rwlock_unlock(&lock);
  if (r == NULL)
    return 0;
  if (r->a.kind == AH_MEM_MANAGED) /* advice dies with its memory */
    ah_managed_forget(r->a.base, r->a.bytes);
  if (out != NULL)
    *out = r->a;
  free(r);
  return 1;
}

/* twalk() has no user argument; the collector below is only touched with
 * the write lock held. */
static struct {
  struct ah_device *dev;
  struct rec **list;
  size_t n, cap;
  int failed;
} walk;

static void collect(const void *nodep, VISIT which, int depth) {
  struct rec *r = *(struct rec *const *)nodep;

  if ((which != postorder && which != leaf) || r->a.dev != walk.dev)
    return;
  /* hipMemMap ranges and opened IPC handles end with hipMemUnmap and
   * hipIpcCloseMemHandle, not with a reset (src/api/hip_vmm.c, core/ipc_mem.c). */
  if (r->a.origin != AH_ORIGIN_ALLOC)
    return;
  if (walk.n == walk.cap) {
    size_t cap = walk.cap ? walk.cap * 2 : 64;
    struct rec **l = realloc(walk.list, cap * sizeof(*l));

    if (l == NULL) {
      walk.failed = 1;
      return;
    }
    walk.list = l;
    walk.cap = cap;
  }
  walk.list[walk.n++] = r;
}

/* The default release of an allocation through its device's backend. */
static void release(const struct ah_alloc *a) {
  const struct ah_backend *b = a->dev->backend;

  if (a->kind == AH_MEM_REGISTERED) {
    if (b->host_unregister != NULL)
      b->host_unregister(a->dev, (void *)a->base);
  } else {
    (void)ah_device_mem_free(a->dev, (void *)a->base, a->bytes, a->kind);
  }
}

/* Removes every allocation of dev and releases each with free_fn, called
 * without the map's lock. free_fn NULL means "give it back to dev's backend"
 * (mem_free, or host_unregister for registered memory): what hipDeviceReset
 * wants, after it has synchronized the device. */
void ah_alloc_remove_device(struct ah_device *dev, void (*free_fn)(const struct ah_alloc *)) {
  struct rec **list;
  size_t n;
  int again;

  do {
    pthread_rwlock_wrlock(&lock);
    walk.dev = dev;
    walk.n = 0;
    walk.failed = 0;
    twalk(by_base, collect);
    for (size_t i = 0; i < walk.n; i++)
      unlink_rec(walk.list[i]);
    list = walk.list;
    n = walk.n;
    walk.list = NULL;
    walk.cap = walk.n = 0;
    /* Out of memory while collecting: release what we have and walk again. */
    again = walk.failed && n > 0;
    pthread_rwlock_unlock(&lock);

    for (size_t i = 0; i < n; i++) {
      if (list[i]->a.kind == AH_MEM_MANAGED)
        ah_managed_forget(list[i]->a.base, list[i]->a.bytes);
      (free_fn != NULL ? free_fn : release)(&list[i]->a);
      free(list[i]);
    }
    free(list);
  } while (again);
}

/* ---- __managed__ variables ------------------------------------------------- */

struct var_note {
  const void *var;
  size_t size;
  struct var_note *next;
};
static pthread_mutex_t vars_lock = PTHREAD_MUTEX_INITIALIZER;
static struct var_note *vars; /* noted before the devices were open */
static int vars_published;

static void publish_one(const void *var, size_t size) {
  struct ah_device *dev = ah_device_get(0);
  struct ah_alloc a = {0};

  if (dev == NULL || !dev->backend->host_addressable || size == 0)
    return;
  a.base = (uintptr_t)var;
  a.bytes = size;
  a.dev = dev;
  a.kind = AH_MEM_MANAGED;
  a.device_ptr = (void *)var;
  a.host_ptr = (void *)var;
  a.origin = AH_ORIGIN_VARIABLE;
  (void)ah_alloc_insert(&a); /* out of memory: the variable stays plain memory */
}

void ah_alloc_note_variable(const void *var, size_t size) {
  struct var_note *n;

  pthread_mutex_lock(&vars_lock);
  if (vars_published) {
    pthread_mutex_unlock(&vars_lock);
    publish_one(var, size); /* a library loaded later */
    return;
  }
  n = malloc(sizeof(*n));
  if (n != NULL) {
    n->var = var;
    n->size = size;
    n->next = vars;
    vars = n;
  }
  pthread_mutex_unlock(&vars_lock);
}

void ah_alloc_publish_variables(void) {
  struct var_note *n;

  pthread_mutex_lock(&vars_lock);
  n = vars;
  vars = NULL;
  vars_published = 1;
  pthread_mutex_unlock(&vars_lock);
  while (n != NULL) {
    struct var_note *next = n->next;

    publish_one(n->var, n->size);
    free(n);
    n = next;
  }
}
