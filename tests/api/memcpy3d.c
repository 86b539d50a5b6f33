/* SPDX-License-Identifier: MIT */
/* 3D memory: hipMalloc3D's pitch, hipMemcpy3D of sub-boxes between host and
 * device in every direction (offsets on both sides, pitches wider than the
 * rows, slices apart or contiguous), hipMemset3D of a sub-box, the Async forms
 * in stream order, hipMemcpyParam2D, and every argument check. Device memory
 * is only read back through copies, and results are compared byte by byte
 * with a host model updated by plain loops. */
#define _GNU_SOURCE
#include "ah_test.h"
#include "garbage_handles.h"
#include "gate.h"

#include <stdint.h>

/* A volume as a host model sees it: slices of ysize rows, rows pitch bytes
 * apart, xsize meaningful bytes per row. */
struct vol {
  unsigned char *p;
  size_t pitch, xsize, ysize, depth;
};

static size_t at(const struct vol *v, size_t x, size_t y, size_t z) {
  return (z * v->ysize + y) * v->pitch + x;
}

static int host_vol(struct vol *v, size_t pitch, size_t xsize, size_t ysize, size_t depth) {
  v->p = malloc(pitch * ysize * depth);
  v->pitch = pitch;
  v->xsize = xsize;
  v->ysize = ysize;
  v->depth = depth;
  return v->p != NULL;
}

static void fill(struct vol *v, unsigned seed) {
  for (size_t i = 0; i < v->pitch * v->ysize * v->depth; i++)
    v->p[i] = (unsigned char)(i * 131u + seed * 29u + 3u);
}

/* The reference: the box e from s at sp to d at dp, one byte at a time. */
static void ref_copy(struct vol *d, hipPos dp, const struct vol *s, hipPos sp, hipExtent e) {
  for (size_t z = 0; z < e.depth; z++)
    for (size_t y = 0; y < e.height; y++)
      for (size_t x = 0; x < e.width; x++)
        d->p[at(d, dp.x + x, dp.y + y, dp.z + z)] = s->p[at(s, sp.x + x, sp.y + y, sp.z + z)];
}

static void ref_set(struct vol *d, hipPos dp, unsigned char v, hipExtent e) {
  for (size_t z = 0; z < e.depth; z++)
    for (size_t y = 0; y < e.height; y++)
      for (size_t x = 0; x < e.width; x++)
        d->p[at(d, dp.x + x, dp.y + y, dp.z + z)] = v;
}

/* Whether a and b agree on every meaningful byte (x < xsize: row padding
 * is nobody's business). Prints the first difference. */
static int same(const struct vol *a, const struct vol *b) {
  for (size_t z = 0; z < a->depth; z++)
    for (size_t y = 0; y < a->ysize; y++)
      for (size_t x = 0; x < a->xsize; x++)
        if (a->p[at(a, x, y, z)] != b->p[at(b, x, y, z)]) {
          fprintf(stderr, "differ at (%zu, %zu, %zu): %u != %u\n", x, y, z, a->p[at(a, x, y, z)],
                  b->p[at(b, x, y, z)]);
          return 0;
        }
  return 1;
}

/* Reads a whole device volume into host model `out` (same geometry). */
static hipError_t read_back(struct vol *out, hipPitchedPtr d, size_t depth) {
  return hipMemcpy(out->p, d.ptr, d.pitch * d.ysize * depth, hipMemcpyDeviceToHost);
}

static struct vol model_of(hipPitchedPtr d, size_t depth) {
  struct vol v = {malloc(d.pitch * d.ysize * depth), d.pitch, d.xsize, d.ysize, depth};

  return v;
}

static hipMemcpy3DParms params(hipPitchedPtr src, hipPos sp, hipPitchedPtr dst, hipPos dp,
                               hipExtent e, hipMemcpyKind kind) {
  hipMemcpy3DParms p;

  memset(&p, 0, sizeof(p));
  p.srcPtr = src;
  p.srcPos = sp;
  p.dstPtr = dst;
  p.dstPos = dp;
  p.extent = e;
  p.kind = kind;
  return p;
}

AH_TEST(malloc3d_pitch) {
  hipPitchedPtr p;
  void *base;
  size_t size;

  CHECK_HIP(hipMalloc3D(&p, make_hipExtent(45, 12, 6)));
  CHECK(p.ptr != NULL);
  CHECK(p.pitch >= 45 && p.pitch % 256 == 0);
  CHECK_EQ(p.xsize, 45);
  CHECK_EQ(p.ysize, 12);
  CHECK_HIP(hipMemGetAddressRange(&base, &size, p.ptr));
  CHECK(base == p.ptr);
  CHECK(size >= p.pitch * 12 * 6);
  CHECK_HIP(hipFree(p.ptr));
  /* An empty extent allocates nothing, as hipMallocPitch. */
  CHECK_HIP(hipMalloc3D(&p, make_hipExtent(0, 12, 6)));
  CHECK(p.ptr == NULL);
  CHECK_HIP(hipMalloc3D(&p, make_hipExtent(16, 12, 0)));
  CHECK(p.ptr == NULL);
  CHECK_ERR(hipMalloc3D(NULL, make_hipExtent(16, 2, 2)), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_ERR(hipMalloc3D(&p, make_hipExtent(16, SIZE_MAX / 2, 4)), hipErrorOutOfMemory);
  CHECK_ERR(hipMalloc3D(&p, make_hipExtent(16, 1u << 20, 1u << 20)), hipErrorOutOfMemory);
  (void)hipGetLastError();
  return AH_PASS;
}

/* Host -> device -> device -> host with offsets everywhere, the boxes'
 * slices apart (the 3D path) and, for the last copy, contiguous. Once with
 * explicit kinds, once with hipMemcpyDefault, from pageable and pinned. */
AH_TEST(memcpy3d_every_direction) {
  hipExtent box = make_hipExtent(23, 7, 4);
  hipPos hp = make_hipPos(3, 2, 1), ap = make_hipPos(5, 4, 2), bp = make_hipPos(1, 3, 0);

  for (int round = 0; round < 4; round++) {
    int dflt = round & 1, pinned = round >> 1;
    struct vol h, back, ma, mb, ra, rb;
    hipPitchedPtr a, b, hptr, backptr;
    hipMemcpy3DParms p;
    unsigned char *hbuf;

    /* Host source: pitch 50 > width, 13 rows a slice > the box's 7. */
    CHECK(host_vol(&h, 50, 50, 13, 7));
    if (pinned) {
      CHECK_HIP(hipHostMalloc((void **)&hbuf, 50 * 13 * 7, 0));
      free(h.p);
      h.p = hbuf;
    }
    fill(&h, (unsigned)round);
    CHECK_HIP(hipMalloc3D(&a, make_hipExtent(45, 12, 6)));
    CHECK_HIP(hipMalloc3D(&b, make_hipExtent(40, 10, 5)));
    ma = model_of(a, 6);
    mb = model_of(b, 5);
    ra = model_of(a, 6);
    rb = model_of(b, 5);
    CHECK(ma.p && mb.p && ra.p && rb.p);
    /* Known starting contents. */
    CHECK_HIP(hipMemset3D(a, 0xa1, make_hipExtent(45, 12, 6)));
    CHECK_HIP(hipMemset3D(b, 0xb2, make_hipExtent(40, 10, 5)));
    ref_set(&ma, make_hipPos(0, 0, 0), 0xa1, make_hipExtent(45, 12, 6));
    ref_set(&mb, make_hipPos(0, 0, 0), 0xb2, make_hipExtent(40, 10, 5));

    hptr = make_hipPitchedPtr(h.p, h.pitch, 50, h.ysize);
    p = params(hptr, hp, a, ap, box, dflt ? hipMemcpyDefault : hipMemcpyHostToDevice);
    CHECK_HIP(hipMemcpy3D(&p));
    ref_copy(&ma, ap, &h, hp, box);
    CHECK_HIP(read_back(&ra, a, 6));
    CHECK(same(&ra, &ma));

    p = params(a, ap, b, bp, box, dflt ? hipMemcpyDefault : hipMemcpyDeviceToDevice);
    CHECK_HIP(hipMemcpy3D(&p));
    ref_copy(&mb, bp, &ma, ap, box);
    CHECK_HIP(read_back(&rb, b, 5));
    CHECK(same(&rb, &mb));

    /* Device -> host: all of b into a host volume whose slices are as
     * tall as b's (contiguous: the 2D path), at a z offset. */
    CHECK(host_vol(&back, 41, 41, 10, 7));
    memset(back.p, 0x5c, 41 * 10 * 7);
    {
      struct vol want = back;

      want.p = malloc(41 * 10 * 7);
      CHECK(want.p != NULL);
      memcpy(want.p, back.p, 41 * 10 * 7);
      backptr = make_hipPitchedPtr(back.p, 41, 41, 10);
      p = params(b, make_hipPos(0, 0, 0), backptr, make_hipPos(0, 0, 2), make_hipExtent(40, 10, 5),
                 dflt ? hipMemcpyDefault : hipMemcpyDeviceToHost);
      CHECK_HIP(hipMemcpy3D(&p));
      ref_copy(&want, make_hipPos(0, 0, 2), &mb, make_hipPos(0, 0, 0), make_hipExtent(40, 10, 5));
      CHECK(same(&back, &want));
      /* Device -> host of a sub-box whose slices are apart, to pinned or
       * pageable memory alike. */
      p = params(a, make_hipPos(7, 1, 1), backptr, make_hipPos(2, 3, 1), make_hipExtent(30, 6, 5),
                 dflt ? hipMemcpyDefault : hipMemcpyDeviceToHost);
      CHECK_HIP(hipMemcpy3D(&p));
      ref_copy(&want, make_hipPos(2, 3, 1), &ma, make_hipPos(7, 1, 1), make_hipExtent(30, 6, 5));
      CHECK(same(&back, &want));
      free(want.p);
    }
    /* Host -> host through hipMemcpy3D as well. */
    {
      struct vol hh;

      CHECK(host_vol(&hh, 50, 50, 13, 7));
      memcpy(hh.p, h.p, 50 * 13 * 7);
      p = params(hptr, make_hipPos(0, 0, 0), make_hipPitchedPtr(hh.p, 50, 50, 13),
                 make_hipPos(10, 5, 2), make_hipExtent(11, 3, 2),
                 dflt ? hipMemcpyDefault : hipMemcpyHostToHost);
      CHECK_HIP(hipMemcpy3D(&p));
      ref_copy(&h, make_hipPos(10, 5, 2), &h, make_hipPos(0, 0, 0), make_hipExtent(11, 3, 2));
      CHECK(same(&hh, &h));
      free(hh.p);
    }
    CHECK_HIP(hipFree(a.ptr));
    CHECK_HIP(hipFree(b.ptr));
    if (pinned)
      CHECK_HIP(hipHostFree(h.p));
    else
      free(h.p);
    free(back.p);
    free(ma.p);
    free(mb.p);
    free(ra.p);
    free(rb.p);
  }
  return AH_PASS;
}

/* Device to device inside one allocation, and a depth-1 box that ignores
 * ysize (0 here), as CUDA allows. */
AH_TEST(memcpy3d_same_allocation_and_flat) {
  hipPitchedPtr a;
  struct vol m, r;
  hipMemcpy3DParms p;
  hipPitchedPtr flat;

  CHECK_HIP(hipMalloc3D(&a, make_hipExtent(64, 8, 4)));
  m = model_of(a, 4);
  r = model_of(a, 4);
  CHECK(m.p && r.p);
  fill(&m, 42);
  CHECK_HIP(hipMemcpy(a.ptr, m.p, a.pitch * 8 * 4, hipMemcpyHostToDevice));
  p = params(a, make_hipPos(0, 0, 0), a, make_hipPos(32, 0, 2), make_hipExtent(20, 8, 2),
             hipMemcpyDeviceToDevice);
  CHECK_HIP(hipMemcpy3D(&p));
  ref_copy(&m, make_hipPos(32, 0, 2), &m, make_hipPos(0, 0, 0), make_hipExtent(20, 8, 2));
  CHECK_HIP(read_back(&r, a, 4));
  CHECK(same(&r, &m));
  /* One slice: ysize is not needed. */
  flat = make_hipPitchedPtr(a.ptr, a.pitch, 64, 0);
  p = params(flat, make_hipPos(1, 1, 0), flat, make_hipPos(40, 3, 0), make_hipExtent(9, 4, 1),
             hipMemcpyDefault);
  CHECK_HIP(hipMemcpy3D(&p));
  {
    struct vol mf = m;

    mf.ysize = 32; /* one slice of all 32 rows: the flat view */
    mf.depth = 1;
    ref_copy(&mf, make_hipPos(40, 3, 0), &mf, make_hipPos(1, 1, 0), make_hipExtent(9, 4, 1));
  }
  CHECK_HIP(read_back(&r, a, 4));
  CHECK(same(&r, &m));
  CHECK_HIP(hipFree(a.ptr));
  free(m.p);
  free(r.p);
  return AH_PASS;
}

/* hipMemset3D of a sub-box (slices apart: one set per slice) leaves the
 * rest alone; a whole volume (contiguous slices) too. */
AH_TEST(memset3d_subbox) {
  hipPitchedPtr a, sub;
  struct vol m, r;

  CHECK_HIP(hipMalloc3D(&a, make_hipExtent(70, 9, 5)));
  m = model_of(a, 5);
  r = model_of(a, 5);
  CHECK(m.p && r.p);
  fill(&m, 7);
  CHECK_HIP(hipMemcpy(a.ptr, m.p, a.pitch * 9 * 5, hipMemcpyHostToDevice));
  /* The box at (4, 2, 1): its pitched pointer starts there, slices 9 rows apart. */
  sub = make_hipPitchedPtr((char *)a.ptr + (1 * 9 + 2) * a.pitch + 4, a.pitch, 70, 9);
  CHECK_HIP(hipMemset3D(sub, 0x3c, make_hipExtent(33, 5, 3)));
  ref_set(&m, make_hipPos(4, 2, 1), 0x3c, make_hipExtent(33, 5, 3));
  CHECK_HIP(read_back(&r, a, 5));
  CHECK(same(&r, &m));
  /* Value is taken as a byte, as hipMemset. */
  CHECK_HIP(hipMemset3D(a, 0x1ff, make_hipExtent(70, 9, 5)));
  ref_set(&m, make_hipPos(0, 0, 0), 0xff, make_hipExtent(70, 9, 5));
  CHECK_HIP(read_back(&r, a, 5));
  CHECK(same(&r, &m));
  /* Pinned host memory is memory HIP knows: it can be set too. */
  {
    unsigned char *pin;
    struct vol hm;

    CHECK_HIP(hipHostMalloc((void **)&pin, 16 * 4 * 3, 0));
    memset(pin, 1, 16 * 4 * 3);
    hm = (struct vol){malloc(16 * 4 * 3), 16, 16, 4, 3};
    CHECK(hm.p != NULL);
    memset(hm.p, 1, 16 * 4 * 3);
    CHECK_HIP(hipMemset3D(make_hipPitchedPtr(pin + 16 + 2, 16, 16, 4), 9, make_hipExtent(5, 2, 3)));
    ref_set(&hm, make_hipPos(2, 1, 0), 9, make_hipExtent(5, 2, 3));
    CHECK(memcmp(pin, hm.p, 16 * 4 * 3) == 0);
    CHECK_HIP(hipHostFree(pin));
    free(hm.p);
  }
  CHECK_HIP(hipFree(a.ptr));
  free(m.p);
  free(r.p);
  return AH_PASS;
}

/* Async forms wait behind earlier work of their stream and run in order. */
AH_TEST(memcpy3d_async_in_stream_order) {
  struct gate g = GATE_INIT;
  hipStream_t s;
  hipPitchedPtr a, b, pinp;
  unsigned char *pin;
  struct vol m, want;
  hipMemcpy3DParms p1, p2;
  hipExtent all = make_hipExtent(30, 6, 4);

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc3D(&a, all));
  CHECK_HIP(hipMalloc3D(&b, all));
  CHECK_HIP(hipHostMalloc((void **)&pin, 32 * 7 * 4, 0));
  memset(pin, 0, 32 * 7 * 4);
  pinp = make_hipPitchedPtr(pin, 32, 30, 7);
  CHECK_HIP(hipMemset3D(a, 0x11, all));
  CHECK_HIP(hipMemset3D(b, 0x22, all));
  m = model_of(a, 4);
  CHECK(m.p != NULL);
  ref_set(&m, make_hipPos(0, 0, 0), 0x11, all);
  want = (struct vol){malloc(32 * 7 * 4), 32, 30, 7, 4};
  CHECK(want.p != NULL);
  memset(want.p, 0, 32 * 7 * 4);

  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  /* a's box := 0x77, then b := a (all of it), then pin's box := b's box. */
  CHECK_HIP(hipMemset3DAsync(make_hipPitchedPtr((char *)a.ptr + a.pitch + 2, a.pitch, 30, 6), 0x77,
                             make_hipExtent(10, 3, 3), s));
  ref_set(&m, make_hipPos(2, 1, 0), 0x77, make_hipExtent(10, 3, 3));
  p1 = params(a, make_hipPos(0, 0, 0), b, make_hipPos(0, 0, 0), all, hipMemcpyDeviceToDevice);
  CHECK_HIP(hipMemcpy3DAsync(&p1, s));
  p2 = params(b, make_hipPos(1, 1, 0), pinp, make_hipPos(0, 2, 1), make_hipExtent(15, 4, 3),
              hipMemcpyDeviceToHost);
  CHECK_HIP(hipMemcpy3DAsync(&p2, s));
  ref_copy(&want, make_hipPos(0, 2, 1), &m, make_hipPos(1, 1, 0), make_hipExtent(15, 4, 3));
  CHECK(wait_flag(&g.entered, 5000));
  sleep_ms(20);
  for (size_t i = 0; i < 32 * 7 * 4; i++)
    CHECK_EQ(pin[i], 0); /* still held behind the gate */
  CHECK_EQ(hipStreamQuery(s), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK(same(&(struct vol){pin, 32, 30, 7, 4}, &want));
  CHECK_HIP(hipFree(a.ptr));
  CHECK_HIP(hipFree(b.ptr));
  CHECK_HIP(hipHostFree(pin));
  CHECK_HIP(hipStreamDestroy(s));
  free(m.p);
  free(want.p);
  return AH_PASS;
}

AH_TEST(memcpy3d_errors) {
  hipPitchedPtr a, h;
  hipMemcpy3DParms p;
  unsigned char host[64 * 8 * 4], copy[sizeof(host)];
  struct vol r;

  CHECK_HIP(hipMalloc3D(&a, make_hipExtent(64, 8, 4)));
  r = model_of(a, 4);
  CHECK(r.p != NULL);
  CHECK_HIP(hipMemset3D(a, 0x42, make_hipExtent(64, 8, 4)));
  memset(host, 0x99, sizeof(host));
  memcpy(copy, host, sizeof(host));
  h = make_hipPitchedPtr(host, 64, 64, 8);

  CHECK_ERR(hipMemcpy3D(NULL), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy3DAsync(NULL, NULL), hipErrorInvalidValue);
  /* A handle that is no array is refused (tests/api/array.c copies real ones). */
  p = params(h, make_hipPos(0, 0, 0), a, make_hipPos(0, 0, 0), make_hipExtent(4, 1, 1),
             hipMemcpyHostToDevice);
  p.srcArray = (hipArray_t)(uintptr_t)0x1000;
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.srcArray = NULL;
  p.dstArray = (hipArray_t)(uintptr_t)0x1000;
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.dstArray = NULL;
  /* Bad kinds. */
  p.kind = (hipMemcpyKind)5;
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidMemcpyDirection);
  p.kind = (hipMemcpyKind)-1;
  CHECK_ERR(hipMemcpy3DAsync(&p, NULL), hipErrorInvalidMemcpyDirection);
  p.kind = hipMemcpyHostToDevice;
  /* Null pointers with something to copy. */
  p.srcPtr.ptr = NULL;
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.srcPtr = h;
  p.dstPtr.ptr = NULL;
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.dstPtr = a;
  /* Zero extents are no-ops, even with null pointers. */
  for (int i = 0; i < 3; i++) {
    p.extent = make_hipExtent(i == 0 ? 0 : 8, i == 1 ? 0 : 8, i == 2 ? 0 : 4);
    CHECK_HIP(hipMemcpy3D(&p));
    CHECK_HIP(hipMemcpy3DAsync(&p, NULL));
  }
  p.srcPtr.ptr = NULL;
  CHECK_HIP(hipMemcpy3D(&p));
  p.srcPtr = h;
  /* Pitch below the width; a row past the pitch from its x offset. */
  p.extent = make_hipExtent(65, 1, 1);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidPitchValue);
  p.extent = make_hipExtent(8, 1, 1);
  p.srcPtr.pitch = 4;
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidPitchValue);
  p.srcPtr = h;
  p.srcPos = make_hipPos(60, 0, 0);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.srcPos = make_hipPos(0, 0, 0);
  p.dstPos = make_hipPos(a.pitch - 7, 0, 0);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.dstPos = make_hipPos(0, 0, 0);
  /* Slices that would overlap: rows past ysize with more than one slice
   * (the source, 16-row slices of 8 bytes, has room for everything below). */
  p.srcPtr = make_hipPitchedPtr(host, 8, 8, 16);
  p.extent = make_hipExtent(8, 9, 2);
  p.dstPtr.ysize = 8;
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.dstPos = make_hipPos(0, 1, 1);
  p.extent = make_hipExtent(8, 8, 1);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.dstPos = make_hipPos(0, 0, 0);
  /* Boxes past the end of the allocation: one slice too many, one row too
   * many in the last slice, one byte too many on the last row. */
  p.extent = make_hipExtent(8, 8, 5);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.dstPtr.ysize = 10; /* slices taller than the allocation's: row 34 of 32 */
  p.extent = make_hipExtent(8, 4, 1);
  p.dstPos = make_hipPos(0, 4, 3);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.dstPtr.ysize = 8;
  p.dstPtr.pitch = a.pitch + 8; /* a wider pitch than the allocation's */
  p.dstPos = make_hipPos(1, 7, 3);
  p.extent = make_hipExtent(8, 1, 1);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue); /* one byte past the end */
  p.dstPos = make_hipPos(0, 7, 3);
  CHECK_HIP(hipMemcpy3D(&p)); /* (7 + 3 * 8) rows of a.pitch + 8 still fit */
  p.dstPos = make_hipPos(0, 0, 0);
  p.dstPtr = a;
  /* The source past its end: a known allocation as the source. */
  p = params(a, make_hipPos(0, 0, 1), h, make_hipPos(0, 0, 0), make_hipExtent(64, 8, 4),
             hipMemcpyDeviceToHost);
  CHECK_ERR(hipMemcpy3DAsync(&p, NULL), hipErrorInvalidValue);
  /* Offsets that wrap size_t. */
  p.srcPos = make_hipPos(0, SIZE_MAX - 1, 0);
  p.extent = make_hipExtent(8, 4, 1);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  p.srcPos = make_hipPos(0, 0, SIZE_MAX / 2);
  p.extent = make_hipExtent(8, 4, 1);
  CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  /* Two pointers HIP does not know need a host kind. */
  {
    unsigned char other[64];

    p = params(make_hipPitchedPtr(host, 64, 64, 8), make_hipPos(0, 0, 0),
               make_hipPitchedPtr(other, 16, 16, 2), make_hipPos(0, 0, 0), make_hipExtent(16, 2, 2),
               hipMemcpyHostToDevice);
    CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
  }
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  /* None of it wrote anything, except the one copy that was allowed, which
   * wrote host[0..7] into a at row 31 of the wider pitch. */
  CHECK(memcmp(host, copy, sizeof(host)) == 0);
  CHECK_HIP(read_back(&r, a, 4));
  {
    size_t off = (7 + 3 * 8) * (a.pitch + 8);

    for (size_t i = 0; i < a.pitch * 8 * 4; i++)
      if (i % a.pitch < 64 || (i >= off && i < off + 8))
        CHECK_EQ(r.p[i], i >= off && i < off + 8 ? 0x99 : 0x42);
  }
  CHECK_HIP(hipFree(a.ptr));
  free(r.p);
  return AH_PASS;
}

AH_TEST(memset3d_errors) {
  hipPitchedPtr a;
  unsigned char host[256];
  struct vol r;

  CHECK_HIP(hipMalloc3D(&a, make_hipExtent(32, 4, 3)));
  r = model_of(a, 3);
  CHECK(r.p != NULL);
  CHECK_HIP(hipMemset3D(a, 0x42, make_hipExtent(32, 4, 3)));
  CHECK_ERR(hipMemset3D(make_hipPitchedPtr(NULL, 64, 32, 4), 0, make_hipExtent(8, 1, 1)),
            hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_ERR(hipMemset3DAsync(make_hipPitchedPtr(NULL, 64, 32, 4), 0, make_hipExtent(8, 1, 1), NULL),
            hipErrorInvalidValue);
  /* Pitch below the width. */
  CHECK_ERR(hipMemset3D(make_hipPitchedPtr(a.ptr, 16, 32, 4), 0, make_hipExtent(17, 1, 1)),
            hipErrorInvalidValue);
  /* Zero extents: nothing happens. */
  CHECK_HIP(hipMemset3D(a, 1, make_hipExtent(0, 4, 3)));
  CHECK_HIP(hipMemset3D(a, 1, make_hipExtent(32, 0, 3)));
  CHECK_HIP(hipMemset3DAsync(a, 1, make_hipExtent(32, 4, 0), NULL));
  /* Plain host memory is not HIP's to set. */
  CHECK_ERR(hipMemset3D(make_hipPitchedPtr(host, 16, 16, 4), 0, make_hipExtent(16, 4, 4)),
            hipErrorInvalidValue);
  /* Past the end: a slice too many; slices that would overlap. */
  CHECK_ERR(hipMemset3D(a, 0, make_hipExtent(32, 4, 4)), hipErrorInvalidValue);
  CHECK_ERR(hipMemset3D(make_hipPitchedPtr((char *)a.ptr + a.pitch - 31, a.pitch, 32, 4), 0,
                        make_hipExtent(32, 4, 3)),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemset3D(a, 0, make_hipExtent(32, 5, 2)), hipErrorInvalidValue);
  CHECK_ERR(hipMemset3D(make_hipPitchedPtr(a.ptr, a.pitch, 32, SIZE_MAX / 4), 0,
                        make_hipExtent(32, 4, 8)),
            hipErrorInvalidValue);
  CHECK_HIP(read_back(&r, a, 3));
  for (size_t i = 0; i < a.pitch * 4 * 3; i++)
    if (i % a.pitch < 32)
      CHECK_EQ(r.p[i], 0x42);
  CHECK_HIP(hipFree(a.ptr));
  free(r.p);
  return AH_PASS;
}

/* The driver-style descriptor: offsets by srcXInBytes/srcY, each memory type. */
AH_TEST(memcpy_param2d) {
  enum { W = 40, H = 9, HP = 48, DP = 64 };
  unsigned char src[HP * H], back[HP * H], want[HP * H];
  void *d;
  hip_Memcpy2D c;
  hipStream_t s;

  for (size_t i = 0; i < sizeof(src); i++)
    src[i] = (unsigned char)(i * 13 + 5);
  CHECK_HIP(hipMalloc(&d, DP * H));
  CHECK_HIP(hipMemset(d, 0x10, DP * H));
  /* Host (3, 2) -> device (7, 1), 21 x 5. */
  memset(&c, 0, sizeof(c));
  c.srcMemoryType = hipMemoryTypeHost;
  c.srcHost = src;
  c.srcPitch = HP;
  c.srcXInBytes = 3;
  c.srcY = 2;
  c.dstMemoryType = hipMemoryTypeDevice;
  c.dstDevice = d;
  c.dstPitch = DP;
  c.dstXInBytes = 7;
  c.dstY = 1;
  c.WidthInBytes = 21;
  c.Height = 5;
  CHECK_HIP(hipMemcpyParam2D(&c));
  /* Device (0, 0) -> host (0, 0), all rows, through unified types + async. */
  memset(&c, 0, sizeof(c));
  c.srcMemoryType = hipMemoryTypeUnified;
  c.srcDevice = d;
  c.srcPitch = DP;
  c.dstMemoryType = hipMemoryTypeUnified;
  c.dstDevice = back;
  c.dstPitch = HP;
  c.WidthInBytes = W;
  c.Height = H;
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMemcpyParam2DAsync(&c, s));
  CHECK_HIP(hipStreamSynchronize(s));
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++)
      want[y * HP + x] =
          (y >= 1 && y < 6 && x >= 7 && x < 28) ? src[(y - 1 + 2) * HP + (x - 7 + 3)] : 0x10;
  for (size_t y = 0; y < H; y++)
    CHECK(memcmp(back + y * HP, want + y * HP, W) == 0);
  /* Device -> host with the Device and Host types. */
  memset(back, 0, sizeof(back));
  c.srcMemoryType = hipMemoryTypeDevice;
  c.dstMemoryType = hipMemoryTypeHost;
  c.dstHost = back;
  c.dstDevice = NULL;
  CHECK_HIP(hipMemcpyParam2D(&c));
  for (size_t y = 0; y < H; y++)
    CHECK(memcmp(back + y * HP, want + y * HP, W) == 0);

  /* The unaligned spelling is the same copy. */
  memset(back, 0, sizeof(back));
  CHECK_HIP(hipDrvMemcpy2DUnaligned(&c));
  for (size_t y = 0; y < H; y++)
    CHECK(memcmp(back + y * HP, want + y * HP, W) == 0);

  /* A pitch of 0 is the row's width (rows packed: AMD's rule, hip-tests'
   * hipMemcpyParam2D_ExtentValidation). */
  memset(back, 0, sizeof(back));
  c.dstPitch = 0;
  CHECK_HIP(hipMemcpyParam2D(&c));
  for (size_t y = 0; y < H; y++)
    CHECK(memcmp(back + y * W, want + y * HP, W) == 0);
  c.dstPitch = HP;

  /* Errors. */
  CHECK_ERR(hipMemcpyParam2D(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipDrvMemcpy2DUnaligned(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyParam2DAsync(NULL, s), hipErrorInvalidValue);
  c.srcMemoryType = hipMemoryTypeArray; /* no array, or one that is no array */
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  c.srcArray = (hipArray_t)(uintptr_t)0x1000;
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  c.srcArray = NULL;
  c.srcMemoryType = (hipMemoryType)77;
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  c.srcMemoryType = hipMemoryTypeDevice;
  c.WidthInBytes = HP + 1; /* wider than the host pitch: AMD's invalid value (hipMemcpy2D's
                             * code would be hipErrorInvalidPitchValue) */
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  c.WidthInBytes = W;
  c.srcPitch = W - 1;
  CHECK_ERR(hipMemcpyParam2DAsync(&c, s), hipErrorInvalidValue);
  {
    int max_pitch = 0;
    CHECK_HIP(hipDeviceGetAttribute(&max_pitch, hipDeviceAttributeMaxPitch, 0));
    c.srcPitch = (size_t)max_pitch + 1; /* past the device's memPitch */
    CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  }
  c.srcPitch = DP;
  c.dstXInBytes = HP - W + 1; /* a row past the pitch */
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  c.dstXInBytes = 0;
  c.srcY = 1; /* the device allocation has H rows: one too many */
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  c.srcY = H; /* starts just past the allocation: no allocation at all there (AMD) */
  c.Height = 1;
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  CHECK_ERR(hipDrvMemcpy2DUnaligned(&c), hipErrorInvalidValue);
  c.Height = H;
  c.srcY = 0;
  c.srcDevice = NULL;
  CHECK_ERR(hipMemcpyParam2D(&c), hipErrorInvalidValue);
  c.Height = 0; /* nothing to copy */
  CHECK_HIP(hipMemcpyParam2D(&c));
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Every stream-taking call of this area refuses h as a dead stream. */
static int refuses_stream(void *hp) {
  hipStream_t h = (hipStream_t)hp;
  hipPitchedPtr a;
  hipMemcpy3DParms p;
  hip_Memcpy2D c;
  char host[64] = {0};

  CHECK_HIP(hipMalloc3D(&a, make_hipExtent(16, 2, 2)));
  p = params(make_hipPitchedPtr(host, 16, 16, 2), make_hipPos(0, 0, 0), a, make_hipPos(0, 0, 0),
             make_hipExtent(16, 2, 2), hipMemcpyHostToDevice);
  memset(&c, 0, sizeof(c));
  c.srcMemoryType = hipMemoryTypeHost;
  c.srcHost = host;
  c.srcPitch = 16;
  c.dstMemoryType = hipMemoryTypeDevice;
  c.dstDevice = a.ptr;
  c.dstPitch = a.pitch;
  c.WidthInBytes = 16;
  c.Height = 2;
  CHECK_ERR(hipMemcpy3DAsync(&p, h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemset3DAsync(a, 0, make_hipExtent(16, 2, 2), h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemcpyParam2DAsync(&c, h), hipErrorContextIsDestroyed);
  CHECK_EQ(hipGetLastError(), hipErrorContextIsDestroyed);
  CHECK_HIP(hipFree(a.ptr));
  return AH_PASS;
}

AH_TEST(memcpy3d_bad_streams) {
  hipEvent_t e;
  hipStream_t s;
  int rc;

  CHECK_HIP(hipEventCreate(&e));
  rc = check_garbage_handles(1, refuses_stream, e); /* an event is not a stream */
  CHECK_HIP(hipEventDestroy(e));
  CHECK_EQ(rc, AH_PASS);
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamDestroy(s));
  return refuses_stream(s);
}
