// SPDX-License-Identifier: MIT
// Votes and ballots: __ballot, __any, __all, __activemask and their _sync
// forms, at warp size 64 and 32 (the program runs itself again with
// ANYHIP_CPU_WARP_SIZE). Lanes are consecutive linear thread ids of the
// block (a 2-D block here); a partial last warp has only the lanes that
// exist; lanes that returned take no part; in a branch only the lanes that
// took it do (divergence). Masks are 64-bit. Checked against the host.
#include "engine_test.h"

#include <vector>

constexpr int kOut = 8;

__global__ void votes(unsigned long long *out, int gone) {
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  int lane = (int)__lane_id();
  unsigned long long *o = out + (blockIdx.x * blockDim.x * blockDim.y + t) * kOut;
  if (lane % 8 == gone)
    return;
  o[0] = __ballot(t % 3 == 0);
  o[1] = __any(t == 5);
  o[2] = __all(t >= 0);
  o[3] = __all(t % 5 != 1);
  o[4] = __activemask();
  o[5] = __ballot_sync(__activemask(), t % 2);
  o[6] = __any_sync(~0ull, 0) + 2 * __all_sync(~0ull, 1);
  // Divergence: only the lanes in the branch take part.
  if (lane < 10)
    o[7] = __activemask();
  else if (lane % 2)
    o[7] = __ballot(1);
  else
    o[7] = 1ull << 63;
}

static int run(int ws, dim3 block, int gone) {
  int n = block.x * block.y, blocks = 2;
  std::vector<unsigned long long> h(blocks * n * kOut, 0xdeadull);
  unsigned long long *d = nullptr;

  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(h[0])));
  CHECK_HIP(hipMemcpy(d, h.data(), h.size() * sizeof(h[0]), hipMemcpyHostToDevice));
  votes<<<blocks, block>>>(d, gone);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(h[0]), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < n; t++) {
      const unsigned long long *o = &h[(b * n + t) * kOut];
      int lane = t % ws, w0 = t - lane;
      unsigned long long live = 0, ballot = 0, odd = 0, low = 0, oddbr = 0;
      int any5 = 0, all5 = 1;
      if (lane % 8 == gone) {
        CHECK_EQ(o[0], 0xdeadull);
        continue;
      }
      for (int l = 0; l < ws && w0 + l < n; l++) {
        if (l % 8 == gone)
          continue;
        int u = w0 + l;
        live |= 1ull << l;
        ballot |= (unsigned long long)(u % 3 == 0) << l;
        odd |= (unsigned long long)(u % 2) << l;
        any5 |= u == 5;
        all5 &= u % 5 != 1;
        if (l < 10)
          low |= 1ull << l;
        else if (l % 2)
          oddbr |= 1ull << l;
      }
      CHECK_EQ(o[0], ballot);
      CHECK_EQ(o[1], any5);
      CHECK_EQ(o[2], 1);
      CHECK_EQ(o[3], all5);
      CHECK_EQ(o[4], live);
      CHECK_EQ(o[5], odd);
      CHECK_EQ(o[6], 2);
      CHECK_EQ(o[7], lane < 10 ? low : lane % 2 ? oddbr : 1ull << 63);
    }
  return AH_PASS;
}

static int body(int ws) {
  // Whole warps, a partial last warp, returned lanes (lane % 8 == 0 or 3).
  if (run(ws, dim3(ws, 4), -1) || run(ws, dim3(10, 10), -1) || run(ws, dim3(ws * 2), 0) ||
      run(ws, dim3(50, 3), 3))
    return AH_FAIL;
  return AH_PASS;
}

int main(int argc, char **argv) { return ah_run_both_warp_sizes(argv, body); }
