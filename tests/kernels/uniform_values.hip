// SPDX-License-Identifier: MIT
// Uniform values across barriers (kernel-compiler/uniformity.cpp): a value
// every thread of a block has in common, live across a barrier that every
// running thread reaches together, is kept once per block and read once per
// region, and a branch on it is taken out of the thread loop. Each kernel
// here is checked against a host loop, in both modes (ctest's cpu/ and
// cpu-fibers/ entries):
//  - a counter whose next value each thread computes in the region after
//    the barrier (every thread must start from the old value, not from the
//    one the thread before it computed);
//  - a uniform value that changes non-monotonically, read after the barrier
//    in another thread's order, in 2D blocks;
//  - a barrier's count as a loop bound;
//  - a per-thread accumulator beside a uniform counter (tiled product);
//  - counters in divergent code with barriers (AMD's any-barrier rule):
//    those must stay per thread, and both modes agree;
//  - a shuffle loop's counter under a divergent branch (`if (warp < 2)`):
//    the same for the threads that run it, kept once per block;
//  - values that merge where threads went different ways (a loop left at
//    different trip counts, an if/else), live across a barrier: per thread;
//  - a pointer to a thread's local array, live across barriers in a loop
//    (hipCUB's BlockRadixSort passes its values so): each thread's own,
//    never kept once per block.
#include "engine_test.h"

#include <vector>

// k's next value is computed after each barrier by every thread; sh mixes
// threads so that a wrong k in any thread shows in others' results.
__global__ void recurrence(int *out, int rounds) {
  __shared__ int sh[256];
  unsigned n = blockDim.x * blockDim.y;
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  int k = 1 + (int)blockIdx.x, acc = 0;
  for (int r = 0; r < rounds; r++) {
    sh[t] = k + (int)t;
    __syncthreads();
    acc += sh[(t + 1) % n] * (r + 1);
    k = (k * 7 + r) % 1009 - (r & 1 ? 300 : 0); // not monotonic
    __syncthreads();
  }
  out[blockIdx.x * n + t] = acc + k;
}

static std::vector<int> recurrence_host(unsigned blocks, unsigned n, int rounds) {
  std::vector<int> out(blocks * n);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) {
      int k = 1 + (int)b, acc = 0;
      for (int r = 0; r < rounds; r++) {
        acc += (k + (int)((t + 1) % n)) * (r + 1);
        k = (k * 7 + r) % 1009 - (r & 1 ? 300 : 0);
      }
      out[b * n + t] = acc + k;
    }
  return out;
}

// Tree reduction with a halving counter and a tail (`t < s` then a barrier,
// s > 0 tested after it): the counter kept once, the test unswitched.
__global__ void halving(const int *in, int *out) {
  extern __shared__ int sh[];
  unsigned t = threadIdx.x;
  sh[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  unsigned s = blockDim.x / 2;
  while (s > 0) {
    if (t < s)
      sh[t] += sh[t + s];
    __syncthreads();
    s >>= 1;
  }
  if (t == 0)
    out[blockIdx.x] = sh[0];
}

// __syncthreads_count's result (the same in every thread) bounds a loop
// with a barrier in it.
__global__ void counted(const int *in, unsigned *out) {
  __shared__ unsigned sh[128];
  unsigned t = threadIdx.x;
  int odd = __syncthreads_count(in[t] & 1);
  unsigned v = 0; // doubles each round: unsigned, so it wraps (defined)
  for (int i = 0; i < odd; i++) {
    sh[t] = v + (unsigned)i;
    __syncthreads();
    v += sh[(t + i) % blockDim.x];
    __syncthreads();
  }
  out[t] = v * 1000u + (unsigned)odd;
}

// A per-thread accumulator that lives across both barriers of a loop with
// a uniform counter (a tiled product): demotion leaves loads of it where
// the phi was, which must not pass for uniform values.
__global__ void tiled_dot(const float *a, const float *b, float *c, int n) {
  __shared__ float ta[16][16], tb[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += 16) {
    ta[ty][tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0.0f;
    tb[ty][tx] = t + ty < n && col < n ? b[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; k++)
      sum += ta[ty][k] * tb[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    c[row * n + col] = sum;
}

// Counters in divergent code: each half of the block loops a different
// number of times around a barrier (AMD: any barrier site counts). i is the
// same in the threads of one half only: it must stay per thread.
__global__ void divergent_counters(int *out) {
  unsigned t = threadIdx.x;
  int acc = 0;
  if (t < blockDim.x / 2) {
    for (int i = 0; i < 3; i++) {
      acc += i * 10 + 1;
      __syncthreads();
    }
  } else {
    for (int i = 0; i < 3; i++) {
      acc += i * 100 + 2;
      __syncthreads();
    }
  }
  out[t] = acc;
}

// Warps below 2 sum their lanes with a shuffle loop inside a divergent
// branch: d is uniform there; the others store their own value.
__global__ void warps_below_two(const unsigned *in, unsigned *out) {
  unsigned t = threadIdx.x, v = in[t];
  __syncthreads();
  if (t / warpSize < 2) {
    for (int d = warpSize / 2; d > 0; d /= 2)
      v += __shfl_down(v, d);
  }
  out[t] = v;
}

// k leaves its loop at a different count in each thread, and x comes from
// one side of an if/else or the other: both live across the barrier.
__global__ void merged_values(int *out) {
  unsigned t = threadIdx.x;
  int k = 0, x;
  while (k < (int)(t % 5))
    k++;
  if (t & 1)
    x = 3;
  else
    x = 5;
  __syncthreads();
  out[t] = k * 10 + x;
}

// v's address crosses the barriers inside a device function's loop.
__device__ void rotate_through(int *v, int *sh, unsigned t, unsigned n, int rounds) {
  for (int r = 0; r < rounds; r++) {
    sh[t] = v[r & 1];
    __syncthreads();
    v[r & 1] = sh[(t + 1) % n] + r;
    __syncthreads();
  }
}

__global__ void local_pointer(const int *in, int *out, int rounds) {
  __shared__ int sh[256];
  unsigned t = threadIdx.x, n = blockDim.x;
  int v[2] = {in[t], in[t] * 3};
  rotate_through(v, sh, t, n, rounds);
  out[t] = v[0] + 1000 * v[1];
}

static int body(int) {
  unsigned long long compiled0 = __ah_cpu_blocks_compiled();
  int fails = 0;

  // recurrence: 1D and 2D blocks, the second not a multiple of the warp.
  for (dim3 block : {dim3(128), dim3(10, 7)}) {
    const unsigned blocks = 5, n = block.x * block.y;
    const int rounds = 9;
    int *dout;
    CHECK_HIP(hipMalloc(&dout, blocks * n * sizeof(int)));
    recurrence<<<blocks, block>>>(dout, rounds);
    std::vector<int> got(blocks * n), want = recurrence_host(blocks, n, rounds);
    CHECK_HIP(hipMemcpy(got.data(), dout, got.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned i = 0; i < got.size(); i++)
      CHECK_EQ(got[i], want[i]);
    CHECK_HIP(hipFree(dout));
  }

  // halving: blocks of 256 and 64.
  for (unsigned threads : {256u, 64u}) {
    const unsigned blocks = 6;
    std::vector<int> in(blocks * threads), got(blocks);
    for (unsigned i = 0; i < in.size(); i++)
      in[i] = (int)(i * 37 % 101) - 50;
    int *din, *dout;
    CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
    CHECK_HIP(hipMalloc(&dout, blocks * sizeof(int)));
    CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
    halving<<<blocks, threads, threads * sizeof(int)>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; b++) {
      int want = 0;
      for (unsigned t = 0; t < threads; t++)
        want += in[b * threads + t];
      CHECK_EQ(got[b], want);
    }
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dout));
  }

  // counted: 100 threads, 37 of them with an odd input.
  {
    const unsigned n = 100;
    std::vector<int> in(n);
    std::vector<unsigned> got(n);
    int odd = 0;
    for (unsigned t = 0; t < n; t++) {
      in[t] = t % 8 < 3 ? 2 * (int)t + 1 : 2 * (int)t;
      odd += in[t] & 1;
    }
    int *din;
    unsigned *dout;
    CHECK_HIP(hipMalloc(&din, n * sizeof(int)));
    CHECK_HIP(hipMalloc(&dout, n * sizeof(unsigned)));
    CHECK_HIP(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    counted<<<1, n>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
    // Host model: v_t(i+1) = v_t(i) + v_{(t+i)%n}(i) + i (everyone stored v+i).
    std::vector<unsigned> v(n, 0), next(n);
    for (int i = 0; i < odd; i++) {
      for (unsigned t = 0; t < n; t++)
        next[t] = v[t] + v[(t + i) % n] + (unsigned)i;
      v = next;
    }
    for (unsigned t = 0; t < n; t++)
      CHECK_EQ(got[t], v[t] * 1000u + (unsigned)odd);
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dout));
  }

  // tiled_dot: 40x40 small integers (exact in float), 16x16 blocks (the
  // last ones partly outside).
  {
    const int n = 40;
    std::vector<float> a(n * n), b(n * n), got(n * n);
    for (int i = 0; i < n * n; i++) {
      a[i] = (float)(i % 7 - 3);
      b[i] = (float)(i % 5 - 2);
    }
    float *da, *db, *dc;
    CHECK_HIP(hipMalloc(&da, n * n * sizeof(float)));
    CHECK_HIP(hipMalloc(&db, n * n * sizeof(float)));
    CHECK_HIP(hipMalloc(&dc, n * n * sizeof(float)));
    CHECK_HIP(hipMemcpy(da, a.data(), n * n * sizeof(float), hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(db, b.data(), n * n * sizeof(float), hipMemcpyHostToDevice));
    tiled_dot<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(da, db, dc, n);
    CHECK_HIP(hipMemcpy(got.data(), dc, n * n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        float want = 0.0f;
        for (int k = 0; k < n; k++)
          want += a[i * n + k] * b[k * n + j];
        CHECK_EQ(got[i * n + j], want);
      }
    CHECK_HIP(hipFree(da));
    CHECK_HIP(hipFree(db));
    CHECK_HIP(hipFree(dc));
  }

  // divergent_counters: 96 threads.
  {
    const unsigned n = 96;
    std::vector<int> got(n);
    int *dout;
    CHECK_HIP(hipMalloc(&dout, n * sizeof(int)));
    divergent_counters<<<1, n>>>(dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < n; t++)
      CHECK_EQ(got[t], t < n / 2 ? 1 + 11 + 21 : 2 + 102 + 202);
    CHECK_HIP(hipFree(dout));
  }

  // warps_below_two: 160 threads (the last warp partial at either size).
  {
    const unsigned n = 160;
    std::vector<unsigned> in(n), got(n);
    unsigned *din, *dout;
    int ws = 0;
    CHECK_HIP(hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0));
    for (unsigned t = 0; t < n; t++)
      in[t] = t * 7u + 1u;
    CHECK_HIP(hipMalloc(&din, n * sizeof(unsigned)));
    CHECK_HIP(hipMalloc(&dout, n * sizeof(unsigned)));
    CHECK_HIP(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
    warps_below_two<<<1, n>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < n; t++) {
      unsigned want = in[t];
      if (t / (unsigned)ws < 2) {
        // __shfl_down tree: a source past the warp's end reads the
        // caller's own value.
        std::vector<unsigned> v(in.begin() + t / ws * ws, in.begin() + t / ws * ws + ws);
        for (int d = ws / 2; d > 0; d /= 2) {
          std::vector<unsigned> next(v);
          for (int l = 0; l < ws; l++)
            next[l] = v[l] + v[l + d < ws ? l + d : l];
          v = next;
        }
        want = v[t % ws];
      }
      CHECK_EQ(got[t], want);
    }
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dout));
  }

  // merged_values: 70 threads.
  {
    const unsigned n = 70;
    std::vector<int> got(n);
    int *dout;
    CHECK_HIP(hipMalloc(&dout, n * sizeof(int)));
    merged_values<<<1, n>>>(dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < n; t++)
      CHECK_EQ(got[t], (int)(t % 5) * 10 + (t & 1 ? 3 : 5));
    CHECK_HIP(hipFree(dout));
  }

  // local_pointer: 96 threads, 7 rounds, against the same rotation here.
  {
    const unsigned n = 96;
    const int rounds = 7;
    std::vector<int> in(n), got(n);
    std::vector<std::vector<int>> v(n, std::vector<int>(2));
    for (unsigned t = 0; t < n; t++) {
      in[t] = (int)(t * 7 % 31);
      v[t] = {in[t], in[t] * 3};
    }
    for (int r = 0; r < rounds; r++) {
      std::vector<int> sh(n);
      for (unsigned t = 0; t < n; t++)
        sh[t] = v[t][r & 1];
      for (unsigned t = 0; t < n; t++)
        v[t][r & 1] = sh[(t + 1) % n] + r;
    }
    int *din, *dout;
    CHECK_HIP(hipMalloc(&din, n * sizeof(int)));
    CHECK_HIP(hipMalloc(&dout, n * sizeof(int)));
    CHECK_HIP(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    local_pointer<<<1, n>>>(din, dout, rounds);
    CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < n; t++)
      CHECK_EQ(got[t], v[t][0] + 1000 * v[t][1]);
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dout));
  }

  unsigned long long compiled = __ah_cpu_blocks_compiled() - compiled0;
  const char *sw = std::getenv("ANYHIP_CPU_COMPILED");
  bool off = sw != nullptr && std::strcmp(sw, "0") == 0;
#if defined(__ANYHIP_KERNEL_COMPILER__)
  if (off)
    CHECK_EQ(compiled, 0ull);
  else
    CHECK(compiled > 0);
#else
  CHECK_EQ(compiled, 0ull);
#endif
  return fails == 0 ? AH_PASS : AH_FAIL;
}

int main(int argc, char **argv) {
  (void)argc;
  if (!ah_on_cpu_device()) {
    std::printf("skipped: uniform values are the CPU device's kernel compiler's\n");
    return 77;
  }
  return ah_run_both_warp_sizes(argv, body);
}
