/* SPDX-License-Identifier: MIT */
/* Memory management entry points: device, pinned host, registered and
 * managed allocations, and the questions asked about pointers. Every range
 * handed out is recorded in the allocation map (core/alloc.c), which is what
 * catches bad and double frees, answers hipPointerGetAttributes and
 * hipMemGetAddressRange, and lets the copy functions check ranges. */
#define _GNU_SOURCE /* process_vm_readv */
#include "../core/graph.h" /* capture refusals */
#include "internal.h"
#include "mem_internal.h"

#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define HOST_MALLOC_FLAGS                                                                          \
  (hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |                      \
   hipHostMallocUncached | hipHostMallocNumaUser | hipHostMallocCoherent |                         \
   hipHostMallocNonCoherent)
#define HOST_REGISTER_FLAGS                                                                        \
  (hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory |                     \
   hipHostRegisterReadOnly | hipExtHostRegisterUncached)
/* Rows of hipMallocPitch start on this boundary (HIP's texture pitch alignment). */
#define PITCH_ALIGN 256

/* Allocates `bytes` of `kind` on dev and records it. `bytes` is not 0. */
static hipError_t alloc_record(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                               unsigned flags, size_t pitch, void **out) {
  struct ah_alloc a = {0};
  void *p = NULL;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  /* Counted against the device's size, so that an overcommitting host
   * cannot pretend to hold more than the device has. */
  err = ah_device_mem_alloc(dev, bytes, kind, flags, &p);
  if (err != hipSuccess)
    return err;
  a.base = (uintptr_t)p;
  a.bytes = bytes;
  a.dev = dev;
  a.kind = kind;
  a.flags = flags;
  a.device_ptr = p;
  a.host_ptr = kind == AH_MEM_DEVICE ? NULL : p;
  a.pitch = pitch;
  err = ah_alloc_insert(&a);
  if (err != hipSuccess) {
    /* The backend gave us a range the map already holds: a backend bug. */
    ah_device_mem_free(dev, p, bytes, kind);
    return err == hipErrorHostMemoryAlreadyRegistered ? hipErrorOutOfMemory : err;
  }
  *out = p;
  return hipSuccess;
}

/* Frees the allocation starting at ptr if it is one of the kinds allowed.
 * HIP's frees wait for the device first, so that no queued work still uses it. */
static hipError_t free_record(void *ptr, enum ah_mem_kind k1, enum ah_mem_kind k2) {
  struct ah_alloc a;

  if (!ah_alloc_find(ptr, &a) || a.base != (uintptr_t)ptr || (a.kind != k1 && a.kind != k2))
    return hipErrorInvalidValue;
  if (a.origin != AH_ORIGIN_ALLOC) /* hipMemUnmap's or hipIpcCloseMemHandle's to end */
    return hipErrorInvalidValue;
  if (ah_in_host_fn != 0)
    return hipErrorNotPermitted; /* the wait below could wait for the caller itself */
  /* A fault in earlier work is reported by the next synchronizing call, not here. */
  if (a.dev->backend->device_sync != NULL)
    (void)a.dev->backend->device_sync(a.dev);
  if (a.pool_block != NULL) /* hipMallocAsync memory goes back to its pool */
    return ah_mempool_free(ptr, NULL, NULL);
  if (!ah_alloc_remove(ptr, a.kind, &a))
    return hipErrorInvalidValue; /* another thread freed it meanwhile */
  return ah_device_mem_free(a.dev, ptr, a.bytes, a.kind);
}

/* ---- device memory ------------------------------------------------------ */

AH_EXPORT hipError_t hipMalloc(void **ptr, size_t size) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  *ptr = NULL;
  AH_REQUIRE_OK(ah_capture_check_unsafe()); /* an unsafe call during capture (CUDA, AMD) */
  if (size == 0)
    return hipSuccess;
  AH_RETURN(alloc_record(ah_current_device(), size, AH_MEM_DEVICE, 0, 0, ptr));
}

/* AMD's checks: flags is exactly one of hipDeviceMallocDefault,
 * Finegrained, Uncached, Contiguous or hipMallocSignalMemory (no
 * combinations: Uncached is 3), and signal memory is 8 bytes. Every kind
 * is the same memory on the CPU device (coherent host memory); NVIDIA:
 * cuMemAlloc. */
AH_EXPORT hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  *ptr = NULL;
  AH_REQUIRE(flags == hipDeviceMallocDefault || flags == hipDeviceMallocFinegrained ||
                 flags == hipDeviceMallocUncached || flags == hipDeviceMallocContiguous ||
                 flags == hipMallocSignalMemory,
             hipErrorInvalidValue);
  AH_REQUIRE(flags != hipMallocSignalMemory || sizeBytes == 8, hipErrorInvalidValue);
  if (sizeBytes == 0)
    return hipSuccess;
  AH_RETURN(alloc_record(ah_current_device(), sizeBytes, AH_MEM_DEVICE, flags, 0, ptr));
}

AH_EXPORT hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == hipMemAttachGlobal || flags == hipMemAttachHost, hipErrorInvalidValue);
  AH_REQUIRE(size != 0, hipErrorInvalidValue);
  AH_RETURN(alloc_record(ah_current_device(), size, AH_MEM_MANAGED, flags, 0, dev_ptr));
}

/* Rounds width up to whole PITCH_ALIGN units; 0 when that overflows. */
static size_t pitch_of(struct ah_device *dev, size_t width) {
  size_t align = PITCH_ALIGN;

  if ((size_t)dev->props.texturePitchAlignment > align)
    align = dev->props.texturePitchAlignment;
  if (width > SIZE_MAX - (align - 1))
    return 0;
  return (width + align - 1) / align * align;
}

static hipError_t malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  struct ah_device *dev = ah_current_device();
  size_t p;

  *ptr = NULL;
  *pitch = 0;
  if (dev == NULL)
    return hipErrorNoDevice;
  if (width == 0 || height == 0)
    return hipSuccess;
  p = pitch_of(dev, width);
  if (p == 0 || height > SIZE_MAX / p)
    return hipErrorOutOfMemory;
  *pitch = p;
  return alloc_record(dev, p * height, AH_MEM_DEVICE, 0, p, ptr);
}

hipError_t ah_mem_alloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  return malloc_pitch(ptr, pitch, width, height);
}

AH_EXPORT hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL && pitch != NULL, hipErrorInvalidValue);
  AH_RETURN(malloc_pitch(ptr, pitch, width, height));
}

AH_EXPORT hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch, size_t widthInBytes,
                                      size_t height, unsigned int elementSizeBytes) {
  AH_ENTER();
  AH_REQUIRE(dptr != NULL && pitch != NULL, hipErrorInvalidValue);
  AH_REQUIRE(elementSizeBytes == 4 || elementSizeBytes == 8 || elementSizeBytes == 16,
             hipErrorInvalidValue);
  AH_RETURN(malloc_pitch(dptr, pitch, widthInBytes, height));
}

/* Device and managed memory, and hipHostMalloc memory too: AMD's runtime
 * frees any allocation it made (CUDA refuses pinned host memory here;
 * docs/semantics.md). Registered memory is hipHostUnregister's. */
AH_EXPORT hipError_t hipFree(void *ptr) {
  struct ah_alloc a;

  AH_ENTER();
  if (ptr == NULL)
    return hipSuccess;
  if (ah_alloc_find(ptr, &a) && a.kind == AH_MEM_HOST)
    AH_RETURN(free_record(ptr, AH_MEM_HOST, AH_MEM_HOST));
  AH_RETURN(free_record(ptr, AH_MEM_DEVICE, AH_MEM_MANAGED));
}

AH_EXPORT hipError_t hipMemGetInfo(size_t *free, size_t *total) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(free != NULL && total != NULL, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  if (dev->backend->mem_info == NULL) {
    *free = *total = dev->props.totalGlobalMem;
    return hipSuccess;
  }
  AH_RETURN(dev->backend->mem_info(dev, free, total));
}

AH_EXPORT hipError_t hipMemPtrGetInfo(void *ptr, size_t *size) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(ptr != NULL && size != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(ptr, &a), hipErrorInvalidValue);
  *size = a.bytes;
  return hipSuccess;
}

/* ---- pinned host memory ------------------------------------------------- */

/* The host's physical memory in bytes; SIZE_MAX when unknown. */
static size_t host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

  if (pages <= 0 || page <= 0 || (size_t)pages > SIZE_MAX / (size_t)page)
    return SIZE_MAX;
  return (size_t)pages * (size_t)page;
}

static hipError_t host_malloc(void **ptr, size_t size, unsigned flags) {
  *ptr = NULL;
  if ((flags & ~HOST_MALLOC_FLAGS) != 0)
    return hipErrorInvalidValue;
  /* Coherent and NonCoherent together is the one illegal combination. */
  if ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent))
    return hipErrorInvalidValue;
  if (size == 0)
    return hipSuccess;
  /* Pinned memory cannot exceed the host's memory; asking the allocator for
   * more (SIZE_MAX) would abort under AddressSanitizer. */
  if (size > host_memory())
    return hipErrorOutOfMemory;
  return alloc_record(ah_current_device(), size, AH_MEM_HOST, flags, 0, ptr);
}

AH_EXPORT hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  AH_RETURN(host_malloc(ptr, size, flags));
}

AH_EXPORT hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  AH_RETURN(host_malloc(ptr, size, flags));
}

AH_EXPORT hipError_t hipMallocHost(void **ptr, size_t size) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  AH_RETURN(host_malloc(ptr, size, 0));
}

AH_EXPORT hipError_t hipMemAllocHost(void **ptr, size_t size) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  AH_RETURN(host_malloc(ptr, size, 0));
}

AH_EXPORT hipError_t hipHostFree(void *ptr) {
  AH_ENTER();
  if (ptr == NULL)
    return hipSuccess;
  AH_RETURN(free_record(ptr, AH_MEM_HOST, AH_MEM_HOST));
}

AH_EXPORT hipError_t hipFreeHost(void *ptr) {
  AH_ENTER();
  if (ptr == NULL)
    return hipSuccess;
  AH_RETURN(free_record(ptr, AH_MEM_HOST, AH_MEM_HOST));
}

/* ---- registered host memory --------------------------------------------- */

static hipError_t host_register(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags) {
  struct ah_alloc a = {0};
  void *dptr = NULL;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if ((uintptr_t)ptr > UINTPTR_MAX - bytes)
    return hipErrorInvalidValue;
  /* Checked before the backend pins anything: a range the map knows. */
  if (ah_alloc_find(ptr, NULL) || ah_alloc_find((char *)ptr + bytes - 1, NULL))
    return hipErrorHostMemoryAlreadyRegistered;
  if (dev->backend->host_register == NULL)
    return hipErrorNotSupported;
  err = dev->backend->host_register(dev, ptr, bytes, flags, &dptr);
  if (err != hipSuccess)
    return err;
  a.base = (uintptr_t)ptr;
  a.bytes = bytes;
  a.dev = dev;
  a.kind = AH_MEM_REGISTERED;
  a.flags = flags;
  a.device_ptr = dptr;
  a.host_ptr = ptr;
  err = ah_alloc_insert(&a); /* refuses a range overlapping a known one */
  if (err != hipSuccess && dev->backend->host_unregister != NULL)
    dev->backend->host_unregister(dev, ptr);
  return err;
}

AH_EXPORT hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(hostPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~HOST_REGISTER_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE(sizeBytes != 0, hipErrorInvalidValue);
  AH_RETURN(host_register(ah_current_device(), hostPtr, sizeBytes, flags));
}

AH_EXPORT hipError_t hipHostUnregister(void *hostPtr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(hostPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_remove(hostPtr, AH_MEM_REGISTERED, &a), hipErrorHostMemoryNotRegistered);
  if (a.dev->backend->host_unregister == NULL)
    return hipSuccess;
  AH_RETURN(a.dev->backend->host_unregister(a.dev, hostPtr));
}

/* Offset of p inside allocation a, from whichever side (host or device) holds it. */
static size_t offset_in(const struct ah_alloc *a, const void *p) {
  uintptr_t x = (uintptr_t)p, h = (uintptr_t)a->host_ptr;

  if (a->host_ptr != NULL && x >= h && x - h < a->bytes)
    return x - h;
  return x - (uintptr_t)a->device_ptr;
}

AH_EXPORT hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL && hstPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(hstPtr, &a), hipErrorInvalidValue);
  AH_REQUIRE(a.kind == AH_MEM_HOST || a.kind == AH_MEM_REGISTERED, hipErrorInvalidValue);
  *devPtr = (char *)a.device_ptr + offset_in(&a, hstPtr);
  return hipSuccess;
}

AH_EXPORT hipError_t hipHostGetFlags(unsigned int *flagsPtr, void *hostPtr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(flagsPtr != NULL && hostPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(hostPtr, &a), hipErrorInvalidValue);
  AH_REQUIRE(a.kind == AH_MEM_HOST || a.kind == AH_MEM_REGISTERED, hipErrorInvalidValue);
  *flagsPtr = a.flags;
  return hipSuccess;
}

/* ---- questions about pointers ------------------------------------------- */

/* Unknown pointers give hipErrorInvalidValue with the attributes zeroed
 * (type hipMemoryTypeUnregistered): HIP's documented behaviour, which is
 * CUDA's before 11.0. */
/* Whether the process can read the byte at p (a mapped, readable page):
 * process_vm_readv on itself reports EFAULT instead of faulting. */
static int host_readable(const void *p) {
  char c;
  struct iovec local = {&c, 1}, remote = {(void *)p, 1};

  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

/* Memory the runtime does not know: HIP 6's (and CUDA 11's) answer for host
 * memory the process can read (malloc, the stack, mmap) is success with
 * hipMemoryTypeUnregistered and device -1; an address that is not mapped
 * (unmapped, or reserved without access) stays hipErrorInvalidValue
 * (docs/semantics.md, "hipPointerGetAttributes of unknown memory"). */
AH_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr) {
  struct ah_alloc a;
  size_t off;

  AH_ENTER();
  AH_REQUIRE(attributes != NULL && ptr != NULL, hipErrorInvalidValue);
  memset(attributes, 0, sizeof(*attributes));
  if (!ah_alloc_find(ptr, &a)) {
    AH_REQUIRE(host_readable(ptr), hipErrorInvalidValue);
    attributes->type = hipMemoryTypeUnregistered;
    attributes->device = -1;
    return hipSuccess;
  }
  off = offset_in(&a, ptr);
  switch (a.kind) {
  case AH_MEM_DEVICE:
    attributes->type = hipMemoryTypeDevice;
    break;
  case AH_MEM_MANAGED:
    attributes->type = hipMemoryTypeManaged;
    attributes->isManaged = 1;
    break;
  default:
    attributes->type = hipMemoryTypeHost;
    break;
  }
  attributes->device = a.dev->ordinal;
  attributes->devicePointer = (char *)a.device_ptr + off;
  attributes->hostPointer = a.host_ptr != NULL ? (char *)a.host_ptr + off : NULL;
  attributes->allocationFlags = a.flags;
  return hipSuccess;
}

/* pbase and psize may be NULL, as in CUDA, when the caller wants one of them. */
AH_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize,
                                           hipDeviceptr_t dptr) {
  struct ah_alloc a;
  size_t off;

  AH_ENTER();
  AH_REQUIRE(dptr != NULL && ah_alloc_find(dptr, &a), hipErrorNotFound);
  off = offset_in(&a, dptr);
  if (pbase != NULL)
    *pbase = (char *)dptr - off;
  if (psize != NULL)
    *psize = a.bytes;
  return hipSuccess;
}
