/* SPDX-License-Identifier: MIT */
/* The launch path: a kernel launch's checks against the device (the
 * configuration, the kernel's bounds and shared memory, cooperative
 * residency, device code) and its command on the stream, for every entry
 * point that launches (hipLaunchKernel, the triple chevrons, the module and
 * extension launches); and what a kernel reports of itself. Every check runs
 * before anything is queued, so a refused launch runs nothing; the error
 * codes are HIP's. No argument checks here: src/api/hip_launch.c. */
#include "launch.h"
#include "device_ops.h"
#include "stream.h"

#include <string.h>

/* Checks a launch configuration against dev's limits, as HIP does. */
static hipError_t check_config(const struct ah_device *dev, dim3 grid, dim3 block, size_t shmem,
                               int work_sizes) {
  const hipDeviceProp_t *p = &dev->props;
  uint64_t threads = (uint64_t)block.x * block.y * block.z;

  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    return hipErrorInvalidConfiguration;
  if (block.x > (uint64_t)p->maxThreadsDim[0] || block.y > (uint64_t)p->maxThreadsDim[1] ||
      block.z > (uint64_t)p->maxThreadsDim[2] || threads > (uint64_t)p->maxThreadsPerBlock)
    return hipErrorInvalidConfiguration;
  if (!work_sizes && (grid.x > (uint64_t)p->maxGridSize[0] || grid.y > (uint64_t)p->maxGridSize[1] ||
                      grid.z > (uint64_t)p->maxGridSize[2]))
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
  if (blocks > ah_dev_coop_max_blocks(dev, block.x * block.y * block.z, shmem))
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
 * CPU pass: checked where the backend asks the core to (the CPU's; the
 * driver checks nvcc's own). */
static int exceeds_shared(const struct ah_device *dev, const void *fn, size_t shmem) {
  size_t st = ah_kernel_static_shared(fn), max = dev->props.sharedMemPerBlock;

  return st != 0 && dev->backend->checks_static_shared && (st > max || shmem > max - st);
}

hipError_t ah_launch_kernel(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                            size_t shmem, hipStream_t stream, void **args, int cooperative) {
  return ah_launch_grid_of(fn, sig, grid, block, shmem, stream, args, cooperative, NULL, 0);
}

hipError_t ah_launch_grid_of(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                             size_t shmem, hipStream_t stream, void **args, int cooperative,
                             struct ah_multi_grid *multi, unsigned rank) {
  struct ah_cmd cmd = {.kind = AH_CMD_KERNEL};
  struct ah_stream *s;
  struct ah_device *dev;
  hipError_t err;
  struct ah_queue *q;

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
  err = check_config(dev, grid, block, shmem, (cooperative & AH_LAUNCH_WORK_SIZES) != 0);
  cooperative &= AH_LAUNCH_COOPERATIVE;
  if (err == hipSuccess && exceeds_shared(dev, fn, shmem))
    err = hipErrorInvalidValue;
  if (err == hipSuccess && exceeds_bounds(fn, block))
    err = hipErrorLaunchFailure;
  if (err == hipSuccess && cooperative)
    err = check_cooperative(dev, grid, block, shmem);
  if (err != hipSuccess)
    return err;
  err = ah_dev_function_check(dev, fn);
  if (err != hipSuccess)
    return err;
  cmd.kernel.fn = fn;
  cmd.kernel.sig = sig;
  cmd.kernel.grid = grid;
  cmd.kernel.block = block;
  cmd.kernel.shared_bytes = shmem;
  cmd.kernel.args = args;
  cmd.kernel.cooperative = cooperative;
  cmd.kernel.multi = multi;
  cmd.kernel.multi_rank = rank;
  return ah_submit(dev, q, &cmd, 0);
}

hipError_t ah_launch_device(const void *fn, struct ah_device **out) {
  struct ah_device *dev = ah_current_device();

  if (dev == NULL)
    return hipErrorNoDevice;
  *out = dev;
  return ah_dev_function_check(dev, fn);
}

hipError_t ah_launch_func_attributes(const void *func, hipFuncAttributes *attr) {
  struct ah_device *dev;
  const hipDeviceProp_t *p;
  hipError_t err = ah_launch_device(func, &dev);

  if (err != hipSuccess)
    return err;
  err = ah_dev_function_attributes(dev, func, attr);
  if (err != hipErrorNotSupported)
    return err;
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

hipError_t ah_launch_is_kernel(const void *func) {
  return func != NULL && ah_kernel_sig(func) != NULL ? hipSuccess : hipErrorInvalidDeviceFunction;
}
