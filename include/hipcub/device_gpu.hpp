/* SPDX-License-Identifier: MIT */
/* hipCUB's device-wide reduce, scan and radix sort in GPU shape (included by
 * hipcub/device.hpp), used when the current device is a GPU (on_gpu(): its
 * gcnArchName is not "cpu"). The host code of a HIP source is compiled once,
 * by the CPU pass, so the choice is made at run time by the host half of
 * each algorithm; the kernels below have their bodies only in the NVIDIA
 * pass (__CUDA_ARCH__) and are empty on the CPU device, which never launches
 * them (device.hpp keeps its contiguous-segment kernels for it).
 *
 * - reduce: a grid of GPU_REDUCE_BLOCKS_PER_SM blocks per multiprocessor,
 *   each thread striding over the input with 16-byte vector loads where the
 *   input is an aligned pointer to arithmetic items, warp-shuffle and then
 *   shared-memory block reductions, one partial per block; reduce_final
 *   (device.hpp) joins the partials.
 * - scan: one pass with decoupled look-back (Merrill and Garland, 2016):
 *   tile t (taken in launch order from an atomic counter) scans its items,
 *   publishes its aggregate, finds its prefix by reading the status of the
 *   tiles before it a warp (32 tiles) at a time, and publishes its inclusive
 *   prefix. Flags and values are separate words: the value is stored, then
 *   __threadfence(), then the flag; a reader reads the flag, fences, then the
 *   value (all volatile, bypassing L1).
 * - radix sort: onesweep (Adinets and Merrill, 2022): one kernel counts the
 *   digits of every pass at once; then per 8-bit pass one kernel in which a
 *   tile ranks its keys stably (per-warp match-any ranking in shared
 *   memory), publishes its per-digit counts and looks back, one thread per
 *   digit, over the earlier tiles' counts (flag and count in one word), then
 *   scatters the keys (and values) through shared memory, sorted by digit,
 *   so that the writes of a digit's run are contiguous. */
#ifndef HIPCUB_DEVICE_GPU_HPP_
#define HIPCUB_DEVICE_GPU_HPP_

namespace hipcub {
namespace detail {

/* Whether the current device is a GPU, cached per device ordinal. */
inline bool on_gpu() {
  static signed char known[64]; /* 0: not asked yet, 1: the CPU device, 2: a GPU */
  int dev = 0;
  if (hipGetDevice(&dev) != hipSuccess || dev < 0)
    return false;
  signed char k = dev < 64 ? __atomic_load_n(&known[dev], __ATOMIC_RELAXED) : 0;
  if (k == 0) {
    hipDeviceProp_t p;
    k = hipGetDeviceProperties(&p, dev) == hipSuccess && std::strncmp(p.gcnArchName, "cpu", 3) != 0
            ? 2
            : 1;
    if (dev < 64)
      __atomic_store_n(&known[dev], k, __ATOMIC_RELAXED);
  }
  return k == 2;
}

inline int sm_count() {
  int dev = 0, sms = 1;
  if (hipGetDevice(&dev) != hipSuccess ||
      hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess ||
      sms < 1)
    sms = 1;
  return sms;
}

/* Tuning (measured on an H100, docs/performance.md); the macros are for
 * trying other values. */
#ifndef HIPCUB_GPU_REDUCE_BLOCKS_PER_SM
#define HIPCUB_GPU_REDUCE_BLOCKS_PER_SM 8
#endif
#ifndef HIPCUB_GPU_SCAN_ITEMS
#define HIPCUB_GPU_SCAN_ITEMS 31 /* 4-byte items per thread; odd */
#endif
#ifndef HIPCUB_GPU_SORT_ITEMS
#define HIPCUB_GPU_SORT_ITEMS 16 /* 4-byte keys per thread */
#endif
#ifndef HIPCUB_GPU_SORT_LOOKBACK
#define HIPCUB_GPU_SORT_LOOKBACK 8 /* tiles' status read at once per digit */
#endif
#ifndef HIPCUB_GPU_SORT_MATCH_BALLOTS
#define HIPCUB_GPU_SORT_MATCH_BALLOTS 1 /* rank with ballots, not __match_any_sync */
#endif
#ifndef HIPCUB_GPU_HIST_BLOCKS_PER_SM
#define HIPCUB_GPU_HIST_BLOCKS_PER_SM 8
#endif
constexpr int GPU_BLOCK = 256;
constexpr int GPU_WARPS = GPU_BLOCK / 32;
constexpr int GPU_REDUCE_BLOCKS_PER_SM = HIPCUB_GPU_REDUCE_BLOCKS_PER_SM;

/* The items of an input that reduce loads 16 bytes at a time: a pointer to
 * arithmetic items of 1, 2, 4 or 8 bytes. */
template <typename In, typename = void> struct vec_of {
  static constexpr int width = 1;
};
template <typename T>
struct vec_of<T *, std::enable_if_t<std::is_arithmetic<T>::value && (sizeof(T) == 1 || sizeof(T) == 2 ||
                                                                      sizeof(T) == 4 || sizeof(T) == 8)>> {
  static constexpr int width = 16 / sizeof(T);
  struct alignas(16) type {
    std::remove_cv_t<T> v[16 / sizeof(T)];
  };
};

template <typename In> inline bool vec_aligned(In in) {
  if constexpr (vec_of<In>::width > 1)
    return ((uintptr_t)in % 16) == 0;
  else
    return false;
}

/* A value of any type as 32-bit words: for shuffles and for the look-back's
 * volatile (L1-bypassing) loads and stores. */
template <typename T> struct words {
  static constexpr int N = (int)((sizeof(T) + 3) / 4);
  unsigned w[N];
};

#if defined(__CUDA_ARCH__)
template <typename T, typename F> __device__ inline T shfl_words(const T &x, F f) {
  words<T> a;
  a.w[words<T>::N - 1] = 0;
  std::memcpy(a.w, &x, sizeof(T));
#pragma unroll
  for (int i = 0; i < words<T>::N; i++)
    a.w[i] = f(a.w[i]);
  T r;
  std::memcpy(&r, a.w, sizeof(T));
  return r;
}
template <typename T> __device__ inline T shfl_up_t(const T &x, int off) {
  return shfl_words(x, [=](unsigned v) { return __shfl_up_sync(0xffffffffu, v, off); });
}
template <typename T> __device__ inline T shfl_down_t(const T &x, int off) {
  return shfl_words(x, [=](unsigned v) { return __shfl_down_sync(0xffffffffu, v, off); });
}
template <typename T> __device__ inline T shfl_idx_t(const T &x, int src) {
  return shfl_words(x, [=](unsigned v) { return __shfl_sync(0xffffffffu, v, src); });
}

/* Slots of the scan's look-back values: whole words. */
template <typename T> __device__ inline void store_volatile(words<T> *p, const T &v) {
  words<T> a;
  a.w[words<T>::N - 1] = 0;
  std::memcpy(a.w, &v, sizeof(T));
  volatile unsigned *q = p->w;
#pragma unroll
  for (int i = 0; i < words<T>::N; i++)
    q[i] = a.w[i];
}
template <typename T> __device__ inline T load_volatile(const words<T> *p) {
  words<T> a;
  const volatile unsigned *q = p->w;
#pragma unroll
  for (int i = 0; i < words<T>::N; i++)
    a.w[i] = q[i];
  T r;
  std::memcpy(&r, a.w, sizeof(T));
  return r;
}

__device__ inline unsigned lane_id() { return threadIdx.x & 31u; }

/* The order-keeping inclusive scan of a warp (lane 0 first). */
template <typename T, typename Op> __device__ inline T warp_inclusive(T x, Op op) {
  unsigned lane = lane_id();
#pragma unroll
  for (int off = 1; off < 32; off *= 2) {
    T y = shfl_up_t(x, off);
    if (lane >= (unsigned)off)
      x = op(y, x);
  }
  return x;
}

/* Exclusive scan of one value per thread over the block, in thread order:
 * the prefix of the threads before this one (has = false in thread 0), and
 * the block's total. s_warp: GPU_WARPS values of shared memory. */
template <typename T, typename Op>
__device__ inline T block_exclusive(T x, Op op, bool &has, T &total, T *s_warp) {
  unsigned lane = lane_id(), warp = threadIdx.x / 32;
  T incl = warp_inclusive(x, op);
  if (lane == 31)
    s_warp[warp] = incl;
  __syncthreads();
  T before = shfl_up_t(incl, 1);
  T wpre{};
  bool whas = warp > 0;
  if (whas) {
    wpre = s_warp[0];
    for (unsigned w = 1; w < warp; w++)
      wpre = op(wpre, s_warp[w]);
  }
  total = s_warp[0];
  for (int w = 1; w < GPU_WARPS; w++)
    total = op(total, s_warp[w]);
  __syncthreads();
  if (lane == 0) {
    has = whas;
    return wpre;
  }
  has = true;
  return whas ? op(wpre, before) : before;
}
#endif

/* ---- reduce ---------------------------------------------------------------------- */

/* Block b's threads stride over the input (vector units of vec_of<In>::width
 * items when vec); one partial per block. Each block has at least one item
 * (the grid is at most the number of units / GPU_BLOCK). */
template <typename In, typename Acc, typename Op, typename Tr>
__global__ void reduce_gpu(In in, size_t n, bool vec, Acc *partials, Op op, Tr tr) {
#if defined(__CUDA_ARCH__)
  __shared__ Uninitialized<Acc[GPU_WARPS]> s_acc;
  __shared__ bool s_valid[GPU_WARPS];
  const size_t t = (size_t)blockIdx.x * GPU_BLOCK + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * GPU_BLOCK;
  Acc acc{};
  bool valid = false;
  size_t tail = 0;
  if constexpr (vec_of<In>::width > 1) {
    if (vec) {
      constexpr int V = vec_of<In>::width;
      typedef typename vec_of<In>::type vec_t;
      const vec_t *pv = reinterpret_cast<const vec_t *>(in);
      const size_t nv = n / V;
      auto fold = [&](size_t u, const vec_t &x) {
        Acc a = tr(u * V, x.v[0]);
#pragma unroll
        for (int k = 1; k < V; k++)
          a = op(a, tr(u * V + k, x.v[k]));
        return a;
      };
      if (t < nv) {
        acc = fold(t, pv[t]);
        valid = true;
        size_t u = t + stride;
        for (; u + stride < nv; u += 2 * stride) {
          vec_t a = pv[u], b = pv[u + stride];
          acc = op(acc, fold(u, a));
          acc = op(acc, fold(u + stride, b));
        }
        if (u < nv)
          acc = op(acc, fold(u, pv[u]));
      }
      tail = nv * V;
    }
  }
  if (tail == 0 && !valid) {
    /* Scalar: every item from t on. */
    if (t < n) {
      acc = tr(t, in[t]);
      valid = true;
      size_t i = t + stride;
      for (; i + stride < n; i += 2 * stride) {
        auto a = in[i];
        auto b = in[i + stride];
        acc = op(acc, tr(i, a));
        acc = op(acc, tr(i + stride, b));
      }
      if (i < n)
        acc = op(acc, tr(i, in[i]));
    }
  } else {
    /* The items after the last whole vector. */
    for (size_t i = tail + t; i < n; i += stride) {
      Acc a = tr(i, in[i]);
      acc = valid ? op(acc, a) : a;
      valid = true;
    }
  }
  unsigned lane = lane_id(), warp = threadIdx.x / 32;
#pragma unroll
  for (int off = 16; off > 0; off /= 2) {
    Acc y = shfl_down_t(acc, off);
    bool yv = __shfl_down_sync(0xffffffffu, (int)valid, off) && lane + off < 32;
    if (yv) {
      acc = valid ? op(acc, y) : y;
      valid = true;
    }
  }
  Acc(&sa)[GPU_WARPS] = s_acc.Alias();
  if (lane == 0) {
    sa[warp] = acc;
    s_valid[warp] = valid;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    bool v = false;
    Acc r{};
    for (int w = 0; w < GPU_WARPS; w++)
      if (s_valid[w]) {
        r = v ? op(r, sa[w]) : sa[w];
        v = true;
      }
    partials[blockIdx.x] = r;
  }
#endif
}

/* The grid of reduce_gpu for n items (0 when n is 0). */
template <typename In> inline size_t reduce_gpu_grid(In in, size_t n, bool &vec) {
  vec = vec_aligned(in) && n >= (size_t)vec_of<In>::width;
  size_t units = vec ? n / vec_of<In>::width : n;
  size_t most = (size_t)sm_count() * GPU_REDUCE_BLOCKS_PER_SM;
  size_t g = div_up(units, (size_t)GPU_BLOCK);
  return g < most ? g : most;
}

/* ---- scan ------------------------------------------------------------------------ */

/* Items per thread of a scan tile (a tile of Acc is about 32 KB of shared
 * memory); odd, so that a thread's run of items in shared memory starts in
 * another bank. On an H100, 64M ints: 15 items 403 us, 23 346 us, 31 325 us
 * (fewer tiles, fewer look-backs). */
template <typename Acc> constexpr int scan_items() {
  return sizeof(Acc) <= 4    ? HIPCUB_GPU_SCAN_ITEMS
         : sizeof(Acc) <= 8  ? HIPCUB_GPU_SCAN_ITEMS / 2 | 1
         : sizeof(Acc) <= 16 ? HIPCUB_GPU_SCAN_ITEMS / 4 | 1
                             : 1;
}

/* flags[t]: 0 until tile t publishes; 1: agg[t] holds its total; 2: incl[t]
 * holds the reduction of tiles 0..t (with the initial value). flags[tiles]
 * is the tile counter. */
template <typename In, typename Out, typename Acc, typename Op>
__global__ void scan_gpu(In in, Out out, size_t n, Op op, bool exclusive, bool has_init, Acc init,
                         unsigned *flags, words<Acc> *agg, words<Acc> *incl, unsigned tiles) {
#if defined(__CUDA_ARCH__)
  constexpr int N = scan_items<Acc>();
  constexpr int TILE = GPU_BLOCK * N;
  __shared__ Uninitialized<Acc[TILE]> s_items;
  __shared__ Uninitialized<Acc[GPU_WARPS]> s_warp;
  __shared__ Uninitialized<Acc> s_prefix;
  __shared__ bool s_has_prefix;
  __shared__ unsigned s_tile;
  Acc(&items)[TILE] = s_items.Alias();
  if (threadIdx.x == 0)
    s_tile = atomicAdd(&flags[tiles], 1u);
  __syncthreads();
  const unsigned tile = s_tile;
  const size_t base = (size_t)tile * TILE;
  const int count = n - base < (size_t)TILE ? (int)(n - base) : TILE;

  /* Striped loads (coalesced), then each thread's N consecutive items. */
#pragma unroll
  for (int k = 0; k < N; k++) {
    int i = k * GPU_BLOCK + (int)threadIdx.x;
    if (i < count)
      items[i] = Acc(in[base + i]);
  }
  __syncthreads();
  Acc x[N];
  const int first = (int)threadIdx.x * N;
#pragma unroll
  for (int k = 0; k < N; k++)
    x[k] = first + k < count ? items[first + k] : items[first < count ? first : 0];
  Acc sum = x[0];
#pragma unroll
  for (int k = 1; k < N; k++)
    if (first + k < count)
      sum = op(sum, x[k]);

  bool has_before;
  Acc total;
  Acc before = block_exclusive(sum, op, has_before, total, s_warp.Alias());

  /* The tile's prefix: warp 0 publishes and looks back. */
  if (threadIdx.x < 32) {
    unsigned lane = threadIdx.x;
    if (tile == 0) {
      if (lane == 0) {
        Acc p = has_init ? op(init, total) : total;
        store_volatile(&incl[0], p);
        __threadfence();
        ((volatile unsigned *)flags)[0] = 2;
        s_prefix.Alias() = init;
        s_has_prefix = has_init;
      }
    } else {
      if (lane == 0) {
        store_volatile(&agg[tile], total);
        __threadfence();
        ((volatile unsigned *)flags)[tile] = 1;
      }
      Acc prefix{};
      bool have = false;
      int last = (int)tile - 1; /* the window's newest tile, in lane 0 */
      for (;;) {
        int j = last - (int)lane;
        unsigned f;
        do {
          f = j >= 0 ? ((volatile unsigned *)flags)[j] : 2u;
        } while (__any_sync(0xffffffffu, f == 0));
        __threadfence();
        Acc v{};
        if (j >= 0)
          v = f == 2 ? load_volatile(&incl[j]) : load_volatile(&agg[j]);
        unsigned inclusive = (unsigned)__ballot_sync(0xffffffffu, f == 2 && j >= 0);
        int stop = inclusive ? __ffs(inclusive) - 1 : 31; /* the oldest lane that counts */
        if (last - stop < 0)
          stop = last; /* never past tile 0 */
        /* Lane 0 gets v[stop] op ... op v[0] (the older tiles first). */
#pragma unroll
        for (int off = 1; off < 32; off *= 2) {
          Acc y = shfl_down_t(v, off);
          if ((int)lane + off <= stop)
            v = op(y, v);
        }
        prefix = have ? op(v, prefix) : v;
        have = true;
        if (inclusive)
          break;
        last -= 32;
      }
      if (lane == 0) {
        store_volatile(&incl[tile], op(prefix, total));
        __threadfence();
        ((volatile unsigned *)flags)[tile] = 2;
        s_prefix.Alias() = prefix;
        s_has_prefix = true;
      }
    }
  }
  __syncthreads();
  bool has = s_has_prefix;
  Acc run = s_prefix.Alias();
  if (has_before) {
    run = has ? op(run, before) : before;
    has = true;
  }
  /* This thread's outputs into shared memory, then striped stores. */
#pragma unroll
  for (int k = 0; k < N; k++) {
    if (exclusive) {
      x[k] = has ? op(run, x[k]) : x[k];
      Acc next = x[k];
      x[k] = run;
      run = next;
    } else {
      run = has ? op(run, x[k]) : x[k];
      x[k] = run;
    }
    has = true;
  }
  __syncthreads(); /* everyone has read items */
#pragma unroll
  for (int k = 0; k < N; k++)
    if (first + k < count)
      items[first + k] = x[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < N; k++) {
    int i = k * GPU_BLOCK + (int)threadIdx.x;
    if (i < count)
      out[base + i] = items[i];
  }
#endif
}

/* ---- radix sort (onesweep) --------------------------------------------------------- */

/* Keys (and values) per thread of a sort tile: a tile of the larger fits in
 * 16 KB. On an H100 (64M uint keys, one pass): 8 keys 855 us, 12 735 us, 16
 * 680 us, 20 853 us, 24 808 us (more registers, fewer blocks per SM). */
template <typename K, typename V> constexpr int sort_items() {
  return (sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V)) <= 4    ? HIPCUB_GPU_SORT_ITEMS
         : (sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V)) <= 8  ? HIPCUB_GPU_SORT_ITEMS / 2
         : (sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V)) <= 16 ? HIPCUB_GPU_SORT_ITEMS / 4
                                                                 : 1;
}

/* The digit counts of every pass: hist[pass * 256 + digit] += ... */
template <typename K>
__global__ void radix_gpu_hist(const K *keys, size_t n, int begin_bit, int end_bit, int passes,
                               bool descending, unsigned *hist) {
#if defined(__CUDA_ARCH__)
  __shared__ unsigned s[8 * RADIX_BUCKETS];
  for (int i = threadIdx.x; i < passes * RADIX_BUCKETS; i += GPU_BLOCK)
    s[i] = 0;
  __syncthreads();
  auto count = [&](K k) {
    for (int p = 0; p < passes; p++) {
      int shift = begin_bit + p * RADIX_BITS;
      int bits = end_bit - shift < RADIX_BITS ? end_bit - shift : RADIX_BITS;
      atomicAdd(&s[p * RADIX_BUCKETS + digit_of(k, shift, bits, descending)], 1u);
    }
  };
  /* Four independent loads in flight per thread. */
  const size_t stride = (size_t)gridDim.x * GPU_BLOCK;
  size_t i = (size_t)blockIdx.x * GPU_BLOCK + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    K k0 = keys[i], k1 = keys[i + stride], k2 = keys[i + 2 * stride], k3 = keys[i + 3 * stride];
    count(k0);
    count(k1);
    count(k2);
    count(k3);
  }
  for (; i < n; i += stride)
    count(keys[i]);
  __syncthreads();
  for (int i = threadIdx.x; i < passes * RADIX_BUCKETS; i += GPU_BLOCK)
    if (s[i])
      atomicAdd(&hist[i], s[i]);
#endif
}

/* One pass: status[tile * 256 + d] holds flag (top 2 bits: 1 = the tile's
 * count, 2 = the count of tiles 0..tile) and count; counter: tile ids. S is
 * 32-bit below 2^30 items, else 64-bit. */
template <typename K, typename V, bool PAIRS, typename S>
__global__ void __launch_bounds__(GPU_BLOCK, 4) radix_gpu_pass(const K *keys_in, K *keys_out, const V *values_in, V *values_out,
                               size_t n, const unsigned *hist, S *status, unsigned *counter,
                               int shift, int bits, bool descending) {
#if defined(__CUDA_ARCH__)
  constexpr int N = sort_items<K, V>();
  constexpr int WARP_ITEMS = 32 * N;
  constexpr int TILE = GPU_BLOCK * N;
  constexpr int EX_BYTES = TILE * (sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V));
  constexpr S AGG = (S)1 << (sizeof(S) * 8 - 2), INCL = (S)2 << (sizeof(S) * 8 - 2);
  constexpr S COUNT = AGG - 1;
  static_assert(GPU_BLOCK == RADIX_BUCKETS, "one thread per digit");
  __shared__ unsigned s_warp_counts[GPU_WARPS][RADIX_BUCKETS];
  __shared__ unsigned s_start[RADIX_BUCKETS]; /* the digit's first position in the tile */
  __shared__ unsigned s_offset[RADIX_BUCKETS]; /* output position - tile position */
  __shared__ unsigned s_scan[GPU_WARPS];
  __shared__ alignas(16) unsigned char s_ex[EX_BYTES];
  __shared__ unsigned s_tile;
  const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid / 32;
  if (tid == 0)
    s_tile = atomicAdd(counter, 1u);
  for (int w = 0; w < GPU_WARPS; w++)
    s_warp_counts[w][tid] = 0;
  __syncthreads();
  const unsigned tile = s_tile;
  const size_t base = (size_t)tile * TILE;
  const int count = n - base < (size_t)TILE ? (int)(n - base) : TILE;

  /* Warp-striped: warp w has the tile's items [w * 32N, (w + 1) * 32N),
   * item k of lane l being w * 32N + 32k + l. */
  K key[N];
  unsigned short digit[N];
  unsigned pos[N];
  const int wfirst = (int)warp * WARP_ITEMS + (int)lane;
#pragma unroll
  for (int k = 0; k < N; k++) {
    int i = wfirst + 32 * k;
    if (i < count) {
      key[k] = keys_in[base + i];
      digit[k] = (unsigned short)digit_of(key[k], shift, bits, descending);
    } else {
      digit[k] = RADIX_BUCKETS - 1; /* after every key, not written */
    }
  }
  /* Stable rank within the warp: the lanes with my digit before me, plus the
   * warp's count of my digit so far. */
  const unsigned lt = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < N; k++) {
#if HIPCUB_GPU_SORT_MATCH_BALLOTS
    /* The lanes with my digit: one ballot per digit bit (what CUB's
     * MatchAny does; cheaper than match.any on Hopper). */
    unsigned peers = 0xffffffffu;
#pragma unroll
    for (int b = 0; b < RADIX_BITS; b++) {
      bool one = (digit[k] >> b) & 1;
      unsigned m = (unsigned)__ballot_sync(0xffffffffu, one);
      peers &= one ? m : ~m;
    }
#else
    unsigned peers = (unsigned)__match_any_sync(0xffffffffu, (unsigned)digit[k]);
#endif
    unsigned before = s_warp_counts[warp][digit[k]];
    __syncwarp();
    if (lane == 31u - __clz(peers))
      s_warp_counts[warp][digit[k]] = before + __popc(peers);
    __syncwarp();
    pos[k] = before + __popc(peers & lt);
  }
  __syncthreads();
  /* Thread d: the warps' exclusive prefix of digit d, and the tile's count. */
  unsigned total = 0;
  for (int w = 0; w < GPU_WARPS; w++) {
    unsigned c = s_warp_counts[w][tid];
    s_warp_counts[w][tid] = total;
    total += c;
  }
  /* Publish the tile's count of digit tid, then look back. */
  volatile S *st = status;
  st[(size_t)tile * RADIX_BUCKETS + tid] = (tile == 0 ? INCL : AGG) | (S)total;
  /* The digit's first position in the tile and in the output. */
  bool has;
  unsigned scan_total;
  unsigned start = block_exclusive(total, hipcub::Sum(), has, scan_total, s_scan);
  start = has ? start : 0;
  unsigned g = hist[tid];
  unsigned gstart = block_exclusive(g, hipcub::Sum(), has, scan_total, s_scan);
  gstart = has ? gstart : 0;
  S excl = 0;
  if (tile > 0) {
    /* LOOKBACK tiles' status read at once (independent loads), newest
     * first; tiles before tile 0 read as an empty inclusive count. */
    constexpr int LOOKBACK = HIPCUB_GPU_SORT_LOOKBACK;
    for (int j = (int)tile - 1; j >= 0; j -= LOOKBACK) {
      S v[LOOKBACK];
#pragma unroll
      for (int w = 0; w < LOOKBACK; w++)
        v[w] = j - w >= 0 ? st[(size_t)(j - w) * RADIX_BUCKETS + tid] : INCL;
      bool done = false;
#pragma unroll
      for (int w = 0; w < LOOKBACK; w++) {
        if (done)
          break;
        while ((v[w] & (AGG | INCL)) == 0)
          v[w] = st[(size_t)(j - w) * RADIX_BUCKETS + tid];
        excl += v[w] & COUNT;
        done = (v[w] & INCL) != 0;
      }
      if (done)
        break;
    }
    st[(size_t)tile * RADIX_BUCKETS + tid] = INCL | (excl + (S)total);
  }
  s_start[tid] = start;
  s_offset[tid] = gstart + (unsigned)excl - start;
  __syncthreads();

  /* Keys into shared memory in their tile order, then out. */
  K *ex_k = reinterpret_cast<K *>(s_ex);
#pragma unroll
  for (int k = 0; k < N; k++) {
    pos[k] += s_start[digit[k]] + s_warp_counts[warp][digit[k]];
    if (wfirst + 32 * k < count)
      ex_k[pos[k]] = key[k];
  }
  __syncthreads();
  unsigned out_at[N];
#pragma unroll
  for (int k = 0; k < N; k++) {
    int p = k * GPU_BLOCK + (int)tid;
    if (p < count) {
      K kk = ex_k[p];
      out_at[k] = s_offset[digit_of(kk, shift, bits, descending)] + (unsigned)p;
      keys_out[out_at[k]] = kk;
    }
  }
  if constexpr (PAIRS) {
    __syncthreads();
    V *ex_v = reinterpret_cast<V *>(s_ex);
#pragma unroll
    for (int k = 0; k < N; k++) {
      int i = wfirst + 32 * k;
      if (i < count)
        ex_v[pos[k]] = values_in[base + i];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < N; k++) {
      int p = k * GPU_BLOCK + (int)tid;
      if (p < count)
        values_out[out_at[k]] = ex_v[p];
    }
  }
#endif
}

/* ---- the host halves ------------------------------------------------------------- */

template <typename Acc, typename In, typename Out, typename Op, typename Tr>
inline hipError_t reduce_gpu_run(void *d_temp, size_t &bytes, In in, Out out, size_t n, Op op,
                                 Acc init, bool use_init, Tr tr, hipStream_t stream) {
  /* Storage for the largest grid, whatever the input's alignment. */
  size_t most = (size_t)sm_count() * GPU_REDUCE_BLOCKS_PER_SM;
  void *p[1];
  hipError_t e = carve(d_temp, bytes, p, {most * sizeof(Acc)});
  if (e != hipSuccess || !d_temp)
    return e;
  Acc *partials = static_cast<Acc *>(p[0]);
  bool vec = false;
  size_t blocks = n == 0 ? 0 : reduce_gpu_grid(in, n, vec);
  if (blocks > 0)
    hipLaunchKernelGGL((reduce_gpu<In, Acc, Op, Tr>), dim3((unsigned)blocks), dim3(GPU_BLOCK), 0,
                       stream, in, n, vec, partials, op, tr);
  hipLaunchKernelGGL((reduce_final<Acc, Op, Out>), dim3(1), dim3(BLOCK), 0, stream,
                     (const Acc *)partials, blocks, out, op, init, use_init);
  return hipPeekAtLastError();
}

template <typename Acc, typename In, typename Out, typename Op>
inline hipError_t scan_gpu_run(void *d_temp, size_t &bytes, In in, Out out, size_t n, Op op,
                               bool exclusive, bool has_init, Acc init, hipStream_t stream) {
  const size_t tile = (size_t)GPU_BLOCK * scan_items<Acc>();
  size_t tiles = div_up(n, tile);
  void *p[3];
  hipError_t e = carve(d_temp, bytes, p,
                       {(tiles + 1) * sizeof(unsigned), tiles * sizeof(words<Acc>),
                        tiles * sizeof(words<Acc>)});
  if (e != hipSuccess || !d_temp || n == 0)
    return e;
  unsigned *flags = static_cast<unsigned *>(p[0]);
  e = hipMemsetAsync(flags, 0, (tiles + 1) * sizeof(unsigned), stream);
  if (e != hipSuccess)
    return e;
  hipLaunchKernelGGL((scan_gpu<In, Out, Acc, Op>), dim3((unsigned)tiles), dim3(GPU_BLOCK), 0,
                     stream, in, out, n, op, exclusive, has_init, init, flags,
                     static_cast<words<Acc> *>(p[1]), static_cast<words<Acc> *>(p[2]),
                     (unsigned)tiles);
  return hipPeekAtLastError();
}

/* The sizes of the GPU sort's scratch: digit counts (+ a tile counter per
 * pass) and the look-back status of one pass. */
template <typename K, typename V>
inline void radix_gpu_sizes(size_t n, int passes, size_t &counts, size_t &status) {
  const size_t tile = (size_t)GPU_BLOCK * sort_items<K, V>();
  counts = ((size_t)passes * RADIX_BUCKETS + (size_t)passes) * sizeof(unsigned);
  status = div_up(n, tile) * RADIX_BUCKETS * (n >= ((size_t)1 << 30) ? 8 : 4);
}

template <typename K, typename V, typename S>
inline hipError_t radix_gpu_passes(const K *src_k, K *keys_out, const V *src_v, V *values_out,
                                   K *keys_alt, V *values_alt, size_t n, int begin_bit,
                                   int end_bit, int passes, bool descending, unsigned *counts,
                                   void *status, size_t status_bytes, hipStream_t stream) {
  const size_t tile = (size_t)GPU_BLOCK * sort_items<K, V>();
  unsigned tiles = (unsigned)div_up(n, tile);
  hipError_t e = hipMemsetAsync(counts, 0,
                                ((size_t)passes * RADIX_BUCKETS + passes) * sizeof(unsigned),
                                stream);
  if (e != hipSuccess)
    return e;
  size_t hb = div_up(n, (size_t)GPU_BLOCK * 16),
         most = (size_t)sm_count() * HIPCUB_GPU_HIST_BLOCKS_PER_SM;
  hipLaunchKernelGGL((radix_gpu_hist<K>), dim3((unsigned)(hb < most ? hb : most)),
                     dim3(GPU_BLOCK), 0, stream, src_k, n, begin_bit, end_bit, passes, descending,
                     counts);
  for (int pass = 0; pass < passes; pass++) {
    /* The last pass writes keys_out (see radix_sort). */
    bool to_out = ((passes - 1 - pass) % 2) == 0;
    K *dk = to_out ? keys_out : keys_alt;
    V *dv = src_v ? (to_out ? values_out : values_alt) : nullptr;
    int shift = begin_bit + pass * RADIX_BITS;
    int bits = end_bit - shift < RADIX_BITS ? end_bit - shift : RADIX_BITS;
    e = hipMemsetAsync(status, 0, status_bytes, stream);
    if (e != hipSuccess)
      return e;
    const unsigned *hist = counts + (size_t)pass * RADIX_BUCKETS;
    unsigned *counter = counts + (size_t)passes * RADIX_BUCKETS + pass;
    if (src_v)
      hipLaunchKernelGGL((radix_gpu_pass<K, V, true, S>), dim3(tiles), dim3(GPU_BLOCK), 0, stream,
                         src_k, dk, src_v, dv, n, hist, static_cast<S *>(status), counter, shift,
                         bits, descending);
    else
      hipLaunchKernelGGL((radix_gpu_pass<K, V, false, S>), dim3(tiles), dim3(GPU_BLOCK), 0,
                         stream, src_k, dk, src_v, dv, n, hist, static_cast<S *>(status), counter,
                         shift, bits, descending);
    src_k = dk;
    src_v = dv;
  }
  return hipPeekAtLastError();
}

} // namespace detail
} // namespace hipcub

#endif
