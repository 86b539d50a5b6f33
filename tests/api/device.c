/* SPDX-License-Identifier: MIT */
/* Initialization, versions and device management: counting and selecting
 * devices (per host thread), properties checked against the host and against
 * every attribute, names, PCI identities, limits, flags, reset, peer access,
 * cache configuration, and each function's error paths. Tests that need
 * several (or zero) virtual CPU devices set the environment before their
 * first HIP call; each test runs in its own process. */
#define _GNU_SOURCE
#include "ah_test.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <unistd.h>

/* Asks for n virtual CPU devices and nothing else. Returns 0 when the test
 * runs for another device (ANYHIP_DEVICES names something else). */
static int use_cpu_devices(int n) {
  const char *d = getenv("ANYHIP_DEVICES");
  char buf[16];

  if (d != NULL && strcmp(d, "cpu") != 0)
    return 0;
  snprintf(buf, sizeof(buf), "%d", n);
  setenv("ANYHIP_DEVICES", "cpu", 1);
  setenv("ANYHIP_CPU_DEVICES", buf, 1);
  unsetenv("HIP_VISIBLE_DEVICES");
  unsetenv("CUDA_VISIBLE_DEVICES");
  return 1;
}

/* Exactly two devices: two virtual CPU devices, or the two GPUs of a
 * two-GPU machine (ANYHIP_DEVICES=nvidia there). */
static int two_devices(void) {
  int n = 0;
  const char *d = getenv("ANYHIP_DEVICES");

  if (d == NULL || strcmp(d, "cpu") == 0)
    return use_cpu_devices(2);
  return hipGetDeviceCount(&n) == hipSuccess && n == 2;
}

static int on_cpu(void) {
  const char *d = getenv("ANYHIP_DEVICES");

  return d == NULL || strcmp(d, "cpu") == 0;
}

AH_TEST(device_init_and_versions) {
  int v = -1;

  CHECK_HIP(hipInit(0));
  CHECK_ERR(hipInit(1), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipDriverGetVersion(&v));
  CHECK_EQ(v, HIP_VERSION);
  v = -1;
  CHECK_HIP(hipRuntimeGetVersion(&v));
  CHECK_EQ(v, HIP_VERSION);
  CHECK_EQ(HIP_VERSION, HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 +
                            HIP_VERSION_PATCH);
  CHECK_ERR(hipDriverGetVersion(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipRuntimeGetVersion(NULL), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

AH_TEST(device_count_virtual_cpus) {
  int n = -1;

  if (!use_cpu_devices(3))
    SKIP("virtual CPU devices only");
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_EQ(n, 3);
  CHECK_ERR(hipGetDeviceCount(NULL), hipErrorInvalidValue);
  return AH_PASS;
}

/* No device at all: HIP reports hipErrorNoDevice (count 0) and every call
 * that needs a device fails the same way; versions still work. */
AH_TEST(device_none) {
  hipDeviceProp_t p;
  int n = -1, d = -1, v = 0;
  size_t s;

  if (!use_cpu_devices(0))
    SKIP("virtual CPU devices only");
  CHECK_ERR(hipGetDeviceCount(&n), hipErrorNoDevice);
  CHECK_EQ(n, 0);
  CHECK_ERR(hipInit(0), hipErrorNoDevice);
  CHECK_ERR(hipSetDevice(0), hipErrorNoDevice);
  CHECK_ERR(hipGetDevice(&d), hipErrorNoDevice);
  CHECK_ERR(hipGetDeviceProperties(&p, 0), hipErrorNoDevice);
  CHECK_ERR(hipDeviceSynchronize(), hipErrorNoDevice);
  CHECK_ERR(hipDeviceReset(), hipErrorNoDevice);
  CHECK_ERR(hipDeviceGetLimit(&s, hipLimitStackSize), hipErrorNoDevice);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 0), hipErrorNoDevice);
  CHECK_HIP(hipRuntimeGetVersion(&v));
  CHECK_EQ(v, HIP_VERSION);
  return AH_PASS;
}

/* HIP_VISIBLE_DEVICES keeps and reorders devices by index; the list ends at
 * the first invalid entry. The CPU devices' PCI bus numbers tell them apart. */
AH_TEST(device_visible_filter) {
  hipDeviceProp_t p;
  int n = -1;

  if (!use_cpu_devices(3))
    SKIP("virtual CPU devices only");
  setenv("HIP_VISIBLE_DEVICES", "2,0,7,1", 1);
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_EQ(n, 2);
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  CHECK_EQ(p.pciBusID, 2);
  CHECK_HIP(hipGetDeviceProperties(&p, 1));
  CHECK_EQ(p.pciBusID, 0);
  CHECK_ERR(hipGetDeviceProperties(&p, 2), hipErrorInvalidDevice);
  return AH_PASS;
}

AH_TEST(device_set_get) {
  int n, d = -1;
  hipDevice_t h = -1;

  if (!two_devices())
    SKIP("two devices only");
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_EQ(n, 2);
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 0); /* the default */
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 1);
  CHECK_ERR(hipSetDevice(2), hipErrorInvalidDevice);
  CHECK_ERR(hipSetDevice(-1), hipErrorInvalidDevice);
  CHECK_ERR(hipSetDevice(INT_MAX), hipErrorInvalidDevice);
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 1); /* a failed hipSetDevice changes nothing */
  CHECK_ERR(hipGetDevice(NULL), hipErrorInvalidValue);
  CHECK_HIP(hipDeviceGet(&h, 1));
  CHECK_EQ(h, 1);
  CHECK_ERR(hipDeviceGet(&h, 2), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGet(NULL, 0), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  return AH_PASS;
}

struct thread_view {
  int seen;        /* the thread's current device before it sets one */
  int stream_dev;  /* the device of a stream the thread made */
  hipError_t err;
};

static void *thread_body(void *p) {
  struct thread_view *v = p;
  hipStream_t s;

  v->err = hipGetDevice(&v->seen);
  if (v->err == hipSuccess)
    v->err = hipStreamCreate(&s);
  if (v->err == hipSuccess)
    v->err = hipStreamGetDevice(s, &v->stream_dev);
  if (v->err == hipSuccess)
    v->err = hipStreamDestroy(s);
  if (v->err == hipSuccess)
    v->err = hipSetDevice(0);
  return NULL;
}

/* The current device belongs to the host thread: a new thread starts on
 * device 0 and what it sets does not leak into the main thread. */
AH_TEST(device_current_per_thread) {
  struct thread_view v = {-1, -1, hipSuccess};
  pthread_t t;
  hipStream_t s;
  int d = -1, sd = -1;

  if (!two_devices())
    SKIP("two devices only");
  CHECK_HIP(hipSetDevice(1));
  CHECK(pthread_create(&t, NULL, thread_body, &v) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK_HIP(v.err);
  CHECK_EQ(v.seen, 0);
  CHECK_EQ(v.stream_dev, 0);
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 1);
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamGetDevice(s, &sd));
  CHECK_EQ(sd, 1);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

static int affinity_cores(void) {
  cpu_set_t set;

  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return (int)sysconf(_SC_NPROCESSORS_ONLN);
  return CPU_COUNT(&set);
}

/* The CPU device reports the host (memory, cores) and HIP's limits. */
AH_TEST(device_properties_cpu) {
  hipDeviceProp_t p;
  size_t phys = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);

  if (!use_cpu_devices(1))
    SKIP("CPU device only");
  unsetenv("ANYHIP_CPU_THREADS");
  unsetenv("ANYHIP_CPU_WARP_SIZE");
  memset(&p, 0xa5, sizeof(p));
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  CHECK(strncmp(p.name, "anyhip CPU (", 12) == 0);
  CHECK(p.name[strlen(p.name) - 1] == ')');
  CHECK_EQ(strcmp(p.gcnArchName, "cpu"), 0);
  CHECK_EQ(p.totalGlobalMem, phys);
  CHECK_EQ(p.multiProcessorCount, affinity_cores());
  CHECK_EQ(p.warpSize, 64);
  CHECK_EQ(p.maxThreadsPerBlock, 1024);
  CHECK_EQ(p.maxThreadsDim[0], 1024);
  CHECK_EQ(p.maxThreadsDim[1], 1024);
  CHECK_EQ(p.maxThreadsDim[2], 1024);
  CHECK_EQ(p.maxGridSize[0], INT_MAX);
  CHECK_EQ(p.maxGridSize[1], INT_MAX);
  CHECK_EQ(p.maxGridSize[2], INT_MAX);
  CHECK_EQ(p.sharedMemPerBlock, 65536);
  CHECK_EQ(p.totalConstMem, 65536);
  CHECK_EQ(p.canMapHostMemory, 1);
  CHECK_EQ(p.managedMemory, 1);
  CHECK_EQ(p.concurrentManagedAccess, 1);
  CHECK_EQ(p.pageableMemoryAccess, 1);
  CHECK_EQ(p.unifiedAddressing, 1);
  CHECK_EQ(p.concurrentKernels, 1);
  CHECK_EQ(p.cooperativeLaunch, 1);
  CHECK_EQ(p.integrated, 1);
  CHECK(p.asyncEngineCount > 0);
  CHECK(p.clockRate >= 0);
  CHECK(p.l2CacheSize >= 0);
  CHECK_EQ(p.isMultiGpuBoard, 0);
  CHECK_EQ(p.pciBusID, 0);
  CHECK(p.arch.hasDoubles && p.arch.hasWarpShuffle && p.arch.hasGlobalInt64Atomics);
  CHECK_ERR(hipGetDeviceProperties(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGetDeviceProperties(&p, 1), hipErrorInvalidDevice);
  CHECK_ERR(hipGetDeviceProperties(&p, -1), hipErrorInvalidDevice);
  return AH_PASS;
}

/* ANYHIP_CPU_THREADS and ANYHIP_CPU_WARP_SIZE show in the properties. */
AH_TEST(device_properties_cpu_config) {
  hipDeviceProp_t p;
  int v = 0;

  if (!use_cpu_devices(2))
    SKIP("CPU device only");
  setenv("ANYHIP_CPU_THREADS", "3", 1);
  setenv("ANYHIP_CPU_WARP_SIZE", "32", 1);
  CHECK_HIP(hipGetDeviceProperties(&p, 1));
  CHECK_EQ(p.multiProcessorCount, 3);
  CHECK_EQ(p.warpSize, 32);
  CHECK_EQ(p.isMultiGpuBoard, 1);
  CHECK_EQ(p.pciBusID, 1);
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 1));
  CHECK_EQ(v, 32);
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0));
  CHECK_EQ(v, 3);
  return AH_PASS;
}

static int clamp(size_t v) {
  return v > INT_MAX ? INT_MAX : (int)v;
}

/* Every attribute backed by a property reads the same value as the property. */
AH_TEST(device_attributes_match_props) {
  hipDeviceProp_t p;
  int n;

  CHECK_HIP(hipGetDeviceCount(&n));
  for (int d = 0; d < n; d++) {
    CHECK_HIP(hipGetDeviceProperties(&p, d));
    const struct {
      hipDeviceAttribute_t attr;
      int want;
    } t[] = {
        {hipDeviceAttributeEccEnabled, p.ECCEnabled},
        {hipDeviceAttributeAsyncEngineCount, p.asyncEngineCount},
        {hipDeviceAttributeCanMapHostMemory, p.canMapHostMemory},
        {hipDeviceAttributeCanUseHostPointerForRegisteredMem, p.canUseHostPointerForRegisteredMem},
        {hipDeviceAttributeClockRate, p.clockRate},
        {hipDeviceAttributeComputeMode, p.computeMode},
        {hipDeviceAttributeConcurrentKernels, p.concurrentKernels},
        {hipDeviceAttributeConcurrentManagedAccess, p.concurrentManagedAccess},
        {hipDeviceAttributeCooperativeLaunch, p.cooperativeLaunch},
        {hipDeviceAttributeCooperativeMultiDeviceLaunch, p.cooperativeMultiDeviceLaunch},
        {hipDeviceAttributeDeviceOverlap, p.deviceOverlap},
        {hipDeviceAttributeDirectManagedMemAccessFromHost, p.directManagedMemAccessFromHost},
        {hipDeviceAttributeGlobalL1CacheSupported, p.globalL1CacheSupported},
        {hipDeviceAttributeHostNativeAtomicSupported, p.hostNativeAtomicSupported},
        {hipDeviceAttributeIntegrated, p.integrated},
        {hipDeviceAttributeIsMultiGpuBoard, p.isMultiGpuBoard},
        {hipDeviceAttributeKernelExecTimeout, p.kernelExecTimeoutEnabled},
        {hipDeviceAttributeL2CacheSize, p.l2CacheSize},
        {hipDeviceAttributeLocalL1CacheSupported, p.localL1CacheSupported},
        {hipDeviceAttributeComputeCapabilityMajor, p.major},
        {hipDeviceAttributeComputeCapabilityMinor, p.minor},
        {hipDeviceAttributeManagedMemory, p.managedMemory},
        {hipDeviceAttributeMaxBlocksPerMultiProcessor, p.maxBlocksPerMultiProcessor},
        {hipDeviceAttributeMaxBlockDimX, p.maxThreadsDim[0]},
        {hipDeviceAttributeMaxBlockDimY, p.maxThreadsDim[1]},
        {hipDeviceAttributeMaxBlockDimZ, p.maxThreadsDim[2]},
        {hipDeviceAttributeMaxGridDimX, p.maxGridSize[0]},
        {hipDeviceAttributeMaxGridDimY, p.maxGridSize[1]},
        {hipDeviceAttributeMaxGridDimZ, p.maxGridSize[2]},
        {hipDeviceAttributeMaxTexture1DWidth, p.maxTexture1D},
        {hipDeviceAttributeMaxTexture2DWidth, p.maxTexture2D[0]},
        {hipDeviceAttributeMaxTexture2DHeight, p.maxTexture2D[1]},
        {hipDeviceAttributeMaxTexture3DWidth, p.maxTexture3D[0]},
        {hipDeviceAttributeMaxTexture3DHeight, p.maxTexture3D[1]},
        {hipDeviceAttributeMaxTexture3DDepth, p.maxTexture3D[2]},
        {hipDeviceAttributeMaxThreadsPerBlock, p.maxThreadsPerBlock},
        {hipDeviceAttributeMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
        {hipDeviceAttributeMaxPitch, clamp(p.memPitch)},
        {hipDeviceAttributeMemoryBusWidth, p.memoryBusWidth},
        {hipDeviceAttributeMemoryClockRate, p.memoryClockRate},
        {hipDeviceAttributeMultiGpuBoardGroupID, p.multiGpuBoardGroupID},
        {hipDeviceAttributeMultiprocessorCount, p.multiProcessorCount},
        {hipDeviceAttributePageableMemoryAccess, p.pageableMemoryAccess},
        {hipDeviceAttributePageableMemoryAccessUsesHostPageTables,
         p.pageableMemoryAccessUsesHostPageTables},
        {hipDeviceAttributePciBusId, p.pciBusID},
        {hipDeviceAttributePciDeviceId, p.pciDeviceID},
        {hipDeviceAttributePciDomainID, p.pciDomainID},
        {hipDeviceAttributeMaxRegistersPerBlock, p.regsPerBlock},
        {hipDeviceAttributeMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor},
        {hipDeviceAttributeMaxSharedMemoryPerBlock, clamp(p.sharedMemPerBlock)},
        {hipDeviceAttributeSharedMemPerBlockOptin, clamp(p.sharedMemPerBlockOptin)},
        {hipDeviceAttributeSharedMemPerMultiprocessor, clamp(p.sharedMemPerMultiprocessor)},
        {hipDeviceAttributeSingleToDoublePrecisionPerfRatio, p.singleToDoublePrecisionPerfRatio},
        {hipDeviceAttributeStreamPrioritiesSupported, p.streamPrioritiesSupported},
        {hipDeviceAttributeTccDriver, p.tccDriver},
        {hipDeviceAttributeTextureAlignment, clamp(p.textureAlignment)},
        {hipDeviceAttributeTexturePitchAlignment, clamp(p.texturePitchAlignment)},
        {hipDeviceAttributeTotalConstantMemory, clamp(p.totalConstMem)},
        {hipDeviceAttributeTotalGlobalMem, clamp(p.totalGlobalMem)},
        {hipDeviceAttributeUnifiedAddressing, p.unifiedAddressing},
        {hipDeviceAttributeWarpSize, p.warpSize},
        {hipDeviceAttributeMemoryPoolsSupported, p.memoryPoolsSupported},
        {hipDeviceAttributeHostRegisterSupported, p.hostRegisterSupported},
        {hipDeviceAttributeClockInstructionRate, p.clockInstructionRate},
        {hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
         clamp(p.maxSharedMemoryPerMultiProcessor)},
        {hipDeviceAttributeIsLargeBar, p.isLargeBar},
        {hipDeviceAttributeAsicRevision, p.asicRevision},
    };

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
      int v = 0x5a5a5a5a;

      CHECK_HIP(hipDeviceGetAttribute(&v, t[i].attr, d));
      if (v != t[i].want) {
        fprintf(stderr, "device %d attribute %d: %d, property says %d\n", d, (int)t[i].attr, v,
                t[i].want);
        return AH_FAIL;
      }
    }
  }
  return AH_PASS;
}

/* Attributes that are not properties (the CPU device's answers), and the
 * ones that do not fit an int or that no device has. */
AH_TEST(device_attributes_other) {
  int v = 0;

  CHECK_ERR(hipDeviceGetAttribute(NULL, hipDeviceAttributeWarpSize, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, -1), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 64), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeName, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeUuid, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeCudaCompatibleEnd, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeAmdSpecificEnd, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetAttribute(&v, (hipDeviceAttribute_t)-1, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetAttribute(&v, (hipDeviceAttribute_t)123456, 0), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  if (!on_cpu())
    return AH_PASS;
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributePhysicalMultiProcessorCount, 0));
  CHECK_EQ(v, affinity_cores());
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeFineGrainSupport, 0));
  CHECK_EQ(v, 1);
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeWallClockRate, 0));
  CHECK_EQ(v, 1000000);
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeImageSupport, 0));
  CHECK_EQ(v, 1); /* textures and surfaces (tests/api/array.c) */
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeVirtualMemoryManagementSupported, 0));
  CHECK_EQ(v, 1); /* memfd mappings (tests/api/ext.c) */
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeCanUseStreamWaitValue, 0));
  CHECK_EQ(v, 1);
  CHECK_HIP(hipDeviceGetAttribute(&v, hipDeviceAttributeNumberOfXccs, 0));
  CHECK_EQ(v, 1);
  CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeLuid, 0), hipErrorInvalidValue);
  {
    /* HDP registers: none on the CPU device, so 0; an int's bytes only */
    int two[2] = {-1, -1};

    CHECK_HIP(hipDeviceGetAttribute(&two[0], hipDeviceAttributeHdpMemFlushCntl, 0));
    CHECK(two[0] == 0 && two[1] == -1);
    two[0] = -1;
    CHECK_HIP(hipDeviceGetAttribute(&two[0], hipDeviceAttributeHdpRegFlushCntl, 0));
    CHECK(two[0] == 0 && two[1] == -1);
  }
  return AH_PASS;
}

AH_TEST(device_name_mem_uuid) {
  hipDeviceProp_t p0, p1;
  char name[300], small[8];
  size_t bytes = 0;
  int major = -1, minor = -1;
  hipUUID u0, u1;

  if (!two_devices())
    SKIP("two devices only");
  CHECK_HIP(hipGetDeviceProperties(&p0, 0));
  CHECK_HIP(hipGetDeviceProperties(&p1, 1));
  CHECK_HIP(hipDeviceGetName(name, sizeof(name), 0));
  CHECK_EQ(strcmp(name, p0.name), 0);
  memset(small, 'x', sizeof(small));
  CHECK_HIP(hipDeviceGetName(small, sizeof(small), 0));
  CHECK_EQ(strlen(small), sizeof(small) - 1); /* truncated, terminated */
  CHECK_EQ(strncmp(small, p0.name, sizeof(small) - 1), 0);
  CHECK_ERR(hipDeviceGetName(NULL, 10, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetName(name, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetName(name, -3, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetName(name, sizeof(name), 2), hipErrorInvalidDevice);

  CHECK_HIP(hipDeviceTotalMem(&bytes, 1));
  CHECK_EQ(bytes, p1.totalGlobalMem);
  CHECK_ERR(hipDeviceTotalMem(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceTotalMem(&bytes, -1), hipErrorInvalidDevice);

  CHECK_HIP(hipDeviceComputeCapability(&major, &minor, 0));
  CHECK_EQ(major, p0.major);
  CHECK_EQ(minor, p0.minor);
  CHECK_ERR(hipDeviceComputeCapability(NULL, &minor, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceComputeCapability(&major, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceComputeCapability(&major, &minor, 5), hipErrorInvalidDevice);

  CHECK_HIP(hipDeviceGetUuid(&u0, 0));
  CHECK_HIP(hipDeviceGetUuid(&u1, 1));
  CHECK_EQ(memcmp(&u0, &p0.uuid, sizeof(u0)), 0);
  CHECK_EQ(memcmp(&u1, &p1.uuid, sizeof(u1)), 0);
  CHECK(memcmp(&u0, &u1, sizeof(u0)) != 0); /* distinct devices, distinct identities */
  CHECK_ERR(hipDeviceGetUuid(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetUuid(&u0, 2), hipErrorInvalidDevice);
  return AH_PASS;
}

/* The guide's call-stack example: set 8 KiB, read 8192 back. Every limit
 * round-trips; unknown limits are hipErrorUnsupportedLimit. */
AH_TEST(device_limits) {
  size_t v = 0;

  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitStackSize));
  CHECK(v > 0);
  if (on_cpu())
    CHECK_EQ(v, 64 * 1024);
  CHECK_HIP(hipDeviceSetLimit(hipLimitStackSize, 1024 * 8));
  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitStackSize));
  CHECK_EQ(v, 8192);
  CHECK_HIP(hipDeviceSetLimit(hipLimitStackSize, 256 << 10));
  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitStackSize));
  CHECK_EQ(v, 256 << 10);

  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitPrintfFifoSize));
  CHECK(v > 0);
  CHECK_HIP(hipDeviceSetLimit(hipLimitPrintfFifoSize, 3 << 20));
  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitPrintfFifoSize));
  CHECK_EQ(v, 3 << 20);
  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitMallocHeapSize));
  CHECK(v > 0);
  CHECK_HIP(hipDeviceSetLimit(hipLimitMallocHeapSize, 64 << 20));
  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitMallocHeapSize));
  CHECK_EQ(v, 64 << 20);

  CHECK_ERR(hipDeviceGetLimit(NULL, hipLimitStackSize), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetLimit(&v, hipLimitRange), hipErrorUnsupportedLimit);
  CHECK_ERR(hipDeviceGetLimit(&v, (enum hipLimit_t)-1), hipErrorUnsupportedLimit);
  CHECK_ERR(hipDeviceSetLimit(hipLimitRange, 1), hipErrorUnsupportedLimit);
  CHECK_ERR(hipDeviceSetLimit((enum hipLimit_t)77, 1), hipErrorUnsupportedLimit);
  CHECK_ERR(hipDeviceSetLimit((enum hipLimit_t)-1, 1), hipErrorUnsupportedLimit);
  /* At or past AMD's hipLimitRange (0x1003): an invalid value, as AMD's runtime. */
  CHECK_ERR(hipDeviceSetLimit((enum hipLimit_t)0x1003, 1), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceSetLimit((enum hipLimit_t)0xffff, 1), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetLimit(&v, (enum hipLimit_t)0xffff), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetLimit(&v, (enum hipLimit_t)0x1002), hipErrorUnsupportedLimit);
  CHECK_EQ(hipGetLastError(), hipErrorUnsupportedLimit);
  if (on_cpu()) {
    /* More stack per thread than the CPU device allows: refused, unchanged. */
    CHECK_ERR(hipDeviceSetLimit(hipLimitStackSize, (size_t)1 << 40), hipErrorInvalidValue);
    CHECK_HIP(hipDeviceGetLimit(&v, hipLimitStackSize));
    CHECK_EQ(v, 256 << 10);
  }
  return AH_PASS;
}

/* Limits are per device. */
AH_TEST(device_limits_per_device) {
  size_t v0 = 0, v1 = 0;

  if (!two_devices())
    SKIP("two devices only");
  size_t before = 0;

  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipDeviceGetLimit(&before, hipLimitStackSize)); /* 64 KiB on the CPU device */
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipDeviceSetLimit(hipLimitStackSize, 20000));
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipDeviceGetLimit(&v0, hipLimitStackSize));
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipDeviceGetLimit(&v1, hipLimitStackSize));
  CHECK_EQ(v0, before);
  CHECK(before != 20000);
  /* A GPU may round the limit up (CUDA's granularity); the CPU device keeps it. */
  CHECK(v1 >= 20000 && v1 < 20000 + 4096);
  if (on_cpu())
    CHECK_EQ(v0, 64 * 1024);
  return AH_PASS;
}

AH_TEST(device_flags) {
  static const unsigned good[] = {
      hipDeviceScheduleAuto,
      hipDeviceScheduleSpin,
      hipDeviceScheduleYield,
      hipDeviceScheduleBlockingSync,
      hipDeviceScheduleYield | hipDeviceMapHost,
      hipDeviceScheduleBlockingSync | hipDeviceMapHost | hipDeviceLmemResizeToMax,
  };
  unsigned f = 99;

  CHECK_HIP(hipGetDeviceFlags(&f));
  CHECK_EQ(f, 0);
  for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
    CHECK_HIP(hipSetDeviceFlags(good[i]));
    CHECK_HIP(hipGetDeviceFlags(&f));
    /* Only the scheduling mode reads back, as on AMD's runtime (ROCm's unit
     * suite checks it; docs/semantics.md): the other two are always on. */
    CHECK_EQ(f, good[i] & hipDeviceScheduleMask);
  }
  CHECK_ERR(hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceScheduleYield),
            hipErrorInvalidValue);
  CHECK_ERR(hipSetDeviceFlags(0x20), hipErrorInvalidValue);
  CHECK_ERR(hipSetDeviceFlags(0x80000000u), hipErrorInvalidValue);
  CHECK_HIP(hipGetDeviceFlags(&f));
  CHECK_EQ(f, good[sizeof(good) / sizeof(good[0]) - 1] & hipDeviceScheduleMask); /* unchanged */
  CHECK_ERR(hipGetDeviceFlags(NULL), hipErrorInvalidValue);
  return AH_PASS;
}

/* hipDeviceSynchronize waits for every stream's work. */
AH_TEST(device_synchronize) {
  enum { N = 1 << 20 };
  hipStream_t s;
  unsigned char *d, *h = malloc(N);

  CHECK(h != NULL);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  CHECK_HIP(hipMalloc((void **)&d, N));
  for (int rep = 0; rep < 8; rep++) {
    CHECK_HIP(hipMemsetAsync(d, rep + 1, N, s));
    CHECK_HIP(hipMemcpyAsync(h, d, N, hipMemcpyDeviceToHost, s));
  }
  CHECK_HIP(hipDeviceSynchronize());
  for (size_t i = 0; i < N; i++)
    if (h[i] != 8) {
      fprintf(stderr, "byte %zu is %d after hipDeviceSynchronize\n", i, h[i]);
      return AH_FAIL;
    }
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  free(h);
  return AH_PASS;
}

/* hipDeviceReset frees the device's memory and destroys its streams (their
 * handles stop working), and restores its flags and limits; the device is
 * usable afterwards. */
AH_TEST(device_reset) {
  hipPointerAttribute_t a;
  hipStream_t s;
  void *d, *h;
  size_t v = 0, def = 0;
  unsigned f = 1;

  CHECK_HIP(hipDeviceGetLimit(&def, hipLimitStackSize));
  CHECK_HIP(hipMalloc(&d, 4096));
  CHECK_HIP(hipHostMalloc(&h, 4096, 0));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMemsetAsync(d, 7, 4096, s));
  CHECK_HIP(hipSetDeviceFlags(hipDeviceScheduleYield));
  CHECK_HIP(hipDeviceSetLimit(hipLimitStackSize, def * 4));
  CHECK_HIP(hipPointerGetAttributes(&a, d));
  CHECK_EQ(a.type, hipMemoryTypeDevice);

  CHECK_HIP(hipDeviceReset());
  CHECK(hipPointerGetAttributes(&a, d) != hipSuccess || a.type == hipMemoryTypeUnregistered);
  CHECK(hipFree(d) != hipSuccess);
  CHECK(hipHostFree(h) != hipSuccess);
  CHECK(hipStreamQuery(s) != hipSuccess);
  CHECK(hipStreamDestroy(s) != hipSuccess);
  CHECK_HIP(hipGetDeviceFlags(&f));
  CHECK_EQ(f, 0);
  CHECK_HIP(hipDeviceGetLimit(&v, hipLimitStackSize));
  CHECK_EQ(v, def);
  (void)hipGetLastError();

  /* Usable again. */
  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMemsetAsync(d, 3, 64, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Reset touches only the current device. */
AH_TEST(device_reset_other_device_kept) {
  void *d0, *d1;
  hipPointerAttribute_t a;

  if (!two_devices())
    SKIP("two devices only");
  CHECK_HIP(hipMalloc(&d0, 256));
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipMalloc(&d1, 256));
  CHECK_HIP(hipDeviceReset());
  CHECK(hipFree(d1) != hipSuccess);
  (void)hipGetLastError();
  CHECK_HIP(hipPointerGetAttributes(&a, d0));
  CHECK_EQ(a.device, 0);
  CHECK_HIP(hipFree(d0));
  return AH_PASS;
}

/* HIP on AMD: three levels, 1 (least urgent) to -1; creation clamps to them. */
AH_TEST(device_stream_priority_range) {
  int least = 99, greatest = 99, p = 99;
  hipStream_t s;

  CHECK_HIP(hipDeviceGetStreamPriorityRange(&least, &greatest));
  CHECK_EQ(least, 1);
  CHECK_EQ(greatest, -1);
  CHECK_HIP(hipDeviceGetStreamPriorityRange(NULL, &greatest));
  CHECK_HIP(hipDeviceGetStreamPriorityRange(&least, NULL));
  CHECK_HIP(hipDeviceGetStreamPriorityRange(NULL, NULL));
  CHECK_HIP(hipStreamCreateWithPriority(&s, 0, greatest - 5));
  CHECK_HIP(hipStreamGetPriority(s, &p));
  CHECK_EQ(p, greatest);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipStreamCreateWithPriority(&s, 0, least + 5));
  CHECK_HIP(hipStreamGetPriority(s, &p));
  CHECK_EQ(p, least);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

AH_TEST(device_choose) {
  hipDeviceProp_t want, p;
  int d = -1, n;

  CHECK_HIP(hipGetDeviceCount(&n));
  memset(&want, 0, sizeof(want));
  CHECK_HIP(hipChooseDevice(&d, &want));
  CHECK_EQ(d, 0); /* nothing asked: the first device */
  CHECK_HIP(hipGetDeviceProperties(&p, n - 1));
  want = p; /* exactly the last device: a device at least as good is chosen */
  d = -1;
  CHECK_HIP(hipChooseDevice(&d, &want));
  CHECK(d >= 0 && d < n);
  CHECK_HIP(hipGetDeviceProperties(&p, d));
  CHECK(p.totalGlobalMem >= want.totalGlobalMem);
  CHECK(p.maxThreadsPerBlock >= want.maxThreadsPerBlock);
  memset(&want, 0, sizeof(want));
  want.totalGlobalMem = SIZE_MAX; /* no device has it: still a device */
  CHECK_HIP(hipChooseDevice(&d, &want));
  CHECK(d >= 0 && d < n);
  CHECK_ERR(hipChooseDevice(NULL, &want), hipErrorInvalidValue);
  CHECK_ERR(hipChooseDevice(&d, NULL), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(device_pci_bus_id) {
  char id[32], small[5];
  int n, d = -1;

  if (!use_cpu_devices(3))
    SKIP("virtual CPU devices only");
  CHECK_HIP(hipGetDeviceCount(&n));
  for (int i = 0; i < n; i++) {
    char want[32];

    snprintf(want, sizeof(want), "ffff:%02x:00.0", i);
    CHECK_HIP(hipDeviceGetPCIBusId(id, sizeof(id), i));
    CHECK_EQ(strcmp(id, want), 0);
    CHECK_HIP(hipDeviceGetByPCIBusId(&d, id));
    CHECK_EQ(d, i);
  }
  CHECK_HIP(hipDeviceGetByPCIBusId(&d, "FFFF:02:00.0")); /* hex digits in either case */
  CHECK_EQ(d, 2);
  /* Too short: what fits, and an error (AMD's runtime; docs/semantics.md). */
  CHECK_ERR(hipDeviceGetPCIBusId(small, sizeof(small), 1), hipErrorInvalidValue);
  CHECK_EQ(strcmp(small, "ffff"), 0);
  CHECK_ERR(hipDeviceGetPCIBusId(id, 12, 1), hipErrorInvalidValue);
  CHECK_EQ(strcmp(id, "ffff:01:00."), 0);
  CHECK_HIP(hipDeviceGetPCIBusId(id, 13, 1));
  CHECK_EQ(strcmp(id, "ffff:01:00.0"), 0);
  CHECK_ERR(hipDeviceGetByPCIBusId(&d, "0000:01:00.0"), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetByPCIBusId(&d, "ffff:09:00.0"), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetByPCIBusId(&d, "not a bus id"), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetByPCIBusId(&d, ""), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetByPCIBusId(NULL, id), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetByPCIBusId(&d, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetPCIBusId(NULL, 32, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetPCIBusId(id, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetPCIBusId(id, sizeof(id), 3), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetPCIBusId(id, sizeof(id), -1), hipErrorInvalidDevice);
  return AH_PASS;
}

/* Virtual CPU devices share one address space: each reaches the others,
 * never itself (as in CUDA). Enabling twice or disabling what is not enabled
 * are errors; a reset of the device forgets its grants. */
AH_TEST(device_peer_access) {
  int can = -1;

  if (!use_cpu_devices(3))
    SKIP("virtual CPU devices only");
  CHECK_HIP(hipDeviceCanAccessPeer(&can, 0, 1));
  CHECK_EQ(can, 1);
  CHECK_HIP(hipDeviceCanAccessPeer(&can, 2, 0));
  CHECK_EQ(can, 1);
  CHECK_HIP(hipDeviceCanAccessPeer(&can, 1, 1));
  CHECK_EQ(can, 0);
  CHECK_ERR(hipDeviceCanAccessPeer(NULL, 0, 1), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceCanAccessPeer(&can, 0, 3), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceCanAccessPeer(&can, -1, 0), hipErrorInvalidDevice);

  CHECK_HIP(hipDeviceEnablePeerAccess(1, 0));
  CHECK_ERR(hipDeviceEnablePeerAccess(1, 0), hipErrorPeerAccessAlreadyEnabled);
  CHECK_HIP(hipDeviceEnablePeerAccess(2, 0));
  CHECK_ERR(hipDeviceEnablePeerAccess(0, 0), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceEnablePeerAccess(3, 0), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceEnablePeerAccess(2, 1), hipErrorInvalidValue);
  CHECK_HIP(hipDeviceDisablePeerAccess(1));
  CHECK_ERR(hipDeviceDisablePeerAccess(1), hipErrorPeerAccessNotEnabled);
  CHECK_ERR(hipDeviceDisablePeerAccess(0), hipErrorPeerAccessNotEnabled);
  CHECK_ERR(hipDeviceDisablePeerAccess(7), hipErrorInvalidDevice);

  /* Grants belong to the device that made them. */
  CHECK_HIP(hipSetDevice(1));
  CHECK_ERR(hipDeviceDisablePeerAccess(2), hipErrorPeerAccessNotEnabled);
  CHECK_HIP(hipDeviceEnablePeerAccess(0, 0));
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipDeviceReset());
  CHECK_HIP(hipDeviceEnablePeerAccess(2, 0)); /* forgotten by the reset */
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipDeviceEnablePeerAccess(0, 0)); /* grants to device 0 went too */
  return AH_PASS;
}

AH_TEST(device_cache_config) {
  hipFuncCache_t c = (hipFuncCache_t)99;
  hipSharedMemConfig m = (hipSharedMemConfig)99;

  CHECK_HIP(hipDeviceGetCacheConfig(&c));
  CHECK_EQ(c, hipFuncCachePreferNone);
  CHECK_HIP(hipDeviceSetCacheConfig(hipFuncCachePreferShared));
  CHECK_HIP(hipDeviceSetCacheConfig(hipFuncCachePreferEqual));
  CHECK_ERR(hipDeviceSetCacheConfig((hipFuncCache_t)4), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceSetCacheConfig((hipFuncCache_t)-1), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetCacheConfig(NULL), hipErrorInvalidValue);
  CHECK_HIP(hipDeviceGetSharedMemConfig(&m));
  CHECK_EQ(m, hipSharedMemBankSizeFourByte);
  CHECK_HIP(hipDeviceSetSharedMemConfig(hipSharedMemBankSizeEightByte));
  CHECK_ERR(hipDeviceSetSharedMemConfig((hipSharedMemConfig)3), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetSharedMemConfig(NULL), hipErrorInvalidValue);
  return AH_PASS;
}

/* hipMemGetInfo agrees with the properties: total is the device's memory. */
AH_TEST(device_mem_info) {
  hipDeviceProp_t p;
  size_t free_b = 0, total = 0;

  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  CHECK_HIP(hipMemGetInfo(&free_b, &total));
  CHECK_EQ(total, p.totalGlobalMem);
  CHECK(free_b > 0 && free_b <= total);
  return AH_PASS;
}

/* Every call that takes a device ordinal refuses -1, the count, INT_MAX and
 * INT_MIN with hipErrorInvalidDevice, records it, and writes nothing. */
AH_TEST(device_bad_ordinals) {
  int n = 0, v = 7, major = 7, minor = 7, can = 7, cur = -1;
  hipDevice_t h = 7;
  hipDeviceProp_t p;
  hipUUID u;
  size_t bytes = 7;
  char buf[64] = "untouched";
  void *d;

  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_HIP(hipMalloc(&d, 64));
  CHECK_HIP(hipGetDevice(&cur));
  const int bad[] = {-1, n, n + 1, INT_MAX, INT_MIN};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    int b = bad[i];

    CHECK_ERR(hipSetDevice(b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceGet(&h, b), hipErrorInvalidDevice);
    CHECK_ERR(hipGetDeviceProperties(&p, b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceGetName(buf, sizeof(buf), b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceTotalMem(&bytes, b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceComputeCapability(&major, &minor, b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceGetUuid(&u, b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceGetPCIBusId(buf, sizeof(buf), b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceCanAccessPeer(&can, b, 0), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceCanAccessPeer(&can, 0, b), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceEnablePeerAccess(b, 0), hipErrorInvalidDevice);
    CHECK_ERR(hipDeviceDisablePeerAccess(b), hipErrorInvalidDevice);
    CHECK_ERR(hipMemcpyPeer(d, b, d, 0, 64), hipErrorInvalidDevice);
    CHECK_ERR(hipMemcpyPeer(d, 0, d, b, 64), hipErrorInvalidDevice);
    CHECK_ERR(hipMemcpyPeerAsync(d, b, d, 0, 64, NULL), hipErrorInvalidDevice);
    CHECK_ERR(hipMemcpyPeerAsync(d, 0, d, b, 64, NULL), hipErrorInvalidDevice);
    CHECK_EQ(hipGetLastError(), hipErrorInvalidDevice);
  }
  CHECK_EQ(h, 7);
  CHECK_EQ(v, 7);
  CHECK_EQ(major, 7);
  CHECK_EQ(can, 7);
  CHECK_EQ(bytes, 7);
  CHECK(strcmp(buf, "untouched") == 0);
  CHECK_HIP(hipGetDevice(&v));
  CHECK_EQ(v, cur); /* the failed hipSetDevice calls changed nothing */
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Every flags argument of the device API refuses each bit HIP does not
 * define for it, one bit at a time, and changes nothing. */
AH_TEST(device_flags_every_bit) {
  const unsigned known = hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;
  unsigned f0 = 99, f1 = 99;
  int n = 0;

  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_HIP(hipGetDeviceFlags(&f0));
  for (int b = 0; b < 32; b++) {
    unsigned f = 1u << b;

    CHECK_ERR(hipInit(f), hipErrorInvalidValue);
    if (n > 1)
      CHECK_ERR(hipDeviceEnablePeerAccess(1, f), hipErrorInvalidValue);
    else
      CHECK_ERR(hipDeviceEnablePeerAccess(0, f), hipErrorInvalidValue); /* flags come first */
    if (!(f & known))
      CHECK_ERR(hipSetDeviceFlags(f), hipErrorInvalidValue);
  }
  /* Two scheduling modes at once are no mode. */
  CHECK_ERR(hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceScheduleYield),
            hipErrorInvalidValue);
  CHECK_ERR(hipSetDeviceFlags(hipDeviceScheduleMask), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipGetDeviceFlags(&f1));
  CHECK_EQ(f1, f0);
  return AH_PASS;
}

/* Peer access between the two devices of any pair (two virtual CPU devices,
 * or two GPUs: the driver's answer for the pair decides the rest): a device
 * never reaches itself; enabling twice and disabling what is not enabled
 * are errors; a grant is the device's that made it. */
AH_TEST(device_peer_access_pair) {
  int can01 = -1, can10 = -1, self = -1;

  if (!two_devices())
    SKIP("two devices only");
  CHECK_HIP(hipDeviceCanAccessPeer(&can01, 0, 1));
  CHECK_HIP(hipDeviceCanAccessPeer(&can10, 1, 0));
  CHECK_HIP(hipDeviceCanAccessPeer(&self, 0, 0));
  CHECK_EQ(self, 0);
  CHECK_ERR(hipDeviceCanAccessPeer(&self, 0, 2), hipErrorInvalidDevice);
  if (on_cpu())
    CHECK(can01 == 1 && can10 == 1);
  if (!can01 || !can10)
    SKIP("the two devices cannot reach each other");
  CHECK_HIP(hipSetDevice(0));
  CHECK_ERR(hipDeviceEnablePeerAccess(0, 0), hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceEnablePeerAccess(1, 1), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceDisablePeerAccess(1), hipErrorPeerAccessNotEnabled);
  CHECK_HIP(hipDeviceEnablePeerAccess(1, 0));
  CHECK_ERR(hipDeviceEnablePeerAccess(1, 0), hipErrorPeerAccessAlreadyEnabled);
  CHECK_HIP(hipSetDevice(1));
  CHECK_ERR(hipDeviceDisablePeerAccess(0), hipErrorPeerAccessNotEnabled);
  CHECK_HIP(hipDeviceEnablePeerAccess(0, 0));
  CHECK_HIP(hipDeviceDisablePeerAccess(0));
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipDeviceDisablePeerAccess(1));
  CHECK_ERR(hipDeviceDisablePeerAccess(1), hipErrorPeerAccessNotEnabled);
  CHECK_EQ(hipGetLastError(), hipErrorPeerAccessNotEnabled);
  return AH_PASS;
}
