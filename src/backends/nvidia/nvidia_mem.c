/* SPDX-License-Identifier: MIT */
/* Memory of the NVIDIA device: device, pinned host and managed allocations
 * and host registration through the driver. With unified addressing (every
 * 64-bit CUDA platform) a pinned or registered host buffer has the same
 * address on the device, and copies infer their direction from the pointers,
 * so the core's allocation map needs nothing backend-specific. */
#include "nvidia_internal.h"

#include <string.h>

hipError_t ah_nv_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                           unsigned flags, void **out) {
  struct ah_nv_device *nd = AH_NV(dev);
  CUdeviceptr d = 0;
  void *h = NULL;
  unsigned cu_flags;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  switch (kind) {
  case AH_MEM_DEVICE:
    err = ah_cuda_status(ah_cuda.cuMemAlloc(&d, bytes));
    *out = (void *)(uintptr_t)d;
    return err;
  case AH_MEM_HOST:
    /* HIP's pinned memory is visible to every device at the same address
     * (hipHostMallocDefault behaves as Portable|Mapped); write-combining is
     * the one property the caller chooses. */
    cu_flags = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP;
    if (flags & hipHostMallocWriteCombined)
      cu_flags |= CU_MEMHOSTALLOC_WRITECOMBINED;
    err = ah_cuda_status(ah_cuda.cuMemHostAlloc(&h, bytes, cu_flags));
    *out = h;
    return err;
  case AH_MEM_MANAGED:
    cu_flags = (flags & hipMemAttachHost) ? CU_MEM_ATTACH_HOST : CU_MEM_ATTACH_GLOBAL;
    err = ah_cuda_status(ah_cuda.cuMemAllocManaged(&d, bytes, cu_flags));
    *out = (void *)(uintptr_t)d;
    return err;
  default:
    return hipErrorInvalidValue;
  }
}

hipError_t ah_nv_mem_free(struct ah_device *dev, void *ptr, enum ah_mem_kind kind) {
  struct ah_nv_device *nd = AH_NV(dev);
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  switch (kind) {
  case AH_MEM_DEVICE:
  case AH_MEM_MANAGED:
    return ah_cuda_status(ah_cuda.cuMemFree((CUdeviceptr)(uintptr_t)ptr));
  case AH_MEM_HOST:
    return ah_cuda_status(ah_cuda.cuMemFreeHost(ptr));
  default:
    return hipErrorInvalidValue;
  }
}

hipError_t ah_nv_host_register(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags,
                               void **device_ptr) {
  struct ah_nv_device *nd = AH_NV(dev);
  unsigned cu_flags = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP;
  CUdeviceptr d = 0;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  if (flags & hipHostRegisterIoMemory)
    cu_flags |= CU_MEMHOSTREGISTER_IOMEMORY;
  if (flags & hipHostRegisterReadOnly)
    cu_flags |= CU_MEMHOSTREGISTER_READ_ONLY;
  err = ah_cuda_status(ah_cuda.cuMemHostRegister(ptr, bytes, cu_flags));
  if (err != hipSuccess)
    return err;
  err = ah_cuda_status(ah_cuda.cuMemHostGetDevicePointer(&d, ptr, 0));
  if (err != hipSuccess) {
    ah_cuda.cuMemHostUnregister(ptr);
    return err;
  }
  *device_ptr = (void *)(uintptr_t)d;
  return hipSuccess;
}

hipError_t ah_nv_host_unregister(struct ah_device *dev, void *ptr) {
  struct ah_nv_device *nd = AH_NV(dev);
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  return ah_cuda_status(ah_cuda.cuMemHostUnregister(ptr));
}

hipError_t ah_nv_mem_info(struct ah_device *dev, size_t *free_bytes, size_t *total_bytes) {
  struct ah_nv_device *nd = AH_NV(dev);
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  return ah_cuda_status(ah_cuda.cuMemGetInfo(free_bytes, total_bytes));
}

/* ---- interprocess memory and events: CUDA's own handles ---- */

/* The handle is CUDA's (64 bytes, as HIP's). */
hipError_t ah_nv_ipc_mem_export(struct ah_device *dev, void *base, size_t bytes, void *handle) {
  hipError_t err = ah_nv_enter(AH_NV(dev));
  CUipcMemHandle h;

  (void)bytes;
  if (err != hipSuccess)
    return err;
  if (ah_cuda.cuIpcGetMemHandle == NULL)
    return hipErrorNotSupported;
  err = ah_cuda_status(ah_cuda.cuIpcGetMemHandle(&h, (CUdeviceptr)(uintptr_t)base));
  if (err == hipSuccess)
    memcpy(handle, &h, sizeof(h));
  return err;
}

hipError_t ah_nv_ipc_mem_open(struct ah_device *dev, const void *handle, void **base,
                              size_t *bytes) {
  hipError_t err = ah_nv_enter(AH_NV(dev));
  CUipcMemHandle h;
  CUdeviceptr d = 0, start = 0;
  size_t size = 0;

  if (err != hipSuccess)
    return err;
  if (ah_cuda.cuIpcOpenMemHandle == NULL || ah_cuda.cuMemGetAddressRange == NULL)
    return hipErrorNotSupported;
  memcpy(&h, handle, sizeof(h));
  err = ah_cuda_status(ah_cuda.cuIpcOpenMemHandle(&d, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  if (err != hipSuccess)
    return err;
  err = ah_cuda_status(ah_cuda.cuMemGetAddressRange(&start, &size, d));
  if (err != hipSuccess) {
    ah_cuda.cuIpcCloseMemHandle(d);
    return err;
  }
  *base = (void *)(uintptr_t)d;
  *bytes = size - (size_t)(d - start);
  return hipSuccess;
}

hipError_t ah_nv_ipc_mem_close(struct ah_device *dev, void *base) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err
                           : ah_cuda_status(ah_cuda.cuIpcCloseMemHandle((CUdeviceptr)(uintptr_t)base));
}

hipError_t ah_nv_ipc_event_export(struct ah_device *dev, struct ah_dev_event *ev, void *handle) {
  hipError_t err = ah_nv_enter(AH_NV(dev));
  CUipcEventHandle h;

  if (err != hipSuccess)
    return err;
  if (ah_cuda.cuIpcGetEventHandle == NULL)
    return hipErrorNotSupported;
  err = ah_cuda_status(ah_cuda.cuIpcGetEventHandle(&h, (CUevent)ev));
  if (err == hipSuccess)
    memcpy(handle, &h, sizeof(h));
  return err;
}

hipError_t ah_nv_ipc_event_open(struct ah_device *dev, const void *handle,
                                struct ah_dev_event **ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));
  CUipcEventHandle h;
  CUevent e = NULL;

  if (err != hipSuccess)
    return err;
  if (ah_cuda.cuIpcOpenEventHandle == NULL)
    return hipErrorNotSupported;
  memcpy(&h, handle, sizeof(h));
  err = ah_cuda_status(ah_cuda.cuIpcOpenEventHandle(&e, h));
  if (err == hipSuccess)
    *ev = (struct ah_dev_event *)e;
  return err;
}
