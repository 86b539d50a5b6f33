/* SPDX-License-Identifier: MIT */
/* Texture and surface objects: hipCreateTextureObject and hipTexObjectCreate (the runtime's
 * and the driver's spelling of the same thing), their getters and destroys, and
 * hipCreateSurfaceObject / hipDestroySurfaceObject. Arguments are checked here; both
 * spellings become the driver's (HIP_RESOURCE_DESC, HIP_TEXTURE_DESC) for
 * src/core/texture.c, which also keeps the runtime spelling for the getters.
 * docs/textures.md. */
#include "internal.h"
#include "array.h"

#include <string.h>

static struct ah_array *array_of(hipArray_const_t a) {
  return ah_object_cast(a, AH_KIND_ARRAY);
}

static struct ah_mipmap *mipmap_of(hipMipmappedArray_const_t m) {
  return ah_object_cast(m, AH_KIND_MIPMAP);
}

/* ---- the two spellings ---------------------------------------------------- */

static hipError_t res_to_driver(const hipResourceDesc *r, HIP_RESOURCE_DESC *d) {
  unsigned channels;
  hipArray_Format f;

  memset(d, 0, sizeof(*d));
  d->resType = (HIPresourcetype)r->resType;
  switch (r->resType) {
  case hipResourceTypeArray:
    d->res.array.hArray = r->res.array.array;
    return hipSuccess;
  case hipResourceTypeMipmappedArray:
    d->res.mipmap.hMipmappedArray = r->res.mipmap.mipmap;
    return hipSuccess;
  case hipResourceTypeLinear:
    if (ah_array_format_of(&r->res.linear.desc, &f, &channels) != hipSuccess)
      return hipErrorInvalidValue;
    d->res.linear.devPtr = r->res.linear.devPtr;
    d->res.linear.format = f;
    d->res.linear.numChannels = channels;
    d->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
    return hipSuccess;
  case hipResourceTypePitch2D:
    if (ah_array_format_of(&r->res.pitch2D.desc, &f, &channels) != hipSuccess)
      return hipErrorInvalidValue;
    d->res.pitch2D.devPtr = r->res.pitch2D.devPtr;
    d->res.pitch2D.format = f;
    d->res.pitch2D.numChannels = channels;
    d->res.pitch2D.width = r->res.pitch2D.width;
    d->res.pitch2D.height = r->res.pitch2D.height;
    d->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
    return hipSuccess;
  }
  return hipErrorInvalidValue;
}

static void res_to_runtime(const HIP_RESOURCE_DESC *d, hipResourceDesc *r) {
  memset(r, 0, sizeof(*r));
  r->resType = (hipResourceType)d->resType;
  switch (d->resType) {
  case HIP_RESOURCE_TYPE_ARRAY:
    r->res.array.array = d->res.array.hArray;
    break;
  case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    r->res.mipmap.mipmap = d->res.mipmap.hMipmappedArray;
    break;
  case HIP_RESOURCE_TYPE_LINEAR:
    r->res.linear.devPtr = d->res.linear.devPtr;
    r->res.linear.desc = ah_array_channel_desc(d->res.linear.format, d->res.linear.numChannels);
    r->res.linear.sizeInBytes = d->res.linear.sizeInBytes;
    break;
  default:
    r->res.pitch2D.devPtr = d->res.pitch2D.devPtr;
    r->res.pitch2D.desc =
        ah_array_channel_desc(d->res.pitch2D.format, d->res.pitch2D.numChannels);
    r->res.pitch2D.width = d->res.pitch2D.width;
    r->res.pitch2D.height = d->res.pitch2D.height;
    r->res.pitch2D.pitchInBytes = d->res.pitch2D.pitchInBytes;
  }
}

static void tex_to_driver(const hipTextureDesc *t, HIP_TEXTURE_DESC *d) {
  memset(d, 0, sizeof(*d));
  for (int i = 0; i < 3; i++)
    d->addressMode[i] = (HIPaddress_mode)t->addressMode[i];
  d->filterMode = (HIPfilter_mode)t->filterMode;
  d->flags = (t->readMode == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0) |
             (t->normalizedCoords ? HIP_TRSF_NORMALIZED_COORDINATES : 0) |
             (t->sRGB ? HIP_TRSF_SRGB : 0);
  d->maxAnisotropy = t->maxAnisotropy;
  d->mipmapFilterMode = (HIPfilter_mode)t->mipmapFilterMode;
  d->mipmapLevelBias = t->mipmapLevelBias;
  d->minMipmapLevelClamp = t->minMipmapLevelClamp;
  d->maxMipmapLevelClamp = t->maxMipmapLevelClamp;
  memcpy(d->borderColor, t->borderColor, sizeof(d->borderColor));
}

static void tex_to_runtime(const HIP_TEXTURE_DESC *d, hipTextureDesc *t) {
  memset(t, 0, sizeof(*t));
  for (int i = 0; i < 3; i++)
    t->addressMode[i] = (enum hipTextureAddressMode)d->addressMode[i];
  t->filterMode = (enum hipTextureFilterMode)d->filterMode;
  t->readMode = (d->flags & HIP_TRSF_READ_AS_INTEGER) ? hipReadModeElementType
                                                      : hipReadModeNormalizedFloat;
  t->sRGB = (d->flags & HIP_TRSF_SRGB) != 0;
  t->normalizedCoords = (d->flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0;
  t->maxAnisotropy = d->maxAnisotropy;
  t->mipmapFilterMode = (enum hipTextureFilterMode)d->mipmapFilterMode;
  t->mipmapLevelBias = d->mipmapLevelBias;
  t->minMipmapLevelClamp = d->minMipmapLevelClamp;
  t->maxMipmapLevelClamp = d->maxMipmapLevelClamp;
  memcpy(t->borderColor, d->borderColor, sizeof(t->borderColor));
}

/* ---- checks --------------------------------------------------------------- */

/* Memory a texture reads starts at the device's texture alignment, as HIP and CUDA ask. */
static int aligned(const struct ah_device *dev, const void *p) {
  size_t a = dev->props.textureAlignment;

  return a == 0 || (uintptr_t)p % a == 0;
}

/* The device a resource lives on (the current one for memory), or an error. */
static hipError_t check_res(const HIP_RESOURCE_DESC *d, struct ah_device **dev) {
  unsigned elem;

  *dev = ah_current_device();
  if (*dev == NULL)
    return hipErrorNoDevice;
  switch (d->resType) {
  case HIP_RESOURCE_TYPE_ARRAY: {
    struct ah_array *a = array_of(d->res.array.hArray);

    if (a == NULL)
      return hipErrorInvalidValue;
    *dev = a->dev;
    return hipSuccess;
  }
  case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
    struct ah_mipmap *m = mipmap_of(d->res.mipmap.hMipmappedArray);

    if (m == NULL)
      return hipErrorInvalidValue;
    *dev = m->dev;
    return hipSuccess;
  }
  case HIP_RESOURCE_TYPE_LINEAR:
    elem = ah_array_format_bytes(d->res.linear.format) * d->res.linear.numChannels;
    if (d->res.linear.devPtr == NULL || elem == 0 || d->res.linear.sizeInBytes < elem ||
        (d->res.linear.numChannels != 1 && d->res.linear.numChannels != 2 &&
         d->res.linear.numChannels != 4))
      return hipErrorInvalidValue;
    if ((*dev)->props.maxTexture1DLinear > 0 &&
        d->res.linear.sizeInBytes / elem > (size_t)(*dev)->props.maxTexture1DLinear)
      return hipErrorInvalidValue;
    return aligned(*dev, d->res.linear.devPtr) ? hipSuccess : hipErrorInvalidValue;
  case HIP_RESOURCE_TYPE_PITCH2D:
    elem = ah_array_format_bytes(d->res.pitch2D.format) * d->res.pitch2D.numChannels;
    if (d->res.pitch2D.devPtr == NULL || elem == 0 || d->res.pitch2D.width == 0 ||
        d->res.pitch2D.height == 0 ||
        (d->res.pitch2D.numChannels != 1 && d->res.pitch2D.numChannels != 2 &&
         d->res.pitch2D.numChannels != 4) ||
        d->res.pitch2D.pitchInBytes / elem < d->res.pitch2D.width)
      return hipErrorInvalidValue;
    /* The device's limits for pitched 2D textures: width, height, pitch in bytes. */
    if ((*dev)->props.maxTexture2DLinear[0] > 0 &&
        (d->res.pitch2D.width > (size_t)(*dev)->props.maxTexture2DLinear[0] ||
         d->res.pitch2D.height > (size_t)(*dev)->props.maxTexture2DLinear[1] ||
         d->res.pitch2D.pitchInBytes > (size_t)(*dev)->props.maxTexture2DLinear[2]))
      return hipErrorInvalidValue;
    return aligned(*dev, d->res.pitch2D.devPtr) ? hipSuccess : hipErrorInvalidValue;
  }
  return hipErrorInvalidValue;
}

static int tex_ok(const HIP_TEXTURE_DESC *t) {
  for (int i = 0; i < 3; i++)
    if ((unsigned)t->addressMode[i] > HIP_TR_ADDRESS_MODE_BORDER)
      return 0;
  return (unsigned)t->filterMode <= HIP_TR_FILTER_MODE_LINEAR &&
         (unsigned)t->mipmapFilterMode <= HIP_TR_FILTER_MODE_LINEAR;
}

static hipError_t create(hipTextureObject_t *out, const HIP_RESOURCE_DESC *res,
                         const HIP_TEXTURE_DESC *tex, const HIP_RESOURCE_VIEW_DESC *view,
                         const hipResourceDesc *rres, const hipTextureDesc *rtex) {
  struct ah_device *dev;
  uint64_t h;
  hipError_t err;

  if ((err = check_res(res, &dev)) != hipSuccess)
    return err;
  /* A view of linear memory is refused (AMD's runtime: views are for arrays). */
  if (view != NULL && res->resType == HIP_RESOURCE_TYPE_LINEAR)
    return hipErrorInvalidValue;
  if (!tex_ok(tex))
    return hipErrorInvalidValue;
  if ((err = ah_texture_create(dev, res, tex, view, rres, rtex, &h)) != hipSuccess)
    return err;
  *out = (hipTextureObject_t)(uintptr_t)h;
  return hipSuccess;
}

static void view_to_driver(const struct hipResourceViewDesc *v, HIP_RESOURCE_VIEW_DESC *d) {
  memset(d, 0, sizeof(*d));
  d->format = (HIPresourceViewFormat)v->format;
  d->width = v->width;
  d->height = v->height;
  d->depth = v->depth;
  d->firstMipmapLevel = v->firstMipmapLevel;
  d->lastMipmapLevel = v->lastMipmapLevel;
  d->firstLayer = v->firstLayer;
  d->lastLayer = v->lastLayer;
}

/* ---- entry points --------------------------------------------------------- */

AH_EXPORT hipError_t hipCreateTextureObject(hipTextureObject_t *pTexObject,
                                            const hipResourceDesc *pResDesc,
                                            const hipTextureDesc *pTexDesc,
                                            const struct hipResourceViewDesc *pResViewDesc) {
  HIP_RESOURCE_DESC res;
  HIP_TEXTURE_DESC tex;
  HIP_RESOURCE_VIEW_DESC view;

  AH_ENTER();
  AH_REQUIRE(pTexObject != NULL && pResDesc != NULL && pTexDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE((unsigned)pTexDesc->readMode <= hipReadModeNormalizedFloat, hipErrorInvalidValue);
  AH_REQUIRE_OK(res_to_driver(pResDesc, &res));
  tex_to_driver(pTexDesc, &tex);
  if (pResViewDesc != NULL)
    view_to_driver(pResViewDesc, &view);
  AH_RETURN(create(pTexObject, &res, &tex, pResViewDesc != NULL ? &view : NULL, pResDesc,
                   pTexDesc));
}

AH_EXPORT hipError_t hipTexObjectCreate(hipTextureObject_t *pTexObject,
                                        const HIP_RESOURCE_DESC *pResDesc,
                                        const HIP_TEXTURE_DESC *pTexDesc,
                                        const HIP_RESOURCE_VIEW_DESC *pResViewDesc) {
  hipResourceDesc rres;
  hipTextureDesc rtex;

  AH_ENTER();
  AH_REQUIRE(pTexObject != NULL && pResDesc != NULL && pTexDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE(pResDesc->flags == 0, hipErrorInvalidValue);
  AH_REQUIRE((unsigned)pResDesc->resType <= HIP_RESOURCE_TYPE_PITCH2D, hipErrorInvalidValue);
  res_to_runtime(pResDesc, &rres);
  tex_to_runtime(pTexDesc, &rtex);
  AH_RETURN(create(pTexObject, pResDesc, pTexDesc, pResViewDesc, &rres, &rtex));
}

AH_EXPORT hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject) {
  AH_ENTER();
  if (textureObject == NULL) /* as CUDA: nothing to destroy */
    return hipSuccess;
  AH_RETURN(ah_texture_destroy((uintptr_t)textureObject, 0));
}

AH_EXPORT hipError_t hipTexObjectDestroy(hipTextureObject_t texObject) {
  AH_ENTER();
  AH_REQUIRE(texObject != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_texture_destroy((uintptr_t)texObject, 0));
}

AH_EXPORT hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc *pResDesc,
                                                     hipTextureObject_t textureObject) {
  AH_ENTER();
  AH_REQUIRE(pResDesc != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_texture_describe((uintptr_t)textureObject, NULL, NULL, NULL, NULL, pResDesc, NULL));
}

AH_EXPORT hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc *pTexDesc,
                                                    hipTextureObject_t textureObject) {
  AH_ENTER();
  AH_REQUIRE(pTexDesc != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_texture_describe((uintptr_t)textureObject, NULL, NULL, NULL, NULL, NULL, pTexDesc));
}

AH_EXPORT hipError_t hipGetTextureObjectResourceViewDesc(struct hipResourceViewDesc *pResViewDesc,
                                                         hipTextureObject_t textureObject) {
  HIP_RESOURCE_VIEW_DESC v;

  AH_ENTER();
  AH_REQUIRE(pResViewDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_texture_describe((uintptr_t)textureObject, NULL, NULL, &v, NULL, NULL, NULL));
  pResViewDesc->format = (enum hipResourceViewFormat)v.format;
  pResViewDesc->width = v.width;
  pResViewDesc->height = v.height;
  pResViewDesc->depth = v.depth;
  pResViewDesc->firstMipmapLevel = v.firstMipmapLevel;
  pResViewDesc->lastMipmapLevel = v.lastMipmapLevel;
  pResViewDesc->firstLayer = v.firstLayer;
  pResViewDesc->lastLayer = v.lastLayer;
  return hipSuccess;
}

AH_EXPORT hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC *pResDesc,
                                                 hipTextureObject_t texObject) {
  AH_ENTER();
  AH_REQUIRE(pResDesc != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_texture_describe((uintptr_t)texObject, pResDesc, NULL, NULL, NULL, NULL, NULL));
}

AH_EXPORT hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC *pResViewDesc,
                                                     hipTextureObject_t texObject) {
  AH_ENTER();
  AH_REQUIRE(pResViewDesc != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_texture_describe((uintptr_t)texObject, NULL, NULL, pResViewDesc, NULL, NULL, NULL));
}

AH_EXPORT hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC *pTexDesc,
                                                hipTextureObject_t texObject) {
  AH_ENTER();
  AH_REQUIRE(pTexDesc != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_texture_describe((uintptr_t)texObject, NULL, pTexDesc, NULL, NULL, NULL, NULL));
}

/* ---- surfaces ------------------------------------------------------------- */

AH_EXPORT hipError_t hipCreateSurfaceObject(hipSurfaceObject_t *pSurfObject,
                                            const hipResourceDesc *pResDesc) {
  struct ah_array *a;
  uint64_t h;

  AH_ENTER();
  AH_REQUIRE(pSurfObject != NULL && pResDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE(pResDesc->resType == hipResourceTypeArray, hipErrorInvalidValue);
  AH_REQUIRE(pResDesc->res.array.array != NULL, hipErrorInvalidHandle);
  AH_REQUIRE((a = array_of(pResDesc->res.array.array)) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_surface_create(a, pResDesc, &h));
  *pSurfObject = (hipSurfaceObject_t)(uintptr_t)h;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surfaceObject) {
  AH_ENTER();
  AH_RETURN(ah_texture_destroy((uintptr_t)surfaceObject, 1));
}
