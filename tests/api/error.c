/* SPDX-License-Identifier: MIT */
/* Error reporting: every hipError_t code has a distinct name and a
 * description, sampled codes have HIP's numbers and names, unknown codes read
 * as hipErrorUnknown, and the last error follows HIP's rules: per thread,
 * read-and-clear by hipGetLastError, kept by hipPeekAtLastError, untouched by
 * successful calls, by hipErrorNotReady and by the error functions. */
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
  /* HIP 6.2 has 76 distinct values (80 enumerators less 4 aliases). */
  CHECK_EQ(N_CODES, 76);
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
