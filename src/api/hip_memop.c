/* SPDX-License-Identifier: MIT */
/* Stream memory operations (hipStreamWaitValue32/64, hipStreamWriteValue32/64)
 * and the pointer functions of the driver API (hipPointerSetAttribute,
 * hipDrvPointerGetAttributes). A wait holds back the rest of its stream
 * until a 32- or 64-bit word in memory meets a condition; a write stores a
 * word in the stream's order. The backend does both when it can (NVIDIA:
 * cuStreamWaitValue / cuStreamWriteValue); otherwise, and on the CPU
 * device, they are host functions on the stream, the wait polling the word
 * (docs/semantics.md, "Stream memory operations"). */
#include "../core/stream.h"
#include "device_ops.h"
#include "memory.h"

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

static hipError_t memop(hipStream_t stream, void *ptr, uint64_t value, uint64_t mask,
                        unsigned op, int wide, int write) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct ah_memop_req req;
  struct ah_device *dev;
  struct ah_alloc a;
  struct memop *m;
  size_t bytes = wide ? 8 : 4;
  hipError_t err;
  struct ah_queue *q;
  void *host;

  if (ptr == NULL || ((uintptr_t)ptr & (bytes - 1)) != 0)
    return hipErrorInvalidValue;
  if (!write && op > hipStreamWaitValueNor)
    return hipErrorInvalidValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
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

AH_EXPORT hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value,
                                          unsigned int flags, uint32_t mask) {
  AH_ENTER();
  AH_RETURN(memop(stream, ptr, value, mask, flags, 0, 0));
}

AH_EXPORT hipError_t hipStreamWaitValue64(hipStream_t stream, void *ptr, uint64_t value,
                                          unsigned int flags, uint64_t mask) {
  AH_ENTER();
  AH_RETURN(memop(stream, ptr, value, mask, flags, 1, 0));
}

/* flags: 0 (CUDA's NO_MEMORY_BARRIER is not HIP's). */
AH_EXPORT hipError_t hipStreamWriteValue32(hipStream_t stream, void *ptr, uint32_t value,
                                           unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_RETURN(memop(stream, ptr, value, UINT64_MAX, 0, 0, 1));
}

AH_EXPORT hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value,
                                           unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_RETURN(memop(stream, ptr, value, UINT64_MAX, 0, 1, 1));
}

/* ---- pointers -------------------------------------------------------------- */

/* Only HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS can be set (CUDA and HIP), and
 * only on device memory. anyhip's synchronous copies and sets always
 * synchronize, so the setting is accepted and changes nothing. */
AH_EXPORT hipError_t hipPointerSetAttribute(const void *value, hipPointer_attribute attribute,
                                            hipDeviceptr_t ptr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(value != NULL && ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(attribute == HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, hipErrorInvalidValue);
  /* Not device memory (host, freed, unknown): AMD's hipErrorInvalidDevicePointer. */
  AH_REQUIRE(ah_alloc_find(ptr, &a), hipErrorInvalidDevicePointer);
  AH_REQUIRE(a.kind == AH_MEM_DEVICE || a.kind == AH_MEM_MANAGED, hipErrorInvalidDevicePointer);
  return hipSuccess;
}

/* Each attribute as hipPointerGetAttribute gives it, into data[i]; the
 * first failure stops (AMD). */
AH_EXPORT hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes,
                                                hipPointer_attribute *attributes, void **data,
                                                hipDeviceptr_t ptr) {
  AH_ENTER();
  AH_REQUIRE(numAttributes != 0 && attributes != NULL && data != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  for (unsigned i = 0; i < numAttributes; i++)
    AH_REQUIRE_OK(ah_mem_pointer_attribute(data[i], attributes[i], ptr));
  return hipSuccess;
}
