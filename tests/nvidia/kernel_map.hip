// SPDX-License-Identifier: MIT
// The HIP device functions that the NVIDIA headers map onto CUDA, checked on
// whatever device runs the test: warp functions with 64-bit masks (upper half
// zero on a 32-wide warp), shuffles with a width, votes, __lane_id, the
// atomics HIP has and CUDA lacks (float/double min, max, sub, exch, CAS;
// unsigned long; atomicInc/Dec wrap-around), timers, HIP_DYNAMIC_SHARED in a
// template used with two types. A last kernel checks NVIDIA-only mappings
// (system-scope atomics, safe/unsafe adds, match, 64-bit _sync masks):
// its body exists in the nvcc pass only, so on other devices it is skipped.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(c)                                                          \
  do {                                                                    \
    if (!(c)) {                                                           \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #c); \
      return 1;                                                           \
    }                                                                     \
  } while (0)
#define CHECK_HIP(x)                                                                        \
  do {                                                                                      \
    hipError_t e_ = (x);                                                                    \
    if (e_ != hipSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorName(e_)); \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

constexpr int kThreads = 128; // two warps of 64 or four of 32

struct WarpOut {
  unsigned long long ballot_odd, active;
  int ws, lane, any3, all_nonneg, all_not3;
  int shfl2, shfl_w8, up1, up2_w16, down3, down3_w16, xor5, xor4_w8;
  float fxor1;
  double ddown1_w32;
  long long llshfl0;
};

__global__ void warps(WarpOut *out) {
  int t = threadIdx.x;
  int lane = __lane_id();
  WarpOut o;

  o.ws = warpSize;
  o.lane = lane;
  o.ballot_odd = __ballot(lane & 1);
  o.active = __activemask();
  o.any3 = __any(lane == 3);
  o.all_nonneg = __all(lane >= 0);
  o.all_not3 = __all(lane != 3);
  o.shfl2 = __shfl(t * 10, 2);
  o.shfl_w8 = __shfl(t, 1, 8);
  o.up1 = __shfl_up(t, 1);
  o.up2_w16 = __shfl_up(t, 2, 16);
  o.down3 = __shfl_down(t, 3);
  o.down3_w16 = __shfl_down(t, 3, 16);
  o.xor5 = __shfl_xor(t, 5);
  o.xor4_w8 = __shfl_xor(t, 4, 8);
  o.fxor1 = __shfl_xor((float)t + 0.5f, 1);
  o.ddown1_w32 = __shfl_down((double)t * 2.0, 1, 32);
  o.llshfl0 = __shfl((long long)t << 33, 0);
  out[t] = o;
}

static int check_warps(int ws) {
  WarpOut *d, h[kThreads];
  unsigned long long full = ws == 64 ? ~0ull : 0xffffffffull;

  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  warps<<<1, kThreads>>>(d);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));
  for (int t = 0; t < kThreads; t++) {
    const WarpOut &o = h[t];
    int lane = t % ws, base = t - lane;

    CHECK(o.ws == ws);
    CHECK(o.lane == lane);
    CHECK(o.ballot_odd == (0xAAAAAAAAAAAAAAAAull & full));
    CHECK(o.active == full);
    CHECK(o.any3 == 1 && o.all_nonneg == 1 && o.all_not3 == 0);
    CHECK(o.shfl2 == (base + 2) * 10);
    CHECK(o.shfl_w8 == t - lane % 8 + 1);
    CHECK(o.up1 == (lane == 0 ? t : t - 1));
    CHECK(o.up2_w16 == (lane % 16 < 2 ? t : t - 2));
    CHECK(o.down3 == (lane + 3 >= ws ? t : t + 3));
    CHECK(o.down3_w16 == (lane % 16 + 3 >= 16 ? t : t + 3));
    CHECK(o.xor5 == base + (lane ^ 5));
    CHECK(o.xor4_w8 == base + (lane ^ 4));
    CHECK(o.fxor1 == (float)(base + (lane ^ 1)) + 0.5f);
    CHECK(o.ddown1_w32 == (lane % 32 + 1 >= 32 ? t : t + 1) * 2.0);
    CHECK(o.llshfl0 == (long long)base << 33);
  }
  return 0;
}

// ---- atomics under contention --------------------------------------------

constexpr int kBlocks = 4, kPerBlock = 256, kN = kBlocks * kPerBlock;
constexpr unsigned kWrap = 37;

struct Atom {
  int add;
  unsigned long long sub_u64;
  float sub_f, min_f, max_f, cas_f;
  double add_d, min_d, max_d, exch_d, cas_d;
  unsigned long add_ul, min_ul, max_ul, or_ul;
  unsigned inc, dec, and_u, xor_u;
  unsigned long long or_u64;
};

// A float add done with atomicCAS on float, the way HIP code writes it.
__device__ void cas_add(float *p, float v) {
  float old = atomicAdd(p, 0.0f), assumed; // an atomic first read (a plain one races)

  do {
    assumed = old;
    old = atomicCAS(p, assumed, assumed + v);
  } while (old != assumed);
}

__device__ void cas_add(double *p, double v) {
  double old = atomicAdd(p, 0.0), assumed;

  do {
    assumed = old;
    old = atomicCAS(p, assumed, assumed + v);
  } while (old != assumed);
}

__global__ void atomics(Atom *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  atomicAdd(&a->add, 2);
  atomicSub(&a->sub_u64, 3ull);
  atomicSub(&a->sub_f, 1.0f);
  atomicMin(&a->min_f, (float)(i - 100));
  atomicMax(&a->max_f, (float)i * 0.5f);
  cas_add(&a->cas_f, 1.0f);
  atomicAdd(&a->add_d, 0.25);
  atomicMin(&a->min_d, (double)(1000 - i));
  atomicMax(&a->max_d, (double)i);
  atomicExch(&a->exch_d, (double)i);
  cas_add(&a->cas_d, 2.0);
  atomicAdd(&a->add_ul, (unsigned long)i);
  atomicMin(&a->min_ul, (unsigned long)(i + 5));
  atomicMax(&a->max_ul, (unsigned long)i << 20);
  atomicOr(&a->or_ul, 1ul << (i % 64));
  atomicInc(&a->inc, kWrap);
  atomicDec(&a->dec, kWrap);
  atomicAnd(&a->and_u, ~(1u << (i % 32)) | 1u);
  atomicXor(&a->xor_u, 1u << (i % 7));
  atomicOr(&a->or_u64, 1ull << (i % 61));
}

static int check_atomics(void) {
  Atom h, *d;

  std::memset(&h, 0, sizeof(h));
  h.min_f = 1e9f;
  h.max_f = -1e9f;
  h.min_d = 1e18;
  h.max_d = -1e18;
  h.exch_d = -1.0;
  h.min_ul = ~0ul;
  h.sub_u64 = 1ull << 40;
  h.sub_f = 5000.0f;
  h.dec = 3;
  h.and_u = ~0u;
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice));
  atomics<<<kBlocks, kPerBlock>>>(d);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(&h, d, sizeof(h), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));

  // References, computed the slow way.
  unsigned long sum_i = 0, or_ul = 0;
  unsigned xor_u = 0;
  unsigned long long or_u64 = 0;
  for (int i = 0; i < kN; i++) {
    sum_i += (unsigned long)i;
    or_ul |= 1ul << (i % 64);
    xor_u ^= 1u << (i % 7);
    or_u64 |= 1ull << (i % 61);
  }
  CHECK(h.add == 2 * kN);
  CHECK(h.sub_u64 == (1ull << 40) - 3ull * kN);
  CHECK(h.sub_f == 5000.0f - kN);
  CHECK(h.min_f == -100.0f);
  CHECK(h.max_f == (float)(kN - 1) * 0.5f);
  CHECK(h.cas_f == (float)kN);
  CHECK(h.add_d == 0.25 * kN);
  CHECK(h.min_d == 1000.0 - (kN - 1));
  CHECK(h.max_d == (double)(kN - 1));
  CHECK(h.exch_d >= 0.0 && h.exch_d < kN && h.exch_d == (double)(int)h.exch_d);
  CHECK(h.cas_d == 2.0 * kN);
  CHECK(h.add_ul == sum_i);
  CHECK(h.min_ul == 5ul);
  CHECK(h.max_ul == (unsigned long)(kN - 1) << 20);
  CHECK(h.or_ul == or_ul);
  CHECK(h.inc == kN % (kWrap + 1));                             // from 0, +1 mod (kWrap+1)
  CHECK(h.dec == (3 + (kWrap + 1) * kN - kN) % (kWrap + 1));   // from 3, -1 mod (kWrap+1)
  CHECK(h.and_u == 1u);
  CHECK(h.xor_u == xor_u);
  CHECK(h.or_u64 == or_u64);
  return 0;
}

// ---- timers, shared memory, block votes ------------------------------------

template <typename T> __global__ void reverse(T *p) {
  HIP_DYNAMIC_SHARED(T, buf)
  int t = threadIdx.x, n = blockDim.x;

  buf[t] = p[t];
  __syncthreads();
  p[t] = buf[n - 1 - t];
}

__global__ void timers_and_votes(long long *times, int *counts) {
  long long c0 = clock64(), w0 = wall_clock64();
  volatile float x = 1.0f;

  for (int k = 0; k < 1000; k++)
    x = x * 1.0001f;
  long long c1 = clock64(), w1 = wall_clock64();
  if (threadIdx.x == 0) {
    times[0] = c0;
    times[1] = c1;
    times[2] = w0;
    times[3] = w1;
  }
  int n = __syncthreads_count(threadIdx.x % 3 == 0);
  int all = __syncthreads_and(threadIdx.x < 1000);
  int any = __syncthreads_or(threadIdx.x == 7);
  if (threadIdx.x == 0) {
    counts[0] = n;
    counts[1] = all;
    counts[2] = any;
  }
}

static int check_misc(void) {
  float hf[kThreads], *df;
  int hi[kThreads], *di;
  long long ht[4], *dt;
  int hc[3], *dc;

  for (int i = 0; i < kThreads; i++) {
    hf[i] = (float)i * 1.5f;
    hi[i] = 3 * i;
  }
  CHECK_HIP(hipMalloc(&df, sizeof(hf)));
  CHECK_HIP(hipMalloc(&di, sizeof(hi)));
  CHECK_HIP(hipMemcpy(df, hf, sizeof(hf), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(di, hi, sizeof(hi), hipMemcpyHostToDevice));
  reverse<float><<<1, kThreads, kThreads * sizeof(float)>>>(df);
  reverse<int><<<1, kThreads, kThreads * sizeof(int)>>>(di);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(hf, df, sizeof(hf), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(hi, di, sizeof(hi), hipMemcpyDeviceToHost));
  for (int i = 0; i < kThreads; i++) {
    CHECK(hf[i] == (float)(kThreads - 1 - i) * 1.5f);
    CHECK(hi[i] == 3 * (kThreads - 1 - i));
  }
  CHECK_HIP(hipFree(df));
  CHECK_HIP(hipFree(di));

  CHECK_HIP(hipMalloc(&dt, sizeof(ht)));
  CHECK_HIP(hipMalloc(&dc, sizeof(hc)));
  timers_and_votes<<<1, 96>>>(dt, dc);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(ht, dt, sizeof(ht), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(hc, dc, sizeof(hc), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(dt));
  CHECK_HIP(hipFree(dc));
  CHECK(ht[1] >= ht[0]);
  CHECK(ht[2] > 0 && ht[3] >= ht[2]);
  CHECK(hc[0] == 32 && hc[1] == 1 && hc[2] == 1);
  return 0;
}

// ---- NVIDIA only ----------------------------------------------------------

struct NvOut {
  unsigned long long sync_ballot, match_any, match_all;
  int match_pred;
  float sys_f, safe_f, unsafe_f;
  double sys_d;
  unsigned sys_u;
};

// The body is compiled by nvcc only; the CPU pass sees an empty kernel.
__global__ void nvidia_only(NvOut *o) {
#if defined(__CUDACC__)
  int lane = __lane_id();
  unsigned long long s = __ballot_sync(0xffffffffffffffffull, lane >= 30);
  int pred = 0;
  unsigned long long ma = __match_any(lane / 4);
  unsigned long long mall = __match_all(42, &pred);

  atomicAdd_system(&o->sys_f, 1.0f);
  atomicMax_system(&o->sys_d, (double)threadIdx.x);
  atomicAdd_system(&o->sys_u, 1u);
  safeAtomicAdd(&o->safe_f, 2.0f);
  unsafeAtomicAdd(&o->unsafe_f, 3.0f);
  if (threadIdx.x == 9) {
    o->sync_ballot = s;
    o->match_any = ma;
    o->match_all = mall;
    o->match_pred = pred;
  }
#else
  (void)o;
#endif
}

static int check_nvidia_only(void) {
  NvOut h, *d;
  int dev, rate = 0;

  std::memset(&h, 0, sizeof(h));
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice));
  nvidia_only<<<1, 64>>>(d);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(&h, d, sizeof(h), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));
  CHECK(h.sync_ballot == 0xc0000000ull);
  CHECK(h.match_any == 0xf00ull);         // lanes 8..11 share lane/4 == 2
  CHECK(h.match_all == 0xffffffffull && h.match_pred == 1);
  CHECK(h.sys_f == 64.0f && h.sys_d == 63.0 && h.sys_u == 64u);
  CHECK(h.safe_f == 128.0f && h.unsafe_f == 192.0f);
  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipDeviceGetAttribute(&rate, hipDeviceAttributeWallClockRate, dev));
  CHECK(rate == 1000000); // wall_clock64 is %globaltimer, in ns
  return 0;
}

int main() {
  hipDeviceProp_t p;
  int dev;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&p, dev));
  std::printf("device %d: %s (%s), warp %d\n", dev, p.name, p.gcnArchName, p.warpSize);
  if (check_warps(p.warpSize) || check_atomics() || check_misc())
    return 1;
  if (std::strncmp(p.gcnArchName, "sm_", 3) == 0) {
    if (check_nvidia_only())
      return 1;
  } else {
    std::printf("NVIDIA-only checks: not applicable here (not an NVIDIA device)\n");
  }
  std::printf("ok\n");
  return 0;
}
