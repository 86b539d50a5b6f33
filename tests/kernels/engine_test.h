// SPDX-License-Identifier: MIT
// Helpers for the CPU engine's kernel tests (barrier*, warp*, shared*, ...):
// the harness's checks, whether the device is a CPU device (some tests check
// what only the CPU engine promises), and running a test at both warp sizes
// by executing the program again with ANYHIP_CPU_WARP_SIZE set.
#ifndef AH_ENGINE_TEST_H
#define AH_ENGINE_TEST_H

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "ah_test.h"

// Whether the current device is a CPU device (the engine under test), not
// an NVIDIA GPU.
static inline bool ah_on_cpu_device() {
  hipDeviceProp_t p;
  int dev = 0;
  if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&p, dev) != hipSuccess)
    return false;
  return std::strcmp(p.gcnArchName, "cpu") == 0;
}

// Wall-clock ticks (wall_clock64()) in `ms` milliseconds on the current
// device, at the rate it reports (hipDeviceAttributeWallClockRate, kHz).
static inline long long ah_wall_ticks(long long ms) {
  int dev = 0, khz = 0;
  if (hipGetDevice(&dev) != hipSuccess ||
      hipDeviceGetAttribute(&khz, hipDeviceAttributeWallClockRate, dev) != hipSuccess || khz <= 0) {
    std::fprintf(stderr, "no wall-clock rate\n");
    std::exit(1);
  }
  return ms * khz;
}

// The CPU engine's counters (hip/anyhip/cpu/state.h); nvcc's pass of a test
// does not see that header, and its host code is not the one that runs.
#if defined(__HIP_PLATFORM_NVIDIA__)
static inline unsigned long long ah_cpu_fibers() { return 0; }
static inline unsigned long long ah_cpu_blocks() { return 0; }
#else
static inline unsigned long long ah_cpu_fibers() { return __ah_cpu_fibers_created(); }
static inline unsigned long long ah_cpu_blocks() { return __ah_cpu_blocks_run(); }
#endif

// Whether kernels of this program run as block functions (the kernel
// compiler built them and ANYHIP_CPU_COMPILED=0 does not turn them off):
// then no kernel makes fibers.
static inline bool ah_compiled_blocks_on() {
#if defined(__ANYHIP_KERNEL_COMPILER__)
  const char *v = std::getenv("ANYHIP_CPU_COMPILED");
  return v == NULL || std::strcmp(v, "0") != 0;
#else
  return false;
#endif
}

// The device's warp size as the host sees it.
static inline int ah_device_warp_size() {
  int ws = 0;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0) != hipSuccess)
    return 0;
  return ws;
}

// Runs body(warp size), then, when that passed, the same program once more
// with the other warp size (64 <-> 32) through ANYHIP_CPU_WARP_SIZE. A device
// whose warp size the variable does not change (an NVIDIA GPU) runs once.
static inline int ah_run_both_warp_sizes(char **argv, int (*body)(int ws)) {
  int ws = ah_device_warp_size();
  const char *want = std::getenv("AH_TEST_WARP_SIZE");
  int r;

  if (ws != 32 && ws != 64) {
    std::fprintf(stderr, "unexpected warp size %d\n", ws);
    return AH_FAIL;
  }
  if (want != NULL && std::atoi(want) != ws) {
    std::printf("warp size stays %d on this device: tested once\n", ws);
    return AH_PASS;
  }
  r = body(ws);
  std::printf("warp size %d: %s\n", ws, r == AH_PASS ? "passed" : "FAILED");
  if (r != AH_PASS || want != NULL)
    return r;
  const char *other = ws == 64 ? "32" : "64";
  setenv("AH_TEST_WARP_SIZE", other, 1);
  setenv("ANYHIP_CPU_WARP_SIZE", other, 1);
  std::fflush(stdout);
  std::fflush(stderr);
  execv("/proc/self/exe", argv);
  execv(argv[0], argv); // where /proc/self/exe is not this program (an emulator)
  std::perror("execv");
  return AH_FAIL;
}

#endif
