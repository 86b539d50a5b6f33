/* SPDX-License-Identifier: MIT */
/* The CPU device's ops table, and the part of the device that is not the
 * kernel engine or memory: how many virtual devices there are, what their
 * hipDeviceProp_t says (what is true of the host, plus HIP's limits), the
 * attributes the properties do not hold, limits (the fiber stack size) and
 * memory information. docs/semantics.md explains each property's value. */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <ctype.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Fiber stacks: the default is what host-compiled device code comfortably
 * needs (a printf alone takes a few KiB); smaller requests get the engine's
 * minimum (AH_CPU_STACK_MIN), larger ones are honoured up to the maximum. */
#define STACK_DEFAULT ((size_t)64 * 1024)
#define STACK_MAX ((size_t)64 * 1024 * 1024)
/* Reported only: device malloc and printf use the host's heap and stdout. */
#define HEAP_DEFAULT ((size_t)8 * 1024 * 1024)
/* AMD's: 4 KiB for each of 1024 work-items (buffered printf, cpu_printf.c) */
#define PRINTF_FIFO_DEFAULT ((size_t)4096 * 1024)

struct ah_cpu_config ah_cpu_config = {
    .warp_size = 64, .devices = 1, .compiled = 1, .avx2 = 1, .watchdog = 10, .alloc_cache = 1};

/* Reads the settings, then says how many virtual devices there are. */
static int probe(void) {
  struct ah_cpu_config *c = &ah_cpu_config;
  long warp;

  c->threads = (int)ah_env_long("ANYHIP_CPU_THREADS", 0, 0, 4096);
  warp = ah_env_long("ANYHIP_CPU_WARP_SIZE", 64, 32, 64);
  if (warp != 32 && warp != 64) {
    fprintf(stderr, "anyhip: ignoring ANYHIP_CPU_WARP_SIZE=%ld (32 or 64)\n", warp);
    warp = 64;
  }
  c->warp_size = (int)warp;
  c->devices = (int)ah_env_long("ANYHIP_CPU_DEVICES", 1, 0, 64);
  c->compiled = (int)ah_env_long("ANYHIP_CPU_COMPILED", 1, 0, 1);
  c->avx2 = (int)ah_env_long("ANYHIP_CPU_AVX2", 1, 0, 1);
  c->memory = ah_env_size("ANYHIP_CPU_MEMORY");
  c->watchdog = ah_env_seconds("ANYHIP_CPU_WATCHDOG", 10);
  c->alloc_cache = (int)ah_env_long("ANYHIP_CPU_ALLOC_CACHE", 1, 0, 1);
  return c->devices;
}

/* ---- facts about the host ----------------------------------------------- */

/* Copies the value of the first "key : value" line of /proc/cpuinfo whose key
 * is `key`. Returns 1 when found. */
static int cpuinfo_value(const char *key, char *out, size_t n) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  size_t klen = strlen(key);
  int found = 0;

  if (f == NULL)
    return 0;
  while (!found && fgets(line, sizeof(line), f) != NULL) {
    char *colon, *v, *end;

    if (strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '\t' &&
                                          line[klen] != ':'))
      continue;
    colon = strchr(line + klen, ':');
    if (colon == NULL)
      continue;
    for (v = colon + 1; isspace((unsigned char)*v); v++)
      ;
    end = v + strlen(v);
    while (end > v && isspace((unsigned char)end[-1]))
      *--end = '\0';
    if (*v == '\0')
      continue;
    snprintf(out, n, "%s", v);
    found = 1;
  }
  fclose(f);
  return found;
}

static long read_long_file(const char *path) {
  FILE *f = fopen(path, "r");
  long v = -1;

  if (f == NULL)
    return -1;
  if (fscanf(f, "%ld", &v) != 1)
    v = -1;
  fclose(f);
  return v;
}

/* The processor's marketing name: x86 and some Arm kernels say "model name";
 * other architectures have other keys; uname's machine is the last resort. */
static void cpu_model(char *out, size_t n) {
  static const char *const keys[] = {"model name", "Model", "Hardware", "cpu model", "cpu",
                                     "Processor"};
  struct utsname u;

  for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
    if (cpuinfo_value(keys[i], out, n))
      return;
  if (uname(&u) == 0)
    snprintf(out, n, "%s", u.machine);
  else
    snprintf(out, n, "unknown");
}

/* Parses sysfs cache sizes such as "1024K" or "32M". */
static long parse_size(const char *s) {
  char *end;
  long v = strtol(s, &end, 10);

  if (end == s || v < 0)
    return -1;
  if (*end == 'K')
    v *= 1024;
  else if (*end == 'M')
    v *= 1024 * 1024;
  return v;
}

/* The size in bytes of cpu0's data or unified cache at `level`, or 0. */
static long cache_size(int level) {
  for (int i = 0; i < 8; i++) {
    char path[128], buf[64];
    FILE *f;
    long lv, size = -1;

    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    lv = read_long_file(path);
    if (lv < 0)
      break;
    if (lv != level)
      continue;
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
    f = fopen(path, "r");
    if (f != NULL) {
      int instr = fgets(buf, sizeof(buf), f) != NULL && strncmp(buf, "Instruction", 11) == 0;

      fclose(f);
      if (instr)
        continue;
    }
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    f = fopen(path, "r");
    if (f != NULL) {
      if (fgets(buf, sizeof(buf), f) != NULL)
        size = parse_size(buf);
      fclose(f);
    }
    if (size > 0)
      return size;
  }
  return 0;
}

static int l2_cache_bytes(void) {
  long v = -1;

#ifdef _SC_LEVEL2_CACHE_SIZE
  v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  if (v <= 0)
    v = cache_size(2);
  return v > 0 && v <= INT_MAX ? (int)v : 0;
}

/* The cores this process may run on (taskset, cgroups' cpusets), which is
 * what a worker pool of "one thread per core" gets. */
int ah_cpu_online_cores(void) {
  cpu_set_t set;
  long n;

  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return CPU_COUNT(&set);
  n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static size_t physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  struct sysinfo si;

  if (pages > 0 && page > 0)
    return (size_t)pages * (size_t)page;
  if (sysinfo(&si) == 0)
    return (size_t)si.totalram * si.mem_unit;
  return 0;
}

/* A stable identity per host and device: FNV-1a of /etc/machine-id (or the
 * host name) and the device index, laid out as a version-4 UUID. */
static void make_uuid(int index, unsigned char out[16]) {
  char seed[300] = "";
  FILE *f = fopen("/etc/machine-id", "r");
  uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};

  if (f == NULL || fgets(seed, 64, f) == NULL)
    gethostname(seed, 64);
  if (f != NULL)
    fclose(f);
  seed[64] = '\0';
  snprintf(seed + strlen(seed), sizeof(seed) - strlen(seed), "/anyhip-cpu/%d", index);
  for (int k = 0; k < 2; k++)
    for (const char *p = seed; *p != '\0'; p++)
      h[k] = (h[k] ^ (unsigned char)*p) * 0x100000001b3ull;
  memcpy(out, h, 16);
  out[6] = (unsigned char)((out[6] & 0x0f) | 0x40);
  out[8] = (unsigned char)((out[8] & 0x3f) | 0x80);
}

/* ---- properties --------------------------------------------------------- */

static size_t round_stack(size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);

  if (bytes < AH_CPU_STACK_MIN)
    bytes = AH_CPU_STACK_MIN;
  return (bytes + page - 1) / page * page;
}

/* Fills p with what is true of the host and HIP's limits. Values with no
 * meaning on a CPU are 0 (docs/semantics.md, "The CPU device"). */
static void fill_props(int index, hipDeviceProp_t *p) {
  char model[200];
  int workers = ah_cpu_config.threads > 0 ? ah_cpu_config.threads : ah_cpu_online_cores();

  memset(p, 0, sizeof(*p));
  cpu_model(model, sizeof(model));
  snprintf(p->name, sizeof(p->name), "anyhip CPU (%s)", model);
  make_uuid(index, (unsigned char *)p->uuid.bytes);
  snprintf(p->gcnArchName, sizeof(p->gcnArchName), "cpu");

  /* Memory: device memory is host memory. */
  p->totalGlobalMem = ah_cpu_config.memory != 0 ? ah_cpu_config.memory : physical_memory();
  p->sharedMemPerBlock = 64 * 1024;
  p->sharedMemPerBlockOptin = 64 * 1024;
  p->sharedMemPerMultiprocessor = 64 * 1024;
  p->maxSharedMemoryPerMultiProcessor = 64 * 1024;
  p->reservedSharedMemPerBlock = 0;
  p->totalConstMem = 64 * 1024;
  p->memPitch = INT_MAX;
  p->textureAlignment = 256;
  p->texturePitchAlignment = 256;
  p->surfaceAlignment = 256;
  /* Textures and surfaces (src/core/texture.c): AMD's limits (MI-series), checked by the
   * array and texture entry points. */
  p->maxTexture1D = p->maxTexture1DMipmap = 16384;
  p->maxTexture1DLinear = 1 << 27;
  p->maxTexture2D[0] = p->maxTexture2D[1] = 16384;
  p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 16384;
  p->maxTexture2DLinear[0] = p->maxTexture2DLinear[1] = 16384;
  p->maxTexture2DLinear[2] = 16384 * 16;
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 16384;
  p->maxTexture3D[0] = p->maxTexture3D[1] = 16384;
  p->maxTexture3D[2] = 8192;
  p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = p->maxTexture3DAlt[2] = 8192;
  p->maxTextureCubemap = 16384;
  p->maxTexture1DLayered[0] = 16384, p->maxTexture1DLayered[1] = 8192;
  p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 16384;
  p->maxTexture2DLayered[2] = 8192;
  p->maxTextureCubemapLayered[0] = 16384, p->maxTextureCubemapLayered[1] = 8192;
  p->maxSurface1D = 16384;
  p->maxSurface2D[0] = p->maxSurface2D[1] = 16384;
  p->maxSurface3D[0] = p->maxSurface3D[1] = 16384;
  p->maxSurface3D[2] = 8192;
  p->maxSurface1DLayered[0] = 16384, p->maxSurface1DLayered[1] = 8192;
  p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 16384;
  p->maxSurface2DLayered[2] = 8192;
  p->maxSurfaceCubemap = 16384;
  p->maxSurfaceCubemapLayered[0] = 16384, p->maxSurfaceCubemapLayered[1] = 8192;
  p->l2CacheSize = l2_cache_bytes();
  p->memoryClockRate = 0; /* unknown without privileges (DMI) */
  p->memoryBusWidth = 0;

  /* Execution: a multiprocessor is a worker thread. It holds 1024 threads of
   * blocks (one of HIP's maximum size, 16 of 64 threads), at most 32: what
   * a cooperative launch keeps resident (each block an OS thread), so that
   * occupancy x multiProcessorCount sizes a cooperative grid as HIP documents
   * (docs/occupancy.md). A normal launch runs one block at a time per worker. */
  p->multiProcessorCount = workers;
  p->warpSize = ah_cpu_config.warp_size;
  /* The kernel language's warpSize, for host code too, from the first HIP call. */
  __atomic_store_n(&warpSize, ah_cpu_config.warp_size, __ATOMIC_RELAXED);
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
  p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = INT_MAX; /* as HIP on AMD */
  p->maxThreadsPerMultiProcessor = AH_CPU_THREADS_PER_WORKER;
  p->maxBlocksPerMultiProcessor = AH_CPU_BLOCKS_PER_WORKER;
  p->regsPerBlock = 65536;
  p->regsPerMultiprocessor = 65536;
  /* clock64() counts nanoseconds, and code converts its ticks to time with clockRate (as
   * hip-tests and AMD's guide do): the two must agree, so the rate is 1 GHz. */
  p->clockRate = AH_CPU_WALL_CLOCK_KHZ;
  p->clockInstructionRate = AH_CPU_WALL_CLOCK_KHZ; /* clock64() counts nanoseconds too */
  p->major = 9; /* every HIP feature of a gfx9 (CDNA) device is there */
  p->minor = 0;
  p->singleToDoublePrecisionPerfRatio = 2;
  p->computeMode = 0; /* hipComputeModeDefault */

  /* Capabilities. */
  p->concurrentKernels = 1;
  p->asyncEngineCount = 2; /* every stream has its own thread: copies overlap kernels both ways */
  p->deviceOverlap = 1;
  p->integrated = 1;
  p->canMapHostMemory = 1;
  p->unifiedAddressing = 1;
  p->managedMemory = 1;
  p->concurrentManagedAccess = 1;
  p->directManagedMemAccessFromHost = 1;
  p->pageableMemoryAccess = 1;
  p->pageableMemoryAccessUsesHostPageTables = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->hostNativeAtomicSupported = 1;
  p->hostRegisterSupported = 1;
  p->hostRegisterReadOnlySupported = 1;
  p->cooperativeLaunch = 1;
  p->cooperativeMultiDeviceLaunch = 1; /* multi_grid_group across CPU devices */
  /* Its grids may differ in kernel, shape and shared memory. */
  p->cooperativeMultiDeviceUnmatchedFunc = 1;
  p->cooperativeMultiDeviceUnmatchedGridDim = 1;
  p->cooperativeMultiDeviceUnmatchedBlockDim = 1;
  p->cooperativeMultiDeviceUnmatchedSharedMem = 1;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->unifiedFunctionPointers = 1; /* a device function pointer is a host one */
  p->isLargeBar = 1;              /* the host reaches all device memory directly */
  p->isMultiGpuBoard = ah_cpu_config.devices > 1;
  p->multiGpuBoardGroupID = 0;
  p->ECCEnabled = 0;
  p->kernelExecTimeoutEnabled = 0;

  /* A PCI address no real bus uses: domain 0xffff, bus = device index. */
  p->pciDomainID = 0xffff;
  p->pciBusID = index;
  p->pciDeviceID = 0;

  /* What the kernel language offers on the CPU (include/hip/anyhip/cpu). */
  p->arch.hasGlobalInt32Atomics = 1;
  p->arch.hasGlobalFloatAtomicExch = 1;
  p->arch.hasSharedInt32Atomics = 1;
  p->arch.hasSharedFloatAtomicExch = 1;
  p->arch.hasFloatAtomicAdd = 1;
  p->arch.hasGlobalInt64Atomics = 1;
  p->arch.hasSharedInt64Atomics = 1;
  p->arch.hasDoubles = 1;
  p->arch.hasWarpVote = 1;
  p->arch.hasWarpBallot = 1;
  p->arch.hasWarpShuffle = 1;
  p->arch.hasFunnelShift = 1;
  p->arch.hasThreadFenceSystem = 1;
  p->arch.hasSyncThreadsExt = 1;
  p->arch.has3dGrid = 1;
}

static void set_default_limits(struct ah_cpu_device *cd) {
  struct ah_device *dev = cd->dev;

  cd->stack_size = round_stack(STACK_DEFAULT);
  cd->heap_size = HEAP_DEFAULT;
  cd->printf_fifo = PRINTF_FIFO_DEFAULT;
  dev->limits[hipLimitStackSize] = STACK_DEFAULT;
  dev->limits[hipLimitPrintfFifoSize] = PRINTF_FIFO_DEFAULT;
  dev->limits[hipLimitMallocHeapSize] = HEAP_DEFAULT;
}

static hipError_t device_open(int index, struct ah_device *dev) {
  struct ah_cpu_device *cd = calloc(1, sizeof(*cd));
  hipError_t err;

  if (cd == NULL)
    return hipErrorOutOfMemory;
  cd->dev = dev;
  dev->impl = cd;
  fill_props(index, &dev->props);
  set_default_limits(cd);
  err = ah_cpu_queues_init(cd);
  if (err != hipSuccess) {
    dev->impl = NULL;
    free(cd);
  }
  return err;
}

/* The core has destroyed the device's streams and freed its memory; what is
 * left is the sticky kernel fault and the limits. */
static hipError_t device_reset(struct ah_device *dev) {
  ah_cpu_queues_reset(dev);
  ah_cpu_mem_cache_release();
  set_default_limits(dev->impl);
  return hipSuccess;
}

/* What the device's accounting says (core/device.c): its size less what
 * is allocated on it, whether or not the host has touched those pages. */
static hipError_t mem_info(struct ah_device *dev, size_t *free_bytes, size_t *total_bytes) {
  size_t total = dev->props.totalGlobalMem, used = atomic_load(&dev->mem_used);

  *total_bytes = total;
  *free_bytes = used < total ? total - used : 0;
  return hipSuccess;
}

/* Attributes with no hipDeviceProp_t field. */
static hipError_t attribute(struct ah_device *dev, hipDeviceAttribute_t attr, int *value) {
  switch (attr) {
  case hipDeviceAttributePhysicalMultiProcessorCount:
    *value = ah_cpu_online_cores();
    return hipSuccess;
  case hipDeviceAttributeFineGrainSupport:
    *value = 1; /* all memory is coherent host memory */
    return hipSuccess;
  case hipDeviceAttributeWallClockRate:
    *value = AH_CPU_WALL_CLOCK_KHZ;
    return hipSuccess;
  case hipDeviceAttributeNumberOfXccs:
    *value = 1;
    return hipSuccess;
  case hipDeviceAttributeHostNumaId: /* the device's memory is the host's */
    *value = access("/sys/devices/system/node/node0", F_OK) == 0 ? 0 : -1;
    return hipSuccess;
  case hipDeviceAttributePciChipId:
    *value = 0;
    return hipSuccess;
  case hipDeviceAttributeCanUseStreamWaitValue: /* host functions that poll (hip_memop.c) */
  case hipDeviceAttributeVirtualMemoryManagementSupported: /* memfd mappings (cpu_vmm.c) */
    *value = 1;
    return hipSuccess;
  case hipDeviceAttributeHdpMemFlushCntl: /* AMD writes the register's address through */
  case hipDeviceAttributeHdpRegFlushCntl: /* the int *: there is none here, it is NULL, */
    *value = 0;                           /* and an int of 0 overruns no caller */
    return hipSuccess;
  case hipDeviceAttributeImageSupport: /* textures and surfaces (src/core/texture.c) */
    *value = 1;
    return hipSuccess;
  default:
    return hipErrorInvalidValue;
  }
}

/* Stores the limit the device honours; the core keeps what it reports. */
static hipError_t set_limit(struct ah_device *dev, hipLimit_t limit, size_t value) {
  struct ah_cpu_device *cd = dev->impl;

  switch (limit) {
  case hipLimitStackSize:
    if (value > STACK_MAX)
      return hipErrorInvalidValue;
    __atomic_store_n(&cd->stack_size, round_stack(value), __ATOMIC_RELAXED); /* read by launches */
    return hipSuccess;
  case hipLimitPrintfFifoSize:
    __atomic_store_n(&cd->printf_fifo, value, __ATOMIC_RELAXED); /* read by launches */
    return hipSuccess;
  case hipLimitMallocHeapSize:
    cd->heap_size = value;
    return hipSuccess;
  default:
    return hipErrorUnsupportedLimit;
  }
}

const struct ah_backend ah_backend_cpu = {
    .name = "cpu",
    .probe = probe,
    .device_open = device_open,
    .device_sync = ah_cpu_device_sync,
    .device_reset = device_reset,
    .mem_info = mem_info,
    .attribute = attribute,
    .set_limit = set_limit,
    .host_addressable = 1,
    .checks_static_shared = 1,
    .multi_grid = 1,
    .ipc_mem_export = ah_cpu_ipc_mem_export,
    .ipc_mem_open = ah_cpu_ipc_mem_open,
    .ipc_mem_close = ah_cpu_ipc_mem_close,
    .vmm_granularity = ah_cpu_vmm_granularity,
    .vmm_create = ah_cpu_vmm_create,
    .vmm_release = ah_cpu_vmm_release,
    .vmm_export = ah_cpu_vmm_export,
    .vmm_import = ah_cpu_vmm_import,
    .vmm_reserve = ah_cpu_vmm_reserve,
    .vmm_address_free = ah_cpu_vmm_address_free,
    .vmm_map = ah_cpu_vmm_map,
    .vmm_unmap = ah_cpu_vmm_unmap,
    .vmm_set_access = ah_cpu_vmm_set_access,
    .mem_alloc = ah_cpu_mem_alloc,
    .mem_free = ah_cpu_mem_free,
    .host_register = ah_cpu_host_register,
    .host_unregister = ah_cpu_host_unregister,
    .queue_create = ah_cpu_queue_create,
    .queue_destroy = ah_cpu_queue_destroy,
    .submit = ah_cpu_submit,
    .queue_sync = ah_cpu_queue_sync,
    .queue_query = ah_cpu_queue_query,
    .event_create = ah_cpu_event_create,
    .event_destroy = ah_cpu_event_destroy,
    .event_record = ah_cpu_event_record,
    .event_query = ah_cpu_event_query,
    .event_sync = ah_cpu_event_sync,
    .event_elapsed = ah_cpu_event_elapsed,
    .queue_wait_event = ah_cpu_queue_wait_event,
    .symbol_address = ah_cpu_symbol_address,
    .function_check = ah_cpu_function_check,
    .coop_max_blocks = ah_cpu_coop_max_blocks,
};
