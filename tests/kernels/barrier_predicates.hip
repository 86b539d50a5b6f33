// SPDX-License-Identifier: MIT
// __syncthreads_count, __syncthreads_and and __syncthreads_or: every thread
// gets the count / and / or of the predicates of the threads that reach the
// barrier, for block sizes that are not a multiple of the warp size, a block
// of one thread and a block of 1024, and with threads that returned
// excluded (their would-be predicate is the odd one out, so including them
// would change the result). Checked against the host's count.
#include "engine_test.h"

#include <vector>

// pred(t) = t % m == r; threads with t % q == 0 (q > 0) return first and
// would have predicate !pred.
__global__ void votes(int *out, int m, int r, int q) {
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  int n = blockDim.x * blockDim.y;
  if (q > 0 && t % q == 0)
    return;
  int p = t % m == r;
  int *o = out + (blockIdx.x * n + t) * 3;
  o[0] = __syncthreads_count(p);
  o[1] = __syncthreads_and(p);
  o[2] = __syncthreads_or(p);
}

static int run(dim3 block, int m, int r, int q) {
  const int blocks = 3;
  int n = block.x * block.y;
  std::vector<int> h(blocks * n * 3);
  int *d = nullptr;
  int count = 0, all = 1, any = 0;

  for (int t = 0; t < n; t++) {
    if (q > 0 && t % q == 0)
      continue;
    int p = t % m == r;
    count += p;
    all &= p;
    any |= p;
  }
  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(int)));
  CHECK_HIP(hipMemset(d, 0xff, h.size() * sizeof(int)));
  votes<<<blocks, block>>>(d, m, r, q);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < n; t++) {
      const int *o = &h[(b * n + t) * 3];
      if (q > 0 && t % q == 0) {
        CHECK_EQ(o[0], -1);
        continue;
      }
      CHECK_EQ(o[0], count);
      CHECK_EQ(o[1] != 0, all);
      CHECK_EQ(o[2] != 0, any);
    }
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

int main() {
  // Some true, none true, all true, for a few shapes.
  if (run(dim3(100), 3, 1, 0) || run(dim3(100), 200, 150, 0) || run(dim3(100), 1, 0, 0) ||
      run(dim3(1), 1, 0, 0) || run(dim3(1), 2, 1, 0) || run(dim3(1024), 7, 2, 0) ||
      run(dim3(33, 3), 2, 0, 0))
    return AH_FAIL;
  // Returned threads excluded: the threads with t % 2 == 0 return and are
  // the only ones whose predicate (t % 2 == 1) would be false.
  if (run(dim3(130), 2, 1, 2) || run(dim3(256), 4, 3, 4))
    return AH_FAIL;
  // ... and here the only ones that would be true.
  if (run(dim3(130), 2, 0, 2))
    return AH_FAIL;
  std::printf("passed\n");
  return AH_PASS;
}
