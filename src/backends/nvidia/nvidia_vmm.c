/* SPDX-License-Identifier: MIT */
/* Virtual memory of the NVIDIA device (the vmm_* ops of backend.h): the
 * driver's own, cuMemCreate, cuMemAddressReserve, cuMemMap, cuMemSetAccess
 * and the POSIX file descriptor export and import. The core keeps handles,
 * mappings and reference counts (src/core/vmm.c), so the handle it gives a
 * user is its own object around the driver's CUmemGenericAllocationHandle;
 * hipMemRetainAllocationHandle and hipMemGetAllocationPropertiesFromHandle are
 * answered from it. Each op runs under the core's virtual-memory lock, in the
 * device's primary context. */
#include "nvidia_internal.h"

#include <stdint.h>

/* Whether the driver has every entry point the ops use and the device takes them. */
int ah_nv_vmm_supported(struct ah_device *dev) {
  int v = 0;

  if (ah_cuda.cuMemGetAllocationGranularity == NULL || ah_cuda.cuMemCreate == NULL ||
      ah_cuda.cuMemRelease == NULL || ah_cuda.cuMemExportToShareableHandle == NULL ||
      ah_cuda.cuMemImportFromShareableHandle == NULL || ah_cuda.cuMemAddressReserve == NULL ||
      ah_cuda.cuMemAddressFree == NULL || ah_cuda.cuMemMap == NULL || ah_cuda.cuMemUnmap == NULL ||
      ah_cuda.cuMemSetAccess == NULL)
    return 0;
  return ah_cuda.cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                      AH_NV(dev)->cu) == CUDA_SUCCESS &&
         v != 0;
}

static CUmemAllocationProp prop_of(struct ah_device *dev, int shareable) {
  CUmemAllocationProp p = {0};

  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.requestedHandleTypes =
      shareable ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : CU_MEM_HANDLE_TYPE_NONE;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = AH_NV(dev)->cu;
  return p;
}

hipError_t ah_nv_vmm_granularity(struct ah_device *dev, int recommended, size_t *out) {
  CUmemAllocationProp p = prop_of(dev, 0);

  AH_NV_ENTER(dev, cuMemGetAllocationGranularity);
  return ah_cuda_status(ah_cuda.cuMemGetAllocationGranularity(
      out, &p,
      recommended ? CU_MEM_ALLOC_GRANULARITY_RECOMMENDED : CU_MEM_ALLOC_GRANULARITY_MINIMUM));
}

hipError_t ah_nv_vmm_create(struct ah_device *dev, size_t bytes, int shareable, uint64_t *phys) {
  CUmemAllocationProp p = prop_of(dev, shareable);
  CUmemGenericAllocationHandle h;
  CUresult r;

  AH_NV_ENTER(dev, cuMemCreate);
  r = ah_cuda.cuMemCreate(&h, bytes, &p, 0);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *phys = h;
  return hipSuccess;
}

hipError_t ah_nv_vmm_release(struct ah_device *dev, uint64_t phys) {
  AH_NV_ENTER(dev, cuMemRelease);
  return ah_cuda_status(ah_cuda.cuMemRelease(phys));
}

hipError_t ah_nv_vmm_export(struct ah_device *dev, uint64_t phys, int *fd) {
  AH_NV_ENTER(dev, cuMemExportToShareableHandle);
  return ah_cuda_status(
      ah_cuda.cuMemExportToShareableHandle(fd, phys, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
}

/* The driver does not say how large an imported allocation is: *bytes 0, and
 * cuMemMap checks the ranges. */
hipError_t ah_nv_vmm_import(struct ah_device *dev, int fd, uint64_t *phys, size_t *bytes) {
  CUmemGenericAllocationHandle h;
  CUresult r;

  AH_NV_ENTER(dev, cuMemImportFromShareableHandle);
  r = ah_cuda.cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)fd,
                                             CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *phys = h;
  *bytes = 0;
  return hipSuccess;
}

hipError_t ah_nv_vmm_reserve(struct ah_device *dev, size_t bytes, size_t alignment, void *hint,
                             void **out) {
  CUdeviceptr p;
  CUresult r;

  AH_NV_ENTER(dev, cuMemAddressReserve);
  r = ah_cuda.cuMemAddressReserve(&p, bytes, alignment, (CUdeviceptr)(uintptr_t)hint, 0);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *out = (void *)(uintptr_t)p;
  return hipSuccess;
}

hipError_t ah_nv_vmm_address_free(struct ah_device *dev, void *base, size_t bytes) {
  AH_NV_ENTER(dev, cuMemAddressFree);
  return ah_cuda_status(ah_cuda.cuMemAddressFree((CUdeviceptr)(uintptr_t)base, bytes));
}

hipError_t ah_nv_vmm_map(struct ah_device *dev, void *ptr, size_t bytes, uint64_t phys,
                         size_t offset) {
  AH_NV_ENTER(dev, cuMemMap);
  return ah_cuda_status(ah_cuda.cuMemMap((CUdeviceptr)(uintptr_t)ptr, bytes, offset, phys, 0));
}

hipError_t ah_nv_vmm_unmap(struct ah_device *dev, void *ptr, size_t bytes) {
  AH_NV_ENTER(dev, cuMemUnmap);
  return ah_cuda_status(ah_cuda.cuMemUnmap((CUdeviceptr)(uintptr_t)ptr, bytes));
}

/* acc names NVIDIA devices only (the core checks); at most 64 of them. A driver that
 * refuses read-only or no access for a device (CUDA documents only read-write as always
 * taken) gets read-write for read-only entries and nothing for the others: the core
 * still holds copies and sets to the access asked (docs/ext.md). */
hipError_t ah_nv_vmm_set_access(struct ah_device *dev, void *ptr, size_t bytes,
                                const struct ah_vmm_access *acc, size_t n) {
  CUmemAccessDesc d[64];
  CUdeviceptr p = (CUdeviceptr)(uintptr_t)ptr;
  size_t m = 0;
  CUresult r;

  AH_NV_ENTER(dev, cuMemSetAccess);
  if (n > sizeof(d) / sizeof(d[0]))
    return hipErrorInvalidValue;
  for (size_t i = 0; i < n; i++) {
    d[i].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    d[i].location.id = AH_NV(acc[i].dev)->cu;
    d[i].flags = (int)acc[i].flags;
  }
  if (n == 0)
    return hipSuccess;
  r = ah_cuda.cuMemSetAccess(p, bytes, d, n);
  if (r == CUDA_SUCCESS)
    return hipSuccess;
  for (size_t i = 0; i < n; i++)
    if (d[i].flags != hipMemAccessFlagsProtNone) {
      d[m] = d[i];
      d[m++].flags = hipMemAccessFlagsProtReadWrite;
    }
  if (m != 0 && ah_cuda.cuMemSetAccess(p, bytes, d, m) != CUDA_SUCCESS)
    return ah_cuda_status(r);
  AH_LOG(NVIDIA, "cuMemSetAccess: %s for the access asked; read-write given instead",
         ah_cuda_error_name(r));
  return hipSuccess;
}
