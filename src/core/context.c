/* SPDX-License-Identifier: MIT */
/* Contexts (context.h): one primary context per device, made once, and each host thread's
 * stack of contexts. The context API (HIP keeps it, deprecated, for CUDA driver-API code)
 * checks its arguments in src/api/hip_context.c. */
#include "context.h"

#include <pthread.h>
#include <stdlib.h>

#define AH_CTX_STACK 64 /* a thread pushing deeper gets hipErrorOutOfMemory */

struct ah_context {
  struct ah_object obj;
  struct ah_device *dev;
  atomic_int retains; /* hipDevicePrimaryCtxRetain minus Release */
};

static struct ah_context *contexts; /* one per device, made once */
static int n_contexts;
static hipError_t contexts_err = hipSuccess;
static pthread_once_t contexts_once = PTHREAD_ONCE_INIT;

static _Thread_local struct ah_context *stack[AH_CTX_STACK];
static _Thread_local int depth;

static void contexts_make(void) {
  int n = ah_device_count();

  contexts = calloc(n > 0 ? (size_t)n : 1, sizeof(*contexts));
  if (contexts == NULL) {
    contexts_err = hipErrorOutOfMemory;
    return;
  }
  for (int i = 0; i < n; i++) {
    contexts[i].dev = ah_device_get(i);
    if (ah_object_init(&contexts[i].obj, AH_KIND_CONTEXT) != hipSuccess) {
      contexts_err = hipErrorOutOfMemory;
      return;
    }
  }
  n_contexts = n;
}

hipError_t ah_context_primary(int dev, struct ah_context **out) {
  pthread_once(&contexts_once, contexts_make);
  if (contexts_err != hipSuccess)
    return contexts_err;
  if (n_contexts == 0)
    return hipErrorNoDevice;
  if (dev < 0 || dev >= n_contexts)
    return hipErrorInvalidDevice;
  *out = &contexts[dev];
  return hipSuccess;
}

struct ah_context *ah_context_cast(hipCtx_t ctx) {
  return ah_object_cast(ctx, AH_KIND_CONTEXT);
}

struct ah_device *ah_context_device(const struct ah_context *c) {
  return c->dev;
}

hipError_t ah_context_current(struct ah_context **out) {
  struct ah_device *dev;

  if (depth > 0) {
    *out = stack[depth - 1];
    return hipSuccess;
  }
  dev = ah_current_device();
  if (dev == NULL)
    return hipErrorNoDevice;
  return ah_context_primary(dev->ordinal, out);
}

hipError_t ah_context_push(struct ah_context *c) {
  if (depth == AH_CTX_STACK)
    return hipErrorOutOfMemory;
  stack[depth++] = c;
  ah_set_current_ordinal(c->dev->ordinal);
  return hipSuccess;
}

hipError_t ah_context_pop(struct ah_context **out) {
  struct ah_context *c;

  if (depth == 0)
    return hipErrorInvalidContext;
  c = stack[--depth];
  if (depth > 0)
    ah_set_current_ordinal(stack[depth - 1]->dev->ordinal);
  if (out != NULL)
    *out = c;
  return hipSuccess;
}

/* The context's flags are its device's (hipSetDeviceFlags). */
hipError_t ah_context_create(int dev, unsigned flags, struct ah_context **out) {
  struct ah_context *c;
  hipError_t err;

  if ((err = ah_context_primary(dev, &c)) != hipSuccess || (err = ah_context_push(c)) != hipSuccess)
    return err;
  ah_device_set_flags(c->dev, flags);
  *out = c;
  return hipSuccess;
}

hipError_t ah_context_set(struct ah_context *c) {
  if (c == NULL)
    return depth > 0 ? ah_context_pop(NULL) : hipSuccess;
  if (depth > 0)
    depth--;
  return ah_context_push(c);
}

/* A primary context outlives this: only the calling thread's stack forgets it, from its top
 * (AMD's runtime does the same). */
void ah_context_forget(struct ah_context *c) {
  if (depth > 0 && stack[depth - 1] == c)
    (void)ah_context_pop(NULL);
}

unsigned ah_context_flags(struct ah_context *c) {
  return ah_device_flags(c->dev);
}

/* Flags of an active primary context cannot change (CUDA's rule, AMD's code). */
hipError_t ah_context_set_flags(struct ah_context *c, unsigned flags) {
  if (atomic_load(&c->retains) != 0)
    return hipErrorContextAlreadyInUse;
  ah_device_set_flags(c->dev, flags);
  return hipSuccess;
}

void ah_context_retain(struct ah_context *c) {
  atomic_fetch_add(&c->retains, 1);
}

/* Releasing more often than retaining is harmless, as in AMD's runtime. */
void ah_context_release(struct ah_context *c) {
  int n = atomic_load(&c->retains);

  while (n > 0 && !atomic_compare_exchange_weak(&c->retains, &n, n - 1))
    ;
}

/* Ends the retains; the device's memory and streams stay (hipDeviceReset frees them). */
void ah_context_reset(struct ah_context *c) {
  atomic_store(&c->retains, 0);
}

int ah_context_active(struct ah_context *c) {
  return atomic_load(&c->retains) > 0;
}
