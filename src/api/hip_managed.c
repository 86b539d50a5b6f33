/* SPDX-License-Identifier: MIT */
/* Managed-memory hints (hipMemAdvise, hipMemPrefetchAsync,
 * hipStreamAttachMemAsync) and the range queries that report them. The core
 * keeps every hint (core/managed.c), so the queries answer the same on every
 * device; a backend with a managed_hint op (NVIDIA) also passes each hint to
 * its driver. The ranges accepted are those of CUDA: managed memory, or
 * system memory when the device reaches pageable memory; hipMalloc and pinned
 * host memory are refused. */
#include "device_ops.h"
#include "internal.h"
#include "managed.h"
#include "stream.h"

#include <string.h>

/* Checks [ptr, ptr + count) is memory hints apply to. *owner is the device
 * of the managed allocation, NULL for system memory. */
static hipError_t hint_range(const void *ptr, size_t count, struct ah_device **owner) {
  struct ah_device *dev;
  struct ah_alloc a;

  if (ptr == NULL || count == 0 || count - 1 > UINTPTR_MAX - (uintptr_t)ptr)
    return hipErrorInvalidValue;
  if (ah_alloc_find(ptr, &a)) {
    size_t off = (uintptr_t)ptr - a.base;

    if (a.kind != AH_MEM_MANAGED || off >= a.bytes || count > a.bytes - off)
      return hipErrorInvalidValue;
    *owner = a.dev;
    return hipSuccess;
  }
  dev = ah_current_device();
  if (dev == NULL)
    return hipErrorNoDevice;
  if (!dev->props.pageableMemoryAccess)
    return hipErrorInvalidValue;
  *owner = NULL;
  return hipSuccess;
}

/* A hint's location: hipCpuDeviceId (*out NULL) or a device. */
static hipError_t hint_location(int device, struct ah_device **out) {
  *out = NULL;
  if (device == hipCpuDeviceId)
    return hipSuccess;
  if (device < 0 || device >= ah_device_count())
    return hipErrorInvalidDevice;
  if (device >= AH_HINT_MAX_DEVICES)
    return hipErrorNotSupported;
  *out = ah_device_get(device);
  return hipSuccess;
}

/* Passes a hint to the device that `on` names when it has something to do
 * with the memory: its own managed memory, or system memory. */
static hipError_t tell_device(struct ah_device *on, struct ah_device *owner,
                              const struct ah_managed_hint *h) {
  if (on == NULL)
    return hipSuccess;
  if (owner != NULL && owner->backend != on->backend)
    return hipSuccess;
  return ah_dev_managed_hint(on, h);
}

AH_EXPORT hipError_t hipMemAdvise(const void *dev_ptr, size_t count, hipMemoryAdvise advice,
                                  int device) {
  struct ah_managed_hint h = {.kind = AH_HINT_ADVISE, .ptr = dev_ptr, .bytes = count};
  struct ah_device *owner;
  int read_mostly = advice == hipMemAdviseSetReadMostly || advice == hipMemAdviseUnsetReadMostly;

  AH_ENTER();
  switch (advice) {
  case hipMemAdviseSetReadMostly:
  case hipMemAdviseUnsetReadMostly:
  case hipMemAdviseSetPreferredLocation:
  case hipMemAdviseUnsetPreferredLocation:
  case hipMemAdviseSetAccessedBy:
  case hipMemAdviseUnsetAccessedBy:
  case hipMemAdviseSetCoarseGrain:
  case hipMemAdviseUnsetCoarseGrain:
    break;
  default:
    return ah_fail(hipErrorInvalidValue, __func__, "unknown advice");
  }
  /* Read-mostly is about the memory, not a device: HIP and CUDA ignore it. */
  if (read_mostly)
    device = hipCpuDeviceId;
  AH_REQUIRE_OK(hint_location(device, &h.target));
  AH_REQUIRE_OK(hint_range(dev_ptr, count, &owner));
  h.advice = advice;
  AH_REQUIRE_OK(tell_device(owner != NULL ? owner : ah_current_device(), owner, &h));
  AH_RETURN(ah_managed_advise((uintptr_t)dev_ptr, count, advice, device));
}

/* Nothing moves on the CPU device (its memory is the host's), so the
 * prefetch only records where the range was sent; a device with a
 * managed_hint op queues a real one on the stream. */
AH_EXPORT hipError_t hipMemPrefetchAsync(const void *dev_ptr, size_t count, int device,
                                         hipStream_t stream) {
  struct ah_managed_hint h = {.kind = AH_HINT_PREFETCH, .ptr = dev_ptr, .bytes = count};
  struct ah_device *owner, *on;
  struct ah_stream *s;

  AH_ENTER();
  /* A NULL or empty range is hipErrorInvalidValue before the device is
   * looked at (AMD's order; ROCm's unit suite passes both wrong). */
  AH_REQUIRE(dev_ptr != NULL && count != 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(hint_location(device, &h.target));
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  AH_REQUIRE_OK(hint_range(dev_ptr, count, &owner));
  /* The null stream is the target device's (HIP's choice), or the current
   * device's for a prefetch to the host. */
  if (s != NULL) {
    on = s->dev;
    h.q = s->queue;
  } else {
    on = h.target != NULL ? h.target : ah_current_device();
    AH_REQUIRE(on != NULL, hipErrorNoDevice);
    h.q = on->null_queue;
  }
  AH_REQUIRE_OK(tell_device(on, owner, &h));
  AH_RETURN(ah_managed_prefetched((uintptr_t)dev_ptr, count, device));
}

/* The bytes an attribute's answer takes (0: not an attribute). */
static size_t attribute_size(hipMemRangeAttribute attr, size_t data_size) {
  switch (attr) {
  case hipMemRangeAttributeReadMostly:
  case hipMemRangeAttributePreferredLocation:
  case hipMemRangeAttributeLastPrefetchLocation:
  case hipMemRangeAttributeCoherencyMode:
    return sizeof(int);
  case hipMemRangeAttributeAccessedBy: /* one int per location */
    return data_size > 0 && data_size % sizeof(int) == 0 ? data_size : sizeof(int);
  default:
    return 0;
  }
}

/* What the queries take: the memory hints apply to, and device memory
 * (hipMalloc, hipExtMallocWithFlags) for its coherency mode alone (ROCm's
 * unit suite asks for hipMalloc's, and expects the other attributes of
 * hipMalloc memory refused): coarse-grained, as AMD's hipMalloc memory (the
 * CPU device keeps that promise and more), fine-grained when allocated so.
 * *device_mode is that mode, or -1 for memory that takes hints. */
static hipError_t query_range(const void *ptr, size_t count, const hipMemRangeAttribute *attrs,
                              size_t nattrs, int *device_mode) {
  struct ah_device *owner;
  struct ah_alloc a;

  *device_mode = -1;
  if (ptr != NULL && count != 0 && count - 1 <= UINTPTR_MAX - (uintptr_t)ptr &&
      ah_alloc_find(ptr, &a) && a.kind == AH_MEM_DEVICE) {
    size_t off = (uintptr_t)ptr - a.base;

    if (off >= a.bytes || count > a.bytes - off)
      return hipErrorInvalidValue;
    /* Device memory answers its coherency mode only: the managed-memory attributes
     * (ReadMostly, locations) of memory that is not managed are an invalid value, as in
     * AMD's runtime and CUDA (hip-tests' hipMemRangeGetAttribute(s)_Negative_Parameters). */
    for (size_t i = 0; i < nattrs; i++)
      if (attrs[i] != hipMemRangeAttributeCoherencyMode)
        return hipErrorInvalidValue;
    *device_mode = a.flags == hipDeviceMallocDefault ? hipMemRangeCoherencyModeCoarseGrain
                                                     : hipMemRangeCoherencyModeFineGrain;
    return hipSuccess;
  }
  return hint_range(ptr, count, &owner);
}

static void query(const void *ptr, size_t count, int device_mode, hipMemRangeAttribute attr,
                  void *data, size_t data_size) {
  ah_managed_query((uintptr_t)ptr, count, attr, data, data_size);
  if (device_mode >= 0 && attr == hipMemRangeAttributeCoherencyMode)
    *(int *)data = device_mode;
}

AH_EXPORT hipError_t hipMemRangeGetAttribute(void *data, size_t data_size,
                                             hipMemRangeAttribute attribute, const void *dev_ptr,
                                             size_t count) {
  int mode;

  AH_ENTER();
  AH_REQUIRE(data != NULL, hipErrorInvalidValue);
  AH_REQUIRE(attribute_size(attribute, data_size) != 0, hipErrorInvalidValue);
  AH_REQUIRE(data_size == attribute_size(attribute, data_size), hipErrorInvalidValue);
  AH_REQUIRE_OK(query_range(dev_ptr, count, &attribute, 1, &mode));
  query(dev_ptr, count, mode, attribute, data, data_size);
  return hipSuccess;
}

AH_EXPORT hipError_t hipMemRangeGetAttributes(void **data, size_t *data_sizes,
                                              hipMemRangeAttribute *attributes,
                                              size_t num_attributes, const void *dev_ptr,
                                              size_t count) {
  int mode;

  AH_ENTER();
  AH_REQUIRE(data != NULL && data_sizes != NULL && attributes != NULL, hipErrorInvalidValue);
  AH_REQUIRE(num_attributes > 0, hipErrorInvalidValue);
  /* Every answer is checked before any is written. */
  for (size_t i = 0; i < num_attributes; i++) {
    AH_REQUIRE(data[i] != NULL, hipErrorInvalidValue);
    AH_REQUIRE(attribute_size(attributes[i], data_sizes[i]) != 0, hipErrorInvalidValue);
    AH_REQUIRE(data_sizes[i] == attribute_size(attributes[i], data_sizes[i]),
               hipErrorInvalidValue);
  }
  AH_REQUIRE_OK(query_range(dev_ptr, count, attributes, num_attributes, &mode));
  for (size_t i = 0; i < num_attributes; i++)
    query(dev_ptr, count, mode, attributes[i], data[i], data_sizes[i]);
  return hipSuccess;
}

/* Checked and passed on; the CPU device has nothing to attach (every stream
 * sees all memory, as with hipMemAttachGlobal). */
AH_EXPORT hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *dev_ptr, size_t length,
                                             unsigned int flags) {
  struct ah_managed_hint h = {.kind = AH_HINT_ATTACH, .ptr = dev_ptr, .bytes = length};
  struct ah_device *dev;
  struct ah_stream *s;
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == hipMemAttachGlobal || flags == hipMemAttachHost ||
                 flags == hipMemAttachSingle,
             hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  /* The null stream is every stream's: nothing can be attached to it alone. */
  AH_REQUIRE(s != NULL || flags != hipMemAttachSingle, hipErrorInvalidValue);
  dev = s != NULL ? s->dev : ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  if (ah_alloc_find(dev_ptr, &a)) {
    /* Managed memory (hipMallocManaged, a __managed__ variable) is attached
     * whole: length 0 or the allocation's size (docs/semantics.md). */
    AH_REQUIRE(a.kind == AH_MEM_MANAGED, hipErrorInvalidValue);
    AH_REQUIRE(length == 0 || length == a.bytes, hipErrorInvalidValue);
    if (a.dev->backend != dev->backend)
      return hipSuccess;
    h.ptr = (const void *)a.base;
  } else {
    /* System memory, where the device reaches pageable memory (CUDA's rule,
     * and AMD's on such a device: ROCm's unit suite attaches malloc memory
     * when hipDeviceAttributePageableMemoryAccess is set). */
    AH_REQUIRE(dev->props.pageableMemoryAccess, hipErrorInvalidValue);
    AH_REQUIRE(length != 0, hipErrorInvalidValue);
    AH_REQUIRE(length - 1 <= UINTPTR_MAX - (uintptr_t)dev_ptr, hipErrorInvalidValue);
  }
  h.q = s != NULL ? s->queue : dev->null_queue;
  h.flags = flags;
  AH_RETURN(tell_device(dev, NULL, &h));
}
