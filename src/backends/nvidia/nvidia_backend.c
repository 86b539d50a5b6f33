/* SPDX-License-Identifier: MIT */
/* The NVIDIA device's ops table and its device-level part: probing the
 * driver (no driver, or no GPU, is zero devices and nothing else), opening a
 * device on its primary context with every embedded image loaded, properties
 * and attributes from the driver, limits, and hipDeviceReset. The other ops
 * live in nvidia_mem.c, nvidia_queue.c and nvidia_module.c. */
#include "nvidia_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CUDA's shared memory per block without a per-function opt-in. */
#define DEFAULT_SMEM_LIMIT (48u * 1024)

struct ah_nv_config ah_nv_config = {.cuda_lib = "libcuda.so.1"};

/* Reads the settings, loads the driver and counts its devices. */
static int probe(void) {
  size_t bytes = 0, n_images = ah_nv_images(&bytes);
  const char *lib = getenv("ANYHIP_CUDA_LIB"), *hf = getenv("ANYHIP_NVIDIA_HOST_FUNCS");
  int count = 0;

  if (lib != NULL && *lib != '\0')
    ah_nv_config.cuda_lib = lib;
  ah_nv_config.driver_host_fns = hf != NULL && strcmp(hf, "driver") == 0;

  /* Registration happens in constructors, before logging is configured, so
   * it is reported here. */
  AH_LOG(NVIDIA, "%zu embedded device image(s) registered (%zu bytes)", n_images, bytes);
  if (!ah_cuda_load(ah_nv_config.cuda_lib))
    return 0;
  if (ah_cuda.cuDeviceGetCount(&count) != CUDA_SUCCESS)
    return 0;
  return count;
}

/* One attribute, 0 when the driver does not know it. */
static int attr(CUdevice cu, CUdevice_attribute a) {
  int v = 0;

  if (ah_cuda.cuDeviceGetAttribute(&v, a, cu) != CUDA_SUCCESS)
    return 0;
  return v;
}

/* hipDeviceProp_t fields read straight from one driver attribute. */
static const struct {
  CUdevice_attribute attr;
  unsigned short offset;
  unsigned char is_size; /* size_t field, else int */
} prop_map[] = {
#define I(a, f) {CU_DEVICE_ATTRIBUTE_##a, offsetof(hipDeviceProp_t, f), 0}
#define Z(a, f) {CU_DEVICE_ATTRIBUTE_##a, offsetof(hipDeviceProp_t, f), 1}
    Z(MAX_SHARED_MEMORY_PER_BLOCK, sharedMemPerBlock),
    I(MAX_REGISTERS_PER_BLOCK, regsPerBlock),
    I(WARP_SIZE, warpSize),
    Z(MAX_PITCH, memPitch),
    I(MAX_THREADS_PER_BLOCK, maxThreadsPerBlock),
    I(MAX_BLOCK_DIM_X, maxThreadsDim[0]),
    I(MAX_BLOCK_DIM_Y, maxThreadsDim[1]),
    I(MAX_BLOCK_DIM_Z, maxThreadsDim[2]),
    I(MAX_GRID_DIM_X, maxGridSize[0]),
    I(MAX_GRID_DIM_Y, maxGridSize[1]),
    I(MAX_GRID_DIM_Z, maxGridSize[2]),
    I(CLOCK_RATE, clockRate),
    Z(TOTAL_CONSTANT_MEMORY, totalConstMem),
    I(COMPUTE_CAPABILITY_MAJOR, major),
    I(COMPUTE_CAPABILITY_MINOR, minor),
    Z(TEXTURE_ALIGNMENT, textureAlignment),
    Z(TEXTURE_PITCH_ALIGNMENT, texturePitchAlignment),
    I(GPU_OVERLAP, deviceOverlap),
    I(MULTIPROCESSOR_COUNT, multiProcessorCount),
    I(KERNEL_EXEC_TIMEOUT, kernelExecTimeoutEnabled),
    I(INTEGRATED, integrated),
    I(CAN_MAP_HOST_MEMORY, canMapHostMemory),
    I(COMPUTE_MODE, computeMode),
    I(MAXIMUM_TEXTURE1D_WIDTH, maxTexture1D),
    I(MAXIMUM_TEXTURE1D_LINEAR_WIDTH, maxTexture1DLinear),
    I(MAXIMUM_TEXTURE2D_WIDTH, maxTexture2D[0]),
    I(MAXIMUM_TEXTURE2D_HEIGHT, maxTexture2D[1]),
    I(MAXIMUM_TEXTURE3D_WIDTH, maxTexture3D[0]),
    I(MAXIMUM_TEXTURE3D_HEIGHT, maxTexture3D[1]),
    I(MAXIMUM_TEXTURE3D_DEPTH, maxTexture3D[2]),
    I(MAXIMUM_TEXTURE2D_LAYERED_WIDTH, maxTexture2DLayered[0]),
    I(MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, maxTexture2DLayered[1]),
    I(MAXIMUM_TEXTURE2D_LAYERED_LAYERS, maxTexture2DLayered[2]),
    I(MAXIMUM_TEXTURE1D_LAYERED_WIDTH, maxTexture1DLayered[0]),
    I(MAXIMUM_TEXTURE1D_LAYERED_LAYERS, maxTexture1DLayered[1]),
    I(MAXIMUM_TEXTURECUBEMAP_WIDTH, maxTextureCubemap),
    I(MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, maxTextureCubemapLayered[0]),
    I(MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, maxTextureCubemapLayered[1]),
    Z(SURFACE_ALIGNMENT, surfaceAlignment),
    I(MAXIMUM_SURFACE1D_WIDTH, maxSurface1D),
    I(MAXIMUM_SURFACE2D_WIDTH, maxSurface2D[0]),
    I(MAXIMUM_SURFACE2D_HEIGHT, maxSurface2D[1]),
    I(MAXIMUM_SURFACE3D_WIDTH, maxSurface3D[0]),
    I(MAXIMUM_SURFACE3D_HEIGHT, maxSurface3D[1]),
    I(MAXIMUM_SURFACE3D_DEPTH, maxSurface3D[2]),
    I(MAXIMUM_SURFACE1D_LAYERED_WIDTH, maxSurface1DLayered[0]),
    I(MAXIMUM_SURFACE1D_LAYERED_LAYERS, maxSurface1DLayered[1]),
    I(MAXIMUM_SURFACE2D_LAYERED_WIDTH, maxSurface2DLayered[0]),
    I(MAXIMUM_SURFACE2D_LAYERED_HEIGHT, maxSurface2DLayered[1]),
    I(MAXIMUM_SURFACE2D_LAYERED_LAYERS, maxSurface2DLayered[2]),
    I(MAXIMUM_SURFACECUBEMAP_WIDTH, maxSurfaceCubemap),
    I(MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, maxSurfaceCubemapLayered[0]),
    I(MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, maxSurfaceCubemapLayered[1]),
    I(CONCURRENT_KERNELS, concurrentKernels),
    I(ECC_ENABLED, ECCEnabled),
    I(PCI_BUS_ID, pciBusID),
    I(PCI_DEVICE_ID, pciDeviceID),
    I(PCI_DOMAIN_ID, pciDomainID),
    I(TCC_DRIVER, tccDriver),
    I(ASYNC_ENGINE_COUNT, asyncEngineCount),
    I(UNIFIED_ADDRESSING, unifiedAddressing),
    I(MEMORY_CLOCK_RATE, memoryClockRate),
    I(GLOBAL_MEMORY_BUS_WIDTH, memoryBusWidth),
    I(L2_CACHE_SIZE, l2CacheSize),
    I(MAX_PERSISTING_L2_CACHE_SIZE, persistingL2CacheMaxSize),
    I(MAX_THREADS_PER_MULTIPROCESSOR, maxThreadsPerMultiProcessor),
    I(STREAM_PRIORITIES_SUPPORTED, streamPrioritiesSupported),
    I(GLOBAL_L1_CACHE_SUPPORTED, globalL1CacheSupported),
    I(LOCAL_L1_CACHE_SUPPORTED, localL1CacheSupported),
    Z(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, sharedMemPerMultiprocessor),
    Z(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, maxSharedMemoryPerMultiProcessor),
    I(MAX_REGISTERS_PER_MULTIPROCESSOR, regsPerMultiprocessor),
    I(MANAGED_MEMORY, managedMemory),
    I(MULTI_GPU_BOARD, isMultiGpuBoard),
    I(MULTI_GPU_BOARD_GROUP_ID, multiGpuBoardGroupID),
    I(HOST_NATIVE_ATOMIC_SUPPORTED, hostNativeAtomicSupported),
    I(SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, singleToDoublePrecisionPerfRatio),
    I(PAGEABLE_MEMORY_ACCESS, pageableMemoryAccess),
    I(CONCURRENT_MANAGED_ACCESS, concurrentManagedAccess),
    I(COMPUTE_PREEMPTION_SUPPORTED, computePreemptionSupported),
    I(CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, canUseHostPointerForRegisteredMem),
    I(COOPERATIVE_LAUNCH, cooperativeLaunch),
    I(COOPERATIVE_MULTI_DEVICE_LAUNCH, cooperativeMultiDeviceLaunch),
    Z(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, sharedMemPerBlockOptin),
    I(PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, pageableMemoryAccessUsesHostPageTables),
    I(DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, directManagedMemAccessFromHost),
    I(MAX_BLOCKS_PER_MULTIPROCESSOR, maxBlocksPerMultiProcessor),
    I(MAX_ACCESS_POLICY_WINDOW_SIZE, accessPolicyMaxWindowSize),
    Z(RESERVED_SHARED_MEMORY_PER_BLOCK, reservedSharedMemPerBlock),
    I(HOST_REGISTER_SUPPORTED, hostRegisterSupported),
    I(MEMORY_POOLS_SUPPORTED, memoryPoolsSupported),
    I(CLUSTER_LAUNCH, clusterLaunch),
    I(UNIFIED_FUNCTION_POINTERS, unifiedFunctionPointers),
#undef I
#undef Z
};

static void fill_props(struct ah_nv_device *nd, hipDeviceProp_t *p) {
  CUdevice cu = nd->cu;

  memset(p, 0, sizeof(*p));
  if (ah_cuda.cuDeviceGetName(p->name, (int)sizeof(p->name) - 1, cu) != CUDA_SUCCESS)
    snprintf(p->name, sizeof(p->name), "NVIDIA GPU %d", (int)cu);
  ah_cuda.cuDeviceGetUuid(&p->uuid, cu);
  ah_cuda.cuDeviceTotalMem(&p->totalGlobalMem, cu);
  for (size_t i = 0; i < sizeof(prop_map) / sizeof(prop_map[0]); i++) {
    int v = attr(cu, prop_map[i].attr);
    char *field = (char *)p + prop_map[i].offset;

    if (prop_map[i].is_size)
      *(size_t *)field = (size_t)(unsigned)v;
    else
      *(int *)field = v;
  }
  /* The launch path opts a kernel in to more than CUDA's default 48 KiB of
   * dynamic shared memory when a launch asks for it (HIP has no such step),
   * so a block can use all the opt-in limit. */
  if (p->sharedMemPerBlockOptin > p->sharedMemPerBlock)
    p->sharedMemPerBlock = p->sharedMemPerBlockOptin;
  snprintf(p->gcnArchName, sizeof(p->gcnArchName), "sm_%d%d", p->major, p->minor);
  /* clock64() reads the SM cycle counter. */
  p->clockInstructionRate = p->clockRate;
  /* Every feature bit holds on the GPUs CUDA 12 supports (sm_50 and up). */
  p->arch = (hipDeviceArch_t){1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
}

/* With lazy loading in force after all (the user set CUDA_MODULE_LOADING, or
 * another library initialized CUDA first), the driver loads its own memset
 * and copy kernels at their first use, and that first use waits for every
 * stream: a memset behind a held host function would hang. Use each once now. */
static void warm_up(struct ah_nv_device *nd) {
  CUmoduleLoadingMode mode = CU_MODULE_EAGER_LOADING;
  CUdeviceptr d = 0;

  if (ah_cuda.cuModuleGetLoadingMode == NULL ||
      ah_cuda.cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS || mode != CU_MODULE_LAZY_LOADING)
    return;
  AH_LOG(NVIDIA, "device %d: lazy module loading is on; warming up", nd->dev->ordinal);
  if (ah_cuda.cuMemAlloc(&d, 8192) != CUDA_SUCCESS)
    return;
  ah_cuda.cuMemsetD8Async(d, 0, 4096, CU_STREAM_LEGACY);
  ah_cuda.cuMemsetD16Async(d, 0, 2048, CU_STREAM_LEGACY);
  ah_cuda.cuMemsetD32Async(d, 0, 1024, CU_STREAM_LEGACY);
  ah_cuda.cuMemsetD2D8Async(d, 64, 0, 32, 4, CU_STREAM_LEGACY);
  ah_cuda.cuMemsetD2D16Async(d, 64, 0, 16, 4, CU_STREAM_LEGACY);
  ah_cuda.cuMemsetD2D32Async(d, 64, 0, 8, 4, CU_STREAM_LEGACY);
  ah_cuda.cuMemcpyAsync(d + 4096, d, 4096, CU_STREAM_LEGACY);
  ah_cuda.cuStreamSynchronize(CU_STREAM_LEGACY);
  ah_cuda.cuMemFree(d);
}

/* Everything that lives in the primary context: modules, limits, priorities. */
static hipError_t context_setup(struct ah_nv_device *nd) {
  static const CUlimit limits[3] = {CU_LIMIT_STACK_SIZE, CU_LIMIT_PRINTF_FIFO_SIZE,
                                    CU_LIMIT_MALLOC_HEAP_SIZE};
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  if (ah_cuda.cuCtxGetStreamPriorityRange(&nd->least_priority, &nd->greatest_priority) !=
      CUDA_SUCCESS)
    nd->least_priority = nd->greatest_priority = 0;
  for (int i = 0; i < 3; i++)
    if (ah_cuda.cuCtxGetLimit(&nd->dev->limits[i], limits[i]) != CUDA_SUCCESS)
      nd->dev->limits[i] = 0;
  warm_up(nd);
  return ah_nv_modules_open(nd);
}

static hipError_t device_open(int index, struct ah_device *dev) {
  struct ah_nv_device *nd = calloc(1, sizeof(*nd));
  hipError_t err;

  if (nd == NULL)
    return hipErrorOutOfMemory;
  nd->dev = dev;
  pthread_mutex_init(&nd->lock, NULL);
  err = ah_cuda_status(ah_cuda.cuDeviceGet(&nd->cu, index));
  if (err != hipSuccess)
    goto fail;
  err = ah_cuda_status(ah_cuda.cuDevicePrimaryCtxRetain(&nd->ctx, nd->cu));
  if (err != hipSuccess)
    goto fail;
  fill_props(nd, &dev->props);
  nd->static_smem_limit = DEFAULT_SMEM_LIMIT;
  dev->impl = nd;
  ah_nv_null_queue_init(nd);
  dev->null_queue = (struct ah_queue *)&nd->null_queue;
  err = context_setup(nd);
  if (err != hipSuccess) {
    dev->impl = NULL;
    ah_cuda.cuDevicePrimaryCtxRelease(nd->cu);
    goto fail;
  }
  AH_LOG(NVIDIA, "device %d: %s, %s, %d SMs, %zu MiB", dev->ordinal, dev->props.name,
         dev->props.gcnArchName, dev->props.multiProcessorCount,
         dev->props.totalGlobalMem >> 20);
  return hipSuccess;
fail:
  pthread_mutex_destroy(&nd->lock);
  free(nd);
  return err;
}

/* hipDeviceReset: the core has freed its streams, events and memory; the
 * primary context is reset too (which is what clears a sticky device fault,
 * where the driver allows it), then set up again as at device_open. */
static hipError_t device_reset(struct ah_device *dev) {
  struct ah_nv_device *nd = AH_NV(dev);
  CUresult r;

  if (ah_nv_enter(nd) == hipSuccess)
    ah_cuda.cuCtxSynchronize(); /* a fault is what the reset is for: ignore it */
  ah_nv_modules_close(nd);
  r = ah_cuda.cuDevicePrimaryCtxReset(nd->cu);
  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "device %d: cuDevicePrimaryCtxReset: %s", dev->ordinal,
           ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  __atomic_add_fetch(&nd->resets, 1, __ATOMIC_RELEASE); /* native graphs went with it */
  ah_nv_flags_reset(nd); /* their pinned memory went with the context */
  ah_nv_stages_reset(nd);
  /* Resetting does not release our reference; retaining again hands back the
   * (re-created) context. The extra reference lives as long as the process. */
  r = ah_cuda.cuDevicePrimaryCtxRetain(&nd->ctx, nd->cu);
  if (r == CUDA_SUCCESS)
    r = ah_cuda.cuCtxSetCurrent(nd->ctx);
  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "device %d: after the reset: %s", dev->ordinal, ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  return context_setup(nd);
}

static int can_access_peer(struct ah_device *dev, struct ah_device *peer) {
  int can = 0;

  if (ah_cuda.cuDeviceCanAccessPeer(&can, AH_NV(dev)->cu, AH_NV(peer)->cu) != CUDA_SUCCESS)
    return 0;
  return can;
}

/* Peer access is a property of dev's context: map peer's memory into it. */
static hipError_t peer_enable(struct ah_device *dev, struct ah_device *peer, int enable) {
  struct ah_nv_device *nd = AH_NV(dev);
  hipError_t err = ah_nv_enter(nd);
  CUresult r;

  if (err != hipSuccess)
    return err;
  r = enable ? ah_cuda.cuCtxEnablePeerAccess(AH_NV(peer)->ctx, 0)
             : ah_cuda.cuCtxDisablePeerAccess(AH_NV(peer)->ctx);
  return ah_cuda_status(r);
}

static hipError_t attribute(struct ah_device *dev, hipDeviceAttribute_t a, int *value) {
  switch ((int)a) {
  case hipDeviceAttributeVirtualMemoryManagementSupported: /* cuMem* (nvidia_vmm.c) */
    *value = ah_nv_vmm_supported(dev);
    return hipSuccess;
  case hipDeviceAttributePhysicalMultiProcessorCount:
    *value = dev->props.multiProcessorCount;
    return hipSuccess;
  case hipDeviceAttributeWallClockRate:
    *value = 1000000; /* wall_clock64() reads %globaltimer, in nanoseconds */
    return hipSuccess;
  case hipDeviceAttributeNumberOfXccs:
    *value = 1;
    return hipSuccess;
  case hipDeviceAttributeImageSupport: /* CUDA arrays, texture and surface objects */
    *value = 1;
    return hipSuccess;
  case hipDeviceAttributeFineGrainSupport:
  case hipDeviceAttributeCanUseStreamWaitValue: /* CUDA's memory operations (since 12.0) */
    *value = 1;
    return hipSuccess;
  case hipDeviceAttributeIsLargeBar:
    *value = 0;
    return hipSuccess;
  default:
    return hipErrorInvalidValue;
  }
}

static hipError_t set_limit(struct ah_device *dev, hipLimit_t limit, size_t value) {
  static const CUlimit map[3] = {CU_LIMIT_STACK_SIZE, CU_LIMIT_PRINTF_FIFO_SIZE,
                                 CU_LIMIT_MALLOC_HEAP_SIZE};
  struct ah_nv_device *nd = AH_NV(dev);
  hipError_t err;
  size_t now = value;

  if ((unsigned)limit >= 3)
    return hipErrorUnsupportedLimit;
  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  err = ah_cuda_status(ah_cuda.cuCtxSetLimit(map[limit], value));
  if (err != hipSuccess)
    return err;
  /* The driver rounds (the stack to 16 bytes, for one); report what it kept. */
  if (ah_cuda.cuCtxGetLimit(&now, map[limit]) != CUDA_SUCCESS)
    now = value;
  dev->limits[limit] = now;
  return hipSuccess;
}

const struct ah_backend ah_backend_nvidia = {
    .name = "nvidia",
    .runs_ptx = 1,
    .probe = probe,
    .device_open = device_open,
    .device_sync = ah_nv_device_sync,
    .device_reset = device_reset,
    .mem_info = ah_nv_mem_info,
    .attribute = attribute,
    .set_limit = set_limit,
    .can_access_peer = can_access_peer,
    .peer_enable = peer_enable,
    .mem_alloc = ah_nv_mem_alloc,
    .mem_free = ah_nv_mem_free,
    .host_register = ah_nv_host_register,
    .host_unregister = ah_nv_host_unregister,
    .queue_create = ah_nv_queue_create,
    .queue_destroy = ah_nv_queue_destroy,
    .submit = ah_nv_submit,
    .queue_sync = ah_nv_queue_sync,
    .queue_query = ah_nv_queue_query,
    .event_create = ah_nv_event_create,
    .event_destroy = ah_nv_event_destroy,
    .event_record = ah_nv_event_record,
    .event_query = ah_nv_event_query,
    .event_sync = ah_nv_event_sync,
    .event_elapsed = ah_nv_event_elapsed,
    .queue_wait_event = ah_nv_queue_wait_event,
    .symbol_address = ah_nv_symbol_address,
    .function_check = ah_nv_function_check,
    .function_attributes = ah_nv_function_attributes,
    .occupancy = ah_nv_occupancy,
    .managed_hint = ah_nv_managed_hint,
    .stream_memop = ah_nv_stream_memop,
    .ipc_mem_export = ah_nv_ipc_mem_export,
    .ipc_mem_open = ah_nv_ipc_mem_open,
    .ipc_mem_close = ah_nv_ipc_mem_close,
    .ipc_event_export = ah_nv_ipc_event_export,
    .ipc_event_open = ah_nv_ipc_event_open,
    .graph_build = ah_nv_graph_build,
    .graph_launch = ah_nv_graph_launch,
    .graph_set_kernel = ah_nv_graph_set_kernel,
    .graph_destroy = ah_nv_graph_destroy,
    .array_create = ah_nv_array_create,
    .array_destroy = ah_nv_array_destroy,
    .mipmap_create = ah_nv_mipmap_create,
    .mipmap_level = ah_nv_mipmap_level,
    .mipmap_destroy = ah_nv_mipmap_destroy,
    .texture_create = ah_nv_texture_create,
    .texture_destroy = ah_nv_texture_destroy,
    .surface_create = ah_nv_surface_create,
    .surface_destroy = ah_nv_surface_destroy,
    .vmm_granularity = ah_nv_vmm_granularity,
    .vmm_create = ah_nv_vmm_create,
    .vmm_release = ah_nv_vmm_release,
    .vmm_export = ah_nv_vmm_export,
    .vmm_import = ah_nv_vmm_import,
    .vmm_reserve = ah_nv_vmm_reserve,
    .vmm_address_free = ah_nv_vmm_address_free,
    .vmm_map = ah_nv_vmm_map,
    .vmm_unmap = ah_nv_vmm_unmap,
    .vmm_set_access = ah_nv_vmm_set_access,
};
