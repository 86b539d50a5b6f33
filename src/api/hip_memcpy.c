/* SPDX-License-Identifier: MIT */
/* Copies and sets: hipMemcpy and its 2D, driver-style, peer and symbol
 * variants, hipMemset and its element-size and 2D variants. Each call is
 * checked against the allocation map (a known pointer must have room for the
 * whole range; hipMemcpyDefault takes its direction from the map, unknown
 * pointers being pageable host memory) and becomes one struct ah_cmd on the
 * right queue: the synchronous forms go to the null stream and wait. */
#include "internal.h"
#include "mem_internal.h"

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

/* The device address and size of `symbol` (a variable's host address) on dev. */
static hipError_t resolve_symbol(struct ah_device *dev, const void *symbol, void **addr,
                                 size_t *size) {
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if (dev->backend->symbol_address == NULL)
    return hipErrorInvalidSymbol;
  err = dev->backend->symbol_address(dev, symbol, addr, size);
  if (err == hipSuccess)
    remember_symbol(dev, *addr, *size);
  return err;
}

/* For hipModuleGetGlobal (hip_module.c): the same lookup, remembered. */
hipError_t ah_memcpy_symbol(struct ah_device *dev, const void *symbol, void **addr, size_t *size) {
  return resolve_symbol(dev, symbol, addr, size);
}

int ah_memcpy_symbol_kind(hipMemcpyKind kind, int to_symbol) {
  return kind == (to_symbol ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost) ||
         kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDefault ||
         kind == hipMemcpyDeviceToDeviceNoCU;
}

/* ---- what a pointer is -------------------------------------------------- */

struct side {
  int known;     /* an allocation or a device variable */
  int prot;      /* hipMemAccessFlags of a hipMemMap range; 3 (read-write) otherwise */
  int device;    /* on the device side (for hipMemcpyDefault) */
  uintptr_t end; /* end of the known range holding the pointer */
};

static void classify(const void *p, struct side *s) {
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

/* A known pointer must have `extent` bytes after it; an unknown one at least
 * must not run past the end of the address space (that range exists nowhere,
 * and the copy would fault instead of failing). */
static int fits(const struct side *s, const void *p, size_t extent) {
  if (!s->known)
    return extent == 0 || extent - 1 <= UINTPTR_MAX - (uintptr_t)p;
  return extent <= s->end - (uintptr_t)p;
}

static int valid_kind(hipMemcpyKind kind) {
  return (unsigned)kind <= hipMemcpyDefault || kind == hipMemcpyDeviceToDeviceNoCU;
}

/* Checks a copy of `dext` bytes at dst from `sext` bytes at src and picks
 * the direction the backend gets. `*pageable` says an end is unknown host
 * memory: the copy then completes before the call returns, as CUDA's
 * staging through pageable memory makes it look. */
static hipError_t check_copy(void *dst, size_t dext, const void *src, size_t sext,
                             hipMemcpyKind kind, hipMemcpyKind *out, int *pageable) {
  struct side d, s;

  classify(dst, &d);
  classify(src, &s);
  if (!fits(&d, dst, dext) || !fits(&s, src, sext))
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
  *pageable = !d.known || !s.known;
  return hipSuccess;
}

static hipError_t submit(struct ah_device *dev, void *q, const struct ah_cmd *cmd, int wait) {
  return ah_submit(dev, q, cmd, wait);
}

/* Checks a 1D copy against the allocation map and queues it on q; a copy
 * touching pageable host memory completes before this returns, as in CUDA. */
static hipError_t submit_copy(struct ah_device *dev, void *q, void *dst, const void *src,
                              size_t bytes, hipMemcpyKind kind, int sync) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY};
  int pageable;
  hipError_t err = check_copy(dst, bytes, src, bytes, kind, &cmd.copy.kind, &pageable);

  if (err != hipSuccess)
    return err;
  cmd.copy.dst = dst;
  cmd.copy.src = src;
  cmd.copy.bytes = bytes;
  /* An Async copy between pinned host buffers stays asynchronous, as in CUDA (AMD's runtime
   * finishes it before returning; programs that queue it behind a gate would then block). */
  return submit(dev, q, &cmd, sync || pageable);
}

/* ---- 1D copies ---------------------------------------------------------- */

static hipError_t copy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
                       hipStream_t stream, int sync) {
  struct ah_device *dev;
  void *q;
  hipError_t err;

  if (!valid_kind(kind))
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

AH_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes,
                                    hipMemcpyKind kind, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, kind, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes,
                                         hipMemcpyKind kind, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, kind, stream, 1));
}

AH_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void *src, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const void *src, size_t sizeBytes,
                                        hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes,
                                        hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                                        hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, 0));
}

/* Peer copies: with unified addressing a device-to-device copy reaches any
 * device's memory; it runs on the source device's queue. */
static hipError_t copy_peer(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                            hipStream_t stream, int sync) {
  struct ah_device *sdev = ah_device_get(src_dev), *dev;
  void *q;
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

AH_EXPORT hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                                   size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(copy_peer(dst, dstDeviceId, src, srcDeviceId, sizeBytes, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                                        size_t sizeBytes, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(copy_peer(dst, dstDeviceId, src, srcDevice, sizeBytes, stream, 0));
}

/* ---- 2D copies ---------------------------------------------------------- */

/* Bytes a pitched region spans: (height - 1) rows of pitch plus one width;
 * 0 on overflow. width and height are not 0. */
static size_t extent_2d(size_t pitch, size_t width, size_t height) {
  size_t rows = height - 1;

  if (rows != 0 && pitch > (SIZE_MAX - width) / rows)
    return 0;
  return rows * pitch + width;
}

static hipError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, hipMemcpyKind kind, hipStream_t stream, int sync) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY_2D};
  struct ah_device *dev;
  size_t dext, sext, max_pitch;
  void *q;
  int pageable;
  hipError_t err;

  if (!valid_kind(kind))
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
  dext = extent_2d(dpitch, width, height);
  sext = extent_2d(spitch, width, height);
  if (dext == 0 || sext == 0)
    return hipErrorInvalidValue;
  err = check_copy(dst, dext, src, sext, kind, &cmd.copy2d.kind, &pageable);
  if (err != hipSuccess)
    return err;
  cmd.copy2d.dst = dst;
  cmd.copy2d.dpitch = dpitch;
  cmd.copy2d.src = src;
  cmd.copy2d.spitch = spitch;
  cmd.copy2d.width = width;
  cmd.copy2d.height = height;
  return submit(dev, q, &cmd, sync || pageable);
}

AH_EXPORT hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                 size_t width, size_t height, hipMemcpyKind kind) {
  AH_ENTER();
  AH_RETURN(copy_2d(dst, dpitch, src, spitch, width, height, kind, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                      size_t width, size_t height, hipMemcpyKind kind,
                                      hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, 0));
}

/* ---- sets --------------------------------------------------------------- */

/* The command of a set of `count` elements of `elem` bytes per row, `height`
 * rows `pitch` apart. The destination must be device-visible memory HIP
 * knows: an allocation or a device variable (HIP rejects plain host memory).
 * An empty set is a command with no rows. */
hipError_t ah_memset_cmd(void *dst, uint32_t value, unsigned elem, size_t count, size_t pitch,
                         size_t height, struct ah_cmd *cmd) {
  struct side d;
  size_t row, extent;

  *cmd = (struct ah_cmd){.kind = AH_CMD_SET};
  if (count > SIZE_MAX / elem)
    return hipErrorInvalidValue;
  row = count * elem;
  if (height > 1 && row > pitch)
    return hipErrorInvalidValue;
  classify(dst, &d);
  if (!d.known)
    return hipErrorInvalidValue;
  /* Elements are written whole: they must be aligned, as in CUDA. */
  if ((uintptr_t)dst % elem != 0 || (height > 1 && pitch % elem != 0))
    return hipErrorInvalidValue;
  if (row == 0 || height == 0)
    return hipSuccess;
  extent = extent_2d(pitch, row, height);
  if (extent == 0 || !fits(&d, dst, extent) || d.prot != hipMemAccessFlagsProtReadWrite)
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

static hipError_t set(void *dst, uint32_t value, unsigned elem, size_t count, size_t pitch,
                      size_t height, hipStream_t stream, int sync) {
  struct ah_cmd cmd;
  struct ah_device *dev;
  void *q;
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
  return submit(dev, q, &cmd, sync);
}

AH_EXPORT hipError_t hipMemset(void *dst, int value, size_t sizeBytes) {
  AH_ENTER();
  AH_RETURN(set(dst, (uint8_t)value, 1, sizeBytes, sizeBytes, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(set(dst, (uint8_t)value, 1, sizeBytes, sizeBytes, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count) {
  AH_ENTER();
  AH_RETURN(set(dest, value, 1, count, count, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count) {
  AH_ENTER();
  AH_RETURN(set(dest, value, 2, count, 0, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count) {
  AH_ENTER();
  AH_RETURN(set(dest, (uint32_t)value, 4, count, 0, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count,
                                      hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(set(dest, value, 1, count, count, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count,
                                       hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(set(dest, value, 2, count, 0, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                                       hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(set(dst, (uint32_t)value, 4, count, 0, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height) {
  AH_ENTER();
  AH_REQUIRE(pitch >= width, hipErrorInvalidValue);
  AH_RETURN(set(dst, (uint8_t)value, 1, width, pitch, height, NULL, 1));
}

AH_EXPORT hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
                                      size_t height, hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(pitch >= width, hipErrorInvalidValue);
  AH_RETURN(set(dst, (uint8_t)value, 1, width, pitch, height, stream, 0));
}

/* ---- device variables --------------------------------------------------- */

/* Copies between a device variable (at `offset` into it) and memory. */
static hipError_t copy_symbol(const void *symbol, void *mem, size_t bytes, size_t offset,
                              hipMemcpyKind kind, int to_symbol, hipStream_t stream, int sync) {
  struct ah_cmd cmd = {.kind = AH_CMD_COPY};
  struct ah_device *dev;
  struct side m;
  void *addr, *q;
  size_t size;
  hipError_t err;

  if (!ah_memcpy_symbol_kind(kind, to_symbol))
    return hipErrorInvalidMemcpyDirection;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  err = resolve_symbol(dev, symbol, &addr, &size);
  if (err != hipSuccess)
    return err;
  if (offset > size || bytes > size - offset)
    return hipErrorInvalidValue;
  if (bytes == 0)
    return hipSuccess;
  classify(mem, &m);
  if (!fits(&m, mem, bytes) || m.prot != hipMemAccessFlagsProtReadWrite)
    return hipErrorInvalidValue;
  if (kind == hipMemcpyDefault || kind == hipMemcpyDeviceToDeviceNoCU)
    kind = m.device ? hipMemcpyDeviceToDevice
                    : (to_symbol ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost);
  cmd.copy.kind = kind;
  cmd.copy.bytes = bytes;
  cmd.copy.dst = to_symbol ? (char *)addr + offset : mem;
  cmd.copy.src = to_symbol ? (const char *)mem : (const char *)addr + offset;
  return submit(dev, q, &cmd, sync || !m.known);
}

AH_EXPORT hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t sizeBytes,
                                       size_t offset, hipMemcpyKind kind) {
  AH_ENTER();
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_REQUIRE(src != NULL, hipErrorInvalidValue);
  AH_RETURN(copy_symbol(symbol, (void *)src, sizeBytes, offset, kind, 1, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t sizeBytes,
                                            size_t offset, hipMemcpyKind kind, hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_REQUIRE(src != NULL, hipErrorInvalidValue);
  AH_RETURN(copy_symbol(symbol, (void *)src, sizeBytes, offset, kind, 1, stream, 0));
}

AH_EXPORT hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t sizeBytes,
                                         size_t offset, hipMemcpyKind kind) {
  AH_ENTER();
  AH_REQUIRE(dst != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(copy_symbol(symbol, dst, sizeBytes, offset, kind, 0, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t sizeBytes,
                                              size_t offset, hipMemcpyKind kind,
                                              hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(dst != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(copy_symbol(symbol, dst, sizeBytes, offset, kind, 0, stream, 0));
}

AH_EXPORT hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol) {
  size_t size;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(resolve_symbol(ah_current_device(), symbol, devPtr, &size));
}

AH_EXPORT hipError_t hipGetSymbolSize(size_t *size, const void *symbol) {
  void *addr;

  AH_ENTER();
  AH_REQUIRE(size != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbol != NULL, hipErrorInvalidSymbol);
  AH_RETURN(resolve_symbol(ah_current_device(), symbol, &addr, size));
}

/* ---- shared with hip_memcpy3d.c (mem_internal.h) ------------------------ */

int ah_memcpy_valid_kind(hipMemcpyKind kind) {
  return valid_kind(kind);
}

hipError_t ah_memcpy_check(void *dst, size_t dext, const void *src, size_t sext,
                           hipMemcpyKind kind, hipMemcpyKind *out, int *pageable) {
  return check_copy(dst, dext, src, sext, kind, out, pageable);
}

hipError_t ah_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, hipMemcpyKind kind, hipStream_t stream, int sync) {
  return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, sync);
}

hipError_t ah_memset_check(void *dst, size_t extent, int *host) {
  struct side d;

  classify(dst, &d);
  if (!d.known || !fits(&d, dst, extent) || d.prot != hipMemAccessFlagsProtReadWrite)
    return hipErrorInvalidValue;
  *host = !d.device;
  return hipSuccess;
}
