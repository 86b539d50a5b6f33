// SPDX-License-Identifier: MIT
// hipCUB's warp- and block-level primitives in kernels, against host
// references: WarpReduce/WarpScan (logical warps of 16 and 32 lanes, a
// partial warp), BlockReduce (one and four items per thread, num_valid),
// BlockScan (inclusive/exclusive, items per thread, a running prefix
// callback over tiles), BlockLoad/BlockStore (direct and striped),
// BlockExchange (striped <-> blocked) and BlockRadixSort (pairs, descending,
// blocked-to-striped) vs std::stable_sort. Several blocks each.
#include <hipcub/hipcub.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
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

constexpr int THREADS = 128, ITEMS = 4, BLOCKS = 3, TILE = THREADS * ITEMS;

// Per logical warp of W lanes: its sum (lane 0), each lane's inclusive and
// exclusive sums, and the sum of its first `valid` lanes.
template <int W>
__global__ void warp_kernel(const int *in, int *sum, int *incl, int *excl, int *part, int valid) {
  typedef hipcub::WarpReduce<int, W> WR;
  typedef hipcub::WarpScan<int, W> WS;
  __shared__ typename WR::TempStorage rt[THREADS / W];
  __shared__ typename WS::TempStorage st[THREADS / W];
  int t = blockIdx.x * THREADS + threadIdx.x, warp = threadIdx.x / W;
  int x = in[t];
  int s = WR(rt[warp]).Sum(x);
  int p = WR(rt[warp]).Sum(x, valid);
  int i, e;
  WS(st[warp]).InclusiveSum(x, i);
  WS(st[warp]).ExclusiveSum(x, e);
  if (threadIdx.x % W == 0) {
    sum[t / W] = s;
    part[t / W] = p;
  }
  incl[t] = i;
  excl[t] = e;
}

__global__ void block_kernel(const int *in, int *sum1, int *sum4, int *sum_valid, int *incl,
                             int *excl, int *running, int tiles) {
  typedef hipcub::BlockReduce<int, THREADS> BR;
  typedef hipcub::BlockScan<int, THREADS> BS;
  typedef hipcub::BlockLoad<int, THREADS, ITEMS, hipcub::BLOCK_LOAD_TRANSPOSE> BL;
  typedef hipcub::BlockStore<int, THREADS, ITEMS, hipcub::BLOCK_STORE_DIRECT> BSt;
  __shared__ typename BR::TempStorage rt;
  __shared__ typename BS::TempStorage st;
  const int *tile = in + blockIdx.x * TILE;
  int items[ITEMS];
  BL().Load(tile, items);
  int s1 = BR(rt).Sum(items[0]);
  int s4 = BR(rt).Sum(items);
  int sv = BR(rt).Sum(items[0], 77);
  if (threadIdx.x == 0) {
    sum1[blockIdx.x] = s1;
    sum4[blockIdx.x] = s4;
    sum_valid[blockIdx.x] = sv;
  }
  int out[ITEMS];
  BS(st).InclusiveSum(items, out);
  BSt().Store(incl + blockIdx.x * TILE, out);
  int agg;
  BS(st).ExclusiveScan(items, out, 5, hipcub::Sum(), agg);
  BSt().Store(excl + blockIdx.x * TILE, out);
  // A running prefix over the tiles of block 0: CUB's callback pattern.
  if (blockIdx.x == 0) {
    struct prefix_op {
      int total;
      __device__ int operator()(int block_aggregate) {
        int old = total;
        total += block_aggregate;
        return old;
      }
    } op{0};
    for (int k = 0; k < tiles; k++) {
      int x = in[k * THREADS + threadIdx.x], y;
      BS(st).ExclusiveSum(x, y, op);
      running[k * THREADS + threadIdx.x] = y;
    }
  }
}

__global__ void exchange_kernel(const int *in, int *blocked, int *striped) {
  typedef hipcub::BlockExchange<int, THREADS, ITEMS> BE;
  __shared__ typename BE::TempStorage et;
  const int *tile = in + blockIdx.x * TILE;
  int items[ITEMS];
  hipcub::LoadDirectStriped<THREADS>(threadIdx.x, tile, items);
  BE(et).StripedToBlocked(items);
  hipcub::StoreDirectBlocked(threadIdx.x, blocked + blockIdx.x * TILE, items);
  BE(et).BlockedToStriped(items);
  hipcub::StoreDirectBlocked(threadIdx.x, striped + blockIdx.x * TILE, items);
}

__global__ void sort_kernel(const float *keys, const int *vals, float *ko, int *vo, float *kd,
                            float *ks) {
  typedef hipcub::BlockRadixSort<float, THREADS, ITEMS, int> BRS;
  __shared__ typename BRS::TempStorage rt;
  int base = blockIdx.x * TILE;
  float k[ITEMS];
  int v[ITEMS];
  hipcub::LoadDirectBlocked(threadIdx.x, keys + base, k);
  hipcub::LoadDirectBlocked(threadIdx.x, vals + base, v);
  BRS(rt).Sort(k, v);
  hipcub::StoreDirectBlocked(threadIdx.x, ko + base, k);
  hipcub::StoreDirectBlocked(threadIdx.x, vo + base, v);
  BRS(rt).SortDescending(k, v);
  hipcub::StoreDirectBlocked(threadIdx.x, kd + base, k);
  BRS(rt).SortBlockedToStriped(k, v);
  hipcub::StoreDirectStriped<THREADS>(threadIdx.x, ks + base, k);
}

template <typename T> static T *dev(const std::vector<T> &v) {
  T *p;
  HIPCHECK(hipMalloc(&p, v.size() * sizeof(T)));
  HIPCHECK(hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
  return p;
}
template <typename T> static std::vector<T> host(const T *p, size_t n) {
  std::vector<T> v(n);
  HIPCHECK(hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost));
  return v;
}

template <int W> static void warps(const std::vector<int> &h) {
  const int n = BLOCKS * THREADS, valid = W / 2 + 3;
  int *in = dev(h), *sum = dev(std::vector<int>(n / W)), *part = dev(std::vector<int>(n / W));
  int *incl = dev(std::vector<int>(n)), *excl = dev(std::vector<int>(n));
  warp_kernel<W><<<BLOCKS, THREADS>>>(in, sum, incl, excl, part, valid);
  HIPCHECK(hipDeviceSynchronize());
  std::vector<int> s = host(sum, n / W), p = host(part, n / W), i = host(incl, n),
                   e = host(excl, n);
  for (int w = 0; w < n / W; w++) {
    int ref = std::accumulate(h.begin() + w * W, h.begin() + (w + 1) * W, 0);
    int refp = std::accumulate(h.begin() + w * W, h.begin() + w * W + valid, 0);
    CHECK(s[w] == ref, "WarpReduce<%d> warp %d: %d vs %d", W, w, s[w], ref);
    CHECK(p[w] == refp, "WarpReduce<%d> warp %d of %d lanes: %d vs %d", W, w, valid, p[w], refp);
    int run = 0;
    for (int l = 0; l < W; l++) {
      CHECK(e[w * W + l] == run, "WarpScan<%d> exclusive lane %d", W, l);
      run += h[w * W + l];
      CHECK(i[w * W + l] == run, "WarpScan<%d> inclusive lane %d", W, l);
    }
  }
  (void)hipFree(in), (void)hipFree(sum), (void)hipFree(part), (void)hipFree(incl),
      (void)hipFree(excl);
}

int main() {
  std::vector<int> h(BLOCKS * TILE);
  for (size_t i = 0; i < h.size(); i++)
    h[i] = (int)((i * 2654435761u) % 1000) - 500;
  warps<16>(h);
  warps<32>(h);

  int tiles = BLOCKS * ITEMS;
  int *in = dev(h), *s1 = dev(std::vector<int>(BLOCKS)), *s4 = dev(std::vector<int>(BLOCKS));
  int *sv = dev(std::vector<int>(BLOCKS)), *incl = dev(std::vector<int>(h.size()));
  int *excl = dev(std::vector<int>(h.size())), *running = dev(std::vector<int>(h.size()));
  block_kernel<<<BLOCKS, THREADS>>>(in, s1, s4, sv, incl, excl, running, tiles);
  HIPCHECK(hipDeviceSynchronize());
  std::vector<int> g1 = host(s1, BLOCKS), g4 = host(s4, BLOCKS), gv = host(sv, BLOCKS);
  std::vector<int> gi = host(incl, h.size()), ge = host(excl, h.size()),
                   gr = host(running, h.size());
  for (int b = 0; b < BLOCKS; b++) {
    const int *t = h.data() + b * TILE;
    int r1 = 0, rv = 0;
    for (int x = 0; x < THREADS; x++) {
      r1 += t[x * ITEMS];
      if (x < 77)
        rv += t[x * ITEMS];
    }
    int r4 = std::accumulate(t, t + TILE, 0);
    CHECK(g1[b] == r1 && g4[b] == r4 && gv[b] == rv, "BlockReduce block %d: %d %d %d vs %d %d %d",
          b, g1[b], g4[b], gv[b], r1, r4, rv);
    int run = 0;
    for (int k = 0; k < TILE; k++) {
      CHECK(ge[b * TILE + k] == run + 5, "BlockScan exclusive(5) block %d item %d", b, k);
      run += t[k];
      CHECK(gi[b * TILE + k] == run, "BlockScan inclusive block %d item %d", b, k);
    }
  }
  int run = 0;
  for (int k = 0; k < tiles * THREADS; k++) {
    CHECK(gr[k] == run, "BlockScan with a prefix callback: item %d %d vs %d", k, gr[k], run);
    run += h[k];
  }

  int *blocked = dev(std::vector<int>(h.size())), *striped = dev(std::vector<int>(h.size()));
  exchange_kernel<<<BLOCKS, THREADS>>>(in, blocked, striped);
  HIPCHECK(hipDeviceSynchronize());
  std::vector<int> gb = host(blocked, h.size()), gs = host(striped, h.size());
  CHECK(gb == h, "BlockExchange StripedToBlocked");
  bool ok = true;
  for (int b = 0; b < BLOCKS && ok; b++)
    for (int t = 0; t < THREADS && ok; t++)
      for (int i = 0; i < ITEMS && ok; i++)
        ok = gs[b * TILE + t * ITEMS + i] == h[b * TILE + i * THREADS + t];
  CHECK(ok, "BlockExchange BlockedToStriped");

  std::vector<float> keys(h.size());
  std::vector<int> vals(h.size());
  for (size_t i = 0; i < h.size(); i++) {
    keys[i] = (float)(h[i] % 50) * 0.5f; // negatives and many equal keys
    vals[i] = (int)i;
  }
  float *dk = dev(keys), *ko = dev(keys), *kd = dev(keys), *ks = dev(keys);
  int *dv = dev(vals), *vo = dev(vals);
  sort_kernel<<<BLOCKS, THREADS>>>(dk, dv, ko, vo, kd, ks);
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> gko = host(ko, h.size()), gkd = host(kd, h.size()), gks = host(ks, h.size());
  std::vector<int> gvo = host(vo, h.size());
  for (int b = 0; b < BLOCKS; b++) {
    std::vector<int> idx(TILE);
    std::iota(idx.begin(), idx.end(), b * TILE);
    std::stable_sort(idx.begin(), idx.end(), [&](int x, int y) { return keys[x] < keys[y]; });
    ok = true;
    for (int k = 0; k < TILE && ok; k++)
      ok = gko[b * TILE + k] == keys[idx[k]] && gvo[b * TILE + k] == idx[k];
    CHECK(ok, "BlockRadixSort pairs block %d: not std::stable_sort's order", b);
    std::vector<float> desc(keys.begin() + b * TILE, keys.begin() + (b + 1) * TILE);
    std::sort(desc.begin(), desc.end(), [](float x, float y) { return x > y; });
    CHECK(std::equal(desc.begin(), desc.end(), gkd.begin() + b * TILE), "SortDescending block %d",
          b);
    std::reverse(desc.begin(), desc.end());
    CHECK(std::equal(desc.begin(), desc.end(), gks.begin() + b * TILE),
          "SortBlockedToStriped block %d", b);
  }
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("hipcub_block: ok\n");
  return 0;
}
