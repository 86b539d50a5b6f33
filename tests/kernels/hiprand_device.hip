// SPDX-License-Identifier: MIT
// hipRAND's device API (hiprand/hiprand_kernel.h) in kernels, against
// references this test computes on its own:
// - Philox4x32-10: Random123's published known-answer vectors, reached
//   through hiprand_init/skipahead/skipahead_sequence (key = seed, counter =
//   subsequence:offset/4); then 1024 threads' (seed, thread, offset) streams
//   against the test's own Philox; hiprand4 against four hiprand calls at
//   every position in a block.
// - XORWOW: cuRAND's seeding of Marsaglia's published generator (the salt
//   that leaves his initial state, his recurrence); skipahead against
//   stepping one by one and, for large n, against M^n computed here by
//   repeated squaring of the 160-bit step matrix; skipahead_sequence
//   likewise with n * 2^67.
// - hiprand_uniform: exactly x * 2^-32 + 2^-33 (fused or not) of the integer
//   drawn, in (0, 1];
//   hiprand_uniform_double from two integers; hiprand_normal(_double): the
//   Box-Muller pair of the integers (sin then cos, the second value cached),
//   within 2e-6 (float) of a double computation; mean and variance of 8192;
//   hiprand_log_normal: exp(mean + stddev * the normal drawn).
#include <hiprand/hiprand_kernel.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static int failures = 0;
#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      if (failures++ < 20) {                                                                       \
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
      std::printf("HIP error %s at %s:%d\n", hipGetErrorName(err_), __FILE__, __LINE__);           \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// ---- the test's own Philox4x32-10 (Salmon et al.), checked by the KATs ----
struct P4 {
  unsigned int v[4];
};
static P4 ref_philox(P4 c, unsigned int k0, unsigned int k1) {
  for (int r = 0; r < 10; r++) {
    unsigned long long p0 = 0xD2511F53ull * c.v[0], p1 = 0xCD9E8D57ull * c.v[2];
    P4 n = {{(unsigned int)(p1 >> 32) ^ c.v[1] ^ k0, (unsigned int)p1,
             (unsigned int)(p0 >> 32) ^ c.v[3] ^ k1, (unsigned int)p0}};
    c = n;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// Output number i (from 0) of the Philox stream (seed, subsequence, offset 0).
static unsigned int ref_philox_at(unsigned long long seed, unsigned long long sub,
                                  unsigned long long i) {
  unsigned long long blk = i / 4;
  P4 c = {
      {(unsigned int)blk, (unsigned int)(blk >> 32), (unsigned int)sub, (unsigned int)(sub >> 32)}};
  return ref_philox(c, (unsigned int)seed, (unsigned int)(seed >> 32)).v[i % 4];
}

// ---- the test's own XORWOW: Marsaglia's recurrence and the step matrix ----
struct XW {
  unsigned int v[5];
  unsigned int d;
};
static unsigned int ref_xorwow_next(XW &s) {
  unsigned int t = s.v[0] ^ (s.v[0] >> 2);
  s.v[0] = s.v[1];
  s.v[1] = s.v[2];
  s.v[2] = s.v[3];
  s.v[3] = s.v[4];
  s.v[4] = (s.v[4] ^ (s.v[4] << 4)) ^ (t ^ (t << 1));
  s.d += 362437u;
  return s.v[4] + s.d;
}
static XW ref_xorwow_seed(unsigned long long seed) {
  unsigned int t0 = 1099087573u * ((unsigned int)seed ^ 0xaad26b49u);
  unsigned int t1 = 2591861531u * ((unsigned int)(seed >> 32) ^ 0xf7dcefddu);
  XW s = {{123456789u + t0, 362436069u ^ t0, 521288629u + t1, 88675123u ^ t1, 5783321u + t0},
          6615241u + t1 + t0};
  return s;
}
// A 160x160 matrix over GF(2) as rows: row r is a 160-bit mask, bit j of
// state j contributes to output bit r (the transpose of the header's layout).
struct Mat {
  std::vector<unsigned long long> rows;
}; // 160 rows x 3 words
static int bit(const unsigned int *v, int j) { return (v[j / 32] >> (j % 32)) & 1; }
static Mat step_matrix() {
  Mat m;
  m.rows.assign(160 * 3, 0);
  for (int j = 0; j < 160; j++) {
    XW s = {{0, 0, 0, 0, 0}, 0};
    s.v[j / 32] = 1u << (j % 32);
    ref_xorwow_next(s);
    for (int r = 0; r < 160; r++)
      if (bit(s.v, r))
        m.rows[r * 3 + j / 64] |= 1ull << (j % 64);
  }
  return m;
}
static Mat mul(const Mat &a, const Mat &b) { // a * b
  Mat c;
  c.rows.assign(160 * 3, 0);
  for (int r = 0; r < 160; r++)
    for (int k = 0; k < 160; k++)
      if ((a.rows[r * 3 + k / 64] >> (k % 64)) & 1)
        for (int w = 0; w < 3; w++)
          c.rows[r * 3 + w] ^= b.rows[k * 3 + w];
  return c;
}
static Mat identity() {
  Mat m;
  m.rows.assign(160 * 3, 0);
  for (int r = 0; r < 160; r++)
    m.rows[r * 3 + r / 64] |= 1ull << (r % 64);
  return m;
}
static Mat power(Mat base, unsigned long long n) { // base^n
  Mat r = identity();
  for (; n; n >>= 1) {
    if (n & 1)
      r = mul(r, base);
    base = mul(base, base);
  }
  return r;
}
static void apply(const Mat &m, unsigned int v[5]) {
  unsigned int out[5] = {0, 0, 0, 0, 0};
  for (int r = 0; r < 160; r++) {
    int p = 0;
    for (int j = 0; j < 160; j++)
      p ^= ((m.rows[r * 3 + j / 64] >> (j % 64)) & 1) & bit(v, j);
    out[r / 32] |= (unsigned int)p << (r % 32);
  }
  for (int w = 0; w < 5; w++)
    v[w] = out[w];
}

// ---- kernels ----------------------------------------------------------------
// Philox KATs through the API: out[12] = the first four outputs of three states.
__device__ void skip_counter(hiprandStatePhilox4_32_10_t *s, unsigned long long blocks) {
  while (blocks >= (1ull << 61)) { // skipahead counts outputs: 4 per block
    skipahead(4ull << 61, s);
    blocks -= 1ull << 61;
  }
  skipahead(4 * blocks, s);
}
__global__ void philox_kat(unsigned int *out) {
  hiprandStatePhilox4_32_10_t s;
  hiprand_init(0, 0, 0, &s);
  for (int i = 0; i < 4; i++)
    out[i] = hiprand(&s);
  hiprand_init(~0ull, ~0ull, 0, &s);
  skip_counter(&s, ~0ull);
  for (int i = 0; i < 4; i++)
    out[4 + i] = hiprand(&s);
  hiprand_init(0x299f31d0a4093822ull, 0x0370734413198a2eull, 0, &s);
  skip_counter(&s, 0x85a308d3243f6a88ull);
  for (int i = 0; i < 4; i++)
    out[8 + i] = hiprand(&s);
}

constexpr int kThreads = 1024, kDraws = 8;
__global__ void philox_streams(unsigned long long seed, unsigned long long offset,
                               unsigned int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandStatePhilox4_32_10_t s;
  hiprand_init(seed, t, offset, &s);
  for (int i = 0; i < kDraws; i++)
    out[t * kDraws + i] = hiprand(&s);
}

// hiprand4 and hiprand_uniform4 after k single draws, against the singles.
__global__ void philox_four(unsigned int *out4, unsigned int *out1, float *u4, float *u1) {
  int k = threadIdx.x; // 0..7
  hiprandStatePhilox4_32_10_t a, b;
  hiprand_init(42, 7, 0, &a);
  for (int i = 0; i < k; i++)
    hiprand(&a);
  b = a;
  uint4 q = hiprand4(&a);
  out4[k * 8 + 0] = q.x;
  out4[k * 8 + 1] = q.y;
  out4[k * 8 + 2] = q.z;
  out4[k * 8 + 3] = q.w;
  out4[k * 8 + 4] = hiprand(&a); // the stream goes on after the four
  for (int i = 0; i < 5; i++)
    out1[k * 8 + i] = hiprand(&b);
  hiprand_init(42, 7, k, &a);
  float4 f = hiprand_uniform4(&a);
  u4[k * 4 + 0] = f.x;
  u4[k * 4 + 1] = f.y;
  u4[k * 4 + 2] = f.z;
  u4[k * 4 + 3] = f.w;
  hiprand_init(42, 7, k, &b);
  for (int i = 0; i < 4; i++)
    u1[k * 4 + i] = hiprand_uniform(&b);
}

__global__ void xorwow_streams(unsigned long long seed, const unsigned long long *subs,
                               const unsigned long long *offs, int n, unsigned int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  hiprandState_t s;
  hiprand_init(seed, subs[t], offs[t], &s);
  for (int i = 0; i < kDraws; i++)
    out[t * kDraws + i] = hiprand(&s);
}

// Distributions: for each thread, the integers and the values drawn from
// copies of one state.
constexpr int kDist = 4096;
template <typename State>
__global__ void distributions(unsigned int *ints, float *uni, double *unid, float *nrm,
                              double *nrmd, float *lgn) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= kDist)
    return;
  State s, c;
  hiprand_init(2026, t, 3, &s);
  c = s;
  for (int i = 0; i < 4; i++)
    ints[t * 4 + i] = hiprand(&c);
  c = s;
  uni[t] = hiprand_uniform(&c);
  c = s;
  unid[t] = hiprand_uniform_double(&c);
  c = s;
  nrm[t * 2] = hiprand_normal(&c);
  nrm[t * 2 + 1] = hiprand_normal(&c); // the cached second value
  c = s;
  double a = hiprand_normal_double(&c);
  nrmd[t * 2] = a;
  nrmd[t * 2 + 1] = hiprand_normal_double(&c);
  c = s;
  lgn[t] = hiprand_log_normal(&c, 0.5f, 0.25f);
}

template <typename T> static T *dev(size_t n) {
  T *p;
  HIPCHECK(hipMalloc(&p, n * sizeof(T)));
  HIPCHECK(hipMemset(p, 0, n * sizeof(T)));
  return p;
}
template <typename T> static std::vector<T> host(const T *p, size_t n) {
  std::vector<T> v(n);
  HIPCHECK(hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost));
  return v;
}

static void check_distributions(const char *name, const std::vector<unsigned int> &ints,
                                const std::vector<float> &uni, const std::vector<double> &unid,
                                const std::vector<float> &nrm, const std::vector<double> &nrmd,
                                const std::vector<float> &lgn) {
  const double inv32 = 1.0 / 4294967296.0;
  double sum = 0, sq = 0;
  for (int t = 0; t < kDist; t++) {
    const unsigned int *x = &ints[t * 4];
    // x * 2^-32 + 2^-33 in float, with or without a fused multiply-add (nvcc
    // and cuRAND fuse it).
    volatile float prod = (float)x[0] * 2.3283064e-10f;
    float want_u = prod + 2.3283064e-10f / 2.0f;
    float want_fma = std::fmaf((float)x[0], 2.3283064e-10f, 2.3283064e-10f / 2.0f);
    CHECK((uni[t] == want_u || uni[t] == want_fma) && uni[t] > 0.0f && uni[t] <= 1.0f,
          "%s uniform[%d] %a, want %a", name, t, uni[t], want_u);
    unsigned long long z = (unsigned long long)x[0] ^ ((unsigned long long)x[1] << 21);
    double want_ud = z * 0x1p-53 + 0x1p-54;
    CHECK(unid[t] == want_ud, "%s uniform_double[%d] %a, want %a", name, t, unid[t], want_ud);
    double u = x[0] * inv32 + inv32 / 2, v = (x[1] * inv32 + inv32 / 2) * 2 * M_PI;
    double s = std::sqrt(-2 * std::log(u));
    double want0 = std::sin(v) * s, want1 = std::cos(v) * s;
    CHECK(std::fabs(nrm[t * 2] - want0) < 2e-6 * (1 + std::fabs(want0)) &&
              std::fabs(nrm[t * 2 + 1] - want1) < 2e-6 * (1 + std::fabs(want1)),
          "%s normal[%d] %.9g %.9g, want %.9g %.9g", name, t, nrm[t * 2], nrm[t * 2 + 1], want0,
          want1);
    unsigned long long zy = (unsigned long long)x[2] ^ ((unsigned long long)x[3] << 21);
    double ud = want_ud, vd = (zy * 0x1p-53 + 0x1p-54) * 2 * M_PI;
    double sd = std::sqrt(-2 * std::log(ud));
    CHECK(std::fabs(nrmd[t * 2] - std::sin(vd) * sd) < 1e-12 &&
              std::fabs(nrmd[t * 2 + 1] - std::cos(vd) * sd) < 1e-12,
          "%s normal_double[%d] %.17g %.17g", name, t, nrmd[t * 2], nrmd[t * 2 + 1]);
    double want_ln = std::exp(0.5 + 0.25 * (double)nrm[t * 2]);
    CHECK(std::fabs(lgn[t] - want_ln) < 1e-6 * want_ln, "%s log_normal[%d] %.9g, want %.9g", name,
          t, lgn[t], want_ln);
    sum += nrm[t * 2] + nrm[t * 2 + 1];
    sq += (double)nrm[t * 2] * nrm[t * 2] + (double)nrm[t * 2 + 1] * nrm[t * 2 + 1];
  }
  double mean = sum / (2 * kDist), var = sq / (2 * kDist) - mean * mean;
  // 8192 samples: the mean's standard error is 0.011, the variance's 0.016.
  CHECK(std::fabs(mean) < 0.05 && std::fabs(var - 1) < 0.08, "%s normals: mean %g variance %g",
        name, mean, var);
}

int main() {
  // 1. Philox known answers (Random123's kat_vectors).
  {
    static const unsigned int kat[12] = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8,
                                         0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd,
                                         0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
    P4 c0 = {{0, 0, 0, 0}}, c1 = {{~0u, ~0u, ~0u, ~0u}},
       c2 = {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}};
    P4 r0 = ref_philox(c0, 0, 0), r1 = ref_philox(c1, ~0u, ~0u),
       r2 = ref_philox(c2, 0xa4093822, 0x299f31d0);
    for (int i = 0; i < 4; i++)
      CHECK(r0.v[i] == kat[i] && r1.v[i] == kat[4 + i] && r2.v[i] == kat[8 + i],
            "the test's own Philox misses the KAT at %d", i);
    unsigned int *d = dev<unsigned int>(12);
    philox_kat<<<1, 1>>>(d);
    HIPCHECK(hipGetLastError());
    std::vector<unsigned int> h = host(d, 12);
    for (int i = 0; i < 12; i++)
      CHECK(h[i] == kat[i], "Philox KAT %d: %08x, want %08x", i, h[i], kat[i]);
    HIPCHECK(hipFree(d));
  }
  // 2. Philox streams: thread t is subsequence t, from offsets 0, 3, 4 and 2^40+1.
  {
    unsigned int *d = dev<unsigned int>(kThreads * kDraws);
    const unsigned long long seed = 0x0123456789abcdefull;
    for (unsigned long long off : {0ull, 3ull, 4ull, (1ull << 40) + 1}) {
      philox_streams<<<kThreads / 128, 128>>>(seed, off, d);
      HIPCHECK(hipGetLastError());
      std::vector<unsigned int> h = host(d, kThreads * kDraws);
      for (int t = 0; t < kThreads; t++)
        for (int i = 0; i < kDraws; i++) {
          unsigned int want = ref_philox_at(seed, t, off + i);
          CHECK(h[t * kDraws + i] == want, "Philox thread %d offset %llu draw %d: %08x, want %08x",
                t, off, i, h[t * kDraws + i], want);
        }
    }
    HIPCHECK(hipFree(d));
  }
  // 3. hiprand4 / hiprand_uniform4 at every position.
  {
    unsigned int *o4 = dev<unsigned int>(64), *o1 = dev<unsigned int>(64);
    float *u4 = dev<float>(32), *u1 = dev<float>(32);
    philox_four<<<1, 8>>>(o4, o1, u4, u1);
    HIPCHECK(hipGetLastError());
    std::vector<unsigned int> h4 = host(o4, 64), h1 = host(o1, 64);
    std::vector<float> f4 = host(u4, 32), f1 = host(u1, 32);
    for (int k = 0; k < 8; k++) {
      for (int i = 0; i < 5; i++)
        CHECK(h4[k * 8 + i] == h1[k * 8 + i], "hiprand4 after %d draws, value %d: %08x, want %08x",
              k, i, h4[k * 8 + i], h1[k * 8 + i]);
      for (int i = 0; i < 4; i++)
        CHECK(f4[k * 4 + i] == f1[k * 4 + i], "hiprand_uniform4 offset %d value %d", k, i);
    }
    HIPCHECK(hipFree(o4));
    HIPCHECK(hipFree(o1));
    HIPCHECK(hipFree(u4));
    HIPCHECK(hipFree(u1));
  }
  // 4. XORWOW: Marsaglia's state from the salt-cancelling seed, then small and
  // large offsets and subsequences against this test's own stepping and matrices.
  {
    const unsigned long long marsaglia = 0xf7dcefddaad26b49ull, seed = 1234;
    XW m = ref_xorwow_seed(marsaglia);
    CHECK(m.v[0] == 123456789u && m.v[1] == 362436069u && m.v[2] == 521288629u &&
              m.v[3] == 88675123u && m.v[4] == 5783321u && m.d == 6615241u,
          "the salt-cancelling seed does not give Marsaglia's initial state");
    const Mat step = step_matrix();
    const Mat jump67 = power(power(step, 1ull << 33), 1ull << 34); // M^(2^67)
    struct Case {
      unsigned long long seed, sub, off;
    };
    std::vector<Case> cases;
    for (unsigned long long off = 0; off < 40; off++)
      cases.push_back({marsaglia, 0, off});
    for (unsigned long long off : {100ull, 999ull, 4096ull, (1ull << 40) + 12345, ~0ull})
      cases.push_back({seed, 0, off});
    for (unsigned long long sub : {1ull, 2ull, 5ull, 1000ull, (1ull << 33) + 7})
      cases.push_back({seed, sub, 0});
    cases.push_back({seed, 3, 77});
    const int n = (int)cases.size();
    std::vector<unsigned long long> subs(n), offs(n);
    for (int i = 0; i < n; i++) {
      subs[i] = cases[i].sub;
      offs[i] = cases[i].off;
    }
    unsigned long long *dsubs = dev<unsigned long long>(n), *doffs = dev<unsigned long long>(n);
    unsigned int *d = dev<unsigned int>(n * kDraws);
    HIPCHECK(hipMemcpy(dsubs, subs.data(), n * 8, hipMemcpyHostToDevice));
    HIPCHECK(hipMemcpy(doffs, offs.data(), n * 8, hipMemcpyHostToDevice));
    // One kernel per seed (the seed is an argument).
    for (unsigned long long sd : {marsaglia, seed}) {
      xorwow_streams<<<(n + 63) / 64, 64>>>(sd, dsubs, doffs, n, d);
      HIPCHECK(hipGetLastError());
      std::vector<unsigned int> h = host(d, n * kDraws);
      for (int i = 0; i < n; i++) {
        if (cases[i].seed != sd)
          continue;
        XW s = ref_xorwow_seed(sd);
        if (cases[i].sub)
          apply(power(jump67, cases[i].sub), s.v);
        if (cases[i].off < 5000) {
          for (unsigned long long k = 0; k < cases[i].off; k++)
            ref_xorwow_next(s);
        } else {
          apply(power(step, cases[i].off), s.v);
          s.d += 362437u * (unsigned int)cases[i].off;
        }
        for (int j = 0; j < kDraws; j++) {
          unsigned int want = ref_xorwow_next(s);
          CHECK(h[i * kDraws + j] == want,
                "XORWOW seed %llx sub %llu off %llu draw %d: %08x, want %08x", sd, cases[i].sub,
                cases[i].off, j, h[i * kDraws + j], want);
        }
      }
    }
    HIPCHECK(hipFree(d));
    HIPCHECK(hipFree(dsubs));
    HIPCHECK(hipFree(doffs));
  }
  // 5. Distributions, both generators.
  {
    unsigned int *ints = dev<unsigned int>(kDist * 4);
    float *uni = dev<float>(kDist), *nrm = dev<float>(kDist * 2);
    double *unid = dev<double>(kDist), *nrmd = dev<double>(kDist * 2);
    float *lgn = dev<float>(kDist);
    distributions<hiprandStatePhilox4_32_10_t>
        <<<kDist / 256, 256>>>(ints, uni, unid, nrm, nrmd, lgn);
    HIPCHECK(hipGetLastError());
    check_distributions("Philox", host(ints, kDist * 4), host(uni, kDist), host(unid, kDist),
                        host(nrm, kDist * 2), host(nrmd, kDist * 2), host(lgn, kDist));
    distributions<hiprandStateXORWOW_t><<<kDist / 256, 256>>>(ints, uni, unid, nrm, nrmd, lgn);
    HIPCHECK(hipGetLastError());
    check_distributions("XORWOW", host(ints, kDist * 4), host(uni, kDist), host(unid, kDist),
                        host(nrm, kDist * 2), host(nrmd, kDist * 2), host(lgn, kDist));
    HIPCHECK(hipFree(ints));
    HIPCHECK(hipFree(uni));
    HIPCHECK(hipFree(nrm));
    HIPCHECK(hipFree(unid));
    HIPCHECK(hipFree(nrmd));
    HIPCHECK(hipFree(lgn));
  }
  if (failures) {
    std::printf("hiprand_device: %d failures\n", failures);
    return 1;
  }
  std::printf("hiprand_device: ok\n");
  return 0;
}
