// SPDX-License-Identifier: MIT
// Proof that the CPU engine's fast path makes no fibers: the engine counts
// every fiber it makes for a GPU thread (__ah_cpu_fibers_created(), also in
// the ANYHIP_LOG=cpu line at exit) and every block it runs. A barrier-free
// kernel over 100 blocks of 256 threads runs 100 blocks and makes 0 fibers.
// A kernel whose threads all reach __syncthreads makes 255 per block (the
// first thread keeps the stack it runs on); one whose first 100 threads
// return before the barrier makes 155 per block (threads that returned need
// none); a warp shuffle alone makes 127 per 128-thread block; blocks of one
// thread and blocks where only the last thread reaches a barrier or a
// shuffle make none. The results are checked too. CPU device only. With the
// kernel compiler, every kernel runs as a block function and makes none
// (ctest's cpu-fibers/ entry checks the fiber counts).
#include "engine_test.h"

#include <vector>

__global__ void plain(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i * 3;
}

__global__ void barrier(int *out, int first) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t < first)
    return;
  s[t] = t;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[255 - t + first] + 1;
}

__global__ void shuffle(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __shfl_xor((int)threadIdx.x, 1);
}

__global__ void last_only(int *out) {
  int t = threadIdx.x;
  if (t + 1 < (int)blockDim.x)
    return;
  __syncthreads();
  out[3 * blockIdx.x] = __syncthreads_count(1);
  out[3 * blockIdx.x + 1] = __shfl(t, 63); // its own lane at either warp size
  out[3 * blockIdx.x + 2] = __ballot(1) == 1ull << __lane_id();
}

// Runs launch() and checks how many fibers and blocks the engine counted.
template <typename F>
static int counted(F launch, unsigned long long fibers, unsigned long long blocks) {
  unsigned long long f0 = ah_cpu_fibers(), b0 = ah_cpu_blocks();
  launch();
  CHECK_HIP(hipDeviceSynchronize());
  // Block functions (kernel compiler) make no fibers at all.
  CHECK_EQ(ah_cpu_fibers() - f0, ah_compiled_blocks_on() ? 0ull : fibers);
  CHECK_EQ(ah_cpu_blocks() - b0, blocks);
  return AH_PASS;
}

int main() {
  if (!ah_on_cpu_device())
    SKIP("the fiber counters belong to the CPU device");
  std::vector<int> h(100 * 256);
  int *d = nullptr;
  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(int)));

  CHECK_EQ(counted([&] { plain<<<100, 256>>>(d); }, 0, 100), AH_PASS);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 100 * 256; i++)
    CHECK_EQ(h[i], i * 3);

  for (int first : {0, 100}) {
    CHECK_EQ(counted([&] { barrier<<<8, 256>>>(d, first); }, 8 * (255 - first), 8), AH_PASS);
    CHECK_HIP(hipMemcpy(h.data(), d, 8 * 256 * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < 8; b++)
      for (int t = first; t < 256; t++)
        CHECK_EQ(h[b * 256 + t], 255 - t + first + 1);
  }

  CHECK_EQ(counted([&] { shuffle<<<4, 128>>>(d); }, 4 * 127, 4), AH_PASS);
  CHECK_HIP(hipMemcpy(h.data(), d, 4 * 128 * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4 * 128; i++)
    CHECK_EQ(h[i], (i % 128) ^ 1);

  CHECK_EQ(counted([&] { last_only<<<5, 1>>>(d); }, 0, 5), AH_PASS);
  CHECK_EQ(counted([&] { last_only<<<3, 64>>>(d); }, 0, 3), AH_PASS);
  CHECK_HIP(hipMemcpy(h.data(), d, 9 * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < 3; b++) { // alone at the barrier, in the shuffle and in the ballot
    CHECK_EQ(h[3 * b], 1);
    CHECK_EQ(h[3 * b + 1], 63);
    CHECK_EQ(h[3 * b + 2], 1);
  }
  CHECK_HIP(hipFree(d));
  std::printf("passed\n");
  return AH_PASS;
}
