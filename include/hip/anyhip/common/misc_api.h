/* SPDX-License-Identifier: MIT */
/* The smaller names HIP 6.3 has beyond the areas of ext_api.h: peer
 * attributes, valid devices, hipExtGetLastError and hipExtHostAlloc, the
 * deprecated context cache/shared-memory/peer functions, the deprecated
 * profiler control, and the callback/activity helpers that name APIs,
 * kernels and a stream's device. Included by hip_runtime_api.h after its
 * own declarations; compiles as C99. What each does: docs/api-coverage.md. */
#ifndef ANYHIP_MISC_API_H
#define ANYHIP_MISC_API_H

#include <stdint.h>

/* hipStreamBatchMemOp's operations (CUDA's layout: 48 bytes each). */
typedef enum hipStreamBatchMemOpType {
  hipStreamMemOpWaitValue32 = 0x1,
  hipStreamMemOpWriteValue32 = 0x2,
  hipStreamMemOpWaitValue64 = 0x4,
  hipStreamMemOpWriteValue64 = 0x5,
  hipStreamMemOpBarrier = 0x6,
  hipStreamMemOpFlushRemoteWrites = 0x3
} hipStreamBatchMemOpType;

typedef union hipStreamBatchMemOpParams_union {
  hipStreamBatchMemOpType operation;
  struct hipStreamMemOpWaitValueParams_t {
    hipStreamBatchMemOpType operation;
    hipDeviceptr_t address;
    union {
      uint32_t value;
      uint64_t value64;
    };
    unsigned int flags; /* hipStreamWaitValue* */
    hipDeviceptr_t alias;
  } waitValue;
  struct hipStreamMemOpWriteValueParams_t {
    hipStreamBatchMemOpType operation;
    hipDeviceptr_t address;
    union {
      uint32_t value;
      uint64_t value64;
    };
    unsigned int flags;
    hipDeviceptr_t alias;
  } writeValue;
  struct hipStreamMemOpFlushRemoteWritesParams_t {
    hipStreamBatchMemOpType operation;
    unsigned int flags;
  } flushRemoteWrites;
  struct hipStreamMemOpMemoryBarrierParams_t {
    hipStreamBatchMemOpType operation;
    unsigned int flags;
  } memoryBarrier;
  uint64_t pad[6];
} hipStreamBatchMemOpParams;

typedef struct hipBatchMemOpNodeParams {
  hipCtx_t ctx;
  unsigned int count;
  hipStreamBatchMemOpParams *paramArray;
  unsigned int flags;
} hipBatchMemOpNodeParams;

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#ifdef __cplusplus
extern "C" {
#endif

hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int srcDevice,
                                    int dstDevice);
hipError_t hipSetValidDevices(int *device_arr, int len);
hipError_t hipExtGetLastError(void);
hipError_t hipExtHostAlloc(void **ptr, size_t size, unsigned int flags);

/* Context management [deprecated]. */
hipError_t hipCtxGetCacheConfig(hipFuncCache_t *cacheConfig);
hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig);
hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig *pConfig);
hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags);
hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx);

/* Profiler control [deprecated]. */
hipError_t hipProfilerStart(void);
hipError_t hipProfilerStop(void);

/* Callback/activity helpers. */
const char *hipApiName(uint32_t id);
const char *hipKernelNameRef(const hipFunction_t f);
const char *hipKernelNameRefByPtr(const void *hostFunction, hipStream_t stream);
int hipGetStreamDeviceId(hipStream_t stream);

/* Stream memory operations in one call. */
hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count,
                               hipStreamBatchMemOpParams *paramArray, unsigned int flags);
hipError_t hipGraphAddBatchMemOpNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                     const hipGraphNode_t *dependencies, size_t numDependencies,
                                     const hipBatchMemOpNodeParams *nodeParams);
hipError_t hipGraphBatchMemOpNodeGetParams(hipGraphNode_t hNode,
                                           hipBatchMemOpNodeParams *nodeParams_out);
hipError_t hipGraphBatchMemOpNodeSetParams(hipGraphNode_t hNode,
                                           hipBatchMemOpNodeParams *nodeParams);
hipError_t hipGraphExecBatchMemOpNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                               const hipBatchMemOpNodeParams *nodeParams);

#ifdef __cplusplus
}
#endif
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
