// SPDX-License-Identifier: MIT
// Built with --offload-arch=cpu, so this kernel has no NVIDIA device code: on
// an NVIDIA device its launch (and hipLaunchKernel) must fail with
// hipErrorInvalidDeviceFunction and run nothing, as HIP does for code not
// built for the GPU; on the CPU device it runs.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

#define CHECK(c)                                                          \
  do {                                                                    \
    if (!(c)) {                                                           \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #c); \
      return 1;                                                           \
    }                                                                     \
  } while (0)

__global__ void set_one(int *p) { *p = 1; }

int main() {
  hipDeviceProp_t prop;
  int dev, h = 0, *d;
  void *args[] = {&d};

  CHECK(hipGetDevice(&dev) == hipSuccess);
  CHECK(hipGetDeviceProperties(&prop, dev) == hipSuccess);
  bool nvidia = std::strncmp(prop.gcnArchName, "sm_", 3) == 0;
  hipError_t want = nvidia ? hipErrorInvalidDeviceFunction : hipSuccess;

  CHECK(hipMalloc(&d, sizeof(int)) == hipSuccess);
  CHECK(hipMemset(d, 0, sizeof(int)) == hipSuccess);
  set_one<<<1, 1>>>(d);
  CHECK(hipGetLastError() == want);
  CHECK(hipLaunchKernel((const void *)set_one, dim3(1), dim3(1), args, 0, nullptr) == want);
  CHECK(hipGetLastError() == want);
  CHECK(hipMemcpy(&h, d, sizeof(int), hipMemcpyDeviceToHost) == hipSuccess);
  CHECK(h == (nvidia ? 0 : 1));
  CHECK(hipFree(d) == hipSuccess);
  std::printf("%s: %s\n", prop.name, nvidia ? "launch refused as expected" : "ran");
  return 0;
}
