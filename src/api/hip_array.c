/* SPDX-License-Identifier: MIT */
/* Arrays and mipmapped arrays: hipMallocArray, hipMalloc3DArray, hipArrayCreate,
 * hipArray3DCreate, hipMallocMipmappedArray, hipMipmappedArrayCreate, their getters and
 * frees, and the copies naming an array (hipMemcpy2DToArray ... hipMemcpyAtoA; the
 * array sides of hipMemcpy3D, hipMemcpyParam2D and hipDrvMemcpy3D come through
 * hip_memcpy3d.c). This file checks arguments with HIP's codes; the work is
 * src/core/array.c's. A box of an array is in bytes along x (elements times the element
 * size), rows along y and slices (or layers) along z. docs/textures.md. */
#include "array.h"

#include <limits.h>

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

static hipError_t create(hipArray_t *out, const HIP_ARRAY3D_DESCRIPTOR *d) {
  struct ah_device *dev = ah_current_device();
  struct ah_array *a;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if ((err = shape_ok(d)) != hipSuccess)
    return err;
  if (!ah_array_fits(&dev->props, AH_ARRAY_TEXTURE, d))
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

AH_EXPORT hipError_t hipFreeArray(hipArray_t array) {
  AH_ENTER();
  AH_RETURN(ah_array_free(array));
}

AH_EXPORT hipError_t hipArrayDestroy(hipArray_t array) {
  AH_ENTER();
  AH_RETURN(ah_array_free(array));
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
  /* Level 0 within the device's texture limits, as an array (a size of SIZE_MAX looped
   * here: a shift by 64 bits is a shift by 0 on x86-64). */
  if (!ah_array_fits(&dev->props, AH_ARRAY_TEXTURE, d))
    return hipErrorInvalidValue;
  if (!(d->Flags & (hipArrayLayered | hipArrayCubemap)) && d->Depth > largest)
    largest = d->Depth;
  while (most < sizeof(largest) * CHAR_BIT && (largest >> most) != 0)
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

AH_EXPORT hipError_t hipFreeMipmappedArray(hipMipmappedArray_t m) {
  AH_ENTER();
  AH_RETURN(ah_mipmap_free(m));
}

AH_EXPORT hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t m) {
  AH_ENTER();
  AH_RETURN(ah_mipmap_free(m));
}

static hipError_t level_of(hipArray_t *out, hipMipmappedArray_const_t mm, unsigned level) {
  struct ah_mipmap *m = mipmap_of(mm);

  if (out == NULL)
    return hipErrorInvalidValue;
  if (m == NULL) /* NULL or unknown mipmapped array: AMD's code */
    return hipErrorInvalidHandle;
  if (level >= m->levels)
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

static struct ah_array_end mem_end(const void *ptr, size_t pitch) {
  struct ah_array_end e = {.ptr = (void *)ptr, .pitch = pitch, .slice_rows = 0};

  return e;
}

static struct ah_array_end array_end(hipArray_const_t a, size_t x, size_t y) {
  struct ah_array_end e = {.array = a, .x = x, .y = y};

  return e;
}

/* A NULL memory end is hipErrorInvalidValue; core reads a NULL array as "no array". */
#define MEM_REQUIRED(p) AH_REQUIRE((p) != NULL, hipErrorInvalidValue)
#define ARRAY_REQUIRED(a) AH_REQUIRE((a) != NULL, hipErrorInvalidHandle)

AH_EXPORT hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset,
                                        const void *src, size_t spitch, size_t width,
                                        size_t height, hipMemcpyKind kind) {
  struct ah_array_end d = array_end(dst, wOffset, hOffset), s = mem_end(src, spitch);

  AH_ENTER();
  ARRAY_REQUIRED(dst);
  MEM_REQUIRED(src);
  AH_RETURN(ah_array_copy_box(&d, &s, width, height, 1, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t wOffset, size_t hOffset,
                                             const void *src, size_t spitch, size_t width,
                                             size_t height, hipMemcpyKind kind,
                                             hipStream_t stream) {
  struct ah_array_end d = array_end(dst, wOffset, hOffset), s = mem_end(src, spitch);

  AH_ENTER();
  ARRAY_REQUIRED(dst);
  MEM_REQUIRED(src);
  AH_RETURN(ah_array_copy_box(&d, &s, width, height, 1, kind, stream, 0));
}

AH_EXPORT hipError_t hipMemcpy2DFromArray(void *dst, size_t dpitch, hipArray_const_t src,
                                          size_t wOffset, size_t hOffset, size_t width,
                                          size_t height, hipMemcpyKind kind) {
  struct ah_array_end d = mem_end(dst, dpitch), s = array_end(src, wOffset, hOffset);

  AH_ENTER();
  MEM_REQUIRED(dst);
  ARRAY_REQUIRED(src);
  AH_RETURN(ah_array_copy_box(&d, &s, width, height, 1, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpy2DFromArrayAsync(void *dst, size_t dpitch, hipArray_const_t src,
                                               size_t wOffset, size_t hOffset, size_t width,
                                               size_t height, hipMemcpyKind kind,
                                               hipStream_t stream) {
  struct ah_array_end d = mem_end(dst, dpitch), s = array_end(src, wOffset, hOffset);

  AH_ENTER();
  MEM_REQUIRED(dst);
  ARRAY_REQUIRED(src);
  AH_RETURN(ah_array_copy_box(&d, &s, width, height, 1, kind, stream, 0));
}

AH_EXPORT hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst,
                                             size_t hOffsetDst, hipArray_const_t src,
                                             size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                             size_t height, hipMemcpyKind kind) {
  struct ah_array_end d = array_end(dst, wOffsetDst, hOffsetDst),
                      s = array_end(src, wOffsetSrc, hOffsetSrc);

  AH_ENTER();
  ARRAY_REQUIRED(dst);
  ARRAY_REQUIRED(src);
  AH_RETURN(ah_array_copy_box(&d, &s, width, height, 1, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyToArray(hipArray_t dst, size_t wOffset, size_t hOffset,
                                      const void *src, size_t count, hipMemcpyKind kind) {
  AH_ENTER();
  ARRAY_REQUIRED(dst);
  MEM_REQUIRED(src);
  AH_RETURN(ah_array_copy_linear(dst, ah_array_offset(dst, wOffset, hOffset), NULL, NULL, 0, src,
                                 count, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyFromArray(void *dst, hipArray_const_t srcArray, size_t wOffset,
                                        size_t hOffset, size_t count, hipMemcpyKind kind) {
  AH_ENTER();
  MEM_REQUIRED(dst);
  ARRAY_REQUIRED(srcArray);
  AH_RETURN(ah_array_copy_linear(NULL, 0, dst, srcArray,
                                 ah_array_offset(srcArray, wOffset, hOffset), NULL, count, kind,
                                 NULL, 1));
}

/* The driver-style array copies (hipMemcpyAtoH, HtoA, AtoD, DtoA, AtoA and the async forms)
 * copy within an array's first row, as AMD's runtime does (a region of count x 1 x 1 from the
 * offset; CUDA defines them for 1D arrays); a NULL array is an invalid value there. */
static hipError_t first_row(hipArray_const_t h, size_t off, size_t count) {
  struct ah_array *a;
  size_t row;

  if (h == NULL)
    return hipErrorInvalidValue;
  if ((a = array_of(h)) == NULL)
    return hipErrorInvalidHandle;
  row = (size_t)a->d.Width * a->elem;
  if (off > row || count > row - off)
    return hipErrorInvalidValue;
  return hipSuccess;
}

#define ROW_REQUIRED(a, off, n) AH_REQUIRE_OK(first_row((a), (off), (n)))

AH_EXPORT hipError_t hipMemcpyAtoH(void *dst, hipArray_t srcArray, size_t srcOffset,
                                   size_t count) {
  AH_ENTER();
  MEM_REQUIRED(dst);
  ROW_REQUIRED(srcArray, srcOffset, count);
  AH_RETURN(ah_array_copy_linear(NULL, 0, dst, srcArray, srcOffset, NULL, count,
                                 hipMemcpyDeviceToHost, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyHtoA(hipArray_t dstArray, size_t dstOffset, const void *srcHost,
                                   size_t count) {
  AH_ENTER();
  ROW_REQUIRED(dstArray, dstOffset, count);
  MEM_REQUIRED(srcHost);
  AH_RETURN(ah_array_copy_linear(dstArray, dstOffset, NULL, NULL, 0, srcHost, count,
                                 hipMemcpyHostToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyAtoHAsync(void *dstHost, hipArray_t srcArray, size_t srcOffset,
                                        size_t ByteCount, hipStream_t stream) {
  AH_ENTER();
  MEM_REQUIRED(dstHost);
  ROW_REQUIRED(srcArray, srcOffset, ByteCount);
  AH_RETURN(ah_array_copy_linear(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,
                                 hipMemcpyDeviceToHost, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyHtoAAsync(hipArray_t dstArray, size_t dstOffset,
                                        const void *srcHost, size_t ByteCount,
                                        hipStream_t stream) {
  AH_ENTER();
  ROW_REQUIRED(dstArray, dstOffset, ByteCount);
  MEM_REQUIRED(srcHost);
  AH_RETURN(ah_array_copy_linear(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,
                                 hipMemcpyHostToDevice, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyAtoD(hipDeviceptr_t dstDevice, hipArray_t srcArray,
                                   size_t srcOffset, size_t ByteCount) {
  AH_ENTER();
  MEM_REQUIRED(dstDevice);
  ROW_REQUIRED(srcArray, srcOffset, ByteCount);
  AH_RETURN(ah_array_copy_linear(NULL, 0, dstDevice, srcArray, srcOffset, NULL, ByteCount,
                                 hipMemcpyDeviceToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyDtoA(hipArray_t dstArray, size_t dstOffset,
                                   hipDeviceptr_t srcDevice, size_t ByteCount) {
  AH_ENTER();
  ROW_REQUIRED(dstArray, dstOffset, ByteCount);
  MEM_REQUIRED(srcDevice);
  AH_RETURN(ah_array_copy_linear(dstArray, dstOffset, NULL, NULL, 0, srcDevice, ByteCount,
                                 hipMemcpyDeviceToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyAtoA(hipArray_t dstArray, size_t dstOffset, hipArray_t srcArray,
                                   size_t srcOffset, size_t ByteCount) {
  AH_ENTER();
  ROW_REQUIRED(dstArray, dstOffset, ByteCount);
  ROW_REQUIRED(srcArray, srcOffset, ByteCount);
  AH_RETURN(ah_array_copy_linear(dstArray, dstOffset, NULL, srcArray, srcOffset, NULL, ByteCount,
                                 hipMemcpyDeviceToDevice, NULL, 1));
}
