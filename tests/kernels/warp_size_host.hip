// SPDX-License-Identifier: MIT
// On the CPU device the kernel language's warpSize is readable from host
// code too; it follows ANYHIP_CPU_WARP_SIZE from the first HIP call on,
// before any launch, and kernels see the same value.
#include <hip/hip_runtime.h>

#include "ah_test.h"

__global__ void read_warp_size(int *out) { *out = warpSize; }

static int run() {
  hipDeviceProp_t p;
  int n = 0, *d, h = 0;

  setenv("ANYHIP_CPU_WARP_SIZE", "32", 1); // read once, at the first HIP call
  CHECK_HIP(hipGetDeviceCount(&n));
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  if (strcmp(p.gcnArchName, "cpu") != 0)
    SKIP("host-side warpSize is a CPU-device feature (device code only on GPUs)");
  CHECK_EQ(p.warpSize, 32);
  CHECK_EQ(warpSize, 32); // before any launch
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  read_warp_size<<<1, 1>>>(d);
  CHECK_HIP(hipMemcpy(&h, d, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_EQ(h, 32);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

int main() { return run(); }
