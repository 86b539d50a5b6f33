// SPDX-License-Identifier: MIT
// hipRAND's host API (hiprand/hiprand.h, libhiprand), on the current device
// and on the host (hiprandCreateGeneratorHost), against references this test
// computes on its own or that are published:
// - Philox4x32-10, seed 0: Random123's known-answer vector for counter 0 and
//   key 0; other seeds and offsets: the single Philox stream, drawn on the
//   host through the device API; two calls continue the stream.
// - XORWOW: the seed 0xf7dcefddaad26b49 leaves Marsaglia's initial state
//   (cuRAND's seeding), so value k * 131072 (stream 0's value k) is step
//   k + 1 of his recurrence, written here; value n is value n / 131072 of
//   subsequence n % 131072 (rocRAND's documented ordering), checked for
//   streams at the edges of the set-up chunks, for XORWOW and MRG32k3a.
// - MRG32k3a, seed 0 (L'Ecuyer's seeds, 12345 x 6): the first combined
//   outputs of L'Ecuyer's recurrence are 545508589 and 1368065410 (his
//   0.12701112204657714 and 0.3185275653967945 with 1 / (m1 + 1)); the
//   uniform doubles are those times cuRAND's 2.3283065498378288e-10 (1 / m1).
// - Sobol32 with 1024 dimensions: the first 16 points of dimensions 1-5 and
//   1024, as a set, are those of Joe and Kuo's numbers (SciPy's unscrambled
//   Sobol); dimension 1 is the Gray-code van der Corput order.
// - The distributions' moments, and the errors: a NULL generator, a wrong or
//   unimplemented type, lengths that are not a multiple, lambda <= 0.
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
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
#define RANDCHECK(e)                                                                               \
  do {                                                                                             \
    hiprandStatus_t s_ = (e);                                                                      \
    if (s_ != HIPRAND_STATUS_SUCCESS) {                                                            \
      std::printf("FAIL %s:%d: %s = %d\n", __FILE__, __LINE__, #e, (int)s_);                       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// Memory the generator writes: device memory, or host memory for a host
// generator.
template <typename T> struct buffer {
  bool host;
  size_t n;
  T *p = nullptr;
  buffer(bool h, size_t count) : host(h), n(count) {
    if (host)
      p = static_cast<T *>(std::malloc(n * sizeof(T)));
    else if (hipMalloc(&p, n * sizeof(T)) != hipSuccess)
      std::exit(1);
  }
  ~buffer() {
    if (host)
      std::free(p);
    else
      (void)hipFree(p);
  }
  std::vector<T> get() {
    std::vector<T> v(n);
    if (host)
      std::copy(p, p + n, v.begin());
    else if (hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost) != hipSuccess)
      std::exit(1);
    return v;
  }
};

// XORWOW's and MRG32k3a's states (rocRAND's ordering).
constexpr size_t kStreams = 131072;

// Value n of a fresh generator's output is value n / kStreams of
// subsequence n % kStreams: streams at the edges of libhiprand's set-up
// chunks (128 states per thread) and the last one.
template <typename State>
static void check_order(const std::vector<unsigned int> &v, unsigned long long seed,
                        const char *what) {
  for (size_t t : {(size_t)1, (size_t)127, (size_t)128, (size_t)129, (size_t)77777, kStreams - 1}) {
    State s;
    hiprand_init(seed, t, 0, &s);
    for (size_t k = 0; k < v.size() / kStreams; k++) {
      unsigned int want = hiprand(&s);
      CHECK(v[k * kStreams + t] == want, "%s value %zu: %08x, subsequence %zu's value %zu is %08x",
            what, k * kStreams + t, v[k * kStreams + t], t, k, want);
    }
  }
}

static hiprandGenerator_t make(bool host, hiprandRngType_t type) {
  hiprandGenerator_t g = nullptr;
  RANDCHECK(host ? hiprandCreateGeneratorHost(&g, type) : hiprandCreateGenerator(&g, type));
  return g;
}

static void philox(bool host) {
  hiprandGenerator_t g = make(host, HIPRAND_RNG_PSEUDO_PHILOX4_32_10);
  buffer<unsigned int> b(host, 64);
  RANDCHECK(hiprandGenerate(g, b.p, 8));
  std::vector<unsigned int> v = b.get();
  const unsigned int kat[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
  for (int i = 0; i < 4; i++)
    CHECK(v[i] == kat[i], "philox seed 0 value %d: %08x, Random123 says %08x", i, v[i], kat[i]);
  RANDCHECK(hiprandDestroyGenerator(g));

  // Seed, offset 5 (not a whole counter), two calls that continue the stream.
  const unsigned long long seed = 0x123456789abcdefull;
  g = make(host, HIPRAND_RNG_PSEUDO_PHILOX4_32_10);
  RANDCHECK(hiprandSetPseudoRandomGeneratorSeed(g, seed));
  RANDCHECK(hiprandSetGeneratorOffset(g, 5));
  RANDCHECK(hiprandGenerate(g, b.p, 24));
  std::vector<unsigned int> first = b.get();
  RANDCHECK(hiprandGenerate(g, b.p, 40));
  std::vector<unsigned int> second = b.get();
  hiprandStatePhilox4_32_10_t s;
  hiprand_init(seed, 0, 5, &s);
  for (int i = 0; i < 24; i++) {
    unsigned int want = hiprand(&s);
    CHECK(first[i] == want, "philox value %d: %08x, the stream has %08x", i, first[i], want);
  }
  for (int i = 0; i < 40; i++) {
    unsigned int want = hiprand(&s);
    CHECK(second[i] == want, "philox 2nd call value %d: %08x, the stream has %08x", i, second[i],
          want);
  }
  // Normals: the Box-Muller pairs of the stream's integers.
  RANDCHECK(hiprandSetGeneratorOffset(g, 0));
  buffer<float> f(host, 8);
  RANDCHECK(hiprandGenerateNormal(g, f.p, 8, 1.0f, 2.0f));
  std::vector<float> nv = f.get();
  hiprand_init(seed, 0, 0, &s);
  for (int i = 0; i < 8; i += 2) {
    unsigned int x = hiprand(&s), y = hiprand(&s);
    double u = x * std::ldexp(1.0, -32) + std::ldexp(1.0, -33);
    double w = (y * std::ldexp(1.0, -32) + std::ldexp(1.0, -33)) * 2 * M_PI;
    double r = std::sqrt(-2 * std::log(u));
    CHECK(std::fabs(nv[i] - (1 + 2 * r * std::sin(w))) < 1e-4, "philox normal %d: %g", i, nv[i]);
    CHECK(std::fabs(nv[i + 1] - (1 + 2 * r * std::cos(w))) < 1e-4, "philox normal %d: %g", i + 1,
          nv[i + 1]);
  }
  RANDCHECK(hiprandDestroyGenerator(g));
}

static void xorwow(bool host) {
  hiprandGenerator_t g = make(host, HIPRAND_RNG_PSEUDO_DEFAULT);
  RANDCHECK(hiprandSetPseudoRandomGeneratorSeed(g, 0xf7dcefddaad26b49ull));
  const size_t n = kStreams * 3;
  buffer<unsigned int> b(host, n);
  RANDCHECK(hiprandGenerate(g, b.p, n));
  std::vector<unsigned int> v = b.get();
  unsigned int x = 123456789, y = 362436069, z = 521288629, w = 88675123, u = 5783321, d = 6615241;
  for (int k = 0; k < 3; k++) {
    unsigned int t = x ^ (x >> 2);
    x = y;
    y = z;
    z = w;
    w = u;
    u = (u ^ (u << 4)) ^ (t ^ (t << 1));
    d += 362437;
    CHECK(v[k * kStreams] == u + d, "xorwow value %zu: %08x, Marsaglia's step %d gives %08x",
          k * kStreams, v[k * kStreams], k + 1, u + d);
  }
  check_order<hiprandStateXORWOW_t>(v, 0xf7dcefddaad26b49ull, "xorwow");
  RANDCHECK(hiprandDestroyGenerator(g));
}

static void mrg(bool host) {
  hiprandGenerator_t g = make(host, HIPRAND_RNG_PSEUDO_MRG32K3A);
  buffer<double> b(host, 2 * kStreams);
  RANDCHECK(hiprandGenerateUniformDouble(g, b.p, 2 * kStreams));
  std::vector<double> v = b.get();
  CHECK(v[0] == 545508589 * 2.3283065498378288e-10, "mrg32k3a first: %.17g", v[0]);
  CHECK(v[kStreams] == 1368065410 * 2.3283065498378288e-10, "mrg32k3a second: %.17g", v[kStreams]);
  RANDCHECK(hiprandDestroyGenerator(g));

  buffer<unsigned int> bits(host, 2 * kStreams);
  g = make(host, HIPRAND_RNG_PSEUDO_MRG32K3A);
  RANDCHECK(hiprandSetPseudoRandomGeneratorSeed(g, 0x1234567890ull));
  RANDCHECK(hiprandGenerate(g, bits.p, 2 * kStreams));
  check_order<hiprandStateMRG32k3a_t>(bits.get(), 0x1234567890ull, "mrg32k3a");
  RANDCHECK(hiprandDestroyGenerator(g));

  hiprandStateMRG32k3a_t a, c;
  hiprand_init(77, 3, 0, &a);
  hiprand_init(77, 3, 1000, &c);
  for (int i = 0; i < 1000; i++)
    (void)hiprand(&a);
  CHECK(hiprand(&a) == hiprand(&c), "mrg32k3a skipahead(1000) is not 1000 steps");
}

static void sobol(bool host) {
  hiprandGenerator_t g = make(host, HIPRAND_RNG_QUASI_DEFAULT);
  RANDCHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 1024));
  buffer<unsigned int> b(host, 16 * 1024);
  RANDCHECK(hiprandGenerate(g, b.p, 16 * 1024));
  std::vector<unsigned int> v = b.get();
  // SciPy's first 16 unscrambled points (natural order), dimensions 1-5 and
  // 1024, times 16.
  const int ref[16][6] = {
      {0, 0, 0, 0, 0, 0},    {8, 8, 8, 8, 8, 8},    {12, 4, 4, 4, 12, 12},  {4, 12, 12, 12, 4, 4},
      {6, 6, 10, 14, 6, 14}, {14, 14, 2, 6, 14, 6}, {10, 2, 14, 10, 10, 2}, {2, 10, 6, 2, 2, 10},
      {3, 5, 15, 7, 9, 1},   {11, 13, 7, 15, 1, 9}, {15, 1, 11, 3, 5, 13},  {7, 9, 3, 11, 13, 5},
      {5, 3, 5, 9, 15, 15},  {13, 11, 13, 1, 7, 7}, {9, 7, 1, 13, 3, 3},    {1, 15, 9, 5, 11, 11}};
  const int dims[6] = {0, 1, 2, 3, 4, 1023};
  std::set<std::vector<unsigned int>> want, got;
  for (int j = 0; j < 16; j++) {
    std::vector<unsigned int> p, q;
    for (int k = 0; k < 6; k++) {
      p.push_back((unsigned int)ref[j][k] << 28);
      q.push_back(v[dims[k] * 16 + j]);
    }
    want.insert(p);
    got.insert(q);
  }
  CHECK(want == got, "sobol: the first 16 points are not Joe and Kuo's");
  const unsigned int gray1[8] = {0,           0x80000000u, 0xc0000000u, 0x40000000u,
                                 0x60000000u, 0xe0000000u, 0xa0000000u, 0x20000000u};
  for (int j = 0; j < 8; j++)
    CHECK(v[j] == gray1[j], "sobol dimension 1 point %d: %08x, want %08x", j, v[j], gray1[j]);
  // Offset 3, and a second call continuing.
  RANDCHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 1));
  RANDCHECK(hiprandSetGeneratorOffset(g, 3));
  RANDCHECK(hiprandGenerate(g, b.p, 2));
  std::vector<unsigned int> w = b.get();
  RANDCHECK(hiprandGenerate(g, b.p, 3));
  std::vector<unsigned int> w2 = b.get();
  CHECK(w[0] == gray1[3] && w[1] == gray1[4] && w2[0] == gray1[5] && w2[2] == gray1[7],
        "sobol offset 3: %08x %08x, then %08x .. %08x", w[0], w[1], w2[0], w2[2]);
  RANDCHECK(hiprandDestroyGenerator(g));
}

// The device API's Sobol32 state with hiprandGetDirectionVectors32's vectors
// gives the host API's points (dimension 3, from point 5).
__global__ void sobol_points(const unsigned int *vectors, unsigned int *out, int n) {
  hiprandStateSobol32_t s;
  hiprand_init(vectors, 5, &s);
  for (int i = 0; i < n; i++)
    out[i] = hiprand(&s);
}

static void sobol_device_api() {
  hiprandDirectionVectors32_t *v = nullptr;
  RANDCHECK(hiprandGetDirectionVectors32(&v, HIPRAND_DIRECTION_VECTORS_32_JOEKUO6));
  CHECK(v[0][0] == 0x80000000u && v[0][1] == 0x40000000u, "dimension 1's vectors");
  unsigned int *dv, *dout;
  CHECK(hipMalloc(&dv, 32 * sizeof(unsigned int)) == hipSuccess, "hipMalloc");
  CHECK(hipMalloc(&dout, 64 * sizeof(unsigned int)) == hipSuccess, "hipMalloc");
  CHECK(hipMemcpy(dv, v[2], 32 * sizeof(unsigned int), hipMemcpyHostToDevice) == hipSuccess,
        "hipMemcpy");
  sobol_points<<<1, 1>>>(dv, dout, 64);
  std::vector<unsigned int> got(64);
  CHECK(hipMemcpy(got.data(), dout, 64 * sizeof(unsigned int), hipMemcpyDeviceToHost) == hipSuccess,
        "hipMemcpy");
  hiprandGenerator_t g = make(true, HIPRAND_RNG_QUASI_SOBOL32);
  RANDCHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 3));
  RANDCHECK(hiprandSetGeneratorOffset(g, 5));
  std::vector<unsigned int> want(3 * 64);
  RANDCHECK(hiprandGenerate(g, want.data(), want.size()));
  RANDCHECK(hiprandDestroyGenerator(g));
  CHECK(std::equal(got.begin(), got.end(), want.begin() + 2 * 64),
        "device API Sobol32 points differ from the host API's");
  CHECK(hiprandGetDirectionVectors32(&v, HIPRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6) ==
            HIPRAND_STATUS_NOT_IMPLEMENTED,
        "scrambled vectors");
  unsigned long long ll;
  g = make(false, HIPRAND_RNG_PSEUDO_PHILOX4_32_10);
  CHECK(hiprandGenerateLongLong(g, &ll, 1) == HIPRAND_STATUS_TYPE_ERROR, "64-bit from Philox");
  RANDCHECK(hiprandDestroyGenerator(g));
  (void)hipFree(dv);
  (void)hipFree(dout);
}

static void moments(bool host, hiprandRngType_t type) {
  hiprandGenerator_t g = make(host, type);
  const size_t n = 1 << 16;
  buffer<float> f(host, n);
  buffer<double> d(host, n);
  buffer<unsigned int> u(host, n);
  auto stats = [](const auto &v, double &mean, double &var) {
    double s = 0, s2 = 0;
    for (auto x : v) {
      s += x;
      s2 += (double)x * x;
    }
    mean = s / v.size();
    var = s2 / v.size() - mean * mean;
  };
  double m, var;
  RANDCHECK(hiprandGenerateUniform(g, f.p, n));
  std::vector<float> vf = f.get();
  stats(vf, m, var);
  CHECK(std::fabs(m - 0.5) < 0.01 && std::fabs(var - 1.0 / 12) < 0.005,
        "type %d uniform: mean %g var %g", (int)type, m, var);
  CHECK(*std::min_element(vf.begin(), vf.end()) > 0.0f &&
            *std::max_element(vf.begin(), vf.end()) <= 1.0f,
        "type %d uniform outside (0, 1]", (int)type);
  RANDCHECK(hiprandGenerateUniformDouble(g, d.p, n));
  std::vector<double> vd = d.get();
  stats(vd, m, var);
  CHECK(std::fabs(m - 0.5) < 0.01, "type %d uniform double: mean %g", (int)type, m);
  RANDCHECK(hiprandGenerateNormal(g, f.p, n, 3.0f, 2.0f));
  vf = f.get();
  stats(vf, m, var);
  CHECK(std::fabs(m - 3.0) < 0.05 && std::fabs(var - 4.0) < 0.2, "type %d normal: mean %g var %g",
        (int)type, m, var);
  RANDCHECK(hiprandGenerateNormalDouble(g, d.p, n, -1.0, 0.5));
  vd = d.get();
  stats(vd, m, var);
  CHECK(std::fabs(m + 1.0) < 0.02 && std::fabs(var - 0.25) < 0.02,
        "type %d normal double: mean %g var %g", (int)type, m, var);
  // Log-normal(0, 0.5): mean e^(1/8).
  RANDCHECK(hiprandGenerateLogNormal(g, f.p, n, 0.0f, 0.5f));
  vf = f.get();
  stats(vf, m, var);
  CHECK(std::fabs(m - std::exp(0.125)) < 0.02, "type %d log-normal: mean %g", (int)type, m);
  RANDCHECK(hiprandGenerateLogNormalDouble(g, d.p, n, 0.0, 0.5));
  vd = d.get();
  stats(vd, m, var);
  CHECK(std::fabs(m - std::exp(0.125)) < 0.02, "type %d log-normal double: mean %g", (int)type, m);
  for (double lambda : {4.0, 200.0}) {
    RANDCHECK(hiprandGeneratePoisson(g, u.p, n, lambda));
    std::vector<unsigned int> vu = u.get();
    stats(vu, m, var);
    CHECK(std::fabs(m - lambda) < 0.03 * lambda && std::fabs(var - lambda) < 0.1 * lambda,
          "type %d poisson(%g): mean %g var %g", (int)type, lambda, m, var);
  }
  RANDCHECK(hiprandDestroyGenerator(g));
}

static void errors() {
  hiprandGenerator_t g = nullptr;
  float *p = nullptr;
  CHECK(hipMalloc(&p, 64 * sizeof(float)) == hipSuccess, "hipMalloc");
  CHECK(hiprandCreateGenerator(nullptr, HIPRAND_RNG_PSEUDO_XORWOW) ==
            HIPRAND_STATUS_NOT_INITIALIZED,
        "create(NULL)");
  CHECK(hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_MTGP32) == HIPRAND_STATUS_NOT_IMPLEMENTED,
        "MTGP32");
  CHECK(hiprandCreateGenerator(&g, (hiprandRngType_t)12345) == HIPRAND_STATUS_TYPE_ERROR,
        "an unknown type");
  CHECK(hiprandGenerateUniform(nullptr, p, 4) == HIPRAND_STATUS_NOT_INITIALIZED, "NULL generator");
  CHECK(hiprandDestroyGenerator(nullptr) == HIPRAND_STATUS_NOT_INITIALIZED, "destroy(NULL)");
  CHECK(hiprandSetPseudoRandomGeneratorSeed(nullptr, 1) == HIPRAND_STATUS_NOT_INITIALIZED,
        "seed(NULL)");
  CHECK(hiprandSetStream(nullptr, 0) == HIPRAND_STATUS_NOT_INITIALIZED, "stream(NULL)");

  RANDCHECK(hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_PHILOX4_32_10));
  CHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 2) == HIPRAND_STATUS_TYPE_ERROR,
        "dimensions of a pseudo generator");
  CHECK(hiprandGenerateNormal(g, p, 3, 0.0f, 1.0f) == HIPRAND_STATUS_LENGTH_NOT_MULTIPLE,
        "odd normal count");
  CHECK(hiprandGeneratePoisson(g, (unsigned int *)p, 4, 0.0) == HIPRAND_STATUS_OUT_OF_RANGE,
        "lambda 0");
  CHECK(hiprandGenerateUniform(g, p, 0) == HIPRAND_STATUS_SUCCESS, "n = 0");
  RANDCHECK(hiprandDestroyGenerator(g));

  RANDCHECK(hiprandCreateGenerator(&g, HIPRAND_RNG_QUASI_SOBOL32));
  CHECK(hiprandSetPseudoRandomGeneratorSeed(g, 1) == HIPRAND_STATUS_TYPE_ERROR,
        "the seed of a quasi generator");
  CHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 0) == HIPRAND_STATUS_OUT_OF_RANGE,
        "0 dimensions");
  CHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 100000) == HIPRAND_STATUS_OUT_OF_RANGE,
        "100000 dimensions");
  RANDCHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 3));
  CHECK(hiprandGenerateUniform(g, p, 10) == HIPRAND_STATUS_LENGTH_NOT_MULTIPLE,
        "10 values in 3 dimensions");
  RANDCHECK(hiprandDestroyGenerator(g));

  int version = 0;
  RANDCHECK(hiprandGetVersion(&version));
  CHECK(version == HIPRAND_VERSION, "version %d", version);
  (void)hipFree(p);
}

// A generator on a stream: the values are there after the stream's work.
static void on_stream() {
  hipStream_t st;
  CHECK(hipStreamCreate(&st) == hipSuccess, "hipStreamCreate");
  hiprandGenerator_t g = make(false, HIPRAND_RNG_PSEUDO_XORWOW);
  RANDCHECK(hiprandSetStream(g, st));
  RANDCHECK(hiprandSetPseudoRandomGeneratorSeed(g, 42));
  buffer<float> f(false, 1024);
  RANDCHECK(hiprandGenerateUniform(g, f.p, 1024));
  CHECK(hipStreamSynchronize(st) == hipSuccess, "hipStreamSynchronize");
  std::vector<float> v = f.get();
  hiprandStateXORWOW_t s;
  hiprand_init(42, 5, 0, &s);
  // x * 2^-32 + 2^-33, fused or not (a GPU may fuse it): within an ulp.
  float want = hiprand_uniform(&s);
  CHECK(std::fabs(v[5] - want) <= 1.2e-7f * want, "stream: value 5 is not subsequence 5's uniform");
  RANDCHECK(hiprandDestroyGenerator(g));
  (void)hipStreamDestroy(st);
}

int main() {
  for (bool host : {false, true}) {
    philox(host);
    xorwow(host);
    mrg(host);
    sobol(host);
    for (hiprandRngType_t t : {HIPRAND_RNG_PSEUDO_XORWOW, HIPRAND_RNG_PSEUDO_MRG32K3A,
                               HIPRAND_RNG_PSEUDO_PHILOX4_32_10, HIPRAND_RNG_QUASI_SOBOL32})
      moments(host, t);
  }
  errors();
  on_stream();
  sobol_device_api();
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("hiprand_host: ok\n");
  return 0;
}
