// SPDX-License-Identifier: MIT
// __shfl, __shfl_up, __shfl_down and __shfl_xor (and their _sync forms) for
// int, unsigned int, long, long long, unsigned long long, float and double,
// with every sub-group width from 1 to warpSize, constant and per-lane
// source lanes, at warp size 64 and 32 (the program runs itself again with
// ANYHIP_CPU_WARP_SIZE). Every lane's result is compared with HIP's rules
// computed on the host; in a partial last warp only results read from lanes
// that exist are checked.
#include "engine_test.h"

#include <cstring>
#include <vector>

constexpr int kOut = 9;

template <typename T> __host__ __device__ T value(int i) {
  // Distinct values that use the high bits of 64-bit types.
  if (sizeof(T) == 8)
    return (T)((long long)i * 1000003LL + ((long long)(i % 7) << 40)) + (T)0.25;
  return (T)(i * 7 + 1) + (T)0.5;
}

template <typename T>
__global__ void shuffles(T *out, int width, int src, unsigned delta, int xmask) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = value<T>(i);
  T *o = out + i * kOut;
  int lane = (int)__lane_id();
  o[0] = __shfl(v, src, width);
  o[1] = __shfl_up(v, delta, width);
  o[2] = __shfl_down(v, delta, width);
  o[3] = __shfl_xor(v, xmask, width);
  o[4] = __shfl(v, (lane * 7 + 3) % width, width); // a source per lane
  o[5] = __shfl_sync(~0ull, v, src, width);
  o[6] = __shfl_up_sync(~0ull, v, delta, width);
  o[7] = __shfl_down_sync(~0ull, v, delta, width);
  o[8] = __shfl_xor_sync(~0ull, v, xmask, width);
}

// Whole-warp width by default.
__global__ void default_width(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __shfl_down(i, 1) + __shfl(i, 0) * 0;
}

template <typename T>
static int check(int ws, int n, int width, int src, unsigned delta, int xmask) {
  int blocks = 2, total = blocks * n;
  std::vector<T> h(total * kOut);
  T *d = nullptr;

  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(T)));
  shuffles<T><<<blocks, n>>>(d, width, src, delta, xmask);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(T), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));
  for (int i = 0; i < total; i++) {
    int t = i % n, lane = t % ws, warp0 = i - lane; // global index of lane 0
    int base = lane & ~(width - 1), rel = lane - base;
    int s[kOut];
    s[0] = base + (src & (width - 1));
    s[1] = rel < (int)delta ? lane : lane - (int)delta;
    s[2] = rel + (int)delta >= width ? lane : lane + (int)delta;
    s[3] = (lane ^ xmask) >= base + width ? lane : lane ^ xmask;
    s[4] = base + ((lane * 7 + 3) % width);
    s[5] = s[0], s[6] = s[1], s[7] = s[2], s[8] = s[3];
    for (int k = 0; k < kOut; k++) {
      if ((warp0 % n) + s[k] >= n)
        continue; // the source lane does not exist: undefined
      T want = value<T>(warp0 + s[k]);
      if (std::memcmp(&h[i * kOut + k], &want, sizeof(T)) != 0) {
        std::fprintf(stderr, "size %d n %d width %d src %d delta %u xor %d: thread %d out %d\n",
                     (int)sizeof(T), n, width, src, delta, xmask, i, k);
        return AH_FAIL;
      }
    }
  }
  return AH_PASS;
}

template <typename T> static int all_widths(int ws) {
  for (int n : {ws * 2, 100}) {
    for (int width = 1; width <= ws; width *= 2) {
      if (check<T>(ws, n, width, 0, 1, 1) || check<T>(ws, n, width, 5, 3, 6) ||
          check<T>(ws, n, width, width - 1, (unsigned)width / 2, width / 2) ||
          check<T>(ws, n, width, 37, (unsigned)width, ws - 1))
        return AH_FAIL;
    }
  }
  return AH_PASS;
}

static int body(int ws) {
  if (all_widths<int>(ws) || all_widths<unsigned int>(ws) || all_widths<long>(ws) ||
      all_widths<long long>(ws) || all_widths<unsigned long long>(ws) || all_widths<float>(ws) ||
      all_widths<double>(ws))
    return AH_FAIL;

  std::vector<int> h(2 * ws);
  int *d = nullptr;
  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(int)));
  default_width<<<1, 2 * ws>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 2 * ws; i++)
    CHECK_EQ(h[i], i % ws == ws - 1 ? i : i + 1);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

int main(int argc, char **argv) { return ah_run_both_warp_sizes(argv, body); }
