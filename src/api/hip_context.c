/* SPDX-License-Identifier: MIT */
/* The context API (HIP keeps it, deprecated, for CUDA driver-API code). As in AMD's runtime a
 * context is a device: each device has one, its primary context, made at first use and never
 * freed. Each host thread has a stack of contexts; pushing (hipCtxCreate, hipCtxPushCurrent,
 * hipCtxSetCurrent) makes the context's device the thread's current device, popping makes the
 * device of the new top current (the current device stays when the stack empties). Primary
 * contexts count their retains: hipDevicePrimaryCtxGetState reports active while retained.
 * This file checks arguments; the contexts and the stacks are src/core/context.c's. */
#include "context.h"
#include "device_ops.h"

#define AH_CTX_FLAGS (hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax)

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
  AH_REQUIRE_OK(ah_context_create(device, flags, &c));
  *ctx = (hipCtx_t)c;
  return hipSuccess;
}

/* A primary context outlives this: only the calling thread's stack forgets it, from its top
 * (AMD's runtime does the same). */
AH_EXPORT hipError_t hipCtxDestroy(hipCtx_t ctx) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(ctx != NULL, hipErrorInvalidValue);
  c = ah_context_cast(ctx);
  AH_REQUIRE(c != NULL, hipErrorInvalidContext);
  ah_context_forget(c);
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  struct ah_context *c;

  AH_ENTER();
  c = ah_context_cast(ctx);
  AH_REQUIRE(c != NULL, hipErrorInvalidContext);
  AH_RETURN(ah_context_push(c));
}

/* ctx may be NULL (the popped context is then not returned). */
AH_EXPORT hipError_t hipCtxPopCurrent(hipCtx_t *ctx) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(ah_context_pop(&c));
  if (ctx != NULL)
    *ctx = (hipCtx_t)c;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxGetCurrent(hipCtx_t *ctx) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(ctx != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  *ctx = (hipCtx_t)c;
  return hipSuccess;
}

/* Replaces the top of the stack; NULL pops it. */
AH_EXPORT hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  struct ah_context *c = NULL;

  AH_ENTER();
  if (ctx != NULL) {
    c = ah_context_cast(ctx);
    AH_REQUIRE(c != NULL, hipErrorInvalidContext);
  }
  AH_RETURN(ah_context_set(c));
}

AH_EXPORT hipError_t hipCtxGetDevice(hipDevice_t *device) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(device != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  *device = ah_context_device(c)->ordinal;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxGetFlags(unsigned int *flags) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(flags != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  *flags = ah_context_flags(c);
  return hipSuccess;
}

/* AMD's runtime reports 4 for every context. */
AH_EXPORT hipError_t hipCtxGetApiVersion(hipCtx_t ctx, unsigned int *apiVersion) {
  AH_ENTER();
  AH_REQUIRE(apiVersion != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_context_cast(ctx) != NULL, hipErrorInvalidContext);
  *apiVersion = 4;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxSynchronize(void) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(ah_context_current(&c));
  AH_RETURN(ah_dev_sync(ah_context_device(c)));
}

AH_EXPORT hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *pctx, hipDevice_t dev) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(pctx != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_primary(dev, &c));
  ah_context_retain(c);
  *pctx = (hipCtx_t)c;
  return hipSuccess;
}

/* Releasing more often than retaining is harmless, as in AMD's runtime. */
AH_EXPORT hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(ah_context_primary(dev, &c));
  ah_context_release(c);
  return hipSuccess;
}

AH_EXPORT hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int *flags,
                                                 int *active) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(ah_context_primary(dev, &c));
  AH_REQUIRE(flags != NULL && active != NULL, hipErrorInvalidValue);
  *flags = ah_context_flags(c);
  *active = ah_context_active(c);
  return hipSuccess;
}

/* Ends the retains; the device's memory and streams stay (hipDeviceReset frees them). */
AH_EXPORT hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(ah_context_primary(dev, &c));
  ah_context_reset(c);
  return hipSuccess;
}

/* Flags of an active primary context cannot change (CUDA's rule, AMD's code). */
AH_EXPORT hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE_OK(ah_context_primary(dev, &c));
  AH_REQUIRE_OK(check_flags(flags));
  AH_RETURN(ah_context_set_flags(c, flags));
}

/* ---- the context's cache, shared memory and peers ------------------------------ */

/* As the device's (hipDeviceGetCacheConfig and friends): checked, no effect
 * (as on AMD); the current context must exist. */
AH_EXPORT hipError_t hipCtxGetCacheConfig(hipFuncCache_t *cacheConfig) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(cacheConfig != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  *cacheConfig = hipFuncCachePreferNone;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE((unsigned)cacheConfig <= (unsigned)hipFuncCachePreferEqual, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig *pConfig) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE(pConfig != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  *pConfig = hipSharedMemBankSizeFourByte;
  return hipSuccess;
}

AH_EXPORT hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config) {
  struct ah_context *c;

  AH_ENTER();
  AH_REQUIRE((unsigned)config <= (unsigned)hipSharedMemBankSizeEightByte, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  return hipSuccess;
}

/* The current context's device gets (or loses) access to peerCtx's device,
 * as hipDeviceEnablePeerAccess / hipDeviceDisablePeerAccess with that
 * device: the same codes, a NULL or unknown context hipErrorInvalidContext. */
AH_EXPORT hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags) {
  struct ah_context *c, *p;
  struct ah_device *dev, *peer;

  AH_ENTER();
  p = ah_context_cast(peerCtx);
  AH_REQUIRE(p != NULL, hipErrorInvalidContext);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_context_current(&c));
  dev = ah_context_device(c);
  peer = ah_context_device(p);
  AH_REQUIRE(peer != dev, hipErrorInvalidDevice);
  AH_REQUIRE(ah_peer_can_access(dev, peer), hipErrorPeerAccessUnsupported);
  AH_RETURN(ah_peer_enable(dev, peer));
}

AH_EXPORT hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx) {
  struct ah_context *c, *p;

  AH_ENTER();
  p = ah_context_cast(peerCtx);
  AH_REQUIRE(p != NULL, hipErrorInvalidContext);
  AH_REQUIRE_OK(ah_context_current(&c));
  AH_RETURN(ah_peer_disable(ah_context_device(c), ah_context_device(p)));
}
