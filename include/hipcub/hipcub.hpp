/* SPDX-License-Identifier: MIT */
/* hipCUB for anyhip: CUB's block, warp and device-wide primitives, written
 * once in HIP (C++17, header only) so that they run on every anyhip device:
 * the CPU device (both engine modes) and NVIDIA GPUs through hipcc's NVIDIA
 * pass. Names and signatures are hipCUB's (namespace hipcub); the device-wide
 * algorithms keep CUB's two-call temporary-storage protocol: a first call with
 * d_temp_storage == NULL sets temp_storage_bytes and does nothing else; the
 * second call, with that much device memory, does the work on `stream`
 * (asynchronously) and returns hipErrorInvalidValue if temp_storage_bytes is
 * too small, or the launch's error.
 *
 * How the device-wide algorithms work: W workers (threads), each owning a
 * contiguous segment of the input, so that on the CPU device a block's thread
 * loop streams through memory; partial results per worker or per block are
 * combined by a single-block pass (reduce, scan of the partials). Radix sort
 * is LSD with 8-bit digits, a per-worker histogram column and a scan of the
 * digit-major counts per pass. On a GPU, reduce, scan and radix sort are
 * GPU-shaped instead (device_gpu.hpp: vector loads over a grid of blocks,
 * a decoupled look-back scan, an onesweep radix sort). docs/libraries.md
 * says what is here and what is not. */
#ifndef HIPCUB_HIPCUB_HPP_
#define HIPCUB_HIPCUB_HPP_

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>

#define HIPCUB_VERSION 300000
#define HIPCUB_RUNTIME_FUNCTION __host__
#define HIPCUB_DEVICE __device__
#define HIPCUB_HOST_DEVICE __host__ __device__
#define HIPCUB_FORCEINLINE __forceinline__

/* The device's warp width for the default logical warp: 32 on NVIDIA, 64 on
 * the CPU device (its default warpSize; with ANYHIP_CPU_WARP_SIZE=32 give
 * WarpReduce/WarpScan a logical width of 32 or less). */
#ifndef HIPCUB_WARP_THREADS
#if defined(__CUDACC__)
#define HIPCUB_WARP_THREADS 32
#else
#define HIPCUB_WARP_THREADS 64
#endif
#endif
#define HIPCUB_DEVICE_WARP_THREADS HIPCUB_WARP_THREADS

namespace hipcub {

/* ---- utilities ------------------------------------------------------------ */

struct NullType {};

template <typename Key, typename Value> struct KeyValuePair {
  typedef Key Key_t;
  typedef Value Value_t;
  Key key;
  Value value;
  KeyValuePair() = default;
  HIPCUB_HOST_DEVICE KeyValuePair(const Key &k, const Value &v) : key(k), value(v) {}
  HIPCUB_HOST_DEVICE bool operator!=(const KeyValuePair &b) const {
    return key != b.key || value != b.value;
  }
  HIPCUB_HOST_DEVICE bool operator==(const KeyValuePair &b) const {
    return key == b.key && value == b.value;
  }
};

/* Uninitialized storage for T: TempStorage types are raw bytes, so that a
 * __shared__ one needs no constructor (a thread_local on the CPU device). */
template <typename T> struct Uninitialized {
  alignas(alignof(T)) unsigned char storage[sizeof(T)];
  HIPCUB_HOST_DEVICE T &Alias() { return *reinterpret_cast<T *>(storage); }
};

template <typename T> struct DoubleBuffer {
  T *d_buffers[2];
  int selector;
  HIPCUB_HOST_DEVICE DoubleBuffer() : d_buffers{nullptr, nullptr}, selector(0) {}
  HIPCUB_HOST_DEVICE DoubleBuffer(T *current, T *alternate)
      : d_buffers{current, alternate}, selector(0) {}
  HIPCUB_HOST_DEVICE T *Current() { return d_buffers[selector]; }
  HIPCUB_HOST_DEVICE T *Alternate() { return d_buffers[selector ^ 1]; }
};

struct Sum {
  template <typename T, typename U>
  HIPCUB_HOST_DEVICE auto operator()(const T &a, const U &b) const -> decltype(a + b) {
    return a + b;
  }
};
struct Min {
  template <typename T> HIPCUB_HOST_DEVICE T operator()(const T &a, const T &b) const {
    return b < a ? b : a;
  }
};
struct Max {
  template <typename T> HIPCUB_HOST_DEVICE T operator()(const T &a, const T &b) const {
    return a < b ? b : a;
  }
};
/* The smaller value; of equal values, the lower key (index). */
struct ArgMin {
  template <typename K, typename V>
  HIPCUB_HOST_DEVICE KeyValuePair<K, V> operator()(const KeyValuePair<K, V> &a,
                                                   const KeyValuePair<K, V> &b) const {
    return (b.value < a.value || (!(a.value < b.value) && b.key < a.key)) ? b : a;
  }
};
struct ArgMax {
  template <typename K, typename V>
  HIPCUB_HOST_DEVICE KeyValuePair<K, V> operator()(const KeyValuePair<K, V> &a,
                                                   const KeyValuePair<K, V> &b) const {
    return (a.value < b.value || (!(b.value < a.value) && b.key < a.key)) ? b : a;
  }
};
struct Equality {
  template <typename T> HIPCUB_HOST_DEVICE bool operator()(const T &a, const T &b) const {
    return a == b;
  }
};
struct Inequality {
  template <typename T> HIPCUB_HOST_DEVICE bool operator()(const T &a, const T &b) const {
    return !(a == b);
  }
};

/* Counting and transform iterators, as CUB's (enough for the device
 * algorithms' input). */
template <typename T, typename OffsetT = std::ptrdiff_t> class CountingInputIterator {
public:
  typedef CountingInputIterator self_type;
  typedef OffsetT difference_type;
  typedef T value_type;
  typedef T *pointer;
  typedef T reference;
  typedef std::random_access_iterator_tag iterator_category;
  HIPCUB_HOST_DEVICE CountingInputIterator(const T &v) : val(v) {}
  HIPCUB_HOST_DEVICE T operator*() const { return val; }
  HIPCUB_HOST_DEVICE T operator[](difference_type n) const { return (T)(val + n); }
  HIPCUB_HOST_DEVICE self_type operator+(difference_type n) const { return self_type(val + n); }
  HIPCUB_HOST_DEVICE self_type &operator++() {
    ++val;
    return *this;
  }

private:
  T val;
};

template <typename ValueType, typename ConversionOp, typename InputIteratorT,
          typename OffsetT = std::ptrdiff_t>
class TransformInputIterator {
public:
  typedef TransformInputIterator self_type;
  typedef OffsetT difference_type;
  typedef ValueType value_type;
  typedef ValueType *pointer;
  typedef ValueType reference;
  typedef std::random_access_iterator_tag iterator_category;
  HIPCUB_HOST_DEVICE TransformInputIterator(InputIteratorT it, ConversionOp op)
      : input(it), conversion_op(op) {}
  HIPCUB_HOST_DEVICE ValueType operator*() const { return conversion_op(*input); }
  HIPCUB_HOST_DEVICE ValueType operator[](difference_type n) const {
    return conversion_op(input[n]);
  }
  HIPCUB_HOST_DEVICE self_type operator+(difference_type n) const {
    return self_type(input + n, conversion_op);
  }

private:
  InputIteratorT input;
  ConversionOp conversion_op;
};

namespace detail {

/* The flat thread index in the block (x fastest). */
HIPCUB_DEVICE inline int flat_tid() {
  return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

template <typename It> using value_t = typename std::iterator_traits<It>::value_type;

/* The output iterator's value type, or the input's where it is void. */
template <typename OutIt, typename InIt>
using out_value_t =
    std::conditional_t<std::is_void<value_t<OutIt>>::value, value_t<InIt>, value_t<OutIt>>;

} // namespace detail

/* ---- warp-level ----------------------------------------------------------- */

/* Lane i of a logical warp of LOGICAL_WARP_THREADS (a power of two, at most
 * the device's warp) is flat thread id % LOGICAL_WARP_THREADS; every lane of
 * the logical warp calls, each warp with its own TempStorage. */
template <typename T, int LOGICAL_WARP_THREADS = HIPCUB_WARP_THREADS, int ARCH = 0>
class WarpReduce {
  struct Storage {
    T v[LOGICAL_WARP_THREADS];
  };

public:
  struct TempStorage : Uninitialized<Storage> {};

  HIPCUB_DEVICE WarpReduce(TempStorage &t)
      : s(t.Alias()), lane(detail::flat_tid() % LOGICAL_WARP_THREADS) {}

  /* The reduction of the first valid_items lanes, in lane 0. */
  template <typename Op> HIPCUB_DEVICE T Reduce(T input, Op op, int valid_items) {
    T x = input;
    s.v[lane] = x;
    __syncwarp();
    for (int off = 1; off < LOGICAL_WARP_THREADS; off *= 2) {
      T y = x;
      if ((lane & (2 * off - 1)) == 0 && lane + off < valid_items)
        y = op(x, s.v[lane + off]);
      __syncwarp();
      x = y;
      s.v[lane] = x;
      __syncwarp();
    }
    return x;
  }
  template <typename Op> HIPCUB_DEVICE T Reduce(T input, Op op) {
    return Reduce(input, op, LOGICAL_WARP_THREADS);
  }
  HIPCUB_DEVICE T Sum(T input) { return Reduce(input, hipcub::Sum()); }
  HIPCUB_DEVICE T Sum(T input, int valid_items) {
    return Reduce(input, hipcub::Sum(), valid_items);
  }

private:
  Storage &s;
  int lane;
};

template <typename T, int LOGICAL_WARP_THREADS = HIPCUB_WARP_THREADS, int ARCH = 0> class WarpScan {
  struct Storage {
    T v[LOGICAL_WARP_THREADS];
  };

public:
  struct TempStorage : Uninitialized<Storage> {};

  HIPCUB_DEVICE WarpScan(TempStorage &t)
      : s(t.Alias()), lane(detail::flat_tid() % LOGICAL_WARP_THREADS) {}

  template <typename Op>
  HIPCUB_DEVICE void InclusiveScan(T input, T &output, Op op, T &warp_aggregate) {
    T x = input;
    s.v[lane] = x;
    __syncwarp();
    for (int off = 1; off < LOGICAL_WARP_THREADS; off *= 2) {
      T y = x;
      if (lane >= off)
        y = op(s.v[lane - off], x);
      __syncwarp();
      x = y;
      s.v[lane] = x;
      __syncwarp();
    }
    output = x;
    warp_aggregate = s.v[LOGICAL_WARP_THREADS - 1];
    __syncwarp();
  }
  template <typename Op> HIPCUB_DEVICE void InclusiveScan(T input, T &output, Op op) {
    T agg;
    InclusiveScan(input, output, op, agg);
  }
  HIPCUB_DEVICE void InclusiveSum(T input, T &output) {
    InclusiveScan(input, output, hipcub::Sum());
  }
  HIPCUB_DEVICE void InclusiveSum(T input, T &output, T &warp_aggregate) {
    InclusiveScan(input, output, hipcub::Sum(), warp_aggregate);
  }

  template <typename Op>
  HIPCUB_DEVICE void ExclusiveScan(T input, T &output, T initial_value, Op op, T &warp_aggregate) {
    T incl;
    InclusiveScan(input, incl, op, warp_aggregate);
    s.v[lane] = incl;
    __syncwarp();
    output = lane == 0 ? initial_value : op(initial_value, s.v[lane - 1]);
    __syncwarp();
  }
  template <typename Op>
  HIPCUB_DEVICE void ExclusiveScan(T input, T &output, T initial_value, Op op) {
    T agg;
    ExclusiveScan(input, output, initial_value, op, agg);
  }
  /* Without an initial value lane 0's output is undefined (CUB); here it is
   * its input. */
  template <typename Op> HIPCUB_DEVICE void ExclusiveScan(T input, T &output, Op op) {
    T incl, agg;
    InclusiveScan(input, incl, op, agg);
    s.v[lane] = incl;
    __syncwarp();
    output = lane == 0 ? input : s.v[lane - 1];
    __syncwarp();
  }
  HIPCUB_DEVICE void ExclusiveSum(T input, T &output) {
    ExclusiveScan(input, output, T(), hipcub::Sum());
  }
  HIPCUB_DEVICE void ExclusiveSum(T input, T &output, T &warp_aggregate) {
    ExclusiveScan(input, output, T(), hipcub::Sum(), warp_aggregate);
  }
  /* src_lane's input, in every lane. */
  HIPCUB_DEVICE T Broadcast(T input, unsigned int src_lane) {
    if ((unsigned)lane == src_lane)
      s.v[0] = input;
    __syncwarp();
    T r = s.v[0];
    __syncwarp();
    return r;
  }

private:
  Storage &s;
  int lane;
};

/* ---- block-level ---------------------------------------------------------- */

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

/* Every algorithm gives CUB's results; the algorithm chosen does not change
 * how it is done here (one tree over shared memory). The result is in
 * thread 0. */
template <typename T, int BLOCK_DIM_X,
          BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockReduce {
  static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  struct Storage {
    T v[THREADS];
  };

public:
  struct TempStorage : Uninitialized<Storage> {};

  HIPCUB_DEVICE BlockReduce(TempStorage &t) : s(t.Alias()), tid(detail::flat_tid()) {}

  /* The reduction of the first num_valid threads' inputs, in thread 0. */
  template <typename Op> HIPCUB_DEVICE T Reduce(T input, Op op, int num_valid) {
    s.v[tid] = input;
    __syncthreads();
    for (int off = 1; off < THREADS; off *= 2) {
      if ((tid & (2 * off - 1)) == 0 && tid + off < num_valid)
        s.v[tid] = op(s.v[tid], s.v[tid + off]);
      __syncthreads();
    }
    T r = s.v[0];
    __syncthreads();
    return r;
  }
  template <typename Op> HIPCUB_DEVICE T Reduce(T input, Op op) {
    return Reduce(input, op, THREADS);
  }
  template <int N, typename Op> HIPCUB_DEVICE T Reduce(T (&inputs)[N], Op op) {
    T x = inputs[0];
    for (int i = 1; i < N; i++)
      x = op(x, inputs[i]);
    return Reduce(x, op, THREADS);
  }
  HIPCUB_DEVICE T Sum(T input) { return Reduce(input, hipcub::Sum()); }
  HIPCUB_DEVICE T Sum(T input, int num_valid) { return Reduce(input, hipcub::Sum(), num_valid); }
  template <int N> HIPCUB_DEVICE T Sum(T (&inputs)[N]) { return Reduce(inputs, hipcub::Sum()); }

private:
  Storage &s;
  int tid;
};

template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockScan {
  static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  struct Storage {
    T v[THREADS];
    T prefix;
  };

  /* Inclusive scan of one value per thread; aggregate = the block's total. */
  template <typename Op> HIPCUB_DEVICE T inclusive(T x, Op op, T &aggregate) {
    s.v[tid] = x;
    __syncthreads();
    for (int off = 1; off < THREADS; off *= 2) {
      T y = x;
      if (tid >= off)
        y = op(s.v[tid - off], x);
      __syncthreads();
      x = y;
      s.v[tid] = x;
      __syncthreads();
    }
    aggregate = s.v[THREADS - 1];
    return x;
  }
  /* The exclusive prefix of this thread (undefined in thread 0 unless an
   * initial value is given), and the aggregate. */
  template <typename Op> HIPCUB_DEVICE T exclusive(T x, Op op, T &aggregate, bool &has_prefix) {
    inclusive(x, op, aggregate);
    has_prefix = tid > 0;
    T r = tid > 0 ? s.v[tid - 1] : x;
    __syncthreads();
    return r;
  }
  /* A prefix callback, called by the first warp (32 threads), with the
   * block's aggregate: thread 0's return value is the prefix for the block. */
  template <typename PrefixOp> HIPCUB_DEVICE T call_prefix(PrefixOp &prefix_op, T aggregate) {
    if (tid < 32) {
      T p = prefix_op(aggregate);
      if (tid == 0)
        s.prefix = p;
    }
    __syncthreads();
    T p = s.prefix;
    __syncthreads();
    return p;
  }

public:
  struct TempStorage : Uninitialized<Storage> {};

  HIPCUB_DEVICE BlockScan(TempStorage &t) : s(t.Alias()), tid(detail::flat_tid()) {}

  /* One item per thread. */
  template <typename Op>
  HIPCUB_DEVICE void InclusiveScan(T input, T &output, Op op, T &block_aggregate) {
    output = inclusive(input, op, block_aggregate);
    __syncthreads();
  }
  template <typename Op> HIPCUB_DEVICE void InclusiveScan(T input, T &output, Op op) {
    T agg;
    InclusiveScan(input, output, op, agg);
  }
  template <typename Op, typename PrefixOp>
  HIPCUB_DEVICE void InclusiveScan(T input, T &output, Op op, PrefixOp &prefix_op) {
    T agg;
    T x = inclusive(input, op, agg);
    __syncthreads();
    T p = call_prefix(prefix_op, agg);
    output = op(p, x);
  }
  HIPCUB_DEVICE void InclusiveSum(T input, T &output) {
    InclusiveScan(input, output, hipcub::Sum());
  }
  HIPCUB_DEVICE void InclusiveSum(T input, T &output, T &block_aggregate) {
    InclusiveScan(input, output, hipcub::Sum(), block_aggregate);
  }
  template <typename PrefixOp>
  HIPCUB_DEVICE void InclusiveSum(T input, T &output, PrefixOp &prefix_op) {
    InclusiveScan(input, output, hipcub::Sum(), prefix_op);
  }

  template <typename Op>
  HIPCUB_DEVICE void ExclusiveScan(T input, T &output, T initial_value, Op op, T &block_aggregate) {
    bool has;
    T p = exclusive(input, op, block_aggregate, has);
    output = has ? op(initial_value, p) : initial_value;
  }
  template <typename Op>
  HIPCUB_DEVICE void ExclusiveScan(T input, T &output, T initial_value, Op op) {
    T agg;
    ExclusiveScan(input, output, initial_value, op, agg);
  }
  template <typename Op, typename PrefixOp>
  HIPCUB_DEVICE void ExclusiveScan(T input, T &output, Op op, PrefixOp &prefix_op) {
    bool has;
    T agg;
    T p = exclusive(input, op, agg, has);
    T q = call_prefix(prefix_op, agg);
    output = has ? op(q, p) : q;
  }
  HIPCUB_DEVICE void ExclusiveSum(T input, T &output) {
    ExclusiveScan(input, output, T(), hipcub::Sum());
  }
  HIPCUB_DEVICE void ExclusiveSum(T input, T &output, T &block_aggregate) {
    ExclusiveScan(input, output, T(), hipcub::Sum(), block_aggregate);
  }
  template <typename PrefixOp>
  HIPCUB_DEVICE void ExclusiveSum(T input, T &output, PrefixOp &prefix_op) {
    ExclusiveScan(input, output, hipcub::Sum(), prefix_op);
  }

  /* ITEMS_PER_THREAD items per thread, in blocked arrangement. */
  template <int N, typename Op>
  HIPCUB_DEVICE void InclusiveScan(T (&input)[N], T (&output)[N], Op op, T &block_aggregate) {
    T x = input[0];
    for (int i = 1; i < N; i++)
      x = op(x, input[i]);
    bool has;
    T p = exclusive(x, op, block_aggregate, has);
    T run = has ? op(p, input[0]) : input[0];
    output[0] = run;
    for (int i = 1; i < N; i++) {
      run = op(run, input[i]);
      output[i] = run;
    }
  }
  template <int N, typename Op>
  HIPCUB_DEVICE void InclusiveScan(T (&input)[N], T (&output)[N], Op op) {
    T agg;
    InclusiveScan(input, output, op, agg);
  }
  template <int N> HIPCUB_DEVICE void InclusiveSum(T (&input)[N], T (&output)[N]) {
    InclusiveScan(input, output, hipcub::Sum());
  }
  template <int N>
  HIPCUB_DEVICE void InclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate) {
    InclusiveScan(input, output, hipcub::Sum(), block_aggregate);
  }
  template <int N, typename Op>
  HIPCUB_DEVICE void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op,
                                   T &block_aggregate) {
    T x = input[0];
    for (int i = 1; i < N; i++)
      x = op(x, input[i]);
    bool has;
    T p = exclusive(x, op, block_aggregate, has);
    T run = has ? op(initial_value, p) : initial_value;
    for (int i = 0; i < N; i++) {
      T in = input[i];
      output[i] = run;
      run = op(run, in);
    }
  }
  template <int N, typename Op>
  HIPCUB_DEVICE void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op) {
    T agg;
    ExclusiveScan(input, output, initial_value, op, agg);
  }
  template <int N> HIPCUB_DEVICE void ExclusiveSum(T (&input)[N], T (&output)[N]) {
    ExclusiveScan(input, output, T(), hipcub::Sum());
  }
  template <int N>
  HIPCUB_DEVICE void ExclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate) {
    ExclusiveScan(input, output, T(), hipcub::Sum(), block_aggregate);
  }

private:
  Storage &s;
  int tid;
};

/* Direct loads and stores: blocked (thread t has items t*N .. t*N+N-1) and
 * striped (thread t has items t, t + BLOCK_THREADS, ...). */
template <typename T, int N, typename InputIteratorT>
HIPCUB_DEVICE void LoadDirectBlocked(int linear_tid, InputIteratorT it, T (&items)[N]) {
  for (int i = 0; i < N; i++)
    items[i] = it[linear_tid * N + i];
}
template <typename T, int N, typename InputIteratorT>
HIPCUB_DEVICE void LoadDirectBlocked(int linear_tid, InputIteratorT it, T (&items)[N],
                                     int valid_items) {
  for (int i = 0; i < N; i++)
    if (linear_tid * N + i < valid_items)
      items[i] = it[linear_tid * N + i];
}
template <typename T, typename D, int N, typename InputIteratorT>
HIPCUB_DEVICE void LoadDirectBlocked(int linear_tid, InputIteratorT it, T (&items)[N],
                                     int valid_items, D oob_default) {
  for (int i = 0; i < N; i++)
    items[i] = (T)oob_default;
  LoadDirectBlocked(linear_tid, it, items, valid_items);
}
template <int BLOCK_THREADS, typename T, int N, typename InputIteratorT>
HIPCUB_DEVICE void LoadDirectStriped(int linear_tid, InputIteratorT it, T (&items)[N]) {
  for (int i = 0; i < N; i++)
    items[i] = it[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, typename T, int N, typename InputIteratorT>
HIPCUB_DEVICE void LoadDirectStriped(int linear_tid, InputIteratorT it, T (&items)[N],
                                     int valid_items) {
  for (int i = 0; i < N; i++)
    if (i * BLOCK_THREADS + linear_tid < valid_items)
      items[i] = it[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, typename T, typename D, int N, typename InputIteratorT>
HIPCUB_DEVICE void LoadDirectStriped(int linear_tid, InputIteratorT it, T (&items)[N],
                                     int valid_items, D oob_default) {
  for (int i = 0; i < N; i++)
    items[i] = (T)oob_default;
  LoadDirectStriped<BLOCK_THREADS>(linear_tid, it, items, valid_items);
}
template <typename T, int N, typename OutputIteratorT>
HIPCUB_DEVICE void StoreDirectBlocked(int linear_tid, OutputIteratorT it, T (&items)[N]) {
  for (int i = 0; i < N; i++)
    it[linear_tid * N + i] = items[i];
}
template <typename T, int N, typename OutputIteratorT>
HIPCUB_DEVICE void StoreDirectBlocked(int linear_tid, OutputIteratorT it, T (&items)[N],
                                      int valid_items) {
  for (int i = 0; i < N; i++)
    if (linear_tid * N + i < valid_items)
      it[linear_tid * N + i] = items[i];
}
template <int BLOCK_THREADS, typename T, int N, typename OutputIteratorT>
HIPCUB_DEVICE void StoreDirectStriped(int linear_tid, OutputIteratorT it, T (&items)[N]) {
  for (int i = 0; i < N; i++)
    it[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <int BLOCK_THREADS, typename T, int N, typename OutputIteratorT>
HIPCUB_DEVICE void StoreDirectStriped(int linear_tid, OutputIteratorT it, T (&items)[N],
                                      int valid_items) {
  for (int i = 0; i < N; i++)
    if (i * BLOCK_THREADS + linear_tid < valid_items)
      it[i * BLOCK_THREADS + linear_tid] = items[i];
}

/* BLOCK_LOAD_STRIPED gives a striped arrangement; every other algorithm a
 * blocked one (the transposing ones read directly: same result). */
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockLoad {
  static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
  struct TempStorage : Uninitialized<NullType> {};
  HIPCUB_DEVICE BlockLoad() : tid(detail::flat_tid()) {}
  HIPCUB_DEVICE BlockLoad(TempStorage &) : tid(detail::flat_tid()) {}
  template <typename InputIteratorT>
  HIPCUB_DEVICE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD]) {
    if (ALGORITHM == BLOCK_LOAD_STRIPED)
      LoadDirectStriped<THREADS>(tid, it, items);
    else
      LoadDirectBlocked(tid, it, items);
  }
  template <typename InputIteratorT>
  HIPCUB_DEVICE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if (ALGORITHM == BLOCK_LOAD_STRIPED)
      LoadDirectStriped<THREADS>(tid, it, items, valid_items);
    else
      LoadDirectBlocked(tid, it, items, valid_items);
  }
  template <typename InputIteratorT, typename D>
  HIPCUB_DEVICE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items,
                          D oob_default) {
    if (ALGORITHM == BLOCK_LOAD_STRIPED)
      LoadDirectStriped<THREADS>(tid, it, items, valid_items, oob_default);
    else
      LoadDirectBlocked(tid, it, items, valid_items, oob_default);
  }

private:
  int tid;
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockStore {
  static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
  struct TempStorage : Uninitialized<NullType> {};
  HIPCUB_DEVICE BlockStore() : tid(detail::flat_tid()) {}
  HIPCUB_DEVICE BlockStore(TempStorage &) : tid(detail::flat_tid()) {}
  template <typename OutputIteratorT>
  HIPCUB_DEVICE void Store(OutputIteratorT it, T (&items)[ITEMS_PER_THREAD]) {
    if (ALGORITHM == BLOCK_STORE_STRIPED)
      StoreDirectStriped<THREADS>(tid, it, items);
    else
      StoreDirectBlocked(tid, it, items);
  }
  template <typename OutputIteratorT>
  HIPCUB_DEVICE void Store(OutputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if (ALGORITHM == BLOCK_STORE_STRIPED)
      StoreDirectStriped<THREADS>(tid, it, items, valid_items);
    else
      StoreDirectBlocked(tid, it, items, valid_items);
  }

private:
  int tid;
};

/* Rearranges items among a block's threads through shared memory. */
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockExchange {
  static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  struct Storage {
    T v[THREADS * ITEMS_PER_THREAD];
  };

public:
  struct TempStorage : Uninitialized<Storage> {};
  HIPCUB_DEVICE BlockExchange(TempStorage &t) : s(t.Alias()), tid(detail::flat_tid()) {}

  template <typename U>
  HIPCUB_DEVICE void StripedToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                      U (&output)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      s.v[i * THREADS + tid] = input[i];
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      output[i] = s.v[tid * ITEMS_PER_THREAD + i];
    __syncthreads();
  }
  template <typename U>
  HIPCUB_DEVICE void BlockedToStriped(const T (&input)[ITEMS_PER_THREAD],
                                      U (&output)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      s.v[tid * ITEMS_PER_THREAD + i] = input[i];
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      output[i] = s.v[i * THREADS + tid];
    __syncthreads();
  }
  /* Item i goes to position ranks[i] of the block (0 .. THREADS * N - 1). */
  template <typename U, typename OffsetT>
  HIPCUB_DEVICE void ScatterToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                      U (&output)[ITEMS_PER_THREAD],
                                      OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      s.v[ranks[i]] = input[i];
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      output[i] = s.v[tid * ITEMS_PER_THREAD + i];
    __syncthreads();
  }
  template <typename U, typename OffsetT>
  HIPCUB_DEVICE void ScatterToStriped(const T (&input)[ITEMS_PER_THREAD],
                                      U (&output)[ITEMS_PER_THREAD],
                                      OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      s.v[ranks[i]] = input[i];
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
      output[i] = s.v[i * THREADS + tid];
    __syncthreads();
  }
  /* In-place forms. */
  HIPCUB_DEVICE void StripedToBlocked(T (&items)[ITEMS_PER_THREAD]) {
    StripedToBlocked(items, items);
  }
  HIPCUB_DEVICE void BlockedToStriped(T (&items)[ITEMS_PER_THREAD]) {
    BlockedToStriped(items, items);
  }
  template <typename OffsetT>
  HIPCUB_DEVICE void ScatterToBlocked(T (&items)[ITEMS_PER_THREAD],
                                      OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    ScatterToBlocked(items, items, ranks);
  }
  template <typename OffsetT>
  HIPCUB_DEVICE void ScatterToStriped(T (&items)[ITEMS_PER_THREAD],
                                      OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    ScatterToStriped(items, items, ranks);
  }

private:
  Storage &s;
  int tid;
};

namespace detail {

/* Radix sort's key bits: an unsigned integer whose order is the key's
 * (CUB's "twiddling"): signed integers flip the sign bit; floating point
 * flips the sign bit of positives and every bit of negatives. */
template <typename K, typename = void> struct radix_traits;
template <typename K>
struct radix_traits<K, std::enable_if_t<std::is_integral<K>::value && std::is_unsigned<K>::value>> {
  typedef K bits_t;
  HIPCUB_HOST_DEVICE static bits_t in(K k) { return k; }
  HIPCUB_HOST_DEVICE static K out(bits_t b) { return b; }
};
template <typename K>
struct radix_traits<K, std::enable_if_t<std::is_integral<K>::value && std::is_signed<K>::value>> {
  typedef std::make_unsigned_t<K> bits_t;
  static constexpr bits_t SIGN = (bits_t)((bits_t)1 << (sizeof(K) * 8 - 1));
  HIPCUB_HOST_DEVICE static bits_t in(K k) { return (bits_t)((bits_t)k ^ SIGN); }
  HIPCUB_HOST_DEVICE static K out(bits_t b) { return (K)(bits_t)(b ^ SIGN); }
};
template <typename K, typename B> struct radix_float {
  typedef B bits_t;
  static constexpr B SIGN = (B)1 << (sizeof(B) * 8 - 1);
  HIPCUB_HOST_DEVICE static bits_t in(K k) {
    B b;
    memcpy(&b, &k, sizeof b);
    return (b & SIGN) ? (B)~b : (B)(b | SIGN);
  }
  HIPCUB_HOST_DEVICE static K out(bits_t b) {
    b = (b & SIGN) ? (B)(b & ~SIGN) : (B)~b;
    K k;
    memcpy(&k, &b, sizeof b);
    return k;
  }
};
template <> struct radix_traits<float> : radix_float<float, uint32_t> {};
template <> struct radix_traits<double> : radix_float<double, uint64_t> {};

} // namespace detail

/* A stable sort of the block's THREADS * ITEMS_PER_THREAD keys (and values),
 * RADIX_BITS bits at a time through shared memory. Sort* leave the keys in a
 * blocked arrangement, *BlockedToStriped in a striped one. */
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType,
          int RADIX_BITS = 4, bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          hipSharedMemConfig SMEM_CONFIG = hipSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockRadixSort {
  static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int N = ITEMS_PER_THREAD;
  static constexpr int BUCKETS = 1 << RADIX_BITS;
  static constexpr bool PAIRS = !std::is_same<ValueT, NullType>::value;
  typedef detail::radix_traits<KeyT> traits;
  typedef typename traits::bits_t bits_t;
  struct Storage {
    bits_t keys[THREADS * N];
    std::conditional_t<PAIRS, ValueT, char> values[PAIRS ? THREADS * N : 1];
    unsigned int counts[BUCKETS * THREADS];
    unsigned int partial[THREADS];
  };

  /* One pass: a stable counting sort of the block's items on `bit`'s digit. */
  HIPCUB_DEVICE void pass(bits_t (&k)[N], ValueT *v, int bit, int bits, bool descending) {
    bits_t mask = (bits_t)(((bits_t)1 << bits) - 1);
    unsigned int local[BUCKETS];
    for (int d = 0; d < BUCKETS; d++)
      local[d] = 0;
    for (int i = 0; i < N; i++) {
      bits_t key = descending ? (bits_t)~k[i] : k[i];
      local[(key >> bit) & mask]++;
    }
    for (int d = 0; d < BUCKETS; d++)
      s.counts[d * THREADS + tid] = local[d];
    __syncthreads();
    /* Exclusive scan of counts (digit-major): thread t scans its BUCKETS
     * entries, then the threads' totals. */
    unsigned int sum = 0;
    for (int j = 0; j < BUCKETS; j++)
      sum += s.counts[tid * BUCKETS + j];
    s.partial[tid] = sum;
    __syncthreads();
    if (tid == 0) {
      unsigned int run = 0;
      for (int t = 0; t < THREADS; t++) {
        unsigned int c = s.partial[t];
        s.partial[t] = run;
        run += c;
      }
    }
    __syncthreads();
    unsigned int run = s.partial[tid];
    for (int j = 0; j < BUCKETS; j++) {
      unsigned int c = s.counts[tid * BUCKETS + j];
      s.counts[tid * BUCKETS + j] = run;
      run += c;
    }
    __syncthreads();
    for (int d = 0; d < BUCKETS; d++)
      local[d] = s.counts[d * THREADS + tid];
    for (int i = 0; i < N; i++) {
      bits_t key = descending ? (bits_t)~k[i] : k[i];
      unsigned int pos = local[(key >> bit) & mask]++;
      s.keys[pos] = k[i];
      if (PAIRS)
        store_value(pos, v, i);
    }
    __syncthreads();
    for (int i = 0; i < N; i++) {
      k[i] = s.keys[tid * N + i];
      if (PAIRS)
        load_value(tid * N + i, v, i);
    }
    __syncthreads();
  }
  template <typename V = ValueT> HIPCUB_DEVICE void store_value(unsigned pos, V *v, int i) {
    if constexpr (PAIRS)
      s.values[pos] = v[i];
  }
  template <typename V = ValueT> HIPCUB_DEVICE void load_value(unsigned pos, V *v, int i) {
    if constexpr (PAIRS)
      v[i] = s.values[pos];
  }

  HIPCUB_DEVICE void sort(KeyT (&keys)[N], ValueT *values, int begin_bit, int end_bit,
                          bool descending, bool striped) {
    bits_t k[N];
    for (int i = 0; i < N; i++)
      k[i] = traits::in(keys[i]);
    for (int bit = begin_bit; bit < end_bit; bit += RADIX_BITS) {
      int bits = end_bit - bit < RADIX_BITS ? end_bit - bit : RADIX_BITS;
      pass(k, values, bit, bits, descending);
    }
    if (striped) {
      for (int i = 0; i < N; i++) {
        s.keys[tid * N + i] = k[i];
        if (PAIRS)
          store_value(tid * N + i, values, i);
      }
      __syncthreads();
      for (int i = 0; i < N; i++) {
        k[i] = s.keys[i * THREADS + tid];
        if (PAIRS)
          load_value(i * THREADS + tid, values, i);
      }
      __syncthreads();
    }
    for (int i = 0; i < N; i++)
      keys[i] = traits::out(k[i]);
  }

public:
  struct TempStorage : Uninitialized<Storage> {};
  HIPCUB_DEVICE BlockRadixSort(TempStorage &t) : s(t.Alias()), tid(detail::flat_tid()) {}

  HIPCUB_DEVICE void Sort(KeyT (&keys)[N], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, false, false);
  }
  HIPCUB_DEVICE void Sort(KeyT (&keys)[N], ValueT (&values)[N], int begin_bit = 0,
                          int end_bit = sizeof(KeyT) * 8) {
    sort(keys, values, begin_bit, end_bit, false, false);
  }
  HIPCUB_DEVICE void SortDescending(KeyT (&keys)[N], int begin_bit = 0,
                                    int end_bit = sizeof(KeyT) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, true, false);
  }
  HIPCUB_DEVICE void SortDescending(KeyT (&keys)[N], ValueT (&values)[N], int begin_bit = 0,
                                    int end_bit = sizeof(KeyT) * 8) {
    sort(keys, values, begin_bit, end_bit, true, false);
  }
  HIPCUB_DEVICE void SortBlockedToStriped(KeyT (&keys)[N], int begin_bit = 0,
                                          int end_bit = sizeof(KeyT) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, false, true);
  }
  HIPCUB_DEVICE void SortBlockedToStriped(KeyT (&keys)[N], ValueT (&values)[N], int begin_bit = 0,
                                          int end_bit = sizeof(KeyT) * 8) {
    sort(keys, values, begin_bit, end_bit, false, true);
  }
  HIPCUB_DEVICE void SortDescendingBlockedToStriped(KeyT (&keys)[N], int begin_bit = 0,
                                                    int end_bit = sizeof(KeyT) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, true, true);
  }
  HIPCUB_DEVICE void SortDescendingBlockedToStriped(KeyT (&keys)[N], ValueT (&values)[N],
                                                    int begin_bit = 0,
                                                    int end_bit = sizeof(KeyT) * 8) {
    sort(keys, values, begin_bit, end_bit, true, true);
  }

private:
  Storage &s;
  int tid;
};

} // namespace hipcub

#include "device.hpp"

#endif
