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

/* Start event, kernel, stop event, in the stream's order (core/launch_multi.c).
 * hipExtAnyOrderLaunch lets AMD overlap the kernel with the previous one of
 * the stream; anyhip keeps the order (which the flag allows). */
static hipError_t ext_launch(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                             size_t shmem, hipStream_t stream, void **args, hipEvent_t start,
                             hipEvent_t stop, int flags, hipFunction_t module_fn, void **extra) {
  struct ah_event *s, *e;
  hipError_t err = ext_check(grid, block, shmem, stream, flags);

  if (err == hipSuccess)
    err = ext_events(start, stop, &s, &e);
  if (err != hipSuccess)
    return err;
  return ah_launch_between(s, e, fn, sig, module_fn, grid, block, shmem, stream, args, extra);
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

/* AMD: bits past the device's compute units are ignored, and a mask that
 * leaves no compute unit (all zero, or only bits past the end) gives the
 * stream every one. hip-tests' hipStreamWithCUMask checks both. The mask is
 * recorded and read back; the CPU device's workers and the NVIDIA device's
 * SMs are not partitioned by it (docs/api-coverage.md). */
AH_EXPORT hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream, uint32_t cuMaskSize,
                                                  const uint32_t *cuMask) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(stream != NULL, hipErrorInvalidHandle);
  AH_REQUIRE(cuMaskSize != 0 && cuMask != NULL, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_RETURN(ah_stream_create_cu_mask(dev, cuMask, cuMaskSize, stream));
}

/* cuMaskSize must hold every compute unit of the current device (AMD); the
 * words past those are cleared. The null stream has every compute unit. */
AH_EXPORT hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize,
                                           uint32_t *cuMask) {
  struct ah_device *dev;
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE(cuMask != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  dev = s != NULL ? s->dev : ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(cuMaskSize >= ah_cu_mask_words(dev) && cuMaskSize != 0, hipErrorInvalidValue);
  ah_stream_get_cu_mask(s, dev, cuMask, cuMaskSize);
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

/* Checked here, launched and joined by core/launch_multi.c. */
static hipError_t launch_multi(hipLaunchParams *list, int n, unsigned flags, int cooperative) {
  struct ah_device *devs[AH_LAUNCH_MULTI_MAX];
  hipError_t err;

  if (n > AH_LAUNCH_MULTI_MAX)
    return hipErrorInvalidValue;
  err = check_multi(list, n, flags, devs);
  if (err != hipSuccess)
    return err;
  return ah_launch_multi(list, n, devs, flags, cooperative);
}

AH_EXPORT hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *launchParamsList,
                                                        int numDevices, unsigned int flags) {
  AH_ENTER();
  AH_RETURN(launch_multi(launchParamsList, numDevices, flags, 0));
}

/* Every block of every device's grid resident at once. Grid-wide sync works
 * within each device's grid; on CPU devices multi_grid_group's sync is a
 * barrier across all the grids (docs/cooperative-groups.md). */
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
  AH_RETURN(ah_launch_module_multi(launchParamsList, numDevices));
}
