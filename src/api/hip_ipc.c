/* SPDX-License-Identifier: MIT */
/* Interprocess handles: device memory and events shared between processes
 * (hipIpcGetMemHandle, hipIpcOpenMemHandle, hipIpcCloseMemHandle,
 * hipIpcGetEventHandle, hipIpcOpenEventHandle), and the stream-ordered
 * pools' export functions. This file checks arguments. Memory goes through
 * the backend (CPU: a memfd the other process opens, cpu_mem.c; NVIDIA:
 * cuIpc*), its opened handles counted by core/ipc_mem.c. An event of a
 * backend without events of its own to share (the CPU's) is shared through
 * a page of shared memory that counts its records and their completions
 * (core/ipc_event.c; docs/memory.md, "Interprocess memory and events"). */
#include "../core/mempool.h"
#include "../core/stream.h"
#include "memory.h"

#include <string.h>

/* ---- memory ------------------------------------------------------------------ */

/* The handle names the whole allocation that devPtr lies in; the table of
 * opened handles is core/ipc_mem.c's. */
AH_EXPORT hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(handle != NULL && devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(devPtr, &a), hipErrorInvalidValue);
  AH_REQUIRE(a.kind == AH_MEM_DEVICE && a.origin == AH_ORIGIN_ALLOC && a.pool_block == NULL,
             hipErrorInvalidValue);
  AH_NOT_IN_HOST_FN();
  AH_RETURN(ah_ipc_mem_export(&a, handle));
}

/* Opened on the current device; flags 0 or hipIpcMemLazyEnablePeerAccess
 * (peers always reach each other here). The address is the allocation's
 * start; opening a handle twice gives the same address and needs two closes. */
AH_EXPORT hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t handle,
                                         unsigned int flags) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)hipIpcMemLazyEnablePeerAccess) == 0, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_RETURN(ah_ipc_mem_open(dev, &handle, devPtr));
}

/* Only an address hipIpcOpenMemHandle gave (the exporting process's own
 * allocation is hipErrorInvalidValue, as on AMD). The last close waits for
 * the device, then unmaps. */
AH_EXPORT hipError_t hipIpcCloseMemHandle(void *devPtr) {
  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_ipc_mem_close(devPtr));
}

/* ---- events ---------------------------------------------------------------- */

/* Only an event made with hipEventInterprocess (hipErrorInvalidResourceHandle
 * otherwise, as CUDA). Records made before the first handle are not shared:
 * the other process sees them as complete. */
AH_EXPORT hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t event) {
  struct ah_event *e;

  AH_ENTER();
  AH_REQUIRE(handle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(event != NULL, hipErrorInvalidResourceHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidResourceHandle);
  AH_REQUIRE(e->flags & hipEventInterprocess, hipErrorInvalidResourceHandle);
  AH_RETURN(ah_ipc_event_export(e, handle->reserved, sizeof(handle->reserved)));
}

/* The opened event is of the current device, with the flags
 * hipEventDisableTiming | hipEventInterprocess; the exporting process may
 * be gone by the time it is used (its page lives on). */
AH_EXPORT hipError_t hipIpcOpenEventHandle(hipEvent_t *event, hipIpcEventHandle_t handle) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_RETURN(ah_ipc_event_import(dev, handle.reserved, event));
}

/* ---- stream-ordered pools ---------------------------------------------------- */

/* A pool made with hipMemHandleTypePosixFileDescriptor exports as a file
 * descriptor (written as an int, CUDA's and HIP's type for it, which the
 * caller owns and may send to another process); imported, it is a pool
 * that only imports pointers: hipMemPoolExportPointer's 64 bytes name an
 * allocation in it. On the CPU device the pool's memory is a memfd
 * (core/mempool.c); on NVIDIA the pool is a driver pool (cuMemPool*, the
 * backend's pool_* ops); elsewhere export and import are
 * hipErrorNotSupported (docs/memory.md). AMD's codes: NULL
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
