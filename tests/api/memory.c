/* SPDX-License-Identifier: MIT */
/* Memory management: hipMalloc/hipFree, pinned, registered and managed host
 * memory, pitched allocations, and what hipPointerGetAttributes and
 * hipMemGetAddressRange say about every kind of pointer. Each error path
 * HIP documents is checked with its exact code. */
#define _GNU_SOURCE
#include "ah_test.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Fills n bytes with a pattern no two neighbouring bytes share. */
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

AH_TEST(malloc_roundtrip) {
  enum { N = 3000 };
  unsigned char in[N], out[N];
  void *d;

  CHECK_HIP(hipMalloc(&d, N));
  CHECK(d != NULL);
  CHECK_EQ((uintptr_t)d % 256, 0); /* HIP's device alignment */
  pattern(in, N, 1);
  memset(out, 0, N);
  CHECK_HIP(hipMemcpy(d, in, N, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(out, d, N, hipMemcpyDeviceToHost));
  CHECK(same_pattern(out, N, 1));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

AH_TEST(malloc_zero_and_null) {
  void *p = (void *)1;

  CHECK_HIP(hipMalloc(&p, 0)); /* HIP: no memory, *ptr = NULL, success */
  CHECK(p == NULL);
  CHECK_HIP(hipFree(NULL));
  CHECK_HIP(hipHostFree(NULL));
  CHECK_ERR(hipMalloc(NULL, 16), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

AH_TEST(malloc_too_large) {
  void *p = (void *)1;
  size_t free_b, total;

  CHECK_ERR(hipMalloc(&p, SIZE_MAX), hipErrorOutOfMemory);
  CHECK(p == NULL);
  CHECK_HIP(hipMemGetInfo(&free_b, &total));
  CHECK_ERR(hipMalloc(&p, total + 1), hipErrorOutOfMemory);
  CHECK_ERR(hipMallocManaged(&p, total + 1, hipMemAttachGlobal), hipErrorOutOfMemory);
  return AH_PASS;
}

/* All the memory hipMemGetInfo reports free can be allocated, device or
 * managed, even when that is all of the host's RAM (the CPU device's
 * accounting decides, not the kernel's overcommit guess: ROCm's unit suite,
 * hipMemRangeGetAttribute TstCountParam); then nothing more fits. Nothing
 * touches the pages. */
AH_TEST(malloc_all_free) {
  size_t free_b = 0, total = 0, f2 = 1;
  hipDeviceProp_t p;
  void *a = NULL, *b = NULL;

  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  if (strcmp(p.gcnArchName, "cpu") != 0)
    SKIP("the CPU device's accounting");
  CHECK_HIP(hipMemGetInfo(&free_b, &total));
  CHECK(free_b > 0);
  CHECK_HIP(hipMalloc(&a, free_b));
  CHECK_HIP(hipMemGetInfo(&f2, &total));
  CHECK_EQ(f2, 0);
  CHECK_ERR(hipMalloc(&b, 1), hipErrorOutOfMemory);
  CHECK_ERR(hipMallocManaged(&b, 1, hipMemAttachGlobal), hipErrorOutOfMemory);
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipMallocManaged(&a, free_b, hipMemAttachGlobal));
  CHECK_HIP(hipMemAdvise(a, free_b, hipMemAdviseSetReadMostly, 0));
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipMemGetInfo(&f2, &total));
  CHECK_EQ(f2, free_b);
  return AH_PASS;
}

/* Many allocations of many sizes stay distinct and keep their contents. */
AH_TEST(malloc_many_distinct) {
  enum { N = 64 };
  void *p[N];
  size_t sizes[N];

  for (int i = 0; i < N; i++) {
    sizes[i] = 1 + (size_t)i * 977 + (i % 7 == 0 ? (size_t)2 << 20 : 0);
    CHECK_HIP(hipMalloc(&p[i], sizes[i]));
    CHECK_HIP(hipMemset(p[i], i + 1, sizes[i]));
  }
  for (int i = 0; i < N; i++) {
    unsigned char first, last;

    CHECK_HIP(hipMemcpy(&first, p[i], 1, hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(&last, (char *)p[i] + sizes[i] - 1, 1, hipMemcpyDeviceToHost));
    CHECK_EQ(first, i + 1);
    CHECK_EQ(last, i + 1);
  }
  for (int i = 0; i < N; i++)
    CHECK_HIP(hipFree(p[i]));
  return AH_PASS;
}

AH_TEST(free_errors) {
  char local;
  void *d, *h, *r = malloc(64);

  CHECK(r != NULL);
  CHECK_ERR(hipFree(&local), hipErrorInvalidValue); /* never allocated */
  CHECK_HIP(hipMalloc(&d, 100));
  CHECK_ERR(hipFree((char *)d + 4), hipErrorInvalidValue); /* interior pointer */
  CHECK_ERR(hipHostFree(d), hipErrorInvalidValue);         /* device memory */
  CHECK_HIP(hipFree(d));
  CHECK_ERR(hipFree(d), hipErrorInvalidValue); /* double free */

  CHECK_HIP(hipHostMalloc(&h, 100, 0));
  CHECK_ERR(hipFree((char *)h + 8), hipErrorInvalidValue); /* interior pointer */
  CHECK_HIP(hipHostFree(h));
  CHECK_ERR(hipHostFree(h), hipErrorInvalidValue);
  /* hipFree frees pinned host memory too (AMD's rule; CUDA refuses it). */
  CHECK_HIP(hipHostMalloc(&h, 100, 0));
  CHECK_HIP(hipFree(h));
  CHECK_ERR(hipHostFree(h), hipErrorInvalidValue);
  CHECK_ERR(hipFree(h), hipErrorInvalidValue);
  CHECK_ERR(hipHostFree(&local), hipErrorInvalidValue);

  CHECK_HIP(hipHostRegister(r, 64, 0));
  CHECK_ERR(hipHostFree(r), hipErrorInvalidValue); /* registered, not allocated */
  CHECK_ERR(hipFree(r), hipErrorInvalidValue);
  CHECK_HIP(hipHostUnregister(r));
  free(r);
  return AH_PASS;
}

AH_TEST(host_malloc_flags) {
  static const unsigned ok[] = {
      hipHostMallocDefault,
      hipHostMallocPortable,
      hipHostMallocMapped,
      hipHostMallocWriteCombined,
      hipHostMallocPortable | hipHostMallocMapped,
      hipHostMallocMapped | hipHostMallocWriteCombined,
      hipHostMallocNumaUser,
      hipHostMallocCoherent,
      hipHostMallocNonCoherent,
      hipHostMallocMapped | hipHostMallocNonCoherent,
  };
  long page = sysconf(_SC_PAGESIZE);
  void *p;

  for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
    unsigned flags = ~0u;
    unsigned char *c;

    CHECK_HIP(hipHostMalloc(&p, 5000, ok[i]));
    CHECK_EQ((uintptr_t)p % (uintptr_t)page, 0);
    CHECK_HIP(hipHostGetFlags(&flags, p));
    CHECK_EQ(flags, ok[i]);
    c = p; /* pinned memory is ordinary host memory to the host */
    pattern(c, 5000, (unsigned)i);
    CHECK(same_pattern(c, 5000, (unsigned)i));
    CHECK_HIP(hipHostFree(p));
  }
  CHECK_ERR(hipHostMalloc(&p, 64, hipHostMallocCoherent | hipHostMallocNonCoherent),
            hipErrorInvalidValue);
  CHECK_ERR(hipHostMalloc(&p, 64, 0x100), hipErrorInvalidValue);
  CHECK_ERR(hipHostMalloc(NULL, 64, 0), hipErrorInvalidValue);
  p = (void *)1;
  CHECK_HIP(hipHostMalloc(&p, 0, 0));
  CHECK(p == NULL);

  /* The older names allocate the same kind of memory. */
  CHECK_HIP(hipHostAlloc(&p, 32, hipHostAllocMapped));
  CHECK_HIP(hipHostGetFlags(&(unsigned){0}, p));
  CHECK_HIP(hipFreeHost(p));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  CHECK_HIP(hipMallocHost(&p, 32));
  CHECK_HIP(hipHostFree(p));
  CHECK_HIP(hipMemAllocHost(&p, 32));
  CHECK_HIP(hipHostFree(p));
#pragma GCC diagnostic pop
  return AH_PASS;
}

AH_TEST(host_get_flags_errors) {
  unsigned flags;
  void *d, *h;
  int local;

  CHECK_HIP(hipHostMalloc(&h, 64, hipHostMallocWriteCombined));
  CHECK_ERR(hipHostGetFlags(NULL, h), hipErrorInvalidValue);
  CHECK_ERR(hipHostGetFlags(&flags, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipHostGetFlags(&flags, &local), hipErrorInvalidValue);
  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_ERR(hipHostGetFlags(&flags, d), hipErrorInvalidValue);
  /* An interior pointer of the allocation answers for the allocation. */
  CHECK_HIP(hipHostGetFlags(&flags, (char *)h + 10));
  CHECK_EQ(flags, hipHostMallocWriteCombined);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipHostFree(h));
  CHECK_ERR(hipHostGetFlags(&flags, h), hipErrorInvalidValue); /* freed */
  return AH_PASS;
}

AH_TEST(host_get_device_pointer) {
  void *h, *dp, *d;
  int *r = calloc(256, sizeof(int)), local;

  CHECK(r != NULL);
  CHECK_HIP(hipHostMalloc(&h, 4096, hipHostMallocMapped));
  CHECK_HIP(hipHostGetDevicePointer(&dp, h, 0));
  CHECK(dp != NULL);
  /* The device address of an interior host address keeps its offset. */
  CHECK_HIP(hipHostGetDevicePointer(&d, (char *)h + 100, 0));
  CHECK(d == (char *)dp + 100);
  /* Writing through the device pointer shows on the host. */
  CHECK_HIP(hipMemset(dp, 0x5a, 4096));
  CHECK_EQ(((unsigned char *)h)[4095], 0x5a);

  CHECK_HIP(hipHostRegister(r, 256 * sizeof(int), hipHostRegisterMapped));
  CHECK_HIP(hipHostGetDevicePointer(&dp, r, 0));
  CHECK_HIP(hipMemsetD32(dp, 77, 256));
  for (int i = 0; i < 256; i++)
    CHECK_EQ(r[i], 77);

  CHECK_ERR(hipHostGetDevicePointer(NULL, h, 0), hipErrorInvalidValue);
  CHECK_ERR(hipHostGetDevicePointer(&dp, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipHostGetDevicePointer(&dp, h, 1), hipErrorInvalidValue);
  CHECK_ERR(hipHostGetDevicePointer(&dp, &local, 0), hipErrorInvalidValue);
  CHECK_HIP(hipMalloc(&d, 16));
  CHECK_ERR(hipHostGetDevicePointer(&dp, d, 0), hipErrorInvalidValue);
  CHECK_HIP(hipFree(d));

  CHECK_HIP(hipHostUnregister(r));
  CHECK_ERR(hipHostGetDevicePointer(&dp, r, 0), hipErrorInvalidValue);
  CHECK_HIP(hipHostFree(h));
  free(r);
  return AH_PASS;
}

AH_TEST(host_register) {
  enum { N = 1024 };
  int *a = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
  void *d, *dp;
  unsigned flags;

  CHECK(a != NULL && out != NULL);
  for (int i = 0; i < N; i++)
    a[i] = i * 3;
  CHECK_HIP(hipHostRegister(a, N * sizeof(int), hipHostRegisterPortable | hipHostRegisterMapped));
  CHECK_HIP(hipHostGetFlags(&flags, a));
  CHECK_EQ(flags, hipHostRegisterPortable | hipHostRegisterMapped);
  CHECK_HIP(hipHostGetDevicePointer(&dp, a, 0));
  CHECK_HIP(hipMalloc(&d, N * sizeof(int)));
  CHECK_HIP(hipMemcpy(d, dp, N * sizeof(int), hipMemcpyDefault));
  CHECK_HIP(hipMemcpy(out, d, N * sizeof(int), hipMemcpyDefault));
  for (int i = 0; i < N; i++)
    CHECK_EQ(out[i], i * 3);

  /* The same range, or any overlap with it, is already registered. */
  CHECK_ERR(hipHostRegister(a, N * sizeof(int), 0), hipErrorHostMemoryAlreadyRegistered);
  CHECK_ERR(hipHostRegister(a + 10, 16, 0), hipErrorHostMemoryAlreadyRegistered);
  /* Only the registered start unregisters. */
  CHECK_ERR(hipHostUnregister(a + 1), hipErrorHostMemoryNotRegistered);
  CHECK_HIP(hipHostUnregister(a));
  CHECK_ERR(hipHostUnregister(a), hipErrorHostMemoryNotRegistered);
  /* Registering again after unregistering works, with new flags. */
  CHECK_HIP(hipHostRegister(a, N * sizeof(int), hipHostRegisterDefault));
  CHECK_HIP(hipHostUnregister(a));
  CHECK_HIP(hipFree(d));
  free(a);
  free(out);
  return AH_PASS;
}

AH_TEST(host_register_errors) {
  long page = sysconf(_SC_PAGESIZE);
  char *buf = malloc(64), *hole;
  int local = 0;

  CHECK(buf != NULL);
  CHECK_ERR(hipHostRegister(NULL, 64, 0), hipErrorInvalidValue);
  CHECK_ERR(hipHostRegister(buf, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipHostRegister(buf, 64, 0xF0), hipErrorInvalidValue);
  CHECK_ERR(hipHostRegister(buf, 64, 0xFFFFFFFF), hipErrorInvalidValue);
  CHECK_ERR(hipHostUnregister(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipHostUnregister(&local), hipErrorHostMemoryNotRegistered);

  /* A range with unmapped pages in it cannot be registered. */
  hole = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(hole != MAP_FAILED);
  CHECK_EQ(munmap(hole + page, page), 0);
  CHECK_ERR(hipHostRegister(hole, 3 * page, 0), hipErrorInvalidValue);
  CHECK_HIP(hipHostRegister(hole, page, 0)); /* the mapped first page is fine */
  CHECK_HIP(hipHostUnregister(hole));
  munmap(hole, page);
  munmap(hole + 2 * page, page);

  /* Device memory cannot be registered again as host memory. */
  {
    void *d;

    CHECK_HIP(hipMalloc(&d, 64));
    CHECK_ERR(hipHostRegister(d, 64, 0), hipErrorHostMemoryAlreadyRegistered);
    CHECK_HIP(hipFree(d));
  }
  free(buf);
  return AH_PASS;
}

AH_TEST(malloc_pitch) {
  size_t pitch = 0, size = 0;
  void *p, *base;
  int attr = 0;

  CHECK_HIP(hipMallocPitch(&p, &pitch, 100, 7));
  CHECK(p != NULL);
  CHECK(pitch >= 100);
  CHECK_HIP(hipDeviceGetAttribute(&attr, hipDeviceAttributeTexturePitchAlignment, 0));
  if (attr > 0)
    CHECK_EQ(pitch % (size_t)attr, 0);
  CHECK_EQ((uintptr_t)p % 256, 0);
  /* The allocation spans pitch * height bytes. */
  CHECK_HIP(hipMemGetAddressRange(&base, &size, (char *)p + pitch * 6 + 99));
  CHECK(base == p);
  CHECK_EQ(size, pitch * 7);
  CHECK_HIP(hipFree(p));

  CHECK_HIP(hipMemAllocPitch(&p, &pitch, 64, 3, 4));
  CHECK(pitch >= 64);
  CHECK_HIP(hipFree(p));
  CHECK_ERR(hipMemAllocPitch(&p, &pitch, 64, 3, 3), hipErrorInvalidValue);

  p = (void *)1;
  CHECK_HIP(hipMallocPitch(&p, &pitch, 0, 5));
  CHECK(p == NULL);
  CHECK_HIP(hipMallocPitch(&p, &pitch, 5, 0));
  CHECK(p == NULL);
  CHECK_ERR(hipMallocPitch(NULL, &pitch, 1, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMallocPitch(&p, NULL, 1, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMallocPitch(&p, &pitch, SIZE_MAX, 1), hipErrorOutOfMemory);
  CHECK_ERR(hipMallocPitch(&p, &pitch, 1, SIZE_MAX), hipErrorOutOfMemory);
  return AH_PASS;
}

AH_TEST(mem_get_info) {
  size_t free_b = 0, total = 0;

  CHECK_HIP(hipMemGetInfo(&free_b, &total));
  CHECK(total > 0);
  CHECK(free_b <= total);
  /* Either output alone (AMD's runtime); neither is an invalid value. */
  {
    size_t f2 = 0, t2 = 0;
    CHECK_HIP(hipMemGetInfo(NULL, &t2));
    CHECK_EQ(t2, total);
    CHECK_HIP(hipMemGetInfo(&f2, NULL));
    CHECK(f2 > 0 && f2 <= total);
  }
  CHECK_ERR(hipMemGetInfo(NULL, NULL), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(mem_ptr_get_info) {
  size_t size = 0;
  void *d;
  int local;

  CHECK_HIP(hipMalloc(&d, 1234));
  CHECK_HIP(hipMemPtrGetInfo(d, &size));
  CHECK_EQ(size, 1234);
  CHECK_ERR(hipMemPtrGetInfo(&local, &size), hipErrorInvalidValue);
  CHECK_ERR(hipMemPtrGetInfo(d, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

AH_TEST(malloc_managed) {
  int *m;
  void *p;

  CHECK_HIP(hipMallocManaged((void **)&m, 100 * sizeof(int), hipMemAttachGlobal));
  for (int i = 0; i < 100; i++) /* managed memory is usable from the host */
    m[i] = i;
  CHECK_HIP(hipMemsetD32(m + 50, -1, 50));
  for (int i = 0; i < 100; i++)
    CHECK_EQ(m[i], i < 50 ? i : -1);
  CHECK_HIP(hipFree(m));
  CHECK_HIP(hipMallocManaged(&p, 8, hipMemAttachHost));
  CHECK_HIP(hipFree(p));

  CHECK_ERR(hipMallocManaged(NULL, 8, hipMemAttachGlobal), hipErrorInvalidValue);
  CHECK_ERR(hipMallocManaged(&p, 0, hipMemAttachGlobal), hipErrorInvalidValue);
  CHECK_ERR(hipMallocManaged(&p, 8, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMallocManaged(&p, 8, hipMemAttachSingle), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(ext_malloc_with_flags) {
  void *p;

  CHECK_HIP(hipExtMallocWithFlags(&p, 256, hipDeviceMallocDefault));
  CHECK_HIP(hipMemset(p, 1, 256));
  CHECK_HIP(hipFree(p));
  CHECK_HIP(hipExtMallocWithFlags(&p, 256, hipDeviceMallocFinegrained));
  CHECK_HIP(hipFree(p));
  CHECK_ERR(hipExtMallocWithFlags(&p, 256, 0x100), hipErrorInvalidValue);
  CHECK_ERR(hipExtMallocWithFlags(NULL, 256, 0), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(pointer_attributes) {
  hipPointerAttribute_t at;
  int dev = -1, local = 0;
  void *d, *h, *m;
  char *r = malloc(300);

  CHECK(r != NULL);
  CHECK_HIP(hipGetDevice(&dev));

  CHECK_HIP(hipMalloc(&d, 1000));
  CHECK_HIP(hipPointerGetAttributes(&at, (char *)d + 10));
  CHECK_EQ(at.type, hipMemoryTypeDevice);
  CHECK_EQ(at.memoryType, hipMemoryTypeDevice); /* HIP 5's name for the field */
  CHECK_EQ(at.device, dev);
  CHECK(at.devicePointer == (char *)d + 10);
  CHECK(at.hostPointer == NULL);
  CHECK_EQ(at.isManaged, 0);

  CHECK_HIP(hipHostMalloc(&h, 1000, hipHostMallocMapped));
  CHECK_HIP(hipPointerGetAttributes(&at, h));
  CHECK_EQ(at.type, hipMemoryTypeHost);
  CHECK(at.hostPointer == h);
  CHECK(at.devicePointer != NULL);
  CHECK_EQ(at.allocationFlags, hipHostMallocMapped);
  CHECK_EQ(at.device, dev);

  CHECK_HIP(hipHostRegister(r, 300, 0));
  CHECK_HIP(hipPointerGetAttributes(&at, r + 299));
  CHECK_EQ(at.type, hipMemoryTypeHost);
  CHECK(at.hostPointer == r + 299);

  CHECK_HIP(hipMallocManaged(&m, 64, hipMemAttachGlobal));
  CHECK_HIP(hipPointerGetAttributes(&at, m));
  CHECK_EQ(at.type, hipMemoryTypeManaged);
  CHECK_EQ(at.isManaged, 1);
  CHECK(at.devicePointer == m);

  /* Unknown host memory (HIP 6, CUDA 11): success, hipMemoryTypeUnregistered,
   * device -1, no pointers; an address no page backs stays an error. */
  at.device = 42;
  at.devicePointer = &at;
  CHECK_HIP(hipPointerGetAttributes(&at, &local));
  CHECK_EQ(at.type, hipMemoryTypeUnregistered);
  CHECK_EQ(at.device, -1);
  CHECK(at.devicePointer == NULL && at.hostPointer == NULL);
  {
    long pg = sysconf(_SC_PAGESIZE);
    char *gone = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *none = mmap(NULL, (size_t)pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    CHECK(gone != MAP_FAILED && none != MAP_FAILED);
    CHECK_HIP(hipPointerGetAttributes(&at, gone + 8));
    CHECK_EQ(at.type, hipMemoryTypeUnregistered);
    CHECK_EQ(munmap(gone, (size_t)pg), 0);
    at.device = 42;
    CHECK_ERR(hipPointerGetAttributes(&at, gone + 8), hipErrorInvalidValue); /* unmapped */
    CHECK_EQ(at.type, hipMemoryTypeUnregistered);
    CHECK_ERR(hipPointerGetAttributes(&at, none), hipErrorInvalidValue); /* no access */
    CHECK_EQ(munmap(none, (size_t)pg), 0);
  }
  /* one past the end: not the allocation's (what backs it, if anything, is not) */
  {
    hipError_t e = hipPointerGetAttributes(&at, (char *)d + 1000);
    CHECK(e == hipErrorInvalidValue || (e == hipSuccess && at.type == hipMemoryTypeUnregistered));
  }
  CHECK_ERR(hipPointerGetAttributes(NULL, d), hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttributes(&at, NULL), hipErrorInvalidValue);

  CHECK_HIP(hipFree(d));
  FREED_POINTER_IS_INVALID(hipPointerGetAttributes(&at, d), at);
  CHECK_HIP(hipHostFree(h));
  CHECK_HIP(hipHostUnregister(r));
  CHECK_HIP(hipFree(m));
  free(r);
  return AH_PASS;
}

AH_TEST(address_range) {
  void *d, *h, *m, *base;
  char *r = malloc(500);
  size_t size;
  int local;

  CHECK(r != NULL);
  CHECK_HIP(hipMalloc(&d, 2048));
  CHECK_HIP(hipHostMalloc(&h, 777, 0));
  CHECK_HIP(hipMallocManaged(&m, 99, hipMemAttachGlobal));
  CHECK_HIP(hipHostRegister(r, 500, 0));
  for (size_t off = 0; off < 2048; off += 511) {
    CHECK_HIP(hipMemGetAddressRange(&base, &size, (char *)d + off));
    CHECK(base == d);
    CHECK_EQ(size, 2048);
  }
  CHECK_HIP(hipMemGetAddressRange(&base, &size, (char *)h + 776));
  CHECK(base == h);
  CHECK_EQ(size, 777);
  CHECK_HIP(hipMemGetAddressRange(&base, &size, (char *)m + 50));
  CHECK(base == m);
  CHECK_EQ(size, 99);
  CHECK_HIP(hipMemGetAddressRange(&base, &size, r + 123));
  CHECK(base == r);
  CHECK_EQ(size, 500);
  /* Either output may be left out. */
  CHECK_HIP(hipMemGetAddressRange(NULL, &size, (char *)d + 5));
  CHECK_EQ(size, 2048);
  CHECK_HIP(hipMemGetAddressRange(&base, NULL, (char *)d + 5));
  CHECK(base == d);

  CHECK_ERR(hipMemGetAddressRange(&base, &size, NULL), hipErrorNotFound);
  CHECK_ERR(hipMemGetAddressRange(&base, &size, &local), hipErrorNotFound);
  CHECK_ERR(hipMemGetAddressRange(&base, &size, (char *)d + 2048), hipErrorNotFound);
  CHECK_HIP(hipFree(d));
  CHECK_ERR(hipMemGetAddressRange(&base, &size, d), hipErrorNotFound);
  CHECK_HIP(hipHostFree(h));
  CHECK_HIP(hipFree(m));
  CHECK_HIP(hipHostUnregister(r));
  free(r);
  return AH_PASS;
}

/* Threads allocating, querying and freeing at once: the map stays exact. */
static void *alloc_worker(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg;

  for (int i = 0; i < 300; i++) {
    size_t n = 1 + (seed * 2654435761u + (unsigned)i * 40503u) % 5000;
    void *p, *base;
    size_t size;

    if (hipMalloc(&p, n) != hipSuccess)
      return (void *)1;
    if (hipMemGetAddressRange(&base, &size, (char *)p + n - 1) != hipSuccess || base != p ||
        size != n)
      return (void *)1;
    if (hipFree(p) != hipSuccess || hipFree(p) != hipErrorInvalidValue)
      return (void *)1;
  }
  return NULL;
}

AH_TEST(alloc_map_threads) {
  pthread_t t[8];
  void *ret;
  int failed = 0;

  for (int i = 0; i < 8; i++)
    CHECK_EQ(pthread_create(&t[i], NULL, alloc_worker, (void *)(uintptr_t)(i + 1)), 0);
  for (int i = 0; i < 8; i++) {
    pthread_join(t[i], &ret);
    failed |= ret != NULL;
  }
  CHECK(!failed);
  return AH_PASS;
}

/* hipDeviceReset frees every allocation of the device. */
AH_TEST(device_reset_frees_memory) {
  void *d, *h;

  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_HIP(hipHostMalloc(&h, 64, 0));
  CHECK_HIP(hipDeviceReset());
  CHECK_ERR(hipFree(d), hipErrorInvalidValue);
  CHECK_ERR(hipHostFree(h), hipErrorInvalidValue);
  CHECK_HIP(hipMalloc(&d, 64)); /* and the runtime works again after it */
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Whether every byte of the device range [d, d + n) is v. */
static int device_bytes_are(const void *d, size_t n, unsigned char v) {
  unsigned char *h = malloc(n);
  int ok = h != NULL && hipMemcpy(h, d, n, hipMemcpyDeviceToHost) == hipSuccess;

  for (size_t i = 0; ok && i < n; i++)
    ok = h[i] == v;
  free(h);
  return ok;
}

/* Whether the page holding p is mapped (mincore fails with ENOMEM on a
 * range that is not). */
static int page_mapped(const void *p) {
  long pg = sysconf(_SC_PAGESIZE);
  unsigned char v;

  return mincore((void *)((uintptr_t)p & ~(uintptr_t)(pg - 1)), 1, &v) == 0;
}

/* A freed device block stays mapped for the next allocation of its size,
 * which gets its address back, cleared (the CPU device's reuse cache,
 * cpu_mem.c); hipMemGetInfo counts it as free; a second allocation of the
 * size is another block; hipDeviceReset empties the cache; host memory and
 * blocks past the cache's limit are unmapped at once. */
AH_TEST(malloc_reuses_freed_block) {
  enum { N = (1 << 20) + 100 };
  const size_t big = (size_t)65 << 20;
  size_t f0 = 0, f1 = 0, total = 0;
  hipDeviceProp_t p;
  void *a, *b, *c, *h;

  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  if (strcmp(p.gcnArchName, "cpu") != 0)
    SKIP("the reuse cache is the CPU device's");
  CHECK_HIP(hipMemGetInfo(&f0, &total));
  CHECK_HIP(hipMalloc(&a, N));
  CHECK_HIP(hipMemset(a, 0x5a, N));
  CHECK_HIP(hipFree(a));
  CHECK(page_mapped(a)); /* kept, not unmapped, */
  {
    hipPointerAttribute_t at;
    /* but no memory the process may touch: not even unregistered host memory */
    CHECK_ERR(hipPointerGetAttributes(&at, a), hipErrorInvalidValue);
  }
  CHECK_HIP(hipMemGetInfo(&f1, &total));
  CHECK_EQ(f1, f0);
  CHECK_HIP(hipMalloc(&b, N));
  CHECK(b == a);
  CHECK(device_bytes_are(b, N, 0)); /* cleared */
  CHECK_HIP(hipMalloc(&c, N));
  CHECK(c != a);
  CHECK(device_bytes_are(c, N, 0));
  CHECK_HIP(hipFree(c));
  CHECK_HIP(hipFree(b));
  CHECK(page_mapped(b) && page_mapped(c));
  CHECK_HIP(hipDeviceReset());
  CHECK(!page_mapped(b) && !page_mapped(c)); /* the reset emptied the cache */
  CHECK_HIP(hipMalloc(&a, N));
  CHECK(device_bytes_are(a, N, 0));
  CHECK_HIP(hipFree(a));

  CHECK_HIP(hipHostMalloc(&h, N, 0));
  memset(h, 0x77, N);
  CHECK_HIP(hipHostFree(h));
  CHECK(!page_mapped(h));

  if (hipMalloc(&a, big) == hipSuccess) {
    CHECK_HIP(hipMemset(a, 0x33, big));
    CHECK_HIP(hipFree(a));
    CHECK(!page_mapped(a));
  }
  return AH_PASS;
}

/* ---- audit ------------------------------------------------------------------- */

/* Every flags argument of the memory API refuses each bit HIP does not
 * define for it, one bit at a time, and allocates nothing. */
AH_TEST(memory_flags_every_bit) {
  const unsigned host_malloc = hipHostMallocPortable | hipHostMallocMapped |
                               hipHostMallocWriteCombined | hipHostMallocUncached |
                               hipHostMallocNumaUser | hipHostMallocCoherent |
                               hipHostMallocNonCoherent;
  const unsigned host_register = hipHostRegisterPortable | hipHostRegisterMapped |
                                 hipHostRegisterIoMemory | hipHostRegisterReadOnly |
                                 hipExtHostRegisterUncached;
  const unsigned ext_malloc =
      hipDeviceMallocFinegrained | hipDeviceMallocUncached | hipDeviceMallocContiguous;
  char buf[64];
  void *p, *h;

  CHECK_HIP(hipHostMalloc(&h, 64, 0));
  for (int b = 0; b < 32; b++) {
    unsigned f = 1u << b;

    if (!(f & host_malloc)) {
      p = buf;
      CHECK_ERR(hipHostMalloc(&p, 64, f), hipErrorInvalidValue);
      CHECK(p == NULL);
      CHECK_ERR(hipHostAlloc(&p, 64, f), hipErrorInvalidValue);
    }
    if (!(f & host_register))
      CHECK_ERR(hipHostRegister(buf, sizeof(buf), f), hipErrorInvalidValue);
    if (!(f & ext_malloc)) {
      p = buf;
      CHECK_ERR(hipExtMallocWithFlags(&p, 64, f), hipErrorInvalidValue);
      CHECK(p == NULL);
    }
    if (f != hipMemAttachGlobal && f != hipMemAttachHost)
      CHECK_ERR(hipMallocManaged(&p, 64, f), hipErrorInvalidValue);
    CHECK_ERR(hipHostGetDevicePointer(&p, h, f), hipErrorInvalidValue);
  }
  CHECK_ERR(hipMallocManaged(&p, 64, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMallocManaged(&p, 64, hipMemAttachGlobal | hipMemAttachHost),
            hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_ERR(hipHostUnregister(buf), hipErrorHostMemoryNotRegistered); /* nothing stuck */
  CHECK_HIP(hipHostFree(h));
  return AH_PASS;
}

/* Ranges that would wrap past the end of the address space are refused, and
 * questions about such addresses are answered, not crashed on. */
AH_TEST(memory_wraparound) {
  char *buf = malloc(64);
  void *top = (void *)(UINTPTR_MAX - 10), *p;
  hipPointerAttribute_t a;
  unsigned f;
  size_t sz;

  CHECK(buf != NULL);
  CHECK_ERR(hipHostRegister(top, 64, 0), hipErrorInvalidValue);
  CHECK_ERR(hipHostRegister(buf, SIZE_MAX, 0), hipErrorInvalidValue);
  CHECK_ERR(hipHostRegister(buf, SIZE_MAX - (uintptr_t)buf + 1, 0), hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttributes(&a, top), hipErrorInvalidValue);
  CHECK_ERR(hipMemPtrGetInfo(top, &sz), hipErrorInvalidValue);
  CHECK_ERR(hipMemGetAddressRange(&p, &sz, top), hipErrorNotFound);
  CHECK_ERR(hipHostGetFlags(&f, top), hipErrorInvalidValue);
  CHECK_ERR(hipHostGetDevicePointer(&p, top, 0), hipErrorInvalidValue);
  CHECK_ERR(hipFree(top), hipErrorInvalidValue);
  CHECK_ERR(hipHostFree(top), hipErrorInvalidValue);
  CHECK_ERR(hipHostUnregister(top), hipErrorHostMemoryNotRegistered);
  CHECK_ERR(hipMallocPitch(&p, &sz, SIZE_MAX - 100, 1), hipErrorOutOfMemory);
  CHECK_ERR(hipMallocPitch(&p, &sz, 4096, SIZE_MAX / 4096 + 1), hipErrorOutOfMemory);
  CHECK_ERR(hipMemAllocPitch(&p, &sz, 4096, SIZE_MAX / 2048, 4), hipErrorOutOfMemory);
  free(buf);
  return AH_PASS;
}
