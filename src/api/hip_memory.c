/* SPDX-License-Identifier: MIT */
/* Memory management entry points: device, pitched, pinned host, registered
 * and managed allocations, and the questions asked about pointers. The
 * allocations and their records are core/memory.c's work. */
#include "../core/graph.h" /* capture refusals */
#include "device_ops.h"
#include "memory.h"

#define HOST_MALLOC_FLAGS                                                                          \
  (hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |                      \
   hipHostMallocUncached | hipHostMallocNumaUser | hipHostMallocCoherent |                         \
   hipHostMallocNonCoherent)
#define HOST_REGISTER_FLAGS                                                                        \
  (hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory |                     \
   hipHostRegisterReadOnly | hipExtHostRegisterUncached)

/* ---- device memory ------------------------------------------------------ */

AH_EXPORT hipError_t hipMalloc(void **ptr, size_t size) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  *ptr = NULL;
  AH_REQUIRE_OK(ah_capture_check_unsafe()); /* an unsafe call during capture (CUDA, AMD) */
  if (size == 0)
    return hipSuccess;
  AH_RETURN(ah_mem_alloc(ah_current_device(), size, AH_MEM_DEVICE, 0, 0, ptr));
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
  AH_RETURN(ah_mem_alloc(ah_current_device(), sizeBytes, AH_MEM_DEVICE, flags, 0, ptr));
}

AH_EXPORT hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == hipMemAttachGlobal || flags == hipMemAttachHost, hipErrorInvalidValue);
  AH_REQUIRE(size != 0, hipErrorInvalidValue);
  AH_RETURN(ah_mem_alloc(ah_current_device(), size, AH_MEM_MANAGED, flags, 0, dev_ptr));
}

AH_EXPORT hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL && pitch != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_mem_alloc_pitch(ptr, pitch, width, height));
}

AH_EXPORT hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch, size_t widthInBytes,
                                      size_t height, unsigned int elementSizeBytes) {
  AH_ENTER();
  AH_REQUIRE(dptr != NULL && pitch != NULL, hipErrorInvalidValue);
  AH_REQUIRE(elementSizeBytes == 4 || elementSizeBytes == 8 || elementSizeBytes == 16,
             hipErrorInvalidValue);
  AH_RETURN(ah_mem_alloc_pitch(dptr, pitch, widthInBytes, height));
}

/* Slices are stacked rows: the same pitch as hipMallocPitch. */
AH_EXPORT hipError_t hipMalloc3D(hipPitchedPtr *pitchedDevPtr, hipExtent extent) {
  size_t pitch, rows;
  void *ptr;

  AH_ENTER();
  AH_REQUIRE(pitchedDevPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(!__builtin_mul_overflow(extent.height, extent.depth, &rows), hipErrorOutOfMemory);
  AH_REQUIRE_OK(ah_mem_alloc_pitch(&ptr, &pitch, extent.width, rows));
  pitchedDevPtr->ptr = ptr;
  pitchedDevPtr->pitch = pitch;
  pitchedDevPtr->xsize = extent.width;
  pitchedDevPtr->ysize = extent.height;
  return hipSuccess;
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
    AH_RETURN(ah_mem_free(ptr, AH_MEM_HOST, AH_MEM_HOST));
  AH_RETURN(ah_mem_free(ptr, AH_MEM_DEVICE, AH_MEM_MANAGED));
}

AH_EXPORT hipError_t hipMemGetInfo(size_t *free, size_t *total) {
  struct ah_device *dev;
  size_t f, t;

  AH_ENTER();
  /* Either output may be NULL (AMD's runtime fills what it is given; hip-tests' array
   * sources ask for the free memory alone); both NULL is still an invalid value. */
  AH_REQUIRE(free != NULL || total != NULL, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE_OK(ah_dev_mem_info(dev, &f, &t));
  if (free != NULL)
    *free = f;
  if (total != NULL)
    *total = t;
  return hipSuccess;
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

static hipError_t host_malloc(void **ptr, size_t size, unsigned flags) {
  *ptr = NULL;
  if ((flags & ~HOST_MALLOC_FLAGS) != 0)
    return hipErrorInvalidValue;
  /* Coherent and NonCoherent together is the one illegal combination. */
  if ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent))
    return hipErrorInvalidValue;
  return ah_mem_host_alloc(ptr, size, flags);
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

/* HIP 6's name for hipHostMalloc (AMD's flags included). */
AH_EXPORT hipError_t hipExtHostAlloc(void **ptr, size_t size, unsigned int flags) {
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
  AH_RETURN(ah_mem_free(ptr, AH_MEM_HOST, AH_MEM_HOST));
}

AH_EXPORT hipError_t hipFreeHost(void *ptr) {
  AH_ENTER();
  if (ptr == NULL)
    return hipSuccess;
  AH_RETURN(ah_mem_free(ptr, AH_MEM_HOST, AH_MEM_HOST));
}

/* ---- registered host memory --------------------------------------------- */

AH_EXPORT hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(hostPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~HOST_REGISTER_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE(sizeBytes != 0, hipErrorInvalidValue);
  AH_RETURN(ah_mem_host_register(ah_current_device(), hostPtr, sizeBytes, flags));
}

AH_EXPORT hipError_t hipHostUnregister(void *hostPtr) {
  AH_ENTER();
  AH_REQUIRE(hostPtr != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_mem_host_unregister(hostPtr));
}

AH_EXPORT hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL && hstPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(hstPtr, &a), hipErrorInvalidValue);
  AH_REQUIRE(a.kind == AH_MEM_HOST || a.kind == AH_MEM_REGISTERED, hipErrorInvalidValue);
  *devPtr = (char *)a.device_ptr + ah_alloc_offset(&a, hstPtr);
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

/* Unknown host memory the process can read is hipMemoryTypeUnregistered
 * (HIP 6, CUDA 11); other unknown pointers give hipErrorInvalidValue with
 * the attributes zeroed (core/memory.c). */
AH_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr) {
  AH_ENTER();
  AH_REQUIRE(attributes != NULL && ptr != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_mem_attributes(ptr, attributes));
}

AH_EXPORT hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute,
                                            hipDeviceptr_t ptr) {
  AH_ENTER();
  AH_RETURN(ah_mem_pointer_attribute(data, attribute, ptr));
}

/* pbase and psize may be NULL, as in CUDA, when the caller wants one of them. */
AH_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize,
                                           hipDeviceptr_t dptr) {
  struct ah_alloc a;
  size_t off;

  AH_ENTER();
  AH_REQUIRE(dptr != NULL && ah_alloc_find(dptr, &a), hipErrorNotFound);
  off = ah_alloc_offset(&a, dptr);
  if (pbase != NULL)
    *pbase = (char *)dptr - off;
  if (psize != NULL)
    *psize = a.bytes;
  return hipSuccess;
}
