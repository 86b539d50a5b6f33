// SPDX-License-Identifier: MIT
// coalesced_threads() in divergent branches, at warp size 64 and 32: the
// group is the lanes of the warp that took the branch; size, thread_rank,
// a reduction with shfl_down, shfl broadcasts (rank modulo size), shfl_up,
// ballot by rank, any/all, match_any, sync, and tiles of 4 of the group
// (tiled_partition(coalesced, 4)). The lanes that skip the branch return
// (first kernel) or go on to a barrier (second kernel). Checked against the
// members worked out on the host. Each block of the second kernel writes its
// own part of the output (two blocks writing the same words would race).
#include "engine_test.h"

#include <hip/hip_cooperative_groups.h>

#include <vector>

namespace cg = cooperative_groups;

constexpr int kThreads = 200; // a partial last warp at both warp sizes
constexpr int kOut = 12;

__host__ __device__ bool taken(int t) { return t % 3 == 0 || t % 7 == 2; }

__device__ void members(int t, int *o) {
  cg::coalesced_group g = cg::coalesced_threads();
  unsigned r = g.thread_rank(), n = g.size();
  o[0] = (int)n;
  o[1] = (int)r;
  // Tree sum over the ranks: rank 0 ends with the total.
  int v = t;
  for (unsigned d = 1; d < n; d *= 2) {
    int u = g.shfl_down(v, d);
    if (r % (2 * d) == 0 && r + d < n)
      v += u;
  }
  o[2] = g.shfl(v, 0);
#if defined(__HIP_PLATFORM_NVIDIA__)
  // CUDA's coalesced shfl takes a rank below size() only (it has no modulo).
  o[3] = g.shfl(t, n > 1 ? 1 : 0);
#else
  o[3] = g.shfl(t, (int)(n + 1)); // HIP's: rank (n + 1) mod n = 1 (0 for a group of one)
#endif
  o[4] = g.shfl_up(t, 1);         // the caller's own at rank 0
  unsigned long long b = g.ballot(t % 2 == 0);
  o[5] = (int)(b & 0xffffffffu);
  o[6] = (int)(b >> 32);
  o[7] = g.any(t % 5 == 0) * 2 + g.all(t < 1000);
  o[8] = (int)g.match_any(t % 4); // members of rank < 32 matching; enough to check
  g.sync();
  cg::coalesced_group q = cg::tiled_partition(g, 4);
  o[9] = (int)q.size() * 100 + (int)q.thread_rank();
  o[10] = q.shfl(t, 0) * 10 + (int)q.meta_group_rank();
  o[11] = (int)q.meta_group_size();
}

__global__ void branch_then_return(int *out) {
  int t = threadIdx.x;
  if (taken(t))
    members(t, out + t * kOut);
}

__global__ void branch_then_barrier(int *out, int *after) {
  __shared__ int count;
  int t = threadIdx.x;
  if (t == 0)
    count = 0;
  __syncthreads();
  int g = blockIdx.x * kThreads + t;
  if (taken(t))
    members(t, out + g * kOut);
  atomicAdd(&count, 1);
  __syncthreads();
  after[g] = count;
}

static int check(const int *h, int ws) {
  for (int w0 = 0; w0 < kThreads; w0 += ws) {
    std::vector<int> m; // the members of this warp, by rank
    for (int t = w0; t < w0 + ws && t < kThreads; t++)
      if (taken(t))
        m.push_back(t);
    int n = (int)m.size(), sum = 0;
    unsigned long long ballot = 0, match_bits;
    int any = 0, all = 1;
    for (int r = 0; r < n; r++) {
      sum += m[r];
      if (m[r] % 2 == 0)
        ballot |= 1ull << r;
      any |= m[r] % 5 == 0;
      all &= m[r] < 1000;
    }
    for (int r = 0; r < n; r++) {
      const int *o = &h[m[r] * kOut];
      CHECK_EQ(o[0], n);
      CHECK_EQ(o[1], r);
      CHECK_EQ(o[2], sum);
      CHECK_EQ(o[3], m[n > 1 ? 1 : 0]);
      CHECK_EQ(o[4], r > 0 ? m[r - 1] : m[r]);
      CHECK_EQ((unsigned)o[5], (unsigned)(ballot & 0xffffffffu));
      CHECK_EQ((unsigned)o[6], (unsigned)(ballot >> 32));
      CHECK_EQ(o[7], any * 2 + all);
      match_bits = 0;
      for (int k = 0; k < n && k < 32; k++)
        if (m[k] % 4 == m[r] % 4)
          match_bits |= 1ull << k;
      CHECK_EQ((unsigned)o[8], (unsigned)match_bits);
      int k4 = r / 4, qn = n - 4 * k4 < 4 ? n - 4 * k4 : 4;
      CHECK_EQ(o[9], qn * 100 + r % 4);
      CHECK_EQ(o[10], m[4 * k4] * 10 + k4);
      CHECK_EQ(o[11], (n + 3) / 4);
    }
  }
  for (int t = 0; t < kThreads; t++)
    if (!taken(t))
      CHECK_EQ(h[t * kOut], -1); // not in any group
  return AH_PASS;
}

static int body(int ws) {
  int *out = nullptr, *after = nullptr;
  std::vector<int> h(2 * kThreads * kOut), a(2 * kThreads);

  CHECK_HIP(hipMalloc(&out, h.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&after, a.size() * sizeof(int)));
  CHECK_HIP(hipMemset(out, 0xff, h.size() * sizeof(int)));
  branch_then_return<<<1, kThreads>>>(out);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h.data(), out, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  if (check(h.data(), ws) != AH_PASS)
    return AH_FAIL;

  CHECK_HIP(hipMemset(out, 0xff, h.size() * sizeof(int)));
  branch_then_barrier<<<2, kThreads>>>(out, after);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h.data(), out, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(a.data(), after, a.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < 2; b++)
    if (check(h.data() + b * kThreads * kOut, ws) != AH_PASS)
      return AH_FAIL;
  for (int t = 0; t < 2 * kThreads; t++)
    CHECK_EQ(a[t], kThreads);
  CHECK_HIP(hipFree(out));
  CHECK_HIP(hipFree(after));
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  return ah_run_both_warp_sizes(argv, body);
}
