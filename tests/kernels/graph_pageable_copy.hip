// SPDX-License-Identifier: MIT
// A graph whose copy node writes pageable host memory (malloc) is done with
// that copy when hipGraphLaunch returns, as AMD's runtime runs such a node
// (and as hipMemcpyAsync to pageable memory returns only once the copy is
// done): ROCm's unit suite reads the result right after the launch. The
// kernel before the copy takes ~200 ms (it polls the clock), so a launch
// that returned at once would leave the buffer untouched. A graph whose
// copy ends in pinned memory stays asynchronous: its launch returns before
// the kernel is done.
#include "engine_test.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

constexpr int N = 4096;

#define HIP_CHECK_OK(x)                                                                         \
  do {                                                                                         \
    hipError_t e_ = (x);                                                                       \
    if (e_ != hipSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorName(e_));     \
      std::exit(AH_FAIL);                                                                      \
    }                                                                                          \
  } while (0)

__global__ void slow_fill(int *out, long long wait_ticks) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    long long t0 = wall_clock64();
    while (wall_clock64() - t0 < wait_ticks) {
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    out[i] = 3 * i + 1;
}

static hipGraphExec_t make(int *d, int *host, long long wait_ticks) {
  hipGraph_t g;
  hipGraphNode_t k, c;
  hipKernelNodeParams kp{};
  void *args[] = {&d, &wait_ticks};
  HIP_CHECK_OK(hipGraphCreate(&g, 0));
  kp.func = reinterpret_cast<void *>(slow_fill);
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  HIP_CHECK_OK(hipGraphAddKernelNode(&k, g, nullptr, 0, &kp));
  HIP_CHECK_OK(hipGraphAddMemcpyNode1D(&c, g, &k, 1, host, d, N * sizeof(int),
                                       hipMemcpyDeviceToHost));
  hipGraphExec_t x;
  HIP_CHECK_OK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  HIP_CHECK_OK(hipGraphDestroy(g));
  return x;
}

int main() {
  if (!ah_on_cpu_device()) {
    std::printf("skipped: the CPU device's rule (an NVIDIA GPU's is the driver's)\n");
    return AH_SKIP;
  }
  int *d = nullptr, *pinned = nullptr;
  int *pageable = static_cast<int *>(std::calloc(N, sizeof(int)));
  const long long wait_ticks = ah_wall_ticks(200);
  hipStream_t s;
  CHECK(pageable != nullptr);
  CHECK_HIP(hipMalloc(&d, N * sizeof(int)));
  CHECK_HIP(hipHostMalloc(&pinned, N * sizeof(int), 0));
  std::memset(pinned, 0, N * sizeof(int));
  CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));

  // Pageable: the result is there when the launch returns.
  hipGraphExec_t x = make(d, pageable, wait_ticks);
  CHECK_HIP(hipGraphLaunch(x, s));
  for (int i = 0; i < N; i++) {
    if (pageable[i] != 3 * i + 1) {
      std::fprintf(stderr, "pageable[%d] = %d right after hipGraphLaunch, want %d\n", i,
                   pageable[i], 3 * i + 1);
      return AH_FAIL;
    }
  }
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipGraphExecDestroy(x));

  // Pinned: the launch does not wait for the kernel.
  CHECK_HIP(hipMemset(d, 0, N * sizeof(int)));
  CHECK_HIP(hipDeviceSynchronize());
  x = make(d, pinned, wait_ticks);
  auto t0 = std::chrono::steady_clock::now();
  CHECK_HIP(hipGraphLaunch(x, s));
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count();
  CHECK(ms < 100.0);
  CHECK_HIP(hipStreamSynchronize(s));
  for (int i = 0; i < N; i++)
    CHECK_EQ(pinned[i], 3 * i + 1);
  CHECK_HIP(hipGraphExecDestroy(x));

  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipHostFree(pinned));
  std::free(pageable);
  std::printf("graph copy to pageable memory done at launch, pinned stays async: passed\n");
  return AH_PASS;
}
