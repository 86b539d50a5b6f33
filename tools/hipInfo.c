/* SPDX-License-Identifier: MIT */
/* hipInfo: prints the HIP runtime and driver versions, then every device and
 * its properties, limits and peers, in the layout of ROCm's hipInfo (one
 * "name: value" per line) so that `hipInfo | grep gcnArchName` works as the
 * guide shows. The first three lines summarize; zero devices is not an error.
 * Uses only the public HIP API. */
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#define KEY_WIDTH 34

static void line_s(const char *key, const char *value) {
  printf("%-*s%s\n", KEY_WIDTH, key, value);
}

static void line_i(const char *key, long long value) {
  printf("%-*s%lld\n", KEY_WIDTH, key, value);
}

static void line_bytes(const char *key, size_t bytes) {
  char buf[64];

  if (bytes >= (size_t)1 << 30)
    snprintf(buf, sizeof(buf), "%.2f GiB (%zu bytes)", bytes / 1073741824.0, bytes);
  else if (bytes >= (size_t)1 << 20)
    snprintf(buf, sizeof(buf), "%.2f MiB (%zu bytes)", bytes / 1048576.0, bytes);
  else if (bytes >= 1024)
    snprintf(buf, sizeof(buf), "%.2f KiB (%zu bytes)", bytes / 1024.0, bytes);
  else
    snprintf(buf, sizeof(buf), "%zu bytes", bytes);
  line_s(key, buf);
}

static void line_khz(const char *key, int khz) {
  char buf[64];

  if (khz <= 0)
    snprintf(buf, sizeof(buf), "unknown");
  else
    snprintf(buf, sizeof(buf), "%.0f MHz (%d kHz)", khz / 1000.0, khz);
  line_s(key, buf);
}

/* An attribute with no property field; "n/a" when the device has no answer. */
static void line_attr(const char *key, hipDeviceAttribute_t attr, int dev) {
  int v;

  if (hipDeviceGetAttribute(&v, attr, dev) == hipSuccess)
    line_i(key, v);
  else
    line_s(key, "n/a");
  (void)hipGetLastError();
}

static void print_device(int d, int count) {
  hipDeviceProp_t p;
  size_t free_b = 0, total = 0, lim;
  char buf[256];
  int least = 0, greatest = 0;

  if (hipGetDeviceProperties(&p, d) != hipSuccess) {
    printf("device %d: %s\n", d, hipGetErrorString(hipGetLastError()));
    return;
  }
  printf("--------------------------------------------------------------------------------\n");
  line_i("device#", d);
  line_s("Name:", p.name);
  line_s("gcnArchName:", p.gcnArchName);
  snprintf(buf, sizeof(buf), "%d.%d", p.major, p.minor);
  line_s("major.minor:", buf);
  snprintf(buf, sizeof(buf), "%04x:%02x:%02x.0", (unsigned)p.pciDomainID, (unsigned)p.pciBusID,
           (unsigned)p.pciDeviceID);
  line_s("pciBusId:", buf);
  line_i("pciBusID:", p.pciBusID);
  line_i("pciDeviceID:", p.pciDeviceID);
  line_i("pciDomainID:", p.pciDomainID);
  line_i("multiProcessorCount:", p.multiProcessorCount);
  line_attr("physicalMultiProcessorCount:", hipDeviceAttributePhysicalMultiProcessorCount, d);
  line_i("maxThreadsPerMultiProcessor:", p.maxThreadsPerMultiProcessor);
  line_i("maxBlocksPerMultiProcessor:", p.maxBlocksPerMultiProcessor);
  line_i("isMultiGpuBoard:", p.isMultiGpuBoard);
  line_i("integrated:", p.integrated);
  line_khz("clockRate:", p.clockRate);
  line_khz("clockInstructionRate:", p.clockInstructionRate);
  line_attr("wallClockRate (kHz):", hipDeviceAttributeWallClockRate, d);
  line_khz("memoryClockRate:", p.memoryClockRate);
  line_i("memoryBusWidth:", p.memoryBusWidth);
  line_bytes("totalGlobalMem:", p.totalGlobalMem);
  line_bytes("totalConstMem:", p.totalConstMem);
  line_bytes("sharedMemPerBlock:", p.sharedMemPerBlock);
  line_bytes("sharedMemPerBlockOptin:", p.sharedMemPerBlockOptin);
  line_bytes("maxSharedMemoryPerMultiProcessor:", p.maxSharedMemoryPerMultiProcessor);
  line_bytes("l2CacheSize:", (size_t)p.l2CacheSize);
  line_i("regsPerBlock:", p.regsPerBlock);
  line_i("regsPerMultiprocessor:", p.regsPerMultiprocessor);
  line_i("warpSize:", p.warpSize);
  line_i("maxThreadsPerBlock:", p.maxThreadsPerBlock);
  line_i("maxThreadsDim.x:", p.maxThreadsDim[0]);
  line_i("maxThreadsDim.y:", p.maxThreadsDim[1]);
  line_i("maxThreadsDim.z:", p.maxThreadsDim[2]);
  line_i("maxGridSize.x:", p.maxGridSize[0]);
  line_i("maxGridSize.y:", p.maxGridSize[1]);
  line_i("maxGridSize.z:", p.maxGridSize[2]);
  line_bytes("memPitch:", p.memPitch);
  line_i("textureAlignment:", (long long)p.textureAlignment);
  line_i("texturePitchAlignment:", (long long)p.texturePitchAlignment);
  line_attr("imageSupport:", hipDeviceAttributeImageSupport, d);
  line_i("maxTexture1D:", p.maxTexture1D);
  line_i("maxTexture2D.width:", p.maxTexture2D[0]);
  line_i("maxTexture2D.height:", p.maxTexture2D[1]);
  line_i("maxTexture3D.width:", p.maxTexture3D[0]);
  line_i("maxTexture3D.height:", p.maxTexture3D[1]);
  line_i("maxTexture3D.depth:", p.maxTexture3D[2]);
  line_i("computeMode:", p.computeMode);
  line_i("concurrentKernels:", p.concurrentKernels);
  line_i("asyncEngineCount:", p.asyncEngineCount);
  line_i("cooperativeLaunch:", p.cooperativeLaunch);
  line_i("cooperativeMultiDeviceLaunch:", p.cooperativeMultiDeviceLaunch);
  line_i("canMapHostMemory:", p.canMapHostMemory);
  line_i("unifiedAddressing:", p.unifiedAddressing);
  line_i("managedMemory:", p.managedMemory);
  line_i("concurrentManagedAccess:", p.concurrentManagedAccess);
  line_i("directManagedMemAccessFromHost:", p.directManagedMemAccessFromHost);
  line_i("pageableMemoryAccess:", p.pageableMemoryAccess);
  line_i("hostRegisterSupported:", p.hostRegisterSupported);
  line_i("memoryPoolsSupported:", p.memoryPoolsSupported);
  line_attr("virtualMemoryManagement:", hipDeviceAttributeVirtualMemoryManagementSupported, d);
  line_attr("fineGrainSupport:", hipDeviceAttributeFineGrainSupport, d);
  line_i("streamPrioritiesSupported:", p.streamPrioritiesSupported);
  line_i("isLargeBar:", p.isLargeBar);
  line_i("ECCEnabled:", p.ECCEnabled);
  line_i("kernelExecTimeoutEnabled:", p.kernelExecTimeoutEnabled);
  line_i("arch.hasGlobalInt32Atomics:", p.arch.hasGlobalInt32Atomics);
  line_i("arch.hasGlobalFloatAtomicExch:", p.arch.hasGlobalFloatAtomicExch);
  line_i("arch.hasSharedInt32Atomics:", p.arch.hasSharedInt32Atomics);
  line_i("arch.hasSharedFloatAtomicExch:", p.arch.hasSharedFloatAtomicExch);
  line_i("arch.hasFloatAtomicAdd:", p.arch.hasFloatAtomicAdd);
  line_i("arch.hasGlobalInt64Atomics:", p.arch.hasGlobalInt64Atomics);
  line_i("arch.hasSharedInt64Atomics:", p.arch.hasSharedInt64Atomics);
  line_i("arch.hasDoubles:", p.arch.hasDoubles);
  line_i("arch.hasWarpVote:", p.arch.hasWarpVote);
  line_i("arch.hasWarpBallot:", p.arch.hasWarpBallot);
  line_i("arch.hasWarpShuffle:", p.arch.hasWarpShuffle);
  line_i("arch.hasFunnelShift:", p.arch.hasFunnelShift);
  line_i("arch.hasThreadFenceSystem:", p.arch.hasThreadFenceSystem);
  line_i("arch.hasSyncThreadsExt:", p.arch.hasSyncThreadsExt);
  line_i("arch.hasSurfaceFuncs:", p.arch.hasSurfaceFuncs);
  line_i("arch.has3dGrid:", p.arch.has3dGrid);
  line_i("arch.hasDynamicParallelism:", p.arch.hasDynamicParallelism);

  /* Limits, memory and stream priorities are per current device. */
  if (hipSetDevice(d) == hipSuccess) {
    if (hipDeviceGetLimit(&lim, hipLimitStackSize) == hipSuccess)
      line_bytes("limit.stackSize:", lim);
    if (hipDeviceGetLimit(&lim, hipLimitPrintfFifoSize) == hipSuccess)
      line_bytes("limit.printfFifoSize:", lim);
    if (hipDeviceGetLimit(&lim, hipLimitMallocHeapSize) == hipSuccess)
      line_bytes("limit.mallocHeapSize:", lim);
    if (hipDeviceGetStreamPriorityRange(&least, &greatest) == hipSuccess) {
      snprintf(buf, sizeof(buf), "%d (least) to %d (greatest)", least, greatest);
      line_s("streamPriorities:", buf);
    }
    if (hipMemGetInfo(&free_b, &total) == hipSuccess) {
      line_bytes("memInfo.total:", total);
      snprintf(buf, sizeof(buf), "%.2f GiB (%.0f%%)", free_b / 1073741824.0,
               total > 0 ? 100.0 * (double)free_b / (double)total : 0.0);
      line_s("memInfo.free:", buf);
    }
  }
  (void)hipGetLastError();

  /* Peers: the devices this one can reach, and those it cannot. */
  for (int pass = 0; pass < 2; pass++) {
    int any = 0;

    printf("%-*s", KEY_WIDTH, pass == 0 ? "peers:" : "non-peers:");
    for (int o = 0; o < count; o++) {
      int can = 0;

      if (hipDeviceCanAccessPeer(&can, d, o) != hipSuccess)
        can = 0;
      if ((can != 0) == (pass == 0)) {
        printf("%sdevice#%d", any ? " " : "", o);
        any = 1;
      }
    }
    printf("%s\n", any ? "" : "none");
  }
  (void)hipGetLastError();
}

int main(void) {
  int runtime = 0, driver = 0, count = 0;
  hipError_t err;

  (void)hipRuntimeGetVersion(&runtime);
  (void)hipDriverGetVersion(&driver);
  printf("anyhip %d.%d.%d, HIP %d.%d.%d (runtime version %d, driver version %d)\n",
         ANYHIP_VERSION_MAJOR, ANYHIP_VERSION_MINOR, ANYHIP_VERSION_PATCH, HIP_VERSION_MAJOR,
         HIP_VERSION_MINOR, HIP_VERSION_PATCH, runtime, driver);
  err = hipGetDeviceCount(&count);
  if (err != hipSuccess && err != hipErrorNoDevice) {
    printf("Devices: none (%s)\n", hipGetErrorString(err));
    return 1;
  }
  printf("Devices: %d\n", count);
  for (int d = 0; d < count; d++) {
    hipDeviceProp_t p;

    if (hipGetDeviceProperties(&p, d) == hipSuccess)
      printf("Device %d: %s [%s]\n", d, p.name, p.gcnArchName);
  }
  if (count == 0)
    printf("(no device: see ANYHIP_DEVICES and HIP_VISIBLE_DEVICES in docs/config.md)\n");
  for (int d = 0; d < count; d++)
    print_device(d, count);
  return 0;
}
