/* SPDX-License-Identifier: MIT */
/* The HIP runtime API as plain C: error codes, device attributes and
 * properties, handles, flags, and the prototypes of every runtime function
 * anyhip exports. Names and numeric values are HIP 6.2's, so programs that
 * print or compare them behave as on ROCm. Compiles as C99 and as C++; the C++
 * conveniences (typed hipMalloc, symbol templates, ...) are at the end. */
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>
#include <string.h> /* HIP's header brings memset/memcpy along; programs rely on it */

#include <hip/hip_version.h>
#include <hip/hip_common.h>
#include <hip/driver_types.h>
#include <hip/surface_types.h>
#include <hip/texture_types.h>

/* ---- helpers for the declarations below ---------------------------------- */

/* C++ default arguments, as HIP writes them; nothing in C. */
#ifdef __cplusplus
#define __dparm(x) = x
#else
#define __dparm(x)
#endif

/* HIP marks hipError_t [[nodiscard]] in C++17; so do we. */
#if defined(__cplusplus) && __cplusplus >= 201703L
#define AH_NODISCARD [[nodiscard]]
#else
#define AH_NODISCARD
#endif

#if defined(__GNUC__)
#define AH_DEPRECATED(msg) __attribute__((deprecated(msg)))
#define AH_EXTENSION __extension__
#else
#define AH_DEPRECATED(msg)
#define AH_EXTENSION
#endif

/* ---- errors -------------------------------------------------------------- */

/* Every value is HIP's. src/core/error_codes.def lists the same codes with
 * their names and descriptions; keep the two in step. */
typedef enum AH_NODISCARD hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2, /* deprecated alias */
  hipErrorNotInitialized = 3,
  hipErrorInitializationError = 3, /* deprecated alias */
  hipErrorDeinitialized = 4,
  hipErrorProfilerDisabled = 5,
  hipErrorProfilerNotInitialized = 6,
  hipErrorProfilerAlreadyStarted = 7,
  hipErrorProfilerAlreadyStopped = 8,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidPitchValue = 12,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorInsufficientDriver = 35,
  hipErrorMissingConfiguration = 52,
  hipErrorPriorLaunchFailure = 53,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorInvalidContext = 201,
  hipErrorContextAlreadyCurrent = 202,
  hipErrorMapFailed = 205,
  hipErrorMapBufferObjectFailed = 205, /* deprecated alias */
  hipErrorUnmapFailed = 206,
  hipErrorArrayIsMapped = 207,
  hipErrorAlreadyMapped = 208,
  hipErrorNoBinaryForGpu = 209,
  hipErrorAlreadyAcquired = 210,
  hipErrorNotMapped = 211,
  hipErrorNotMappedAsArray = 212,
  hipErrorNotMappedAsPointer = 213,
  hipErrorECCNotCorrectable = 214,
  hipErrorUnsupportedLimit = 215,
  hipErrorContextAlreadyInUse = 216,
  hipErrorPeerAccessUnsupported = 217,
  hipErrorInvalidKernelFile = 218,
  hipErrorInvalidGraphicsContext = 219,
  hipErrorInvalidSource = 300,
  hipErrorFileNotFound = 301,
  hipErrorSharedObjectSymbolNotFound = 302,
  hipErrorSharedObjectInitFailed = 303,
  hipErrorOperatingSystem = 304,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400, /* deprecated alias */
  hipErrorIllegalState = 401,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600, /* not an error: work is still running */
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchTimeOut = 702,
  hipErrorPeerAccessAlreadyEnabled = 704,
  hipErrorPeerAccessNotEnabled = 705,
  hipErrorSetOnActiveProcess = 708,
  hipErrorContextIsDestroyed = 709,
  hipErrorAssert = 710,
  hipErrorHostMemoryAlreadyRegistered = 712,
  hipErrorHostMemoryNotRegistered = 713,
  hipErrorLaunchFailure = 719,
  hipErrorCooperativeLaunchTooLarge = 720,
  /* anyhip: CUDA's cudaErrorNotPermitted (hipify's name; HIP has none): a
   * host function called a synchronizing function (docs/semantics.md). */
  hipErrorNotPermitted = 800,
  hipErrorNotSupported = 801,
  hipErrorStreamCaptureUnsupported = 900,
  hipErrorStreamCaptureInvalidated = 901,
  hipErrorStreamCaptureMerge = 902,
  hipErrorStreamCaptureUnmatched = 903,
  hipErrorStreamCaptureUnjoined = 904,
  hipErrorStreamCaptureIsolation = 905,
  hipErrorStreamCaptureImplicit = 906,
  hipErrorCapturedEvent = 907,
  hipErrorStreamCaptureWrongThread = 908,
  hipErrorGraphExecUpdateFailure = 910,
  hipErrorInvalidChannelDescriptor = 911,
  hipErrorInvalidTexture = 912,
  hipErrorUnknown = 999,
  hipErrorRuntimeMemory = 1052,
  hipErrorRuntimeOther = 1053,
  hipErrorTbd /* marks the end of the list */
} hipError_t;

/* HIP's older spellings of four codes. */
#define HIP_SUCCESS 0
#define HIP_ERROR_INVALID_VALUE 1
#define HIP_ERROR_NOT_INITIALIZED 2
#define HIP_ERROR_LAUNCH_OUT_OF_RESOURCES 3

/* hipGetProcAddress: flags and what the lookup found. */
#define HIP_GET_PROC_ADDRESS_DEFAULT 0x0
#define HIP_GET_PROC_ADDRESS_LEGACY_STREAM (1 << 0)
#define HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM (1 << 1)
typedef enum hipDriverProcAddressQueryResult {
  HIP_GET_PROC_ADDRESS_SUCCESS = 0,
  HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} hipDriverProcAddressQueryResult;

/* ---- devices ------------------------------------------------------------- */

typedef int hipDevice_t;

/* Feature bits of a device (hipDeviceProp_t.arch). */
typedef struct {
  unsigned hasGlobalInt32Atomics : 1;
  unsigned hasGlobalFloatAtomicExch : 1;
  unsigned hasSharedInt32Atomics : 1;
  unsigned hasSharedFloatAtomicExch : 1;
  unsigned hasFloatAtomicAdd : 1;
  unsigned hasGlobalInt64Atomics : 1;
  unsigned hasSharedInt64Atomics : 1;
  unsigned hasDoubles : 1;
  unsigned hasWarpVote : 1;
  unsigned hasWarpBallot : 1;
  unsigned hasWarpShuffle : 1;
  unsigned hasFunnelShift : 1;
  unsigned hasThreadFenceSystem : 1;
  unsigned hasSyncThreadsExt : 1;
  unsigned hasSurfaceFuncs : 1;
  unsigned has3dGrid : 1;
  unsigned hasDynamicParallelism : 1;
} hipDeviceArch_t;

typedef struct hipUUID_t {
  char bytes[16];
} hipUUID;

/* Device properties, in HIP 6's order (the CUDA fields first, then the
 * HIP-only ones), so code written for ROCm 6 finds every field it names. */
typedef struct hipDeviceProp_t {
  char name[256];
  hipUUID uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate; /* kHz */
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate; /* kHz */
  int memoryBusWidth;  /* bits */
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseHipArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingHipArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
  int hipReserved[32];
  /* HIP-only fields. */
  char gcnArchName[256];
  size_t maxSharedMemoryPerMultiProcessor;
  int clockInstructionRate; /* kHz of the clock()/clock64() counter */
  hipDeviceArch_t arch;
  unsigned int *hdpMemFlushCntl;
  unsigned int *hdpRegFlushCntl;
  int cooperativeMultiDeviceUnmatchedFunc;
  int cooperativeMultiDeviceUnmatchedGridDim;
  int cooperativeMultiDeviceUnmatchedBlockDim;
  int cooperativeMultiDeviceUnmatchedSharedMem;
  int isLargeBar;
  int asicRevision;
} hipDeviceProp_t;

/* HIP 6 names the versioned struct too. */
typedef hipDeviceProp_t hipDeviceProp_tR0600;

typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeCudaCompatibleBegin = 0,
  hipDeviceAttributeEccEnabled = hipDeviceAttributeCudaCompatibleBegin, /* 0 */
  hipDeviceAttributeAccessPolicyMaxWindowSize,
  hipDeviceAttributeAsyncEngineCount,
  hipDeviceAttributeCanMapHostMemory,
  hipDeviceAttributeCanUseHostPointerForRegisteredMem,
  hipDeviceAttributeClockRate, /* 5 */
  hipDeviceAttributeComputeMode,
  hipDeviceAttributeComputePreemptionSupported,
  hipDeviceAttributeConcurrentKernels,
  hipDeviceAttributeConcurrentManagedAccess,
  hipDeviceAttributeCooperativeLaunch, /* 10 */
  hipDeviceAttributeCooperativeMultiDeviceLaunch,
  hipDeviceAttributeDeviceOverlap,
  hipDeviceAttributeDirectManagedMemAccessFromHost,
  hipDeviceAttributeGlobalL1CacheSupported,
  hipDeviceAttributeHostNativeAtomicSupported, /* 15 */
  hipDeviceAttributeIntegrated,
  hipDeviceAttributeIsMultiGpuBoard,
  hipDeviceAttributeKernelExecTimeout,
  hipDeviceAttributeL2CacheSize,
  hipDeviceAttributeLocalL1CacheSupported, /* 20 */
  hipDeviceAttributeLuid,
  hipDeviceAttributeLuidDeviceNodeMask,
  hipDeviceAttributeComputeCapabilityMajor,
  hipDeviceAttributeManagedMemory,
  hipDeviceAttributeMaxBlocksPerMultiProcessor, /* 25 */
  hipDeviceAttributeMaxBlockDimX,
  hipDeviceAttributeMaxBlockDimY,
  hipDeviceAttributeMaxBlockDimZ,
  hipDeviceAttributeMaxGridDimX,
  hipDeviceAttributeMaxGridDimY, /* 30 */
  hipDeviceAttributeMaxGridDimZ,
  hipDeviceAttributeMaxSurface1D,
  hipDeviceAttributeMaxSurface1DLayered,
  hipDeviceAttributeMaxSurface2D,
  hipDeviceAttributeMaxSurface2DLayered, /* 35 */
  hipDeviceAttributeMaxSurface3D,
  hipDeviceAttributeMaxSurfaceCubemap,
  hipDeviceAttributeMaxSurfaceCubemapLayered,
  hipDeviceAttributeMaxTexture1DWidth,
  hipDeviceAttributeMaxTexture1DLayered, /* 40 */
  hipDeviceAttributeMaxTexture1DLinear,
  hipDeviceAttributeMaxTexture1DMipmap,
  hipDeviceAttributeMaxTexture2DWidth,
  hipDeviceAttributeMaxTexture2DHeight,
  hipDeviceAttributeMaxTexture2DGather, /* 45 */
  hipDeviceAttributeMaxTexture2DLayered,
  hipDeviceAttributeMaxTexture2DLinear,
  hipDeviceAttributeMaxTexture2DMipmap,
  hipDeviceAttributeMaxTexture3DWidth,
  hipDeviceAttributeMaxTexture3DHeight, /* 50 */
  hipDeviceAttributeMaxTexture3DDepth,
  hipDeviceAttributeMaxTexture3DAlt,
  hipDeviceAttributeMaxTextureCubemap,
  hipDeviceAttributeMaxTextureCubemapLayered,
  hipDeviceAttributeMaxThreadsDim, /* 55 */
  hipDeviceAttributeMaxThreadsPerBlock,
  hipDeviceAttributeMaxThreadsPerMultiProcessor,
  hipDeviceAttributeMaxPitch,
  hipDeviceAttributeMemoryBusWidth,
  hipDeviceAttributeMemoryClockRate, /* 60 */
  hipDeviceAttributeComputeCapabilityMinor,
  hipDeviceAttributeMultiGpuBoardGroupID,
  hipDeviceAttributeMultiprocessorCount,
  hipDeviceAttributeUnused1, /* was hipDeviceAttributeName */
  hipDeviceAttributePageableMemoryAccess, /* 65 */
  hipDeviceAttributePageableMemoryAccessUsesHostPageTables,
  hipDeviceAttributePciBusId,
  hipDeviceAttributePciDeviceId,
  hipDeviceAttributePciDomainId,
  hipDeviceAttributePciDomainID = hipDeviceAttributePciDomainId, /* 69, older spelling */
  hipDeviceAttributePersistingL2CacheMaxSize, /* 70 */
  hipDeviceAttributeMaxRegistersPerBlock,
  hipDeviceAttributeMaxRegistersPerMultiprocessor,
  hipDeviceAttributeReservedSharedMemPerBlock,
  hipDeviceAttributeMaxSharedMemoryPerBlock,
  hipDeviceAttributeSharedMemPerBlockOptin, /* 75 */
  hipDeviceAttributeSharedMemPerMultiprocessor,
  hipDeviceAttributeSingleToDoublePrecisionPerfRatio,
  hipDeviceAttributeStreamPrioritiesSupported,
  hipDeviceAttributeSurfaceAlignment,
  hipDeviceAttributeTccDriver, /* 80 */
  hipDeviceAttributeTextureAlignment,
  hipDeviceAttributeTexturePitchAlignment,
  hipDeviceAttributeTotalConstantMemory,
  hipDeviceAttributeTotalGlobalMem,
  hipDeviceAttributeUnifiedAddressing, /* 85 */
  hipDeviceAttributeUnused2, /* was hipDeviceAttributeUuid */
  hipDeviceAttributeWarpSize,
  hipDeviceAttributeMemoryPoolsSupported,
  hipDeviceAttributeVirtualMemoryManagementSupported,
  hipDeviceAttributeHostRegisterSupported, /* 90 */
  hipDeviceAttributeMemoryPoolSupportedHandleTypes,
  hipDeviceAttributeHostNumaId,

  hipDeviceAttributeCudaCompatibleEnd = 9999,
  hipDeviceAttributeAmdSpecificBegin = 10000,

  hipDeviceAttributeClockInstructionRate = hipDeviceAttributeAmdSpecificBegin, /* 10000 */
  hipDeviceAttributeUnused3, /* was hipDeviceAttributeArch */
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
  hipDeviceAttributeUnused4, /* was hipDeviceAttributeGcnArch */
  hipDeviceAttributeUnused5, /* was hipDeviceAttributeGcnArchName */
  hipDeviceAttributeHdpMemFlushCntl, /* 10005 */
  hipDeviceAttributeHdpRegFlushCntl,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem, /* 10010 */
  hipDeviceAttributeIsLargeBar,
  hipDeviceAttributeAsicRevision,
  hipDeviceAttributeCanUseStreamWaitValue,
  hipDeviceAttributeImageSupport,
  hipDeviceAttributePhysicalMultiProcessorCount, /* 10015 */
  hipDeviceAttributeFineGrainSupport,
  hipDeviceAttributeWallClockRate, /* kHz */
  hipDeviceAttributeNumberOfXccs,
  hipDeviceAttributeMaxAvailableVgprsPerThread,
  hipDeviceAttributePciChipId, /* 10020 */

  hipDeviceAttributeAmdSpecificEnd = 19999,
  hipDeviceAttributeVendorSpecificBegin = 20000,

  /* HIP 5 spellings of the attributes that HIP 6 retired (same numbers). */
  hipDeviceAttributeName = 64,
  hipDeviceAttributeUuid = 86,
  hipDeviceAttributeArch = 10001,
  hipDeviceAttributeGcnArch = 10003,
  hipDeviceAttributeGcnArchName = 10004
} hipDeviceAttribute_t;

enum hipComputeMode {
  hipComputeModeDefault = 0,
  hipComputeModeExclusive = 1,
  hipComputeModeProhibited = 2,
  hipComputeModeExclusiveProcess = 3
};

typedef enum hipDeviceP2PAttr {
  hipDevP2PAttrPerformanceRank = 0,
  hipDevP2PAttrAccessSupported,
  hipDevP2PAttrNativeAtomicSupported,
  hipDevP2PAttrHipArrayAccessSupported
} hipDeviceP2PAttr;

/* HIP declares the limit enum without a typedef; the typedef lets C code write
 * hipLimit_t as C++ code can. */
enum hipLimit_t {
  hipLimitStackSize = 0x0,      /* bytes of stack per GPU thread */
  hipLimitPrintfFifoSize = 0x1, /* bytes of the device printf buffer */
  hipLimitMallocHeapSize = 0x2, /* bytes of the device malloc heap */
  hipLimitRange
};
typedef enum hipLimit_t hipLimit_t;

typedef enum hipFuncCache_t {
  hipFuncCachePreferNone,
  hipFuncCachePreferShared,
  hipFuncCachePreferL1,
  hipFuncCachePreferEqual
} hipFuncCache_t;

typedef enum hipSharedMemConfig {
  hipSharedMemBankSizeDefault,
  hipSharedMemBankSizeFourByte,
  hipSharedMemBankSizeEightByte
} hipSharedMemConfig;

typedef enum hipFuncAttribute {
  hipFuncAttributeMaxDynamicSharedMemorySize = 8,
  hipFuncAttributePreferredSharedMemoryCarveout = 9,
  hipFuncAttributeMax
} hipFuncAttribute;

typedef struct hipFuncAttributes {
  int binaryVersion;
  int cacheModeCA;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxDynamicSharedSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int preferredShmemCarveout;
  int ptxVersion;
  size_t sharedSizeBytes;
} hipFuncAttributes;

/* ---- memory -------------------------------------------------------------- */

/* HIP 6 values (HIP 5 numbered Host 0, Device 1, Array 2, Unified 3). */
typedef enum hipMemoryType {
  hipMemoryTypeUnregistered = 0,
  hipMemoryTypeHost = 1,
  hipMemoryTypeDevice = 2,
  hipMemoryTypeManaged = 3,
  hipMemoryTypeArray = 10,
  hipMemoryTypeUnified = 11
} hipMemoryType;

/* hipPointerGetAttributes' answer. HIP 6 calls the first field `type`, HIP 5
 * `memoryType`; both names reach the same storage. */
typedef struct hipPointerAttribute_t {
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || \
    defined(__GNUC__)
  AH_EXTENSION union {
    enum hipMemoryType type;
    enum hipMemoryType memoryType;
  };
#else
  enum hipMemoryType type;
#endif
  int device;
  void *devicePointer;
  void *hostPointer;
  int isManaged;
  unsigned allocationFlags; /* the flags the memory was allocated with */
} hipPointerAttribute_t;

typedef enum hipMemoryAdvise {
  hipMemAdviseSetReadMostly = 1,
  hipMemAdviseUnsetReadMostly = 2,
  hipMemAdviseSetPreferredLocation = 3,
  hipMemAdviseUnsetPreferredLocation = 4,
  hipMemAdviseSetAccessedBy = 5,
  hipMemAdviseUnsetAccessedBy = 6,
  hipMemAdviseSetCoarseGrain = 100,
  hipMemAdviseUnsetCoarseGrain = 101
} hipMemoryAdvise;

typedef enum hipMemRangeAttribute {
  hipMemRangeAttributeReadMostly = 1,
  hipMemRangeAttributePreferredLocation = 2,
  hipMemRangeAttributeAccessedBy = 3,
  hipMemRangeAttributeLastPrefetchLocation = 4,
  hipMemRangeAttributeCoherencyMode = 100
} hipMemRangeAttribute;

/* hipHostMalloc / hipHostAlloc flags. */
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocUncached 0x10000000
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipHostAllocDefault hipHostMallocDefault
#define hipHostAllocPortable hipHostMallocPortable
#define hipHostAllocMapped hipHostMallocMapped
#define hipHostAllocWriteCombined hipHostMallocWriteCombined
#define hipHostAllocUncached hipHostMallocUncached

/* hipMallocManaged / hipStreamAttachMemAsync flags. */
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04

/* hipExtMallocWithFlags flags. */
#define hipDeviceMallocDefault 0x0
#define hipDeviceMallocFinegrained 0x1
#define hipMallocSignalMemory 0x2
#define hipDeviceMallocUncached 0x3
#define hipDeviceMallocContiguous 0x4

/* hipHostRegister flags. */
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4
#define hipHostRegisterReadOnly 0x08
#define hipExtHostRegisterCoarseGrained 0x8
#define hipExtHostRegisterUncached 0x80000000

/* ---- device flags -------------------------------------------------------- */

#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceScheduleMask 0x7
#define hipDeviceMapHost 0x8
#define hipDeviceLmemResizeToMax 0x10

#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)

/* ---- streams and events -------------------------------------------------- */

typedef struct ihipCtx_t *hipCtx_t;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipMemPoolHandle_t *hipMemPool_t;

/* The legacy null stream, and the calling thread's own default stream. */
#define hipStreamLegacy ((hipStream_t)1)
#define hipStreamPerThread ((hipStream_t)2)

#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01

#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipEventDisableSystemFence 0x20000000
#define hipEventReleaseToDevice 0x40000000
#define hipEventReleaseToSystem 0x80000000

/* hipStreamWaitValue32/64 comparisons. */
#define hipStreamWaitValueGte 0x0
#define hipStreamWaitValueEq 0x1
#define hipStreamWaitValueAnd 0x2
#define hipStreamWaitValueNor 0x3

#define hipEventRecordDefault 0x00
#define hipEventRecordExternal 0x01
#define hipEventWaitDefault 0x00
#define hipEventWaitExternal 0x01

typedef void (*hipHostFn_t)(void *userData);
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void *userData);

/* ---- launches ------------------------------------------------------------ */

/* Grid and block sizes. nvcc's NVIDIA pass brings CUDA's dim3 (same layout,
 * same constructor), so we define ours only elsewhere. */
#if !defined(__CUDACC__)
typedef struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
#ifdef __cplusplus
  constexpr dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
#endif
} dim3;
#endif

typedef struct hipLaunchParams_t {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  void **args;
  size_t sharedMem;
  hipStream_t stream;
} hipLaunchParams;

/* hipModuleLaunchKernel's `extra` markers. */
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)

#define hipCooperativeLaunchMultiDeviceNoPreSync 0x01
#define hipCooperativeLaunchMultiDeviceNoPostSync 0x02
#define hipOccupancyDefault 0x00

#define hipIpcMemLazyEnablePeerAccess 0x01

/* The kernel signature ABI between compiled HIP code and the runtime. */
#include <hip/anyhip/common/launch_abi.h>

/* ---- functions ----------------------------------------------------------- */

/* Declared with default visibility so that the library, built with
 * -fvisibility=hidden, exports every function it defines from this list. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Initialization and version. */
hipError_t hipInit(unsigned int flags);
hipError_t hipDriverGetVersion(int *driverVersion);
hipError_t hipRuntimeGetVersion(int *runtimeVersion);

/* Devices. */
hipError_t hipGetDeviceCount(int *count);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId);
hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int deviceId);
hipError_t hipDeviceGet(hipDevice_t *device, int ordinal);
hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device);
hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device);
hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device);
hipError_t hipDeviceGetUuid(hipUUID *uuid, hipDevice_t device);
hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len, int device);
hipError_t hipDeviceGetByPCIBusId(int *device, const char *pciBusId);
hipError_t hipChooseDevice(int *device, const hipDeviceProp_t *prop);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipSetDeviceFlags(unsigned flags);
hipError_t hipGetDeviceFlags(unsigned int *flags);
hipError_t hipDeviceGetLimit(size_t *pValue, enum hipLimit_t limit);
hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value);
hipError_t hipDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *cacheConfig);
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cacheConfig);
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *pConfig);
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId);
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags);
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId);

/* Contexts (deprecated in HIP, still used): one context per device, its primary context.
 * hipCtxCreate and hipCtxPushCurrent push it on the calling thread's context stack and make
 * its device current; popping makes the next one's device current (docs/semantics.md). */
hipError_t hipCtxCreate(hipCtx_t *ctx, unsigned int flags, hipDevice_t device);
hipError_t hipCtxDestroy(hipCtx_t ctx);
hipError_t hipCtxPushCurrent(hipCtx_t ctx);
hipError_t hipCtxPopCurrent(hipCtx_t *ctx);
hipError_t hipCtxGetCurrent(hipCtx_t *ctx);
hipError_t hipCtxSetCurrent(hipCtx_t ctx);
hipError_t hipCtxGetDevice(hipDevice_t *device);
hipError_t hipCtxGetFlags(unsigned int *flags);
hipError_t hipCtxGetApiVersion(hipCtx_t ctx, unsigned int *apiVersion);
hipError_t hipCtxSynchronize(void);
hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *pctx, hipDevice_t dev);
hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev);
hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int *flags, int *active);
hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev);
hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags);

/* Errors. These four never change the thread's last error themselves. */
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorName(hipError_t hip_error);
const char *hipGetErrorString(hipError_t hipError);
/* The driver-style pair: hipErrorInvalidValue for a NULL output or a code HIP does not know. */
hipError_t hipDrvGetErrorName(hipError_t hipError, const char **errorString);
hipError_t hipDrvGetErrorString(hipError_t hipError, const char **errorString);
/* The address of a HIP entry point by name (hipVersion: the caller's HIP_VERSION). */
hipError_t hipGetProcAddress(const char *symbol, void **pfn, int hipVersion, uint64_t flags,
                             hipDriverProcAddressQueryResult *symbolStatus);

/* Memory. */
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes, unsigned int flags);
hipError_t hipMallocManaged(void **dev_ptr, size_t size,
                            unsigned int flags __dparm(hipMemAttachGlobal));
hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch, size_t widthInBytes,
                            size_t height, unsigned int elementSizeBytes);
hipError_t hipMemGetInfo(size_t *free, size_t *total);
hipError_t hipMemPtrGetInfo(void *ptr, size_t *size);
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipHostFree(void *ptr);
hipError_t hipFreeHost(void *ptr);
hipError_t hipMallocHost(void **ptr, size_t size) AH_DEPRECATED("use hipHostMalloc");
hipError_t hipMemAllocHost(void **ptr, size_t size) AH_DEPRECATED("use hipHostMalloc");
hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags);
hipError_t hipHostUnregister(void *hostPtr);
hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags);
hipError_t hipHostGetFlags(unsigned int *flagsPtr, void *hostPtr);
hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr);
hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr);

/* Copies and sets. */
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                          hipStream_t stream __dparm(0));
hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                               hipStream_t stream);
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void *src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const void *src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                            size_t width, size_t height, hipMemcpyKind kind,
                            hipStream_t stream __dparm(0));
hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                         size_t sizeBytes);
hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                              size_t sizeBytes, hipStream_t stream __dparm(0));
hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t sizeBytes,
                             size_t offset __dparm(0),
                             hipMemcpyKind kind __dparm(hipMemcpyHostToDevice));
hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t sizeBytes,
                               size_t offset __dparm(0),
                               hipMemcpyKind kind __dparm(hipMemcpyDeviceToHost));
hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t sizeBytes,
                                  size_t offset, hipMemcpyKind kind,
                                  hipStream_t stream __dparm(0));
hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t sizeBytes,
                                    size_t offset, hipMemcpyKind kind,
                                    hipStream_t stream __dparm(0));
hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol);
hipError_t hipGetSymbolSize(size_t *size, const void *symbol);
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream __dparm(0));
hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count);
hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count);
hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count);
hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count,
                            hipStream_t stream __dparm(0));
hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count,
                             hipStream_t stream __dparm(0));
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                             hipStream_t stream __dparm(0));
hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height);
hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width, size_t height,
                            hipStream_t stream __dparm(0));

/* 3D memory (src/api/hip_memcpy3d.c) and the driver-style 2D descriptor.
 * Member types: hipMemoryTypeHost (srcHost/dstHost), hipMemoryTypeDevice,
 * hipMemoryTypeManaged or hipMemoryTypeUnified (srcDevice/dstDevice),
 * hipMemoryTypeArray (srcArray/dstArray, x in bytes). */
typedef struct hip_Memcpy2D {
  size_t srcXInBytes;
  size_t srcY;
  hipMemoryType srcMemoryType;
  const void *srcHost;
  hipDeviceptr_t srcDevice;
  hipArray_t srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  hipMemoryType dstMemoryType;
  void *dstHost;
  hipDeviceptr_t dstDevice;
  hipArray_t dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
} hip_Memcpy2D;

hipError_t hipMalloc3D(hipPitchedPtr *pitchedDevPtr, hipExtent extent);
hipError_t hipMemcpy3D(const struct hipMemcpy3DParms *p);
hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms *p, hipStream_t stream __dparm(0));
hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent);
hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent,
                            hipStream_t stream __dparm(0));
hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy);
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy, hipStream_t stream __dparm(0));
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *pCopy);

/* The driver-style 3D copy: like hip_Memcpy2D, with a z position and slices of srcHeight /
 * dstHeight rows. */
typedef struct HIP_MEMCPY3D {
  size_t srcXInBytes;
  size_t srcY;
  size_t srcZ;
  size_t srcLOD;
  hipMemoryType srcMemoryType;
  const void *srcHost;
  hipDeviceptr_t srcDevice;
  hipArray_t srcArray;
  size_t srcPitch;
  size_t srcHeight;
  size_t dstXInBytes;
  size_t dstY;
  size_t dstZ;
  size_t dstLOD;
  hipMemoryType dstMemoryType;
  void *dstHost;
  hipDeviceptr_t dstDevice;
  hipArray_t dstArray;
  size_t dstPitch;
  size_t dstHeight;
  size_t WidthInBytes;
  size_t Height;
  size_t Depth;
} HIP_MEMCPY3D;
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *pCopy);
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *pCopy, hipStream_t stream __dparm(0));

/* Arrays and mipmapped arrays (src/api/hip_array.c, docs/textures.md): 1D, 2D, 3D, layered
 * and cubemap arrays of 1, 2 or 4 channels, and every copy to and from them. */
#define hipArrayDefault 0x00
#define hipArrayLayered 0x01
#define hipArraySurfaceLoadStore 0x02
#define hipArrayCubemap 0x04
#define hipArrayTextureGather 0x08
hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f);
hipError_t hipMallocArray(hipArray_t *array, const hipChannelFormatDesc *desc, size_t width,
                          size_t height __dparm(0), unsigned int flags __dparm(hipArrayDefault));
hipError_t hipMalloc3DArray(hipArray_t *array, const struct hipChannelFormatDesc *desc,
                            struct hipExtent extent, unsigned int flags);
hipError_t hipArrayCreate(hipArray_t *pHandle, const HIP_ARRAY_DESCRIPTOR *pAllocateArray);
hipError_t hipArray3DCreate(hipArray_t *array, const HIP_ARRAY3D_DESCRIPTOR *pAllocateArray);
hipError_t hipFreeArray(hipArray_t array);
hipError_t hipArrayDestroy(hipArray_t array);
hipError_t hipArrayGetInfo(hipChannelFormatDesc *desc, hipExtent *extent, unsigned int *flags,
                           hipArray_t array);
hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR *pArrayDescriptor, hipArray_t array);
hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR *pArrayDescriptor, hipArray_t array);
hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *mipmappedArray,
                                   const struct hipChannelFormatDesc *desc,
                                   struct hipExtent extent, unsigned int numLevels,
                                   unsigned int flags __dparm(0));
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmappedArray);
hipError_t hipGetMipmappedArrayLevel(hipArray_t *levelArray,
                                     hipMipmappedArray_const_t mipmappedArray,
                                     unsigned int level);
hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t spitch, size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t spitch, size_t width, size_t height,
                                   hipMemcpyKind kind, hipStream_t stream __dparm(0));
hipError_t hipMemcpy2DFromArray(void *dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArrayAsync(void *dst, size_t dpitch, hipArray_const_t src,
                                     size_t wOffset, size_t hOffset, size_t width, size_t height,
                                     hipMemcpyKind kind, hipStream_t stream __dparm(0));
hipError_t hipMemcpyToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                            size_t count, hipMemcpyKind kind);
hipError_t hipMemcpyFromArray(void *dst, hipArray_const_t srcArray, size_t wOffset,
                              size_t hOffset, size_t count, hipMemcpyKind kind);
hipError_t hipMemcpyAtoH(void *dst, hipArray_t srcArray, size_t srcOffset, size_t count);
hipError_t hipMemcpyHtoA(hipArray_t dstArray, size_t dstOffset, const void *srcHost,
                         size_t count);
hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   hipArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpyAtoA(hipArray_t dstArray, size_t dstOffset, hipArray_t srcArray,
                         size_t srcOffset, size_t ByteCount);
hipError_t hipMemcpyAtoD(hipDeviceptr_t dstDevice, hipArray_t srcArray, size_t srcOffset,
                         size_t ByteCount);
hipError_t hipMemcpyDtoA(hipArray_t dstArray, size_t dstOffset, hipDeviceptr_t srcDevice,
                         size_t ByteCount);
hipError_t hipMemcpyAtoHAsync(void *dstHost, hipArray_t srcArray, size_t srcOffset,
                              size_t ByteCount, hipStream_t stream __dparm(0));
hipError_t hipMemcpyHtoAAsync(hipArray_t dstArray, size_t dstOffset, const void *srcHost,
                              size_t ByteCount, hipStream_t stream __dparm(0));
hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t *pHandle,
                                   HIP_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                   unsigned int numMipmapLevels);
hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t hMipmappedArray);
hipError_t hipMipmappedArrayGetLevel(hipArray_t *pLevelArray, hipMipmappedArray_t hMipMappedArray,
                                     unsigned int level);
hipError_t hipGetChannelDesc(hipChannelFormatDesc *desc, hipArray_const_t array);

/* Texture and surface objects (src/api/hip_texture.c, docs/textures.md). */
hipError_t hipCreateTextureObject(hipTextureObject_t *pTexObject, const hipResourceDesc *pResDesc,
                                  const hipTextureDesc *pTexDesc,
                                  const struct hipResourceViewDesc *pResViewDesc);
hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject);
hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc *pResDesc,
                                           hipTextureObject_t textureObject);
hipError_t hipGetTextureObjectResourceViewDesc(struct hipResourceViewDesc *pResViewDesc,
                                               hipTextureObject_t textureObject);
hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc *pTexDesc,
                                          hipTextureObject_t textureObject);
hipError_t hipTexObjectCreate(hipTextureObject_t *pTexObject, const HIP_RESOURCE_DESC *pResDesc,
                              const HIP_TEXTURE_DESC *pTexDesc,
                              const HIP_RESOURCE_VIEW_DESC *pResViewDesc);
hipError_t hipTexObjectDestroy(hipTextureObject_t texObject);
hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC *pResDesc, hipTextureObject_t texObject);
hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC *pResViewDesc,
                                           hipTextureObject_t texObject);
hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC *pTexDesc, hipTextureObject_t texObject);
hipError_t hipCreateSurfaceObject(hipSurfaceObject_t *pSurfObject,
                                  const hipResourceDesc *pResDesc);
hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surfaceObject);

/* Streams. */
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int priority);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                              unsigned int flags __dparm(0));
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags);
hipError_t hipStreamGetPriority(hipStream_t stream, int *priority);
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device);
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData);
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
                                void *userData, unsigned int flags);

/* Events. */
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream __dparm(NULL));
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventDestroy(hipEvent_t event);

/* Kernel launches. */
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                           void **args, size_t sharedMemBytes __dparm(0),
                           hipStream_t stream __dparm(0));
/* Every block resident at once, so that the kernel may use grid.sync()
 * (hip/hip_cooperative_groups.h). */
hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDimX,
                                      void **kernelParams, unsigned int sharedMemBytes,
                                      hipStream_t stream);
/* The older launch interface: configure, push each argument, launch. */
hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0),
                            hipStream_t stream __dparm(0));
hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset);
hipError_t hipLaunchByPtr(const void *func);
/* HIP-clang's launch internals, which its <<<>>> calls: push a configuration
 * (as hipConfigureCall), and pop the innermost one back. */
hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0),
                                      hipStream_t stream __dparm(0));
hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                     hipStream_t *stream);
hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func);
hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value);
hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t config);
hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig config);

/* ---- modules (src/api/hip_module.c; docs/modules.md) ----------------------
 * A code object here is a shared library made by `hipcc --genco`; its
 * `extern "C"` kernels are found by name. hipModule_t and hipFunction_t are
 * declared with the streams above. */
typedef enum hipFunction_attribute {
  HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  HIP_FUNC_ATTRIBUTE_NUM_REGS = 4,
  HIP_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  HIP_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
  HIP_FUNC_ATTRIBUTE_MAX
} hipFunction_attribute;

/* hipModuleLoadDataEx's options: accepted and ignored (nothing is compiled
 * at load time). */
typedef enum hipJitOption {
  hipJitOptionMaxRegisters = 0,
  hipJitOptionThreadsPerBlock,
  hipJitOptionWallTime,
  hipJitOptionInfoLogBuffer,
  hipJitOptionInfoLogBufferSizeBytes,
  hipJitOptionErrorLogBuffer,
  hipJitOptionErrorLogBufferSizeBytes,
  hipJitOptionOptimizationLevel,
  hipJitOptionTargetFromContext,
  hipJitOptionTarget,
  hipJitOptionFallbackStrategy,
  hipJitOptionGenerateDebugInfo,
  hipJitOptionLogVerbose,
  hipJitOptionGenerateLineInfo,
  hipJitOptionCacheMode,
  hipJitOptionSm3xOpt,
  hipJitOptionFastCompile,
  hipJitOptionNumOptions
} hipJitOption;

hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions,
                               hipJitOption *options, void **optionValues);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname);
/* A function handle for a kernel of the program itself (its host address). */
hipError_t hipGetFuncBySymbol(hipFunction_t *functionPtr, const void *symbolPtr);
hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod,
                              const char *name);
/* A module's texture reference (`texture<T, dim, mode> name;`), a host object:
 * none is bound or fetched through on anyhip (docs/textures.md). */
hipError_t hipModuleGetTexRef(textureReference **texRef, hipModule_t hmod, const char *name);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX,
                                 unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, hipStream_t stream,
                                 void **kernelParams, void **extra);
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX,
                                            unsigned int gridDimY, unsigned int gridDimZ,
                                            unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes,
                                            hipStream_t stream, void **kernelParams);
hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib, hipFunction_t hfunc);
hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, hipFunction_t f,
                                                   size_t dynSharedMemPerBlk, int blockSizeLimit);
hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize,
                                                            hipFunction_t f,
                                                            size_t dynSharedMemPerBlk,
                                                            int blockSizeLimit, unsigned int flags);
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, hipFunction_t f,
                                                              int blockSize,
                                                              size_t dynSharedMemPerBlk);
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                       hipFunction_t f,
                                                                       int blockSize,
                                                                       size_t dynSharedMemPerBlk,
                                                                       unsigned int flags);

/* ---- occupancy, managed-memory hints, single pointer attributes ---------
 * (src/api/hip_occupancy.c, src/api/hip_managed.c; docs/occupancy.md and
 * docs/memory.md say what each does on each device.) */
#define hipOccupancyDisableCachingOverride 0x01

/* What hipMemRangeGetAttribute(hipMemRangeAttributeCoherencyMode) returns. */
typedef enum hipMemRangeCoherencyMode {
  hipMemRangeCoherencyModeFineGrain = 0,
  hipMemRangeCoherencyModeCoarseGrain = 1,
  hipMemRangeCoherencyModeIndeterminate = 2
} hipMemRangeCoherencyMode;

/* hipPointerGetAttribute's attributes (CUDA's CUpointer_attribute numbers). */
typedef enum hipPointer_attribute {
  HIP_POINTER_ATTRIBUTE_CONTEXT = 1,
  HIP_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
  HIP_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
  HIP_POINTER_ATTRIBUTE_HOST_POINTER = 4,
  HIP_POINTER_ATTRIBUTE_P2P_TOKENS = 5,
  HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6,
  HIP_POINTER_ATTRIBUTE_BUFFER_ID = 7,
  HIP_POINTER_ATTRIBUTE_IS_MANAGED = 8,
  HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
  HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE = 10,
  HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
  HIP_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
  HIP_POINTER_ATTRIBUTE_MAPPED = 13,
  HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES = 14,
  HIP_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
  HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS = 16,
  HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE = 17
} hipPointer_attribute;

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *f,
                                                        int blockSize, size_t dynSharedMemPerBlk);
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *f, int blockSize, size_t dynSharedMemPerBlk,
    unsigned int flags __dparm(hipOccupancyDefault));
hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, const void *f,
                                             size_t dynSharedMemPerBlk, int blockSizeLimit);

hipError_t hipMemPrefetchAsync(const void *dev_ptr, size_t count, int device,
                               hipStream_t stream __dparm(0));
hipError_t hipMemAdvise(const void *dev_ptr, size_t count, hipMemoryAdvise advice, int device);
hipError_t hipMemRangeGetAttribute(void *data, size_t data_size, hipMemRangeAttribute attribute,
                                   const void *dev_ptr, size_t count);
hipError_t hipMemRangeGetAttributes(void **data, size_t *data_sizes,
                                    hipMemRangeAttribute *attributes, size_t num_attributes,
                                    const void *dev_ptr, size_t count);
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *dev_ptr, size_t length __dparm(0),
                                   unsigned int flags __dparm(hipMemAttachSingle));
hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t ptr);
/* anyhip's ABI for the C++ hipOccupancyMaxPotentialBlockSize* templates
 * (hip_runtime.h): smem(ctx, b), when not NULL, gives the dynamic shared
 * memory a block of b threads needs; else every block uses dynSharedMemPerBlk. */
hipError_t __ahOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, const void *f,
                                              size_t (*smem)(void *ctx, int blockSize),
                                              void *ctx, size_t dynSharedMemPerBlk,
                                              int blockSizeLimit, unsigned int flags);

/* anyhip's launch ABI, used by hipcc-generated code and hip/anyhip/common/
 * launch.hpp: launch `fn` (a kernel's host address) whose parameters `sig`
 * describes, with args[i] pointing at argument i; and remember a kernel's
 * signature so that hipLaunchKernel can find it. */
hipError_t __ahLaunchKernel(const void *fn, const struct ahKernelSig *sig, dim3 grid, dim3 block,
                            size_t shmem, hipStream_t stream, void **args);
hipError_t __ahLaunchCooperativeKernel(const void *fn, const struct ahKernelSig *sig, dim3 grid,
                                       dim3 block, size_t shmem, hipStream_t stream, void **args);
void __ahRegisterKernel(const void *fn, const struct ahKernelSig *sig);
/* ... and of a kernel declared with __launch_bounds__(max_threads, ...): a
 * launch of a larger block fails. */
void __ahRegisterKernelBounds(const void *fn, const struct ahKernelSig *sig, unsigned max_threads);
/* ... and that its body is empty: the CPU device runs no block of it. */
void __ahRegisterKernelEmpty(const void *fn);
/* hipcc registers each namespace-scope __device__/__constant__/__managed__
 * variable (address, size, mangled name), so stripped programs find them. */
void __ahRegisterVariable(const void *var, size_t size, const char *name);
void __ahRegisterManagedVariable(const void *var, size_t size, const char *name);

#ifdef __cplusplus
}
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

/* ---- stream-ordered allocator and memory pools (HIP 6.2 values) ---------- */

typedef enum hipMemPoolAttr {
  hipMemPoolReuseFollowEventDependencies = 0x1,   /* int */
  hipMemPoolReuseAllowOpportunistic = 0x2,        /* int */
  hipMemPoolReuseAllowInternalDependencies = 0x3, /* int */
  hipMemPoolAttrReleaseThreshold = 0x4,           /* uint64_t */
  hipMemPoolAttrReservedMemCurrent = 0x5,         /* uint64_t, read only */
  hipMemPoolAttrReservedMemHigh = 0x6,            /* uint64_t, set to 0 to reset */
  hipMemPoolAttrUsedMemCurrent = 0x7,             /* uint64_t, read only */
  hipMemPoolAttrUsedMemHigh = 0x8                 /* uint64_t, set to 0 to reset */
} hipMemPoolAttr;

typedef enum hipMemLocationType {
  hipMemLocationTypeInvalid = 0,
  hipMemLocationTypeDevice = 1 /* id is a HIP device ordinal */
} hipMemLocationType;

typedef struct hipMemLocation {
  hipMemLocationType type;
  int id;
} hipMemLocation;

typedef enum hipMemAccessFlags {
  hipMemAccessFlagsProtNone = 0,
  hipMemAccessFlagsProtRead = 1,
  hipMemAccessFlagsProtReadWrite = 3
} hipMemAccessFlags;

typedef struct hipMemAccessDesc {
  hipMemLocation location;
  hipMemAccessFlags flags;
} hipMemAccessDesc;

typedef enum hipMemAllocationType {
  hipMemAllocationTypeInvalid = 0x0,
  hipMemAllocationTypePinned = 0x1,
  hipMemAllocationTypeMax = 0x7FFFFFFF
} hipMemAllocationType;

typedef enum hipMemAllocationHandleType {
  hipMemHandleTypeNone = 0x0,
  hipMemHandleTypePosixFileDescriptor = 0x1,
  hipMemHandleTypeWin32 = 0x2,
  hipMemHandleTypeWin32Kmt = 0x4
} hipMemAllocationHandleType;

typedef struct hipMemPoolProps {
  hipMemAllocationType allocType; /* hipMemAllocationTypePinned */
  hipMemAllocationHandleType handleTypes;
  hipMemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize; /* the most the pool may hold, in bytes; 0: no limit of its own */
  unsigned char reserved[56];
} hipMemPoolProps;

typedef struct hipMemPoolPtrExportData {
  unsigned char reserved[64];
} hipMemPoolPtrExportData;

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#ifdef __cplusplus
extern "C" {
#endif
hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream);
hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream);
hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size, hipMemPool_t mem_pool,
                                  hipStream_t stream);
hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *pool_props);
hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool);
hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold);
hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc *desc_list,
                               size_t count);
hipError_t hipMemPoolGetAccess(hipMemAccessFlags *flags, hipMemPool_t mem_pool,
                               hipMemLocation *location);
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device);
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool);
hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device);
#ifdef __cplusplus
}
#endif

/* ---- graphs and stream capture (src/api/hip_graph.c; HIP 6.2 values) ---- */
typedef struct ihipGraph *hipGraph_t;
typedef struct hipGraphNode *hipGraphNode_t;
typedef struct hipGraphExec *hipGraphExec_t;
typedef enum hipGraphNodeType {
  hipGraphNodeTypeKernel = 0,
  hipGraphNodeTypeMemcpy = 1,
  hipGraphNodeTypeMemset = 2,
  hipGraphNodeTypeHost = 3,
  hipGraphNodeTypeGraph = 4,
  hipGraphNodeTypeEmpty = 5,
  hipGraphNodeTypeWaitEvent = 6,
  hipGraphNodeTypeEventRecord = 7,
  hipGraphNodeTypeExtSemaphoreSignal = 8,
  hipGraphNodeTypeExtSemaphoreWait = 9,
  hipGraphNodeTypeMemAlloc = 10,
  hipGraphNodeTypeMemFree = 11,
  hipGraphNodeTypeMemcpyFromSymbol = 12,
  hipGraphNodeTypeMemcpyToSymbol = 13,
  hipGraphNodeTypeConditional = 14, /* declared only: no such nodes are made */
  hipGraphNodeTypeBatchMemOp = 15,
  hipGraphNodeTypeCount
} hipGraphNodeType;
typedef struct hipKernelNodeParams {
  dim3 blockDim;
  void **extra;
  void *func;
  dim3 gridDim;
  void **kernelParams;
  unsigned int sharedMemBytes;
} hipKernelNodeParams;
typedef struct hipMemsetParams {
  void *dst;
  unsigned int elementSize;
  size_t height;
  size_t pitch;
  unsigned int value;
  size_t width;
} hipMemsetParams;
typedef struct hipHostNodeParams {
  hipHostFn_t fn;
  void *userData;
} hipHostNodeParams;
typedef enum hipStreamCaptureMode {
  hipStreamCaptureModeGlobal = 0,
  hipStreamCaptureModeThreadLocal = 1,
  hipStreamCaptureModeRelaxed = 2
} hipStreamCaptureMode;
typedef enum hipStreamCaptureStatus {
  hipStreamCaptureStatusNone = 0,
  hipStreamCaptureStatusActive = 1,
  hipStreamCaptureStatusInvalidated = 2
} hipStreamCaptureStatus;
typedef struct hipGraphEdgeData {
  unsigned char from_port;
  unsigned char reserved[5];
  unsigned char to_port;
  unsigned char type;
} hipGraphEdgeData;
typedef enum hipGraphInstantiateFlags {
  hipGraphInstantiateFlagAutoFreeOnLaunch = 1,
  hipGraphInstantiateFlagUpload = 2,
  hipGraphInstantiateFlagDeviceLaunch = 4,
  hipGraphInstantiateFlagUseNodePriority = 8
} hipGraphInstantiateFlags;
#ifdef __cplusplus
extern "C" {
#endif
hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags);
hipError_t hipGraphDestroy(hipGraph_t graph);
hipError_t hipGraphClone(hipGraph_t *pGraphClone, hipGraph_t originalGraph);
hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                 const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t *pDependencies, size_t numDependencies,
                                   void *dst, const void *src, size_t count, hipMemcpyKind kind);
hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct hipMemcpy3DParms *pCopyParams);
hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                 const hipMemsetParams *pMemsetParams);
hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                               const hipGraphNode_t *pDependencies, size_t numDependencies,
                               const hipHostNodeParams *pNodeParams);
hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                const hipGraphNode_t *pDependencies, size_t numDependencies);
hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                      const hipGraphNode_t *pDependencies, size_t numDependencies,
                                      hipEvent_t event);
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                    const hipGraphNode_t *pDependencies, size_t numDependencies,
                                    hipEvent_t event);
hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out);
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out);
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                               hipEvent_t event);
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                             hipEvent_t event);
/* Graph memory nodes (docs/graphs.md): dptr is filled when the node is added. */
typedef struct hipMemAllocNodeParams {
  hipMemPoolProps poolProps;
  const hipMemAccessDesc *accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void *dptr;
} hipMemAllocNodeParams;
typedef enum hipGraphMemAttributeType {
  hipGraphMemAttrUsedMemCurrent = 0,
  hipGraphMemAttrUsedMemHigh = 1,
  hipGraphMemAttrReservedMemCurrent = 2,
  hipGraphMemAttrReservedMemHigh = 3
} hipGraphMemAttributeType;
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t *pDependencies, size_t numDependencies,
                                   hipMemAllocNodeParams *pNodeParams);
hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node, hipMemAllocNodeParams *pNodeParams);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                  const hipGraphNode_t *pDependencies, size_t numDependencies,
                                  void *dev_ptr);
hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr);
hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value);
hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value);
hipError_t hipDeviceGraphMemTrim(int device);
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t *from,
                                   const hipGraphNode_t *to, size_t numDependencies);
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *numNodes);
hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t *pRootNodes,
                                size_t *pNumRootNodes);
hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType *pType);
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t *pDependencies,
                                       size_t *pNumDependencies);
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t *pDependentNodes,
                                         size_t *pNumDependentNodes);
hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t *from, hipGraphNode_t *to,
                            size_t *numEdges);
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams *pNodeParams);
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node,
                                       const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams *pNodeParams);
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams *pNodeParams);
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams *pNodeParams);
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams *pNodeParams);
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src,
                                         size_t count, hipMemcpyKind kind);
hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t *from,
                                      const hipGraphNode_t *to, size_t numDependencies);
hipError_t hipGraphDestroyNode(hipGraphNode_t node);
hipError_t hipGraphNodeFindInClone(hipGraphNode_t *pNode, hipGraphNode_t originalNode,
                                   hipGraph_t clonedGraph);
hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                               hipGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize);
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                        unsigned long long flags);
hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec);
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                         const hipHostNodeParams *pNodeParams);
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipMemsetParams *pNodeParams);
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                             void *dst, const void *src, size_t count,
                                             hipMemcpyKind kind);
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph,
                                        const hipGraphNode_t *dependencies,
                                        const hipGraphEdgeData *dependencyData,
                                        size_t numDependencies, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph);
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode);
hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus);
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                   unsigned long long *pId);
hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream,
                                      hipStreamCaptureStatus *captureStatus_out,
                                      unsigned long long *id_out __dparm(0),
                                      hipGraph_t *graph_out __dparm(0),
                                      const hipGraphNode_t **dependencies_out __dparm(0),
                                      size_t *numDependencies_out __dparm(0));

/* Graph API, second round (docs/graphs.md; HIP 6.2 names, values and layouts). */
typedef struct hipUserObject *hipUserObject_t;
typedef enum hipUserObjectFlags { hipUserObjectNoDestructorSync = 0x1 } hipUserObjectFlags;
typedef enum hipUserObjectRetainFlags { hipGraphUserObjectMove = 0x1 } hipUserObjectRetainFlags;
typedef enum hipGraphExecUpdateResult {
  hipGraphExecUpdateSuccess = 0x0,
  hipGraphExecUpdateError = 0x1,
  hipGraphExecUpdateErrorTopologyChanged = 0x2,
  hipGraphExecUpdateErrorNodeTypeChanged = 0x3,
  hipGraphExecUpdateErrorFunctionChanged = 0x4,
  hipGraphExecUpdateErrorParametersChanged = 0x5,
  hipGraphExecUpdateErrorNotSupported = 0x6,
  hipGraphExecUpdateErrorUnsupportedFunctionChange = 0x7
} hipGraphExecUpdateResult;
typedef enum hipStreamUpdateCaptureDependenciesFlags {
  hipStreamAddCaptureDependencies = 0,
  hipStreamSetCaptureDependencies = 1
} hipStreamUpdateCaptureDependenciesFlags;
typedef enum hipGraphInstantiateResult {
  hipGraphInstantiateSuccess = 0,
  hipGraphInstantiateError = 1,
  hipGraphInstantiateInvalidStructure = 2,
  hipGraphInstantiateNodeOperationNotSupported = 3,
  hipGraphInstantiateMultipleDevicesNotSupported = 4
} hipGraphInstantiateResult;
typedef struct hipGraphInstantiateParams {
  hipGraphNode_t errNode_out;
  unsigned long long flags;
  hipGraphInstantiateResult result_out;
  hipStream_t uploadStream;
} hipGraphInstantiateParams;
#ifndef AH_HIP_ACCESS_POLICY_DEFINED
#define AH_HIP_ACCESS_POLICY_DEFINED
typedef enum hipAccessProperty {
  hipAccessPropertyNormal = 0,
  hipAccessPropertyStreaming = 1,
  hipAccessPropertyPersisting = 2
} hipAccessProperty;
typedef struct hipAccessPolicyWindow {
  void *base_ptr;
  hipAccessProperty hitProp;
  float hitRatio;
  hipAccessProperty missProp;
  size_t num_bytes;
} hipAccessPolicyWindow;
typedef enum hipLaunchAttributeID {
  hipLaunchAttributeAccessPolicyWindow = 1,
  hipLaunchAttributeCooperative = 2,
  hipLaunchAttributePriority = 8
} hipLaunchAttributeID;
typedef union hipLaunchAttributeValue {
  hipAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int priority;
} hipLaunchAttributeValue;
#endif
#define hipKernelNodeAttrID hipLaunchAttributeID
#define hipKernelNodeAttributeAccessPolicyWindow hipLaunchAttributeAccessPolicyWindow
#define hipKernelNodeAttributeCooperative hipLaunchAttributeCooperative
#define hipKernelNodeAttributePriority hipLaunchAttributePriority
#define hipKernelNodeAttrValue hipLaunchAttributeValue
typedef enum hipGraphDebugDotFlags {
  hipGraphDebugDotFlagsVerbose = 1 << 0,
  hipGraphDebugDotFlagsKernelNodeParams = 1 << 2,
  hipGraphDebugDotFlagsMemcpyNodeParams = 1 << 3,
  hipGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
  hipGraphDebugDotFlagsHostNodeParams = 1 << 5,
  hipGraphDebugDotFlagsEventNodeParams = 1 << 6,
  hipGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
  hipGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8,
  hipGraphDebugDotFlagsKernelNodeAttributes = 1 << 9,
  hipGraphDebugDotFlagsHandles = 1 << 10
} hipGraphDebugDotFlags;
/* hipGraphAddNode's parameters: the node type and that type's parameters. */
typedef struct hipMemcpyNodeParams {
  int flags;       /* must be zero */
  int reserved[3]; /* must be zero */
  hipMemcpy3DParms copyParams;
} hipMemcpyNodeParams;
typedef struct hipChildGraphNodeParams {
  hipGraph_t graph;
} hipChildGraphNodeParams;
typedef struct hipEventWaitNodeParams {
  hipEvent_t event;
} hipEventWaitNodeParams;
typedef struct hipEventRecordNodeParams {
  hipEvent_t event;
} hipEventRecordNodeParams;
typedef struct hipMemFreeNodeParams {
  void *dptr;
} hipMemFreeNodeParams;
typedef struct hipGraphNodeParams {
  hipGraphNodeType type;
  int reserved0[3];
  AH_EXTENSION union {
    long long reserved1[29];
    hipKernelNodeParams kernel;
    hipMemcpyNodeParams memcpy;
    hipMemsetParams memset;
    hipHostNodeParams host;
    hipChildGraphNodeParams graph;
    hipEventWaitNodeParams eventWait;
    hipEventRecordNodeParams eventRecord;
    /* extSemSignal, extSemWait: external semaphores are not implemented */
    hipMemAllocNodeParams alloc;
    hipMemFreeNodeParams free;
  };
  long long reserved2;
} hipGraphNodeParams;

hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                     const hipGraphNode_t *pDependencies, size_t numDependencies,
                                     hipGraph_t childGraph);
hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t *pGraph);
hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                               hipGraph_t childGraph);
hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t *pDependencies,
                                         size_t numDependencies, const void *symbol,
                                         const void *src, size_t count, size_t offset,
                                         hipMemcpyKind kind);
hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies, void *dst, const void *symbol,
                                           size_t count, size_t offset, hipMemcpyKind kind);
hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void *symbol,
                                               const void *src, size_t count, size_t offset,
                                               hipMemcpyKind kind);
hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void *dst,
                                                 const void *symbol, size_t count, size_t offset,
                                                 hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                   const void *symbol, const void *src,
                                                   size_t count, size_t offset,
                                                   hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node, void *dst,
                                                     const void *symbol, size_t count,
                                                     size_t offset, hipMemcpyKind kind);
hipError_t hipUserObjectCreate(hipUserObject_t *object_out, void *ptr, hipHostFn_t destroy,
                               unsigned int initialRefcount, unsigned int flags);
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count __dparm(1));
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count __dparm(1));
hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object,
                                    unsigned int count __dparm(1), unsigned int flags __dparm(0));
hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object,
                                     unsigned int count __dparm(1));
hipError_t hipGraphKernelNodeSetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr,
                                          const hipKernelNodeAttrValue *value);
hipError_t hipGraphKernelNodeGetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr,
                                          hipKernelNodeAttrValue *value);
hipError_t hipGraphKernelNodeCopyAttributes(hipGraphNode_t hSrc, hipGraphNode_t hDst);
hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t *dependencies,
                                              size_t numDependencies,
                                              unsigned int flags __dparm(0));
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                         hipGraphInstantiateParams *instantiateParams);
hipError_t hipGraphExecGetFlags(hipGraphExec_t graphExec, unsigned long long *flags);
hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph,
                              hipGraphNode_t *hErrorNode_out,
                              hipGraphExecUpdateResult *updateResult_out);
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                  unsigned int isEnabled);
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                  unsigned int *isEnabled);
/* Driver-style graph nodes (HIP 6): hipCtx_t is the current device's context or NULL. */
typedef struct HIP_MEMSET_NODE_PARAMS {
  hipDeviceptr_t dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
} HIP_MEMSET_NODE_PARAMS;
hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t *dependencies, size_t numDependencies,
                                    const HIP_MEMCPY3D *copyParams, hipCtx_t ctx);
hipError_t hipDrvGraphMemcpyNodeGetParams(hipGraphNode_t hNode, HIP_MEMCPY3D *nodeParams);
hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t hNode, const HIP_MEMCPY3D *nodeParams);
hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const HIP_MEMCPY3D *copyParams, hipCtx_t ctx);
hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t *dependencies, size_t numDependencies,
                                    const HIP_MEMSET_NODE_PARAMS *memsetParams, hipCtx_t ctx);
hipError_t hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const HIP_MEMSET_NODE_PARAMS *memsetParams,
                                              hipCtx_t ctx);
hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                     const hipGraphNode_t *dependencies, size_t numDependencies,
                                     hipDeviceptr_t dptr);
hipError_t hipGraphAddNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                           const hipGraphNode_t *pDependencies, size_t numDependencies,
                           hipGraphNodeParams *nodeParams);
hipError_t hipGraphNodeSetParams(hipGraphNode_t node, hipGraphNodeParams *nodeParams);
hipError_t hipGraphDebugDotPrint(hipGraph_t graph, const char *path, unsigned int flags);
hipError_t hipGraphExecNodeSetParams(hipGraphExec_t graphExec, hipGraphNode_t node,
                                     hipGraphNodeParams *nodeParams);
#ifdef __cplusplus
}
#endif
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

/* Issue 11's second round: hip_ext's C functions, stream memory operations,
 * virtual memory, IPC. */
#include <hip/anyhip/common/ext_api.h>
/* External resource interoperability (no device imports any). */
#include <hip/anyhip/common/external_api.h>
/* Smaller names of HIP 6.3: peer attributes, context and profiler leftovers. */
#include <hip/anyhip/common/misc_api.h>
/* HIP 5's device properties (gcnArch), as HIP 6 keeps them. */
#include <hip/hip_deprecated.h>

#if defined(__cplusplus) && !defined(__HIP_DISABLE_CPP_FUNCTIONS__)
/* HIP's C++ overloads: typed pointers, and hipMallocAsync from a given pool. */
static inline hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipMemPool_t mem_pool,
                                        hipStream_t stream) {
  return hipMallocFromPoolAsync(dev_ptr, size, mem_pool, stream);
}
template <class T>
static inline hipError_t hipMallocAsync(T **dev_ptr, size_t size, hipMemPool_t mem_pool,
                                        hipStream_t stream) {
  return hipMallocFromPoolAsync((void **)dev_ptr, size, mem_pool, stream);
}
template <class T>
static inline hipError_t hipMallocAsync(T **dev_ptr, size_t size, hipStream_t stream) {
  return hipMallocAsync((void **)dev_ptr, size, stream);
}
template <class T>
static inline hipError_t hipMallocFromPoolAsync(T **dev_ptr, size_t size, hipMemPool_t mem_pool,
                                                hipStream_t stream) {
  return hipMallocFromPoolAsync((void **)dev_ptr, size, mem_pool, stream);
}
#endif

#if defined(__cplusplus) && !defined(__HIP_DISABLE_CPP_FUNCTIONS__)
#include <hip/anyhip/common/api_cxx.hpp>
#include <hip/channel_descriptor.h>
#endif

#endif
