/* SPDX-License-Identifier: MIT */
/* The stream-ordered allocator (hipMallocAsync, hipFreeAsync, memory pools),
 * built on the backend's mem_alloc/mem_free and on host functions queued on
 * streams, so it works the same on every backend. A pool is a list of
 * blocks, each one backend allocation; a block is free, in use, or pending
 * (freed by hipFreeAsync, the stream not yet there). A pending block may be
 * handed out again at once for work on the stream that freed it (stream
 * order makes that safe); a block whose free has run may be handed out to
 * any stream. Memory goes back to the device at hipMemPoolTrimTo and, above
 * the pool's release threshold, at the next stream, event or device sync.
 *
 * A pool made with hipMemHandleTypePosixFileDescriptor can be shared with
 * other processes: on a device whose memory is host memory its blocks are
 * extents of one memfd (pool_file below); on a device with the pool_* ops
 * (NVIDIA's) they come from a pool of the device's own (dpool), which the
 * backend exports.
 *
 * Locks: pools_lock -> pool->lock -> the allocation map's lock. Backend
 * calls are made with none of them held; the host function queued by
 * hipFreeAsync only takes pool->lock and never calls the backend (on the
 * NVIDIA device it may run inside the driver's callback). */
#define _GNU_SOURCE /* memfd_create, fallocate */
#include "mempool.h"
#include "device_ops.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Blocks are whole multiples of this: HIP's allocation alignment. */
#define GRAIN ((size_t)256)
/* collect()'s `keep` meaning "the pool's release threshold". */
#define KEEP_THRESHOLD UINT64_MAX

enum bstate {
  B_FREE,    /* the free has run: reusable */
  B_USED,    /* handed out, in the allocation map */
  B_PENDING, /* hipFreeAsync queued on free_q, not run yet */
  B_DEAD,    /* memory already released (hipDeviceReset); waits for its free ops */
};

/* A shareable pool's memory (made with hipMemHandleTypePosixFileDescriptor
 * on a device whose memory is host memory, the CPU's): one memfd, each block
 * a page-aligned extent of it mapped shared (with a PROT_NONE guard page
 * after it, as cpu_mem.c's blocks), so another process that holds the file
 * maps any block by its offset. It lives while its pool or a block does;
 * a released block's extent is punched out of the file. */
struct pool_file {
  int fd;
  uint64_t end; /* the file's size: where the next block goes (the pool's lock) */
  uint64_t ino, devno;
  atomic_int refs;
};

/* What hipMemPoolExportPointer writes into hipMemPoolPtrExportData. */
struct ptr_export {
  uint32_t magic;
  uint32_t pad;
  uint64_t ino, devno; /* the pool's file */
  uint64_t off, len;   /* the block's extent in it */
  uint64_t delta;      /* the allocation's start in the block */
  uint64_t size;       /* the allocation's bytes */
  uint64_t inner;      /* the exported pointer's distance from the allocation's start */
};
#define PTR_MAGIC 0x50504841u /* "AHPP" */
_Static_assert(sizeof(struct ptr_export) <= sizeof(hipMemPoolPtrExportData),
               "hipMemPoolPtrExportData holds 64 bytes");

struct block {
  struct ah_mempool *pool;
  struct pool_file *file; /* a shareable pool's block: [off, off + maplen - page) of it */
  uint64_t off;
  size_t maplen; /* the mapping, guard page included */
  int imported;  /* hipMemPoolImportPointer's: mapped here, the memory is the exporter's */
  int from_dpool; /* memory of the pool's dpool: pool_free gives it back */
  struct ah_device *dev; /* where ptr lives (the pool's device) */
  void *ptr;
  size_t bytes; /* what the backend allocated */
  enum bstate state;
  struct ah_device *free_dev; /* PENDING: the free's stream; FREE: where it ran, NULL for hipFree */
  struct ah_queue *free_q;
  uint64_t free_seq; /* the free's number (free_seq below): for event dependencies */
  uint64_t gen; /* bumped at each hand-out: a free op of an older use does nothing */
  int ops;      /* queued free ops that point at this block: it lives until they ran */
  struct block *next;
};

struct ah_mempool {
  struct ah_object obj;
  struct ah_device *dev;
  hipMemPoolProps props;
  int is_default;
  int imported; /* hipMemPoolImportFromShareableHandle's: no allocations of its own */
  struct pool_file *file; /* a shareable pool's memory, else NULL */
  int has_dpool;  /* a shareable pool of the device's own (the pool_* ops) */
  uint64_t dpool; /* its backend handle */
  int destroyed; /* handle gone; the struct lives until its last block is released */
  pthread_mutex_t lock; /* everything below */
  struct block *blocks;
  uint64_t threshold;
  uint64_t reserved, reserved_high, used, used_high;
  int follow_events, opportunistic, internal_deps;
  hipMemAccessFlags *access; /* per device ordinal */
  struct ah_mempool *next;   /* in `pools`, under pools_lock */
};

struct free_op {
  struct block *b;
  uint64_t gen;
};

static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ah_mempool *pools;                /* every pool, destroyed ones until reaped */
static struct ah_mempool **defaults, **currents; /* per device ordinal */
static int ndev;
/* Blocks a trim took out of their pools, their memory not yet given back
 * (pools_lock): freeing device memory waits for the whole device on NVIDIA
 * (cuMemFree), which must not happen while the caller may hold a stream. */
static struct block *trimmed;
static atomic_int any_pool; /* lets every sync skip pools_lock until a pool exists */

/* ---- shareable pools' memory ---------------------------------------------- */

static size_t page_size(void) {
  long ps = sysconf(_SC_PAGESIZE);

  return ps > 0 ? (size_t)ps : 4096;
}

/* Takes over fd (a memfd, or one another process exported). */
static struct pool_file *file_adopt(int fd) {
  struct pool_file *f;
  struct stat st;

  if (fd < 0 || fstat(fd, &st) != 0 || (f = calloc(1, sizeof(*f))) == NULL) {
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  f->fd = fd;
  f->end = (uint64_t)st.st_size;
  f->ino = (uint64_t)st.st_ino;
  f->devno = (uint64_t)st.st_dev;
  atomic_init(&f->refs, 1);
  return f;
}

static void file_unref(struct pool_file *f) {
  if (f != NULL && atomic_fetch_sub(&f->refs, 1) == 1) {
    close(f->fd);
    free(f);
  }
}

/* Maps [off, off + body) of f shared, followed by a PROT_NONE guard page;
 * returns the mapping's start, NULL when out of memory. */
static void *file_map(struct pool_file *f, uint64_t off, size_t body) {
  char *p = mmap(NULL, body + page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (p == MAP_FAILED)
    return NULL;
  if (mmap(p, body, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, f->fd, (off_t)off) ==
      MAP_FAILED) {
    munmap(p, body + page_size());
    return NULL;
  }
  return p;
}

/* A new block of pool p's file: its extent, mapped. Zero-filled, as every
 * CPU device block (the file's holes read as zero). */
static hipError_t file_grow(struct ah_mempool *p, struct block *b, size_t need) {
  size_t page = page_size(), body;
  uint64_t off;
  int ok;

  if (need > SIZE_MAX - 2 * page)
    return hipErrorOutOfMemory;
  body = (need + page - 1) / page * page;
  pthread_mutex_lock(&p->lock);
  off = p->file->end;
  ok = ftruncate(p->file->fd, (off_t)(off + body)) == 0;
  if (ok)
    p->file->end = off + body;
  pthread_mutex_unlock(&p->lock);
  if (!ok || (b->ptr = file_map(p->file, off, body)) == NULL)
    return hipErrorOutOfMemory; /* an extent left unused at the end: a hole */
  atomic_fetch_add(&p->file->refs, 1);
  b->file = p->file;
  b->off = off;
  b->maplen = body + page;
  return hipSuccess;
}

/* Unmaps a file block and gives its pages back (the exporter's blocks). */
static void file_release(struct block *b) {
  if (b->ptr != NULL) {
    munmap(b->ptr, b->maplen);
    if (!b->imported) {
      (void)fallocate(b->file->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)b->off,
                      (off_t)(b->maplen - page_size()));
      if (b->dev->props.totalGlobalMem != 0)
        atomic_fetch_sub(&b->dev->mem_used, b->bytes);
    }
  }
  file_unref(b->file);
}

/* ---- pools ---------------------------------------------------------------- */

/* pools_lock held. */
static int tables(void) {
  if (defaults != NULL)
    return 1;
  ndev = ah_device_count();
  defaults = calloc((size_t)ndev + 1, sizeof(*defaults));
  currents = calloc((size_t)ndev + 1, sizeof(*currents));
  if (defaults == NULL || currents == NULL) {
    free(defaults);
    free(currents);
    defaults = currents = NULL;
    return 0;
  }
  return 1;
}

static void reset_attrs(struct ah_mempool *p) {
  p->threshold = 0;
  p->follow_events = p->opportunistic = p->internal_deps = 1; /* HIP's defaults */
  for (int i = 0; i < ndev; i++)
    p->access[i] =
        i == p->dev->ordinal ? hipMemAccessFlagsProtReadWrite : hipMemAccessFlagsProtNone;
}

/* pools_lock held. */
static hipError_t new_pool(struct ah_device *dev, const hipMemPoolProps *props, int is_default,
                           struct ah_mempool **out) {
  struct ah_mempool *p = calloc(1, sizeof(*p));
  hipError_t err;

  if (p == NULL || !tables())
    goto oom;
  p->access = calloc((size_t)ndev + 1, sizeof(*p->access));
  if (p->access == NULL)
    goto oom;
  if (!is_default && (props->handleTypes & hipMemHandleTypePosixFileDescriptor) &&
      dev->backend->host_addressable &&
      (p->file = file_adopt(memfd_create("anyhip-pool", MFD_CLOEXEC))) == NULL)
    goto oom;
  p->dev = dev;
  p->props = *props;
  p->is_default = is_default;
  pthread_mutex_init(&p->lock, NULL);
  reset_attrs(p);
  err = ah_object_init(&p->obj, AH_KIND_MEMPOOL);
  if (err != hipSuccess) {
    pthread_mutex_destroy(&p->lock);
    file_unref(p->file);
    free(p->access);
    free(p);
    return err;
  }
  p->next = pools;
  pools = p;
  atomic_store(&any_pool, 1);
  *out = p;
  return hipSuccess;
oom:
  if (p != NULL)
    free(p->access);
  free(p);
  return hipErrorOutOfMemory;
}

/* pools_lock held. */
static hipError_t default_of(struct ah_device *dev, struct ah_mempool **out) {
  hipMemPoolProps props;
  hipError_t err;

  if (!tables())
    return hipErrorOutOfMemory;
  if (defaults[dev->ordinal] == NULL) {
    memset(&props, 0, sizeof(props));
    props.allocType = hipMemAllocationTypePinned;
    props.location.type = hipMemLocationTypeDevice;
    props.location.id = dev->ordinal;
    err = new_pool(dev, &props, 1, &defaults[dev->ordinal]);
    if (err != hipSuccess)
      return err;
  }
  if (currents[dev->ordinal] == NULL)
    currents[dev->ordinal] = defaults[dev->ordinal];
  *out = defaults[dev->ordinal];
  return hipSuccess;
}

hipError_t ah_mempool_default(struct ah_device *dev, struct ah_mempool **out) {
  hipError_t err;

  pthread_mutex_lock(&pools_lock);
  err = default_of(dev, out);
  pthread_mutex_unlock(&pools_lock);
  return err;
}

hipError_t ah_mempool_current(struct ah_device *dev, struct ah_mempool **out) {
  struct ah_mempool *d;
  hipError_t err;

  pthread_mutex_lock(&pools_lock);
  err = default_of(dev, &d);
  if (err == hipSuccess)
    *out = currents[dev->ordinal];
  pthread_mutex_unlock(&pools_lock);
  return err;
}

void ah_mempool_set_current(struct ah_device *dev, struct ah_mempool *pool) {
  struct ah_mempool *d;

  pthread_mutex_lock(&pools_lock);
  if (default_of(dev, &d) == hipSuccess)
    currents[dev->ordinal] = pool;
  pthread_mutex_unlock(&pools_lock);
}

struct ah_mempool *ah_mempool_lookup(hipMemPool_t h) {
  return ah_object_cast(h, AH_KIND_MEMPOOL);
}

struct ah_device *ah_mempool_device(const struct ah_mempool *pool) {
  return pool->dev;
}

int ah_mempool_is_default(const struct ah_mempool *pool) {
  return pool->is_default;
}

/* Whether a shareable pool of dev is one of the device's own. */
static int wants_dpool(struct ah_device *dev, const hipMemPoolProps *props) {
  return (props->handleTypes & hipMemHandleTypePosixFileDescriptor) &&
         !dev->backend->host_addressable && dev->backend->pool_create != NULL;
}

hipError_t ah_mempool_create(struct ah_device *dev, const hipMemPoolProps *props,
                             struct ah_mempool **out) {
  uint64_t dpool = 0;
  int dp = wants_dpool(dev, props);
  hipError_t err;

  /* A device that cannot make one (a driver without cuMemPool*, a GPU
   * without POSIX descriptors) still gets the pool, one that cannot be
   * exported (hipErrorNotSupported then), as before such pools existed. */
  if (dp && dev->backend->pool_create(dev, &dpool) != hipSuccess) {
    AH_LOG(API, "device %d: no shareable pool of its own; the pool cannot be exported",
           dev->ordinal);
    dp = 0;
  }
  pthread_mutex_lock(&pools_lock);
  err = new_pool(dev, props, 0, out);
  if (err == hipSuccess && dp) {
    (*out)->has_dpool = 1;
    (*out)->dpool = dpool;
  }
  pthread_mutex_unlock(&pools_lock);
  if (err != hipSuccess && dp)
    (void)dev->backend->pool_destroy(dev, dpool);
  return err;
}

/* ---- giving memory back --------------------------------------------------- */

/* Unlinks releasable blocks of p until it holds at most `keep` bytes (the
 * pool's own threshold for KEEP_THRESHOLD), and
 * every dead block whose free ops have run; pushes them on *rel.
 * pools_lock (or nothing else) held; takes p->lock. */
static void collect(struct ah_mempool *p, uint64_t keep, struct block **rel) {
  pthread_mutex_lock(&p->lock);
  if (keep == KEEP_THRESHOLD)
    keep = p->destroyed ? 0 : p->threshold;
  for (struct block **pb = &p->blocks; *pb != NULL;) {
    struct block *b = *pb;
    int dead = b->state == B_DEAD && b->ops == 0;
    int spare = b->state == B_FREE && b->ops == 0 && p->reserved > keep;

    if (!dead && !spare) {
      pb = &b->next;
      continue;
    }
    *pb = b->next;
    if (spare)
      p->reserved -= b->bytes;
    else
      b->ptr = NULL; /* its memory went at hipDeviceReset */
    b->next = *rel;
    *rel = b;
  }
  pthread_mutex_unlock(&p->lock);
}

/* Frees destroyed pools that hold nothing any more; a pool of the device's
 * own goes on *dead, for finish() once pools_lock is released. pools_lock
 * held. */
static void reap(struct ah_mempool **dead) {
  for (struct ah_mempool **pp = &pools; *pp != NULL;) {
    struct ah_mempool *p = *pp;
    int empty;

    pthread_mutex_lock(&p->lock);
    empty = p->blocks == NULL;
    pthread_mutex_unlock(&p->lock);
    if (!p->destroyed || !empty) {
      pp = &p->next;
      continue;
    }
    *pp = p->next;
    pthread_mutex_destroy(&p->lock);
    file_unref(p->file);
    free(p->access);
    if (p->has_dpool) {
      p->next = *dead;
      *dead = p;
    } else {
      free(p);
    }
  }
}

/* Destroys the device pools of what reap() put on dead. No lock held. */
static void finish(struct ah_mempool *dead) {
  while (dead != NULL) {
    struct ah_mempool *p = dead;

    dead = p->next;
    (void)p->dev->backend->pool_destroy(p->dev, p->dpool);
    free(p);
  }
}

/* Gives the blocks' memory back to their devices. No lock held. */
static void release(struct block *rel) {
  while (rel != NULL) {
    struct block *b = rel;

    rel = b->next;
    if (b->file != NULL) {
      file_release(b);
    } else if (b->from_dpool) {
      if (b->ptr != NULL) {
        (void)b->dev->backend->pool_free(b->dev, b->ptr);
        if (!b->imported && b->dev->props.totalGlobalMem != 0)
          atomic_fetch_sub(&b->dev->mem_used, b->bytes);
      }
    } else if (b->ptr != NULL)
      (void)ah_device_mem_free(b->dev, b->ptr, b->bytes, AH_MEM_DEVICE);
    free(b);
  }
}

void ah_mempool_trim(struct ah_mempool *pool, uint64_t keep) {
  struct block *rel = NULL;

  if (keep == KEEP_THRESHOLD)
    return; /* a pool never holds that much */
  pthread_mutex_lock(&pools_lock);
  collect(pool, keep, &rel);
  while (rel != NULL) { /* given back at the next synchronization */
    struct block *b = rel;

    rel = b->next;
    b->next = trimmed;
    trimmed = b;
  }
  pthread_mutex_unlock(&pools_lock);
}

/* CUDA's rule, which HIP documents: a pool holding more than its release
 * threshold gives the excess back at the next synchronization. Every pool is
 * looked at (a free queued on one device may be for another's pool). */
void ah_mempool_sync(struct ah_device *dev) {
  struct ah_mempool *dead = NULL;
  struct block *rel = NULL;

  (void)dev;
  if (!atomic_load_explicit(&any_pool, memory_order_relaxed))
    return;
  pthread_mutex_lock(&pools_lock);
  for (struct ah_mempool *p = pools; p != NULL; p = p->next)
    collect(p, KEEP_THRESHOLD, &rel);
  while (trimmed != NULL) {
    struct block *b = trimmed;

    trimmed = b->next;
    b->next = rel;
    rel = b;
  }
  reap(&dead);
  pthread_mutex_unlock(&pools_lock);
  release(rel);
  finish(dead);
}

void ah_mempool_destroy(struct ah_mempool *pool) {
  struct ah_mempool *dead = NULL;
  struct block *rel = NULL;

  pthread_mutex_lock(&pools_lock);
  for (int i = 0; currents != NULL && i < ndev; i++)
    if (currents[i] == pool)
      currents[i] = defaults[i];
  ah_object_fini(&pool->obj);
  pool->destroyed = 1;
  collect(pool, 0, &rel);
  reap(&dead); /* frees pool itself when nothing is outstanding */
  pthread_mutex_unlock(&pools_lock);
  release(rel);
  finish(dead);
}

/* hipDeviceReset, after the device sync: every block of dev's pools goes
 * (in-use ones leave the allocation map), user pools are destroyed, the
 * default pool is empty again with HIP's default attributes. A block still
 * named by a free op queued on another device's stream stays, dead, until
 * that op has run. */
void ah_mempool_reset_device(struct ah_device *dev) {
  struct ah_mempool *dead = NULL;
  struct block *rel = NULL;

  if (!atomic_load(&any_pool))
    return;
  pthread_mutex_lock(&pools_lock);
  for (struct ah_mempool *p = pools; p != NULL; p = p->next) {
    if (p->dev != dev)
      continue;
    pthread_mutex_lock(&p->lock);
    for (struct block **pb = &p->blocks; *pb != NULL;) {
      struct block *b = *pb;

      if (b->state == B_USED)
        (void)ah_alloc_remove(b->ptr, AH_MEM_DEVICE, NULL);
      if (b->ops == 0) {
        *pb = b->next;
        if (b->state == B_DEAD)
          b->ptr = NULL;
        b->next = rel;
        rel = b;
        continue;
      }
      if (b->state != B_DEAD) {
        /* Release the memory now, keep the struct for the pending op. */
        struct block *m = malloc(sizeof(*m));

        if (m != NULL) {
          *m = *b;
          m->next = rel;
          rel = m;
          b->file = NULL; /* m's now */
        }
        b->state = B_DEAD;
        b->gen++;
      }
      pb = &b->next;
    }
    p->reserved = p->reserved_high = p->used = p->used_high = 0;
    if (p->is_default)
      reset_attrs(p);
    pthread_mutex_unlock(&p->lock);
    if (!p->is_default && !p->destroyed) {
      ah_object_fini(&p->obj);
      p->destroyed = 1;
    }
  }
  for (struct block **pb = &trimmed; *pb != NULL;) { /* the reset waited for the device */
    struct block *b = *pb;

    if (b->dev != dev) {
      pb = &b->next;
      continue;
    }
    *pb = b->next;
    b->next = rel;
    rel = b;
  }
  if (currents != NULL && dev->ordinal < ndev)
    currents[dev->ordinal] = defaults[dev->ordinal];
  reap(&dead);
  pthread_mutex_unlock(&pools_lock);
  release(rel);
  finish(dead);
}

/* ---- event dependencies ----------------------------------------------------- */

/* hipMemPoolReuseFollowEventDependencies: a block freed on queue A and not
 * yet reached there may go to queue B when B already waits for that free:
 * B waited on an event recorded on A after the free. Every hipFreeAsync gets
 * a number from one process-wide counter; each queue remembers the number of
 * its last free, and for the queues it waited on, the last free number it is
 * ordered after. Numbers only grow, so a queue address reused by a new stream
 * never inherits an old order. A queue keeps at most DEP_MAX such entries
 * (the oldest goes: only a reuse is lost). */
#define DEP_MAX 16

struct dep {
  struct ah_queue *q;
  uint64_t upto;
};

struct qdeps {
  struct ah_queue *q;
  uint64_t last_free; /* the number of the last free queued on q */
  int n;
  struct dep d[DEP_MAX];
  struct qdeps *next;
};

static pthread_mutex_t deps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct qdeps *qdeps;
static uint64_t free_seq;

/* deps_lock held; NULL when out of memory (nothing is then known). */
static struct qdeps *qdeps_of(struct ah_queue *q, int make) {
  struct qdeps *d;

  for (d = qdeps; d != NULL; d = d->next)
    if (d->q == q)
      return d;
  if (!make || (d = calloc(1, sizeof(*d))) == NULL)
    return NULL;
  d->q = q;
  d->next = qdeps;
  qdeps = d;
  return d;
}

/* deps_lock held. */
static void dep_raise(struct qdeps *d, struct ah_queue *q, uint64_t upto) {
  int i;

  if (upto == 0 || q == d->q)
    return;
  for (i = 0; i < d->n; i++)
    if (d->d[i].q == q) {
      if (d->d[i].upto < upto)
        d->d[i].upto = upto;
      return;
    }
  if (d->n == DEP_MAX) { /* the oldest goes */
    memmove(&d->d[0], &d->d[1], (DEP_MAX - 1) * sizeof(d->d[0]));
    d->n--;
  }
  d->d[d->n++] = (struct dep){q, upto};
}

/* A number for a free queued on q. */
static uint64_t note_free(struct ah_queue *q) {
  struct qdeps *d;
  uint64_t n;

  pthread_mutex_lock(&deps_lock);
  n = ++free_seq;
  d = qdeps_of(q, 1);
  if (d != NULL)
    d->last_free = n;
  pthread_mutex_unlock(&deps_lock);
  return n;
}

/* Whether queue q is ordered after free number `seq` queued on free_q. */
static int ordered_after(struct ah_queue *q, struct ah_queue *free_q, uint64_t seq) {
  struct qdeps *d;
  int yes = 0;

  pthread_mutex_lock(&deps_lock);
  d = qdeps_of(q, 0);
  for (int i = 0; d != NULL && i < d->n && !yes; i++)
    yes = d->d[i].q == free_q && d->d[i].upto >= seq;
  pthread_mutex_unlock(&deps_lock);
  return yes;
}

void ah_mempool_note_record(struct ah_event *e, struct ah_queue *q) {
  struct qdeps *d;

  if (!atomic_load_explicit(&any_pool, memory_order_relaxed)) {
    atomic_store_explicit(&e->pool_q, NULL, memory_order_relaxed);
    return;
  }
  pthread_mutex_lock(&deps_lock);
  d = qdeps_of(q, 0);
  atomic_store_explicit(&e->pool_q, q, memory_order_relaxed);
  e->pool_seq = d != NULL ? d->last_free : 0;
  pthread_mutex_unlock(&deps_lock);
}

void ah_mempool_note_wait(struct ah_queue *q, const struct ah_event *e) {
  struct qdeps *d, *src;
  struct ah_queue *eq;

  if (atomic_load_explicit(&e->pool_q, memory_order_relaxed) == NULL ||
      !atomic_load_explicit(&any_pool, memory_order_relaxed))
    return;
  pthread_mutex_lock(&deps_lock);
  eq = atomic_load_explicit(&e->pool_q, memory_order_relaxed);
  src = eq != NULL ? qdeps_of(eq, 0) : NULL;
  d = qdeps_of(q, 1);
  if (d != NULL && eq != NULL) {
    dep_raise(d, eq, e->pool_seq);
    /* What the recording queue was ordered after (as of now: a wait it
     * queued after the record only ever adds order). */
    for (int i = 0; src != NULL && i < src->n; i++)
      dep_raise(d, src->d[i].q, src->d[i].upto);
  }
  pthread_mutex_unlock(&deps_lock);
}

/* ---- allocation ----------------------------------------------------------- */

static void count_use(struct ah_mempool *p, size_t bytes) {
  p->used += bytes;
  if (p->used > p->used_high)
    p->used_high = p->used;
}

/* The smallest block that fits `need` (and is not more than twice too big)
 * among those this stream may take. p->lock held. */
static struct block *pick(struct ah_mempool *p, size_t need, struct ah_device *dev,
                          struct ah_queue *q) {
  struct block *best = NULL;

  for (struct block *b = p->blocks; b != NULL; b = b->next) {
    int same_stream = b->free_dev == dev && b->free_q == q;
    int ok;

    if (b->bytes < need || b->bytes - need > need)
      continue;
    /* Stream order puts the new use after the free: the same stream, or
     * (FollowEventDependencies) one that waited for the free. */
    if (!same_stream && b->free_q != NULL && b->free_seq != 0 && b->free_dev == dev &&
        p->follow_events && (b->state == B_PENDING || b->state == B_FREE))
      same_stream = ordered_after(q, b->free_q, b->free_seq);
    if (b->state == B_PENDING)
      ok = same_stream;
    else if (b->state == B_FREE)
      ok = p->opportunistic || same_stream || b->free_q == NULL;
    else
      ok = 0;
    if (ok && (best == NULL || b->bytes < best->bytes))
      best = b;
  }
  return best;
}

/* New memory from the pool's device for a block of `need` bytes. */
/* Whether `need` more bytes keep p within its maxSize; takes p->lock. */
static int fits_max(struct ah_mempool *p, size_t need) {
  int ok;

  pthread_mutex_lock(&p->lock);
  ok = need <= p->props.maxSize && p->reserved <= p->props.maxSize - need;
  pthread_mutex_unlock(&p->lock);
  return ok;
}

/* New memory for block b: from the device, the pool's file or the device's
 * own pool. */
static hipError_t file_alloc(struct ah_mempool *p, struct block *b, size_t need, void **ptr) {
  struct ah_device *dev = p->dev;
  size_t total = dev->props.totalGlobalMem, used = atomic_load(&dev->mem_used);
  hipError_t err;

  if (p->file == NULL && !p->has_dpool)
    return ah_device_mem_alloc(dev, need, AH_MEM_DEVICE, 0, ptr);
  if (total != 0) { /* counted against the device's size, as hipMalloc */
    do {
      if (need > total - used)
        return hipErrorOutOfMemory;
    } while (!atomic_compare_exchange_weak(&dev->mem_used, &used, used + need));
  }
  if (p->has_dpool) {
    err = dev->backend->pool_alloc(dev, p->dpool, need, &b->ptr);
    b->from_dpool = err == hipSuccess;
  } else {
    err = file_grow(p, b, need);
  }
  if (err != hipSuccess && total != 0)
    atomic_fetch_sub(&dev->mem_used, need);
  *ptr = b->ptr;
  return err;
}

static hipError_t grow(struct ah_mempool *p, size_t need, struct block **out) {
  struct ah_device *dev = p->dev;
  struct block *b = calloc(1, sizeof(*b));
  void *ptr = NULL;
  hipError_t err;

  if (b == NULL)
    return hipErrorOutOfMemory;
  /* A pool made with maxSize never holds more: memory it keeps unused goes back first. */
  if (p->props.maxSize != 0 && !fits_max(p, need)) {
    ah_mempool_trim(p, 0);
    if (!fits_max(p, need)) {
      free(b);
      return hipErrorOutOfMemory;
    }
  }
  err = file_alloc(p, b, need, &ptr);
  if (err == hipErrorOutOfMemory) {
    /* Memory the pool keeps but nobody uses is worth more as this block:
     * given back now (on NVIDIA this waits for the device), with what
     * earlier trims took out. */
    ah_mempool_trim(p, 0);
    ah_mempool_sync(dev);
    err = file_alloc(p, b, need, &ptr);
  }
  if (err != hipSuccess) {
    free(b);
    return err;
  }
  b->pool = p;
  b->dev = dev;
  b->ptr = ptr;
  b->bytes = need;
  b->state = B_USED;
  b->gen = 1;
  pthread_mutex_lock(&p->lock);
  b->next = p->blocks;
  p->blocks = b;
  p->reserved += need;
  if (p->reserved > p->reserved_high)
    p->reserved_high = p->reserved;
  count_use(p, need);
  pthread_mutex_unlock(&p->lock);
  *out = b;
  return hipSuccess;
}

hipError_t ah_mempool_alloc(struct ah_mempool *p, size_t bytes, struct ah_device *dev,
                            struct ah_queue *q, void **out) {
  struct ah_alloc a = {0};
  struct block *b, saved;
  size_t need;
  hipError_t err;

  if (bytes > SIZE_MAX - (GRAIN - 1))
    return hipErrorOutOfMemory;
  need = (bytes + GRAIN - 1) / GRAIN * GRAIN;
  if (p->dev->props.totalGlobalMem != 0 && need > p->dev->props.totalGlobalMem)
    return hipErrorOutOfMemory;
  pthread_mutex_lock(&p->lock);
  b = pick(p, need, dev, q);
  if (b != NULL) {
    saved = *b;
    count_use(p, b->bytes); /* used counts what the program holds: not pending frees */
    b->state = B_USED;
    b->gen++;
  }
  pthread_mutex_unlock(&p->lock);
  if (b == NULL) {
    err = grow(p, need, &b);
    if (err != hipSuccess)
      return err;
    saved = *b;
    saved.state = B_FREE;
  }
  a.base = (uintptr_t)b->ptr;
  a.bytes = bytes;
  a.dev = p->dev;
  a.kind = AH_MEM_DEVICE;
  a.device_ptr = b->ptr;
  a.pool_block = b;
  err = ah_alloc_insert(&a);
  if (err != hipSuccess) {
    pthread_mutex_lock(&p->lock);
    p->used -= b->bytes; /* counted above, or by grow() */
    b->state = saved.state;
    b->gen = saved.gen; /* a pending free op still matches */
    pthread_mutex_unlock(&p->lock);
    return hipErrorOutOfMemory;
  }
  *out = b->ptr;
  return hipSuccess;
}

/* ---- freeing -------------------------------------------------------------- */

/* Runs on the stream when it reaches the hipFreeAsync: only pool state. */
static void free_op_run(void *data) {
  struct free_op op = *(struct free_op *)data;
  struct ah_mempool *p = op.b->pool;

  free(data);
  pthread_mutex_lock(&p->lock);
  op.b->ops--;
  if (op.b->state == B_PENDING && op.b->gen == op.gen)
    op.b->state = B_FREE; /* no longer counted as used since hipFreeAsync */
  pthread_mutex_unlock(&p->lock);
}

hipError_t ah_mempool_free(void *ptr, struct ah_device *dev, struct ah_queue *q) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  uint64_t seq;
  struct free_op *op = NULL;
  struct ah_mempool *p;
  struct ah_alloc a;
  struct block *b;
  hipError_t err;

  if (!ah_alloc_find(ptr, &a) || a.base != (uintptr_t)ptr || a.pool_block == NULL)
    return hipErrorInvalidValue;
  if (q != NULL && (op = malloc(sizeof(*op))) == NULL)
    return hipErrorOutOfMemory;
  seq = q != NULL ? note_free(q) : 0; /* numbered before it is queued: a later record sees it */
  /* Whoever removes the map's record owns the free: a second free fails. */
  if (!ah_alloc_remove(ptr, AH_MEM_DEVICE, &a) || a.pool_block == NULL) {
    free(op);
    return hipErrorInvalidValue;
  }
  b = a.pool_block;
  p = b->pool;
  pthread_mutex_lock(&p->lock);
  b->free_dev = dev;
  b->free_q = q;
  b->free_seq = 0;
  if (q == NULL && b->imported) {
    /* An imported allocation is unmapped at once: the exporting process may
     * free it as soon as every importer did (CUDA's rule). */
    for (struct block **pb = &p->blocks; *pb != NULL; pb = &(*pb)->next)
      if (*pb == b) {
        *pb = b->next;
        break;
      }
    p->used -= b->bytes;
    p->reserved -= b->bytes;
    pthread_mutex_unlock(&p->lock);
    b->next = NULL;
    release(b);
    return hipSuccess;
  }
  if (q == NULL) {
    b->state = B_FREE;
    p->used -= b->bytes;
    pthread_mutex_unlock(&p->lock);
    return hipSuccess;
  }
  /* Used memory drops at the call, as on AMD's runtime: the program no
   * longer holds the block, though the stream may still be using it. */
  b->state = B_PENDING;
  p->used -= b->bytes;
  b->free_seq = seq;
  b->ops++;
  *op = (struct free_op){b, b->gen};
  pthread_mutex_unlock(&p->lock);
  cmd.host_fn.fn = free_op_run;
  cmd.host_fn.data = op;
  err = dev->backend->submit(dev, q, &cmd, 0);
  if (err != hipSuccess) {
    /* Not queued: wait for the stream instead, then free at once. */
    (void)ah_dev_queue_sync(dev, q);
    free_op_run(op);
  }
  return err;
}

/* ---- attributes and access ------------------------------------------------ */

hipError_t ah_mempool_set_attr(struct ah_mempool *p, hipMemPoolAttr attr, const void *value) {
  uint64_t v64;
  int v;

  pthread_mutex_lock(&p->lock);
  switch (attr) {
  case hipMemPoolReuseFollowEventDependencies:
  case hipMemPoolReuseAllowOpportunistic:
  case hipMemPoolReuseAllowInternalDependencies:
    memcpy(&v, value, sizeof(v));
    if (attr == hipMemPoolReuseFollowEventDependencies)
      p->follow_events = v != 0;
    else if (attr == hipMemPoolReuseAllowOpportunistic)
      p->opportunistic = v != 0;
    else
      p->internal_deps = v != 0;
    break;
  case hipMemPoolAttrReleaseThreshold:
    memcpy(&p->threshold, value, sizeof(p->threshold));
    break;
  case hipMemPoolAttrReservedMemHigh:
  case hipMemPoolAttrUsedMemHigh:
    /* The only value allowed is 0, which resets the mark to the current use. */
    memcpy(&v64, value, sizeof(v64));
    if (v64 != 0)
      goto invalid;
    if (attr == hipMemPoolAttrReservedMemHigh)
      p->reserved_high = p->reserved;
    else
      p->used_high = p->used;
    break;
  default: /* the current values are read only */
    goto invalid;
  }
  pthread_mutex_unlock(&p->lock);
  return hipSuccess;
invalid:
  pthread_mutex_unlock(&p->lock);
  return hipErrorInvalidValue;
}

hipError_t ah_mempool_get_attr(struct ah_mempool *p, hipMemPoolAttr attr, void *value) {
  uint64_t v64 = 0;
  int v = 0, is_int = 0;

  pthread_mutex_lock(&p->lock);
  switch (attr) {
  case hipMemPoolReuseFollowEventDependencies: v = p->follow_events, is_int = 1; break;
  case hipMemPoolReuseAllowOpportunistic: v = p->opportunistic, is_int = 1; break;
  case hipMemPoolReuseAllowInternalDependencies: v = p->internal_deps, is_int = 1; break;
  case hipMemPoolAttrReleaseThreshold: v64 = p->threshold; break;
  case hipMemPoolAttrReservedMemCurrent: v64 = p->reserved; break;
  case hipMemPoolAttrReservedMemHigh: v64 = p->reserved_high; break;
  case hipMemPoolAttrUsedMemCurrent: v64 = p->used; break;
  case hipMemPoolAttrUsedMemHigh: v64 = p->used_high; break;
  default:
    pthread_mutex_unlock(&p->lock);
    return hipErrorInvalidValue;
  }
  pthread_mutex_unlock(&p->lock);
  if (is_int)
    memcpy(value, &v, sizeof(v));
  else
    memcpy(value, &v64, sizeof(v64));
  return hipSuccess;
}

hipMemAccessFlags ah_mempool_get_access(struct ah_mempool *p, int ordinal) {
  hipMemAccessFlags f;

  pthread_mutex_lock(&p->lock);
  f = ordinal < ndev ? p->access[ordinal] : hipMemAccessFlagsProtNone;
  pthread_mutex_unlock(&p->lock);
  return f;
}

void ah_mempool_set_access(struct ah_mempool *p, int ordinal, hipMemAccessFlags flags) {
  pthread_mutex_lock(&p->lock);
  if (ordinal < ndev)
    p->access[ordinal] = flags;
  pthread_mutex_unlock(&p->lock);
}

/* ---- sharing between processes -------------------------------------------- */

int ah_mempool_is_imported(const struct ah_mempool *pool) {
  return pool->imported;
}

hipError_t ah_mempool_export(struct ah_mempool *pool, int *fd) {
  if (!(pool->props.handleTypes & hipMemHandleTypePosixFileDescriptor))
    return hipErrorInvalidValue;
  if (pool->has_dpool)
    return pool->dev->backend->pool_export(pool->dev, pool->dpool, fd);
  if (pool->file == NULL)
    return hipErrorNotSupported; /* a device whose memory the runtime cannot map */
  *fd = fcntl(pool->file->fd, F_DUPFD_CLOEXEC, 0);
  return *fd >= 0 ? hipSuccess : hipErrorOutOfMemory;
}

static hipMemPoolProps imported_props(struct ah_device *dev) {
  hipMemPoolProps props;

  memset(&props, 0, sizeof(props));
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = dev->ordinal;
  return props;
}

/* A pool of the device's own that another process exported as fd. */
static hipError_t import_dpool(struct ah_device *dev, int fd, struct ah_mempool **out) {
  hipMemPoolProps props = imported_props(dev);
  uint64_t dpool;
  hipError_t err;

  if (dev->backend->pool_import == NULL)
    return hipErrorNotSupported;
  err = dev->backend->pool_import(dev, fd, &dpool);
  if (err != hipSuccess) /* a descriptor that is no pool's: AMD's code, whatever the driver said */
    return err == hipErrorOutOfMemory || err == hipErrorNotSupported ? err : hipErrorInvalidValue;
  pthread_mutex_lock(&pools_lock);
  err = new_pool(dev, &props, 0, out);
  if (err == hipSuccess) {
    (*out)->imported = 1;
    (*out)->has_dpool = 1;
    (*out)->dpool = dpool;
  }
  pthread_mutex_unlock(&pools_lock);
  if (err != hipSuccess)
    (void)dev->backend->pool_destroy(dev, dpool);
  return err;
}

hipError_t ah_mempool_import(struct ah_device *dev, int fd, struct ah_mempool **out) {
  hipMemPoolProps props;
  struct pool_file *f;
  struct stat st;
  hipError_t err;

  if (fd < 0 || fstat(fd, &st) != 0)
    return hipErrorInvalidValue;
  if (!dev->backend->host_addressable)
    return import_dpool(dev, fd, out);
  /* Anything but a regular file (a memfd is one) cannot be a pool's. */
  if (!S_ISREG(st.st_mode))
    return hipErrorInvalidValue;
  f = file_adopt(fcntl(fd, F_DUPFD_CLOEXEC, 0)); /* the caller keeps its descriptor */
  if (f == NULL)
    return hipErrorOutOfMemory;
  props = imported_props(dev);
  pthread_mutex_lock(&pools_lock);
  err = new_pool(dev, &props, 0, out);
  if (err == hipSuccess) {
    (*out)->imported = 1;
    file_unref((*out)->file); /* the memfd new_pool made: the import's file replaces it */
    (*out)->file = f;
  }
  pthread_mutex_unlock(&pools_lock);
  if (err != hipSuccess)
    file_unref(f);
  return err;
}

hipError_t ah_mempool_export_ptr(const struct ah_alloc *a, const void *ptr, void *data) {
  struct block *b = a->pool_block;
  struct ptr_export e = {.magic = PTR_MAGIC};

  if (b->from_dpool && !b->imported)
    return b->dev->backend->pool_export_ptr(b->dev, (void *)ptr, data);
  if (b->file == NULL)
    return hipErrorInvalidValue; /* not a shareable pool's memory */
  e.ino = b->file->ino;
  e.devno = b->file->devno;
  e.off = b->off;
  e.len = b->maplen - page_size();
  e.delta = (uint64_t)(a->base - (uintptr_t)b->ptr);
  e.size = a->bytes;
  e.inner = (uint64_t)((uintptr_t)ptr - a->base);
  memset(data, 0, sizeof(hipMemPoolPtrExportData));
  memcpy(data, &e, sizeof(e));
  return hipSuccess;
}

/* An allocation of another process's device pool: a block of the imported
 * pool, in the allocation map as the whole allocation. */
static hipError_t import_dpool_ptr(struct ah_mempool *p, const void *data, void **out) {
  struct ah_alloc a = {0};
  struct block *b = calloc(1, sizeof(*b));
  size_t bytes = 0;
  void *ptr = NULL, *base = NULL;
  hipError_t err;

  if (b == NULL)
    return hipErrorOutOfMemory;
  err = p->dev->backend->pool_import_ptr(p->dev, p->dpool, data, &ptr, &base, &bytes);
  if (err != hipSuccess) {
    free(b);
    return err;
  }
  b->ptr = base;
  b->from_dpool = 1;
  b->imported = 1;
  b->pool = p;
  b->dev = p->dev;
  b->bytes = bytes;
  b->state = B_USED;
  b->gen = 1;
  a.base = (uintptr_t)base;
  a.bytes = bytes;
  a.dev = p->dev;
  a.kind = AH_MEM_DEVICE;
  a.device_ptr = base;
  a.pool_block = b;
  err = ah_alloc_insert(&a);
  if (err != hipSuccess) {
    b->next = NULL;
    release(b);
    return err;
  }
  pthread_mutex_lock(&p->lock);
  b->next = p->blocks;
  p->blocks = b;
  p->reserved += b->bytes;
  if (p->reserved > p->reserved_high)
    p->reserved_high = p->reserved;
  count_use(p, b->bytes);
  pthread_mutex_unlock(&p->lock);
  *out = ptr;
  return hipSuccess;
}

/* The block is mapped anew (in the exporting process too: a second address
 * of the same memory) and belongs to the imported pool; the pointer is the
 * place that was exported (an allocation's start, or a place inside it),
 * and hipFree or hipFreeAsync of the allocation's start unmaps it at the
 * pool's next release. */
hipError_t ah_mempool_import_ptr(struct ah_mempool *p, const void *data, void **out) {
  struct ah_alloc a = {0};
  struct ptr_export e;
  struct block *b;
  hipError_t err;

  if (p->imported && p->has_dpool)
    return import_dpool_ptr(p, data, out);
  memcpy(&e, data, sizeof(e));
  if (!p->imported || e.magic != PTR_MAGIC || e.ino != p->file->ino ||
      e.devno != p->file->devno || e.len == 0 || e.len % page_size() != 0 ||
      e.off % page_size() != 0 || e.delta >= e.len || e.size > e.len - e.delta ||
      e.inner >= e.size || e.len > SIZE_MAX - page_size())
    return hipErrorInvalidValue;
  b = calloc(1, sizeof(*b));
  if (b == NULL)
    return hipErrorOutOfMemory;
  b->ptr = file_map(p->file, e.off, (size_t)e.len);
  if (b->ptr == NULL) {
    free(b);
    return hipErrorOutOfMemory;
  }
  atomic_fetch_add(&p->file->refs, 1);
  b->file = p->file;
  b->off = e.off;
  b->maplen = (size_t)e.len + page_size();
  b->imported = 1;
  b->pool = p;
  b->dev = p->dev;
  b->bytes = (size_t)e.len;
  b->state = B_USED;
  b->gen = 1;
  a.base = (uintptr_t)b->ptr + e.delta;
  a.bytes = (size_t)e.size;
  a.dev = p->dev;
  a.kind = AH_MEM_DEVICE;
  a.device_ptr = (void *)a.base;
  a.pool_block = b;
  err = ah_alloc_insert(&a);
  if (err != hipSuccess) {
    file_release(b);
    free(b);
    return err;
  }
  pthread_mutex_lock(&p->lock);
  b->next = p->blocks;
  p->blocks = b;
  p->reserved += b->bytes; /* what this process maps; released when freed (threshold 0) */
  if (p->reserved > p->reserved_high)
    p->reserved_high = p->reserved;
  count_use(p, b->bytes);
  pthread_mutex_unlock(&p->lock);
  *out = (void *)(a.base + e.inner);
  return hipSuccess;
}
