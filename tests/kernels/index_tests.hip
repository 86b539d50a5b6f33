// SPDX-License-Identifier: MIT
// A global index's tests split the thread loop around them
// (kernel-compiler/index_tests.cpp): `int x = blockIdx.x * blockDim.x +
// threadIdx.x` compared signed or unsigned (wrapping 32-bit arithmetic) with
// kernel arguments, as a guard, a stencil's borders, `<=` and `>`, and
// `threadIdx.x == k`. Each kernel is checked against a host loop doing the
// same arithmetic, in both modes (cpu/ and cpu-fibers/) and in the plain
// copy (cpu-sse2/), for block sizes that are and are not multiples of the
// warp, 2D blocks, bounds before, inside and after each block, and offsets
// that make `c + threadIdx.x` wrap inside a block (the piece that keeps the
// tests must then run every thread).
#include "engine_test.h"

#include <climits>
#include <vector>

// A guard and a copy past it: out[x] for x < n only.
__global__ void guarded(int *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n)
    return;
  out[x] = 3 * x + 1;
}

// A 1D stencil's borders: x == 0 and x == n - 1 copy, the others average.
__global__ void borders(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n)
    return;
  if (x == 0 || x == n - 1)
    out[x] = in[x];
  else
    out[x] = 0.25f * in[x - 1] + 0.5f * in[x] + 0.25f * in[x + 1];
}

// `<=`, `>` and `!=` against kernel arguments, in a 2D block. Each test
// guards a store of its own (arrays the host filled with -1), so that it
// stays a branch rather than a select.
__global__ void ranges(int *le, int *gt, int *ne, int lo, int hi, int skip) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int i = y * (gridDim.x * blockDim.x) + x;
  if (x <= hi)
    le[i] = x;
  if (x > lo)
    gt[i] = x;
  if (x != skip)
    ne[i] = x;
}

// An offset that may wrap: c + threadIdx.x in unsigned and in int.
__global__ void wrapping(int *below, int *sbelow, int *seq, unsigned base, unsigned lim,
                         int slim) {
  unsigned u = base + threadIdx.x;
  int s = (int)(base + threadIdx.x);
  if (u < lim)
    below[threadIdx.x] = 1;
  if (s < slim)
    sbelow[threadIdx.x] = 2;
  if (s == slim)
    seq[threadIdx.x] = 4;
}

// A lower bound against a constant (the middle lies above it) and an upper
// one against an argument: the interior of a row.
__global__ void interior(int *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x > 0 && x < n - 1)
    out[x] = x;
}

// Only tests whose middle is above a cut or off an equality, with offsets
// that wrap inside the block: the middle must then be empty.
__global__ void wrap_above(int *pos, int *eq, unsigned base, int k) {
  int s = (int)(base + threadIdx.x);
  if (s > 0)
    pos[threadIdx.x] = 1;
  if (s == k)
    eq[threadIdx.x] = 1;
}

// threadIdx.x itself against an argument.
__global__ void one_thread(int *out, unsigned k) {
  if (threadIdx.x == k)
    out[threadIdx.x] = 7;
}

static int body(int ws) {
  (void)ws;
  int fails = 0;
  const int cap = 4096;
  int *dint;
  float *din, *dout;
  CHECK_HIP(hipMalloc(&dint, cap * sizeof(int)));
  CHECK_HIP(hipMalloc(&din, cap * sizeof(float)));
  CHECK_HIP(hipMalloc(&dout, cap * sizeof(float)));
  std::vector<int> got(cap), fill(cap, -1);

  // Guard: n inside the first, a middle and the last block, and past all.
  for (unsigned bs : {64u, 100u, 256u})
    for (int n : {0, 1, 37, 100, 255, 256, 700, 1000}) {
      unsigned blocks = 3;
      CHECK_HIP(hipMemcpy(dint, fill.data(), cap * sizeof(int), hipMemcpyHostToDevice));
      guarded<<<blocks, bs>>>(dint, n);
      CHECK_HIP(hipMemcpy(got.data(), dint, cap * sizeof(int), hipMemcpyDeviceToHost));
      for (int x = 0; x < (int)(blocks * bs); x++)
        CHECK_EQ(got[x], x < n ? 3 * x + 1 : -1);
    }

  // Borders: the first and last point in any block, n not a multiple.
  std::vector<float> in(cap), fgot(cap);
  for (int i = 0; i < cap; i++)
    in[i] = (float)((i * 37) % 101) - 50.0f;
  CHECK_HIP(hipMemcpy(din, in.data(), cap * sizeof(float), hipMemcpyHostToDevice));
  for (unsigned bs : {32u, 100u, 256u})
    for (int n : {1, 2, 33, 100, 101, 1000}) {
      borders<<<(n + bs - 1) / bs, bs>>>(din, dout, n);
      CHECK_HIP(hipMemcpy(fgot.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
      for (int x = 0; x < n; x++) {
        float want = x == 0 || x == n - 1 ? in[x]
                                          : 0.25f * in[x - 1] + 0.5f * in[x] + 0.25f * in[x + 1];
        CHECK_EQ(fgot[x], want);
      }
    }

  // <=, >, != in 2D blocks: bounds before, at the edges of and past blocks.
  int *d3[3];
  const int part = cap / 4;
  for (int a = 0; a < 3; a++)
    d3[a] = dint + a * part;
  std::vector<int> g3(3 * part);
  auto refill = [&](size_t n) {
    return hipMemcpy(dint, fill.data(), n * sizeof(int), hipMemcpyHostToDevice);
  };
  for (dim3 bs : {dim3(16, 4), dim3(50, 2)})
    for (int lo : {-5, 0, 15, 16, 49})
      for (int hi : {-1, 16, 31, 63, 500})
        for (int skip : {-1, 0, 17, 99}) {
          dim3 grid(2, 2);
          int w = (int)(grid.x * bs.x), h = (int)(grid.y * bs.y);
          CHECK_HIP(refill(3 * part));
          ranges<<<grid, bs>>>(d3[0], d3[1], d3[2], lo, hi, skip);
          CHECK_HIP(hipMemcpy(g3.data(), dint, 3 * part * sizeof(int), hipMemcpyDeviceToHost));
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
              int i = y * w + x;
              CHECK_EQ(g3[i], x <= hi ? x : -1);
              CHECK_EQ(g3[part + i], x > lo ? x : -1);
              CHECK_EQ(g3[2 * part + i], x != skip ? x : -1);
            }
        }

  // Wrapping offsets: unsigned past UINT_MAX, int past INT_MAX, inside a
  // block; and ones that do not wrap, for the same kernel.
  const unsigned umax = UINT_MAX, imax = INT_MAX;
  for (unsigned bs : {64u, 200u})
    for (unsigned base : {0u, 1000u, umax - 10u, imax - 10u, imax + 5u})
      for (unsigned lim : {0u, 5u, 1100u, umax - 3u, umax})
        for (int slim : {INT_MIN + 3, -1, 0, 7, 1050, INT_MAX - 5, INT_MAX}) {
          CHECK_HIP(refill(3 * part));
          wrapping<<<1, bs>>>(d3[0], d3[1], d3[2], base, lim, slim);
          CHECK_HIP(hipMemcpy(g3.data(), dint, 3 * part * sizeof(int), hipMemcpyDeviceToHost));
          for (unsigned t = 0; t < bs; t++) {
            unsigned u = base + t;
            int s = (int)(base + t);
            CHECK_EQ(g3[t], u < lim ? 1 : -1);
            CHECK_EQ(g3[part + t], s < slim ? 2 : -1);
            CHECK_EQ(g3[2 * part + t], s == slim ? 4 : -1);
          }
        }

  for (unsigned bs : {32u, 100u, 256u})
    for (int n : {1, 2, 3, 33, 100, 101, 1000}) {
      unsigned blocks = 4;
      CHECK_HIP(refill(blocks * bs));
      interior<<<blocks, bs>>>(dint, n);
      CHECK_HIP(hipMemcpy(got.data(), dint, blocks * bs * sizeof(int), hipMemcpyDeviceToHost));
      for (int x = 0; x < (int)(blocks * bs); x++)
        CHECK_EQ(got[x], x > 0 && x < n - 1 ? x : -1);
    }

  for (unsigned bs : {64u, 200u})
    for (unsigned base : {0u, 1000u, imax - 10u, imax - 100u, umax - 20u})
      for (int k : {INT_MIN, INT_MIN + 3, -5, 0, 1010, INT_MAX - 2}) {
        CHECK_HIP(refill(2 * part));
        wrap_above<<<1, bs>>>(d3[0], d3[1], base, k);
        CHECK_HIP(hipMemcpy(g3.data(), dint, 2 * part * sizeof(int), hipMemcpyDeviceToHost));
        for (unsigned t = 0; t < bs; t++) {
          int s = (int)(base + t);
          CHECK_EQ(g3[t], s > 0 ? 1 : -1);
          CHECK_EQ(g3[part + t], s == k ? 1 : -1);
        }
      }

  for (unsigned bs : {64u, 100u})
    for (unsigned k : {0u, 1u, 63u, 99u, 100u, 5000u}) {
      CHECK_HIP(refill(bs));
      one_thread<<<1, bs>>>(dint, k);
      CHECK_HIP(hipMemcpy(got.data(), dint, bs * sizeof(int), hipMemcpyDeviceToHost));
      for (unsigned t = 0; t < bs; t++)
        CHECK_EQ(got[t], t == k ? 7 : -1);
    }

  CHECK_HIP(hipFree(dint));
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
  return fails == 0 ? AH_PASS : AH_FAIL;
}

int main(int argc, char **argv) {
  (void)argc;
  return ah_run_both_warp_sizes(argv, body);
}
