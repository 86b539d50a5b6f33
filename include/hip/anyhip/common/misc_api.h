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

#ifdef __cplusplus
}
#endif
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
