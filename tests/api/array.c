/* SPDX-License-Identifier: MIT */
/* Arrays, mipmapped arrays, texture and surface objects from the host's side: every
 * argument check, descriptors read back, and copies into and out of 1D, 2D, 3D and layered
 * arrays through every hipMemcpy*Array* form (sub-boxes at offsets, host and device memory,
 * the Async forms, array to array), each compared byte by byte with a host model updated
 * by plain loops. Kernels reading the arrays are tests/kernels/texture_fetch.hip's and
 * surface_rw.hip's. */
#include "ah_test.h"
#include "garbage_handles.h"

#include <stdint.h>

static hipChannelFormatDesc fdesc(int bits, int n, hipChannelFormatKind k) {
  return hipCreateChannelDesc(bits, n >= 2 ? bits : 0, n >= 4 ? bits : 0, n >= 4 ? bits : 0, k);
}

/* Each texture size limit of the device is allowed and one past it refused
 * (hipErrorInvalidValue, as AMD's runtime; ROCm's unit suite's MaxTexture
 * cases), for 1D, 2D, 3D, layered and cubemap arrays. */
AH_TEST(array_size_limits) {
  hipChannelFormatDesc d = fdesc(8, 1, hipChannelFormatKindUnsigned);
  hipDeviceProp_t p;
  hipArray_t a = NULL;
  struct {
    size_t w, h, z;
    unsigned flags;
    int over; /* the shape is one past a limit */
  } cases[7];
  int n = 0;

  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  cases[n++] = (__typeof__(cases[0])){(size_t)p.maxTexture1D + 1, 0, 0, 0, 1};
  cases[n++] = (__typeof__(cases[0])){(size_t)p.maxTexture2D[0] + 1, 4, 0, 0, 1};
  cases[n++] = (__typeof__(cases[0])){4, (size_t)p.maxTexture2D[1] + 1, 0, 0, 1};
  cases[n++] = (__typeof__(cases[0])){4, 4, (size_t)p.maxTexture3D[2] + 1, 0, 1};
  cases[n++] = (__typeof__(cases[0])){(size_t)p.maxTexture1DLayered[0] + 1, 0, 2, hipArrayLayered, 1};
  cases[n++] = (__typeof__(cases[0])){(size_t)p.maxTextureCubemap + 1,
                                      (size_t)p.maxTextureCubemap + 1, 6, hipArrayCubemap, 1};
  cases[n++] = (__typeof__(cases[0])){(size_t)p.maxTexture1D, 0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    hipError_t err = hipMalloc3DArray(&a, &d, make_hipExtent(cases[i].w, cases[i].h, cases[i].z),
                                      cases[i].flags);

    if (cases[i].over) {
      CHECK_EQ(err, hipErrorInvalidValue);
    } else {
      CHECK_HIP(err);
      CHECK_HIP(hipFreeArray(a));
    }
  }
  {
    HIP_ARRAY_DESCRIPTOR ad = {(size_t)p.maxTexture2D[0] + 1, 1, HIP_AD_FORMAT_FLOAT, 1};

    CHECK_ERR(hipArrayCreate(&a, &ad), hipErrorInvalidValue);
    ad.Width = (size_t)p.maxTexture2D[0];
    CHECK_HIP(hipArrayCreate(&a, &ad));
    CHECK_HIP(hipArrayDestroy(a));
  }
  (void)hipGetLastError();
  return AH_PASS;
}

AH_TEST(array_create_errors) {
  hipChannelFormatDesc d = fdesc(32, 1, hipChannelFormatKindFloat);
  hipChannelFormatDesc bad3 = hipCreateChannelDesc(8, 8, 8, 0, hipChannelFormatKindUnsigned);
  hipChannelFormatDesc mixed = hipCreateChannelDesc(8, 16, 0, 0, hipChannelFormatKindUnsigned);
  hipChannelFormatDesc f8 = fdesc(8, 1, hipChannelFormatKindFloat);
  HIP_ARRAY_DESCRIPTOR ad = {16, 16, HIP_AD_FORMAT_FLOAT, 1};
  HIP_ARRAY3D_DESCRIPTOR a3 = {8, 8, 6, HIP_AD_FORMAT_SIGNED_INT16, 2, hipArrayCubemap};
  hipArray_t a = NULL;
  int image = -1;

  CHECK_HIP(hipDeviceGetAttribute(&image, hipDeviceAttributeImageSupport, 0));
  CHECK_EQ(image, 1);
  CHECK_ERR(hipMallocArray(NULL, &d, 16, 16, hipArrayDefault), hipErrorInvalidValue);
  CHECK_ERR(hipMallocArray(&a, NULL, 16, 16, hipArrayDefault), hipErrorInvalidValue);
  CHECK_RECORDS(hipMallocArray(&a, &d, 0, 16, hipArrayDefault), hipErrorInvalidValue);
  CHECK_ERR(hipMallocArray(&a, &d, 16, 16, 0x100), hipErrorInvalidValue);
  CHECK_ERR(hipMallocArray(&a, &d, 16, 16, hipArrayLayered), hipErrorInvalidValue);
  CHECK_ERR(hipMallocArray(&a, &d, 16, 16, hipArrayCubemap), hipErrorInvalidValue);
  CHECK_ERR(hipMallocArray(&a, &bad3, 16, 16, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMallocArray(&a, &mixed, 16, 16, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMallocArray(&a, &f8, 16, 16, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMalloc3DArray(&a, &d, make_hipExtent(4, 0, 3), 0), hipErrorInvalidValue);
  CHECK_ERR(hipMalloc3DArray(&a, &d, make_hipExtent(4, 4, 0), hipArrayLayered),
            hipErrorInvalidValue);
  CHECK_ERR(hipMalloc3DArray(&a, &d, make_hipExtent(4, 5, 6), hipArrayCubemap),
            hipErrorInvalidValue);
  CHECK_ERR(hipMalloc3DArray(&a, &d, make_hipExtent(4, 4, 12), hipArrayCubemap),
            hipErrorInvalidValue);
  CHECK_ERR(hipArrayCreate(NULL, &ad), hipErrorInvalidValue);
  CHECK_ERR(hipArrayCreate(&a, NULL), hipErrorInvalidValue);
  ad.NumChannels = 3;
  CHECK_ERR(hipArrayCreate(&a, &ad), hipErrorInvalidValue);
  ad.NumChannels = 1;
  ad.Format = (hipArray_Format)0x30;
  CHECK_ERR(hipArrayCreate(&a, &ad), hipErrorInvalidValue);
  CHECK_ERR(hipArray3DCreate(NULL, &a3), hipErrorInvalidValue);

  /* A cubemap made by the driver-style call reads back as made. */
  HIP_ARRAY3D_DESCRIPTOR back;
  HIP_ARRAY_DESCRIPTOR back2;
  hipChannelFormatDesc cd;
  hipExtent e;
  unsigned flags = 99;
  CHECK_HIP(hipArray3DCreate(&a, &a3));
  CHECK_HIP(hipArray3DGetDescriptor(&back, a));
  CHECK(memcmp(&back, &a3, sizeof(back)) == 0);
  CHECK_ERR(hipArrayGetDescriptor(&back2, a), hipErrorInvalidValue); /* not 2D */
  CHECK_HIP(hipArrayGetInfo(&cd, &e, &flags, a));
  CHECK_EQ(cd.x, 16);
  CHECK_EQ(cd.y, 16);
  CHECK_EQ(cd.z, 0);
  CHECK_EQ(cd.f, hipChannelFormatKindSigned);
  CHECK(e.width == 8 && e.height == 8 && e.depth == 6);
  CHECK_EQ(flags, hipArrayCubemap);
  CHECK_HIP(hipArrayGetInfo(NULL, NULL, NULL, a)); /* outputs are optional */
  CHECK_HIP(hipGetChannelDesc(&cd, a));
  CHECK_EQ(cd.x, 16);
  CHECK_ERR(hipGetChannelDesc(NULL, a), hipErrorInvalidValue);
  CHECK_HIP(hipFreeArray(a));
  /* AMD's codes (hip-tests' hipArray.cc, hipFree.cc): a freed array is a destroyed context,
   * NULL an invalid value, for both frees. */
  CHECK_ERR(hipFreeArray(a), hipErrorContextIsDestroyed); /* freed */
  CHECK_ERR(hipArrayDestroy(a), hipErrorContextIsDestroyed);
  CHECK_ERR(hipArrayGetInfo(&cd, &e, &flags, a), hipErrorInvalidHandle);
  CHECK_ERR(hipArrayDestroy(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipFreeArray(NULL), hipErrorInvalidValue);

  /* A 2D array of uchar4 from the runtime call, read through the driver-style getter. */
  hipChannelFormatDesc u4 = fdesc(8, 4, hipChannelFormatKindUnsigned);
  CHECK_HIP(hipMallocArray(&a, &u4, 33, 7, hipArraySurfaceLoadStore));
  CHECK_HIP(hipArrayGetDescriptor(&back2, a));
  CHECK(back2.Width == 33 && back2.Height == 7 && back2.NumChannels == 4 &&
        back2.Format == HIP_AD_FORMAT_UNSIGNED_INT8);
  CHECK_HIP(hipArrayDestroy(a));
  return AH_PASS;
}

static int refuse_free(void *h) {
  CHECK_ERR(hipFreeArray((hipArray_t)h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipArrayDestroy((hipArray_t)h), hipErrorContextIsDestroyed);
  CHECK_ERR(hipArrayGetInfo(NULL, NULL, NULL, (hipArray_t)h), hipErrorInvalidHandle);
  CHECK_ERR(hipMemcpyHtoA((hipArray_t)h, 0, &h, 4), hipErrorInvalidHandle);
  return AH_PASS;
}

AH_TEST(array_garbage_handles) {
  hipStream_t s;
  int rc;

  CHECK_HIP(hipStreamCreate(&s));
  rc = check_garbage_handles(0, refuse_free, (void *)s);
  CHECK_HIP(hipStreamDestroy(s));
  return rc;
}

/* A host model of an array: slices of rows of row bytes. */
struct model {
  unsigned char *p;
  size_t row, rows, slices;
};

static void fill(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (unsigned char)(seed >> 16);
  }
}

/* Reads the whole array back with hipMemcpy3D and compares it with the model. */
static int same(hipArray_t a, const struct model *m, size_t elem) {
  size_t n = m->row * m->rows * m->slices;
  unsigned char *b = malloc(n);
  hipMemcpy3DParms p = {0};

  CHECK(b != NULL);
  memset(b, 0xee, n);
  p.srcArray = a;
  p.dstPtr = make_hipPitchedPtr(b, m->row, m->row / elem, m->rows);
  p.extent = make_hipExtent(m->row / elem, m->rows, m->slices);
  p.kind = hipMemcpyDeviceToHost;
  CHECK_HIP(hipMemcpy3D(&p));
  for (size_t i = 0; i < n; i++)
    if (b[i] != m->p[i]) {
      fprintf(stderr, "byte %zu: %u != %u\n", i, b[i], m->p[i]);
      free(b);
      return AH_FAIL;
    }
  free(b);
  return AH_PASS;
}

/* A 2D array of short2 (4-byte elements): every 2D form, both directions, sub-boxes. */
AH_TEST(array_copy_2d) {
  const size_t W = 13, H = 9, E = 4, row = W * E;
  hipChannelFormatDesc d = fdesc(16, 2, hipChannelFormatKindSigned);
  unsigned char host[9 * 13 * 4 * 2], back[9 * 13 * 4 * 2];
  struct model m = {calloc(row * H, 1), row, H, 1};
  hipArray_t a = NULL, b = NULL;
  hipStream_t s;
  void *dev = NULL;
  size_t dpitch = 0;

  CHECK(m.p != NULL);
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocArray(&a, &d, W, H, 0));
  CHECK_HIP(hipMallocArray(&b, &d, W, H, 0));
  CHECK(same(a, &m, E) == AH_PASS); /* new arrays read as zeros */
  fill(host, sizeof(host), 1);
  /* Host to array: a 5 x 4 box at (3 elements, 2 rows), host rows 2 * row apart. */
  CHECK_HIP(hipMemcpy2DToArray(a, 3 * E, 2, host, 2 * row, 5 * E, 4, hipMemcpyHostToDevice));
  for (size_t y = 0; y < 4; y++)
    memcpy(m.p + (2 + y) * row + 3 * E, host + y * 2 * row, 5 * E);
  CHECK(same(a, &m, E) == AH_PASS);
  /* Async, hipMemcpyDefault, the whole array. */
  CHECK_HIP(hipMemcpy2DToArrayAsync(a, 0, 0, host, row, row, H, hipMemcpyDefault, s));
  CHECK_HIP(hipStreamSynchronize(s));
  memcpy(m.p, host, row * H);
  CHECK(same(a, &m, E) == AH_PASS);
  /* Array to host: a box at (1, 1) into rows of 64 bytes. */
  memset(back, 0, sizeof(back));
  CHECK_HIP(hipMemcpy2DFromArray(back, 64, a, 1 * E, 1, 7 * E, 6, hipMemcpyDeviceToHost));
  for (size_t y = 0; y < 6; y++)
    CHECK(memcmp(back + y * 64, m.p + (1 + y) * row + E, 7 * E) == 0);
  CHECK_HIP(hipMemcpy2DFromArrayAsync(back, row, a, 0, 0, row, H, hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK(memcmp(back, m.p, row * H) == 0);
  /* Through device memory, and array to array. */
  CHECK_HIP(hipMallocPitch(&dev, &dpitch, row, H));
  CHECK_HIP(hipMemcpy2DFromArray(dev, dpitch, a, 0, 0, row, H, hipMemcpyDeviceToDevice));
  CHECK_HIP(hipMemcpy2DToArray(b, 0, 0, dev, dpitch, row, H, hipMemcpyDeviceToDevice));
  CHECK(same(b, &m, E) == AH_PASS);
  CHECK_HIP(hipMemcpy2DArrayToArray(b, 2 * E, 3, a, 0, 0, 4 * E, 2, hipMemcpyDeviceToDevice));
  {
    struct model mb = {malloc(row * H), row, H, 1};
    CHECK(mb.p != NULL);
    memcpy(mb.p, m.p, row * H);
    for (size_t y = 0; y < 2; y++)
      memcpy(mb.p + (3 + y) * row + 2 * E, m.p + y * row, 4 * E);
    CHECK(same(b, &mb, E) == AH_PASS);
    free(mb.p);
  }
  /* hipMemcpyParam2D with an array on each side in turn. */
  hip_Memcpy2D c = {0};
  memset(back, 0, sizeof(back));
  c.srcMemoryType = hipMemoryTypeArray;
  c.srcArray = a;
  c.srcXInBytes = 2 * E;
  c.srcY = 1;
  c.dstMemoryType = hipMemoryTypeHost;
  c.dstHost = back;
  c.dstPitch = row;
  c.WidthInBytes = 3 * E;
  c.Height = 5;
  CHECK_HIP(hipMemcpyParam2D(&c));
  for (size_t y = 0; y < 5; y++)
    CHECK(memcmp(back + y * row, m.p + (1 + y) * row + 2 * E, 3 * E) == 0);

  /* Errors, with HIP's codes. */
  CHECK_ERR(hipMemcpy2DToArray(NULL, 0, 0, host, row, row, H, hipMemcpyHostToDevice),
            hipErrorInvalidHandle);
  CHECK_ERR(hipMemcpy2DToArray(a, 0, 0, NULL, row, row, H, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2DToArray(a, 0, 0, host, row - 1, row, H, hipMemcpyHostToDevice),
            hipErrorInvalidPitchValue);
  CHECK_ERR(hipMemcpy2DToArray(a, 1, 0, host, row, row, H, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2DToArray(a, 0, 1, host, row, row, H, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2DToArray(a, 0, 0, host, 2 * row, row + 1, H, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2DToArray(a, 0, 0, host, row, row, H, (hipMemcpyKind)-1),
            hipErrorInvalidMemcpyDirection);
  CHECK_ERR(hipMemcpy2DFromArray(NULL, row, a, 0, 0, row, H, hipMemcpyDeviceToHost),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2DFromArray(back, row, NULL, 0, 0, row, H, hipMemcpyDeviceToHost),
            hipErrorInvalidHandle);
  CHECK_ERR(hipMemcpy2DFromArray(back, row, a, 0, 0, row, H + 1, hipMemcpyDeviceToHost),
            hipErrorInvalidValue);
  CHECK(hipMemcpy2DToArrayAsync(a, 0, 0, host, row, row, H, hipMemcpyHostToDevice,
                                (hipStream_t)&c) != hipSuccess); /* not a stream */
  CHECK_HIP(hipMemcpy2DToArray(a, 0, 0, host, row, 0, 0, hipMemcpyHostToDevice)); /* empty */
  CHECK_HIP(hipFree(dev));
  CHECK_HIP(hipFreeArray(a));
  CHECK_HIP(hipFreeArray(b));
  CHECK_HIP(hipStreamDestroy(s));
  free(m.p);
  return AH_PASS;
}

/* The byte-stream forms: hipMemcpyToArray/FromArray, HtoA/AtoH (+Async), DtoA/AtoD, AtoA,
 * at offsets that start and end inside rows. */
AH_TEST(array_copy_linear) {
  const size_t W = 10, H = 6, E = 2, row = W * E, n = row * H;
  hipChannelFormatDesc d = fdesc(16, 1, hipChannelFormatKindUnsigned);
  unsigned char host[10 * 6 * 2], back[10 * 6 * 2];
  struct model m = {calloc(n, 1), row, H, 1};
  hipArray_t a = NULL, b = NULL;
  hipStream_t s;
  void *dev = NULL;

  CHECK(m.p != NULL);
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocArray(&a, &d, W, H, 0));
  CHECK_HIP(hipMallocArray(&b, &d, W, H, 0));
  fill(host, n, 7);
  /* 47 bytes from (3 bytes, row 1): a partial row, whole rows, a partial row. */
  CHECK_HIP(hipMemcpyToArray(a, 3, 1, host, 47, hipMemcpyHostToDevice));
  memcpy(m.p + row + 3, host, 47);
  CHECK(same(a, &m, E) == AH_PASS);
  CHECK_HIP(hipMemcpyToArray(a, 0, 0, host, n, hipMemcpyHostToDevice));
  memcpy(m.p, host, n);
  CHECK(same(a, &m, E) == AH_PASS);
  /* The driver-style copies stay in the array's first row (AMD's region of count x 1 x 1). */
  fill(host, n, 8);
  CHECK_HIP(hipMemcpyHtoAAsync(a, 5, host, row - 5, s));
  CHECK_HIP(hipStreamSynchronize(s));
  memcpy(m.p + 5, host, row - 5);
  CHECK(same(a, &m, E) == AH_PASS);
  CHECK_HIP(hipMemcpyHtoA(a, 0, host + 1, 3));
  memcpy(m.p, host + 1, 3);
  CHECK(same(a, &m, E) == AH_PASS);
  memset(back, 0, sizeof(back));
  CHECK_HIP(hipMemcpyFromArray(back, a, 4, 2, 33, hipMemcpyDeviceToHost));
  CHECK(memcmp(back, m.p + 2 * row + 4, 33) == 0);
  CHECK_HIP(hipMemcpyAtoH(back, a, 0, row));
  CHECK(memcmp(back, m.p, row) == 0);
  memset(back, 0, sizeof(back));
  CHECK_HIP(hipMemcpyAtoHAsync(back, a, 7, 13, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK(memcmp(back, m.p + 7, 13) == 0);
  /* Device memory and array to array (at different offsets on each side). */
  CHECK_HIP(hipMalloc(&dev, n));
  CHECK_HIP(hipMemcpyFromArray(dev, a, 0, 0, n, hipMemcpyDeviceToDevice));
  CHECK_HIP(hipMemcpyToArray(b, 0, 0, dev, n, hipMemcpyDeviceToDevice));
  CHECK(same(b, &m, E) == AH_PASS);
  CHECK_HIP(hipMemset(dev, 0, n));
  CHECK_HIP(hipMemcpyAtoD(dev, a, 3, 12));
  memset(back, 1, sizeof(back));
  CHECK_HIP(hipMemcpy(back, dev, n, hipMemcpyDeviceToHost));
  CHECK(memcmp(back, m.p + 3, 12) == 0);
  CHECK(back[12] == 0);
  CHECK_HIP(hipMemset(dev, 0x5a, n));
  CHECK_HIP(hipMemcpyDtoA(b, 9, dev, 11));
  CHECK_HIP(hipMemcpyAtoA(a, 3, b, 7, 13));
  {
    struct model mb = {malloc(n), row, H, 1};
    CHECK(mb.p != NULL);
    memcpy(mb.p, m.p, n);
    memset(mb.p + 9, 0x5a, 11);
    memcpy(m.p + 3, mb.p + 7, 13);
    CHECK(same(b, &mb, E) == AH_PASS);
    CHECK(same(a, &m, E) == AH_PASS);
    free(mb.p);
  }
  /* Errors. */
  CHECK_ERR(hipMemcpyHtoA(a, 1, host, n), hipErrorInvalidValue); /* past the array */
  CHECK_ERR(hipMemcpyAtoH(back, a, n + 1, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyHtoA(a, 1, host, row), hipErrorInvalidValue); /* past the first row */
  CHECK_ERR(hipMemcpyAtoH(back, a, 0, row + 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyAtoHAsync(back, a, row, 1, s), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyAtoD(dev, a, 0, 2 * row), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyDtoA(b, row - 1, dev, 2), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyAtoA(a, 0, b, 1, row), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyHtoA(NULL, 0, host, 4), hipErrorInvalidValue); /* AMD's code */
  CHECK_ERR(hipMemcpyAtoH(back, NULL, 0, 4), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyHtoA(a, 0, NULL, 4), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyToArray(a, row + 1, 0, host, 4, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyFromArray(back, a, 0, 0, 4, (hipMemcpyKind)9),
            hipErrorInvalidMemcpyDirection);
  CHECK_HIP(hipFree(dev));
  CHECK_HIP(hipFreeArray(a));
  CHECK_HIP(hipFreeArray(b));
  CHECK_HIP(hipStreamDestroy(s));
  free(m.p);
  return AH_PASS;
}

/* 3D, 1D layered and 2D layered arrays through hipMemcpy3D (element positions on the array
 * side, bytes on the memory side) and hipDrvMemcpy3D. */
AH_TEST(array_copy_3d) {
  struct {
    hipExtent e;
    unsigned flags;
  } shapes[] = {{{6, 5, 4}, 0}, {{7, 0, 3}, hipArrayLayered}, {{5, 4, 3}, hipArrayLayered}};
  hipChannelFormatDesc d = fdesc(32, 1, hipChannelFormatKindFloat);

  for (int k = 0; k < 3; k++) {
    hipExtent e = shapes[k].e;
    size_t W = e.width, H = e.height ? e.height : 1, D = e.depth, E = 4, row = W * E;
    struct model m = {calloc(row * H * D, 1), row, H, D};
    unsigned char *host = malloc(64 * 8 * 8);
    hipArray_t a = NULL;
    hipMemcpy3DParms p = {0};

    CHECK(m.p != NULL && host != NULL);
    fill(host, 64 * 8 * 8, 11 + k);
    CHECK_HIP(hipMalloc3DArray(&a, &d, e, shapes[k].flags));
    /* A box of (W - 2) x (H - 1 or 1) x 2 at (1, H > 1, 1) from host memory at (8 bytes,
     * row 1, slice 0) of 64-byte rows and 8-row slices. */
    size_t bw = W - 2, bh = H > 1 ? H - 1 : 1, by = H > 1 ? 1 : 0;
    p.srcPtr = make_hipPitchedPtr(host, 64, 16, 8);
    p.srcPos = make_hipPos(8, 1, 0);
    p.dstArray = a;
    p.dstPos = make_hipPos(1, by, 1);
    p.extent = make_hipExtent(bw, bh, 2);
    p.kind = hipMemcpyHostToDevice;
    CHECK_HIP(hipMemcpy3D(&p));
    for (size_t z = 0; z < 2; z++)
      for (size_t y = 0; y < bh; y++)
        memcpy(m.p + ((1 + z) * H + by + y) * row + E, host + (z * 8 + 1 + y) * 64 + 8, bw * E);
    CHECK(same(a, &m, E) == AH_PASS);
    /* Out of the array: refused. */
    p.dstPos = make_hipPos(3, by, 1);
    CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
    p.dstPos = make_hipPos(1, by, D - 1);
    CHECK_ERR(hipMemcpy3D(&p), hipErrorInvalidValue);
    /* The driver-style 3D copy of the whole array back. */
    HIP_MEMCPY3D c = {0};
    unsigned char *back = calloc(row * H * D, 1);
    CHECK(back != NULL);
    c.srcMemoryType = hipMemoryTypeArray;
    c.srcArray = a;
    c.dstMemoryType = hipMemoryTypeHost;
    c.dstHost = back;
    c.dstPitch = row;
    c.dstHeight = H;
    c.WidthInBytes = row;
    c.Height = H;
    c.Depth = D;
    CHECK_HIP(hipDrvMemcpy3D(&c));
    CHECK(memcmp(back, m.p, row * H * D) == 0);
    free(back);
    CHECK_HIP(hipFreeArray(a));
    free(m.p);
    free(host);
  }
  return AH_PASS;
}

AH_TEST(array_mipmaps) {
  hipChannelFormatDesc d = fdesc(32, 4, hipChannelFormatKindFloat);
  HIP_ARRAY3D_DESCRIPTOR ad = {16, 4, 0, HIP_AD_FORMAT_UNSIGNED_INT8, 1, 0};
  hipMipmappedArray_t m = NULL;
  hipArray_t l = NULL;
  HIP_ARRAY3D_DESCRIPTOR back;

  CHECK_ERR(hipMallocMipmappedArray(NULL, &d, make_hipExtent(8, 8, 0), 2, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipMallocMipmappedArray(&m, &d, make_hipExtent(8, 8, 0), 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMallocMipmappedArray(&m, &d, make_hipExtent(8, 8, 0), 5, 0), hipErrorInvalidValue);
  /* Past the device's texture limits (hip-tests' NumericLimit: this looped forever). */
  CHECK_ERR(hipMallocMipmappedArray(&m, &d, make_hipExtent(SIZE_MAX, SIZE_MAX, SIZE_MAX), 1, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipMallocMipmappedArray(&m, &d, make_hipExtent(SIZE_MAX, 0, 0), 1, 0),
            hipErrorInvalidValue);
  CHECK_HIP(hipMallocMipmappedArray(&m, &d, make_hipExtent(8, 8, 0), 4, 0));
  for (unsigned i = 0; i < 4; i++) {
    CHECK_HIP(hipGetMipmappedArrayLevel(&l, m, i));
    CHECK_HIP(hipArray3DGetDescriptor(&back, l));
    CHECK(back.Width == (8u >> i) && back.Height == (8u >> i) && back.Depth == 0);
    CHECK_HIP(hipFreeArray(l)); /* a no-op: the level goes with its mipmapped array */
    CHECK_HIP(hipArray3DGetDescriptor(&back, l));
  }
  CHECK_ERR(hipGetMipmappedArrayLevel(&l, m, 4), hipErrorInvalidValue);
  CHECK_ERR(hipGetMipmappedArrayLevel(NULL, m, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGetMipmappedArrayLevel(&l, NULL, 0), hipErrorInvalidHandle); /* AMD's code */
  CHECK_HIP(hipFreeMipmappedArray(m));
  CHECK_ERR(hipFreeMipmappedArray(m), hipErrorContextIsDestroyed); /* freed: AMD's code */
  CHECK_ERR(hipGetMipmappedArrayLevel(&l, m, 0), hipErrorInvalidHandle);
  CHECK_ERR(hipFreeMipmappedArray(NULL), hipErrorInvalidValue);
  /* The driver-style calls: a 16 x 4 array has 5 levels, the last 1 x 1. */
  CHECK_ERR(hipMipmappedArrayCreate(&m, &ad, 6), hipErrorInvalidValue);
  CHECK_HIP(hipMipmappedArrayCreate(&m, &ad, 5));
  CHECK_HIP(hipMipmappedArrayGetLevel(&l, m, 4));
  CHECK_HIP(hipArray3DGetDescriptor(&back, l));
  CHECK(back.Width == 1 && back.Height == 1);
  CHECK_HIP(hipMipmappedArrayDestroy(m));
  CHECK_ERR(hipMipmappedArrayDestroy(m), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMipmappedArrayDestroy(NULL), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(texture_object_api) {
  hipChannelFormatDesc d = fdesc(8, 4, hipChannelFormatKindUnsigned);
  hipArray_t a = NULL;
  hipResourceDesc res, rback;
  hipTextureDesc td, tback;
  struct hipResourceViewDesc vback;
  HIP_RESOURCE_DESC dres;
  HIP_TEXTURE_DESC dtex;
  hipTextureObject_t t = 0, t2 = 0;
  void *lin = NULL;

  CHECK_HIP(hipMallocArray(&a, &d, 8, 8, 0));
  memset(&res, 0, sizeof(res));
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = hipAddressModeBorder;
  td.addressMode[1] = hipAddressModeMirror;
  td.filterMode = hipFilterModeLinear;
  td.readMode = hipReadModeNormalizedFloat;
  td.normalizedCoords = 1;
  td.borderColor[2] = 0.5f;
  CHECK_ERR(hipCreateTextureObject(NULL, &res, &td, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipCreateTextureObject(&t, NULL, &td, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipCreateTextureObject(&t, &res, NULL, NULL), hipErrorInvalidValue);
  td.addressMode[2] = (enum hipTextureAddressMode)4;
  CHECK_RECORDS(hipCreateTextureObject(&t, &res, &td, NULL), hipErrorInvalidValue);
  td.addressMode[2] = hipAddressModeWrap;
  res.res.array.array = (hipArray_t)&td;
  CHECK_ERR(hipCreateTextureObject(&t, &res, &td, NULL), hipErrorInvalidValue);
  res.res.array.array = a;
  res.resType = (hipResourceType)7;
  CHECK_ERR(hipCreateTextureObject(&t, &res, &td, NULL), hipErrorInvalidValue);
  res.resType = hipResourceTypeArray;
  CHECK_HIP(hipCreateTextureObject(&t, &res, &td, NULL));
  CHECK(t != 0);
  /* Getters in both spellings. */
  CHECK_HIP(hipGetTextureObjectResourceDesc(&rback, t));
  CHECK(rback.resType == hipResourceTypeArray && rback.res.array.array == a);
  CHECK_HIP(hipGetTextureObjectTextureDesc(&tback, t));
  CHECK(memcmp(&tback, &td, sizeof(td)) == 0);
  CHECK_HIP(hipGetTextureObjectResourceViewDesc(&vback, t));
  CHECK_HIP(hipTexObjectGetResourceDesc(&dres, t));
  CHECK(dres.resType == HIP_RESOURCE_TYPE_ARRAY && dres.res.array.hArray == a);
  CHECK_HIP(hipTexObjectGetTextureDesc(&dtex, t));
  CHECK(dtex.addressMode[0] == HIP_TR_ADDRESS_MODE_BORDER &&
        dtex.filterMode == HIP_TR_FILTER_MODE_LINEAR &&
        dtex.flags == HIP_TRSF_NORMALIZED_COORDINATES && dtex.borderColor[2] == 0.5f);
  CHECK_ERR(hipGetTextureObjectResourceDesc(NULL, t), hipErrorInvalidValue);
  CHECK_ERR(hipGetTextureObjectResourceDesc(&rback, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGetTextureObjectTextureDesc(NULL, t), hipErrorInvalidValue);
  CHECK_ERR(hipGetTextureObjectResourceViewDesc(&vback, 0), hipErrorInvalidValue);
  CHECK_ERR(hipTexObjectGetTextureDesc(&dtex, 0), hipErrorInvalidValue);

  /* The driver-style create of linear memory, read back in the runtime's spelling. */
  CHECK_HIP(hipMalloc(&lin, 256));
  memset(&dres, 0, sizeof(dres));
  dres.resType = HIP_RESOURCE_TYPE_LINEAR;
  dres.res.linear.devPtr = lin;
  dres.res.linear.format = HIP_AD_FORMAT_FLOAT;
  dres.res.linear.numChannels = 2;
  dres.res.linear.sizeInBytes = 256;
  memset(&dtex, 0, sizeof(dtex));
  dtex.flags = HIP_TRSF_READ_AS_INTEGER;
  CHECK_HIP(hipTexObjectCreate(&t2, &dres, &dtex, NULL));
  CHECK_HIP(hipGetTextureObjectResourceDesc(&rback, t2));
  CHECK(rback.resType == hipResourceTypeLinear && rback.res.linear.devPtr == lin &&
        rback.res.linear.desc.x == 32 && rback.res.linear.desc.y == 32 &&
        rback.res.linear.desc.z == 0 && rback.res.linear.desc.f == hipChannelFormatKindFloat &&
        rback.res.linear.sizeInBytes == 256);
  CHECK_HIP(hipGetTextureObjectTextureDesc(&tback, t2));
  CHECK(tback.readMode == hipReadModeElementType && tback.normalizedCoords == 0);
  dres.flags = 1;
  CHECK_ERR(hipTexObjectCreate(&t2, &dres, &dtex, NULL), hipErrorInvalidValue);
  dres.flags = 0;
  dres.res.linear.devPtr = NULL;
  CHECK_ERR(hipTexObjectCreate(&t2, &dres, &dtex, NULL), hipErrorInvalidValue);
  dres.res.linear.devPtr = lin;
  dres.res.linear.numChannels = 3;
  CHECK_ERR(hipTexObjectCreate(&t2, &dres, &dtex, NULL), hipErrorInvalidValue);
  /* Pitched memory narrower than its width is refused. */
  memset(&res, 0, sizeof(res));
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = lin;
  res.res.pitch2D.desc = fdesc(32, 1, hipChannelFormatKindFloat);
  res.res.pitch2D.width = 16;
  res.res.pitch2D.height = 4;
  res.res.pitch2D.pitchInBytes = 32;
  CHECK_ERR(hipCreateTextureObject(&t, &res, &td, NULL), hipErrorInvalidValue);

  CHECK_HIP(hipTexObjectDestroy(t2));
  CHECK_ERR(hipTexObjectDestroy(t2), hipErrorInvalidValue);
  CHECK_HIP(hipDestroyTextureObject(t));
  CHECK_ERR(hipDestroyTextureObject(t), hipErrorInvalidValue);
  CHECK_HIP(hipDestroyTextureObject(0));
  CHECK_HIP(hipFree(lin));
  CHECK_HIP(hipFreeArray(a));
  return AH_PASS;
}

AH_TEST(surface_object_api) {
  hipChannelFormatDesc d = fdesc(32, 1, hipChannelFormatKindFloat);
  hipArray_t a = NULL;
  hipResourceDesc res;
  hipSurfaceObject_t s = 0;

  CHECK_HIP(hipMallocArray(&a, &d, 8, 8, hipArraySurfaceLoadStore));
  memset(&res, 0, sizeof(res));
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  CHECK_ERR(hipCreateSurfaceObject(NULL, &res), hipErrorInvalidValue);
  CHECK_ERR(hipCreateSurfaceObject(&s, NULL), hipErrorInvalidValue);
  res.resType = hipResourceTypeLinear;
  CHECK_ERR(hipCreateSurfaceObject(&s, &res), hipErrorInvalidValue);
  res.resType = hipResourceTypeArray;
  res.res.array.array = NULL;
  CHECK_ERR(hipCreateSurfaceObject(&s, &res), hipErrorInvalidHandle);
  res.res.array.array = a;
  CHECK_HIP(hipCreateSurfaceObject(&s, &res));
  CHECK(s != 0);
  CHECK_HIP(hipDestroySurfaceObject(s));
  CHECK_ERR(hipDestroySurfaceObject(s), hipErrorInvalidValue);
  CHECK_ERR(hipDestroySurfaceObject(0), hipErrorInvalidValue);
  CHECK_HIP(hipFreeArray(a));
  return AH_PASS;
}

/* A large array reads back as zeros, and is made without touching its pages (a multi-GB array
 * took minutes when creation cleared it: hip-tests' MaxTexture cases). */
AH_TEST(array_large_zeroed) {
  hipChannelFormatDesc d = fdesc(8, 4, hipChannelFormatKindUnsigned);
  enum { W = 16384, H = 16384 }; /* 1 GiB */
  unsigned char row[W * 4];
  hipArray_t a = NULL;
  hipDeviceProp_t p;
  hipError_t err;

  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  if (strcmp(p.gcnArchName, "cpu") != 0)
    SKIP("a new array's contents are the CPU device's promise only");
  err = hipMallocArray(&a, &d, W, H, 0);
  if (err == hipErrorOutOfMemory)
    SKIP("no room for a 1 GiB array");
  CHECK_HIP(err);
  memset(row, 0xee, sizeof(row));
  CHECK_HIP(hipMemcpy2DFromArray(row, sizeof(row), a, 0, H - 1, sizeof(row), 1,
                                 hipMemcpyDeviceToHost));
  for (size_t i = 0; i < sizeof(row); i++)
    CHECK_EQ(row[i], 0);
  CHECK_HIP(hipFreeArray(a));
  return AH_PASS;
}

/* An array handle given to hipPointerGetAttribute has the array memory type (AMD's runtime);
 * a freed one is no pointer at all. */
AH_TEST(array_pointer_attribute) {
  hipChannelFormatDesc d = fdesc(8, 1, hipChannelFormatKindSigned);
  hipArray_t a = NULL;
  unsigned type = 0;
  void *dev = NULL;

  CHECK_HIP(hipMalloc3DArray(&a, &d, make_hipExtent(10, 10, 10), 0));
  CHECK_HIP(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, (hipDeviceptr_t)a));
  CHECK_EQ(type, hipMemoryTypeArray);
  CHECK_ERR(hipPointerGetAttribute(&dev, HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, (hipDeviceptr_t)a),
            hipErrorInvalidValue);
  CHECK_HIP(hipFreeArray(a));
  CHECK_ERR(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, (hipDeviceptr_t)a),
            hipErrorInvalidValue);
  /* Device memory keeps its own type. */
  CHECK_HIP(hipMalloc(&dev, 64));
  CHECK_HIP(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, dev));
  CHECK_EQ(type, hipMemoryTypeDevice);
  CHECK_HIP(hipFree(dev));
  return AH_PASS;
}
