/* SPDX-License-Identifier: MIT */
/* The test harness: checks that print file:line and fail the test, shared by
 * the C API tests (one runner, tests named in tests/api/<area>.list) and the
 * .hip kernel tests (one program each). Exit code 77 means "skipped", and a
 * skipping test must print why. */
#ifndef AH_TEST_H
#define AH_TEST_H

#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AH_PASS 0
#define AH_FAIL 1
#define AH_SKIP 77

#define AH_TEST(name) int ah_test_##name(void)

#define CHECK(c)                                                          \
  do {                                                                    \
    if (!(c)) {                                                           \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); \
      return AH_FAIL;                                                     \
    }                                                                     \
  } while (0)

#define CHECK_EQ(a, b)                                                              \
  do {                                                                              \
    long long a_ = (long long)(a), b_ = (long long)(b);                             \
    if (a_ != b_) {                                                                 \
      fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: %lld != %lld\n", __FILE__, \
              __LINE__, #a, #b, a_, b_);                                            \
      return AH_FAIL;                                                               \
    }                                                                               \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                             \
  do {                                                                                    \
    double a_ = (double)(a), b_ = (double)(b);                                            \
    if (!(a_ - b_ <= (tol) && b_ - a_ <= (tol))) {                                        \
      fprintf(stderr, "%s:%d: CHECK_NEAR(%s, %s) failed: %g vs %g\n", __FILE__, __LINE__, \
              #a, #b, a_, b_);                                                            \
      return AH_FAIL;                                                                     \
    }                                                                                     \
  } while (0)

/* Checks a HIP call succeeded; on failure prints the error's name. */
#define CHECK_HIP(x)                                                              \
  do {                                                                            \
    hipError_t e_ = (x);                                                          \
    if (e_ != hipSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #x,          \
              hipGetErrorName(e_));                                               \
      return AH_FAIL;                                                             \
    }                                                                             \
  } while (0)

/* Checks a HIP call returned exactly the error `want`. */
#define CHECK_ERR(x, want)                                                        \
  do {                                                                            \
    hipError_t e_ = (x);                                                          \
    if (e_ != (want)) {                                                           \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, \
              #x, hipGetErrorName(e_), hipGetErrorName(want));                    \
      return AH_FAIL;                                                             \
    }                                                                             \
  } while (0)

/* hipPointerGetAttributes(&at, p) on freed device memory: hipErrorInvalidValue.
 * In a sanitizer build device memory comes from the C heap (docs/debugging.md),
 * so freed memory may still be readable, which HIP 6 calls unregistered host
 * memory (success, hipMemoryTypeUnregistered): accepted there only. */
#if defined(__SANITIZE_ADDRESS__)
#define FREED_POINTER_IS_INVALID(x, at)                                           \
  do {                                                                            \
    hipError_t f_ = (x);                                                          \
    CHECK(f_ == hipErrorInvalidValue ||                                           \
          (f_ == hipSuccess && (at).type == hipMemoryTypeUnregistered));          \
  } while (0)
#else
#define FREED_POINTER_IS_INVALID(x, at) CHECK_ERR(x, hipErrorInvalidValue)
#endif

/* call fails with want; the last error is then want, a successful call
 * (hipGetDevice) keeps it, and reading it clears it. */
#define CHECK_RECORDS(call, want)                                                 \
  do {                                                                            \
    int dev_;                                                                     \
    (void)hipGetLastError();                                                      \
    CHECK_ERR(call, want);                                                        \
    CHECK_EQ(hipPeekAtLastError(), want);                                         \
    CHECK_HIP(hipGetDevice(&dev_));                                               \
    CHECK_EQ(hipGetLastError(), want);                                            \
    CHECK_EQ(hipGetLastError(), hipSuccess);                                      \
  } while (0)

#define SKIP(why)                              \
  do {                                         \
    printf("skipped: %s\n", why);              \
    return AH_SKIP;                            \
  } while (0)

#endif
