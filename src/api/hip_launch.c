/* SPDX-License-Identifier: MIT */
/* Kernel launches: the entry that triple chevrons and hipLaunchKernelGGL
 * compile into (__ahLaunchKernel), hipLaunchKernel with an argument pointer
 * array, cooperative launches, the old configure/setup/launch triple, and
 * the per-kernel settings. The launch itself is core/launch.c's. */
#include "launch.h"

#include <stdlib.h>
#include <string.h>

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

#define AH_CALL_DEPTH 8
/* The most argument bytes hipSetupArgument accepts: far above any real
 * parameter list (CUDA's limit was 4 KiB), and it keeps a wild offset from
 * making the runtime allocate and clear gigabytes. */
#define AH_CALL_ARG_MAX (64 * 1024)

struct call_config {
  dim3 grid, block;
  size_t shmem;
  hipStream_t stream;
  unsigned char *buf; /* arguments at the offsets hipSetupArgument gave */
  size_t len, cap;
};

/* Configurations pushed by this thread and not launched yet. */
static _Thread_local struct call_config calls[AH_CALL_DEPTH];
static _Thread_local int ncalls;

static hipError_t push_call(dim3 grid, dim3 block, size_t shmem, hipStream_t stream) {
  struct call_config *c;

  if (ncalls == AH_CALL_DEPTH)
    return hipErrorInvalidConfiguration;
  c = &calls[ncalls++];
  c->grid = grid;
  c->block = block;
  c->shmem = shmem;
  c->stream = stream;
  c->len = 0;
  return hipSuccess;
}

AH_EXPORT hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                      hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(push_call(gridDim, blockDim, sharedMem, stream));
}

AH_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(push_call(gridDim, blockDim, sharedMem, stream));
}

AH_EXPORT hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                               hipStream_t *stream) {
  struct call_config *c;

  AH_ENTER();
  AH_REQUIRE(gridDim != NULL && blockDim != NULL && sharedMem != NULL && stream != NULL,
             hipErrorInvalidValue);
  AH_REQUIRE(ncalls > 0, hipErrorMissingConfiguration);
  c = &calls[--ncalls];
  *gridDim = c->grid;
  *blockDim = c->block;
  *sharedMem = c->shmem;
  *stream = c->stream;
  return hipSuccess;
}

AH_EXPORT hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset) {
  struct call_config *c;

  AH_ENTER();
  AH_REQUIRE(ncalls > 0, hipErrorMissingConfiguration);
  AH_REQUIRE(arg != NULL || size == 0, hipErrorInvalidValue);
  AH_REQUIRE(size <= AH_CALL_ARG_MAX && offset <= AH_CALL_ARG_MAX - size, hipErrorInvalidValue);
  c = &calls[ncalls - 1];
  if (offset + size > c->cap) {
    size_t ncap = c->cap != 0 ? c->cap : 64;
    unsigned char *nb;

    while (ncap < offset + size)
      ncap *= 2;
    nb = realloc(c->buf, ncap);
    AH_REQUIRE(nb != NULL, hipErrorOutOfMemory);
    memset(nb + c->cap, 0, ncap - c->cap);
    c->buf = nb;
    c->cap = ncap;
  }
  if (size != 0) /* arg may be NULL for an empty argument; memcpy would not allow it */
    memcpy(c->buf + offset, arg, size);
  if (offset + size > c->len)
    c->len = offset + size;
  return hipSuccess;
}

/* Launches the innermost configuration. The argument buffer follows the C
 * layout of the parameter list (each argument at its alignment), which the
 * registered signature describes. */
AH_EXPORT hipError_t hipLaunchByPtr(const void *func) {
  struct call_config c;
  const ahKernelSig *sig;
  void *argv[64];
  size_t off = 0;

  AH_ENTER();
  AH_REQUIRE(ncalls > 0, hipErrorMissingConfiguration);
  c = calls[--ncalls];
  AH_REQUIRE(func != NULL, hipErrorInvalidDeviceFunction);
  sig = ah_kernel_sig(func);
  AH_REQUIRE(sig != NULL, hipErrorInvalidDeviceFunction);
  AH_REQUIRE(sig->nargs <= sizeof(argv) / sizeof(argv[0]), hipErrorInvalidValue);
  for (unsigned i = 0; i < sig->nargs; i++) {
    size_t al = sig->aligns[i] != 0 ? sig->aligns[i] : 1;

    off = (off + al - 1) / al * al;
    AH_REQUIRE(off + sig->sizes[i] <= c.len, hipErrorInvalidValue); /* argument not set up */
    argv[i] = c.buf + off;
    off += sig->sizes[i];
  }
  AH_RETURN(ah_launch_kernel(func, sig, c.grid, c.block, c.shmem, c.stream, argv, 0));
}
