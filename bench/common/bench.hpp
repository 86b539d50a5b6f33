// SPDX-License-Identifier: MIT
// What every benchmark program shares: argument parsing, timing (median of
// repetitions after a warm-up), result checks, and the two output formats.
// CPU mode (default) times a kernel through anyhip on the chosen device beside
// the same work written as a plain OpenMP loop, and prints a markdown row with
// the ratio. GPU mode (--gpu) times kernels with events and prints "@gpu" lines
// that bench/run.sh pairs with the native CUDA build of the same source
// (bench/cuda/*.cu, which defines BENCH_NATIVE_CUDA and maps hip* onto cuda*).
#ifndef BENCH_COMMON_BENCH_HPP
#define BENCH_COMMON_BENCH_HPP

#ifndef BENCH_NATIVE_CUDA
#include <hip/hip_runtime.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sched.h>
#include <string>
#include <utility>
#include <vector>

// A failing HIP call ends the benchmark with status 2 (a wrong result: 1).
#define BENCH_HIP(call)                                                                            \
  do {                                                                                             \
    hipError_t e_ = (call);                                                                        \
    if (e_ != hipSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                    \
                   hipGetErrorString(e_));                                                         \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

// HIP's mask-less shuffles and ballot; native CUDA only has the _sync forms
// (the whole warp takes part, which is what HIP's mask-less forms assume too).
// A ballot is 64 bits wide either way (CUDA's 32-bit one zero-extended).
#ifdef BENCH_NATIVE_CUDA
#define warp_shfl_down(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
#define warp_shfl(v, lane) __shfl_sync(0xffffffffu, (v), (lane))
#define warp_ballot(p) ((unsigned long long)__ballot_sync(0xffffffffu, (p)))
#else
#define warp_shfl_down(v, d) __shfl_down((v), (d))
#define warp_shfl(v, lane) __shfl((v), (lane))
#define warp_ballot(p) __ballot(p)
#endif

namespace bench {

inline double now_ms() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

// The worker count anyhip's CPU device uses (ANYHIP_CPU_THREADS, else the
// cores this process may run on); the OpenMP baseline gets the same.
inline int cpu_threads() {
  const char *env = std::getenv("ANYHIP_CPU_THREADS");
  if (env != nullptr && std::atoi(env) > 0)
    return std::atoi(env);
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return CPU_COUNT(&set);
  return 1;
}

// Fibers the CPU engine has made so far, or -1 when this is not anyhip's
// library (native CUDA). Found at run time so that no build depends on it.
inline long long fibers_created() {
  using fn = unsigned long long (*)(void);
  static fn f = reinterpret_cast<fn>(dlsym(RTLD_DEFAULT, "__ah_cpu_fibers_created"));
  return f != nullptr ? (long long)f() : -1;
}

struct Config {
  const char *program;
  bool gpu = false; // --gpu: event timing, GPU sizes, no OpenMP timing
  int rounds = 3;   // each round: one warm-up run, then `per_round` timed runs
  int per_round = 3;
  int threads = 1;
  int device = 0;
  std::string device_name;
  int device_units = 0; // multiProcessorCount: CPU workers, or GPU SMs

  Config(int argc, char **argv, const char *name) : program(name) {
    int reps = 0;
    for (int i = 1; i < argc; i++) {
      if (std::strcmp(argv[i], "--gpu") == 0) {
        gpu = true;
      } else if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
        reps = std::max(1, std::atoi(argv[++i]));
      } else {
        std::fprintf(stderr, "usage: %s [--gpu] [--reps N]\n", argv[0]);
        std::exit(2);
      }
    }
    // CPU: 3 rounds of 3 (alternating with the baseline); GPU: one round of 20.
    if (gpu)
      rounds = 1, per_round = 20;
    if (reps > 0)
      per_round = reps;
    threads = cpu_threads();
#ifdef _OPENMP
    // LLVM's OpenMP runtime keeps its threads spinning for 200 ms after each
    // parallel region (KMP_BLOCKTIME): in time_pair's alternating rounds they
    // spun on through anyhip's round and took its cores (on 2 cores the
    // shuffle reduction measured 5.4-8.2x with them, 3.4-3.8x without). With
    // 1 ms they spin through their own back-to-back runs and sleep before
    // the other side's, as anyhip's workers do after 50 us. Set before the
    // runtime starts (omp_set_num_threads, below); a value in the
    // environment wins.
    setenv("KMP_BLOCKTIME", "1", 0);
    omp_set_num_threads(threads);
#endif
    hipDeviceProp_t prop;
    BENCH_HIP(hipGetDevice(&device));
    BENCH_HIP(hipGetDeviceProperties(&prop, device));
    device_name = prop.name;
    device_units = prop.multiProcessorCount;
    if (gpu) {
      std::printf("@device\t%s\n", prop.name);
    } else {
#ifdef _OPENMP
      const char *omp = "OpenMP";
#else
      const char *omp = "serial (built without -fopenmp)";
#endif
      std::printf("# %s: device %d \"%s\" (%d compute units), baseline %s with %d threads\n",
                  program, device, prop.name, prop.multiProcessorCount, omp, threads);
    }
  }

  int reps() const {
    return rounds * per_round;
  }
  // How many times time_ms() calls its function (timed runs and warm-ups).
  int runs() const {
    return rounds * (per_round + 1);
  }
};

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Wall-clock median of f() over the configured rounds; each round starts with
// a warm-up run that is not counted (caches, page faults, thread pools).
template <class F> double time_ms(const Config &c, F f) {
  std::vector<double> t;
  for (int r = 0; r < c.rounds; r++) {
    f();
    for (int i = 0; i < c.per_round; i++) {
      double t0 = now_ms();
      f();
      t.push_back(now_ms() - t0);
    }
  }
  return median(t);
}

// Times a (anyhip) and b (the baseline) in alternating rounds, so that a
// change in the machine's load during the run falls on both alike; each
// round of each side starts with an uncounted warm-up run (which also lets
// the other side's threads go idle). Returns the two medians.
template <class A, class B> std::pair<double, double> time_pair(const Config &c, A a, B b) {
  std::vector<double> ta, tb;
  for (int r = 0; r < c.rounds; r++) {
    for (int side = 0; side < 2; side++) {
      std::vector<double> &t = side == 0 ? ta : tb;
      auto run = [&] {
        if (side == 0)
          a();
        else
          b();
      };
      run();
      for (int i = 0; i < c.per_round; i++) {
        double t0 = now_ms();
        run();
        t.push_back(now_ms() - t0);
      }
    }
  }
  if (std::getenv("BENCH_SAMPLES") != nullptr) { // to see the noise behind a median
    for (int side = 0; side < 2; side++) {
      std::fprintf(stderr, "# %s samples (ms):", side == 0 ? "anyhip" : "baseline");
      for (double v : side == 0 ? ta : tb)
        std::fprintf(stderr, " %.3f", v);
      std::fprintf(stderr, "\n");
    }
  }
  return {median(ta), median(tb)};
}

// Event-timed median of the work f() enqueues on the null stream (GPU mode).
template <class F> double event_ms(const Config &c, F f) {
  hipEvent_t start, stop;
  std::vector<double> t;
  BENCH_HIP(hipEventCreate(&start));
  BENCH_HIP(hipEventCreate(&stop));
  f(); // warm-up
  BENCH_HIP(hipDeviceSynchronize());
  for (int i = 0; i < c.reps(); i++) {
    float ms = 0;
    BENCH_HIP(hipEventRecord(start, 0));
    f();
    BENCH_HIP(hipEventRecord(stop, 0));
    BENCH_HIP(hipEventSynchronize(stop));
    BENCH_HIP(hipEventElapsedTime(&ms, start, stop));
    t.push_back(ms);
  }
  BENCH_HIP(hipGetLastError());
  BENCH_HIP(hipEventDestroy(start));
  BENCH_HIP(hipEventDestroy(stop));
  return median(t);
}

inline std::string fmt_time(double ms) {
  char buf[64];
  if (ms < 1.0)
    std::snprintf(buf, sizeof(buf), "%.1f us", ms * 1e3);
  else if (ms < 100.0)
    std::snprintf(buf, sizeof(buf), "%.2f ms", ms);
  else
    std::snprintf(buf, sizeof(buf), "%.0f ms", ms);
  return buf;
}

// CPU mode: one markdown row (bench/run.sh collects the lines starting "| ").
inline void row(const Config &c, const std::string &name, double anyhip_ms, double base_ms) {
  std::printf("| %s | %s | %s | %.2f | %s |\n", name.c_str(), fmt_time(anyhip_ms).c_str(),
              fmt_time(base_ms).c_str(), anyhip_ms / base_ms, c.device_name.c_str());
  std::fflush(stdout);
}

// GPU mode: "@gpu <key> <milliseconds> <bytes moved, or 0>" for bench/run.sh.
inline void gpu_row(const std::string &key, double ms, double bytes = 0) {
  std::printf("@gpu\t%s\t%.6f\t%.0f\n", key.c_str(), ms, bytes);
  std::fflush(stdout);
}

// A note on how the CPU engine ran a kernel (fibers made per launch).
inline void fiber_note(const char *what, long long before, long long after, int launches,
                       unsigned long long blocks) {
  if (before < 0)
    return;
  std::printf("#   %s: %llu blocks per launch, %.0f fibers per launch\n", what, blocks,
              (double)(after - before) / launches);
}

[[noreturn]] inline void fail(const char *program, const std::string &what) {
  std::printf("FAILED %s: %s\n", program, what.c_str());
  std::fflush(stdout);
  std::exit(1);
}

// Results must match the baseline: exactly for integers, within a relative
// tolerance for floats (a GPU contracts a*b+c into one FMA, the CPU may not).
template <class T>
void check_equal(const Config &c, const char *what, const T *got, const T *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!(got[i] == want[i]))
      fail(c.program, std::string(what) + ": element " + std::to_string(i) + " is " +
                          std::to_string(got[i]) + ", expected " + std::to_string(want[i]));
}

inline void check_close(const Config &c, const char *what, const float *got, const float *want,
                        size_t n, float tol = 1e-4f) {
  for (size_t i = 0; i < n; i++) {
    float scale = std::max(1.0f, std::fabs(want[i]));
    if (!(std::fabs(got[i] - want[i]) <= tol * scale))
      fail(c.program, std::string(what) + ": element " + std::to_string(i) + " is " +
                          std::to_string(got[i]) + ", expected " + std::to_string(want[i]));
  }
}

// Deterministic input data (no <random>: the same numbers on every compiler).
inline uint32_t hash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
inline float unit_float(uint32_t i) {
  return (hash(i) >> 8) * (1.0f / 16777216.0f);
}

} // namespace bench

#endif
