// SPDX-License-Identifier: MIT
// Texture objects read in kernels against a reference written here from the rules of
// docs/textures.md: 1D, 2D, 3D, 1D layered and 2D layered arrays of float4, every address
// mode (wrap, clamp, mirror, border) with point and linear filtering, unnormalized and
// normalized coordinates, at coordinates inside and outside the texture; 8-bit integers in
// normalized-float read mode (unsigned and signed), 16-bit integers read as integers,
// halves, linear memory (tex1Dfetch), pitched 2D memory, a mipmapped array (tex2DLod with
// point and linear level filtering, tex2DGrad), a cubemap, tex2Dgather and the
// out-parameter forms. On the CPU device the results must equal the reference to float
// rounding. An NVIDIA GPU keeps filter weights in 9-bit fixed point (8 fractional bits)
// and coordinates to a sub-texel precision of its own, so there a linearly filtered
// result must equal the reference's for some coordinate within 1/256 texel of the one
// given, to within dims * spread / 256 (spread: the channel's range over the texels
// blended), and a point-filtered one exactly; unnormalized wrap and mirror (which CUDA
// clamps) are not compared, and the mipmap, gradient and cubemap cases keep a 1%
// tolerance. Every mismatch is counted and the first few of each case printed, so one
// run shows all that differ.
#include "engine_test.h"

#include <cmath>
#include <cstdint>
#include <vector>

// ---- kernels ---------------------------------------------------------------

__global__ void k1d(hipTextureObject_t t, const float *x, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1D<float4>(t, x[i]);
}
__global__ void k2d(hipTextureObject_t t, const float *x, const float *y, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tex2D(&out[i], t, x[i], y[i]); // the out-parameter form
}
__global__ void k3d(hipTextureObject_t t, const float *x, const float *y, const float *z,
                    float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex3D<float4>(t, x[i], y[i], z[i]);
}
__global__ void k1dl(hipTextureObject_t t, const float *x, int layer, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1DLayered<float4>(t, x[i], layer);
}
__global__ void k2dl(hipTextureObject_t t, const float *x, const float *y, int layer, float4 *out,
                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2DLayered<float4>(t, x[i], y[i], layer);
}
__global__ void k2d_f1(hipTextureObject_t t, const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<float>(t, x[i], y[i]);
}
__global__ void k2d_u16(hipTextureObject_t t, const float *x, const float *y, unsigned *out,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<unsigned short>(t, x[i], y[i]);
}
__global__ void k1d_f1(hipTextureObject_t t, const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1D<float>(t, x[i]);
}
__global__ void kfetch(hipTextureObject_t t, int first, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(t, first + i);
}
__global__ void klod(hipTextureObject_t t, const float *x, const float *y, float lod, float *out,
                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2DLod<float>(t, x[i], y[i], lod);
}
__global__ void klod_u(hipTextureObject_t t, const float *x, const float *y, float lod,
                       unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2DLod<unsigned int>(t, x[i], y[i], lod);
}
__global__ void kgrad(hipTextureObject_t t, const float *x, const float *y, float2 dx, float2 dy,
                      float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2DGrad<float>(t, x[i], y[i], dx, dy);
}
__global__ void kcube(hipTextureObject_t t, const float *x, const float *y, const float *z,
                      float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = texCubemap<float>(t, x[i], y[i], z[i]);
}
__global__ void kgather(hipTextureObject_t t, const float *x, const float *y, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2Dgather<float4>(t, x[i], y[i], 1);
}

// ---- the reference ---------------------------------------------------------

struct V4 {
  float v[4];
};

// A texture as the reference sees it: w x h x s texels (s slices: depth or layers), 4
// channels each, already converted to floats by the read mode.
struct Ref {
  int w, h, s;
  std::vector<V4> t;
  int dims;             // coordinates the fetch takes: 1, 2 or 3
  int mode[3];          // address modes
  bool linear, norm;
  float border[4];
  float lsb = 0;        // one unit of the texel format's last place (normalized integers, halves)
  const V4 *at(int x, int y, int z) const { return &t[((size_t)z * h + y) * w + x]; }
};

// A whole-number texel coordinate c after the address mode (by integer arithmetic on the
// index: wrap repeats every n texels, mirror every 2n).
static float ref_address(float c, int n, int mode, bool *out) {
  *out = false;
  if (mode == hipAddressModeClamp)
    return c < 0 ? 0.0f : c > n - 1 ? (float)(n - 1) : c;
  if (mode == hipAddressModeBorder) {
    *out = c > n - 1 || c < 0;
    return c;
  }
  long long k = (long long)c, p = mode == hipAddressModeWrap ? n : 2LL * n;
  long long m = ((k % p) + p) % p;
  return (float)(m < n ? m : 2LL * n - 1 - m);
}

// The texel at whole-number coordinates (z is a slice when dims < 3).
static V4 ref_texel(const Ref &r, float x, float y, float z) {
  bool bx, by = false, bz = false;
  int n[3] = {r.w, r.h, r.s};
  x = ref_address(x, n[0], r.mode[0], &bx);
  if (r.dims >= 2)
    y = ref_address(y, n[1], r.mode[1], &by);
  if (r.dims >= 3)
    z = ref_address(z, n[2], r.mode[2], &bz);
  if (bx || by || bz)
    return V4{{r.border[0], r.border[1], r.border[2], r.border[3]}};
  auto idx = [](float c, int m) { int i = (int)c; return i < 0 ? 0 : i >= m ? m - 1 : i; };
  return *r.at(idx(x, r.w), idx(y, r.h), idx(z, r.s));
}

// Fraction rounded to 8 bits, as CUDA's 9-bit fixed-point weights.
static void ref_params(float c, float *i, float *a) {
  float b = c - 0.5f, t = std::trunc(b);
  b = t + std::round((b - t) * 256.0f) / 256.0f;
  *i = std::floor(b);
  *a = b - *i;
}

// spread (optional): per channel, the range of the texels a linear fetch blends (0 for a
// point fetch).
static V4 ref_fetch(const Ref &r, float x, float y, float z /* or slice */,
                    V4 *spread = nullptr) {
  if (spread)
    *spread = V4{{0, 0, 0, 0}};
  if (r.norm) {
    x *= r.w;
    if (r.dims >= 2)
      y *= r.h;
    if (r.dims >= 3)
      z *= r.s;
  }
  if (!r.linear)
    return ref_texel(r, std::floor(x), r.dims >= 2 ? std::floor(y) : 0,
                     r.dims >= 3 ? std::floor(z) : z);
  float i, a, j = 0, b = 0, k = z, g = 0;
  ref_params(x, &i, &a);
  if (r.dims >= 2)
    ref_params(y, &j, &b);
  if (r.dims >= 3)
    ref_params(z, &k, &g);
  // Corner weights in the order x fastest; summed last to first.
  int corners = 1 << r.dims;
  V4 terms[8], corner[8];
  for (int c = 0; c < corners; c++) {
    float ox = (c & 1) ? 1.0f : 0.0f, oy = (c & 2) ? 1.0f : 0.0f, oz = (c & 4) ? 1.0f : 0.0f;
    float wgt = (c & 1) ? a : 1.0f - a;
    if (r.dims >= 2)
      wgt *= (c & 2) ? b : 1.0f - b;
    if (r.dims >= 3)
      wgt *= (c & 4) ? g : 1.0f - g;
    V4 t = ref_texel(r, i + ox, j + oy, r.dims >= 3 ? k + oz : k);
    for (int ch = 0; ch < 4; ch++)
      terms[c].v[ch] = wgt * t.v[ch];
    corner[c] = t;
  }
  if (spread)
    for (int ch = 0; ch < 4; ch++) {
      float lo = corner[0].v[ch], hi = lo;
      for (int c = 1; c < corners; c++)
        lo = std::min(lo, corner[c].v[ch]), hi = std::max(hi, corner[c].v[ch]);
      spread->v[ch] = hi - lo;
    }
  V4 sum = terms[corners - 1];
  for (int c = corners - 2; c >= 0; c--)
    for (int ch = 0; ch < 4; ch++)
      sum.v[ch] = terms[c].v[ch] + sum.v[ch];
  return sum;
}

// ---- helpers ---------------------------------------------------------------

static bool on_cpu;

static bool close_enough(float got, float want, float range) {
  float tol = on_cpu ? 1e-5f * std::max(1.0f, std::fabs(want)) : 0.01f * range;
  return std::fabs(got - want) <= tol || (std::isnan(got) && std::isnan(want));
}

// Whether got is what the device promises for channel ch of a fetch at (x, y, z) (z a
// slice below 3 dimensions); *want is the reference at the coordinate given. The CPU
// device: the reference to float rounding. Elsewhere (CUDA's 9-bit weights, the CUDA C++
// Programming Guide's "Linear Filtering"): the reference at some coordinate within 1/256
// texel of the one given, per coordinate, to within dims * spread / 256 for a linear
// fetch (each weight off by at most 1/256), exactly (to float rounding) for a point one;
// plus one unit in the last place of a normalized-integer or half format (the hardware
// may filter at the format's precision).
static bool fetch_ok(const Ref &r, float x, float y, float z, int ch, float got, float *want) {
  *want = ref_fetch(r, x, y, z).v[ch];
  if (std::isnan(got) && std::isnan(*want))
    return true;
  if (on_cpu)
    return std::fabs(got - *want) <= 1e-5f * std::max(1.0f, std::fabs(*want));
  const float q = 1.0f / 256.0f;
  float d[3] = {q, q, q};
  if (r.norm)
    d[0] /= r.w, d[1] /= r.h, d[2] /= r.s;
  int combos = r.dims == 1 ? 3 : r.dims == 2 ? 9 : 27;
  for (int k = 0; k < combos; k++) {
    int o[3] = {k % 3 - 1, k / 3 % 3 - 1, k / 9 - 1};
    float cx = x + o[0] * d[0], cy = r.dims >= 2 ? y + o[1] * d[1] : y,
          cz = r.dims >= 3 ? z + o[2] * d[2] : z;
    V4 spread;
    float c = ref_fetch(r, cx, cy, cz, &spread).v[ch];
    float tol = r.dims * spread.v[ch] * q + 1e-5f * std::max(1.0f, std::fabs(c)) + r.lsb;
    if (std::fabs(got - c) <= tol)
      return true;
  }
  return false;
}

// Mismatches of one case: counted, the first few printed.
struct Tally {
  int bad = 0;
  bool note() { return bad++ < 4; }
};

template <class T> static T *dev_copy(const std::vector<T> &h) {
  T *d = nullptr;
  if (hipMalloc(&d, h.size() * sizeof(T) + 1) != hipSuccess)
    return nullptr;
  if (hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice) != hipSuccess)
    return nullptr;
  return d;
}

// Coordinates along a dimension of n texels: inside, on edges and outside.
static std::vector<float> coords(int n, bool norm, int count, unsigned seed) {
  std::vector<float> c(count);
  for (int i = 0; i < count; i++) {
    seed = seed * 1103515245u + 12345u;
    float u = (float)((seed >> 8) & 0xffff) / 65535.0f; // [0, 1]
    float v = -1.7f + u * (n + 3.4f);                   // [-1.7, n + 1.7]
    if (i % 7 == 0)
      v = std::floor(v) + 0.5f; // texel centres
    c[i] = norm ? v / n : v;
  }
  return c;
}

static const char *mode_name[4] = {"wrap", "clamp", "mirror", "border"};

// The float4 texel value of the test arrays: distinct per texel and channel.
static V4 value(int x, int y, int z) {
  float b = (float)(x + 10 * y + 100 * z);
  return V4{{b, -b, 0.25f * b + 1.0f, 1000.0f - b}};
}

enum Shape { S1D, S2D, S3D, S1DL, S2DL };
static const char *shape_name[] = {"1D", "2D", "3D", "1D layered", "2D layered"};

// Fetches from a float4 array of one shape with one sampler, compares with the reference.
static int check_shape(Shape sh, int mode, bool linear, bool norm) {
  const int W = 5, H = sh == S1D || sh == S1DL ? 1 : 4, S = sh == S3D || sh == S1DL || sh == S2DL ? 3 : 1;
  const int n = 96;
  std::vector<float4> host(W * H * S);
  Ref r;
  r.w = W, r.h = H, r.s = S;
  r.dims = sh == S1D || sh == S1DL ? 1 : sh == S3D ? 3 : 2;
  r.mode[0] = r.mode[1] = r.mode[2] = mode;
  r.linear = linear, r.norm = norm;
  r.border[0] = 7, r.border[1] = -7, r.border[2] = 0.5f, r.border[3] = 9;
  for (int z = 0; z < S; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        V4 v = value(x, y, z);
        host[(z * H + y) * W + x] = make_float4(v.v[0], v.v[1], v.v[2], v.v[3]);
        r.t.push_back(v);
      }
  hipChannelFormatDesc cd = hipCreateChannelDesc<float4>();
  hipArray_t arr = nullptr;
  unsigned flags = sh == S1DL || sh == S2DL ? hipArrayLayered : 0;
  hipExtent ext = make_hipExtent(W, sh == S1D || sh == S1DL ? 0 : H,
                                 sh == S3D || sh == S1DL || sh == S2DL ? S : 0);
  CHECK_HIP(hipMalloc3DArray(&arr, &cd, ext, flags));
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr(host.data(), W * sizeof(float4), W, H);
  p.dstArray = arr;
  p.extent = make_hipExtent(W, H, S);
  p.kind = hipMemcpyHostToDevice;
  CHECK_HIP(hipMemcpy3D(&p));

  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = (hipTextureAddressMode)mode;
  td.filterMode = linear ? hipFilterModeLinear : hipFilterModePoint;
  td.readMode = hipReadModeElementType;
  td.normalizedCoords = norm;
  for (int c = 0; c < 4; c++)
    td.borderColor[c] = r.border[c];
  hipTextureObject_t tex = 0;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));

  std::vector<float> x = coords(W, norm, n, 1 + mode * 17 + linear * 5 + sh),
                     y = coords(H, norm, n, 99 + mode), z = coords(S, norm, n, 7 + mode);
  float *dx = dev_copy(x), *dy = dev_copy(y), *dz = dev_copy(z);
  float4 *dout = nullptr;
  CHECK(dx && dy && dz);
  CHECK_HIP(hipMalloc(&dout, n * sizeof(float4)));
  int layer = 2;
  switch (sh) {
  case S1D: k1d<<<2, 64>>>(tex, dx, dout, n); break;
  case S2D: k2d<<<2, 64>>>(tex, dx, dy, dout, n); break;
  case S3D: k3d<<<2, 64>>>(tex, dx, dy, dz, dout, n); break;
  case S1DL: k1dl<<<2, 64>>>(tex, dx, layer, dout, n); break;
  case S2DL: k2dl<<<2, 64>>>(tex, dx, dy, layer, dout, n); break;
  }
  CHECK_HIP(hipGetLastError());
  std::vector<float4> out(n);
  CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(float4), hipMemcpyDeviceToHost));
  Tally t;
  for (int i = 0; i < n; i++) {
    float zc = sh == S3D ? z[i] : (sh == S1DL || sh == S2DL ? (float)layer : 0.0f);
    float got[4] = {out[i].x, out[i].y, out[i].z, out[i].w}, want;
    for (int c = 0; c < 4; c++)
      if (!fetch_ok(r, x[i], y[i], zc, c, got[c], &want) && t.note())
        fprintf(stderr, "%s %s %s %s: (%g, %g, %g) channel %d: got %g, want %g\n",
                shape_name[sh], mode_name[mode], linear ? "linear" : "point",
                norm ? "normalized" : "texels", x[i], y[i], zc, c, got[c], want);
  }
  if (t.bad)
    fprintf(stderr, "%s %s %s %s: %d of %d channel values differ\n", shape_name[sh],
            mode_name[mode], linear ? "linear" : "point", norm ? "normalized" : "texels", t.bad,
            4 * n);
  CHECK_HIP(hipDestroyTextureObject(tex));
  CHECK_HIP(hipFreeArray(arr));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dz));
  CHECK_HIP(hipFree(dout));
  return t.bad ? AH_FAIL : AH_PASS;
}

// A 2D single-channel texture of `bytes`-sized integers in normalized-float read mode (or
// halves), linear filtering, against the reference over the converted texels.
template <class T>
static int check_normalized(hipChannelFormatKind kind, float (*conv)(T), const char *what) {
  const int W = 6, H = 5, n = 64;
  std::vector<T> host(W * H);
  Ref r;
  r.w = W, r.h = H, r.s = 1, r.dims = 2, r.linear = true, r.norm = false;
  r.mode[0] = r.mode[1] = r.mode[2] = hipAddressModeClamp;
  // A half's ulp below 2, or one step of the normalized integer (127 for a signed byte).
  unsigned value_bits = 8 * sizeof(T) - (kind == hipChannelFormatKindSigned ? 1 : 0);
  r.lsb = kind == hipChannelFormatKindFloat ? 1.0f / 1024 : 1.0f / (float)((1u << value_bits) - 1);
  for (int i = 0; i < W * H; i++) {
    unsigned bits = (unsigned)(i * 37 + 11) * 2654435761u;
    std::memcpy(&host[i], &bits, sizeof(T));
    if (sizeof(T) == 2 && kind == hipChannelFormatKindFloat) { // a finite half: |v| < 2
      uint16_t hb = (uint16_t)((bits & 0x83ff) | 0x3800);
      std::memcpy(&host[i], &hb, 2);
    }
    r.t.push_back(V4{{conv(host[i]), 0, 0, 0}});
  }
  hipChannelFormatDesc cd = hipCreateChannelDesc(8 * sizeof(T), 0, 0, 0, kind);
  hipArray_t arr = nullptr;
  CHECK_HIP(hipMallocArray(&arr, &cd, W, H));
  CHECK_HIP(hipMemcpy2DToArray(arr, 0, 0, host.data(), W * sizeof(T), W * sizeof(T), H,
                               hipMemcpyHostToDevice));
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  td.filterMode = hipFilterModeLinear;
  td.readMode = hipReadModeNormalizedFloat;
  hipTextureObject_t tex = 0;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
  std::vector<float> x = coords(W, false, n, 3), y = coords(H, false, n, 4);
  float *dx = dev_copy(x), *dy = dev_copy(y), *dout = nullptr;
  CHECK_HIP(hipMalloc(&dout, n * sizeof(float)));
  k2d_f1<<<1, 64>>>(tex, dx, dy, dout, n);
  std::vector<float> out(n);
  CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  Tally t;
  for (int i = 0; i < n; i++) {
    float want;
    if (!fetch_ok(r, x[i], y[i], 0, 0, out[i], &want) && t.note())
      fprintf(stderr, "%s at (%g, %g): got %g, want %g\n", what, x[i], y[i], out[i], want);
  }
  if (t.bad)
    fprintf(stderr, "%s: %d of %d values differ\n", what, t.bad, n);
  CHECK_HIP(hipDestroyTextureObject(tex));
  CHECK_HIP(hipFreeArray(arr));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dout));
  return t.bad ? AH_FAIL : AH_PASS;
}

static float u8n(uint8_t v) { return v / 255.0f; }
static float s8n(int8_t v) { return std::max(v / 127.0f, -1.0f); }
static float u16n(uint16_t v) { return v / 65535.0f; }
static float half_of(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float f = e == 0 ? std::ldexp((float)m, -24) : std::ldexp(1.0f + m / 1024.0f, e - 15);
  return (h & 0x8000) ? -f : f;
}

// 16-bit unsigned integers read as integers (point filtering), a wrap-around 2D.
static int check_integer() {
  const int W = 4, H = 3, n = 40;
  std::vector<uint16_t> host(W * H);
  for (int i = 0; i < W * H; i++)
    host[i] = (uint16_t)(60000 + i * 411);
  hipChannelFormatDesc cd = hipCreateChannelDesc<unsigned short>();
  hipArray_t arr = nullptr;
  CHECK_HIP(hipMallocArray(&arr, &cd, W, H));
  CHECK_HIP(hipMemcpyToArray(arr, 0, 0, host.data(), host.size() * 2, hipMemcpyHostToDevice));
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeWrap;
  td.filterMode = hipFilterModePoint;
  td.readMode = hipReadModeElementType;
  td.normalizedCoords = 1;
  hipTextureObject_t tex = 0;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
  std::vector<float> x = coords(W, true, n, 5), y = coords(H, true, n, 6);
  float *dx = dev_copy(x), *dy = dev_copy(y);
  unsigned *dout = nullptr;
  CHECK_HIP(hipMalloc(&dout, n * sizeof(unsigned)));
  k2d_u16<<<1, 64>>>(tex, dx, dy, dout, n);
  std::vector<unsigned> out(n);
  CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  Ref r;
  r.w = W, r.h = H, r.s = 1, r.dims = 2, r.linear = false, r.norm = true;
  r.mode[0] = r.mode[1] = r.mode[2] = hipAddressModeWrap;
  for (int i = 0; i < W * H; i++)
    r.t.push_back(V4{{(float)host[i], 0, 0, 0}});
  for (int i = 0; i < n; i++)
    CHECK_EQ(out[i], (unsigned)ref_fetch(r, x[i], y[i], 0).v[0]);
  CHECK_HIP(hipDestroyTextureObject(tex));
  CHECK_HIP(hipFreeArray(arr));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dout));
  return AH_PASS;
}

// Linear memory (tex1Dfetch: out of range reads 0) and pitched 2D memory (linear filter).
static int check_linear_memory() {
  const int n = 50, W = 7, H = 4;
  std::vector<float> host(n);
  for (int i = 0; i < n; i++)
    host[i] = 0.5f * i - 3.0f;
  float *d = dev_copy(host), *dout = nullptr;
  hipResourceDesc res = {};
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = d;
  res.res.linear.desc = hipCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  hipTextureDesc td = {};
  td.readMode = hipReadModeElementType;
  hipTextureObject_t tex = 0;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
  CHECK_HIP(hipMalloc(&dout, 64 * sizeof(float)));
  kfetch<<<1, 64>>>(tex, -5, dout, 64);
  std::vector<float> out(64);
  CHECK_HIP(hipMemcpy(out.data(), dout, 64 * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) {
    int j = i - 5;
    CHECK_NEAR(out[i], j >= 0 && j < n ? host[j] : 0.0f, 0.0);
  }
  CHECK_HIP(hipDestroyTextureObject(tex));

  // Pitched 2D.
  size_t pitch = 0;
  float *p2 = nullptr;
  CHECK_HIP(hipMallocPitch((void **)&p2, &pitch, W * sizeof(float), H));
  std::vector<float> img(W * H);
  Ref r;
  r.w = W, r.h = H, r.s = 1, r.dims = 2, r.linear = true, r.norm = false;
  r.mode[0] = r.mode[1] = r.mode[2] = hipAddressModeClamp;
  for (int i = 0; i < W * H; i++) {
    img[i] = (float)((i * 7) % 11) - 2.0f;
    r.t.push_back(V4{{img[i], 0, 0, 0}});
  }
  CHECK_HIP(hipMemcpy2D(p2, pitch, img.data(), W * sizeof(float), W * sizeof(float), H,
                        hipMemcpyHostToDevice));
  res = {};
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = p2;
  res.res.pitch2D.desc = hipCreateChannelDesc<float>();
  res.res.pitch2D.width = W;
  res.res.pitch2D.height = H;
  res.res.pitch2D.pitchInBytes = pitch;
  td.filterMode = hipFilterModeLinear;
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
  std::vector<float> x = coords(W, false, 64, 8), y = coords(H, false, 64, 9);
  float *dx = dev_copy(x), *dy = dev_copy(y);
  k2d_f1<<<1, 64>>>(tex, dx, dy, dout, 64);
  CHECK_HIP(hipMemcpy(out.data(), dout, 64 * sizeof(float), hipMemcpyDeviceToHost));
  Tally t;
  for (int i = 0; i < 64; i++) {
    float want;
    if (!fetch_ok(r, x[i], y[i], 0, 0, out[i], &want) && t.note())
      fprintf(stderr, "pitch2D at (%g, %g): got %g, want %g\n", x[i], y[i], out[i], want);
  }
  if (t.bad)
    fprintf(stderr, "pitch2D: %d of 64 values differ\n", t.bad);
  CHECK_HIP(hipDestroyTextureObject(tex));
  CHECK_HIP(hipFree(p2));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dout));
  return t.bad ? AH_FAIL : AH_PASS;
}

// A mipmapped 2D float texture of 3 levels (8x8, 4x4, 2x2): level l holds 100 * l + x + 8y.
static int check_mipmap() {
  const int n = 64;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipMipmappedArray_t mm = nullptr;
  CHECK_HIP(hipMallocMipmappedArray(&mm, &cd, make_hipExtent(8, 8, 0), 3, 0));
  std::vector<Ref> lv(3);
  for (int l = 0; l < 3; l++) {
    int s = 8 >> l;
    hipArray_t a = nullptr;
    CHECK_HIP(hipGetMipmappedArrayLevel(&a, mm, l));
    std::vector<float> h(s * s);
    lv[l].w = lv[l].h = s, lv[l].s = 1, lv[l].dims = 2, lv[l].norm = true;
    lv[l].mode[0] = lv[l].mode[1] = lv[l].mode[2] = hipAddressModeClamp;
    for (int i = 0; i < s * s; i++) {
      h[i] = 100.0f * l + (i % s) + 8 * (i / s);
      lv[l].t.push_back(V4{{h[i], 0, 0, 0}});
    }
    CHECK_HIP(hipMemcpy2DToArray(a, 0, 0, h.data(), s * sizeof(float), s * sizeof(float), s,
                                 hipMemcpyHostToDevice));
  }
  hipResourceDesc res = {};
  res.resType = hipResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mm;
  std::vector<float> x = coords(8, true, n, 10), y = coords(8, true, n, 11);
  float *dx = dev_copy(x), *dy = dev_copy(y), *dout = nullptr;
  CHECK_HIP(hipMalloc(&dout, n * sizeof(float)));
  std::vector<float> out(n);
  Tally t;
  for (int mf = 0; mf < 2; mf++)
    for (float lod : {0.0f, 1.0f, 1.3f, 1.75f, 5.0f}) {
      hipTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
      td.filterMode = hipFilterModeLinear;
      td.mipmapFilterMode = mf ? hipFilterModeLinear : hipFilterModePoint;
      td.normalizedCoords = 1;
      td.maxMipmapLevelClamp = 2.0f;
      hipTextureObject_t tex = 0;
      CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
      klod<<<1, 64>>>(tex, dx, dy, lod, dout, n);
      CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
      float lc = std::min(lod, 2.0f);
      for (int i = 0; i < n; i++) {
        for (auto &l : lv)
          l.linear = true;
        float want;
        if (!mf) {
          want = ref_fetch(lv[(int)std::floor(lc + 0.5f)], x[i], y[i], 0).v[0];
        } else {
          int l0 = (int)std::floor(lc);
          float f = lc - l0;
          want = f == 0.0f || l0 >= 2 ? ref_fetch(lv[l0], x[i], y[i], 0).v[0]
                                      : (1 - f) * ref_fetch(lv[l0], x[i], y[i], 0).v[0] +
                                            f * ref_fetch(lv[l0 + 1], x[i], y[i], 0).v[0];
        }
        if (!close_enough(out[i], want, 300.0f) && t.note())
          fprintf(stderr, "mipmap (%s) lod %g at (%g, %g): got %g, want %g\n",
                  mf ? "linear" : "point", lod, x[i], y[i], out[i], want);
      }
      if (lod == 1.0f && !mf) { // gradients of 2 texels per pixel at level 0 pick level 1
        float g = 2.0f / 8.0f;
        kgrad<<<1, 64>>>(tex, dx, dy, make_float2(g, 0), make_float2(0, g), dout, n);
        CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
          if (!close_enough(out[i], ref_fetch(lv[1], x[i], y[i], 0).v[0], 300.0f) && t.note())
            fprintf(stderr, "tex2DGrad at (%g, %g): got %g, want %g\n", x[i], y[i], out[i],
                    ref_fetch(lv[1], x[i], y[i], 0).v[0]);
      }
      CHECK_HIP(hipDestroyTextureObject(tex));
    }
  CHECK_HIP(hipFreeMipmappedArray(mm));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dout));
  if (t.bad)
    fprintf(stderr, "mipmap and gradient: %d values differ\n", t.bad);
  return t.bad ? AH_FAIL : AH_PASS;
}

// Integers of a mipmapped array are read from the nearest level, unblended.
static int check_mipmap_integer() {
  const int n = 64;
  hipChannelFormatDesc cd = hipCreateChannelDesc<unsigned int>();
  hipMipmappedArray_t mm = nullptr;
  CHECK_HIP(hipMallocMipmappedArray(&mm, &cd, make_hipExtent(8, 8, 0), 3, 0));
  for (int l = 0; l < 3; l++) {
    int s = 8 >> l;
    hipArray_t a = nullptr;
    std::vector<unsigned> h(s * s);
    for (int i = 0; i < s * s; i++)
      h[i] = 1000u * l + i;
    CHECK_HIP(hipGetMipmappedArrayLevel(&a, mm, l));
    CHECK_HIP(hipMemcpy2DToArray(a, 0, 0, h.data(), s * 4, s * 4, s, hipMemcpyHostToDevice));
  }
  hipResourceDesc res = {};
  res.resType = hipResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mm;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  td.readMode = hipReadModeElementType;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = 2.0f;
  hipTextureObject_t tex = nullptr;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
  std::vector<float> x = coords(8, true, n, 21), y = coords(8, true, n, 22);
  float *dx = dev_copy(x), *dy = dev_copy(y);
  unsigned *dout = nullptr;
  std::vector<unsigned> out(n);
  CHECK_HIP(hipMalloc(&dout, n * sizeof(unsigned)));
  for (float lod : {0.4f, 1.0f, 1.6f}) {
    int l = (int)std::floor(lod + 0.5f), s = 8 >> l;
    klod_u<<<1, 64>>>(tex, dx, dy, lod, dout, n);
    CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int tx = std::min(s - 1, std::max(0, (int)std::floor(x[i] * s)));
      int ty = std::min(s - 1, std::max(0, (int)std::floor(y[i] * s)));
      CHECK_EQ(out[i], 1000u * l + ty * s + tx);
    }
  }
  CHECK_HIP(hipDestroyTextureObject(tex));
  CHECK_HIP(hipFreeMipmappedArray(mm));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dout));
  return AH_PASS;
}

// A cubemap of 4x4 faces whose texels say their face, read by direction (point filter).
static int check_cubemap() {
  const int S = 4, n = 48;
  std::vector<float> h(S * S * 6);
  for (int f = 0; f < 6; f++)
    for (int i = 0; i < S * S; i++)
      h[f * S * S + i] = 100.0f * f + i;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t arr = nullptr;
  CHECK_HIP(hipMalloc3DArray(&arr, &cd, make_hipExtent(S, S, 6), hipArrayCubemap));
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr(h.data(), S * sizeof(float), S, S);
  p.dstArray = arr;
  p.extent = make_hipExtent(S, S, 6);
  p.kind = hipMemcpyHostToDevice;
  CHECK_HIP(hipMemcpy3D(&p));
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  td.filterMode = hipFilterModePoint;
  // Unnormalized: the direction as given on every device (AMD scales a normalized one by
  // the face size and 6, CUDA does not; docs/textures.md).
  td.normalizedCoords = 0;
  hipTextureObject_t tex = 0;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
  std::vector<float> x(n), y(n), z(n);
  for (int i = 0; i < n; i++) { // one major axis per group of 8, minor ones in (-0.9, 0.9)
    int f = i / 8;
    float a = -0.85f + 0.23f * (i % 8), b = 0.8f - 0.21f * (i % 8), m = (f % 2) ? -1.0f : 1.0f;
    x[i] = f / 2 == 0 ? m : a;
    y[i] = f / 2 == 1 ? m : (f / 2 == 0 ? a : b);
    z[i] = f / 2 == 2 ? m : b;
  }
  float *dx = dev_copy(x), *dy = dev_copy(y), *dz = dev_copy(z), *dout = nullptr;
  CHECK_HIP(hipMalloc(&dout, n * sizeof(float)));
  kcube<<<1, 64>>>(tex, dx, dy, dz, dout, n);
  std::vector<float> out(n);
  CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  Tally tl;
  for (int i = 0; i < n; i++) {
    // CUDA's table: face by the major axis and its sign, then (s, t) on the face.
    float ax = std::fabs(x[i]), ay = std::fabs(y[i]), az = std::fabs(z[i]), s, t, m;
    int face;
    if (ax >= ay && ax >= az)
      face = x[i] >= 0 ? 0 : 1, m = ax, s = x[i] >= 0 ? -z[i] : z[i], t = -y[i];
    else if (ay >= az)
      face = y[i] >= 0 ? 2 : 3, m = ay, s = x[i], t = y[i] >= 0 ? z[i] : -z[i];
    else
      face = z[i] >= 0 ? 4 : 5, m = az, s = z[i] >= 0 ? x[i] : -x[i], t = -y[i];
    int u = std::min(S - 1, (int)std::floor((s / m + 1) / 2 * S)),
        v = std::min(S - 1, (int)std::floor((t / m + 1) / 2 * S));
    float want = h[face * S * S + v * S + u];
    if (!close_enough(out[i], want, 1.0f) && tl.note())
      fprintf(stderr, "cubemap (%g, %g, %g): got %g, want %g (face %d)\n", x[i], y[i], z[i],
              out[i], want, face);
  }
  if (tl.bad)
    fprintf(stderr, "cubemap: %d of %d values differ\n", tl.bad, n);
  CHECK_HIP(hipDestroyTextureObject(tex));
  CHECK_HIP(hipFreeArray(arr));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dz));
  CHECK_HIP(hipFree(dout));
  return tl.bad ? AH_FAIL : AH_PASS;
}

// tex2Dgather: channel 1 of the four texels a bilinear fetch would blend.
static int check_gather() {
  const int W = 5, H = 4, n = 32;
  std::vector<float4> host(W * H);
  Ref r;
  r.w = W, r.h = H, r.s = 1, r.dims = 2, r.norm = false, r.linear = false;
  r.mode[0] = r.mode[1] = r.mode[2] = hipAddressModeClamp;
  for (int i = 0; i < W * H; i++) {
    V4 v = value(i % W, i / W, 0);
    host[i] = make_float4(v.v[0], v.v[1], v.v[2], v.v[3]);
    r.t.push_back(v);
  }
  hipChannelFormatDesc cd = hipCreateChannelDesc<float4>();
  hipArray_t arr = nullptr;
  CHECK_HIP(hipMallocArray(&arr, &cd, W, H, hipArrayTextureGather));
  CHECK_HIP(hipMemcpy2DToArray(arr, 0, 0, host.data(), W * sizeof(float4), W * sizeof(float4), H,
                               hipMemcpyHostToDevice));
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  hipTextureObject_t tex = 0;
  CHECK_HIP(hipCreateTextureObject(&tex, &res, &td, nullptr));
  std::vector<float> x = coords(W, false, n, 12), y = coords(H, false, n, 13);
  float *dx = dev_copy(x), *dy = dev_copy(y);
  float4 *dout = nullptr;
  CHECK_HIP(hipMalloc(&dout, n * sizeof(float4)));
  kgather<<<1, 64>>>(tex, dx, dy, dout, n);
  std::vector<float4> out(n);
  CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(float4), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float fi, a, fj, b;
    ref_params(x[i], &fi, &a);
    ref_params(y[i], &fj, &b);
    float want[4] = {ref_texel(r, fi, fj + 1, 0).v[1], ref_texel(r, fi + 1, fj + 1, 0).v[1],
                     ref_texel(r, fi + 1, fj, 0).v[1], ref_texel(r, fi, fj, 0).v[1]};
    float got[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
    for (int c = 0; c < 4; c++)
      CHECK_NEAR(got[c], want[c], 0.0);
  }
  CHECK_HIP(hipDestroyTextureObject(tex));
  CHECK_HIP(hipFreeArray(arr));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(dout));
  return AH_PASS;
}

int main() {
  on_cpu = ah_on_cpu_device();
  int checked = 0, failed = 0;
  for (int sh = S1D; sh <= S2DL; sh++)
    for (int mode = 0; mode < 4; mode++)
      for (int linear = 0; linear < 2; linear++)
        for (int norm = 0; norm < 2; norm++) {
          // NVIDIA clamps unnormalized coordinates under wrap and mirror (CUDA's rule).
          if (!on_cpu && !norm && (mode == hipAddressModeWrap || mode == hipAddressModeMirror))
            continue;
          failed += check_shape((Shape)sh, mode, linear, norm) != AH_PASS;
          checked++;
        }
  // The special cases, each run whatever the others gave.
  int special = 0, special_failed = 0;
  auto run = [&](int r) { special++, special_failed += r != AH_PASS; };
  run(check_normalized<uint8_t>(hipChannelFormatKindUnsigned, u8n, "uchar normalized"));
  run(check_normalized<int8_t>(hipChannelFormatKindSigned, s8n, "char normalized"));
  run(check_normalized<uint16_t>(hipChannelFormatKindUnsigned, u16n, "ushort normalized"));
  run(check_normalized<uint16_t>(hipChannelFormatKindFloat, half_of, "half"));
  run(check_integer());
  run(check_linear_memory());
  run(check_mipmap());
  run(check_mipmap_integer());
  run(check_cubemap());
  if (on_cpu) // AMD's gather order; NVIDIA's differs
    run(check_gather());
  if (failed || special_failed) {
    fprintf(stderr, "texture_fetch: %d of %d sampler configurations and %d of %d special cases "
                    "differ\n", failed, checked, special_failed, special);
    return AH_FAIL;
  }
  printf("texture_fetch: %d sampler configurations and %d special cases match\n", checked,
         special);
  return AH_PASS;
}
