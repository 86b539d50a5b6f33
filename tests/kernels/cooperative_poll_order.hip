// SPDX-License-Identifier: MIT
// A block of a cooperative grid that waits for time to pass lets the others
// go first (ROCm's unit suite, multi_grid_group.cc Positive_Sync): in every
// round the last thread of the last block spins on the clock for 20 us, then
// takes a ticket, and every other block's last thread takes one at once. On
// a GPU the other blocks get there meanwhile. On the CPU device each block is
// an OS thread, more of them than cores here, and after grid.sync() the
// spinning block goes on first (it opened the barrier) while the others are
// still being woken: without letting them go first it takes an early ticket
// in most rounds. The order is checked on the CPU device; on a GPU it is a
// matter of timing (the suite gives it 1 ms).
#include "engine_test.h"

#include <algorithm>
#include <hip/hip_cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kRounds = 8;

__global__ void tickets(unsigned *counter, unsigned *ticket, long long spin_ticks) {
  cg::grid_group grid = cg::this_grid();
  bool last_thread = threadIdx.x == blockDim.x - 1;
  for (int r = 0; r < kRounds; r++) {
    if (last_thread && blockIdx.x == gridDim.x - 1) {
      long long t0 = wall_clock64();
      while (wall_clock64() - t0 < spin_ticks) {
      }
    }
    if (last_thread)
      ticket[r * gridDim.x + blockIdx.x] = atomicAdd(&counter[r], 1u);
    grid.sync();
  }
}

int main() {
  hipDeviceProp_t p;
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  int per = 0, threads = 64;
  CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per, tickets, threads, 0));
  // Twice as many blocks as cores, plus two; no more than a cooperative launch takes.
  unsigned blocks = std::min<unsigned>(2 * p.multiProcessorCount + 2, per * p.multiProcessorCount);
  CHECK(blocks >= 2);
  unsigned *counter, *ticket;
  CHECK_HIP(hipMalloc(&counter, kRounds * sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&ticket, kRounds * blocks * sizeof(unsigned)));
  CHECK_HIP(hipMemset(counter, 0, kRounds * sizeof(unsigned)));
  long long spin = ah_wall_ticks(1000) / 50000; // 20 us
  void *args[] = {&counter, &ticket, &spin};
  CHECK_HIP(hipLaunchCooperativeKernel(reinterpret_cast<const void *>(tickets), dim3(blocks),
                                       dim3(threads), args, 0, nullptr));
  CHECK_HIP(hipDeviceSynchronize());
  std::vector<unsigned> h(kRounds * blocks);
  CHECK_HIP(hipMemcpy(h.data(), ticket, h.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  int early = 0;
  for (int r = 0; r < kRounds; r++) {
    // Every block took one ticket of the round: a permutation of 0 .. blocks - 1.
    std::vector<unsigned> round(h.begin() + r * blocks, h.begin() + (r + 1) * blocks);
    std::sort(round.begin(), round.end());
    for (unsigned b = 0; b < blocks; b++)
      CHECK_EQ(round[b], b);
    if (h[r * blocks + blocks - 1] != blocks - 1)
      early++;
  }
  std::printf("%u blocks, %d rounds: the spinning block took an early ticket in %d\n", blocks,
              kRounds, early);
  if (ah_on_cpu_device())
    CHECK_EQ(early, 0);
  CHECK_HIP(hipFree(counter));
  CHECK_HIP(hipFree(ticket));
  return AH_PASS;
}
