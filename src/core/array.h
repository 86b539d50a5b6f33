/* SPDX-License-Identifier: MIT */
/* Arrays, mipmapped arrays, texture and surface objects (src/core/array.c,
 * src/core/texture.c). An array lives on one device: in the backend's own arrays when it
 * has them (array_create, NVIDIA's CUarray), else in device memory the core allocated,
 * `rows` rows of `pitch` bytes per slice, packed, which the CPU device's kernels read
 * through texture descriptors. The API files (hip_array.c, hip_texture.c) check
 * arguments and call here once; nothing here sets the last error. */
#ifndef AH_ARRAY_H
#define AH_ARRAY_H

#include "internal.h"

#include <hip/anyhip/common/texture_abi.h>

struct ah_mipmap;

struct ah_array {
  struct ah_object obj;
  struct ah_device *dev;
  HIP_ARRAY3D_DESCRIPTOR d; /* as made: Height 0 for 1D, Depth 0 for 1D and 2D */
  unsigned elem;            /* bytes per element */
  size_t rows, slices;      /* max(Height, 1), max(Depth, 1) */
  struct ah_dev_array *impl; /* the backend's array, or NULL */
  unsigned char *data;      /* the core's storage (impl NULL) */
  size_t pitch, slice;      /* bytes per row and per slice of data */
  struct ah_mipmap *owner;  /* the mipmapped array this is a level of, or NULL */
};

struct ah_mipmap {
  struct ah_object obj;
  struct ah_device *dev;
  HIP_ARRAY3D_DESCRIPTOR d;
  unsigned levels;
  struct ah_dev_mipmap *impl; /* the backend's mipmapped array, or NULL */
  struct ah_array *level[AH_TEX_MAX_LEVELS];
};

/* Bytes of one channel of format f; 0 for a format HIP does not have. */
unsigned ah_array_format_bytes(hipArray_Format f);
/* The format of a channel descriptor (hipErrorInvalidValue: none; channels must be
 * 1, 2 or 4 of one size). */
hipError_t ah_array_format_of(const hipChannelFormatDesc *c, hipArray_Format *f,
                              unsigned *channels);
hipChannelFormatDesc ah_array_channel_desc(hipArray_Format f, unsigned channels);

/* Makes an array of shape d (checked) on dev. */
hipError_t ah_array_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                           struct ah_array **out);
/* Frees a (not a mipmapped array's level). The caller synchronized the device. */
hipError_t ah_array_destroy(struct ah_array *a);
/* Makes a mipmapped array of `levels` levels (checked: at most AH_TEX_MAX_LEVELS and no
 * more than the largest size has) and its level arrays. */
hipError_t ah_mipmap_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                            unsigned levels, struct ah_mipmap **out);
hipError_t ah_mipmap_destroy(struct ah_mipmap *m);

/* hipFreeArray's and hipFreeMipmappedArray's work: the device is synchronized first (as
 * hipFree waits), then the array goes; a mipmapped array's level stays with its owner
 * (hipSuccess). hipErrorInvalidValue: no such array. */
hipError_t ah_array_free(hipArray_t array);
hipError_t ah_mipmap_free(hipMipmappedArray_t m);

/* ---- copies naming an array (src/core/array.c) ---- */

/* One end of a copy as the caller names it: an array (the user's handle, checked here)
 * from (x bytes, y, z), or memory at ptr (the box's first byte) with rows pitch bytes
 * apart and slices slice_rows rows apart. An end with neither is hipErrorInvalidValue. */
struct ah_array_end {
  hipArray_const_t array; /* NULL for memory */
  size_t x, y, z;
  void *ptr;
  size_t pitch, slice_rows;
};
/* Checks a copy of a w x h x d box (w in bytes) between dst and src (arrays inside their
 * bounds and on the stream's backend, memory in the allocation map, kind) and queues it on
 * stream; sync waits. An empty box checks and copies nothing. */
hipError_t ah_array_copy_box(const struct ah_array_end *dst, const struct ah_array_end *src,
                             size_t w, size_t h, size_t d, hipMemcpyKind kind, hipStream_t stream,
                             int sync);
/* A copy of count bytes between the byte streams of two ends, each an array (da, sa) from
 * byte offset doff/soff of its rows one after the other, or memory (dptr, sptr), in boxes of
 * whole rows where it can (hipMemcpyToArray, hipMemcpyAtoH ... hipMemcpyAtoA). */
hipError_t ah_array_copy_linear(hipArray_const_t da, size_t doff, void *dptr, hipArray_const_t sa,
                                size_t soff, const void *sptr, size_t count, hipMemcpyKind kind,
                                hipStream_t stream, int sync);
/* The byte offset of (wOffset bytes, hOffset rows) in an array's byte stream; SIZE_MAX
 * (which every copy refuses) for no array, wOffset past a row, or an overflow. */
size_t ah_array_offset(hipArray_const_t array, size_t wOffset, size_t hOffset);
/* The copies of hipMemcpy3D (and its graph nodes: with out set, the checked command) and of
 * hipMemcpyParam2D / hipDrvMemcpy3D (hipMemoryTypeArray) that name an array; memcpy3d.c
 * hands them over. Positions and width of a hipMemcpy3D array end are in elements. */
hipError_t ah_memcpy_3d_array(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                              struct ah_cmd *out);
hipError_t ah_memcpy_drv_array(const HIP_MEMCPY3D *c, hipStream_t stream, int sync);

/* ---- texture and surface objects (src/core/texture.c) ---- */

/* Makes a texture object on dev of res (driver-style, arrays as hipArray_t handles the
 * caller resolved and checked), with the sampler tex and the optional view; the
 * runtime-style descriptions the object reports are rres/rtex/rview (NULL: derived). */
hipError_t ah_texture_create(struct ah_device *dev, const HIP_RESOURCE_DESC *res,
                             const HIP_TEXTURE_DESC *tex, const HIP_RESOURCE_VIEW_DESC *view,
                             const hipResourceDesc *rres, const hipTextureDesc *rtex,
                             uint64_t *out);
hipError_t ah_texture_destroy(uint64_t handle, int surface);
/* Copies out what the object was made with (hipErrorInvalidValue: no such object). */
hipError_t ah_texture_describe(uint64_t handle, HIP_RESOURCE_DESC *res, HIP_TEXTURE_DESC *tex,
                               HIP_RESOURCE_VIEW_DESC *view, int *has_view, hipResourceDesc *rres,
                               hipTextureDesc *rtex);
/* A surface object over array a. */
hipError_t ah_surface_create(struct ah_array *a, const hipResourceDesc *rres, uint64_t *out);

#endif
