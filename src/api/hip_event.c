/* SPDX-License-Identifier: MIT */
/* HIP's event entry points. An event belongs to the device that was current
 * when it was made; it can be recorded on any stream of that device (the
 * null and per-thread streams included), queried, waited for, and timed
 * against another event. Error codes follow HIP on AMD. */
#include "../core/graph.h" /* capture refusals */
#include "../core/stream.h"
#include "device_ops.h"

#ifndef hipEventDisableSystemFence
#define hipEventDisableSystemFence 0x20000000u
#endif

#define AH_EVENT_FLAGS                                                                             \
  ((unsigned)(hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess |                \
              hipEventReleaseToDevice | hipEventReleaseToSystem | hipEventDisableSystemFence))
#define AH_EVENT_RELEASE_FLAGS                                                                     \
  ((unsigned)(hipEventReleaseToDevice | hipEventReleaseToSystem | hipEventDisableSystemFence))

static hipError_t create(hipEvent_t *event, unsigned flags) {
  struct ah_device *dev = ah_current_device();
  struct ah_event *e;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  err = ah_event_create(dev, flags, &e);
  if (err == hipSuccess)
    *event = (hipEvent_t)e;
  return err;
}

AH_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  unsigned release = flags & AH_EVENT_RELEASE_FLAGS;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~AH_EVENT_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE((release & (release - 1)) == 0, hipErrorInvalidValue); /* at most one */
  /* An interprocess event cannot be timed (HIP and CUDA). */
  AH_REQUIRE(!(flags & hipEventInterprocess) || (flags & hipEventDisableTiming),
             hipErrorInvalidValue);
  AH_RETURN(create(event, flags));
}

AH_EXPORT hipError_t hipEventCreate(hipEvent_t *event) {
  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidValue);
  AH_RETURN(create(event, hipEventDefault));
}

AH_EXPORT hipError_t hipEventDestroy(hipEvent_t event) {
  struct ah_event *e;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorContextIsDestroyed); /* HIP's code for a destroyed event */
  AH_RETURN(ah_event_destroy(e));
}

AH_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  struct ah_event *e;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidHandle);
  AH_RETURN(ah_event_record(e, stream));
}

/* hipEventRecordExternal only matters inside a stream capture (an external
 * event node in CUDA); outside one it is a plain record, as in HIP. During
 * a capture it is recorded like hipEventRecord (docs/graphs.md). */
AH_EXPORT hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream,
                                             unsigned int flags) {
  struct ah_event *e;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidHandle);
  AH_REQUIRE((flags & ~(unsigned)hipEventRecordExternal) == 0, hipErrorInvalidValue);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidHandle);
  AH_RETURN(ah_event_record(e, stream));
}

/* An event never recorded counts as complete (HIP and CUDA). */
AH_EXPORT hipError_t hipEventQuery(hipEvent_t event) {
  struct ah_event *e;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidHandle);
  AH_REQUIRE_OK(ah_capture_check_event(e)); /* recorded in a capture still going */
  AH_REQUIRE_OK(ah_dev_event_query(e));
  AH_REQUIRE(e->ipc == NULL || ah_ipc_event_done(e), hipErrorNotReady);
  return hipSuccess;
}

AH_EXPORT hipError_t hipEventSynchronize(hipEvent_t event) {
  struct ah_event *e;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidHandle);
  AH_NOT_IN_HOST_FN();
  AH_REQUIRE_OK(ah_capture_check_event(e)); /* recorded in a capture still going */
  AH_REQUIRE_OK(ah_capture_check_unsafe()); /* an unsafe call during capture (AMD: 900) */
  AH_REQUIRE_OK(ah_dev_event_sync(e));
  if (e->ipc != NULL) /* records made by other processes too */
    ah_ipc_event_sync(e);
  ah_mempool_sync(e->dev); /* pools give back memory above their release threshold */
  return hipSuccess;
}

/* Milliseconds from start to stop. Both must be recorded, timed, complete,
 * and of one device. */
AH_EXPORT hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
  struct ah_event *a, *b;

  AH_ENTER();
  AH_REQUIRE(ms != NULL, hipErrorInvalidValue);
  AH_REQUIRE(start != NULL && stop != NULL, hipErrorInvalidHandle);
  a = ah_event_lookup(start);
  b = ah_event_lookup(stop);
  AH_REQUIRE(a != NULL && b != NULL, hipErrorInvalidHandle);
  AH_REQUIRE(a->dev == b->dev, hipErrorInvalidHandle);
  AH_REQUIRE(!((a->flags | b->flags) & hipEventDisableTiming), hipErrorInvalidHandle);
  AH_REQUIRE(a->recorded && b->recorded, hipErrorInvalidHandle);
  AH_RETURN(ah_dev_event_elapsed(a, b, ms));
}
