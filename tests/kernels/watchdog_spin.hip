// SPDX-License-Identifier: MIT
// The CPU device's watchdog (ANYHIP_CPU_WATCHDOG, docs/cpu-engine.md): a
// GPU thread spinning until a block-mate sets a flag never lets that
// block-mate run on the CPU device. On the fiber engine, with a limit of
// half a second, the launch ends with hipErrorLaunchTimeOut and a report
// naming the kernel, the block and the thread, instead of hanging; the next
// launches run. A compiled block cannot be told from a long healthy one: it
// is reported once and left running. Healthy kernels that run far longer than the limit
// pass: a block whose threads meet at barriers, a block of one thread, and
// (fiber engine, which sees every thread start) threads that each run a
// while without a barrier. Runs as a compiled block function and on fibers
// (cpu-fibers/). While no block runs, the watchdog thread sleeps: it does
// not wake every tick in an idle process. CPU device only.
#include "engine_test.h"
#include "fault_capture.h"

#include <chrono>
#include <dirent.h>
#include <fstream>
#include <string>
#include <thread>

__global__ void spin_on_mate(volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
    }
    out[0] = 1;
  }
  if (threadIdx.x == 64)
    *flag = 1;
}

// Each thread waits for the host's flag (at most ~2^36 reads, so that a
// broken test cannot hang), then says it saw it.
__global__ void until_host_stops(volatile int *stop, int *seen) {
  unsigned long long n = 0;
  while (*stop == 0 && ++n < (1ull << 36)) {
  }
  seen[threadIdx.x] = *stop;
}

__global__ void add_one(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

// Busy work, a little over `ms` milliseconds of it: a loop on the clock the
// kernel compiler cannot see through (a volatile counter), no polling point.
__host__ __device__ unsigned long long busy(unsigned long long iters) {
  volatile unsigned long long x = 0;
  for (unsigned long long i = 0; i < iters; i++)
    x = x + i;
  return x;
}

// Every round ends at a barrier: the block moves on every round.
__global__ void long_with_barriers(unsigned long long iters, int rounds, unsigned long long *out) {
  __shared__ unsigned long long s[64];
  unsigned long long acc = 0;
  for (int r = 0; r < rounds; r++) {
    s[threadIdx.x] = busy(iters);
    __syncthreads();
    acc += s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// No barrier: each thread runs for a while, then returns.
__global__ void long_threads(unsigned long long iters, unsigned long long *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = busy(iters);
}

static bool has(const std::string &text, const char *what) {
  if (text.find(what) != std::string::npos)
    return true;
  std::fprintf(stderr, "expected \"%s\" in the output above\n", what);
  return false;
}

// Iterations of busy() that take about `ms` milliseconds here (host code:
// the same loop).
static unsigned long long calibrate(double ms) {
  unsigned long long n = 1 << 16;
  for (;;) {
    auto t0 = std::chrono::steady_clock::now();
    (void)busy(n);
    double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                      .count();
    if (took > 20)
      return (unsigned long long)((double)n * ms / took) + 1;
    n *= 2;
  }
}

// The watchdog thread's voluntary context switches (each wake-up from its
// tick's sleep is one), or -1 when no thread is named anyhip-watchdog.
static long watchdog_wakeups() {
  DIR *d = opendir("/proc/self/task");
  long n = -1;
  if (d == nullptr)
    return -1;
  while (struct dirent *e = readdir(d)) {
    std::string dir = std::string("/proc/self/task/") + e->d_name, line;
    std::ifstream comm(dir + "/comm");
    if (!std::getline(comm, line) || line != "anyhip-watchdog")
      continue;
    std::ifstream status(dir + "/status");
    while (std::getline(status, line))
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0)
        n = std::atol(line.c_str() + 24);
  }
  closedir(d);
  return n;
}

static double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer holds a signal sent to a thread back until that thread
  // calls an intercepted function; a spin loop calls none.
  SKIP("the watchdog's signal waits for ThreadSanitizer to deliver it");
#endif
  if (std::getenv("ANYHIP_CPU_WATCHDOG") == nullptr)
    setenv("ANYHIP_CPU_WATCHDOG", "0.5", 1); // read at the first HIP call, just below
  if (!ah_on_cpu_device())
    SKIP("the watchdog belongs to the CPU device");
  const bool fibers = !ah_compiled_blocks_on();
  int *flag = nullptr, *out = nullptr;
  CHECK_HIP(hipMalloc(&flag, sizeof(int)));
  CHECK_HIP(hipMalloc(&out, 256 * sizeof(int)));
  CHECK_HIP(hipMemset(flag, 0, sizeof(int)));
  CHECK_HIP(hipMemset(out, 0, 256 * sizeof(int)));

  if (fibers) {
    // The spin-wait: reported and ended, not hung.
    hipError_t err = hipSuccess;
    auto t0 = std::chrono::steady_clock::now();
    std::string report = ah_capture_stderr([&] {
      spin_on_mate<<<2, 128>>>(flag, out);
      err = hipDeviceSynchronize();
    });
    double took = seconds_since(t0);
    CHECK_EQ(err, hipErrorLaunchTimeOut);
    CHECK(took < 30);
    CHECK(has(report, "kernel 'spin_on_mate(int volatile*, int*)' failed: no progress for 0.5 s"));
    CHECK(has(report, "a spin-wait on a block-mate cannot finish on the CPU device "
                      "(docs/cpu-engine.md)"));
    CHECK(has(report, "(block ("));
    CHECK(has(report, ", thread (0,0,0))"));
    (void)hipGetLastError(); // the sync's error, recorded as the last one
    // One-time: the next call does not repeat it.
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipGetLastError());
  } else {
    // A compiled block shows nothing between barriers: one that runs long
    // (its 16 threads wait for the host's stop flag, which the host sets
    // 1.5 s after the launch: three times the limit) is reported once and
    // left to end.
    int *stop = nullptr, *seen = nullptr, hseen[16];
    CHECK_HIP(hipMalloc(&stop, sizeof(int)));
    CHECK_HIP(hipMalloc(&seen, 16 * sizeof(int)));
    CHECK_HIP(hipMemset(stop, 0, sizeof(int)));
    hipError_t err = hipErrorUnknown;
    std::string report = ah_capture_stderr([&] {
      until_host_stops<<<1, 16>>>((volatile int *)stop, seen);
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      *(volatile int *)stop = 1; // CPU device memory is the host's
      err = hipDeviceSynchronize();
    });
    CHECK_HIP(err);
    CHECK(has(report, "kernel 'until_host_stops(int volatile*, int*)': a compiled block has run "));
    CHECK(has(report, "ANYHIP_CPU_COMPILED=0 runs it on fibers"));
    CHECK_HIP(hipMemcpy(hseen, seen, sizeof(hseen), hipMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++)
      CHECK_EQ(hseen[i], 1);
    CHECK_HIP(hipFree(stop));
    CHECK_HIP(hipFree(seen));
  }

  // The runtime goes on: launches, copies.
  int host[256];
  CHECK_HIP(hipMemset(out, 0, 256 * sizeof(int)));
  add_one<<<2, 128>>>(out);
  add_one<<<2, 128>>>(out);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++)
    CHECK_EQ(host[i], 2);

  // Healthy kernels that run several times the limit.
  unsigned long long *o = nullptr, ho[64];
  CHECK_HIP(hipMalloc(&o, 64 * sizeof(*o)));
  unsigned long long per_round = calibrate(50.0 / 64); // a round of 64 threads: 0.05 s
  auto t0 = std::chrono::steady_clock::now();
  long_with_barriers<<<1, 64>>>(per_round, 30, o);
  CHECK_HIP(hipDeviceSynchronize());
  double took = seconds_since(t0);
  CHECK_HIP(hipMemcpy(ho, o, sizeof(ho), hipMemcpyDeviceToHost));
  unsigned long long one = busy(per_round);
  for (int i = 0; i < 64; i++)
    CHECK_EQ(ho[i], one * 30);
  std::printf("barriers: %.2f s\n", took);

  unsigned long long alone = calibrate(1500);
  t0 = std::chrono::steady_clock::now();
  long_threads<<<1, 1>>>(alone, o);
  CHECK_HIP(hipDeviceSynchronize());
  std::printf("one thread: %.2f s\n", seconds_since(t0));
  CHECK_HIP(hipMemcpy(ho, o, sizeof(*o), hipMemcpyDeviceToHost));
  CHECK_EQ(ho[0], busy(alone));

  if (fibers) {
    // The fiber engine sees each thread start: 16 threads of 0.1 s.
    unsigned long long each = calibrate(100);
    t0 = std::chrono::steady_clock::now();
    long_threads<<<1, 16>>>(each, o);
    CHECK_HIP(hipDeviceSynchronize());
    std::printf("16 threads without barriers: %.2f s\n", seconds_since(t0));
    CHECK_HIP(hipMemcpy(ho, o, 16 * sizeof(*o), hipMemcpyDeviceToHost));
    unsigned long long v = busy(each);
    for (int i = 0; i < 16; i++)
      CHECK_EQ(ho[i], v);
  }
  CHECK_HIP(hipFree(o));
  CHECK_HIP(hipFree(flag));
  CHECK_HIP(hipFree(out));

  // Idle: with a limit of 0.5 s the watchdog ticks every 0.125 s while a
  // block runs; with none running it sleeps until the next launch.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  long before = watchdog_wakeups();
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  long after = watchdog_wakeups();
  CHECK(before >= 0);
  CHECK(after - before <= 1);
  std::printf("watchdog wake-ups in 1 s idle: %ld\n", after - before);
  std::printf("passed\n");
  return AH_PASS;
}
