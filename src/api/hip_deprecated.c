/* SPDX-License-Identifier: MIT */
/* HIP 5's device properties (hip/hip_deprecated.h): hipGetDevicePropertiesR0000
 * fills the HIP 5 layout from the device's HIP 6 properties, and
 * hipChooseDeviceR0000 scores devices against one, as hipChooseDevice does.
 * gcnArch is the number in the architecture name (gfx906: 906), which for
 * anyhip's devices is 0 on the CPU device ("cpu") and 10 * major + minor on
 * an NVIDIA GPU (its sm_XY). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The fields both layouts have, in either direction. */
#define AH_R0000_FIELDS(X)                                                                         \
  X(totalGlobalMem) X(sharedMemPerBlock) X(regsPerBlock) X(warpSize) X(maxThreadsPerBlock)        \
  X(clockRate) X(memoryClockRate) X(memoryBusWidth) X(totalConstMem) X(major) X(minor)            \
  X(multiProcessorCount) X(l2CacheSize) X(maxThreadsPerMultiProcessor) X(computeMode)             \
  X(clockInstructionRate) X(arch) X(concurrentKernels) X(pciDomainID) X(pciBusID) X(pciDeviceID)  \
  X(maxSharedMemoryPerMultiProcessor) X(isMultiGpuBoard) X(canMapHostMemory) X(integrated)        \
  X(cooperativeLaunch) X(cooperativeMultiDeviceLaunch) X(maxTexture1DLinear) X(maxTexture1D)      \
  X(hdpMemFlushCntl) X(hdpRegFlushCntl) X(memPitch) X(textureAlignment)                           \
  X(texturePitchAlignment) X(kernelExecTimeoutEnabled) X(ECCEnabled) X(tccDriver)                 \
  X(cooperativeMultiDeviceUnmatchedFunc) X(cooperativeMultiDeviceUnmatchedGridDim)                \
  X(cooperativeMultiDeviceUnmatchedBlockDim) X(cooperativeMultiDeviceUnmatchedSharedMem)          \
  X(isLargeBar) X(asicRevision) X(managedMemory) X(directManagedMemAccessFromHost)                \
  X(concurrentManagedAccess) X(pageableMemoryAccess) X(pageableMemoryAccessUsesHostPageTables)

/* The digits of gcnArchName after "gfx" (up to a ':' feature list), else
 * an NVIDIA sm number, else 0. */
static int gcn_arch(const hipDeviceProp_t *p) {
  if (strncmp(p->gcnArchName, "gfx", 3) == 0)
    return (int)strtol(p->gcnArchName + 3, NULL, 10);
  if (strncmp(p->gcnArchName, "sm_", 3) == 0)
    return 10 * p->major + p->minor;
  return 0;
}

AH_EXPORT hipError_t hipGetDevicePropertiesR0000(hipDeviceProp_tR0000 *prop, int device) {
  hipDeviceProp_t p;

  AH_ENTER();
  AH_REQUIRE(prop != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_device_props(&p, device));
  memset(prop, 0, sizeof(*prop));
  memcpy(prop->name, p.name, sizeof(prop->name));
  memcpy(prop->gcnArchName, p.gcnArchName, sizeof(prop->gcnArchName));
  memcpy(prop->maxThreadsDim, p.maxThreadsDim, sizeof(prop->maxThreadsDim));
  memcpy(prop->maxGridSize, p.maxGridSize, sizeof(prop->maxGridSize));
  memcpy(prop->maxTexture2D, p.maxTexture2D, sizeof(prop->maxTexture2D));
  memcpy(prop->maxTexture3D, p.maxTexture3D, sizeof(prop->maxTexture3D));
#define AH_COPY(f) prop->f = p.f;
  AH_R0000_FIELDS(AH_COPY)
#undef AH_COPY
  prop->gcnArch = gcn_arch(&p);
  return hipSuccess;
}

AH_EXPORT hipError_t hipChooseDeviceR0000(int *device, const hipDeviceProp_tR0000 *prop) {
  hipDeviceProp_t p;

  AH_ENTER();
  AH_REQUIRE(device != NULL && prop != NULL, hipErrorInvalidValue);
  memset(&p, 0, sizeof(p));
  memcpy(p.name, prop->name, sizeof(p.name));
  memcpy(p.gcnArchName, prop->gcnArchName, sizeof(p.gcnArchName));
#define AH_COPY(f) p.f = prop->f;
  AH_R0000_FIELDS(AH_COPY)
#undef AH_COPY
  AH_RETURN(ah_device_choose(device, &p));
}
