// SPDX-License-Identifier: MIT
// The hard cases of the kernel compiler's block loops (kernel-compiler/),
// each checked against a host loop: barriers in loops with uniform trip
// counts, in uniform ifs, in device functions, after a return that no
// thread takes; 3D blocks; blockDim not a multiple of the warp size; values
// and local arrays live across barriers; shuffles across a barrier; warp
// functions in warp-uniform branches. The same program runs in both modes
// (ctest's cpu/ and cpu-fibers/ entries): with the kernel compiler it also
// checks that its blocks ran as block functions, and with
// ANYHIP_CPU_COMPILED=0 that none did.
#include "engine_test.h"

#include <vector>

// Reduction tree: a barrier in a loop whose trip count depends on blockDim.
__global__ void tree_sum(const int *in, int *out) {
  extern __shared__ int sh[];
  unsigned t = threadIdx.x;
  sh[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = sh[0];
}

// A barrier inside a device function, called twice, and in a uniform if.
__device__ int rotate_through_shared(int *sh, int v, int by) {
  unsigned t = threadIdx.x, n = blockDim.x;
  sh[t] = v;
  __syncthreads();
  int r = sh[(t + by) % n];
  __syncthreads();
  return r;
}

__global__ void rotations(int *out, int twice) {
  __shared__ int sh[200];
  int v = (int)threadIdx.x * 7;
  v = rotate_through_shared(sh, v, 1);
  if (twice) // uniform: every thread takes the same side
    v = rotate_through_shared(sh, v, 3);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A return no thread takes before a barrier; a local array and scalars that
// live across barriers (each thread keeps its own).
__global__ void live_across(const int *in, int *out, int never) {
  __shared__ int sh[128];
  unsigned t = threadIdx.x;
  if ((int)t == never)
    return;
  int local[4];
  for (int k = 0; k < 4; k++)
    local[k] = in[t] * (k + 1);
  float f = (float)t * 0.5f;
  sh[t] = local[3];
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 4; k++) {
    acc += local[k] + sh[(t + k) % blockDim.x];
    __syncthreads();
  }
  out[t] = acc + (int)(f * 2.0f);
}

// 3D blocks: each thread writes its linear id seen through threadIdx after a
// barrier, plus its neighbour's value read through shared memory.
__global__ void three_d(int *out) {
  __shared__ int sh[4 * 3 * 5];
  unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  sh[lin] = (int)(threadIdx.x * 100 + threadIdx.y * 10 + threadIdx.z);
  __syncthreads();
  out[blockIdx.x * n + lin] = sh[(lin + 1) % n] + 1000 * (int)lin;
}

// Warp sums with shuffles, a barrier, then the first warp sums the partial
// sums (a warp function inside a warp-uniform branch). blockDim need not be
// a multiple of warpSize: missing lanes read as 0.
__global__ void shuffle_sum(const int *in, int *out) {
  __shared__ int partial[32];
  unsigned t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += __shfl_down(v, d);
  unsigned lane = t % warpSize, warp = t / warpSize;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  unsigned nwarps = (blockDim.x + warpSize - 1) / warpSize;
  if (warp == 0) {
    v = lane < nwarps ? partial[lane] : 0;
    for (int d = warpSize / 2; d > 0; d /= 2)
      v += __shfl_xor(v, d);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// Votes and counts: __ballot, __any and __syncthreads_count in one kernel.
__global__ void votes(const int *in, unsigned long long *ballots, int *counts) {
  unsigned t = threadIdx.x;
  int p = in[t] & 1;
  unsigned long long b = __ballot(p);
  int any = __any(in[t] > 1000);
  int c = __syncthreads_count(p);
  if (t % warpSize == 0)
    ballots[t / warpSize] = b;
  counts[t] = c * 2 + any;
}

// The usual bounds guard, both ways round: blocks where every thread passes
// it run a copy without the test; the last, partial block runs the test.
__global__ void guarded(const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i] + y[i];
}

__global__ void guarded_return(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = i * 3 + 1;
}

static int body(int ws) {
  int fails = 0;
  const unsigned long long compiled0 = __ah_cpu_blocks_compiled();

  // tree_sum: 6 blocks of 128 threads.
  {
    const int nb = 6, bs = 128;
    std::vector<int> in(nb * bs), out(nb);
    for (int i = 0; i < nb * bs; i++)
      in[i] = (i * 37) % 101 - 50;
    int *din, *dout;
    CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
    CHECK_HIP(hipMalloc(&dout, out.size() * sizeof(int)));
    CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
    tree_sum<<<nb, bs, bs * sizeof(int)>>>(din, dout);
    CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) {
      int want = 0;
      for (int i = 0; i < bs; i++)
        want += in[b * bs + i];
      CHECK_EQ(out[b], want);
    }
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dout));
  }
  // rotations: 3 blocks of 200 threads (not a multiple of 32 or 64).
  for (int twice = 0; twice < 2; twice++) {
    const int nb = 3, bs = 200;
    int *d;
    std::vector<int> out(nb * bs);
    CHECK_HIP(hipMalloc(&d, out.size() * sizeof(int)));
    rotations<<<nb, bs>>>(d, twice);
    CHECK_HIP(hipMemcpy(out.data(), d, out.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++)
      for (int t = 0; t < bs; t++) {
        int want = ((t + 1) % bs) * 7;
        if (twice)
          want = ((t + 3 + 1) % bs) * 7;
        CHECK_EQ(out[b * bs + t], want);
      }
    CHECK_HIP(hipFree(d));
  }
  // live_across: one block of 100 threads.
  {
    const int bs = 100;
    std::vector<int> in(bs), out(bs);
    for (int i = 0; i < bs; i++)
      in[i] = i * 3 + 1;
    int *din, *dout;
    CHECK_HIP(hipMalloc(&din, bs * sizeof(int)));
    CHECK_HIP(hipMalloc(&dout, bs * sizeof(int)));
    CHECK_HIP(hipMemcpy(din, in.data(), bs * sizeof(int), hipMemcpyHostToDevice));
    live_across<<<1, bs>>>(din, dout, -1);
    CHECK_HIP(hipMemcpy(out.data(), dout, bs * sizeof(int), hipMemcpyDeviceToHost));
    for (int t = 0; t < bs; t++) {
      int want = 0;
      for (int k = 0; k < 4; k++)
        want += in[t] * (k + 1) + in[(t + k) % bs] * 4;
      want += t;
      CHECK_EQ(out[t], want);
    }
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dout));
  }
  // three_d: 2 blocks of 4x3x5.
  {
    const int nb = 2, n = 4 * 3 * 5;
    std::vector<int> out(nb * n);
    int *d;
    CHECK_HIP(hipMalloc(&d, out.size() * sizeof(int)));
    three_d<<<nb, dim3(4, 3, 5)>>>(d);
    CHECK_HIP(hipMemcpy(out.data(), d, out.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++)
      for (int lin = 0; lin < n; lin++) {
        int nx = (lin + 1) % n;
        int x = nx % 4, y = (nx / 4) % 3, z = nx / 12;
        CHECK_EQ(out[b * n + lin], x * 100 + y * 10 + z + 1000 * lin);
      }
    CHECK_HIP(hipFree(d));
  }
  // shuffle_sum: blocks of 256 and of 96 threads.
  for (int bs : {256, 96}) {
    const int nb = 4;
    std::vector<int> in(nb * bs), out(nb);
    for (int i = 0; i < nb * bs; i++)
      in[i] = (i * 13) % 29;
    int *din, *dout;
    CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
    CHECK_HIP(hipMalloc(&dout, out.size() * sizeof(int)));
    CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
    shuffle_sum<<<nb, bs>>>(din, dout);
    CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) {
      int want = 0;
      for (int i = 0; i < bs; i++)
        want += in[b * bs + i];
      CHECK_EQ(out[b], want);
    }
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dout));
  }
  // votes: one block of 128 threads.
  {
    const int bs = 128, nw = bs / ws;
    std::vector<int> in(bs), counts(bs);
    std::vector<unsigned long long> ballots(nw);
    for (int i = 0; i < bs; i++)
      in[i] = (i * 7) % 5 + (i == 77 ? 2000 : 0);
    int *din, *dc;
    unsigned long long *db;
    CHECK_HIP(hipMalloc(&din, bs * sizeof(int)));
    CHECK_HIP(hipMalloc(&dc, bs * sizeof(int)));
    CHECK_HIP(hipMalloc(&db, nw * sizeof(unsigned long long)));
    CHECK_HIP(hipMemcpy(din, in.data(), bs * sizeof(int), hipMemcpyHostToDevice));
    votes<<<1, bs>>>(din, db, dc);
    CHECK_HIP(hipMemcpy(counts.data(), dc, bs * sizeof(int), hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(ballots.data(), db, nw * sizeof(unsigned long long),
                        hipMemcpyDeviceToHost));
    int odd = 0;
    for (int i = 0; i < bs; i++)
      odd += in[i] & 1;
    for (int w = 0; w < nw; w++) {
      unsigned long long want = 0;
      int any = 0;
      for (int l = 0; l < ws; l++) {
        want |= (unsigned long long)(in[w * ws + l] & 1) << l;
        any |= in[w * ws + l] > 1000;
      }
      CHECK_EQ(ballots[w], want);
      for (int l = 0; l < ws; l++)
        CHECK_EQ(counts[w * ws + l], odd * 2 + any);
    }
    CHECK_HIP(hipFree(din));
    CHECK_HIP(hipFree(dc));
    CHECK_HIP(hipFree(db));
  }

  // guarded, guarded_return: 1000 elements in blocks of 128 (the last one
  // partial), and a grid whose blocks all pass the guard.
  for (unsigned n : {1000u, 1024u}) {
    std::vector<float> x(1024), y(1024), want(1024);
    std::vector<int> out(1024, -1);
    for (unsigned i = 0; i < 1024; i++) {
      x[i] = (float)i * 0.5f;
      y[i] = 1.0f + (float)(i % 7);
      want[i] = i < n ? 2.0f * x[i] + y[i] : y[i];
    }
    float *dx, *dy;
    int *dout;
    CHECK_HIP(hipMalloc(&dx, 1024 * sizeof(float)));
    CHECK_HIP(hipMalloc(&dy, 1024 * sizeof(float)));
    CHECK_HIP(hipMalloc(&dout, 1024 * sizeof(int)));
    CHECK_HIP(hipMemcpy(dx, x.data(), 1024 * sizeof(float), hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(dy, y.data(), 1024 * sizeof(float), hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(dout, out.data(), 1024 * sizeof(int), hipMemcpyHostToDevice));
    guarded<<<(n + 127) / 128, 128>>>(dx, dy, n);
    guarded_return<<<(n + 127) / 128, 128>>>(dout, (int)n);
    CHECK_HIP(hipMemcpy(y.data(), dy, 1024 * sizeof(float), hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(out.data(), dout, 1024 * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned i = 0; i < 1024; i++) {
      CHECK_EQ(y[i], want[i]);
      CHECK_EQ(out[i], i < n ? (int)i * 3 + 1 : -1);
    }
    CHECK_HIP(hipFree(dx));
    CHECK_HIP(hipFree(dy));
    CHECK_HIP(hipFree(dout));
  }

  // Which engine ran them.
  unsigned long long compiled = __ah_cpu_blocks_compiled() - compiled0;
  const char *sw = std::getenv("ANYHIP_CPU_COMPILED");
  bool off = sw != nullptr && std::strcmp(sw, "0") == 0;
#if defined(__ANYHIP_KERNEL_COMPILER__)
  if (off)
    CHECK_EQ(compiled, 0ull);
  else
    CHECK(compiled > 0);
  std::printf("blocks run as block functions: %llu\n", compiled);
#else
  std::printf("built without the kernel compiler: fiber engine only\n");
  CHECK_EQ(compiled, 0ull);
#endif
  return fails == 0 ? AH_PASS : AH_FAIL;
}

int main(int argc, char **argv) {
  (void)argc;
  if (!ah_on_cpu_device()) {
    std::printf("skipped: the block loops are the CPU device's\n");
    return 77;
  }
  return ah_run_both_warp_sizes(argv, body);
}
