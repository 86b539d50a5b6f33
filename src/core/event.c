/* SPDX-License-Identifier: MIT */
/* An event's record on a queue and a queue's wait for an event: the one
 * sequence behind hipEventRecord, hipStreamWaitEvent, the extension
 * launches' start and stop events and a graph's event nodes (through the
 * capture hooks while a capture runs; then the pool and interprocess
 * bookkeeping); and an event opened from another process's handle. The
 * event objects themselves are stream.c's. */
#include "device_ops.h"
#include "stream.h"

hipError_t ah_event_record_on(struct ah_event *e, struct ah_device *dev, struct ah_queue *q,
                              int capture) {
  hipError_t err;

  if (capture) {
    int done = 0;

    err = ah_capture_event_record(q, e, &done); /* on a capturing stream: an edge */
    if (err != hipSuccess || done)
      return err;
  }
  err = dev->backend->event_record(dev, q, e->impl);
  if (err == hipSuccess)
    ah_mempool_note_record(e, q);          /* the pool frees it follows */
  if (err == hipSuccess && e->ipc != NULL) /* shared with another process */
    err = ah_ipc_event_recorded(e, dev, q);
  if (err == hipSuccess)
    e->recorded = 1;
  return err;
}

hipError_t ah_event_record(struct ah_event *e, hipStream_t stream) {
  struct ah_device *dev;
  hipError_t err;
  struct ah_queue *q;

  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  /* The stream must be on the event's device. */
  if (dev != e->dev)
    return hipErrorInvalidHandle;
  return ah_event_record_on(e, dev, q, atomic_load(&ah_capture_count) != 0);
}

hipError_t ah_event_wait_on(struct ah_event *e, struct ah_device *dev, struct ah_queue *q,
                            int capture) {
  hipError_t err;

  if (capture) {
    int done = 0;

    err = ah_capture_wait_event(dev, q, e, &done); /* edges between captured streams */
    if (err != hipSuccess || done)
      return err;
  }
  if (e->dev->backend != dev->backend) {
    /* Different kinds of device cannot wait on each other's events: wait on
     * the host now; everything queued on the stream later comes after. */
    err = ah_dev_event_sync(e);
  } else {
    err = ah_dev_queue_wait_event(dev, q, e->impl);
  }
  if (err != hipSuccess)
    return err;
  if (e->dev == dev)
    ah_mempool_note_wait(q, e); /* pool blocks freed before the record may go to q */
  if (e->ipc != NULL)           /* an interprocess event: records of other processes too */
    return ah_ipc_event_wait(e, dev, q);
  return hipSuccess;
}

/* The opened event has the flags hipEventDisableTiming | hipEventInterprocess:
 * the backend's own, or one made here and attached to the exporter's shared
 * page (ipc_event.c). */
hipError_t ah_ipc_event_import(struct ah_device *dev, const void *handle, hipEvent_t *out) {
  const unsigned flags = hipEventDisableTiming | hipEventInterprocess;
  struct ah_dev_event *impl = NULL;
  struct ah_event *e;
  hipError_t err;

  if (ah_dev_ipc_events_native(dev)) {
    if ((err = ah_dev_ipc_event_open(dev, handle, &impl)) != hipSuccess)
      return err;
    return ah_event_adopt(dev, flags, impl, out);
  }
  if ((err = ah_event_create(dev, flags, &e)) != hipSuccess)
    return err;
  if ((err = ah_ipc_event_attach(e, handle)) != hipSuccess) {
    ah_event_destroy(e);
    return err;
  }
  *out = (hipEvent_t)e;
  return hipSuccess;
}
