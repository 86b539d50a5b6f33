/* SPDX-License-Identifier: MIT */
/* Copies and sets: hipMemcpy in every direction and with hipMemcpyDefault,
 * the driver-style and asynchronous forms, pitched 2D copies and sets,
 * hipMemset and its 8/16/32-bit forms checked element by element against a
 * host reference, peer copies, and the argument checks of each (null and
 * unknown pointers, ranges past an allocation, bad directions and pitches). */
#define _GNU_SOURCE
#include "ah_test.h"
#include "gate.h"

#include <stdint.h>

static void pattern(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 131u + seed * 7u + 1u);
}

static int same_pattern(const unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 131u + seed * 7u + 1u))
      return 0;
  return 1;
}

/* A global variable: on the CPU device, a __device__ variable is one. */
unsigned char audit_var[64];

enum { N = 4099 }; /* odd on purpose: no copy happens to be a multiple of anything */

AH_TEST(memcpy_every_kind) {
  static const hipMemcpyKind kinds[] = {hipMemcpyHostToDevice, hipMemcpyDefault};
  unsigned char *h1 = malloc(N), *h2 = malloc(N), *pin;
  void *d1, *d2;

  CHECK(h1 != NULL && h2 != NULL);
  CHECK_HIP(hipMalloc(&d1, N));
  CHECK_HIP(hipMalloc(&d2, N));
  CHECK_HIP(hipHostMalloc((void **)&pin, N, 0));
  for (int k = 0; k < 2; k++) {
    int dflt = kinds[k] == hipMemcpyDefault;

    pattern(h1, N, (unsigned)k);
    memset(h2, 0, N);
    memset(pin, 0, N);
    CHECK_HIP(hipMemcpy(d1, h1, N, dflt ? hipMemcpyDefault : hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(d2, d1, N, dflt ? hipMemcpyDefault : hipMemcpyDeviceToDevice));
    CHECK_HIP(hipMemcpy(pin, d2, N, dflt ? hipMemcpyDefault : hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(h2, pin, N, dflt ? hipMemcpyDefault : hipMemcpyHostToHost));
    CHECK(same_pattern(pin, N, (unsigned)k));
    CHECK(same_pattern(h2, N, (unsigned)k));
  }
  /* Host to host between two pageable buffers, both spellings. */
  pattern(h1, N, 9);
  CHECK_HIP(hipMemcpy(h2, h1, N, hipMemcpyHostToHost));
  CHECK(same_pattern(h2, N, 9));
  pattern(h1, N, 10);
  CHECK_HIP(hipMemcpy(h2, h1, N, hipMemcpyDefault));
  CHECK(same_pattern(h2, N, 10));
  CHECK_HIP(hipFree(d1));
  CHECK_HIP(hipFree(d2));
  CHECK_HIP(hipHostFree(pin));
  free(h1);
  free(h2);
  return AH_PASS;
}

/* Interior pointers and partial copies move exactly the bytes asked for. */
AH_TEST(memcpy_partial_offsets) {
  unsigned char in[N], out[N], ref[N];
  void *d;

  CHECK_HIP(hipMalloc(&d, N));
  memset(in, 0xEE, N);
  CHECK_HIP(hipMemcpy(d, in, N, hipMemcpyHostToDevice));
  pattern(in, N, 3);
  CHECK_HIP(hipMemcpy((char *)d + 100, in + 100, 1000, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(out, d, N, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < N; i++)
    ref[i] = i >= 100 && i < 1100 ? in[i] : 0xEE;
  CHECK(memcmp(out, ref, N) == 0);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

AH_TEST(memcpy_driver_style) {
  unsigned char in[N], out[N];
  void *d1, *d2;
  hipStream_t s;

  CHECK_HIP(hipMalloc(&d1, N));
  CHECK_HIP(hipMalloc(&d2, N));
  pattern(in, N, 4);
  CHECK_HIP(hipMemcpyHtoD(d1, in, N));
  CHECK_HIP(hipMemcpyDtoD(d2, d1, N));
  memset(out, 0, N);
  CHECK_HIP(hipMemcpyDtoH(out, d2, N));
  CHECK(same_pattern(out, N, 4));

  CHECK_HIP(hipStreamCreate(&s));
  pattern(in, N, 5);
  CHECK_HIP(hipMemcpyHtoDAsync(d1, in, N, s));
  CHECK_HIP(hipMemcpyDtoDAsync(d2, d1, N, s));
  memset(out, 0, N);
  CHECK_HIP(hipMemcpyDtoHAsync(out, d2, N, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK(same_pattern(out, N, 5));
  CHECK_HIP(hipStreamDestroy(s));

  CHECK_ERR(hipMemcpyHtoD(NULL, in, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyDtoH(out, NULL, N), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyDtoD(d1, d2, N + 1), hipErrorInvalidValue);
  CHECK_HIP(hipFree(d1));
  CHECK_HIP(hipFree(d2));
  return AH_PASS;
}

AH_TEST(memcpy_async_in_order) {
  enum { K = 8 };
  unsigned char *pin, *out;
  void *d[K];
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipHostMalloc((void **)&pin, N, 0));
  CHECK_HIP(hipHostMalloc((void **)&out, N, 0));
  pattern(pin, N, 6);
  for (int i = 0; i < K; i++)
    CHECK_HIP(hipMalloc(&d[i], N));
  /* A chain of copies on one stream runs in order. */
  CHECK_HIP(hipMemcpyAsync(d[0], pin, N, hipMemcpyHostToDevice, s));
  for (int i = 1; i < K; i++)
    CHECK_HIP(hipMemcpyAsync(d[i], d[i - 1], N, hipMemcpyDeviceToDevice, s));
  CHECK_HIP(hipMemcpyAsync(out, d[K - 1], N, hipMemcpyDefault, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK(same_pattern(out, N, 6));
  /* The null stream works too, and hipMemcpyWithStream is synchronous. */
  memset(out, 0, N);
  CHECK_HIP(hipMemcpyAsync(out, d[0], N, hipMemcpyDeviceToHost, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK(same_pattern(out, N, 6));
  memset(out, 0, N);
  CHECK_HIP(hipMemcpyWithStream(out, d[3], N, hipMemcpyDeviceToHost, s));
  CHECK(same_pattern(out, N, 6));
  for (int i = 0; i < K; i++)
    CHECK_HIP(hipFree(d[i]));
  CHECK_HIP(hipHostFree(pin));
  CHECK_HIP(hipHostFree(out));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* An async copy waits behind earlier work of its stream. */
AH_TEST(memcpy_async_ordered_in_stream) {
  struct gate g = GATE_INIT;
  int *pin, *dst;
  void *d;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipHostMalloc((void **)&pin, sizeof(int), 0));
  CHECK_HIP(hipHostMalloc((void **)&dst, sizeof(int), 0));
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  *pin = 77;
  *dst = 0;
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK_HIP(hipMemcpyAsync(d, pin, sizeof(int), hipMemcpyHostToDevice, s));
  CHECK_HIP(hipMemcpyAsync(dst, d, sizeof(int), hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipMemsetD32Async(d, 5, 1, s));
  CHECK(wait_flag(&g.entered, 5000));
  sleep_ms(20);
  CHECK_EQ(*dst, 0); /* still held behind the gate */
  CHECK_EQ(hipStreamQuery(s), hipErrorNotReady);
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(*dst, 77);
  CHECK_HIP(hipMemcpy(dst, d, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_EQ(*dst, 5);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipHostFree(pin));
  CHECK_HIP(hipHostFree(dst));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

static int is_open(struct gate *g) {
  int o;

  pthread_mutex_lock(&g->m);
  o = g->open;
  pthread_mutex_unlock(&g->m);
  return o;
}

static void *open_later(void *p) {
  sleep_ms(50);
  gate_open(p);
  return NULL;
}

/* hipMemcpy and hipMemset run on the null stream, after work queued before them on
 * blocking streams; hipMemcpy waits for it. */
AH_TEST(memcpy_sync_waits_for_streams) {
  struct gate g = GATE_INIT;
  pthread_t t;
  int v = 1, out = 0;
  void *d;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK_EQ(pthread_create(&t, NULL, open_later, &g), 0);
  CHECK_HIP(hipMemcpy(d, &v, sizeof(v), hipMemcpyHostToDevice));
  CHECK(is_open(&g)); /* returned only after the stream's work */
  pthread_join(t, NULL);

  g.open = 0;
  atomic_store(&g.entered, 0);
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK_EQ(pthread_create(&t, NULL, open_later, &g), 0);
  /* hipMemset of device memory may return before (HIP: asynchronous with respect to the
   * host), but it is ordered after the stream's work: the copy back sees it. */
  CHECK_HIP(hipMemset(d, 0x11, sizeof(int)));
  CHECK_HIP(hipMemcpy(&out, d, sizeof(out), hipMemcpyDeviceToHost));
  CHECK(is_open(&g));
  pthread_join(t, NULL);
  CHECK_EQ(out, 0x11111111);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* As in CUDA, a pageable source may be reused as soon as the async copy
 * returns: the copy has taken its bytes by then. */
AH_TEST(memcpy_async_pageable_source) {
  int v, out = 0;
  void *d;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  v = 1234;
  CHECK_HIP(hipMemcpyAsync(d, &v, sizeof(v), hipMemcpyHostToDevice, s));
  v = -1;
  CHECK_HIP(hipMemcpyAsync(&out, d, sizeof(out), hipMemcpyDeviceToHost, s));
  CHECK_EQ(out, 1234); /* a pageable destination is written before the return */
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* 2D and 3D async copies from pageable memory to device memory do not wait for their stream
 * (AMD's runtime; ROCm's unit suite checks it): the source is staged at the call, so it may be
 * changed at once and the copy still delivers what it held. hipMemcpyAsync (1D) from pageable
 * memory waits, as HIP documents. */
AH_TEST(memcpy_async_2d_3d_pageable_staged) {
  enum { W = 24, H = 5, D = 3, DP = 32 };
  unsigned char *host = malloc(W * H * D), back[W * H * D];
  struct gate g = GATE_INIT;
  hipPitchedPtr p3;
  hipMemcpy3DParms c3;
  hip_Memcpy2D c2;
  pthread_t t;
  hipStream_t s;
  void *d;

  hipDeviceProp_t prop;
  int cpu;

  CHECK(host != NULL);
  CHECK_HIP(hipGetDeviceProperties(&prop, 0));
  cpu = strcmp(prop.gcnArchName, "cpu") == 0; /* NVIDIA: the driver's rule (the copy waits) */
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc(&d, DP * H));
  CHECK_HIP(hipMalloc3D(&p3, make_hipExtent(W, H, D)));
  for (int pass = 0; pass < 3; pass++) {
    g.open = 0;
    atomic_store(&g.entered, 0);
    pattern(host, W * H * D, pass + 3);
    CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
    CHECK_EQ(pthread_create(&t, NULL, open_later, &g), 0);
    if (pass == 0) {
      CHECK_HIP(hipMemcpy2DAsync(d, DP, host, W, W, H, hipMemcpyHostToDevice, s));
    } else if (pass == 1) {
      memset(&c2, 0, sizeof(c2));
      c2.srcMemoryType = hipMemoryTypeHost;
      c2.srcHost = host;
      c2.srcPitch = W;
      c2.dstMemoryType = hipMemoryTypeDevice;
      c2.dstDevice = d;
      c2.dstPitch = DP;
      c2.WidthInBytes = W;
      c2.Height = H;
      CHECK_HIP(hipMemcpyParam2DAsync(&c2, s));
    } else {
      memset(&c3, 0, sizeof(c3));
      c3.srcPtr = make_hipPitchedPtr(host, W, W, H);
      c3.dstPtr = p3;
      c3.extent = make_hipExtent(W, H, D);
      c3.kind = hipMemcpyHostToDevice;
      CHECK_HIP(hipMemcpy3DAsync(&c3, s));
    }
    if (cpu)
      CHECK(!is_open(&g)); /* returned while the stream was held */
    memset(host, 0xee, W * H * D); /* the copy took its bytes at the call */
    CHECK_HIP(hipStreamSynchronize(s));
    pthread_join(t, NULL);
    pattern(host, W * H * D, pass + 3);
    memset(back, 0, sizeof(back));
    if (pass < 2) {
      CHECK_HIP(hipMemcpy2D(back, W, d, DP, W, H, hipMemcpyDeviceToHost));
      CHECK(memcmp(back, host, W * H) == 0);
    } else {
      c3.srcPtr = p3;
      c3.dstPtr = make_hipPitchedPtr(back, W, W, H);
      c3.kind = hipMemcpyDeviceToHost;
      CHECK_HIP(hipMemcpy3D(&c3));
      CHECK(memcmp(back, host, W * H * D) == 0);
    }
  }
  /* 1D: waits for the stream. */
  g.open = 0;
  atomic_store(&g.entered, 0);
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK_EQ(pthread_create(&t, NULL, open_later, &g), 0);
  CHECK_HIP(hipMemcpyAsync(d, host, W, hipMemcpyHostToDevice, s));
  CHECK(is_open(&g));
  pthread_join(t, NULL);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(p3.ptr));
  CHECK_HIP(hipStreamDestroy(s));
  free(host);
  return AH_PASS;
}

/* hipMemcpy3D between device buffers does not wait for the copy (AMD's runtime, CUDA's
 * device-to-device rule) but stays in the null stream's order; hipMemcpy3D to host memory waits. */
AH_TEST(memcpy3d_device_to_device_no_wait) {
  enum { W = 16, H = 4, D = 2 };
  unsigned char host[W * H * D], back[W * H * D];
  struct gate g = GATE_INIT;
  hipPitchedPtr a, b;
  hipMemcpy3DParms p;
  pthread_t t;

  CHECK_HIP(hipMalloc3D(&a, make_hipExtent(W, H, D)));
  CHECK_HIP(hipMalloc3D(&b, make_hipExtent(W, H, D)));
  pattern(host, sizeof(host), 11);
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_hipPitchedPtr(host, W, W, H);
  p.dstPtr = a;
  p.extent = make_hipExtent(W, H, D);
  p.kind = hipMemcpyHostToDevice;
  CHECK_HIP(hipMemcpy3D(&p));
  CHECK_HIP(hipLaunchHostFunc(NULL, gate_fn, &g));
  CHECK_EQ(pthread_create(&t, NULL, open_later, &g), 0);
  p.srcPtr = a;
  p.dstPtr = b;
  p.kind = hipMemcpyDeviceToDevice;
  CHECK_HIP(hipMemcpy3D(&p));
  CHECK(!is_open(&g)); /* returned while the null stream was held */
  p.srcPtr = b; /* ordered after the device copy, and waits */
  p.dstPtr = make_hipPitchedPtr(back, W, W, H);
  p.kind = hipMemcpyDeviceToHost;
  memset(back, 0, sizeof(back));
  CHECK_HIP(hipMemcpy3D(&p));
  CHECK(is_open(&g));
  pthread_join(t, NULL);
  CHECK(memcmp(back, host, sizeof(host)) == 0);
  CHECK_HIP(hipFree(a.ptr));
  CHECK_HIP(hipFree(b.ptr));
  return AH_PASS;
}

/* A host function queued before an async copy from pageable memory fills
 * the buffer: the copy reads what it wrote (stream order), though the stream
 * was held when the copy was made (the NVIDIA driver reads pageable memory
 * when a copy is enqueued). On a created stream, and on one that must also
 * wait for the null stream's host function. */
struct fill_arg {
  struct gate *g;
  unsigned char *buf;
  size_t n;
};

static void fill_fn(void *p) {
  struct fill_arg *a = p;

  gate_fn(a->g);
  pattern(a->buf, a->n, 9);
}

AH_TEST(memcpy_async_pageable_after_host_fn) {
  const size_t n = (size_t)3 << 20; /* more than one staging chunk of the driver */
  unsigned char *buf = malloc(n), *out = malloc(n);
  struct gate g = GATE_INIT, g2 = GATE_INIT;
  struct fill_arg a = {&g, buf, n}, a2 = {&g2, buf, n};
  pthread_t t;
  hipStream_t s;
  void *d;

  CHECK(buf != NULL && out != NULL);
  memset(buf, 0, n);
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc(&d, n));
  CHECK_HIP(hipLaunchHostFunc(s, fill_fn, &a));
  CHECK_EQ(pthread_create(&t, NULL, open_later, &g), 0);
  CHECK_HIP(hipMemcpyAsync(d, buf, n, hipMemcpyHostToDevice, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(pthread_join(t, NULL), 0);
  memset(out, 0, n);
  CHECK_HIP(hipMemcpy(out, d, n, hipMemcpyDeviceToHost));
  CHECK(same_pattern(out, n, 9));
  /* The null stream's host function comes first for a blocking stream. */
  memset(buf, 0, n);
  CHECK_HIP(hipMemset(d, 0, n));
  CHECK_HIP(hipLaunchHostFunc(NULL, fill_fn, &a2));
  CHECK_EQ(pthread_create(&t, NULL, open_later, &g2), 0);
  CHECK_HIP(hipMemcpyAsync(d, buf, n, hipMemcpyHostToDevice, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(pthread_join(t, NULL), 0);
  memset(out, 0, n);
  CHECK_HIP(hipMemcpy(out, d, n, hipMemcpyDeviceToHost));
  CHECK(same_pattern(out, n, 9));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  free(buf);
  free(out);
  return AH_PASS;
}

AH_TEST(memcpy_errors) {
  unsigned char h[64] = {0}, h2[64];
  void *d, *d2;
  hipStream_t s;

  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_HIP(hipMalloc(&d2, 32));
  CHECK_ERR(hipMemcpy(NULL, h, 64, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(d, NULL, 64, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(h, d, 64, (hipMemcpyKind)5), hipErrorInvalidMemcpyDirection);
  CHECK_ERR(hipMemcpy(h, d, 64, (hipMemcpyKind)-1), hipErrorInvalidMemcpyDirection);
  CHECK_ERR(hipMemcpyAsync(h, d, 64, (hipMemcpyKind)7, NULL), hipErrorInvalidMemcpyDirection);
  /* Ranges past the end of a known allocation, on either side. */
  CHECK_ERR(hipMemcpy(d, h, 65, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy((char *)d + 1, h, 64, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(h, d2, 33, hipMemcpyDeviceToHost), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(d, d2, 64, hipMemcpyDeviceToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(d, h, SIZE_MAX, hipMemcpyHostToDevice), hipErrorInvalidValue);
  /* Two plain host pointers with a device direction: HIP refuses. */
  CHECK_ERR(hipMemcpy(h2, h, 64, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(h2, h, 64, hipMemcpyDeviceToDevice), hipErrorInvalidValue);
  /* A zero-byte copy does nothing and succeeds, even with no pointers. */
  CHECK_HIP(hipMemcpy(NULL, NULL, 0, hipMemcpyHostToDevice));
  /* A freed allocation is plain host memory as far as HIP knows. */
  CHECK_HIP(hipFree(d2));
  CHECK_ERR(hipMemcpy(d2, h, 16, hipMemcpyHostToDevice), hipErrorInvalidValue);
  /* A destroyed stream. */
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK(hipMemcpyAsync(d, h, 64, hipMemcpyHostToDevice, s) != hipSuccess);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* ---- memset -------------------------------------------------------------- */

AH_TEST(memset_values) {
  enum { B = 1000 };
  unsigned char out[B];
  void *d;

  CHECK_HIP(hipMalloc(&d, B));
  CHECK_HIP(hipMemset(d, 0x1234, B)); /* only the low byte counts */
  CHECK_HIP(hipMemcpy(out, d, B, hipMemcpyDeviceToHost));
  for (int i = 0; i < B; i++)
    CHECK_EQ(out[i], 0x34);
  /* A partial set leaves its neighbours alone. */
  CHECK_HIP(hipMemset((char *)d + 10, 0xAB, 20));
  CHECK_HIP(hipMemcpy(out, d, B, hipMemcpyDeviceToHost));
  for (int i = 0; i < B; i++)
    CHECK_EQ(out[i], i >= 10 && i < 30 ? 0xAB : 0x34);
  CHECK_HIP(hipMemsetAsync(d, 7, B, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_HIP(hipMemcpy(out, d, B, hipMemcpyDeviceToHost));
  for (int i = 0; i < B; i++)
    CHECK_EQ(out[i], 7);
  CHECK_HIP(hipMemset(d, 1, 0)); /* nothing to do */
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

AH_TEST(memset_d8_d16_d32) {
  enum { E = 301 };
  uint32_t out32[E + 2];
  uint16_t out16[E + 2];
  uint8_t out8[E + 2];
  void *d;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc(&d, (E + 2) * 4));

  /* Each writes exactly `count` elements after a guard element. */
  CHECK_HIP(hipMemset(d, 0, (E + 2) * 4));
  CHECK_HIP(hipMemsetD32((uint32_t *)d + 1, (int)0xDEADBEEF, E));
  CHECK_HIP(hipMemcpy(out32, d, sizeof(out32), hipMemcpyDeviceToHost));
  for (int i = 0; i < E + 2; i++)
    CHECK_EQ(out32[i], i >= 1 && i <= E ? 0xDEADBEEFu : 0u);

  CHECK_HIP(hipMemset(d, 0, (E + 2) * 4));
  CHECK_HIP(hipMemsetD16((uint16_t *)d + 1, 0xBEEF, E));
  CHECK_HIP(hipMemcpy(out16, d, sizeof(out16), hipMemcpyDeviceToHost));
  for (int i = 0; i < E + 2; i++)
    CHECK_EQ(out16[i], i >= 1 && i <= E ? 0xBEEF : 0);

  CHECK_HIP(hipMemset(d, 0, (E + 2) * 4));
  CHECK_HIP(hipMemsetD8((uint8_t *)d + 1, 0xC3, E));
  CHECK_HIP(hipMemcpy(out8, d, sizeof(out8), hipMemcpyDeviceToHost));
  for (int i = 0; i < E + 2; i++)
    CHECK_EQ(out8[i], i >= 1 && i <= E ? 0xC3 : 0);

  /* The asynchronous forms, ordered on one stream. */
  CHECK_HIP(hipMemsetD32Async(d, 0x01020304, E + 2, s));
  CHECK_HIP(hipMemsetD16Async(d, 0xAAAA, 3, s));
  CHECK_HIP(hipMemsetD8Async(d, 0x55, 1, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(out8, d, 8, hipMemcpyDeviceToHost));
  CHECK_EQ(out8[0], 0x55);
  CHECK_EQ(out8[1], 0xAA);
  CHECK_EQ(out8[5], 0xAA);
  CHECK_HIP(hipMemcpy(out32, d, sizeof(out32), hipMemcpyDeviceToHost));
  for (int i = 2; i < E + 2; i++)
    CHECK_EQ(out32[i], 0x01020304u);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(memset_errors) {
  char *host = malloc(64);
  void *d;

  CHECK(host != NULL);
  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_ERR(hipMemset(NULL, 0, 64), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetAsync(NULL, 0, 64, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD32(NULL, 0, 16), hipErrorInvalidValue);
  /* HIP sets device-visible memory only, not plain host memory. */
  CHECK_ERR(hipMemset(host, 0, 64), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD16(host, 0, 32), hipErrorInvalidValue);
  /* Past the end, by size or by start. */
  CHECK_ERR(hipMemset(d, 0, 65), hipErrorInvalidValue);
  CHECK_ERR(hipMemset((char *)d + 65, 0, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD16(d, 0, 33), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD32(d, 0, 17), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD32Async(d, 0, 17, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD32(d, 0, SIZE_MAX), hipErrorInvalidValue);
  /* Misaligned elements. */
  CHECK_ERR(hipMemsetD16((char *)d + 1, 0, 4), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD32((char *)d + 2, 0, 4), hipErrorInvalidValue);
  /* Memory set on the host side of pinned memory is fine. */
  CHECK_HIP(hipFree(d));
  CHECK_ERR(hipMemset(d, 0, 64), hipErrorInvalidValue); /* freed */
  CHECK_HIP(hipHostMalloc(&d, 64, 0));
  CHECK_HIP(hipMemset(d, 9, 64));
  CHECK_EQ(((unsigned char *)d)[63], 9);
  CHECK_HIP(hipHostFree(d));
  free(host);
  return AH_PASS;
}

/* ---- 2D ------------------------------------------------------------------ */

AH_TEST(memcpy2d_pitched) {
  enum { W = 37, H = 11, HP = 64 }; /* width in bytes, rows, host pitch */
  unsigned char src[HP * H], dst[HP * H], ref[HP * H];
  size_t dp1, dp2;
  void *d1, *d2;
  hipStream_t s;

  CHECK_HIP(hipMallocPitch(&d1, &dp1, W, H));
  CHECK_HIP(hipMallocPitch(&d2, &dp2, W + 5, H));
  pattern(src, sizeof(src), 11);
  CHECK_HIP(hipMemset2D(d1, dp1, 0, dp1, H));
  CHECK_HIP(hipMemcpy2D(d1, dp1, src, HP, W, H, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy2D(d2, dp2, d1, dp1, W, H, hipMemcpyDeviceToDevice));
  memset(dst, 0xFF, sizeof(dst));
  CHECK_HIP(hipMemcpy2D(dst, HP, d2, dp2, W, H, hipMemcpyDeviceToHost));
  /* Reference: row r's first W bytes come from src; the rest is untouched. */
  for (int r = 0; r < H; r++)
    for (int c = 0; c < HP; c++)
      ref[r * HP + c] = c < W ? src[r * HP + c] : 0xFF;
  CHECK(memcmp(dst, ref, sizeof(dst)) == 0);

  /* Host to host with different pitches, and hipMemcpyDefault, on a stream. */
  CHECK_HIP(hipStreamCreate(&s));
  memset(dst, 0, sizeof(dst));
  CHECK_HIP(hipMemcpy2DAsync(dst, 50, src, HP, W, H, hipMemcpyDefault, s));
  CHECK_HIP(hipStreamSynchronize(s));
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++)
      CHECK_EQ(dst[r * 50 + c], src[r * HP + c]);
  /* Zero width or height is a successful no-op. */
  CHECK_HIP(hipMemcpy2D(d1, dp1, src, HP, 0, H, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy2D(d1, dp1, src, HP, W, 0, hipMemcpyHostToDevice));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d1));
  CHECK_HIP(hipFree(d2));
  return AH_PASS;
}

AH_TEST(memcpy2d_errors) {
  enum { W = 32, H = 4 };
  unsigned char h[W * H];
  size_t pitch;
  int maxp = 0;
  void *d;

  CHECK_HIP(hipMallocPitch(&d, &pitch, W, H));
  CHECK_ERR(hipMemcpy2D(NULL, pitch, h, W, W, H, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2D(d, pitch, NULL, W, W, H, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2D(d, W - 1, h, W, W, H, hipMemcpyHostToDevice), hipErrorInvalidPitchValue);
  CHECK_ERR(hipMemcpy2D(d, pitch, h, W - 1, W, H, hipMemcpyHostToDevice),
            hipErrorInvalidPitchValue);
  CHECK_ERR(hipMemcpy2D(d, pitch, h, W, W, H, (hipMemcpyKind)9), hipErrorInvalidMemcpyDirection);
  CHECK_HIP(hipDeviceGetAttribute(&maxp, hipDeviceAttributeMaxPitch, 0));
  CHECK_ERR(hipMemcpy2D(d, (size_t)maxp + 1, h, W, W, H, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  /* One row too many for the allocation. */
  CHECK_ERR(hipMemcpy2D(d, pitch, h, W, W, H + 1, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2DAsync(h, W, d, pitch, W, H + 1, hipMemcpyDeviceToHost, NULL),
            hipErrorInvalidValue);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

AH_TEST(memset2d) {
  enum { W = 20, H = 6 };
  unsigned char out[512 * H];
  size_t pitch;
  void *d;

  CHECK_HIP(hipMallocPitch(&d, &pitch, W, H));
  CHECK(pitch <= 512);
  CHECK_HIP(hipMemset2D(d, pitch, 1, pitch, H));
  CHECK_HIP(hipMemset2D(d, pitch, 0x1FE, W - 4, H - 1)); /* low byte 0xFE */
  CHECK_HIP(hipMemcpy(out, d, pitch * H, hipMemcpyDeviceToHost));
  for (size_t r = 0; r < H; r++)
    for (size_t c = 0; c < pitch; c++)
      CHECK_EQ(out[r * pitch + c], r < H - 1 && c < W - 4 ? 0xFE : 1);
  CHECK_HIP(hipMemset2DAsync(d, pitch, 3, W, H, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_HIP(hipMemcpy(out, d, pitch * H, hipMemcpyDeviceToHost));
  CHECK_EQ(out[(H - 1) * pitch + W - 1], 3);
  CHECK_EQ(out[(H - 1) * pitch + W], 1);

  CHECK_ERR(hipMemset2D(NULL, pitch, 0, W, H), hipErrorInvalidValue);
  CHECK_ERR(hipMemset2D(d, W - 1, 0, W, H), hipErrorInvalidValue); /* width > pitch */
  CHECK_ERR(hipMemset2D(d, pitch, 0, W, H + 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemset2D(out, 512, 0, W, H), hipErrorInvalidValue); /* host memory */
  CHECK_HIP(hipMemset2D(d, pitch, 0, 0, H));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* ---- peers and symbols --------------------------------------------------- */

AH_TEST(memcpy_peer) {
  unsigned char in[256], out[256];
  int n = 0;
  void *a, *b;

  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipMalloc(&a, 256));
  CHECK_HIP(hipSetDevice(n - 1)); /* the last device; the same one when there is one */
  CHECK_HIP(hipMalloc(&b, 256));
  pattern(in, 256, 12);
  CHECK_HIP(hipMemcpy(a, in, 256, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpyPeer(b, n - 1, a, 0, 256));
  CHECK_HIP(hipMemcpyPeerAsync(a, 0, b, n - 1, 128, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpy(out, b, 256, hipMemcpyDeviceToHost));
  CHECK(same_pattern(out, 256, 12));
  CHECK_ERR(hipMemcpyPeer(b, n, a, 0, 256), hipErrorInvalidDevice);
  CHECK_ERR(hipMemcpyPeer(b, 0, a, -1, 256), hipErrorInvalidDevice);
  CHECK_ERR(hipMemcpyPeer(NULL, 0, a, 0, 256), hipErrorInvalidValue);
  CHECK_HIP(hipFree(b));
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipFree(a));
  return AH_PASS;
}

/* Symbols need a device variable (tests/kernels/symbols.hip); here only the
 * argument checks that need none. */
AH_TEST(symbol_errors) {
  int v = 0, *heap = malloc(sizeof(int));
  size_t size;
  void *addr;

  CHECK(heap != NULL);
  CHECK_ERR(hipMemcpyToSymbol(NULL, &v, sizeof(v), 0, hipMemcpyHostToDevice),
            hipErrorInvalidSymbol);
  CHECK_ERR(hipMemcpyFromSymbol(&v, NULL, sizeof(v), 0, hipMemcpyDeviceToHost),
            hipErrorInvalidSymbol);
  CHECK_ERR(hipMemcpyToSymbolAsync(NULL, &v, sizeof(v), 0, hipMemcpyHostToDevice, NULL),
            hipErrorInvalidSymbol);
  CHECK_ERR(hipGetSymbolAddress(&addr, NULL), hipErrorInvalidSymbol);
  CHECK_ERR(hipGetSymbolSize(&size, NULL), hipErrorInvalidSymbol);
  /* Heap memory is no variable. */
  CHECK_ERR(hipGetSymbolAddress(&addr, heap), hipErrorInvalidSymbol);
  CHECK_ERR(hipGetSymbolSize(&size, heap), hipErrorInvalidSymbol);
  CHECK_ERR(hipMemcpyToSymbol(heap, &v, sizeof(v), 0, hipMemcpyHostToDevice),
            hipErrorInvalidSymbol);
  CHECK_ERR(hipGetSymbolAddress(NULL, heap), hipErrorInvalidValue);
  CHECK_ERR(hipGetSymbolSize(NULL, heap), hipErrorInvalidValue);
  free(heap);
  return AH_PASS;
}

/* ---- sizes and directions (audit) ------------------------------------------ */

/* A range that would run past the end of the address space exists nowhere:
 * refused, even for memory HIP does not know (it used to fault). Known
 * allocations are checked to the byte, 2D extents included. */
AH_TEST(memcpy_wraparound) {
  unsigned char host[64] = {0};
  void *top = (void *)(UINTPTR_MAX - 7), *d;

  CHECK_HIP(hipMalloc(&d, 256));
  CHECK_ERR(hipMemcpy(host, top, 64, hipMemcpyHostToHost), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(top, host, 64, hipMemcpyHostToHost), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(host, host + 1, SIZE_MAX, hipMemcpyHostToHost), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(host, host + 1, SIZE_MAX, hipMemcpyDefault), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(d, top, 64, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy(top, d, 64, hipMemcpyDeviceToHost), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyAsync(host, top, 64, hipMemcpyDefault, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyHtoD(d, top, 64), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyDtoH(top, d, 64), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyHtoDAsync(d, top, 64, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyPeer(top, 0, d, 0, 64), hipErrorInvalidValue);
  /* 2D: the last row ends past the top, or rows * pitch wraps. */
  CHECK_ERR(hipMemcpy2D(top, 16, host, 16, 16, 2, hipMemcpyHostToHost), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2DAsync(host, 16, top, 16, 16, 2, hipMemcpyHostToHost, NULL),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2D(host, 1, host + 1, 1, 1, SIZE_MAX, hipMemcpyHostToHost),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2D(host, (size_t)1 << 30, host + 1, 1, 1, (size_t)1 << 35,
                        hipMemcpyHostToHost),
            hipErrorInvalidValue);
  /* Known memory: to the last byte, not one past. */
  CHECK_ERR(hipMemcpy((char *)d + 255, host, 2, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_HIP(hipMemcpy((char *)d + 255, host, 1, hipMemcpyHostToDevice));
  CHECK_ERR(hipMemcpy(host, (char *)d + 200, 57, hipMemcpyDeviceToHost), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpy2D(d, 121, host, 16, 16, 3, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK_HIP(hipMemcpy2D(d, 120, host, 16, 16, 3, hipMemcpyHostToDevice)); /* 2*120+16 = 256 */
  CHECK_ERR(hipMemset2D(d, 121, 0, 16, 3), hipErrorInvalidValue);
  CHECK_HIP(hipMemset2D(d, 120, 0, 16, 3));
  CHECK_ERR(hipMemset2D(d, 16, 0, 16, SIZE_MAX), hipErrorInvalidValue);
  CHECK_ERR(hipMemsetD32((char *)d + 4, 0, 64), hipErrorInvalidValue);
  CHECK_HIP(hipMemsetD32((char *)d + 4, 0, 63)); /* 4 + 63 * 4 = 256 */
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Every copy function refuses a kind that is not a hipMemcpyKind; the symbol
 * copies also refuse a direction that points the wrong way. */
AH_TEST(memcpy_bad_kinds) {
  static const int bad[] = {5, 6, -1, 1023, 1025, INT32_MAX};
  unsigned char host[64] = {0};
  void *d;

  CHECK_HIP(hipMalloc(&d, 64));
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    hipMemcpyKind k = (hipMemcpyKind)bad[i];

    CHECK_ERR(hipMemcpy(d, host, 64, k), hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpyAsync(d, host, 64, k, NULL), hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpyWithStream(d, host, 64, k, NULL), hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpy2D(d, 8, host, 8, 8, 8, k), hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpy2DAsync(d, 8, host, 8, 8, 8, k, NULL), hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpyToSymbol(audit_var, host, 8, 0, k), hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpyFromSymbol(host, audit_var, 8, 0, k), hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpyToSymbolAsync(audit_var, host, 8, 0, k, NULL),
              hipErrorInvalidMemcpyDirection);
    CHECK_ERR(hipMemcpyFromSymbolAsync(host, audit_var, 8, 0, k, NULL),
              hipErrorInvalidMemcpyDirection);
    CHECK_EQ(hipGetLastError(), hipErrorInvalidMemcpyDirection);
  }
  CHECK_ERR(hipMemcpyToSymbol(audit_var, host, 8, 0, hipMemcpyDeviceToHost),
            hipErrorInvalidMemcpyDirection);
  CHECK_ERR(hipMemcpyToSymbol(audit_var, host, 8, 0, hipMemcpyHostToHost),
            hipErrorInvalidMemcpyDirection);
  CHECK_ERR(hipMemcpyFromSymbol(host, audit_var, 8, 0, hipMemcpyHostToDevice),
            hipErrorInvalidMemcpyDirection);
  CHECK_ERR(hipMemcpyFromSymbolAsync(host, audit_var, 8, 0, hipMemcpyHostToHost, NULL),
            hipErrorInvalidMemcpyDirection);
  /* hipMemcpyDeviceToDeviceNoCU is a device-to-device copy. */
  CHECK_HIP(hipMemcpy(d, (char *)d + 32, 32, hipMemcpyDeviceToDeviceNoCU));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Symbol copies check offset and size against the variable without
 * overflowing, and the other side like any copy. A plain global of this
 * program is a device variable of the CPU device. */
AH_TEST(symbol_sizes) {
  unsigned char host[64], back[64];
  void *top = (void *)(UINTPTR_MAX - 7), *addr;
  size_t size = 0;

  if (hipGetSymbolSize(&size, audit_var) != hipSuccess)
    SKIP("a C global is a device variable on the CPU device only");
  CHECK_EQ(size, sizeof(audit_var));
  CHECK_HIP(hipGetSymbolAddress(&addr, audit_var));
  pattern(host, sizeof(host), 3);
  CHECK_HIP(hipMemcpyToSymbol(audit_var, host, 64, 0, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpyToSymbol(audit_var, host, 8, 56, hipMemcpyHostToDevice));
  CHECK_ERR(hipMemcpyToSymbol(audit_var, host, 9, 56, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyToSymbol(audit_var, host, 1, 65, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyToSymbol(audit_var, host, 16, SIZE_MAX - 8, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyFromSymbol(back, audit_var, SIZE_MAX, 1, hipMemcpyDeviceToHost),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyToSymbol(audit_var, top, 16, 0, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyFromSymbol(top, audit_var, 16, 0, hipMemcpyDefault), hipErrorInvalidValue);
  CHECK_ERR(hipMemcpyFromSymbolAsync(top, audit_var, 16, 0, hipMemcpyDeviceToHost, NULL),
            hipErrorInvalidValue);
  CHECK_HIP(hipMemcpyFromSymbol(back, audit_var, 64, 0, hipMemcpyDeviceToHost));
  CHECK(memcmp(back, host, 56) == 0);
  CHECK(memcmp(back + 56, host, 8) == 0);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  return AH_PASS;
}
