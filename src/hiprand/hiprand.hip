/* SPDX-License-Identifier: MIT */
/* libhiprand: hipRAND's host API (hiprand/hiprand.h) over the device API's
 * generators (hiprand/hiprand_kernel.h), so host and device API share one
 * implementation of each algorithm. Built by anyhip's own hipcc as a shared
 * library (src/hiprand/CMakeLists.txt), so generation runs as kernels on the
 * device that was current when the generator was created; a host generator
 * (hiprandCreateGeneratorHost) runs the same per-thread work in a loop on the
 * calling thread.
 *
 * Layouts (docs/libraries.md):
 * - Philox4x32-10: stateless; output value i is value offset + i of the single
 *   Philox stream of the seed (subsequence 0), rocRAND's documented ordering.
 *   Each call continues the stream (rounded up to whole counters of 4).
 * - XORWOW, MRG32k3a: STREAMS (131072) states, stream t = subsequence t at
 *   the offset; value i of a call comes from stream i % STREAMS, its value
 *   i / STREAMS: rocRAND's documented (legacy = default) ordering. Pairs for
 *   Box-Muller normals; the states persist across calls.
 * - Sobol32: dimension-major, n / dimensions points of dimension 1, then of
 *   dimension 2..., Joe and Kuo's direction numbers, Gray-code order from
 *   point offset; each call continues. */
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>

#include <new>
#include <stdlib.h>
#include <string.h>

#include "sobol_directions.h"

namespace {

constexpr unsigned STREAMS = 131072;  /* XORWOW and MRG32k3a states (rocRAND's count) */
constexpr unsigned CHUNK = 128;       /* states one thread sets up */
constexpr unsigned BLOCK = 256;       /* threads per block of every kernel */
constexpr unsigned SOBOL_CHUNK = 256; /* points per work item */

enum dist_kind {
  D_BITS,
  D_UNIFORM,
  D_UNIFORM_D,
  D_NORMAL,
  D_NORMAL_D,
  D_LOGNORMAL,
  D_LOGNORMAL_D,
  D_POISSON
};

struct request {
  dist_kind kind;
  void *out;
  size_t n;
  double a, b; /* mean and stddev, or lambda */
};

} // namespace

struct hiprandGenerator_st {
  hiprandRngType_t type;
  bool host;
  int device;
  hipStream_t stream;
  unsigned long long seed, offset;
  unsigned long long position; /* values (Philox) or points (Sobol) already given */
  unsigned int dimensions;
  bool ready;   /* states or direction vectors match seed/offset */
  void *states; /* XORWOW or MRG32k3a states; Sobol: dimensions x 32 vectors */
};

namespace {

/* ---- per-thread work, the same on the host and in kernels ---------------- */

/* States t*CHUNK .. t*CHUNK + CHUNK - 1: the first by hiprand_init, each next
 * one subsequence further (one jump each, not a full set-up). */
__host__ __device__ inline void init_chunk(hiprandStateXORWOW_t *states, unsigned t,
                                           unsigned long long seed, unsigned long long offset) {
  hiprandStateXORWOW_t s;
  hiprand_init(seed, (unsigned long long)t * CHUNK, offset, &s);
  states[t * CHUNK] = s;
  HIPRAND_NO_UNROLL
  for (unsigned k = 1; k < CHUNK; k++) {
    skipahead_sequence(1ull, &s);
    states[t * CHUNK + k] = s;
  }
}

__host__ __device__ inline void init_chunk(hiprandStateMRG32k3a_t *states, unsigned t,
                                           unsigned long long seed, unsigned long long offset) {
  hiprandStateMRG32k3a_t s;
  hiprand_init(seed, (unsigned long long)t * CHUNK, offset, &s);
  states[t * CHUNK] = s;
  /* A^(2^76) of each component, once. */
  unsigned int p1[3][3] = {{0, 1, 0}, {0, 0, 1}, {HIPRAND_MRG32K3A_M1 - 810728u, 1403580u, 0}};
  unsigned int p2[3][3] = {{0, 1, 0}, {0, 0, 1}, {HIPRAND_MRG32K3A_M2 - 1370589u, 0, 527612u}};
  HIPRAND_NO_UNROLL
  for (int i = 0; i < 76; i++) {
    hiprand_detail::mat3_mul(p1, p1, p1, HIPRAND_MRG32K3A_M1);
    hiprand_detail::mat3_mul(p2, p2, p2, HIPRAND_MRG32K3A_M2);
  }
  HIPRAND_NO_UNROLL
  for (unsigned k = 1; k < CHUNK; k++) {
    hiprand_detail::mat3_vec(p1, s.s1, HIPRAND_MRG32K3A_M1);
    hiprand_detail::mat3_vec(p2, s.s2, HIPRAND_MRG32K3A_M2);
    states[t * CHUNK + k] = s;
  }
}

__host__ __device__ inline void put(const request &r, size_t i, double v) {
  switch (r.kind) {
  case D_UNIFORM:
  case D_NORMAL:
  case D_LOGNORMAL:
    static_cast<float *>(r.out)[i] = (float)v;
    break;
  default:
    static_cast<double *>(r.out)[i] = v;
    break;
  }
}

/* Stream t of a stateful generator writes values t, t + STREAMS, ... (pairs
 * for normals). */
template <typename State>
__host__ __device__ void stream_work(State *states, unsigned t, request r) {
  State s = states[t];
  switch (r.kind) {
  case D_BITS:
    for (size_t i = t; i < r.n; i += STREAMS)
      static_cast<unsigned int *>(r.out)[i] = hiprand(&s);
    break;
  case D_POISSON:
    for (size_t i = t; i < r.n; i += STREAMS)
      static_cast<unsigned int *>(r.out)[i] = hiprand_poisson(&s, r.a);
    break;
  case D_UNIFORM:
    for (size_t i = t; i < r.n; i += STREAMS)
      static_cast<float *>(r.out)[i] = hiprand_uniform(&s);
    break;
  case D_UNIFORM_D:
    for (size_t i = t; i < r.n; i += STREAMS)
      static_cast<double *>(r.out)[i] = hiprand_uniform_double(&s);
    break;
  case D_NORMAL:
  case D_LOGNORMAL:
    for (size_t j = t; 2 * j < r.n; j += STREAMS) {
      float2 v = hiprand_normal2(&s);
      float x = (float)r.a + (float)r.b * v.x, y = (float)r.a + (float)r.b * v.y;
      if (r.kind == D_LOGNORMAL) {
        x = expf(x);
        y = expf(y);
      }
      static_cast<float *>(r.out)[2 * j] = x;
      static_cast<float *>(r.out)[2 * j + 1] = y;
    }
    break;
  case D_NORMAL_D:
  case D_LOGNORMAL_D:
    for (size_t j = t; 2 * j < r.n; j += STREAMS) {
      double2 v = hiprand_normal2_double(&s);
      double x = r.a + r.b * v.x, y = r.a + r.b * v.y;
      if (r.kind == D_LOGNORMAL_D) {
        x = exp(x);
        y = exp(y);
      }
      static_cast<double *>(r.out)[2 * j] = x;
      static_cast<double *>(r.out)[2 * j + 1] = y;
    }
    break;
  }
  states[t] = s;
}

/* The four Philox values at stream position u, u + 1, u + 2, u + 3. */
__host__ __device__ inline uint4 philox_at(unsigned long long seed, unsigned long long u) {
  uint2 key = make_uint2((unsigned int)seed, (unsigned int)(seed >> 32));
  unsigned long long c = u / 4;
  uint4 ctr = make_uint4((unsigned int)c, (unsigned int)(c >> 32), 0, 0);
  uint4 a = hiprand_detail::philox4x32_10(ctr, key);
  unsigned lane = (unsigned)(u % 4);
  if (lane == 0)
    return a;
  c++;
  uint4 ctr2 = make_uint4((unsigned int)c, (unsigned int)(c >> 32), c == 0 ? 1u : 0u, 0);
  uint4 b = hiprand_detail::philox4x32_10(ctr2, key);
  unsigned int v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  return make_uint4(v[lane], v[lane + 1], v[lane + 2], v[lane + 3]);
}

/* Values a group of four Philox outputs gives. */
__host__ __device__ inline unsigned per_group(dist_kind k) {
  return (k == D_UNIFORM_D || k == D_NORMAL_D || k == D_LOGNORMAL_D) ? 2u : 4u;
}

/* Group g: values g * per_group .. of the call, from stream values base + 4g. */
__host__ __device__ void philox_group(unsigned long long seed, unsigned long long base, size_t g,
                                      request r) {
  uint4 x = philox_at(seed, base + 4 * (unsigned long long)g);
  unsigned per = per_group(r.kind);
  size_t i0 = g * per;
  double v[4];
  switch (r.kind) {
  case D_BITS: {
    unsigned int b[4] = {x.x, x.y, x.z, x.w};
    for (unsigned k = 0; k < 4 && i0 + k < r.n; k++)
      static_cast<unsigned int *>(r.out)[i0 + k] = b[k];
    return;
  }
  case D_POISSON:
    return; /* per value, below */
  case D_UNIFORM:
    v[0] = hiprand_detail::uniform(x.x);
    v[1] = hiprand_detail::uniform(x.y);
    v[2] = hiprand_detail::uniform(x.z);
    v[3] = hiprand_detail::uniform(x.w);
    break;
  case D_UNIFORM_D:
    v[0] = hiprand_detail::uniform_double(x.x, x.y);
    v[1] = hiprand_detail::uniform_double(x.z, x.w);
    break;
  case D_NORMAL:
  case D_LOGNORMAL: {
    float2 p = hiprand_detail::box_muller(x.x, x.y), q = hiprand_detail::box_muller(x.z, x.w);
    float f[4] = {p.x, p.y, q.x, q.y};
    for (int k = 0; k < 4; k++) {
      float y = (float)r.a + (float)r.b * f[k];
      v[k] = r.kind == D_LOGNORMAL ? expf(y) : y;
    }
    break;
  }
  case D_NORMAL_D:
  case D_LOGNORMAL_D: {
    double2 p = hiprand_detail::box_muller_double(x.x, x.y, x.z, x.w);
    double d[2] = {p.x, p.y};
    for (int k = 0; k < 2; k++) {
      double y = r.a + r.b * d[k];
      v[k] = r.kind == D_LOGNORMAL_D ? exp(y) : y;
    }
    break;
  }
  }
  for (unsigned k = 0; k < per && i0 + k < r.n; k++)
    put(r, i0 + k, v[k]);
}

/* Poisson from Philox: value i from subsequence (position + i) at the offset. */
__host__ __device__ void philox_poisson(unsigned long long seed, unsigned long long offset,
                                        unsigned long long first, size_t i, request r) {
  hiprandStatePhilox4_32_10_t s;
  hiprand_init(seed, first + i, offset, &s);
  static_cast<unsigned int *>(r.out)[i] = hiprand_poisson(&s, r.a);
}

/* Inverse of Poisson's CDF at u (quasi-random points keep their order). */
__host__ __device__ inline unsigned int poisson_inverse(double u, double lambda) {
  if (lambda >= 64.0) {
    double x = floor(lambda + sqrt(lambda) * normcdfinv(u) + 0.5);
    return x < 0.0 ? 0u : (unsigned int)x;
  }
  double p = exp(-lambda), cdf = p;
  unsigned int k = 0;
  while (cdf < u && k < 1000) {
    k++;
    p *= lambda / k;
    cdf += p;
  }
  return k;
}

/* Sobol work item w: dimension w / chunks, points c * CHUNK.. of the call. */
__host__ __device__ void sobol_item(const unsigned int *vectors, unsigned long long first,
                                    size_t per_dim, size_t chunks, size_t w, request r) {
  size_t d = w / chunks, c = w % chunks;
  size_t j0 = c * SOBOL_CHUNK, j1 = j0 + SOBOL_CHUNK < per_dim ? j0 + SOBOL_CHUNK : per_dim;
  hiprandStateSobol32_t s;
  hiprand_init(vectors + 32 * d, (unsigned int)(first + j0), &s);
  for (size_t j = j0; j < j1; j++) {
    size_t i = d * per_dim + j;
    unsigned int x = hiprand(&s);
    float uf = hiprand_detail::uniform(x);
    double ud = x * HIPRAND_2POW32_INV_DOUBLE + HIPRAND_2POW32_INV_DOUBLE / 2.0;
    switch (r.kind) {
    case D_BITS:
      static_cast<unsigned int *>(r.out)[i] = x;
      break;
    case D_POISSON:
      static_cast<unsigned int *>(r.out)[i] = poisson_inverse(ud, r.a);
      break;
    case D_UNIFORM:
      put(r, i, uf);
      break;
    case D_UNIFORM_D:
      put(r, i, ud);
      break;
    case D_NORMAL:
      put(r, i, (float)r.a + (float)r.b * normcdfinvf(uf));
      break;
    case D_LOGNORMAL:
      put(r, i, expf((float)r.a + (float)r.b * normcdfinvf(uf)));
      break;
    case D_NORMAL_D:
      put(r, i, r.a + r.b * normcdfinv(ud));
      break;
    case D_LOGNORMAL_D:
      put(r, i, exp(r.a + r.b * normcdfinv(ud)));
      break;
    }
  }
}

/* ---- kernels ---------------------------------------------------------------- */

template <typename State>
__global__ void init_kernel(State *states, unsigned long long seed, unsigned long long offset) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < STREAMS / CHUNK)
    init_chunk(states, t, seed, offset);
}

template <typename State> __global__ void stream_kernel(State *states, request r) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < STREAMS)
    stream_work(states, t, r);
}

__global__ void philox_kernel(unsigned long long seed, unsigned long long base, size_t groups,
                              request r) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t g = blockIdx.x * (size_t)blockDim.x + threadIdx.x; g < groups; g += stride)
    philox_group(seed, base, g, r);
}

__global__ void philox_poisson_kernel(unsigned long long seed, unsigned long long offset,
                                      unsigned long long first, request r) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < r.n; i += stride)
    philox_poisson(seed, offset, first, i, r);
}

__global__ void sobol_kernel(const unsigned int *vectors, unsigned long long first, size_t per_dim,
                             size_t chunks, size_t items, request r) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < items; w += stride)
    sobol_item(vectors, first, per_dim, chunks, w, r);
}

/* ---- host side -------------------------------------------------------------- */

bool is_pseudo(hiprandRngType_t t) {
  return t == HIPRAND_RNG_PSEUDO_XORWOW || t == HIPRAND_RNG_PSEUDO_MRG32K3A ||
         t == HIPRAND_RNG_PSEUDO_PHILOX4_32_10;
}

size_t state_bytes(const hiprandGenerator_st *g) {
  switch (g->type) {
  case HIPRAND_RNG_PSEUDO_XORWOW:
    return STREAMS * sizeof(hiprandStateXORWOW_t);
  case HIPRAND_RNG_PSEUDO_MRG32K3A:
    return STREAMS * sizeof(hiprandStateMRG32k3a_t);
  case HIPRAND_RNG_QUASI_SOBOL32:
    return (size_t)g->dimensions * 32 * sizeof(unsigned int);
  default:
    return 0;
  }
}

/* Dimension d's 32 direction vectors (Joe and Kuo's recurrence). */
void sobol_vectors(unsigned d, unsigned int v[32]) {
  if (d == 0) {
    for (int k = 0; k < 32; k++)
      v[k] = 1u << (31 - k);
    return;
  }
  unsigned poly = ah_sobol_poly[d];
  int s = 0;
  while ((poly >> (s + 1)) != 0)
    s++;
  for (int k = 0; k < s && k < 32; k++)
    v[k] = (unsigned int)ah_sobol_m[d][k] << (31 - k);
  for (int k = s; k < 32; k++) {
    unsigned int x = v[k - s] ^ (v[k - s] >> s);
    for (int j = 1; j < s; j++)
      if ((poly >> (s - j)) & 1u)
        x ^= v[k - j];
    v[k] = x;
  }
}

hiprandStatus_t hip_status(hipError_t e) {
  if (e == hipSuccess)
    return HIPRAND_STATUS_SUCCESS;
  if (e == hipErrorOutOfMemory || e == hipErrorMemoryAllocation)
    return HIPRAND_STATUS_ALLOCATION_FAILED;
  return HIPRAND_STATUS_LAUNCH_FAILURE;
}

/* Sets up the states or direction vectors for the current seed and offset. */
hiprandStatus_t prepare(hiprandGenerator_st *g) {
  if (g->ready)
    return HIPRAND_STATUS_SUCCESS;
  size_t bytes = state_bytes(g);
  if (g->states) {
    if (g->host)
      free(g->states);
    else
      (void)hipFree(g->states);
    g->states = NULL;
  }
  if (bytes != 0) {
    if (g->host) {
      g->states = malloc(bytes);
      if (!g->states)
        return HIPRAND_STATUS_ALLOCATION_FAILED;
    } else if (hipMalloc(&g->states, bytes) != hipSuccess) {
      g->states = NULL;
      return HIPRAND_STATUS_ALLOCATION_FAILED;
    }
  }
  hipError_t e = hipSuccess;
  switch (g->type) {
  case HIPRAND_RNG_PSEUDO_XORWOW:
    if (g->host) {
      for (unsigned t = 0; t < STREAMS / CHUNK; t++)
        init_chunk(static_cast<hiprandStateXORWOW_t *>(g->states), t, g->seed, g->offset);
    } else {
      init_kernel<<<(STREAMS / CHUNK + BLOCK - 1) / BLOCK, BLOCK, 0, g->stream>>>(
          static_cast<hiprandStateXORWOW_t *>(g->states), g->seed, g->offset);
      e = hipGetLastError();
    }
    break;
  case HIPRAND_RNG_PSEUDO_MRG32K3A:
    if (g->host) {
      for (unsigned t = 0; t < STREAMS / CHUNK; t++)
        init_chunk(static_cast<hiprandStateMRG32k3a_t *>(g->states), t, g->seed, g->offset);
    } else {
      init_kernel<<<(STREAMS / CHUNK + BLOCK - 1) / BLOCK, BLOCK, 0, g->stream>>>(
          static_cast<hiprandStateMRG32k3a_t *>(g->states), g->seed, g->offset);
      e = hipGetLastError();
    }
    break;
  case HIPRAND_RNG_QUASI_SOBOL32: {
    unsigned int *v = static_cast<unsigned int *>(malloc(bytes));
    if (!v)
      return HIPRAND_STATUS_ALLOCATION_FAILED;
    for (unsigned d = 0; d < g->dimensions; d++)
      sobol_vectors(d, v + 32 * d);
    if (g->host)
      memcpy(g->states, v, bytes);
    else
      e = hipMemcpy(g->states, v, bytes, hipMemcpyHostToDevice);
    free(v);
    break;
  }
  default:
    break;
  }
  if (e != hipSuccess)
    return hip_status(e);
  g->ready = true;
  g->position = 0;
  return HIPRAND_STATUS_SUCCESS;
}

unsigned grid_for(size_t items) {
  size_t blocks = (items + BLOCK - 1) / BLOCK;
  return (unsigned)(blocks < 1 ? 1 : blocks > 1024 ? 1024 : blocks);
}

hiprandStatus_t generate(hiprandGenerator_t g, request r) {
  if (!g)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  if (r.n == 0)
    return HIPRAND_STATUS_SUCCESS;
  if (!r.out)
    return HIPRAND_STATUS_OUT_OF_RANGE;
  bool pairs = r.kind == D_NORMAL || r.kind == D_NORMAL_D || r.kind == D_LOGNORMAL ||
               r.kind == D_LOGNORMAL_D;
  if (g->type == HIPRAND_RNG_QUASI_SOBOL32 && r.n % g->dimensions != 0)
    return HIPRAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (is_pseudo(g->type) && pairs && r.n % 2 != 0)
    return HIPRAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (r.kind == D_POISSON && !(r.a > 0.0))
    return HIPRAND_STATUS_OUT_OF_RANGE;
  int saved = -1;
  if (!g->host) {
    if (hipGetDevice(&saved) != hipSuccess)
      return HIPRAND_STATUS_INITIALIZATION_FAILED;
    if (saved != g->device && hipSetDevice(g->device) != hipSuccess)
      return HIPRAND_STATUS_INITIALIZATION_FAILED;
  }
  hiprandStatus_t st = prepare(g);
  hipError_t e = hipSuccess;
  if (st == HIPRAND_STATUS_SUCCESS) {
    switch (g->type) {
    case HIPRAND_RNG_PSEUDO_XORWOW:
      if (g->host)
        for (unsigned t = 0; t < STREAMS; t++)
          stream_work(static_cast<hiprandStateXORWOW_t *>(g->states), t, r);
      else
        stream_kernel<<<STREAMS / BLOCK, BLOCK, 0, g->stream>>>(
            static_cast<hiprandStateXORWOW_t *>(g->states), r);
      break;
    case HIPRAND_RNG_PSEUDO_MRG32K3A:
      if (g->host)
        for (unsigned t = 0; t < STREAMS; t++)
          stream_work(static_cast<hiprandStateMRG32k3a_t *>(g->states), t, r);
      else
        stream_kernel<<<STREAMS / BLOCK, BLOCK, 0, g->stream>>>(
            static_cast<hiprandStateMRG32k3a_t *>(g->states), r);
      break;
    case HIPRAND_RNG_PSEUDO_PHILOX4_32_10: {
      if (r.kind == D_POISSON) {
        if (g->host)
          for (size_t i = 0; i < r.n; i++)
            philox_poisson(g->seed, g->offset, g->position, i, r);
        else
          philox_poisson_kernel<<<grid_for(r.n), BLOCK, 0, g->stream>>>(g->seed, g->offset,
                                                                        g->position, r);
        g->position += r.n;
        break;
      }
      unsigned per = per_group(r.kind);
      size_t groups = (r.n + per - 1) / per;
      unsigned long long base = g->offset + g->position;
      if (g->host)
        for (size_t i = 0; i < groups; i++)
          philox_group(g->seed, base, i, r);
      else
        philox_kernel<<<grid_for(groups), BLOCK, 0, g->stream>>>(g->seed, base, groups, r);
      g->position += 4 * (unsigned long long)groups;
      break;
    }
    case HIPRAND_RNG_QUASI_SOBOL32: {
      size_t per_dim = r.n / g->dimensions;
      size_t chunks = (per_dim + SOBOL_CHUNK - 1) / SOBOL_CHUNK;
      size_t items = chunks * g->dimensions;
      unsigned long long first = g->offset + g->position;
      const unsigned int *v = static_cast<const unsigned int *>(g->states);
      if (g->host)
        for (size_t w = 0; w < items; w++)
          sobol_item(v, first, per_dim, chunks, w, r);
      else
        sobol_kernel<<<grid_for(items), BLOCK, 0, g->stream>>>(v, first, per_dim, chunks, items, r);
      g->position += per_dim;
      break;
    }
    default:
      st = HIPRAND_STATUS_TYPE_ERROR;
      break;
    }
    if (!g->host && st == HIPRAND_STATUS_SUCCESS)
      e = hipGetLastError();
    if (e != hipSuccess)
      st = HIPRAND_STATUS_LAUNCH_FAILURE;
  }
  if (saved >= 0 && saved != g->device)
    (void)hipSetDevice(saved);
  return st;
}

hiprandStatus_t create(hiprandGenerator_t *out, hiprandRngType_t type, bool host) {
  if (!out)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  if (type == HIPRAND_RNG_PSEUDO_DEFAULT)
    type = HIPRAND_RNG_PSEUDO_XORWOW;
  if (type == HIPRAND_RNG_QUASI_DEFAULT)
    type = HIPRAND_RNG_QUASI_SOBOL32;
  switch (type) {
  case HIPRAND_RNG_PSEUDO_XORWOW:
  case HIPRAND_RNG_PSEUDO_MRG32K3A:
  case HIPRAND_RNG_PSEUDO_PHILOX4_32_10:
  case HIPRAND_RNG_QUASI_SOBOL32:
    break;
  case HIPRAND_RNG_PSEUDO_MTGP32:
  case HIPRAND_RNG_PSEUDO_MT19937:
  case HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL32:
  case HIPRAND_RNG_QUASI_SOBOL64:
  case HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL64:
    return HIPRAND_STATUS_NOT_IMPLEMENTED;
  default:
    return HIPRAND_STATUS_TYPE_ERROR;
  }
  int device = 0;
  if (!host && hipGetDevice(&device) != hipSuccess)
    return HIPRAND_STATUS_INITIALIZATION_FAILED;
  hiprandGenerator_st *g = new (std::nothrow) hiprandGenerator_st();
  if (!g)
    return HIPRAND_STATUS_ALLOCATION_FAILED;
  g->type = type;
  g->host = host;
  g->device = device;
  g->stream = 0;
  g->seed = 0;
  g->offset = 0;
  g->position = 0;
  g->dimensions = 1;
  g->ready = false;
  g->states = NULL;
  /* cuRAND's and rocRAND's default seed. */
  if (is_pseudo(type))
    g->seed = 0;
  *out = g;
  return HIPRAND_STATUS_SUCCESS;
}

} // namespace

extern "C" {

hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t *generator, hiprandRngType_t rng_type) {
  return create(generator, rng_type, false);
}

hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t *generator,
                                           hiprandRngType_t rng_type) {
  return create(generator, rng_type, true);
}

hiprandStatus_t hiprandDestroyGenerator(hiprandGenerator_t generator) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  if (generator->states) {
    if (generator->host) {
      free(generator->states);
    } else {
      /* Kernels still running on the generator's stream use the states. */
      (void)hipStreamSynchronize(generator->stream);
      (void)hipFree(generator->states);
    }
  }
  delete generator;
  return HIPRAND_STATUS_SUCCESS;
}

hiprandStatus_t hiprandGenerate(hiprandGenerator_t generator, unsigned int *output_data, size_t n) {
  return generate(generator, request{D_BITS, output_data, n, 0.0, 0.0});
}

hiprandStatus_t hiprandGenerateUniform(hiprandGenerator_t generator, float *output_data, size_t n) {
  return generate(generator, request{D_UNIFORM, output_data, n, 0.0, 0.0});
}

hiprandStatus_t hiprandGenerateUniformDouble(hiprandGenerator_t generator, double *output_data,
                                             size_t n) {
  return generate(generator, request{D_UNIFORM_D, output_data, n, 0.0, 0.0});
}

hiprandStatus_t hiprandGenerateNormal(hiprandGenerator_t generator, float *output_data, size_t n,
                                      float mean, float stddev) {
  return generate(generator, request{D_NORMAL, output_data, n, mean, stddev});
}

hiprandStatus_t hiprandGenerateNormalDouble(hiprandGenerator_t generator, double *output_data,
                                            size_t n, double mean, double stddev) {
  return generate(generator, request{D_NORMAL_D, output_data, n, mean, stddev});
}

hiprandStatus_t hiprandGenerateLogNormal(hiprandGenerator_t generator, float *output_data, size_t n,
                                         float mean, float stddev) {
  return generate(generator, request{D_LOGNORMAL, output_data, n, mean, stddev});
}

hiprandStatus_t hiprandGenerateLogNormalDouble(hiprandGenerator_t generator, double *output_data,
                                               size_t n, double mean, double stddev) {
  return generate(generator, request{D_LOGNORMAL_D, output_data, n, mean, stddev});
}

hiprandStatus_t hiprandGeneratePoisson(hiprandGenerator_t generator, unsigned int *output_data,
                                       size_t n, double lambda) {
  return generate(generator, request{D_POISSON, output_data, n, lambda, 0.0});
}

hiprandStatus_t hiprandGenerateSeeds(hiprandGenerator_t generator) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return prepare(generator);
}

hiprandStatus_t hiprandSetStream(hiprandGenerator_t generator, hipStream_t stream) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return HIPRAND_STATUS_SUCCESS;
}

hiprandStatus_t hiprandSetPseudoRandomGeneratorSeed(hiprandGenerator_t generator,
                                                    unsigned long long seed) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  if (!is_pseudo(generator->type))
    return HIPRAND_STATUS_TYPE_ERROR;
  generator->seed = seed;
  generator->ready = false;
  return HIPRAND_STATUS_SUCCESS;
}

hiprandStatus_t hiprandSetGeneratorOffset(hiprandGenerator_t generator, unsigned long long offset) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  generator->ready = false;
  return HIPRAND_STATUS_SUCCESS;
}

hiprandStatus_t hiprandSetGeneratorOrdering(hiprandGenerator_t generator, hiprandOrdering_t order) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  bool pseudo = is_pseudo(generator->type);
  if (pseudo && (order == HIPRAND_ORDERING_PSEUDO_DEFAULT || order == HIPRAND_ORDERING_PSEUDO_BEST))
    return HIPRAND_STATUS_SUCCESS;
  if (!pseudo && order == HIPRAND_ORDERING_QUASI_DEFAULT)
    return HIPRAND_STATUS_SUCCESS;
  switch (order) {
  case HIPRAND_ORDERING_PSEUDO_SEEDED:
  case HIPRAND_ORDERING_PSEUDO_LEGACY:
  case HIPRAND_ORDERING_PSEUDO_DYNAMIC:
    return pseudo ? HIPRAND_STATUS_NOT_IMPLEMENTED : HIPRAND_STATUS_OUT_OF_RANGE;
  default:
    return HIPRAND_STATUS_OUT_OF_RANGE;
  }
}

hiprandStatus_t hiprandSetQuasiRandomGeneratorDimensions(hiprandGenerator_t generator,
                                                         unsigned int dimensions) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  if (generator->type != HIPRAND_RNG_QUASI_SOBOL32)
    return HIPRAND_STATUS_TYPE_ERROR;
  if (dimensions < 1 || dimensions > AH_SOBOL_DIMS)
    return HIPRAND_STATUS_OUT_OF_RANGE;
  generator->dimensions = dimensions;
  generator->ready = false;
  return HIPRAND_STATUS_SUCCESS;
}

hiprandStatus_t hiprandGenerateLongLong(hiprandGenerator_t generator,
                                        unsigned long long *output_data, size_t n) {
  if (!generator)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return HIPRAND_STATUS_TYPE_ERROR;
}

hiprandStatus_t hiprandGetDirectionVectors32(hiprandDirectionVectors32_t **vectors,
                                             hiprandDirectionVectorSet_t set) {
  if (!vectors)
    return HIPRAND_STATUS_OUT_OF_RANGE;
  if (set != HIPRAND_DIRECTION_VECTORS_32_JOEKUO6)
    return set == HIPRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 ? HIPRAND_STATUS_NOT_IMPLEMENTED
                                                                 : HIPRAND_STATUS_OUT_OF_RANGE;
  /* Computed once (a function-local static: thread-safe), kept for the
   * program's life as cuRAND's are. */
  static hiprandDirectionVectors32_t *table = [] {
    static hiprandDirectionVectors32_t t[AH_SOBOL_DIMS];
    for (unsigned d = 0; d < AH_SOBOL_DIMS; d++)
      sobol_vectors(d, t[d]);
    return t;
  }();
  *vectors = table;
  return HIPRAND_STATUS_SUCCESS;
}

hiprandStatus_t hiprandGetVersion(int *version) {
  if (!version)
    return HIPRAND_STATUS_OUT_OF_RANGE;
  *version = HIPRAND_VERSION;
  return HIPRAND_STATUS_SUCCESS;
}

} // extern "C"
