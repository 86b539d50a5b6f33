/* SPDX-License-Identifier: MIT */
/* hipCUB's device-wide algorithms (included by hipcub/hipcub.hpp): reduce,
 * scan, radix sort, select, histogram and segmented reduce. Each call with
 * d_temp_storage == NULL only sets temp_storage_bytes (at least 1); the call
 * with storage launches kernels on `stream` and returns at once.
 *
 * On a GPU (the NVIDIA device) reduce, scan and radix sort take the GPU-shaped
 * kernels of device_gpu.hpp instead (chosen at run time by on_gpu(): the host
 * half of a HIP source is compiled once, by the CPU pass). The rest of this
 * file is the CPU device's layout, which the other algorithms use everywhere.
 *
 * Work split: W workers (threads of blocks of BLOCK), worker w owning the
 * contiguous items [w * seg, (w + 1) * seg): on the CPU device a block's
 * threads then each stream through their own memory. W is at most
 * 2 * BLOCK per multiprocessor (on the CPU device, per core) and at least
 * `seg` items each. Combining steps (the partials of a reduce, the per-worker
 * totals of a scan, the digit counts of a radix sort pass) run in a single
 * block, whose threads each take a contiguous part and whose thread 0 joins
 * the parts. */
#ifndef HIPCUB_DEVICE_HPP_
#define HIPCUB_DEVICE_HPP_

namespace hipcub {
namespace detail {

constexpr int BLOCK = 256;

template <typename T> HIPCUB_HOST_DEVICE inline T div_up(T a, T b) { return (a + b - 1) / b; }

/* How many workers for n items of at least min_items each. */
inline size_t workers_for(size_t n, size_t min_items) {
  int dev = 0, sms = 1;
  if (hipGetDevice(&dev) != hipSuccess ||
      hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess ||
      sms < 1)
    sms = 1;
  size_t most = (size_t)sms * 2 * BLOCK;
  size_t w = div_up(n, min_items);
  if (w > most)
    w = most;
  return w < 1 ? 1 : w;
}

/* Carves temporary storage into K arrays (256-byte aligned). With
 * d_temp == NULL it sets bytes; otherwise it checks bytes. */
template <int K>
inline hipError_t carve(void *d_temp, size_t &bytes, void *(&ptrs)[K], const size_t (&sizes)[K]) {
  size_t off[K], total = 0;
  for (int i = 0; i < K; i++) {
    off[i] = total;
    total += div_up(sizes[i], (size_t)256) * 256;
  }
  if (total == 0)
    total = 1;
  if (!d_temp) {
    bytes = total;
    return hipSuccess;
  }
  if (bytes < total)
    return hipErrorInvalidValue;
  for (int i = 0; i < K; i++)
    ptrs[i] = static_cast<char *>(d_temp) + off[i];
  return hipSuccess;
}

/* Radix sort: LSD, RADIX_BITS per pass. */
constexpr int RADIX_BITS = 8;
constexpr int RADIX_BUCKETS = 1 << RADIX_BITS;

template <typename K>
HIPCUB_HOST_DEVICE inline unsigned digit_of(K k, int shift, int bits, bool descending) {
  typedef radix_traits<K> tr;
  typename tr::bits_t b = tr::in(k);
  if (descending)
    b = (typename tr::bits_t) ~b;
  return (unsigned)((b >> shift) & (((typename tr::bits_t)1 << bits) - 1));
}

/* ---- reduce ----------------------------------------------------------------- */

/* An input item as the accumulator: the value, or (for ArgMin/ArgMax) the
 * pair of its index and value. */
template <typename Acc> struct as_value {
  template <typename V> HIPCUB_HOST_DEVICE Acc operator()(size_t, const V &v) const {
    return Acc(v);
  }
};
template <typename Acc> struct as_pair {
  template <typename V> HIPCUB_HOST_DEVICE Acc operator()(size_t i, const V &v) const {
    return Acc((typename Acc::Key_t)i, (typename Acc::Value_t)v);
  }
};

/* Block b's workers reduce their segments; the block's total goes to
 * partials[b]. */
template <typename In, typename Acc, typename Op, typename Tr>
__global__ void reduce_blocks(In in, size_t n, size_t seg, Acc *partials, Op op, Tr tr) {
  __shared__ typename BlockReduce<Acc, BLOCK>::TempStorage temp;
  size_t first = (size_t)blockIdx.x * BLOCK * seg;
  Acc acc{};
  int valid;
#if defined(__CUDA_ARCH__)
  /* NVIDIA: the block's BLOCK * seg items striped over its threads, so that
   * a warp's loads coalesce (the operator is commutative, as CUB assumes). */
  size_t last = first + BLOCK * seg < n ? first + BLOCK * seg : n;
  size_t i = first + threadIdx.x;
  if (i < last) {
    acc = tr(i, in[i]);
    for (i += BLOCK; i < last; i += BLOCK)
      acc = op(acc, tr(i, in[i]));
  }
  valid = (int)(last - first < (size_t)BLOCK ? last - first : BLOCK);
#else
  /* The CPU device: each thread's own contiguous segment, with four running
   * values (CUB's DeviceReduce also assumes a commutative operator) that the
   * compiler can keep in vector lanes. */
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  if (begin < n) {
    size_t i = begin + 1;
    acc = tr(begin, in[begin]);
    if (end - begin >= 8) {
      Acc a1 = tr(i, in[i]), a2 = tr(i + 1, in[i + 1]), a3 = tr(i + 2, in[i + 2]);
      for (i += 3; i + 4 <= end; i += 4) {
        acc = op(acc, tr(i, in[i]));
        a1 = op(a1, tr(i + 1, in[i + 1]));
        a2 = op(a2, tr(i + 2, in[i + 2]));
        a3 = op(a3, tr(i + 3, in[i + 3]));
      }
      acc = op(op(acc, a1), op(a2, a3));
    }
    for (; i < end; i++)
      acc = op(acc, tr(i, in[i]));
  }
  valid = (int)(div_up(n - first, seg) < (size_t)BLOCK ? div_up(n - first, seg) : BLOCK);
#endif
  Acc total = BlockReduce<Acc, BLOCK>(temp).Reduce(acc, op, valid);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = total;
}

/* One block: out[0] = op(init, partials[0..count)), or init when count is 0
 * (or the bare total when use_init is false). */
template <typename Acc, typename Op, typename Out>
__global__ void reduce_final(const Acc *partials, size_t count, Out out, Op op, Acc init,
                             bool use_init) {
  __shared__ typename BlockReduce<Acc, BLOCK>::TempStorage temp;
  size_t seg = div_up(count, (size_t)BLOCK);
  if (seg == 0)
    seg = 1;
  size_t begin = threadIdx.x * seg, end = begin + seg < count ? begin + seg : count;
  Acc acc{};
  if (begin < count) {
    acc = partials[begin];
    for (size_t i = begin + 1; i < end; i++)
      acc = op(acc, partials[i]);
  }
  int valid = (int)(div_up(count, seg) < (size_t)BLOCK ? div_up(count, seg) : BLOCK);
  Acc total = BlockReduce<Acc, BLOCK>(temp).Reduce(acc, op, valid);
  if (threadIdx.x == 0)
    *out = count == 0 ? init : use_init ? op(init, total) : total;
}

} // namespace detail
} // namespace hipcub

#include "device_gpu.hpp"

namespace hipcub {
namespace detail {

template <typename Acc, typename In, typename Out, typename Op, typename Tr>
inline hipError_t reduce(void *d_temp, size_t &bytes, In in, Out out, size_t n, Op op, Acc init,
                         bool use_init, Tr tr, hipStream_t stream) {
  if (on_gpu())
    return reduce_gpu_run(d_temp, bytes, in, out, n, op, init, use_init, tr, stream);
  size_t workers = workers_for(n, 2048);
  size_t seg = n == 0 ? 1 : div_up(n, workers);
  size_t blocks = n == 0 ? 0 : div_up(div_up(n, seg), (size_t)BLOCK);
  void *p[1];
  hipError_t e = carve(d_temp, bytes, p, {blocks * sizeof(Acc)});
  if (e != hipSuccess || !d_temp)
    return e;
  Acc *partials = static_cast<Acc *>(p[0]);
  if (blocks > 0)
    hipLaunchKernelGGL((reduce_blocks<In, Acc, Op, Tr>), dim3((unsigned)blocks), dim3(BLOCK), 0,
                       stream, in, n, seg, partials, op, tr);
  hipLaunchKernelGGL((reduce_final<Acc, Op, Out>), dim3(1), dim3(BLOCK), 0, stream,
                     (const Acc *)partials, blocks, out, op, init, use_init);
  return hipPeekAtLastError();
}

/* ---- scans of per-worker values ------------------------------------------ */

/* One block: a[0..m) becomes its exclusive scan (a[0] = init when has_init;
 * otherwise a[0] is left as it was and means "no prefix"). Thread t scans a
 * contiguous part; thread 0 scans the parts' totals. */
template <typename Acc, typename Op>
__global__ void scan_inplace(Acc *a, size_t m, Op op, bool has_init, Acc init) {
  __shared__ Uninitialized<Acc[BLOCK]> part_storage;
  __shared__ bool part_has[BLOCK];
  Acc(&part)[BLOCK] = part_storage.Alias();
  size_t seg = div_up(m, (size_t)BLOCK);
  if (seg == 0)
    seg = 1;
  size_t begin = threadIdx.x * seg, end = begin + seg < m ? begin + seg : m;
  Acc total{};
  if (begin < m) {
    total = a[begin];
    for (size_t i = begin + 1; i < end; i++)
      total = op(total, a[i]);
  }
  part[threadIdx.x] = total;
  __syncthreads();
  if (threadIdx.x == 0) {
    bool has = has_init;
    Acc run = init;
    size_t parts = div_up(m, seg);
    for (size_t t = 0; t < parts && t < (size_t)BLOCK; t++) {
      Acc c = part[t];
      part[t] = run;
      part_has[t] = has;
      run = has ? op(run, c) : c;
      has = true;
    }
  }
  __syncthreads();
  if (begin < m) {
    bool has = part_has[threadIdx.x];
    Acc run = part[threadIdx.x];
    for (size_t i = begin; i < end; i++) {
      Acc c = a[i];
      if (has || i != 0)
        a[i] = run;
      run = has ? op(run, c) : c;
      has = true;
    }
  }
}

/* ---- scan --------------------------------------------------------------------- */

template <typename In, typename Acc, typename Op>
__global__ void scan_totals(In in, size_t n, size_t seg, Acc *totals, Op op) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  if (begin >= n)
    return;
  Acc acc = Acc(in[begin]);
  for (size_t i = begin + 1; i < end; i++)
    acc = op(acc, Acc(in[i]));
  totals[w] = acc;
}

template <typename In, typename Out, typename Acc, typename Op>
__global__ void scan_apply(In in, Out out, size_t n, size_t seg, const Acc *prefix, Op op,
                           bool exclusive, bool has_init) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  if (begin >= n)
    return;
  bool has = has_init || w > 0;
  Acc run = prefix[w];
  for (size_t i = begin; i < end; i++) {
    Acc x = Acc(in[i]);
    if (exclusive) {
      out[i] = run;
      run = op(run, x);
    } else {
      run = has ? op(run, x) : x;
      has = true;
      out[i] = run;
    }
  }
}

template <typename Acc, typename In, typename Out, typename Op>
inline hipError_t scan(void *d_temp, size_t &bytes, In in, Out out, size_t n, Op op, bool exclusive,
                       bool has_init, Acc init, hipStream_t stream) {
  if (on_gpu())
    return scan_gpu_run(d_temp, bytes, in, out, n, op, exclusive, has_init, init, stream);
  size_t workers = workers_for(n, 2048);
  size_t seg = n == 0 ? 1 : div_up(n, workers);
  size_t used = n == 0 ? 0 : div_up(n, seg);
  void *p[1];
  hipError_t e = carve(d_temp, bytes, p, {used * sizeof(Acc)});
  if (e != hipSuccess || !d_temp || n == 0)
    return e;
  Acc *totals = static_cast<Acc *>(p[0]);
  unsigned blocks = (unsigned)div_up(used, (size_t)BLOCK);
  hipLaunchKernelGGL((scan_totals<In, Acc, Op>), dim3(blocks), dim3(BLOCK), 0, stream, in, n, seg,
                     totals, op);
  hipLaunchKernelGGL((scan_inplace<Acc, Op>), dim3(1), dim3(BLOCK), 0, stream, totals, used, op,
                     has_init, init);
  hipLaunchKernelGGL((scan_apply<In, Out, Acc, Op>), dim3(blocks), dim3(BLOCK), 0, stream, in, out,
                     n, seg, (const Acc *)totals, op, exclusive, has_init);
  return hipPeekAtLastError();
}

/* ---- radix sort --------------------------------------------------------------- */


/* Worker w counts its items' digits into column w of counts[digit][worker]. */
template <typename K>
__global__ void radix_hist(const K *keys, size_t n, size_t seg, size_t workers, unsigned *counts,
                           int shift, int bits, bool descending) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  /* Counted in the thread's own array, then written once: the column's
   * entries are `workers` apart. */
  unsigned local[RADIX_BUCKETS];
  for (int d = 0; d < RADIX_BUCKETS; d++)
    local[d] = 0;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  for (size_t i = begin; i < end; i++)
    local[digit_of(keys[i], shift, bits, descending)]++;
  for (int d = 0; d < RADIX_BUCKETS; d++)
    counts[d * workers + w] = local[d];
}

/* Worker w moves its items, in order, to the scanned positions: stable. */
template <typename K, typename V>
__global__ void radix_scatter(const K *keys, K *keys_out, const V *values, V *values_out, size_t n,
                              size_t seg, size_t workers, unsigned *offsets, int shift, int bits,
                              bool descending) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  unsigned local[RADIX_BUCKETS];
  for (int d = 0; d < RADIX_BUCKETS; d++)
    local[d] = offsets[d * workers + w];
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  for (size_t i = begin; i < end; i++) {
    K k = keys[i];
    unsigned pos = local[digit_of(k, shift, bits, descending)]++;
    keys_out[pos] = k;
    if (values)
      values_out[pos] = values[i];
  }
}

/* keys[2] and values[2]: the source of pass 0 is src; pass p writes
 * dst[p % 2]; the caller arranges the last pass to land where it wants. */
template <typename K, typename V>
inline hipError_t radix_sort(void *d_temp, size_t &bytes, const K *keys_in, K *keys_out,
                             const V *values_in, V *values_out, K *keys_alt, V *values_alt,
                             bool need_alt, size_t n, int begin_bit, int end_bit, bool descending,
                             hipStream_t stream, int *passes_out) {
  if (begin_bit < 0 || end_bit > (int)sizeof(K) * 8 || begin_bit > end_bit)
    return hipErrorInvalidValue;
  const bool gpu = on_gpu();
  size_t workers = workers_for(n, 4096);
  size_t seg = n == 0 ? 1 : div_up(n, workers);
  workers = n == 0 ? 1 : div_up(n, seg);
  int passes = div_up(end_bit - begin_bit, RADIX_BITS);
  size_t m = (size_t)RADIX_BUCKETS * workers, counts_bytes = m * sizeof(unsigned),
         status_bytes = 0;
  if (gpu)
    radix_gpu_sizes<K, V>(n, passes, counts_bytes, status_bytes);
  void *p[4];
  hipError_t e = carve(d_temp, bytes, p,
                       {counts_bytes, need_alt ? n * sizeof(K) : 0, need_alt && values_in ? n * sizeof(V) : 0,
                        status_bytes});
  if (passes_out)
    *passes_out = passes;
  if (e != hipSuccess || !d_temp)
    return e;
  if (n == 0)
    return hipSuccess;
  unsigned *counts = static_cast<unsigned *>(p[0]);
  if (need_alt) {
    keys_alt = static_cast<K *>(p[1]);
    values_alt = static_cast<V *>(p[2]);
  }
  if (passes == 0) {
    if (keys_out != keys_in)
      e = hipMemcpyAsync(keys_out, keys_in, n * sizeof(K), hipMemcpyDeviceToDevice, stream);
    if (e == hipSuccess && values_in && values_out != values_in)
      e = hipMemcpyAsync(values_out, values_in, n * sizeof(V), hipMemcpyDeviceToDevice, stream);
    return e;
  }
  if (gpu && n >= ((size_t)1 << 30))
    return radix_gpu_passes<K, V, unsigned long long>(keys_in, keys_out, values_in, values_out,
                                                      keys_alt, values_alt, n, begin_bit, end_bit,
                                                      passes, descending, counts, p[3],
                                                      status_bytes, stream);
  if (gpu)
    return radix_gpu_passes<K, V, unsigned>(keys_in, keys_out, values_in, values_out, keys_alt,
                                            values_alt, n, begin_bit, end_bit, passes, descending,
                                            counts, p[3], status_bytes, stream);
  /* The last pass writes keys_out: pass p writes keys_out when passes - 1 - p
   * is even, else the alternate. */
  const K *src_k = keys_in;
  const V *src_v = values_in;
  unsigned blocks = (unsigned)div_up(workers, (size_t)BLOCK);
  for (int pass = 0; pass < passes; pass++) {
    bool to_out = ((passes - 1 - pass) % 2) == 0;
    K *dk = to_out ? keys_out : keys_alt;
    V *dv = values_in ? (to_out ? values_out : values_alt) : nullptr;
    int shift = begin_bit + pass * RADIX_BITS;
    int bits = end_bit - shift < RADIX_BITS ? end_bit - shift : RADIX_BITS;
    hipLaunchKernelGGL((radix_hist<K>), dim3(blocks), dim3(BLOCK), 0, stream, src_k, n, seg,
                       workers, counts, shift, bits, descending);
    hipLaunchKernelGGL((scan_inplace<unsigned, hipcub::Sum>), dim3(1), dim3(BLOCK), 0, stream,
                       counts, m, hipcub::Sum(), true, 0u);
    hipLaunchKernelGGL((radix_scatter<K, V>), dim3(blocks), dim3(BLOCK), 0, stream, src_k, dk,
                       src_v, dv, n, seg, workers, counts, shift, bits, descending);
    src_k = dk;
    src_v = dv;
  }
  return hipPeekAtLastError();
}

/* ---- select -------------------------------------------------------------------- */

enum select_mode { SELECT_IF, SELECT_FLAGGED, SELECT_UNIQUE };

template <typename In, typename Flags, typename Pred>
HIPCUB_HOST_DEVICE inline bool selected(In in, Flags flags, Pred pred, select_mode mode, size_t i) {
  switch (mode) {
  case SELECT_IF:
    return pred(in[i]);
  case SELECT_FLAGGED:
    return (bool)flags[i];
  default:
    return i == 0 || !(in[i] == in[i - 1]);
  }
}

template <typename In, typename Flags, typename Pred>
__global__ void select_count(In in, Flags flags, Pred pred, select_mode mode, size_t n, size_t seg,
                             size_t workers, unsigned long long *counts) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  unsigned long long c = 0;
  for (size_t i = begin; i < end; i++)
    c += selected(in, flags, pred, mode, i);
  counts[w] = c;
}

template <typename In, typename Flags, typename Pred, typename Out, typename NumOut>
__global__ void select_scatter(In in, Flags flags, Pred pred, select_mode mode, Out out,
                               NumOut num_selected, size_t n, size_t seg, size_t workers,
                               const unsigned long long *offsets) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  unsigned long long pos = offsets[w];
  for (size_t i = begin; i < end; i++)
    if (selected(in, flags, pred, mode, i))
      out[pos++] = in[i];
  if (w == workers - 1)
    *num_selected = pos;
}

template <typename In, typename Flags, typename Pred, typename Out, typename NumOut>
__global__ void select_none(NumOut num_selected) {
  *num_selected = 0;
}

struct no_pred {
  template <typename T> HIPCUB_HOST_DEVICE bool operator()(const T &) const { return false; }
};
struct no_flags {
  HIPCUB_HOST_DEVICE bool operator[](size_t) const { return false; }
};

template <typename In, typename Flags, typename Pred, typename Out, typename NumOut>
inline hipError_t select(void *d_temp, size_t &bytes, In in, Flags flags, Pred pred,
                         select_mode mode, Out out, NumOut num_selected, size_t n,
                         hipStream_t stream) {
  size_t workers = workers_for(n, 2048);
  size_t seg = n == 0 ? 1 : div_up(n, workers);
  workers = n == 0 ? 1 : div_up(n, seg);
  void *p[1];
  hipError_t e = carve(d_temp, bytes, p, {workers * sizeof(unsigned long long)});
  if (e != hipSuccess || !d_temp)
    return e;
  if (n == 0) {
    hipLaunchKernelGGL((select_none<In, Flags, Pred, Out, NumOut>), dim3(1), dim3(1), 0, stream,
                       num_selected);
    return hipPeekAtLastError();
  }
  unsigned long long *counts = static_cast<unsigned long long *>(p[0]);
  unsigned blocks = (unsigned)div_up(workers, (size_t)BLOCK);
  hipLaunchKernelGGL((select_count<In, Flags, Pred>), dim3(blocks), dim3(BLOCK), 0, stream, in,
                     flags, pred, mode, n, seg, workers, counts);
  hipLaunchKernelGGL((scan_inplace<unsigned long long, hipcub::Sum>), dim3(1), dim3(BLOCK), 0,
                     stream, counts, workers, hipcub::Sum(), true, 0ull);
  hipLaunchKernelGGL((select_scatter<In, Flags, Pred, Out, NumOut>), dim3(blocks), dim3(BLOCK), 0,
                     stream, in, flags, pred, mode, out, num_selected, n, seg, workers,
                     (const unsigned long long *)counts);
  return hipPeekAtLastError();
}

/* ---- runs of equal keys (run-length encoding, reduce by key) ------------------- */

/* Worker w counts the run heads (items unlike their predecessor) in its
 * segment. */
template <typename KeyIt, typename Eq>
__global__ void heads_count(KeyIt keys, size_t n, size_t seg, size_t workers,
                            unsigned long long *counts, Eq eq) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  unsigned long long c = 0;
  for (size_t i = begin; i < end; i++)
    c += i == 0 || !eq(keys[i - 1], keys[i]);
  counts[w] = c;
}

/* Worker w writes the positions of its heads from offsets[w] on; the last
 * worker writes positions[runs] = n and the number of runs. */
template <typename KeyIt, typename Eq>
__global__ void heads_scatter(KeyIt keys, size_t n, size_t seg, size_t workers,
                              const unsigned long long *offsets, Eq eq,
                              unsigned long long *positions, unsigned long long *runs) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  unsigned long long j = offsets[w];
  for (size_t i = begin; i < end; i++)
    if (i == 0 || !eq(keys[i - 1], keys[i]))
      positions[j++] = i;
  if (w == workers - 1) {
    positions[j] = n;
    *runs = j;
  }
}

/* Worker w finishes the runs whose heads are in its segment: the run's key,
 * and its length (values == nullptr) or the reduction of its values. */
template <bool LENGTHS, typename KeyIt, typename UniqueOut, typename ValIt, typename AggOut,
          typename Op, typename NumOut>
__global__ void runs_finish(KeyIt keys, UniqueOut unique_out, ValIt values, AggOut agg_out, Op op,
                            size_t workers, const unsigned long long *offsets,
                            const unsigned long long *positions, const unsigned long long *runs,
                            NumOut num_runs_out) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  unsigned long long j0 = offsets[w], j1 = w + 1 < workers ? offsets[w + 1] : *runs;
  for (unsigned long long j = j0; j < j1; j++) {
    size_t b = (size_t)positions[j], e = (size_t)positions[j + 1];
    unique_out[j] = keys[b];
    if constexpr (LENGTHS) {
      agg_out[j] = e - b;
    } else {
      auto acc = values[b];
      for (size_t i = b + 1; i < e; i++)
        acc = op(acc, values[i]);
      agg_out[j] = acc;
    }
  }
  if (w == workers - 1)
    *num_runs_out = *runs;
}

template <typename NumOut> __global__ void runs_none(NumOut num_runs_out) { *num_runs_out = 0; }

template <bool LENGTHS, typename KeyIt, typename UniqueOut, typename ValIt, typename AggOut,
          typename Op, typename NumOut>
inline hipError_t runs(void *d_temp, size_t &bytes, KeyIt keys, UniqueOut unique_out, ValIt values,
                       AggOut agg_out, Op op, NumOut num_runs_out, size_t n, hipStream_t stream) {
  size_t workers = workers_for(n, 2048);
  size_t seg = n == 0 ? 1 : div_up(n, workers);
  workers = n == 0 ? 1 : div_up(n, seg);
  void *p[3];
  hipError_t e = carve(d_temp, bytes, p,
                       {workers * sizeof(unsigned long long), (n + 1) * sizeof(unsigned long long),
                        sizeof(unsigned long long)});
  if (e != hipSuccess || !d_temp)
    return e;
  if (n == 0) {
    hipLaunchKernelGGL((runs_none<NumOut>), dim3(1), dim3(1), 0, stream, num_runs_out);
    return hipPeekAtLastError();
  }
  unsigned long long *offsets = static_cast<unsigned long long *>(p[0]);
  unsigned long long *positions = static_cast<unsigned long long *>(p[1]);
  unsigned long long *count = static_cast<unsigned long long *>(p[2]);
  unsigned blocks = (unsigned)div_up(workers, (size_t)BLOCK);
  hipcub::Equality eq;
  hipLaunchKernelGGL((heads_count<KeyIt, hipcub::Equality>), dim3(blocks), dim3(BLOCK), 0, stream,
                     keys, n, seg, workers, offsets, eq);
  hipLaunchKernelGGL((scan_inplace<unsigned long long, hipcub::Sum>), dim3(1), dim3(BLOCK), 0,
                     stream, offsets, workers, hipcub::Sum(), true, 0ull);
  hipLaunchKernelGGL((heads_scatter<KeyIt, hipcub::Equality>), dim3(blocks), dim3(BLOCK), 0, stream,
                     keys, n, seg, workers, (const unsigned long long *)offsets, eq, positions,
                     count);
  hipLaunchKernelGGL((runs_finish<LENGTHS, KeyIt, UniqueOut, ValIt, AggOut, Op, NumOut>),
                     dim3(blocks), dim3(BLOCK), 0, stream, keys, unique_out, values, agg_out, op,
                     workers, (const unsigned long long *)offsets,
                     (const unsigned long long *)positions, (const unsigned long long *)count,
                     num_runs_out);
  return hipPeekAtLastError();
}

/* ---- histogram ---------------------------------------------------------------- */

/* The bin of a sample in [lower, upper) split into `bins` equal bins, or -1. */
template <typename S, typename L>
HIPCUB_HOST_DEVICE inline long long even_bin(S s, L lower, L upper, int bins) {
  double x = (double)s, lo = (double)lower, hi = (double)upper;
  if (!(x >= lo && x < hi))
    return -1;
  long long b = (long long)((x - lo) * bins / (hi - lo));
  return b >= bins ? bins - 1 : b;
}

template <typename In, typename C, typename L>
__global__ void hist_private(In samples, size_t n, size_t seg, size_t workers, C *rows, int bins,
                             L lower, L upper) {
  size_t w = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  if (w >= workers)
    return;
  C *row = rows + w * bins;
  for (int b = 0; b < bins; b++)
    row[b] = 0;
  size_t begin = w * seg, end = begin + seg < n ? begin + seg : n;
  for (size_t i = begin; i < end; i++) {
    long long b = even_bin(samples[i], lower, upper, bins);
    if (b >= 0)
      row[b]++;
  }
}

template <typename C>
__global__ void hist_sum(const C *rows, size_t workers, int bins, C *histogram) {
  for (int b = blockIdx.x * BLOCK + threadIdx.x; b < bins; b += gridDim.x * BLOCK) {
    C s = 0;
    for (size_t w = 0; w < workers; w++)
      s += rows[w * bins + b];
    histogram[b] = s;
  }
}

/* ---- segmented reduce ---------------------------------------------------------- */

template <typename In, typename Out, typename BeginIt, typename EndIt, typename Acc, typename Op,
          typename Tr>
__global__ void segmented_reduce(In in, Out out, int segments, BeginIt begins, EndIt ends, Op op,
                                 Acc init, bool use_init, Tr tr) {
  __shared__ typename BlockReduce<Acc, BLOCK>::TempStorage temp;
  for (int s = blockIdx.x; s < segments; s += gridDim.x) {
    size_t b = (size_t)begins[s], e = (size_t)ends[s];
    size_t len = e > b ? e - b : 0;
    size_t seg = div_up(len, (size_t)BLOCK);
    if (seg == 0)
      seg = 1;
    size_t i0 = threadIdx.x * seg, i1 = i0 + seg < len ? i0 + seg : len;
    Acc acc{};
    if (i0 < len) {
      acc = tr(i0, in[b + i0]);
      for (size_t i = i0 + 1; i < i1; i++)
        acc = op(acc, tr(i, in[b + i]));
    }
    int valid = (int)(div_up(len, seg) < (size_t)BLOCK ? div_up(len, seg) : BLOCK);
    Acc total = BlockReduce<Acc, BLOCK>(temp).Reduce(acc, op, valid);
    if (threadIdx.x == 0)
      out[s] = len == 0 ? init : use_init ? op(init, total) : total;
  }
}

template <typename Acc, typename In, typename Out, typename BeginIt, typename EndIt, typename Op,
          typename Tr>
inline hipError_t segmented(void *d_temp, size_t &bytes, In in, Out out, int segments,
                            BeginIt begins, EndIt ends, Op op, Acc init, bool use_init, Tr tr,
                            hipStream_t stream) {
  void *p[1];
  hipError_t e = carve(d_temp, bytes, p, {(size_t)0});
  if (e != hipSuccess || !d_temp || segments <= 0)
    return e;
  int grid = (int)workers_for((size_t)segments, 1);
  grid = grid > segments ? segments : grid;
  hipLaunchKernelGGL((segmented_reduce<In, Out, BeginIt, EndIt, Acc, Op, Tr>), dim3(grid),
                     dim3(BLOCK), 0, stream, in, out, segments, begins, ends, op, init, use_init,
                     tr);
  return hipPeekAtLastError();
}

template <typename T> inline T max_of() { return std::numeric_limits<T>::max(); }
template <typename T> inline T lowest_of() { return std::numeric_limits<T>::lowest(); }

} // namespace detail

/* ---- the public device-wide interfaces ------------------------------------------ */

struct DeviceReduce {
  template <typename In, typename Out, typename Op, typename T>
  static hipError_t Reduce(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           int num_items, Op reduction_op, T init, hipStream_t stream = 0,
                           bool debug_synchronous = false) {
    typedef std::decay_t<decltype(reduction_op(init, *d_in))> Acc;
    return detail::reduce<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                               num_items < 0 ? 0 : (size_t)num_items, reduction_op, Acc(init), true,
                               detail::as_value<Acc>(), stream);
  }
  template <typename In, typename Out>
  static hipError_t Sum(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                        int num_items, hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::out_value_t<Out, In> Acc;
    return detail::reduce<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                               num_items < 0 ? 0 : (size_t)num_items, hipcub::Sum(), Acc(), false,
                               detail::as_value<Acc>(), stream);
  }
  template <typename In, typename Out>
  static hipError_t Min(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                        int num_items, hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> Acc;
    return detail::reduce<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                               num_items < 0 ? 0 : (size_t)num_items, hipcub::Min(),
                               detail::max_of<Acc>(), false, detail::as_value<Acc>(), stream);
  }
  template <typename In, typename Out>
  static hipError_t Max(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                        int num_items, hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> Acc;
    return detail::reduce<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                               num_items < 0 ? 0 : (size_t)num_items, hipcub::Max(),
                               detail::lowest_of<Acc>(), false, detail::as_value<Acc>(), stream);
  }
  template <typename KeysIn, typename UniqueOut, typename ValuesIn, typename AggregatesOut,
            typename NumRunsOut, typename Op>
  static hipError_t ReduceByKey(void *d_temp_storage, size_t &temp_storage_bytes, KeysIn d_keys_in,
                                UniqueOut d_unique_out, ValuesIn d_values_in,
                                AggregatesOut d_aggregates_out, NumRunsOut d_num_runs_out,
                                Op reduction_op, int num_items, hipStream_t stream = 0,
                                bool debug_synchronous = false) {
    return detail::runs<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out,
                               d_values_in, d_aggregates_out, reduction_op, d_num_runs_out,
                               num_items < 0 ? 0 : (size_t)num_items, stream);
  }
  /* The first smallest item and its index; with no items, {1, max}. */
  template <typename In, typename Out>
  static hipError_t ArgMin(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           int num_items, hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> T;
    typedef KeyValuePair<int, T> Acc;
    return detail::reduce<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                               num_items < 0 ? 0 : (size_t)num_items, hipcub::ArgMin(),
                               Acc(1, detail::max_of<T>()), false, detail::as_pair<Acc>(), stream);
  }
  template <typename In, typename Out>
  static hipError_t ArgMax(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           int num_items, hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> T;
    typedef KeyValuePair<int, T> Acc;
    return detail::reduce<Acc>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, num_items < 0 ? 0 : (size_t)num_items,
        hipcub::ArgMax(), Acc(1, detail::lowest_of<T>()), false, detail::as_pair<Acc>(), stream);
  }
};

/* Runs of equal keys (hipcub::Equality): Encode gives each run's key and
 * length, DeviceReduce::ReduceByKey each run's key and the reduction of its
 * values (in order). */
struct DeviceRunLengthEncode {
  template <typename In, typename UniqueOut, typename LengthsOut, typename NumRunsOut>
  static hipError_t Encode(void *d_temp_storage, size_t &temp_storage_bytes, In d_in,
                           UniqueOut d_unique_out, LengthsOut d_counts_out,
                           NumRunsOut d_num_runs_out, int num_items, hipStream_t stream = 0,
                           bool debug_synchronous = false) {
    return detail::runs<true>(d_temp_storage, temp_storage_bytes, d_in, d_unique_out, d_in,
                              d_counts_out, hipcub::Sum(), d_num_runs_out,
                              num_items < 0 ? 0 : (size_t)num_items, stream);
  }
};

struct DeviceScan {
  template <typename In, typename Out>
  static hipError_t InclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, In d_in,
                                 Out d_out, int num_items, hipStream_t stream = 0,
                                 bool debug_synchronous = false) {
    typedef detail::out_value_t<Out, In> Acc;
    return detail::scan<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                             num_items < 0 ? 0 : (size_t)num_items, hipcub::Sum(), false, false,
                             Acc(), stream);
  }
  template <typename In, typename Out>
  static hipError_t ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, In d_in,
                                 Out d_out, int num_items, hipStream_t stream = 0,
                                 bool debug_synchronous = false) {
    typedef detail::out_value_t<Out, In> Acc;
    return detail::scan<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                             num_items < 0 ? 0 : (size_t)num_items, hipcub::Sum(), true, true,
                             Acc(), stream);
  }
  template <typename In, typename Out, typename Op>
  static hipError_t InclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, In d_in,
                                  Out d_out, Op scan_op, int num_items, hipStream_t stream = 0,
                                  bool debug_synchronous = false) {
    typedef detail::out_value_t<Out, In> Acc;
    return detail::scan<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                             num_items < 0 ? 0 : (size_t)num_items, scan_op, false, false, Acc(),
                             stream);
  }
  template <typename In, typename Out, typename Op, typename T>
  static hipError_t ExclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, In d_in,
                                  Out d_out, Op scan_op, T init_value, int num_items,
                                  hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef std::decay_t<decltype(scan_op(init_value, *d_in))> Acc;
    return detail::scan<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                             num_items < 0 ? 0 : (size_t)num_items, scan_op, true, true,
                             Acc(init_value), stream);
  }
};

/* Keys: unsigned and signed integers, float, double. Values: any trivially
 * copyable type. The pointer forms keep d_keys_in intact (the alternate
 * buffers are in the temporary storage); the DoubleBuffer forms ping-pong
 * between the two buffers and set the selector to the one holding the
 * result. */
struct DeviceRadixSort {
  template <typename K, typename V>
  static hipError_t SortPairs(void *d_temp_storage, size_t &temp_storage_bytes, const K *d_keys_in,
                              K *d_keys_out, const V *d_values_in, V *d_values_out, int num_items,
                              int begin_bit = 0, int end_bit = sizeof(K) * 8,
                              hipStream_t stream = 0, bool debug_synchronous = false) {
    return detail::radix_sort<K, V>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                    d_values_in, d_values_out, nullptr, nullptr, true,
                                    num_items < 0 ? 0 : (size_t)num_items, begin_bit, end_bit,
                                    false, stream, nullptr);
  }
  template <typename K, typename V>
  static hipError_t SortPairsDescending(void *d_temp_storage, size_t &temp_storage_bytes,
                                        const K *d_keys_in, K *d_keys_out, const V *d_values_in,
                                        V *d_values_out, int num_items, int begin_bit = 0,
                                        int end_bit = sizeof(K) * 8, hipStream_t stream = 0,
                                        bool debug_synchronous = false) {
    return detail::radix_sort<K, V>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                    d_values_in, d_values_out, nullptr, nullptr, true,
                                    num_items < 0 ? 0 : (size_t)num_items, begin_bit, end_bit, true,
                                    stream, nullptr);
  }
  template <typename K>
  static hipError_t SortKeys(void *d_temp_storage, size_t &temp_storage_bytes, const K *d_keys_in,
                             K *d_keys_out, int num_items, int begin_bit = 0,
                             int end_bit = sizeof(K) * 8, hipStream_t stream = 0,
                             bool debug_synchronous = false) {
    return detail::radix_sort<K, char>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                       nullptr, nullptr, nullptr, nullptr, true,
                                       num_items < 0 ? 0 : (size_t)num_items, begin_bit, end_bit,
                                       false, stream, nullptr);
  }
  template <typename K>
  static hipError_t SortKeysDescending(void *d_temp_storage, size_t &temp_storage_bytes,
                                       const K *d_keys_in, K *d_keys_out, int num_items,
                                       int begin_bit = 0, int end_bit = sizeof(K) * 8,
                                       hipStream_t stream = 0, bool debug_synchronous = false) {
    return detail::radix_sort<K, char>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                       nullptr, nullptr, nullptr, nullptr, true,
                                       num_items < 0 ? 0 : (size_t)num_items, begin_bit, end_bit,
                                       true, stream, nullptr);
  }

  template <typename K, typename V>
  static hipError_t SortPairs(void *d_temp_storage, size_t &temp_storage_bytes,
                              DoubleBuffer<K> &d_keys, DoubleBuffer<V> &d_values, int num_items,
                              int begin_bit = 0, int end_bit = sizeof(K) * 8,
                              hipStream_t stream = 0, bool debug_synchronous = false) {
    return double_buffer(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                         begin_bit, end_bit, false, stream);
  }
  template <typename K, typename V>
  static hipError_t SortPairsDescending(void *d_temp_storage, size_t &temp_storage_bytes,
                                        DoubleBuffer<K> &d_keys, DoubleBuffer<V> &d_values,
                                        int num_items, int begin_bit = 0,
                                        int end_bit = sizeof(K) * 8, hipStream_t stream = 0,
                                        bool debug_synchronous = false) {
    return double_buffer(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                         begin_bit, end_bit, true, stream);
  }
  template <typename K>
  static hipError_t SortKeys(void *d_temp_storage, size_t &temp_storage_bytes,
                             DoubleBuffer<K> &d_keys, int num_items, int begin_bit = 0,
                             int end_bit = sizeof(K) * 8, hipStream_t stream = 0,
                             bool debug_synchronous = false) {
    return double_buffer<K, char>(d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items,
                                  begin_bit, end_bit, false, stream);
  }
  template <typename K>
  static hipError_t SortKeysDescending(void *d_temp_storage, size_t &temp_storage_bytes,
                                       DoubleBuffer<K> &d_keys, int num_items, int begin_bit = 0,
                                       int end_bit = sizeof(K) * 8, hipStream_t stream = 0,
                                       bool debug_synchronous = false) {
    return double_buffer<K, char>(d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items,
                                  begin_bit, end_bit, true, stream);
  }

private:
  /* Pass p reads buffer (selector + p) % 2 and writes the other; the result
   * is in Current() after the selector flips once per pass. */
  template <typename K, typename V>
  static hipError_t double_buffer(void *d_temp, size_t &bytes, DoubleBuffer<K> &keys,
                                  DoubleBuffer<V> *values, int num_items, int begin_bit,
                                  int end_bit, bool descending, hipStream_t stream) {
    int passes = 0;
    size_t n = num_items < 0 ? 0 : (size_t)num_items;
    if (begin_bit < 0 || end_bit > (int)sizeof(K) * 8 || begin_bit > end_bit)
      return hipErrorInvalidValue;
    int p = detail::div_up(end_bit - begin_bit, detail::RADIX_BITS);
    /* radix_sort's last pass writes keys_out: with an odd pass count the
     * output is the alternate buffer, with an even one the current. */
    K *k_out = (p % 2) ? keys.Alternate() : keys.Current();
    K *k_alt = (p % 2) ? keys.Current() : keys.Alternate();
    V *v_out = values ? ((p % 2) ? values->Alternate() : values->Current()) : nullptr;
    V *v_alt = values ? ((p % 2) ? values->Current() : values->Alternate()) : nullptr;
    hipError_t e = detail::radix_sort<K, V>(
        d_temp, bytes, keys.Current(), k_out, values ? values->Current() : nullptr, v_out, k_alt,
        v_alt, false, n, begin_bit, end_bit, descending, stream, &passes);
    if (e == hipSuccess && d_temp && (passes % 2)) {
      keys.selector ^= 1;
      if (values)
        values->selector ^= 1;
    }
    return e;
  }
};

struct DeviceSelect {
  template <typename In, typename Out, typename NumOut, typename Pred>
  static hipError_t If(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                       NumOut d_num_selected_out, int num_items, Pred select_op,
                       hipStream_t stream = 0, bool debug_synchronous = false) {
    return detail::select(d_temp_storage, temp_storage_bytes, d_in, detail::no_flags(), select_op,
                          detail::SELECT_IF, d_out, d_num_selected_out,
                          num_items < 0 ? 0 : (size_t)num_items, stream);
  }
  template <typename In, typename Flags, typename Out, typename NumOut>
  static hipError_t Flagged(void *d_temp_storage, size_t &temp_storage_bytes, In d_in,
                            Flags d_flags, Out d_out, NumOut d_num_selected_out, int num_items,
                            hipStream_t stream = 0, bool debug_synchronous = false) {
    return detail::select(d_temp_storage, temp_storage_bytes, d_in, d_flags, detail::no_pred(),
                          detail::SELECT_FLAGGED, d_out, d_num_selected_out,
                          num_items < 0 ? 0 : (size_t)num_items, stream);
  }
  /* The first item of each run of equal items. */
  template <typename In, typename Out, typename NumOut>
  static hipError_t Unique(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           NumOut d_num_selected_out, int num_items, hipStream_t stream = 0,
                           bool debug_synchronous = false) {
    return detail::select(d_temp_storage, temp_storage_bytes, d_in, detail::no_flags(),
                          detail::no_pred(), detail::SELECT_UNIQUE, d_out, d_num_selected_out,
                          num_items < 0 ? 0 : (size_t)num_items, stream);
  }
};

struct DeviceHistogram {
  /* num_levels - 1 equal bins over [lower_level, upper_level); samples
   * outside are not counted. d_histogram is overwritten. */
  template <typename In, typename Counter, typename Level, typename Offset>
  static hipError_t HistogramEven(void *d_temp_storage, size_t &temp_storage_bytes, In d_samples,
                                  Counter *d_histogram, int num_levels, Level lower_level,
                                  Level upper_level, Offset num_samples, hipStream_t stream = 0,
                                  bool debug_synchronous = false) {
    if (num_levels < 2 || !(lower_level < upper_level))
      return hipErrorInvalidValue;
    int bins = num_levels - 1;
    size_t n = num_samples < 0 ? 0 : (size_t)num_samples;
    size_t workers = detail::workers_for(n, 4096);
    size_t cap = ((size_t)1 << 22) / (size_t)bins;
    if (workers > cap)
      workers = cap < 1 ? 1 : cap;
    size_t seg = n == 0 ? 1 : detail::div_up(n, workers);
    workers = n == 0 ? 1 : detail::div_up(n, seg);
    void *p[1];
    hipError_t e = detail::carve(d_temp_storage, temp_storage_bytes, p,
                                 {workers * (size_t)bins * sizeof(Counter)});
    if (e != hipSuccess || !d_temp_storage)
      return e;
    Counter *rows = static_cast<Counter *>(p[0]);
    unsigned blocks = (unsigned)detail::div_up(workers, (size_t)detail::BLOCK);
    hipLaunchKernelGGL((detail::hist_private<In, Counter, Level>), dim3(blocks),
                       dim3(detail::BLOCK), 0, stream, d_samples, n, seg, workers, rows, bins,
                       lower_level, upper_level);
    unsigned hb = (unsigned)detail::div_up((size_t)bins, (size_t)detail::BLOCK);
    hipLaunchKernelGGL((detail::hist_sum<Counter>), dim3(hb > 1024 ? 1024 : hb),
                       dim3(detail::BLOCK), 0, stream, (const Counter *)rows, workers, bins,
                       d_histogram);
    return hipPeekAtLastError();
  }
};

/* Segment s is d_in[d_begin_offsets[s] .. d_end_offsets[s]); an empty
 * segment gives the initial value (ArgMin/ArgMax: {1, max} / {1, lowest});
 * ArgMin/ArgMax keys are offsets within the segment. */
struct DeviceSegmentedReduce {
  template <typename In, typename Out, typename BeginIt, typename EndIt, typename Op, typename T>
  static hipError_t Reduce(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets,
                           Op reduction_op, T initial_value, hipStream_t stream = 0,
                           bool debug_synchronous = false) {
    typedef std::decay_t<decltype(reduction_op(initial_value, *d_in))> Acc;
    return detail::segmented<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                  d_begin_offsets, d_end_offsets, reduction_op, Acc(initial_value),
                                  true, detail::as_value<Acc>(), stream);
  }
  template <typename In, typename Out, typename BeginIt, typename EndIt>
  static hipError_t Sum(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                        int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets,
                        hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::out_value_t<Out, In> Acc;
    return detail::segmented<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                  d_begin_offsets, d_end_offsets, hipcub::Sum(), Acc(), false,
                                  detail::as_value<Acc>(), stream);
  }
  template <typename In, typename Out, typename BeginIt, typename EndIt>
  static hipError_t Min(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                        int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets,
                        hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> Acc;
    return detail::segmented<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                  d_begin_offsets, d_end_offsets, hipcub::Min(),
                                  detail::max_of<Acc>(), false, detail::as_value<Acc>(), stream);
  }
  template <typename In, typename Out, typename BeginIt, typename EndIt>
  static hipError_t Max(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                        int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets,
                        hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> Acc;
    return detail::segmented<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                  d_begin_offsets, d_end_offsets, hipcub::Max(),
                                  detail::lowest_of<Acc>(), false, detail::as_value<Acc>(), stream);
  }
  template <typename In, typename Out, typename BeginIt, typename EndIt>
  static hipError_t ArgMin(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets,
                           hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> T;
    typedef KeyValuePair<int, T> Acc;
    return detail::segmented<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                  d_begin_offsets, d_end_offsets, hipcub::ArgMin(),
                                  Acc(1, detail::max_of<T>()), false, detail::as_pair<Acc>(),
                                  stream);
  }
  template <typename In, typename Out, typename BeginIt, typename EndIt>
  static hipError_t ArgMax(void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           int num_segments, BeginIt d_begin_offsets, EndIt d_end_offsets,
                           hipStream_t stream = 0, bool debug_synchronous = false) {
    typedef detail::value_t<In> T;
    typedef KeyValuePair<int, T> Acc;
    return detail::segmented<Acc>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                  d_begin_offsets, d_end_offsets, hipcub::ArgMax(),
                                  Acc(1, detail::lowest_of<T>()), false, detail::as_pair<Acc>(),
                                  stream);
  }
};

} // namespace hipcub

#endif
