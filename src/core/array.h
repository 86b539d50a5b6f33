/* SPDX-License-Identifier: MIT */
/* Arrays, mipmapped arrays, texture and surface objects (src/core/array.c,
 * src/core/texture.c). An array lives on one device: in the backend's own arrays when it
 * has them (array_create, NVIDIA's CUarray), else in device memory the core allocated,
 * `rows` rows of `pitch` bytes per slice, packed, which the CPU device's kernels read
 * through texture descriptors. The API files (hip_array.c, hip_texture.c) check
 * arguments; nothing here sets the last error. */
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
  void *impl;               /* the backend's array, or NULL */
  unsigned char *data;      /* the core's storage (impl NULL) */
  size_t pitch, slice;      /* bytes per row and per slice of data */
  struct ah_mipmap *owner;  /* the mipmapped array this is a level of, or NULL */
};

struct ah_mipmap {
  struct ah_object obj;
  struct ah_device *dev;
  HIP_ARRAY3D_DESCRIPTOR d;
  unsigned levels;
  void *impl; /* the backend's mipmapped array, or NULL */
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

/* One end of a copy with arrays: an array from (x bytes, y, z), or memory at ptr (the
 * box's first byte) with rows pitch bytes apart and slices slice_rows rows apart. */
struct ah_copy_end {
  struct ah_array *arr;
  size_t x, y, z;
  void *ptr;
  size_t pitch, slice_rows;
};
/* Whether a box of w bytes x h rows x d slices at (x, y, z) lies inside array a. */
int ah_array_box_ok(const struct ah_array *a, size_t x, size_t y, size_t z, size_t w, size_t h,
                    size_t d);
/* Queues the copy of a w x h x d box (w in bytes, no extent 0, ends checked) on queue q of
 * dev; with out set, gives the command instead. kind is resolved. */
hipError_t ah_array_copy(struct ah_device *dev, struct ah_queue *q, const struct ah_copy_end *dst,
                         const struct ah_copy_end *src, size_t w, size_t h, size_t d,
                         hipMemcpyKind kind, int wait, struct ah_cmd *out);

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

/* The copies of hipMemcpy3D (and its graph nodes) and of hipMemcpyParam2D / hipDrvMemcpy3D
 * (hipMemoryTypeArray) that name an array (api/hip_array.c); core/memcpy3d.c hands them
 * over. */
hipError_t ah_memcpy_3d_array(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                              struct ah_cmd *out);
hipError_t ah_memcpy_drv_array(const HIP_MEMCPY3D *c, hipStream_t stream, int sync);

#endif
