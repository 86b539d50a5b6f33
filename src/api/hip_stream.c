/* SPDX-License-Identifier: MIT */
/* HIP's stream entry points: creation with flags and priorities, destroy,
 * query and synchronize, waits on events, host functions and callbacks, and
 * the stream's flags, priority and device. Handles are resolved by the core
 * (NULL and hipStreamLegacy are the null stream, hipStreamPerThread the
 * thread's own); the backend queue does the work. */
#include "../core/graph.h" /* capture refusals */
#include "../core/stream.h"
#include "device_ops.h"

#include <stdlib.h>

static int clamp_priority(int p) {
  if (p < AH_STREAM_PRIORITY_GREATEST)
    return AH_STREAM_PRIORITY_GREATEST;
  if (p > AH_STREAM_PRIORITY_LEAST)
    return AH_STREAM_PRIORITY_LEAST;
  return p;
}

static hipError_t create(hipStream_t *stream, unsigned flags, int priority) {
  struct ah_device *dev = ah_current_device();
  struct ah_stream *s;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  err = ah_stream_create(dev, flags, clamp_priority(priority), &s);
  if (err == hipSuccess)
    *stream = (hipStream_t)s;
  return err;
}

AH_EXPORT hipError_t hipStreamCreate(hipStream_t *stream) {
  AH_ENTER();
  AH_REQUIRE(stream != NULL, hipErrorInvalidValue);
  AH_RETURN(create(stream, hipStreamDefault, 0));
}

AH_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(stream != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)hipStreamNonBlocking) == 0, hipErrorInvalidValue);
  AH_RETURN(create(stream, flags, 0));
}

/* Out-of-range priorities are clamped, as in HIP and CUDA. */
AH_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags,
                                                 int priority) {
  AH_ENTER();
  AH_REQUIRE(stream != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)hipStreamNonBlocking) == 0, hipErrorInvalidValue);
  AH_RETURN(create(stream, flags, priority));
}

AH_EXPORT hipError_t hipStreamDestroy(hipStream_t stream) {
  struct ah_stream *s;

  AH_ENTER();
  /* The null stream and the per-thread stream are not the user's to destroy. */
  AH_REQUIRE(stream != NULL && stream != hipStreamPerThread, hipErrorInvalidHandle);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  AH_REQUIRE(s != NULL, hipErrorInvalidHandle); /* hipStreamLegacy */
  ah_capture_drop(s->queue); /* a capture it was part of ends (core/capture.c) */
  AH_RETURN(ah_stream_destroy(s));
}

AH_EXPORT hipError_t hipStreamQuery(hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  AH_REQUIRE_OK(ah_capture_check_sync(q));
  AH_RETURN(ah_dev_queue_query(dev, q));
}

AH_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  AH_NOT_IN_HOST_FN();
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  AH_REQUIRE_OK(ah_capture_check_sync(q));
  /* Synchronizing any other stream is an unsafe call during capture (AMD:
   * 900 under this thread's Global or ThreadLocal capture or another
   * thread's Global one). */
  AH_REQUIRE_OK(ah_capture_check_unsafe());
  AH_REQUIRE_OK(ah_dev_queue_sync(dev, q));
  ah_mempool_sync(dev); /* pools give back memory above their release threshold */
  return hipSuccess;
}

AH_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  struct ah_device *dev;
  struct ah_event *e;
  struct ah_queue *q;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(event != NULL, hipErrorInvalidHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidHandle);
  /* A stream the runtime does not know (destroyed, or never made) is an
   * invalid handle here, as AMD's runtime says, where the other stream
   * functions say hipErrorContextIsDestroyed (docs/semantics.md). */
  err = ah_stream_resolve(stream, &dev, &q);
  AH_REQUIRE(err != hipErrorContextIsDestroyed, hipErrorInvalidHandle);
  AH_REQUIRE_OK(err);
  AH_RETURN(ah_event_wait_on(e, dev, q, atomic_load(&ah_capture_count) != 0));
}

AH_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags) {
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE(flags != NULL, hipErrorInvalidValue);
  AH_REQUIRE(stream != NULL, hipErrorInvalidValue); /* as HIP on AMD */
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  *flags = s != NULL ? s->flags : hipStreamDefault;
  return hipSuccess;
}

AH_EXPORT hipError_t hipStreamGetPriority(hipStream_t stream, int *priority) {
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE(priority != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  *priority = s != NULL ? s->priority : 0;
  return hipSuccess;
}

AH_EXPORT hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device) {
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  AH_REQUIRE(device != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  *device = dev->ordinal;
  return hipSuccess;
}

AH_EXPORT hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  AH_REQUIRE(fn != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  cmd.host_fn.fn = fn;
  cmd.host_fn.data = userData;
  AH_RETURN(ah_submit(dev, q, &cmd, 0));
}

struct callback {
  hipStreamCallback_t fn;
  hipStream_t stream;
  void *data;
};

/* Runs on the queue's thread once the work before it is done. */
static void run_callback(void *p) {
  struct callback cb = *(struct callback *)p;

  free(p);
  cb.fn(cb.stream, hipSuccess, cb.data);
}

AH_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
                                          void *userData, unsigned int flags) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct ah_device *dev;
  struct callback *cb;
  hipError_t err;
  struct ah_queue *q;

  AH_ENTER();
  AH_REQUIRE(callback != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue); /* reserved, must be 0 */
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  /* The wrapper frees itself when run once: it cannot be a graph node. */
  AH_REQUIRE_OK(ah_capture_check_sync(q));
  cb = malloc(sizeof(*cb));
  AH_REQUIRE(cb != NULL, hipErrorOutOfMemory);
  *cb = (struct callback){callback, stream, userData};
  cmd.host_fn.fn = run_callback;
  cmd.host_fn.data = cb;
  err = ah_submit(dev, q, &cmd, 0);
  if (err != hipSuccess)
    free(cb);
  AH_RETURN(err);
}
