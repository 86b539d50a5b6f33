/* SPDX-License-Identifier: MIT */
/* Texture fetches and surface loads and stores for the CPU pass. A texture or surface
 * object is the address of the runtime's struct ahTexDesc (common/texture_abi.h); the
 * functions below read the resource's memory through it with the arithmetic that
 * docs/textures.md describes (the one ROCm's unit suite checks against):
 *  - coordinates: normalized ones are scaled by the level's size; the address mode
 *    (wrap, mirror, clamp, border) applies to every coordinate, normalized or not;
 *  - point filtering takes the texel floor(x); linear filtering takes xB = x - 0.5 rounded
 *    to 8 fractional bits, i = floor(xB), weight a = xB - i, and sums the weighted
 *    texels in a fixed order;
 *  - integer return types read the stored integers (no filtering); float return types
 *    read floats, halves, or integers scaled to [0, 1] / [-1, 1] in normalized-float read
 *    mode. Channels the format lacks read 0.
 * Surfaces address x in bytes, as HIP and CUDA do. */
#ifndef ANYHIP_CPU_TEXTURE_H
#define ANYHIP_CPU_TEXTURE_H

#include <hip/anyhip/common/texture_abi.h>
#include <hip/channel_descriptor.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace anyhip {
namespace tex {

/* ---- element types ----------------------------------------------------- */

template <class T> struct vec {
  using scalar = T;
  static constexpr int n = 1;
  static T make(const scalar *v) { return v[0]; }
  static void split(const T &t, scalar *v) { v[0] = t; }
};
#define AH_TEX_VEC(base, comp)                                                          \
  template <> struct vec<base##1> {                                                     \
    using scalar = comp;                                                                \
    static constexpr int n = 1;                                                         \
    static base##1 make(const scalar *v) { return make_##base##1(v[0]); }              \
    static void split(const base##1 &t, scalar *v) { v[0] = t.x; }                      \
  };                                                                                    \
  template <> struct vec<base##2> {                                                     \
    using scalar = comp;                                                                \
    static constexpr int n = 2;                                                         \
    static base##2 make(const scalar *v) { return make_##base##2(v[0], v[1]); }         \
    static void split(const base##2 &t, scalar *v) { v[0] = t.x, v[1] = t.y; }          \
  };                                                                                    \
  template <> struct vec<base##4> {                                                     \
    using scalar = comp;                                                                \
    static constexpr int n = 4;                                                         \
    static base##4 make(const scalar *v) { return make_##base##4(v[0], v[1], v[2], v[3]); } \
    static void split(const base##4 &t, scalar *v) {                                    \
      v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;                                   \
    }                                                                                   \
  };
AH_TEX_VEC(char, signed char)
AH_TEX_VEC(uchar, unsigned char)
AH_TEX_VEC(short, short)
AH_TEX_VEC(ushort, unsigned short)
AH_TEX_VEC(int, int)
AH_TEX_VEC(uint, unsigned int)
AH_TEX_VEC(float, float)
#undef AH_TEX_VEC

template <class T> constexpr bool reads_float() {
  return std::is_floating_point<typename vec<T>::scalar>::value;
}

/* ---- one texel ----------------------------------------------------------- */

/* The descriptor behind a texture or surface object. */
inline const ahTexDesc *desc(const void *obj) {
  return static_cast<const ahTexDesc *>(obj);
}

inline float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
  float f;

  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else { /* subnormal: man * 2^-24 */
    f = std::ldexp((float)man, -24);
    return sign ? -f : f;
  }
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/* Channel c of the element at p as a 32-bit integer (sign-extended or zero-extended;
 * float channels as their bits). */
inline int32_t raw_channel(const ahTexDesc &d, const unsigned char *p, unsigned c) {
  switch (d.bits) {
  case 8:
    return d.format == AH_TEXF_SIGNED ? (int32_t)((const int8_t *)p)[c]
                                      : (int32_t)((const uint8_t *)p)[c];
  case 16:
    return d.format == AH_TEXF_SIGNED ? (int32_t)((const int16_t *)p)[c]
                                      : (int32_t)((const uint16_t *)p)[c];
  default:
    return ((const int32_t *)p)[c];
  }
}

/* Channel c as a float, converted as the read mode says. */
inline float float_channel(const ahTexDesc &d, const unsigned char *p, unsigned c) {
  int32_t v = raw_channel(d, p, c);
  float f;

  switch (d.format) {
  case AH_TEXF_FLOAT:
    std::memcpy(&f, &v, sizeof(f));
    return f;
  case AH_TEXF_HALF:
    return half_to_float((uint16_t)v);
  case AH_TEXF_UNSIGNED:
    if (d.read_mode == hipReadModeNormalizedFloat && d.bits < 32)
      return (float)(uint32_t)v / (float)((1u << d.bits) - 1);
    return (float)(uint32_t)v;
  default:
    if (d.read_mode == hipReadModeNormalizedFloat && d.bits < 32) {
      f = (float)v / (float)((1u << (d.bits - 1)) - 1);
      return f < -1.0f ? -1.0f : f;
    }
    return (float)v;
  }
}

struct texel {
  float f[4];
};
struct itexel {
  int32_t v[4];
};

/* ---- addressing ---------------------------------------------------------- */

/* The texel index c (a whole number) after the address mode, for a dimension of n texels;
 * NAN for a border texel. Wrap and mirror work on the index in double, where the remainder
 * is exact: dividing by n in float first rounds (-2 / 3 * 3 is not quite -2) and picks the
 * neighbouring texel, which a GPU does not. */
inline float address(float c, unsigned long long n, unsigned mode) {
  double dim = (double)n, k = c, m;

  switch (mode) {
  case hipAddressModeBorder:
    if (c > (float)n - 1.0f || c < 0.0f)
      return NAN;
    return c;
  case hipAddressModeWrap:
    if (!std::isfinite(k))
      return 0.0f;
    m = std::fmod(k, dim);
    return (float)(m < 0 ? m + dim : m);
  case hipAddressModeMirror: /* period 2n: 0 .. n-1, then n-1 .. 0 */
    if (!std::isfinite(k))
      return 0.0f;
    m = std::fmod(k, 2 * dim);
    if (m < 0)
      m += 2 * dim;
    return (float)(m >= dim ? 2 * dim - 1 - m : m);
  default: /* clamp */
    return std::fmax(std::fmin(c, (float)n - 1.0f), 0.0f);
  }
}

/* The index of a coordinate the address mode kept inside (rounding may give n). */
inline unsigned long long index(float c, unsigned long long n) {
  unsigned long long i = c <= 0.0f ? 0 : (unsigned long long)c;

  return i >= n ? n - 1 : i;
}

/* The element at texel coordinates (x, y, z) of level L (z is the slice for 1D and 2D
 * shapes), or NULL for a border texel. Coordinates hold whole numbers. */
inline const unsigned char *at(const ahTexDesc &d, const ahTexLevel &L, int dims, float x, float y,
                               float z) {
  float ax = address(x, L.width, d.address[0]), ay = 0.0f, az = z;

  if (dims >= 2)
    ay = address(y, L.height, d.address[1]);
  if (dims >= 3)
    az = address(z, L.depth, d.address[2]);
  if (std::isnan(ax) || std::isnan(ay) || std::isnan(az))
    return nullptr;
  return L.data + index(az, L.depth) * L.slice + index(ay, L.height) * L.pitch +
         index(ax, L.width) * d.elem;
}

inline texel load_f(const ahTexDesc &d, const unsigned char *p) {
  texel t = {{0.0f, 0.0f, 0.0f, 0.0f}};

  if (p == nullptr) {
    for (int c = 0; c < 4; c++)
      t.f[c] = d.border[c];
    return t;
  }
  for (unsigned c = 0; c < d.channels; c++)
    t.f[c] = float_channel(d, p, c);
  return t;
}

inline itexel load_i(const ahTexDesc &d, const unsigned char *p) {
  itexel t = {{0, 0, 0, 0}};

  if (p == nullptr) {
    for (int c = 0; c < 4; c++)
      t.v[c] = (int32_t)d.border[c];
    return t;
  }
  for (unsigned c = 0; c < d.channels; c++)
    t.v[c] = raw_channel(d, p, c);
  return t;
}

/* x - 0.5 with its fraction rounded to 8 bits (the 9-bit fixed-point weight): the index
 * floor(xB) and the weight xB - index. */
inline void linear_params(float x, float &i, float &a) {
  float b = x - 0.5f, t = std::trunc(b);

  b = t + std::round((b - t) * 256.0f) / 256.0f;
  i = std::floor(b);
  a = b - i;
}

inline texel scale(float w, texel t) {
  for (int c = 0; c < 4; c++)
    t.f[c] = w * t.f[c];
  return t;
}
inline texel add(texel a, const texel &b) {
  for (int c = 0; c < 4; c++)
    a.f[c] = a.f[c] + b.f[c];
  return a;
}

/* A filtered sample of level L at texel-space coordinates (x, y, z) (z is the slice for
 * 1D and 2D shapes, already a whole number). */
inline texel filter(const ahTexDesc &d, const ahTexLevel &L, int dims, float x, float y, float z) {
  if (d.filter != hipFilterModeLinear)
    return load_f(d, at(d, L, dims, std::floor(x), dims >= 2 ? std::floor(y) : 0.0f,
                        dims >= 3 ? std::floor(z) : z));
  float i, a, j = 0.0f, b = 0.0f, k = z, g = 0.0f;
  linear_params(x, i, a);
  if (dims >= 2)
    linear_params(y, j, b);
  if (dims >= 3)
    linear_params(z, k, g);
  if (dims == 1)
    return add(scale(1.0f - a, load_f(d, at(d, L, 1, i, 0, k))),
               scale(a, load_f(d, at(d, L, 1, i + 1.0f, 0, k))));
  texel t00 = scale((1.0f - a) * (1.0f - b), load_f(d, at(d, L, dims, i, j, k)));
  texel t10 = scale(a * (1.0f - b), load_f(d, at(d, L, dims, i + 1.0f, j, k)));
  texel t01 = scale((1.0f - a) * b, load_f(d, at(d, L, dims, i, j + 1.0f, k)));
  texel t11 = scale(a * b, load_f(d, at(d, L, dims, i + 1.0f, j + 1.0f, k)));
  if (dims == 2)
    return add(t00, add(t10, add(t01, t11)));
  /* (1 - a)(1 - b)(1 - g) and the rest, multiplied left to right. */
  t00 = scale((1.0f - a) * (1.0f - b) * (1.0f - g), load_f(d, at(d, L, 3, i, j, k)));
  t10 = scale(a * (1.0f - b) * (1.0f - g), load_f(d, at(d, L, 3, i + 1.0f, j, k)));
  t01 = scale((1.0f - a) * b * (1.0f - g), load_f(d, at(d, L, 3, i, j + 1.0f, k)));
  t11 = scale(a * b * (1.0f - g), load_f(d, at(d, L, 3, i + 1.0f, j + 1.0f, k)));
  texel u00 = scale((1.0f - a) * (1.0f - b) * g, load_f(d, at(d, L, 3, i, j, k + 1.0f)));
  texel u10 = scale(a * (1.0f - b) * g, load_f(d, at(d, L, 3, i + 1.0f, j, k + 1.0f)));
  texel u01 = scale((1.0f - a) * b * g, load_f(d, at(d, L, 3, i, j + 1.0f, k + 1.0f)));
  texel u11 = scale(a * b * g, load_f(d, at(d, L, 3, i + 1.0f, j + 1.0f, k + 1.0f)));
  return add(t00, add(t10, add(t01, add(t11, add(u00, add(u10, add(u01, u11)))))));
}

/* ---- levels -------------------------------------------------------------- */

/* Coordinates of the caller (normalized or texels of level 0) in texels of level l. */
inline float to_level(const ahTexDesc &d, float c, unsigned long long n0, unsigned long long nl) {
  return d.normalized ? c * (float)nl : c * ((float)nl / (float)n0);
}

inline texel sample_level(const ahTexDesc &d, unsigned l, int dims, float x, float y, float z) {
  const ahTexLevel &L = d.level[l], &L0 = d.level[0];

  return filter(d, L, dims, to_level(d, x, L0.width, L.width),
                dims >= 2 ? to_level(d, y, L0.height, L.height) : 0.0f,
                dims >= 3 ? to_level(d, z, L0.depth, L.depth) : z);
}

/* A sample at level of detail lod (mipmapped textures; others read level 0). */
inline texel sample(const ahTexDesc &d, int dims, float x, float y, float z, float lod) {
  if (d.levels <= 1)
    return sample_level(d, 0, dims, x, y, z);
  lod += d.lod_bias;
  if (d.max_lod > d.min_lod)
    lod = std::fmin(std::fmax(lod, d.min_lod), d.max_lod);
  lod = std::fmin(std::fmax(lod, 0.0f), (float)(d.levels - 1));
  if (d.mip_filter != hipFilterModeLinear)
    return sample_level(d, (unsigned)std::floor(lod + 0.5f), dims, x, y, z);
  unsigned l0 = (unsigned)std::floor(lod);
  float f = lod - (float)l0;
  if (f == 0.0f || l0 + 1 >= d.levels)
    return sample_level(d, l0, dims, x, y, z);
  return add(scale(1.0f - f, sample_level(d, l0, dims, x, y, z)),
             scale(f, sample_level(d, l0 + 1, dims, x, y, z)));
}

/* The level of detail of gradients (dx, dy) in the caller's coordinates. */
inline float grad_lod(const ahTexDesc &d, int dims, const float *dx, const float *dy) {
  const unsigned long long n[3] = {d.level[0].width, d.level[0].height, d.level[0].depth};
  float sx = 0.0f, sy = 0.0f;

  for (int i = 0; i < dims; i++) {
    float s = d.normalized ? (float)n[i] : 1.0f;
    sx += (dx[i] * s) * (dx[i] * s);
    sy += (dy[i] * s) * (dy[i] * s);
  }
  float rho = std::sqrt(std::fmax(sx, sy));
  return rho > 0.0f ? std::log2(rho) : 0.0f;
}

/* A layer index clamped to the layers there are. */
inline float layer(const ahTexDesc &d, int l, unsigned per) {
  long long n = (long long)(d.level[0].depth / per);

  return (float)((l < 0 ? 0 : l >= n ? n - 1 : l) * (long long)per);
}

/* The face (0 to 5) of direction (x, y, z) and the face coordinates, normalized. */
inline unsigned cube_face(float x, float y, float z, float &u, float &v) {
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z), m, s, t;
  unsigned face;

  if (ax > ay && ax > az) {
    face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, t = -y;
  } else if (ay >= ax && ay > az) {
    face = y >= 0 ? 2 : 3, m = ay, s = x, t = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, t = -y;
  }
  u = (s / m + 1.0f) / 2.0f;
  v = (t / m + 1.0f) / 2.0f;
  return face;
}

/* A cubemap sample: faces are read with normalized coordinates, clamped to the face, whatever
 * the texture says (cubemap address modes do not apply, as on GPUs). */
inline texel cube(const ahTexDesc &d, float x, float y, float z, int lyr, float lod) {
  ahTexDesc c = d;
  float u, v;

  /* Normalized coordinates scale the direction by the face size and 6, as AMD's
   * reference (ROCm's texture_reference.hh) does. */
  if (d.normalized)
    x *= (float)d.level[0].width, y *= (float)d.level[0].height, z *= 6.0f;
  unsigned face = cube_face(x, y, z, u, v);

  c.normalized = 1;
  c.address[0] = c.address[1] = hipAddressModeClamp;
  return sample(c, 2, u, v, layer(d, lyr, 6) + (float)face, lod);
}

/* ---- results ------------------------------------------------------------- */

template <class T> T result(const texel &t) {
  typename vec<T>::scalar v[4];

  for (int c = 0; c < 4; c++)
    v[c] = static_cast<typename vec<T>::scalar>(t.f[c]);
  return vec<T>::make(v);
}
template <class T> T iresult(const itexel &t) {
  typename vec<T>::scalar v[4];

  for (int c = 0; c < 4; c++)
    v[c] = static_cast<typename vec<T>::scalar>(t.v[c]);
  return vec<T>::make(v);
}

/* A fetch returning T: floats through the filter, integers by point sampling. */
template <class T> T fetch(hipTextureObject_t obj, int dims, float x, float y, float z, float lod) {
  const ahTexDesc &d = *desc(obj);

  if (reads_float<T>())
    return result<T>(sample(d, dims, x, y, z, lod));
  /* Integers are not blended: the nearest level, the nearest texel. */
  unsigned l = 0;
  if (d.levels > 1) {
    lod += d.lod_bias;
    if (d.max_lod > d.min_lod)
      lod = std::fmin(std::fmax(lod, d.min_lod), d.max_lod);
    lod = std::fmin(std::fmax(lod, 0.0f), (float)(d.levels - 1));
    l = (unsigned)std::floor(lod + 0.5f);
  }
  const ahTexLevel &L = d.level[l], &L0 = d.level[0];
  float fx = to_level(d, x, L0.width, L.width);
  float fy = dims >= 2 ? to_level(d, y, L0.height, L.height) : 0.0f;
  float fz = dims >= 3 ? to_level(d, z, L0.depth, L.depth) : z;
  return iresult<T>(load_i(d, at(d, L, dims, std::floor(fx), std::floor(fy),
                                 dims >= 3 ? std::floor(fz) : z)));
}

} // namespace tex
} // namespace anyhip

/* ---- the texture functions ------------------------------------------------ */

#define AH_TEX_OUT(name, params, args)                                           \
  template <class T> __device__ inline void name(T *ptr, hipTextureObject_t obj params) { \
    *ptr = name<T>(obj args);                                                    \
  }

template <class T> __device__ inline T tex1Dfetch(hipTextureObject_t obj, int x) {
  using namespace anyhip::tex;
  const ahTexDesc &d = *desc(obj);
  const unsigned char *p =
      x < 0 || (unsigned long long)x >= d.level[0].width ? nullptr : d.level[0].data + (size_t)x * d.elem;

  if (p == nullptr)
    return result<T>(texel{{0.0f, 0.0f, 0.0f, 0.0f}});
  if (reads_float<T>())
    return result<T>(load_f(d, p));
  return iresult<T>(load_i(d, p));
}
#define AH_COMMA ,
AH_TEX_OUT(tex1Dfetch, AH_COMMA int x, AH_COMMA x)

template <class T> __device__ inline T tex1D(hipTextureObject_t obj, float x) {
  return anyhip::tex::fetch<T>(obj, 1, x, 0.0f, 0.0f, 0.0f);
}
AH_TEX_OUT(tex1D, AH_COMMA float x, AH_COMMA x)

template <class T> __device__ inline T tex2D(hipTextureObject_t obj, float x, float y) {
  return anyhip::tex::fetch<T>(obj, 2, x, y, 0.0f, 0.0f);
}
AH_TEX_OUT(tex2D, AH_COMMA float x AH_COMMA float y, AH_COMMA x AH_COMMA y)

template <class T> __device__ inline T tex3D(hipTextureObject_t obj, float x, float y, float z) {
  return anyhip::tex::fetch<T>(obj, 3, x, y, z, 0.0f);
}
AH_TEX_OUT(tex3D, AH_COMMA float x AH_COMMA float y AH_COMMA float z,
           AH_COMMA x AH_COMMA y AH_COMMA z)

template <class T> __device__ inline T tex1DLayered(hipTextureObject_t obj, float x, int layer) {
  return anyhip::tex::fetch<T>(obj, 1, x, 0.0f,
                               anyhip::tex::layer(*anyhip::tex::desc(obj), layer, 1), 0.0f);
}
AH_TEX_OUT(tex1DLayered, AH_COMMA float x AH_COMMA int layer, AH_COMMA x AH_COMMA layer)

template <class T>
__device__ inline T tex2DLayered(hipTextureObject_t obj, float x, float y, int layer) {
  return anyhip::tex::fetch<T>(obj, 2, x, y,
                               anyhip::tex::layer(*anyhip::tex::desc(obj), layer, 1), 0.0f);
}
AH_TEX_OUT(tex2DLayered, AH_COMMA float x AH_COMMA float y AH_COMMA int layer,
           AH_COMMA x AH_COMMA y AH_COMMA layer)

template <class T> __device__ inline T texCubemap(hipTextureObject_t obj, float x, float y, float z) {
  return anyhip::tex::result<T>(anyhip::tex::cube(*anyhip::tex::desc(obj), x, y, z, 0, 0.0f));
}
AH_TEX_OUT(texCubemap, AH_COMMA float x AH_COMMA float y AH_COMMA float z,
           AH_COMMA x AH_COMMA y AH_COMMA z)

template <class T>
__device__ inline T texCubemapLayered(hipTextureObject_t obj, float x, float y, float z, int layer) {
  return anyhip::tex::result<T>(anyhip::tex::cube(*anyhip::tex::desc(obj), x, y, z, layer, 0.0f));
}
AH_TEX_OUT(texCubemapLayered, AH_COMMA float x AH_COMMA float y AH_COMMA float z AH_COMMA int layer,
           AH_COMMA x AH_COMMA y AH_COMMA z AH_COMMA layer)

/* Levels of detail. */
template <class T> __device__ inline T tex1DLod(hipTextureObject_t obj, float x, float level) {
  return anyhip::tex::fetch<T>(obj, 1, x, 0.0f, 0.0f, level);
}
AH_TEX_OUT(tex1DLod, AH_COMMA float x AH_COMMA float level, AH_COMMA x AH_COMMA level)

template <class T>
__device__ inline T tex2DLod(hipTextureObject_t obj, float x, float y, float level) {
  return anyhip::tex::fetch<T>(obj, 2, x, y, 0.0f, level);
}
AH_TEX_OUT(tex2DLod, AH_COMMA float x AH_COMMA float y AH_COMMA float level,
           AH_COMMA x AH_COMMA y AH_COMMA level)

template <class T>
__device__ inline T tex3DLod(hipTextureObject_t obj, float x, float y, float z, float level) {
  return anyhip::tex::fetch<T>(obj, 3, x, y, z, level);
}
AH_TEX_OUT(tex3DLod, AH_COMMA float x AH_COMMA float y AH_COMMA float z AH_COMMA float level,
           AH_COMMA x AH_COMMA y AH_COMMA z AH_COMMA level)

template <class T>
__device__ inline T tex1DLayeredLod(hipTextureObject_t obj, float x, int layer, float level) {
  return anyhip::tex::fetch<T>(obj, 1, x, 0.0f,
                               anyhip::tex::layer(*anyhip::tex::desc(obj), layer, 1), level);
}
AH_TEX_OUT(tex1DLayeredLod, AH_COMMA float x AH_COMMA int layer AH_COMMA float level,
           AH_COMMA x AH_COMMA layer AH_COMMA level)

template <class T>
__device__ inline T tex2DLayeredLod(hipTextureObject_t obj, float x, float y, int layer,
                                    float level) {
  return anyhip::tex::fetch<T>(obj, 2, x, y,
                               anyhip::tex::layer(*anyhip::tex::desc(obj), layer, 1), level);
}
AH_TEX_OUT(tex2DLayeredLod,
           AH_COMMA float x AH_COMMA float y AH_COMMA int layer AH_COMMA float level,
           AH_COMMA x AH_COMMA y AH_COMMA layer AH_COMMA level)

template <class T>
__device__ inline T texCubemapLod(hipTextureObject_t obj, float x, float y, float z, float level) {
  return anyhip::tex::result<T>(anyhip::tex::cube(*anyhip::tex::desc(obj), x, y, z, 0, level));
}
AH_TEX_OUT(texCubemapLod, AH_COMMA float x AH_COMMA float y AH_COMMA float z AH_COMMA float level,
           AH_COMMA x AH_COMMA y AH_COMMA z AH_COMMA level)

template <class T>
__device__ inline T texCubemapLayeredLod(hipTextureObject_t obj, float x, float y, float z,
                                         int layer, float level) {
  return anyhip::tex::result<T>(
      anyhip::tex::cube(*anyhip::tex::desc(obj), x, y, z, layer, level));
}
AH_TEX_OUT(texCubemapLayeredLod,
           AH_COMMA float x AH_COMMA float y AH_COMMA float z AH_COMMA int layer AH_COMMA float level,
           AH_COMMA x AH_COMMA y AH_COMMA z AH_COMMA layer AH_COMMA level)

/* Gradients. */
template <class T>
__device__ inline T tex1DGrad(hipTextureObject_t obj, float x, float dPdx, float dPdy) {
  float lod = anyhip::tex::grad_lod(*anyhip::tex::desc(obj), 1, &dPdx, &dPdy);
  return anyhip::tex::fetch<T>(obj, 1, x, 0.0f, 0.0f, lod);
}
AH_TEX_OUT(tex1DGrad, AH_COMMA float x AH_COMMA float dPdx AH_COMMA float dPdy,
           AH_COMMA x AH_COMMA dPdx AH_COMMA dPdy)

template <class T>
__device__ inline T tex2DGrad(hipTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy) {
  float dx[2] = {dPdx.x, dPdx.y}, dy[2] = {dPdy.x, dPdy.y};
  float lod = anyhip::tex::grad_lod(*anyhip::tex::desc(obj), 2, dx, dy);
  return anyhip::tex::fetch<T>(obj, 2, x, y, 0.0f, lod);
}
AH_TEX_OUT(tex2DGrad, AH_COMMA float x AH_COMMA float y AH_COMMA float2 dPdx AH_COMMA float2 dPdy,
           AH_COMMA x AH_COMMA y AH_COMMA dPdx AH_COMMA dPdy)

template <class T>
__device__ inline T tex3DGrad(hipTextureObject_t obj, float x, float y, float z, float4 dPdx,
                              float4 dPdy) {
  float dx[3] = {dPdx.x, dPdx.y, dPdx.z}, dy[3] = {dPdy.x, dPdy.y, dPdy.z};
  float lod = anyhip::tex::grad_lod(*anyhip::tex::desc(obj), 3, dx, dy);
  return anyhip::tex::fetch<T>(obj, 3, x, y, z, lod);
}
AH_TEX_OUT(tex3DGrad,
           AH_COMMA float x AH_COMMA float y AH_COMMA float z AH_COMMA float4 dPdx AH_COMMA float4 dPdy,
           AH_COMMA x AH_COMMA y AH_COMMA z AH_COMMA dPdx AH_COMMA dPdy)

template <class T>
__device__ inline T tex1DLayeredGrad(hipTextureObject_t obj, float x, int layer, float dPdx,
                                     float dPdy) {
  float lod = anyhip::tex::grad_lod(*anyhip::tex::desc(obj), 1, &dPdx, &dPdy);
  return anyhip::tex::fetch<T>(obj, 1, x, 0.0f,
                               anyhip::tex::layer(*anyhip::tex::desc(obj), layer, 1), lod);
}
AH_TEX_OUT(tex1DLayeredGrad, AH_COMMA float x AH_COMMA int layer AH_COMMA float dPdx AH_COMMA float dPdy,
           AH_COMMA x AH_COMMA layer AH_COMMA dPdx AH_COMMA dPdy)

template <class T>
__device__ inline T tex2DLayeredGrad(hipTextureObject_t obj, float x, float y, int layer,
                                     float2 dPdx, float2 dPdy) {
  float dx[2] = {dPdx.x, dPdx.y}, dy[2] = {dPdy.x, dPdy.y};
  float lod = anyhip::tex::grad_lod(*anyhip::tex::desc(obj), 2, dx, dy);
  return anyhip::tex::fetch<T>(obj, 2, x, y,
                               anyhip::tex::layer(*anyhip::tex::desc(obj), layer, 1), lod);
}
AH_TEX_OUT(tex2DLayeredGrad,
           AH_COMMA float x AH_COMMA float y AH_COMMA int layer AH_COMMA float2 dPdx AH_COMMA float2 dPdy,
           AH_COMMA x AH_COMMA y AH_COMMA layer AH_COMMA dPdx AH_COMMA dPdy)

template <class T>
__device__ inline T texCubemapGrad(hipTextureObject_t obj, float x, float y, float z, float4 dPdx,
                                   float4 dPdy) {
  const ahTexDesc &d = *anyhip::tex::desc(obj);
  float dx[2] = {dPdx.x, dPdx.y}, dy[2] = {dPdy.x, dPdy.y};
  ahTexDesc c = d;
  c.normalized = 1;
  return anyhip::tex::result<T>(anyhip::tex::cube(d, x, y, z, 0, anyhip::tex::grad_lod(c, 2, dx, dy)));
}
AH_TEX_OUT(texCubemapGrad,
           AH_COMMA float x AH_COMMA float y AH_COMMA float z AH_COMMA float4 dPdx AH_COMMA float4 dPdy,
           AH_COMMA x AH_COMMA y AH_COMMA z AH_COMMA dPdx AH_COMMA dPdy)

template <class T>
__device__ inline T texCubemapLayeredGrad(hipTextureObject_t obj, float x, float y, float z,
                                          int layer, float4 dPdx, float4 dPdy) {
  const ahTexDesc &d = *anyhip::tex::desc(obj);
  float dx[2] = {dPdx.x, dPdx.y}, dy[2] = {dPdy.x, dPdy.y};
  ahTexDesc c = d;
  c.normalized = 1;
  return anyhip::tex::result<T>(
      anyhip::tex::cube(d, x, y, z, layer, anyhip::tex::grad_lod(c, 2, dx, dy)));
}
template <class T>
__device__ inline void texCubemapLayeredGrad(T *ptr, hipTextureObject_t obj, float x, float y,
                                             float z, int layer, float4 dPdx, float4 dPdy) {
  *ptr = texCubemapLayeredGrad<T>(obj, x, y, z, layer, dPdx, dPdy);
}

/* The four texels bilinear filtering would blend at (x, y), channel comp of each:
 * (i, j+1), (i+1, j+1), (i+1, j), (i, j) in x, y, z, w. */
template <class T>
__device__ inline T tex2Dgather(hipTextureObject_t obj, float x, float y, int comp = 0) {
  using namespace anyhip::tex;
  const ahTexDesc &d = *desc(obj);
  const ahTexLevel &L = d.level[0];
  float i, a, j, b;
  typename vec<T>::scalar v[4];

  linear_params(to_level(d, x, L.width, L.width), i, a);
  linear_params(to_level(d, y, L.height, L.height), j, b);
  const unsigned char *p[4] = {at(d, L, 2, i, j + 1.0f, 0), at(d, L, 2, i + 1.0f, j + 1.0f, 0),
                               at(d, L, 2, i + 1.0f, j, 0), at(d, L, 2, i, j, 0)};
  comp &= 3;
  for (int k = 0; k < 4; k++) {
    if (reads_float<T>())
      v[k] = static_cast<typename vec<T>::scalar>(load_f(d, p[k]).f[comp]);
    else
      v[k] = static_cast<typename vec<T>::scalar>(load_i(d, p[k]).v[comp]);
  }
  return vec<T>::make(v);
}
template <class T>
__device__ inline void tex2Dgather(T *ptr, hipTextureObject_t obj, float x, float y, int comp = 0) {
  *ptr = tex2Dgather<T>(obj, x, y, comp);
}

#undef AH_TEX_OUT
#undef AH_COMMA

/* ---- surfaces ------------------------------------------------------------- */

namespace anyhip {
namespace tex {

/* The byte address of a surface access of `bytes` bytes at (x bytes, y, z), after the
 * boundary mode; NULL: ignore it (zero mode). Trap stops the kernel. */
inline unsigned char *surf_at(hipSurfaceObject_t obj, long long x, long long y, long long z,
                              size_t bytes, int mode) {
  const ahTexDesc &d = *desc(obj);
  const ahTexLevel &L = d.level[0];
  long long w = (long long)(L.width * d.elem) - (long long)bytes, h = (long long)L.height - 1,
            s = (long long)L.depth - 1;

  if (x < 0 || x > w || y < 0 || y > h || z < 0 || z > s) {
    if (mode == hipBoundaryModeClamp) {
      x = x < 0 ? 0 : x > w ? w : x;
      y = y < 0 ? 0 : y > h ? h : y;
      z = z < 0 ? 0 : z > s ? s : z;
    } else if (mode == hipBoundaryModeTrap) {
      __builtin_trap();
    } else {
      return nullptr;
    }
  }
  return const_cast<unsigned char *>(L.data) + z * L.slice + y * L.pitch + x;
}

template <class T> inline void surf_read(T *data, hipSurfaceObject_t obj, long long x, long long y,
                                         long long z, int mode) {
  unsigned char *p = surf_at(obj, x, y, z, sizeof(T), mode);

  if (p == nullptr)
    std::memset((void *)data, 0, sizeof(T));
  else
    std::memcpy((void *)data, p, sizeof(T));
}
template <class T> inline void surf_write(const T &data, hipSurfaceObject_t obj, long long x,
                                          long long y, long long z, int mode) {
  unsigned char *p = surf_at(obj, x, y, z, sizeof(T), mode);

  if (p != nullptr)
    std::memcpy(p, (const void *)&data, sizeof(T));
}

} // namespace tex
} // namespace anyhip

template <class T>
__device__ inline void surf1Dread(T *data, hipSurfaceObject_t obj, int x,
                                  int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_read(data, obj, x, 0, 0, boundaryMode);
}
template <class T>
__device__ inline void surf1Dwrite(T data, hipSurfaceObject_t obj, int x,
                                   int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_write(data, obj, x, 0, 0, boundaryMode);
}
template <class T>
__device__ inline void surf2Dread(T *data, hipSurfaceObject_t obj, int x, int y,
                                  int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_read(data, obj, x, y, 0, boundaryMode);
}
template <class T>
__device__ inline void surf2Dwrite(T data, hipSurfaceObject_t obj, int x, int y,
                                   int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_write(data, obj, x, y, 0, boundaryMode);
}
template <class T>
__device__ inline void surf3Dread(T *data, hipSurfaceObject_t obj, int x, int y, int z,
                                  int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_read(data, obj, x, y, z, boundaryMode);
}
template <class T>
__device__ inline void surf3Dwrite(T data, hipSurfaceObject_t obj, int x, int y, int z,
                                   int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_write(data, obj, x, y, z, boundaryMode);
}
template <class T>
__device__ inline void surf1DLayeredread(T *data, hipSurfaceObject_t obj, int x, int layer,
                                         int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_read(data, obj, x, 0, layer, boundaryMode);
}
template <class T>
__device__ inline void surf1DLayeredwrite(T data, hipSurfaceObject_t obj, int x, int layer,
                                          int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_write(data, obj, x, 0, layer, boundaryMode);
}
template <class T>
__device__ inline void surf2DLayeredread(T *data, hipSurfaceObject_t obj, int x, int y, int layer,
                                         int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_read(data, obj, x, y, layer, boundaryMode);
}
template <class T>
__device__ inline void surf2DLayeredwrite(T data, hipSurfaceObject_t obj, int x, int y, int layer,
                                          int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_write(data, obj, x, y, layer, boundaryMode);
}
template <class T>
__device__ inline void surfCubemapread(T *data, hipSurfaceObject_t obj, int x, int y, int face,
                                       int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_read(data, obj, x, y, face, boundaryMode);
}
template <class T>
__device__ inline void surfCubemapwrite(T data, hipSurfaceObject_t obj, int x, int y, int face,
                                        int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_write(data, obj, x, y, face, boundaryMode);
}
/* A layered cubemap's face and layer are one index, layer * 6 + face (HIP 6's and CUDA's
 * form). */
template <class T>
__device__ inline void surfCubemapLayeredread(T *data, hipSurfaceObject_t obj, int x, int y,
                                              int layerFace, int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_read(data, obj, x, y, layerFace, boundaryMode);
}
template <class T>
__device__ inline void surfCubemapLayeredwrite(T data, hipSurfaceObject_t obj, int x, int y,
                                               int layerFace, int boundaryMode = hipBoundaryModeZero) {
  anyhip::tex::surf_write(data, obj, x, y, layerFace, boundaryMode);
}
/* CUDA's value-returning reads (HIP has the pointer forms only). */
template <class T>
__device__ inline T surf1Dread(hipSurfaceObject_t obj, int x, int boundaryMode = hipBoundaryModeZero) {
  T v;
  anyhip::tex::surf_read(&v, obj, x, 0, 0, boundaryMode);
  return v;
}
template <class T>
__device__ inline T surf2Dread(hipSurfaceObject_t obj, int x, int y,
                               int boundaryMode = hipBoundaryModeZero) {
  T v;
  anyhip::tex::surf_read(&v, obj, x, y, 0, boundaryMode);
  return v;
}
template <class T>
__device__ inline T surf3Dread(hipSurfaceObject_t obj, int x, int y, int z,
                               int boundaryMode = hipBoundaryModeZero) {
  T v;
  anyhip::tex::surf_read(&v, obj, x, y, z, boundaryMode);
  return v;
}

/* texture<T, dim, mode>: HIP's deprecated texture reference type, its
 * settings as HIP's constructors make them. Declared so that code declaring
 * one compiles; nothing binds one or fetches through one (docs/textures.md). */
template <class T, int texType = hipTextureType1D,
          enum hipTextureReadMode mode = hipReadModeElementType>
struct texture : public textureReference {
  texture(int norm = 0, enum hipTextureFilterMode fMode = hipFilterModePoint,
          enum hipTextureAddressMode aMode = hipAddressModeClamp)
      : texture(norm, fMode, aMode, hipCreateChannelDesc<T>()) {}
  texture(int norm, enum hipTextureFilterMode fMode, enum hipTextureAddressMode aMode,
          struct hipChannelFormatDesc desc) {
    std::memset(static_cast<textureReference *>(this), 0, sizeof(textureReference));
    normalized = norm;
    readMode = mode;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = desc;
    mipmapFilterMode = hipFilterModePoint;
  }
};

#endif
