// SPDX-License-Identifier: MIT
// Occupancy: hipOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags) against
// the model of docs/occupancy.md computed here from the device's properties
// (exactly on the CPU device, as bounds on a GPU, whose registers only the
// driver knows), hipOccupancyMaxPotentialBlockSize and its C++ variants, a
// launch with the configuration they suggest, and every error path.
#include <hip/hip_runtime.h>

#include "ah_test.h"

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * 3 + 1;
}

__global__ void reverse_in_shared(int *out) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

static bool on_cpu;
static hipDeviceProp_t p;
static size_t shared_cap; // the most dynamic shared memory a block may have

// The documented model, written out again: min over threads, blocks and
// shared memory per multiprocessor (a host-compiled kernel uses no registers).
static int expected_blocks(int block, size_t shmem) {
  if (block > p.maxThreadsPerBlock)
    return 0;
  if (shmem > shared_cap)
    return 0;
  int warps = (block + p.warpSize - 1) / p.warpSize;
  int n = p.maxThreadsPerMultiProcessor / (warps * p.warpSize);
  if (p.maxBlocksPerMultiProcessor > 0 && p.maxBlocksPerMultiProcessor < n)
    n = p.maxBlocksPerMultiProcessor;
  if (shmem > 0 && p.sharedMemPerMultiprocessor / shmem < (size_t)n)
    n = (int)(p.sharedMemPerMultiprocessor / shmem);
  // The CPU device: no more than its cooperative launch holds per worker
  // (docs/cooperative-groups.md: min(1024, max_map_count / 2 / (2 * (threads
  // + 2))) blocks), 1 at least.
  if (on_cpu && n > 1) {
    unsigned long long maps = 65530, lim;
    if (FILE *f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
      if (std::fscanf(f, "%llu", &maps) != 1)
        maps = 65530;
      std::fclose(f);
    }
    lim = maps / 2 / (2 * (block + 2ull));
    lim = (lim > 1024 ? 1024 : lim) / (unsigned long long)p.multiProcessorCount;
    if ((unsigned long long)n > lim)
      n = lim < 1 ? 1 : (int)lim;
  }
  return n;
}

// The block size that keeps the most threads resident (largest on ties).
static void expected_best(int limit, size_t (*smem)(int), int *grid, int *block) {
  int max = p.maxThreadsPerBlock, best = 0, best_n = 0;
  if (limit > 0 && limit < max)
    max = limit;
  for (int b = 1; b <= max; b++) {
    if (b != max && b % p.warpSize != 0)
      continue;
    int n = expected_blocks(b, smem != nullptr ? smem(b) : 0);
    if ((long long)n * b >= (long long)best_n * best && n > 0) {
      best = b;
      best_n = n;
    }
  }
  *block = best;
  *grid = best_n * p.multiProcessorCount;
}

static size_t big_above_512(int b) { return b > 512 ? shared_cap + 1 : 4096; }

// Launches fill with the suggested configuration over n elements.
static int launch_checks(int grid, int block) {
  const int n = grid * block + 17; // not a multiple: the last block is partial
  int *d = nullptr;
  int *h = (int *)malloc(n * sizeof(int));
  CHECK(h != nullptr);
  CHECK_HIP(hipMalloc(&d, n * sizeof(int)));
  int blocks = (n + block - 1) / block;
  fill<<<blocks, block>>>(d, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h, d, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    CHECK_EQ(h[i], i * 3 + 1);
  CHECK_HIP(hipFree(d));
  free(h);
  return AH_PASS;
}

static int active_blocks() {
  int n = -1, m = -1;
  for (int b : {1, 32, 63, 64, 65, 128, 256, 500, 1024}) {
    if (b > p.maxThreadsPerBlock)
      continue;
    CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, fill, b, 0));
    CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&m, (const void *)fill, b, 0));
    CHECK_EQ(n, m); // the C++ overload and the C function agree
    if (on_cpu) {
      CHECK_EQ(n, expected_blocks(b, 0));
    } else {
      CHECK(n >= 1);
      CHECK((long long)n * b <= p.maxThreadsPerMultiProcessor);
      CHECK(p.maxBlocksPerMultiProcessor <= 0 || n <= p.maxBlocksPerMultiProcessor);
    }
    CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &m, fill, b, 0, hipOccupancyDisableCachingOverride));
    CHECK_EQ(m, n);
  }
  // Shared memory: more per block never fits more blocks; too much fits none.
  int prev = 1 << 30;
  for (size_t s : {(size_t)0, (size_t)1024, (size_t)8192, p.sharedMemPerBlock / 2,
                   p.sharedMemPerBlock}) {
    CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, reverse_in_shared, 256, s));
    if (on_cpu)
      CHECK_EQ(n, expected_blocks(256, s));
    CHECK(n >= 1 && n <= prev);
    prev = n;
  }
  CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, reverse_in_shared, 256,
                                                         shared_cap + 1));
  CHECK_EQ(n, 0);
  // A block above the limit: 0 blocks and success (HIP's answer).
  n = -1;
  CHECK_HIP(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, fill, p.maxThreadsPerBlock + 1, 0));
  CHECK_EQ(n, 0);
  return AH_PASS;
}

static int potential_block_size() {
  int grid = -1, block = -1, eg, eb;

  CHECK_HIP(hipOccupancyMaxPotentialBlockSize(&grid, &block, fill, 0, 0));
  CHECK(block >= 1 && block <= p.maxThreadsPerBlock);
  CHECK(grid >= p.multiProcessorCount);
  if (on_cpu) {
    expected_best(0, nullptr, &eg, &eb);
    CHECK_EQ(block, eb);
    CHECK_EQ(grid, eg);
  }
  if (launch_checks(grid, block) != AH_PASS)
    return AH_FAIL;

  // The C form and the flags form agree; a limit is honoured.
  int g2 = -1, b2 = -1;
  CHECK_HIP(hipOccupancyMaxPotentialBlockSize(&g2, &b2, (const void *)fill, 0, 0));
  CHECK(g2 == grid && b2 == block);
  CHECK_HIP(hipOccupancyMaxPotentialBlockSizeWithFlags(&g2, &b2, fill, 0, 0, hipOccupancyDefault));
  CHECK(g2 == grid && b2 == block);
  CHECK_HIP(hipOccupancyMaxPotentialBlockSize(&g2, &b2, fill, 0, 100));
  CHECK(b2 >= 1 && b2 <= 100);
  if (on_cpu) {
    expected_best(100, nullptr, &eg, &eb);
    CHECK_EQ(b2, eb);
    CHECK_EQ(g2, eg);
  }
  if (launch_checks(g2, b2) != AH_PASS)
    return AH_FAIL;

  // Shared memory per block size: sizes above 512 cannot run at all.
  CHECK_HIP(hipOccupancyMaxPotentialBlockSizeVariableSMem(&g2, &b2, reverse_in_shared,
                                                          big_above_512));
  CHECK(b2 >= 1 && b2 <= 512);
  if (on_cpu) {
    expected_best(0, big_above_512, &eg, &eb);
    CHECK_EQ(b2, eb);
    CHECK_EQ(g2, eg);
  }
  {
    int *d = nullptr, h[512];
    CHECK_HIP(hipMalloc(&d, b2 * sizeof(int)));
    reverse_in_shared<<<1, b2, big_above_512(b2)>>>(d);
    CHECK_HIP(hipMemcpy(h, d, b2 * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < b2; i++)
      CHECK_EQ(h[i], b2 - 1 - i);
    CHECK_HIP(hipFree(d));
  }
  // A lambda works too, and with flags.
  auto quarter_kib = [](int) { return (size_t)256; };
  CHECK_HIP(hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&g2, &b2, reverse_in_shared,
                                                                   quarter_kib, 256, 0));
  CHECK(b2 >= 1 && b2 <= 256);

  // Nothing fits: both 0.
  CHECK_HIP(hipOccupancyMaxPotentialBlockSize(&g2, &b2, reverse_in_shared, shared_cap + 1, 0));
  CHECK(g2 == 0 && b2 == 0);
  return AH_PASS;
}

static int errors() {
  int n, g, b;

  CHECK_ERR(hipOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, fill, 64, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)nullptr, 64, 0),
            hipErrorInvalidDeviceFunction);
  CHECK_ERR(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, fill, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, fill, -64, 0), hipErrorInvalidValue);
  CHECK_ERR(hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, fill, 64, 0, 2),
            hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  CHECK_ERR(hipOccupancyMaxPotentialBlockSize(nullptr, &b, fill, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipOccupancyMaxPotentialBlockSize(&g, nullptr, fill, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipOccupancyMaxPotentialBlockSize(&g, &b, (const void *)nullptr, 0, 0),
            hipErrorInvalidDeviceFunction);
  CHECK_ERR(hipOccupancyMaxPotentialBlockSize(&g, &b, fill, 0, -1), hipErrorInvalidValue);
  CHECK_ERR(hipOccupancyMaxPotentialBlockSizeWithFlags(&g, &b, fill, 0, 0, 0x10),
            hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  /* The per-block-size shared memory template refuses a null kernel as an
   * invalid value, as AMD's template does (docs/semantics.md). */
  CHECK_ERR(hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
                &g, &b, (void (*)(float *))nullptr, [](int n) { return (size_t)n; }, 0, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipOccupancyMaxPotentialBlockSizeVariableSMem(
                &g, &b, (void (*)(float *))nullptr, [](int n) { return (size_t)n; }),
            hipErrorInvalidValue);
  return AH_PASS;
}

int main() {
  int dev = 0;
  if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&p, dev) != hipSuccess) {
    printf("skipped: no device\n");
    return AH_SKIP;
  }
  on_cpu = strcmp(p.gcnArchName, "cpu") == 0;
  shared_cap = p.sharedMemPerBlockOptin > p.sharedMemPerBlock ? p.sharedMemPerBlockOptin
                                                              : p.sharedMemPerBlock;
  if (active_blocks() != AH_PASS || potential_block_size() != AH_PASS || errors() != AH_PASS)
    return AH_FAIL;
  printf("occupancy: ok\n");
  return AH_PASS;
}
