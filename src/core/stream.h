/* SPDX-License-Identifier: MIT */
/* Core streams and events (src/core/stream.c): creating and destroying the
 * objects behind hipStream_t and hipEvent_t, turning user handles back into
 * objects, and the per-thread default stream. No argument checks here; the
 * entry points in src/api/ do them. */
#ifndef AH_STREAM_H
#define AH_STREAM_H

#include "internal.h"

/* Stream priorities, as HIP on AMD reports them through
 * hipDeviceGetStreamPriorityRange: lower is more urgent; the default is 0. */
#define AH_STREAM_PRIORITY_LEAST 1
#define AH_STREAM_PRIORITY_GREATEST (-1)

/* Makes a stream on dev (flags: hipStreamDefault or hipStreamNonBlocking;
 * priority already clamped) and links it into dev->streams. */
hipError_t ah_stream_create(struct ah_device *dev, unsigned flags, int priority,
                            struct ah_stream **out);
/* Compute-unit masks (hipExtStreamCreateWithCUMask, hipExtStreamGetCUMask):
 * the 32-bit words a mask of dev's compute units takes; a default stream on
 * dev with the mask mask[0..words) (bits past dev's compute units ignored; a
 * mask that leaves none gives every one); and s's mask (NULL: the null
 * stream, every compute unit of dev) in out[0..words), words at least
 * ah_cu_mask_words(dev), the rest cleared. The mask is recorded and read
 * back; no backend partitions its device by it. */
uint32_t ah_cu_mask_words(const struct ah_device *dev);
hipError_t ah_stream_create_cu_mask(struct ah_device *dev, const uint32_t *mask, uint32_t words,
                                    hipStream_t *out);
void ah_stream_get_cu_mask(const struct ah_stream *s, const struct ah_device *dev, uint32_t *out,
                           uint32_t words);
/* Unlinks and frees s; its queued work still completes in the background. */
hipError_t ah_stream_destroy(struct ah_stream *s);
/* hipDeviceReset: destroys every user stream of dev, per-thread ones included. */
void ah_streams_destroy_all(struct ah_device *dev);
/* The live user stream behind h (hipStreamPerThread: this thread's, made on
 * first use), or NULL for the null stream (NULL, hipStreamLegacy). Returns
 * hipErrorContextIsDestroyed for a destroyed or foreign handle, as HIP does. */
hipError_t ah_stream_lookup(hipStream_t h, struct ah_stream **out);

hipError_t ah_event_create(struct ah_device *dev, unsigned flags, struct ah_event **out);
/* Returns hipErrorContextIsDestroyed when another thread, or
 * ah_events_destroy_all, destroyed e first. */
hipError_t ah_event_destroy(struct ah_event *e);
/* hipDeviceReset: destroys every event of dev. */
void ah_events_destroy_all(struct ah_device *dev);
/* The live event behind h, or NULL. */
struct ah_event *ah_event_lookup(hipEvent_t h);
/* An event around a backend event made elsewhere (hipIpcOpenEventHandle of
 * a backend with its own interprocess events); the event owns impl. */
hipError_t ah_event_adopt(struct ah_device *dev, unsigned flags, struct ah_dev_event *impl,
                          hipEvent_t *out);

/* Interprocess events shared through a page of shared memory
 * (core/ipc_event.c), for events with e->ipc set: a record's number and
 * its completion on (dev, q); whether all records so far are complete; a
 * host-side wait; a stream wait; and the release at destroy. */
hipError_t ah_ipc_event_recorded(struct ah_event *e, struct ah_device *dev, struct ah_queue *q);
int ah_ipc_event_done(const struct ah_event *e);
void ah_ipc_event_sync(struct ah_event *e);
hipError_t ah_ipc_event_wait(struct ah_event *e, struct ah_device *dev, struct ah_queue *q);
void ah_ipc_event_release(struct ah_event *e);
/* hipIpcGetEventHandle's and hipIpcOpenEventHandle's work: the handle bytes
 * (`size`, zeroed first) of e, the backend's own or those of e's shared page
 * (made at the first export), ipc_event.c; the event an imported handle
 * names, of device dev, event.c. */
hipError_t ah_ipc_event_export(struct ah_event *e, void *handle, size_t size);
hipError_t ah_ipc_event_import(struct ah_device *dev, const void *handle, hipEvent_t *out);
/* The shared page a handle of another process names, mapped as e's (an event
 * of this process, made for it). */
hipError_t ah_ipc_event_attach(struct ah_event *e, const void *handle);

/* event.c. Records e on queue q of dev (e's device), or adds it to q's
 * capture when `capture`; and makes q wait for e's last record (on the host
 * for an event of another kind of device). Leave the last error alone. */
hipError_t ah_event_record_on(struct ah_event *e, struct ah_device *dev, struct ah_queue *q,
                              int capture);
hipError_t ah_event_wait_on(struct ah_event *e, struct ah_device *dev, struct ah_queue *q,
                            int capture);
/* memop.c. hipStreamWaitValue32/64 (write 0; op a hipStreamWaitValue*
 * condition) and hipStreamWriteValue32/64 (write 1) on stream: the word at
 * ptr (wide: 64 bits, aligned), in memory HIP knows, against value under
 * mask. */
hipError_t ah_stream_memop(hipStream_t stream, void *ptr, uint64_t value, uint64_t mask,
                           unsigned op, int wide, int write);
/* hipStreamBatchMemOp's operations (and a batch memory operation node's):
 * check answers whether every one is valid (hipErrorInvalidValue if not),
 * queue puts them on q of dev, in order, as the single calls do. */
hipError_t ah_batch_check(const hipStreamBatchMemOpParams *ops, unsigned count, unsigned flags);
hipError_t ah_batch_queue(struct ah_device *dev, struct ah_queue *q,
                          const hipStreamBatchMemOpParams *ops, unsigned count);
/* hipEventRecord's work: records e on stream, a stream of e's device
 * (hipErrorInvalidHandle otherwise), through the capture hooks while any
 * capture runs. */
hipError_t ah_event_record(struct ah_event *e, hipStream_t stream);

#endif
