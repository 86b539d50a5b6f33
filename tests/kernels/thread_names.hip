// SPDX-License-Identifier: MIT
// The CPU device's threads carry names that say what they are, for gdb's
// `info threads`, top -H and perf (docs/debugging.md): a stream's dispatcher
// is anyhip-stream, the worker pool's threads anyhip-worker, the watchdog
// anyhip-watchdog. Counted from /proc/self/task after work on a stream of its
// own (whose first command starts its dispatcher) and on the null stream.
#include "engine_test.h"

#include <dirent.h>
#include <fstream>
#include <string>

__global__ void fill(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = (int)(blockIdx.x * blockDim.x + threadIdx.x);
}

static void mark(void *p) {
  *static_cast<int *>(p) = 1;
}

// How many of this process's threads are named `name`.
static int threads_named(const char *name) {
  DIR *d = opendir("/proc/self/task");
  int n = 0;
  if (d == nullptr)
    return -1;
  while (struct dirent *e = readdir(d)) {
    std::ifstream comm(std::string("/proc/self/task/") + e->d_name + "/comm");
    std::string line;
    if (std::getline(comm, line) && line == name)
      n++;
  }
  closedir(d);
  return n;
}

int main() {
  if (!ah_on_cpu_device()) {
    std::printf("thread_names: not a CPU device, skipped\n");
    return AH_SKIP;
  }
  const int blocks = 64, threads = 128;
  int *out, ran = 0, workers = 0;
  hipStream_t s;
  CHECK_HIP(hipDeviceGetAttribute(&workers, hipDeviceAttributeMultiprocessorCount, 0));
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&out), blocks * threads * sizeof(int)));
  CHECK_HIP(hipStreamCreate(&s));
  fill<<<blocks, threads, 0, s>>>(out);
  // A host function runs on the stream's dispatcher, whatever thread waits.
  CHECK_HIP(hipLaunchHostFunc(s, mark, &ran));
  CHECK_HIP(hipStreamSynchronize(s));
  fill<<<blocks, threads>>>(out);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(ran, 1);
  for (int i = 0; i < blocks * threads; i++)
    CHECK_EQ(out[i], i);

  CHECK(threads_named("anyhip-stream") >= 1);
  // One worker per compute unit besides the launching thread.
  CHECK_EQ(threads_named("anyhip-worker"), workers - 1);
  CHECK_EQ(threads_named("anyhip-watchdog"), 1);
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(out));
  std::printf("thread_names: ok (%d workers)\n", workers);
  return 0;
}
