// SPDX-License-Identifier: MIT
// Warp-synchronous code: __syncwarp orders shared-memory writes and reads
// between the lanes of a warp (without it the CPU device would run lane 0 to
// the end before lane 1 starts), the usual __shfl_down reduction loop,
// __lane_id and warpSize inside kernels, a warp collective inside a loop
// whose trip count differs per warp, and a divergent warp: lanes 0-9 call
// __activemask in a branch while the others go on to a barrier (the
// collective runs with the lanes that reached it), then every lane calls it
// after the barrier. At warp size 64 and 32 (the program runs itself again
// with ANYHIP_CPU_WARP_SIZE). Checked against the host.
#include "engine_test.h"

#include <vector>

__global__ void exchange(int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = t * 10 + 1;
  __syncwarp();
  int partner = (int)(t ^ 1);
  int a = s[partner];
  __syncwarp();
  s[t] = a + 1000;
  __syncwarp();
  out[blockIdx.x * blockDim.x + t] = s[(t + 1) % warpSize + t / warpSize * warpSize];
}

__global__ void reduce(const int *in, int *out, int *info) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int off = warpSize / 2; off > 0; off /= 2)
    v += __shfl_down(v, off);
  if (__lane_id() == 0)
    out[i / warpSize] = v;
  if (i == 0)
    info[0] = warpSize;
  info[1 + i] = (int)__lane_id();
}

// Warp w runs w + 1 rounds of a shuffle.
__global__ void uneven(int *out) {
  int t = threadIdx.x;
  int w = t / warpSize;
  int v = t;
  for (int k = 0; k <= w; k++)
    v = __shfl_xor(v, 1) + 1;
  out[t] = v;
}

__global__ void reconverge(unsigned long long *out) {
  int t = threadIdx.x;
  unsigned long long inner = 0;
  if (__lane_id() < 10)
    inner = __activemask();
  __syncthreads();
  unsigned long long after = __activemask();
  out[2 * t] = inner;
  out[2 * t + 1] = after;
}

static int body(int ws) {
  const int n = 256, blocks = 3;
  std::vector<int> h(blocks * n), in(blocks * n), info(1 + blocks * n);
  int *d = nullptr, *din = nullptr, *dinfo = nullptr;

  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(int)));
  exchange<<<blocks, n>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < n; t++) {
      int u = (t + 1) % ws + t / ws * ws;
      CHECK_EQ(h[b * n + t], (u ^ 1) * 10 + 1 + 1000);
    }

  for (int i = 0; i < blocks * n; i++)
    in[i] = (i * 13) % 101 - 50;
  CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&dinfo, info.size() * sizeof(int)));
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
  reduce<<<blocks, n>>>(din, d, dinfo);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(info.data(), dinfo, info.size() * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_EQ(info[0], ws);
  for (int i = 0; i < blocks * n; i++)
    CHECK_EQ(info[1 + i], (i % n) % ws);
  for (int w = 0; w < blocks * n / ws; w++) {
    int want = 0;
    for (int l = 0; l < ws; l++)
      want += in[w * ws + l];
    CHECK_EQ(h[w], want);
  }

  uneven<<<1, n>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int a = t, b = t ^ 1; // this lane's value and its partner's
    for (int k = 0; k <= t / ws; k++) {
      int na = b + 1, nb = a + 1;
      a = na;
      b = nb;
    }
    CHECK_EQ(h[t], a);
  }

  std::vector<unsigned long long> m(2 * n);
  unsigned long long *dm = nullptr;
  CHECK_HIP(hipMalloc(&dm, m.size() * sizeof(m[0])));
  reconverge<<<1, n>>>(dm);
  CHECK_HIP(hipMemcpy(m.data(), dm, m.size() * sizeof(m[0]), hipMemcpyDeviceToHost));
  unsigned long long full = ws == 64 ? ~0ull : (1ull << ws) - 1;
  for (int t = 0; t < n; t++) {
    CHECK_EQ(m[2 * t], t % ws < 10 ? 0x3ffull : 0);
    CHECK_EQ(m[2 * t + 1], full);
  }

  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dinfo));
  CHECK_HIP(hipFree(dm));
  return AH_PASS;
}

int main(int argc, char **argv) { return ah_run_both_warp_sizes(argv, body); }
