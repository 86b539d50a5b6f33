/* SPDX-License-Identifier: MIT */
/* HIP device math names that CUDA lacks, for hipcc's NVIDIA pass: AMD's bit
 * field intrinsics (__bitextract_*, __bitinsert_*), __lastbit_*, __fns32 and
 * __fns64 (CUDA's __fns), and powi/powif. Every other HIP math function and
 * intrinsic is CUDA's own under the same name (docs/math.md). The semantics
 * match the CPU device's (hip/anyhip/cpu/device_functions.h). */
#ifndef ANYHIP_NVIDIA_MATH_H
#define ANYHIP_NVIDIA_MATH_H

#include <stdint.h>

/* Width bits of src from bit offset (offset and width taken mod 32 or 64;
 * bits past the top read as 0): PTX's bfe with a zero-filled top. */
__device__ inline unsigned int __bitextract_u32(unsigned int src, unsigned int offset,
                                                unsigned int width) {
  offset &= 31;
  width &= 31;
  return width == 0 ? 0u : (src >> offset) & ((1u << width) - 1u);
}
__device__ inline uint64_t __bitextract_u64(uint64_t src, unsigned int offset,
                                            unsigned int width) {
  offset &= 63;
  width &= 63;
  /* AMD's formula (see the CPU device's): shift counts mod 64. */
  return width == 0 ? 0u : (src << ((64u - offset - width) & 63u)) >> (64u - width);
}
/* src with `width` bits from bit offset replaced by the low bits of ins. */
__device__ inline unsigned int __bitinsert_u32(unsigned int src, unsigned int ins,
                                               unsigned int offset, unsigned int width) {
  unsigned int mask = (1u << (width & 31)) - 1u;
  offset &= 31;
  return (src & ~(mask << offset)) | ((ins & mask) << offset);
}
__device__ inline uint64_t __bitinsert_u64(uint64_t src, uint64_t ins, unsigned int offset,
                                           unsigned int width) {
  uint64_t mask = (1ull << (width & 63)) - 1u;
  offset &= 63;
  return (src & ~(mask << offset)) | ((ins & mask) << offset);
}
/* The lowest set bit's index, or ~0u for 0. */
__device__ inline unsigned int __lastbit_u32_u64(uint64_t x) {
  return x == 0 ? ~0u : (unsigned int)(__ffsll((long long)x) - 1);
}
__device__ inline unsigned int __lastbit_u32_u32(unsigned int x) {
  return x == 0 ? ~0u : (unsigned int)(__ffs((int)x) - 1);
}
/* The offset-th set bit from base (CUDA's __fns); the 64-bit form looks in
 * the half that holds base first, then crosses into the other. */
__device__ inline unsigned int __fns32(unsigned int mask, unsigned int base, int offset) {
  return __fns(mask, base & 31, offset);
}
__device__ inline unsigned int __fns64(unsigned long long mask, unsigned int base, int offset) {
  base &= 63;
  if (offset == 0)
    return (mask >> base) & 1 ? base : ~0u;
  int step = offset > 0 ? 1 : -1, left = offset > 0 ? offset : -offset;
  for (int i = (int)base; i >= 0 && i < 64; i += step)
    if ((mask >> i) & 1 && --left == 0)
      return (unsigned int)i;
  return ~0u;
}

/* x^n for an integer n (AMD's pown). CUDA declares its own (extern "C")
 * under NVRTC and with libc++; elsewhere they are pow of the converted
 * exponent. */
#if !defined(__CUDACC_RTC__) && !defined(_LIBCPP_VERSION)
__device__ inline float powif(float x, int n) { return powf(x, (float)n); }
__device__ inline double powi(double x, int n) { return pow(x, (double)n); }
#endif

#endif
