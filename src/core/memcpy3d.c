/* SPDX-License-Identifier: MIT */
/* Pitched boxes and driver-style descriptors: hipMemcpy3D's work and that
 * of the driver-style copies (hipMemcpyParam2D, hipDrvMemcpy3D). A box is
 * `depth` slices of `height` rows of `width` bytes, at a position inside a
 * pitched pointer whose slices are `ysize` rows apart. The whole range a box
 * spans is checked against the allocation map with memcpy.c's rules, then
 * queued: as a 2D command when its slices are contiguous, else as
 * AH_CMD_COPY_3D (memset.c sets a box). A copy or descriptor naming an
 * array goes to array.c. */
#include "memory.h"
#include "array.h"

#include <stdint.h>

hipError_t ah_box_locate(const hipPitchedPtr *p, hipPos pos, hipExtent e, struct ah_box *b) {
  size_t first, last, y_end;
  int sliced = e.depth > 1 || pos.z > 0;

  if (pos.x > p->pitch || e.width > p->pitch - pos.x)
    return hipErrorInvalidValue;
  if (__builtin_add_overflow(pos.y, e.height, &y_end))
    return hipErrorInvalidValue;
  if (sliced && p->ysize < y_end)
    return hipErrorInvalidValue;
  b->slice_rows = sliced ? p->ysize : e.height;
  /* Rows from the pointer to the box's first and last rows. */
  if (!ah_mul_add(pos.z, b->slice_rows, pos.y, &first) || first > SIZE_MAX - (e.height - 1) ||
      !ah_mul_add(e.depth - 1, b->slice_rows, first + (e.height - 1), &last))
    return hipErrorInvalidValue;
  if (!ah_mul_add(first, p->pitch, pos.x, &b->start) ||
      !ah_mul_add(last, p->pitch, pos.x + e.width, &b->end))
    return hipErrorInvalidValue;
  return hipSuccess;
}

hipError_t ah_memcpy_3d(const struct hipMemcpy3DParms *p, hipStream_t stream, int sync,
                        struct ah_cmd *out) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY_3D};
  struct ah_device *dev;
  struct ah_box s, d;
  hipExtent e;
  char *dst;
  const char *src;
  size_t max_pitch;
  hipMemcpyKind kind;
  struct ah_queue *q;
  int pageable;
  hipError_t err;

  if (p == NULL)
    return hipErrorInvalidValue;
  /* A side is an array or a pitched pointer, never both (CUDA's rule; AMD's runtime checks
   * it, hip-tests' graph copy nodes too). */
  if ((p->srcArray != NULL && p->srcPtr.ptr != NULL) ||
      (p->dstArray != NULL && p->dstPtr.ptr != NULL))
    return hipErrorInvalidValue;
  if (p->srcArray != NULL || p->dstArray != NULL) /* core/array.c */
    return ah_memcpy_3d_array(p, stream, sync, out);
  if (!ah_memcpy_valid_kind(p->kind))
    return hipErrorInvalidMemcpyDirection;
  e = p->extent;
  if (!ah_extent_empty(e) && (p->srcPtr.ptr == NULL || p->dstPtr.ptr == NULL))
    return hipErrorInvalidValue;
  if (p->srcPtr.pitch < e.width || p->dstPtr.pitch < e.width)
    return hipErrorInvalidPitchValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  max_pitch = dev->props.memPitch;
  if (max_pitch != 0 && (p->srcPtr.pitch > max_pitch || p->dstPtr.pitch > max_pitch))
    return hipErrorInvalidValue;
  if (ah_extent_empty(e)) /* a no-op, as in CUDA */
    return out != NULL ? hipErrorInvalidValue : hipSuccess;
  if ((err = ah_box_locate(&p->srcPtr, p->srcPos, e, &s)) != hipSuccess ||
      (err = ah_box_locate(&p->dstPtr, p->dstPos, e, &d)) != hipSuccess)
    return err;
  err = ah_memcpy_check(p->dstPtr.ptr, d.end, p->srcPtr.ptr, s.end, p->kind, &kind, &pageable);
  if (err != hipSuccess)
    return err;
  dst = (char *)p->dstPtr.ptr + d.start;
  src = (const char *)p->srcPtr.ptr + s.start;
  if (e.depth == 1 || (s.slice_rows == e.height && d.slice_rows == e.height)) {
    /* Contiguous slices are rows of one 2D copy (no overflow: locate
     * computed a larger product). */
    cmd.kind = AH_CMD_COPY_2D;
    cmd.copy2d.dst = dst;
    cmd.copy2d.dpitch = p->dstPtr.pitch;
    cmd.copy2d.src = src;
    cmd.copy2d.spitch = p->srcPtr.pitch;
    cmd.copy2d.width = e.width;
    cmd.copy2d.height = e.height * e.depth;
    cmd.copy2d.kind = kind;
  } else {
    cmd.copy3d.dst = dst;
    cmd.copy3d.dpitch = p->dstPtr.pitch;
    cmd.copy3d.dslice_rows = d.slice_rows;
    cmd.copy3d.src = src;
    cmd.copy3d.spitch = p->srcPtr.pitch;
    cmd.copy3d.sslice_rows = s.slice_rows;
    cmd.copy3d.width = e.width;
    cmd.copy3d.height = e.height;
    cmd.copy3d.depth = e.depth;
    cmd.copy3d.kind = kind;
  }
  if (out != NULL) { /* a graph node's command (hip_graph.c) */
    *out = cmd;
    return hipSuccess;
  }
  if (!sync && ah_memcpy_stage(dev, q, &cmd, pageable, &err))
    return err;
  /* hipMemcpy3D between two device buffers does not wait for the copy (AMD's runtime, and
   * CUDA's rule for device-to-device copies; ROCm's unit suite checks it); it stays in the null
   * stream's order. hipMemcpy and hipMemcpy2D device to device wait, as AMD's do. */
  if (sync && !pageable && kind == hipMemcpyDeviceToDevice)
    sync = 0;
  return ah_submit(dev, q, &cmd, sync || pageable);
}

/* ---- driver-style descriptors ------------------------------------------- */

/* One side of a hip_Memcpy2D: its base pointer by memory type and whether
 * the type names host memory (*host) or leaves it to the allocation map
 * (*unified, for managed and unified memory). */
static hipError_t param_side(hipMemoryType type, const void *host_ptr, const void *dev_ptr,
                             hipArray_t array, const void **out, int *host, int *unified) {
  (void)array; /* hipMemoryTypeArray went to core/array.c */
  *host = type == hipMemoryTypeHost;
  *unified = type == hipMemoryTypeManaged || type == hipMemoryTypeUnified;
  if (type == hipMemoryTypeHost)
    *out = host_ptr;
  else if (type == hipMemoryTypeDevice || *unified)
    *out = dev_ptr;
  else
    return hipErrorInvalidValue;
  return hipSuccess;
}

/* base + y * pitch + x with x + width within the pitch; NULL on overflow. */
static const char *param_at(const void *base, size_t x, size_t y, size_t pitch, size_t width) {
  size_t off;

  if (x > pitch || width > pitch - x || !ah_mul_add(y, pitch, x, &off) ||
      off > UINTPTR_MAX - (uintptr_t)base)
    return NULL;
  return (const char *)base + off;
}

/* A side of memory type hipMemoryTypeDevice: its base pointer must be memory
 * the runtime allocated and the rows [at, at + (height - 1) * pitch + width)
 * must lie in that allocation (AMD's check; a row past the end is
 * hipErrorInvalidValue, not a copy from whatever lies there). */
static hipError_t param_in_alloc(const void *base, const char *at, size_t pitch, size_t width,
                                 size_t height) {
  uintptr_t lo, x = (uintptr_t)base;
  struct ah_alloc a;
  size_t span;

  if (!ah_alloc_find(base, &a))
    return hipErrorInvalidValue;
  lo = a.host_ptr != NULL && x >= (uintptr_t)a.host_ptr && x - (uintptr_t)a.host_ptr < a.bytes
           ? (uintptr_t)a.host_ptr
           : (uintptr_t)a.device_ptr;
  if (!ah_mul_add(height - 1, pitch, width, &span) || (uintptr_t)at < lo ||
      (uintptr_t)at - lo > a.bytes || span > a.bytes - ((uintptr_t)at - lo))
    return hipErrorInvalidValue;
  return hipSuccess;
}

hipError_t ah_memcpy_param_2d(const hip_Memcpy2D *in, hipStream_t stream, int sync) {
  const void *src, *dst;
  const char *s, *d;
  int shost, sunified, dhost, dunified;
  hipMemcpyKind kind;
  hip_Memcpy2D copy;
  const hip_Memcpy2D *c = &copy;
  struct ah_device *dev;
  size_t max_pitch;
  hipError_t err;

  if (in == NULL)
    return hipErrorInvalidValue;
  /* AMD's runtime copies a descriptor as an OpenCL rectangle: a pitch of 0 is the row's
   * width (rows packed); a pitch below the width, or above the device's memPitch, is an
   * invalid value (not hipMemcpy2D's invalid pitch). */
  copy = *in;
  if (copy.srcPitch == 0)
    copy.srcPitch = copy.WidthInBytes;
  if (copy.dstPitch == 0)
    copy.dstPitch = copy.WidthInBytes;
  if (copy.srcPitch < copy.WidthInBytes || copy.dstPitch < copy.WidthInBytes)
    return hipErrorInvalidValue;
  if ((dev = ah_current_device()) != NULL && (max_pitch = dev->props.memPitch) != 0 &&
      (copy.srcPitch > max_pitch || copy.dstPitch > max_pitch))
    return hipErrorInvalidValue;
  if (c->srcMemoryType == hipMemoryTypeArray || c->dstMemoryType == hipMemoryTypeArray) {
    HIP_MEMCPY3D c3 = {
        .srcXInBytes = c->srcXInBytes, .srcY = c->srcY, .srcMemoryType = c->srcMemoryType,
        .srcHost = c->srcHost, .srcDevice = c->srcDevice, .srcArray = c->srcArray,
        .srcPitch = c->srcPitch, .dstXInBytes = c->dstXInBytes, .dstY = c->dstY,
        .dstMemoryType = c->dstMemoryType, .dstHost = c->dstHost, .dstDevice = c->dstDevice,
        .dstArray = c->dstArray, .dstPitch = c->dstPitch, .WidthInBytes = c->WidthInBytes,
        .Height = c->Height, .Depth = 1};
    return ah_memcpy_drv_array(&c3, stream, sync); /* core/array.c */
  }
  if ((err = param_side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, &src, &shost,
                        &sunified)) != hipSuccess ||
      (err = param_side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, &dst, &dhost,
                        &dunified)) != hipSuccess)
    return err;
  if (c->WidthInBytes == 0 || c->Height == 0) /* still checks the stream */
    return ah_memcpy_2d(NULL, c->dstPitch, NULL, c->srcPitch, 0, 0, hipMemcpyDefault, stream, sync);
  if (src == NULL || dst == NULL)
    return hipErrorInvalidValue;
  s = param_at(src, c->srcXInBytes, c->srcY, c->srcPitch, c->WidthInBytes);
  d = param_at(dst, c->dstXInBytes, c->dstY, c->dstPitch, c->WidthInBytes);
  if (s == NULL || d == NULL)
    return hipErrorInvalidValue;
  if ((c->srcMemoryType == hipMemoryTypeDevice &&
       (err = param_in_alloc(src, s, c->srcPitch, c->WidthInBytes, c->Height)) != hipSuccess) ||
      (c->dstMemoryType == hipMemoryTypeDevice &&
       (err = param_in_alloc(dst, d, c->dstPitch, c->WidthInBytes, c->Height)) != hipSuccess))
    return err;
  /* The memory types say the direction, unless one is unified memory. */
  if (sunified || dunified)
    kind = hipMemcpyDefault;
  else
    kind = shost ? (dhost ? hipMemcpyHostToHost : hipMemcpyHostToDevice)
                 : (dhost ? hipMemcpyDeviceToHost : hipMemcpyDeviceToDevice);
  return ah_memcpy_2d((void *)d, c->dstPitch, s, c->srcPitch, c->WidthInBytes, c->Height, kind,
                      stream, sync);
}

/* A driver-style 3D copy is Depth 2D copies, slice z at row (Z + z) * height of each side,
 * queued in order on the same stream (what hipMemset3D does with its slices). */
hipError_t ah_memcpy_param_3d(const HIP_MEMCPY3D *c, hipStream_t stream, int sync) {
  hip_Memcpy2D p;
  hipError_t err;
  size_t z, src_height, dst_height;

  if (c == NULL)
    return hipErrorInvalidValue;
  if (c->srcMemoryType == hipMemoryTypeArray || c->dstMemoryType == hipMemoryTypeArray)
    return ah_memcpy_drv_array(c, stream, sync); /* core/array.c */
  if (c->srcLOD != 0 || c->dstLOD != 0)
    return hipErrorInvalidValue; /* levels are for mipmapped arrays */
  /* A slice height of 0 is the copy's height (slices packed: the OpenCL rectangle rule AMD's
   * runtime follows); a smaller one than the copy's is an invalid value. */
  src_height = c->srcHeight != 0 ? c->srcHeight : c->Height;
  dst_height = c->dstHeight != 0 ? c->dstHeight : c->Height;
  if (c->Depth > 1 && (src_height < c->Height || dst_height < c->Height))
    return hipErrorInvalidValue;
  p = (hip_Memcpy2D){.srcXInBytes = c->srcXInBytes,
                     .srcMemoryType = c->srcMemoryType,
                     .srcHost = c->srcHost,
                     .srcDevice = c->srcDevice,
                     .srcArray = c->srcArray,
                     .srcPitch = c->srcPitch,
                     .dstXInBytes = c->dstXInBytes,
                     .dstMemoryType = c->dstMemoryType,
                     .dstHost = c->dstHost,
                     .dstDevice = c->dstDevice,
                     .dstArray = c->dstArray,
                     .dstPitch = c->dstPitch,
                     .WidthInBytes = c->WidthInBytes,
                     .Height = c->Height};
  if (c->Depth == 0) {
    p.Height = 0; /* checks the arguments and the stream, copies nothing */
    return ah_memcpy_param_2d(&p, stream, sync);
  }
  for (z = 0; z < c->Depth; z++) {
    if (!ah_mul_add(c->srcZ + z, src_height, c->srcY, &p.srcY) ||
        !ah_mul_add(c->dstZ + z, dst_height, c->dstY, &p.dstY))
      return hipErrorInvalidValue;
    /* Only the last slice of a synchronous copy waits: the queue keeps the order. */
    err = ah_memcpy_param_2d(&p, stream, sync && z + 1 == c->Depth);
    if (err != hipSuccess)
      return err;
  }
  return hipSuccess;
}
