/* SPDX-License-Identifier: MIT */
/* Arrays and mipmapped arrays (array.h): made by the backend when it has arrays of its
 * own, else kept in device memory of the backend (host_addressable ones: the CPU's),
 * packed rows, zero-filled; and the copies between arrays and memory, which become
 * AH_CMD_COPY_2D/3D commands on the stream's queue. */
#include "array.h"

#include <stdlib.h>
#include <string.h>

unsigned ah_array_format_bytes(hipArray_Format f) {
  switch (f) {
  case HIP_AD_FORMAT_UNSIGNED_INT8:
  case HIP_AD_FORMAT_SIGNED_INT8:
    return 1;
  case HIP_AD_FORMAT_UNSIGNED_INT16:
  case HIP_AD_FORMAT_SIGNED_INT16:
  case HIP_AD_FORMAT_HALF:
    return 2;
  case HIP_AD_FORMAT_UNSIGNED_INT32:
  case HIP_AD_FORMAT_SIGNED_INT32:
  case HIP_AD_FORMAT_FLOAT:
    return 4;
  }
  return 0;
}

hipError_t ah_array_format_of(const hipChannelFormatDesc *c, hipArray_Format *f,
                              unsigned *channels) {
  int bits[4] = {c->x, c->y, c->z, c->w};
  unsigned n = 0;

  while (n < 4 && bits[n] != 0)
    n++;
  for (unsigned i = n; i < 4; i++)
    if (bits[i] != 0)
      return hipErrorInvalidValue; /* a gap: x, 0, z */
  for (unsigned i = 1; i < n; i++)
    if (bits[i] != bits[0])
      return hipErrorInvalidValue;
  if (n == 0 || n == 3)
    return hipErrorInvalidValue;
  switch (c->f) {
  case hipChannelFormatKindSigned:
    *f = bits[0] == 8 ? HIP_AD_FORMAT_SIGNED_INT8
         : bits[0] == 16 ? HIP_AD_FORMAT_SIGNED_INT16
         : bits[0] == 32 ? HIP_AD_FORMAT_SIGNED_INT32
                         : (hipArray_Format)0;
    break;
  case hipChannelFormatKindUnsigned:
    *f = bits[0] == 8 ? HIP_AD_FORMAT_UNSIGNED_INT8
         : bits[0] == 16 ? HIP_AD_FORMAT_UNSIGNED_INT16
         : bits[0] == 32 ? HIP_AD_FORMAT_UNSIGNED_INT32
                         : (hipArray_Format)0;
    break;
  case hipChannelFormatKindFloat:
    *f = bits[0] == 16 ? HIP_AD_FORMAT_HALF : bits[0] == 32 ? HIP_AD_FORMAT_FLOAT
                                                            : (hipArray_Format)0;
    break;
  default:
    return hipErrorInvalidValue;
  }
  if (*f == 0)
    return hipErrorInvalidValue;
  *channels = n;
  return hipSuccess;
}

hipChannelFormatDesc ah_array_channel_desc(hipArray_Format f, unsigned channels) {
  hipChannelFormatDesc c = {0, 0, 0, 0, hipChannelFormatKindNone};
  int bits = (int)ah_array_format_bytes(f) * 8;

  c.x = bits;
  c.y = channels >= 2 ? bits : 0;
  c.z = c.w = channels >= 4 ? bits : 0;
  switch (f) {
  case HIP_AD_FORMAT_SIGNED_INT8:
  case HIP_AD_FORMAT_SIGNED_INT16:
  case HIP_AD_FORMAT_SIGNED_INT32:
    c.f = hipChannelFormatKindSigned;
    break;
  case HIP_AD_FORMAT_HALF:
  case HIP_AD_FORMAT_FLOAT:
    c.f = hipChannelFormatKindFloat;
    break;
  default:
    c.f = hipChannelFormatKindUnsigned;
  }
  return c;
}

static struct ah_array *array_new(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d) {
  struct ah_array *a = calloc(1, sizeof(*a));

  if (a == NULL)
    return NULL;
  if (ah_object_init(&a->obj, AH_KIND_ARRAY) != hipSuccess) {
    free(a);
    return NULL;
  }
  a->dev = dev;
  a->d = *d;
  a->elem = ah_array_format_bytes(d->Format) * d->NumChannels;
  a->rows = d->Height != 0 ? d->Height : 1;
  a->slices = d->Depth != 0 ? d->Depth : 1;
  return a;
}

static void array_free(struct ah_array *a) {
  ah_object_fini(&a->obj);
  free(a);
}

hipError_t ah_array_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                           struct ah_array **out) {
  struct ah_array *a = array_new(dev, d);
  size_t bytes;
  void *p;
  hipError_t err;

  if (a == NULL)
    return hipErrorOutOfMemory;
  if (dev->backend->array_create != NULL) {
    err = dev->backend->array_create(dev, d, &a->impl);
  } else if (!dev->backend->host_addressable) {
    err = hipErrorNotSupported;
  } else if (__builtin_mul_overflow((size_t)d->Width, (size_t)a->elem, &a->pitch) ||
             __builtin_mul_overflow(a->pitch, a->rows, &a->slice) ||
             __builtin_mul_overflow(a->slice, a->slices, &bytes)) {
    err = hipErrorOutOfMemory;
  } else {
    err = ah_device_mem_alloc(dev, bytes, AH_MEM_DEVICE, 0, &p);
    if (err == hipSuccess) {
      memset(p, 0, bytes);
      a->data = p;
    }
  }
  if (err != hipSuccess) {
    array_free(a);
    return err;
  }
  *out = a;
  return hipSuccess;
}

hipError_t ah_array_destroy(struct ah_array *a) {
  hipError_t err = hipSuccess;

  if (a->impl != NULL)
    err = a->dev->backend->array_destroy(a->dev, a->impl);
  else if (a->data != NULL)
    err = ah_device_mem_free(a->dev, a->data, a->slice * a->slices, AH_MEM_DEVICE);
  array_free(a);
  return err;
}

/* The size of level l of a dimension of n (0 stays 0: the dimension is absent). */
static size_t level_size(size_t n, unsigned l) {
  return n == 0 ? 0 : (n >> l) != 0 ? n >> l : 1;
}

hipError_t ah_mipmap_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                            unsigned levels, struct ah_mipmap **out) {
  struct ah_mipmap *m = calloc(1, sizeof(*m));
  hipError_t err = hipSuccess;
  unsigned l;

  if (m == NULL)
    return hipErrorOutOfMemory;
  if (ah_object_init(&m->obj, AH_KIND_MIPMAP) != hipSuccess) {
    free(m);
    return hipErrorOutOfMemory;
  }
  m->dev = dev;
  m->d = *d;
  m->levels = levels;
  if (dev->backend->mipmap_create != NULL) {
    err = dev->backend->mipmap_create(dev, d, levels, &m->impl);
    if (err != hipSuccess)
      goto fail;
  }
  for (l = 0; l < levels; l++) {
    HIP_ARRAY3D_DESCRIPTOR ld = *d;
    int layered = (d->Flags & (hipArrayLayered | hipArrayCubemap)) != 0;

    ld.Width = level_size(d->Width, l);
    ld.Height = level_size(d->Height, l);
    if (!layered)
      ld.Depth = level_size(d->Depth, l);
    if (m->impl != NULL) {
      m->level[l] = array_new(dev, &ld);
      if (m->level[l] == NULL) {
        err = hipErrorOutOfMemory;
        goto fail;
      }
      err = dev->backend->mipmap_level(dev, m->impl, l, &m->level[l]->impl);
    } else {
      err = ah_array_create(dev, &ld, &m->level[l]);
    }
    if (err != hipSuccess)
      goto fail;
    m->level[l]->owner = m;
  }
  *out = m;
  return hipSuccess;
fail:
  ah_mipmap_destroy(m);
  return err;
}

hipError_t ah_mipmap_destroy(struct ah_mipmap *m) {
  hipError_t err = hipSuccess;

  for (unsigned l = 0; l < m->levels; l++) {
    struct ah_array *a = m->level[l];

    if (a == NULL)
      continue;
    if (m->impl != NULL)
      array_free(a); /* the backend's level goes with its mipmapped array */
    else
      ah_array_destroy(a);
  }
  if (m->impl != NULL)
    err = m->dev->backend->mipmap_destroy(m->dev, m->impl);
  ah_object_fini(&m->obj);
  free(m);
  return err;
}

int ah_array_box_ok(const struct ah_array *a, size_t x, size_t y, size_t z, size_t w, size_t h,
                    size_t d) {
  size_t row = (size_t)a->d.Width * a->elem;

  return x <= row && w <= row - x && y <= a->rows && h <= a->rows - y && z <= a->slices &&
         d <= a->slices - z;
}

/* Fills one side of a copy command from e. */
static void side(const struct ah_copy_end *e, void **ptr, size_t *pitch, size_t *slice_rows,
                 void **array, size_t pos[3]) {
  *array = NULL;
  if (e->arr == NULL) {
    *ptr = e->ptr;
    *pitch = e->pitch;
    *slice_rows = e->slice_rows;
    return;
  }
  if (e->arr->impl != NULL) {
    *array = e->arr->impl;
    pos[0] = e->x, pos[1] = e->y, pos[2] = e->z;
    *ptr = NULL;
    *pitch = 0;
    *slice_rows = 0;
    return;
  }
  *ptr = e->arr->data + e->z * e->arr->slice + e->y * e->arr->pitch + e->x;
  *pitch = e->arr->pitch;
  *slice_rows = e->arr->rows;
}

hipError_t ah_array_copy(struct ah_device *dev, struct ah_queue *q, const struct ah_copy_end *dst,
                         const struct ah_copy_end *src, size_t w, size_t h, size_t d,
                         hipMemcpyKind kind, int wait, struct ah_cmd *out) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY_3D};
  void *sp, *sa;

  side(dst, &cmd.copy3d.dst, &cmd.copy3d.dpitch, &cmd.copy3d.dslice_rows, &cmd.copy3d.dst_array,
       cmd.copy3d.dst_pos);
  side(src, &sp, &cmd.copy3d.spitch, &cmd.copy3d.sslice_rows, &sa, cmd.copy3d.src_pos);
  cmd.copy3d.src = sp;
  cmd.copy3d.src_array = sa;
  cmd.copy3d.width = w;
  cmd.copy3d.height = h;
  cmd.copy3d.depth = d;
  cmd.copy3d.kind = kind;
  if (sa == NULL && cmd.copy3d.dst_array == NULL &&
      (d == 1 || (cmd.copy3d.sslice_rows == h && cmd.copy3d.dslice_rows == h))) {
    struct ah_cmd c2 = {.kind = AH_CMD_COPY_2D};

    c2.copy2d.dst = cmd.copy3d.dst;
    c2.copy2d.dpitch = cmd.copy3d.dpitch;
    c2.copy2d.src = sp;
    c2.copy2d.spitch = cmd.copy3d.spitch;
    c2.copy2d.width = w;
    c2.copy2d.height = h * d;
    c2.copy2d.kind = kind;
    cmd = c2;
  }
  if (out != NULL) {
    *out = cmd;
    return hipSuccess;
  }
  return ah_submit(dev, q, &cmd, wait);
}
