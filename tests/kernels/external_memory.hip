// SPDX-License-Identifier: MIT
// External memory in kernels: a kernel writes through a buffer mapped from
// imported external memory, and the bytes are read where they really live.
// CPU device: a memfd imported as hipExternalMemoryHandleTypeOpaqueFd, the
// file's bytes read back with pread. Both devices: a VMM allocation
// exported as a POSIX descriptor and imported as external memory, read back
// through a hipMemMap of the allocation (a driver that refuses the
// descriptor skips, saying so). The reference is the kernel's index
// arithmetic, computed here.
#include "engine_test.h"

#include <sys/mman.h>
#include <unistd.h>
#include <vector>

__global__ void fill(int *a, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = k * i + 7;
}

static hipExternalMemoryHandleDesc fd_desc(int fd, unsigned long long size) {
  hipExternalMemoryHandleDesc d = {};
  d.type = hipExternalMemoryHandleTypeOpaqueFd;
  d.handle.fd = fd;
  d.size = size;
  return d;
}

// A memfd: the kernel's ints are the file's bytes.
static int memfd_round_trip() {
  const int n = 10000;
  const size_t off = 8192, bytes = off + n * sizeof(int);
  int fd = memfd_create("anyhip-ext", MFD_CLOEXEC);
  CHECK(fd >= 0 && ftruncate(fd, (off_t)bytes) == 0);
  int keep = dup(fd); // the import takes fd over
  CHECK(keep >= 0);
  hipExternalMemoryHandleDesc d = fd_desc(fd, bytes);
  hipExternalMemory_t mem;
  CHECK_HIP(hipImportExternalMemory(&mem, &d));
  hipExternalMemoryBufferDesc bd = {};
  bd.offset = off;
  bd.size = n * sizeof(int);
  int *a = nullptr;
  CHECK_HIP(hipExternalMemoryGetMappedBuffer((void **)&a, mem, &bd));
  fill<<<(n + 255) / 256, 256>>>(a, n, 3);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  std::vector<int> host(n);
  CHECK(pread(keep, host.data(), n * sizeof(int), (off_t)off) == (ssize_t)(n * sizeof(int)));
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (host[i] != 3 * i + 7 && bad++ < 5)
      fprintf(stderr, "file int %d: got %d, want %d\n", i, host[i], 3 * i + 7);
  CHECK_EQ(bad, 0);
  int head = -1; // the bytes before the buffer stay the file's zeros
  CHECK(pread(keep, &head, sizeof(head), (off_t)(off - sizeof(int))) == (ssize_t)sizeof(head));
  CHECK_EQ(head, 0);
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipDestroyExternalMemory(mem));
  close(keep);
  printf("external_memory: %d ints written by a kernel into a memfd\n", n);
  return AH_PASS;
}

// A VMM allocation's descriptor: what the kernel writes through the
// external buffer is read through a mapping of the allocation.
static int vmm_round_trip() {
  int dev = 0, vmm = 0;
  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipDeviceGetAttribute(&vmm, hipDeviceAttributeVirtualMemoryManagementSupported, dev));
  if (!vmm)
    SKIP("the driver has no virtual memory management");
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = dev;
  size_t g = 0;
  CHECK_HIP(hipMemGetAllocationGranularity(&g, &prop, hipMemAllocationGranularityMinimum));
  hipMemGenericAllocationHandle_t h;
  CHECK_HIP(hipMemCreate(&h, g, &prop, 0));
  int fd = -1;
  CHECK_HIP(hipMemExportToShareableHandle(&fd, h, hipMemHandleTypePosixFileDescriptor, 0));
  hipExternalMemoryHandleDesc d = fd_desc(fd, g);
  hipExternalMemory_t mem;
  hipError_t e = hipImportExternalMemory(&mem, &d);
  if (e != hipSuccess) {
    printf("hipImportExternalMemory of a VMM export: %s\n", hipGetErrorName(e));
    close(fd);
    CHECK_HIP(hipMemRelease(h));
    SKIP("the device does not import a VMM export as external memory");
  }
  const int n = (int)(g / sizeof(int));
  hipExternalMemoryBufferDesc bd = {};
  bd.size = g;
  int *a = nullptr, *view = nullptr;
  CHECK_HIP(hipExternalMemoryGetMappedBuffer((void **)&a, mem, &bd));
  fill<<<(n + 255) / 256, 256>>>(a, n, 5);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemAddressReserve((void **)&view, g, 0, nullptr, 0));
  CHECK_HIP(hipMemMap(view, g, 0, h, 0));
  hipMemAccessDesc acc = {};
  acc.location = prop.location;
  acc.flags = hipMemAccessFlagsProtReadWrite;
  CHECK_HIP(hipMemSetAccess(view, g, &acc, 1));
  std::vector<int> host(n);
  CHECK_HIP(hipMemcpy(host.data(), view, g, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (host[i] != 5 * i + 7 && bad++ < 5)
      fprintf(stderr, "view int %d: got %d, want %d\n", i, host[i], 5 * i + 7);
  CHECK_EQ(bad, 0);
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipDestroyExternalMemory(mem));
  CHECK_HIP(hipMemUnmap(view, g));
  CHECK_HIP(hipMemAddressFree(view, g));
  CHECK_HIP(hipMemRelease(h));
  printf("external_memory: %d ints through a VMM export imported as external memory\n", n);
  return AH_PASS;
}

static int run() {
  if (ah_on_cpu_device()) {
    int r = memfd_round_trip();
    if (r != AH_PASS)
      return r;
  }
  return vmm_round_trip();
}

int main() { return run(); }
