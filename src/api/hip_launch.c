/* SPDX-License-Identifier: MIT */
/* Kernel launches: the entry that triple chevrons and hipLaunchKernelGGL
 * compile into (__ahLaunchKernel), hipLaunchKernel with an argument pointer
 * array, cooperative launches, the old configure/setup/launch triple, and
 * the per-kernel settings. The launch itself is core/launch.c's, the
 * configure/setup stack core/call_config.c's. */
#include "launch.h"

AH_EXPORT hipError_t __ahLaunchKernel(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                                      size_t shmem, hipStream_t stream, void **args) {
  AH_ENTER();
  AH_RETURN(ah_launch_kernel(fn, sig, grid, block, shmem, stream, args, 0));
}

AH_EXPORT hipError_t __ahLaunchCooperativeKernel(const void *fn, const ahKernelSig *sig, dim3 grid,
                                                 dim3 block, size_t shmem, hipStream_t stream,
                                                 void **args) {
  AH_ENTER();
  AH_RETURN(ah_launch_kernel(fn, sig, grid, block, shmem, stream, args, 1));
}

AH_EXPORT hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                                     void **args, size_t sharedMemBytes, hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(function_address != NULL, hipErrorInvalidDeviceFunction);
  AH_RETURN(ah_launch_kernel(function_address, ah_kernel_sig(function_address), numBlocks,
                             dimBlocks, sharedMemBytes, stream, args, 0));
}

AH_EXPORT hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDimX,
                                                void **kernelParams, unsigned int sharedMemBytes,
                                                hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(f != NULL, hipErrorInvalidDeviceFunction);
  AH_RETURN(ah_launch_kernel(f, ah_kernel_sig(f), gridDim, blockDimX, sharedMemBytes, stream,
                             kernelParams, 1));
}

/* ---- per-kernel settings ---- */

AH_EXPORT hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, const void *func) {
  AH_ENTER();
  AH_REQUIRE(attr != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_launch_is_kernel(func));
  AH_RETURN(ah_launch_func_attributes(func, attr));
}

/* Checked, no effect: HIP on AMD ignores a kernel's cache preference too. */
AH_EXPORT hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t config) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(func != NULL, hipErrorInvalidDeviceFunction);
  AH_REQUIRE((unsigned)config <= (unsigned)hipFuncCachePreferEqual, hipErrorInvalidValue);
  AH_RETURN(ah_launch_device(func, &dev));
}

/* Checked, no effect: HIP on AMD has no shared-memory banks to configure either. */
AH_EXPORT hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig config) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(func != NULL, hipErrorInvalidDeviceFunction);
  AH_REQUIRE((unsigned)config <= (unsigned)hipSharedMemBankSizeEightByte, hipErrorInvalidValue);
  AH_RETURN(ah_launch_device(func, &dev));
}

/* Values are checked against the device; none changes how a kernel runs yet
 * (every launch may use up to sharedMemPerBlock of dynamic shared memory). */
AH_EXPORT hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value) {
  struct ah_device *dev;
  size_t max_shared;

  AH_ENTER();
  AH_REQUIRE(func != NULL, hipErrorInvalidDeviceFunction);
  AH_REQUIRE_OK(ah_launch_device(func, &dev));
  switch (attr) {
  case hipFuncAttributeMaxDynamicSharedMemorySize:
    max_shared = dev->props.sharedMemPerBlockOptin > dev->props.sharedMemPerBlock
                     ? dev->props.sharedMemPerBlockOptin
                     : dev->props.sharedMemPerBlock;
    AH_REQUIRE(value >= 0 && (size_t)value <= max_shared, hipErrorInvalidValue);
    return hipSuccess;
  case hipFuncAttributePreferredSharedMemoryCarveout:
    AH_REQUIRE(value >= -1 && value <= 100, hipErrorInvalidValue); /* -1: no preference */
    return hipSuccess;
  default:
    return ah_fail(hipErrorInvalidValue, __func__, "unknown attribute");
  }
}

/* ---- hipConfigureCall / hipSetupArgument / hipLaunchByPtr ---- */

/* The most argument bytes hipSetupArgument accepts: far above any real
 * parameter list (CUDA's limit was 4 KiB), and it keeps a wild offset from
 * making the runtime allocate and clear gigabytes. */
#define AH_CALL_ARG_MAX (64 * 1024)

/* The configurations and their arguments are core/call_config.c's. */
AH_EXPORT hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                      hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_call_push(gridDim, blockDim, sharedMem, stream));
}

AH_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_call_push(gridDim, blockDim, sharedMem, stream));
}

AH_EXPORT hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                               hipStream_t *stream) {
  AH_ENTER();
  AH_REQUIRE(gridDim != NULL && blockDim != NULL && sharedMem != NULL && stream != NULL,
             hipErrorInvalidValue);
  AH_RETURN(ah_call_pop(gridDim, blockDim, sharedMem, stream));
}

AH_EXPORT hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset) {
  AH_ENTER();
  AH_REQUIRE(ah_call_configured(), hipErrorMissingConfiguration);
  AH_REQUIRE(arg != NULL || size == 0, hipErrorInvalidValue);
  AH_REQUIRE(size <= AH_CALL_ARG_MAX && offset <= AH_CALL_ARG_MAX - size, hipErrorInvalidValue);
  AH_RETURN(ah_call_setup_argument(arg, size, offset));
}

/* Launches the innermost configuration, which is used up even when the launch is refused. */
AH_EXPORT hipError_t hipLaunchByPtr(const void *func) {
  AH_ENTER();
  AH_RETURN(ah_call_launch(func));
}
