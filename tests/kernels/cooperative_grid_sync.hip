// SPDX-License-Identifier: MIT
// grid.sync() of cooperative groups in kernels launched with
// hipLaunchCooperativeKernel: a two-phase sum (each block writes its partial
// sum, grid.sync(), block 0 adds them up, grid.sync(), every block reads the
// total), many rounds of a stencil that reads other blocks' results of the
// previous round, and a counter every thread bumps once per round and reads
// back after the sync. Grids of one-thread blocks, 2D and 3D shapes, partial
// warps, a template kernel through the typed overload, and, on the CPU
// device, blocks and threads that return before the sync. Results are
// compared with host loops.
#include "engine_test.h"

#include <hip/hip_cooperative_groups.h>

#include <vector>

namespace cg = cooperative_groups;

constexpr int kMod = 1000003;

// Phase 1: every block sums a grid-strided slice into partial[block];
// phase 2: block 0 adds the partials; phase 3: every block copies the total.
__global__ void two_phase(const int *in, long long *partial, long long *total, long long *seen,
                          int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ long long acc[1024];
  long long s = 0;
  unsigned r = block.thread_rank(),
           bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);

  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    s += in[i];
  acc[r] = s;
  block.sync();
  if (r == 0) {
    long long b = 0;
    for (unsigned k = 0; k < block.size(); k++)
      b += acc[k];
    partial[bid] = b;
  }
  grid.sync();
  if (bid == 0 && r == 0) {
    long long t = 0;
    for (unsigned k = 0; k < gridDim.x * gridDim.y * gridDim.z; k++)
      t += partial[k];
    *total = t;
  }
  grid.sync();
  if (r == 0)
    seen[bid] = *total;
}

// rounds of b[i] = (a[i-1] + 2 a[i] + a[i+1]) mod kMod on a ring, swapping
// buffers after each grid.sync(); counter checks that every thread of the
// grid passed each round before anyone went on.
__global__ void stencil(int *a, int *b, int n, int rounds, unsigned *counter, int *bad) {
  cg::grid_group grid = cg::this_grid();
  unsigned size = grid.size();

  for (int k = 0; k < rounds; k++) {
    for (unsigned i = grid.thread_rank(); i < (unsigned)n; i += size)
      b[i] = (int)(((long long)a[(i + n - 1) % n] + 2LL * a[i] + a[(i + 1) % n]) % kMod);
    atomicAdd(counter, 1u);
    grid.sync();
    if (atomicAdd(counter, 0u) != (unsigned)(k + 1) * size)
      atomicAdd(bad, 1);
    int *t = a;
    a = b;
    b = t;
    grid.sync(); // nobody bumps the counter before everyone has read it
  }
}

// The same through a template kernel (not registered by hipcc: the typed
// hipLaunchCooperativeKernel overload brings its signature).
template <int Step> __global__ void shift_rounds(int *a, int *b, int n, int rounds) {
  cg::grid_group grid = cg::this_grid();
  for (int k = 0; k < rounds; k++) {
    for (unsigned i = grid.thread_rank(); i < (unsigned)n; i += grid.size())
      b[i] = a[(i + Step) % n] + 1;
    cg::sync(grid);
    int *t = a;
    a = b;
    b = t;
  }
}

// Blocks with an odd index return at once, and in the others the upper half
// of the threads returns: the rest still synchronize (CPU device only; on a
// GPU this would hang).
__global__ void early_exit(int *out, unsigned *counter) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x % 2 == 1 || threadIdx.x >= blockDim.x / 2)
    return;
  atomicAdd(counter, 1u);
  grid.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (int)atomicAdd(counter, 0u);
}

// CUDA's is_valid() says whether the driver gave the launch a grid
// workspace, which it gives to every launch of a kernel that contains a grid
// sync, cooperative or not (CUDA 13 on an H100): the kernel synchronizes
// when it can. docs/semantics.md, "Cooperative groups", says what each
// device promises.
__global__ void validity(int *out) {
  cg::grid_group grid = cg::this_grid();
  bool valid = grid.is_valid();
  if (valid)
    grid.sync();
  out[grid.thread_rank()] = valid ? 1 : 2;
}

static int run_two_phase(dim3 grid, dim3 block) {
  unsigned nb = grid.x * grid.y * grid.z;
  int n = 10007;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; i++) {
    h[i] = (i * 37) % 101 - 50;
    want += h[i];
  }
  int *in = nullptr;
  long long *partial = nullptr, *total = nullptr, *seen = nullptr;
  CHECK_HIP(hipMalloc(&in, n * sizeof(int)));
  CHECK_HIP(hipMalloc(&partial, nb * sizeof(long long)));
  CHECK_HIP(hipMalloc(&total, sizeof(long long)));
  CHECK_HIP(hipMalloc(&seen, nb * sizeof(long long)));
  CHECK_HIP(hipMemcpy(in, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemset(seen, 0, nb * sizeof(long long)));
  void *args[] = {&in, &partial, &total, &seen, &n};
  CHECK_HIP(hipLaunchCooperativeKernel((const void *)two_phase, grid, block, args, 0, 0));
  CHECK_HIP(hipDeviceSynchronize());
  long long t = 0;
  std::vector<long long> s(nb);
  CHECK_HIP(hipMemcpy(&t, total, sizeof(t), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(s.data(), seen, nb * sizeof(long long), hipMemcpyDeviceToHost));
  CHECK_EQ(t, want);
  for (unsigned b = 0; b < nb; b++)
    CHECK_EQ(s[b], want);
  CHECK_HIP(hipFree(in));
  CHECK_HIP(hipFree(partial));
  CHECK_HIP(hipFree(total));
  CHECK_HIP(hipFree(seen));
  return AH_PASS;
}

static int run_stencil(dim3 grid, dim3 block, int n, int rounds) {
  std::vector<int> a(n), b(n);
  for (int i = 0; i < n; i++)
    a[i] = (i * 7919) % kMod;
  int *da = nullptr, *db = nullptr, *bad = nullptr;
  unsigned *counter = nullptr;
  CHECK_HIP(hipMalloc(&da, n * sizeof(int)));
  CHECK_HIP(hipMalloc(&db, n * sizeof(int)));
  CHECK_HIP(hipMalloc(&counter, sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&bad, sizeof(int)));
  CHECK_HIP(hipMemcpy(da, a.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemset(counter, 0, sizeof(unsigned)));
  CHECK_HIP(hipMemset(bad, 0, sizeof(int)));
  // The typed overload (no cast): the kernel's signature comes along.
  void *args[] = {&da, &db, &n, &rounds, &counter, &bad};
  CHECK_HIP(hipLaunchCooperativeKernel(stencil, grid, block, args, 0, 0));
  CHECK_HIP(hipDeviceSynchronize());
  for (int k = 0; k < rounds; k++) {
    for (int i = 0; i < n; i++)
      b[i] = (int)(((long long)a[(i + n - 1) % n] + 2LL * a[i] + a[(i + 1) % n]) % kMod);
    a.swap(b);
  }
  std::vector<int> got(n);
  int nbad = -1;
  unsigned c = 0;
  // After an even number of rounds the result is back in da.
  CHECK_HIP(
      hipMemcpy(got.data(), rounds % 2 == 0 ? da : db, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(&nbad, bad, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(&c, counter, sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK_EQ(nbad, 0);
  CHECK_EQ(c, (unsigned)rounds * grid.x * grid.y * grid.z * block.x * block.y * block.z);
  for (int i = 0; i < n; i++)
    if (got[i] != a[i]) {
      std::fprintf(stderr, "stencil: element %d is %d, want %d\n", i, got[i], a[i]);
      return AH_FAIL;
    }
  CHECK_HIP(hipFree(da));
  CHECK_HIP(hipFree(db));
  CHECK_HIP(hipFree(counter));
  CHECK_HIP(hipFree(bad));
  return AH_PASS;
}

static int run_template(void) {
  int n = 1000, rounds = 7;
  std::vector<int> a(n), b(n);
  for (int i = 0; i < n; i++)
    a[i] = i * 3;
  int *da = nullptr, *db = nullptr;
  CHECK_HIP(hipMalloc(&da, n * sizeof(int)));
  CHECK_HIP(hipMalloc(&db, n * sizeof(int)));
  CHECK_HIP(hipMemcpy(da, a.data(), n * sizeof(int), hipMemcpyHostToDevice));
  void *args[] = {&da, &db, &n, &rounds};
  CHECK_HIP(hipLaunchCooperativeKernel(shift_rounds<3>, dim3(5), dim3(48), args, 0, 0));
  CHECK_HIP(hipDeviceSynchronize());
  for (int k = 0; k < rounds; k++) {
    for (int i = 0; i < n; i++)
      b[i] = a[(i + 3) % n] + 1;
    a.swap(b);
  }
  std::vector<int> got(n);
  CHECK_HIP(hipMemcpy(got.data(), db, n * sizeof(int), hipMemcpyDeviceToHost)); // odd rounds
  for (int i = 0; i < n; i++)
    CHECK_EQ(got[i], a[i]);
  CHECK_HIP(hipFree(da));
  CHECK_HIP(hipFree(db));
  return AH_PASS;
}

static int run_early_exit(void) {
  const int blocks = 6, threads = 40;
  int *out = nullptr;
  unsigned *counter = nullptr;
  std::vector<int> h(blocks * threads);
  CHECK_HIP(hipMalloc(&out, h.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&counter, sizeof(unsigned)));
  CHECK_HIP(hipMemset(out, 0, h.size() * sizeof(int)));
  CHECK_HIP(hipMemset(counter, 0, sizeof(unsigned)));
  void *args[] = {&out, &counter};
  CHECK_HIP(hipLaunchCooperativeKernel((const void *)early_exit, dim3(blocks), dim3(threads), args,
                                       0, 0));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpy(h.data(), out, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  // 3 blocks of 20 threads took part: each read 60 after the sync.
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < threads; t++)
      CHECK_EQ(h[b * threads + t], (b % 2 == 0 && t < threads / 2) ? 60 : 0);
  CHECK_HIP(hipFree(out));
  CHECK_HIP(hipFree(counter));
  return AH_PASS;
}

static int run_validity(void) {
  int *out = nullptr, h[12];
  CHECK_HIP(hipMalloc(&out, sizeof(h)));
  void *args[] = {&out};
  CHECK_HIP(hipLaunchCooperativeKernel((const void *)validity, dim3(3), dim3(4), args, 0, 0));
  CHECK_HIP(hipMemcpy(h, out, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 12; i++)
    CHECK_EQ(h[i], 1);
  CHECK_HIP(hipMemset(out, 0, sizeof(h)));
  validity<<<3, 4>>>(out); // not cooperative
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h, out, sizeof(h), hipMemcpyDeviceToHost));
  if (ah_on_cpu_device()) {
    // The CPU device promises is_valid() is false without a cooperative launch.
    for (int i = 0; i < 12; i++)
      CHECK_EQ(h[i], 2);
  } else {
    // An NVIDIA GPU answers as CUDA does (true here, as the kernel contains
    // grid.sync(); then the sync works, the 3 blocks all being resident).
    // Whatever it says, it says it to the whole grid, and every thread ran.
    for (int i = 0; i < 12; i++)
      CHECK(h[i] == h[0] && (h[i] == 1 || h[i] == 2));
    std::printf("is_valid() without a cooperative launch: %s (CUDA's answer)\n",
                h[0] == 1 ? "true" : "false");
  }
  CHECK_HIP(hipFree(out));
  return AH_PASS;
}

int main() {
  int coop = 0;
  CHECK_HIP(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
  if (!coop) {
    std::printf("SKIP: device 0 has no cooperative launch\n");
    return AH_SKIP;
  }
  if (run_two_phase(dim3(8), dim3(64)) != AH_PASS ||
      run_two_phase(dim3(4), dim3(1)) != AH_PASS || // one-thread blocks: the fast path
      run_two_phase(dim3(2, 3), dim3(8, 5)) != AH_PASS ||
      run_two_phase(dim3(2, 1, 2), dim3(3, 3, 3)) != AH_PASS ||
      run_two_phase(dim3(1), dim3(1024)) != AH_PASS)
    return AH_FAIL;
  if (run_stencil(dim3(8), dim3(32), 777, 20) != AH_PASS ||
      run_stencil(dim3(5), dim3(100), 4096, 9) != AH_PASS ||
      run_stencil(dim3(16), dim3(1), 50, 31) != AH_PASS)
    return AH_FAIL;
  if (run_template() != AH_PASS || run_validity() != AH_PASS)
    return AH_FAIL;
  if (ah_on_cpu_device()) {
    if (run_early_exit() != AH_PASS)
      return AH_FAIL;
  } else {
    std::printf("not tested here: blocks that return before grid.sync() (CPU device only)\n");
  }
  CHECK_HIP(hipGetLastError());
  return AH_PASS;
}
