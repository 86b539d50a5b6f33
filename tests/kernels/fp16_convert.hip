// SPDX-License-Identifier: MIT
// hip_fp16.h conversions against the independent reference in fp16_ref.h:
// every one of the 65536 half bit patterns to float and back (in a kernel);
// float to half in all four rounding modes over the midpoints of every pair
// of neighbouring halves, their float neighbours and random floats of every
// exponent (denormals, overflow, infinity, NaN); double to half where only
// double sees the tie broken; integers to half and half to integers in every
// mode, saturation and NaN included (kernel and host code). A NaN stays a
// NaN on every device; its sign and payload are kept only where anyhip
// promises it (the CPU device; an NVIDIA GPU gives its canonical NaN:
// docs/semantics.md, "Numbers").
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>

#include "engine_test.h"
#include "fp16_ref.h"

// Whether the device keeps a NaN's sign and payload in conversions (set in
// main): the CPU device does, an NVIDIA GPU returns its canonical NaN.
static bool nan_payload_kept = true;

// A converted half is right: equal to want, or, where want is a NaN and the
// device does not keep payloads, any NaN.
static bool half_ok(uint16_t got, uint16_t want) {
  if (ref::is_nan(want) && !nan_payload_kept)
    return ref::is_nan(got);
  return got == want;
}

__global__ void all_patterns(float *f, unsigned short *back, int *to_int, short *to_short) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __half h = __ushort_as_half((unsigned short)i);
  f[i] = __half2float(h);
  back[i] = __half_as_ushort(__float2half(f[i]));
  to_int[4 * i + 0] = __half2int_rn(h);
  to_int[4 * i + 1] = __half2int_rz(h);
  to_int[4 * i + 2] = __half2int_ru(h);
  to_int[4 * i + 3] = __half2int_rd(h);
  to_short[4 * i + 0] = __half2short_rn(h);
  to_short[4 * i + 1] = __half2short_rz(h);
  to_short[4 * i + 2] = __half2short_ru(h);
  to_short[4 * i + 3] = __half2short_rd(h);
}

__global__ void round_floats(const float *in, const double *din, unsigned short *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[5 * i + 0] = __half_as_ushort(__float2half_rn(in[i]));
  out[5 * i + 1] = __half_as_ushort(__float2half_rz(in[i]));
  out[5 * i + 2] = __half_as_ushort(__float2half_ru(in[i]));
  out[5 * i + 3] = __half_as_ushort(__float2half_rd(in[i]));
  out[5 * i + 4] = __half_as_ushort(__double2half(din[i]));
}

__global__ void round_ints(const long long *in, unsigned short *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long v = in[i];
  unsigned long long u = (unsigned long long)v;
  out[8 * i + 0] = __half_as_ushort(__ll2half_rn(v));
  out[8 * i + 1] = __half_as_ushort(__ll2half_rz(v));
  out[8 * i + 2] = __half_as_ushort(__ll2half_ru(v));
  out[8 * i + 3] = __half_as_ushort(__ll2half_rd(v));
  out[8 * i + 4] = __half_as_ushort(__ull2half_rn(u));
  out[8 * i + 5] = __half_as_ushort(__ull2half_rz(u));
  out[8 * i + 6] = __half_as_ushort(__ull2half_ru(u));
  out[8 * i + 7] = __half_as_ushort(__ull2half_rd(u));
}

// The reference for an integer: |v| * 2^25 against K, in 128 bits.
static uint16_t ref_int(bool neg, unsigned long long mag, int mode) {
  unsigned __int128 x = (unsigned __int128)mag << 25;
  return ref::round(
      neg,
      [x](int64_t k) {
        unsigned __int128 kk = (unsigned __int128)k;
        return x > kk ? 1 : x < kk ? -1 : 0;
      },
      mode);
}

static int patterns() {
  const int n = 65536;
  std::vector<float> f(n);
  std::vector<unsigned short> back(n);
  std::vector<int> ti(4 * n);
  std::vector<short> ts(4 * n);
  float *df;
  unsigned short *db;
  int *dti;
  short *dts;

  CHECK_HIP(hipMalloc(&df, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&db, n * sizeof(unsigned short)));
  CHECK_HIP(hipMalloc(&dti, 4 * n * sizeof(int)));
  CHECK_HIP(hipMalloc(&dts, 4 * n * sizeof(short)));
  all_patterns<<<n / 256, 256>>>(df, db, dti, dts);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(f.data(), df, n * sizeof(float), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(back.data(), db, n * sizeof(unsigned short), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(ti.data(), dti, 4 * n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(ts.data(), dts, 4 * n * sizeof(short), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(df));
  CHECK_HIP(hipFree(db));
  CHECK_HIP(hipFree(dti));
  CHECK_HIP(hipFree(dts));

  int bad = 0;
  for (int i = 0; i < n; i++) {
    uint16_t h = (uint16_t)i;
    double v = ref::value(h);
    if (ref::is_nan(h)) {
      // Quiet NaN, same sign, the half's payload on top of float's.
      uint32_t want = ((uint32_t)(h & 0x8000) << 16) | 0x7fc00000u | ((uint32_t)(h & 0x3ff) << 13);
      bool ok = nan_payload_kept ? ref::bits(f[i]) == want && back[i] == (h | 0x200)
                                 : std::isnan(f[i]) && ref::is_nan(back[i]);
      if (!ok) {
        if (bad++ < 10)
          std::fprintf(stderr, "NaN %04x -> %08x -> %04x\n", h, ref::bits(f[i]), back[i]);
      }
      continue;
    }
    // Value and sign of zero.
    if ((double)f[i] != v || std::signbit(f[i]) != ((h & 0x8000) != 0) || back[i] != h) {
      if (bad++ < 10)
        std::fprintf(stderr, "%04x -> %a (want %a) -> %04x\n", h, f[i], v, back[i]);
    }
    if (std::isinf(v))
      continue;
    double r[4] = {std::nearbyint(v), std::trunc(v), std::ceil(v), std::floor(v)};
    for (int m = 0; m < 4; m++) {
      long long wi = (long long)r[m];
      long long ws = wi > SHRT_MAX ? SHRT_MAX : wi < SHRT_MIN ? SHRT_MIN : wi;
      if (ti[4 * i + m] != wi || ts[4 * i + m] != ws) {
        if (bad++ < 10)
          std::fprintf(stderr, "%04x mode %d: int %d short %d, want %lld\n", h, m, ti[4 * i + m],
                       ts[4 * i + m], wi);
      }
    }
  }
  // Infinities and NaN saturate / give 0 (checked on the kernel's results).
  CHECK_EQ(ti[4 * 0x7c00], INT_MAX);
  CHECK_EQ(ti[4 * 0xfc00 + 1], INT_MIN);
  CHECK_EQ(ti[4 * 0x7e00], 0);
  CHECK_EQ(ts[4 * 0x7bff], SHRT_MAX); // 65504
  CHECK_EQ(ts[4 * 0xfbff + 3], SHRT_MIN);
  CHECK_EQ(bad, 0);
  return AH_PASS;
}

// Host-side integer conversions of every half, in every mode, for the
// unsigned and 64-bit types, with CUDA's NaN and saturation results.
static int half_to_ints_host() {
  int bad = 0;
  for (int i = 0; i < 65536; i++) {
    __half h = __ushort_as_half((unsigned short)i);
    double v = ref::value((uint16_t)i);
    unsigned long long u[4] = {__half2ull_rn(h), __half2ull_rz(h), __half2ull_ru(h),
                               __half2ull_rd(h)};
    long long l[4] = {__half2ll_rn(h), __half2ll_rz(h), __half2ll_ru(h), __half2ll_rd(h)};
    unsigned int ui[4] = {__half2uint_rn(h), __half2uint_rz(h), __half2uint_ru(h),
                          __half2uint_rd(h)};
    unsigned short us[4] = {__half2ushort_rn(h), __half2ushort_rz(h), __half2ushort_ru(h),
                            __half2ushort_rd(h)};
    for (int m = 0; m < 4; m++) {
      if (std::isnan(v)) {
        bad += u[m] != 0x8000000000000000ull || l[m] != LLONG_MIN || ui[m] != 0 || us[m] != 0;
        continue;
      }
      double r = m == 0   ? std::nearbyint(v)
                 : m == 1 ? std::trunc(v)
                 : m == 2 ? std::ceil(v)
                          : std::floor(v);
      double ru = r < 0 ? 0 : r;
      unsigned long long wu = std::isinf(ru) ? ULLONG_MAX : (unsigned long long)ru;
      long long wl = std::isinf(r) ? (r > 0 ? LLONG_MAX : LLONG_MIN) : (long long)r;
      unsigned wui = wu > UINT_MAX ? UINT_MAX : (unsigned)wu;
      unsigned short wus = wu > USHRT_MAX ? USHRT_MAX : (unsigned short)wu;
      if (u[m] != wu || l[m] != wl || ui[m] != wui || us[m] != wus) {
        if (bad++ < 10)
          std::fprintf(stderr, "%04x mode %d: %llu %lld %u %u\n", i, m, u[m], l[m], ui[m], us[m]);
      }
    }
  }
  // The C++ conversions truncate.
  __half x = __float2half(-2.75f);
  CHECK_EQ((int)x, -2);
  CHECK_EQ((long long)x, -2);
  CHECK_EQ((unsigned)__float2half(70000.0f), UINT_MAX); // infinity saturates
  CHECK_EQ(bad, 0);
  return AH_PASS;
}

static int float_rounding() {
  std::vector<float> in;
  std::vector<double> din;
  // Around every finite half: the half, the midpoint to the next one (the
  // next after 65504 being 65536, the overflow threshold), and their float
  // neighbours; both signs.
  for (unsigned h = 0; h < 0x7c00; h++) {
    double a = ref::value((uint16_t)h),
           b = h + 1 == 0x7c00 ? 65536.0 : ref::value((uint16_t)(h + 1));
    float pts[6] = {(float)a,
                    std::nextafter((float)a, INFINITY),
                    (float)((a + b) / 2),
                    std::nextafter((float)((a + b) / 2), 0.0f),
                    std::nextafter((float)((a + b) / 2), INFINITY),
                    std::nextafter((float)b, 0.0f)};
    for (float p : pts) {
      in.push_back(p);
      in.push_back(-p);
    }
  }
  // Random bit patterns: every exponent, float denormals, infinities, NaNs.
  ref::rng r;
  for (int i = 0; i < 200000; i++)
    in.push_back(ref::from_bits((uint32_t)r.next()));
  const float special[] = {
      0.0f,    -0.0f,  65504.0f, 65519.996f, 65520.0f,  -65520.0f, 65536.0f, 1e10f,
      3.4e38f, 1e-45f, -1e-45f,  INFINITY,   -INFINITY, NAN,       -NAN,     5.960464477539063e-8f};
  for (float s : special)
    in.push_back(s);
  for (float x : in)
    din.push_back((double)x);
  // Double-only ties: a midpoint nudged by less than float can hold must
  // still leave the tie (one rounding, not double -> float -> half).
  std::vector<double> nudged;
  for (unsigned h = 1; h < 0x7bff; h += 7) {
    double a = ref::value((uint16_t)h), b = ref::value((uint16_t)(h + 1));
    nudged.push_back((a + b) / 2 + (b - a) * 0x1p-30);
    nudged.push_back(-((a + b) / 2 - (b - a) * 0x1p-30));
  }
  for (double d : nudged) {
    in.push_back(0.0f);
    din.push_back(d);
  }

  int n = (int)in.size();
  std::vector<unsigned short> out(5 * (size_t)n);
  float *d_in;
  double *d_din;
  unsigned short *d_out;
  CHECK_HIP(hipMalloc(&d_in, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&d_din, n * sizeof(double)));
  CHECK_HIP(hipMalloc(&d_out, out.size() * sizeof(unsigned short)));
  CHECK_HIP(hipMemcpy(d_in, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(d_din, din.data(), n * sizeof(double), hipMemcpyHostToDevice));
  round_floats<<<(n + 255) / 256, 256>>>(d_in, d_din, d_out, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(
      hipMemcpy(out.data(), d_out, out.size() * sizeof(unsigned short), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d_in));
  CHECK_HIP(hipFree(d_din));
  CHECK_HIP(hipFree(d_out));

  int bad = 0;
  for (int i = 0; i < n; i++) {
    for (int m = 0; m < 4; m++) {
      uint16_t want = ref::from_float(in[i], m);
      if (!half_ok(out[5 * i + m], want) && bad++ < 10)
        std::fprintf(stderr, "%a mode %d: %04x, want %04x\n", in[i], m, out[5 * i + m], want);
    }
    uint16_t wd = std::isnan(din[i])   ? ref::from_float((float)din[i], ref::RN)
                  : std::isinf(din[i]) ? (din[i] > 0 ? 0x7c00 : 0xfc00)
                                       : ref::from_double(din[i], ref::RN);
    if (!half_ok(out[5 * i + 4], wd) && bad++ < 10)
      std::fprintf(stderr, "double %a: %04x, want %04x\n", din[i], out[5 * i + 4], wd);
  }
  // A few by hand, as a check on the reference itself.
  CHECK_EQ(out[5 * (n - (int)nudged.size() - 1)], 0x0001); // 2^-24 is the least subnormal
  CHECK_EQ(ref::from_float(65520.0f, ref::RN), 0x7c00);    // the tie with 65536 overflows
  CHECK_EQ(ref::from_float(65520.0f, ref::RZ), 0x7bff);
  CHECK_EQ(ref::from_float(0x1p-25f, ref::RN), 0x0000);   // tie to even: zero
  CHECK_EQ(ref::from_float(0x1.8p-24f, ref::RN), 0x0002); // tie to even: 2
  CHECK_EQ(ref::from_float(-0x1p-30f, ref::RD), 0x8001);
  CHECK_EQ(ref::from_float(1.0f + 0x1p-11f, ref::RN), 0x3c00);
  CHECK_EQ(ref::from_float(1.0f + 0x1p-11f, ref::RU), 0x3c01);
  std::printf("float/double -> half: %d inputs, 5 conversions each\n", n);
  CHECK_EQ(bad, 0);
  return AH_PASS;
}

static int int_rounding() {
  std::vector<long long> in;
  for (long long v = -70000; v <= 70000; v++)
    in.push_back(v);
  ref::rng r;
  for (int i = 0; i < 20000; i++) {
    unsigned long long x = r.next();
    in.push_back((long long)(x >> (x & 63)));
    in.push_back((long long)x);
  }
  in.push_back(LLONG_MIN);
  in.push_back(LLONG_MAX);
  in.push_back(-1);
  int n = (int)in.size();
  std::vector<unsigned short> out(8 * (size_t)n);
  long long *d_in;
  unsigned short *d_out;
  CHECK_HIP(hipMalloc(&d_in, n * sizeof(long long)));
  CHECK_HIP(hipMalloc(&d_out, out.size() * sizeof(unsigned short)));
  CHECK_HIP(hipMemcpy(d_in, in.data(), n * sizeof(long long), hipMemcpyHostToDevice));
  round_ints<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(
      hipMemcpy(out.data(), d_out, out.size() * sizeof(unsigned short), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d_in));
  CHECK_HIP(hipFree(d_out));

  int bad = 0;
  for (int i = 0; i < n; i++) {
    long long v = in[i];
    unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    for (int m = 0; m < 4; m++) {
      uint16_t ws = ref_int(v < 0, mag, m), wu = ref_int(false, (unsigned long long)v, m);
      if ((out[8 * i + m] != ws || out[8 * i + 4 + m] != wu) && bad++ < 10)
        std::fprintf(stderr, "%lld mode %d: %04x %04x, want %04x %04x\n", v, m, out[8 * i + m],
                     out[8 * i + 4 + m], ws, wu);
    }
    // The narrower types agree with the 64-bit ones where they hold the value.
    if (v >= INT_MIN && v <= INT_MAX) {
      bad += __half_as_ushort(__int2half_rn((int)v)) != out[8 * i + 0];
      bad += __half_as_ushort(__int2half_rd((int)v)) != out[8 * i + 3];
    }
    if (v >= 0 && v <= UINT_MAX)
      bad += __half_as_ushort(__uint2half_ru((unsigned)v)) != out[8 * i + 6];
    if (v >= SHRT_MIN && v <= SHRT_MAX)
      bad += __half_as_ushort(__short2half_rz((short)v)) != out[8 * i + 1];
    if (v >= 0 && v <= USHRT_MAX)
      bad += __half_as_ushort(__ushort2half_rn((unsigned short)v)) != out[8 * i + 4];
  }
  CHECK_EQ(out[8 * (70000 + 2049) + 0], 0x6800); // 2049 -> 2048 (tie to even)
  CHECK_EQ(out[8 * (70000 + 2049) + 2], 0x6801); // ... or up to 2050
  CHECK_EQ(out[8 * (70000 + 65520) + 0], 0x7c00);
  CHECK_EQ(bad, 0);
  return AH_PASS;
}

int main() {
  int r;
  nan_payload_kept = ah_on_cpu_device();
  std::printf("NaN conversions: %s\n", nan_payload_kept ? "sign and payload kept (CPU device)"
                                                         : "any NaN (the GPU's canonical NaN)");
  if ((r = patterns()) != AH_PASS)
    return r;
  if ((r = half_to_ints_host()) != AH_PASS)
    return r;
  if ((r = float_rounding()) != AH_PASS)
    return r;
  if ((r = int_rounding()) != AH_PASS)
    return r;
  std::printf("fp16 conversions: all passed\n");
  return AH_PASS;
}
