/* SPDX-License-Identifier: MIT */
/* Virtual memory management: hipMemCreate, hipMemAddressReserve, hipMemMap,
 * hipMemSetAccess and the rest. Each entry point checks its arguments and
 * makes one call into src/core/vmm.c, which keeps the objects and calls the
 * backend's vmm_* ops (CPU: memfd mappings; NVIDIA: cuMem*). A device
 * without them answers hipErrorNotSupported (docs/ext.md, "Virtual memory").
 * hipMemMapArrayAsync (sparse arrays) is refused: no array here is sparse. */
#include "../core/stream.h"
#include "../core/vmm.h"

/* A pinned allocation of a device (the ordinal is the core's to resolve). */
static int prop_ok(const hipMemAllocationProp *prop) {
  return prop->type == hipMemAllocationTypePinned &&
         prop->location.type == hipMemLocationTypeDevice &&
         ah_device_get(prop->location.id) != NULL;
}

/* A device location whose access is kept. */
static int location_ok(const hipMemLocation *loc) {
  return loc->type == hipMemLocationTypeDevice && ah_device_get(loc->id) != NULL &&
         loc->id < AH_VMM_DEVICES;
}

static int access_ok(hipMemAccessFlags f) {
  return f == hipMemAccessFlagsProtNone || f == hipMemAccessFlagsProtRead ||
         f == hipMemAccessFlagsProtReadWrite;
}

/* ---- granularity, allocations ------------------------------------------------ */

AH_EXPORT hipError_t hipMemGetAllocationGranularity(size_t *granularity,
                                                    const hipMemAllocationProp *prop,
                                                    hipMemAllocationGranularity_flags option) {
  AH_ENTER();
  AH_REQUIRE(granularity != NULL && prop != NULL, hipErrorInvalidValue);
  AH_REQUIRE(option == hipMemAllocationGranularityMinimum ||
                 option == hipMemAllocationGranularityRecommended,
             hipErrorInvalidValue);
  AH_REQUIRE(prop_ok(prop), hipErrorInvalidValue);
  AH_RETURN(
      ah_vmm_granularity(prop, option == hipMemAllocationGranularityRecommended, granularity));
}

/* size: a multiple of the device's granularity (the core checks). */
AH_EXPORT hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size,
                                  const hipMemAllocationProp *prop, unsigned long long flags) {
  AH_ENTER();
  AH_REQUIRE(handle != NULL && prop != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(size != 0, hipErrorInvalidValue);
  AH_REQUIRE(prop_ok(prop), hipErrorInvalidValue);
  AH_RETURN(ah_vmm_create(prop, size, handle));
}

/* The allocation goes once no mapping uses it any more. */
AH_EXPORT hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle) {
  AH_ENTER();
  AH_REQUIRE(handle != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_vmm_release(handle));
}

AH_EXPORT hipError_t hipMemGetAllocationPropertiesFromHandle(
    hipMemAllocationProp *prop, hipMemGenericAllocationHandle_t handle) {
  AH_ENTER();
  AH_REQUIRE(prop != NULL && handle != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_vmm_properties(handle, prop));
}

/* The handle of the allocation mapped at addr, one more reference to
 * release. */
AH_EXPORT hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *handle,
                                                  void *addr) {
  AH_ENTER();
  AH_REQUIRE(handle != NULL && addr != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_vmm_retain(addr, handle));
}

/* hipMemHandleTypePosixFileDescriptor: *(int *)shareableHandle receives a
 * new file descriptor of the allocation (the caller closes it, and passes it
 * to another process over a Unix socket or by pidfd_getfd). Only an
 * allocation made with that requestedHandleType exports. */
AH_EXPORT hipError_t hipMemExportToShareableHandle(void *shareableHandle,
                                                   hipMemGenericAllocationHandle_t handle,
                                                   hipMemAllocationHandleType handleType,
                                                   unsigned long long flags) {
  AH_ENTER();
  AH_REQUIRE(shareableHandle != NULL && handle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(handleType == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  AH_RETURN(ah_vmm_export(handle, (int *)shareableHandle));
}

/* osHandle names a file descriptor in either convention: AMD's runtime
 * (and hip-tests) passes a pointer to it, CUDA code (hipified) the
 * descriptor itself cast to a pointer. Nothing is mapped below 64 KiB
 * (mmap_min_addr), so a smaller value is a descriptor, a larger one a
 * pointer to one. The descriptor stays the caller's. The allocation is of
 * the current device. */
AH_EXPORT hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle,
                                                     void *osHandle,
                                                     hipMemAllocationHandleType shHandleType) {
  int fd;

  AH_ENTER();
  AH_REQUIRE(handle != NULL && osHandle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(shHandleType == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  fd = (uintptr_t)osHandle < 65536 ? (int)(uintptr_t)osHandle : *(const int *)osHandle;
  AH_REQUIRE(fd >= 0, hipErrorInvalidValue);
  AH_RETURN(ah_vmm_import(fd, handle));
}

/* ---- address ranges and mappings -------------------------------------------- */

/* A range of the current device's backend. AMD's codes: a size of 0 or not
 * a multiple of the granularity, or an alignment that is not a power of two,
 * is hipErrorMemoryAllocation (the core checks). addr is a hint. */
AH_EXPORT hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr,
                                          unsigned long long flags) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_RETURN(ah_vmm_reserve(size, alignment, addr, ptr));
}

/* The whole reservation; mappings still in it are unmapped first. */
AH_EXPORT hipError_t hipMemAddressFree(void *devPtr, size_t size) {
  AH_ENTER();
  AH_REQUIRE(devPtr != NULL && size != 0, hipErrorInvalidValue);
  AH_NOT_IN_HOST_FN();
  AH_RETURN(ah_vmm_address_free(devPtr, size));
}

/* Maps size bytes of the allocation from offset at ptr, a free part of a
 * reservation; ptr, size and offset multiples of the granularity. */
AH_EXPORT hipError_t hipMemMap(void *ptr, size_t size, size_t offset,
                               hipMemGenericAllocationHandle_t handle, unsigned long long flags) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL && size != 0 && handle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_RETURN(ah_vmm_map(ptr, size, offset, handle));
}

/* The device synchronized first: no kernel still uses the range. */
AH_EXPORT hipError_t hipMemUnmap(void *ptr, size_t size) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL && size != 0, hipErrorInvalidValue);
  AH_NOT_IN_HOST_FN();
  AH_RETURN(ah_vmm_unmap(ptr, size));
}

/* Access per device, for devices of the mapping's backend. */
AH_EXPORT hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc,
                                     size_t count) {
  AH_ENTER();
  AH_REQUIRE(ptr != NULL && size != 0 && desc != NULL && count != 0, hipErrorInvalidValue);
  for (size_t i = 0; i < count; i++) {
    AH_REQUIRE(location_ok(&desc[i].location), hipErrorInvalidValue);
    AH_REQUIRE(access_ok(desc[i].flags), hipErrorInvalidValue);
  }
  AH_RETURN(ah_vmm_set_access(ptr, size, desc, count));
}

AH_EXPORT hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *location,
                                     void *ptr) {
  AH_ENTER();
  AH_REQUIRE(flags != NULL && location != NULL && ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(location_ok(location), hipErrorInvalidValue);
  AH_RETURN(ah_vmm_get_access(location, ptr, flags));
}

/* Maps or unmaps memory of sparse arrays and mipmapped arrays. Array
 * creation takes no sparse flag here, on either device, so every well-formed
 * request is hipErrorNotSupported (docs/ext.md). */
AH_EXPORT hipError_t hipMemMapArrayAsync(hipArrayMapInfo *mapInfoList, unsigned int count,
                                         hipStream_t stream) {
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE(mapInfoList != NULL && count != 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  for (unsigned i = 0; i < count; i++) {
    const hipArrayMapInfo *m = &mapInfoList[i];

    AH_REQUIRE(m->resourceType == hipResourceTypeArray ||
                   m->resourceType == hipResourceTypeMipmappedArray,
               hipErrorInvalidValue);
    AH_REQUIRE(m->memOperationType == hipMemOperationTypeMap ||
                   m->memOperationType == hipMemOperationTypeUnmap,
               hipErrorInvalidValue);
    AH_REQUIRE(m->memHandleType == hipMemHandleTypeGeneric, hipErrorInvalidValue);
    AH_REQUIRE(m->flags == 0, hipErrorInvalidValue);
  }
  return ah_fail(hipErrorNotSupported, __func__, "no sparse arrays");
}
