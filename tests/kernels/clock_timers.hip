// SPDX-License-Identifier: MIT
// Device timers: wall_clock64() runs at the rate hipDeviceAttributeWallClockRate
// reports (kHz): a kernel that waits until 20 ms worth of ticks have passed
// takes 20 ms by the host's clock (at least 19 ms; at most 2 s, for a loaded
// machine; a wrong rate would be off by orders of magnitude). clock64()
// advances at hipDeviceAttributeClockInstructionRate (the same 20 ms, on a
// device with a constant rate), and clock() only goes forward.
#include "engine_test.h"

#include <chrono>

__global__ void wait_ticks(long long *out, long long ticks) {
  long long w0 = wall_clock64(), c0 = clock64(), w;
  clock_t k0 = clock();
  while ((w = wall_clock64()) - w0 < ticks)
    ;
  out[0] = w - w0;
  out[1] = clock64() - c0;
  out[2] = (long long)(clock() - k0);
}

int main() {
  int rate_khz = 0;
  long long h[3], *d = nullptr;
  CHECK_HIP(hipDeviceGetAttribute(&rate_khz, hipDeviceAttributeWallClockRate, 0));
  CHECK(rate_khz > 0);
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  wait_ticks<<<1, 1>>>(d, 1); // warm up
  CHECK_HIP(hipDeviceSynchronize());
  auto start = std::chrono::steady_clock::now();
  wait_ticks<<<1, 1>>>(d, 20LL * rate_khz);
  CHECK_HIP(hipDeviceSynchronize());
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  std::printf("20 ms of wall_clock64 at %d kHz took %.2f ms; %lld clock64 ticks\n", rate_khz, ms,
              h[1]);
  CHECK(h[0] >= 20LL * rate_khz);
  CHECK(ms >= 19.0 && ms <= 2000.0);
  CHECK(h[1] > 0);
  CHECK(h[2] >= 0);
  int clock_khz = 0;
  CHECK_HIP(hipDeviceGetAttribute(&clock_khz, hipDeviceAttributeClockInstructionRate, 0));
  if (ah_on_cpu_device()) { // a GPU's clock64 rate follows its changing clock
    double cms = (double)h[1] / clock_khz;
    CHECK(cms >= 19.0 && cms <= ms + 1.0);
  }
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}
