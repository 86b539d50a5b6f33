// SPDX-License-Identifier: MIT
// A template kernel given to the occupancy templates by its bare name, the
// specialisation named by the explicit pointer type (ROCm's unit suite,
// hipOccupancy*_TemplateInvocation): hipOccupancyMaxPotentialBlockSize
// <void (*)(int *)>(&g, &b, k, 0, 0). hipcc turns the name into an object
// that converts to that pointer type by picking k<int> and registers it, so
// the occupancy functions (which refuse what is not a registered kernel)
// answer as for k<int> given explicitly (setter<int> is named nowhere else,
// so nothing else registers it). A host function of that type is still
// refused.
#include "engine_test.h"

template <typename T> static __global__ void setter(T *a) { *a = static_cast<T>(7); }

static void host_fn(int *) {}

int main() {
  int grid = 0, block = 0, grid_ref = 0, block_ref = 0, blocks = 0, blocks_ref = 0;

  // The reference: the specialisation named explicitly.
  CHECK_HIP(hipOccupancyMaxPotentialBlockSize(&grid_ref, &block_ref, setter<double>, 0, 0));
  CHECK(grid_ref > 0 && block_ref > 0);
  CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_ref, setter<double>, 64, 0));
  CHECK(blocks_ref > 0);

  // The bare name, resolved by the pointer type: another specialisation
  // (setter<int> is named nowhere else in this file).
  CHECK_HIP(hipOccupancyMaxPotentialBlockSize<void (*)(int *)>(&grid, &block, setter, 0, 0));
  CHECK_EQ(grid, grid_ref);
  CHECK_EQ(block, block_ref);
  CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor<void (*)(int *)>(&blocks, setter, 64, 0));
  CHECK_EQ(blocks, blocks_ref);
  CHECK_HIP(hipOccupancyMaxPotentialBlockSizeWithFlags<void (*)(int *)>(
      &grid, &block, setter, 0, 0, hipOccupancyDefault));
  CHECK_EQ(block, block_ref);

  // A host function is no kernel.
  CHECK_ERR(hipOccupancyMaxPotentialBlockSize<void (*)(int *)>(&grid, &block, host_fn, 0, 0),
            hipErrorInvalidDeviceFunction);
  return 0;
}
