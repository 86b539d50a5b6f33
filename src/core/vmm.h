/* SPDX-License-Identifier: MIT */
/* Virtual memory management (vmm.c): physical allocations (hipMemCreate)
 * mapped into reserved address ranges (hipMemAddressReserve, hipMemMap) with
 * an access per device (hipMemSetAccess), on any backend with the vmm_* ops
 * (backend.h). Each function does its HIP call's work after the argument
 * checks of src/api/hip_vmm.c (null pointers, flags, enumerations, device
 * ordinals); the checks that need a device's granularity are made here.
 * None touches the thread's last error. */
#ifndef AH_VMM_H
#define AH_VMM_H

#include "internal.h"

/* Access is kept for devices 0 .. AH_VMM_DEVICES - 1 (hip_vmm.c refuses others). */
#define AH_VMM_DEVICES 64

/* The granularity of allocations of prop's device (a pinned allocation of a
 * device, checked by the caller). */
hipError_t ah_vmm_granularity(const hipMemAllocationProp *prop, int recommended, size_t *out);
hipError_t ah_vmm_create(const hipMemAllocationProp *prop, size_t size,
                         hipMemGenericAllocationHandle_t *out);
/* Drops the user's reference; the memory goes once no mapping uses it. */
hipError_t ah_vmm_release(hipMemGenericAllocationHandle_t h);
hipError_t ah_vmm_properties(hipMemGenericAllocationHandle_t h, hipMemAllocationProp *prop);
/* The handle of the allocation mapped at addr, one more reference. */
hipError_t ah_vmm_retain(void *addr, hipMemGenericAllocationHandle_t *out);
/* A new file descriptor of an allocation made shareable (the caller's). */
hipError_t ah_vmm_export(hipMemGenericAllocationHandle_t h, int *fd);
/* An allocation of the current device from a descriptor (still the caller's). */
hipError_t ah_vmm_import(int fd, hipMemGenericAllocationHandle_t *out);
/* A reservation on the current device's backend; addr is a hint. */
hipError_t ah_vmm_reserve(size_t size, size_t alignment, void *addr, void **out);
/* The whole reservation at ptr; what is still mapped there is unmapped. */
hipError_t ah_vmm_address_free(void *ptr, size_t size);
hipError_t ah_vmm_map(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t h);
/* Whole mappings only; waits for the devices whose memory is unmapped. */
hipError_t ah_vmm_unmap(void *ptr, size_t size);
/* desc[i] name devices (checked) and valid access flags (checked). */
hipError_t ah_vmm_set_access(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count);
hipError_t ah_vmm_get_access(const hipMemLocation *loc, void *ptr, unsigned long long *flags);

#endif
