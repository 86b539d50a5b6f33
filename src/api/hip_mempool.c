/* SPDX-License-Identifier: MIT */
/* The stream-ordered allocator's entry points: hipMallocAsync, hipFreeAsync,
 * hipMallocFromPoolAsync, memory pools and their attributes and access, and
 * each device's default and current pool. Error codes follow HIP (ROCm's
 * hipamd, and ROCm's unit suite): a NULL pointer or pool or a bad location is
 * hipErrorInvalidValue; a stream or pool handle the runtime did not make (or
 * has destroyed) is hipErrorInvalidHandle (hipMemPoolDestroy of such a pool:
 * hipErrorInvalidValue); a location naming no device in hipMemPoolSetAccess
 * is hipErrorInvalidDevice. The work is in core/mempool.c. */
#include "../core/graph.h" /* capture into memory nodes */
#include "../core/mempool.h"
#include "device_ops.h"

#define HANDLE_TYPES                                                                             \
  (hipMemHandleTypePosixFileDescriptor | hipMemHandleTypeWin32 | hipMemHandleTypeWin32Kmt)

/* Resolves a non-NULL pool handle. */
static hipError_t pool_arg(hipMemPool_t h, struct ah_mempool **out) {
  if (h == NULL)
    return hipErrorInvalidValue;
  *out = ah_mempool_lookup(h);
  return *out != NULL ? hipSuccess : hipErrorInvalidHandle;
}

/* A stream handle the runtime does not know (destroyed, garbage) is an
 * invalid handle here, as AMD's runtime says (the other stream functions say
 * hipErrorContextIsDestroyed); anything else it cannot use an invalid value. */
static hipError_t stream_arg(hipStream_t s, struct ah_device **dev, struct ah_queue **q) {
  hipError_t err = ah_stream_resolve(s, dev, q);

  if (err == hipSuccess || err == hipErrorNoDevice)
    return err;
  return err == hipErrorContextIsDestroyed ? hipErrorInvalidHandle : hipErrorInvalidValue;
}

static int location_ok(const hipMemLocation *loc) {
  return loc->type == hipMemLocationTypeDevice && loc->id >= 0 && loc->id < ah_device_count();
}

/* ---- allocation and free ------------------------------------------------- */

AH_EXPORT hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream) {
  struct ah_mempool *pool;
  struct ah_device *dev;
  struct ah_queue *q;
  int done;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(stream_arg(stream, &dev, &q));
  *dev_ptr = NULL;
  if (size == 0)
    return hipSuccess; /* HIP: no memory, NULL, success */
  AH_REQUIRE_OK(ah_capture_malloc(q, dev, size, dev_ptr, &done)); /* a memory node */
  if (done)
    return hipSuccess;
  AH_REQUIRE_OK(ah_mempool_current(dev, &pool));
  AH_RETURN(ah_mempool_alloc(pool, size, dev, q, dev_ptr));
}

/* The pool may belong to another device than the stream (HIP allows it).
 * On a capturing stream, the stream's device's default pool gives a memory
 * alloc node, as hipMallocAsync; another pool is refused (graph memory is
 * the default pool's, docs/graphs.md). */
AH_EXPORT hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size, hipMemPool_t mem_pool,
                                            hipStream_t stream) {
  struct ah_mempool *pool, *def;
  struct ah_device *dev;
  struct ah_queue *q;
  int done;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(pool_arg(mem_pool, &pool));
  AH_REQUIRE(!ah_mempool_is_imported(pool), hipErrorInvalidValue); /* CUDA: only pointers */
  AH_REQUIRE_OK(stream_arg(stream, &dev, &q));
  AH_REQUIRE_OK(ah_mempool_default(dev, &def));
  if (pool != def)
    AH_REQUIRE_OK(ah_capture_check_sync(q));
  *dev_ptr = NULL;
  if (size == 0)
    return hipSuccess;
  AH_REQUIRE_OK(ah_capture_malloc(q, dev, size, dev_ptr, &done)); /* a memory node */
  if (done)
    return hipSuccess;
  AH_RETURN(ah_mempool_alloc(pool, size, dev, q, dev_ptr));
}

/* hipFreeAsync of hipMalloc memory (HIP and CUDA allow it): the stream is
 * waited for, then the memory is freed as hipFree would. */
static hipError_t free_plain(const struct ah_alloc *a, struct ah_device *dev, struct ah_queue *q) {
  struct ah_alloc r;
  hipError_t err;

  err = ah_dev_queue_sync(dev, q);
  if (err != hipSuccess)
    return err;
  if (!ah_alloc_remove((void *)a->base, a->kind, &r))
    return hipErrorInvalidValue; /* another thread freed it meanwhile */
  return ah_device_mem_free(r.dev, (void *)r.base, r.bytes, r.kind);
}

AH_EXPORT hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream) {
  struct ah_device *dev;
  struct ah_alloc a;
  struct ah_queue *q;
  int done;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(stream_arg(stream, &dev, &q));
  AH_REQUIRE_OK(ah_capture_free(q, dev_ptr, &done)); /* a memory node */
  if (done)
    return hipSuccess;
  /* Only the start of an allocation frees; a second free finds nothing. */
  AH_REQUIRE(ah_alloc_find(dev_ptr, &a) && a.base == (uintptr_t)dev_ptr, hipErrorInvalidValue);
  if (a.pool_block != NULL)
    AH_RETURN(ah_mempool_free(dev_ptr, dev, q));
  AH_REQUIRE(a.kind == AH_MEM_DEVICE || a.kind == AH_MEM_MANAGED, hipErrorInvalidValue);
  AH_RETURN(free_plain(&a, dev, q));
}

/* ---- pools ---------------------------------------------------------------- */

/* hipMemHandleTypePosixFileDescriptor makes the pool shareable (its memory
 * a memfd on the CPU device: hip_ipc.c, core/mempool.c); Windows handles
 * cannot exist on this platform. reserved[] is not checked: HIP
 * does not either, and programs leave it uninitialised. */
AH_EXPORT hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *pool_props) {
  struct ah_mempool *pool;

  AH_ENTER();
  AH_REQUIRE(mem_pool != NULL && pool_props != NULL, hipErrorInvalidValue);
  AH_REQUIRE(pool_props->allocType == hipMemAllocationTypePinned, hipErrorInvalidValue);
  AH_REQUIRE(((unsigned)pool_props->handleTypes & ~(unsigned)HANDLE_TYPES) == 0,
             hipErrorInvalidValue);
  AH_REQUIRE(((unsigned)pool_props->handleTypes &
              (unsigned)(hipMemHandleTypeWin32 | hipMemHandleTypeWin32Kmt)) == 0,
             hipErrorNotSupported);
  AH_REQUIRE(location_ok(&pool_props->location), hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_mempool_create(ah_device_get(pool_props->location.id), pool_props, &pool));
  *mem_pool = (hipMemPool_t)pool;
  return hipSuccess;
}

/* A device's default pool cannot be destroyed (hipErrorInvalidValue); a pool
 * destroyed already, or a handle never made, is an invalid value here too
 * (AMD's runtime; ROCm's unit suite checks a double destroy). */
AH_EXPORT hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool) {
  struct ah_mempool *pool;

  AH_ENTER();
  AH_REQUIRE(pool_arg(mem_pool, &pool) == hipSuccess, hipErrorInvalidValue);
  AH_REQUIRE(!ah_mempool_is_default(pool), hipErrorInvalidValue);
  ah_mempool_destroy(pool);
  return hipSuccess;
}

AH_EXPORT hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold) {
  struct ah_mempool *pool;

  AH_ENTER();
  AH_REQUIRE_OK(pool_arg(mem_pool, &pool));
  ah_mempool_trim(pool, min_bytes_to_hold);
  return hipSuccess;
}

static int attr_known(hipMemPoolAttr attr) {
  return attr >= hipMemPoolReuseFollowEventDependencies && attr <= hipMemPoolAttrUsedMemHigh;
}

/* Read-only attributes, and a watermark set to anything but 0, are
 * hipErrorInvalidValue (CUDA's rule; 0 resets the mark to the current use). */
AH_EXPORT hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr,
                                            void *value) {
  struct ah_mempool *pool;

  AH_ENTER();
  AH_REQUIRE(value != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(pool_arg(mem_pool, &pool));
  AH_REQUIRE(attr_known(attr), hipErrorInvalidValue);
  AH_RETURN(ah_mempool_set_attr(pool, attr, value));
}

AH_EXPORT hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr,
                                            void *value) {
  struct ah_mempool *pool;

  AH_ENTER();
  AH_REQUIRE(value != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(pool_arg(mem_pool, &pool));
  AH_REQUIRE(attr_known(attr), hipErrorInvalidValue);
  AH_RETURN(ah_mempool_get_attr(pool, attr, value));
}

/* Checks the whole list before changing anything. The owning device keeps
 * read-write access; a device of another backend cannot reach the pool
 * (hipErrorInvalidDevice for both). Access is recorded and reported; on the
 * CPU device every device can read every pool anyway. */
AH_EXPORT hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc *desc_list,
                                         size_t count) {
  struct ah_mempool *pool;
  struct ah_device *owner;

  AH_ENTER();
  AH_REQUIRE(desc_list != NULL, hipErrorInvalidValue); /* even for count 0, as HIP */
  AH_REQUIRE_OK(pool_arg(mem_pool, &pool));
  owner = ah_mempool_device(pool);
  for (size_t i = 0; i < count; i++) {
    const hipMemAccessDesc *d = &desc_list[i];
    struct ah_device *dev;

    /* A device location with no such device: AMD's runtime says invalid device. */
    AH_REQUIRE(d->location.type != hipMemLocationTypeDevice || location_ok(&d->location),
               hipErrorInvalidDevice);
    AH_REQUIRE(location_ok(&d->location), hipErrorInvalidValue);
    AH_REQUIRE(d->flags == hipMemAccessFlagsProtNone || d->flags == hipMemAccessFlagsProtRead ||
                   d->flags == hipMemAccessFlagsProtReadWrite,
               hipErrorInvalidValue);
    dev = ah_device_get(d->location.id);
    AH_REQUIRE(dev != owner || d->flags == hipMemAccessFlagsProtReadWrite,
               hipErrorInvalidDevice);
    AH_REQUIRE(dev->backend == owner->backend || d->flags == hipMemAccessFlagsProtNone,
               hipErrorInvalidDevice);
  }
  for (size_t i = 0; i < count; i++)
    ah_mempool_set_access(pool, desc_list[i].location.id, desc_list[i].flags);
  return hipSuccess;
}

AH_EXPORT hipError_t hipMemPoolGetAccess(hipMemAccessFlags *flags, hipMemPool_t mem_pool,
                                         hipMemLocation *location) {
  struct ah_mempool *pool;

  AH_ENTER();
  AH_REQUIRE(flags != NULL && location != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(pool_arg(mem_pool, &pool));
  AH_REQUIRE(location_ok(location), hipErrorInvalidValue);
  *flags = ah_mempool_get_access(pool, location->id);
  return hipSuccess;
}

/* ---- a device's pools ----------------------------------------------------- */

AH_EXPORT hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device) {
  struct ah_mempool *pool;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(mem_pool != NULL, hipErrorInvalidValue);
  dev = ah_device_get(device);
  AH_REQUIRE(dev != NULL, hipErrorInvalidDevice);
  AH_REQUIRE_OK(ah_mempool_default(dev, &pool));
  *mem_pool = (hipMemPool_t)pool;
  return hipSuccess;
}

/* HIP's codes: a bad device is hipErrorInvalidValue here, a pool of another
 * device hipErrorInvalidDevice. */
AH_EXPORT hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool) {
  struct ah_mempool *pool;
  struct ah_device *dev;

  AH_ENTER();
  dev = ah_device_get(device);
  AH_REQUIRE(dev != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(pool_arg(mem_pool, &pool));
  AH_REQUIRE(ah_mempool_device(pool) == dev, hipErrorInvalidDevice);
  ah_mempool_set_current(dev, pool);
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device) {
  struct ah_mempool *pool;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(mem_pool != NULL, hipErrorInvalidValue);
  dev = ah_device_get(device);
  AH_REQUIRE(dev != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_mempool_current(dev, &pool));
  *mem_pool = (hipMemPool_t)pool;
  return hipSuccess;
}
