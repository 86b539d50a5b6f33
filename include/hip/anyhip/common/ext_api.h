/* SPDX-License-Identifier: MIT */
/* The second round of HIP's runtime API (issue 11): AMD's extensions that
 * live in hip_runtime_api.h (compute-unit masks, link types, multi-device
 * launches), stream memory operations, virtual memory management, IPC
 * handles and the pointer functions of the driver API. Included by
 * hip_runtime_api.h after its own declarations; compiles as C99. Names,
 * values and layouts are HIP 6.2's; what each does on the CPU and NVIDIA
 * devices is in docs/memory.md and docs/api-coverage.md. */
#ifndef ANYHIP_EXT_API_H
#define ANYHIP_EXT_API_H

#include <stddef.h>
#include <stdint.h>

/* ---- types ------------------------------------------------------------- */

#define HIP_IPC_HANDLE_SIZE 64

typedef struct hipIpcMemHandle_st {
  char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcMemHandle_t;

typedef struct hipIpcEventHandle_st {
  char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcEventHandle_t;

/* Virtual memory management. */
typedef struct ihipMemGenericAllocationHandle *hipMemGenericAllocationHandle_t;

typedef struct hipMemAllocationProp {
  hipMemAllocationType type;
  union {
    hipMemAllocationHandleType requestedHandleType;
    hipMemAllocationHandleType requestedHandleTypes;
  };
  hipMemLocation location;
  void *win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
  } allocFlags;
} hipMemAllocationProp;

typedef enum hipMemAllocationGranularity_flags {
  hipMemAllocationGranularityMinimum = 0x0,
  hipMemAllocationGranularityRecommended = 0x1
} hipMemAllocationGranularity_flags;

typedef enum hipMemHandleType { hipMemHandleTypeGeneric = 0x0 } hipMemHandleType;

typedef enum hipMemOperationType {
  hipMemOperationTypeMap = 0x1,
  hipMemOperationTypeUnmap = 0x2
} hipMemOperationType;

typedef enum hipArraySparseSubresourceType {
  hipArraySparseSubresourceTypeSparseLevel = 0x0,
  hipArraySparseSubresourceTypeMiptail = 0x1
} hipArraySparseSubresourceType;

/* hipMemMapArrayAsync's entries (HIP 6.2's fields; the mipmapped array is a
 * handle, as CUDA's CUarrayMapInfo has it). */
typedef struct hipArrayMapInfo {
  hipResourceType resourceType;
  union {
    hipMipmappedArray_t mipmap;
    hipArray_t array;
  } resource;
  hipArraySparseSubresourceType subresourceType;
  union {
    struct {
      unsigned int level, layer;
      unsigned int offsetX, offsetY, offsetZ;
      unsigned int extentWidth, extentHeight, extentDepth;
    } sparseLevel;
    struct {
      unsigned int layer;
      unsigned long long offset, size;
    } miptail;
  } subresource;
  hipMemOperationType memOperationType;
  hipMemHandleType memHandleType;
  union {
    hipMemGenericAllocationHandle_t memHandle;
  } memHandle;
  unsigned long long offset;
  unsigned int deviceBitMask;
  unsigned int flags;
  unsigned int reserved[2];
} hipArrayMapInfo;

/* hipModuleLaunchCooperativeKernelMultiDevice's list entries. */
typedef struct hipFunctionLaunchParams_t {
  hipFunction_t function;
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  hipStream_t hStream;
  void **kernelParams;
} hipFunctionLaunchParams;

/* hipExtGetLinkTypeAndHopCount's link types are HSA's numbers
 * (hsa_amd_link_info_type_t: HYPERTRANSPORT 0, QPI 1, PCIE 2, INFINBAND 3,
 * XGMI 4); HIP's headers do not name them (programs define them). */

/* hipExtLaunchKernel / hipExtModuleLaunchKernel flags. */
#define hipExtAnyOrderLaunch 0x01

/* ---- functions --------------------------------------------------------- */

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* AMD extensions. The launches are here, as in HIP 6's hip_runtime_api.h;
 * hip_ext.h adds the typed hipExtLaunchKernelGGL. */
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                    uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                    uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                    hipStream_t hStream, void **kernelParams, void **extra,
                                    hipEvent_t startEvent __dparm(NULL),
                                    hipEvent_t stopEvent __dparm(NULL),
                                    uint32_t flags __dparm(0));
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                    uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                    uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                    hipStream_t hStream, void **kernelParams, void **extra,
                                    hipEvent_t startEvent __dparm(NULL),
                                    hipEvent_t stopEvent __dparm(NULL));
hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                              void **args, size_t sharedMemBytes, hipStream_t stream,
                              hipEvent_t startEvent, hipEvent_t stopEvent, int flags);
hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream, uint32_t cuMaskSize,
                                        const uint32_t *cuMask);
hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize, uint32_t *cuMask);
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype,
                                        uint32_t *hopcount);
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *launchParamsList, int numDevices,
                                              unsigned int flags);
hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams *launchParamsList,
                                                 int numDevices, unsigned int flags);
hipError_t hipModuleLaunchCooperativeKernelMultiDevice(hipFunctionLaunchParams *launchParamsList,
                                                       unsigned int numDevices,
                                                       unsigned int flags);

/* Stream memory operations. */
hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags,
                                uint32_t mask __dparm(0xFFFFFFFF));
hipError_t hipStreamWaitValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags,
                                uint64_t mask __dparm(0xFFFFFFFFFFFFFFFFull));
hipError_t hipStreamWriteValue32(hipStream_t stream, void *ptr, uint32_t value,
                                 unsigned int flags);
hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value,
                                 unsigned int flags);
hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream __dparm(NULL),
                                   unsigned int flags __dparm(0));

/* Pointers. */
hipError_t hipPointerSetAttribute(const void *value, hipPointer_attribute attribute,
                                  hipDeviceptr_t ptr);
hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes, hipPointer_attribute *attributes,
                                      void **data, hipDeviceptr_t ptr);

/* Virtual memory management. */
hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size,
                        const hipMemAllocationProp *prop, unsigned long long flags);
hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle);
hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr,
                                unsigned long long flags);
hipError_t hipMemAddressFree(void *devPtr, size_t size);
hipError_t hipMemMap(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                     unsigned long long flags);
hipError_t hipMemUnmap(void *ptr, size_t size);
hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count);
hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *location, void *ptr);
hipError_t hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
                                          hipMemAllocationGranularity_flags option);
hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp *prop,
                                                   hipMemGenericAllocationHandle_t handle);
hipError_t hipMemExportToShareableHandle(void *shareableHandle,
                                         hipMemGenericAllocationHandle_t handle,
                                         hipMemAllocationHandleType handleType,
                                         unsigned long long flags);
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle,
                                           void *osHandle,
                                           hipMemAllocationHandleType shHandleType);
hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *handle, void *addr);
hipError_t hipMemMapArrayAsync(hipArrayMapInfo *mapInfoList, unsigned int count,
                               hipStream_t stream);

/* Interprocess handles. */
hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr);
hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t handle, unsigned int flags);
hipError_t hipIpcCloseMemHandle(void *devPtr);
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t event);
hipError_t hipIpcOpenEventHandle(hipEvent_t *event, hipIpcEventHandle_t handle);

/* Stream-ordered pools between processes. */
hipError_t hipMemPoolExportToShareableHandle(void *shared_handle, hipMemPool_t mem_pool,
                                             hipMemAllocationHandleType handle_type,
                                             unsigned int flags);
hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t *mem_pool, void *shared_handle,
                                               hipMemAllocationHandleType handle_type,
                                               unsigned int flags);
hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData *export_data, void *dev_ptr);
hipError_t hipMemPoolImportPointer(void **dev_ptr, hipMemPool_t mem_pool,
                                   hipMemPoolPtrExportData *export_data);

#ifdef __cplusplus
}
#endif
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
