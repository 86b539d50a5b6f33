// SPDX-License-Identifier: MIT
// hipFuncGetAttributes: a kernel's limits and, on a GPU, what the compiler
// gave it (static shared memory, registers); its error paths.
#include <hip/hip_runtime.h>

#include "ah_test.h"

__global__ void uses_shared(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

static int run() {
  hipFuncAttributes a;
  hipDeviceProp_t p;
  int dev = 0;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&p, dev));
  memset(&a, 0xff, sizeof(a));
  CHECK_HIP(hipFuncGetAttributes(&a, reinterpret_cast<const void *>(uses_shared)));
  CHECK(a.maxThreadsPerBlock > 0 && a.maxThreadsPerBlock <= p.maxThreadsPerBlock);
  CHECK(a.maxDynamicSharedSizeBytes >= 0);
  if (strcmp(p.gcnArchName, "cpu") != 0) {
    // The GPU compiler reserved the kernel's __shared__ array.
    CHECK(a.sharedSizeBytes >= 256 * sizeof(float));
    CHECK(a.numRegs > 0);
  }

  // The kernel still runs and gives the reversed indices.
  float *d, h[256];
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  uses_shared<<<1, 256>>>(d);
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++)
    CHECK_EQ(h[i], 255 - i);
  CHECK_HIP(hipFree(d));

  CHECK_ERR(hipFuncGetAttributes(nullptr, reinterpret_cast<const void *>(uses_shared)),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncGetAttributes(&a, nullptr), hipErrorInvalidDeviceFunction);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDeviceFunction);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  return AH_PASS;
}

int main() {
  int rc = run();
  if (rc == AH_PASS)
    printf("func_attributes: ok\n");
  return rc;
}
