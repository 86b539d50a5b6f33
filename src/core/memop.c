/* SPDX-License-Identifier: MIT */
/* Stream memory operations: a wait holds back the rest of its stream until a
 * 32- or 64-bit word in memory meets a condition; a write stores a word in
 * the stream's order. The backend does both when it can (NVIDIA:
 * cuStreamWaitValue / cuStreamWriteValue); otherwise, and on the CPU device,
 * they are host functions on the stream, the wait polling the word
 * (docs/semantics.md, "Stream memory operations"). No argument checks of
 * the entry points here: src/api/hip_memop.c. */
#include "device_ops.h"
#include "stream.h"

#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* One wait or write, run on the stream's thread. */
struct memop {
  void *ptr; /* host-visible address of the word */
  uint64_t value, mask;
  unsigned op; /* hipStreamWaitValue* for a wait */
  int wide;    /* 64-bit word */
  int write;
};

static uint64_t load(const struct memop *m) {
  return m->wide ? __atomic_load_n((const uint64_t *)m->ptr, __ATOMIC_ACQUIRE)
                 : __atomic_load_n((const uint32_t *)m->ptr, __ATOMIC_ACQUIRE);
}

/* HIP's conditions, on the word masked (AMD's runtime): Gte compares as
 * unsigned numbers of the word's width. */
static int met(const struct memop *m) {
  uint64_t width = m->wide ? UINT64_MAX : UINT32_MAX;
  uint64_t v = load(m) & m->mask & width, want = m->value & width;

  switch (m->op) {
  case hipStreamWaitValueGte:
    return v >= want;
  case hipStreamWaitValueEq:
    return v == want;
  case hipStreamWaitValueAnd:
    return (v & want) != 0;
  default: /* hipStreamWaitValueNor */
    return (~(v | want) & width) != 0;
  }
}

/* Polls with a growing pause (up to 100 us), so a long wait costs little. */
static void run_memop(void *p) {
  struct memop *m = p;
  long pause_ns = 0;

  if (m->write) {
    if (m->wide)
      __atomic_store_n((uint64_t *)m->ptr, m->value, __ATOMIC_RELEASE);
    else
      __atomic_store_n((uint32_t *)m->ptr, (uint32_t)m->value, __ATOMIC_RELEASE);
    free(m);
    return;
  }
  while (!met(m)) {
    if (pause_ns < 1000) {
      sched_yield();
      pause_ns += 100;
    } else {
      struct timespec ts = {0, pause_ns};

      nanosleep(&ts, NULL);
      if (pause_ns < 100000)
        pause_ns *= 2;
    }
  }
  free(m);
}

/* The word's host address when it is memory the host can read: any memory
 * of the CPU device, pinned or registered memory of any device. */
static hipError_t host_word(const struct ah_alloc *a, void *ptr, void **out) {
  uintptr_t x = (uintptr_t)ptr, d = (uintptr_t)a->device_ptr;

  if (a->host_ptr != NULL) {
    uintptr_t h = (uintptr_t)a->host_ptr;

    *out = x >= h && x - h < a->bytes ? ptr : (void *)(h + (x - d));
    return hipSuccess;
  }
  if (a->dev->backend->host_addressable) { /* the CPU device: one address space */
    *out = ptr;
    return hipSuccess;
  }
  return hipErrorNotSupported;
}

/* One wait or write on q of dev (ptr aligned, op checked). */
static hipError_t queue_memop(struct ah_device *dev, struct ah_queue *q, void *ptr, uint64_t value,
                              uint64_t mask, unsigned op, int wide, int write) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct ah_memop_req req;
  struct ah_alloc a;
  struct memop *m;
  size_t bytes = wide ? 8 : 4;
  hipError_t err;
  void *host;

  /* Memory HIP knows, the whole word inside it. */
  if (!ah_alloc_find(ptr, &a) || !ah_alloc_find((char *)ptr + bytes - 1, NULL))
    return hipErrorInvalidValue;
  if (a.dev->backend == dev->backend) {
    req = (struct ah_memop_req){.ptr = ptr, .value = value, .mask = mask, .op = op,
                                .wide = wide, .write = write};
    err = ah_dev_stream_memop(dev, q, &req);
    if (err != hipErrorNotSupported)
      return err;
  }
  err = host_word(&a, ptr, &host);
  if (err != hipSuccess)
    return err;
  m = malloc(sizeof(*m));
  if (m == NULL)
    return hipErrorOutOfMemory;
  *m = (struct memop){host, value, mask, op, wide, write};
  cmd.host_fn.fn = run_memop;
  cmd.host_fn.data = m;
  err = ah_submit(dev, q, &cmd, 0);
  if (err != hipSuccess)
    free(m);
  return err;
}

hipError_t ah_stream_memop(hipStream_t stream, void *ptr, uint64_t value, uint64_t mask,
                           unsigned op, int wide, int write) {
  struct ah_device *dev;
  size_t bytes = wide ? 8 : 4;
  hipError_t err;
  struct ah_queue *q;

  if (ptr == NULL || ((uintptr_t)ptr & (bytes - 1)) != 0)
    return hipErrorInvalidValue;
  if (!write && op > hipStreamWaitValueNor)
    return hipErrorInvalidValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  return queue_memop(dev, q, ptr, value, mask, op, wide, write);
}

/* ---- batches ---------------------------------------------------------------- */

/* Up to 255 operations (AMD's limit): waits and writes of 32 or 64 bits as
 * the single calls take them (a wait's flags are its hipStreamWaitValue*
 * condition, on the whole word; a write's flags 0). A barrier or a
 * remote-write flush (flags 0) adds no order the operations around it do
 * not already have on anyhip's devices (each runs after the one before,
 * its writes visible): accepted, nothing queued. */
hipError_t ah_batch_check(const hipStreamBatchMemOpParams *ops, unsigned count, unsigned flags) {
  if (ops == NULL || count == 0 || count > 255 || flags != 0)
    return hipErrorInvalidValue;
  for (unsigned i = 0; i < count; i++) {
    const hipStreamBatchMemOpParams *p = &ops[i];
    size_t bytes = 8;

    switch (p->operation) {
    case hipStreamMemOpWaitValue32:
    case hipStreamMemOpWriteValue32:
      bytes = 4;
      /* fall through */
    case hipStreamMemOpWaitValue64:
    case hipStreamMemOpWriteValue64:
      if (p->waitValue.address == NULL || ((uintptr_t)p->waitValue.address & (bytes - 1)) != 0 ||
          !ah_alloc_find(p->waitValue.address, NULL) ||
          !ah_alloc_find((char *)p->waitValue.address + bytes - 1, NULL))
        return hipErrorInvalidValue;
      if (p->operation == hipStreamMemOpWaitValue32 || p->operation == hipStreamMemOpWaitValue64
              ? p->waitValue.flags > hipStreamWaitValueNor
              : p->writeValue.flags != 0)
        return hipErrorInvalidValue;
      break;
    case hipStreamMemOpBarrier:
    case hipStreamMemOpFlushRemoteWrites:
      if (p->memoryBarrier.flags != 0)
        return hipErrorInvalidValue;
      break;
    default:
      return hipErrorInvalidValue;
    }
  }
  return hipSuccess;
}

hipError_t ah_batch_queue(struct ah_device *dev, struct ah_queue *q,
                          const hipStreamBatchMemOpParams *ops, unsigned count) {
  hipError_t err = hipSuccess;

  for (unsigned i = 0; i < count && err == hipSuccess; i++) {
    const hipStreamBatchMemOpParams *p = &ops[i];

    switch (p->operation) {
    case hipStreamMemOpWaitValue32:
      err = queue_memop(dev, q, p->waitValue.address, p->waitValue.value, UINT32_MAX,
                        p->waitValue.flags, 0, 0);
      break;
    case hipStreamMemOpWaitValue64:
      err = queue_memop(dev, q, p->waitValue.address, p->waitValue.value64, UINT64_MAX,
                        p->waitValue.flags, 1, 0);
      break;
    case hipStreamMemOpWriteValue32:
      err = queue_memop(dev, q, p->writeValue.address, p->writeValue.value, UINT64_MAX, 0, 0, 1);
      break;
    case hipStreamMemOpWriteValue64:
      err = queue_memop(dev, q, p->writeValue.address, p->writeValue.value64, UINT64_MAX, 0, 1,
                        1);
      break;
    default: /* barrier, flush */
      break;
    }
  }
  return err;
}
