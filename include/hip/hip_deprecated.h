/* SPDX-License-Identifier: MIT */
/* HIP 5's device properties, kept by HIP 6 under a versioned name:
 * hipDeviceProp_tR0000 has the fields older code reads that HIP 6's
 * hipDeviceProp_t dropped (gcnArch first among them), in HIP 5's order,
 * filled by hipGetDevicePropertiesR0000. Included by hip_runtime_api.h, as
 * in HIP 6.
 *
 * Older code that writes `hipDeviceProp_t p; ... p.gcnArch` compiles
 * unchanged with -DANYHIP_HIP5_DEVICE_PROP on the command line (hipcc
 * includes hip_runtime.h before the first line of a source): hipDeviceProp_t,
 * hipGetDeviceProperties and hipChooseDevice then name the R0000 forms
 * (docs/semantics.md, "Device properties of HIP 5"). */
#ifndef HIP_INCLUDE_HIP_HIP_DEPRECATED_H
#define HIP_INCLUDE_HIP_HIP_DEPRECATED_H

#include <stddef.h>

typedef struct hipDeviceProp_tR0000 {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int computeMode;
  int clockInstructionRate;
  hipDeviceArch_t arch;
  int concurrentKernels;
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
  size_t maxSharedMemoryPerMultiProcessor;
  int isMultiGpuBoard;
  int canMapHostMemory;
  int gcnArch; /* the number in gcnArchName: 906 for gfx906; anyhip: 0 (cpu), 10 * major + minor (NVIDIA sm_XY) */
  char gcnArchName[256];
  int integrated;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  int maxTexture1DLinear;
  int maxTexture1D;
  int maxTexture2D[2];
  int maxTexture3D[3];
  unsigned int *hdpMemFlushCntl;
  unsigned int *hdpRegFlushCntl;
  size_t memPitch;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int kernelExecTimeoutEnabled;
  int ECCEnabled;
  int tccDriver;
  int cooperativeMultiDeviceUnmatchedFunc;
  int cooperativeMultiDeviceUnmatchedGridDim;
  int cooperativeMultiDeviceUnmatchedBlockDim;
  int cooperativeMultiDeviceUnmatchedSharedMem;
  int isLargeBar;
  int asicRevision;
  int managedMemory;
  int directManagedMemAccessFromHost;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  int pageableMemoryAccessUsesHostPageTables;
} hipDeviceProp_tR0000;

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#ifdef __cplusplus
extern "C" {
#endif
hipError_t hipGetDevicePropertiesR0000(hipDeviceProp_tR0000 *prop, int device);
hipError_t hipChooseDeviceR0000(int *device, const hipDeviceProp_tR0000 *prop);
#ifdef __cplusplus
}
#endif
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef ANYHIP_HIP5_DEVICE_PROP
#define hipDeviceProp_t hipDeviceProp_tR0000
#define hipGetDeviceProperties hipGetDevicePropertiesR0000
#define hipChooseDevice hipChooseDeviceR0000
#endif

#endif
