/* SPDX-License-Identifier: MIT */
/* Error reporting: every hipError_t code has a distinct name and a
 * description, sampled codes have HIP's numbers and names, unknown codes read
 * as hipErrorUnknown, and the last error follows HIP's rules: per thread,
 * read-and-clear by hipGetLastError, kept by hipPeekAtLastError, untouched by
 * successful calls, by hipErrorNotReady and by the error functions. A
 * failure of every entry point records its code; no success records. */
#include "ah_test.h"
#include "gate.h"

#include <pthread.h>

/* The runtime's own list of codes, the one error.c is generated from. */
static const struct {
  hipError_t code;
  const char *name;
} all_codes[] = {
#define AH_ERR(name, value, text) {name, #name},
#include "../../src/core/error_codes.def"
#undef AH_ERR
};
#define N_CODES (sizeof(all_codes) / sizeof(all_codes[0]))

AH_TEST(error_every_code_named) {
  /* HIP 6.2 has 76 distinct values (80 enumerators less 4 aliases); anyhip
   * adds hipErrorNotPermitted (CUDA's 800, hipify's name) for host functions. */
  CHECK_EQ(N_CODES, 77);
  for (size_t i = 0; i < N_CODES; i++) {
    const char *name = hipGetErrorName(all_codes[i].code);
    const char *text = hipGetErrorString(all_codes[i].code);

    CHECK(name != NULL && text != NULL);
    if (strcmp(name, all_codes[i].name) != 0) {
      fprintf(stderr, "code %d is named %s, listed as %s\n", (int)all_codes[i].code, name,
              all_codes[i].name);
      return AH_FAIL;
    }
    CHECK(strncmp(name, "hip", 3) == 0);
    CHECK(strlen(text) > 3);
    /* Names and descriptions are distinct, and so are the values. */
    for (size_t j = 0; j < i; j++) {
      CHECK(all_codes[i].code != all_codes[j].code);
      CHECK(strcmp(name, hipGetErrorName(all_codes[j].code)) != 0);
      CHECK(strcmp(text, hipGetErrorString(all_codes[j].code)) != 0);
    }
  }
  return AH_PASS;
}

/* Numbers and names written out independently of the list, from HIP. */
AH_TEST(error_values_match_hip) {
  static const struct {
    int value;
    const char *name;
  } hip[] = {
      {0, "hipSuccess"},
      {1, "hipErrorInvalidValue"},
      {2, "hipErrorOutOfMemory"},
      {3, "hipErrorNotInitialized"},
      {9, "hipErrorInvalidConfiguration"},
      {12, "hipErrorInvalidPitchValue"},
      {13, "hipErrorInvalidSymbol"},
      {17, "hipErrorInvalidDevicePointer"},
      {21, "hipErrorInvalidMemcpyDirection"},
      {98, "hipErrorInvalidDeviceFunction"},
      {100, "hipErrorNoDevice"},
      {101, "hipErrorInvalidDevice"},
      {215, "hipErrorUnsupportedLimit"},
      {400, "hipErrorInvalidHandle"},
      {500, "hipErrorNotFound"},
      {600, "hipErrorNotReady"},
      {700, "hipErrorIllegalAddress"},
      {701, "hipErrorLaunchOutOfResources"},
      {709, "hipErrorContextIsDestroyed"},
      {712, "hipErrorHostMemoryAlreadyRegistered"},
      {713, "hipErrorHostMemoryNotRegistered"},
      {719, "hipErrorLaunchFailure"},
      {720, "hipErrorCooperativeLaunchTooLarge"},
      {801, "hipErrorNotSupported"},
      {900, "hipErrorStreamCaptureUnsupported"},
      {999, "hipErrorUnknown"},
      {1053, "hipErrorRuntimeOther"},
  };

  for (size_t i = 0; i < sizeof(hip) / sizeof(hip[0]); i++) {
    const char *name = hipGetErrorName((hipError_t)hip[i].value);

    if (strcmp(name, hip[i].name) != 0) {
      fprintf(stderr, "value %d: got %s, HIP says %s\n", hip[i].value, name, hip[i].name);
      return AH_FAIL;
    }
  }
  /* The deprecated aliases share their current name's value. */
  CHECK_EQ(hipErrorMemoryAllocation, hipErrorOutOfMemory);
  CHECK_EQ(hipErrorInitializationError, hipErrorNotInitialized);
  CHECK_EQ(hipErrorInvalidResourceHandle, hipErrorInvalidHandle);
  CHECK(strcmp(hipGetErrorName(hipErrorMemoryAllocation), "hipErrorOutOfMemory") == 0);
  CHECK(strcmp(hipGetErrorString(hipSuccess), "no error") == 0);
  return AH_PASS;
}

AH_TEST(error_unknown_code) {
  static const int bogus[] = {-1, 10, 99, 602, 1055, 12345};

  for (size_t i = 0; i < sizeof(bogus) / sizeof(bogus[0]); i++) {
    CHECK(strcmp(hipGetErrorName((hipError_t)bogus[i]), "hipErrorUnknown") == 0);
    CHECK(strcmp(hipGetErrorString((hipError_t)bogus[i]), "unknown error") == 0);
  }
  /* Asking about errors is not an error. */
  CHECK_EQ(hipPeekAtLastError(), hipSuccess);
  return AH_PASS;
}

AH_TEST(error_last_error_rules) {
  void *p = NULL;
  int count = 0;

  CHECK_EQ(hipGetLastError(), hipSuccess); /* a fresh thread starts clean */
  CHECK_EQ(hipMalloc(NULL, 16), hipErrorInvalidValue);
  CHECK_EQ(hipPeekAtLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipPeekAtLastError(), hipErrorInvalidValue); /* peeking does not clear */

  /* Successful calls and the error functions leave it alone. */
  CHECK_HIP(hipGetDeviceCount(&count));
  CHECK_HIP(hipMalloc(&p, 16));
  CHECK(strcmp(hipGetErrorName(hipErrorInvalidDevice), "hipErrorInvalidDevice") == 0);
  CHECK(hipGetErrorString(hipErrorInvalidDevice) != NULL);
  CHECK_EQ(hipPeekAtLastError(), hipErrorInvalidValue);

  /* A later failure replaces it. */
  CHECK_EQ(hipSetDevice(count + 100), hipErrorInvalidDevice);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDevice); /* reading clears */
  CHECK_EQ(hipGetLastError(), hipSuccess);
  CHECK_EQ(hipPeekAtLastError(), hipSuccess);
  CHECK_HIP(hipFree(p));
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

struct thread_result {
  hipError_t first_peek; /* before the thread fails anything */
  hipError_t own;        /* after its own failing call */
};

static void *fail_in_thread(void *arg) {
  struct thread_result *r = arg;

  r->first_peek = hipPeekAtLastError();
  (void)hipGetDevice(NULL);
  r->own = hipGetLastError();
  return NULL;
}

AH_TEST(error_last_error_per_thread) {
  struct thread_result r = {hipErrorUnknown, hipErrorUnknown};
  pthread_t t;

  CHECK_EQ(hipMalloc(NULL, 16), hipErrorInvalidValue);
  CHECK_EQ(pthread_create(&t, NULL, fail_in_thread, &r), 0);
  CHECK_EQ(pthread_join(t, NULL), 0);
  CHECK_EQ(r.first_peek, hipSuccess);       /* this thread's error is not visible there */
  CHECK_EQ(r.own, hipErrorInvalidValue);    /* hipGetDevice(NULL) */
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue); /* ours survived theirs being read */
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

/* hipErrorNotReady says "still running"; HIP does not store it. */
AH_TEST(error_not_ready_not_recorded) {
  struct gate g = GATE_INIT;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK(wait_flag(&g.entered, 5000));
  CHECK_EQ(hipStreamQuery(s), hipErrorNotReady);
  CHECK_EQ(hipPeekAtLastError(), hipSuccess);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamQuery(s));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

/* ---- the last error across the whole API (audit) ----------------------------- */

static void noop_fn(void *p) {
  (void)p;
}

static void noop_cb(hipStream_t s, hipError_t e, void *p) {
  (void)s;
  (void)e;
  (void)p;
}

/* One failure of every entry point of issue 2's list records its code. */
AH_TEST(error_every_entry_records) {
  hipStream_t s, dead;
  hipEvent_t e, dead_e;
  hipDeviceProp_t p;
  hipPointerAttribute_t attr;
  unsigned char host[64];
  size_t sz;
  unsigned f;
  int n, v;
  float ms;
  void *d, *ptr;
  char name[32];

  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&dead));
  CHECK_HIP(hipStreamDestroy(dead));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventCreate(&dead_e));
  CHECK_HIP(hipEventDestroy(dead_e));

  /* init, versions, devices */
  CHECK_RECORDS(hipInit(1), hipErrorInvalidValue);
  CHECK_RECORDS(hipDriverGetVersion(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipRuntimeGetVersion(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipGetDeviceCount(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipSetDevice(n), hipErrorInvalidDevice);
  CHECK_RECORDS(hipGetDevice(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipGetDeviceProperties(&p, -1), hipErrorInvalidDevice);
  CHECK_RECORDS(hipDeviceGetAttribute(&v, (hipDeviceAttribute_t)-1, 0), hipErrorInvalidValue);
  CHECK_RECORDS(hipDeviceGetName(name, 0, 0), hipErrorInvalidValue);
  CHECK_RECORDS(hipDeviceTotalMem(&sz, n), hipErrorInvalidDevice);
  CHECK_RECORDS(hipChooseDevice(&v, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipSetDeviceFlags(0x80), hipErrorInvalidValue);
  CHECK_RECORDS(hipGetDeviceFlags(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipDeviceGetLimit(&sz, (enum hipLimit_t)99), hipErrorUnsupportedLimit);
  CHECK_RECORDS(hipDeviceSetLimit((enum hipLimit_t)99, 0), hipErrorUnsupportedLimit);
  /* memory */
  CHECK_RECORDS(hipMalloc(NULL, 8), hipErrorInvalidValue);
  CHECK_RECORDS(hipMalloc(&ptr, SIZE_MAX), hipErrorOutOfMemory);
  CHECK_RECORDS(hipFree(host), hipErrorInvalidValue);
  CHECK_RECORDS(hipHostMalloc(&ptr, 8, 0x100), hipErrorInvalidValue);
  CHECK_RECORDS(hipHostAlloc(NULL, 8, 0), hipErrorInvalidValue);
  CHECK_RECORDS(hipHostFree(d), hipErrorInvalidValue);
  CHECK_RECORDS(hipFreeHost(d), hipErrorInvalidValue);
  CHECK_RECORDS(hipHostRegister(host, sizeof(host), 0x100), hipErrorInvalidValue);
  CHECK_RECORDS(hipHostUnregister(host), hipErrorHostMemoryNotRegistered);
  CHECK_RECORDS(hipHostGetDevicePointer(&ptr, host, 0), hipErrorInvalidValue);
  CHECK_RECORDS(hipHostGetFlags(&f, host), hipErrorInvalidValue);
  CHECK_RECORDS(hipMallocPitch(&ptr, NULL, 8, 8), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemGetInfo(NULL, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipPointerGetAttributes(&attr, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemGetAddressRange(&ptr, &sz, host), hipErrorNotFound);
  /* copies and sets */
  CHECK_RECORDS(hipMemcpy(d, host, 65, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpy(d, host, 8, (hipMemcpyKind)9), hipErrorInvalidMemcpyDirection);
  CHECK_RECORDS(hipMemcpyAsync(d, host, 8, hipMemcpyHostToDevice, dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipMemcpyHtoD(d, NULL, 8), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyDtoH(NULL, d, 8), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyDtoD(d, d, 65), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyHtoDAsync(d, host, 65, s), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyDtoHAsync(host, d, 65, s), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyDtoDAsync(d, d, 8, dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipMemcpy2D(d, 4, host, 8, 8, 2, hipMemcpyHostToDevice), hipErrorInvalidPitchValue);
  CHECK_RECORDS(hipMemcpy2DAsync(d, 8, host, 4, 8, 2, hipMemcpyHostToDevice, s),
        hipErrorInvalidPitchValue);
  CHECK_RECORDS(hipMemset(host, 0, 8), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemsetAsync(d, 0, 65, s), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemsetD8(NULL, 0, 8), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemsetD16(d, 0, 33), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemsetD32(d, 0, 17), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemsetD8Async(d, 0, 8, dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipMemsetD16Async(d, 0, 8, dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipMemsetD32Async(d, 0, 8, dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipMemset2D(d, 4, 0, 8, 2), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyToSymbol(NULL, host, 8, 0, hipMemcpyHostToDevice), hipErrorInvalidSymbol);
  CHECK_RECORDS(hipMemcpyFromSymbol(host, NULL, 8, 0, hipMemcpyDeviceToHost), hipErrorInvalidSymbol);
  CHECK_RECORDS(hipMemcpyToSymbolAsync(host, host, 8, 0, hipMemcpyHostToDevice, s),
        hipErrorInvalidSymbol);
  CHECK_RECORDS(hipMemcpyFromSymbolAsync(host, host, 8, 0, hipMemcpyDeviceToHost, s),
        hipErrorInvalidSymbol);
  CHECK_RECORDS(hipGetSymbolAddress(&ptr, host), hipErrorInvalidSymbol);
  CHECK_RECORDS(hipGetSymbolSize(&sz, host), hipErrorInvalidSymbol);
  /* streams */
  CHECK_RECORDS(hipStreamCreate(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipStreamCreateWithFlags(&s, 4), hipErrorInvalidValue);
  CHECK_RECORDS(hipStreamCreateWithPriority(NULL, 0, 0), hipErrorInvalidValue);
  CHECK_RECORDS(hipStreamDestroy(dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipStreamQuery(dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipStreamSynchronize(dead), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipStreamWaitEvent(s, e, 1), hipErrorInvalidValue);
  CHECK_RECORDS(hipStreamGetFlags(s, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipStreamGetPriority(dead, &v), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipStreamGetDevice(dead, &v), hipErrorContextIsDestroyed);
  CHECK_RECORDS(hipLaunchHostFunc(s, NULL, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipStreamAddCallback(s, noop_cb, NULL, 1), hipErrorInvalidValue);
  CHECK_RECORDS(hipLaunchHostFunc(dead, noop_fn, NULL), hipErrorContextIsDestroyed);
  /* events */
  CHECK_RECORDS(hipEventCreate(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipEventCreateWithFlags(&e, 0x100), hipErrorInvalidValue);
  CHECK_RECORDS(hipEventRecord(dead_e, s), hipErrorInvalidHandle);
  CHECK_RECORDS(hipEventQuery(dead_e), hipErrorInvalidHandle);
  CHECK_RECORDS(hipEventSynchronize(NULL), hipErrorInvalidHandle);
  CHECK_RECORDS(hipEventElapsedTime(&ms, e, e), hipErrorInvalidHandle); /* never recorded */
  CHECK_RECORDS(hipEventDestroy(dead_e), hipErrorContextIsDestroyed);
  /* launch */
  CHECK_RECORDS(hipLaunchKernel(NULL, (dim3){1, 1, 1}, (dim3){1, 1, 1}, NULL, 0, NULL),
        hipErrorInvalidDeviceFunction);

  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}


/* One failure of each entry point added after issue 2 (3D copies,
 * occupancy, managed-memory hints, cooperative launch) records its code
 * too; the pools check theirs in mempool.c. */
AH_TEST(error_newer_entries_record) {
  size_t sizes[1] = {4};
  hipMemRangeAttribute attrs[1] = {hipMemRangeAttributeReadMostly};
  dim3 one = {1, 1, 1};
  unsigned u;
  int n, grid, block;
  void *d;

  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_RECORDS(hipMalloc3D(NULL, make_hipExtent(16, 2, 2)), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpy3D(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpy3DAsync(NULL, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemset3D(make_hipPitchedPtr(NULL, 64, 32, 4), 0, make_hipExtent(8, 1, 1)),
                hipErrorInvalidValue);
  CHECK_RECORDS(hipMemset3DAsync(make_hipPitchedPtr(NULL, 64, 32, 4), 0,
                                 make_hipExtent(8, 1, 1), NULL),
                hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyParam2D(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemcpyParam2DAsync(NULL, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipDrvMemcpy2DUnaligned(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, NULL, 64, 0),
                hipErrorInvalidDeviceFunction);
  CHECK_RECORDS(hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(NULL, NULL, 64, 0, 0),
                hipErrorInvalidValue);
  CHECK_RECORDS(hipOccupancyMaxPotentialBlockSize(&grid, &block, NULL, 0, 0),
                hipErrorInvalidDeviceFunction);
  CHECK_RECORDS(hipMemAdvise(NULL, 64, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemPrefetchAsync(NULL, 64, 0, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipMemRangeGetAttribute(NULL, 4, hipMemRangeAttributeReadMostly, d, 64),
                hipErrorInvalidValue);
  CHECK_RECORDS(hipMemRangeGetAttributes(NULL, sizes, attrs, 1, d, 64), hipErrorInvalidValue);
  CHECK_RECORDS(hipStreamAttachMemAsync(NULL, NULL, 0, hipMemAttachSingle),
                hipErrorInvalidValue);
  CHECK_RECORDS(hipPointerGetAttribute(NULL, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, d),
                hipErrorInvalidValue);
  CHECK_RECORDS(hipPointerGetAttribute(&u, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, NULL),
                hipErrorInvalidValue);
  CHECK_RECORDS(hipLaunchCooperativeKernel(NULL, one, one, NULL, 0, NULL),
                hipErrorInvalidDeviceFunction);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* With an error pending, a successful call of every kind leaves it as it is. */
AH_TEST(error_success_never_records) {
  hipStream_t s;
  hipEvent_t a, b;
  hipDeviceProp_t p;
  hipPointerAttribute_t attr;
  unsigned char host[256];
  size_t sz, fr, pitch;
  unsigned f;
  int n, v, lo, hi;
  float ms;
  void *d, *h, *ptr;
  char name[64];

  CHECK_ERR(hipSetDevice(-1), hipErrorInvalidDevice);
#define KEEPS(call)                                                                                \
  do {                                                                                             \
    CHECK_HIP(call);                                                                               \
    CHECK_EQ(hipPeekAtLastError(), hipErrorInvalidDevice);                                         \
  } while (0)
  KEEPS(hipInit(0));
  KEEPS(hipDriverGetVersion(&v));
  KEEPS(hipRuntimeGetVersion(&v));
  KEEPS(hipGetDeviceCount(&n));
  KEEPS(hipSetDevice(0));
  KEEPS(hipGetDevice(&v));
  KEEPS(hipGetDeviceProperties(&p, 0));
  KEEPS(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 0));
  KEEPS(hipDeviceGetName(name, sizeof(name), 0));
  KEEPS(hipDeviceTotalMem(&sz, 0));
  KEEPS(hipChooseDevice(&v, &p));
  KEEPS(hipSetDeviceFlags(hipDeviceScheduleAuto));
  KEEPS(hipGetDeviceFlags(&f));
  KEEPS(hipDeviceGetLimit(&sz, hipLimitStackSize));
  KEEPS(hipDeviceSetLimit(hipLimitStackSize, sz));
  KEEPS(hipDeviceGetStreamPriorityRange(&lo, &hi));
  KEEPS(hipMalloc(&d, 256));
  KEEPS(hipMallocPitch(&ptr, &pitch, 16, 4));
  KEEPS(hipFree(ptr));
  KEEPS(hipHostMalloc(&h, 256, 0));
  KEEPS(hipHostGetDevicePointer(&ptr, h, 0));
  KEEPS(hipHostGetFlags(&f, h));
  KEEPS(hipHostRegister(host, sizeof(host), 0));
  KEEPS(hipHostUnregister(host));
  KEEPS(hipMemGetInfo(&fr, &sz));
  KEEPS(hipPointerGetAttributes(&attr, d));
  KEEPS(hipMemGetAddressRange(&ptr, &sz, d));
  KEEPS(hipStreamCreate(&s));
  KEEPS(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  KEEPS(hipStreamDestroy(s));
  KEEPS(hipStreamCreateWithPriority(&s, 0, hi));
  KEEPS(hipStreamGetFlags(s, &f));
  KEEPS(hipStreamGetPriority(s, &v));
  KEEPS(hipStreamGetDevice(s, &v));
  KEEPS(hipEventCreate(&a));
  KEEPS(hipEventCreateWithFlags(&b, hipEventBlockingSync));
  KEEPS(hipEventRecord(a, s));
  KEEPS(hipMemcpy(d, host, 256, hipMemcpyHostToDevice));
  KEEPS(hipMemcpyAsync(host, d, 256, hipMemcpyDeviceToHost, s));
  KEEPS(hipMemcpyHtoD(d, host, 16));
  KEEPS(hipMemcpyDtoH(host, d, 16));
  KEEPS(hipMemcpyDtoD(d, (char *)d + 128, 16));
  KEEPS(hipMemcpyHtoDAsync(d, h, 16, s));
  KEEPS(hipMemcpyDtoHAsync(h, d, 16, s));
  KEEPS(hipMemcpyDtoDAsync(d, (char *)d + 128, 16, s));
  KEEPS(hipMemcpy2D(d, 16, host, 16, 16, 4, hipMemcpyHostToDevice));
  KEEPS(hipMemcpy2DAsync(host, 16, d, 16, 16, 4, hipMemcpyDeviceToHost, s));
  KEEPS(hipMemset(d, 1, 256));
  KEEPS(hipMemsetAsync(d, 1, 256, s));
  KEEPS(hipMemsetD8(d, 1, 256));
  KEEPS(hipMemsetD16(d, 1, 128));
  KEEPS(hipMemsetD32(d, 1, 64));
  KEEPS(hipMemsetD8Async(d, 1, 256, s));
  KEEPS(hipMemsetD16Async(d, 1, 128, s));
  KEEPS(hipMemsetD32Async(d, 1, 64, s));
  KEEPS(hipMemset2D(d, 16, 0, 16, 4));
  KEEPS(hipLaunchHostFunc(s, noop_fn, NULL));
  KEEPS(hipStreamAddCallback(s, noop_cb, NULL, 0));
  KEEPS(hipEventRecord(b, s));
  KEEPS(hipStreamWaitEvent(NULL, b, 0));
  KEEPS(hipStreamSynchronize(s));
  KEEPS(hipStreamQuery(s));
  KEEPS(hipEventSynchronize(b));
  KEEPS(hipEventQuery(b));
  KEEPS(hipEventElapsedTime(&ms, a, b));
  KEEPS(hipDeviceSynchronize());
  KEEPS(hipEventDestroy(a));
  KEEPS(hipEventDestroy(b));
  KEEPS(hipStreamDestroy(s));
  KEEPS(hipHostFree(h));
  KEEPS(hipFree(d));
  KEEPS(hipDeviceReset());
#undef KEEPS
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDevice);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

/* Two threads fail at the same time with different codes; each reads its
 * own, and reading one thread's error leaves the other's. */
struct race {
  pthread_barrier_t *bar;
  hipError_t got, after;
};

static void *race_invalid_device(void *p) {
  struct race *r = p;

  pthread_barrier_wait(r->bar);
  (void)hipSetDevice(-1);       /* hipErrorInvalidDevice */
  pthread_barrier_wait(r->bar); /* main fails at the same moment */
  pthread_barrier_wait(r->bar); /* main has read its own */
  r->got = hipGetLastError();
  r->after = hipGetLastError();
  return NULL;
}

AH_TEST(error_last_error_threads_concurrent) {
  pthread_barrier_t bar;
  struct race r = {&bar, hipSuccess, hipErrorUnknown};
  pthread_t t;

  CHECK_EQ(pthread_barrier_init(&bar, NULL, 2), 0);
  CHECK_EQ(pthread_create(&t, NULL, race_invalid_device, &r), 0);
  pthread_barrier_wait(&bar);
  CHECK_ERR(hipMalloc(NULL, 1), hipErrorInvalidValue);
  pthread_barrier_wait(&bar);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue); /* not the other thread's */
  CHECK_EQ(hipGetLastError(), hipSuccess);
  pthread_barrier_wait(&bar);
  CHECK_EQ(pthread_join(t, NULL), 0);
  CHECK_EQ(r.got, hipErrorInvalidDevice); /* survived our read */
  CHECK_EQ(r.after, hipSuccess);      /* and its read cleared it */
  CHECK_EQ(hipPeekAtLastError(), hipSuccess);
  pthread_barrier_destroy(&bar);
  return AH_PASS;
}
