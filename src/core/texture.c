/* SPDX-License-Identifier: MIT */
/* Texture and surface objects (array.h). Each lives in one list, found by its handle:
 * the backend's own object (texture_create: NVIDIA's CUtexObject) or, on a device
 * without one, the address of the struct ahTexDesc the CPU kernel headers read
 * (common/texture_abi.h). The object keeps the descriptions it was made with, in both
 * the runtime's and the driver's spelling, for the hip*GetTextureObject* getters. */
#include "array.h"

#include <stdlib.h>
#include <string.h>

struct ah_texture {
  struct ahTexDesc desc; /* first: the CPU handle is its address */
  struct ah_device *dev;
  int surface;
  int has_view;
  uint64_t handle;
  uint64_t native; /* the backend's object, when it made one */
  HIP_RESOURCE_DESC res;
  HIP_TEXTURE_DESC tex;
  HIP_RESOURCE_VIEW_DESC view;
  hipResourceDesc rres;
  hipTextureDesc rtex;
  struct ah_texture *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ah_texture *objects;

/* The object of handle h (of the kind asked); lock held. */
static struct ah_texture **find(uint64_t h, int surface) {
  struct ah_texture **p;

  for (p = &objects; *p != NULL; p = &(*p)->next)
    if ((*p)->handle == h && (*p)->surface == surface)
      return p;
  return NULL;
}

static unsigned tex_format(hipArray_Format f) {
  switch (f) {
  case HIP_AD_FORMAT_SIGNED_INT8:
  case HIP_AD_FORMAT_SIGNED_INT16:
  case HIP_AD_FORMAT_SIGNED_INT32:
    return AH_TEXF_SIGNED;
  case HIP_AD_FORMAT_HALF:
    return AH_TEXF_HALF;
  case HIP_AD_FORMAT_FLOAT:
    return AH_TEXF_FLOAT;
  default:
    return AH_TEXF_UNSIGNED;
  }
}

static void set_format(struct ahTexDesc *t, hipArray_Format f, unsigned channels) {
  t->format = tex_format(f);
  t->bits = ah_array_format_bytes(f) * 8;
  t->channels = channels;
  t->elem = ah_array_format_bytes(f) * channels;
}

static void level_of(struct ahTexLevel *L, const struct ah_array *a) {
  L->data = a->data;
  L->width = a->d.Width;
  L->height = a->rows;
  L->depth = a->slices;
  L->pitch = a->pitch;
  L->slice = a->slice;
}

static unsigned shape_of(const HIP_ARRAY3D_DESCRIPTOR *d) {
  if (d->Flags & hipArrayCubemap)
    return d->Flags & hipArrayLayered ? AH_TEXS_CUBEMAP_LAYERED : AH_TEXS_CUBEMAP;
  if (d->Flags & hipArrayLayered)
    return d->Height == 0 ? AH_TEXS_1D_LAYERED : AH_TEXS_2D_LAYERED;
  return d->Depth != 0 ? AH_TEXS_3D : d->Height != 0 ? AH_TEXS_2D : AH_TEXS_1D;
}

/* The CPU descriptor of a texture over res (arrays hold core storage). */
static void describe_cpu(struct ahTexDesc *t, const HIP_RESOURCE_DESC *res,
                         const HIP_TEXTURE_DESC *tex, const HIP_RESOURCE_VIEW_DESC *view) {
  const struct ah_array *a;
  const struct ah_mipmap *m;
  unsigned first = 0;

  t->magic = AH_TEX_MAGIC;
  t->levels = 1;
  switch (res->resType) {
  case HIP_RESOURCE_TYPE_ARRAY:
    a = (const struct ah_array *)res->res.array.hArray;
    set_format(t, a->d.Format, a->d.NumChannels);
    t->shape = shape_of(&a->d);
    level_of(&t->level[0], a);
    break;
  case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    m = (const struct ah_mipmap *)res->res.mipmap.hMipmappedArray;
    set_format(t, m->d.Format, m->d.NumChannels);
    t->shape = shape_of(&m->d);
    if (view != NULL && view->firstMipmapLevel < m->levels)
      first = view->firstMipmapLevel;
    t->levels = m->levels - first;
    if (view != NULL && view->lastMipmapLevel >= first && view->lastMipmapLevel < m->levels)
      t->levels = view->lastMipmapLevel - first + 1;
    for (unsigned l = 0; l < t->levels; l++)
      level_of(&t->level[l], m->level[first + l]);
    break;
  case HIP_RESOURCE_TYPE_LINEAR:
    set_format(t, res->res.linear.format, res->res.linear.numChannels);
    t->shape = AH_TEXS_LINEAR;
    t->level[0].data = res->res.linear.devPtr;
    t->level[0].width = res->res.linear.sizeInBytes / t->elem;
    t->level[0].height = t->level[0].depth = 1;
    t->level[0].pitch = t->level[0].slice = res->res.linear.sizeInBytes;
    break;
  default: /* pitch 2D */
    set_format(t, res->res.pitch2D.format, res->res.pitch2D.numChannels);
    t->shape = AH_TEXS_2D;
    t->level[0].data = res->res.pitch2D.devPtr;
    t->level[0].width = res->res.pitch2D.width;
    t->level[0].height = res->res.pitch2D.height;
    t->level[0].depth = 1;
    t->level[0].pitch = res->res.pitch2D.pitchInBytes;
    t->level[0].slice = res->res.pitch2D.pitchInBytes * res->res.pitch2D.height;
  }
  if (tex == NULL) /* a surface */
    return;
  for (int i = 0; i < 3; i++)
    t->address[i] = tex->addressMode[i];
  t->filter = tex->filterMode;
  /* Integers read as integers, or scaled to floats when the flag is clear. */
  t->read_mode = (tex->flags & HIP_TRSF_READ_AS_INTEGER) ? hipReadModeElementType
                                                         : hipReadModeNormalizedFloat;
  t->normalized = (tex->flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0;
  t->mip_filter = tex->mipmapFilterMode;
  memcpy(t->border, tex->borderColor, sizeof(t->border));
  t->lod_bias = tex->mipmapLevelBias;
  t->min_lod = tex->minMipmapLevelClamp;
  t->max_lod = tex->maxMipmapLevelClamp;
}

/* How many coordinates a texture over res addresses (a layer index is not one; a cubemap's
 * direction is three). */
static int addressed_dims(const HIP_RESOURCE_DESC *res) {
  const HIP_ARRAY3D_DESCRIPTOR *d;

  switch (res->resType) {
  case HIP_RESOURCE_TYPE_ARRAY:
    d = &((const struct ah_array *)res->res.array.hArray)->d;
    break;
  case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    d = &((const struct ah_mipmap *)res->res.mipmap.hMipmappedArray)->d;
    break;
  case HIP_RESOURCE_TYPE_PITCH2D:
    return 2;
  default:
    return 1;
  }
  if (d->Flags & hipArrayCubemap)
    return 3;
  if (d->Height == 0)
    return 1;
  return d->Depth != 0 && !(d->Flags & hipArrayLayered) ? 3 : 2;
}

/* The backend's spelling of tex: the address modes of the coordinates the texture does
 * not address are clamp. NVIDIA's hardware filters a 1D texture as a 2D one of one row,
 * read at the row's edge (y = 0): a border mode left in addressMode[1] blends the
 * border colour in with weight one half (docs/textures.md). HIP's rule is that only
 * the addressed coordinates' modes count, which clamp keeps. */
static HIP_TEXTURE_DESC native_tex(const HIP_RESOURCE_DESC *res, const HIP_TEXTURE_DESC *tex) {
  HIP_TEXTURE_DESC n = *tex;

  for (int i = addressed_dims(res); i < 3; i++)
    n.addressMode[i] = HIP_TR_ADDRESS_MODE_CLAMP;
  return n;
}

/* The backend's spelling of res: our arrays replaced by the backend's (its struct
 * ah_dev_array and ah_dev_mipmap in HIP's handle fields, as backend.h's texture_create
 * says). */
static HIP_RESOURCE_DESC native_res(const HIP_RESOURCE_DESC *res) {
  HIP_RESOURCE_DESC n = *res;

  if (res->resType == HIP_RESOURCE_TYPE_ARRAY)
    n.res.array.hArray = (hipArray_t)((struct ah_array *)res->res.array.hArray)->impl;
  else if (res->resType == HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY)
    n.res.mipmap.hMipmappedArray =
        (hipMipmappedArray_t)((struct ah_mipmap *)res->res.mipmap.hMipmappedArray)->impl;
  return n;
}

static void add(struct ah_texture *t) {
  pthread_mutex_lock(&lock);
  t->next = objects;
  objects = t;
  pthread_mutex_unlock(&lock);
}

hipError_t ah_texture_create(struct ah_device *dev, const HIP_RESOURCE_DESC *res,
                             const HIP_TEXTURE_DESC *tex, const HIP_RESOURCE_VIEW_DESC *view,
                             const hipResourceDesc *rres, const hipTextureDesc *rtex,
                             uint64_t *out) {
  struct ah_texture *t = calloc(1, sizeof(*t));
  hipError_t err;

  if (t == NULL)
    return hipErrorOutOfMemory;
  t->dev = dev;
  t->res = *res;
  t->tex = *tex;
  if (view != NULL) {
    t->view = *view;
    t->has_view = 1;
  }
  if (rres != NULL)
    t->rres = *rres;
  if (rtex != NULL)
    t->rtex = *rtex;
  if (dev->backend->texture_create != NULL) {
    HIP_RESOURCE_DESC n = native_res(res);
    HIP_TEXTURE_DESC nt = native_tex(res, tex);

    err = dev->backend->texture_create(dev, &n, &nt, view, &t->native);
    if (err != hipSuccess) {
      free(t);
      return err;
    }
    t->handle = t->native;
  } else if (dev->backend->host_addressable) {
    describe_cpu(&t->desc, res, tex, view);
    t->handle = (uint64_t)(uintptr_t)&t->desc;
  } else {
    free(t);
    return hipErrorNotSupported;
  }
  add(t);
  *out = t->handle;
  return hipSuccess;
}

hipError_t ah_surface_create(struct ah_array *a, const hipResourceDesc *rres, uint64_t *out) {
  struct ah_texture *t = calloc(1, sizeof(*t));
  struct ah_device *dev = a->dev;
  hipError_t err;

  if (t == NULL)
    return hipErrorOutOfMemory;
  t->dev = dev;
  t->surface = 1;
  t->rres = *rres;
  t->res.resType = HIP_RESOURCE_TYPE_ARRAY;
  t->res.res.array.hArray = (hipArray_t)a;
  if (dev->backend->surface_create != NULL) {
    err = dev->backend->surface_create(dev, a->impl, &t->native);
    if (err != hipSuccess) {
      free(t);
      return err;
    }
    t->handle = t->native;
  } else if (dev->backend->host_addressable) {
    describe_cpu(&t->desc, &t->res, NULL, NULL);
    t->desc.surface = 1;
    t->handle = (uint64_t)(uintptr_t)&t->desc;
  } else {
    free(t);
    return hipErrorNotSupported;
  }
  add(t);
  *out = t->handle;
  return hipSuccess;
}

hipError_t ah_texture_destroy(uint64_t handle, int surface) {
  struct ah_texture **p, *t;
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&lock);
  p = find(handle, surface);
  t = p != NULL ? *p : NULL;
  if (t != NULL)
    *p = t->next;
  pthread_mutex_unlock(&lock);
  if (t == NULL)
    return hipErrorInvalidValue;
  if (t->native != 0 || t->dev->backend->texture_create != NULL) {
    if (surface)
      err = t->dev->backend->surface_destroy(t->dev, t->native);
    else
      err = t->dev->backend->texture_destroy(t->dev, t->native);
  }
  t->desc.magic = 0;
  free(t);
  return err;
}

hipError_t ah_texture_describe(uint64_t handle, HIP_RESOURCE_DESC *res, HIP_TEXTURE_DESC *tex,
                               HIP_RESOURCE_VIEW_DESC *view, int *has_view, hipResourceDesc *rres,
                               hipTextureDesc *rtex) {
  struct ah_texture **p;

  pthread_mutex_lock(&lock);
  p = find(handle, 0);
  if (p != NULL) {
    if (res != NULL)
      *res = (*p)->res;
    if (tex != NULL)
      *tex = (*p)->tex;
    if (view != NULL)
      *view = (*p)->view;
    if (has_view != NULL)
      *has_view = (*p)->has_view;
    if (rres != NULL)
      *rres = (*p)->rres;
    if (rtex != NULL)
      *rtex = (*p)->rtex;
  }
  pthread_mutex_unlock(&lock);
  return p != NULL ? hipSuccess : hipErrorInvalidValue;
}
