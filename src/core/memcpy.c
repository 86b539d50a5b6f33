/* SPDX-License-Identifier: MIT */
/* Copies: hipMemcpy's work and that of its 2D, peer and symbol variants,
 * and what a pointer is (memset.c and memcpy3d.c ask too). Each copy is
 * checked against the allocation map (a known pointer must have room for the
 * whole range; hipMemcpyDefault takes its direction from the map, unknown
 * pointers being pageable host memory) and becomes one struct ah_cmd on the
 * right queue: the synchronous forms go to the null stream and wait. Graph
 * nodes build their copy commands with the same checks. */
#include "device_ops.h"
#include "memory.h"

#include <stdlib.h>
#include <string.h>

/* ---- device variables seen so far ------------------------------------- */

/* Device addresses of __device__/__constant__ variables are not allocations,
 * yet hipGetSymbolAddress hands them out for use with hipMemcpy and
 * hipMemset. Every symbol resolved here is remembered so that those calls
 * recognise its range as device memory. A program has few such variables. */
struct symbol_range {
  struct ah_device *dev;
  uintptr_t addr;
  size_t size;
};
static pthread_rwlock_t symbols_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct symbol_range *symbols;
static size_t nsymbols, symbols_cap;

static void remember_symbol(struct ah_device *dev, void *addr, size_t size) {
  pthread_rwlock_wrlock(&symbols_lock);
  for (size_t i = 0; i < nsymbols; i++) {
    if (symbols[i].dev == dev && symbols[i].addr == (uintptr_t)addr) {
      symbols[i].size = size;
      goto out;
    }
  }
  if (nsymbols == symbols_cap) {
    size_t cap = symbols_cap ? symbols_cap * 2 : 16;
    struct symbol_range *s = realloc(symbols, cap * sizeof(*s));

    if (s == NULL)
      goto out; /* only leniency is lost: the range stays "unknown" */
    symbols = s;
    symbols_cap = cap;
  }
  symbols[nsymbols++] = (struct symbol_range){dev, (uintptr_t)addr, size};
out:
  pthread_rwlock_unlock(&symbols_lock);
}

/* Finds the remembered symbol holding p; returns its end address or 0. */
static uintptr_t symbol_end(const void *p) {
  uintptr_t x = (uintptr_t)p, end = 0;

  pthread_rwlock_rdlock(&symbols_lock);
  for (size_t i = 0; i < nsymbols && end == 0; i++)
    if (x >= symbols[i].addr && x - symbols[i].addr < symbols[i].size)
      end = symbols[i].addr + symbols[i].size;
  pthread_rwlock_unlock(&symbols_lock);
  return end;
}

hipError_t ah_memcpy_symbol(struct ah_device *dev, const void *symbol, void **addr, size_t *size) {
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  err = ah_dev_symbol_address(dev, symbol, addr, size);
  if (err == hipSuccess)
    remember_symbol(dev, *addr, *size);
  return err;
}

int ah_memcpy_symbol_kind(hipMemcpyKind kind, int to_symbol) {
  return kind == (to_symbol ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost) ||
         kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDefault ||
         kind == hipMemcpyDeviceToDeviceNoCU;
}

/* ---- what a pointer is -------------------------------------------------- */

void ah_mem_classify(const void *p, struct ah_mem_side *s) {
  struct ah_alloc a;
  uintptr_t x = (uintptr_t)p;

  memset(s, 0, sizeof(*s));
  s->prot = hipMemAccessFlagsProtReadWrite;
  if (ah_alloc_find(p, &a)) {
    uintptr_t h = (uintptr_t)a.host_ptr;

    s->known = 1;
    if (a.origin == AH_ORIGIN_VMM) /* the access hipMemSetAccess gave (src/api/hip_vmm.c) */
      s->prot = (int)a.flags;
    if (a.host_ptr != NULL && x >= h && x - h < a.bytes) {
      /* Pinned and registered host memory is host memory; managed memory
       * counts as device memory, as CUDA's unified addressing sees it. */
      s->device = a.kind == AH_MEM_MANAGED || a.kind == AH_MEM_DEVICE;
      s->end = h + a.bytes;
    } else {
      s->device = 1;
      s->end = (uintptr_t)a.device_ptr + a.bytes;
    }
    return;
  }
  s->end = symbol_end(p);
  s->known = s->device = s->end != 0;
}

int ah_mem_fits(const struct ah_mem_side *s, const void *p, size_t extent) {
  if (!s->known)
    return extent == 0 || extent - 1 <= UINTPTR_MAX - (uintptr_t)p;
  return extent <= s->end - (uintptr_t)p;
}

int ah_memcpy_valid_kind(hipMemcpyKind kind) {
  return (unsigned)kind <= hipMemcpyDefault || kind == hipMemcpyDeviceToDeviceNoCU;
}

hipError_t ah_memcpy_check(void *dst, size_t dext, const void *src, size_t sext, hipMemcpyKind kind,
                           hipMemcpyKind *out, int *pageable) {
  struct ah_mem_side d, s;

  ah_mem_classify(dst, &d);
  ah_mem_classify(src, &s);
  if (!ah_mem_fits(&d, dst, dext) || !ah_mem_fits(&s, src, sext))
    return hipErrorInvalidValue;
  /* A mapped range the device may not write (or read): refused, not faulted. */
  if ((dext != 0 && d.prot != hipMemAccessFlagsProtReadWrite) ||
      (sext != 0 && !(s.prot & hipMemAccessFlagsProtRead)))
    return hipErrorInvalidValue;
  /* HIP's one direction check: two unknown (host) pointers need a host kind. */
  if (!d.known && !s.known && kind != hipMemcpyHostToHost && kind != hipMemcpyDefault)
    return hipErrorInvalidValue;
  if (kind == hipMemcpyDefault)
    kind = s.device ? (d.device ? hipMemcpyDeviceToDevice : hipMemcpyDeviceToHost)
                    : (d.device ? hipMemcpyHostToDevice : hipMemcpyHostToHost);
  else if (kind == hipMemcpyDeviceToDeviceNoCU)
    kind = hipMemcpyDeviceToDevice;
  *out = kind;
  *pageable = (!d.known ? AH_PAGEABLE_DST : 0) | (!s.known ? AH_PAGEABLE_SRC : 0) |
              (kind == hipMemcpyHostToHost ? AH_HOST_TO_HOST : 0);
  return hipSuccess;
}

/* ---- staging of pageable sources ------------------------------------------ */

/* An asynchronous 2D or 3D copy from pageable host memory into memory the runtime knows returns
 * without waiting for its stream, as AMD's runtime does (ROCm's unit suite checks it for
 * hipMemcpy2DAsync, hipMemcpyParam2DAsync, hipMemcpy3DAsync, hipDrvMemcpy3DAsync); a 1D
 * hipMemcpyAsync from pageable memory stays synchronous, as HIP documents and AMD's runtime does.
 * The source box is copied into a staging buffer at the call (so it may be changed at once, as
 * after CUDA's staging), the copy is queued from there, and a host function queued after it
 * frees the buffer. Not under capture (a captured copy keeps its pointers) and not for a
 * destination that is host memory (host to host copies are synchronous). */
int ah_memcpy_stage(struct ah_device *dev, struct ah_queue *q, struct ah_cmd *cmd, int pageable,
                    hipError_t *err) {
  struct ah_cmd done = {.kind = AH_CMD_HOST_FN};
  size_t w, h, d, spitch, sslice, bytes;
  const char *src;
  char *buf;

  /* The NVIDIA driver reads pageable memory when a copy is enqueued, after the stream's earlier
   * work (its backend settles the queue first): staging there would copy twice for nothing. */
  if (pageable != AH_PAGEABLE_SRC || !dev->backend->host_addressable ||
      atomic_load_explicit(&ah_capture_count, memory_order_relaxed) != 0)
    return 0;
  if (cmd->kind == AH_CMD_COPY_2D && cmd->copy2d.kind == hipMemcpyHostToDevice) {
    w = cmd->copy2d.width, h = cmd->copy2d.height, d = 1;
    spitch = cmd->copy2d.spitch, sslice = 0, src = cmd->copy2d.src;
  } else if (cmd->kind == AH_CMD_COPY_3D && cmd->copy3d.kind == hipMemcpyHostToDevice &&
             cmd->copy3d.src_array == NULL && cmd->copy3d.dst_array == NULL) {
    w = cmd->copy3d.width, h = cmd->copy3d.height, d = cmd->copy3d.depth;
    spitch = cmd->copy3d.spitch, sslice = cmd->copy3d.sslice_rows * spitch;
    src = cmd->copy3d.src;
  } else {
    return 0;
  }
  if (w == 0 || h == 0 || d == 0 || !ah_mul_add(w, h * d, 0, &bytes) || bytes / d / h != w ||
      (buf = malloc(bytes)) == NULL)
    return 0; /* the caller copies synchronously */
  for (size_t z = 0; z < d; z++)
    for (size_t y = 0; y < h; y++)
      memcpy(buf + (z * h + y) * w, src + z * sslice + y * spitch, w);
  if (cmd->kind == AH_CMD_COPY_2D) {
    cmd->copy2d.src = buf;
    cmd->copy2d.spitch = w;
  } else {
    cmd->copy3d.src = buf;
    cmd->copy3d.spitch = w;
    cmd->copy3d.sslice_rows = h;
  }
  *err = ah_submit(dev, q, cmd, 0);
  if (*err != hipSuccess) {
    free(buf);
    return 1;
  }
  done.host_fn.fn = free;
  done.host_fn.data = buf;
  if (ah_submit(dev, q, &done, 0) != hipSuccess) {
    /* No room to queue the free: wait for the copy here and free now. */
    *err = ah_dev_queue_sync(dev, q);
    free(buf);
  }
  return 1;
}

static int sync_memops(const void *p) {
  struct ah_alloc a;

  return ah_alloc_find(p, &a) && a.sync_memops;
}

/* Checks a 1D copy against the allocation map and queues it on q; a copy
 * touching pageable host memory, or between host buffers, completes before
 * this returns, as in CUDA. */
static hipError_t submit_copy(struct ah_device *dev, struct ah_queue *q, void *dst, const void *src,
                              size_t bytes, hipMemcpyKind kind, int sync) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY};
  int pageable;
  hipError_t err = ah_memcpy_check(dst, bytes, src, bytes, kind, &cmd.copy.kind, &pageable);

  if (err != hipSuccess)
    return err;
  cmd.copy.dst = dst;
  cmd.copy.src = src;
  cmd.copy.bytes = bytes;
  if (sync == AH_COPY_SYNC_API && !pageable && cmd.copy.kind == hipMemcpyDeviceToDevice &&
      !sync_memops(dst) && !sync_memops(src))
    sync = 0; /* queued on the null stream, in its order (memory.h) */
  return ah_submit(dev, q, &cmd, sync || pageable);
}

/* ---- 1D copies ---------------------------------------------------------- */

hipError_t ah_memcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
                     hipStream_t stream, int sync) {
  struct ah_device *dev;
  struct ah_queue *q;
  hipError_t err;

  if (!ah_memcpy_valid_kind(kind))
    return hipErrorInvalidMemcpyDirection;
  if (bytes != 0 && (dst == NULL || src == NULL))
    return hipErrorInvalidValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err == hipSuccess && sync)
    err = ah_capture_check_sync(q); /* hipMemcpyWithStream on a capturing stream */
  if (err != hipSuccess || bytes == 0)
    return err;
  return submit_copy(dev, q, dst, src, bytes, kind, sync);
}

/* Peer copies: with unified addressing a device-to-device copy reaches any
 * device's memory; it runs on the source device's queue. */
hipError_t ah_memcpy_peer(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                          hipStream_t stream, int sync) {
  struct ah_device *sdev = ah_device_get(src_dev), *dev;
  struct ah_queue *q;
  hipError_t err;

  if (sdev == NULL || ah_device_get(dst_dev) == NULL)
    return hipErrorInvalidDevice;
  if (bytes != 0 && (dst == NULL || src == NULL))
    return hipErrorInvalidValue;
  if (sync) {
    dev = sdev;
    q = sdev->null_queue;
  } else {
    err = ah_stream_resolve(stream, &dev, &q);
    if (err != hipSuccess)
      return err;
  }
  if (bytes == 0)
    return hipSuccess;
  return submit_copy(dev, q, dst, src, bytes, hipMemcpyDeviceToDevice, sync);
}

/* ---- 2D copies ---------------------------------------------------------- */

hipError_t ah_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, hipMemcpyKind kind, hipStream_t stream, int sync) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY_2D};
  struct ah_device *dev;
  size_t dext, sext, max_pitch;
  struct ah_queue *q;
  int pageable;
  hipError_t err;

  if (!ah_memcpy_valid_kind(kind))
    return hipErrorInvalidMemcpyDirection;
  if (width != 0 && height != 0 && (dst == NULL || src == NULL))
    return hipErrorInvalidValue;
  if (dpitch < width || spitch < width)
    return hipErrorInvalidPitchValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  max_pitch = dev->props.memPitch;
  if (max_pitch != 0 && (dpitch > max_pitch || spitch > max_pitch))
    return hipErrorInvalidValue;
  if (width == 0 || height == 0)
    return hipSuccess;
  dext = ah_extent_2d(dpitch, width, height);
  sext = ah_extent_2d(spitch, width, height);
  if (dext == 0 || sext == 0)
    return hipErrorInvalidValue;
  err = ah_memcpy_check(dst, dext, src, sext, kind, &cmd.copy2d.kind, &pageable);
  if (err != hipSuccess)
    return err;
  cmd.copy2d.dst = dst;
  cmd.copy2d.dpitch = dpitch;
  cmd.copy2d.src = src;
  cmd.copy2d.spitch = spitch;
  cmd.copy2d.width = width;
  cmd.copy2d.height = height;
  if (!sync && ah_memcpy_stage(dev, q, &cmd, pageable, &err))
    return err;
  return ah_submit(dev, q, &cmd, sync || pageable);
}

/* ---- device variables --------------------------------------------------- */

hipError_t ah_memcpy_symbol_copy(const void *symbol, void *mem, size_t bytes, size_t offset,
                                 hipMemcpyKind kind, int to_symbol, hipStream_t stream, int sync) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY};
  struct ah_device *dev;
  struct ah_mem_side m;
  struct ah_queue *q;
  void *addr;
  size_t size;
  hipError_t err;

  if (!ah_memcpy_symbol_kind(kind, to_symbol))
    return hipErrorInvalidMemcpyDirection;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  err = ah_memcpy_symbol(dev, symbol, &addr, &size);
  if (err != hipSuccess)
    return err;
  if (offset > size || bytes > size - offset)
    return hipErrorInvalidValue;
  if (bytes == 0)
    return hipSuccess;
  ah_mem_classify(mem, &m);
  if (!ah_mem_fits(&m, mem, bytes) || m.prot != hipMemAccessFlagsProtReadWrite)
    return hipErrorInvalidValue;
  if (kind == hipMemcpyDefault || kind == hipMemcpyDeviceToDeviceNoCU)
    kind = m.device ? hipMemcpyDeviceToDevice
                    : (to_symbol ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost);
  cmd.copy.kind = kind;
  cmd.copy.bytes = bytes;
  cmd.copy.dst = to_symbol ? (char *)addr + offset : mem;
  cmd.copy.src = to_symbol ? (const char *)mem : (const char *)addr + offset;
  return ah_submit(dev, q, &cmd, sync || !m.known);
}
