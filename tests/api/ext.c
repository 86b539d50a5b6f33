/* SPDX-License-Identifier: MIT */
/* Issue 11's second round of the C API: AMD's extensions (compute-unit
 * masks, link types, hipExtMallocWithFlags' flag rules), stream memory
 * operations, hipEventRecordWithFlags, the driver's pointer functions,
 * virtual memory management and interprocess handles between two real
 * processes. Each against an independent expectation: masks computed here,
 * conditions evaluated here, bytes written through one address and read
 * through another, a child process's view of the parent's memory. */
#define _GNU_SOURCE
#include "ah_test.h"
#include "fd_passing.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs on the CPU device only, with the environment set before the first
 * call; 0 when the test runs for another device. */
static int cpu_with(const char *var, const char *value) {
  const char *d = getenv("ANYHIP_DEVICES");

  if (d != NULL && strcmp(d, "cpu") != 0)
    return 0;
  setenv("ANYHIP_DEVICES", "cpu", 1);
  if (var != NULL)
    setenv(var, value, 1);
  return 1;
}

/* ---- AMD extensions ------------------------------------------------------ */

/* 40 compute units: two mask words, the second with 8 bits. */
AH_TEST(ext_cu_mask) {
  const uint32_t full[2] = {0xffffffffu, 0xffu};
  uint32_t mask[3], want[2], in[3];
  hipStream_t s, s2;
  hipDeviceProp_t p;

  if (!cpu_with("ANYHIP_CPU_THREADS", "40"))
    SKIP("the CU count is set through the CPU device");
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  CHECK_EQ(p.multiProcessorCount, 40);
  /* The null stream: every CU; words past them cleared. */
  memset(mask, 0x5a, sizeof(mask));
  CHECK_HIP(hipExtStreamGetCUMask(NULL, 3, mask));
  CHECK_EQ(mask[0], full[0]);
  CHECK_EQ(mask[1], full[1]);
  CHECK_EQ(mask[2], 0u);
  /* A custom mask reads back; bits past CU 39 are dropped. */
  in[0] = 0x0000f00fu;
  in[1] = 0xffff0103u;
  in[2] = 0xffffffffu;
  want[0] = in[0] & full[0];
  want[1] = in[1] & full[1];
  CHECK_HIP(hipExtStreamCreateWithCUMask(&s, 3, in));
  CHECK_HIP(hipExtStreamGetCUMask(s, 2, mask));
  CHECK_EQ(mask[0], want[0]);
  CHECK_EQ(mask[1], want[1]);
  /* A stream with a mask is a stream: work on it runs. */
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  /* No CU left (all zero, or only bits past the end): every CU (AMD). */
  in[0] = 0;
  in[1] = 0xff00u;
  CHECK_HIP(hipExtStreamCreateWithCUMask(&s2, 2, in));
  CHECK_HIP(hipExtStreamGetCUMask(s2, 2, mask));
  CHECK_EQ(mask[0], full[0]);
  CHECK_EQ(mask[1], full[1]);
  /* One word given: CUs 32..39 are not in it. */
  in[0] = 1;
  CHECK_HIP(hipStreamDestroy(s2));
  CHECK_HIP(hipExtStreamCreateWithCUMask(&s2, 1, in));
  CHECK_HIP(hipExtStreamGetCUMask(s2, 2, mask));
  CHECK_EQ(mask[0], 1u);
  CHECK_EQ(mask[1], 0u);
  /* Errors. */
  CHECK_ERR(hipExtStreamGetCUMask(s2, 1, mask), hipErrorInvalidValue); /* too short */
  CHECK_ERR(hipExtStreamGetCUMask(s2, 2, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipExtStreamCreateWithCUMask(NULL, 1, in), hipErrorInvalidHandle);
  CHECK_ERR(hipExtStreamCreateWithCUMask(&s, 0, in), hipErrorInvalidValue);
  CHECK_ERR(hipExtStreamCreateWithCUMask(&s, 1, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipStreamDestroy(s2));
  CHECK_ERR(hipExtStreamGetCUMask(s2, 2, mask), hipErrorContextIsDestroyed);
  return AH_PASS;
}

AH_TEST(ext_link_type) {
  uint32_t t1 = 99, h1 = 99, t2 = 98, h2 = 98;

  if (!cpu_with("ANYHIP_CPU_DEVICES", "2"))
    SKIP("two virtual CPU devices");
  CHECK_HIP(hipExtGetLinkTypeAndHopCount(0, 1, &t1, &h1));
  CHECK_HIP(hipExtGetLinkTypeAndHopCount(1, 0, &t2, &h2));
  CHECK_EQ(h1, 1u);
  CHECK_EQ(h2, h1);
  CHECK_EQ(t1, 4u); /* HSA_AMD_LINK_INFO_TYPE_XGMI */
  CHECK_EQ(t2, t1);
  CHECK_ERR(hipExtGetLinkTypeAndHopCount(0, 0, &t1, &h1), hipErrorInvalidValue);
  CHECK_ERR(hipExtGetLinkTypeAndHopCount(2, 0, &t1, &h1), hipErrorInvalidDevice);
  CHECK_ERR(hipExtGetLinkTypeAndHopCount(0, 2, &t1, &h1), hipErrorInvalidDevice);
  CHECK_ERR(hipExtGetLinkTypeAndHopCount(-1, 0, &t1, &h1), hipErrorInvalidValue);
  CHECK_ERR(hipExtGetLinkTypeAndHopCount(0, -1, &t1, &h1), hipErrorInvalidValue);
  CHECK_ERR(hipExtGetLinkTypeAndHopCount(0, 1, NULL, &h1), hipErrorInvalidValue);
  CHECK_ERR(hipExtGetLinkTypeAndHopCount(0, 1, &t1, NULL), hipErrorInvalidValue);
  return AH_PASS;
}

/* AMD's rules: exactly one flag value; signal memory is 8 bytes. */
AH_TEST(ext_malloc_flags) {
  const unsigned ok[] = {hipDeviceMallocDefault, hipDeviceMallocFinegrained,
                         hipDeviceMallocUncached, hipDeviceMallocContiguous};
  void *p = NULL;

  for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
    CHECK_HIP(hipExtMallocWithFlags(&p, 4096, ok[i]));
    CHECK(p != NULL);
    CHECK_HIP(hipMemset(p, 1, 4096));
    CHECK_HIP(hipFree(p));
  }
  CHECK_HIP(hipExtMallocWithFlags(&p, 8, hipMallocSignalMemory));
  CHECK_HIP(hipFree(p));
  CHECK_ERR(hipExtMallocWithFlags(&p, 16, hipMallocSignalMemory), hipErrorInvalidValue);
  CHECK_ERR(hipExtMallocWithFlags(&p, 0, hipMallocSignalMemory), hipErrorInvalidValue);
  CHECK_ERR(hipExtMallocWithFlags(&p, 64, hipDeviceMallocContiguous | hipDeviceMallocFinegrained),
            hipErrorInvalidValue);
  CHECK_ERR(hipExtMallocWithFlags(&p, 64, 0x8), hipErrorInvalidValue);
  CHECK_ERR(hipExtMallocWithFlags(NULL, 64, 0), hipErrorInvalidValue);
  CHECK_HIP(hipExtMallocWithFlags(&p, 0, hipDeviceMallocFinegrained));
  CHECK(p == NULL);
  return AH_PASS;
}

/* ---- stream memory operations --------------------------------------------- */

/* HIP's conditions, written out again here as the reference. */
static int condition(unsigned op, uint64_t word, uint64_t value, uint64_t mask, int wide) {
  uint64_t w = wide ? UINT64_MAX : UINT32_MAX, v = word & mask & w;

  value &= w;
  switch (op) {
  case hipStreamWaitValueGte:
    return v >= value;
  case hipStreamWaitValueEq:
    return v == value;
  case hipStreamWaitValueAnd:
    return (v & value) != 0;
  default:
    return ((~(v | value)) & w) != 0;
  }
}

struct waitcase {
  unsigned op;
  uint64_t mask, value, before, after; /* the word before (condition false), after (true) */
};

/* A stream held by a wait stays busy while the word does not meet the
 * condition, and goes on once another stream's write makes it true. */
static int wait_case(const struct waitcase *c, int wide, void *word, hipStream_t waiter,
                     hipStream_t writer) {
  CHECK(!condition(c->op, c->before, c->value, c->mask, wide));
  CHECK(condition(c->op, c->after, c->value, c->mask, wide));
  if (wide) {
    *(uint64_t *)word = c->before;
    CHECK_HIP(hipStreamWaitValue64(waiter, word, c->value, c->op, c->mask));
  } else {
    *(uint32_t *)word = (uint32_t)c->before;
    CHECK_HIP(hipStreamWaitValue32(waiter, word, (uint32_t)c->value, c->op, (uint32_t)c->mask));
  }
  usleep(20000);
  CHECK_ERR(hipStreamQuery(waiter), hipErrorNotReady);
  if (wide)
    CHECK_HIP(hipStreamWriteValue64(writer, word, c->after, 0));
  else
    CHECK_HIP(hipStreamWriteValue32(writer, word, (uint32_t)c->after, 0));
  CHECK_HIP(hipStreamSynchronize(waiter));
  return AH_PASS;
}

AH_TEST(stream_wait_write_value) {
  /* The cases of hip-tests' hipStreamValue.cc, 32 and 64 bits. */
  const struct waitcase c32[] = {
      {hipStreamWaitValueGte, 0xF, 0x4, 0x3, 0x6},
      {hipStreamWaitValueEq, 0xFF, 0x11, 0x25, 0x11},
      {hipStreamWaitValueAnd, 0xFF, 0xF4A, 0xF35, 0x02},
      {hipStreamWaitValueNor, 0x7AAAAAAA, 0x85555555, 0x7AAAAAAA, 0x0AAAAAAA},
      {hipStreamWaitValueGte, 0xFFFFFFFF, 0x7FFF0001, 0x7FFF0000, 0x7FFF0001},
  };
  const struct waitcase c64[] = {
      {hipStreamWaitValueGte, 0x0000FFFFFFFFFFFFull, 0x000000007FFF0001ull, 0x7FFF0000ull,
       0x8FFF0001ull},
      {hipStreamWaitValueEq, UINT64_MAX, 0x7FFFFFFFFFFFFFFFull, 0x7FFFFFFF00000000ull,
       0x7FFFFFFFFFFFFFFFull},
      {hipStreamWaitValueAnd, 0x7FFFFFFF0FFFFFFFull, 0x0F0F0F0F0F0F0F0Full,
       0x70F0F0F0F0F0F0F0ull, 0x0000000100000000ull},
      {hipStreamWaitValueNor, UINT64_MAX, 0x4724724747247247ull, 0xB8DB8DB8B8DB8DB8ull,
       0x0ull},
  };
  hipStream_t waiter, writer;
  uint64_t *word;
  void *dev;
  int attr = 0, r;

  CHECK_HIP(hipDeviceGetAttribute(&attr, hipDeviceAttributeCanUseStreamWaitValue, 0));
  if (!attr)
    SKIP("the device has no stream memory operations");
  CHECK_HIP(hipHostMalloc((void **)&word, 64, 0));
  CHECK_HIP(hipStreamCreateWithFlags(&waiter, hipStreamNonBlocking));
  CHECK_HIP(hipStreamCreateWithFlags(&writer, hipStreamNonBlocking));
  for (unsigned i = 0; i < sizeof(c32) / sizeof(c32[0]); i++)
    if ((r = wait_case(&c32[i], 0, word, waiter, writer)) != AH_PASS)
      return r;
  for (unsigned i = 0; i < sizeof(c64) / sizeof(c64[0]); i++)
    if ((r = wait_case(&c64[i], 1, word, waiter, writer)) != AH_PASS)
      return r;
  /* Writes in stream order, to device memory too. */
  CHECK_HIP(hipMalloc(&dev, 64));
  CHECK_HIP(hipMemsetAsync(dev, 0, 64, writer));
  CHECK_HIP(hipStreamWriteValue32(writer, (char *)dev + 4, 0xdeadbeefu, 0));
  CHECK_HIP(hipStreamWriteValue64(writer, (char *)dev + 8, 0x0123456789abcdefull, 0));
  CHECK_HIP(hipStreamSynchronize(writer));
  {
    uint32_t h[6];

    CHECK_HIP(hipMemcpy(h, dev, sizeof(h), hipMemcpyDeviceToHost));
    CHECK_EQ(h[0], 0u);
    CHECK_EQ(h[1], 0xdeadbeefu);
    CHECK_EQ(((uint64_t)h[3] << 32) | h[2], 0x0123456789abcdefull);
    CHECK_EQ(h[4], 0u);
  }
  /* Errors: unknown memory, NULL, misaligned, a bad condition or flags, a
   * destroyed stream. */
  {
    uint64_t stack = 0;
    hipStream_t gone;

    CHECK_ERR(hipStreamWaitValue32(waiter, &stack, 0, hipStreamWaitValueGte, ~0u),
              hipErrorInvalidValue);
    CHECK_ERR(hipStreamWriteValue64(waiter, &stack, 0, 0), hipErrorInvalidValue);
    CHECK_ERR(hipStreamWaitValue64(waiter, NULL, 0, hipStreamWaitValueGte, ~0ull),
              hipErrorInvalidValue);
    CHECK_ERR(hipStreamWriteValue32(waiter, NULL, 0, 0), hipErrorInvalidValue);
    CHECK_ERR(hipStreamWriteValue32(waiter, (char *)word + 1, 0, 0), hipErrorInvalidValue);
    CHECK_ERR(hipStreamWaitValue32(waiter, word, 0, 4, ~0u), hipErrorInvalidValue);
    CHECK_ERR(hipStreamWaitValue64(waiter, word, 0, (unsigned)-1, ~0ull), hipErrorInvalidValue);
    CHECK_ERR(hipStreamWriteValue32(waiter, word, 0, 1), hipErrorInvalidValue);
    CHECK_ERR(hipStreamWriteValue32(waiter, (char *)dev + 62, 0, 0), hipErrorInvalidValue);
    CHECK_HIP(hipStreamCreate(&gone));
    CHECK_HIP(hipStreamDestroy(gone));
    CHECK_ERR(hipStreamWriteValue32(gone, word, 0, 0), hipErrorContextIsDestroyed);
  }
  CHECK_HIP(hipStreamDestroy(waiter));
  CHECK_HIP(hipStreamDestroy(writer));
  CHECK_HIP(hipFree(dev));
  CHECK_HIP(hipHostFree(word));
  return AH_PASS;
}

/* hipEventRecordExternal is a plain record outside a capture. */
AH_TEST(event_record_with_flags) {
  hipEvent_t e;
  hipStream_t s;

  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventRecordWithFlags(e, s, hipEventRecordDefault));
  CHECK_HIP(hipEventRecordWithFlags(e, s, hipEventRecordExternal));
  CHECK_HIP(hipEventRecordWithFlags(e, NULL, 0));
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_HIP(hipEventQuery(e));
  CHECK_ERR(hipEventRecordWithFlags(e, s, 2), hipErrorInvalidValue);
  CHECK_ERR(hipEventRecordWithFlags(NULL, s, 0), hipErrorInvalidHandle);
  CHECK_HIP(hipEventDestroy(e));
  CHECK_ERR(hipEventRecordWithFlags(e, s, 0), hipErrorInvalidHandle);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(pointer_set_drv_get) {
  hipPointer_attribute attrs[5] = {HIP_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                   HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                   HIP_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                   HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
                                   HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR};
  unsigned type = 0;
  int ordinal = -1, one = 1;
  void *dptr = NULL, *start = NULL, *data[5];
  size_t size = 0;
  char host[16];
  int *d;

  CHECK_HIP(hipMalloc((void **)&d, 1000 * sizeof(int)));
  data[0] = &type;
  data[1] = &ordinal;
  data[2] = &dptr;
  data[3] = &size;
  data[4] = &start;
  CHECK_HIP(hipDrvPointerGetAttributes(5, attrs, data, d + 100));
  CHECK_EQ(type, (unsigned)hipMemoryTypeDevice);
  CHECK_EQ(ordinal, 0);
  CHECK(dptr == d + 100);
  CHECK_EQ(size, 1000 * sizeof(int));
  CHECK(start == d);
  {
    /* Device memory's host address is NULL here, with the other attributes answered
     * (hipPointerGetAttribute says hipErrorInvalidValue for it). */
    hipPointer_attribute two[2] = {HIP_POINTER_ATTRIBUTE_HOST_POINTER,
                                   HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void *hp = &hp, *d2[2] = {&hp, &ordinal};
    ordinal = -1;
    CHECK_HIP(hipDrvPointerGetAttributes(2, two, d2, d));
    CHECK(hp == NULL);
    CHECK_EQ(ordinal, 0);
    CHECK_ERR(hipPointerGetAttribute(&hp, HIP_POINTER_ATTRIBUTE_HOST_POINTER, d),
              hipErrorInvalidValue);
  }
  CHECK_ERR(hipDrvPointerGetAttributes(0, attrs, data, d), hipErrorInvalidValue);
  CHECK_ERR(hipDrvPointerGetAttributes(2, NULL, data, d), hipErrorInvalidValue);
  CHECK_ERR(hipDrvPointerGetAttributes(2, attrs, NULL, d), hipErrorInvalidValue);
  CHECK_ERR(hipDrvPointerGetAttributes(2, attrs, data, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipDrvPointerGetAttributes(2, attrs, data, host), hipErrorInvalidValue);
  /* Only the sync-memops setting, only on device memory. */
  CHECK_HIP(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
  CHECK_ERR(hipPointerSetAttribute(NULL, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d),
            hipErrorInvalidValue);
  CHECK_ERR(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, d),
            hipErrorInvalidValue);
  CHECK_ERR(hipPointerSetAttribute(&one, (hipPointer_attribute)-1, d), hipErrorInvalidValue);
  CHECK_ERR(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, NULL),
            hipErrorInvalidValue);
  CHECK_ERR(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, host),
            hipErrorInvalidDevicePointer);
  CHECK_HIP(hipFree(d));
  CHECK_ERR(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d),
            hipErrorInvalidDevicePointer);
  return AH_PASS;
}

/* ---- virtual memory --------------------------------------------------------- */

static hipMemAllocationProp vmm_prop(int dev, hipMemAllocationHandleType ht) {
  hipMemAllocationProp p;

  memset(&p, 0, sizeof(p));
  p.type = hipMemAllocationTypePinned;
  p.requestedHandleType = ht;
  p.location.type = hipMemLocationTypeDevice;
  p.location.id = dev;
  return p;
}

static int device_is_cpu(void) {
  hipDeviceProp_t p;

  return hipGetDeviceProperties(&p, 0) == hipSuccess && strcmp(p.gcnArchName, "cpu") == 0;
}

static int vmm_supported(void) {
  int v = 0;

  return hipDeviceGetAttribute(&v, hipDeviceAttributeVirtualMemoryManagementSupported, 0) ==
             hipSuccess &&
         v;
}

/* One allocation at two addresses: what is written through one is read
 * through the other; access is real (no access: copies refused); unmapped
 * and freed ranges are gone. */
AH_TEST(vmm_two_views) {
  hipMemAllocationProp prop = vmm_prop(0, hipMemHandleTypeNone), back;
  hipMemGenericAllocationHandle_t h, h2;
  hipMemAccessDesc acc = {{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  hipMemLocation loc = {hipMemLocationTypeDevice, 0};
  unsigned long long flags = 99;
  size_t g = 0, size;
  char *va, *vb, *out;
  hipPointerAttribute_t pa;

  if (!vmm_supported())
    SKIP("no virtual memory management on this device");
  CHECK_HIP(hipMemGetAllocationGranularity(&g, &prop, hipMemAllocationGranularityMinimum));
  CHECK(g >= 4096 && (g & (g - 1)) == 0);
  size = 4 * g;
  CHECK_HIP(hipMemCreate(&h, size, &prop, 0));
  CHECK_HIP(hipMemGetAllocationPropertiesFromHandle(&back, h));
  CHECK_EQ(back.type, hipMemAllocationTypePinned);
  CHECK_EQ(back.location.id, 0);
  CHECK_HIP(hipMemAddressReserve((void **)&va, size, 0, NULL, 0));
  CHECK_HIP(hipMemAddressReserve((void **)&vb, 2 * size, 16 * g, NULL, 0));
  CHECK_EQ((uintptr_t)vb % (16 * g), 0u);
  CHECK_HIP(hipMemMap(va, size, 0, h, 0));
  /* The second view maps the allocation's last two granules only: the CPU
   * device's memfd maps any granule; NVIDIA's driver maps a handle whole,
   * from offset 0 (cuMemMap), so there the part is refused, and the rest of
   * this test (built on it) does not apply. */
  if (hipMemMap(vb + size, 2 * g, 2 * g, h, 0) == hipErrorNotSupported && !device_is_cpu()) {
    CHECK_HIP(hipMemUnmap(va, size));
    CHECK_HIP(hipMemRelease(h));
    CHECK_HIP(hipMemAddressFree(va, size));
    CHECK_HIP(hipMemAddressFree(vb, 2 * size));
    SKIP("this device's driver maps an allocation whole (cuMemMap offset 0)");
  }
  /* Mapped but not accessible yet: refused, not faulted. */
  CHECK_ERR(hipMemset(va, 1, size), hipErrorInvalidValue);
  CHECK_HIP(hipMemGetAccess(&flags, &loc, va));
  CHECK_EQ(flags, (unsigned long long)hipMemAccessFlagsProtNone);
  CHECK_HIP(hipMemSetAccess(va, size, &acc, 1));
  CHECK_HIP(hipMemSetAccess(vb + size, 2 * g, &acc, 1));
  CHECK_HIP(hipMemGetAccess(&flags, &loc, va + g + 5));
  CHECK_EQ(flags, (unsigned long long)hipMemAccessFlagsProtReadWrite);
  out = malloc(size);
  CHECK(out != NULL);
  for (size_t i = 0; i < size; i++)
    out[i] = (char)(i * 7 + 3);
  CHECK_HIP(hipMemcpy(va, out, size, hipMemcpyHostToDevice));
  memset(out, 0, size);
  CHECK_HIP(hipMemcpy(out, vb + size, 2 * g, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < 2 * g; i++)
    CHECK_EQ(out[i], (char)((i + 2 * g) * 7 + 3));
  /* A set through the second view is seen through the first. */
  CHECK_HIP(hipMemset(vb + size + 10, 0x5c, 20));
  CHECK_HIP(hipMemcpy(out, va + 2 * g, 64, hipMemcpyDeviceToHost));
  CHECK_EQ(out[9], (char)((2 * g + 9) * 7 + 3));
  CHECK_EQ(out[10], 0x5c);
  CHECK_EQ(out[29], 0x5c);
  CHECK_EQ(out[30], (char)((2 * g + 30) * 7 + 3));
  /* Mapped memory is device memory; hipFree is not how it goes. */
  CHECK_HIP(hipPointerGetAttributes(&pa, va + 3));
  CHECK_EQ(pa.type, hipMemoryTypeDevice);
  CHECK_ERR(hipFree(va), hipErrorInvalidValue);
  /* Read-only: reads work, writes are refused. */
  acc.flags = hipMemAccessFlagsProtRead;
  CHECK_HIP(hipMemSetAccess(va, size, &acc, 1));
  CHECK_HIP(hipMemcpy(out, va, 16, hipMemcpyDeviceToHost));
  CHECK_ERR(hipMemcpy(va, out, 16, hipMemcpyHostToDevice), hipErrorInvalidValue);
  /* The handle behind an address. */
  CHECK_HIP(hipMemRetainAllocationHandle(&h2, vb + size + 1));
  CHECK(h2 == h);
  CHECK_HIP(hipMemRelease(h2));
  /* Released while mapped: the memory stays until unmapped. */
  CHECK_HIP(hipMemRelease(h));
  CHECK_HIP(hipMemcpy(out, vb + size, 16, hipMemcpyDeviceToHost));
  CHECK_EQ(out[0], (char)(2 * g * 7 + 3));
  CHECK_ERR(hipMemRelease(h), hipErrorInvalidValue);
  CHECK_HIP(hipMemUnmap(va, size));
  CHECK_ERR(hipMemGetAccess(&flags, &loc, va), hipErrorInvalidValue);
  CHECK_ERR(hipPointerGetAttributes(&pa, va), hipErrorInvalidValue);
  CHECK_HIP(hipMemUnmap(vb + size, 2 * g));
  CHECK_HIP(hipMemAddressFree(va, size));
  CHECK_HIP(hipMemAddressFree(vb, 2 * size));
  free(out);
  return AH_PASS;
}

AH_TEST(vmm_errors) {
  hipMemAllocationProp prop = vmm_prop(0, hipMemHandleTypeNone), bad;
  hipMemGenericAllocationHandle_t h;
  hipMemAccessDesc acc = {{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  hipMemLocation loc = {hipMemLocationTypeDevice, 0};
  unsigned long long flags;
  size_t g = 0;
  char *va, *vb;
  int n = 0;

  if (!vmm_supported())
    SKIP("no virtual memory management on this device");
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_HIP(hipMemGetAllocationGranularity(&g, &prop, hipMemAllocationGranularityRecommended));
  CHECK_ERR(hipMemGetAllocationGranularity(NULL, &prop, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemGetAllocationGranularity(&g, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemGetAllocationGranularity(&g, &prop, 2), hipErrorInvalidValue);
  /* hipMemCreate. */
  CHECK_ERR(hipMemCreate(NULL, g, &prop, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemCreate(&h, g, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemCreate(&h, 0, &prop, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemCreate(&h, g - 1, &prop, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemCreate(&h, g, &prop, 1), hipErrorInvalidValue);
  bad = prop;
  bad.type = hipMemAllocationTypeInvalid;
  CHECK_ERR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);
  bad = prop;
  bad.location.type = hipMemLocationTypeInvalid;
  CHECK_ERR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);
  bad = prop;
  bad.location.id = -1;
  CHECK_ERR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);
  bad.location.id = n;
  CHECK_ERR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemRelease(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemRelease((hipMemGenericAllocationHandle_t)&g), hipErrorInvalidValue);
  /* Reservations (AMD's codes). */
  CHECK_ERR(hipMemAddressReserve(NULL, g, 0, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAddressReserve((void **)&va, 0, 0, NULL, 0), hipErrorMemoryAllocation);
  CHECK_ERR(hipMemAddressReserve((void **)&va, g - 1, 0, NULL, 0), hipErrorMemoryAllocation);
  CHECK_ERR(hipMemAddressReserve((void **)&va, g, 3, NULL, 0), hipErrorMemoryAllocation);
  CHECK_HIP(hipMemCreate(&h, 2 * g, &prop, 0));
  CHECK_HIP(hipMemAddressReserve((void **)&va, 4 * g, 0, NULL, 0));
  /* hipMemMap. */
  CHECK_ERR(hipMemMap(NULL, g, 0, h, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemMap(va, 0, 0, h, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemMap(va, g, (size_t)-1, h, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemMap(va, 3 * g, 0, h, 0), hipErrorInvalidValue); /* past the allocation */
  CHECK_ERR(hipMemMap(va, g, g, h, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemMap(va + 3 * g, 2 * g, 0, h, 0), hipErrorInvalidValue); /* past the range */
  CHECK_ERR(hipMemMap(&g, g, 0, h, 0), hipErrorInvalidValue);             /* not reserved */
  CHECK_ERR(hipMemMap(va, g, 0, NULL, 0), hipErrorInvalidValue);
  CHECK_HIP(hipMemMap(va, 2 * g, 0, h, 0));
  CHECK_ERR(hipMemMap(va + g, g, 0, h, 0), hipErrorInvalidValue); /* overlaps */
  /* hipMemSetAccess / hipMemGetAccess. */
  CHECK_ERR(hipMemSetAccess(NULL, 2 * g, &acc, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemSetAccess(va, 0, &acc, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemSetAccess(va, 2 * g + 1, &acc, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemSetAccess(va, 3 * g, &acc, 1), hipErrorInvalidValue); /* part unmapped */
  CHECK_ERR(hipMemSetAccess(va, 2 * g, &acc, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemSetAccess(va, 2 * g, NULL, 1), hipErrorInvalidValue);
  acc.location.id = n;
  CHECK_ERR(hipMemSetAccess(va, 2 * g, &acc, 1), hipErrorInvalidValue);
  acc.location.id = 0;
  acc.flags = (hipMemAccessFlags)2;
  CHECK_ERR(hipMemSetAccess(va, 2 * g, &acc, 1), hipErrorInvalidValue);
  acc.flags = hipMemAccessFlagsProtReadWrite;
  acc.location.type = hipMemLocationTypeInvalid;
  CHECK_ERR(hipMemSetAccess(va, 2 * g, &acc, 1), hipErrorInvalidValue);
  acc.location.type = hipMemLocationTypeDevice;
  CHECK_HIP(hipMemSetAccess(va, 2 * g, &acc, 1));
  CHECK_ERR(hipMemGetAccess(NULL, &loc, va), hipErrorInvalidValue);
  CHECK_ERR(hipMemGetAccess(&flags, NULL, va), hipErrorInvalidValue);
  CHECK_ERR(hipMemGetAccess(&flags, &loc, va + 2 * g), hipErrorInvalidValue);
  /* A reservation with nothing mapped has no access to set. */
  CHECK_HIP(hipMemAddressReserve((void **)&vb, g, 0, NULL, 0));
  CHECK_ERR(hipMemSetAccess(vb, g, &acc, 1), hipErrorInvalidValue);
  /* hipMemUnmap: whole mappings only. */
  CHECK_ERR(hipMemUnmap(NULL, g), hipErrorInvalidValue);
  CHECK_ERR(hipMemUnmap(va, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemUnmap(va, g), hipErrorInvalidValue);
  CHECK_ERR(hipMemUnmap(va, 2 * g - 1), hipErrorInvalidValue);
  CHECK_HIP(hipMemUnmap(va, 2 * g));
  CHECK_ERR(hipMemSetAccess(va, 2 * g, &acc, 1), hipErrorInvalidValue);
  /* hipMemAddressFree: the whole reservation. */
  CHECK_ERR(hipMemAddressFree(NULL, g), hipErrorInvalidValue);
  CHECK_ERR(hipMemAddressFree(va, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemAddressFree(va, g), hipErrorInvalidValue);
  CHECK_HIP(hipMemAddressFree(va, 4 * g));
  CHECK_ERR(hipMemAddressFree(va, 4 * g), hipErrorInvalidValue);
  CHECK_HIP(hipMemAddressFree(vb, g));
  /* Handles. */
  CHECK_ERR(hipMemRetainAllocationHandle(&h, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemRetainAllocationHandle(NULL, va), hipErrorInvalidValue);
  CHECK_ERR(hipMemRetainAllocationHandle(&h, &g), hipErrorInvalidValue);
  CHECK_ERR(hipMemGetAllocationPropertiesFromHandle(NULL, h), hipErrorInvalidValue);
  CHECK_ERR(hipMemGetAllocationPropertiesFromHandle(&bad, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemExportToShareableHandle(&n, h, hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue); /* made without a shareable handle type */
  CHECK_HIP(hipMemRelease(h));
  CHECK_ERR(hipMemGetAllocationPropertiesFromHandle(&bad, h), hipErrorInvalidValue);
  return AH_PASS;
}

/* An allocation exported as a file descriptor and imported again is the
 * same memory. */
AH_TEST(vmm_export_import) {
  hipMemAllocationProp prop = vmm_prop(0, hipMemHandleTypePosixFileDescriptor);
  hipMemGenericAllocationHandle_t h, h2;
  hipMemAccessDesc acc = {{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  size_t g;
  int fd = -1;
  char *va, *vb, buf[8] = {0};

  if (!vmm_supported())
    SKIP("no virtual memory management on this device");
  CHECK_HIP(hipMemGetAllocationGranularity(&g, &prop, 0));
  CHECK_HIP(hipMemCreate(&h, g, &prop, 0));
  CHECK_ERR(hipMemExportToShareableHandle(NULL, h, hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemExportToShareableHandle(&fd, h, hipMemHandleTypeWin32, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemExportToShareableHandle(&fd, h, hipMemHandleTypePosixFileDescriptor, 1),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemExportToShareableHandle(&fd, NULL, hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  CHECK_HIP(hipMemExportToShareableHandle(&fd, h, hipMemHandleTypePosixFileDescriptor, 0));
  CHECK(fd >= 0);
  CHECK_ERR(hipMemImportFromShareableHandle(NULL, (void *)(intptr_t)fd,
                                            hipMemHandleTypePosixFileDescriptor),
            hipErrorInvalidValue);
  {
    int bad = -1;

    CHECK_ERR(hipMemImportFromShareableHandle(&h2, &bad, hipMemHandleTypePosixFileDescriptor),
              hipErrorInvalidValue);
  }
  CHECK_ERR(hipMemImportFromShareableHandle(&h2, NULL, hipMemHandleTypePosixFileDescriptor),
            hipErrorInvalidValue);
  CHECK_HIP(hipMemImportFromShareableHandle(&h2, (void *)(intptr_t)fd,
                                            hipMemHandleTypePosixFileDescriptor));
  /* AMD's convention: a pointer to the descriptor; another allocation of the same memory. */
  {
    hipMemGenericAllocationHandle_t h3;

    CHECK_HIP(hipMemImportFromShareableHandle(&h3, &fd, hipMemHandleTypePosixFileDescriptor));
    CHECK(h3 != h2);
    CHECK_HIP(hipMemRelease(h3));
  }
  close(fd); /* the imports keep their own */
  CHECK(h2 != h);
  CHECK_HIP(hipMemAddressReserve((void **)&va, g, 0, NULL, 0));
  CHECK_HIP(hipMemAddressReserve((void **)&vb, g, 0, NULL, 0));
  CHECK_HIP(hipMemMap(va, g, 0, h, 0));
  CHECK_HIP(hipMemMap(vb, g, 0, h2, 0));
  CHECK_HIP(hipMemSetAccess(va, g, &acc, 1));
  CHECK_HIP(hipMemSetAccess(vb, g, &acc, 1));
  CHECK_HIP(hipMemcpy(va + 100, "imported", 8, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(buf, vb + 100, 8, hipMemcpyDeviceToHost));
  CHECK(memcmp(buf, "imported", 8) == 0);
  CHECK_HIP(hipMemUnmap(va, g));
  CHECK_HIP(hipMemUnmap(vb, g));
  CHECK_HIP(hipMemAddressFree(va, g));
  CHECK_HIP(hipMemAddressFree(vb, g));
  CHECK_HIP(hipMemRelease(h));
  CHECK_HIP(hipMemRelease(h2));
  return AH_PASS;
}

/* hipMemMapArrayAsync maps memory into sparse arrays, which nothing here
 * makes: its arguments are checked, then it is refused on every device. */
AH_TEST(vmm_map_array_refused) {
  hipArrayMapInfo info;
  hipChannelFormatDesc cd = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  hipArray_t arr;

  HIP_ARRAY3D_DESCRIPTOR sparse;

  /* No sparse array can be made (CUDA's CUDA_ARRAY3D_SPARSE is 0x40). */
  memset(&sparse, 0, sizeof(sparse));
  sparse.Width = sparse.Height = 64;
  sparse.Format = HIP_AD_FORMAT_FLOAT;
  sparse.NumChannels = 1;
  sparse.Flags = 0x40;
  CHECK_ERR(hipArray3DCreate(&arr, &sparse), hipErrorInvalidValue);
  CHECK_HIP(hipMallocArray(&arr, &cd, 64, 64, 0));
  memset(&info, 0, sizeof(info));
  info.resourceType = hipResourceTypeArray;
  info.resource.array = arr;
  info.subresourceType = hipArraySparseSubresourceTypeSparseLevel;
  info.subresource.sparseLevel.extentWidth = 64;
  info.subresource.sparseLevel.extentHeight = 64;
  info.subresource.sparseLevel.extentDepth = 1;
  info.memOperationType = hipMemOperationTypeUnmap;
  info.memHandleType = hipMemHandleTypeGeneric;
  CHECK_ERR(hipMemMapArrayAsync(NULL, 1, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipMemMapArrayAsync(&info, 0, NULL), hipErrorInvalidValue);
  info.resourceType = hipResourceTypeLinear;
  CHECK_ERR(hipMemMapArrayAsync(&info, 1, NULL), hipErrorInvalidValue);
  info.resourceType = hipResourceTypeArray;
  info.memOperationType = (hipMemOperationType)0;
  CHECK_ERR(hipMemMapArrayAsync(&info, 1, NULL), hipErrorInvalidValue);
  info.memOperationType = hipMemOperationTypeUnmap;
  info.flags = 1;
  CHECK_ERR(hipMemMapArrayAsync(&info, 1, NULL), hipErrorInvalidValue);
  info.flags = 0;
  CHECK_ERR(hipMemMapArrayAsync(&info, 1, (hipStream_t)&info), hipErrorContextIsDestroyed);
  CHECK_ERR(hipMemMapArrayAsync(&info, 1, NULL), hipErrorNotSupported);
  CHECK_HIP(hipFreeArray(arr));
  return AH_PASS;
}

/* ---- interprocess handles ----------------------------------------------------- */

/* The child of an IPC test: forked before the parent's first HIP call (the
 * runtime refuses a child forked after it started, docs/semantics.md), it
 * reads the handles from `in`, works, and exits with a bit per failure. */
static int ipc_child(int in, int out, int go) {
  hipIpcMemHandle_t mh;
  hipIpcEventHandle_t eh;
  unsigned char buf[256];
  hipEvent_t ev;
  void *p = NULL, *p2 = NULL;
  int bad = 0;
  char c = 1;

  alarm(30);
  if (read(in, &mh, sizeof(mh)) != sizeof(mh) || read(in, &eh, sizeof(eh)) != sizeof(eh))
    return 1;
  /* Memory: the parent's bytes (i ^ 0x5a), then ours (255 - i) for it to read. */
  bad |= (hipIpcOpenMemHandle(&p, mh, hipIpcMemLazyEnablePeerAccess) != hipSuccess) << 1;
  bad |= (hipIpcOpenMemHandle(&p2, mh, 0) != hipSuccess || p2 != p) << 2; /* counted */
  if (bad)
    return bad;
  bad |= (hipMemcpy(buf, p, sizeof(buf), hipMemcpyDeviceToHost) != hipSuccess) << 3;
  for (int i = 0; i < 256; i++)
    bad |= (buf[i] != (unsigned char)(i ^ 0x5a)) << 4;
  for (int i = 0; i < 256; i++)
    buf[i] = (unsigned char)(255 - i);
  bad |= (hipMemcpy(p, buf, sizeof(buf), hipMemcpyHostToDevice) != hipSuccess) << 5;
  bad |= (hipFree(p) != hipErrorInvalidValue) << 6; /* not ours to free */
  bad |= (hipIpcCloseMemHandle(p) != hipSuccess) << 7;
  bad |= (hipMemcpy(buf, p, 4, hipMemcpyDeviceToHost) != hipSuccess) << 8; /* still open once */
  bad |= (hipIpcCloseMemHandle(p) != hipSuccess) << 9;
  bad |= (hipIpcCloseMemHandle(p) != hipErrorInvalidValue) << 10;
  /* Event: the parent's stream is held until we say go, so its record is
   * not complete until then. */
  bad |= (hipIpcOpenEventHandle(&ev, eh) != hipSuccess) << 11;
  if (bad)
    return bad;
  bad |= (hipEventQuery(ev) != hipErrorNotReady) << 12;
  if (write(go, &c, 1) != 1)
    bad |= 1 << 13;
  bad |= (hipEventSynchronize(ev) != hipSuccess) << 14;
  bad |= (hipEventQuery(ev) != hipSuccess) << 15;
  bad |= (hipEventDestroy(ev) != hipSuccess) << 16;
  if (write(out, &c, 1) != 1)
    bad |= 1 << 17;
  return bad;
}

static int go_fd = -1;

/* Holds the parent's stream until the child writes to the go pipe. */
static void hold(void *arg) {
  char c;

  (void)arg;
  if (read(go_fd, &c, 1) != 1)
    abort();
}

AH_TEST(ipc_mem_event_processes) {
  int to_child[2], from_child[2], go[2], status = 0;
  hipIpcMemHandle_t mh, mh2;
  hipIpcEventHandle_t eh;
  unsigned char buf[256];
  hipStream_t s;
  hipEvent_t ev, plain;
  void *p, *q;
  char c;
  pid_t pid;

  if (!cpu_with(NULL, NULL))
    SKIP("the CPU device's handles (NVIDIA: cuIpc*, needs a GPU)");
  CHECK(pipe(to_child) == 0 && pipe(from_child) == 0 && pipe(go) == 0);
  pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(to_child[1]);
    close(from_child[0]);
    close(go[0]);
    _exit(ipc_child(to_child[0], from_child[1], go[1]));
  }
  close(to_child[0]);
  close(from_child[1]);
  close(go[1]);
  go_fd = go[0];
  CHECK_HIP(hipMalloc(&p, 4096));
  for (int i = 0; i < 256; i++)
    buf[i] = (unsigned char)(i ^ 0x5a);
  CHECK_HIP(hipMemcpy(p, buf, sizeof(buf), hipMemcpyHostToDevice));
  CHECK_HIP(hipIpcGetMemHandle(&mh, (char *)p + 100)); /* names the whole allocation */
  CHECK_HIP(hipIpcGetMemHandle(&mh2, p));
  CHECK(memcmp(&mh, &mh2, sizeof(mh)) == 0);
  /* Events: only interprocess ones. */
  CHECK_HIP(hipEventCreate(&plain));
  CHECK_ERR(hipIpcGetEventHandle(&eh, plain), hipErrorInvalidResourceHandle);
  CHECK_HIP(hipEventCreateWithFlags(&ev, hipEventDisableTiming | hipEventInterprocess));
  CHECK_HIP(hipIpcGetEventHandle(&eh, ev));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipLaunchHostFunc(s, hold, NULL));
  CHECK_HIP(hipEventRecord(ev, s));
  CHECK(write(to_child[1], &mh, sizeof(mh)) == sizeof(mh));
  CHECK(write(to_child[1], &eh, sizeof(eh)) == sizeof(eh));
  /* The child says it is done before it exits. */
  CHECK_EQ(read(from_child[0], &c, 1), 1);
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WEXITSTATUS(status), 0);
  CHECK_HIP(hipMemcpy(buf, p, sizeof(buf), hipMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++)
    CHECK_EQ(buf[i], (unsigned char)(255 - i));
  /* In the process that made them. */
  CHECK_ERR(hipIpcOpenMemHandle(&q, mh, 0), hipErrorInvalidContext);
  CHECK_ERR(hipIpcOpenEventHandle(&plain, eh), hipErrorInvalidContext);
  CHECK_ERR(hipIpcCloseMemHandle(p), hipErrorInvalidValue);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipEventSynchronize(ev));
  /* Arguments. */
  CHECK_ERR(hipIpcGetMemHandle(NULL, p), hipErrorInvalidValue);
  CHECK_ERR(hipIpcGetMemHandle(&mh, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipIpcGetMemHandle(&mh, (char *)p + 4096), hipErrorInvalidValue);
  CHECK_ERR(hipIpcGetMemHandle(&mh, buf), hipErrorInvalidValue);
  CHECK_ERR(hipIpcOpenMemHandle(NULL, mh, 0), hipErrorInvalidValue);
  CHECK_ERR(hipIpcOpenMemHandle(&q, mh, 2), hipErrorInvalidValue);
  memset(&mh2, 0, sizeof(mh2));
  CHECK_ERR(hipIpcOpenMemHandle(&q, mh2, 0), hipErrorInvalidValue);
  CHECK_ERR(hipIpcCloseMemHandle(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipIpcGetEventHandle(NULL, ev), hipErrorInvalidValue);
  CHECK_ERR(hipIpcGetEventHandle(&eh, NULL), hipErrorInvalidResourceHandle);
  CHECK_ERR(hipIpcOpenEventHandle(NULL, eh), hipErrorInvalidValue);
  CHECK_HIP(hipFree(p));
  CHECK_ERR(hipIpcGetMemHandle(&mh, p), hipErrorInvalidValue); /* freed */
  CHECK_HIP(hipEventDestroy(ev));
  CHECK_HIP(hipEventDestroy(plain));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* Argument checks, and pools that cannot be shared: the default pool and a
 * pool made without hipMemHandleTypePosixFileDescriptor are invalid values
 * (AMD's codes), as is their memory given to hipMemPoolExportPointer. */
AH_TEST(ipc_pool_export_checked) {
  hipMemPoolProps props = {0};
  hipMemPool_t pool, plain_pool, imp;
  hipMemPoolPtrExportData data;
  int fd, pipefd[2];
  void *p, *q;

  CHECK_HIP(hipDeviceGetDefaultMemPool(&pool, 0));
  CHECK_ERR(hipMemPoolExportToShareableHandle(NULL, pool, hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 1),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  CHECK_HIP(hipMemPoolCreate(&plain_pool, &props));
  CHECK_ERR(hipMemPoolExportToShareableHandle(&fd, plain_pool,
                                              hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolImportFromShareableHandle(NULL, (void *)(intptr_t)3,
                                                hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolImportFromShareableHandle(&imp, NULL, hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  /* A descriptor that is no pool's file (a pipe). */
  CHECK(pipe(pipefd) == 0);
  CHECK_ERR(hipMemPoolImportFromShareableHandle(&imp, (void *)(intptr_t)pipefd[0],
                                                hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  close(pipefd[0]);
  close(pipefd[1]);
  CHECK_HIP(hipMallocAsync(&p, 64, NULL));
  CHECK_HIP(hipMallocFromPoolAsync(&q, 64, plain_pool, NULL));
  CHECK_ERR(hipMemPoolExportPointer(NULL, p), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolExportPointer(&data, &fd), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolExportPointer(&data, p), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolExportPointer(&data, q), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolImportPointer(NULL, pool, &data), hipErrorInvalidValue);
  CHECK_HIP(hipFreeAsync(p, NULL));
  CHECK_HIP(hipFreeAsync(q, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemPoolDestroy(plain_pool));
  return AH_PASS;
}

/* A shareable pool's descriptor goes to the child over a Unix socket
 * (SCM_RIGHTS, as hip-tests and CUDA's samples send it), the exported
 * pointer's 64 bytes over a pipe. The child imports both, checks the
 * parent's bytes, writes its own, frees its mapping and exits with a bit per
 * failure. */
static int pool_child(int sock, int in) {
  hipMemPoolPtrExportData data;
  unsigned char buf[4096];
  hipMemPool_t imp;
  void *p, *q;
  int fd, bad = 0;
  char c = 1;

  alarm(30);
  fd = recv_fd(sock);
  if (fd < 0 || read(in, &data, sizeof(data)) != sizeof(data))
    return 1;
  bad |= (hipMemPoolImportFromShareableHandle(&imp, (void *)(intptr_t)fd,
                                              hipMemHandleTypePosixFileDescriptor, 0) !=
          hipSuccess) << 1;
  close(fd); /* the pool keeps its own */
  if (bad)
    return bad;
  bad |= (hipMemPoolImportPointer(&p, imp, &data) != hipSuccess) << 2;
  if (bad)
    return bad;
  bad |= (hipMemcpy(buf, p, sizeof(buf), hipMemcpyDeviceToHost) != hipSuccess) << 3;
  for (int i = 0; i < (int)sizeof(buf); i++)
    bad |= (buf[i] != (unsigned char)(i * 7 + 1)) << 4;
  for (int i = 0; i < (int)sizeof(buf); i++)
    buf[i] = (unsigned char)(i * 3);
  bad |= (hipMemcpy(p, buf, sizeof(buf), hipMemcpyHostToDevice) != hipSuccess) << 5;
  /* An imported pool only imports. */
  bad |= (hipMallocFromPoolAsync(&q, 64, imp, NULL) != hipErrorInvalidValue) << 6;
  bad |= (hipFree((char *)p - 4096) != hipSuccess) << 7;
  bad |= (hipDeviceSynchronize() != hipSuccess) << 8;
  if (write(sock, &c, 1) != 1) /* done */
    bad |= 1 << 9;
  return bad ? __builtin_ctz((unsigned)bad) + 1 : 0; /* the first failure's number */
}

AH_TEST(ipc_pool_processes) {
  hipMemPoolProps props = {0};
  hipMemPoolPtrExportData data, bad_data;
  unsigned char buf[4096], back[4096];
  hipMemPool_t pool, imp;
  int sv[2], to_child[2], status = 0, fd = -1, fd2 = -1;
  unsigned char *a, *b, *view;
  hipStream_t s;
  pid_t pid;
  char c;

  if (!cpu_with(NULL, NULL))
    SKIP("the CPU device's memfd pools (every device: external.c's ipc_pool_fork)");
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && pipe(to_child) == 0);
  pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(sv[0]);
    close(to_child[1]);
    _exit(pool_child(sv[1], to_child[0]));
  }
  close(sv[1]);
  close(to_child[0]);
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  CHECK_HIP(hipMemPoolCreate(&pool, &props));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocFromPoolAsync((void **)&a, 10000, pool, s));
  /* Exported before its second allocation, which the child reaches too. */
  CHECK_HIP(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0));
  CHECK(fd >= 0);
  CHECK_HIP(hipMallocFromPoolAsync((void **)&b, 3 * 4096, pool, s));
  CHECK(b != a);
  for (int i = 0; i < (int)sizeof(buf); i++)
    buf[i] = (unsigned char)(i * 7 + 1);
  CHECK_HIP(hipMemsetAsync(a, 0x11, 10000, s));
  CHECK_HIP(hipMemcpyAsync(b + 4096, buf, sizeof(buf), hipMemcpyHostToDevice, s));
  CHECK_HIP(hipStreamSynchronize(s));
  /* A pointer inside the allocation names that place. */
  CHECK_HIP(hipMemPoolExportPointer(&data, b + 4096));
  /* In this process: a second address of the same memory. */
  CHECK_HIP(hipMemPoolImportFromShareableHandle(&imp, (void *)(intptr_t)fd,
                                                hipMemHandleTypePosixFileDescriptor, 0));
  CHECK_ERR(hipMemPoolExportToShareableHandle(&fd2, imp, hipMemHandleTypePosixFileDescriptor, 0),
            hipErrorInvalidValue);
  CHECK_HIP(hipMemPoolImportPointer((void **)&view, imp, &data));
  CHECK(view != b + 4096);
  CHECK_HIP(hipMemcpy(back, view, sizeof(back), hipMemcpyDeviceToHost));
  CHECK(memcmp(back, buf, sizeof(buf)) == 0);
  CHECK_HIP(hipMemset(view, 0x22, 16));
  CHECK_HIP(hipMemcpy(back, b + 4096, 16, hipMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++)
    CHECK_EQ(back[i], 0x22);
  CHECK_HIP(hipMemcpy(view, buf, 16, hipMemcpyHostToDevice));
  CHECK_ERR(hipFree(view), hipErrorInvalidValue); /* not the allocation's start */
  CHECK_HIP(hipFree(view - 4096));
  /* Data of another pool's file, or garbage, is refused. */
  memcpy(&bad_data, &data, sizeof(data));
  bad_data.reserved[0] ^= 0xff;
  CHECK_ERR(hipMemPoolImportPointer((void **)&view, imp, &bad_data), hipErrorInvalidValue);
  CHECK_ERR(hipMemPoolImportPointer((void **)&view, pool, &data), hipErrorInvalidValue);
  /* The child. */
  CHECK(send_fd(sv[0], fd) == 0);
  CHECK(write(to_child[1], &data, sizeof(data)) == sizeof(data));
  CHECK_EQ(read(sv[0], &c, 1), 1);
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WEXITSTATUS(status), 0);
  CHECK_HIP(hipMemcpy(back, b + 4096, sizeof(back), hipMemcpyDeviceToHost));
  for (int i = 0; i < (int)sizeof(back); i++)
    CHECK_EQ(back[i], (unsigned char)(i * 3));
  /* The other allocation was not touched. */
  CHECK_HIP(hipMemcpy(back, a + 9000, 1000, hipMemcpyDeviceToHost));
  for (int i = 0; i < 1000; i++)
    CHECK_EQ(back[i], 0x11);
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipFreeAsync(b, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipMemPoolDestroy(imp));
  close(fd);
  close(sv[0]);
  close(to_child[1]);
  return AH_PASS;
}

/* ---- HIP 5's device properties --------------------------------------------- */

/* The layout is HIP 5.2's (the numbers are offsetof and sizeof of the
 * hipDeviceProp_t of libamdhip64-dev 5.2's header on x86-64), the fields
 * the R0600 ones, gcnArch the number of the architecture name. */
AH_TEST(device_props_r0000) {
  hipDeviceProp_tR0000 old;
  hipDeviceProp_t now;
  int dev = -1;

#if defined(__x86_64__)
  CHECK_EQ(sizeof(hipDeviceProp_tR0000), 792u);
  CHECK_EQ(offsetof(hipDeviceProp_tR0000, gcnArch), 392u);
  CHECK_EQ(offsetof(hipDeviceProp_tR0000, gcnArchName), 396u);
  CHECK_EQ(offsetof(hipDeviceProp_tR0000, pageableMemoryAccessUsesHostPageTables), 788u);
#endif
  memset(&old, 0x7f, sizeof(old));
  CHECK_HIP(hipGetDevicePropertiesR0000(&old, 0));
  CHECK_HIP(hipGetDeviceProperties(&now, 0));
  CHECK(strcmp(old.name, now.name) == 0);
  CHECK(strcmp(old.gcnArchName, now.gcnArchName) == 0);
  CHECK_EQ(old.totalGlobalMem, now.totalGlobalMem);
  CHECK_EQ(old.multiProcessorCount, now.multiProcessorCount);
  CHECK_EQ(old.maxThreadsDim[2], now.maxThreadsDim[2]);
  CHECK_EQ(old.maxGridSize[0], now.maxGridSize[0]);
  CHECK_EQ(old.clockInstructionRate, now.clockInstructionRate);
  CHECK_EQ(old.pageableMemoryAccessUsesHostPageTables,
           now.pageableMemoryAccessUsesHostPageTables);
  if (strcmp(now.gcnArchName, "cpu") == 0)
    CHECK_EQ(old.gcnArch, 0);
  else if (strncmp(now.gcnArchName, "sm_", 3) == 0)
    CHECK_EQ(old.gcnArch, 10 * now.major + now.minor);
  CHECK_HIP(hipChooseDeviceR0000(&dev, &old));
  CHECK_EQ(dev, 0);
  CHECK_ERR(hipGetDevicePropertiesR0000(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGetDevicePropertiesR0000(&old, 9999), hipErrorInvalidDevice);
  CHECK_ERR(hipChooseDeviceR0000(NULL, &old), hipErrorInvalidValue);
  CHECK_ERR(hipChooseDeviceR0000(&dev, NULL), hipErrorInvalidValue);
  return AH_PASS;
}
