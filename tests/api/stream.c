/* SPDX-License-Identifier: MIT */
/* Tests of the stream API: creation, flags, priorities, destroy and stale
 * handles, query and synchronize, host functions and callbacks, FIFO order,
 * HIP's null-stream rules (proven with host functions that block their
 * stream), non-blocking streams, hipStreamPerThread and hipStreamWaitEvent,
 * and handles that are garbage, destroyed or gone with hipDeviceReset. */
#include "ah_test.h"
#include "garbage_handles.h"
#include "gate.h"

#include <stdint.h>
#include <stdlib.h>

/* A stream whose queue is held closed by a gate: work behind it stays pending. */
#define BLOCK_STREAM(s, g) CHECK_HIP(hipLaunchHostFunc((s), gate_fn, (g)))

AH_TEST(stream_create_null_out) {
  CHECK_ERR(hipStreamCreate(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipStreamCreateWithFlags(NULL, hipStreamDefault), hipErrorInvalidValue);
  CHECK_ERR(hipStreamCreateWithPriority(NULL, hipStreamDefault, 0), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(stream_create_bad_flags) {
  hipStream_t s = NULL;

  CHECK_ERR(hipStreamCreateWithFlags(&s, 2), hipErrorInvalidValue);
  CHECK_ERR(hipStreamCreateWithFlags(&s, 0xffffffffu), hipErrorInvalidValue);
  CHECK_ERR(hipStreamCreateWithPriority(&s, 4, 0), hipErrorInvalidValue);
  CHECK(s == NULL);
  return AH_PASS;
}

AH_TEST(stream_create_flags) {
  hipStream_t a, b, c;
  unsigned f = 99;

  CHECK_HIP(hipStreamCreate(&a));
  CHECK_HIP(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
  CHECK_HIP(hipStreamCreateWithPriority(&c, hipStreamNonBlocking, 0));
  CHECK(a != NULL && b != NULL && c != NULL && a != b && b != c);
  CHECK_HIP(hipStreamGetFlags(a, &f));
  CHECK_EQ(f, hipStreamDefault);
  CHECK_HIP(hipStreamGetFlags(b, &f));
  CHECK_EQ(f, hipStreamNonBlocking);
  CHECK_HIP(hipStreamGetFlags(c, &f));
  CHECK_EQ(f, hipStreamNonBlocking);
  CHECK_HIP(hipStreamGetFlags(hipStreamPerThread, &f));
  CHECK_EQ(f, hipStreamDefault);
  CHECK_HIP(hipStreamDestroy(a));
  CHECK_HIP(hipStreamDestroy(b));
  CHECK_HIP(hipStreamDestroy(c));
  return AH_PASS;
}

AH_TEST(stream_get_flags_errors) {
  hipStream_t s;
  unsigned f;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_ERR(hipStreamGetFlags(s, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipStreamGetFlags(NULL, &f), hipErrorInvalidValue); /* as HIP on AMD */
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(stream_priority_clamped) {
  int least = 99, greatest = 99, p = 99;
  hipStream_t s;

  CHECK_HIP(hipDeviceGetStreamPriorityRange(&least, &greatest));
  CHECK(greatest < least); /* lower numbers are more urgent */
  CHECK(greatest <= 0 && 0 <= least);

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamGetPriority(s, &p));
  CHECK_EQ(p, 0);
  CHECK_HIP(hipStreamDestroy(s));

  CHECK_HIP(hipStreamCreateWithPriority(&s, hipStreamDefault, greatest));
  CHECK_HIP(hipStreamGetPriority(s, &p));
  CHECK_EQ(p, greatest);
  CHECK_HIP(hipStreamDestroy(s));

  CHECK_HIP(hipStreamCreateWithPriority(&s, hipStreamNonBlocking, greatest - 100));
  CHECK_HIP(hipStreamGetPriority(s, &p));
  CHECK_EQ(p, greatest);
  CHECK_HIP(hipStreamDestroy(s));

  CHECK_HIP(hipStreamCreateWithPriority(&s, hipStreamDefault, least + 7));
  CHECK_HIP(hipStreamGetPriority(s, &p));
  CHECK_EQ(p, least);
  CHECK_HIP(hipStreamDestroy(s));

  CHECK_HIP(hipStreamCreateWithPriority(&s, hipStreamDefault, INT32_MIN));
  CHECK_HIP(hipStreamGetPriority(s, &p));
  CHECK_EQ(p, greatest);
  CHECK_HIP(hipStreamDestroy(s));

  p = 99;
  CHECK_HIP(hipStreamGetPriority(NULL, &p));
  CHECK_EQ(p, 0);
  CHECK_ERR(hipStreamGetPriority(NULL, NULL), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(stream_get_device) {
  hipStream_t s;
  hipDevice_t d = -1;

  CHECK_ERR(hipStreamGetDevice(NULL, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipStreamGetDevice(hipStreamPerThread, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipStreamGetDevice(NULL, &d));
  CHECK_EQ(d, 0);
  d = -1;
  CHECK_HIP(hipStreamGetDevice(hipStreamPerThread, &d));
  CHECK_EQ(d, 0);
  CHECK_HIP(hipStreamCreate(&s));
  d = -1;
  CHECK_HIP(hipStreamGetDevice(s, &d));
  CHECK_EQ(d, 0);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* Streams remember their device; the null stream is the current device's. */
AH_TEST(stream_get_device_multi) {
  hipStream_t s0, s1;
  hipDevice_t d = -1;
  int n = 0;

  if (getenv("ANYHIP_CPU_DEVICES") == NULL)
    setenv("ANYHIP_CPU_DEVICES", "2", 1);
  CHECK_HIP(hipGetDeviceCount(&n));
  if (n < 2)
    SKIP("needs two devices");
  CHECK_HIP(hipStreamCreate(&s0));
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipStreamCreate(&s1));
  CHECK_HIP(hipStreamGetDevice(s0, &d));
  CHECK_EQ(d, 0);
  CHECK_HIP(hipStreamGetDevice(s1, &d));
  CHECK_EQ(d, 1);
  CHECK_HIP(hipStreamGetDevice(NULL, &d));
  CHECK_EQ(d, 1);
  CHECK_HIP(hipStreamGetDevice(hipStreamPerThread, &d));
  CHECK_EQ(d, 1);
  /* Work on device 0's stream while device 1 is current. */
  atomic_int ran = 0;
  CHECK_HIP(hipLaunchHostFunc(s0, mark_fn, &ran));
  CHECK_HIP(hipStreamSynchronize(s0));
  CHECK(atomic_load(&ran));
  CHECK_HIP(hipStreamDestroy(s0)); /* destroying another device's stream is fine */
  CHECK_HIP(hipStreamDestroy(s1));
  return AH_PASS;
}

AH_TEST(stream_destroy_errors) {
  hipStream_t s;
  unsigned f;
  int p;
  hipDevice_t d;
  atomic_int ran = 0;
  hipEvent_t e;

  CHECK_ERR(hipStreamDestroy(NULL), hipErrorInvalidHandle);
  CHECK_ERR(hipStreamDestroy(hipStreamPerThread), hipErrorInvalidHandle);
  CHECK_ERR(hipStreamDestroy(hipStreamLegacy), hipErrorInvalidHandle);
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamDestroy(s));
  /* Every use of the destroyed handle is refused, and nothing runs. */
  CHECK_ERR(hipStreamDestroy(s), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamQuery(s), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamSynchronize(s), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamGetFlags(s, &f), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamGetPriority(s, &p), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamGetDevice(s, &d), hipErrorContextIsDestroyed);
  CHECK_ERR(hipLaunchHostFunc(s, mark_fn, &ran), hipErrorContextIsDestroyed);
  /* The one exception: an invalid handle, as AMD's runtime (docs/semantics.md). */
  CHECK_ERR(hipStreamWaitEvent(s, e, 0), hipErrorInvalidHandle);
  CHECK_ERR(hipEventRecord(e, s), hipErrorContextIsDestroyed);
  CHECK_EQ(hipGetLastError(), hipErrorContextIsDestroyed);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&ran), 0);
  CHECK_HIP(hipEventDestroy(e));
  return AH_PASS;
}

/* hipStreamDestroy returns while the stream still has work; the work runs. */
AH_TEST(stream_destroy_pending_work) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  BLOCK_STREAM(s, &g);
  CHECK_HIP(hipLaunchHostFunc(s, mark_fn, &ran));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_EQ(atomic_load(&ran), 0);
  gate_open(&g);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&ran), 1);
  return AH_PASS;
}

AH_TEST(stream_query_not_ready) {
  struct gate g = GATE_INIT;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamQuery(s)); /* empty */
  BLOCK_STREAM(s, &g);
  CHECK_ERR(hipStreamQuery(s), hipErrorNotReady);
  /* Not ready is not an error: the last error stays clear. */
  CHECK_EQ(hipPeekAtLastError(), hipSuccess);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamQuery(s));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(stream_fifo_order) {
  struct order_log log = {0};
  struct order_item items[200];
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  for (int i = 0; i < 200; i++) {
    items[i] = (struct order_item){&log, i};
    CHECK_HIP(hipLaunchHostFunc(i % 2 ? s : NULL, order_fn, &items[i]));
  }
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&log.n), 200);
  /* s is blocking: alternating with the null stream keeps one global order. */
  for (int i = 0; i < 200; i++)
    CHECK_EQ(log.seq[i], i);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(stream_host_func_errors) {
  atomic_int ran = 0;

  CHECK_ERR(hipLaunchHostFunc(NULL, NULL, &ran), hipErrorInvalidValue);
  CHECK_HIP(hipLaunchHostFunc(NULL, mark_fn, &ran));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&ran), 1);
  return AH_PASS;
}

struct cb_seen {
  hipStream_t stream;
  hipError_t status;
  void *data;
  atomic_int calls;
};

static struct cb_seen seen;

static void record_cb(hipStream_t stream, hipError_t status, void *data) {
  seen.stream = stream;
  seen.status = status;
  seen.data = data;
  atomic_fetch_add(&seen.calls, 1);
}

AH_TEST(stream_add_callback) {
  hipStream_t s;
  int token;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_ERR(hipStreamAddCallback(s, NULL, &token, 0), hipErrorInvalidValue);
  CHECK_ERR(hipStreamAddCallback(s, record_cb, &token, 1), hipErrorInvalidValue);
  seen.status = hipErrorUnknown;
  CHECK_HIP(hipStreamAddCallback(s, record_cb, &token, 0));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&seen.calls), 1);
  CHECK(seen.stream == s);
  CHECK_EQ(seen.status, hipSuccess);
  CHECK(seen.data == &token);

  CHECK_HIP(hipStreamAddCallback(NULL, record_cb, NULL, 0));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&seen.calls), 2);
  CHECK(seen.stream == NULL);
  CHECK(seen.data == NULL);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_ERR(hipStreamAddCallback(s, record_cb, NULL, 0), hipErrorContextIsDestroyed);
  return AH_PASS;
}

/* The callback runs only after earlier work of its stream. */
AH_TEST(stream_callback_ordered) {
  struct gate g = GATE_INIT;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  BLOCK_STREAM(s, &g);
  CHECK_HIP(hipStreamAddCallback(s, record_cb, NULL, 0));
  sleep_ms(30);
  CHECK_EQ(atomic_load(&seen.calls), 0);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&seen.calls), 1);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* Work on the null stream waits for earlier work of every blocking stream. */
AH_TEST(stream_null_waits_for_blocking) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  BLOCK_STREAM(s, &g);
  CHECK_HIP(hipLaunchHostFunc(NULL, mark_fn, &ran));
  sleep_ms(30);
  CHECK_EQ(atomic_load(&ran), 0);
  /* The null stream counts a blocking stream's pending work as its own. */
  CHECK_ERR(hipStreamQuery(NULL), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_HIP(hipStreamQuery(s));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* Later work of a blocking stream waits for earlier null-stream work. */
AH_TEST(stream_blocking_waits_for_null) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  BLOCK_STREAM(NULL, &g);
  CHECK_HIP(hipLaunchHostFunc(s, mark_fn, &ran));
  sleep_ms(30);
  CHECK_EQ(atomic_load(&ran), 0);
  CHECK_ERR(hipStreamQuery(s), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* hipStreamLegacy is the null stream, with the same rules. */
AH_TEST(stream_legacy_is_null) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  BLOCK_STREAM(hipStreamLegacy, &g);
  CHECK_HIP(hipLaunchHostFunc(s, mark_fn, &ran));
  CHECK_ERR(hipStreamQuery(NULL), hipErrorNotReady);
  sleep_ms(20);
  CHECK_EQ(atomic_load(&ran), 0);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(hipStreamLegacy));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* hipStreamNonBlocking streams neither wait for the null stream nor make it wait. */
AH_TEST(stream_nonblocking_independent) {
  struct gate g1 = GATE_INIT, g2 = GATE_INIT;
  atomic_int ran1 = 0, ran2 = 0;
  hipStream_t nb;

  CHECK_HIP(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  /* Null stream held: the non-blocking stream still runs. */
  BLOCK_STREAM(NULL, &g1);
  CHECK_HIP(hipLaunchHostFunc(nb, mark_fn, &ran1));
  CHECK_HIP(hipStreamSynchronize(nb));
  CHECK_EQ(atomic_load(&ran1), 1);
  CHECK_ERR(hipStreamQuery(NULL), hipErrorNotReady);
  gate_open(&g1);
  CHECK_HIP(hipStreamSynchronize(NULL));

  /* Non-blocking stream held: the null stream still runs and syncs. */
  BLOCK_STREAM(nb, &g2);
  CHECK_HIP(hipLaunchHostFunc(NULL, mark_fn, &ran2));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&ran2), 1);
  CHECK_HIP(hipStreamQuery(NULL));
  CHECK_ERR(hipStreamQuery(nb), hipErrorNotReady);
  gate_open(&g2);
  CHECK_HIP(hipStreamSynchronize(nb));
  CHECK_HIP(hipStreamDestroy(nb));
  return AH_PASS;
}

/* Two user streams are not ordered: a host function blocking one does not
 * stall the other. */
AH_TEST(stream_independent_streams) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t a, b;

  CHECK_HIP(hipStreamCreate(&a));
  CHECK_HIP(hipStreamCreate(&b));
  BLOCK_STREAM(a, &g);
  CHECK_HIP(hipLaunchHostFunc(b, mark_fn, &ran));
  CHECK_HIP(hipStreamSynchronize(b));
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_ERR(hipStreamQuery(a), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(a));
  CHECK_HIP(hipStreamDestroy(a));
  CHECK_HIP(hipStreamDestroy(b));
  return AH_PASS;
}

/* hipDeviceSynchronize waits for every stream, non-blocking ones too. */
AH_TEST(stream_device_sync_all) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t nb;

  CHECK_HIP(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  BLOCK_STREAM(nb, &g);
  CHECK_HIP(hipLaunchHostFunc(nb, mark_fn, &ran));
  CHECK(wait_flag(&g.entered, 2000));
  sleep_ms(20);
  gate_open(&g);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_HIP(hipStreamDestroy(nb));
  return AH_PASS;
}

struct pt_arg {
  struct gate *g;
  atomic_int ran;
  hipError_t err;
  hipStream_t got;
};

static void *other_thread(void *p) {
  struct pt_arg *a = p;

  /* This thread's per-thread stream is not the main thread's (held shut). */
  a->err = hipLaunchHostFunc(hipStreamPerThread, mark_fn, &a->ran);
  if (a->err == hipSuccess)
    a->err = hipStreamSynchronize(hipStreamPerThread);
  return NULL;
}

AH_TEST(stream_per_thread) {
  struct gate g = GATE_INIT, g2 = GATE_INIT;
  struct order_log log = {0};
  struct order_item items[3];
  struct pt_arg arg = {0};
  atomic_int ran = 0;
  pthread_t t;

  for (int i = 0; i < 3; i++)
    items[i] = (struct order_item){&log, i};
  CHECK_HIP(hipLaunchHostFunc(hipStreamPerThread, order_fn, &items[0]));
  CHECK_HIP(hipLaunchHostFunc(hipStreamPerThread, order_fn, &items[1]));
  CHECK_HIP(hipLaunchHostFunc(hipStreamPerThread, order_fn, &items[2]));
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_EQ(atomic_load(&log.n), 3);
  CHECK(log.seq[0] == 0 && log.seq[1] == 1 && log.seq[2] == 2);

  BLOCK_STREAM(hipStreamPerThread, &g);
  arg.g = &g;
  CHECK_EQ(pthread_create(&t, NULL, other_thread, &arg), 0);
  pthread_join(t, NULL);
  CHECK_HIP(arg.err);
  CHECK_EQ(atomic_load(&arg.ran), 1);
  CHECK_ERR(hipStreamQuery(hipStreamPerThread), hipErrorNotReady);

  /* The per-thread stream is a blocking stream: the null stream waits for it. */
  CHECK_HIP(hipLaunchHostFunc(NULL, mark_fn, &ran));
  sleep_ms(20);
  CHECK_EQ(atomic_load(&ran), 0);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&ran), 1);

  /* ...and it waits for the null stream. */
  atomic_store(&ran, 0);
  BLOCK_STREAM(NULL, &g2);
  CHECK_HIP(hipLaunchHostFunc(hipStreamPerThread, mark_fn, &ran));
  sleep_ms(20);
  CHECK_EQ(atomic_load(&ran), 0);
  gate_open(&g2);
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_EQ(atomic_load(&ran), 1);
  return AH_PASS;
}

/* After hipDeviceReset user streams are gone; the per-thread stream comes back. */
AH_TEST(stream_device_reset) {
  atomic_int ran = 0;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_HIP(hipDeviceReset());
  CHECK_ERR(hipStreamQuery(s), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamDestroy(s), hipErrorContextIsDestroyed);
  CHECK_HIP(hipLaunchHostFunc(hipStreamPerThread, mark_fn, &ran));
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_EQ(atomic_load(&ran), 1);
  return AH_PASS;
}

AH_TEST(stream_wait_event) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t a, b;
  hipEvent_t e;

  CHECK_HIP(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
  CHECK_HIP(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_ERR(hipStreamWaitEvent(b, e, 1), hipErrorInvalidValue);
  CHECK_ERR(hipStreamWaitEvent(b, NULL, 0), hipErrorInvalidHandle);
  /* An event never recorded: nothing to wait for. */
  CHECK_HIP(hipStreamWaitEvent(b, e, 0));
  CHECK_HIP(hipLaunchHostFunc(b, mark_fn, &ran));
  CHECK_HIP(hipStreamSynchronize(b));
  CHECK_EQ(atomic_load(&ran), 1);

  atomic_store(&ran, 0);
  BLOCK_STREAM(a, &g);
  CHECK_HIP(hipEventRecord(e, a));
  CHECK_HIP(hipStreamWaitEvent(b, e, 0));
  CHECK_HIP(hipLaunchHostFunc(b, mark_fn, &ran));
  /* Re-recording e later does not change what b waits for. */
  CHECK_HIP(hipEventRecord(e, NULL));
  sleep_ms(30);
  CHECK_EQ(atomic_load(&ran), 0);
  CHECK_ERR(hipStreamQuery(b), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(b));
  CHECK_EQ(atomic_load(&ran), 1);

  CHECK_HIP(hipEventDestroy(e));
  CHECK_ERR(hipStreamWaitEvent(b, e, 0), hipErrorInvalidHandle);
  CHECK_HIP(hipStreamDestroy(a));
  CHECK_HIP(hipStreamDestroy(b));
  return AH_PASS;
}

/* The null stream can wait for an event of a non-blocking stream. */
AH_TEST(stream_wait_event_null_stream) {
  struct gate g = GATE_INIT;
  atomic_int ran = 0;
  hipStream_t nb;
  hipEvent_t e;

  CHECK_HIP(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  CHECK_HIP(hipEventCreateWithFlags(&e, hipEventDisableTiming));
  BLOCK_STREAM(nb, &g);
  CHECK_HIP(hipEventRecord(e, nb));
  CHECK_HIP(hipStreamWaitEvent(NULL, e, 0));
  CHECK_HIP(hipLaunchHostFunc(NULL, mark_fn, &ran));
  sleep_ms(30);
  CHECK_EQ(atomic_load(&ran), 0);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(nb));
  return AH_PASS;
}

/* Async copies between pinned buffers follow their stream's order. */
AH_TEST(stream_async_copy_ordered) {
  struct gate g = GATE_INIT;
  int *src, *dst, *dev;
  hipStream_t s;
  size_t bytes = 1024 * sizeof(int);

  CHECK_HIP(hipHostMalloc((void **)&src, bytes, 0));
  CHECK_HIP(hipHostMalloc((void **)&dst, bytes, 0));
  CHECK_HIP(hipMalloc((void **)&dev, bytes));
  for (int i = 0; i < 1024; i++) {
    src[i] = i * 3 + 1;
    dst[i] = -1;
  }
  CHECK_HIP(hipStreamCreate(&s));
  BLOCK_STREAM(s, &g);
  CHECK_HIP(hipMemcpyAsync(dev, src, bytes, hipMemcpyHostToDevice, s));
  CHECK_HIP(hipMemcpyAsync(dst, dev, bytes, hipMemcpyDeviceToHost, s));
  sleep_ms(20);
  CHECK_EQ(dst[0], -1);
  CHECK_EQ(dst[1023], -1);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  for (int i = 0; i < 1024; i++)
    CHECK_EQ(dst[i], i * 3 + 1);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(dev));
  CHECK_HIP(hipHostFree(src));
  CHECK_HIP(hipHostFree(dst));
  return AH_PASS;
}

/* Many threads submitting to many streams at once; every function runs once. */
#define MT_THREADS 8
#define MT_EACH 500

static atomic_int mt_count;

static void count_fn(void *p) {
  (void)p;
  atomic_fetch_add(&mt_count, 1);
}

static void *mt_thread(void *p) {
  hipStream_t s;
  hipError_t *err = p;

  *err = hipStreamCreate(&s);
  for (int i = 0; i < MT_EACH && *err == hipSuccess; i++)
    *err = hipLaunchHostFunc(i % 3 == 0   ? NULL
                             : i % 3 == 1 ? s
                                          : hipStreamPerThread,
                             count_fn, NULL);
  if (*err == hipSuccess)
    *err = hipStreamSynchronize(s);
  if (*err == hipSuccess)
    *err = hipStreamDestroy(s);
  return NULL;
}

AH_TEST(stream_many_threads) {
  pthread_t t[MT_THREADS];
  hipError_t err[MT_THREADS];

  for (int i = 0; i < MT_THREADS; i++)
    CHECK_EQ(pthread_create(&t[i], NULL, mt_thread, &err[i]), 0);
  for (int i = 0; i < MT_THREADS; i++) {
    pthread_join(t[i], NULL);
    CHECK_HIP(err[i]);
  }
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&mt_count), MT_THREADS * MT_EACH);
  return AH_PASS;
}

/* ---- handles that are not streams (audit) ---------------------------------- */

static void noop_fn(void *p) {
  (void)p;
}

static void sleep_then_mark(void *p) {
  sleep_ms(20);
  atomic_store((atomic_int *)p, 1);
}

static void noop_cb(hipStream_t s, hipError_t e, void *p) {
  (void)s;
  (void)e;
  (void)p;
}

/* Every stream-taking call refuses h with HIP's code for a dead stream. */
static int refuses_stream(hipStream_t h) {
  unsigned f;
  int pr;
  hipDevice_t dv;
  hipEvent_t e;
  void *d;
  char host[64] = {0};

  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_ERR(hipStreamQuery(h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamSynchronize(h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamDestroy(h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamGetFlags(h, &f), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamGetPriority(h, &pr), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamGetDevice(h, &dv), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamWaitEvent(h, e, 0), hipErrorInvalidHandle);
  CHECK_ERR(hipLaunchHostFunc(h, noop_fn, NULL), hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamAddCallback(h, noop_cb, NULL, 0), hipErrorContextIsDestroyed);
  CHECK_ERR(hipEventRecord(e, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpyAsync(d, host, 64, hipMemcpyHostToDevice, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpyHtoDAsync(d, host, 64, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpyDtoHAsync(host, d, 64, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpyDtoDAsync(d, d, 64, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpyWithStream(d, host, 64, hipMemcpyHostToDevice, h),
            hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpy2DAsync(d, 8, host, 8, 8, 8, hipMemcpyHostToDevice, h),
            hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpyPeerAsync(d, 0, d, 0, 64, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemsetAsync(d, 0, 64, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemsetD8Async(d, 0, 64, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemsetD16Async(d, 0, 32, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemsetD32Async(d, 0, 16, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemset2DAsync(d, 8, 0, 8, 8, h), hipErrorContextIsDestroyed);
  CHECK_EQ(hipGetLastError(), hipErrorContextIsDestroyed);
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

static int refuses_stream_handle(void *h) {
  return refuses_stream((hipStream_t)h);
}

AH_TEST(stream_garbage_handles) {
  hipEvent_t e;
  int rc;

  CHECK_HIP(hipEventCreate(&e));
  rc = check_garbage_handles(1, refuses_stream_handle, e); /* an event is not a stream */
  CHECK_HIP(hipEventDestroy(e));
  return rc;
}

/* A destroyed stream is refused by every call, whatever was created since. */
AH_TEST(stream_destroyed_everywhere) {
  hipStream_t s, others[8];

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamDestroy(s));
  for (int i = 0; i < 8; i++)
    CHECK_HIP(hipStreamCreate(&others[i]));
  CHECK(refuses_stream(s) == AH_PASS);
  for (int i = 0; i < 8; i++)
    CHECK_HIP(hipStreamDestroy(others[i]));
  return AH_PASS;
}

/* hipDeviceReset with work queued on several streams: the work finishes,
 * then every stream of the device is refused, never crashes, and new
 * streams work. */
AH_TEST(stream_reset_mid_work) {
  enum { N = 4, B = 1 << 16 };
  hipStream_t s[N], nb;
  atomic_int ran[N];
  void *d[N];
  char *host = malloc(B);

  CHECK(host != NULL);
  for (int i = 0; i < N; i++) {
    atomic_init(&ran[i], 0);
    CHECK_HIP(hipStreamCreateWithFlags(&s[i], i % 2 ? hipStreamNonBlocking : hipStreamDefault));
    CHECK_HIP(hipMalloc(&d[i], B));
    CHECK_HIP(hipMemsetAsync(d[i], i, B, s[i]));
    CHECK_HIP(hipLaunchHostFunc(s[i], sleep_then_mark, &ran[i]));
    CHECK_HIP(hipMemsetAsync(d[i], i + 1, B, s[i]));
  }
  CHECK_HIP(hipDeviceReset());
  for (int i = 0; i < N; i++)
    CHECK_EQ(atomic_load(&ran[i]), 1); /* queued work ran to the end first */
  for (int i = 0; i < N; i++)
    CHECK(refuses_stream(s[i]) == AH_PASS);
  CHECK_HIP(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  CHECK_HIP(hipMemcpyAsync(host, host + 1, 16, hipMemcpyHostToHost, nb));
  CHECK_HIP(hipStreamSynchronize(nb));
  CHECK_HIP(hipStreamDestroy(nb));
  CHECK_EQ(hipGetLastError(), hipSuccess);
  free(host);
  return AH_PASS;
}

/* Every flags argument of the stream API refuses each bit HIP does not
 * define for it, one bit at a time. */
AH_TEST(stream_flags_every_bit) {
  hipStream_t s = NULL, out;
  hipEvent_t e;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventCreate(&e));
  for (int b = 0; b < 32; b++) {
    unsigned f = 1u << b;

    CHECK_ERR(hipStreamWaitEvent(s, e, f), hipErrorInvalidValue);
    CHECK_ERR(hipStreamAddCallback(s, noop_cb, NULL, f), hipErrorInvalidValue);
    if (f == hipStreamNonBlocking)
      continue;
    out = NULL;
    CHECK_ERR(hipStreamCreateWithFlags(&out, f), hipErrorInvalidValue);
    CHECK_ERR(hipStreamCreateWithPriority(&out, f, 0), hipErrorInvalidValue);
    CHECK(out == NULL);
  }
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}
