// SPDX-License-Identifier: MIT
// __match_any, __match_all (and _sync forms) and the __reduce_*_sync
// reductions for 32- and 64-bit integers, float and double, at warp size 64
// and 32 (the program runs itself again with ANYHIP_CPU_WARP_SIZE), over
// whole warps and a partial last warp. Checked against the host. On an
// NVIDIA GPU (CUDA reduces int and unsigned int only) those two types.
#include "engine_test.h"

#include <cstring>
#include <vector>

template <typename T> struct Out {
  unsigned long long any, all_same, all_diff, any_sync;
  int pred_same, pred_diff;
  T add, mn, mx;
  long long band, bor, bxor;
};

template <typename T> __host__ __device__ T val(int lane) {
  return (T)((lane * 37) % 11) - (T)3 + (T)(sizeof(T) == 8 ? 1e12 : 0) * (T)(lane % 2);
}

// The reductions of AMD's HIP_ENABLE_EXTRA_WARP_SYNC_TYPES, which CUDA lacks.
#if defined(__HIP_PLATFORM_NVIDIA__)
#define AH_ALL_TYPES 0
#else
#define AH_ALL_TYPES 1
#endif

template <typename T> __global__ void matches(Out<T> *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = (int)__lane_id();
  Out<T> &o = out[i];
  T v = val<T>(lane);
  o.any = __match_any((T)(lane / 3));
  o.all_same = __match_all((T)7, &o.pred_same);
  o.all_diff = __match_all_sync(~0ull, v, &o.pred_diff);
  o.any_sync = __match_any_sync(~0ull, (T)(lane % 4));
#if !AH_ALL_TYPES
  if constexpr (sizeof(T) == 4 && std::is_integral<T>::value)
#endif
  {
    o.add = __reduce_add_sync(~0ull, v);
    o.mn = __reduce_min_sync(~0ull, v);
    o.mx = __reduce_max_sync(~0ull, v);
  }
  if constexpr (std::is_integral<T>::value && (AH_ALL_TYPES || sizeof(T) == 4)) {
    o.band = (long long)__reduce_and_sync(~0ull, (T)(v | (T)0x30));
    o.bor = (long long)__reduce_or_sync(~0ull, (T)(1 << (lane % 20)));
    o.bxor = (long long)__reduce_xor_sync(~0ull, (T)(lane * 5));
  }
}

template <typename T> static int run(int ws, int n) {
  std::vector<Out<T>> h(n);
  Out<T> *d = nullptr;

  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(h[0])));
  matches<T><<<1, n>>>(d);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(h[0]), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));
  for (int t = 0; t < n; t++) {
    int lane = t % ws, lanes = n - (t - lane) < ws ? n - (t - lane) : ws;
    unsigned long long all = lanes == 64 ? ~0ull : (1ull << lanes) - 1, any = 0, any4 = 0;
    T add = 0, mn = val<T>(0), mx = val<T>(0);
    long long band = -1, bor = 0, bxor = 0;
    int same = 1;
    for (int l = 0; l < lanes; l++) {
      T v = val<T>(l);
      if (l / 3 == lane / 3)
        any |= 1ull << l;
      if (l % 4 == lane % 4)
        any4 |= 1ull << l;
      add += v;
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
      same &= v == val<T>(0);
      if constexpr (std::is_integral<T>::value) {
        band &= (long long)(T)(v | (T)0x30);
        bor |= (long long)(T)(1 << (l % 20));
        bxor ^= (long long)(T)(l * 5);
      }
    }
    const Out<T> &o = h[t];
    CHECK_EQ(o.any, any);
    CHECK_EQ(o.all_same, all);
    CHECK_EQ(o.pred_same, 1);
    CHECK_EQ(o.all_diff, same ? all : 0);
    CHECK_EQ(o.pred_diff, same);
    CHECK_EQ(o.any_sync, any4);
    CHECK(o.add == add); // the host sums in lane order, as the reduction does
    CHECK(o.mn == mn);
    CHECK(o.mx == mx);
    if constexpr (std::is_integral<T>::value) {
      CHECK_EQ(o.band, band);
      CHECK_EQ(o.bor, bor);
      CHECK_EQ(o.bxor, bxor);
    }
  }
  return AH_PASS;
}

static int body(int ws) {
  bool all = ah_on_cpu_device();
  for (int n : {ws * 3, ws + 13}) {
    if (run<int>(ws, n) || run<unsigned int>(ws, n))
      return AH_FAIL;
    if (all && (run<long long>(ws, n) || run<unsigned long long>(ws, n) || run<float>(ws, n) ||
                run<double>(ws, n)))
      return AH_FAIL;
  }
  return AH_PASS;
}

int main(int argc, char **argv) { return ah_run_both_warp_sizes(argv, body); }
