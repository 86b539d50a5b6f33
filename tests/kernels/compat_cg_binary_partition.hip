// SPDX-License-Identifier: MIT
// cooperative_groups::binary_partition (HIP's and CUDA's; ROCm's unit suite,
// cooperativeGrps/binary_partition.cc and cg_ballot.cc): the members of a
// coalesced group or a tile whose predicate equals the caller's, as a
// coalesced group. Sizes, ranks, ballots and any/all are checked against a
// host model, for whole warps, a block ending inside its last warp, and a
// partition of a divergent branch's threads, at both warp sizes.
#include "engine_test.h"

#include <hip/hip_cooperative_groups.h>

#include <vector>

namespace cg = cooperative_groups;

struct out_t {
  unsigned size, rank;
  unsigned long long ballot;
  int any, all;
};

// pred: lane % 3 == 0; voted value: lane % 2 == 0.
__global__ void of_coalesced(out_t *out) {
  unsigned t = threadIdx.x, lane = t % warpSize;
  if (t % 4 == 3) // leave a quarter of the lanes out first
    return;
  cg::coalesced_group g = cg::coalesced_threads();
  cg::coalesced_group part = cg::binary_partition(g, lane % 3 == 0);
  out[t].size = part.size();
  out[t].rank = part.thread_rank();
  out[t].ballot = part.ballot(lane % 2 == 0);
  out[t].any = part.any(lane % 2 == 0);
  out[t].all = part.all(lane % 2 == 0);
}

__global__ void of_tile(out_t *out) {
  unsigned t = threadIdx.x, lane = t % 16;
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  cg::coalesced_group part = cg::binary_partition(tile, lane % 3 == 0);
  out[t].size = part.size();
  out[t].rank = part.thread_rank();
  out[t].ballot = part.ballot(lane % 2 == 0);
  out[t].any = part.any(lane % 2 == 0);
  out[t].all = part.all(lane % 2 == 0);
}

// The host's model: members are the threads of `group` (ids) present, with
// the same pred as t.
static void model(const std::vector<unsigned> &group, unsigned t, bool (*pred)(unsigned),
                  unsigned (*lane)(unsigned), out_t &m) {
  m = out_t{0, 0, 0, 0, 1};
  for (unsigned u : group) {
    if (pred(lane(u)) != pred(lane(t)))
      continue;
    bool v = lane(u) % 2 == 0;
    if (u < t)
      m.rank++;
    if (v)
      m.ballot |= 1ull << m.size;
    m.any |= v;
    m.all &= v;
    m.size++;
  }
}

static int body(int ws) {
  const unsigned threads = 2 * ws + ws / 2 + 3; // a partial last warp
  out_t *d;
  std::vector<out_t> h(threads);
  CHECK_HIP(hipMalloc(&d, threads * sizeof(out_t)));

  static int wsz;
  wsz = ws;
  auto pred = [](unsigned l) { return l % 3 == 0; };
  CHECK_HIP(hipMemset(d, 0, threads * sizeof(out_t)));
  of_coalesced<<<1, threads>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, threads * sizeof(out_t), hipMemcpyDeviceToHost));
  for (unsigned t = 0; t < threads; t++) {
    if (t % 4 == 3)
      continue;
    std::vector<unsigned> group;
    for (unsigned u = t - t % ws; u < t - t % ws + ws && u < threads; u++)
      if (u % 4 != 3)
        group.push_back(u);
    out_t m;
    model(group, t, pred, [](unsigned u) { return u % (unsigned)wsz; }, m);
    CHECK_EQ(h[t].size, m.size);
    CHECK_EQ(h[t].rank, m.rank);
    CHECK_EQ(h[t].ballot, m.ballot);
    CHECK_EQ(h[t].any != 0, m.any != 0);
    CHECK_EQ(h[t].all != 0, m.all != 0);
  }

  CHECK_HIP(hipMemset(d, 0, threads * sizeof(out_t)));
  of_tile<<<1, threads>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, threads * sizeof(out_t), hipMemcpyDeviceToHost));
  for (unsigned t = 0; t < threads; t++) {
    // A tile past the block's end: CUDA's tiles always count 16 threads
    // (a block must hold whole tiles there), so only the CPU device's
    // partial last tile is checked.
    if (t - t % 16 + 16 > threads && !ah_on_cpu_device())
      continue;
    std::vector<unsigned> group;
    for (unsigned u = t - t % 16; u < t - t % 16 + 16 && u < threads; u++)
      group.push_back(u);
    out_t m;
    model(group, t, pred, [](unsigned u) { return u % 16; }, m);
    CHECK_EQ(h[t].size, m.size);
    CHECK_EQ(h[t].rank, m.rank);
    CHECK_EQ(h[t].ballot, m.ballot);
    CHECK_EQ(h[t].any != 0, m.any != 0);
    CHECK_EQ(h[t].all != 0, m.all != 0);
  }
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  return ah_run_both_warp_sizes(argv, body);
}
