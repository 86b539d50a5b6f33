// SPDX-License-Identifier: MIT
// Halving shuffle loops whose steps run only the lanes the rest of the
// loop needs (kernel-compiler/demanded_lanes.h), against host models, in
// both modes and at both warp sizes:
//  - the block sum of a warp reduction, then warp 0's sum of the partial
//    sums after a barrier (the benchmark's kernel), with a store by every
//    thread after each loop: the loop's last step must run every lane;
//  - the forms of `lane == 0` the compiler takes (`% warpSize`,
//    `& (warpSize - 1)`, `threadIdx.x == 0`, __lane_id()), an unsigned
//    delta shifted right, and a max;
//  - a 2D block of 48 x 4 threads (whole warps, but rows that start inside
//    them): `threadIdx.x % warpSize == 0` is then not lane 0, so every lane
//    must run, and the lanes it picks store their own sums;
//  - loops it must leave alone: every lane stores its sum, or a second value
//    goes around the loop.
#include "engine_test.h"

#include <vector>

constexpr unsigned kBlock = 256;

__device__ int warp_sum(int v) {
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += __shfl_down(v, d);
  return v;
}

__global__ void block_sum(const int *in, int *out, int *seen) {
  __shared__ int partial[kBlock / 32];
  unsigned tid = threadIdx.x, g = blockIdx.x * blockDim.x + tid;
  unsigned lane = tid % warpSize, warp = tid / warpSize;
  int v = warp_sum(in[g]);
  seen[g] = (int)g + 1; // after the loop, in every thread
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / warpSize ? partial[lane] : 0;
    v = warp_sum(v);
    seen[g] += 1000;
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// A warp sum per warp with another form of the lane test each: out[w].
__global__ void lane_mask(const int *in, int *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int a = in[g];
  for (int d = warpSize / 2; d > 0; d >>= 1)
    a += __shfl_down(a, d);
  if ((threadIdx.x & (warpSize - 1)) == 0)
    out[g / warpSize] = a;
}

__global__ void lane_id_max(const int *in, int *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int m = in[g];
  for (unsigned d = warpSize / 2; d != 0; d >>= 1) {
    int o = __shfl_down(m, d);
    m = m > o ? m : o;
  }
  if (__lane_id() == 0)
    out[g / warpSize] = m;
}

// Thread 0 of each block: out[blockIdx.x].
__global__ void thread0(const int *in, int *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int b = in[g] * 3;
  for (int d = warpSize / 2; d > 0; d /= 2)
    b -= __shfl_down(b, d);
  if (threadIdx.x == 0)
    out[blockIdx.x] = b;
}

// 48 x 4 threads: rows start inside warps.
__global__ void rows_48(const int *in, int *out) {
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  int v = warp_sum(in[t]);
  if (threadIdx.x % warpSize == 0) // x 0, and 32 at warp size 32
    out[threadIdx.y * 2 + threadIdx.x / warpSize] = v;
}

// Every lane stores its sum.
__global__ void every_lane(const int *in, int *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = warp_sum(in[g]);
}

// A second value goes around the loop.
__global__ void two_values(const int *in, int *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[g], c = (int)g;
  for (int d = warpSize / 2; d > 0; d /= 2) {
    v += __shfl_down(v, d);
    c = c * 3 + v;
  }
  if (threadIdx.x % warpSize == 0)
    out[g / warpSize] = c;
}

// The tree of __shfl_down over a warp's values (sources past the warp read
// the lane's own), op applied at each step.
template <class Op> static std::vector<int> tree(std::vector<int> v, int ws, Op op) {
  for (int d = ws / 2; d > 0; d /= 2) {
    std::vector<int> next(v);
    for (int l = 0; l < ws; l++)
      next[l] = op(v[l], l + d < ws ? v[l + d] : v[l]);
    v = next;
  }
  return v;
}

static int body(int ws) {
  unsigned long long compiled0 = __ah_cpu_blocks_compiled();
  const unsigned blocks = 5, n = blocks * kBlock, nw = n / (unsigned)ws;
  std::vector<int> in(n), got(n), seen(n);
  for (unsigned i = 0; i < n; i++)
    in[i] = (int)(i * 37 % 101) - 50;
  int *din, *dout, *dseen;
  CHECK_HIP(hipMalloc(&din, n * sizeof(int)));
  CHECK_HIP(hipMalloc(&dout, n * sizeof(int)));
  CHECK_HIP(hipMalloc(&dseen, n * sizeof(int)));
  CHECK_HIP(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  auto plus = [](int a, int b) { return a + b; };
  auto warp_of = [&](const std::vector<int> &a, unsigned w) {
    return std::vector<int>(a.begin() + w * ws, a.begin() + (w + 1) * ws);
  };

  block_sum<<<blocks, kBlock>>>(din, dout, dseen);
  CHECK_HIP(hipMemcpy(got.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(seen.data(), dseen, n * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned b = 0; b < blocks; b++) {
    int sum = 0;
    for (unsigned t = 0; t < kBlock; t++)
      sum += in[b * kBlock + t];
    CHECK_EQ(got[b], sum);
    for (unsigned t = 0; t < kBlock; t++)
      CHECK_EQ(seen[b * kBlock + t], (int)(b * kBlock + t) + 1 + (t < (unsigned)ws ? 1000 : 0));
  }

  auto max2 = [](int a, int b) { return a > b ? a : b; };
  lane_mask<<<blocks, kBlock>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, nw * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned w = 0; w < nw; w++)
    CHECK_EQ(got[w], tree(warp_of(in, w), ws, plus)[0]);
  lane_id_max<<<blocks, kBlock>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, nw * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned w = 0; w < nw; w++)
    CHECK_EQ(got[w], tree(warp_of(in, w), ws, max2)[0]);
  thread0<<<blocks, kBlock>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned b = 0; b < blocks; b++) {
    std::vector<int> v = warp_of(in, b * kBlock / ws);
    for (int &x : v)
      x *= 3;
    CHECK_EQ(got[b], tree(v, ws, [](int a, int c) { return a - c; })[0]);
  }

  // rows_48: 192 threads, whole warps; the threads with threadIdx.x %
  // warpSize == 0 are lanes 0, 48, 96 % ws, 144 % ws of their warps (and
  // x == 32's at warp size 32).
  {
    const unsigned dx = 48, dy = 4;
    rows_48<<<1, dim3(dx, dy)>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, 2 * dy * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned y = 0; y < dy; y++)
      for (unsigned x = 0; x < dx; x += (unsigned)ws) {
        unsigned t = y * dx + x;
        std::vector<int> s = tree(warp_of(in, t / ws), ws, plus);
        CHECK_EQ(got[y * 2 + x / ws], s[t % ws]);
      }
  }

  every_lane<<<blocks, kBlock>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned w = 0; w < nw; w++) {
    std::vector<int> s = tree(warp_of(in, w), ws, plus);
    for (int l = 0; l < ws; l++)
      CHECK_EQ(got[w * ws + l], s[l]);
  }

  two_values<<<blocks, kBlock>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, nw * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned w = 0; w < nw; w++) {
    std::vector<int> v = warp_of(in, w);
    int c = (int)(w * ws);
    for (int d = ws / 2; d > 0; d /= 2) {
      std::vector<int> next(v);
      for (int l = 0; l < ws; l++)
        next[l] = v[l] + (l + d < ws ? v[l + d] : v[l]);
      v = next;
      c = c * 3 + v[0];
    }
    CHECK_EQ(got[w], c);
  }

  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
  CHECK_HIP(hipFree(dseen));
  // The compiled path ran (where it is on): what this test is about.
  unsigned long long compiled = __ah_cpu_blocks_compiled() - compiled0;
  if (ah_compiled_blocks_on())
    CHECK(compiled > 0);
  else
    CHECK_EQ(compiled, 0ull);
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  if (!ah_on_cpu_device()) {
    std::printf("skipped: demanded lanes are the CPU device's kernel compiler's\n");
    return 77;
  }
  return ah_run_both_warp_sizes(argv, body);
}
