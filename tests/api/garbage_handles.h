/* SPDX-License-Identifier: MIT */
/* Handles the runtime did not make, for the stream and event tests: every
 * call must refuse them with an error, never read through them. */
#ifndef AH_GARBAGE_HANDLES_H
#define AH_GARBAGE_HANDLES_H

#include "ah_test.h"

#include <stdint.h>

/* Memory laid out like an object header of the runtime (magic "AHYP", a
 * kind): a handle is trusted only if the runtime made it, whatever it
 * points at. */
struct fake_object {
  uint32_t magic, kind;
  int refs;
  char rest[256];
};

/* Checks that `refuses` passes for unmapped, misaligned, wrapped, on-stack
 * and look-alike handles of object kind `kind`, and for `other`, a live
 * handle of another kind. */
static inline int check_garbage_handles(uint32_t kind, int (*refuses)(void *h), void *other) {
  struct fake_object *fake = calloc(1, sizeof(*fake));
  long on_stack[8] = {0};
  int rc = AH_FAIL;

  CHECK(fake != NULL);
  fake->magic = 0x41485950u;
  fake->kind = kind;
  fake->refs = 1;
  if (refuses((void *)(uintptr_t)0x1234) == AH_PASS &&    /* unmapped */
      refuses((void *)(uintptr_t)0x1233) == AH_PASS &&    /* misaligned */
      refuses((void *)(uintptr_t)-8) == AH_PASS &&        /* wraps */
      refuses((void *)on_stack) == AH_PASS &&             /* not made by the runtime */
      refuses((void *)fake) == AH_PASS &&                 /* looks like one */
      refuses(other) == AH_PASS)                          /* another kind */
    rc = AH_PASS;
  free(fake);
  return rc;
}

#endif
