/* SPDX-License-Identifier: MIT */
/* HIP's initialization, version and device-management entry points: device
 * count and selection (per host thread), properties and attributes, limits,
 * flags, synchronize and reset, PCI identities, peer access, and the cache
 * and shared-memory configurations (accepted, no effect on any device yet). */
#include "../core/graph.h" /* capture refusals */
#include "../core/stream.h"
#include "device_ops.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------ */

/* The device for an ordinal argument: hipErrorNoDevice when there are none,
 * hipErrorInvalidDevice when the ordinal is out of range. */
static hipError_t current(struct ah_device **out) {
  *out = ah_current_device();
  return *out != NULL ? hipSuccess : hipErrorNoDevice;
}

static int clamp_int(size_t v) {
  return v > INT_MAX ? INT_MAX : (int)v;
}

/* ---- initialization and versions ----------------------------------------- */

AH_EXPORT hipError_t hipInit(unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(ah_device_count() > 0, hipErrorNoDevice);
  return hipSuccess;
}

/* anyhip is its own driver: both versions are the HIP version it follows. */
AH_EXPORT hipError_t hipDriverGetVersion(int *driverVersion) {
  AH_ENTER();
  AH_REQUIRE(driverVersion != NULL, hipErrorInvalidValue);
  *driverVersion = HIP_VERSION;
  return hipSuccess;
}

AH_EXPORT hipError_t hipRuntimeGetVersion(int *runtimeVersion) {
  AH_ENTER();
  AH_REQUIRE(runtimeVersion != NULL, hipErrorInvalidValue);
  *runtimeVersion = HIP_VERSION;
  return hipSuccess;
}

/* ---- device selection ------------------------------------------------------ */

/* Like HIP, no device is an error, with *count set to 0. */
AH_EXPORT hipError_t hipGetDeviceCount(int *count) {
  AH_ENTER();
  AH_REQUIRE(count != NULL, hipErrorInvalidValue);
  *count = ah_device_count();
  AH_REQUIRE(*count > 0, hipErrorNoDevice);
  return hipSuccess;
}

AH_EXPORT hipError_t hipSetDevice(int deviceId) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE_OK(ah_device_arg(deviceId, &dev));
  ah_set_current_ordinal(deviceId);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGetDevice(int *deviceId) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(deviceId != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  *deviceId = dev->ordinal;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceGet(hipDevice_t *device, int ordinal) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(device != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(ordinal, &dev));
  *device = dev->ordinal;
  return hipSuccess;
}

AH_EXPORT hipError_t hipChooseDevice(int *device, const hipDeviceProp_t *prop) {
  AH_ENTER();
  AH_RETURN(ah_device_choose(device, prop));
}

/* ---- properties and attributes -------------------------------------------- */

AH_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId) {
  AH_ENTER();
  AH_RETURN(ah_device_props(prop, deviceId));
}

/* HIP 6's exported name: binaries built against ROCm's headers call this. */
AH_EXPORT hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_t *prop, int deviceId);
AH_EXPORT hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_t *prop, int deviceId) {
  AH_ENTER();
  AH_RETURN(ah_device_props(prop, deviceId));
}

/* Reads attr from the properties. Returns 0 when the properties do not hold
 * it (the backend may know it). Sizes above INT_MAX read as INT_MAX; for
 * attributes naming an array (a texture's dimensions) the first element. */
static int prop_attribute(const hipDeviceProp_t *p, hipDeviceAttribute_t attr, int *v) {
  switch (attr) {
  case hipDeviceAttributeEccEnabled: *v = p->ECCEnabled; break;
  case hipDeviceAttributeAccessPolicyMaxWindowSize: *v = p->accessPolicyMaxWindowSize; break;
  case hipDeviceAttributeAsyncEngineCount: *v = p->asyncEngineCount; break;
  case hipDeviceAttributeCanMapHostMemory: *v = p->canMapHostMemory; break;
  case hipDeviceAttributeCanUseHostPointerForRegisteredMem:
    *v = p->canUseHostPointerForRegisteredMem;
    break;
  case hipDeviceAttributeClockRate: *v = p->clockRate; break;
  case hipDeviceAttributeComputeMode: *v = p->computeMode; break;
  case hipDeviceAttributeComputePreemptionSupported: *v = p->computePreemptionSupported; break;
  case hipDeviceAttributeConcurrentKernels: *v = p->concurrentKernels; break;
  case hipDeviceAttributeConcurrentManagedAccess: *v = p->concurrentManagedAccess; break;
  case hipDeviceAttributeCooperativeLaunch: *v = p->cooperativeLaunch; break;
  case hipDeviceAttributeCooperativeMultiDeviceLaunch: *v = p->cooperativeMultiDeviceLaunch; break;
  case hipDeviceAttributeDeviceOverlap: *v = p->deviceOverlap; break;
  case hipDeviceAttributeDirectManagedMemAccessFromHost:
    *v = p->directManagedMemAccessFromHost;
    break;
  case hipDeviceAttributeGlobalL1CacheSupported: *v = p->globalL1CacheSupported; break;
  case hipDeviceAttributeHostNativeAtomicSupported: *v = p->hostNativeAtomicSupported; break;
  case hipDeviceAttributeIntegrated: *v = p->integrated; break;
  case hipDeviceAttributeIsMultiGpuBoard: *v = p->isMultiGpuBoard; break;
  case hipDeviceAttributeKernelExecTimeout: *v = p->kernelExecTimeoutEnabled; break;
  case hipDeviceAttributeL2CacheSize: *v = p->l2CacheSize; break;
  case hipDeviceAttributeLocalL1CacheSupported: *v = p->localL1CacheSupported; break;
  case hipDeviceAttributeLuidDeviceNodeMask: *v = (int)p->luidDeviceNodeMask; break;
  case hipDeviceAttributeComputeCapabilityMajor: *v = p->major; break;
  case hipDeviceAttributeManagedMemory: *v = p->managedMemory; break;
  case hipDeviceAttributeMaxBlocksPerMultiProcessor: *v = p->maxBlocksPerMultiProcessor; break;
  case hipDeviceAttributeMaxBlockDimX: *v = p->maxThreadsDim[0]; break;
  case hipDeviceAttributeMaxBlockDimY: *v = p->maxThreadsDim[1]; break;
  case hipDeviceAttributeMaxBlockDimZ: *v = p->maxThreadsDim[2]; break;
  case hipDeviceAttributeMaxGridDimX: *v = p->maxGridSize[0]; break;
  case hipDeviceAttributeMaxGridDimY: *v = p->maxGridSize[1]; break;
  case hipDeviceAttributeMaxGridDimZ: *v = p->maxGridSize[2]; break;
  case hipDeviceAttributeMaxSurface1D: *v = p->maxSurface1D; break;
  case hipDeviceAttributeMaxSurface1DLayered: *v = p->maxSurface1DLayered[0]; break;
  case hipDeviceAttributeMaxSurface2D: *v = p->maxSurface2D[0]; break;
  case hipDeviceAttributeMaxSurface2DLayered: *v = p->maxSurface2DLayered[0]; break;
  case hipDeviceAttributeMaxSurface3D: *v = p->maxSurface3D[0]; break;
  case hipDeviceAttributeMaxSurfaceCubemap: *v = p->maxSurfaceCubemap; break;
  case hipDeviceAttributeMaxSurfaceCubemapLayered: *v = p->maxSurfaceCubemapLayered[0]; break;
  case hipDeviceAttributeMaxTexture1DWidth: *v = p->maxTexture1D; break;
  case hipDeviceAttributeMaxTexture1DLayered: *v = p->maxTexture1DLayered[0]; break;
  case hipDeviceAttributeMaxTexture1DLinear: *v = p->maxTexture1DLinear; break;
  case hipDeviceAttributeMaxTexture1DMipmap: *v = p->maxTexture1DMipmap; break;
  case hipDeviceAttributeMaxTexture2DWidth: *v = p->maxTexture2D[0]; break;
  case hipDeviceAttributeMaxTexture2DHeight: *v = p->maxTexture2D[1]; break;
  case hipDeviceAttributeMaxTexture2DGather: *v = p->maxTexture2DGather[0]; break;
  case hipDeviceAttributeMaxTexture2DLayered: *v = p->maxTexture2DLayered[0]; break;
  case hipDeviceAttributeMaxTexture2DLinear: *v = p->maxTexture2DLinear[0]; break;
  case hipDeviceAttributeMaxTexture2DMipmap: *v = p->maxTexture2DMipmap[0]; break;
  case hipDeviceAttributeMaxTexture3DWidth: *v = p->maxTexture3D[0]; break;
  case hipDeviceAttributeMaxTexture3DHeight: *v = p->maxTexture3D[1]; break;
  case hipDeviceAttributeMaxTexture3DDepth: *v = p->maxTexture3D[2]; break;
  case hipDeviceAttributeMaxTexture3DAlt: *v = p->maxTexture3DAlt[0]; break;
  case hipDeviceAttributeMaxTextureCubemap: *v = p->maxTextureCubemap; break;
  case hipDeviceAttributeMaxTextureCubemapLayered: *v = p->maxTextureCubemapLayered[0]; break;
  case hipDeviceAttributeMaxThreadsDim: *v = p->maxThreadsDim[0]; break;
  case hipDeviceAttributeMaxThreadsPerBlock: *v = p->maxThreadsPerBlock; break;
  case hipDeviceAttributeMaxThreadsPerMultiProcessor: *v = p->maxThreadsPerMultiProcessor; break;
  case hipDeviceAttributeMaxPitch: *v = clamp_int(p->memPitch); break;
  case hipDeviceAttributeMemoryBusWidth: *v = p->memoryBusWidth; break;
  case hipDeviceAttributeMemoryClockRate: *v = p->memoryClockRate; break;
  case hipDeviceAttributeComputeCapabilityMinor: *v = p->minor; break;
  case hipDeviceAttributeMultiGpuBoardGroupID: *v = p->multiGpuBoardGroupID; break;
  case hipDeviceAttributeMultiprocessorCount: *v = p->multiProcessorCount; break;
  case hipDeviceAttributePageableMemoryAccess: *v = p->pageableMemoryAccess; break;
  case hipDeviceAttributePageableMemoryAccessUsesHostPageTables:
    *v = p->pageableMemoryAccessUsesHostPageTables;
    break;
  case hipDeviceAttributePciBusId: *v = p->pciBusID; break;
  case hipDeviceAttributePciDeviceId: *v = p->pciDeviceID; break;
  case hipDeviceAttributePciDomainId: *v = p->pciDomainID; break;
  case hipDeviceAttributePersistingL2CacheMaxSize: *v = p->persistingL2CacheMaxSize; break;
  case hipDeviceAttributeMaxRegistersPerBlock: *v = p->regsPerBlock; break;
  case hipDeviceAttributeMaxRegistersPerMultiprocessor: *v = p->regsPerMultiprocessor; break;
  case hipDeviceAttributeReservedSharedMemPerBlock:
    *v = clamp_int(p->reservedSharedMemPerBlock);
    break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock: *v = clamp_int(p->sharedMemPerBlock); break;
  case hipDeviceAttributeSharedMemPerBlockOptin: *v = clamp_int(p->sharedMemPerBlockOptin); break;
  case hipDeviceAttributeSharedMemPerMultiprocessor:
    *v = clamp_int(p->sharedMemPerMultiprocessor);
    break;
  case hipDeviceAttributeSingleToDoublePrecisionPerfRatio:
    *v = p->singleToDoublePrecisionPerfRatio;
    break;
  case hipDeviceAttributeStreamPrioritiesSupported: *v = p->streamPrioritiesSupported; break;
  case hipDeviceAttributeSurfaceAlignment: *v = clamp_int(p->surfaceAlignment); break;
  case hipDeviceAttributeTccDriver: *v = p->tccDriver; break;
  case hipDeviceAttributeTextureAlignment: *v = clamp_int(p->textureAlignment); break;
  case hipDeviceAttributeTexturePitchAlignment: *v = clamp_int(p->texturePitchAlignment); break;
  case hipDeviceAttributeTotalConstantMemory: *v = clamp_int(p->totalConstMem); break;
  case hipDeviceAttributeTotalGlobalMem: *v = clamp_int(p->totalGlobalMem); break;
  case hipDeviceAttributeUnifiedAddressing: *v = p->unifiedAddressing; break;
  case hipDeviceAttributeWarpSize: *v = p->warpSize; break;
  case hipDeviceAttributeMemoryPoolsSupported: *v = 1; break; /* core/mempool.c, any backend */
  case hipDeviceAttributeHostRegisterSupported: *v = p->hostRegisterSupported; break;
  case hipDeviceAttributeMemoryPoolSupportedHandleTypes:
    *v = (int)p->memoryPoolSupportedHandleTypes;
    break;
  case hipDeviceAttributeClockInstructionRate: *v = p->clockInstructionRate; break;
  case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
    *v = clamp_int(p->maxSharedMemoryPerMultiProcessor);
    break;
  case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc:
    *v = p->cooperativeMultiDeviceUnmatchedFunc;
    break;
  case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim:
    *v = p->cooperativeMultiDeviceUnmatchedGridDim;
    break;
  case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim:
    *v = p->cooperativeMultiDeviceUnmatchedBlockDim;
    break;
  case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem:
    *v = p->cooperativeMultiDeviceUnmatchedSharedMem;
    break;
  case hipDeviceAttributeIsLargeBar: *v = p->isLargeBar; break;
  case hipDeviceAttributeAsicRevision: *v = p->asicRevision; break;
  default:
    /* Not a property: the name, UUID, LUID, architecture and register
     * addresses do not fit an int, and the rest only the backend knows. */
    return 0;
  }
  return 1;
}

AH_EXPORT hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int deviceId) {
  struct ah_device *dev;
  int v;

  AH_ENTER();
  AH_REQUIRE(pi != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(deviceId, &dev));
  if (!prop_attribute(&dev->props, attr, &v)) {
    AH_REQUIRE_OK(ah_dev_attribute(dev, attr, &v));
  }
  *pi = v;
  return hipSuccess;
}

/* Copies as much of the name as fits, always terminated. */
AH_EXPORT hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(name != NULL && len > 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(device, &dev));
  snprintf(name, (size_t)len, "%s", dev->props.name);
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(bytes != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(device, &dev));
  *bytes = dev->props.totalGlobalMem;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(major != NULL && minor != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(device, &dev));
  *major = dev->props.major;
  *minor = dev->props.minor;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceGetUuid(hipUUID *uuid, hipDevice_t device) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(uuid != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(device, &dev));
  *uuid = dev->props.uuid;
  return hipSuccess;
}

/* ---- PCI identity ----------------------------------------------------------- */

/* HIP's form, domain:bus:device.function in hex; truncated to len. */
AH_EXPORT hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  struct ah_device *dev;
  int n;

  AH_ENTER();
  AH_REQUIRE(pciBusId != NULL && len > 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(device, &dev));
  /* A buffer too short for the whole id gets what fits (terminated) and an
   * invalid-value error, as on AMD's runtime (docs/semantics.md). */
  n = snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", (unsigned)dev->props.pciDomainID,
               (unsigned)dev->props.pciBusID, (unsigned)dev->props.pciDeviceID);
  AH_REQUIRE(n >= 0 && n < len, hipErrorInvalidValue);
  return hipSuccess;
}

/* Accepts "domain:bus:device.function" and "bus:device.function". */
AH_EXPORT hipError_t hipDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  unsigned domain = 0, bus, dev_id;
  int n;

  AH_ENTER();
  AH_REQUIRE(device != NULL && pciBusId != NULL, hipErrorInvalidValue);
  n = sscanf(pciBusId, "%x:%x:%x", &domain, &bus, &dev_id);
  if (n != 3) {
    domain = 0;
    n = sscanf(pciBusId, "%x:%x", &bus, &dev_id) + 1;
  }
  AH_REQUIRE(n == 3, hipErrorInvalidValue);
  for (int i = 0; i < ah_device_count(); i++) {
    const hipDeviceProp_t *p = &ah_device_get(i)->props;

    if ((unsigned)p->pciDomainID == domain && (unsigned)p->pciBusID == bus &&
        (unsigned)p->pciDeviceID == dev_id) {
      *device = i;
      return hipSuccess;
    }
  }
  return ah_fail(hipErrorInvalidDevice, __func__, "no device at that PCI address");
}

/* ---- synchronize, reset, flags, limits ------------------------------------- */

AH_EXPORT hipError_t hipDeviceSynchronize(void) {
  struct ah_device *dev;

  AH_ENTER();
  AH_NOT_IN_HOST_FN();
  AH_REQUIRE_OK(current(&dev));
  AH_REQUIRE_OK(ah_capture_check_device_sync()); /* refused during capture, as in CUDA/HIP */
  AH_REQUIRE_OK(ah_dev_sync(dev));
  ah_mempool_sync(dev); /* pools give back memory above their release threshold */
  return hipSuccess;
}

/* Destroys every stream and event and frees every allocation the current
 * device has, then returns it to its initial state (flags, limits, peer
 * access, sticky errors). Work already queued finishes first. Handles of the
 * destroyed objects then give errors, as after hipStreamDestroy and
 * hipEventDestroy. */
AH_EXPORT hipError_t hipDeviceReset(void) {
  struct ah_device *dev;

  AH_ENTER();
  AH_NOT_IN_HOST_FN();
  AH_REQUIRE_OK(current(&dev));
  AH_RETURN(ah_device_reset(dev));
}

#define AH_DEVICE_FLAGS (hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax)

/* One scheduling mode at most; host mapping and local-memory resizing are
 * always on here, so their flags are accepted and remembered. */
AH_EXPORT hipError_t hipSetDeviceFlags(unsigned flags) {
  unsigned sched = flags & hipDeviceScheduleMask;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE((flags & ~(unsigned)AH_DEVICE_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE(sched == hipDeviceScheduleAuto || sched == hipDeviceScheduleSpin ||
                 sched == hipDeviceScheduleYield || sched == hipDeviceScheduleBlockingSync,
             hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  ah_device_set_flags(dev, flags);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGetDeviceFlags(unsigned int *flags) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(flags != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  /* The scheduling mode only, as AMD's runtime reports it: host mapping and
   * local-memory resizing are always on (hipCtxGetFlags reports them all). */
  *flags = ah_device_flags(dev) & hipDeviceScheduleMask;
  return hipSuccess;
}

static int limit_known(enum hipLimit_t limit) {
  return (unsigned)limit < (unsigned)hipLimitRange;
}

/* AMD's headers end hipLimit_t at 0x1003 (after its hipExtLimitScratch*
 * values); AMD's runtime answers a limit at or past that (compared as an int,
 * so (hipLimit_t)-1 is below it) hipErrorInvalidValue, and one below it that
 * it does not know hipErrorUnsupportedLimit. anyhip follows (docs/semantics.md). */
#define AH_AMD_LIMIT_RANGE 0x1003

static hipError_t limit_check(enum hipLimit_t limit) {
  if ((int)limit >= AH_AMD_LIMIT_RANGE)
    return hipErrorInvalidValue;
  return limit_known(limit) ? hipSuccess : hipErrorUnsupportedLimit;
}

/* Reports the value last set (HIP's guide sets 8192 and reads 8192 back);
 * the backend may honour more (the CPU's fiber stacks have a minimum). */
AH_EXPORT hipError_t hipDeviceGetLimit(size_t *pValue, enum hipLimit_t limit) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(pValue != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(limit_check(limit));
  AH_REQUIRE_OK(current(&dev));
  *pValue = ah_device_limit(dev, limit);
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE_OK(limit_check(limit));
  AH_REQUIRE_OK(current(&dev));
  AH_RETURN(ah_device_set_limit(dev, limit, value));
}

/* HIP on AMD has three levels, -1 (most urgent), 0 (default) and 1; either
 * output may be NULL. */
AH_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  AH_ENTER();
  if (leastPriority != NULL)
    *leastPriority = AH_STREAM_PRIORITY_LEAST;
  if (greatestPriority != NULL)
    *greatestPriority = AH_STREAM_PRIORITY_GREATEST;
  return hipSuccess;
}

/* ---- cache and shared-memory configuration (no effect, as on AMD) --------- */

AH_EXPORT hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *cacheConfig) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(cacheConfig != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  *cacheConfig = hipFuncCachePreferNone;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cacheConfig) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE((unsigned)cacheConfig <= (unsigned)hipFuncCachePreferEqual, hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *pConfig) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(pConfig != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  *pConfig = hipSharedMemBankSizeFourByte;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE((unsigned)config <= (unsigned)hipSharedMemBankSizeEightByte, hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  return hipSuccess;
}

/* ---- peer access ------------------------------------------------------------ */

/* AMD's checks: NULL value, then the devices (the same device, or one out
 * of range: hipErrorInvalidDevice), then the attribute. Devices that do not
 * reach each other (another backend's) answer 0 for every attribute. */
AH_EXPORT hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int srcDevice,
                                              int dstDevice) {
  struct ah_device *dev, *peer;

  AH_ENTER();
  AH_REQUIRE(value != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(srcDevice, &dev));
  AH_REQUIRE_OK(ah_device_arg(dstDevice, &peer));
  AH_REQUIRE(dev != peer, hipErrorInvalidDevice);
  AH_REQUIRE((unsigned)attr <= (unsigned)hipDevP2PAttrHipArrayAccessSupported,
             hipErrorInvalidValue);
  if (!ah_peer_can_access(dev, peer)) {
    *value = 0;
    return hipSuccess;
  }
  if (dev->backend->p2p_attribute != NULL)
    AH_RETURN(dev->backend->p2p_attribute(dev, peer, attr, value));
  *value = attr == hipDevP2PAttrPerformanceRank ? 0 : 1; /* one address space */
  return hipSuccess;
}

/* CUDA's list of devices to use in priority order. anyhip has no implicit
 * device choice to steer (a thread's device is 0 until it sets one), so the
 * list is checked and its first device becomes the calling thread's
 * current device; an empty list (len 0) changes nothing. AMD's runtime
 * answers hipErrorNotSupported. */
AH_EXPORT hipError_t hipSetValidDevices(int *device_arr, int len) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(len >= 0 && (device_arr != NULL || len == 0), hipErrorInvalidValue);
  AH_REQUIRE(len <= ah_device_count(), hipErrorInvalidValue);
  for (int i = 0; i < len; i++) {
    AH_REQUIRE_OK(ah_device_arg(device_arr[i], &dev));
    for (int j = 0; j < i; j++)
      AH_REQUIRE(device_arr[j] != device_arr[i], hipErrorInvalidValue); /* listed twice */
  }
  if (len > 0)
    ah_set_current_ordinal(device_arr[0]);
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId) {
  struct ah_device *dev, *peer;

  AH_ENTER();
  AH_REQUIRE(canAccessPeer != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_arg(deviceId, &dev));
  AH_REQUIRE_OK(ah_device_arg(peerDeviceId, &peer));
  *canAccessPeer = ah_peer_can_access(dev, peer);
  return hipSuccess;
}

AH_EXPORT hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
  struct ah_device *dev, *peer;

  AH_ENTER();
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(current(&dev));
  AH_REQUIRE_OK(ah_device_arg(peerDeviceId, &peer));
  AH_REQUIRE(peer != dev, hipErrorInvalidDevice);
  AH_REQUIRE(ah_peer_can_access(dev, peer), hipErrorPeerAccessUnsupported);
  AH_RETURN(ah_peer_enable(dev, peer));
}

AH_EXPORT hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
  struct ah_device *dev, *peer;

  AH_ENTER();
  AH_REQUIRE_OK(current(&dev));
  AH_REQUIRE_OK(ah_device_arg(peerDeviceId, &peer));
  AH_RETURN(ah_peer_disable(dev, peer));
}
