// SPDX-License-Identifier: MIT
// hipCUB's device-wide algorithms (hipcub/hipcub.hpp) against the C++
// standard library on the host: DeviceReduce (Sum, Min, Max, ArgMin, ArgMax,
// Reduce with an operator and initial value) vs std::accumulate and
// std::min_element; DeviceScan vs std::inclusive_scan/exclusive_scan;
// DeviceRadixSort (keys and pairs, descending, bit ranges, DoubleBuffer) vs
// std::stable_sort; DeviceSelect (If, Flagged, Unique) vs std::copy_if and
// std::unique; DeviceHistogram::HistogramEven vs a loop; DeviceSegmentedReduce
// with empty segments; DeviceRunLengthEncode::Encode and
// DeviceReduce::ReduceByKey vs runs found on the host. Sizes from 0 to a million, so several
// workers and blocks take part. And CUB's temporary-storage protocol: the first call (NULL storage)
// only sets the size, a smaller size is hipErrorInvalidValue.
#include <hipcub/hipcub.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

static int failures = 0;
#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      if (failures++ < 30) {                                                                       \
        std::printf("FAIL %s:%d: ", __FILE__, __LINE__);                                           \
        std::printf(__VA_ARGS__);                                                                  \
        std::printf("\n");                                                                         \
      }                                                                                            \
    }                                                                                              \
  } while (0)
#define HIPCHECK(e)                                                                                \
  do {                                                                                             \
    hipError_t err_ = (e);                                                                         \
    if (err_ != hipSuccess) {                                                                      \
      std::printf("FAIL %s:%d: %s = %s\n", __FILE__, __LINE__, #e, hipGetErrorString(err_));       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

template <typename T> struct dbuf {
  T *p = nullptr;
  size_t n;
  explicit dbuf(size_t count) : n(count) { HIPCHECK(hipMalloc(&p, (n ? n : 1) * sizeof(T))); }
  dbuf(const std::vector<T> &v) : dbuf(v.size()) {
    if (n)
      HIPCHECK(hipMemcpy(p, v.data(), n * sizeof(T), hipMemcpyHostToDevice));
  }
  ~dbuf() { (void)hipFree(p); }
  std::vector<T> get(size_t count = (size_t)-1) const {
    std::vector<T> v(count == (size_t)-1 ? n : count);
    if (!v.empty())
      HIPCHECK(hipMemcpy(v.data(), p, v.size() * sizeof(T), hipMemcpyDeviceToHost));
    return v;
  }
};

// Runs f(temp, bytes) twice as CUB's protocol wants, checking the protocol:
// the query sets a size and touches nothing; one byte less is refused.
template <typename F> static void two_calls(const char *what, F f) {
  size_t bytes = 0;
  HIPCHECK(f(nullptr, bytes));
  CHECK(bytes > 0, "%s: the query gave 0 bytes", what);
  void *temp = nullptr;
  HIPCHECK(hipMalloc(&temp, bytes));
  if (bytes > 1) {
    size_t less = bytes - 1;
    CHECK(f(temp, less) == hipErrorInvalidValue, "%s: %zu of %zu bytes accepted", what, less,
          bytes);
  }
  HIPCHECK(f(temp, bytes));
  HIPCHECK(hipDeviceSynchronize());
  HIPCHECK(hipFree(temp));
}

// Commutative, as CUB's DeviceReduce wants: the larger magnitude, of equal
// magnitudes the larger value.
struct absmax {
  __host__ __device__ int operator()(int a, int b) const {
    int x = a < 0 ? -a : a, y = b < 0 ? -b : b;
    return x > y ? a : y > x ? b : (a > b ? a : b);
  }
};
// Composition of affine maps x -> a * x + b (mod 2^32): associative but not
// commutative, so a scan that joins its parts out of order fails.
struct affine {
  unsigned a, b;
  bool operator==(const affine &o) const { return a == o.a && b == o.b; }
};
struct compose { // first f, then g
  __host__ __device__ affine operator()(const affine &f, const affine &g) const {
    return affine{g.a * f.a, g.a * f.b + g.b};
  }
};
struct is_odd {
  __host__ __device__ bool operator()(int x) const { return x & 1; }
};

static void reduce(size_t n, std::mt19937 &rng) {
  std::vector<int> h(n);
  std::vector<float> hf(n);
  for (size_t i = 0; i < n; i++) {
    h[i] = (int)(rng() % 2001) - 1000;
    hf[i] = (float)((int)(rng() % 1000)) / 8.0f;
  }
  dbuf<int> d(h), out(1);
  dbuf<float> df(hf), outf(1);
  dbuf<hipcub::KeyValuePair<int, int>> arg(1);
  int N = (int)n;
  two_calls("Sum",
            [&](void *t, size_t &b) { return hipcub::DeviceReduce::Sum(t, b, d.p, out.p, N); });
  CHECK(out.get()[0] == std::accumulate(h.begin(), h.end(), 0), "Sum of %zu: %d", n, out.get()[0]);
  two_calls("Sum float",
            [&](void *t, size_t &b) { return hipcub::DeviceReduce::Sum(t, b, df.p, outf.p, N); });
  double ref = std::accumulate(hf.begin(), hf.end(), 0.0);
  CHECK(std::fabs(outf.get()[0] - ref) <= 1e-5 * std::fabs(ref) + 1e-3,
        "Sum float of %zu: %g vs %g", n, outf.get()[0], ref);
  two_calls("Min",
            [&](void *t, size_t &b) { return hipcub::DeviceReduce::Min(t, b, d.p, out.p, N); });
  int mn = n ? *std::min_element(h.begin(), h.end()) : std::numeric_limits<int>::max();
  CHECK(out.get()[0] == mn, "Min of %zu: %d vs %d", n, out.get()[0], mn);
  two_calls("Max",
            [&](void *t, size_t &b) { return hipcub::DeviceReduce::Max(t, b, d.p, out.p, N); });
  int mx = n ? *std::max_element(h.begin(), h.end()) : std::numeric_limits<int>::lowest();
  CHECK(out.get()[0] == mx, "Max of %zu: %d vs %d", n, out.get()[0], mx);
  two_calls("ArgMin",
            [&](void *t, size_t &b) { return hipcub::DeviceReduce::ArgMin(t, b, d.p, arg.p, N); });
  auto a = arg.get()[0];
  if (n) {
    int k = (int)(std::min_element(h.begin(), h.end()) - h.begin());
    CHECK(a.key == k && a.value == h[k], "ArgMin of %zu: {%d, %d} vs {%d, %d}", n, a.key, a.value,
          k, h[k]);
  } else {
    CHECK(a.key == 1 && a.value == std::numeric_limits<int>::max(), "ArgMin of nothing");
  }
  two_calls("ArgMax",
            [&](void *t, size_t &b) { return hipcub::DeviceReduce::ArgMax(t, b, d.p, arg.p, N); });
  a = arg.get()[0];
  if (n) {
    int k = (int)(std::max_element(h.begin(), h.end()) - h.begin());
    CHECK(a.key == k && a.value == h[k], "ArgMax of %zu: {%d, %d} vs {%d, %d}", n, a.key, a.value,
          k, h[k]);
  }
  two_calls("Reduce", [&](void *t, size_t &b) {
    return hipcub::DeviceReduce::Reduce(t, b, d.p, out.p, N, absmax(), 0);
  });
  int am = std::accumulate(h.begin(), h.end(), 0, absmax());
  CHECK(out.get()[0] == am, "Reduce(absmax) of %zu: %d vs %d", n, out.get()[0], am);
  // A pointer to const items (16-byte loads on a GPU when aligned), and one
  // 4 bytes past an alignment (item loads on a GPU).
  const int *cp = d.p;
  two_calls("Sum of const int *", [&](void *t, size_t &b) {
    return hipcub::DeviceReduce::Sum(t, b, cp, out.p, N);
  });
  CHECK(out.get()[0] == std::accumulate(h.begin(), h.end(), 0), "Sum of const int * of %zu: %d", n,
        out.get()[0]);
  if (n > 1) {
    two_calls("Sum from item 1", [&](void *t, size_t &b) {
      return hipcub::DeviceReduce::Sum(t, b, cp + 1, out.p, N - 1);
    });
    CHECK(out.get()[0] == std::accumulate(h.begin() + 1, h.end(), 0), "Sum of %zu from item 1: %d",
          n, out.get()[0]);
  }
  // An iterator as the input.
  // Unsigned: 1 + ... + n wraps modulo 2^32 for a million items (an int's
  // overflow would be undefined).
  hipcub::CountingInputIterator<unsigned> count(1);
  dbuf<unsigned> usum((size_t)1);
  two_calls("Sum of a counting iterator",
            [&](void *t, size_t &b) { return hipcub::DeviceReduce::Sum(t, b, count, usum.p, N); });
  CHECK(usum.get()[0] == (unsigned)(n * (n + 1) / 2), "Sum 1..%zu: %u", n, usum.get()[0]);
}

static void scan(size_t n, std::mt19937 &rng) {
  std::vector<int> h(n);
  for (auto &x : h)
    x = (int)(rng() % 100) - 50;
  dbuf<int> d(h), out(n);
  int N = (int)n;
  std::vector<int> ref(n);
  two_calls("InclusiveSum", [&](void *t, size_t &b) {
    return hipcub::DeviceScan::InclusiveSum(t, b, d.p, out.p, N);
  });
  std::inclusive_scan(h.begin(), h.end(), ref.begin());
  CHECK(out.get() == ref, "InclusiveSum of %zu", n);
  two_calls("ExclusiveSum", [&](void *t, size_t &b) {
    return hipcub::DeviceScan::ExclusiveSum(t, b, d.p, out.p, N);
  });
  std::exclusive_scan(h.begin(), h.end(), ref.begin(), 0);
  CHECK(out.get() == ref, "ExclusiveSum of %zu", n);
  two_calls("InclusiveScan(Max)", [&](void *t, size_t &b) {
    return hipcub::DeviceScan::InclusiveScan(t, b, d.p, out.p, hipcub::Max(), N);
  });
  std::inclusive_scan(h.begin(), h.end(), ref.begin(), [](int a, int b) { return std::max(a, b); });
  CHECK(out.get() == ref, "InclusiveScan(Max) of %zu", n);
  two_calls("ExclusiveScan(Min, 7)", [&](void *t, size_t &b) {
    return hipcub::DeviceScan::ExclusiveScan(t, b, d.p, out.p, hipcub::Min(), 7, N);
  });
  std::exclusive_scan(h.begin(), h.end(), ref.begin(), 7,
                      [](int a, int b) { return std::min(a, b); });
  CHECK(out.get() == ref, "ExclusiveScan(Min, 7) of %zu", n);
  // A non-commutative operator on 8-byte items.
  std::vector<affine> ha(n), refa(n);
  for (auto &f : ha)
    f = affine{(unsigned)(rng() % 7) * 2 + 1, (unsigned)rng() % 1000};
  dbuf<affine> da(ha), outa(n);
  two_calls("InclusiveScan(compose)", [&](void *t, size_t &b) {
    return hipcub::DeviceScan::InclusiveScan(t, b, da.p, outa.p, compose(), N);
  });
  std::inclusive_scan(ha.begin(), ha.end(), refa.begin(), compose());
  CHECK(outa.get() == refa, "InclusiveScan(compose) of %zu", n);
  two_calls("ExclusiveScan(compose, {3, 5})", [&](void *t, size_t &b) {
    return hipcub::DeviceScan::ExclusiveScan(t, b, da.p, outa.p, compose(), affine{3, 5}, N);
  });
  std::exclusive_scan(ha.begin(), ha.end(), refa.begin(), affine{3, 5}, compose());
  CHECK(outa.get() == refa, "ExclusiveScan(compose, {3, 5}) of %zu", n);
  // In place.
  two_calls("InclusiveSum in place", [&](void *t, size_t &b) {
    return hipcub::DeviceScan::InclusiveSum(t, b, d.p, d.p, N);
  });
  std::inclusive_scan(h.begin(), h.end(), ref.begin());
  CHECK(d.get() == ref, "InclusiveSum in place of %zu", n);
}

template <typename K> static void sort_keys(size_t n, std::mt19937 &rng, K lo, K hi) {
  std::vector<K> h(n);
  for (auto &x : h) {
    double u = (double)rng() / 4294967296.0;
    x = (K)((double)lo + ((double)hi - (double)lo) * u); /* hi - lo overflows K */
  }
  dbuf<K> d(h), out(n);
  int N = (int)n;
  two_calls("SortKeys", [&](void *t, size_t &b) {
    return hipcub::DeviceRadixSort::SortKeys(t, b, d.p, out.p, N);
  });
  std::vector<K> ref = h;
  std::sort(ref.begin(), ref.end());
  CHECK(out.get() == ref, "SortKeys of %zu (%zu-byte keys)", n, sizeof(K));
  two_calls("SortKeysDescending", [&](void *t, size_t &b) {
    return hipcub::DeviceRadixSort::SortKeysDescending(t, b, d.p, out.p, N);
  });
  std::reverse(ref.begin(), ref.end());
  CHECK(out.get() == ref, "SortKeysDescending of %zu (%zu-byte keys)", n, sizeof(K));
  CHECK(d.get() == h, "SortKeys changed its input");
}

static void sort_pairs(size_t n, std::mt19937 &rng) {
  std::vector<unsigned> k(n);
  std::vector<int> v(n);
  for (size_t i = 0; i < n; i++) {
    k[i] = rng() % 1000; // many equal keys: stability shows
    v[i] = (int)i;
  }
  dbuf<unsigned> dk(k), ko(n);
  dbuf<int> dv(v), vo(n);
  int N = (int)n;
  std::vector<size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return k[a] < k[b]; });
  two_calls("SortPairs", [&](void *t, size_t &b) {
    return hipcub::DeviceRadixSort::SortPairs(t, b, dk.p, ko.p, dv.p, vo.p, N);
  });
  std::vector<unsigned> gk = ko.get();
  std::vector<int> gv = vo.get();
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = gk[i] == k[idx[i]] && gv[i] == (int)idx[i];
  CHECK(ok, "SortPairs of %zu: not std::stable_sort's order", n);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return k[a] > k[b]; });
  two_calls("SortPairsDescending", [&](void *t, size_t &b) {
    return hipcub::DeviceRadixSort::SortPairsDescending(t, b, dk.p, ko.p, dv.p, vo.p, N);
  });
  gk = ko.get();
  gv = vo.get();
  ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = gk[i] == k[idx[i]] && gv[i] == (int)idx[i];
  CHECK(ok, "SortPairsDescending of %zu: not a stable descending order", n);
  // Bits 4..12 only: the order of (k >> 4) & 255, stable.
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](size_t a, size_t b) { return ((k[a] >> 4) & 255) < ((k[b] >> 4) & 255); });
  two_calls("SortPairs bits 4-12", [&](void *t, size_t &b) {
    return hipcub::DeviceRadixSort::SortPairs(t, b, dk.p, ko.p, dv.p, vo.p, N, 4, 12);
  });
  gv = vo.get();
  ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = gv[i] == (int)idx[i];
  CHECK(ok, "SortPairs bits 4-12 of %zu", n);
  // DoubleBuffer: the result is in Current().
  dbuf<unsigned> a(k), b2(n);
  dbuf<int> va(v), vb(n);
  hipcub::DoubleBuffer<unsigned> keys(a.p, b2.p);
  hipcub::DoubleBuffer<int> vals(va.p, vb.p);
  size_t bytes = 0;
  HIPCHECK(hipcub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, vals, N, 0, 12));
  void *temp;
  HIPCHECK(hipMalloc(&temp, bytes));
  HIPCHECK(hipcub::DeviceRadixSort::SortPairs(temp, bytes, keys, vals, N, 0, 12));
  HIPCHECK(hipDeviceSynchronize());
  std::vector<unsigned> dk2(n);
  if (n)
    HIPCHECK(hipMemcpy(dk2.data(), keys.Current(), n * sizeof(unsigned), hipMemcpyDeviceToHost));
  std::vector<unsigned> ref = k;
  std::sort(ref.begin(), ref.end());
  CHECK(dk2 == ref, "DoubleBuffer SortPairs of %zu (selector %d)", n, keys.selector);
  CHECK(keys.selector == vals.selector, "DoubleBuffer selectors differ");
  size_t small = bytes;
  CHECK(hipcub::DeviceRadixSort::SortPairs(temp, small, keys, vals, N, 0, 40) ==
            hipErrorInvalidValue,
        "end_bit 40 of 32-bit keys accepted");
  HIPCHECK(hipFree(temp));
}

static void select(size_t n, std::mt19937 &rng) {
  std::vector<int> h(n);
  std::vector<char> f(n);
  for (size_t i = 0; i < n; i++) {
    h[i] = (int)(rng() % 8);
    f[i] = (char)(rng() % 3 == 0);
  }
  dbuf<int> d(h), out(n), num(1);
  dbuf<char> df(f);
  int N = (int)n;
  std::vector<int> ref;
  two_calls("Select::If", [&](void *t, size_t &b) {
    return hipcub::DeviceSelect::If(t, b, d.p, out.p, num.p, N, is_odd());
  });
  std::copy_if(h.begin(), h.end(), std::back_inserter(ref), is_odd());
  int m = num.get()[0];
  CHECK(m == (int)ref.size() && out.get(m) == ref, "Select::If of %zu: %d selected, want %zu", n, m,
        ref.size());
  ref.clear();
  for (size_t i = 0; i < n; i++)
    if (f[i])
      ref.push_back(h[i]);
  two_calls("Select::Flagged", [&](void *t, size_t &b) {
    return hipcub::DeviceSelect::Flagged(t, b, d.p, df.p, out.p, num.p, N);
  });
  m = num.get()[0];
  CHECK(m == (int)ref.size() && out.get(m) == ref, "Select::Flagged of %zu: %d selected", n, m);
  ref = h;
  ref.erase(std::unique(ref.begin(), ref.end()), ref.end());
  two_calls("Select::Unique", [&](void *t, size_t &b) {
    return hipcub::DeviceSelect::Unique(t, b, d.p, out.p, num.p, N);
  });
  m = num.get()[0];
  CHECK(m == (int)ref.size() && out.get(m) == ref, "Select::Unique of %zu: %d selected", n, m);
}

static void histogram(size_t n, std::mt19937 &rng) {
  std::vector<float> h(n);
  for (auto &x : h)
    x = (float)(rng() % 1200) / 10.0f - 10.0f; // -10 .. 110, some outside [0, 100)
  dbuf<float> d(h);
  dbuf<unsigned> hist(10);
  int N = (int)n;
  two_calls("HistogramEven", [&](void *t, size_t &b) {
    return hipcub::DeviceHistogram::HistogramEven(t, b, d.p, hist.p, 11, 0.0f, 100.0f, N);
  });
  std::vector<unsigned> ref(10, 0);
  for (float x : h)
    if (x >= 0.0f && x < 100.0f)
      ref[(int)(x / 10.0f)]++;
  CHECK(hist.get() == ref, "HistogramEven of %zu", n);
  size_t bytes = 0;
  CHECK(hipcub::DeviceHistogram::HistogramEven(nullptr, bytes, d.p, hist.p, 1, 0.0f, 100.0f, N) ==
            hipErrorInvalidValue,
        "one level accepted");
}

// Runs of equal keys: DeviceRunLengthEncode::Encode and
// DeviceReduce::ReduceByKey against runs found on the host.
static void runs(size_t n, std::mt19937 &rng) {
  std::vector<int> k(n), v(n);
  for (size_t i = 0; i < n; i++) {
    k[i] = i && rng() % 4 ? k[i - 1] : (int)(rng() % 5); // runs, some of equal neighbours
    v[i] = (int)(rng() % 100) - 50;
  }
  std::vector<int> uk, len, agg;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || k[i] != k[i - 1]) {
      uk.push_back(k[i]);
      len.push_back(0);
      agg.push_back(0);
    }
    len.back()++;
    agg.back() = std::max(len.back() == 1 ? v[i] : agg.back(), v[i]);
  }
  dbuf<int> dk(k), dv(v), uo(n), lo(n), num(1);
  int N = (int)n;
  two_calls("RunLengthEncode::Encode", [&](void *t, size_t &b) {
    return hipcub::DeviceRunLengthEncode::Encode(t, b, dk.p, uo.p, lo.p, num.p, N);
  });
  int m = num.get()[0];
  CHECK(m == (int)uk.size() && uo.get(m) == uk && lo.get(m) == len,
        "Encode of %zu: %d runs, want %zu", n, m, uk.size());
  two_calls("ReduceByKey", [&](void *t, size_t &b) {
    return hipcub::DeviceReduce::ReduceByKey(t, b, dk.p, uo.p, dv.p, lo.p, num.p, hipcub::Max(), N);
  });
  m = num.get()[0];
  CHECK(m == (int)uk.size() && uo.get(m) == uk && lo.get(m) == agg,
        "ReduceByKey(Max) of %zu: %d runs, want %zu", n, m, uk.size());
}

static void segmented(std::mt19937 &rng) {
  const int segs = 100;
  std::vector<int> begin(segs), end(segs);
  size_t at = 0;
  for (int s = 0; s < segs; s++) {
    size_t len = s % 7 == 3 ? 0 : rng() % 3000;
    begin[s] = (int)at;
    end[s] = (int)(at + len);
    at += len;
  }
  std::vector<int> h(at);
  for (auto &x : h)
    x = (int)(rng() % 1000) - 500;
  dbuf<int> d(h), db(begin), de(end), out(segs);
  dbuf<hipcub::KeyValuePair<int, int>> arg(segs);
  two_calls("SegmentedReduce::Sum", [&](void *t, size_t &b) {
    return hipcub::DeviceSegmentedReduce::Sum(t, b, d.p, out.p, segs, db.p, de.p);
  });
  std::vector<int> got = out.get();
  for (int s = 0; s < segs; s++) {
    int ref = std::accumulate(h.begin() + begin[s], h.begin() + end[s], 0);
    CHECK(got[s] == ref, "segment %d sum %d vs %d", s, got[s], ref);
  }
  two_calls("SegmentedReduce::Min", [&](void *t, size_t &b) {
    return hipcub::DeviceSegmentedReduce::Min(t, b, d.p, out.p, segs, db.p, de.p);
  });
  got = out.get();
  for (int s = 0; s < segs; s++) {
    int ref = begin[s] == end[s] ? std::numeric_limits<int>::max()
                                 : *std::min_element(h.begin() + begin[s], h.begin() + end[s]);
    CHECK(got[s] == ref, "segment %d min %d vs %d", s, got[s], ref);
  }
  two_calls("SegmentedReduce::ArgMax", [&](void *t, size_t &b) {
    return hipcub::DeviceSegmentedReduce::ArgMax(t, b, d.p, arg.p, segs, db.p, de.p);
  });
  auto ga = arg.get();
  for (int s = 0; s < segs; s++) {
    if (begin[s] == end[s]) {
      CHECK(ga[s].key == 1, "empty segment %d: key %d", s, ga[s].key);
      continue;
    }
    int k =
        (int)(std::max_element(h.begin() + begin[s], h.begin() + end[s]) - h.begin()) - begin[s];
    CHECK(ga[s].key == k && ga[s].value == h[begin[s] + k], "segment %d argmax {%d,%d} vs %d", s,
          ga[s].key, ga[s].value, k);
  }
  two_calls("SegmentedReduce::Reduce", [&](void *t, size_t &b) {
    return hipcub::DeviceSegmentedReduce::Reduce(t, b, d.p, out.p, segs, db.p, de.p, hipcub::Max(),
                                                 -100000);
  });
  got = out.get();
  for (int s = 0; s < segs; s++) {
    int ref = std::accumulate(h.begin() + begin[s], h.begin() + end[s], -100000,
                              [](int a, int b) { return std::max(a, b); });
    CHECK(got[s] == ref, "segment %d max-reduce %d vs %d", s, got[s], ref);
  }
}

int main() {
  std::mt19937 rng(12345);
  for (size_t n : {(size_t)0, (size_t)1, (size_t)1000, (size_t)(1 << 20) + 7}) {
    reduce(n, rng);
    scan(n, rng);
    sort_keys<unsigned>(n, rng, 0u, 4000000000u);
    sort_keys<int>(n, rng, -2000000000, 2000000000);
    sort_keys<float>(n, rng, -1000.0f, 1000.0f);
    sort_keys<unsigned long long>(n, rng, 0ull, 1ull << 60);
    sort_pairs(n, rng);
    select(n, rng);
    histogram(n, rng);
    runs(n, rng);
  }
  segmented(rng);
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("hipcub_device: ok\n");
  return 0;
}
