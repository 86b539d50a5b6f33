// SPDX-License-Identifier: MIT
// Block-level cooperative groups, checked against host loops at warp size
// 64 and 32 (the program runs itself again with ANYHIP_CPU_WARP_SIZE):
// the guide's generic reduce_sum(thread_group, shared, val) over the block
// and over runtime tiles of 16 (tiled_partition(block, 16)), warp-level sums
// over tiled_partition<32> (shfl_down) and <16> (shfl_xor butterfly, every
// rank gets the sum), an inclusive scan with shfl_up, broadcasts with shfl,
// ballot/any/all/match_any of tiles, meta_group_rank/size, the thread_block
// accessors, and tiles of tiles.
#include "engine_test.h"

#include <hip/hip_cooperative_groups.h>

#include <vector>

namespace cg = cooperative_groups;

constexpr int kBlock = 256;
constexpr int kBlocks = 5;
constexpr int kOut = 12; // values written per thread

// The guide's reduction over any group: rank 0 of the group ends with the sum.
__device__ int reduce_sum(cg::thread_group g, int *shared, int val) {
  unsigned r = g.thread_rank();
  for (unsigned i = g.size() / 2; i > 0; i /= 2) {
    shared[r] = val;
    g.sync();
    if (r < i)
      val += shared[r + i];
    g.sync();
  }
  return val;
}

__host__ __device__ int input(int i) { return (i * 131) % 97 - 40; }

__global__ void groups(int *out, unsigned long long *masks, int *block_sum, int *bad) {
  __shared__ int work[kBlock];
  cg::thread_block block = cg::this_thread_block();
  unsigned r = block.thread_rank();
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x), v = input(i);
  int *o = out + i * kOut;

  if (block.size() != kBlock || block.num_threads() != kBlock || r != threadIdx.x ||
      block.group_index().x != blockIdx.x || block.thread_index().x != threadIdx.x ||
      block.group_dim().x != blockDim.x || cg::group_size(block) != kBlock ||
      cg::thread_rank(block) != r)
    atomicAdd(bad, 1);
#if !defined(__HIP_PLATFORM_NVIDIA__) // HIP's, not in CUDA's thread_block
  if (!block.is_valid() || block.cg_type() != cg::internal::cg_workgroup)
    atomicAdd(bad, 1);
#endif

  // The whole block.
  int s = reduce_sum(block, work, v);
  if (r == 0)
    block_sum[blockIdx.x] = s;
  cg::sync(block);

  // Tiles of 32: a shfl_down tree, rank 0 has the sum; then a broadcast.
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  int a = v;
  for (unsigned d = 16; d > 0; d /= 2)
    a += t32.shfl_down(a, d);
  o[0] = t32.shfl(a, 0);
  o[1] = (int)t32.thread_rank();
  o[2] = (int)t32.meta_group_rank() * 1000 + (int)t32.meta_group_size();
  // Inclusive scan with shfl_up.
  int sc = v;
  for (unsigned d = 1; d < 32; d *= 2) {
    int u = t32.shfl_up(sc, d);
    if (t32.thread_rank() >= d)
      sc += u;
  }
  o[3] = sc;

  // Tiles of 16: a butterfly, every rank has the sum.
  auto t16 = cg::tiled_partition<16>(block);
  int b = v;
  for (unsigned m = 8; m > 0; m /= 2)
    b += t16.shfl_xor(b, m);
  o[4] = b;
  o[5] = t16.any(v > 50) * 2 + t16.all(v > -41);
  masks[i * 2] = t16.ballot(v % 2 != 0);
  masks[i * 2 + 1] = t16.match_any(v % 3);
  if (t16.size() != 16 || t16.num_threads() != 16 || cg::group_size(t16) != 16)
    atomicAdd(bad, 1);

  // Runtime tiles of 16 through the generic reduce_sum: each tile works in
  // its own part of the shared array.
  cg::thread_group g16 = cg::tiled_partition(block, 16);
  work[r] = 0;
  block.sync();
  int base = (int)(r - g16.thread_rank());
  o[6] = reduce_sum(g16, work + base, v);
  o[7] = (int)g16.thread_rank() * 100 + (int)g16.size();

  // A tile of 4 of a tile of 32: shfl wraps within the 4.
  auto t4 = cg::tiled_partition<4>(t32);
  o[8] = t4.shfl(v, 5); // rank 5 mod 4 = 1
  o[9] = (int)t4.meta_group_rank();
  t4.sync();

  // The base class view of a tile: generic code sees rank and size.
  cg::thread_group tg = t32;
  o[10] = (int)tg.thread_rank() * 100 + (int)tg.size();
  o[11] = (int)t16.shfl_down(v, 15); // past the tile's end: the caller's own
}

static int body(int ws) {
  const int n = kBlock * kBlocks;
  int *out = nullptr, *block_sum = nullptr, *bad = nullptr;
  unsigned long long *masks = nullptr;
  std::vector<int> h(n * kOut), bs(kBlocks);
  std::vector<unsigned long long> hm(n * 2);
  int nbad = -1;

  CHECK_HIP(hipMalloc(&out, h.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&masks, hm.size() * sizeof(unsigned long long)));
  CHECK_HIP(hipMalloc(&block_sum, kBlocks * sizeof(int)));
  CHECK_HIP(hipMalloc(&bad, sizeof(int)));
  CHECK_HIP(hipMemset(bad, 0, sizeof(int)));
  groups<<<kBlocks, kBlock>>>(out, masks, block_sum, bad);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h.data(), out, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(
      hipMemcpy(hm.data(), masks, hm.size() * sizeof(unsigned long long), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(bs.data(), block_sum, kBlocks * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(&nbad, bad, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_EQ(nbad, 0);

  for (int blk = 0; blk < kBlocks; blk++) {
    int s = 0;
    for (int t = 0; t < kBlock; t++)
      s += input(blk * kBlock + t);
    CHECK_EQ(bs[blk], s);
  }
  for (int i = 0; i < n; i++) {
    int t = i % kBlock, v = input(i);
    int b32 = i - t % 32, b16 = i - t % 16, b4 = i - t % 4;
    int s32 = 0, s16 = 0, scan = 0, any = 0, all = 1;
    unsigned long long ballot = 0, match = 0;
    for (int k = 0; k < 32; k++)
      s32 += input(b32 + k);
    for (int k = 0; k <= t % 32; k++)
      scan += input(b32 + k);
    for (int k = 0; k < 16; k++) {
      int u = input(b16 + k);
      s16 += u;
      any |= u > 50;
      all &= u > -41;
      if (u % 2 != 0)
        ballot |= 1ull << k;
      if (u % 3 == v % 3)
        match |= 1ull << k;
    }
    const int *o = &h[i * kOut];
    CHECK_EQ(o[0], s32);
    CHECK_EQ(o[1], t % 32);
    CHECK_EQ(o[2], (t / 32) * 1000 + kBlock / 32);
    CHECK_EQ(o[3], scan);
    CHECK_EQ(o[4], s16);
    CHECK_EQ(o[5], any * 2 + all);
    CHECK_EQ(hm[i * 2], ballot);
    CHECK_EQ(hm[i * 2 + 1], match);
    if (t % 16 == 0)
      CHECK_EQ(o[6], s16); // rank 0 of each runtime tile has the sum
    CHECK_EQ(o[7], (t % 16) * 100 + 16);
    CHECK_EQ(o[8], input(b4 + 1));
    CHECK_EQ(o[9], (t % 32) / 4);
    CHECK_EQ(o[10], (t % 32) * 100 + 32);
    CHECK_EQ(o[11], t % 16 == 0 ? input(i + 15) : v);
  }
  CHECK_HIP(hipFree(out));
  CHECK_HIP(hipFree(masks));
  CHECK_HIP(hipFree(block_sum));
  CHECK_HIP(hipFree(bad));
  (void)ws;
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  return ah_run_both_warp_sizes(argv, body);
}
