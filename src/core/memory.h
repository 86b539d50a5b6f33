/* SPDX-License-Identifier: MIT */
/* The memory work of the core, for the entry points of src/api/ and for the
 * graph and capture code: allocation records (memory.c), copies (memcpy.c),
 * sets (memset.c) and pitched boxes (memcpy3d.c). Each function does what
 * its HIP call does after the argument checks of src/api/, returning HIP's
 * error codes; none touches the thread's last error. */
#ifndef AH_MEMORY_H
#define AH_MEMORY_H

#include "internal.h"

/* ---- memory.c: allocation records ---- */

/* Allocates `bytes` (not 0) of `kind` on dev (NULL: hipErrorNoDevice) and
 * records it in the allocation map, with the row pitch of a pitched one. */
hipError_t ah_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind, unsigned flags,
                        size_t pitch, void **out);
/* Frees the allocation starting at ptr if it is of kind k1 or k2 (else
 * hipErrorInvalidValue). HIP's frees wait for the device first, so that no
 * queued work still uses it; refused inside a host function. */
hipError_t ah_mem_free(void *ptr, enum ah_mem_kind k1, enum ah_mem_kind k2);
/* hipMallocPitch's work on the current device: rows of `width` bytes rounded
 * up to the pitch alignment; NULL and pitch 0 for an empty request. */
hipError_t ah_mem_alloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height);
/* Pinned host memory on the current device (flags checked by the caller);
 * size 0 leaves *ptr alone. */
hipError_t ah_mem_host_alloc(void **ptr, size_t size, unsigned flags);
/* Pins and records the user's [ptr, ptr + bytes) on dev. */
hipError_t ah_mem_host_register(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags);
/* Ends a registration (hipErrorHostMemoryNotRegistered when ptr starts none). */
hipError_t ah_mem_host_unregister(void *ptr);
/* Offset of p inside allocation a, from whichever side (host or device) holds it. */
size_t ah_alloc_offset(const struct ah_alloc *a, const void *p);
/* hipPointerGetAttributes of a known pointer (zeroed and hipErrorInvalidValue otherwise). */
hipError_t ah_mem_attributes(const void *ptr, hipPointerAttribute_t *attributes);
/* hipPointerGetAttribute (all its checks), for hipDrvPointerGetAttributes too. */
hipError_t ah_mem_pointer_attribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t ptr);

/* ---- ipc_mem.c: interprocess memory ---- */

/* hipIpcGetMemHandle's work for allocation a (a whole device allocation of the
 * runtime's): the device synchronized, the backend's handle in *handle. */
hipError_t ah_ipc_mem_export(const struct ah_alloc *a, hipIpcMemHandle_t *handle);
/* hipIpcOpenMemHandle on dev: the address of the allocation the handle names,
 * mapped and recorded at the first open, counted at each. */
hipError_t ah_ipc_mem_open(struct ah_device *dev, const hipIpcMemHandle_t *handle, void **out);
/* hipIpcCloseMemHandle: only an address ah_ipc_mem_open gave
 * (hipErrorInvalidValue otherwise); the last close waits for the device and
 * unmaps. */
hipError_t ah_ipc_mem_close(void *ptr);

/* ---- memcpy.c: what a pointer is, and copies ---- */

/* What the runtime knows of a pointer. */
struct ah_mem_side {
  int known;     /* an allocation or a device variable */
  int prot;      /* hipMemAccessFlags of a hipMemMap range; 3 (read-write) otherwise */
  int device;    /* on the device side (for hipMemcpyDefault) */
  uintptr_t end; /* end of the known range holding the pointer */
};
void ah_mem_classify(const void *p, struct ah_mem_side *s);
/* A known pointer must have `extent` bytes after it; an unknown one at least
 * must not run past the end of the address space (that range exists nowhere,
 * and the copy would fault instead of failing). */
int ah_mem_fits(const struct ah_mem_side *s, const void *p, size_t extent);

/* Bytes a pitched region spans: (height - 1) rows of pitch plus one width;
 * 0 on overflow. width and height are not 0. */
static inline size_t ah_extent_2d(size_t pitch, size_t width, size_t height) {
  size_t rows = height - 1;

  if (rows != 0 && pitch > (SIZE_MAX - width) / rows)
    return 0;
  return rows * pitch + width;
}

/* *out = a * b + c; 0 on overflow. */
static inline int ah_mul_add(size_t a, size_t b, size_t c, size_t *out) {
  size_t m;

  return !__builtin_mul_overflow(a, b, &m) && !__builtin_add_overflow(m, c, out);
}

/* A copy kind HIP defines (hipMemcpyDefault included). */
int ah_memcpy_valid_kind(hipMemcpyKind kind);
/* Checks a copy of `dext` bytes at dst from `sext` bytes at src against the
 * allocation map and resolves the direction the backend gets. *pageable is
 * not 0 when the copy must complete before the call returns, even an Async
 * one: an end is memory HIP does not know (AH_PAGEABLE_DST, AH_PAGEABLE_SRC;
 * as CUDA's staging through pageable memory makes it look), or both ends are
 * host memory (AH_HOST_TO_HOST: "for transfers from any host memory to any
 * host memory, the function is fully synchronous with respect to the host",
 * CUDA's rule, which AMD's runtime follows too). */
#define AH_PAGEABLE_DST 1
#define AH_PAGEABLE_SRC 2
#define AH_HOST_TO_HOST 4
hipError_t ah_memcpy_check(void *dst, size_t dext, const void *src, size_t sext, hipMemcpyKind kind,
                           hipMemcpyKind *out, int *pageable);
/* Queues an asynchronous 2D or 3D copy command whose only pageable end is its source (see
 * memcpy.c): the source is staged now and the copy does not wait for the stream. Returns 0
 * (nothing queued) where staging does not apply; the caller then submits as before. */
int ah_memcpy_stage(struct ah_device *dev, struct ah_queue *q, struct ah_cmd *cmd, int pageable,
                    hipError_t *err);
/* hipMemcpy(Async)'s work: checks and queues a 1D copy on stream; sync:
 * 0 for the Async forms, AH_COPY_WAIT to wait for the copy
 * (hipMemcpyWithStream), AH_COPY_SYNC_API for the synchronous API
 * (hipMemcpy, hipMemcpyHtoD/DtoH/DtoD), which waits except for a copy
 * between two device buffers: CUDA's rule ("for transfers from device
 * memory to device memory, no host-side synchronization is performed"),
 * unless either buffer has HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS set. */
enum { AH_COPY_WAIT = 1, AH_COPY_SYNC_API = 2 };
hipError_t ah_memcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
                     hipStream_t stream, int sync);
/* hipMemcpyPeer(Async)'s work (sync: on the source device's null stream). */
hipError_t ah_memcpy_peer(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                          hipStream_t stream, int sync);
/* hipMemcpy2D's work: checks (pitches, ranges, kind) and queues on stream. */
hipError_t ah_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, hipMemcpyKind kind, hipStream_t stream, int sync);
/* The device address and size of a device variable (its host address) on dev
 * (NULL: hipErrorNoDevice), remembered so that copies and sets accept its range. */
hipError_t ah_memcpy_symbol(struct ah_device *dev, const void *symbol, void **addr, size_t *size);
/* Whether kind may copy to (to_symbol) or from a device variable: toward the
 * device, device to device, or hipMemcpyDefault. */
int ah_memcpy_symbol_kind(hipMemcpyKind kind, int to_symbol);
/* hipMemcpyTo/FromSymbol(Async)'s work: `bytes` at `offset` into the variable. */
hipError_t ah_memcpy_symbol_copy(const void *symbol, void *mem, size_t bytes, size_t offset,
                                 hipMemcpyKind kind, int to_symbol, hipStream_t stream, int sync);

/* ---- memcpy3d.c: pitched boxes and driver-style descriptors ---- */

/* Where a box lies, in bytes from its pitched pointer. */
struct ah_box {
  size_t start;      /* the box's first byte */
  size_t end;        /* one past its last byte */
  size_t slice_rows; /* rows from one slice to the next */
};
static inline int ah_extent_empty(hipExtent e) {
  return e.width == 0 || e.height == 0 || e.depth == 0;
}
/* Locates box e (no extent 0) at pos in p. Refuses (hipErrorInvalidValue) a
 * row that runs past the pitch, slices that would overlap (ysize smaller than
 * pos.y + height once more than one slice or a z offset is involved: ysize is
 * then what separates slices) and offsets that overflow size_t. */
hipError_t ah_box_locate(const hipPitchedPtr *p, hipPos pos, hipExtent e, struct ah_box *b);
/* hipMemcpy3D's checks and work on stream; with out set, the checked command
 * is returned instead of queued (graph memcpy nodes; an empty extent is then
 * hipErrorInvalidValue). */
hipError_t ah_memcpy_3d(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                        struct ah_cmd *out);
/* hipMemcpyParam2D's and hipDrvMemcpy3D's work. */
hipError_t ah_memcpy_param_2d(const hip_Memcpy2D *c, hipStream_t stream, int sync);
hipError_t ah_memcpy_param_3d(const HIP_MEMCPY3D *c, hipStream_t stream, int sync);

/* ---- memset.c: sets ---- */

/* The checked command of a set of `count` elements of `elem` bytes per row,
 * `height` rows `pitch` apart (set.height 0 when it is empty). */
hipError_t ah_memset_cmd(void *dst, uint32_t value, unsigned elem, size_t count, size_t pitch,
                         size_t height, struct ah_cmd *cmd);
/* A set's destination: memory HIP knows with `extent` bytes from dst
 * (hipErrorInvalidValue otherwise); *host says it is host memory. */
hipError_t ah_memset_check(void *dst, size_t extent, int *host);
/* hipMemset*'s work on stream (sync: the synchronous forms). */
hipError_t ah_memset(void *dst, uint32_t value, unsigned elem, size_t count, size_t pitch,
                     size_t height, hipStream_t stream, int sync);
/* hipMemset3D's work: one 2D set, or one per slice when they are apart. */
hipError_t ah_memset_3d(hipPitchedPtr p, int value, hipExtent e, hipStream_t stream, int sync);

#endif
