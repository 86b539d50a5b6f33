// SPDX-License-Identifier: MIT
// Atomics under contention: 48 blocks of 256 threads on 4 workers (more than
// the cores of a small machine, so that workers are preempted in the middle
// of an operation) hammer one address per operation, 64 times per thread. atomicAdd,
// Sub, Min, Max, Exch, CAS, And, Or, Xor, Inc and Dec on the types HIP has
// (int, unsigned int, unsigned long long, long long, float, double), the
// _system and _block forms, and shared-memory atomics (long long has only
// min and max, as in HIP). Besides each final
// value, the old values returned by atomicAdd and atomicExch must each be
// seen exactly once, which only a true read-modify-write gives.
#include "engine_test.h"

#include <algorithm>
#include <vector>

constexpr int kBlocks = 48, kThreads = 256, kIters = 64;
constexpr int kN = kBlocks * kThreads;

template <typename T> struct Cells { T add, sub, mn, mx, sys, blk; };

template <typename T> __global__ void arith(Cells<T> *c, T *olds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < kIters; k++) {
    atomicMin(&c->mn, (T)((i * 7 + k) % 1000 + 5));
    atomicMax(&c->mx, (T)((i * 7 + k) % 1000 + 5));
    if constexpr (!std::is_same<T, long long>::value) {
      olds[i * kIters + k] = atomicAdd(&c->add, (T)1);
      atomicSub(&c->sub, (T)2);
      atomicAdd_system(&c->sys, (T)1);
      atomicAdd_block(&c->blk, (T)1);
    }
  }
}

template <typename T> static int check_arith() {
  Cells<T> init = {0, (T)(2 * kN * kIters), (T)100000, (T)0, 0, 0}, out;
  std::vector<T> olds(kN * kIters);
  Cells<T> *d = nullptr;
  T *dolds = nullptr;

  CHECK_HIP(hipMalloc(&d, sizeof(init)));
  CHECK_HIP(hipMalloc(&dolds, olds.size() * sizeof(T)));
  CHECK_HIP(hipMemcpy(d, &init, sizeof(init), hipMemcpyHostToDevice));
  arith<T><<<kBlocks, kThreads>>>(d, dolds);
  CHECK_HIP(hipMemcpy(&out, d, sizeof(out), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(olds.data(), dolds, olds.size() * sizeof(T), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(dolds));
  CHECK(out.mn == (T)5);
  CHECK(out.mx == (T)1004);
  if (std::is_same<T, long long>::value)
    return AH_PASS;
  CHECK(out.add == (T)(kN * kIters));
  CHECK(out.sub == (T)0);
  CHECK(out.sys == (T)(kN * kIters));
  CHECK(out.blk == (T)(kN * kIters));
  std::sort(olds.begin(), olds.end());
  for (size_t k = 0; k < olds.size(); k++)
    CHECK(olds[k] == (T)k); // every old value seen once
  return AH_PASS;
}

struct Bits {
  unsigned int band, bor, bxor, inc, dec, cas;
  unsigned long long band64, bor64, bxor64, cas64;
  int exch;
  float fexch;
};

__global__ void bits(Bits *c, int *exch_olds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < kIters; k++) {
    int j = i * kIters + k;
    atomicAnd(&c->band, ~(1u << (j % 32)) | (j % 32 == 31 ? 0u : 1u << 31));
    atomicOr(&c->bor, 1u << (j % 32));
    atomicXor(&c->bxor, 1u << (j % 32));
    atomicAnd(&c->band64, ~(1ull << (j % 64)));
    atomicOr(&c->bor64, 1ull << (j % 64));
    atomicXor_system(&c->bxor64, 1ull << (j % 64));
    atomicInc(&c->inc, 999u);
    atomicDec(&c->dec, 999u);
    // An add made of compare-and-swap. The first guess is read atomically
    // (a plain read of a location other threads update is a data race).
    unsigned int old = atomicAdd(&c->cas, 0u), seen;
    while ((seen = atomicCAS(&c->cas, old, old + 3)) != old)
      old = seen;
    unsigned long long o64 = atomicAdd(&c->cas64, 0ull), s64;
    while ((s64 = atomicCAS(&c->cas64, o64, o64 + 5)) != o64)
      o64 = s64;
    exch_olds[j] = atomicExch(&c->exch, j + 1);
    atomicExch(&c->fexch, 1.5f);
  }
}

// Per-block histogram in shared memory, added to the global one.
__global__ void histogram(const int *in, unsigned long long *hist) {
  __shared__ unsigned int local[16];
  if (threadIdx.x < 16)
    local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < kIters; k++)
    atomicAdd(&local[in[i * kIters + k]], 1u);
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&hist[threadIdx.x], (unsigned long long)local[threadIdx.x]);
}

int main() {
  setenv("ANYHIP_CPU_THREADS", "4", 0); // read at the first HIP call
  if (check_arith<int>() || check_arith<unsigned int>() || check_arith<long long>() ||
      check_arith<unsigned long long>() || check_arith<float>() || check_arith<double>())
    return AH_FAIL;

  Bits init = {~0u, 0, 0, 0, 0, 0, ~0ull, 0, 0, 0, 0, 0.0f}, out;
  Bits *d = nullptr;
  std::vector<int> olds(kN * kIters);
  int *dolds = nullptr;
  CHECK_HIP(hipMalloc(&d, sizeof(init)));
  CHECK_HIP(hipMalloc(&dolds, olds.size() * sizeof(int)));
  CHECK_HIP(hipMemcpy(d, &init, sizeof(init), hipMemcpyHostToDevice));
  bits<<<kBlocks, kThreads>>>(d, dolds);
  CHECK_HIP(hipMemcpy(&out, d, sizeof(out), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(olds.data(), dolds, olds.size() * sizeof(int), hipMemcpyDeviceToHost));
  const long long total = (long long)kN * kIters; // a multiple of 64
  CHECK_EQ(out.band, 0u);
  CHECK_EQ(out.bor, ~0u);
  CHECK_EQ(out.bxor, 0u); // every bit flipped total/32 times, an even number
  CHECK_EQ(out.band64, 0ull);
  CHECK_EQ(out.bor64, ~0ull);
  CHECK_EQ(out.bxor64, 0ull);
  CHECK_EQ(out.inc, total % 1000);                 // wraps to 0 after 999
  CHECK_EQ(out.dec, (1000 - total % 1000) % 1000); // 0 wraps to 999
  CHECK_EQ(out.cas, (unsigned int)(3 * total));
  CHECK_EQ(out.cas64, 5ull * total);
  CHECK(out.fexch == 1.5f);
  // The exchanges form one chain: every value but the last was taken once.
  olds.push_back(out.exch);
  std::sort(olds.begin(), olds.end());
  for (long long k = 0; k <= total; k++)
    CHECK_EQ(olds[k], k);

  std::vector<int> in(kN * kIters);
  unsigned long long hist[16] = {0}, want[16] = {0};
  int *din = nullptr;
  unsigned long long *dh = nullptr;
  for (size_t k = 0; k < in.size(); k++) {
    in[k] = (int)(((k * 2654435761u) >> 7) % 16);
    want[in[k]]++;
  }
  CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&dh, sizeof(hist)));
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemset(dh, 0, sizeof(hist)));
  histogram<<<kBlocks, kThreads>>>(din, dh);
  CHECK_HIP(hipMemcpy(hist, dh, sizeof(hist), hipMemcpyDeviceToHost));
  for (int k = 0; k < 16; k++)
    CHECK_EQ(hist[k], want[k]);

  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(dolds));
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dh));
  std::printf("passed\n");
  return AH_PASS;
}
