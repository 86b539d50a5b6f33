// SPDX-License-Identifier: MIT
// AMD's lane-mask counts __builtin_amdgcn_mbcnt_lo / _hi (ROCm's unit suite,
// deviceLib/mbcnt.cc): the bits of a mask set below the calling lane among
// lanes 0-31 (lo) and 32-63 (hi), plus an addend. Checked against a host
// count for full, empty and patterned masks, in blocks of two warps and a
// partial one, at both warp sizes.
#include "engine_test.h"

#include <vector>

__global__ void counts(const unsigned *masks, int nmasks, unsigned *lo, unsigned *hi,
                       unsigned *lane) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  lane[t] = __lane_id();
#if !defined(__CUDACC__) // AMD's names: the CPU device's kernel language has them
  for (int m = 0; m < nmasks; m++) {
    lo[t * nmasks + m] = __builtin_amdgcn_mbcnt_lo(masks[m], m);
    hi[t * nmasks + m] = __builtin_amdgcn_mbcnt_hi(masks[m], 2 * m);
  }
#endif
}

static unsigned below(unsigned mask, unsigned from, unsigned lane) {
  unsigned n = 0;
  for (unsigned b = 0; b < 32; b++)
    if (from + b < lane && (mask >> b & 1))
      n++;
  return n;
}

static int body(int ws) {
  const std::vector<unsigned> masks = {0xffffffffu, 0u, 0x5555aaaau, 0x80000001u, 0x0000ffffu};
  const int nm = (int)masks.size();
  const unsigned block = 2 * ws + ws / 2, blocks = 2, n = block * blocks;
  unsigned *dm, *dlo, *dhi, *dlane;
  std::vector<unsigned> lo(n * nm), hi(n * nm), lane(n);
  CHECK_HIP(hipMalloc(&dm, nm * sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&dlo, lo.size() * sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&dhi, hi.size() * sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&dlane, n * sizeof(unsigned)));
  CHECK_HIP(hipMemcpy(dm, masks.data(), nm * sizeof(unsigned), hipMemcpyHostToDevice));
  counts<<<blocks, block>>>(dm, nm, dlo, dhi, dlane);
  CHECK_HIP(hipMemcpy(lo.data(), dlo, lo.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(hi.data(), dhi, hi.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(lane.data(), dlane, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (unsigned t = 0; t < n; t++) {
    unsigned l = (t % block) % (unsigned)ws;
    CHECK_EQ(lane[t], l);
    for (int m = 0; m < nm; m++) {
      CHECK_EQ(lo[t * nm + m], below(masks[m], 0, l) + (unsigned)m);
      CHECK_EQ(hi[t * nm + m], below(masks[m], 32, l) + 2u * (unsigned)m);
    }
  }
  CHECK_HIP(hipFree(dm));
  CHECK_HIP(hipFree(dlo));
  CHECK_HIP(hipFree(dhi));
  CHECK_HIP(hipFree(dlane));
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  if (!ah_on_cpu_device()) {
    std::printf("skipped: __builtin_amdgcn_mbcnt_* are AMD's (not declared under nvcc)\n");
    return AH_SKIP;
  }
  return ah_run_both_warp_sizes(argv, body);
}
