/* SPDX-License-Identifier: MIT */
/* Contexts (context.c), for the context API of src/api/hip_context.c: as in AMD's runtime a
 * context is a device's primary context, made at first use and never freed, and each host
 * thread has a stack of them. Pushing makes the context's device the thread's current
 * device, popping makes the device of the new top current (the current device stays when
 * the stack empties). Primary contexts count their retains. The stack is the calling
 * thread's; nothing here sets the last error. */
#ifndef AH_CONTEXT_H
#define AH_CONTEXT_H

#include "internal.h"

struct ah_context;

/* The primary context of device ordinal dev (hipErrorNoDevice with no device,
 * hipErrorInvalidDevice for an ordinal out of range). */
hipError_t ah_context_primary(int dev, struct ah_context **out);
/* The context behind a handle, or NULL. */
struct ah_context *ah_context_cast(hipCtx_t ctx);
struct ah_device *ah_context_device(const struct ah_context *c);
/* The thread's current context: the top of its stack, else its current device's. */
hipError_t ah_context_current(struct ah_context **out);

/* hipCtxCreate: pushes dev's primary context and gives its device the flags. */
hipError_t ah_context_create(int dev, unsigned flags, struct ah_context **out);
/* Pushes c (hipErrorOutOfMemory past AH_CTX_STACK deep); pops the top
 * (hipErrorInvalidContext when the stack is empty). */
hipError_t ah_context_push(struct ah_context *c);
hipError_t ah_context_pop(struct ah_context **out);
/* hipCtxSetCurrent: c replaces the top of the stack; NULL pops it, if any. */
hipError_t ah_context_set(struct ah_context *c);
/* hipCtxDestroy: the thread's stack forgets c if it is the top; the context outlives this. */
void ah_context_forget(struct ah_context *c);

/* Its device's flags (hipSetDeviceFlags), read and set under the device's lock; a retained
 * primary context's flags cannot change (hipErrorContextAlreadyInUse). */
unsigned ah_context_flags(struct ah_context *c);
hipError_t ah_context_set_flags(struct ah_context *c, unsigned flags);
/* hipDevicePrimaryCtxRetain, Release (more releases than retains are harmless), Reset (ends
 * every retain) and whether it is retained (hipDevicePrimaryCtxGetState's active). */
void ah_context_retain(struct ah_context *c);
void ah_context_release(struct ah_context *c);
void ah_context_reset(struct ah_context *c);
int ah_context_active(struct ah_context *c);

#endif
