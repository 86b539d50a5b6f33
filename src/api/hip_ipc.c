/* SPDX-License-Identifier: MIT */
/* Interprocess handles: device memory and events shared between processes
 * (hipIpcGetMemHandle, hipIpcOpenMemHandle, hipIpcCloseMemHandle,
 * hipIpcGetEventHandle, hipIpcOpenEventHandle), and the stream-ordered
 * pools' export functions. Memory goes through the backend (CPU: a memfd
 * the other process opens, cpu_mem.c; NVIDIA: cuIpc*). An event of a
 * backend without events of its own to share (the CPU's) is shared through
 * a page of shared memory that counts its records and their completions
 * (core/ipc_event.c; docs/memory.md, "Interprocess memory and events"). */
#define _GNU_SOURCE
#include "../core/mempool.h"
#include "../core/stream.h"
#include "device_ops.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- memory ------------------------------------------------------------------ */

/* Handles opened in this process: opening one twice gives the same address
 * and needs two closes (CUDA's and HIP's reference counting). */
struct opened {
  hipIpcMemHandle_t handle;
  struct ah_device *dev;
  void *base;
  int refs;
  struct opened *next;
};
static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct opened *opened;

/* The handle names the whole allocation that devPtr lies in. The device is
 * synchronized first: the CPU device moves the block's bytes into shared
 * memory, which must not race with a kernel writing them. */
AH_EXPORT hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(handle != NULL && devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(devPtr, &a), hipErrorInvalidValue);
  AH_REQUIRE(a.kind == AH_MEM_DEVICE && a.origin == AH_ORIGIN_ALLOC && a.pool_block == NULL,
             hipErrorInvalidValue);
  AH_NOT_IN_HOST_FN();
  (void)ah_dev_sync(a.dev);
  memset(handle, 0, sizeof(*handle));
  AH_RETURN(ah_dev_ipc_mem_export(a.dev, (void *)a.base, a.bytes, handle->reserved));
}

/* Opened on the current device; flags 0 or hipIpcMemLazyEnablePeerAccess
 * (peers always reach each other here). The address is the allocation's
 * start. */
AH_EXPORT hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t handle,
                                         unsigned int flags) {
  struct ah_alloc a = {0};
  struct ah_device *dev;
  struct opened *o;
  size_t bytes;
  void *base;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)hipIpcMemLazyEnablePeerAccess) == 0, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  pthread_mutex_lock(&ipc_lock);
  for (o = opened; o != NULL; o = o->next)
    if (o->dev == dev && memcmp(&o->handle, &handle, sizeof(handle)) == 0) {
      o->refs++;
      *devPtr = o->base;
      pthread_mutex_unlock(&ipc_lock);
      return hipSuccess;
    }
  o = calloc(1, sizeof(*o));
  err = o == NULL ? hipErrorOutOfMemory : ah_dev_ipc_mem_open(dev, handle.reserved, &base, &bytes);
  if (err == hipSuccess) {
    a.base = (uintptr_t)base;
    a.bytes = bytes;
    a.dev = dev;
    a.kind = AH_MEM_DEVICE;
    a.device_ptr = base;
    a.origin = AH_ORIGIN_IPC;
    err = ah_alloc_insert(&a);
    if (err != hipSuccess)
      ah_dev_ipc_mem_close(dev, base);
  }
  if (err != hipSuccess) {
    pthread_mutex_unlock(&ipc_lock);
    free(o);
    return ah_fail(err, __func__, "open");
  }
  o->handle = handle;
  o->dev = dev;
  o->base = base;
  o->refs = 1;
  o->next = opened;
  opened = o;
  pthread_mutex_unlock(&ipc_lock);
  *devPtr = base;
  return hipSuccess;
}

/* Only an address hipIpcOpenMemHandle gave (the exporting process's own
 * allocation is hipErrorInvalidValue, as on AMD). The last close waits for
 * the device, then unmaps. */
AH_EXPORT hipError_t hipIpcCloseMemHandle(void *devPtr) {
  struct opened **pp, *o = NULL;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  pthread_mutex_lock(&ipc_lock);
  for (pp = &opened; *pp != NULL; pp = &(*pp)->next)
    if ((*pp)->base == devPtr) {
      o = *pp;
      if (--o->refs == 0)
        *pp = o->next;
      break;
    }
  pthread_mutex_unlock(&ipc_lock);
  AH_REQUIRE(o != NULL, hipErrorInvalidValue);
  if (o->refs > 0)
    return hipSuccess;
  (void)ah_dev_sync(o->dev);
  (void)ah_alloc_remove(o->base, AH_MEM_DEVICE, NULL);
  ah_dev_ipc_mem_close(o->dev, o->base);
  free(o);
  return hipSuccess;
}

/* ---- events ---------------------------------------------------------------- */

/* Only an event made with hipEventInterprocess (hipErrorInvalidResourceHandle
 * otherwise, as CUDA). Records made before the first handle are not shared:
 * the other process sees them as complete. */
AH_EXPORT hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t event) {
  struct ah_event *e;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(handle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(event != NULL, hipErrorInvalidResourceHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidResourceHandle);
  AH_REQUIRE(e->flags & hipEventInterprocess, hipErrorInvalidResourceHandle);
  memset(handle, 0, sizeof(*handle));
  if (ah_dev_ipc_events_native(e->dev))
    AH_RETURN(ah_dev_ipc_event_export(e, handle->reserved));
  pthread_mutex_lock(&ipc_lock);
  err = ah_ipc_event_export(e, handle->reserved, sizeof(handle->reserved));
  pthread_mutex_unlock(&ipc_lock);
  AH_RETURN(err);
}

/* The opened event is of the current device, with the flags
 * hipEventDisableTiming | hipEventInterprocess; the exporting process may
 * be gone by the time it is used (its page lives on). */
AH_EXPORT hipError_t hipIpcOpenEventHandle(hipEvent_t *event, hipIpcEventHandle_t handle) {
  struct ah_device *dev;
  struct ah_event *e;
  struct ah_dev_event *impl = NULL;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  if (ah_dev_ipc_events_native(dev)) {
    AH_REQUIRE_OK(ah_dev_ipc_event_open(dev, handle.reserved, &impl));
    AH_RETURN(ah_event_adopt(dev, hipEventDisableTiming | hipEventInterprocess, impl, event));
  }
  AH_REQUIRE_OK(ah_ipc_event_import(dev, handle.reserved, &e));
  *event = (hipEvent_t)e;
  return hipSuccess;
}

/* ---- stream-ordered pools ---------------------------------------------------- */

/* A pool made with hipMemHandleTypePosixFileDescriptor exports as a file
 * descriptor (written as an int, CUDA's and HIP's type for it, which the
 * caller owns and may send to another process); imported, it is a pool
 * that only imports pointers: hipMemPoolExportPointer's 64 bytes name an
 * allocation in it. On the CPU device the pool's memory is a memfd
 * (core/mempool.c); on a device whose memory the runtime cannot map (the
 * NVIDIA backend builds its pools on cuMemAlloc, not cuMemPool) export and
 * import are hipErrorNotSupported (docs/memory.md). AMD's codes: NULL
 * arguments, a handle type other than the pool's and a pool not made
 * shareable are hipErrorInvalidValue. */
AH_EXPORT hipError_t hipMemPoolExportToShareableHandle(void *shared_handle, hipMemPool_t mem_pool,
                                                       hipMemAllocationHandleType handle_type,
                                                       unsigned int flags) {
  struct ah_mempool *pool;
  int fd;

  AH_ENTER();
  AH_REQUIRE(shared_handle != NULL && mem_pool != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(handle_type == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  pool = ah_mempool_lookup(mem_pool);
  AH_REQUIRE(pool != NULL, hipErrorInvalidValue);
  AH_REQUIRE(!ah_mempool_is_imported(pool), hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_mempool_export(pool, &fd));
  memcpy(shared_handle, &fd, sizeof(fd));
  return hipSuccess;
}

/* shared_handle is the descriptor itself, cast to a pointer (CUDA's and
 * HIP's convention); NULL is refused, as AMD does, though it would be
 * descriptor 0. The pool is of the current device. */
AH_EXPORT hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t *mem_pool,
                                                         void *shared_handle,
                                                         hipMemAllocationHandleType handle_type,
                                                         unsigned int flags) {
  struct ah_mempool *pool;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(mem_pool != NULL && shared_handle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(handle_type == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  /* The low 32 bits: programs keep the int in a wider variable. */
  AH_REQUIRE_OK(ah_mempool_import(dev, (int)(uint32_t)(uintptr_t)shared_handle, &pool));
  *mem_pool = (hipMemPool_t)pool;
  return hipSuccess;
}

AH_EXPORT hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData *export_data, void *dev_ptr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(export_data != NULL && dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(dev_ptr, &a) && a.pool_block != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_mempool_export_ptr(&a, dev_ptr, export_data));
}

AH_EXPORT hipError_t hipMemPoolImportPointer(void **dev_ptr, hipMemPool_t mem_pool,
                                             hipMemPoolPtrExportData *export_data) {
  struct ah_mempool *pool;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL && mem_pool != NULL && export_data != NULL, hipErrorInvalidValue);
  pool = ah_mempool_lookup(mem_pool);
  AH_REQUIRE(pool != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_mempool_import_ptr(pool, export_data, dev_ptr));
}
