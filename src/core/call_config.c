/* SPDX-License-Identifier: MIT */
/* The old configure/setup/launch triple (launch.h): each host thread's stack of
 * configurations pushed by hipConfigureCall or __hipPushCallConfiguration, the argument
 * bytes hipSetupArgument places in the innermost one, and hipLaunchByPtr's launch of it
 * through the one launch path (launch.c). hip_launch.c checks the arguments. */
#include "launch.h"

#include <stdlib.h>
#include <string.h>

#define AH_CALL_DEPTH 8

struct call_config {
  dim3 grid, block;
  size_t shmem;
  hipStream_t stream;
  unsigned char *buf; /* arguments at the offsets hipSetupArgument gave */
  size_t len, cap;
};

/* Configurations pushed by this thread and not launched yet. */
static _Thread_local struct call_config calls[AH_CALL_DEPTH];
static _Thread_local int ncalls;

int ah_call_configured(void) {
  return ncalls > 0;
}

hipError_t ah_call_push(dim3 grid, dim3 block, size_t shmem, hipStream_t stream) {
  struct call_config *c;

  if (ncalls == AH_CALL_DEPTH)
    return hipErrorInvalidConfiguration;
  c = &calls[ncalls++];
  c->grid = grid;
  c->block = block;
  c->shmem = shmem;
  c->stream = stream;
  c->len = 0;
  return hipSuccess;
}

hipError_t ah_call_pop(dim3 *grid, dim3 *block, size_t *shmem, hipStream_t *stream) {
  struct call_config *c;

  if (ncalls == 0)
    return hipErrorMissingConfiguration;
  c = &calls[--ncalls];
  *grid = c->grid;
  *block = c->block;
  *shmem = c->shmem;
  *stream = c->stream;
  return hipSuccess;
}

hipError_t ah_call_setup_argument(const void *arg, size_t size, size_t offset) {
  struct call_config *c;

  if (ncalls == 0)
    return hipErrorMissingConfiguration;
  c = &calls[ncalls - 1];
  if (offset + size > c->cap) {
    size_t ncap = c->cap != 0 ? c->cap : 64;
    unsigned char *nb;

    while (ncap < offset + size)
      ncap *= 2;
    nb = realloc(c->buf, ncap);
    if (nb == NULL)
      return hipErrorOutOfMemory;
    memset(nb + c->cap, 0, ncap - c->cap);
    c->buf = nb;
    c->cap = ncap;
  }
  if (size != 0) /* arg may be NULL for an empty argument; memcpy would not allow it */
    memcpy(c->buf + offset, arg, size);
  if (offset + size > c->len)
    c->len = offset + size;
  return hipSuccess;
}

/* The argument buffer follows the C layout of the parameter list (each argument at its
 * alignment), which the registered signature describes. */
hipError_t ah_call_launch(const void *func) {
  struct call_config c;
  const ahKernelSig *sig;
  void *argv[64];
  size_t off = 0;

  if (ncalls == 0)
    return hipErrorMissingConfiguration;
  c = calls[--ncalls];
  if (func == NULL || (sig = ah_kernel_sig(func)) == NULL)
    return hipErrorInvalidDeviceFunction;
  if (sig->nargs > sizeof(argv) / sizeof(argv[0]))
    return hipErrorInvalidValue;
  for (unsigned i = 0; i < sig->nargs; i++) {
    size_t al = sig->aligns[i] != 0 ? sig->aligns[i] : 1;

    off = (off + al - 1) / al * al;
    if (off + sig->sizes[i] > c.len)
      return hipErrorInvalidValue; /* argument not set up */
    argv[i] = c.buf + off;
    off += sig->sizes[i];
  }
  return ah_launch_kernel(func, sig, c.grid, c.block, c.shmem, c.stream, argv, 0);
}
