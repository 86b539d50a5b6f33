/* SPDX-License-Identifier: MIT */
/* AMD's extensions (hip_ext.h and the hipExt* functions of
 * hip_runtime_api.h): launches that record an event just before and just
 * after the kernel, compute-unit masks on streams, the link between two
 * devices, and launches of several kernels on several devices in one call.
 * What each means on the CPU and NVIDIA devices is in docs/api-coverage.md
 * ("AMD extensions"); the error codes follow AMD's runtime and hip-tests. */
#include "../core/stream.h"
#include "device_ops.h"
#include "launch.h"

#include <hip/hip_ext.h>

#include <stdlib.h>
#include <string.h>

/* ---- launches with start and stop events ---------------------------------- */

/* The events of an ext launch: NULL or live (a destroyed one is
 * hipErrorInvalidValue on AMD). */
static hipError_t ext_events(hipEvent_t start, hipEvent_t stop, struct ah_event **s,
                             struct ah_event **e) {
  *s = start != NULL ? ah_event_lookup(start) : NULL;
  *e = stop != NULL ? ah_event_lookup(stop) : NULL;
  if ((start != NULL && *s == NULL) || (stop != NULL && *e == NULL))
    return hipErrorInvalidValue;
  return hipSuccess;
}

/* AMD's checks of an ext launch that differ from hipLaunchKernel's: an empty
 * grid or block and a bad stream are hipErrorInvalidValue, too much dynamic
 * shared memory hipErrorOutOfMemory; flags 0 or hipExtAnyOrderLaunch. */
static hipError_t ext_check(dim3 grid, dim3 block, size_t shmem, hipStream_t stream, int flags) {
  struct ah_device *dev = ah_current_device();
  struct ah_stream *s;

  if (dev == NULL)
    return hipErrorNoDevice;
  if ((flags & ~hipExtAnyOrderLaunch) != 0)
    return hipErrorInvalidValue;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    return hipErrorInvalidValue;
  if (shmem > dev->props.sharedMemPerBlock)
    return hipErrorOutOfMemory;
  if (ah_stream_lookup(stream, &s) != hipSuccess)
    return hipErrorInvalidValue;
  return hipSuccess;
}

/* Start event, kernel, stop event, in the stream's order. The kernel is
 * checked before the start event is recorded, so a refused launch records
 * nothing. hipExtAnyOrderLaunch lets AMD overlap the kernel with the
 * previous one of the stream; anyhip keeps the order (which the flag
 * allows). */
static hipError_t ext_launch(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                             size_t shmem, hipStream_t stream, void **args, hipEvent_t start,
                             hipEvent_t stop, int flags, hipFunction_t module_fn, void **extra) {
  struct ah_event *s, *e;
  hipError_t err = ext_check(grid, block, shmem, stream, flags);

  if (err == hipSuccess)
    err = ext_events(start, stop, &s, &e);
  if (err != hipSuccess)
    return err;
  if (s != NULL) {
    err = ah_event_record(s, stream);
    if (err != hipSuccess)
      return err;
  }
  /* A module launch here is given in work sizes (hipExtModuleLaunchKernel). */
  err = module_fn != NULL ? ah_module_launch(module_fn, grid, block, shmem, stream, args, extra,
                                             AH_LAUNCH_WORK_SIZES)
                          : ah_launch_kernel(fn, sig, grid, block, shmem, stream, args, 0);
  if (err == hipSuccess && e != NULL)
    err = ah_event_record(e, stream);
  return err;
}

AH_EXPORT hipError_t __ahExtLaunchKernel(const void *fn, const ahKernelSig *sig, dim3 grid,
                                         dim3 block, size_t shmem, hipStream_t stream,
                                         void **args, hipEvent_t startEvent, hipEvent_t stopEvent,
                                         int flags) {
  AH_ENTER();
  AH_REQUIRE(fn != NULL, hipErrorInvalidDeviceFunction);
  AH_RETURN(ext_launch(fn, sig, grid, block, shmem, stream, args, startEvent, stopEvent, flags,
                       NULL, NULL));
}

AH_EXPORT hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks,
                                        dim3 dimBlocks, void **args, size_t sharedMemBytes,
                                        hipStream_t stream, hipEvent_t startEvent,
                                        hipEvent_t stopEvent, int flags) {
  AH_ENTER();
  AH_REQUIRE(function_address != NULL, hipErrorInvalidDeviceFunction);
  AH_RETURN(ext_launch(function_address, ah_kernel_sig(function_address), numBlocks, dimBlocks,
                       sharedMemBytes, stream, args, startEvent, stopEvent, flags, NULL, NULL));
}

/* Sizes in threads (OpenCL's global and local work sizes). AMD runs a
 * smaller last block when a global size is not a multiple of the local
 * one. A global size up to the local one is exactly that: one block of the
 * global size (blockDim reads it, as on AMD). Otherwise anyhip's blocks are
 * all of one size, so a remainder is refused (hipErrorInvalidValue) rather
 * than run with threads past the end. */
static hipError_t dim_of(uint32_t g, uint32_t l, uint32_t *grid, uint32_t *block) {
  if (g == 0 || l == 0)
    return hipErrorInvalidValue;
  if (g <= l) {
    *grid = 1;
    *block = g;
    return hipSuccess;
  }
  if (g % l != 0)
    return hipErrorInvalidValue;
  *grid = g / l;
  *block = l;
  return hipSuccess;
}

static hipError_t work_to_grid(uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly,
                               uint32_t lz, dim3 *grid, dim3 *block) {
  hipError_t err = dim_of(gx, lx, &grid->x, &block->x);

  if (err == hipSuccess)
    err = dim_of(gy, ly, &grid->y, &block->y);
  if (err == hipSuccess)
    err = dim_of(gz, lz, &grid->z, &block->z);
  return err;
}

static hipError_t ext_module(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
                             uint32_t ly, uint32_t lz, size_t shmem, hipStream_t stream,
                             void **kernelParams, void **extra, hipEvent_t start, hipEvent_t stop,
                             uint32_t flags) {
  dim3 grid, block;
  hipError_t err;

  if (f == NULL)
    return hipErrorInvalidResourceHandle;
  /* AMD checks the local sizes against the device's block limits first
   * (hipErrorInvalidValue), whatever the global sizes. */
  if (ah_current_device() != NULL) {
    const hipDeviceProp_t *p = &ah_current_device()->props;

    if (lx > (uint32_t)p->maxThreadsDim[0] || ly > (uint32_t)p->maxThreadsDim[1] ||
        lz > (uint32_t)p->maxThreadsDim[2] ||
        (uint64_t)lx * ly * lz > (uint64_t)p->maxThreadsPerBlock)
      return hipErrorInvalidValue;
  }
  err = work_to_grid(gx, gy, gz, lx, ly, lz, &grid, &block);
  if (err != hipSuccess)
    return err;
  /* A module launch's dynamic shared memory over the limit is
   * hipErrorInvalidValue on AMD (hipExtLaunchKernel's is hipErrorOutOfMemory). */
  if (ah_current_device() != NULL && shmem > ah_current_device()->props.sharedMemPerBlock)
    return hipErrorInvalidValue;
  return ext_launch(NULL, NULL, grid, block, shmem, stream, kernelParams, start, stop, (int)flags,
                    f, extra);
}

AH_EXPORT hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                              uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                              uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                              uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                              hipStream_t hStream, void **kernelParams,
                                              void **extra, hipEvent_t startEvent,
                                              hipEvent_t stopEvent, uint32_t flags) {
  AH_ENTER();
  AH_RETURN(ext_module(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX,
                       localWorkSizeY, localWorkSizeZ, sharedMemBytes, hStream, kernelParams,
                       extra, startEvent, stopEvent, flags));
}

AH_EXPORT hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                              uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                              uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                              uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                              hipStream_t hStream, void **kernelParams,
                                              void **extra, hipEvent_t startEvent,
                                              hipEvent_t stopEvent) {
  AH_ENTER();
  AH_RETURN(ext_module(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX,
                       localWorkSizeY, localWorkSizeZ, sharedMemBytes, hStream, kernelParams,
                       extra, startEvent, stopEvent, 0));
}

/* ---- compute-unit masks ----------------------------------------------------- */

/* 32-bit words for a mask of n compute units. */
static uint32_t mask_words(int n) {
  return (uint32_t)((n + 31) / 32);
}

/* The mask of every compute unit of dev, in words[0..mask_words). */
static void full_mask(const struct ah_device *dev, uint32_t *words) {
  int n = dev->props.multiProcessorCount;

  for (uint32_t w = 0; w < mask_words(n); w++)
    words[w] = n - 32 * (int)w >= 32 ? 0xffffffffu : (1u << (n - 32 * w)) - 1;
}

/* AMD: bits past the device's compute units are ignored, and a mask that
 * leaves no compute unit (all zero, or only bits past the end) gives the
 * stream every one. hip-tests' hipStreamWithCUMask checks both. The mask is
 * recorded and read back; the CPU device's workers and the NVIDIA device's
 * SMs are not partitioned by it (docs/api-coverage.md). */
AH_EXPORT hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream, uint32_t cuMaskSize,
                                                  const uint32_t *cuMask) {
  struct ah_device *dev;
  struct ah_stream *s;
  uint32_t *mask, n, any = 0;

  AH_ENTER();
  AH_REQUIRE(stream != NULL, hipErrorInvalidHandle);
  AH_REQUIRE(cuMaskSize != 0 && cuMask != NULL, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  n = mask_words(dev->props.multiProcessorCount);
  mask = calloc(n > 0 ? n : 1, sizeof(*mask));
  AH_REQUIRE(mask != NULL, hipErrorOutOfMemory);
  full_mask(dev, mask);
  for (uint32_t w = 0; w < n; w++) {
    mask[w] &= w < cuMaskSize ? cuMask[w] : 0;
    any |= mask[w];
  }
  if (any == 0)
    full_mask(dev, mask);
  if (ah_stream_create(dev, hipStreamDefault, 0, &s) != hipSuccess) {
    free(mask);
    return ah_fail(hipErrorOutOfMemory, __func__, "stream");
  }
  s->cu_mask = mask;
  s->cu_mask_words = n;
  *stream = (hipStream_t)s;
  return hipSuccess;
}

/* cuMaskSize must hold every compute unit of the current device (AMD); the
 * words past those are cleared. The null stream has every compute unit. */
AH_EXPORT hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize,
                                           uint32_t *cuMask) {
  struct ah_device *dev;
  struct ah_stream *s;
  uint32_t n;

  AH_ENTER();
  AH_REQUIRE(cuMask != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  dev = s != NULL ? s->dev : ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  n = mask_words(dev->props.multiProcessorCount);
  AH_REQUIRE(cuMaskSize >= n && cuMaskSize != 0, hipErrorInvalidValue);
  memset(cuMask, 0, cuMaskSize * sizeof(*cuMask));
  if (s != NULL && s->cu_mask != NULL)
    memcpy(cuMask, s->cu_mask, s->cu_mask_words * sizeof(*cuMask));
  else
    full_mask(dev, cuMask);
  return hipSuccess;
}

/* ---- links between devices ------------------------------------------------- */

/* HSA's hsa_amd_link_info_type_t values. */
enum { LINK_PCIE = 2, LINK_XGMI = 4 };

/* Devices of one process on the CPU backend share one memory: one hop over
 * the host's own fabric, reported as XGMI (AMD's direct peer link). Two
 * NVIDIA GPUs, or a GPU and the CPU device, are one PCIe hop apart as far as
 * anyhip can tell (the driver API does not name NVLink). */
AH_EXPORT hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype,
                                                  uint32_t *hopcount) {
  struct ah_device *a, *b;

  AH_ENTER();
  AH_REQUIRE(linktype != NULL && hopcount != NULL, hipErrorInvalidValue);
  AH_REQUIRE(device1 >= 0 && device2 >= 0, hipErrorInvalidValue);
  a = ah_device_get(device1);
  b = ah_device_get(device2);
  AH_REQUIRE(a != NULL && b != NULL, hipErrorInvalidDevice);
  AH_REQUIRE(a != b, hipErrorInvalidValue);
  *hopcount = 1;
  *linktype = ah_dev_share_memory(a, b) ? LINK_XGMI : LINK_PCIE;
  return hipSuccess;
}

/* ---- several kernels on several devices ------------------------------------ */

/* Checks every entry before anything runs: a kernel, a stream of a distinct
 * device each (AMD requires one entry per device). */
static hipError_t check_multi(const hipLaunchParams *list, int n, unsigned flags,
                              struct ah_device **devs) {
  if (list == NULL || n <= 0 || n > ah_device_count())
    return hipErrorInvalidValue;
  if ((flags & ~(unsigned)(hipCooperativeLaunchMultiDeviceNoPreSync |
                           hipCooperativeLaunchMultiDeviceNoPostSync)) != 0)
    return hipErrorInvalidValue;
  for (int i = 0; i < n; i++) {
    struct ah_stream *s;
    hipError_t err;

    if (list[i].func == NULL)
      return hipErrorInvalidDeviceFunction;
    err = ah_stream_lookup(list[i].stream, &s);
    if (err != hipSuccess)
      return err;
    if (s == NULL) /* the null stream: AMD wants an explicit stream per device */
      return hipErrorInvalidResourceHandle;
    devs[i] = s->dev;
    for (int j = 0; j < i; j++)
      if (devs[j] == devs[i])
        return hipErrorInvalidDevice;
  }
  return hipSuccess;
}

/* Each kernel is launched on its own stream with its device made current
 * for the launch; the caller's current device is restored. Without
 * NoPreSync, each launch first waits for the work already queued on every
 * listed stream; without NoPostSync, no listed stream goes on before every
 * kernel has finished (events join them), as HIP's multi-device launches. */
static hipError_t launch_multi(hipLaunchParams *list, int n, unsigned flags, int cooperative) {
  struct ah_device *devs[64];
  hipEvent_t pre[64], post[64];
  int saved = ah_current_ordinal(), made = 0;
  hipError_t err;

  if (n > 64)
    return hipErrorInvalidValue;
  err = check_multi(list, n, flags, devs);
  if (err != hipSuccess)
    return err;
  for (; made < n; made++) {
    struct ah_event *e;

    ah_set_current_ordinal(devs[made]->ordinal);
    err = ah_event_create(devs[made], hipEventDisableTiming, &e);
    if (err != hipSuccess)
      break;
    pre[made] = (hipEvent_t)e;
    err = ah_event_create(devs[made], hipEventDisableTiming, &e);
    if (err != hipSuccess) {
      ah_event_destroy(ah_event_lookup(pre[made]));
      break;
    }
    post[made] = (hipEvent_t)e;
  }
  for (int i = 0; err == hipSuccess && i < n && !(flags & hipCooperativeLaunchMultiDeviceNoPreSync);
       i++)
    err = ah_event_record(ah_event_lookup(pre[i]), list[i].stream);
  for (int i = 0; err == hipSuccess && i < n; i++) {
    struct ah_device *dev = devs[i];
    struct ah_queue *q = ((struct ah_stream *)list[i].stream)->queue;

    ah_set_current_ordinal(dev->ordinal);
    for (int j = 0; err == hipSuccess && j < n &&
                    !(flags & hipCooperativeLaunchMultiDeviceNoPreSync);
         j++)
      if (j != i)
        err = ah_dev_queue_wait_event(dev, q, ah_event_lookup(pre[j])->impl);
    if (err == hipSuccess)
      err = ah_launch_kernel(list[i].func, ah_kernel_sig(list[i].func), list[i].gridDim,
                             list[i].blockDim, list[i].sharedMem, list[i].stream, list[i].args,
                             cooperative);
    if (err == hipSuccess)
      err = ah_event_record(ah_event_lookup(post[i]), list[i].stream);
  }
  for (int i = 0; err == hipSuccess && i < n &&
                  !(flags & hipCooperativeLaunchMultiDeviceNoPostSync);
       i++) {
    struct ah_queue *q = ((struct ah_stream *)list[i].stream)->queue;

    for (int j = 0; err == hipSuccess && j < n; j++)
      if (j != i)
        err = ah_dev_queue_wait_event(devs[i], q, ah_event_lookup(post[j])->impl);
  }
  for (int i = 0; i < made; i++) { /* the waits hold what they need */
    ah_event_destroy(ah_event_lookup(pre[i]));
    ah_event_destroy(ah_event_lookup(post[i]));
  }
  ah_set_current_ordinal(saved);
  return err;
}

AH_EXPORT hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *launchParamsList,
                                                        int numDevices, unsigned int flags) {
  AH_ENTER();
  AH_RETURN(launch_multi(launchParamsList, numDevices, flags, 0));
}

/* Every block of every device's grid resident at once. Grid-wide sync works
 * within each device's grid; multi_grid_group (a barrier across the
 * devices) is not provided (docs/cooperative-groups.md). */
AH_EXPORT hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams *launchParamsList,
                                                           int numDevices, unsigned int flags) {
  AH_ENTER();
  AH_RETURN(launch_multi(launchParamsList, numDevices, flags, 1));
}

AH_EXPORT hipError_t hipModuleLaunchCooperativeKernelMultiDevice(
    hipFunctionLaunchParams *launchParamsList, unsigned int numDevices, unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(launchParamsList != NULL && numDevices != 0 &&
                 numDevices <= (unsigned)ah_device_count(),
             hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)(hipCooperativeLaunchMultiDeviceNoPreSync |
                                  hipCooperativeLaunchMultiDeviceNoPostSync)) == 0,
             hipErrorInvalidValue);
  /* Checked first, then launched one by one on their own streams. */
  for (unsigned i = 0; i < numDevices; i++) {
    struct ah_stream *s;

    AH_REQUIRE(launchParamsList[i].function != NULL, hipErrorInvalidResourceHandle);
    AH_REQUIRE_OK(ah_stream_lookup(launchParamsList[i].hStream, &s));
  }
  for (unsigned i = 0; i < numDevices; i++) {
    const hipFunctionLaunchParams *p = &launchParamsList[i];
    struct ah_stream *s;
    int saved = ah_current_ordinal();
    hipError_t err;

    (void)ah_stream_lookup(p->hStream, &s);
    if (s != NULL)
      ah_set_current_ordinal(s->dev->ordinal);
    err = ah_module_launch(p->function, (dim3){p->gridDimX, p->gridDimY, p->gridDimZ},
                           (dim3){p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes,
                           p->hStream, p->kernelParams, NULL, 1);
    ah_set_current_ordinal(saved);
    AH_REQUIRE_OK(err);
  }
  return hipSuccess;
}
