/* SPDX-License-Identifier: MIT */
/* hipRAND's device API, written once in HIP for every anyhip device (the CPU
 * device and, through hipcc's NVIDIA pass, NVIDIA GPUs): per-thread generator
 * states that kernels initialise with hiprand_init(seed, subsequence, offset,
 * &state) and draw from with hiprand(), hiprand_uniform(), hiprand_normal()...
 *
 * Sequences. The generators are the published algorithms with cuRAND's and
 * rocRAND's seeding, so the same (seed, subsequence, offset) gives the same
 * 32-bit integers as cuRAND and rocRAND:
 * - Philox4x32-10 (Salmon et al., SC'11; Random123's known-answer vectors):
 *   key = the seed's two halves, a 128-bit counter from 0; the subsequence
 *   adds to the counter's upper 64 bits, the offset counts single outputs
 *   (4 per counter value).
 * - XORWOW (Marsaglia, "Xorshift RNGs", 2003) with cuRAND's salted seeding;
 *   subsequences are 2^67 outputs apart (hiprand_xorwow_jumps.h).
 * Uniform floats are x * 2^-32 + 2^-33, in (0, 1], as both libraries define
 * them; uniform doubles use two outputs as cuRAND does; normals are Box-Muller
 * pairs (the second value of a pair is kept in the state for the next call),
 * computed with the device's sinf/cosf/logf/sqrtf, so they match cuRAND's to a
 * few ulps rather than bit for bit. docs/libraries.md.
 * Log-normals are exp(mean + stddev * normal).
 * - MRG32k3a (L'Ecuyer, Operations Research 47, 1999) with cuRAND's seeding
 *   (seed 0: L'Ecuyer's 12345 x 6); subsequences are 2^76 outputs apart.
 * - Sobol32: the Gray-code Sobol' sequence of one dimension, from the
 *   direction vectors the caller gives (the host API's are Joe and Kuo's).
 * Poisson: Knuth's product of uniforms below lambda 64, a rounded normal
 * approximation above (as cuRAND does).
 * Not here: the MTGP32 and scrambled/64-bit Sobol states. The host API
 * (hiprand.h, libhiprand) generates with these states. */
#ifndef HIPRAND_KERNEL_H_
#define HIPRAND_KERNEL_H_

#include <hip/hip_runtime.h>

#define HIPRAND_2POW32_INV (2.3283064e-10f)
#define HIPRAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define HIPRAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define HIPRAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define HIPRAND_PI_DOUBLE (3.1415926535897932)

#define HIPRAND_QUALIFIERS __forceinline__ __host__ __device__

/* Keeps nvcc from unrolling the long loops of the jumps (MRG32k3a's 76 and
 * 127 squarings): fully unrolled, they take ptxas many minutes. */
#if defined(__CUDACC__)
#define HIPRAND_NO_UNROLL _Pragma("unroll 1")
#else
#define HIPRAND_NO_UNROLL
#endif

/* ---- Philox4x32-10 ------------------------------------------------------- */

typedef struct hiprandStatePhilox4_32_10 {
  uint4 ctr;          /* the 128-bit counter, x lowest */
  uint4 output;       /* philox(ctr, key) */
  uint2 key;          /* the seed */
  unsigned int STATE; /* how many of output's values were used */
  int boxmuller_flag; /* a float normal waits in boxmuller_extra */
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
} hiprandStatePhilox4_32_10_t;

namespace hiprand_detail {

HIPRAND_QUALIFIERS unsigned int mulhilo32(unsigned int a, unsigned int b, unsigned int *hi) {
  unsigned long long p = (unsigned long long)a * b;
  *hi = (unsigned int)(p >> 32);
  return (unsigned int)p;
}

/* The block function: ten rounds, the key bumped by the Weyl constants. */
HIPRAND_QUALIFIERS uint4 philox4x32_10(uint4 c, uint2 k) {
  for (int r = 0; r < 10; r++) {
    unsigned int hi0, hi1;
    unsigned int lo0 = mulhilo32(0xD2511F53u, c.x, &hi0);
    unsigned int lo1 = mulhilo32(0xCD9E8D57u, c.z, &hi1);
    uint4 n;
    n.x = hi1 ^ c.y ^ k.x;
    n.y = lo1;
    n.z = hi0 ^ c.w ^ k.y;
    n.w = lo0;
    c = n;
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return c;
}

/* ctr += n (128-bit). */
HIPRAND_QUALIFIERS void philox_incr(hiprandStatePhilox4_32_10_t *s, unsigned long long n) {
  unsigned int nlo = (unsigned int)n, nhi = (unsigned int)(n >> 32);

  s->ctr.x += nlo;
  if (s->ctr.x < nlo)
    nhi++;
  s->ctr.y += nhi;
  if (nhi <= s->ctr.y)
    return;
  if (++s->ctr.z)
    return;
  ++s->ctr.w;
}

/* ctr's upper 64 bits += n. */
HIPRAND_QUALIFIERS void philox_incr_hi(hiprandStatePhilox4_32_10_t *s, unsigned long long n) {
  unsigned int nlo = (unsigned int)n, nhi = (unsigned int)(n >> 32);

  s->ctr.z += nlo;
  if (s->ctr.z < nlo)
    nhi++;
  s->ctr.w += nhi;
}

HIPRAND_QUALIFIERS float uniform(unsigned int x) {
  return x * HIPRAND_2POW32_INV + (HIPRAND_2POW32_INV / 2.0f);
}

HIPRAND_QUALIFIERS double uniform_double(unsigned int x, unsigned int y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return z * HIPRAND_2POW53_INV_DOUBLE + (HIPRAND_2POW53_INV_DOUBLE / 2.0);
}

/* Box-Muller of two outputs: (sin, cos) * sqrt(-2 ln u). */
HIPRAND_QUALIFIERS float2 box_muller(unsigned int x, unsigned int y) {
  float u = x * HIPRAND_2POW32_INV + (HIPRAND_2POW32_INV / 2);
  float v = y * HIPRAND_2POW32_INV_2PI + (HIPRAND_2POW32_INV_2PI / 2);
  float s = sqrtf(-2.0f * logf(u));
  float2 r;
  r.x = sinf(v) * s;
  r.y = cosf(v) * s;
  return r;
}

HIPRAND_QUALIFIERS double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0,
                                             unsigned int y1) {
  double u = uniform_double(x0, x1);
  double v = uniform_double(y0, y1) * (2.0 * HIPRAND_PI_DOUBLE);
  double s = sqrt(-2.0 * log(u));
  double2 r;
  r.x = sin(v) * s;
  r.y = cos(v) * s;
  return r;
}

// A fresh state has no normal kept back from a Box-Muller pair.
template <typename S> HIPRAND_QUALIFIERS void clear_boxmuller(S *state) {
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

} // namespace hiprand_detail

/* Skips n outputs (single 32-bit values). */
HIPRAND_QUALIFIERS void skipahead(unsigned long long n, hiprandStatePhilox4_32_10_t *state) {
  state->STATE += (unsigned int)(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  hiprand_detail::philox_incr(state, n);
  state->output = hiprand_detail::philox4x32_10(state->ctr, state->key);
}

/* Skips n subsequences of 2^66 outputs (the counter's upper half). */
HIPRAND_QUALIFIERS void skipahead_sequence(unsigned long long n,
                                           hiprandStatePhilox4_32_10_t *state) {
  hiprand_detail::philox_incr_hi(state, n);
  state->output = hiprand_detail::philox4x32_10(state->ctr, state->key);
}

HIPRAND_QUALIFIERS void hiprand_init(unsigned long long seed, unsigned long long subsequence,
                                     unsigned long long offset,
                                     hiprandStatePhilox4_32_10_t *state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key.x = (unsigned int)seed;
  state->key.y = (unsigned int)(seed >> 32);
  state->STATE = 0;
  hiprand_detail::clear_boxmuller(state);
  state->output = hiprand_detail::philox4x32_10(state->ctr, state->key);
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

HIPRAND_QUALIFIERS unsigned int hiprand(hiprandStatePhilox4_32_10_t *state) {
  unsigned int r;

  switch (state->STATE++) {
  default:
    r = state->output.x;
    break;
  case 1:
    r = state->output.y;
    break;
  case 2:
    r = state->output.z;
    break;
  case 3:
    r = state->output.w;
    break;
  }
  if (state->STATE == 4) {
    hiprand_detail::philox_incr(state, 1);
    state->output = hiprand_detail::philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return r;
}

/* The next four outputs at once. */
HIPRAND_QUALIFIERS uint4 hiprand4(hiprandStatePhilox4_32_10_t *state) {
  uint4 t = state->output, r;

  hiprand_detail::philox_incr(state, 1);
  state->output = hiprand_detail::philox4x32_10(state->ctr, state->key);
  switch (state->STATE) {
  case 1:
    r = make_uint4(t.y, t.z, t.w, state->output.x);
    break;
  case 2:
    r = make_uint4(t.z, t.w, state->output.x, state->output.y);
    break;
  case 3:
    r = make_uint4(t.w, state->output.x, state->output.y, state->output.z);
    break;
  default:
    r = t;
    break;
  }
  return r;
}

/* ---- XORWOW -------------------------------------------------------------- */

typedef struct hiprandStateXORWOW {
  unsigned int d;    /* the Weyl sequence */
  unsigned int v[5]; /* the xorshift state */
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
} hiprandStateXORWOW_t;

typedef hiprandStateXORWOW_t hiprandState_t;
typedef hiprandStateXORWOW_t hiprandState;

#include "hiprand_xorwow_jumps.h"

namespace hiprand_detail {

/* v = M^k v for the 160x160 bit matrix M^k given as 160 columns of 5 words:
 * column i is the image of state bit i. */
HIPRAND_QUALIFIERS void xorwow_matvec(const unsigned int *m, unsigned int v[5]) {
  unsigned int r[5] = {0, 0, 0, 0, 0};

  for (int i = 0; i < 160; i++) {
    if ((v[i / 32] >> (i % 32)) & 1u) {
      for (int w = 0; w < 5; w++)
        r[w] ^= m[i * 5 + w];
    }
  }
  for (int w = 0; w < 5; w++)
    v[w] = r[w];
}

/* v = M^(n * 2^shift) v, from the tables of M^(2^(shift + i)). */
HIPRAND_QUALIFIERS void xorwow_jump(const unsigned int (*table)[800], unsigned long long n,
                                    unsigned int v[5]) {
  for (int i = 0; n != 0; i++, n >>= 1)
    if (n & 1)
      xorwow_matvec(table[i], v);
}

} // namespace hiprand_detail

/* Skips n outputs: the xorshift part by jump matrices, d by n steps. */
HIPRAND_QUALIFIERS void skipahead(unsigned long long n, hiprandStateXORWOW_t *state) {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  hiprand_detail::xorwow_jump(hiprand_xorwow_offset_jumps_device, n, state->v);
#else
  hiprand_detail::xorwow_jump(hiprand_xorwow_offset_jumps, n, state->v);
#endif
  state->d += 362437u * (unsigned int)n;
}

/* Skips n subsequences of 2^67 outputs (d is unchanged: 362437 * 2^67 is 0
 * modulo 2^32). */
HIPRAND_QUALIFIERS void skipahead_sequence(unsigned long long n, hiprandStateXORWOW_t *state) {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  hiprand_detail::xorwow_jump(hiprand_xorwow_sequence_jumps_device, n, state->v);
#else
  hiprand_detail::xorwow_jump(hiprand_xorwow_sequence_jumps, n, state->v);
#endif
}

HIPRAND_QUALIFIERS void hiprand_init(unsigned long long seed, unsigned long long subsequence,
                                     unsigned long long offset, hiprandStateXORWOW_t *state) {
  /* cuRAND's seeding: the seed's halves salted, then mixed by odd constants
   * into Marsaglia's initial state (which seed 0xf7dcefddaad26b49 gives). */
  unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u;
  unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0;
  unsigned int t1 = 2591861531u * s1;

  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  hiprand_detail::clear_boxmuller(state);
}

HIPRAND_QUALIFIERS unsigned int hiprand(hiprandStateXORWOW_t *state) {
  unsigned int t = state->v[0] ^ (state->v[0] >> 2);

  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}

/* ---- distributions, for both states -------------------------------------- */

#define HIPRAND_DISTRIBUTIONS_(S)                                                                  \
  HIPRAND_QUALIFIERS float hiprand_uniform(S *state) {                                             \
    return hiprand_detail::uniform(hiprand(state));                                                \
  }                                                                                                \
  HIPRAND_QUALIFIERS double hiprand_uniform_double(S *state) {                                     \
    unsigned int x = hiprand(state);                                                               \
    unsigned int y = hiprand(state);                                                               \
    return hiprand_detail::uniform_double(x, y);                                                   \
  }                                                                                                \
  HIPRAND_QUALIFIERS float hiprand_normal(S *state) {                                              \
    if (state->boxmuller_flag != 1) {                                                              \
      unsigned int x = hiprand(state);                                                             \
      unsigned int y = hiprand(state);                                                             \
      float2 v = hiprand_detail::box_muller(x, y);                                                 \
      state->boxmuller_extra = v.y;                                                                \
      state->boxmuller_flag = 1;                                                                   \
      return v.x;                                                                                  \
    }                                                                                              \
    state->boxmuller_flag = 0;                                                                     \
    return state->boxmuller_extra;                                                                 \
  }                                                                                                \
  HIPRAND_QUALIFIERS float2 hiprand_normal2(S *state) {                                            \
    unsigned int x = hiprand(state);                                                               \
    unsigned int y = hiprand(state);                                                               \
    return hiprand_detail::box_muller(x, y);                                                       \
  }                                                                                                \
  HIPRAND_QUALIFIERS double hiprand_normal_double(S *state) {                                      \
    if (state->boxmuller_flag_double != 1) {                                                       \
      unsigned int x0 = hiprand(state), x1 = hiprand(state);                                       \
      unsigned int y0 = hiprand(state), y1 = hiprand(state);                                       \
      double2 v = hiprand_detail::box_muller_double(x0, x1, y0, y1);                               \
      state->boxmuller_extra_double = v.y;                                                         \
      state->boxmuller_flag_double = 1;                                                            \
      return v.x;                                                                                  \
    }                                                                                              \
    state->boxmuller_flag_double = 0;                                                              \
    return state->boxmuller_extra_double;                                                          \
  }                                                                                                \
  HIPRAND_QUALIFIERS double2 hiprand_normal2_double(S *state) {                                    \
    unsigned int x0 = hiprand(state), x1 = hiprand(state);                                         \
    unsigned int y0 = hiprand(state), y1 = hiprand(state);                                         \
    return hiprand_detail::box_muller_double(x0, x1, y0, y1);                                      \
  }                                                                                                \
  HIPRAND_QUALIFIERS float hiprand_log_normal(S *state, float mean, float stddev) {                \
    return expf(mean + stddev * hiprand_normal(state));                                            \
  }                                                                                                \
  HIPRAND_QUALIFIERS float2 hiprand_log_normal2(S *state, float mean, float stddev) {              \
    float2 v = hiprand_normal2(state);                                                             \
    v.x = expf(mean + stddev * v.x);                                                               \
    v.y = expf(mean + stddev * v.y);                                                               \
    return v;                                                                                      \
  }                                                                                                \
  HIPRAND_QUALIFIERS double hiprand_log_normal_double(S *state, double mean, double stddev) {      \
    return exp(mean + stddev * hiprand_normal_double(state));                                      \
  }

HIPRAND_DISTRIBUTIONS_(hiprandStatePhilox4_32_10_t)
HIPRAND_DISTRIBUTIONS_(hiprandStateXORWOW_t)
#undef HIPRAND_DISTRIBUTIONS_

/* Philox's four-at-once forms. */
HIPRAND_QUALIFIERS float4 hiprand_uniform4(hiprandStatePhilox4_32_10_t *state) {
  uint4 x = hiprand4(state);
  return make_float4(hiprand_detail::uniform(x.x), hiprand_detail::uniform(x.y),
                     hiprand_detail::uniform(x.z), hiprand_detail::uniform(x.w));
}

HIPRAND_QUALIFIERS float4 hiprand_normal4(hiprandStatePhilox4_32_10_t *state) {
  uint4 x = hiprand4(state);
  float2 a = hiprand_detail::box_muller(x.x, x.y);
  float2 b = hiprand_detail::box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}

/* ---- MRG32k3a -------------------------------------------------------------- */

typedef struct hiprandStateMRG32k3a {
  unsigned int s1[3]; /* the first component, modulo m1 */
  unsigned int s2[3]; /* the second, modulo m2 */
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
} hiprandStateMRG32k3a_t;

#define HIPRAND_MRG32K3A_M1 4294967087u
#define HIPRAND_MRG32K3A_M2 4294944443u
#define HIPRAND_MRG32K3A_NORM (2.3283065498378288e-10) /* 1 / m1, cuRAND's constant */
#define HIPRAND_MRG32K3A_BITS_NORM 1.000000048662      /* about 2^32 / m1, cuRAND's constant */

namespace hiprand_detail {

HIPRAND_QUALIFIERS unsigned int mulmod(unsigned int a, unsigned int b, unsigned int m) {
  return (unsigned int)(((unsigned long long)a * b) % m);
}

/* r = a * b modulo m, 3x3 (r may alias a or b). */
HIPRAND_QUALIFIERS void mat3_mul(const unsigned int a[3][3], const unsigned int b[3][3],
                                 unsigned int r[3][3], unsigned int m) {
  unsigned int t[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      unsigned long long acc = 0;
      for (int k = 0; k < 3; k++)
        acc = (acc + (unsigned long long)mulmod(a[i][k], b[k][j], m)) % m;
      t[i][j] = (unsigned int)acc;
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = t[i][j];
}

/* s = p s modulo m. */
HIPRAND_QUALIFIERS void mat3_vec(const unsigned int p[3][3], unsigned int s[3], unsigned int m) {
  unsigned int t[3];
  for (int i = 0; i < 3; i++) {
    unsigned long long acc = 0;
    for (int k = 0; k < 3; k++)
      acc = (acc + mulmod(p[i][k], s[k], m)) % m;
    t[i] = (unsigned int)acc;
  }
  s[0] = t[0];
  s[1] = t[1];
  s[2] = t[2];
}

/* s = A^(n * 2^shift) s for the component's step matrix A (modulo m). */
HIPRAND_QUALIFIERS void mrg_jump(unsigned int s[3], int second, unsigned long long n, int shift) {
  unsigned int m = second ? HIPRAND_MRG32K3A_M2 : HIPRAND_MRG32K3A_M1;
  unsigned int p[3][3] = {{0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
  if (second) {
    p[2][0] = HIPRAND_MRG32K3A_M2 - 1370589u;
    p[2][2] = 527612u;
  } else {
    p[2][0] = HIPRAND_MRG32K3A_M1 - 810728u;
    p[2][1] = 1403580u;
  }
  HIPRAND_NO_UNROLL
  for (int i = 0; i < shift; i++)
    mat3_mul(p, p, p, m);
  HIPRAND_NO_UNROLL
  for (; n != 0; n >>= 1) {
    if (n & 1)
      mat3_vec(p, s, m);
    if (n > 1)
      mat3_mul(p, p, p, m);
  }
}

/* One step; the combined output in [1, m1]. */
HIPRAND_QUALIFIERS unsigned int mrg_next(hiprandStateMRG32k3a_t *st) {
  const unsigned long long m1 = HIPRAND_MRG32K3A_M1, m2 = HIPRAND_MRG32K3A_M2;
  unsigned long long p1 = (1403580ull * st->s1[1] + 810728ull * (m1 - st->s1[0])) % m1;
  unsigned long long p2 = (527612ull * st->s2[2] + 1370589ull * (m2 - st->s2[0])) % m2;
  st->s1[0] = st->s1[1];
  st->s1[1] = st->s1[2];
  st->s1[2] = (unsigned int)p1;
  st->s2[0] = st->s2[1];
  st->s2[1] = st->s2[2];
  st->s2[2] = (unsigned int)p2;
  return (unsigned int)(p1 > p2 ? p1 - p2 : p1 + m1 - p2);
}

} // namespace hiprand_detail

HIPRAND_QUALIFIERS void skipahead(unsigned long long n, hiprandStateMRG32k3a_t *state) {
  hiprand_detail::mrg_jump(state->s1, 0, n, 0);
  hiprand_detail::mrg_jump(state->s2, 1, n, 0);
}

/* Skips n subsequences of 2^76 outputs. */
HIPRAND_QUALIFIERS void skipahead_subsequence(unsigned long long n, hiprandStateMRG32k3a_t *state) {
  hiprand_detail::mrg_jump(state->s1, 0, n, 76);
  hiprand_detail::mrg_jump(state->s2, 1, n, 76);
}

/* Skips n sequences of 2^127 outputs. */
HIPRAND_QUALIFIERS void skipahead_sequence(unsigned long long n, hiprandStateMRG32k3a_t *state) {
  hiprand_detail::mrg_jump(state->s1, 0, n, 127);
  hiprand_detail::mrg_jump(state->s2, 1, n, 127);
}

HIPRAND_QUALIFIERS void hiprand_init(unsigned long long seed, unsigned long long subsequence,
                                     unsigned long long offset, hiprandStateMRG32k3a_t *state) {
  for (int i = 0; i < 3; i++)
    state->s1[i] = state->s2[i] = 12345u;
  if (seed != 0) {
    /* cuRAND's seeding: the halves salted, multiplied into L'Ecuyer's seed. */
    unsigned int x1 = (unsigned int)seed ^ 0x55555555u;
    unsigned int x2 = (unsigned int)(seed >> 32) ^ 0xAAAAAAAAu;
    state->s1[0] = hiprand_detail::mulmod(x1, state->s1[0], HIPRAND_MRG32K3A_M1);
    state->s1[1] = hiprand_detail::mulmod(x2, state->s1[1], HIPRAND_MRG32K3A_M1);
    state->s1[2] = hiprand_detail::mulmod(x1, state->s1[2], HIPRAND_MRG32K3A_M1);
    state->s2[0] = hiprand_detail::mulmod(x2, state->s2[0], HIPRAND_MRG32K3A_M2);
    state->s2[1] = hiprand_detail::mulmod(x1, state->s2[1], HIPRAND_MRG32K3A_M2);
    state->s2[2] = hiprand_detail::mulmod(x2, state->s2[2], HIPRAND_MRG32K3A_M2);
  }
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
  hiprand_detail::clear_boxmuller(state);
}

HIPRAND_QUALIFIERS unsigned int hiprand(hiprandStateMRG32k3a_t *state) {
  return (unsigned int)(hiprand_detail::mrg_next(state) * HIPRAND_MRG32K3A_BITS_NORM);
}

/* MRG32k3a's uniforms and normals come from its own output (in [1, m1]) / m1. */
HIPRAND_QUALIFIERS float hiprand_uniform(hiprandStateMRG32k3a_t *state) {
  return (float)(hiprand_detail::mrg_next(state) * HIPRAND_MRG32K3A_NORM);
}

HIPRAND_QUALIFIERS double hiprand_uniform_double(hiprandStateMRG32k3a_t *state) {
  return hiprand_detail::mrg_next(state) * HIPRAND_MRG32K3A_NORM;
}

HIPRAND_QUALIFIERS double2 hiprand_normal2_double(hiprandStateMRG32k3a_t *state) {
  double u = hiprand_uniform_double(state);
  double v = hiprand_uniform_double(state) * (2.0 * HIPRAND_PI_DOUBLE);
  double s = sqrt(-2.0 * log(u));
  return make_double2(sin(v) * s, cos(v) * s);
}

HIPRAND_QUALIFIERS float2 hiprand_normal2(hiprandStateMRG32k3a_t *state) {
  double2 v = hiprand_normal2_double(state);
  return make_float2((float)v.x, (float)v.y);
}

HIPRAND_QUALIFIERS float hiprand_normal(hiprandStateMRG32k3a_t *state) {
  if (state->boxmuller_flag != 1) {
    float2 v = hiprand_normal2(state);
    state->boxmuller_extra = v.y;
    state->boxmuller_flag = 1;
    return v.x;
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}

HIPRAND_QUALIFIERS double hiprand_normal_double(hiprandStateMRG32k3a_t *state) {
  if (state->boxmuller_flag_double != 1) {
    double2 v = hiprand_normal2_double(state);
    state->boxmuller_extra_double = v.y;
    state->boxmuller_flag_double = 1;
    return v.x;
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}

HIPRAND_QUALIFIERS float hiprand_log_normal(hiprandStateMRG32k3a_t *state, float mean,
                                            float stddev) {
  return expf(mean + stddev * hiprand_normal(state));
}

HIPRAND_QUALIFIERS float2 hiprand_log_normal2(hiprandStateMRG32k3a_t *state, float mean,
                                              float stddev) {
  float2 v = hiprand_normal2(state);
  return make_float2(expf(mean + stddev * v.x), expf(mean + stddev * v.y));
}

HIPRAND_QUALIFIERS double hiprand_log_normal_double(hiprandStateMRG32k3a_t *state, double mean,
                                                    double stddev) {
  return exp(mean + stddev * hiprand_normal_double(state));
}

/* ---- Sobol32 -------------------------------------------------------------- */

#ifndef HIPRAND_DIRECTION_VECTORS32_DEFINED_
#define HIPRAND_DIRECTION_VECTORS32_DEFINED_
typedef unsigned int hiprandDirectionVectors32_t[32];
#endif

typedef struct hiprandStateSobol32 {
  unsigned int i; /* the index of the next point */
  unsigned int x; /* the point at index i */
  unsigned int direction_vectors[32];
} hiprandStateSobol32_t;

/* Skips n points: point i is the XOR of the direction vectors of gray(i)'s
 * bits. */
HIPRAND_QUALIFIERS void skipahead(unsigned int n, hiprandStateSobol32_t *state) {
  unsigned int i = state->i + n, g = i ^ (i >> 1), x = 0;
  for (int k = 0; k < 32; k++)
    if ((g >> k) & 1u)
      x ^= state->direction_vectors[k];
  state->i = i;
  state->x = x;
}

HIPRAND_QUALIFIERS void hiprand_init(const unsigned int *direction_vectors, unsigned int offset,
                                     hiprandStateSobol32_t *state) {
  for (int k = 0; k < 32; k++)
    state->direction_vectors[k] = direction_vectors[k];
  state->i = 0;
  state->x = 0;
  skipahead(offset, state);
}

HIPRAND_QUALIFIERS unsigned int hiprand(hiprandStateSobol32_t *state) {
  unsigned int r = state->x, c = 0;
  for (unsigned int i = state->i; i & 1u; i >>= 1) /* the lowest zero bit of i */
    c++;
  state->x ^= state->direction_vectors[c & 31];
  state->i++;
  return r;
}

HIPRAND_QUALIFIERS float hiprand_uniform(hiprandStateSobol32_t *state) {
  return hiprand_detail::uniform(hiprand(state));
}

HIPRAND_QUALIFIERS double hiprand_uniform_double(hiprandStateSobol32_t *state) {
  return hiprand(state) * HIPRAND_2POW32_INV_DOUBLE + HIPRAND_2POW32_INV_DOUBLE / 2.0;
}

/* Quasi-random normals by the inverse of the normal CDF (one point each). */
HIPRAND_QUALIFIERS float hiprand_normal(hiprandStateSobol32_t *state) {
  return normcdfinvf(hiprand_uniform(state));
}

HIPRAND_QUALIFIERS double hiprand_normal_double(hiprandStateSobol32_t *state) {
  return normcdfinv(hiprand_uniform_double(state));
}

HIPRAND_QUALIFIERS float hiprand_log_normal(hiprandStateSobol32_t *state, float mean,
                                            float stddev) {
  return expf(mean + stddev * hiprand_normal(state));
}

HIPRAND_QUALIFIERS double hiprand_log_normal_double(hiprandStateSobol32_t *state, double mean,
                                                    double stddev) {
  return exp(mean + stddev * hiprand_normal_double(state));
}

/* ---- Poisson, for every state --------------------------------------------- */

template <typename State>
HIPRAND_QUALIFIERS unsigned int hiprand_poisson(State *state, double lambda) {
  if (lambda < 64.0) {
    /* Knuth: the number of uniforms whose running product stays above e^-l. */
    double limit = exp(-lambda), p = 1.0;
    unsigned int k = 0;
    for (;;) {
      p *= hiprand_uniform_double(state);
      if (p <= limit)
        return k;
      k++;
    }
  }
  double x = floor(lambda + sqrt(lambda) * hiprand_normal_double(state) + 0.5);
  return x < 0.0 ? 0u : (unsigned int)x;
}

#endif
