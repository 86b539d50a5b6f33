// SPDX-License-Identifier: MIT
// Virtual memory in kernels: one physical allocation of two granules mapped
// at two reserved ranges, the second with its granules swapped (offsets), so
// what a kernel writes through the first mapping another kernel reads
// through the second, and a hipMemset through the second is seen through
// the first. The reference is the index arithmetic of the two mappings. On
// the CPU device the mappings are memfd mappings; on NVIDIA, cuMemMap.
#include "engine_test.h"

#include <vector>

__global__ void write_pattern(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 3 * i + 1;
}

__global__ void read_twice(const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * b[i];
}

static int run() {
  int dev = 0, vmm = 0;
  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipDeviceGetAttribute(&vmm, hipDeviceAttributeVirtualMemoryManagementSupported, dev));
  if (ah_on_cpu_device())
    CHECK_EQ(vmm, 1); // memfd mappings: always there
  else if (!vmm)
    SKIP("the driver has no virtual memory management");
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = dev;
  size_t g = 0;
  CHECK_HIP(hipMemGetAllocationGranularity(&g, &prop, hipMemAllocationGranularityMinimum));
  CHECK(g != 0 && g % sizeof(int) == 0);
  const size_t bytes = 2 * g;
  const int n = (int)(bytes / sizeof(int)), half = n / 2;
  hipMemGenericAllocationHandle_t h;
  CHECK_HIP(hipMemCreate(&h, bytes, &prop, 0));
  int *a = nullptr, *b = nullptr, *out = nullptr;
  CHECK_HIP(hipMemAddressReserve((void **)&a, bytes, 0, nullptr, 0));
  CHECK_HIP(hipMemAddressReserve((void **)&b, bytes, 0, nullptr, 0));
  // NVIDIA's driver maps a handle whole, from offset 0 (cuMemMap): there b
  // is a second view in the same order; the CPU device maps any granule.
  const bool swap = ah_on_cpu_device();
  CHECK_HIP(hipMemMap(a, bytes, 0, h, 0));
  if (swap) {
    CHECK_HIP(hipMemMap(b, g, g, h, 0));             // b's first granule: the second
    CHECK_HIP(hipMemMap((char *)b + g, g, 0, h, 0)); // b's second granule: the first
  } else {
    CHECK_ERR(hipMemMap(b, g, g, h, 0), hipErrorNotSupported);
    CHECK_HIP(hipMemMap(b, bytes, 0, h, 0));
  }
  // Argument errors: a misaligned offset, a used range, a range past the allocation.
  if (g > 1)
    CHECK_ERR(hipMemMap(a, g, g / 2, h, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemMap(b, g, 0, h, 0), hipErrorInvalidValue);
  CHECK_ERR(hipMemMap(a, bytes, g, h, 0), hipErrorInvalidValue);
  hipMemAccessDesc acc = {};
  acc.location = prop.location;
  acc.flags = hipMemAccessFlagsProtReadWrite;
  CHECK_ERR(hipMemSetAccess(b, bytes + g, &acc, 1), hipErrorInvalidValue); // past the mappings
  CHECK_HIP(hipMemSetAccess(a, bytes, &acc, 1));
  CHECK_HIP(hipMemSetAccess(b, bytes, &acc, 1)); // both of b's mappings at once
  CHECK_HIP(hipMalloc(&out, bytes));
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue); // the refusals above; clears it

  int threads = 256, blocks = (n + threads - 1) / threads;
  write_pattern<<<blocks, threads>>>(a, n);
  CHECK_HIP(hipGetLastError());
  read_twice<<<blocks, threads>>>(b, out, n);
  CHECK_HIP(hipGetLastError());
  std::vector<int> host(n);
  CHECK_HIP(hipMemcpy(host.data(), out, bytes, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int j = !swap ? i : i < half ? i + half : i - half; // the allocation's element b[i] is
    if (host[i] != 2 * (3 * j + 1) && bad++ < 5)
      fprintf(stderr, "b[%d]: got %d, want %d\n", i, host[i] / 2, 3 * j + 1);
  }
  CHECK_EQ(bad, 0);

  // A set through b's second granule (the allocation's first where swapped)
  // reads back through a.
  CHECK_HIP(hipMemset((char *)b + g, 0x7f, g));
  CHECK_HIP(hipMemcpy(host.data(), a, bytes, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = (i < half) == swap ? 0x7f7f7f7f : 3 * i + 1;
    if (host[i] != want && bad++ < 5)
      fprintf(stderr, "a[%d] after the set: got %#x, want %#x\n", i, host[i], want);
  }
  CHECK_EQ(bad, 0);

  CHECK_HIP(hipFree(out));
  CHECK_HIP(hipMemUnmap(a, bytes));
  CHECK_ERR(hipMemUnmap(b, g / 2 != 0 ? g / 2 : 1), hipErrorInvalidValue); // part of a mapping
  CHECK_HIP(hipMemUnmap(b, bytes));                                         // all of b's
  CHECK_HIP(hipMemRelease(h));
  CHECK_HIP(hipMemAddressFree(a, bytes));
  CHECK_HIP(hipMemAddressFree(b, bytes));
  printf("vmm_mappings: %d ints through two mappings of %zu-byte granules\n", n, g);
  return AH_PASS;
}

int main() { return run(); }
