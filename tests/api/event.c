/* SPDX-License-Identifier: MIT */
/* Tests of the event API: creation flags, destroy and stale handles, records
 * on every kind of stream, query while pending (a host function holds the
 * stream), synchronize (blocking-sync events too), elapsed time and its
 * errors, re-recording, the one-device rules across two CPU devices, and
 * handles that are garbage, destroyed or gone with hipDeviceReset. */
#include "ah_test.h"
#include "garbage_handles.h"
#include "gate.h"

#include <stdint.h>
#include <stdlib.h>

#define BLOCK_STREAM(s, g) CHECK_HIP(hipLaunchHostFunc((s), gate_fn, (g)))

static void sleep_fn(void *p) {
  sleep_ms(*(int *)p);
}

AH_TEST(event_create_flags) {
  static const unsigned ok[] = {
      hipEventDefault,
      hipEventBlockingSync,
      hipEventDisableTiming,
      hipEventBlockingSync | hipEventDisableTiming,
      hipEventInterprocess | hipEventDisableTiming,
      hipEventReleaseToDevice,
      hipEventReleaseToSystem,
  };
  hipEvent_t e = NULL;

  for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
    e = NULL;
    CHECK_HIP(hipEventCreateWithFlags(&e, ok[i]));
    CHECK(e != NULL);
    CHECK_HIP(hipEventDestroy(e));
  }
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventDestroy(e));
  return AH_PASS;
}

AH_TEST(event_create_errors) {
  hipEvent_t e = NULL;

  CHECK_ERR(hipEventCreate(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipEventCreateWithFlags(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipEventCreateWithFlags(&e, 0x08000000u), hipErrorInvalidValue);
  CHECK_ERR(hipEventCreateWithFlags(&e, 0x8u), hipErrorInvalidValue);
  /* Interprocess needs DisableTiming; at most one release scope. */
  CHECK_ERR(hipEventCreateWithFlags(&e, hipEventInterprocess), hipErrorInvalidValue);
  CHECK_ERR(hipEventCreateWithFlags(&e, hipEventReleaseToDevice | hipEventReleaseToSystem),
            hipErrorInvalidValue);
  CHECK(e == NULL);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(event_destroy_errors) {
  hipEvent_t e;
  float ms;

  CHECK_ERR(hipEventDestroy(NULL), hipErrorInvalidHandle);
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventRecord(e, NULL));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_ERR(hipEventDestroy(e), hipErrorContextIsDestroyed);
  CHECK_ERR(hipEventQuery(e), hipErrorInvalidHandle);
  CHECK_ERR(hipEventSynchronize(e), hipErrorInvalidHandle);
  CHECK_ERR(hipEventRecord(e, NULL), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, e, e), hipErrorInvalidHandle);
  CHECK_ERR(hipEventQuery(NULL), hipErrorInvalidHandle);
  CHECK_ERR(hipEventSynchronize(NULL), hipErrorInvalidHandle);
  CHECK_ERR(hipEventRecord(NULL, NULL), hipErrorInvalidHandle);
  return AH_PASS;
}

/* An event never recorded is complete, but has no time. */
AH_TEST(event_never_recorded) {
  hipEvent_t a, b;
  float ms = -1;

  CHECK_HIP(hipEventCreate(&a));
  CHECK_HIP(hipEventCreate(&b));
  CHECK_HIP(hipEventQuery(a));
  CHECK_HIP(hipEventSynchronize(a));
  CHECK_ERR(hipEventElapsedTime(&ms, a, b), hipErrorInvalidHandle);
  CHECK_HIP(hipEventRecord(a, NULL));
  CHECK_HIP(hipEventSynchronize(a));
  CHECK_ERR(hipEventElapsedTime(&ms, a, b), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, b, a), hipErrorInvalidHandle);
  CHECK_EQ(ms, -1);
  CHECK_HIP(hipEventDestroy(a));
  CHECK_HIP(hipEventDestroy(b));
  return AH_PASS;
}

AH_TEST(event_query_not_ready) {
  struct gate g = GATE_INIT;
  hipStream_t s;
  hipEvent_t e;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventCreate(&e));
  BLOCK_STREAM(s, &g);
  CHECK_HIP(hipEventRecord(e, s));
  CHECK_ERR(hipEventQuery(e), hipErrorNotReady);
  CHECK_EQ(hipPeekAtLastError(), hipSuccess); /* not ready is not an error */
  gate_open(&g);
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipEventQuery(e));
  CHECK_HIP(hipStreamQuery(s));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* Recording on every kind of stream of the event's device. */
AH_TEST(event_record_streams) {
  hipStream_t s, nb;
  hipEvent_t e;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventRecord(e, NULL));
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipEventRecord(e, hipStreamLegacy));
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipEventRecord(e, hipStreamPerThread));
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipEventRecord(e, s));
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipEventRecord(e, nb));
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_ERR(hipEventRecord(e, s), hipErrorContextIsDestroyed);
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(nb));
  return AH_PASS;
}

/* The time between two records is the time the work between them took. */
AH_TEST(event_elapsed_time) {
  hipEvent_t a, b;
  int delay = 40;
  float ms = -1, back = 1, same = -1;

  CHECK_HIP(hipEventCreate(&a));
  CHECK_HIP(hipEventCreateWithFlags(&b, hipEventBlockingSync));
  CHECK_HIP(hipEventRecord(a, NULL));
  CHECK_HIP(hipLaunchHostFunc(NULL, sleep_fn, &delay));
  CHECK_HIP(hipEventRecord(b, NULL));
  CHECK_HIP(hipEventSynchronize(b));
  CHECK_HIP(hipEventElapsedTime(&ms, a, b));
  CHECK(ms >= delay - 1 && ms < 5000);
  CHECK_HIP(hipEventElapsedTime(&back, b, a));
  CHECK_NEAR(back, -ms, 0.01);
  CHECK_HIP(hipEventElapsedTime(&same, a, a));
  CHECK_EQ(same, 0);
  CHECK_HIP(hipEventDestroy(a));
  CHECK_HIP(hipEventDestroy(b));
  return AH_PASS;
}

AH_TEST(event_elapsed_errors) {
  struct gate g = GATE_INIT;
  hipEvent_t a, b, nt;
  float ms = -1;

  CHECK_HIP(hipEventCreate(&a));
  CHECK_HIP(hipEventCreate(&b));
  CHECK_HIP(hipEventCreateWithFlags(&nt, hipEventDisableTiming));
  CHECK_HIP(hipEventRecord(a, NULL));
  CHECK_HIP(hipEventRecord(b, NULL));
  CHECK_HIP(hipEventRecord(nt, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_ERR(hipEventElapsedTime(NULL, a, b), hipErrorInvalidValue);
  CHECK_ERR(hipEventElapsedTime(&ms, NULL, b), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, a, NULL), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, a, nt), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, nt, b), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, nt, nt), hipErrorInvalidHandle);
  CHECK_EQ(ms, -1);

  /* Stop not complete yet: not ready, and not kept as the last error. */
  (void)hipGetLastError();
  BLOCK_STREAM(NULL, &g);
  CHECK_HIP(hipEventRecord(b, NULL));
  CHECK_ERR(hipEventElapsedTime(&ms, a, b), hipErrorNotReady);
  CHECK_EQ(hipPeekAtLastError(), hipSuccess);
  gate_open(&g);
  CHECK_HIP(hipEventSynchronize(b));
  CHECK_HIP(hipEventElapsedTime(&ms, a, b));
  CHECK(ms >= 0);
  CHECK_HIP(hipEventDestroy(a));
  CHECK_HIP(hipEventDestroy(b));
  CHECK_HIP(hipEventDestroy(nt));
  return AH_PASS;
}

struct opener {
  struct gate *g;
  int after_ms;
};

static void *open_later(void *p) {
  struct opener *o = p;

  sleep_ms(o->after_ms);
  gate_open(o->g);
  return NULL;
}

/* hipEventSynchronize blocks until the record ran, for both sync kinds. */
AH_TEST(event_synchronize_waits) {
  static const unsigned kinds[] = {hipEventDefault, hipEventBlockingSync};

  for (int k = 0; k < 2; k++) {
    struct gate g = GATE_INIT;
    struct opener o = {&g, 40};
    pthread_t t;
    hipEvent_t e;
    double t0;

    CHECK_HIP(hipEventCreateWithFlags(&e, kinds[k]));
    BLOCK_STREAM(NULL, &g);
    CHECK_HIP(hipEventRecord(e, NULL));
    t0 = now_ms();
    CHECK_EQ(pthread_create(&t, NULL, open_later, &o), 0);
    CHECK_HIP(hipEventSynchronize(e));
    CHECK(now_ms() - t0 >= 35);
    CHECK_HIP(hipEventQuery(e));
    pthread_join(t, NULL);
    CHECK_HIP(hipEventDestroy(e));
  }
  return AH_PASS;
}

/* A query or sync follows the latest record only. */
AH_TEST(event_rerecord) {
  struct gate g = GATE_INIT;
  hipStream_t a, b;
  hipEvent_t e;

  CHECK_HIP(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
  CHECK_HIP(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
  CHECK_HIP(hipEventCreate(&e));
  BLOCK_STREAM(a, &g);
  CHECK_HIP(hipEventRecord(e, a));
  CHECK_ERR(hipEventQuery(e), hipErrorNotReady);
  CHECK_HIP(hipEventRecord(e, b));
  CHECK_HIP(hipEventSynchronize(e)); /* b is idle: returns although a is held */
  CHECK_HIP(hipEventQuery(e));
  CHECK_ERR(hipStreamQuery(a), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(a));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(a));
  CHECK_HIP(hipStreamDestroy(b));
  return AH_PASS;
}

/* Destroying an event whose record is still pending is allowed. */
AH_TEST(event_destroy_pending) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipEvent_t e;

  CHECK_HIP(hipEventCreate(&e));
  BLOCK_STREAM(NULL, &g);
  CHECK_HIP(hipEventRecord(e, NULL));
  CHECK_HIP(hipLaunchHostFunc(NULL, mark_fn, &ran));
  CHECK_HIP(hipEventDestroy(e));
  gate_open(&g);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&ran), 1);
  return AH_PASS;
}

/* Events recorded and timed around null-stream work from several streams. */
AH_TEST(event_null_stream_order) {
  struct gate g = GATE_INIT;
  hipStream_t s;
  hipEvent_t e;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventCreate(&e));
  BLOCK_STREAM(s, &g);
  /* A record on the null stream waits for the blocking stream's work. */
  CHECK_HIP(hipEventRecord(e, NULL));
  sleep_ms(20);
  CHECK_ERR(hipEventQuery(e), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipStreamQuery(s));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* With two devices: an event records only on its own device's streams and
 * times only against its own device's events, but can be queried, waited
 * for and waited on from anywhere. */
AH_TEST(event_two_devices) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipEvent_t e0, e1;
  hipStream_t s1;
  float ms;
  int n = 0;

  if (getenv("ANYHIP_CPU_DEVICES") == NULL)
    setenv("ANYHIP_CPU_DEVICES", "2", 1);
  CHECK_HIP(hipGetDeviceCount(&n));
  if (n < 2)
    SKIP("needs two devices");
  CHECK_HIP(hipEventCreate(&e0));
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipEventCreate(&e1));
  CHECK_HIP(hipStreamCreate(&s1));
  CHECK_ERR(hipEventRecord(e0, s1), hipErrorInvalidHandle);
  CHECK_ERR(hipEventRecord(e0, NULL), hipErrorInvalidHandle); /* device 1's null stream */
  CHECK_HIP(hipEventRecord(e1, s1));
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipEventRecord(e0, NULL));
  CHECK_HIP(hipEventSynchronize(e1));
  CHECK_HIP(hipEventQuery(e1));
  CHECK_HIP(hipEventSynchronize(e0));
  CHECK_ERR(hipEventElapsedTime(&ms, e0, e1), hipErrorInvalidHandle);

  /* Device 0's null stream waits for an event of device 1. */
  BLOCK_STREAM(s1, &g);
  CHECK_HIP(hipEventRecord(e1, s1));
  CHECK_HIP(hipStreamWaitEvent(NULL, e1, 0));
  CHECK_HIP(hipLaunchHostFunc(NULL, mark_fn, &ran));
  sleep_ms(30);
  CHECK_EQ(atomic_load(&ran), 0);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_HIP(hipEventDestroy(e0));
  CHECK_HIP(hipEventDestroy(e1));
  CHECK_HIP(hipStreamDestroy(s1));
  return AH_PASS;
}

/* ---- handles that are not events (audit) ----------------------------------- */

/* Every event-taking call refuses h; the codes are HIP's (a destroyed event
 * given to hipEventDestroy reads as hipErrorContextIsDestroyed). */
static int refuses_event(hipEvent_t h) {
  hipEvent_t good;
  hipStream_t s;
  float ms = -1;

  CHECK_HIP(hipEventCreate(&good));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventRecord(good, s));
  CHECK_HIP(hipEventSynchronize(good));
  CHECK_ERR(hipEventQuery(h), hipErrorInvalidHandle);
  CHECK_ERR(hipEventSynchronize(h), hipErrorInvalidHandle);
  CHECK_ERR(hipEventRecord(h, NULL), hipErrorInvalidHandle);
  CHECK_ERR(hipEventRecord(h, s), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, h, good), hipErrorInvalidHandle);
  CHECK_ERR(hipEventElapsedTime(&ms, good, h), hipErrorInvalidHandle);
  CHECK_EQ(ms, -1);
  CHECK_ERR(hipStreamWaitEvent(s, h, 0), hipErrorInvalidHandle);
  CHECK_ERR(hipStreamWaitEvent(NULL, h, 0), hipErrorInvalidHandle);
  CHECK_ERR(hipEventDestroy(h), hipErrorContextIsDestroyed);
  CHECK_EQ(hipGetLastError(), hipErrorContextIsDestroyed);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipEventDestroy(good));
  return AH_PASS;
}

static int refuses_event_handle(void *h) {
  return refuses_event((hipEvent_t)h);
}

AH_TEST(event_garbage_handles) {
  hipStream_t s;
  int rc;

  CHECK_HIP(hipStreamCreate(&s));
  rc = check_garbage_handles(2, refuses_event_handle, s); /* a stream is not an event */
  CHECK_HIP(hipStreamDestroy(s));
  return rc;
}

AH_TEST(event_destroyed_everywhere) {
  hipEvent_t e;

  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventRecord(e, NULL));
  CHECK_HIP(hipEventDestroy(e));
  CHECK(refuses_event(e) == AH_PASS);
  return AH_PASS;
}

/* hipDeviceReset destroys the device's events (HIP's guide: "all streams,
 * memory allocations, running kernels and events"): their handles are then
 * refused like destroyed ones, recorded or not, pending or not. */
AH_TEST(event_device_reset) {
  hipEvent_t never, done, pending, timed;
  hipStream_t s;
  int wait = 30;

  CHECK_HIP(hipEventCreate(&never));
  CHECK_HIP(hipEventCreate(&done));
  CHECK_HIP(hipEventCreateWithFlags(&pending, hipEventBlockingSync));
  CHECK_HIP(hipEventCreate(&timed));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventRecord(done, NULL));
  CHECK_HIP(hipEventSynchronize(done));
  CHECK_HIP(hipLaunchHostFunc(s, sleep_fn, &wait));
  CHECK_HIP(hipEventRecord(pending, s));
  CHECK_HIP(hipEventRecord(timed, s));
  CHECK_HIP(hipDeviceReset());
  CHECK(refuses_event(never) == AH_PASS);
  CHECK(refuses_event(done) == AH_PASS);
  CHECK(refuses_event(pending) == AH_PASS);
  CHECK(refuses_event(timed) == AH_PASS);
  /* New events work. */
  CHECK_HIP(hipEventCreate(&done));
  CHECK_HIP(hipEventRecord(done, NULL));
  CHECK_HIP(hipEventSynchronize(done));
  CHECK_HIP(hipEventQuery(done));
  CHECK_HIP(hipEventDestroy(done));
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

/* Reset of one device leaves another device's events alone. */
AH_TEST(event_reset_other_device_kept) {
  hipEvent_t e0, e1;
  int n = 0;

  if (getenv("ANYHIP_CPU_DEVICES") == NULL)
    setenv("ANYHIP_CPU_DEVICES", "2", 1);
  CHECK_HIP(hipGetDeviceCount(&n));
  if (n < 2)
    SKIP("needs two devices");
  CHECK_HIP(hipEventCreate(&e0));
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipEventCreate(&e1));
  CHECK_HIP(hipDeviceReset());
  CHECK_ERR(hipEventQuery(e1), hipErrorInvalidHandle);
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipEventRecord(e0, NULL));
  CHECK_HIP(hipEventSynchronize(e0));
  CHECK_HIP(hipEventQuery(e0));
  CHECK_HIP(hipEventDestroy(e0));
  CHECK_ERR(hipEventDestroy(e1), hipErrorContextIsDestroyed);
  return AH_PASS;
}

/* hipEventCreateWithFlags refuses each bit HIP does not define, one at a
 * time; the release scopes exclude each other. */
AH_TEST(event_flags_every_bit) {
  const unsigned known = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess |
                         hipEventDisableSystemFence | hipEventReleaseToDevice |
                         hipEventReleaseToSystem;
  hipEvent_t e = NULL;

  for (int b = 0; b < 32; b++) {
    unsigned f = 1u << b;

    if (f & known)
      continue;
    CHECK_ERR(hipEventCreateWithFlags(&e, f), hipErrorInvalidValue);
    CHECK_ERR(hipEventCreateWithFlags(&e, f | hipEventDisableTiming), hipErrorInvalidValue);
    CHECK(e == NULL);
  }
  CHECK_ERR(hipEventCreateWithFlags(&e, hipEventReleaseToDevice | hipEventReleaseToSystem),
            hipErrorInvalidValue);
  CHECK_ERR(hipEventCreateWithFlags(&e, hipEventInterprocess), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK(e == NULL);
  return AH_PASS;
}
