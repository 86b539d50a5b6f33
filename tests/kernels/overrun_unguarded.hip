// SPDX-License-Identifier: MIT
// The most common GPU bug, a kernel without its `if (i < n)` guard, must
// never corrupt the runtime (issue 15, item 1). n = 1000 floats, 4 blocks of
// 256 threads: the last 24 threads write just past the buffer. On a GPU that
// lands in allocation padding; on the CPU device it lands in the block's page
// padding, and the runtime's own data (the allocation map, the C heap) stays
// intact: many mallocs and frees afterwards all succeed. A kernel that runs
// a whole page past its buffer meets the guard page after it and is reported
// like any kernel fault, with kernel, block and thread.
#include "engine_test.h"
#include "fault_capture.h"

#include <string>

__global__ void fill_unguarded(float *p, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = v; // no `if (i < n)`
}

__global__ void fill_far(float *p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i + n] = v; // starts right after the buffer
}

int main() {
  const int n = 1000;
  float *bufs[8];

  // Neighbours on both sides, as a program's other buffers would be.
  for (float *&b : bufs)
    CHECK_HIP(hipMalloc(&b, n * sizeof(float)));
  for (int round = 0; round < 4; round++) {
    fill_unguarded<<<4, 256>>>(bufs[round], -1.0e30f);
    CHECK_ERR(hipGetLastError(), hipSuccess);
    CHECK_ERR(hipDeviceSynchronize(), hipSuccess);
  }
  for (float *b : bufs)
    CHECK_HIP(hipFree(b));
  for (int i = 0; i < 2000; i++) { // the runtime's state is intact
    void *p;
    CHECK_HIP(hipMalloc(&p, 16 + (size_t)(i % 97) * 40));
    CHECK_HIP(hipFree(p));
  }
  if (!ah_on_cpu_device()) {
    std::printf("passed (the guard-page report is the CPU device's)\n");
    return AH_PASS;
  }
  float *a;
  CHECK_HIP(hipMalloc(&a, n * sizeof(float)));
  hipError_t sync = hipErrorUnknown;
  std::string err = ah_capture_stderr([&] {
    fill_far<<<8, 256>>>(a, n, 1.0f); // 2048 floats past a 4000-byte buffer
    sync = hipDeviceSynchronize();
  });
  CHECK_ERR(sync, hipErrorLaunchFailure);
  if (err.find("anyhip: kernel 'fill_far(float*, int, float)' faulted: SIGSEGV") ==
      std::string::npos) {
    std::fprintf(stderr, "expected a fault report naming fill_far\n");
    return AH_FAIL;
  }
  std::printf("passed\n");
  return AH_PASS;
}
