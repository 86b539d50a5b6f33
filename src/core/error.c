/* SPDX-License-Identifier: MIT */
/* The calling thread's last error and the names and descriptions of every
 * hipError_t code. Only src/api/ records errors, through ah_fail (the AH_*
 * macros of internal.h); the codes and their texts come from error_codes.def,
 * whose numbers are checked here against the public enum. */
#include "internal.h"

/* Per host thread, as in HIP. Success is never stored, so a failing call
 * stays visible until hipGetLastError reads it, whatever succeeds after. */
static _Thread_local hipError_t last_error = hipSuccess;

/* The public enum and the list must agree on every number. */
#define AH_ERR(name, value, text) \
  _Static_assert((int)name == (value), #name " differs from error_codes.def");
#include "error_codes.def"
#undef AH_ERR

hipError_t ah_fail(hipError_t err, const char *func, const char *what) {
  /* hipErrorNotReady reports work in progress (hipStreamQuery, hipEventQuery);
   * HIP does not treat it as an error, so it is neither kept nor logged. */
  if (err == hipSuccess || err == hipErrorNotReady)
    return err;
  last_error = err;
  AH_LOG(API, "%s -> %s (%s)", func, ah_error_name(err), what);
  return err;
}

hipError_t ah_last_error_take(void) {
  hipError_t err = last_error;

  last_error = hipSuccess;
  return err;
}

hipError_t ah_last_error_peek(void) {
  return last_error;
}

/* An unknown value reads as hipErrorUnknown, as in HIP, never as NULL:
 * callers print the result unchecked. */
const char *ah_error_name(hipError_t err) {
  switch ((int)err) {
#define AH_ERR(name, value, text) \
  case value:                     \
    return #name;
#include "error_codes.def"
#undef AH_ERR
  }
  return "hipErrorUnknown";
}

const char *ah_error_string(hipError_t err) {
  switch ((int)err) {
#define AH_ERR(name, value, text) \
  case value:                     \
    return text;
#include "error_codes.def"
#undef AH_ERR
  }
  return "unknown error";
}
