/* SPDX-License-Identifier: MIT */
/* The context API (HIP keeps it, deprecated, for CUDA driver-API code). As in AMD's runtime a
 * context is a device: each device has one, its primary context, made at first use and never
 * freed. Each host thread has a stack of contexts; pushing (hipCtxCreate, hipCtxPushCurrent,
 * hipCtxSetCurrent) makes the context's device the thread's current device, popping makes the
 * device of the new top current (the current device stays when the stack empties). Primary
 * contexts count their retains: hipDevicePrimaryCtxGetState reports active while retained. */
#include <pthread.h>
#include <stdlib.h>

#include "../core/stream.h"
#include "device_ops.h"

#define AH_CTX_STACK 64 /* a thread pushing deeper gets hipErrorOutOfMemory */
#define AH_CTX_FLAGS (hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax)

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

/* The primary context of device ordinal `dev`. */
static hipError_t context_of(int dev, struct ah_context **out) {
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

static struct ah_context *context_cast(hipCtx_t ctx) {
  return ah_object_cast(ctx, AH_KIND_CONTEXT);
}

/* The thread's current context: the top of its stack, else its current device's. */
static hipError_t current_context(struct ah_context **out) {
  struct ah_device *dev;

  if (depth > 0) {
    *out = stack[depth - 1];
    return hipSuccess;
  }
  dev = ah_current_device();
  if (dev == NULL)
    return hipErrorNoDevice;
  return context_of(dev->ordinal, out);
}

static hipError_t push(struct ah_context *c) {
  if (depth == AH_CTX_STACK)
    return hipErrorOutOfMemory;
  stack[depth++] = c;
  ah_set_current_ordinal(c->dev->ordinal);
  return hipSuccess;
}

static struct ah_context *pop(void) {
  struct ah_context *c = stack[--depth];

  if (depth > 0)
    ah_set_current_ordinal(stack[depth - 1]->dev->ordinal);
  return c;
}

static hipError_t check_flags(unsigned flags) {
  unsigned sched = flags & hipDeviceScheduleMask;

  if ((flags & ~(unsigned)AH_CTX_FLAGS) != 0)
    return hipErrorInvalidValue;
  if (sched != hipDeviceScheduleAuto && sched != hipDeviceScheduleSpin &&
      sched != hipDeviceScheduleYield && sched != hipDeviceScheduleBlockingSync)
    return hipErrorInvalidValue;
  return hipSuccess;
}

/* The context's flags are its device's (hipSetDeviceFlags). */
AH_EXPORT hipError_t hipCtxCreate(hipCtx_t *ctx, unsigned int flags, hipDevice_t device) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(ctx != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(check_flags(flags));
  AH_REQUIRE_OK(context_of(device, &c));
  AH_REQUIRE_OK(push(c));
  pthread_mutex_lock(&c->dev->lock);
  c->dev->flags = flags;
  pthread_mutex_unlock(&c->dev->lock);
  *ctx = (hipCtx_t)c;
  return hipSuccess;
}

/* A primary context outlives this: only the calling thread's stack forgets it, from its top
 * (AMD's runtime does the same). */
AH_EXPORT hipError_t hipCtxDestroy(hipCtx_t ctx) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(ctx != NULL, hipErrorInvalidValue);
  c = context_cast(ctx);
  AH_REQUIRE(c != NULL, hipErrorInvalidContext);
  if (depth > 0 && stack[depth - 1] == c)
    (void)pop();
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  struct ah_context *c;

  AH_ENTER();
  c = context_cast(ctx);
  AH_REQUIRE(c != NULL, hipErrorInvalidContext);
  AH_RETURN(push(c));
}

/* ctx may be NULL (the popped context is then not returned). */
AH_EXPORT hipError_t hipCtxPopCurrent(hipCtx_t *ctx) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(depth > 0, hipErrorInvalidContext);
  c = pop();
  if (ctx != NULL)
    *ctx = (hipCtx_t)c;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxGetCurrent(hipCtx_t *ctx) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(ctx != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(current_context(&c));
  *ctx = (hipCtx_t)c;
  return hipSuccess;
}

/* Replaces the top of the stack; NULL pops it. */
AH_EXPORT hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  struct ah_context *c;

  AH_ENTER();
  if (ctx == NULL) {
    if (depth > 0)
      (void)pop();
    return hipSuccess;
  }
  c = context_cast(ctx);
  AH_REQUIRE(c != NULL, hipErrorInvalidContext);
  if (depth > 0)
    depth--;
  AH_RETURN(push(c));
}

AH_EXPORT hipError_t hipCtxGetDevice(hipDevice_t *device) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(device != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(current_context(&c));
  *device = c->dev->ordinal;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxGetFlags(unsigned int *flags) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(flags != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(current_context(&c));
  pthread_mutex_lock(&c->dev->lock);
  *flags = c->dev->flags;
  pthread_mutex_unlock(&c->dev->lock);
  return hipSuccess;
}

/* AMD's runtime reports 4 for every context. */
AH_EXPORT hipError_t hipCtxGetApiVersion(hipCtx_t ctx, unsigned int *apiVersion) {
  AH_ENTER();
  AH_REQUIRE(apiVersion != NULL, hipErrorInvalidValue);
  AH_REQUIRE(context_cast(ctx) != NULL, hipErrorInvalidContext);
  *apiVersion = 4;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxSynchronize(void) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(current_context(&c));
  AH_RETURN(ah_dev_sync(c->dev));
}

AH_EXPORT hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *pctx, hipDevice_t dev) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(pctx != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(context_of(dev, &c));
  atomic_fetch_add(&c->retains, 1);
  *pctx = (hipCtx_t)c;
  return hipSuccess;
}

/* Releasing more often than retaining is harmless, as in AMD's runtime. */
AH_EXPORT hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) {
  struct ah_context *c;
  int n;

  AH_ENTER();
  AH_REQUIRE_OK(context_of(dev, &c));
  n = atomic_load(&c->retains);
  while (n > 0 && !atomic_compare_exchange_weak(&c->retains, &n, n - 1))
    ;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int *flags,
                                                 int *active) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(context_of(dev, &c));
  AH_REQUIRE(flags != NULL && active != NULL, hipErrorInvalidValue);
  pthread_mutex_lock(&c->dev->lock);
  *flags = c->dev->flags;
  pthread_mutex_unlock(&c->dev->lock);
  *active = atomic_load(&c->retains) > 0;
  return hipSuccess;
}

/* Ends the retains; the device's memory and streams stay (hipDeviceReset frees them). */
AH_EXPORT hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(context_of(dev, &c));
  atomic_store(&c->retains, 0);
  return hipSuccess;
}

/* Flags of an active primary context cannot change (CUDA's rule, AMD's code). */
AH_EXPORT hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(context_of(dev, &c));
  AH_REQUIRE_OK(check_flags(flags));
  AH_REQUIRE(atomic_load(&c->retains) == 0, hipErrorContextAlreadyInUse);
  pthread_mutex_lock(&c->dev->lock);
  c->dev->flags = flags;
  pthread_mutex_unlock(&c->dev->lock);
  return hipSuccess;
}
