/* SPDX-License-Identifier: MIT */
/* External memory and semaphores of the NVIDIA device (the ext_* ops of
 * backend.h): the driver's cuImportExternalMemory,
 * cuExternalMemoryGetMappedBuffer and cuImportExternalSemaphore, with HIP's
 * descriptors copied into CUDA's (the same fields and values). Only the
 * POSIX descriptor types are taken (opaque fd memory; opaque fd and timeline
 * fd semaphores): the Win32, Direct3D, keyed-mutex and NvSci types are
 * hipErrorNotSupported, on Linux as in AMD's runtime. Each op enters the
 * device's context. */
#include "nvidia_internal.h"

#include <stdint.h>
#include <string.h>

_Static_assert(sizeof(CUDA_EXTERNAL_MEMORY_HANDLE_DESC) == sizeof(hipExternalMemoryHandleDesc),
               "CUDA's and HIP's layouts");
_Static_assert(sizeof(CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC) ==
                   sizeof(hipExternalSemaphoreHandleDesc),
               "CUDA's and HIP's layouts");

static CUstream stream_of(struct ah_queue *q) {
  return ((struct ah_nv_queue *)q)->s;
}

hipError_t ah_nv_ext_mem_import(struct ah_device *dev, const hipExternalMemoryHandleDesc *d,
                                uint64_t *out) {
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC c;
  CUexternalMemory m;
  CUresult r;

  AH_NV_ENTER(dev, cuImportExternalMemory);
  if (d->type != hipExternalMemoryHandleTypeOpaqueFd)
    return hipErrorNotSupported;
  memset(&c, 0, sizeof(c));
  c.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  c.handle.fd = d->handle.fd;
  c.size = d->size;
  c.flags = d->flags;
  r = ah_cuda.cuImportExternalMemory(&m, &c);
  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "cuImportExternalMemory: %s", ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  *out = (uint64_t)(uintptr_t)m;
  return hipSuccess;
}

hipError_t ah_nv_ext_mem_map(struct ah_device *dev, uint64_t mem, uint64_t offset, uint64_t bytes,
                             void **out) {
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC c;
  CUdeviceptr p;
  CUresult r;

  AH_NV_ENTER(dev, cuExternalMemoryGetMappedBuffer);
  memset(&c, 0, sizeof(c));
  c.offset = offset;
  c.size = bytes;
  r = ah_cuda.cuExternalMemoryGetMappedBuffer(&p, (CUexternalMemory)(uintptr_t)mem, &c);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *out = (void *)(uintptr_t)p;
  return hipSuccess;
}

hipError_t ah_nv_ext_mem_unmap(struct ah_device *dev, void *ptr) {
  AH_NV_ENTER(dev, cuMemFree);
  return ah_cuda_status(ah_cuda.cuMemFree((CUdeviceptr)(uintptr_t)ptr));
}

hipError_t ah_nv_ext_mem_destroy(struct ah_device *dev, uint64_t mem) {
  AH_NV_ENTER(dev, cuDestroyExternalMemory);
  return ah_cuda_status(ah_cuda.cuDestroyExternalMemory((CUexternalMemory)(uintptr_t)mem));
}

hipError_t ah_nv_ext_sem_import(struct ah_device *dev, const hipExternalSemaphoreHandleDesc *d,
                                uint64_t *out) {
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC c;
  CUexternalSemaphore s;
  CUresult r;

  AH_NV_ENTER(dev, cuImportExternalSemaphore);
  if (d->type != hipExternalSemaphoreHandleTypeOpaqueFd &&
      d->type != hipExternalSemaphoreHandleTypeTimelineSemaphoreFd)
    return hipErrorNotSupported;
  memset(&c, 0, sizeof(c));
  c.type = d->type == hipExternalSemaphoreHandleTypeOpaqueFd
               ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD
               : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
  c.handle.fd = d->handle.fd;
  c.flags = d->flags;
  r = ah_cuda.cuImportExternalSemaphore(&s, &c);
  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "cuImportExternalSemaphore: %s", ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  *out = (uint64_t)(uintptr_t)s;
  return hipSuccess;
}

/* HIP's parameter structs are CUDA's, byte for byte (cuda_types.h). */
hipError_t ah_nv_ext_sem_signal(struct ah_device *dev, struct ah_queue *q, uint64_t sem,
                                const hipExternalSemaphoreSignalParams *p) {
  CUexternalSemaphore s = (CUexternalSemaphore)(uintptr_t)sem;

  AH_NV_ENTER(dev, cuSignalExternalSemaphoresAsync);
  return ah_cuda_status(ah_cuda.cuSignalExternalSemaphoresAsync(
      &s, (const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *)(const void *)p, 1, stream_of(q)));
}

hipError_t ah_nv_ext_sem_wait(struct ah_device *dev, struct ah_queue *q, uint64_t sem,
                              const hipExternalSemaphoreWaitParams *p) {
  CUexternalSemaphore s = (CUexternalSemaphore)(uintptr_t)sem;

  AH_NV_ENTER(dev, cuWaitExternalSemaphoresAsync);
  return ah_cuda_status(ah_cuda.cuWaitExternalSemaphoresAsync(
      &s, (const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *)(const void *)p, 1, stream_of(q)));
}

hipError_t ah_nv_ext_sem_destroy(struct ah_device *dev, uint64_t sem) {
  AH_NV_ENTER(dev, cuDestroyExternalSemaphore);
  return ah_cuda_status(ah_cuda.cuDestroyExternalSemaphore((CUexternalSemaphore)(uintptr_t)sem));
}
