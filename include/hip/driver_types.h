/* SPDX-License-Identifier: MIT */
/* Memory-copy types shared by the runtime API and the driver-style API:
 * copy directions, device pointers, pitched pointers, extents and positions,
 * channel descriptors. Plain C; values and layouts follow HIP 6.2. */
#ifndef HIP_DRIVER_TYPES_H
#define HIP_DRIVER_TYPES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A device address as the driver-style API (hipMemcpyHtoD, ...) names it. */
typedef void *hipDeviceptr_t;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4, /* direction inferred from the pointers */
  hipMemcpyDeviceToDeviceNoCU = 1024
} hipMemcpyKind;

typedef struct hipPitchedPtr {
  void *ptr;
  size_t pitch; /* bytes between rows */
  size_t xsize; /* logical row width in bytes */
  size_t ysize; /* rows */
} hipPitchedPtr;

typedef struct hipExtent {
  size_t width; /* bytes for linear memory, elements for arrays */
  size_t height;
  size_t depth;
} hipExtent;

typedef struct hipPos {
  size_t x;
  size_t y;
  size_t z;
} hipPos;

/* ---- 3D copies (hipMemcpy3D) ---- */

/* HIP arrays (hipMallocArray) are opaque; anyhip does not make any yet, so a
 * copy naming one is refused (docs/memory.md). */
struct hipArray;
typedef struct hipArray *hipArray_t;
typedef const struct hipArray *hipArray_const_t;

/* One side is an array or a pitched pointer; positions and extent are in
 * bytes (x, width) and rows/slices for pitched memory. */
typedef struct hipMemcpy3DParms {
  hipArray_t srcArray;
  struct hipPos srcPos;
  struct hipPitchedPtr srcPtr;
  hipArray_t dstArray;
  struct hipPos dstPos;
  struct hipPitchedPtr dstPtr;
  struct hipExtent extent;
  enum hipMemcpyKind kind;
} hipMemcpy3DParms;

typedef enum hipChannelFormatKind {
  hipChannelFormatKindSigned = 0,
  hipChannelFormatKindUnsigned = 1,
  hipChannelFormatKindFloat = 2,
  hipChannelFormatKindNone = 3
} hipChannelFormatKind;

typedef struct hipChannelFormatDesc {
  int x; /* bits per component */
  int y;
  int z;
  int w;
  enum hipChannelFormatKind f;
} hipChannelFormatDesc;

/* Driver-style array formats and descriptors (hipArrayCreate, hipArray3DCreate). The types
 * are HIP's, so code that names them compiles; anyhip makes no arrays yet (docs/memory.md). */
typedef enum hipArray_Format {
  HIP_AD_FORMAT_UNSIGNED_INT8 = 0x01,
  HIP_AD_FORMAT_UNSIGNED_INT16 = 0x02,
  HIP_AD_FORMAT_UNSIGNED_INT32 = 0x03,
  HIP_AD_FORMAT_SIGNED_INT8 = 0x08,
  HIP_AD_FORMAT_SIGNED_INT16 = 0x09,
  HIP_AD_FORMAT_SIGNED_INT32 = 0x0a,
  HIP_AD_FORMAT_HALF = 0x10,
  HIP_AD_FORMAT_FLOAT = 0x20
} hipArray_Format;

typedef struct HIP_ARRAY_DESCRIPTOR {
  size_t Width;
  size_t Height;
  enum hipArray_Format Format;
  unsigned int NumChannels;
} HIP_ARRAY_DESCRIPTOR;

typedef struct HIP_ARRAY3D_DESCRIPTOR {
  size_t Width;
  size_t Height;
  size_t Depth;
  enum hipArray_Format Format;
  unsigned int NumChannels;
  unsigned int Flags;
} HIP_ARRAY3D_DESCRIPTOR;

/* Texture and surface objects are 64-bit handles in HIP. */
typedef unsigned long long hipTextureObject_t;
typedef unsigned long long hipSurfaceObject_t;

static inline struct hipPitchedPtr make_hipPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  struct hipPitchedPtr s;

  s.ptr = d;
  s.pitch = p;
  s.xsize = xsz;
  s.ysize = ysz;
  return s;
}

static inline struct hipPos make_hipPos(size_t x, size_t y, size_t z) {
  struct hipPos p;

  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}

static inline struct hipExtent make_hipExtent(size_t w, size_t h, size_t d) {
  struct hipExtent e;

  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

#ifdef __cplusplus
}
#endif

#endif
