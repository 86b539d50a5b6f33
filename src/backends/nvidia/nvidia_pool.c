/* SPDX-License-Identifier: MIT */
/* Stream-ordered pools that other processes import (the pool_* ops of
 * backend.h): a pool made with hipMemHandleTypePosixFileDescriptor is a
 * CUmemoryPool made with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, its
 * blocks come from cuMemAllocFromPoolAsync, and the pool and its pointers are
 * shared with cuMemPoolExportToShareableHandle / cuMemPoolExportPointer. The
 * core keeps the blocks and their reuse (src/core/mempool.c) as for every
 * pool; a block is allocated on a stream of the pool's own and waited for, so
 * that any stream may use it at once. Each op enters the device's context. */
#include "nvidia_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The backend's handle of a pool. */
struct nv_pool {
  CUmemoryPool pool;
  CUstream s; /* allocations are made here; NULL for an imported pool */
};

hipError_t ah_nv_pool_create(struct ah_device *dev, uint64_t *out) {
  CUmemPoolProps props = {0};
  struct nv_pool *p;
  CUresult r;

  AH_NV_ENTER(dev, cuMemPoolCreate);
  if (ah_cuda.cuMemAllocFromPoolAsync == NULL || ah_cuda.cuMemPoolDestroy == NULL)
    return hipErrorNotSupported;
  p = calloc(1, sizeof(*p));
  if (p == NULL)
    return hipErrorOutOfMemory;
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = AH_NV(dev)->cu;
  r = ah_cuda.cuMemPoolCreate(&p->pool, &props);
  if (r == CUDA_SUCCESS) {
    r = ah_cuda.cuStreamCreateWithPriority(&p->s, CU_STREAM_NON_BLOCKING, 0);
    if (r != CUDA_SUCCESS)
      (void)ah_cuda.cuMemPoolDestroy(p->pool);
  }
  if (r != CUDA_SUCCESS) {
    free(p);
    AH_LOG(NVIDIA, "shareable pool: %s", ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  *out = (uint64_t)(uintptr_t)p;
  return hipSuccess;
}

hipError_t ah_nv_pool_destroy(struct ah_device *dev, uint64_t h) {
  struct nv_pool *p = (struct nv_pool *)(uintptr_t)h;
  CUresult r;

  AH_NV_ENTER(dev, cuMemPoolDestroy);
  if (p->s != NULL)
    (void)ah_cuda.cuStreamDestroy(p->s);
  r = ah_cuda.cuMemPoolDestroy(p->pool);
  free(p);
  return ah_cuda_status(r);
}

hipError_t ah_nv_pool_alloc(struct ah_device *dev, uint64_t h, size_t bytes, void **out) {
  struct nv_pool *p = (struct nv_pool *)(uintptr_t)h;
  CUdeviceptr d = 0;
  CUresult r;

  AH_NV_ENTER(dev, cuMemAllocFromPoolAsync);
  if (p->s == NULL)
    return hipErrorInvalidValue; /* an imported pool only imports */
  r = ah_cuda.cuMemAllocFromPoolAsync(&d, bytes, p->pool, p->s);
  if (r == CUDA_SUCCESS)
    r = ah_cuda.cuStreamSynchronize(p->s);
  if (r != CUDA_SUCCESS) {
    if (d != 0)
      (void)ah_cuda.cuMemFree(d);
    return r == CUDA_ERROR_OUT_OF_MEMORY ? hipErrorOutOfMemory : ah_cuda_status(r);
  }
  *out = (void *)(uintptr_t)d;
  return hipSuccess;
}

/* cuMemFree takes stream-ordered allocations too, after waiting for the
 * device, which is what the core's contract asks. */
hipError_t ah_nv_pool_free(struct ah_device *dev, void *ptr) {
  AH_NV_ENTER(dev, cuMemFree);
  return ah_cuda_status(ah_cuda.cuMemFree((CUdeviceptr)(uintptr_t)ptr));
}

hipError_t ah_nv_pool_export(struct ah_device *dev, uint64_t h, int *fd) {
  struct nv_pool *p = (struct nv_pool *)(uintptr_t)h;

  AH_NV_ENTER(dev, cuMemPoolExportToShareableHandle);
  return ah_cuda_status(ah_cuda.cuMemPoolExportToShareableHandle(
      fd, p->pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
}

hipError_t ah_nv_pool_import(struct ah_device *dev, int fd, uint64_t *out) {
  struct nv_pool *p;
  CUresult r;

  AH_NV_ENTER(dev, cuMemPoolImportFromShareableHandle);
  p = calloc(1, sizeof(*p));
  if (p == NULL)
    return hipErrorOutOfMemory;
  r = ah_cuda.cuMemPoolImportFromShareableHandle(&p->pool, (void *)(uintptr_t)fd,
                                                 CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  if (r != CUDA_SUCCESS) {
    free(p);
    AH_LOG(NVIDIA, "cuMemPoolImportFromShareableHandle: %s", ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  *out = (uint64_t)(uintptr_t)p;
  return hipSuccess;
}

hipError_t ah_nv_pool_export_ptr(struct ah_device *dev, void *ptr, void *data) {
  AH_NV_ENTER(dev, cuMemPoolExportPointer);
  return ah_cuda_status(
      ah_cuda.cuMemPoolExportPointer((CUmemPoolPtrExportData *)data, (CUdeviceptr)(uintptr_t)ptr));
}

/* The allocation's extent comes from cuMemGetAddressRange (the exported
 * pointer may be inside it). */
hipError_t ah_nv_pool_import_ptr(struct ah_device *dev, uint64_t h, const void *data, void **out,
                                 void **base, size_t *bytes) {
  struct nv_pool *p = (struct nv_pool *)(uintptr_t)h;
  CUmemPoolPtrExportData d;
  CUdeviceptr ptr = 0, b = 0;
  size_t n = 0;
  CUresult r;

  AH_NV_ENTER(dev, cuMemPoolImportPointer);
  if (ah_cuda.cuMemGetAddressRange == NULL)
    return hipErrorNotSupported;
  memcpy(&d, data, sizeof(d));
  r = ah_cuda.cuMemPoolImportPointer(&ptr, p->pool, &d);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  r = ah_cuda.cuMemGetAddressRange(&b, &n, ptr);
  if (r != CUDA_SUCCESS || n == 0) {
    (void)ah_cuda.cuMemFree(ptr);
    return r != CUDA_SUCCESS ? ah_cuda_status(r) : hipErrorInvalidValue;
  }
  *out = (void *)(uintptr_t)ptr;
  *base = (void *)(uintptr_t)b;
  *bytes = n;
  return hipSuccess;
}
