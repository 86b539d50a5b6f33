/* SPDX-License-Identifier: MIT */
/* Arrays (hipMallocArray and the rest): NOT IMPLEMENTED. anyhip makes no arrays yet and the
 * CPU device reports hipDeviceAttributeImageSupport 0, so code that asks first (as ROCm's unit
 * suite does) skips them. Each entry point checks what it can without an array (outputs,
 * descriptors, flags, sizes) with HIP's codes, then returns hipErrorNotSupported. An array
 * handle can never be valid, so calls that take one refuse it with hipErrorInvalidValue, as
 * hipMemcpy3D does (docs/memory.md). hipCreateChannelDesc is real. */
#include "internal.h"

#define AH_ARRAY_FLAGS \
  (hipArrayLayered | hipArraySurfaceLoadStore | hipArrayCubemap | hipArrayTextureGather)

AH_EXPORT hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,
                                                    hipChannelFormatKind f) {
  hipChannelFormatDesc d = {x, y, z, w, f};

  return d;
}

static int desc_ok(const hipChannelFormatDesc *d) {
  return d != NULL && (unsigned)d->f <= (unsigned)hipChannelFormatKindNone && d->x >= 0 &&
         d->y >= 0 && d->z >= 0 && d->w >= 0;
}

static int format_ok(hipArray_Format f) {
  switch (f) {
  case HIP_AD_FORMAT_UNSIGNED_INT8:
  case HIP_AD_FORMAT_UNSIGNED_INT16:
  case HIP_AD_FORMAT_UNSIGNED_INT32:
  case HIP_AD_FORMAT_SIGNED_INT8:
  case HIP_AD_FORMAT_SIGNED_INT16:
  case HIP_AD_FORMAT_SIGNED_INT32:
  case HIP_AD_FORMAT_HALF:
  case HIP_AD_FORMAT_FLOAT:
    return 1;
  }
  return 0;
}

AH_EXPORT hipError_t hipMallocArray(hipArray_t *array, const hipChannelFormatDesc *desc,
                                    size_t width, size_t height, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(array != NULL && desc_ok(desc) && width != 0, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)AH_ARRAY_FLAGS) == 0, hipErrorInvalidValue);
  (void)height;
  *array = NULL;
  return ah_fail(hipErrorNotSupported, __func__, "arrays are not implemented");
}

AH_EXPORT hipError_t hipMalloc3DArray(hipArray_t *array, const struct hipChannelFormatDesc *desc,
                                      struct hipExtent extent, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(array != NULL && desc_ok(desc) && extent.width != 0, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)AH_ARRAY_FLAGS) == 0, hipErrorInvalidValue);
  *array = NULL;
  return ah_fail(hipErrorNotSupported, __func__, "arrays are not implemented");
}

AH_EXPORT hipError_t hipArrayCreate(hipArray_t *pHandle, const HIP_ARRAY_DESCRIPTOR *d) {
  AH_ENTER();
  AH_REQUIRE(pHandle != NULL && d != NULL && d->Width != 0 && format_ok(d->Format),
             hipErrorInvalidValue);
  AH_REQUIRE(d->NumChannels == 1 || d->NumChannels == 2 || d->NumChannels == 4,
             hipErrorInvalidValue);
  *pHandle = NULL;
  return ah_fail(hipErrorNotSupported, __func__, "arrays are not implemented");
}

AH_EXPORT hipError_t hipArray3DCreate(hipArray_t *array, const HIP_ARRAY3D_DESCRIPTOR *d) {
  AH_ENTER();
  AH_REQUIRE(array != NULL && d != NULL && d->Width != 0 && format_ok(d->Format),
             hipErrorInvalidValue);
  AH_REQUIRE(d->NumChannels == 1 || d->NumChannels == 2 || d->NumChannels == 4,
             hipErrorInvalidValue);
  AH_REQUIRE((d->Flags & ~(unsigned)AH_ARRAY_FLAGS) == 0, hipErrorInvalidValue);
  *array = NULL;
  return ah_fail(hipErrorNotSupported, __func__, "arrays are not implemented");
}

/* No array exists, so every handle is foreign. */
AH_EXPORT hipError_t hipFreeArray(hipArray_t array) {
  AH_ENTER();
  (void)array;
  return ah_fail(hipErrorInvalidValue, __func__, "no such array");
}

AH_EXPORT hipError_t hipArrayDestroy(hipArray_t array) {
  AH_ENTER();
  (void)array;
  return ah_fail(hipErrorInvalidValue, __func__, "no such array");
}

AH_EXPORT hipError_t hipArrayGetInfo(hipChannelFormatDesc *desc, hipExtent *extent,
                                     unsigned int *flags, hipArray_t array) {
  AH_ENTER();
  (void)desc, (void)extent, (void)flags, (void)array;
  return ah_fail(hipErrorInvalidValue, __func__, "no such array");
}

AH_EXPORT hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR *d, hipArray_t array) {
  AH_ENTER();
  (void)d, (void)array;
  return ah_fail(hipErrorInvalidValue, __func__, "no such array");
}

AH_EXPORT hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR *d, hipArray_t array) {
  AH_ENTER();
  (void)d, (void)array;
  return ah_fail(hipErrorInvalidValue, __func__, "no such array");
}

AH_EXPORT hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *m,
                                             const struct hipChannelFormatDesc *desc,
                                             struct hipExtent extent, unsigned int numLevels,
                                             unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(m != NULL && desc_ok(desc) && extent.width != 0 && numLevels != 0,
             hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)AH_ARRAY_FLAGS) == 0, hipErrorInvalidValue);
  *m = NULL;
  return ah_fail(hipErrorNotSupported, __func__, "arrays are not implemented");
}

AH_EXPORT hipError_t hipFreeMipmappedArray(hipMipmappedArray_t m) {
  AH_ENTER();
  (void)m;
  return ah_fail(hipErrorInvalidValue, __func__, "no such array");
}

AH_EXPORT hipError_t hipGetMipmappedArrayLevel(hipArray_t *levelArray,
                                               hipMipmappedArray_const_t m, unsigned int level) {
  AH_ENTER();
  (void)level;
  AH_REQUIRE(levelArray != NULL && m != NULL, hipErrorInvalidValue);
  return ah_fail(hipErrorInvalidValue, __func__, "no such array");
}

/* Copies to or from an array: there is none to copy with. */
#define NO_ARRAY(fn, params)                                   \
  AH_EXPORT hipError_t fn params {                             \
    AH_ENTER();                                                \
    return ah_fail(hipErrorInvalidValue, __func__, "no such array"); \
  }
NO_ARRAY(hipMemcpy2DToArray, (hipArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t spitch, size_t width, size_t height, hipMemcpyKind kind))
NO_ARRAY(hipMemcpy2DToArrayAsync,
         (hipArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
          size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream))
NO_ARRAY(hipMemcpy2DFromArray, (void *dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t width, size_t height, hipMemcpyKind kind))
NO_ARRAY(hipMemcpy2DFromArrayAsync,
         (void *dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset,
          size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream))
NO_ARRAY(hipMemcpyToArray, (hipArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                            size_t count, hipMemcpyKind kind))
NO_ARRAY(hipMemcpyFromArray, (void *dst, hipArray_const_t srcArray, size_t wOffset,
                              size_t hOffset, size_t count, hipMemcpyKind kind))
NO_ARRAY(hipMemcpyAtoH, (void *dst, hipArray_t srcArray, size_t srcOffset, size_t count))
NO_ARRAY(hipMemcpyHtoA, (hipArray_t dstArray, size_t dstOffset, const void *srcHost,
                         size_t count))
#undef NO_ARRAY
