// SPDX-License-Identifier: MIT
// A __managed__ variable is managed memory (ROCm's unit suite,
// hipStreamAttachMemAsync_UseCase and _Negative): hipcc registers it as
// such, so hipMemset of it works, hipPointerGetAttributes reports it as
// managed with its own address, hipStreamAttachMemAsync attaches it whole
// (length 0 or its size, nothing else), kernels and the host see the same
// bytes, and hipFree refuses it (the program's storage).
#include "engine_test.h"

constexpr int kN = 256;
__managed__ int mvar[kN];
__managed__ int mone = 3;

__global__ void fill(int *p, int v) { p[threadIdx.x] = v + static_cast<int>(threadIdx.x); }

int main() {
  hipStream_t s;

  if (!ah_on_cpu_device())
    SKIP("__managed__ variables are managed memory on the CPU device only; on an NVIDIA GPU "
         "host code sees its own copy (docs/nvidia.md)");

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMemset(mvar, 0x7f, sizeof(mvar)));
  for (int i = 0; i < kN; i++)
    CHECK_EQ(mvar[i], 0x7f7f7f7f);
  CHECK_EQ(mone, 3);

  CHECK_HIP(hipStreamAttachMemAsync(s, mvar, 0, hipMemAttachHost));
  CHECK_HIP(hipStreamAttachMemAsync(s, mvar, sizeof(mvar), hipMemAttachSingle));
  CHECK_HIP(hipStreamAttachMemAsync(s, &mone, sizeof(int), hipMemAttachGlobal));
  CHECK_ERR(hipStreamAttachMemAsync(s, &mone, sizeof(int) - 1, hipMemAttachSingle),
            hipErrorInvalidValue);
  CHECK_ERR(hipStreamAttachMemAsync(s, mvar, sizeof(mvar) / 2, hipMemAttachSingle),
            hipErrorInvalidValue);
  CHECK_HIP(hipStreamSynchronize(s));

  fill<<<1, kN, 0, s>>>(mvar, 1000);
  CHECK_HIP(hipStreamSynchronize(s));
  for (int i = 0; i < kN; i++)
    CHECK_EQ(mvar[i], 1000 + i);

  hipPointerAttribute_t pa;
  CHECK_HIP(hipPointerGetAttributes(&pa, &mvar[5]));
  CHECK_EQ(pa.type, hipMemoryTypeManaged);
  CHECK(pa.devicePointer == &mvar[5]);
  CHECK(pa.hostPointer == &mvar[5]);

  CHECK_ERR(hipFree(mvar), hipErrorInvalidValue);
  CHECK_HIP(hipStreamDestroy(s));
  return 0;
}
