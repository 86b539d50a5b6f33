// SPDX-License-Identifier: MIT
// Threads that have returned do not take part in later barriers (HIP's rule
// for exited threads): barriers complete with the threads left, and
// __syncthreads_count counts only those. Covers threads leaving before the
// first barrier (every fourth thread; the first 100 threads, so that the
// block switches to fibers in its middle; all but the last thread), threads
// leaving one by one between barriers, and half the block leaving while the
// other half waits at a barrier. Every count is compared with the number
// computed on the host.
#include "engine_test.h"

#include <vector>

constexpr int kN = 256;

// Every fourth thread returns; the rest exchange values through shared
// memory across a barrier, then count themselves.
__global__ void quarter_gone(int *out) {
  __shared__ int s[kN];
  int t = threadIdx.x;
  if (t % 4 == 1)
    return;
  s[t] = 3 * t + blockIdx.x;
  __syncthreads();
  int next = (t + 1) % kN;
  if (next % 4 == 1)
    next = (next + 1) % kN;
  out[(blockIdx.x * kN + t) * 2] = s[next];
  out[(blockIdx.x * kN + t) * 2 + 1] = __syncthreads_count(1);
}

// Threads below `first` return at once.
__global__ void leading_gone(int *out, int first) {
  int t = threadIdx.x;
  if (t < first)
    return;
  out[blockIdx.x * kN + t] = __syncthreads_count(t & 1);
}

// Thread t takes part in t % 8 barriers, then returns.
__global__ void staggered(int *out) {
  int t = threadIdx.x;
  for (int k = 0; k < 8; k++) {
    if (k == t % 8)
      return;
    out[(blockIdx.x * kN + t) * 8 + k] = __syncthreads_count(1);
  }
}

// The upper half returns after one barrier, while the lower half already
// waits at the second.
__global__ void half_gone(int *out) {
  int t = threadIdx.x;
  int a = __syncthreads_count(1);
  if (t >= kN / 2) {
    out[blockIdx.x * kN + t] = a;
    return;
  }
  int b = __syncthreads_count(1);
  out[blockIdx.x * kN + t] = a * 1000 + b;
}

int main() {
  const int blocks = 8;
  std::vector<int> h(blocks * kN * 8);
  int *d = nullptr;

  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(int)));

  CHECK_HIP(hipMemset(d, 0xff, h.size() * sizeof(int)));
  quarter_gone<<<blocks, kN>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, blocks * kN * 2 * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < kN; t++) {
      const int *o = &h[(b * kN + t) * 2];
      if (t % 4 == 1) {
        CHECK_EQ(o[0], -1); // returned before writing
        continue;
      }
      int next = (t + 1) % kN;
      if (next % 4 == 1)
        next = (next + 1) % kN;
      CHECK_EQ(o[0], 3 * next + b);
      CHECK_EQ(o[1], kN * 3 / 4);
    }

  for (int first : {100, kN - 1, 0}) {
    CHECK_HIP(hipMemset(d, 0xff, h.size() * sizeof(int)));
    leading_gone<<<blocks, kN>>>(d, first);
    CHECK_HIP(hipMemcpy(h.data(), d, blocks * kN * sizeof(int), hipMemcpyDeviceToHost));
    int odd = 0;
    for (int t = first; t < kN; t++)
      odd += t & 1;
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < kN; t++)
        CHECK_EQ(h[b * kN + t], t < first ? -1 : odd);
  }

  CHECK_HIP(hipMemset(d, 0xff, h.size() * sizeof(int)));
  staggered<<<blocks, kN>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < kN; t++)
      for (int k = 0; k < 8; k++) {
        // Barrier k is reached by the threads with t % 8 > k.
        int want = k < t % 8 ? kN / 8 * (7 - k) : -1;
        CHECK_EQ(h[(b * kN + t) * 8 + k], want);
      }

  half_gone<<<blocks, kN>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, blocks * kN * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < kN; t++)
      CHECK_EQ(h[b * kN + t], t >= kN / 2 ? kN : kN * 1000 + kN / 2);

  CHECK_HIP(hipFree(d));
  std::printf("passed\n");
  return AH_PASS;
}
