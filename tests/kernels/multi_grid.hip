// SPDX-License-Identifier: MIT
// multi_grid_group on CPU devices (ANYHIP_CPU_DEVICES=3 unless set): one
// hipLaunchCooperativeKernelMultiDevice of grids of different shapes, one per
// device, then the same through hipModuleLaunchCooperativeKernelMultiDevice. Each thread checks num_grids(), grid_rank(), size() and its
// thread_rank() against the launch's shapes; then rounds in which grid g's
// blocks write a value and, after this_multi_grid().sync(), read what grid
// (g + 1) % n wrote in the same round, while the block of the highest rank is
// held back by a clock wait: a missing or partial barrier reads a stale
// value. In a launch with hipLaunchCooperativeKernel the group is the one
// grid (num_grids() 1, is_valid() false), and its sync() fails the launch
// with a report instead of hanging. CUDA 12 removed multi_grid_group, so the
// NVIDIA pass has nothing to run.
#include "engine_test.h"
#include "fault_capture.h"

#include <hip/hip_cooperative_groups.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kRounds = 6;
constexpr int kMaxGrids = 4;

struct grid_out {
  unsigned *facts; // per thread: num_grids, grid_rank, size, thread_rank, is_valid
  unsigned *slots; // per block and round: what the next grid's same block wrote
  int *mine;       // this grid's value per block and round
};

#if !defined(__HIP_PLATFORM_NVIDIA__)
__global__ void exchange(grid_out out, int **all_mine, unsigned blocks_min) {
  cg::multi_grid_group mg = cg::this_multi_grid();
  cg::grid_group grid = cg::this_grid();
  unsigned t = grid.thread_rank(), b = blockIdx.x;
  unsigned g = mg.grid_rank(), n = mg.num_grids();
  unsigned *f = out.facts + 5 * t;
  f[0] = n;
  f[1] = g;
  f[2] = mg.size();
  f[3] = mg.thread_rank();
  f[4] = mg.is_valid();
  for (int r = 0; r < kRounds; r++) {
    // The last block of the last grid arrives late at every sync.
    if (g == n - 1 && b == gridDim.x - 1 && threadIdx.x == 0) {
      long long t0 = clock64(); // nanoseconds on the CPU device: 2 ms
      while (clock64() - t0 < 2000000) {
      }
    }
    if (threadIdx.x == 0 && b < blocks_min)
      out.mine[b * kRounds + r] = (int)(1000 * (g + 1) + 10 * r + 1);
    mg.sync();
    if (threadIdx.x == 0 && b < blocks_min)
      out.slots[b * kRounds + r] = (unsigned)all_mine[(g + 1) % n][b * kRounds + r];
    mg.sync(); // nobody writes the next round before every read of this one
  }
}

__global__ void alone(unsigned *facts) {
  cg::multi_grid_group mg = cg::this_multi_grid();
  unsigned t = cg::this_grid().thread_rank();
  facts[3 * t] = mg.num_grids();
  facts[3 * t + 1] = mg.is_valid();
  facts[3 * t + 2] = mg.thread_rank();
}

__global__ void sync_alone() {
  cg::this_multi_grid().sync();
}
#endif

int main() {
#if defined(__HIP_PLATFORM_NVIDIA__)
  std::printf("multi_grid: skipped: CUDA has no multi_grid_group\n");
  return AH_SKIP;
#else
  if (std::getenv("ANYHIP_CPU_DEVICES") == nullptr)
    setenv("ANYHIP_CPU_DEVICES", "3", 1);
  int ndev = 0;
  CHECK_HIP(hipGetDeviceCount(&ndev));
  if (!ah_on_cpu_device()) {
    std::printf("multi_grid: skipped: not a CPU device\n");
    return AH_SKIP;
  }
  int n = ndev < kMaxGrids ? ndev : kMaxGrids;
  int attr = 0;
  CHECK_HIP(hipDeviceGetAttribute(&attr, hipDeviceAttributeCooperativeMultiDeviceLaunch, 0));
  CHECK_EQ(attr, 1);
  // The grids below differ in shape (what the Unmatched attributes promise).
  for (hipDeviceAttribute_t a :
       {hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc,
        hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim,
        hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim,
        hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem}) {
    CHECK_HIP(hipDeviceGetAttribute(&attr, a, 0));
    CHECK_EQ(attr, 1);
  }

  // Grid i: 2 + i blocks of 32 * (i + 1) threads.
  std::vector<grid_out> outs(n);
  std::vector<int *> mines(n);
  std::vector<hipStream_t> streams(n);
  std::vector<hipLaunchParams> lp(n);
  std::vector<std::vector<void *>> argv(n);
  std::vector<unsigned> first(n), threads(n);
  int **all_mine[kMaxGrids];
  unsigned total = 0, blocks_min = 2;
  for (int i = 0; i < n; i++) {
    first[i] = total;
    threads[i] = (2 + i) * 32 * (i + 1);
    total += threads[i];
  }
  for (int i = 0; i < n; i++) {
    CHECK_HIP(hipSetDevice(i));
    CHECK_HIP(hipStreamCreate(&streams[i]));
    CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&outs[i].facts), 5 * threads[i] * sizeof(unsigned)));
    CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&outs[i].slots), 8 * kRounds * sizeof(unsigned)));
    CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&outs[i].mine), 8 * kRounds * sizeof(int)));
    CHECK_HIP(hipMemset(outs[i].mine, 0, 8 * kRounds * sizeof(int)));
    mines[i] = outs[i].mine;
  }
  int **dev_mines;
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipMallocManaged(reinterpret_cast<void **>(&dev_mines), n * sizeof(int *)));
  for (int i = 0; i < n; i++)
    dev_mines[i] = mines[i];
  for (int i = 0; i < n; i++) {
    all_mine[i] = dev_mines;
    argv[i] = {&outs[i], &all_mine[i], &blocks_min};
    lp[i].func = reinterpret_cast<void *>(exchange);
    lp[i].gridDim = dim3(2 + i);
    lp[i].blockDim = dim3(32 * (i + 1));
    lp[i].sharedMem = 0;
    lp[i].stream = streams[i];
    lp[i].args = argv[i].data();
  }
  CHECK_HIP(hipLaunchCooperativeKernelMultiDevice(lp.data(), n, 0));
  for (int i = 0; i < n; i++) {
    CHECK_HIP(hipSetDevice(i));
    CHECK_HIP(hipDeviceSynchronize());
  }
  for (int i = 0; i < n; i++) {
    std::vector<unsigned> f(5 * threads[i]), s(8 * kRounds);
    CHECK_HIP(hipMemcpy(f.data(), outs[i].facts, f.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(s.data(), outs[i].slots, blocks_min * kRounds * sizeof(unsigned),
                        hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < threads[i]; t++) {
      CHECK_EQ(f[5 * t], (unsigned)n);
      CHECK_EQ(f[5 * t + 1], (unsigned)i);
      CHECK_EQ(f[5 * t + 2], total);
      CHECK_EQ(f[5 * t + 3], first[i] + t);
      CHECK_EQ(f[5 * t + 4], 1u);
    }
    unsigned next = (unsigned)((i + 1) % n);
    for (unsigned b = 0; b < blocks_min; b++)
      for (int r = 0; r < kRounds; r++)
        CHECK_EQ(s[b * kRounds + r], 1000 * (next + 1) + 10 * r + 1);
  }

  // The module form (hipModuleLaunchCooperativeKernelMultiDevice, the kernel's handle from
  // hipGetFuncBySymbol): the same grids, one group again.
  hipFunction_t fn;
  CHECK_HIP(hipGetFuncBySymbol(&fn, reinterpret_cast<const void *>(exchange)));
  std::vector<hipFunctionLaunchParams> fp(n);
  for (int i = 0; i < n; i++) {
    CHECK_HIP(hipSetDevice(i));
    CHECK_HIP(hipMemset(outs[i].facts, 0, 5 * threads[i] * sizeof(unsigned)));
    CHECK_HIP(hipMemset(outs[i].slots, 0, 8 * kRounds * sizeof(unsigned)));
    fp[i] = {};
    fp[i].function = fn;
    fp[i].gridDimX = 2 + i;
    fp[i].gridDimY = fp[i].gridDimZ = 1;
    fp[i].blockDimX = 32 * (i + 1);
    fp[i].blockDimY = fp[i].blockDimZ = 1;
    fp[i].hStream = streams[i];
    fp[i].kernelParams = argv[i].data();
  }
  CHECK_HIP(hipModuleLaunchCooperativeKernelMultiDevice(fp.data(), n, 0));
  for (int i = 0; i < n; i++) {
    CHECK_HIP(hipSetDevice(i));
    CHECK_HIP(hipDeviceSynchronize());
  }
  for (int i = 0; i < n; i++) {
    std::vector<unsigned> f(5 * threads[i]), s(8 * kRounds);
    CHECK_HIP(hipMemcpy(f.data(), outs[i].facts, f.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(s.data(), outs[i].slots, blocks_min * kRounds * sizeof(unsigned),
                        hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < threads[i]; t++) {
      CHECK_EQ(f[5 * t + 1], (unsigned)i);
      CHECK_EQ(f[5 * t + 3], first[i] + t);
      CHECK_EQ(f[5 * t + 4], 1u);
    }
    unsigned next = (unsigned)((i + 1) % n);
    for (unsigned b = 0; b < blocks_min; b++)
      for (int r = 0; r < kRounds; r++)
        CHECK_EQ(s[b * kRounds + r], 1000 * (next + 1) + 10 * r + 1);
  }

  // A cooperative launch of one grid: the group is that grid.
  CHECK_HIP(hipSetDevice(0));
  unsigned *facts;
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&facts), 3 * 64 * sizeof(unsigned)));
  void *a1[] = {&facts};
  CHECK_HIP(hipLaunchCooperativeKernel(reinterpret_cast<void *>(alone), dim3(2), dim3(32), a1, 0,
                                       nullptr));
  CHECK_HIP(hipDeviceSynchronize());
  std::vector<unsigned> fa(3 * 64);
  CHECK_HIP(hipMemcpy(fa.data(), facts, fa.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (unsigned t = 0; t < 64; t++) {
    CHECK_EQ(fa[3 * t], 1u);
    CHECK_EQ(fa[3 * t + 1], 0u);
    CHECK_EQ(fa[3 * t + 2], t);
  }

  // Its sync() there is refused with a report, not a hang.
  hipError_t e = hipSuccess;
  std::string text = ah_capture_stderr([&] {
    hipLaunchKernelGGL(sync_alone, dim3(2), dim3(8), 0, 0);
    e = hipDeviceSynchronize();
  });
  CHECK_ERR(e, hipErrorLaunchFailure);
  CHECK(text.find("multi_grid_group::sync()") != std::string::npos);
  std::printf("multi_grid: ok (%d grids, %u threads)\n", n, total);
  return 0;
#endif
}
