// SPDX-License-Identifier: MIT
// docs/semantics.md: "Launches made after the call [hipDeviceSetLimit
// (hipLimitStackSize)] use the new size", so a launch made before the call
// keeps the old size (the CPU device once read it when the kernel started
// running, racing with the setter). Here a kernel needing ~200 KiB of stack
// is launched under a 1 MiB limit on a held stream; the limit then drops to
// 16 KiB before the stream runs; the kernel must still complete correctly.
#include <hip/hip_runtime.h>

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>

#define CHECK(c)                                                          \
  do {                                                                    \
    if (!(c)) {                                                           \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #c); \
      return 1;                                                           \
    }                                                                     \
  } while (0)
#define CHECK_HIP(x) CHECK((x) == hipSuccess)

constexpr int kFrame = 2048;

__host__ __device__ __attribute__((noinline)) int deep(int n, int seed) {
  volatile char buf[kFrame];

  for (int i = 0; i < kFrame; i += 64)
    buf[i] = (char)(seed * 7 + i);
  if (n == 0)
    return buf[64];
  int r = deep(n - 1, seed + 1);
  return r + buf[kFrame - 64] + n;
}

__global__ void recurse(int *out, int depth) {
  __syncthreads(); // every thread becomes a fiber, on a hipLimitStackSize stack
  out[threadIdx.x] = deep(depth, (int)threadIdx.x);
}

struct Gate {
  std::mutex m;
  std::condition_variable c;
  bool open = false;
};

static void gate_fn(void *p) {
  Gate *g = static_cast<Gate *>(p);
  std::unique_lock<std::mutex> l(g->m);
  g->c.wait(l, [g] { return g->open; });
}

int main() {
  hipDeviceProp_t p;
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  if (std::strcmp(p.gcnArchName, "cpu") != 0) {
    std::printf("skipped: the CPU device's stack sizes only\n");
    return 77;
  }
  const int depth = 100; // ~200 KiB of frames
  int *d, h[2];
  hipStream_t s;
  Gate g;
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipDeviceSetLimit(hipLimitStackSize, 1 << 20));
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  recurse<<<1, 2, 0, s>>>(d, depth);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSetLimit(hipLimitStackSize, 16 * 1024)); // for later launches only
  {
    std::lock_guard<std::mutex> l(g.m);
    g.open = true;
  }
  g.c.notify_all();
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int t = 0; t < 2; t++)
    CHECK(h[t] == deep(depth, t));
  std::printf("passed\n");
  return 0;
}
