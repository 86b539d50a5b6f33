/* SPDX-License-Identifier: MIT */
/* The core's one way to a backend op for the rest of the runtime (src/api/
 * included): a small wrapper per op. Required ops (AH_BACKEND_REQUIRED in
 * backend.h, checked when the backend is probed) are called as they are;
 * each optional op's wrapper applies the fallback backend.h names for a NULL
 * op, here and nowhere else. Same contracts as the ops: any thread, no core
 * lock held unless the caller's own contract says so. */
#ifndef AH_DEVICE_OPS_H
#define AH_DEVICE_OPS_H

#include "internal.h"

/* ---- required ops ---- */

static inline hipError_t ah_dev_sync(struct ah_device *dev) {
  return dev->backend->device_sync(dev);
}

static inline hipError_t ah_dev_queue_sync(struct ah_device *dev, struct ah_queue *q) {
  return dev->backend->queue_sync(dev, q);
}

static inline hipError_t ah_dev_queue_query(struct ah_device *dev, struct ah_queue *q) {
  return dev->backend->queue_query(dev, q);
}

static inline hipError_t ah_dev_queue_wait_event(struct ah_device *dev, struct ah_queue *q,
                                                 struct ah_dev_event *ev) {
  return dev->backend->queue_wait_event(dev, q, ev);
}

/* An event's query and wait, on the event's own device. */
static inline hipError_t ah_dev_event_query(const struct ah_event *e) {
  return e->dev->backend->event_query(e->dev, e->impl);
}

static inline hipError_t ah_dev_event_sync(const struct ah_event *e) {
  return e->dev->backend->event_sync(e->dev, e->impl);
}

/* Milliseconds from a to b, two events of a's device. */
static inline hipError_t ah_dev_event_elapsed(const struct ah_event *a, const struct ah_event *b,
                                              float *ms) {
  return a->dev->backend->event_elapsed(a->dev, a->impl, b->impl, ms);
}

/* ---- optional ops and their fallbacks ---- */

static inline hipError_t ah_dev_reset(struct ah_device *dev) {
  return dev->backend->device_reset != NULL ? dev->backend->device_reset(dev) : hipSuccess;
}

static inline hipError_t ah_dev_mem_info(struct ah_device *dev, size_t *free_bytes,
                                         size_t *total_bytes) {
  if (dev->backend->mem_info != NULL)
    return dev->backend->mem_info(dev, free_bytes, total_bytes);
  *free_bytes = *total_bytes = dev->props.totalGlobalMem;
  return hipSuccess;
}

static inline hipError_t ah_dev_attribute(struct ah_device *dev, hipDeviceAttribute_t attr,
                                          int *value) {
  return dev->backend->attribute != NULL ? dev->backend->attribute(dev, attr, value)
                                         : hipErrorInvalidValue;
}

static inline hipError_t ah_dev_set_limit(struct ah_device *dev, hipLimit_t limit, size_t value) {
  return dev->backend->set_limit != NULL ? dev->backend->set_limit(dev, limit, value) : hipSuccess;
}

/* Whether dev reaches peer, a device of the same backend. */
static inline int ah_dev_can_access_peer(struct ah_device *dev, struct ah_device *peer) {
  return dev->backend->can_access_peer != NULL ? dev->backend->can_access_peer(dev, peer) : 1;
}

/* Whether a and b are devices of one address space: the same backend with
 * no peer rule of its own (the CPU's virtual devices). */
static inline int ah_dev_share_memory(const struct ah_device *a, const struct ah_device *b) {
  return a->backend == b->backend && a->backend->can_access_peer == NULL;
}

static inline hipError_t ah_dev_peer_enable(struct ah_device *dev, struct ah_device *peer,
                                            int enable) {
  return dev->backend->peer_enable != NULL ? dev->backend->peer_enable(dev, peer, enable)
                                           : hipSuccess;
}

static inline hipError_t ah_dev_host_register(struct ah_device *dev, void *ptr, size_t bytes,
                                              unsigned flags, void **device_ptr) {
  return dev->backend->host_register != NULL
             ? dev->backend->host_register(dev, ptr, bytes, flags, device_ptr)
             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_host_unregister(struct ah_device *dev, void *ptr) {
  return dev->backend->host_unregister != NULL ? dev->backend->host_unregister(dev, ptr)
                                               : hipSuccess;
}

static inline hipError_t ah_dev_symbol_address(struct ah_device *dev, const void *host_symbol,
                                               void **out, size_t *bytes) {
  return dev->backend->symbol_address != NULL
             ? dev->backend->symbol_address(dev, host_symbol, out, bytes)
             : hipErrorInvalidSymbol;
}

static inline hipError_t ah_dev_function_check(struct ah_device *dev, const void *fn) {
  return dev->backend->function_check != NULL ? dev->backend->function_check(dev, fn) : hipSuccess;
}

/* The backend's attributes of kernel fn; hipErrorNotSupported when it has
 * none to give: the caller answers from the device's limits (backend.h). */
static inline hipError_t ah_dev_function_attributes(struct ah_device *dev, const void *fn,
                                                    hipFuncAttributes *out) {
  return dev->backend->function_attributes != NULL ? dev->backend->function_attributes(dev, fn, out)
                                                   : hipErrorNotSupported;
}

/* The most blocks a cooperative grid may have; no limit where submit checks. */
static inline uint64_t ah_dev_coop_max_blocks(struct ah_device *dev, unsigned threads,
                                              size_t shmem) {
  return dev->backend->coop_max_blocks != NULL ? dev->backend->coop_max_blocks(dev, threads, shmem)
                                               : UINT64_MAX;
}

static inline hipError_t ah_dev_managed_hint(struct ah_device *dev,
                                             const struct ah_managed_hint *hint) {
  return dev->backend->managed_hint != NULL ? dev->backend->managed_hint(dev, hint) : hipSuccess;
}

/* hipErrorNotSupported: the caller's host-function fallback. */
static inline hipError_t ah_dev_stream_memop(struct ah_device *dev, struct ah_queue *q,
                                             const struct ah_memop_req *req) {
  return dev->backend->stream_memop != NULL ? dev->backend->stream_memop(dev, q, req)
                                            : hipErrorNotSupported;
}

static inline hipError_t ah_dev_ipc_mem_export(struct ah_device *dev, void *base, size_t bytes,
                                               void *handle) {
  return dev->backend->ipc_mem_export != NULL
             ? dev->backend->ipc_mem_export(dev, base, bytes, handle)
             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_ipc_mem_open(struct ah_device *dev, const void *handle, void **base,
                                             size_t *bytes) {
  return dev->backend->ipc_mem_open != NULL ? dev->backend->ipc_mem_open(dev, handle, base, bytes)
                                            : hipErrorNotSupported;
}

static inline hipError_t ah_dev_ipc_mem_close(struct ah_device *dev, void *base) {
  return dev->backend->ipc_mem_close != NULL ? dev->backend->ipc_mem_close(dev, base)
                                             : hipErrorNotSupported;
}

/* Whether dev shares interprocess events itself (ah_dev_ipc_event_*); else
 * the core shares them through a page of shared memory (core/ipc_event.c). */
static inline int ah_dev_ipc_events_native(const struct ah_device *dev) {
  return dev->backend->ipc_event_export != NULL;
}

static inline hipError_t ah_dev_ipc_event_export(const struct ah_event *e, void *handle) {
  return e->dev->backend->ipc_event_export(e->dev, e->impl, handle);
}

static inline hipError_t ah_dev_ipc_event_open(struct ah_device *dev, const void *handle,
                                               struct ah_dev_event **ev) {
  return dev->backend->ipc_event_open(dev, handle, ev);
}

/* ---- virtual memory (all or none, AH_BACKEND_VMM): hipErrorNotSupported without ---- */

static inline int ah_dev_has_vmm(const struct ah_device *dev) {
  return dev->backend->vmm_create != NULL;
}

static inline hipError_t ah_dev_vmm_granularity(struct ah_device *dev, int recommended,
                                                size_t *out) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_granularity(dev, recommended, out)
                             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_create(struct ah_device *dev, size_t bytes, int shareable,
                                           uint64_t *phys) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_create(dev, bytes, shareable, phys)
                             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_release(struct ah_device *dev, uint64_t phys) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_release(dev, phys) : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_export(struct ah_device *dev, uint64_t phys, int *fd) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_export(dev, phys, fd) : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_import(struct ah_device *dev, int fd, uint64_t *phys,
                                           size_t *bytes) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_import(dev, fd, phys, bytes)
                             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_reserve(struct ah_device *dev, size_t bytes,
                                            size_t alignment, void *hint, void **out) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_reserve(dev, bytes, alignment, hint, out)
                             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_address_free(struct ah_device *dev, void *base,
                                                 size_t bytes) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_address_free(dev, base, bytes)
                             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_map(struct ah_device *dev, void *ptr, size_t bytes,
                                        uint64_t phys, size_t offset) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_map(dev, ptr, bytes, phys, offset)
                             : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_unmap(struct ah_device *dev, void *ptr, size_t bytes) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_unmap(dev, ptr, bytes) : hipErrorNotSupported;
}

static inline hipError_t ah_dev_vmm_set_access(struct ah_device *dev, void *ptr, size_t bytes,
                                               const struct ah_vmm_access *acc, size_t n) {
  return ah_dev_has_vmm(dev) ? dev->backend->vmm_set_access(dev, ptr, bytes, acc, n)
                             : hipErrorNotSupported;
}

#endif
