/* SPDX-License-Identifier: MIT */
/* Sets: hipMemset's work and that of its element-size, 2D and 3D variants,
 * and the set command a graph's memset node runs. The destination must be
 * memory HIP knows (memcpy.c says what a pointer is). */
#include "memory.h"

/* The command of a set of `count` elements of `elem` bytes per row, `height`
 * rows `pitch` apart. The destination must be device-visible memory HIP
 * knows: an allocation or a device variable (HIP rejects plain host memory).
 * An empty set is a command with no rows. */
hipError_t ah_memset_cmd(void *dst, uint32_t value, unsigned elem, size_t count, size_t pitch,
                         size_t height, struct ah_cmd *cmd) {
  struct ah_mem_side d;
  size_t row, extent;

  *cmd = (struct ah_cmd){.kind = AH_CMD_SET};
  if (count > SIZE_MAX / elem)
    return hipErrorInvalidValue;
  row = count * elem;
  if (height > 1 && row > pitch)
    return hipErrorInvalidValue;
  ah_mem_classify(dst, &d);
  if (!d.known)
    return hipErrorInvalidValue;
  /* Elements are written whole: they must be aligned, as in CUDA. */
  if ((uintptr_t)dst % elem != 0 || (height > 1 && pitch % elem != 0))
    return hipErrorInvalidValue;
  if (row == 0 || height == 0)
    return hipSuccess;
  extent = ah_extent_2d(pitch, row, height);
  if (extent == 0 || !ah_mem_fits(&d, dst, extent) || d.prot != hipMemAccessFlagsProtReadWrite)
    return hipErrorInvalidValue;
  cmd->set.dst = dst;
  cmd->set.value = value;
  cmd->set.elem_size = elem;
  cmd->set.count = count;
  cmd->set.pitch = height > 1 ? pitch : row;
  cmd->set.height = height;
  cmd->set.host = !d.device;
  return hipSuccess;
}

/* Whether p lies in a device allocation (not managed, pinned or registered memory). */
static int device_memory(const void *p) {
  struct ah_alloc a;

  return ah_alloc_find(p, &a) && a.kind == AH_MEM_DEVICE && a.host_ptr == NULL;
}

hipError_t ah_memset(void *dst, uint32_t value, unsigned elem, size_t count, size_t pitch,
                     size_t height, hipStream_t stream, int sync) {
  struct ah_cmd cmd;
  struct ah_device *dev;
  struct ah_queue *q;
  hipError_t err;

  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  /* Nothing to set is success whatever dst is (NULL, one past an allocation), as in AMD's
   * runtime, which checks the size before the pointer. */
  if (count == 0 || height == 0)
    return hipSuccess;
  if (dst == NULL)
    return hipErrorInvalidValue;
  err = ah_memset_cmd(dst, value, elem, count, pitch, height, &cmd);
  if (err != hipSuccess || cmd.set.height == 0)
    return err;
  /* The synchronous forms are asynchronous with respect to the host when they set device
   * memory (hipMalloc's; HIP and CUDA document this): queued on the null stream, not waited
   * for. Host, pinned and managed memory, which the host may read next, are set by return. */
  if (sync && device_memory(dst))
    sync = 0;
  return ah_submit(dev, q, &cmd, sync);
}

hipError_t ah_memset_check(void *dst, size_t extent, int *host) {
  struct ah_mem_side d;

  ah_mem_classify(dst, &d);
  if (!d.known || !ah_mem_fits(&d, dst, extent) || d.prot != hipMemAccessFlagsProtReadWrite)
    return hipErrorInvalidValue;
  *host = !d.device;
  return hipSuccess;
}

/* A 3D set is 2D sets: one when the slices are contiguous, else one per
 * slice (what CUDA does too; its driver has no 3D set), queued in order on
 * the same queue so that only the last needs to be waited for. */
hipError_t ah_memset_3d(hipPitchedPtr p, int value, hipExtent e, hipStream_t stream, int sync) {
  struct ah_cmd cmd = {.kind = AH_CMD_SET};
  struct ah_device *dev;
  struct ah_box b;
  hipPos origin = {0, 0, 0};
  size_t slices, slice_bytes;
  struct ah_queue *q;
  int host;
  hipError_t err;

  if (p.ptr == NULL)
    return hipErrorInvalidValue;
  if (p.pitch < e.width) /* as hipMemset2D */
    return hipErrorInvalidValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess || ah_extent_empty(e))
    return err;
  if ((err = ah_box_locate(&p, origin, e, &b)) != hipSuccess ||
      (err = ah_memset_check(p.ptr, b.end, &host)) != hipSuccess)
    return err;
  cmd.set.dst = p.ptr;
  cmd.set.value = (uint8_t)value;
  cmd.set.elem_size = 1;
  cmd.set.count = e.width;
  cmd.set.pitch = p.pitch;
  cmd.set.height = e.height;
  cmd.set.host = host;
  slices = e.depth;
  if (b.slice_rows == e.height) {
    cmd.set.height = e.height * e.depth;
    slices = 1;
  }
  slice_bytes = b.slice_rows * p.pitch; /* within b.end: no overflow */
  for (size_t z = 0; z < slices; z++) {
    err = ah_submit(dev, q, &cmd, sync && z == slices - 1);
    if (err != hipSuccess)
      return err;
    cmd.set.dst = (char *)cmd.set.dst + slice_bytes;
  }
  return hipSuccess;
}
