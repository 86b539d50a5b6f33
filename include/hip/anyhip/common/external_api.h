/* SPDX-License-Identifier: MIT */
/* HIP's external resource interoperability (Vulkan, Direct3D and the like:
 * memory and semaphores another API exported): types and entry points, with
 * HIP 6.3's names, values and layouts (CUDA's). The CPU device imports
 * opaque file descriptors (memory to mmap, eventfd semaphores), NVIDIA
 * devices what the driver imports from a POSIX descriptor; other types are
 * hipErrorNotSupported (docs/memory.md). Included by hip_runtime_api.h;
 * C99. */
#ifndef ANYHIP_EXTERNAL_API_H
#define ANYHIP_EXTERNAL_API_H

typedef enum hipExternalMemoryHandleType_enum {
  hipExternalMemoryHandleTypeOpaqueFd = 1,
  hipExternalMemoryHandleTypeOpaqueWin32 = 2,
  hipExternalMemoryHandleTypeOpaqueWin32Kmt = 3,
  hipExternalMemoryHandleTypeD3D12Heap = 4,
  hipExternalMemoryHandleTypeD3D12Resource = 5,
  hipExternalMemoryHandleTypeD3D11Resource = 6,
  hipExternalMemoryHandleTypeD3D11ResourceKmt = 7,
  hipExternalMemoryHandleTypeNvSciBuf = 8
} hipExternalMemoryHandleType;

typedef struct hipExternalMemoryHandleDesc_st {
  hipExternalMemoryHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalMemoryHandleDesc;

typedef struct hipExternalMemoryBufferDesc_st {
  unsigned long long offset;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalMemoryBufferDesc;

#define hipExternalMemoryDedicated 0x1

typedef struct hipExternalMemoryMipmappedArrayDesc_st {
  unsigned long long offset;
  hipChannelFormatDesc formatDesc;
  hipExtent extent;
  unsigned int flags;
  unsigned int numLevels;
} hipExternalMemoryMipmappedArrayDesc;

typedef void *hipExternalMemory_t;

typedef enum hipExternalSemaphoreHandleType_enum {
  hipExternalSemaphoreHandleTypeOpaqueFd = 1,
  hipExternalSemaphoreHandleTypeOpaqueWin32 = 2,
  hipExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3,
  hipExternalSemaphoreHandleTypeD3D12Fence = 4,
  hipExternalSemaphoreHandleTypeD3D11Fence = 5,
  hipExternalSemaphoreHandleTypeNvSciSync = 6,
  hipExternalSemaphoreHandleTypeKeyedMutex = 7,
  hipExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
  hipExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
  hipExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10
} hipExternalSemaphoreHandleType;

typedef struct hipExternalSemaphoreHandleDesc_st {
  hipExternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *NvSciSyncObj;
  } handle;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreHandleDesc;

typedef void *hipExternalSemaphore_t;

typedef struct hipExternalSemaphoreSignalParams_st {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
    } keyedMutex;
    unsigned int reserved[12];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreSignalParams;

typedef struct hipExternalSemaphoreWaitParams_st {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
      unsigned int timeoutMs;
    } keyedMutex;
    unsigned int reserved[10];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreWaitParams;

/* Graph nodes that signal or wait for external semaphores. */
typedef struct hipExternalSemaphoreSignalNodeParams {
  hipExternalSemaphore_t *extSemArray;
  const hipExternalSemaphoreSignalParams *paramsArray;
  unsigned int numExtSems;
} hipExternalSemaphoreSignalNodeParams;

typedef struct hipExternalSemaphoreWaitNodeParams {
  hipExternalSemaphore_t *extSemArray;
  const hipExternalSemaphoreWaitParams *paramsArray;
  unsigned int numExtSems;
} hipExternalSemaphoreWaitNodeParams;

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#ifdef __cplusplus
extern "C" {
#endif

hipError_t hipImportExternalMemory(hipExternalMemory_t *extMem_out,
                                   const hipExternalMemoryHandleDesc *memHandleDesc);
hipError_t hipExternalMemoryGetMappedBuffer(void **devPtr, hipExternalMemory_t extMem,
                                            const hipExternalMemoryBufferDesc *bufferDesc);
hipError_t hipDestroyExternalMemory(hipExternalMemory_t extMem);
hipError_t hipExternalMemoryGetMappedMipmappedArray(
    hipMipmappedArray_t *mipmap, hipExternalMemory_t extMem,
    const hipExternalMemoryMipmappedArrayDesc *mipmapDesc);
hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t *extSem_out,
                                      const hipExternalSemaphoreHandleDesc *semHandleDesc);
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                            const hipExternalSemaphoreSignalParams *paramsArray,
                                            unsigned int numExtSems, hipStream_t stream);
hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                          const hipExternalSemaphoreWaitParams *paramsArray,
                                          unsigned int numExtSems, hipStream_t stream);
hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t extSem);

hipError_t hipGraphAddExternalSemaphoresSignalNode(
    hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
    size_t numDependencies, const hipExternalSemaphoreSignalNodeParams *nodeParams);
hipError_t hipGraphAddExternalSemaphoresWaitNode(
    hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
    size_t numDependencies, const hipExternalSemaphoreWaitNodeParams *nodeParams);
hipError_t hipGraphExternalSemaphoresSignalNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreSignalNodeParams *params_out);
hipError_t hipGraphExternalSemaphoresWaitNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreWaitNodeParams *params_out);
hipError_t hipGraphExternalSemaphoresSignalNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreSignalNodeParams *nodeParams);
hipError_t hipGraphExternalSemaphoresWaitNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreWaitNodeParams *nodeParams);
hipError_t hipGraphExecExternalSemaphoresSignalNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreSignalNodeParams *nodeParams);
hipError_t hipGraphExecExternalSemaphoresWaitNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreWaitNodeParams *nodeParams);

#ifdef __cplusplus
}
#endif
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
