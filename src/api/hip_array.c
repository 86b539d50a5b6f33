/* SPDX-License-Identifier: MIT */
/* Arrays and mipmapped arrays: hipMallocArray, hipMalloc3DArray, hipArrayCreate,
 * hipArray3DCreate, hipMallocMipmappedArray, hipMipmappedArrayCreate, their getters and
 * frees, and every copy naming an array (hipMemcpy2DToArray ... hipMemcpyAtoA, and the
 * array sides of hipMemcpy3D, hipMemcpyParam2D and hipDrvMemcpy3D, which
 * hip_memcpy3d.c sends here). This file checks arguments with HIP's codes; the work is
 * src/core/array.c's. A box of an array is in bytes along x (elements times the element
 * size), rows along y and slices (or layers) along z. docs/textures.md. */
#include "internal.h"
#include "memory.h"
#include "array.h"

#include <stdint.h>
#include <string.h>

#define AH_ARRAY_FLAGS \
  (hipArrayLayered | hipArraySurfaceLoadStore | hipArrayCubemap | hipArrayTextureGather)

AH_EXPORT hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,
                                                    hipChannelFormatKind f) {
  hipChannelFormatDesc d = {x, y, z, w, f};

  return d;
}

static struct ah_array *array_of(hipArray_const_t a) {
  return ah_object_cast(a, AH_KIND_ARRAY);
}

static struct ah_mipmap *mipmap_of(hipMipmappedArray_const_t m) {
  return ah_object_cast(m, AH_KIND_MIPMAP);
}

/* A shape HIP accepts: a format and 1, 2 or 4 channels, a width, a height unless the array
 * is 1D (layered or not: depth then counts layers), cubemaps square with 6 faces a layer. */
static hipError_t shape_ok(const HIP_ARRAY3D_DESCRIPTOR *d) {
  if (ah_array_format_bytes(d->Format) == 0 || d->Width == 0 ||
      (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4) ||
      (d->Flags & ~(unsigned)AH_ARRAY_FLAGS) != 0)
    return hipErrorInvalidValue;
  if (d->Flags & hipArrayCubemap) {
    if (d->Width != d->Height || d->Depth == 0 || d->Depth % 6 != 0 ||
        (!(d->Flags & hipArrayLayered) && d->Depth != 6))
      return hipErrorInvalidValue;
  } else if (d->Flags & hipArrayLayered) {
    if (d->Depth == 0)
      return hipErrorInvalidValue;
  } else if (d->Height == 0 && d->Depth != 0) {
    return hipErrorInvalidValue;
  }
  return hipSuccess;
}

/* The device's texture size limits for this shape (CUDA's table for
 * cudaMalloc3DArray; AMD's runtime refuses past them with hipErrorInvalidValue,
 * ROCm's unit suite checks each limit plus one). */
static int within_limits(const hipDeviceProp_t *p, const HIP_ARRAY3D_DESCRIPTOR *d) {
  size_t w = d->Width, h = d->Height, z = d->Depth;

  if (d->Flags & hipArrayCubemap)
    return (d->Flags & hipArrayLayered)
               ? w <= (size_t)p->maxTextureCubemapLayered[0] &&
                     z <= (size_t)p->maxTextureCubemapLayered[1]
               : w <= (size_t)p->maxTextureCubemap;
  if (d->Flags & hipArrayLayered)
    return h == 0 ? w <= (size_t)p->maxTexture1DLayered[0] && z <= (size_t)p->maxTexture1DLayered[1]
                  : w <= (size_t)p->maxTexture2DLayered[0] &&
                        h <= (size_t)p->maxTexture2DLayered[1] &&
                        z <= (size_t)p->maxTexture2DLayered[2];
  if (h == 0)
    return w <= (size_t)p->maxTexture1D;
  if (z == 0)
    return w <= (size_t)p->maxTexture2D[0] && h <= (size_t)p->maxTexture2D[1];
  return w <= (size_t)p->maxTexture3D[0] && h <= (size_t)p->maxTexture3D[1] &&
         z <= (size_t)p->maxTexture3D[2];
}

static hipError_t create(hipArray_t *out, const HIP_ARRAY3D_DESCRIPTOR *d) {
  struct ah_device *dev = ah_current_device();
  struct ah_array *a;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if ((err = shape_ok(d)) != hipSuccess)
    return err;
  if (!within_limits(&dev->props, d))
    return hipErrorInvalidValue;
  if ((err = ah_array_create(dev, d, &a)) != hipSuccess)
    return err;
  *out = (hipArray_t)a;
  return hipSuccess;
}

/* The driver-style shape of a runtime-style request. */
static hipError_t shape_of(const hipChannelFormatDesc *c, hipExtent e, unsigned flags,
                           HIP_ARRAY3D_DESCRIPTOR *d) {
  unsigned channels;
  hipArray_Format f;

  if (ah_array_format_of(c, &f, &channels) != hipSuccess)
    return hipErrorInvalidValue;
  *d = (HIP_ARRAY3D_DESCRIPTOR){.Width = e.width, .Height = e.height, .Depth = e.depth,
                                .Format = f, .NumChannels = channels, .Flags = flags};
  return hipSuccess;
}

AH_EXPORT hipError_t hipMallocArray(hipArray_t *array, const hipChannelFormatDesc *desc,
                                    size_t width, size_t height, unsigned int flags) {
  HIP_ARRAY3D_DESCRIPTOR d;

  AH_ENTER();
  AH_REQUIRE(array != NULL && desc != NULL && width != 0, hipErrorInvalidValue);
  /* A 2D allocation: layered and cubemap arrays are hipMalloc3DArray's. */
  AH_REQUIRE((flags & ~(unsigned)(hipArraySurfaceLoadStore | hipArrayTextureGather)) == 0,
             hipErrorInvalidValue);
  AH_REQUIRE_OK(shape_of(desc, make_hipExtent(width, height, 0), flags, &d));
  AH_RETURN(create(array, &d));
}

AH_EXPORT hipError_t hipMalloc3DArray(hipArray_t *array, const struct hipChannelFormatDesc *desc,
                                      struct hipExtent extent, unsigned int flags) {
  HIP_ARRAY3D_DESCRIPTOR d;

  AH_ENTER();
  AH_REQUIRE(array != NULL && desc != NULL && extent.width != 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(shape_of(desc, extent, flags, &d));
  AH_RETURN(create(array, &d));
}

AH_EXPORT hipError_t hipArrayCreate(hipArray_t *pHandle, const HIP_ARRAY_DESCRIPTOR *p) {
  HIP_ARRAY3D_DESCRIPTOR d;

  AH_ENTER();
  AH_REQUIRE(pHandle != NULL && p != NULL, hipErrorInvalidValue);
  d = (HIP_ARRAY3D_DESCRIPTOR){.Width = p->Width, .Height = p->Height, .Format = p->Format,
                                .NumChannels = p->NumChannels};
  AH_RETURN(create(pHandle, &d));
}

AH_EXPORT hipError_t hipArray3DCreate(hipArray_t *array, const HIP_ARRAY3D_DESCRIPTOR *p) {
  AH_ENTER();
  AH_REQUIRE(array != NULL && p != NULL, hipErrorInvalidValue);
  AH_RETURN(create(array, p));
}

static hipError_t destroy(hipArray_t array) {
  struct ah_array *a = array_of(array);
  hipError_t err;

  if (a == NULL)
    return hipErrorInvalidValue;
  if (a->owner != NULL) /* a level goes with its mipmapped array: nothing to do (AMD's) */
    return hipSuccess;
  /* Copies and kernels queued on the array finish first, as hipFree waits for them. */
  if ((err = a->dev->backend->device_sync(a->dev)) != hipSuccess)
    return err;
  return ah_array_destroy(a);
}

AH_EXPORT hipError_t hipFreeArray(hipArray_t array) {
  AH_ENTER();
  AH_RETURN(destroy(array));
}

AH_EXPORT hipError_t hipArrayDestroy(hipArray_t array) {
  AH_ENTER();
  AH_REQUIRE(array != NULL, hipErrorInvalidHandle);
  AH_RETURN(destroy(array));
}

AH_EXPORT hipError_t hipArrayGetInfo(hipChannelFormatDesc *desc, hipExtent *extent,
                                     unsigned int *flags, hipArray_t array) {
  struct ah_array *a;

  AH_ENTER();
  AH_REQUIRE((a = array_of(array)) != NULL, hipErrorInvalidHandle);
  if (desc != NULL)
    *desc = ah_array_channel_desc(a->d.Format, a->d.NumChannels);
  if (extent != NULL)
    *extent = make_hipExtent(a->d.Width, a->d.Height, a->d.Depth);
  if (flags != NULL)
    *flags = a->d.Flags;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGetChannelDesc(hipChannelFormatDesc *desc, hipArray_const_t array) {
  struct ah_array *a;

  AH_ENTER();
  AH_REQUIRE(desc != NULL, hipErrorInvalidValue);
  AH_REQUIRE((a = array_of(array)) != NULL, hipErrorInvalidHandle);
  *desc = ah_array_channel_desc(a->d.Format, a->d.NumChannels);
  return hipSuccess;
}

AH_EXPORT hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR *d, hipArray_t array) {
  struct ah_array *a;

  AH_ENTER();
  AH_REQUIRE(d != NULL, hipErrorInvalidValue);
  AH_REQUIRE((a = array_of(array)) != NULL, hipErrorInvalidHandle);
  /* A 3D or layered array has no 2D descriptor. */
  AH_REQUIRE(a->d.Depth == 0 && (a->d.Flags & (hipArrayLayered | hipArrayCubemap)) == 0,
             hipErrorInvalidValue);
  d->Width = a->d.Width;
  d->Height = a->d.Height;
  d->Format = a->d.Format;
  d->NumChannels = a->d.NumChannels;
  return hipSuccess;
}

AH_EXPORT hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR *d, hipArray_t array) {
  struct ah_array *a;

  AH_ENTER();
  AH_REQUIRE(d != NULL, hipErrorInvalidValue);
  AH_REQUIRE((a = array_of(array)) != NULL, hipErrorInvalidHandle);
  *d = a->d;
  return hipSuccess;
}

/* ---- mipmapped arrays ---------------------------------------------------- */

static hipError_t mipmap_create(hipMipmappedArray_t *out, const HIP_ARRAY3D_DESCRIPTOR *d,
                                unsigned levels) {
  struct ah_device *dev = ah_current_device();
  struct ah_mipmap *m;
  size_t largest = d->Width > d->Height ? d->Width : d->Height;
  unsigned most = 1;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if ((err = shape_ok(d)) != hipSuccess)
    return err;
  if (!(d->Flags & (hipArrayLayered | hipArrayCubemap)) && d->Depth > largest)
    largest = d->Depth;
  while ((largest >> most) != 0)
    most++;
  if (levels == 0 || levels > most || levels > AH_TEX_MAX_LEVELS)
    return hipErrorInvalidValue;
  if ((err = ah_mipmap_create(dev, d, levels, &m)) != hipSuccess)
    return err;
  *out = (hipMipmappedArray_t)m;
  return hipSuccess;
}

AH_EXPORT hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *m,
                                             const struct hipChannelFormatDesc *desc,
                                             struct hipExtent extent, unsigned int numLevels,
                                             unsigned int flags) {
  HIP_ARRAY3D_DESCRIPTOR d;

  AH_ENTER();
  AH_REQUIRE(m != NULL && desc != NULL && extent.width != 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(shape_of(desc, extent, flags, &d));
  AH_RETURN(mipmap_create(m, &d, numLevels));
}

AH_EXPORT hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t *pHandle,
                                             HIP_ARRAY3D_DESCRIPTOR *d,
                                             unsigned int numMipmapLevels) {
  AH_ENTER();
  AH_REQUIRE(pHandle != NULL && d != NULL, hipErrorInvalidValue);
  AH_RETURN(mipmap_create(pHandle, d, numMipmapLevels));
}

static hipError_t mipmap_destroy(hipMipmappedArray_t mm) {
  struct ah_mipmap *m = mipmap_of(mm);
  hipError_t err;

  if (m == NULL)
    return hipErrorInvalidValue;
  if ((err = m->dev->backend->device_sync(m->dev)) != hipSuccess)
    return err;
  return ah_mipmap_destroy(m);
}

AH_EXPORT hipError_t hipFreeMipmappedArray(hipMipmappedArray_t m) {
  AH_ENTER();
  AH_RETURN(mipmap_destroy(m));
}

AH_EXPORT hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t m) {
  AH_ENTER();
  AH_REQUIRE(m != NULL, hipErrorInvalidValue);
  AH_RETURN(mipmap_destroy(m));
}

static hipError_t level_of(hipArray_t *out, hipMipmappedArray_const_t mm, unsigned level) {
  struct ah_mipmap *m = mipmap_of(mm);

  if (out == NULL || m == NULL || level >= m->levels)
    return hipErrorInvalidValue;
  *out = (hipArray_t)m->level[level];
  return hipSuccess;
}

AH_EXPORT hipError_t hipGetMipmappedArrayLevel(hipArray_t *levelArray,
                                               hipMipmappedArray_const_t m, unsigned int level) {
  AH_ENTER();
  AH_RETURN(level_of(levelArray, m, level));
}

AH_EXPORT hipError_t hipMipmappedArrayGetLevel(hipArray_t *pLevelArray, hipMipmappedArray_t m,
                                               unsigned int level) {
  AH_ENTER();
  AH_RETURN(level_of(pLevelArray, m, level));
}

/* ---- copies -------------------------------------------------------------- */

/* One end of a copy as the caller names it: an array (at x bytes, y, z) or memory at ptr
 * (the box's first byte) with pitch bytes per row and slice_rows rows per slice. */
struct end {
  hipArray_const_t array; /* the user's handle; NULL for memory */
  size_t x, y, z;
  void *ptr;
  size_t pitch, slice_rows;
};

/* Checks a w x h x d box copy (w in bytes) between dst and src with kind, and queues it on
 * stream (or gives the command, with out). */
static hipError_t copy_box(const struct end *dst, const struct end *src, size_t w, size_t h,
                           size_t d, hipMemcpyKind kind, hipStream_t stream, int sync,
                           struct ah_cmd *out) {
  const struct end *e[2] = {dst, src};
  struct ah_copy_end c[2];
  int device[2] = {1, 1}, pageable = 0;
  struct ah_device *dev;
  struct ah_queue *q;
  hipError_t err;

  for (int i = 0; i < 2; i++) {
    memset(&c[i], 0, sizeof(c[i]));
    if (e[i]->array != NULL || e[i]->ptr == NULL) {
      if ((c[i].arr = array_of(e[i]->array)) == NULL)
        return e[i]->ptr == NULL && e[i]->array == NULL ? hipErrorInvalidValue
                                                        : hipErrorInvalidHandle;
      c[i].x = e[i]->x, c[i].y = e[i]->y, c[i].z = e[i]->z;
    } else {
      c[i].ptr = e[i]->ptr;
      c[i].pitch = e[i]->pitch;
      c[i].slice_rows = e[i]->slice_rows;
    }
  }
  if (!ah_memcpy_valid_kind(kind))
    return hipErrorInvalidMemcpyDirection;
  for (int i = 0; i < 2; i++)
    if (c[i].arr == NULL && c[i].pitch < w)
      return hipErrorInvalidPitchValue;
  if ((err = ah_stream_resolve(stream, &dev, &q)) != hipSuccess)
    return err;
  for (int i = 0; i < 2; i++)
    if (c[i].arr != NULL && (!ah_array_box_ok(c[i].arr, c[i].x, c[i].y, c[i].z, w, h, d) ||
                             c[i].arr->dev->backend != dev->backend))
      return hipErrorInvalidValue;
  if (w == 0 || h == 0 || d == 0)
    return out != NULL ? hipErrorInvalidValue : hipSuccess;
  for (int i = 0; i < 2; i++) {
    size_t rows, ext;
    hipMemcpyKind k;
    int pg;

    if (c[i].arr != NULL)
      continue;
    if (d > 1 && c[i].slice_rows < h)
      return hipErrorInvalidValue;
    if (__builtin_mul_overflow(d - 1, d > 1 ? c[i].slice_rows : 0, &rows) ||
        __builtin_add_overflow(rows, h - 1, &rows) ||
        __builtin_mul_overflow(rows, c[i].pitch, &ext) || __builtin_add_overflow(ext, w, &ext))
      return hipErrorInvalidValue;
    /* The allocation map says whether this end is device memory. */
    err = ah_memcpy_check(c[i].ptr, ext, c[i].ptr, 0, hipMemcpyDefault, &k, &pg);
    if (err != hipSuccess)
      return err;
    device[i] = k == hipMemcpyDeviceToDevice;
    pageable |= pg;
  }
  if (kind == hipMemcpyDefault)
    kind = device[1] ? (device[0] ? hipMemcpyDeviceToDevice : hipMemcpyDeviceToHost)
                     : (device[0] ? hipMemcpyHostToDevice : hipMemcpyHostToHost);
  else if (kind == hipMemcpyDeviceToDeviceNoCU)
    kind = hipMemcpyDeviceToDevice;
  return ah_array_copy(dev, q, &c[0], &c[1], w, h, d, kind, sync || pageable, out);
}

/* A copy of count bytes between the byte streams of two ends (an array's rows one after
 * the other from byte offset off, or memory), in boxes of whole rows where it can. */
static hipError_t copy_linear(hipArray_const_t da, size_t doff, void *dptr, hipArray_const_t sa,
                              size_t soff, const void *sptr, size_t count, hipMemcpyKind kind,
                              hipStream_t stream, int sync) {
  struct ah_array *a[2] = {NULL, NULL};
  hipArray_const_t h[2] = {da, sa};
  size_t off[2] = {doff, soff}, total, row[2] = {0, 0};
  char *p[2] = {dptr, (char *)sptr};
  hipError_t err;

  for (int i = 0; i < 2; i++) {
    if (h[i] == NULL && p[i] != NULL)
      continue;
    if ((a[i] = array_of(h[i])) == NULL)
      return h[i] == NULL ? hipErrorInvalidValue : hipErrorInvalidHandle;
    row[i] = a[i]->d.Width * a[i]->elem;
    total = row[i] * a[i]->rows * a[i]->slices;
    if (off[i] > total || count > total - off[i])
      return hipErrorInvalidValue;
  }
  if (count == 0) {
    struct end d0 = {.array = da, .ptr = dptr, .pitch = 1}, s0 = {.array = sa, .ptr = (void *)sptr, .pitch = 1};
    return copy_box(&d0, &s0, 0, 1, 1, kind, stream, sync, NULL);
  }
  while (count > 0) {
    struct end e[2];
    size_t w = count, n = SIZE_MAX;

    for (int i = 0; i < 2; i++) {
      memset(&e[i], 0, sizeof(e[i]));
      if (a[i] == NULL) {
        e[i].ptr = p[i];
        continue;
      }
      size_t r = off[i] / row[i], x = off[i] % row[i];
      e[i].array = h[i];
      e[i].x = x, e[i].y = r % a[i]->rows, e[i].z = r / a[i]->rows;
      if (row[i] - x < w)
        w = row[i] - x;
      /* Whole rows to the end of this slice. */
      n = x != 0 ? 1 : n < a[i]->rows - e[i].y ? n : a[i]->rows - e[i].y;
    }
    /* Several rows at once only when every array end takes whole rows of one size. */
    size_t rows = 1;
    if (n != SIZE_MAX && n > 1 && (a[0] == NULL || w == row[0]) && (a[1] == NULL || w == row[1]) &&
        count / w > 1)
      rows = count / w < n ? count / w : n;
    for (int i = 0; i < 2; i++)
      if (a[i] == NULL)
        e[i].pitch = w, e[i].slice_rows = rows;
    size_t bytes = w * rows;
    err = copy_box(&e[0], &e[1], w, rows, 1, kind, stream, sync && bytes == count, NULL);
    if (err != hipSuccess)
      return err;
    for (int i = 0; i < 2; i++) {
      off[i] += bytes;
      if (p[i] != NULL)
        p[i] += bytes;
    }
    count -= bytes;
  }
  return hipSuccess;
}

static struct end mem_end(const void *ptr, size_t pitch) {
  struct end e = {.ptr = (void *)ptr, .pitch = pitch, .slice_rows = 0};

  return e;
}

static struct end array_end(hipArray_const_t a, size_t x, size_t y) {
  struct end e = {.array = a, .x = x, .y = y};

  return e;
}

/* A NULL memory end is hipErrorInvalidValue; copy_box reads a NULL array as "no array". */
#define MEM_REQUIRED(p) AH_REQUIRE((p) != NULL, hipErrorInvalidValue)
#define ARRAY_REQUIRED(a) AH_REQUIRE((a) != NULL, hipErrorInvalidHandle)

AH_EXPORT hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset,
                                        const void *src, size_t spitch, size_t width,
                                        size_t height, hipMemcpyKind kind) {
  struct end d = array_end(dst, wOffset, hOffset), s = mem_end(src, spitch);

  AH_ENTER();
  ARRAY_REQUIRED(dst);
  MEM_REQUIRED(src);
  AH_RETURN(copy_box(&d, &s, width, height, 1, kind, NULL, 1, NULL));
}

AH_EXPORT hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t wOffset, size_t hOffset,
                                             const void *src, size_t spitch, size_t width,
                                             size_t height, hipMemcpyKind kind,
                                             hipStream_t stream) {
  struct end d = array_end(dst, wOffset, hOffset), s = mem_end(src, spitch);

  AH_ENTER();
  ARRAY_REQUIRED(dst);
  MEM_REQUIRED(src);
  AH_RETURN(copy_box(&d, &s, width, height, 1, kind, stream, 0, NULL));
}

AH_EXPORT hipError_t hipMemcpy2DFromArray(void *dst, size_t dpitch, hipArray_const_t src,
                                          size_t wOffset, size_t hOffset, size_t width,
                                          size_t height, hipMemcpyKind kind) {
  struct end d = mem_end(dst, dpitch), s = array_end(src, wOffset, hOffset);

  AH_ENTER();
  MEM_REQUIRED(dst);
  ARRAY_REQUIRED(src);
  AH_RETURN(copy_box(&d, &s, width, height, 1, kind, NULL, 1, NULL));
}

AH_EXPORT hipError_t hipMemcpy2DFromArrayAsync(void *dst, size_t dpitch, hipArray_const_t src,
                                               size_t wOffset, size_t hOffset, size_t width,
                                               size_t height, hipMemcpyKind kind,
                                               hipStream_t stream) {
  struct end d = mem_end(dst, dpitch), s = array_end(src, wOffset, hOffset);

  AH_ENTER();
  MEM_REQUIRED(dst);
  ARRAY_REQUIRED(src);
  AH_RETURN(copy_box(&d, &s, width, height, 1, kind, stream, 0, NULL));
}

AH_EXPORT hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst,
                                             size_t hOffsetDst, hipArray_const_t src,
                                             size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                             size_t height, hipMemcpyKind kind) {
  struct end d = array_end(dst, wOffsetDst, hOffsetDst), s = array_end(src, wOffsetSrc, hOffsetSrc);

  AH_ENTER();
  ARRAY_REQUIRED(dst);
  ARRAY_REQUIRED(src);
  AH_RETURN(copy_box(&d, &s, width, height, 1, kind, NULL, 1, NULL));
}

/* The byte offset of (wOffset bytes, hOffset rows) in an array's byte stream. */
static size_t offset_of(hipArray_const_t array, size_t wOffset, size_t hOffset) {
  struct ah_array *a = array_of(array);
  size_t off;

  if (a == NULL || wOffset > a->d.Width * a->elem ||
      __builtin_mul_overflow(hOffset, (size_t)a->d.Width * a->elem, &off) ||
      __builtin_add_overflow(off, wOffset, &off))
    return SIZE_MAX;
  return off;
}

AH_EXPORT hipError_t hipMemcpyToArray(hipArray_t dst, size_t wOffset, size_t hOffset,
                                      const void *src, size_t count, hipMemcpyKind kind) {
  AH_ENTER();
  ARRAY_REQUIRED(dst);
  MEM_REQUIRED(src);
  AH_RETURN(copy_linear(dst, offset_of(dst, wOffset, hOffset), NULL, NULL, 0, src, count, kind,
                        NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyFromArray(void *dst, hipArray_const_t srcArray, size_t wOffset,
                                        size_t hOffset, size_t count, hipMemcpyKind kind) {
  AH_ENTER();
  MEM_REQUIRED(dst);
  ARRAY_REQUIRED(srcArray);
  AH_RETURN(copy_linear(NULL, 0, dst, srcArray, offset_of(srcArray, wOffset, hOffset), NULL,
                        count, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyAtoH(void *dst, hipArray_t srcArray, size_t srcOffset,
                                   size_t count) {
  AH_ENTER();
  MEM_REQUIRED(dst);
  ARRAY_REQUIRED(srcArray);
  AH_RETURN(copy_linear(NULL, 0, dst, srcArray, srcOffset, NULL, count, hipMemcpyDeviceToHost,
                        NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyHtoA(hipArray_t dstArray, size_t dstOffset, const void *srcHost,
                                   size_t count) {
  AH_ENTER();
  ARRAY_REQUIRED(dstArray);
  MEM_REQUIRED(srcHost);
  AH_RETURN(copy_linear(dstArray, dstOffset, NULL, NULL, 0, srcHost, count,
                        hipMemcpyHostToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyAtoHAsync(void *dstHost, hipArray_t srcArray, size_t srcOffset,
                                        size_t ByteCount, hipStream_t stream) {
  AH_ENTER();
  MEM_REQUIRED(dstHost);
  ARRAY_REQUIRED(srcArray);
  AH_RETURN(copy_linear(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,
                        hipMemcpyDeviceToHost, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyHtoAAsync(hipArray_t dstArray, size_t dstOffset,
                                        const void *srcHost, size_t ByteCount,
                                        hipStream_t stream) {
  AH_ENTER();
  ARRAY_REQUIRED(dstArray);
  MEM_REQUIRED(srcHost);
  AH_RETURN(copy_linear(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,
                        hipMemcpyHostToDevice, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyAtoD(hipDeviceptr_t dstDevice, hipArray_t srcArray,
                                   size_t srcOffset, size_t ByteCount) {
  AH_ENTER();
  MEM_REQUIRED(dstDevice);
  ARRAY_REQUIRED(srcArray);
  AH_RETURN(copy_linear(NULL, 0, dstDevice, srcArray, srcOffset, NULL, ByteCount,
                        hipMemcpyDeviceToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyDtoA(hipArray_t dstArray, size_t dstOffset,
                                   hipDeviceptr_t srcDevice, size_t ByteCount) {
  AH_ENTER();
  ARRAY_REQUIRED(dstArray);
  MEM_REQUIRED(srcDevice);
  AH_RETURN(copy_linear(dstArray, dstOffset, NULL, NULL, 0, srcDevice, ByteCount,
                        hipMemcpyDeviceToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyAtoA(hipArray_t dstArray, size_t dstOffset, hipArray_t srcArray,
                                   size_t srcOffset, size_t ByteCount) {
  AH_ENTER();
  ARRAY_REQUIRED(dstArray);
  ARRAY_REQUIRED(srcArray);
  AH_RETURN(copy_linear(dstArray, dstOffset, NULL, srcArray, srcOffset, NULL, ByteCount,
                        hipMemcpyDeviceToDevice, NULL, 1));
}

/* ---- the array sides of hip_memcpy3d.c's copies --------------------------- */

/* One end of hipMemcpy3D: array (x in elements) or pitched memory at pos (x in bytes);
 * 0 for memory without a pointer. */
static int end_3d(hipArray_const_t array, hipPos pos, const hipPitchedPtr *mem, size_t elem,
                  struct end *e) {
  if (array != NULL) {
    *e = (struct end){.array = array, .x = pos.x * elem, .y = pos.y, .z = pos.z};
    return 1;
  }
  if (mem->ptr == NULL)
    return 0;
  *e = (struct end){.ptr = (char *)mem->ptr + (pos.z * mem->ysize + pos.y) * mem->pitch + pos.x,
                    .pitch = mem->pitch, .slice_rows = mem->ysize};
  return 1;
}

/* hipMemcpy3D with an array: positions and width of an array end are in elements (of the
 * array's element size), the memory end's in bytes. */
hipError_t ah_memcpy_3d_array(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                              struct ah_cmd *out) {
  struct ah_array *sa = NULL, *da = NULL;
  struct end d, s;
  size_t elem, w;

  /* A handle that is no array: hipErrorInvalidValue, as for the rest of the parameters. */
  if (p->srcArray != NULL && (sa = array_of(p->srcArray)) == NULL)
    return hipErrorInvalidValue;
  if (p->dstArray != NULL && (da = array_of(p->dstArray)) == NULL)
    return hipErrorInvalidValue;
  elem = da != NULL ? da->elem : sa->elem;
  if (sa != NULL && da != NULL && sa->elem != da->elem)
    return hipErrorInvalidValue;
  if (__builtin_mul_overflow(p->extent.width, elem, &w))
    return hipErrorInvalidValue;
  if (!end_3d(p->dstArray, p->dstPos, &p->dstPtr, elem, &d) ||
      !end_3d(p->srcArray, p->srcPos, &p->srcPtr, elem, &s))
    return hipErrorInvalidValue;
  /* A height or depth of 0 is one row or slice for 1D and 2D arrays (HIP code passes
   * both 0 and 1). */
  return copy_box(&d, &s, w, p->extent.height != 0 ? p->extent.height : 1,
                  p->extent.depth != 0 ? p->extent.depth : 1, p->kind, stream, sync, out);
}

/* hipMemcpyParam2D and hipDrvMemcpy3D with an array end (hipMemoryTypeArray): x in bytes. */
hipError_t ah_memcpy_drv_array(const HIP_MEMCPY3D *c, hipStream_t stream, int sync) {
  struct end e[2];
  const void *ptr[2] = {c->dstMemoryType == hipMemoryTypeHost ? c->dstHost : c->dstDevice,
                        c->srcMemoryType == hipMemoryTypeHost ? c->srcHost : c->srcDevice};
  hipMemoryType type[2] = {c->dstMemoryType, c->srcMemoryType};
  hipArray_t arr[2] = {c->dstArray, c->srcArray};
  size_t x[2] = {c->dstXInBytes, c->srcXInBytes}, y[2] = {c->dstY, c->srcY},
         z[2] = {c->dstZ, c->srcZ}, pitch[2] = {c->dstPitch, c->srcPitch},
         height[2] = {c->dstHeight, c->srcHeight};
  hipMemcpyKind kind;
  int host[2];

  if (c->srcLOD != 0 || c->dstLOD != 0)
    return hipErrorInvalidValue;
  for (int i = 0; i < 2; i++) {
    host[i] = type[i] == hipMemoryTypeHost;
    if (type[i] == hipMemoryTypeArray) {
      if (array_of(arr[i]) == NULL)
        return hipErrorInvalidValue;
      e[i] = (struct end){.array = arr[i], .x = x[i], .y = y[i], .z = z[i]};
      continue;
    }
    if (type[i] != hipMemoryTypeHost && type[i] != hipMemoryTypeDevice &&
        type[i] != hipMemoryTypeManaged && type[i] != hipMemoryTypeUnified)
      return hipErrorInvalidValue;
    if (ptr[i] == NULL)
      return hipErrorInvalidValue;
    e[i] = (struct end){.ptr = (char *)ptr[i] + (z[i] * height[i] + y[i]) * pitch[i] + x[i],
                        .pitch = pitch[i], .slice_rows = height[i]};
  }
  if (type[0] == hipMemoryTypeManaged || type[0] == hipMemoryTypeUnified ||
      type[1] == hipMemoryTypeManaged || type[1] == hipMemoryTypeUnified)
    kind = hipMemcpyDefault;
  else
    kind = host[1] ? (host[0] ? hipMemcpyHostToHost : hipMemcpyHostToDevice)
                   : (host[0] ? hipMemcpyDeviceToHost : hipMemcpyDeviceToDevice);
  return copy_box(&e[0], &e[1], c->WidthInBytes, c->Height, c->Depth != 0 ? c->Depth : 1, kind,
                  stream, sync, NULL);
}
