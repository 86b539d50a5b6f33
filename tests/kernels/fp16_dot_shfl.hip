// SPDX-License-Identifier: MIT
// __half2 in kernels: a dot product with __hfma2 and a warp reduction by
// __shfl_xor of __half2, compared with a host loop (exactly, on values whose
// sums half holds without rounding; within rounding error on random values);
// every shuffle of __half and __half2, with and without _sync, checked lane by
// lane; atomicAdd on __half and __half2. Runs at warp size 64 and 32.
#include <hip/hip_fp16.h>

#include <cmath>
#include <vector>

#include "engine_test.h"

constexpr int kBlocks = 4, kThreads = 128;

__global__ void dot(const __half2 *a, const __half2 *b, int n, float *warp_sums) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, total = gridDim.x * blockDim.x;
  __half2 acc = __float2half2_rn(0.0f);
  for (int j = gid; j < n; j += total)
    acc = __hfma2(a[j], b[j], acc);
  for (int d = warpSize / 2; d > 0; d /= 2)
    acc = __hadd2(acc, __shfl_xor(acc, d));
  if (__lane_id() == 0)
    warp_sums[gid / warpSize] = __low2float(acc) + __high2float(acc);
}

constexpr int kOut = 10;

__global__ void shuffles(__half2 *out, __half *hout) {
  int lane = (int)__lane_id(), gid = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 v = __floats2half2_rn((float)gid, -0.5f * (float)gid);
  __half s = __float2half(0.25f * (float)gid);
  __half2 *o = out + gid * kOut;
  o[0] = __shfl(v, 3);
  o[1] = __shfl_up(v, 2);
  o[2] = __shfl_down(v, 5);
  o[3] = __shfl_xor(v, 1);
  o[4] = __shfl(v, (lane + 1) % 8, 8);
  o[5] = __shfl_sync(~0ull, v, 0);
  o[6] = __shfl_up_sync(~0ull, v, 1, 16);
  o[7] = __shfl_down_sync(~0ull, v, 1, 16);
  o[8] = __shfl_xor_sync(~0ull, v, 2);
  o[9] = __halves2half2(__shfl_down(s, 1), __shfl_xor_sync(~0ull, s, 3, 4));
  hout[gid] = __shfl(s, 0);
}

__global__ void atomics(__half *h, __half2 *h2) {
  atomicAdd(h, __float2half(0.5f));
  atomicAdd(h2, __floats2half2_rn(1.0f, 0.25f));
}

static int run_dot(int ws, const std::vector<__half2> &a, const std::vector<__half2> &b,
                   std::vector<float> &sums) {
  int n = (int)a.size();
  __half2 *da, *db;
  float *ds;
  sums.assign(kBlocks * kThreads / ws, 0.0f);
  CHECK_HIP(hipMalloc(&da, n * sizeof(__half2)));
  CHECK_HIP(hipMalloc(&db, n * sizeof(__half2)));
  CHECK_HIP(hipMalloc(&ds, sums.size() * sizeof(float)));
  CHECK_HIP(hipMemcpy(da, a.data(), n * sizeof(__half2), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(db, b.data(), n * sizeof(__half2), hipMemcpyHostToDevice));
  dot<<<kBlocks, kThreads>>>(da, db, n, ds);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(sums.data(), ds, sums.size() * sizeof(float), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(da));
  CHECK_HIP(hipFree(db));
  CHECK_HIP(hipFree(ds));
  return AH_PASS;
}

static int body(int ws) {
  const int n = 2048;
  unsigned long long s = 88172645463325252ull;
  auto rnd = [&s]() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  // Exact: products are 0 or +-1/8 and |every partial sum| <= 256, which
  // half holds exactly in steps of 1/8.
  std::vector<__half2> a(n), b(n);
  double want = 0;
  for (int i = 0; i < n; i++) {
    float x[2], y[2];
    for (int k = 0; k < 2; k++) {
      x[k] = 0.5f * (float)((int)(rnd() % 3) - 1);
      y[k] = (rnd() & 1) ? 0.25f : -0.25f;
      want += (double)x[k] * y[k];
    }
    a[i] = __floats2half2_rn(x[0], x[1]);
    b[i] = __halves2half2(__float2half(y[0]), __float2half(y[1]));
  }
  std::vector<float> sums;
  if (run_dot(ws, a, b, sums) != AH_PASS)
    return AH_FAIL;
  double got = 0;
  for (float f : sums)
    got += f;
  CHECK_EQ(got, want);

  // Random values in [-1, 1]: within the rounding error of the half sums.
  double abs_sum = 0;
  want = 0;
  for (int i = 0; i < n; i++) {
    float x[2], y[2];
    for (int k = 0; k < 2; k++) {
      x[k] = (float)((int)(rnd() % 2001) - 1000) / 1000.0f;
      y[k] = (float)((int)(rnd() % 2001) - 1000) / 1000.0f;
    }
    a[i] = __floats2half2_rn(x[0], x[1]);
    b[i] = __floats2half2_rn(y[0], y[1]);
    for (int k = 0; k < 2; k++) {
      double p = (double)__half2float(k ? a[i].y : a[i].x) * __half2float(k ? b[i].y : b[i].x);
      want += p;
      abs_sum += std::fabs(p);
    }
  }
  if (run_dot(ws, a, b, sums) != AH_PASS)
    return AH_FAIL;
  got = 0;
  for (float f : sums)
    got += f;
  // Each lane adds n / 512 products, then log2(ws) reduction steps: a
  // generous bound of 2^-10 relative per step on the sum of magnitudes.
  CHECK(std::fabs(got - want) <= abs_sum * 0x1p-10 * (n / (kBlocks * kThreads) + 8));
  CHECK(std::fabs(want) > 1.0); // the values do not cancel to nothing

  // Shuffles.
  int total = kBlocks * kThreads;
  std::vector<__half2> out(total * kOut);
  std::vector<__half> hout(total);
  __half2 *dout;
  __half *dh;
  CHECK_HIP(hipMalloc(&dout, out.size() * sizeof(__half2)));
  CHECK_HIP(hipMalloc(&dh, total * sizeof(__half)));
  shuffles<<<kBlocks, kThreads>>>(dout, dh);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(__half2), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(hout.data(), dh, total * sizeof(__half), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(dout));
  CHECK_HIP(hipFree(dh));
  int bad = 0;
  for (int i = 0; i < total; i++) {
    int lane = i % ws, w0 = i - lane;
    auto rel = [&](int width, int src) { return w0 + (lane & ~(width - 1)) + src; };
    int base16 = lane & ~15;
    int src[kOut] = {w0 + 3,
                     lane >= 2 ? i - 2 : i,
                     lane + 5 < ws ? i + 5 : i,
                     w0 + (lane ^ 1),
                     rel(8, (lane + 1) % 8),
                     w0,
                     lane - base16 >= 1 ? i - 1 : i,
                     lane - base16 + 1 < 16 ? i + 1 : i,
                     w0 + (lane ^ 2),
                     -1};
    for (int k = 0; k < kOut - 1; k++) {
      __half2 v = out[i * kOut + k];
      if (__low2float(v) != (float)src[k] || __high2float(v) != -0.5f * (float)src[k]) {
        if (bad++ < 10)
          std::fprintf(stderr, "thread %d shuffle %d: (%g, %g), want lane value %d\n", i, k,
                       __low2float(v), __high2float(v), src[k]);
      }
    }
    int down1 = lane + 1 < ws ? i + 1 : i, x3 = w0 + (lane & ~3) + ((lane & 3) ^ 3);
    __half2 v = out[i * kOut + 9];
    if (__low2float(v) != 0.25f * (float)down1 || __high2float(v) != 0.25f * (float)x3 ||
        __half2float(hout[i]) != 0.25f * (float)w0) {
      if (bad++ < 10)
        std::fprintf(stderr, "thread %d __half shuffles\n", i);
    }
  }
  CHECK_EQ(bad, 0);

  // Atomics: 512 threads add 0.5 to a __half and (1, 0.25) to a __half2.
  __half *dha;
  __half2 *dh2;
  __half h0 = __float2half(0.0f);
  __half2 h20 = __float2half2_rn(0.0f);
  CHECK_HIP(hipMalloc(&dha, sizeof(__half)));
  CHECK_HIP(hipMalloc(&dh2, sizeof(__half2)));
  CHECK_HIP(hipMemcpy(dha, &h0, sizeof(__half), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dh2, &h20, sizeof(__half2), hipMemcpyHostToDevice));
  atomics<<<kBlocks, kThreads>>>(dha, dh2);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(&h0, dha, sizeof(__half), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(&h20, dh2, sizeof(__half2), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(dha));
  CHECK_HIP(hipFree(dh2));
  CHECK_EQ(__half2float(h0), 256.0f);
  CHECK_EQ(__low2float(h20), 512.0f);
  CHECK_EQ(__high2float(h20), 128.0f);
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  return ah_run_both_warp_sizes(argv, body);
}
