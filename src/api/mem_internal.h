/* SPDX-License-Identifier: MIT */
/* Checks and helpers shared by the memory entry points of src/api/: the
 * allocation-map checks of hip_memcpy.c and the pitched allocation of
 * hip_memory.c, so that hip_memcpy3d.c (hipMalloc3D, hipMemcpy3D,
 * hipMemset3D, hipMemcpyParam2D) applies exactly the same rules. */
#ifndef AH_MEM_INTERNAL_H
#define AH_MEM_INTERNAL_H

#include "internal.h"

/* hip_memcpy.c. The device address and size of a device variable (its host
 * address) on dev, remembered so that copies and memsets accept its range. */
hipError_t ah_memcpy_symbol(struct ah_device *dev, const void *symbol, void **addr, size_t *size);
/* hip_memcpy.c. Whether kind may copy to (to_symbol) or from a device
 * variable: toward the device, device to device, or hipMemcpyDefault. */
int ah_memcpy_symbol_kind(hipMemcpyKind kind, int to_symbol);
/* hip_memcpy.c. A copy kind HIP defines (hipMemcpyDefault included). */
int ah_memcpy_valid_kind(hipMemcpyKind kind);
/* Checks a copy of `dext` bytes at dst from `sext` bytes at src against the
 * allocation map and resolves the direction; *pageable says an end is memory
 * HIP does not know (the copy must then complete before the call returns). */
hipError_t ah_memcpy_check(void *dst, size_t dext, const void *src, size_t sext, hipMemcpyKind kind,
                           hipMemcpyKind *out, int *pageable);
/* hipMemcpy2D's work: checks (pitches, ranges, kind) and queues on stream. */
hipError_t ah_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, hipMemcpyKind kind, hipStream_t stream, int sync);
/* hipMemset2D's checks, giving the command (set.height 0 when it is empty). */
hipError_t ah_memset_cmd(void *dst, uint32_t value, unsigned elem, size_t count, size_t pitch,
                         size_t height, struct ah_cmd *cmd);
/* A set's destination: memory HIP knows with `extent` bytes from dst
 * (hipErrorInvalidValue otherwise); *host says it is host memory. */
hipError_t ah_memset_check(void *dst, size_t extent, int *host);

/* hip_memcpy3d.c. hipMemcpy3D's checks and work on stream; with out set,
 * the checked command is returned instead of queued (graph memcpy nodes;
 * an empty extent is then hipErrorInvalidValue). */
hipError_t ah_memcpy_3d(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                        struct ah_cmd *out);

/* hip_array.c. The copies of hipMemcpy3D (and its graph nodes) and of hipMemcpyParam2D /
 * hipDrvMemcpy3D (hipMemoryTypeArray) that name an array. */
hipError_t ah_memcpy_3d_array(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                              struct ah_cmd *out);
hipError_t ah_memcpy_drv_array(const HIP_MEMCPY3D *c, hipStream_t stream, int sync);

/* hip_memory.c. hipMallocPitch's work on the current device: rows of
 * `width` bytes rounded up to the pitch alignment; NULL and pitch 0 for an
 * empty request. */
hipError_t ah_mem_alloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height);

/* hip_managed.c. hipPointerGetAttribute's work (arguments checked there). */
hipError_t ah_pointer_attribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t ptr);

#endif
