/* SPDX-License-Identifier: MIT */
/* Streams, events and command submission of the NVIDIA device. A HIP stream
 * is a CUstream (blocking streams are CU_STREAM_DEFAULT, so CUDA's legacy
 * default stream gives HIP's null-stream rules), the null stream is
 * CU_STREAM_LEGACY, an event is a CUevent. Each command is one driver call;
 * copies and memsets take pointers in the unified address space. */
#include "nvidia_internal.h"

#include <string.h>

#define STREAM(q) ((CUstream)(q))
#define EVENT(e) ((CUevent)(e))
#define DPTR(p) ((CUdeviceptr)(uintptr_t)(p))

hipError_t ah_nv_queue_create(struct ah_device *dev, unsigned flags, int priority, void **q) {
  struct ah_nv_device *nd = AH_NV(dev);
  CUstream s = NULL;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  /* HIP has three priorities (1 low, 0 normal, -1 high); CUDA's default is
   * already its lowest, so HIP's high priority is CUDA's greatest and the
   * other two are CUDA's default. */
  priority = priority < 0 ? nd->greatest_priority : nd->least_priority;
  err = ah_cuda_status(ah_cuda.cuStreamCreateWithPriority(
      &s, (flags & hipStreamNonBlocking) ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT, priority));
  if (err == hipSuccess)
    *q = s;
  return err;
}

hipError_t ah_nv_queue_destroy(struct ah_device *dev, void *q) {
  hipError_t err = ah_nv_enter(AH_NV(dev));
  hipError_t sync;

  if (err != hipSuccess)
    return err;
  if (STREAM(q) == CU_STREAM_LEGACY)
    return hipSuccess;
  sync = ah_cuda_status(ah_cuda.cuStreamSynchronize(STREAM(q)));
  err = ah_cuda_status(ah_cuda.cuStreamDestroy(STREAM(q)));
  return err != hipSuccess ? err : sync;
}

/* Fills one side of a 2D copy: every pointer is a unified address. */
static void copy2d(const struct ah_cmd *cmd, CUDA_MEMCPY2D *c) {
  memset(c, 0, sizeof(*c));
  c->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  c->srcDevice = DPTR(cmd->copy2d.src);
  c->srcPitch = cmd->copy2d.spitch;
  c->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c->dstDevice = DPTR(cmd->copy2d.dst);
  c->dstPitch = cmd->copy2d.dpitch;
  c->WidthInBytes = cmd->copy2d.width;
  c->Height = cmd->copy2d.height;
}

static CUresult memset_1d(const struct ah_cmd *cmd, CUstream s) {
  CUdeviceptr d = DPTR(cmd->set.dst);

  switch (cmd->set.elem_size) {
  case 1:
    return ah_cuda.cuMemsetD8Async(d, (unsigned char)cmd->set.value, cmd->set.count, s);
  case 2:
    return ah_cuda.cuMemsetD16Async(d, (unsigned short)cmd->set.value, cmd->set.count, s);
  default:
    return ah_cuda.cuMemsetD32Async(d, cmd->set.value, cmd->set.count, s);
  }
}

static CUresult memset_2d(const struct ah_cmd *cmd, CUstream s) {
  CUdeviceptr d = DPTR(cmd->set.dst);
  size_t pitch = cmd->set.pitch, w = cmd->set.count, h = cmd->set.height;

  switch (cmd->set.elem_size) {
  case 1:
    return ah_cuda.cuMemsetD2D8Async(d, pitch, (unsigned char)cmd->set.value, w, h, s);
  case 2:
    return ah_cuda.cuMemsetD2D16Async(d, pitch, (unsigned short)cmd->set.value, w, h, s);
  default:
    return ah_cuda.cuMemsetD2D32Async(d, pitch, cmd->set.value, w, h, s);
  }
}

static CUresult launch(struct ah_nv_device *nd, const struct ah_cmd *cmd, CUstream s,
                       hipError_t *lookup_err) {
  CUfunction f;
  const dim3 *g = &cmd->kernel.grid, *b = &cmd->kernel.block;
  unsigned int shm = (unsigned int)cmd->kernel.shared_bytes;

  *lookup_err = ah_nv_function(nd, cmd->kernel.fn, cmd->kernel.shared_bytes, &f);
  if (*lookup_err != hipSuccess)
    return CUDA_SUCCESS;
  /* The arguments array is exactly CUDA's kernelParams (one pointer per
   * parameter, each at the parameter's type); the driver copies them before
   * returning. */
  if (cmd->kernel.cooperative)
    return ah_cuda.cuLaunchCooperativeKernel(f, g->x, g->y, g->z, b->x, b->y, b->z, shm, s,
                                             cmd->kernel.args);
  return ah_cuda.cuLaunchKernel(f, g->x, g->y, g->z, b->x, b->y, b->z, shm, s, cmd->kernel.args,
                                NULL);
}

hipError_t ah_nv_submit(struct ah_device *dev, void *q, const struct ah_cmd *cmd, int wait) {
  struct ah_nv_device *nd = AH_NV(dev);
  CUstream s = STREAM(q);
  int legacy = s == CU_STREAM_LEGACY, done = 0;
  CUDA_MEMCPY2D c2;
  hipError_t err;
  CUresult r;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  switch (cmd->kind) {
  case AH_CMD_KERNEL:
    r = launch(nd, cmd, s, &err);
    if (err != hipSuccess)
      return err;
    break;
  case AH_CMD_COPY:
    if (wait && cmd->copy.kind == hipMemcpyHostToHost) {
      /* Two host buffers (pageable, as likely as not): the host copies them
       * once the queue's earlier work is done. */
      r = ah_cuda.cuStreamSynchronize(s);
      if (r == CUDA_SUCCESS)
        memmove(cmd->copy.dst, cmd->copy.src, cmd->copy.bytes);
      done = 1;
    } else if (wait && legacy) {
      /* What cudaMemcpy does: the driver's synchronous path, fastest for
       * pageable memory. A copy to the host is complete when it returns; the
       * others may still be in flight (pageable staging, device to device). */
      r = ah_cuda.cuMemcpy(DPTR(cmd->copy.dst), DPTR(cmd->copy.src), cmd->copy.bytes);
      done = cmd->copy.kind == hipMemcpyDeviceToHost;
    } else {
      r = ah_cuda.cuMemcpyAsync(DPTR(cmd->copy.dst), DPTR(cmd->copy.src), cmd->copy.bytes, s);
    }
    break;
  case AH_CMD_COPY_2D:
    copy2d(cmd, &c2);
    r = wait && legacy ? ah_cuda.cuMemcpy2D(&c2) : ah_cuda.cuMemcpy2DAsync(&c2, s);
    break;
  case AH_CMD_SET:
    r = cmd->set.height <= 1 ? memset_1d(cmd, s) : memset_2d(cmd, s);
    break;
  case AH_CMD_HOST_FN:
    /* The function runs on a driver thread once the stream's earlier work is
     * done; like CUDA, it must not call the runtime. */
    r = ah_cuda.cuLaunchHostFunc(s, cmd->host_fn.fn, cmd->host_fn.data);
    break;
  default:
    return hipErrorInvalidValue;
  }
  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "device %d: command %d: %s", dev->ordinal, (int)cmd->kind,
           ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  if (wait && !done)
    return ah_cuda_status(ah_cuda.cuStreamSynchronize(s));
  return hipSuccess;
}

hipError_t ah_nv_queue_sync(struct ah_device *dev, void *q) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuStreamSynchronize(STREAM(q)));
}

hipError_t ah_nv_queue_query(struct ah_device *dev, void *q) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuStreamQuery(STREAM(q)));
}

hipError_t ah_nv_device_sync(struct ah_device *dev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuCtxSynchronize());
}

hipError_t ah_nv_event_create(struct ah_device *dev, unsigned flags, void **ev) {
  unsigned cu_flags = CU_EVENT_DEFAULT;
  CUevent e = NULL;
  hipError_t err = ah_nv_enter(AH_NV(dev));

  if (err != hipSuccess)
    return err;
  if (flags & hipEventBlockingSync)
    cu_flags |= CU_EVENT_BLOCKING_SYNC;
  if (flags & hipEventDisableTiming)
    cu_flags |= CU_EVENT_DISABLE_TIMING;
  if (flags & hipEventInterprocess)
    cu_flags |= CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING;
  err = ah_cuda_status(ah_cuda.cuEventCreate(&e, cu_flags));
  if (err == hipSuccess)
    *ev = e;
  return err;
}

hipError_t ah_nv_event_destroy(struct ah_device *dev, void *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventDestroy(EVENT(ev)));
}

hipError_t ah_nv_event_record(struct ah_device *dev, void *q, void *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventRecord(EVENT(ev), STREAM(q)));
}

hipError_t ah_nv_event_query(struct ah_device *dev, void *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventQuery(EVENT(ev)));
}

hipError_t ah_nv_event_sync(struct ah_device *dev, void *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventSynchronize(EVENT(ev)));
}

hipError_t ah_nv_event_elapsed(struct ah_device *dev, void *start, void *stop, float *ms) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  if (err != hipSuccess)
    return err;
  return ah_cuda_status(ah_cuda.cuEventElapsedTime(ms, EVENT(start), EVENT(stop)));
}

hipError_t ah_nv_queue_wait_event(struct ah_device *dev, void *q, void *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err
                           : ah_cuda_status(ah_cuda.cuStreamWaitEvent(STREAM(q), EVENT(ev), 0));
}
