/* SPDX-License-Identifier: MIT */
/* Managed-memory hints: hipMemAdvise then hipMemRangeGetAttribute(s) reads
 * back each attribute over whole ranges, parts and mixed parts;
 * hipMemPrefetchAsync records its location and keeps stream order;
 * hipStreamAttachMemAsync's rules; hipPointerGetAttribute against
 * hipPointerGetAttributes. Every error path has its exact code. */
#include "garbage_handles.h"

#include <stdint.h>
#include <unistd.h>

enum { N = 1 << 16 };
#define P ((size_t)sysconf(_SC_PAGESIZE)) /* N is a multiple of it */

static int attr(hipMemRangeAttribute a, const void *p, size_t n) {
  int v = 12345;

  if (hipMemRangeGetAttribute(&v, sizeof(v), a, p, n) != hipSuccess)
    return 12345;
  return v;
}

AH_TEST(managed_read_mostly) {
  char *p;

  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), 0);
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetReadMostly, 0));
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), 1);
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p + 100, 7), 1);
  /* Unset a middle part: the whole range is no longer read-mostly, the
   * parts on either side still are. Advice covers whole pages (HIP's and
   * CUDA's rounding, as ROCm's unit suite checks): 100 bytes inside page 1
   * unset all of page 1. */
  CHECK_HIP(hipMemAdvise(p + P + 100, 100, hipMemAdviseUnsetReadMostly, 0));
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), 0);
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, P), 1);
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p + P, P), 0);
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p + P + 1500, 1), 0);
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p + 2 * P, N - 2 * P), 1);
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p + P - 1, 2), 0);
  /* The device is ignored for read-mostly, even an invalid one. */
  CHECK_HIP(hipMemAdvise(p + P + 100, 100, hipMemAdviseSetReadMostly, 9999));
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), 1);
  /* The memory still works. */
  memset(p, 3, N);
  CHECK_EQ(p[N - 1], 3);
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

AH_TEST(managed_preferred_location) {
  char *p;

  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N), hipInvalidDeviceId);
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetPreferredLocation, hipCpuDeviceId));
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N), hipCpuDeviceId);
  CHECK_HIP(hipMemAdvise(p, N / 2, hipMemAdviseSetPreferredLocation, 0));
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N / 2), 0);
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p + N / 2, N / 2), hipCpuDeviceId);
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N), hipInvalidDeviceId); /* mixed */
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseUnsetPreferredLocation, 0));
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N), hipInvalidDeviceId);
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

AH_TEST(managed_accessed_by) {
  int v[3], one, count = 0;
  char *p;

  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_HIP(hipMemRangeGetAttribute(v, sizeof(v), hipMemRangeAttributeAccessedBy, p, N));
  CHECK(v[0] == hipInvalidDeviceId && v[1] == hipInvalidDeviceId && v[2] == hipInvalidDeviceId);
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetAccessedBy, 0));
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetAccessedBy, hipCpuDeviceId));
  CHECK_HIP(hipMemRangeGetAttribute(v, sizeof(v), hipMemRangeAttributeAccessedBy, p, N));
  CHECK_EQ(v[0], hipCpuDeviceId);
  CHECK_EQ(v[1], 0);
  CHECK_EQ(v[2], hipInvalidDeviceId);
  /* Too few slots: as many as fit. */
  CHECK_HIP(hipMemRangeGetAttribute(&one, sizeof(one), hipMemRangeAttributeAccessedBy, p, N));
  CHECK_EQ(one, hipCpuDeviceId);
  /* A location advised for part of the range is not listed for all of it. */
  CHECK_HIP(hipMemAdvise(p + 10, 10, hipMemAdviseUnsetAccessedBy, hipCpuDeviceId));
  CHECK_HIP(hipMemRangeGetAttribute(v, sizeof(v), hipMemRangeAttributeAccessedBy, p, N));
  CHECK(v[0] == 0 && v[1] == hipInvalidDeviceId && v[2] == hipInvalidDeviceId);
  /* ... nor for any of the page it is in (advice is per page). */
  CHECK_HIP(hipMemRangeGetAttribute(v, sizeof(v), hipMemRangeAttributeAccessedBy, p + P - 50, 50));
  CHECK(v[0] == 0 && v[1] == hipInvalidDeviceId && v[2] == hipInvalidDeviceId);
  CHECK_HIP(hipMemRangeGetAttribute(v, sizeof(v), hipMemRangeAttributeAccessedBy, p + P, 50));
  CHECK(v[0] == hipCpuDeviceId && v[1] == 0 && v[2] == hipInvalidDeviceId);
  /* Sizes that are not whole ints. */
  CHECK_ERR(hipMemRangeGetAttribute(v, 6, hipMemRangeAttributeAccessedBy, p, N),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(v, 0, hipMemRangeAttributeAccessedBy, p, N),
            hipErrorInvalidValue);
  /* With a second device (ANYHIP_CPU_DEVICES=2): listed in order. */
  CHECK_HIP(hipGetDeviceCount(&count));
  if (count >= 2) {
    int w[4];

    CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetAccessedBy, 1));
    CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetAccessedBy, hipCpuDeviceId));
    CHECK_HIP(hipMemRangeGetAttribute(w, sizeof(w), hipMemRangeAttributeAccessedBy, p, N));
    CHECK(w[0] == hipCpuDeviceId && w[1] == 0 && w[2] == 1 && w[3] == hipInvalidDeviceId);
  }
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

AH_TEST(managed_coherency_mode) {
  char *p;

  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, p, N), hipMemRangeCoherencyModeFineGrain);
  CHECK_HIP(hipMemAdvise(p, N / 4, hipMemAdviseSetCoarseGrain, 0));
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, p, N / 4), hipMemRangeCoherencyModeCoarseGrain);
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, p, N), hipMemRangeCoherencyModeIndeterminate);
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseUnsetCoarseGrain, 0));
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, p, N), hipMemRangeCoherencyModeFineGrain);
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

AH_TEST(managed_prefetch) {
  unsigned char *p;
  hipStream_t s;

  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p, N), hipInvalidDeviceId);
  /* In stream order: the set before the prefetch, then the copy after it. */
  CHECK_HIP(hipMemsetAsync(p, 7, N, s));
  CHECK_HIP(hipMemPrefetchAsync(p, N, 0, s));
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p, N), 0);
  CHECK_HIP(hipMemsetAsync(p + N / 2, 9, N / 2, s));
  CHECK_HIP(hipMemPrefetchAsync(p, N / 2, hipCpuDeviceId, s));
  CHECK_HIP(hipStreamSynchronize(s));
  for (size_t i = 0; i < N; i++)
    CHECK_EQ(p[i], i < N / 2 ? 7 : 9);
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p, N / 2), hipCpuDeviceId);
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p + N / 2, N / 2), 0);
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p, N), hipInvalidDeviceId);
  /* The null stream, and hipStreamPerThread. */
  CHECK_HIP(hipMemPrefetchAsync(p, N, hipCpuDeviceId, NULL));
  CHECK_HIP(hipMemPrefetchAsync(p, N, 0, hipStreamPerThread));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p, N), 0);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

static char *garbage_target;
static int prefetch_refuses(void *h) {
  return hipMemPrefetchAsync(garbage_target, 64, hipCpuDeviceId, (hipStream_t)h) != hipSuccess
             ? AH_PASS
             : AH_FAIL;
}

AH_TEST(managed_prefetch_errors) {
  int count = 0;
  char *p, *d;
  hipEvent_t e;
  int rc;

  CHECK_HIP(hipGetDeviceCount(&count));
  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_HIP(hipMalloc((void **)&d, N));
  CHECK_ERR(hipMemPrefetchAsync(NULL, N, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPrefetchAsync(p, 0, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPrefetchAsync(p, N + 1, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPrefetchAsync(p + 1, N, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPrefetchAsync(p, SIZE_MAX, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPrefetchAsync(p, N, count, NULL), hipErrorInvalidDevice);
  CHECK_ERR(hipMemPrefetchAsync(p, N, -3, NULL), hipErrorInvalidDevice);
  /* A NULL or empty range is refused before the device (AMD's order). */
  CHECK_ERR(hipMemPrefetchAsync(NULL, 0, count, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPrefetchAsync(p, 0, -3, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemPrefetchAsync(d, N, 0, NULL), hipErrorInvalidValue); /* not managed */
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  /* A refused prefetch records nothing. */
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p, N), hipInvalidDeviceId);
  garbage_target = p;
  CHECK_HIP(hipEventCreate(&e));
  rc = check_garbage_handles(1, prefetch_refuses, e);
  CHECK_HIP(hipEventDestroy(e));
  CHECK_EQ(rc, AH_PASS);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

AH_TEST(managed_advise_errors) {
  int count = 0, v = 0;
  char *p, *d, *h;

  CHECK_HIP(hipGetDeviceCount(&count));
  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_HIP(hipMalloc((void **)&d, N));
  CHECK_HIP(hipHostMalloc((void **)&h, N, 0));
  CHECK_ERR(hipMemAdvise(NULL, N, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(p, 0, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(p, N, (hipMemoryAdvise)7, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(p, N, (hipMemoryAdvise)0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(p, N + 1, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(p + N - 1, 2, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(p, SIZE_MAX, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(d, N, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(h, N, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAdvise(p, N, hipMemAdviseSetPreferredLocation, count), hipErrorInvalidDevice);
  CHECK_ERR(hipMemAdvise(p, N, hipMemAdviseSetAccessedBy, -3), hipErrorInvalidDevice);
  CHECK_ERR(hipMemAdvise(p, N, hipMemAdviseSetCoarseGrain, -2), hipErrorInvalidDevice);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDevice);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  /* Nothing refused was recorded. */
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), 0);
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N), hipInvalidDeviceId);

  /* Queries: NULL data, wrong sizes, unknown attributes, bad ranges. */
  CHECK_ERR(hipMemRangeGetAttribute(NULL, 4, hipMemRangeAttributeReadMostly, p, N),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&v, 8, hipMemRangeAttributeReadMostly, p, N),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&v, 2, hipMemRangeAttributePreferredLocation, p, N),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&v, 4, (hipMemRangeAttribute)5, p, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&v, 4, (hipMemRangeAttribute)0, p, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, NULL, N),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, p, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, p, N + 1),
            hipErrorInvalidValue);
  /* Device memory answers (device_memory_range_attributes); pinned host memory does not. */
  CHECK_ERR(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, h, N),
            hipErrorInvalidValue);
  CHECK_HIP(hipHostFree(h));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

/* Device memory takes no hints, but the queries answer for it as AMD's
 * runtime does (ROCm's unit suite: hipMalloc memory is coarse-grained): as
 * memory never advised, coarse-grained unless allocated fine-grained; a range
 * running past the allocation is refused. */
AH_TEST(device_memory_range_attributes) {
  int rm = -1, pref = -1, last = -1, acc[2] = {-1, -1}, coh = -1;
  void *data[5] = {&rm, &pref, &last, acc, &coh};
  size_t sizes[5] = {4, 4, 4, 8, 4};
  hipMemRangeAttribute attrs[5] = {hipMemRangeAttributeReadMostly,
                                   hipMemRangeAttributePreferredLocation,
                                   hipMemRangeAttributeLastPrefetchLocation,
                                   hipMemRangeAttributeAccessedBy,
                                   hipMemRangeAttributeCoherencyMode};
  char *d, *f;

  CHECK_HIP(hipMalloc((void **)&d, N));
  CHECK_HIP(hipExtMallocWithFlags((void **)&f, N, hipDeviceMallocFinegrained));
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, d, N), hipMemRangeCoherencyModeCoarseGrain);
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, d + 1, 4), hipMemRangeCoherencyModeCoarseGrain);
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, f, N), hipMemRangeCoherencyModeFineGrain);
  /* Its coherency mode alone: the managed-memory attributes of memory that is not managed
   * are an invalid value (AMD's runtime and CUDA), alone or among others. */
  CHECK_HIP(hipMemRangeGetAttributes(&data[4], &sizes[4], &attrs[4], 1, d, N));
  CHECK_EQ(coh, hipMemRangeCoherencyModeCoarseGrain);
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, attrs, 5, d, N), hipErrorInvalidValue);
  for (int i = 0; i < 4; i++)
    CHECK_ERR(hipMemRangeGetAttribute(data[i], sizes[i], attrs[i], d, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&coh, 4, hipMemRangeAttributeCoherencyMode, d, N + 1),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttribute(&coh, 4, hipMemRangeAttributeCoherencyMode, d + N - 1, 2),
            hipErrorInvalidValue);
  /* Still no hints for it. */
  CHECK_ERR(hipMemAdvise(d, N, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_HIP(hipFree(f));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

AH_TEST(managed_range_get_attributes) {
  int rm = -1, pref = -1, last = -1, acc[2] = {-1, -1}, coh = -1;
  void *data[5] = {&rm, &pref, &last, acc, &coh};
  size_t sizes[5] = {4, 4, 4, 8, 4};
  hipMemRangeAttribute attrs[5] = {hipMemRangeAttributeReadMostly,
                                   hipMemRangeAttributePreferredLocation,
                                   hipMemRangeAttributeLastPrefetchLocation,
                                   hipMemRangeAttributeAccessedBy,
                                   hipMemRangeAttributeCoherencyMode};
  char *p;

  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetReadMostly, 0));
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetPreferredLocation, hipCpuDeviceId));
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetAccessedBy, 0));
  CHECK_HIP(hipMemPrefetchAsync(p, N, 0, NULL));
  CHECK_HIP(hipMemRangeGetAttributes(data, sizes, attrs, 5, p, N));
  CHECK_EQ(rm, 1);
  CHECK_EQ(pref, hipCpuDeviceId);
  CHECK_EQ(last, 0);
  CHECK(acc[0] == 0 && acc[1] == hipInvalidDeviceId);
  CHECK_EQ(coh, hipMemRangeCoherencyModeFineGrain);
  /* Each agrees with the single query. */
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), rm);
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N), pref);

  /* Errors write nothing. */
  rm = pref = -7;
  CHECK_ERR(hipMemRangeGetAttributes(NULL, sizes, attrs, 5, p, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttributes(data, NULL, attrs, 5, p, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, NULL, 5, p, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, attrs, 0, p, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, attrs, 5, NULL, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, attrs, 5, p, 0), hipErrorInvalidValue);
  sizes[2] = 8;
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, attrs, 5, p, N), hipErrorInvalidValue);
  sizes[2] = 4;
  data[4] = NULL;
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, attrs, 5, p, N), hipErrorInvalidValue);
  data[4] = &coh;
  attrs[1] = (hipMemRangeAttribute)42;
  CHECK_ERR(hipMemRangeGetAttributes(data, sizes, attrs, 5, p, N), hipErrorInvalidValue);
  CHECK(rm == -7 && pref == -7);
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

/* The per-range bookkeeping against a byte-by-byte reference: random advice
 * and prefetches over random, overlapping parts of a range, each followed by
 * queries over random parts. */
/* Odd, so ranges do not fall on tidy boundaries; several 4 KiB pages. */
enum { R = 3 * 4096 + 509 };
static struct {
  int rm, coarse, pref, last;
  unsigned acc; /* bit 0: the host, bit 1: device 0 */
} ref[R];

static unsigned rnd_state = 12345;
static unsigned rnd(unsigned n) {
  rnd_state = rnd_state * 1103515245u + 12345u;
  return (rnd_state >> 8) % n;
}

static int check_ref(const char *p, size_t lo, size_t hi) {
  int rm = 1, pref = ref[lo].pref, last = ref[lo].last, all_c = 1, any_c = 0, acc[3];
  unsigned mask = 3;

  for (size_t i = lo; i < hi; i++) {
    rm &= ref[i].rm;
    all_c &= ref[i].coarse;
    any_c |= ref[i].coarse;
    mask &= ref[i].acc;
    if (ref[i].pref != pref)
      pref = hipInvalidDeviceId;
    if (ref[i].last != last)
      last = hipInvalidDeviceId;
  }
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p + lo, hi - lo), rm);
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p + lo, hi - lo), pref);
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, p + lo, hi - lo), last);
  CHECK_EQ(attr(hipMemRangeAttributeCoherencyMode, p + lo, hi - lo),
           all_c ? hipMemRangeCoherencyModeCoarseGrain
                 : any_c ? hipMemRangeCoherencyModeIndeterminate
                         : hipMemRangeCoherencyModeFineGrain);
  CHECK_HIP(hipMemRangeGetAttribute(acc, sizeof(acc), hipMemRangeAttributeAccessedBy, p + lo,
                                    hi - lo));
  {
    int want[3] = {hipInvalidDeviceId, hipInvalidDeviceId, hipInvalidDeviceId}, k = 0;

    if (mask & 1)
      want[k++] = hipCpuDeviceId;
    if (mask & 2)
      want[k++] = 0;
    CHECK(acc[0] == want[0] && acc[1] == want[1] && acc[2] == want[2]);
  }
  return AH_PASS;
}

AH_TEST(managed_random_ranges) {
  static const hipMemoryAdvise advices[] = {
      hipMemAdviseSetReadMostly,     hipMemAdviseUnsetReadMostly,
      hipMemAdviseSetPreferredLocation, hipMemAdviseUnsetPreferredLocation,
      hipMemAdviseSetAccessedBy,     hipMemAdviseUnsetAccessedBy,
      hipMemAdviseSetCoarseGrain,    hipMemAdviseUnsetCoarseGrain};
  char *p;

  CHECK_HIP(hipMallocManaged((void **)&p, R, hipMemAttachGlobal));
  for (size_t i = 0; i < R; i++) {
    memset(&ref[i], 0, sizeof(ref[i]));
    ref[i].pref = ref[i].last = hipInvalidDeviceId;
  }
  for (int step = 0; step < 3000; step++) {
    size_t lo = rnd(R), hi = lo + 1 + rnd((unsigned)(R - lo));
    int loc = rnd(2) ? 0 : hipCpuDeviceId;
    unsigned bit = loc == 0 ? 2 : 1;
    /* What the hint covers: whole pages of the address space (an
     * allocation need not start a page: the CPU device ends it at one). */
    size_t off = (uintptr_t)p % P;
    size_t rlo = (off + lo) % P > lo ? 0 : lo - (off + lo) % P;
    size_t rhi = hi + (P - (off + hi) % P) % P;

    if (rnd(5) == 0) {
      CHECK_HIP(hipMemPrefetchAsync(p + lo, hi - lo, loc, NULL));
      for (size_t i = rlo; i < rhi && i < R; i++)
        ref[i].last = loc;
    } else {
      hipMemoryAdvise a = advices[rnd(8)];

      CHECK_HIP(hipMemAdvise(p + lo, hi - lo, a, loc));
      for (size_t i = rlo; i < rhi && i < R; i++) {
        switch (a) {
        case hipMemAdviseSetReadMostly: ref[i].rm = 1; break;
        case hipMemAdviseUnsetReadMostly: ref[i].rm = 0; break;
        case hipMemAdviseSetPreferredLocation: ref[i].pref = loc; break;
        case hipMemAdviseUnsetPreferredLocation: ref[i].pref = hipInvalidDeviceId; break;
        case hipMemAdviseSetAccessedBy: ref[i].acc |= bit; break;
        case hipMemAdviseUnsetAccessedBy: ref[i].acc &= ~bit; break;
        case hipMemAdviseSetCoarseGrain: ref[i].coarse = 1; break;
        case hipMemAdviseUnsetCoarseGrain: ref[i].coarse = 0; break;
        }
      }
    }
    for (int q = 0; q < 3; q++) {
      size_t qlo = rnd(R), qhi = qlo + 1 + rnd((unsigned)(R - qlo));

      if (check_ref(p, qlo, qhi) != AH_PASS) {
        fprintf(stderr, "step %d, query [%zu, %zu)\n", step, qlo, qhi);
        return AH_FAIL;
      }
    }
  }
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

/* Advice lives as long as its memory: a freed range has none. */
AH_TEST(managed_free_forgets) {
  hipDeviceProp_t prop;
  int dev = 0;
  char *p;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&prop, dev));
  if (!prop.pageableMemoryAccess)
    SKIP("the device does not reach pageable memory, so a freed range cannot be asked about");
  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetReadMostly, 0));
  CHECK_HIP(hipMemAdvise(p, N, hipMemAdviseSetPreferredLocation, 0));
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), 1);
  CHECK_HIP(hipFree(p));
  /* The address is now plain system memory as far as HIP knows. */
  CHECK_EQ(attr(hipMemRangeAttributeReadMostly, p, N), 0);
  CHECK_EQ(attr(hipMemRangeAttributePreferredLocation, p, N), hipInvalidDeviceId);
  return AH_PASS;
}

/* System memory takes hints when the device reaches pageable memory. */
AH_TEST(managed_system_memory) {
  hipDeviceProp_t prop;
  int dev = 0;
  char *m = malloc(N);

  CHECK(m != NULL);
  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&prop, dev));
  if (!prop.pageableMemoryAccess) {
    CHECK_ERR(hipMemAdvise(m, N, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
    free(m);
    return AH_PASS;
  }
  CHECK_HIP(hipMemAdvise(m, N, hipMemAdviseSetAccessedBy, dev));
  CHECK_HIP(hipMemPrefetchAsync(m, N, dev, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(attr(hipMemRangeAttributeLastPrefetchLocation, m, N), dev);
  CHECK_HIP(hipMemAdvise(m, N, hipMemAdviseUnsetAccessedBy, dev));
  CHECK_HIP(hipMemAdvise(m, N, hipMemAdviseUnsetReadMostly, 0));
  free(m);
  return AH_PASS;
}

AH_TEST(managed_stream_attach) {
  hipDeviceProp_t prop;
  char *p, *d, *m;
  hipStream_t s;
  int dev = 0;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&prop, dev));
  CHECK_HIP(hipMallocManaged((void **)&p, N, hipMemAttachGlobal));
  CHECK_HIP(hipMalloc((void **)&d, N));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamAttachMemAsync(s, p, 0, hipMemAttachSingle));
  CHECK_HIP(hipStreamAttachMemAsync(s, p, N, hipMemAttachHost));
  CHECK_HIP(hipStreamAttachMemAsync(NULL, p, 0, hipMemAttachGlobal));
  /* The stream still runs work on the memory, in order. */
  CHECK_HIP(hipMemsetAsync(p, 5, N, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(p[N - 1], 5);

  CHECK_ERR(hipStreamAttachMemAsync(s, NULL, 0, hipMemAttachSingle), hipErrorInvalidValue);
  CHECK_ERR(hipStreamAttachMemAsync(s, p, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipStreamAttachMemAsync(s, p, 0, hipMemAttachGlobal | hipMemAttachHost),
            hipErrorInvalidValue);
  CHECK_ERR(hipStreamAttachMemAsync(s, p, N / 2, hipMemAttachSingle), hipErrorInvalidValue);
  CHECK_ERR(hipStreamAttachMemAsync(NULL, p, 0, hipMemAttachSingle), hipErrorInvalidValue);
  CHECK_ERR(hipStreamAttachMemAsync(hipStreamLegacy, p, 0, hipMemAttachSingle),
            hipErrorInvalidValue);
  CHECK_ERR(hipStreamAttachMemAsync(s, d, 0, hipMemAttachSingle), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  m = malloc(N);
  CHECK(m != NULL);
  if (prop.pageableMemoryAccess) {
    CHECK_ERR(hipStreamAttachMemAsync(s, m, 0, hipMemAttachSingle), hipErrorInvalidValue);
    CHECK_HIP(hipStreamAttachMemAsync(s, m, N, hipMemAttachSingle));
  } else {
    CHECK_ERR(hipStreamAttachMemAsync(s, m, N, hipMemAttachSingle), hipErrorInvalidValue);
  }
  free(m);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_ERR(hipStreamAttachMemAsync(s, p, 0, hipMemAttachGlobal), hipErrorContextIsDestroyed);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

AH_TEST(pointer_get_attribute) {
  char *d, *m, *h;
  hipPointerAttribute_t pa;
  unsigned u = 77;
  void *v = NULL;
  size_t sz = 0;
  int ord = -5, dev = 0;
  long on_stack = 0;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipMalloc((void **)&d, N));
  CHECK_HIP(hipMallocManaged((void **)&m, N, hipMemAttachGlobal));
  CHECK_HIP(hipHostMalloc((void **)&h, N, 0));

  /* Device memory, asked at an interior address. */
  CHECK_HIP(hipPointerGetAttributes(&pa, d + 100));
  CHECK_HIP(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 100));
  CHECK_EQ(u, hipMemoryTypeDevice);
  CHECK_EQ(u, pa.type);
  CHECK_HIP(hipPointerGetAttribute(&v, HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, d + 100));
  CHECK(v == d + 100 && v == pa.devicePointer);
  CHECK_HIP(hipPointerGetAttribute(&v, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 100));
  CHECK(v == d);
  CHECK_HIP(hipPointerGetAttribute(&sz, HIP_POINTER_ATTRIBUTE_RANGE_SIZE, d + 100));
  CHECK_EQ(sz, N);
  CHECK_HIP(hipPointerGetAttribute(&ord, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d + 100));
  CHECK_EQ(ord, dev);
  CHECK_HIP(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_IS_MANAGED, d));
  CHECK_EQ(u, 0);
  CHECK_HIP(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MAPPED, d));
  CHECK_EQ(u, 1);
  /* MAPPED is one byte (a bool, AMD's size): its neighbours stay as they were. */
  {
    unsigned char b[4] = {0x55, 0x55, 0x55, 0x55};
    CHECK_HIP(hipPointerGetAttribute(&b[1], HIP_POINTER_ATTRIBUTE_MAPPED, d));
    CHECK(b[0] == 0x55 && b[1] == 1 && b[2] == 0x55 && b[3] == 0x55);
  }
  CHECK_HIP(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS, d));
  CHECK_EQ(u, 3); /* read and write */
  /* Device memory has no host address: an invalid value (AMD and CUDA). */
  CHECK_ERR(hipPointerGetAttribute(&v, HIP_POINTER_ATTRIBUTE_HOST_POINTER, d),
            hipErrorInvalidValue);
  CHECK(pa.hostPointer == NULL);
  /* Buffer ids: 32 bits, one per allocation, the same anywhere inside it,
   * new for a new allocation at the same address. */
  {
    unsigned id1 = 0, id2 = 0, id3 = 0, id4 = 0;
    char *d2;

    CHECK_HIP(hipPointerGetAttribute(&id1, HIP_POINTER_ATTRIBUTE_BUFFER_ID, d));
    CHECK_HIP(hipPointerGetAttribute(&id2, HIP_POINTER_ATTRIBUTE_BUFFER_ID, d + N - 1));
    CHECK_HIP(hipPointerGetAttribute(&id3, HIP_POINTER_ATTRIBUTE_BUFFER_ID, m));
    CHECK(id1 != 0 && id1 == id2 && id3 != id1);
    CHECK_HIP(hipMalloc((void **)&d2, N));
    CHECK_HIP(hipFree(d2));
    CHECK_HIP(hipMalloc((void **)&d2, N));
    CHECK_HIP(hipPointerGetAttribute(&id4, HIP_POINTER_ATTRIBUTE_BUFFER_ID, d2));
    CHECK(id4 != id1 && id4 != id3);
    CHECK_HIP(hipPointerGetAttribute(&id2, HIP_POINTER_ATTRIBUTE_BUFFER_ID, d2));
    CHECK_EQ(id2, id4);
    CHECK_HIP(hipFree(d2));
    CHECK_ERR(hipPointerGetAttribute(&id1, HIP_POINTER_ATTRIBUTE_BUFFER_ID, &on_stack),
              hipErrorInvalidValue);
  }

  /* Managed memory. */
  CHECK_HIP(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, m));
  CHECK_EQ(u, hipMemoryTypeManaged);
  CHECK_HIP(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_IS_MANAGED, m + N - 1));
  CHECK_EQ(u, 1);
  CHECK_HIP(hipPointerGetAttribute(&v, HIP_POINTER_ATTRIBUTE_HOST_POINTER, m + 5));
  CHECK(v == m + 5);

  /* Pinned host memory. */
  CHECK_HIP(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, h));
  CHECK_EQ(u, hipMemoryTypeHost);
  CHECK_HIP(hipPointerGetAttribute(&v, HIP_POINTER_ATTRIBUTE_HOST_POINTER, h + 8));
  CHECK(v == h + 8);
  CHECK_HIP(hipPointerGetAttribute(&sz, HIP_POINTER_ATTRIBUTE_RANGE_SIZE, h + 8));
  CHECK_EQ(sz, N);

  /* Errors. */
  CHECK_ERR(hipPointerGetAttribute(NULL, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, d),
            hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, NULL),
            hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, &on_stack),
            hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttribute(&u, (hipPointer_attribute)0, d), hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttribute(&u, (hipPointer_attribute)18, d), hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttribute(&v, HIP_POINTER_ATTRIBUTE_CONTEXT, d), hipErrorNotSupported);
  CHECK_EQ(hipGetLastError(), hipErrorNotSupported);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  CHECK_HIP(hipFree(d));
  /* A freed pointer is unknown again. */
  CHECK_ERR(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, d),
            hipErrorInvalidValue);
  CHECK_HIP(hipFree(m));
  CHECK_HIP(hipHostFree(h));
  return AH_PASS;
}
