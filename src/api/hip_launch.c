/* SPDX-License-Identifier: MIT */
/* Kernel launches: the entry that triple chevrons and hipLaunchKernelGGL
 * compile into (__ahLaunchKernel), hipLaunchKernel with an argument pointer
 * array, cooperative launches, the kernel registration hook, and the old
 * configure/setup/launch triple. Every check runs before anything is
 * queued, so a refused launch runs nothing; the error codes are HIP's. */
#include "../core/stream.h"
#include "launch_internal.h"

#include <stdlib.h>
#include <string.h>

/* Checks a launch configuration against dev's limits, as HIP does. */
static hipError_t check_config(const struct ah_device *dev, dim3 grid, dim3 block, size_t shmem) {
  const hipDeviceProp_t *p = &dev->props;
  uint64_t threads = (uint64_t)block.x * block.y * block.z;

  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    return hipErrorInvalidConfiguration;
  if (block.x > (uint64_t)p->maxThreadsDim[0] || block.y > (uint64_t)p->maxThreadsDim[1] ||
      block.z > (uint64_t)p->maxThreadsDim[2] || threads > (uint64_t)p->maxThreadsPerBlock)
    return hipErrorInvalidConfiguration;
  if (grid.x > (uint64_t)p->maxGridSize[0] || grid.y > (uint64_t)p->maxGridSize[1] ||
      grid.z > (uint64_t)p->maxGridSize[2])
    return hipErrorInvalidConfiguration;
  /* HIP numbers a dimension's threads in 32 bits. */
  if ((uint64_t)grid.x * block.x > UINT32_MAX || (uint64_t)grid.y * block.y > UINT32_MAX ||
      (uint64_t)grid.z * block.z > UINT32_MAX)
    return hipErrorInvalidConfiguration;
  if (shmem > p->sharedMemPerBlock)
    return hipErrorInvalidValue;
  return hipSuccess;
}

/* Whether dev can run a cooperative grid of this shape: every block resident
 * at once. A backend without coop_max_blocks checks at submit. */
static hipError_t check_cooperative(struct ah_device *dev, dim3 grid, dim3 block, size_t shmem) {
  uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;

  if (!dev->props.cooperativeLaunch)
    return hipErrorNotSupported;
  if (dev->backend->coop_max_blocks != NULL &&
      blocks > dev->backend->coop_max_blocks(dev, block.x * block.y * block.z, shmem))
    return hipErrorCooperativeLaunchTooLarge;
  return hipSuccess;
}

/* Whether a block of this shape has more threads than the kernel's
 * __launch_bounds__ allow (hipcc records the bound at registration). AMD's
 * runtime refuses such a launch with hipErrorLaunchFailure (ROCm's unit suite,
 * launch_bounds.cc); CUDA's with an invalid-value error. */
static int exceeds_bounds(const void *fn, dim3 block) {
  unsigned max = ah_kernel_max_threads(fn);

  return max != 0 && (uint64_t)block.x * block.y * block.z > max;
}

/* Whether the kernel's static __shared__ bytes plus the launch's dynamic ones
 * are more than a block may have: HIP refuses the launch
 * (hipErrorInvalidValue, as for dynamic bytes alone). The static bytes are
 * known for kernels built by anyhip's kernel compiler, and counted by the
 * CPU pass: checked on CPU devices only (the driver checks nvcc's own). */
static int exceeds_shared(const struct ah_device *dev, const void *fn, size_t shmem) {
  size_t st = ah_kernel_static_shared(fn), max = dev->props.sharedMemPerBlock;

  return st != 0 && strcmp(dev->backend->name, "cpu") == 0 && (st > max || shmem > max - st);
}

/* The one launch path. sig may be NULL when the backend needs no layout. */
static hipError_t launch(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                         size_t shmem, hipStream_t stream, void **args, int cooperative) {
  struct ah_cmd cmd = {.kind = AH_CMD_KERNEL};
  struct ah_stream *s;
  struct ah_device *dev;
  hipError_t err;
  void *q;

  if (fn == NULL)
    return hipErrorInvalidDeviceFunction;
  if (sig != NULL && sig->nargs > 0) {
    /* Arguments are copied at enqueue: a missing one would be read at NULL. */
    if (args == NULL)
      return hipErrorInvalidValue;
    for (unsigned i = 0; i < sig->nargs; i++)
      if (args[i] == NULL)
        return hipErrorInvalidValue;
  }
  err = ah_stream_lookup(stream, &s);
  if (err != hipSuccess)
    return err;
  dev = ah_current_device();
  if (dev == NULL)
    return hipErrorNoDevice;
  /* A kernel goes to a stream of the current device only (HIP, CUDA). */
  if (s != NULL && s->dev != dev)
    return hipErrorInvalidHandle;
  q = s != NULL ? s->queue : dev->null_queue;
  err = check_config(dev, grid, block, shmem);
  if (err == hipSuccess && exceeds_shared(dev, fn, shmem))
    err = hipErrorInvalidValue;
  if (err == hipSuccess && exceeds_bounds(fn, block))
    err = hipErrorLaunchFailure;
  if (err == hipSuccess && cooperative)
    err = check_cooperative(dev, grid, block, shmem);
  if (err != hipSuccess)
    return err;
  if (dev->backend->function_check != NULL) {
    err = dev->backend->function_check(dev, fn);
    if (err != hipSuccess)
      return err;
  }
  cmd.kernel.fn = fn;
  cmd.kernel.sig = sig;
  cmd.kernel.grid = grid;
  cmd.kernel.block = block;
  cmd.kernel.shared_bytes = shmem;
  cmd.kernel.args = args;
  cmd.kernel.cooperative = cooperative;
  return ah_submit(dev, q, &cmd, 0);
}

/* The launch path for other entry points (hipModuleLaunchKernel, in
 * hip_module.c): no AH_* macros, the caller records the error. */
hipError_t ah_launch_kernel(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                            size_t shmem, hipStream_t stream, void **args, int cooperative) {
  return launch(fn, sig, grid, block, shmem, stream, args, cooperative);
}

AH_EXPORT hipError_t __ahLaunchKernel(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                                      size_t shmem, hipStream_t stream, void **args) {
  AH_ENTER();
  AH_RETURN(launch(fn, sig, grid, block, shmem, stream, args, 0));
}

AH_EXPORT hipError_t __ahLaunchCooperativeKernel(const void *fn, const ahKernelSig *sig, dim3 grid,
                                                 dim3 block, size_t shmem, hipStream_t stream,
                                                 void **args) {
  AH_ENTER();
  AH_RETURN(launch(fn, sig, grid, block, shmem, stream, args, 1));
}

/* Called from static constructors that hipcc emits, possibly before main and
 * before the runtime is initialized: it only fills the registry. */
AH_EXPORT void __ahRegisterKernel(const void *fn, const ahKernelSig *sig) {
  ah_kernel_register(fn, sig);
}

/* The same for a kernel declared with __launch_bounds__(max_threads, ...). */
AH_EXPORT void __ahRegisterKernelBounds(const void *fn, const ahKernelSig *sig,
                                        unsigned max_threads) {
  ah_kernel_register_bounds(fn, sig, max_threads);
}

AH_EXPORT hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                                     void **args, size_t sharedMemBytes, hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(function_address != NULL, hipErrorInvalidDeviceFunction);
  AH_RETURN(launch(function_address, ah_kernel_sig(function_address), numBlocks, dimBlocks,
                   sharedMemBytes, stream, args, 0));
}

AH_EXPORT hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDimX,
                                                void **kernelParams, unsigned int sharedMemBytes,
                                                hipStream_t stream) {
  AH_ENTER();
  AH_REQUIRE(f != NULL, hipErrorInvalidDeviceFunction);
  AH_RETURN(launch(f, ah_kernel_sig(f), gridDim, blockDimX, sharedMemBytes, stream, kernelParams,
                   1));
}

/* ---- per-kernel settings ---- */

/* The current device, and whether it has code for fn. */
static hipError_t kernel_device(const void *fn, struct ah_device **out) {
  struct ah_device *dev = ah_current_device();

  if (dev == NULL)
    return hipErrorNoDevice;
  *out = dev;
  if (dev->backend->function_check != NULL)
    return dev->backend->function_check(dev, fn);
  return hipSuccess;
}

/* hipFuncGetAttributes without the checks of arguments; also used by
 * hipFuncGetAttribute (hip_module.c). */
hipError_t ah_launch_func_attributes(const void *func, hipFuncAttributes *attr) {
  struct ah_device *dev;
  const hipDeviceProp_t *p;
  hipError_t err = kernel_device(func, &dev);

  if (err != hipSuccess)
    return err;
  if (dev->backend->function_attributes != NULL)
    return dev->backend->function_attributes(dev, func, attr);
  /* A kernel compiled for the host has no registers or local memory of its
   * own to report; its limits are the device's. */
  p = &dev->props;
  memset(attr, 0, sizeof(*attr));
  attr->maxThreadsPerBlock = p->maxThreadsPerBlock;
  if (ah_kernel_max_threads(func) != 0 &&
      ah_kernel_max_threads(func) < (unsigned)attr->maxThreadsPerBlock)
    attr->maxThreadsPerBlock = (int)ah_kernel_max_threads(func);
  attr->maxDynamicSharedSizeBytes = (int)p->sharedMemPerBlock;
  attr->sharedSizeBytes = ah_kernel_static_shared(func); /* 0 when not known */
  attr->binaryVersion = attr->ptxVersion = p->major * 10 + p->minor;
  attr->preferredShmemCarveout = -1;
  return hipSuccess;
}

/* Whether func is a kernel: hipcc registers every __global__ function (and
 * each template specialisation whose address is taken) before main, so a
 * pointer the registry does not know (a host function, data, garbage) is no
 * kernel, as on HIP. Module functions come as hipFunction_t, not here. */
hipError_t ah_launch_is_kernel(const void *func) {
  return func != NULL && ah_kernel_sig(func) != NULL ? hipSuccess
                                                     : hipErrorInvalidDeviceFunction;
}

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
  AH_RETURN(kernel_device(func, &dev));
}

/* Checked, no effect: HIP on AMD has no shared-memory banks to configure either. */
AH_EXPORT hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig config) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(func != NULL, hipErrorInvalidDeviceFunction);
  AH_REQUIRE((unsigned)config <= (unsigned)hipSharedMemBankSizeEightByte, hipErrorInvalidValue);
  AH_RETURN(kernel_device(func, &dev));
}

/* Values are checked against the device; none changes how a kernel runs yet
 * (every launch may use up to sharedMemPerBlock of dynamic shared memory). */
AH_EXPORT hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value) {
  struct ah_device *dev;
  size_t max_shared;

  AH_ENTER();
  AH_REQUIRE(func != NULL, hipErrorInvalidDeviceFunction);
  AH_REQUIRE_OK(kernel_device(func, &dev));
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
  AH_RETURN(launch(func, sig, c.grid, c.block, c.shmem, c.stream, argv, 0));
}
