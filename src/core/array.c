/* SPDX-License-Identifier: MIT */
/* Arrays and mipmapped arrays (array.h): made by the backend when it has arrays of its
 * own, else kept in device memory of the backend (host_addressable ones: the CPU's),
 * packed rows, zero-filled; and every copy naming an array (hipMemcpy2DToArray ...
 * hipMemcpyAtoA, and the array sides of hipMemcpy3D, hipMemcpyParam2D and hipDrvMemcpy3D,
 * which memcpy3d.c sends here), checked against the arrays and the allocation map and
 * queued as AH_CMD_COPY_2D/3D commands on the stream's queue. */
#include "array.h"
#include "device_ops.h"
#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One use's limits per shape, in hipDeviceProp_t's order. */
struct limits {
  int d1, d2[2], d3[3], l1[2], l2[3], cube, cubel[2];
};

/* The texture (K = Texture) or surface (K = Surface) limits of p: the two
 * sets have the same fields under the two names. */
#define LIMITS_OF(p, K)                                                                            \
  ((struct limits){                                                                                \
      .d1 = (p)->max##K##1D,                                                                       \
      .d2 = {(p)->max##K##2D[0], (p)->max##K##2D[1]},                                              \
      .d3 = {(p)->max##K##3D[0], (p)->max##K##3D[1], (p)->max##K##3D[2]},                          \
      .l1 = {(p)->max##K##1DLayered[0], (p)->max##K##1DLayered[1]},                                \
      .l2 = {(p)->max##K##2DLayered[0], (p)->max##K##2DLayered[1], (p)->max##K##2DLayered[2]},     \
      .cube = (p)->max##K##Cubemap,                                                                \
      .cubel = {(p)->max##K##CubemapLayered[0], (p)->max##K##CubemapLayered[1]}})

/* v within limit lim; a device that reports 0 for a limit has none we know. */
#define WITHIN(v, lim) ((lim) <= 0 || (v) <= (size_t)(lim))

/* AMD's runtime refuses past the texture limits with hipErrorInvalidValue (ROCm's unit
 * suite checks each limit plus one); NVIDIA's arrays take the surface flag within the
 * surface limits only. */
int ah_array_fits(const hipDeviceProp_t *p, enum ah_array_use use, const HIP_ARRAY3D_DESCRIPTOR *d) {
  struct limits l = use == AH_ARRAY_SURFACE ? LIMITS_OF(p, Surface) : LIMITS_OF(p, Texture);
  size_t w = d->Width, h = d->Height, z = d->Depth;

  if (d->Flags & hipArrayCubemap)
    return (d->Flags & hipArrayLayered) ? WITHIN(w, l.cubel[0]) && WITHIN(z, l.cubel[1])
                                        : WITHIN(w, l.cube);
  if (d->Flags & hipArrayLayered)
    return h == 0 ? WITHIN(w, l.l1[0]) && WITHIN(z, l.l1[1])
                  : WITHIN(w, l.l2[0]) && WITHIN(h, l.l2[1]) && WITHIN(z, l.l2[2]);
  if (h == 0)
    return WITHIN(w, l.d1);
  if (z == 0)
    return WITHIN(w, l.d2[0]) && WITHIN(h, l.d2[1]);
  return WITHIN(w, l.d3[0]) && WITHIN(h, l.d3[1]) && WITHIN(z, l.d3[2]);
}

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
    /* No memset: the host-addressable backend's device memory comes zero-filled (fresh
     * mappings), and touching every page of a multi-GB array took minutes (hip-tests'
     * MaxTexture cases). HIP does not promise an array's contents anyway. */
    err = ah_device_mem_alloc(dev, bytes, AH_MEM_DEVICE, 0, &p);
    if (err == hipSuccess)
      a->data = p;
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

hipError_t ah_array_free(hipArray_t array) {
  struct ah_array *a = ah_object_cast(array, AH_KIND_ARRAY);
  hipError_t err;

  /* AMD's codes: NULL is an invalid value, a freed or foreign handle a destroyed context. */
  if (array == NULL)
    return hipErrorInvalidValue;
  if (a == NULL)
    return hipErrorContextIsDestroyed;
  if (a->owner != NULL) /* a level goes with its mipmapped array: nothing to do (AMD's) */
    return hipSuccess;
  /* Copies and kernels queued on the array finish first, as hipFree waits for them. */
  if ((err = ah_dev_sync(a->dev)) != hipSuccess)
    return err;
  return ah_array_destroy(a);
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

hipError_t ah_mipmap_free(hipMipmappedArray_t mm) {
  struct ah_mipmap *m = ah_object_cast(mm, AH_KIND_MIPMAP);
  hipError_t err;

  if (mm == NULL)
    return hipErrorInvalidValue;
  if (m == NULL) /* freed or foreign (AMD's code, as for arrays) */
    return hipErrorContextIsDestroyed;
  if ((err = ah_dev_sync(m->dev)) != hipSuccess)
    return err;
  return ah_mipmap_destroy(m);
}

/* ---- copies naming an array ---------------------------------------------- */

static struct ah_array *array_of(hipArray_const_t a) {
  return ah_object_cast(a, AH_KIND_ARRAY);
}

/* One end of a copy, resolved: an array from (x bytes, y, z), or memory at ptr (the box's
 * first byte) with rows pitch bytes apart and slices slice_rows rows apart. */
struct copy_end {
  struct ah_array *arr;
  size_t x, y, z;
  void *ptr;
  size_t pitch, slice_rows;
};

/* Whether a box of w bytes x h rows x d slices at (x, y, z) lies inside array a. */
static int box_ok(const struct ah_array *a, size_t x, size_t y, size_t z, size_t w, size_t h,
                  size_t d) {
  size_t row = (size_t)a->d.Width * a->elem;

  return x <= row && w <= row - x && y <= a->rows && h <= a->rows - y && z <= a->slices &&
         d <= a->slices - z;
}

/* Fills one side of a copy command from e. */
static void side(const struct copy_end *e, void **ptr, size_t *pitch, size_t *slice_rows,
                 struct ah_dev_array **array, size_t pos[3]) {
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

/* Queues the copy of a w x h x d box (w in bytes, no extent 0, ends checked) on queue q of
 * dev; with out set, gives the command instead. kind is resolved. */
static hipError_t queue_copy(struct ah_device *dev, struct ah_queue *q, const struct copy_end *dst,
                             const struct copy_end *src, size_t w, size_t h, size_t d,
                             hipMemcpyKind kind, int wait, struct ah_cmd *out) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY_3D};
  struct ah_dev_array *sa;
  void *sp;

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

/* Checks a w x h x d box copy (w in bytes) between dst and src with kind, and queues it on
 * stream (or gives the command, with out). */
static hipError_t copy_box(const struct ah_array_end *dst, const struct ah_array_end *src, size_t w,
                           size_t h, size_t d, hipMemcpyKind kind, hipStream_t stream, int sync,
                           struct ah_cmd *out) {
  const struct ah_array_end *e[2] = {dst, src};
  struct copy_end c[2];
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
    if (c[i].arr != NULL && (!box_ok(c[i].arr, c[i].x, c[i].y, c[i].z, w, h, d) ||
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
    pageable |= pg & (AH_PAGEABLE_DST | AH_PAGEABLE_SRC); /* this end alone reads as host to host */
  }
  if (!device[0] && !device[1])
    pageable |= AH_HOST_TO_HOST; /* CUDA's rule: a copy between host buffers waits (memory.h) */
  if (kind == hipMemcpyDefault)
    kind = device[1] ? (device[0] ? hipMemcpyDeviceToDevice : hipMemcpyDeviceToHost)
                     : (device[0] ? hipMemcpyHostToDevice : hipMemcpyHostToHost);
  else if (kind == hipMemcpyDeviceToDeviceNoCU)
    kind = hipMemcpyDeviceToDevice;
  return queue_copy(dev, q, &c[0], &c[1], w, h, d, kind, sync || pageable, out);
}

hipError_t ah_array_copy_box(const struct ah_array_end *dst, const struct ah_array_end *src,
                             size_t w, size_t h, size_t d, hipMemcpyKind kind, hipStream_t stream,
                             int sync) {
  return copy_box(dst, src, w, h, d, kind, stream, sync, NULL);
}

hipError_t ah_array_copy_linear(hipArray_const_t da, size_t doff, void *dptr, hipArray_const_t sa,
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
    struct ah_array_end d0 = {.array = da, .ptr = dptr, .pitch = 1},
                        s0 = {.array = sa, .ptr = (void *)sptr, .pitch = 1};
    return copy_box(&d0, &s0, 0, 1, 1, kind, stream, sync, NULL);
  }
  while (count > 0) {
    struct ah_array_end e[2];
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

size_t ah_array_offset(hipArray_const_t array, size_t wOffset, size_t hOffset) {
  struct ah_array *a = array_of(array);
  size_t off;

  if (a == NULL || wOffset > a->d.Width * a->elem ||
      __builtin_mul_overflow(hOffset, (size_t)a->d.Width * a->elem, &off) ||
      __builtin_add_overflow(off, wOffset, &off))
    return SIZE_MAX;
  return off;
}

/* ---- the array sides of memcpy3d.c's copies ------------------------------- */

/* One end of hipMemcpy3D: array (x in elements) or pitched memory at pos (x in bytes);
 * 0 for memory without a pointer. */
static int end_3d(hipArray_const_t array, hipPos pos, const hipPitchedPtr *mem, size_t elem,
                  struct ah_array_end *e) {
  if (array != NULL) {
    *e = (struct ah_array_end){.array = array, .x = pos.x * elem, .y = pos.y, .z = pos.z};
    return 1;
  }
  if (mem->ptr == NULL)
    return 0;
  *e = (struct ah_array_end){.ptr = (char *)mem->ptr + (pos.z * mem->ysize + pos.y) * mem->pitch +
                                    pos.x,
                             .pitch = mem->pitch,
                             .slice_rows = mem->ysize};
  return 1;
}

hipError_t ah_memcpy_3d_array(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                              struct ah_cmd *out) {
  struct ah_array *sa = NULL, *da = NULL;
  struct ah_array_end d, s;
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

hipError_t ah_memcpy_drv_array(const HIP_MEMCPY3D *c, hipStream_t stream, int sync) {
  struct ah_array_end e[2];
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
      e[i] = (struct ah_array_end){.array = arr[i], .x = x[i], .y = y[i], .z = z[i]};
      continue;
    }
    if (type[i] != hipMemoryTypeHost && type[i] != hipMemoryTypeDevice &&
        type[i] != hipMemoryTypeManaged && type[i] != hipMemoryTypeUnified)
      return hipErrorInvalidValue;
    if (ptr[i] == NULL)
      return hipErrorInvalidValue;
    /* A pitch or slice height of 0 is the copy's (packed: AMD's rectangle rule). */
    if (pitch[i] == 0)
      pitch[i] = c->WidthInBytes;
    if (height[i] == 0)
      height[i] = c->Height;
    if (pitch[i] < c->WidthInBytes || (c->Depth > 1 && height[i] < c->Height))
      return hipErrorInvalidValue;
    e[i] =
        (struct ah_array_end){.ptr = (char *)ptr[i] + (z[i] * height[i] + y[i]) * pitch[i] + x[i],
                              .pitch = pitch[i],
                              .slice_rows = height[i]};
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
