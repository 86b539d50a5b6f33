/* SPDX-License-Identifier: MIT */
/* The stream-ordered allocator: hipMallocAsync/hipFreeAsync in stream order
 * (checked with sets and copies against a host reference, no kernels), reuse
 * of freed blocks, use across streams through events, pool attributes and
 * their counters, trimming and the release threshold, default and current
 * pools, and every error path with HIP's codes. A gate (a host function that
 * holds its stream) makes "the free has not run yet" deterministic. */
#include "ah_test.h"
#include "gate.h"
#include "garbage_handles.h"

#include <stdint.h>

#define KB 1024u

static uint64_t attr64(hipMemPool_t p, hipMemPoolAttr a) {
  uint64_t v = UINT64_MAX;

  if (hipMemPoolGetAttribute(p, a, &v) != hipSuccess)
    return UINT64_MAX - 1;
  return v;
}

static hipError_t new_pool(hipMemPool_t *p) {
  hipMemPoolProps props;

  memset(&props, 0, sizeof(props));
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  return hipMemPoolCreate(p, &props);
}

/* Allocate, set, copy in and out, free: all queued on one stream, checked
 * against the same operations done on a host array. */
AH_TEST(mempool_stream_order) {
  enum { N = 10000 };
  unsigned char *in, *out, ref[N];
  hipPointerAttribute_t attr;
  hipDeviceptr_t base;
  hipStream_t s;
  size_t size;
  unsigned char *d;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipHostMalloc((void **)&in, N, 0));
  CHECK_HIP(hipHostMalloc((void **)&out, N, 0));
  for (int i = 0; i < N; i++)
    in[i] = (unsigned char)(i * 7 + 3);
  memset(out, 0, N);
  CHECK_HIP(hipMallocAsync((void **)&d, N, s));
  CHECK(d != NULL);
  CHECK_EQ((uintptr_t)d % 256, 0);
  /* The allocation map knows it as device memory of device 0, N bytes. */
  CHECK_HIP(hipPointerGetAttributes(&attr, d + 5));
  CHECK_EQ(attr.type, hipMemoryTypeDevice);
  CHECK_EQ(attr.device, 0);
  CHECK(attr.devicePointer == d + 5);
  CHECK_HIP(hipMemGetAddressRange(&base, &size, d + 100));
  CHECK(base == d);
  CHECK_EQ(size, N);
  CHECK_HIP(hipMemsetAsync(d, 0x5a, N, s));
  CHECK_HIP(hipMemcpyAsync(d + 1000, in, 3000, hipMemcpyHostToDevice, s));
  CHECK_HIP(hipMemsetAsync(d + 2000, 0x11, 10, s));
  CHECK_HIP(hipMemcpyAsync(out, d, N, hipMemcpyDefault, s)); /* Default: d is device memory */
  CHECK_HIP(hipFreeAsync(d, s));
  CHECK_HIP(hipStreamSynchronize(s));
  memset(ref, 0x5a, N);
  memcpy(ref + 1000, in, 3000);
  memset(ref + 2000, 0x11, 10);
  CHECK(memcmp(out, ref, N) == 0);
  /* Freed: the map no longer knows it (the pool may keep the pages: then it
   * is unknown host memory), and a copy past the end is refused. */
  {
    hipError_t e = hipPointerGetAttributes(&attr, d);
    CHECK(e == hipErrorInvalidValue || (e == hipSuccess && attr.type == hipMemoryTypeUnregistered));
  }
  CHECK_HIP(hipHostFree(in));
  CHECK_HIP(hipHostFree(out));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(mempool_range_checked) {
  unsigned char host[512];
  hipStream_t s;
  void *d;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocAsync(&d, 300, s));
  CHECK_ERR(hipMemcpyAsync(d, host, 301, hipMemcpyHostToDevice, s), hipErrorInvalidValue);
  CHECK_HIP(hipMemcpyAsync(d, host, 300, hipMemcpyHostToDevice, s));
  CHECK_HIP(hipFreeAsync(d, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* The null stream works too, and so does hipDeviceSynchronize. */
AH_TEST(mempool_null_stream) {
  int out[256], ref[256];
  int *d;

  CHECK_HIP(hipMallocAsync((void **)&d, sizeof(out), 0));
  CHECK_HIP(hipMemsetD32Async(d, 0x01020304, 256, 0));
  CHECK_HIP(hipMemcpy(out, d, sizeof(out), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFreeAsync(d, 0));
  CHECK_HIP(hipDeviceSynchronize());
  for (int i = 0; i < 256; i++)
    ref[i] = 0x01020304;
  CHECK(memcmp(out, ref, sizeof(out)) == 0);
  return AH_PASS;
}

/* A block freed on a stream can be handed out again on that stream before
 * the free has run; another stream gets other memory. */
AH_TEST(mempool_reuse_same_stream) {
  struct gate g = GATE_INIT;
  unsigned *out, ref[1024];
  hipStream_t s, s2;
  void *a, *b, *c;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipHostMalloc((void **)&out, sizeof(ref), 0));
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g)); /* s holds until the gate opens */
  CHECK_HIP(hipMallocAsync(&a, 4 * KB, s));
  CHECK_HIP(hipMemsetD32Async(a, 7, 1024, s));
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipMallocAsync(&b, 4 * KB, s));
  CHECK(b == a); /* stream order makes the reuse safe */
  CHECK_HIP(hipMallocAsync(&c, 4 * KB, s2));
  CHECK(c != a); /* s2 is not ordered after the free */
  CHECK_HIP(hipMemsetD32Async(b, 9, 1024, s));
  CHECK_HIP(hipMemcpyAsync(out, b, sizeof(ref), hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipFreeAsync(b, s));
  CHECK_EQ(hipStreamQuery(s), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  for (int i = 0; i < 1024; i++)
    ref[i] = 9;
  CHECK(memcmp(out, ref, sizeof(ref)) == 0);
  CHECK_HIP(hipFreeAsync(c, s2));
  CHECK_HIP(hipStreamSynchronize(s2));
  CHECK_HIP(hipHostFree(out));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* Once a free has run, any stream may get the block (AllowOpportunistic,
 * on by default); with it off, only the stream that freed it. */
AH_TEST(mempool_reuse_opportunistic) {
  uint64_t keep = UINT64_MAX;
  hipStream_t s1, s2;
  hipMemPool_t pool;
  void *a, *b, *c;
  int on = -1, off = 0;

  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipMemPoolGetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &on));
  CHECK_EQ(on, 1);
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &keep));
  CHECK_HIP(hipStreamCreate(&s1));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipMallocFromPoolAsync(&a, 8 * KB, pool, s1));
  CHECK_HIP(hipFreeAsync(a, s1));
  CHECK_HIP(hipStreamSynchronize(s1));
  CHECK_HIP(hipMallocFromPoolAsync(&b, 8 * KB, pool, s2));
  CHECK(b == a);
  CHECK_HIP(hipFreeAsync(b, s2));
  CHECK_HIP(hipStreamSynchronize(s2));
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &off));
  CHECK_HIP(hipMemPoolGetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &on));
  CHECK_EQ(on, 0);
  CHECK_HIP(hipMallocFromPoolAsync(&c, 8 * KB, pool, s1)); /* freed on s2, not s1 */
  CHECK(c != a);
  CHECK_HIP(hipMallocFromPoolAsync(&b, 8 * KB, pool, s2)); /* s2 freed it: fine */
  CHECK(b == a);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 16 * KB);
  CHECK_HIP(hipFreeAsync(b, s2));
  CHECK_HIP(hipFreeAsync(c, s1));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipStreamDestroy(s1));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* A block whose free another stream has not reached yet goes to a stream
 * that waits for that free through an event recorded after it
 * (FollowEventDependencies, on by default; ROCm's unit suite's
 * EventDependencies case); its work on the block runs after the first
 * stream's. A stream that did not wait gets other memory, and so does the
 * waiting one with the attribute off. */
AH_TEST(mempool_reuse_event_dependency) {
  struct gate g = GATE_INIT, g2 = GATE_INIT;
  unsigned *out1, *out2;
  hipStream_t s1, s2, s3;
  hipMemPool_t pool;
  hipEvent_t ev;
  void *a, *b, *c, *d;
  int on = -1, off = 0;

  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipMemPoolGetAttribute(pool, hipMemPoolReuseFollowEventDependencies, &on));
  CHECK_EQ(on, 1);
  CHECK_HIP(hipStreamCreateWithFlags(&s1, hipStreamNonBlocking));
  CHECK_HIP(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  CHECK_HIP(hipStreamCreateWithFlags(&s3, hipStreamNonBlocking));
  CHECK_HIP(hipEventCreateWithFlags(&ev, hipEventDisableTiming));
  CHECK_HIP(hipHostMalloc((void **)&out1, 4 * KB, 0));
  CHECK_HIP(hipHostMalloc((void **)&out2, 4 * KB, 0));
  CHECK_HIP(hipLaunchHostFunc(s1, gate_fn, &g)); /* s1 holds until the gate opens */
  CHECK_HIP(hipMallocFromPoolAsync(&a, 4 * KB, pool, s1));
  CHECK_HIP(hipMemsetD32Async(a, 7, KB, s1));
  CHECK_HIP(hipMemcpyAsync(out1, a, 4 * KB, hipMemcpyDeviceToHost, s1));
  CHECK_HIP(hipFreeAsync(a, s1));
  CHECK_HIP(hipMallocFromPoolAsync(&c, 4 * KB, pool, s3)); /* s3 did not wait */
  CHECK(c != a);
  CHECK_HIP(hipEventRecord(ev, s1));
  CHECK_HIP(hipStreamWaitEvent(s2, ev, 0));
  CHECK_HIP(hipMallocFromPoolAsync(&b, 4 * KB, pool, s2));
  CHECK(b == a);
  CHECK_HIP(hipMemsetD32Async(b, 9, KB, s2));
  CHECK_HIP(hipMemcpyAsync(out2, b, 4 * KB, hipMemcpyDeviceToHost, s2));
  sleep_ms(50);
  CHECK_EQ(hipStreamQuery(s2), hipErrorNotReady); /* waits for s1 */
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s2));
  for (unsigned i = 0; i < KB; i++) {
    CHECK_EQ(out1[i], 7u);
    CHECK_EQ(out2[i], 9u);
  }
  /* Off: the same dependency gives no reuse. */
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolReuseFollowEventDependencies, &off));
  CHECK_HIP(hipLaunchHostFunc(s2, gate_fn, &g2));
  CHECK_HIP(hipFreeAsync(b, s2));
  CHECK_HIP(hipEventRecord(ev, s2));
  CHECK_HIP(hipStreamWaitEvent(s1, ev, 0));
  CHECK_HIP(hipMallocFromPoolAsync(&d, 4 * KB, pool, s1));
  CHECK(d != b);
  gate_open(&g2);
  CHECK_HIP(hipFreeAsync(c, s3));
  CHECK_HIP(hipFreeAsync(d, s1));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipEventDestroy(ev));
  CHECK_HIP(hipHostFree(out1));
  CHECK_HIP(hipHostFree(out2));
  CHECK_HIP(hipStreamDestroy(s1));
  CHECK_HIP(hipStreamDestroy(s2));
  CHECK_HIP(hipStreamDestroy(s3));
  return AH_PASS;
}

/* Allocated on one stream, used and freed on another after an event. */
AH_TEST(mempool_cross_stream_event) {
  struct gate g = GATE_INIT;
  unsigned short *out, ref[2048];
  hipStream_t s1, s2;
  hipEvent_t ev;
  void *d;

  CHECK_HIP(hipStreamCreate(&s1));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipEventCreate(&ev));
  CHECK_HIP(hipHostMalloc((void **)&out, sizeof(ref), 0));
  CHECK_HIP(hipLaunchHostFunc(s1, gate_fn, &g)); /* s2 must really wait for s1 */
  CHECK_HIP(hipMallocAsync(&d, sizeof(ref), s1));
  CHECK_HIP(hipMemsetD16Async(d, 0xbeef, 2048, s1));
  CHECK_HIP(hipEventRecord(ev, s1));
  CHECK_HIP(hipStreamWaitEvent(s2, ev, 0));
  CHECK_HIP(hipMemsetD16Async((unsigned short *)d + 100, 0x1234, 50, s2));
  CHECK_HIP(hipMemcpyAsync(out, d, sizeof(ref), hipMemcpyDeviceToHost, s2));
  CHECK_HIP(hipFreeAsync(d, s2));
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s2));
  for (int i = 0; i < 2048; i++)
    ref[i] = i >= 100 && i < 150 ? 0x1234 : 0xbeef;
  CHECK(memcmp(out, ref, sizeof(ref)) == 0);
  CHECK_HIP(hipEventDestroy(ev));
  CHECK_HIP(hipHostFree(out));
  CHECK_HIP(hipStreamDestroy(s1));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* Used and reserved, current and high, through allocations, frees, syncs
 * (release threshold 0: the sync gives everything free back) and resets. */
AH_TEST(mempool_attr_counters) {
  uint64_t zero = 0, five = 5, v;
  hipMemPool_t pool;
  hipStream_t s;
  void *a, *b;

  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrReleaseThreshold), 0); /* HIP's default */
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 0);
  CHECK_HIP(hipMallocFromPoolAsync(&a, 4 * KB, pool, s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 4 * KB);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 4 * KB);
  CHECK_HIP(hipMallocFromPoolAsync(&b, 1000, pool, s)); /* rounded to 256 bytes: 1024 */
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 5 * KB);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 5 * KB);
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 1 * KB);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 1 * KB);
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemHigh), 5 * KB);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemHigh), 5 * KB);
  /* Only 0 may be written to a watermark: it resets it to the current value. */
  CHECK_ERR(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemHigh, &five), hipErrorInvalidValue);
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemHigh, &zero));
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolAttrReservedMemHigh, &zero));
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemHigh), 1 * KB);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemHigh), 1 * KB);
  /* The current values are read only. */
  v = 0;
  CHECK_ERR(hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &v), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolSetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &v),
            hipErrorInvalidValue);
  CHECK_HIP(hipFreeAsync(b, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 0);
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemHigh), 1 * KB);
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* Reuse flags are ints, stored and read back. */
AH_TEST(mempool_attr_reuse_flags) {
  hipMemPoolAttr flags[] = {hipMemPoolReuseFollowEventDependencies,
                            hipMemPoolReuseAllowOpportunistic,
                            hipMemPoolReuseAllowInternalDependencies};
  hipMemPool_t pool;

  CHECK_HIP(new_pool(&pool));
  for (int i = 0; i < 3; i++) {
    int v = -1, zero = 0, seven = 7;

    CHECK_HIP(hipMemPoolGetAttribute(pool, flags[i], &v));
    CHECK_EQ(v, 1); /* all on by default */
    CHECK_HIP(hipMemPoolSetAttribute(pool, flags[i], &zero));
    CHECK_HIP(hipMemPoolGetAttribute(pool, flags[i], &v));
    CHECK_EQ(v, 0);
    CHECK_HIP(hipMemPoolSetAttribute(pool, flags[i], &seven));
    CHECK_HIP(hipMemPoolGetAttribute(pool, flags[i], &v));
    CHECK_EQ(v, 1);
  }
  CHECK_HIP(hipMemPoolDestroy(pool));
  return AH_PASS;
}

/* Above the release threshold, a sync gives memory back; below, the pool
 * keeps it for the next allocation. */
AH_TEST(mempool_release_threshold) {
  uint64_t thr = 64 * KB;
  hipMemPool_t pool;
  hipStream_t s;
  hipEvent_t ev;
  void *a, *b, *c;

  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventCreate(&ev));
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &thr));
  CHECK_EQ(attr64(pool, hipMemPoolAttrReleaseThreshold), 64 * KB);
  CHECK_HIP(hipMallocFromPoolAsync(&a, 32 * KB, pool, s));
  CHECK_HIP(hipMallocFromPoolAsync(&b, 48 * KB, pool, s));
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipFreeAsync(b, s));
  CHECK_HIP(hipEventRecord(ev, s));
  CHECK_HIP(hipEventSynchronize(ev)); /* an event sync trims too */
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 0);
  /* 80 KiB free, 64 KiB kept at most: one block goes. */
  CHECK(attr64(pool, hipMemPoolAttrReservedMemCurrent) <= 64 * KB);
  CHECK(attr64(pool, hipMemPoolAttrReservedMemCurrent) > 0);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemHigh), 80 * KB);
  /* Kept memory is reused without growing the pool. */
  thr = UINT64_MAX;
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &thr));
  CHECK_HIP(hipMemPoolTrimTo(pool, 0));
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 0);
  CHECK_HIP(hipMallocFromPoolAsync(&a, 16 * KB, pool, s));
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 16 * KB);
  CHECK_HIP(hipMallocFromPoolAsync(&c, 16 * KB, pool, s));
  CHECK(c == a);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 16 * KB);
  CHECK_HIP(hipFreeAsync(c, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipEventDestroy(ev));
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* hipMemPoolTrimTo releases free blocks until the pool holds at most the
 * given bytes; memory in use or waiting for its stream stays. */
AH_TEST(mempool_trim) {
  struct gate g = GATE_INIT;
  uint64_t keep = UINT64_MAX;
  hipMemPool_t pool;
  hipStream_t s;
  void *a, *b, *c;

  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &keep));
  CHECK_HIP(hipMallocFromPoolAsync(&a, 64 * KB, pool, s));
  CHECK_HIP(hipMallocFromPoolAsync(&b, 64 * KB, pool, s));
  CHECK_HIP(hipMallocFromPoolAsync(&c, 64 * KB, pool, s));
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipFreeAsync(b, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 192 * KB);
  CHECK_HIP(hipMemPoolTrimTo(pool, 150 * KB)); /* one free block goes: 128 KiB left */
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 128 * KB);
  CHECK_HIP(hipMemPoolTrimTo(pool, SIZE_MAX)); /* nothing to do */
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 128 * KB);
  /* A free the stream has not reached yet is not released. */
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK_HIP(hipFreeAsync(c, s));
  CHECK_HIP(hipMemPoolTrimTo(pool, 0));
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 64 * KB);
  /* Used memory dropped at the hipFreeAsync call (AMD's runtime, ROCm's unit
   * suite): the program no longer holds c, though its stream may still use it. */
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 0);
  /* Taken again on the same stream before the free ran: used again. */
  CHECK_HIP(hipMallocFromPoolAsync(&a, 64 * KB, pool, s));
  CHECK(a == c);
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 64 * KB);
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 64 * KB);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_HIP(hipMemPoolTrimTo(pool, 0));
  CHECK_EQ(attr64(pool, hipMemPoolAttrReservedMemCurrent), 0);
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* The default pool is the current one until hipDeviceSetMemPool;
 * hipMallocAsync takes from the current pool; destroying it brings the
 * default back. */
AH_TEST(mempool_default_and_current) {
  hipMemPool_t def, def2, cur, pool;
  hipStream_t s;
  void *a;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipDeviceGetDefaultMemPool(&def, 0));
  CHECK(def != NULL);
  CHECK_HIP(hipDeviceGetDefaultMemPool(&def2, 0));
  CHECK(def2 == def);
  CHECK_HIP(hipDeviceGetMemPool(&cur, 0));
  CHECK(cur == def);
  CHECK_HIP(hipMallocAsync(&a, 4 * KB, s));
  CHECK_EQ(attr64(def, hipMemPoolAttrUsedMemCurrent), 4 * KB);
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(attr64(def, hipMemPoolAttrUsedMemCurrent), 0);

  CHECK_HIP(new_pool(&pool));
  CHECK(pool != def);
  CHECK_HIP(hipDeviceSetMemPool(0, pool));
  CHECK_HIP(hipDeviceGetMemPool(&cur, 0));
  CHECK(cur == pool);
  CHECK_HIP(hipMallocAsync(&a, 8 * KB, s));
  CHECK_EQ(attr64(pool, hipMemPoolAttrUsedMemCurrent), 8 * KB);
  CHECK_EQ(attr64(def, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipDeviceGetMemPool(&cur, 0));
  CHECK(cur == def);
  CHECK_ERR(hipMemPoolDestroy(def), hipErrorInvalidValue); /* a default pool stays */
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* The owner keeps read-write access; other devices start with none. */
AH_TEST(mempool_access) {
  hipMemAccessDesc d = {{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  hipMemLocation loc = {hipMemLocationTypeDevice, 0};
  hipMemAccessFlags f = hipMemAccessFlagsProtNone;
  hipMemPool_t pool;
  int n;

  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipMemPoolGetAccess(&f, pool, &loc));
  CHECK_EQ(f, hipMemAccessFlagsProtReadWrite);
  CHECK_HIP(hipMemPoolSetAccess(pool, &d, 1));
  CHECK_HIP(hipMemPoolSetAccess(pool, &d, 0));
  d.flags = hipMemAccessFlagsProtRead;
  CHECK_ERR(hipMemPoolSetAccess(pool, &d, 1), hipErrorInvalidDevice);
  CHECK_HIP(hipGetDeviceCount(&n));
  if (n > 1) {
    hipDeviceProp_t p0, p1;

    CHECK_HIP(hipGetDeviceProperties(&p0, 0));
    CHECK_HIP(hipGetDeviceProperties(&p1, 1));
    loc.id = 1;
    CHECK_HIP(hipMemPoolGetAccess(&f, pool, &loc));
    CHECK_EQ(f, hipMemAccessFlagsProtNone);
    if (strcmp(p0.gcnArchName, p1.gcnArchName) == 0) {
      d.location.id = 1;
      CHECK_HIP(hipMemPoolSetAccess(pool, &d, 1));
      CHECK_HIP(hipMemPoolGetAccess(&f, pool, &loc));
      CHECK_EQ(f, hipMemAccessFlagsProtRead);
    }
  }
  CHECK_HIP(hipMemPoolDestroy(pool));
  return AH_PASS;
}

/* hipFree takes pool memory back (after a device sync, as HIP does);
 * hipFreeAsync takes hipMalloc memory (after its stream). */
AH_TEST(mempool_mixed_frees) {
  hipMemPool_t def;
  hipStream_t s;
  void *a, *m;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipDeviceGetDefaultMemPool(&def, 0));
  CHECK_HIP(hipMallocAsync(&a, 4 * KB, s));
  CHECK_HIP(hipMemsetAsync(a, 1, 4 * KB, s));
  CHECK_HIP(hipFree(a));
  CHECK_EQ(attr64(def, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_ERR(hipFree(a), hipErrorInvalidValue);
  CHECK_ERR(hipFreeAsync(a, s), hipErrorInvalidValue);
  CHECK_HIP(hipMalloc(&m, 4 * KB));
  CHECK_HIP(hipMemsetAsync(m, 1, 4 * KB, s));
  CHECK_HIP(hipFreeAsync(m, s));
  CHECK_ERR(hipFree(m), hipErrorInvalidValue);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* A pool destroyed while memory from it is still allocated: the handle is
 * gone at once, the memory stays usable until it is freed. */
AH_TEST(mempool_destroy_outstanding) {
  unsigned char out[512], ref[512];
  hipMemPool_t pool;
  uint64_t v;
  hipStream_t s;
  void *a;

  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocFromPoolAsync(&a, sizeof(out), pool, s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_ERR(hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &v), hipErrorInvalidHandle);
  CHECK_ERR(hipMemPoolDestroy(pool), hipErrorInvalidValue); /* AMD's code for a double destroy */
  CHECK_ERR(hipMallocFromPoolAsync(&a, 16, pool, s), hipErrorInvalidHandle);
  CHECK_HIP(hipMemsetAsync(a, 0x77, sizeof(out), s));
  CHECK_HIP(hipMemcpyAsync(out, a, sizeof(out), hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipStreamSynchronize(s)); /* the pool's last block goes back here */
  memset(ref, 0x77, sizeof(ref));
  CHECK(memcmp(out, ref, sizeof(out)) == 0);
  CHECK_ERR(hipFreeAsync(a, s), hipErrorInvalidValue);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(mempool_errors_alloc_free) {
  hipMemPool_t pool;
  hipStream_t s, dead;
  unsigned char *a;
  void *p = (void *)1, *m;
  int local;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&dead));
  CHECK_HIP(hipStreamDestroy(dead));
  CHECK_HIP(new_pool(&pool));
  CHECK_ERR(hipMallocAsync(NULL, 16, s), hipErrorInvalidValue);
  /* Unknown streams: an invalid handle (AMD's runtime; docs/semantics.md). */
  CHECK_ERR(hipMallocAsync(&p, 16, dead), hipErrorInvalidHandle);
  CHECK_ERR(hipMallocAsync(&p, 16, (hipStream_t)0x1234), hipErrorInvalidHandle);
  CHECK_ERR(hipMallocAsync(&p, 16, (hipStream_t)-1), hipErrorInvalidHandle);
  CHECK_ERR(hipMallocAsync(&p, SIZE_MAX, s), hipErrorOutOfMemory);
  CHECK_HIP(hipMallocAsync(&p, 0, s)); /* HIP: no memory, NULL */
  CHECK(p == NULL);
  CHECK_ERR(hipMallocFromPoolAsync(NULL, 16, pool, s), hipErrorInvalidValue);
  CHECK_ERR(hipMallocFromPoolAsync(&p, 16, NULL, s), hipErrorInvalidValue);
  CHECK_ERR(hipMallocFromPoolAsync(&p, 16, pool, dead), hipErrorInvalidHandle);
  CHECK_ERR(hipMallocFromPoolAsync(&p, 16, pool, (hipStream_t)-1), hipErrorInvalidHandle);
  CHECK_ERR(hipMallocFromPoolAsync(&p, SIZE_MAX - 10, pool, s), hipErrorOutOfMemory);
  CHECK_ERR(hipFreeAsync(NULL, s), hipErrorInvalidValue);
  CHECK_ERR(hipFreeAsync(&local, s), hipErrorInvalidValue); /* not HIP memory */
  CHECK_HIP(hipMallocFromPoolAsync((void **)&a, 1024, pool, s));
  CHECK_ERR(hipFreeAsync(a + 16, s), hipErrorInvalidValue); /* interior pointer */
  CHECK_ERR(hipFreeAsync(a, dead), hipErrorInvalidHandle);
  CHECK_ERR(hipFreeAsync(a, (hipStream_t)-1), hipErrorInvalidHandle);
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_ERR(hipFreeAsync(a, s), hipErrorInvalidValue); /* twice */
  CHECK_HIP(hipHostMalloc(&m, 64, 0));
  CHECK_ERR(hipFreeAsync(m, s), hipErrorInvalidValue); /* pinned host memory */
  CHECK_HIP(hipHostFree(m));
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(mempool_errors_pool) {
  hipMemPoolProps props;
  hipMemPool_t pool = NULL, out;
  uint64_t v = 0;
  int n;

  CHECK_HIP(hipGetDeviceCount(&n));
  memset(&props, 0, sizeof(props));
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  CHECK_ERR(hipMemPoolCreate(NULL, &props), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolCreate(&pool, NULL), hipErrorInvalidValue);
  props.allocType = hipMemAllocationTypeInvalid;
  CHECK_ERR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeInvalid;
  CHECK_ERR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = n;
  CHECK_ERR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  props.location.id = -1;
  CHECK_ERR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  props.location.id = 0;
  props.handleTypes = (hipMemAllocationHandleType)8;
  CHECK_ERR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  props.handleTypes = hipMemHandleTypeWin32;
  CHECK_ERR(hipMemPoolCreate(&pool, &props), hipErrorNotSupported);
  props.handleTypes = hipMemHandleTypePosixFileDescriptor; /* the guide's example */
  CHECK_HIP(hipMemPoolCreate(&pool, &props));

  CHECK_ERR(hipMemPoolDestroy(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolTrimTo(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolSetAttribute(NULL, hipMemPoolAttrReleaseThreshold, &v),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, NULL),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolGetAttribute(NULL, hipMemPoolAttrReleaseThreshold, &v),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolGetAttribute(pool, hipMemPoolAttrReleaseThreshold, NULL),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolGetAttribute(pool, (hipMemPoolAttr)0, &v), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolGetAttribute(pool, (hipMemPoolAttr)9, &v), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolSetAttribute(pool, (hipMemPoolAttr)9, &v), hipErrorInvalidValue);

  CHECK_ERR(hipDeviceGetDefaultMemPool(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetDefaultMemPool(&out, n), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetDefaultMemPool(&out, -1), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetMemPool(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetMemPool(&out, n), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceSetMemPool(0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceSetMemPool(n, pool), hipErrorInvalidValue);
  if (n > 1)
    CHECK_ERR(hipDeviceSetMemPool(1, pool), hipErrorInvalidDevice); /* pool of device 0 */
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_ERR(hipDeviceSetMemPool(0, pool), hipErrorInvalidHandle);
  CHECK_ERR(hipMemPoolTrimTo(pool, 0), hipErrorInvalidHandle);
  return AH_PASS;
}

AH_TEST(mempool_errors_access) {
  hipMemAccessDesc d = {{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  hipMemLocation loc = {hipMemLocationTypeDevice, 0};
  hipMemAccessFlags f;
  hipMemPool_t pool;
  int n;

  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_HIP(new_pool(&pool));
  CHECK_ERR(hipMemPoolSetAccess(NULL, &d, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolSetAccess(pool, NULL, 0), hipErrorInvalidValue);
  d.location.type = hipMemLocationTypeInvalid;
  CHECK_ERR(hipMemPoolSetAccess(pool, &d, 1), hipErrorInvalidValue);
  d.location.type = hipMemLocationTypeDevice;
  d.location.id = n; /* no such device (AMD's runtime: invalid device) */
  CHECK_ERR(hipMemPoolSetAccess(pool, &d, 1), hipErrorInvalidDevice);
  d.location.id = -1;
  CHECK_ERR(hipMemPoolSetAccess(pool, &d, 1), hipErrorInvalidDevice);
  d.location.id = 0;
  d.flags = (hipMemAccessFlags)2;
  CHECK_ERR(hipMemPoolSetAccess(pool, &d, 1), hipErrorInvalidValue);
  d.flags = hipMemAccessFlagsProtNone; /* the owner cannot lose access */
  CHECK_ERR(hipMemPoolSetAccess(pool, &d, 1), hipErrorInvalidDevice);
  CHECK_ERR(hipMemPoolGetAccess(NULL, pool, &loc), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolGetAccess(&f, NULL, &loc), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolGetAccess(&f, pool, NULL), hipErrorInvalidValue);
  loc.id = n;
  CHECK_ERR(hipMemPoolGetAccess(&f, pool, &loc), hipErrorInvalidValue);
  loc.id = 0;
  loc.type = hipMemLocationTypeInvalid;
  CHECK_ERR(hipMemPoolGetAccess(&f, pool, &loc), hipErrorInvalidValue);
  CHECK_HIP(hipMemPoolDestroy(pool));
  loc.type = hipMemLocationTypeDevice;
  d.flags = hipMemAccessFlagsProtReadWrite;
  CHECK_ERR(hipMemPoolGetAccess(&f, pool, &loc), hipErrorInvalidHandle);
  CHECK_ERR(hipMemPoolSetAccess(pool, &d, 1), hipErrorInvalidHandle);
  return AH_PASS;
}

static int refuses_pool(void *h) {
  uint64_t v;
  void *p;

  CHECK_ERR(hipMemPoolGetAttribute((hipMemPool_t)h, hipMemPoolAttrUsedMemCurrent, &v),
            hipErrorInvalidHandle);
  CHECK_ERR(hipMemPoolDestroy((hipMemPool_t)h), hipErrorInvalidValue);
  CHECK_ERR(hipMallocFromPoolAsync(&p, 16, (hipMemPool_t)h, 0), hipErrorInvalidHandle);
  CHECK_ERR(hipDeviceSetMemPool(0, (hipMemPool_t)h), hipErrorInvalidHandle);
  return AH_PASS;
}

AH_TEST(mempool_garbage_handles) {
  hipStream_t s;
  int rc;

  CHECK_HIP(hipStreamCreate(&s));
  rc = check_garbage_handles(5, refuses_pool, s); /* a stream is not a pool */
  CHECK_HIP(hipStreamDestroy(s));
  return rc;
}

AH_TEST(mempool_device_attribute) {
  hipDeviceProp_t p;
  int v = 0;

  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeMemoryPoolsSupported, 0));
  CHECK_EQ(v, 1);
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  CHECK_EQ(p.memoryPoolsSupported, 1);
  return AH_PASS;
}

/* hipDeviceReset frees every pool allocation, destroys user pools and
 * empties the default pool; the allocator works again afterwards. */
AH_TEST(mempool_device_reset) {
  hipPointerAttribute_t attr;
  hipMemPool_t def, pool;
  uint64_t v;
  void *a, *b;

  CHECK_HIP(hipDeviceGetDefaultMemPool(&def, 0));
  CHECK_HIP(new_pool(&pool));
  CHECK_HIP(hipDeviceSetMemPool(0, pool));
  CHECK_HIP(hipMallocAsync(&a, 4 * KB, 0));
  CHECK_HIP(hipMallocFromPoolAsync(&b, 4 * KB, def, 0));
  CHECK_HIP(hipDeviceReset());
  FREED_POINTER_IS_INVALID(hipPointerGetAttributes(&attr, a), attr);
  FREED_POINTER_IS_INVALID(hipPointerGetAttributes(&attr, b), attr);
  CHECK_ERR(hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &v),
            hipErrorInvalidHandle);
  CHECK_EQ(attr64(def, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_EQ(attr64(def, hipMemPoolAttrReservedMemCurrent), 0);
  CHECK_HIP(hipDeviceGetMemPool(&pool, 0));
  CHECK(pool == def);
  CHECK_HIP(hipMallocAsync(&a, 4 * KB, 0));
  CHECK_HIP(hipMemset(a, 3, 4 * KB));
  CHECK_HIP(hipFreeAsync(a, 0));
  CHECK_HIP(hipDeviceSynchronize());
  return AH_PASS;
}

/* Threads allocating, using and freeing on their own streams while another
 * trims the pool and synchronizes: every round's data must come back. */
enum { MT_THREADS = 4, MT_ROUNDS = 150, MT_WORDS = 600 };

struct mt_arg {
  int id;
  int ok;
};

static void *mt_worker(void *p) {
  struct mt_arg *arg = p;
  unsigned *out = NULL;
  hipStream_t s;

  arg->ok = 0;
  if (hipStreamCreate(&s) != hipSuccess ||
      hipHostMalloc((void **)&out, MT_WORDS * sizeof(unsigned), 0) != hipSuccess)
    return NULL;
  for (int r = 0; r < MT_ROUNDS; r++) {
    size_t words = MT_WORDS - (size_t)(r % 5) * 100;
    unsigned value = (unsigned)(arg->id * 100000 + r);
    void *d;

    if (hipMallocAsync(&d, words * sizeof(unsigned), s) != hipSuccess ||
        hipMemsetD32Async(d, (int)value, words, s) != hipSuccess ||
        hipMemcpyAsync(out, d, words * sizeof(unsigned), hipMemcpyDeviceToHost, s) !=
            hipSuccess ||
        hipFreeAsync(d, s) != hipSuccess || hipStreamSynchronize(s) != hipSuccess)
      return NULL;
    for (size_t i = 0; i < words; i++)
      if (out[i] != value)
        return NULL;
  }
  hipHostFree(out);
  hipStreamDestroy(s);
  arg->ok = 1;
  return NULL;
}

static void *mt_trimmer(void *p) {
  hipMemPool_t def;
  atomic_int *stop = p;

  if (hipDeviceGetDefaultMemPool(&def, 0) != hipSuccess)
    return NULL;
  while (!atomic_load(stop)) {
    hipMemPoolTrimTo(def, 0);
    hipDeviceSynchronize();
  }
  return NULL;
}

AH_TEST(mempool_threads) {
  pthread_t t[MT_THREADS], trimmer;
  struct mt_arg args[MT_THREADS];
  atomic_int stop = 0;
  hipMemPool_t def;

  CHECK_HIP(hipDeviceGetDefaultMemPool(&def, 0));
  CHECK(pthread_create(&trimmer, NULL, mt_trimmer, &stop) == 0);
  for (int i = 0; i < MT_THREADS; i++) {
    args[i].id = i + 1;
    CHECK(pthread_create(&t[i], NULL, mt_worker, &args[i]) == 0);
  }
  for (int i = 0; i < MT_THREADS; i++)
    pthread_join(t[i], NULL);
  atomic_store(&stop, 1);
  pthread_join(trimmer, NULL);
  for (int i = 0; i < MT_THREADS; i++)
    CHECK(args[i].ok);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(attr64(def, hipMemPoolAttrUsedMemCurrent), 0);
  CHECK_EQ(attr64(def, hipMemPoolAttrReservedMemCurrent), 0); /* threshold 0 */
  return AH_PASS;
}

/* Every entry point's failure is recorded as the last error, as
 * error_every_entry_records checks for the older areas. */
AH_TEST(mempool_last_error) {
  hipMemAccessDesc desc = {{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  hipMemLocation loc = {hipMemLocationTypeDevice, 0};
  hipMemAccessFlags f;
  hipMemPool_t pool, out;
  hipStream_t s;
  uint64_t v = 0;
  void *p;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(new_pool(&pool));
  CHECK_RECORDS(hipMallocAsync(NULL, 16, s), hipErrorInvalidValue);
  CHECK_RECORDS(hipFreeAsync(NULL, s), hipErrorInvalidValue);
  CHECK_RECORDS(hipMallocFromPoolAsync(&p, 16, NULL, s), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPoolCreate(NULL, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPoolDestroy(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPoolTrimTo(NULL, 0), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPoolSetAttribute(pool, (hipMemPoolAttr)0, &v), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPoolGetAttribute(pool, (hipMemPoolAttr)0, &v), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPoolSetAccess(pool, NULL, 1), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPoolGetAccess(NULL, pool, &loc), hipErrorInvalidValue);
  CHECK_RECORDS(hipDeviceGetDefaultMemPool(&out, -1), hipErrorInvalidDevice);
  CHECK_RECORDS(hipDeviceSetMemPool(-1, pool), hipErrorInvalidValue);
  CHECK_RECORDS(hipDeviceGetMemPool(NULL, 0), hipErrorInvalidValue);

  /* Successes leave a pending error alone. */
  CHECK_ERR(hipMemPoolDestroy(NULL), hipErrorInvalidValue);
  CHECK_HIP(hipMallocAsync(&p, 16, s));
  CHECK_HIP(hipFreeAsync(p, s));
  CHECK_HIP(hipMallocFromPoolAsync(&p, 16, pool, s));
  CHECK_HIP(hipFreeAsync(p, s));
  CHECK_HIP(hipMemPoolTrimTo(pool, 0));
  CHECK_HIP(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &v));
  CHECK_HIP(hipMemPoolGetAttribute(pool, hipMemPoolAttrReleaseThreshold, &v));
  CHECK_HIP(hipMemPoolSetAccess(pool, &desc, 1));
  CHECK_HIP(hipMemPoolGetAccess(&f, pool, &loc));
  CHECK_HIP(hipDeviceGetDefaultMemPool(&out, 0));
  CHECK_HIP(hipDeviceSetMemPool(0, out));
  CHECK_HIP(hipDeviceGetMemPool(&out, 0));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}
