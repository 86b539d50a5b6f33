/* SPDX-License-Identifier: MIT */
/* Allocation records: every range the runtime hands out (device, pinned
 * host, registered and managed memory) is allocated through the device and
 * recorded in the allocation map (core/alloc.c), which is what catches bad
 * and double frees, answers hipPointerGetAttributes and
 * hipMemGetAddressRange, and lets the copy functions check ranges. No
 * argument checks here: src/api/hip_memory.c. */
#define _GNU_SOURCE /* process_vm_readv */
#include "memory.h"
#include "device_ops.h"

#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* Rows of hipMallocPitch start on this boundary (HIP's texture pitch alignment). */
#define PITCH_ALIGN 256

hipError_t ah_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind, unsigned flags,
                        size_t pitch, void **out) {
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

hipError_t ah_mem_free(void *ptr, enum ah_mem_kind k1, enum ah_mem_kind k2) {
  struct ah_alloc a;

  if (!ah_alloc_find(ptr, &a) || a.base != (uintptr_t)ptr || (a.kind != k1 && a.kind != k2))
    return hipErrorInvalidValue;
  /* hipMemUnmap's or hipIpcCloseMemHandle's to end */
  if (a.origin != AH_ORIGIN_ALLOC && a.origin != AH_ORIGIN_EXTERNAL)
    return hipErrorInvalidValue;
  if (ah_in_host_fn != 0)
    return hipErrorNotPermitted; /* the wait below could wait for the caller itself */
  /* A fault in earlier work is reported by the next synchronizing call, not here. */
  (void)ah_dev_sync(a.dev);
  if (a.origin == AH_ORIGIN_EXTERNAL)
    return ah_extmem_buffer_free(ptr);
  if (a.pool_block != NULL) /* hipMallocAsync memory goes back to its pool */
    return ah_mempool_free(ptr, NULL, NULL);
  if (!ah_alloc_remove(ptr, a.kind, &a))
    return hipErrorInvalidValue; /* another thread freed it meanwhile */
  return ah_device_mem_free(a.dev, ptr, a.bytes, a.kind);
}

/* ---- device memory ------------------------------------------------------ */

/* Rounds width up to whole PITCH_ALIGN units; 0 when that overflows. */
static size_t pitch_of(struct ah_device *dev, size_t width) {
  size_t align = PITCH_ALIGN;

  if ((size_t)dev->props.texturePitchAlignment > align)
    align = dev->props.texturePitchAlignment;
  if (width > SIZE_MAX - (align - 1))
    return 0;
  return (width + align - 1) / align * align;
}

hipError_t ah_mem_alloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height) {
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
  return ah_mem_alloc(dev, p * height, AH_MEM_DEVICE, 0, p, ptr);
}

/* ---- pinned host memory ------------------------------------------------- */

/* The host's physical memory in bytes; SIZE_MAX when unknown. */
static size_t host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

  if (pages <= 0 || page <= 0 || (size_t)pages > SIZE_MAX / (size_t)page)
    return SIZE_MAX;
  return (size_t)pages * (size_t)page;
}

hipError_t ah_mem_host_alloc(void **ptr, size_t size, unsigned flags) {
  if (size == 0)
    return hipSuccess;
  /* Pinned memory cannot exceed the host's memory; asking the allocator for
   * more (SIZE_MAX) would abort under AddressSanitizer. */
  if (size > host_memory())
    return hipErrorOutOfMemory;
  return ah_mem_alloc(ah_current_device(), size, AH_MEM_HOST, flags, 0, ptr);
}

/* ---- registered host memory --------------------------------------------- */

hipError_t ah_mem_host_register(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags) {
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
  err = ah_dev_host_register(dev, ptr, bytes, flags, &dptr);
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
  if (err != hipSuccess)
    ah_dev_host_unregister(dev, ptr);
  return err;
}

hipError_t ah_mem_host_unregister(void *ptr) {
  struct ah_alloc a;

  if (!ah_alloc_remove(ptr, AH_MEM_REGISTERED, &a))
    return hipErrorHostMemoryNotRegistered;
  return ah_dev_host_unregister(a.dev, ptr);
}

/* ---- questions about pointers ------------------------------------------- */

size_t ah_alloc_offset(const struct ah_alloc *a, const void *p) {
  uintptr_t x = (uintptr_t)p, h = (uintptr_t)a->host_ptr;

  if (a->host_ptr != NULL && x >= h && x - h < a->bytes)
    return x - h;
  return x - (uintptr_t)a->device_ptr;
}

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
hipError_t ah_mem_attributes(const void *ptr, hipPointerAttribute_t *attributes) {
  struct ah_alloc a;
  size_t off;

  memset(attributes, 0, sizeof(*attributes));
  if (!ah_alloc_find(ptr, &a)) {
    if (!host_readable(ptr))
      return hipErrorInvalidValue;
    attributes->type = hipMemoryTypeUnregistered;
    attributes->device = -1;
    return hipSuccess;
  }
  off = ah_alloc_offset(&a, ptr);
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

hipError_t ah_mem_pointer_attribute(void *data, hipPointer_attribute attribute,
                                    hipDeviceptr_t ptr) {
  struct ah_alloc a;
  size_t off;

  if (data == NULL)
    return hipErrorInvalidValue;
  if (attribute < HIP_POINTER_ATTRIBUTE_CONTEXT || attribute > HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE)
    return hipErrorInvalidValue;
  /* An array handle given as the pointer has the array memory type (AMD's runtime;
   * hip-tests' hipPointerGetAttribute_MemoryTypes); it has no other attribute here. */
  if (attribute == HIP_POINTER_ATTRIBUTE_MEMORY_TYPE && ptr != NULL &&
      ah_object_cast(ptr, AH_KIND_ARRAY) != NULL) {
    *(unsigned *)data = hipMemoryTypeArray;
    return hipSuccess;
  }
  if (ptr == NULL || !ah_alloc_find(ptr, &a))
    return hipErrorInvalidValue;
  off = ah_alloc_offset(&a, ptr);
  switch (attribute) {
  case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE: /* as hipPointerGetAttributes' type */
    *(unsigned *)data = a.kind == AH_MEM_DEVICE    ? hipMemoryTypeDevice
                        : a.kind == AH_MEM_MANAGED ? hipMemoryTypeManaged
                                                   : hipMemoryTypeHost;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
    *(void **)data = (char *)a.device_ptr + off;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_HOST_POINTER: /* device memory has none (AMD's and CUDA's code) */
    if (a.host_ptr == NULL)
      return hipErrorInvalidValue;
    *(void **)data = (char *)a.host_ptr + off;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_BUFFER_ID:
    /* A 32-bit number, as AMD's runtime writes it (hip-tests reads an
     * unsigned int; CUDA's is 64-bit): unique to the allocation. */
    *(uint32_t *)data = a.id;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: /* a bool, as CUDA and AMD write it */
    *(_Bool *)data = a.sync_memops != 0;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_MAPPED:
    /* A bool, one byte, as AMD's runtime writes it (hip-tests reads a bool beside another;
     * an unsigned int zeroed before reads 1 as well). */
    *(_Bool *)data = 1;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_IS_MANAGED:
    *(unsigned *)data = a.kind == AH_MEM_MANAGED;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
    *(int *)data = a.dev->ordinal;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    *(void **)data = (char *)ptr - off;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_RANGE_SIZE:
    *(size_t *)data = a.bytes;
    return hipSuccess;
  case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS: /* hipMemAccessFlagsProtRead(Write) */
    *(unsigned *)data = a.kind == AH_MEM_REGISTERED && (a.flags & hipHostRegisterReadOnly) ? 1 : 3;
    return hipSuccess;
  default: /* contexts, P2P tokens, IPC, handle types, RDMA, pools */
    return hipErrorNotSupported;
  }
}
