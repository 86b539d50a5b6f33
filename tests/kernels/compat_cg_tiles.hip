// SPDX-License-Identifier: MIT
// Runtime tiles of a block whose size is not a multiple of the tile
// (ROCm's unit suite, thread_block_tile.cc: blocks of 65 x 3 x 3 threads):
// tiled_partition(block, n) gives tiles of n threads except the last, which
// holds what is left of the block, and size() says so; thread_rank() is the
// rank in the block mod n, meta_group_rank/size count the tiles, and sync()
// of the last, partial tile returns. A compile-time thread_block_tile<n>
// keeps size() n. The reference is worked out on the host from the block's
// shape alone.
#include "engine_test.h"

#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void tiles(unsigned tile, unsigned *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group t = cg::tiled_partition(block, tile);
  unsigned r = block.thread_rank();
  unsigned *o = out + 5 * (blockIdx.x * block.size() + r);
  o[0] = t.size();
  o[1] = t.thread_rank();
#if defined(__HIP_PLATFORM_NVIDIA__) // CUDA's thread_group has no meta_group_*
  o[2] = r / tile;
  o[3] = (block.size() + tile - 1) / tile;
#else
  o[2] = t.meta_group_rank();
  o[3] = t.meta_group_size();
#endif
  t.sync();
  o[4] = cg::tiled_partition<16>(block).size();
}

int main() {
  const dim3 block(65, 3, 3);
  const unsigned n = 65 * 3 * 3, blocks = 2;
  unsigned *d, *h = new unsigned[5 * n * blocks];

  CHECK_HIP(hipMalloc((void **)&d, 5 * n * blocks * sizeof(unsigned)));
  for (unsigned tile : {2u, 4u, 8u, 16u, 32u}) {
    CHECK_HIP(hipMemset(d, 0xff, 5 * n * blocks * sizeof(unsigned)));
    tiles<<<blocks, block>>>(tile, d);
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipMemcpy(h, d, 5 * n * blocks * sizeof(unsigned), hipMemcpyDeviceToHost));
    unsigned ntiles = (n + tile - 1) / tile, last = n - (ntiles - 1) * tile;
    for (unsigned b = 0; b < blocks; b++)
      for (unsigned r = 0; r < n; r++) {
        const unsigned *o = h + 5 * (b * n + r);
        unsigned k = r / tile;
        if (k < ntiles - 1 || ah_on_cpu_device()) // what CUDA says of a partial tile is CUDA's
          CHECK_EQ(o[0], k == ntiles - 1 ? last : tile);
        CHECK_EQ(o[1], r % tile);
        CHECK_EQ(o[2], k);
        CHECK_EQ(o[3], ntiles);
        CHECK_EQ(o[4], 16u);
      }
  }
  CHECK_HIP(hipFree(d));
  delete[] h;
  std::printf("tiles of a 65 x 3 x 3 block: passed\n");
  return AH_PASS;
}
