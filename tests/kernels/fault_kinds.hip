// SPDX-License-Identifier: MIT
// Faults the CPU engine catches inside kernels, each reported with its
// signal and the faulting block and thread, each failing the launch with
// hipErrorLaunchFailure: a GPU thread overflowing its stack (the guard page
// below every fiber stack; the report comes from the alternate signal
// stack), an integer division by zero (SIGFPE, on x86-64: aarch64 does not
// trap on it, nor do GPUs), __trap() (SIGILL on x86-64, SIGTRAP on
// aarch64), and a
// null store by a thread that runs on its own fiber (after a barrier, in a
// block that switched to fibers). After each, hipDeviceReset clears the
// sticky error and a barrier kernel runs correctly on the same workers.
#include "engine_test.h"
#include "fault_capture.h"

#include <string>

__device__ __attribute__((noinline)) int recurse(volatile int *p, int n) {
  volatile char pad[512];
  pad[0] = (char)n;
  return recurse(p, n + 1) + pad[0];
}

__global__ void overflow(int *out) {
  if (threadIdx.x == 3)
    out[0] = recurse(out, 0);
}

__global__ void divide(int *out, int zero) {
  if (blockIdx.x == 1 && threadIdx.x == 9)
    out[0] = 100 / zero;
}

__global__ void trap(int *) {
  if (threadIdx.x == 2)
    __trap();
}

__global__ void after_barrier(int *p) {
  __syncthreads();
  if (threadIdx.x == 77)
    *(volatile int *)p = 1;
}

__global__ void works(int *out) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}

template <typename F> static int expect(const char *what, F launch) {
  hipError_t sync = hipErrorUnknown;
  std::string err = ah_capture_stderr([&] {
    launch();
    sync = hipDeviceSynchronize();
  });
  CHECK_ERR(sync, hipErrorLaunchFailure);
  if (err.find(what) == std::string::npos) {
    std::fprintf(stderr, "expected a report with: %s\n", what);
    return AH_FAIL;
  }
  CHECK_HIP(hipDeviceReset());

  int *d = nullptr, h[4 * 128];
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  works<<<4, 128>>>(d);
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4 * 128; i++)
    CHECK_EQ(h[i], 127 - i % 128);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

int main() {
  if (!ah_on_cpu_device())
    SKIP("the fault reports are the CPU device's");
  int *d = nullptr;
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  if (expect("kernel 'overflow(int*)' faulted: SIGSEGV at address 0x",
             [&] { overflow<<<1, 8>>>(d); }))
    return AH_FAIL;
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  if (expect("(block (0,0,0), thread (3,0,0)): stack overflow (raise hipLimitStackSize)",
             [&] { overflow<<<1, 8>>>(d); }))
    return AH_FAIL;
#if defined(__x86_64__)
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  if (expect("kernel 'divide(int*, int)' faulted: SIGFPE at address 0x",
             [&] { divide<<<2, 16>>>(d, 0); }))
    return AH_FAIL;
  CHECK_HIP(hipMalloc(&d, sizeof(int)));
  if (expect("(block (1,0,0), thread (9,0,0))", [&] { divide<<<2, 16>>>(d, 0); }))
    return AH_FAIL;
#endif
#if defined(__aarch64__)
  const char *trap_report = "kernel 'trap(int*)' faulted: SIGTRAP at address 0x";
#else
  const char *trap_report = "kernel 'trap(int*)' faulted: SIGILL at address 0x";
#endif
  if (expect(trap_report, [&] { trap<<<1, 4>>>(nullptr); }))
    return AH_FAIL;
  if (expect("kernel 'after_barrier(int*)' faulted: SIGSEGV at address 0x0 (block (0,0,0), "
             "thread (77,0,0))",
             [&] { after_barrier<<<1, 128>>>(nullptr); }))
    return AH_FAIL;
  std::printf("passed\n");
  return AH_PASS;
}
