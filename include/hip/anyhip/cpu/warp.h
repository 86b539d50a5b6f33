/* SPDX-License-Identifier: MIT */
/* Warp functions on the CPU device: __lane_id, shuffles, votes, ballots,
 * match, reductions and __syncwarp. Masks are 64-bit as in HIP. Each is a
 * call into the engine, which waits for the warp's lanes that take part and
 * returns this lane's result. The wrappers are always inlined so that the
 * engine sees the call site in the kernel itself: lanes of a divergent warp
 * that wait at different call sites are told apart (see cpu_warp.c). The
 * _sync forms follow HIP: a static_assert rejects masks narrower than 64
 * bits, and HIP_DISABLE_WARP_SYNC_BUILTINS leaves them out. */
#ifndef ANYHIP_CPU_WARP_H
#define ANYHIP_CPU_WARP_H

#include <hip/anyhip/cpu/state.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#define AH_WARP_INLINE inline __attribute__((always_inline))

namespace anyhip {
namespace cpu {

/* Any trivially copyable value of up to 8 bytes travels bit-for-bit in the
 * low bytes of a 64-bit word (the rest zero, so equal values compare equal). */
template <typename T> AH_WARP_INLINE std::uint64_t warp_pack(const T &v) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                "warp functions take values of up to 64 bits");
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof(T));
  return u;
}

template <typename T> AH_WARP_INLINE T warp_unpack(std::uint64_t u) {
  T v;
  std::memcpy(&v, &u, sizeof(T));
  return v;
}

/* The AH_CPU_T_* code of a reduction's type. */
template <typename T> constexpr int warp_type() {
  static_assert(std::is_arithmetic<T>::value && sizeof(T) >= 4 && sizeof(T) <= 8,
                "warp reductions take 32- and 64-bit integers, float and double");
  return std::is_floating_point<T>::value ? (sizeof(T) == 4 ? AH_CPU_T_F32 : AH_CPU_T_F64)
         : sizeof(T) == 4                 ? (std::is_signed<T>::value ? AH_CPU_T_I32 : AH_CPU_T_U32)
                          : (std::is_signed<T>::value ? AH_CPU_T_I64 : AH_CPU_T_U64);
}

template <typename MaskT> constexpr void check_mask() {
  static_assert(sizeof(MaskT) == 8 && std::is_integral<MaskT>::value,
                "The mask must be a 64-bit integer. Implicitly promoting a smaller "
                "integer is almost always an error.");
}

} // namespace cpu
} // namespace anyhip

AH_WARP_INLINE unsigned int __lane_id() { return __ah_cpu_lane; }

/* AMD's lane-mask counts (v_mbcnt_lo/hi_u32_b32): the bits of mask set for
 * the lanes below the caller among lanes 0-31 (lo) and 32-63 (hi), plus
 * add. mbcnt_hi(~0, mbcnt_lo(~0, 0)) is the lane number. */
AH_WARP_INLINE unsigned int __builtin_amdgcn_mbcnt_lo(unsigned int mask, unsigned int add) {
  unsigned int lane = __ah_cpu_lane;
  unsigned int below = lane >= 32 ? 0xffffffffu : (1u << lane) - 1u;
  return (unsigned int)__builtin_popcount(mask & below) + add;
}
AH_WARP_INLINE unsigned int __builtin_amdgcn_mbcnt_hi(unsigned int mask, unsigned int add) {
  unsigned int lane = __ah_cpu_lane;
  unsigned int below = lane < 32 ? 0u : (1u << (lane - 32)) - 1u;
  return (unsigned int)__builtin_popcount(mask & below) + add;
}

/* ---- shuffles ---- */

template <typename T> AH_WARP_INLINE T __shfl(T var, int srcLane, int width = warpSize) {
  return anyhip::cpu::warp_unpack<T>(
      __ah_cpu_warp(AH_CPU_WARP_SHFL, anyhip::cpu::warp_pack(var), srcLane, width, ~0ull));
}
template <typename T> AH_WARP_INLINE T __shfl_up(T var, unsigned int delta, int width = warpSize) {
  return anyhip::cpu::warp_unpack<T>(
      __ah_cpu_warp(AH_CPU_WARP_SHFL_UP, anyhip::cpu::warp_pack(var), (int)delta, width, ~0ull));
}
template <typename T>
AH_WARP_INLINE T __shfl_down(T var, unsigned int delta, int width = warpSize) {
  return anyhip::cpu::warp_unpack<T>(
      __ah_cpu_warp(AH_CPU_WARP_SHFL_DOWN, anyhip::cpu::warp_pack(var), (int)delta, width, ~0ull));
}
template <typename T> AH_WARP_INLINE T __shfl_xor(T var, int laneMask, int width = warpSize) {
  return anyhip::cpu::warp_unpack<T>(
      __ah_cpu_warp(AH_CPU_WARP_SHFL_XOR, anyhip::cpu::warp_pack(var), laneMask, width, ~0ull));
}

/* ---- votes and ballots ---- */

AH_WARP_INLINE int __all(int predicate) {
  return (int)__ah_cpu_warp(AH_CPU_WARP_ALL, predicate != 0, 0, 0, ~0ull);
}
AH_WARP_INLINE int __any(int predicate) {
  return (int)__ah_cpu_warp(AH_CPU_WARP_ANY, predicate != 0, 0, 0, ~0ull);
}
AH_WARP_INLINE unsigned long long __ballot(int predicate) {
  return __ah_cpu_warp(AH_CPU_WARP_BALLOT, predicate != 0, 0, 0, ~0ull);
}
AH_WARP_INLINE unsigned long long __ballot64(int predicate) {
  return __ah_cpu_warp(AH_CPU_WARP_BALLOT, predicate != 0, 0, 0, ~0ull);
}
AH_WARP_INLINE unsigned long long __activemask() {
  return __ah_cpu_warp(AH_CPU_WARP_ACTIVE, 0, 0, 0, ~0ull);
}

/* ---- match ---- */

template <typename T> AH_WARP_INLINE unsigned long long __match_any(T value) {
  return __ah_cpu_warp(AH_CPU_WARP_MATCH_ANY, anyhip::cpu::warp_pack(value), 0, 0, ~0ull);
}
template <typename T> AH_WARP_INLINE unsigned long long __match_all(T value, int *pred) {
  unsigned long long m =
      __ah_cpu_warp(AH_CPU_WARP_MATCH_ALL, anyhip::cpu::warp_pack(value), 0, 0, ~0ull);
  *pred = m != 0;
  return m;
}

/* ---- __syncwarp: every lane of the mask waits for the others; a 32-bit
 * all-ones mask (CUDA's idiom) means the whole warp. */

template <typename MaskT = unsigned long long> AH_WARP_INLINE void __syncwarp(MaskT mask = ~0ull) {
  static_assert(std::is_integral<MaskT>::value, "the mask is an integer");
  std::uint64_t m = (std::uint64_t)mask;
  if (sizeof(MaskT) < 8 && m == (std::uint64_t)(std::make_unsigned_t<MaskT>)~(MaskT)0)
    m = ~0ull;
  (void)__ah_cpu_warp(AH_CPU_WARP_SYNC, 0, 0, 0, m);
}

#if !defined(HIP_DISABLE_WARP_SYNC_BUILTINS)

template <typename MaskT, typename T>
AH_WARP_INLINE T __shfl_sync(MaskT mask, T var, int srcLane, int width = warpSize) {
  anyhip::cpu::check_mask<MaskT>();
  return anyhip::cpu::warp_unpack<T>(__ah_cpu_warp(AH_CPU_WARP_SHFL, anyhip::cpu::warp_pack(var),
                                                   srcLane, width, (std::uint64_t)mask));
}
template <typename MaskT, typename T>
AH_WARP_INLINE T __shfl_up_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
  anyhip::cpu::check_mask<MaskT>();
  return anyhip::cpu::warp_unpack<T>(__ah_cpu_warp(AH_CPU_WARP_SHFL_UP, anyhip::cpu::warp_pack(var),
                                                   (int)delta, width, (std::uint64_t)mask));
}
template <typename MaskT, typename T>
AH_WARP_INLINE T __shfl_down_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
  anyhip::cpu::check_mask<MaskT>();
  return anyhip::cpu::warp_unpack<T>(__ah_cpu_warp(
      AH_CPU_WARP_SHFL_DOWN, anyhip::cpu::warp_pack(var), (int)delta, width, (std::uint64_t)mask));
}
template <typename MaskT, typename T>
AH_WARP_INLINE T __shfl_xor_sync(MaskT mask, T var, int laneMask, int width = warpSize) {
  anyhip::cpu::check_mask<MaskT>();
  return anyhip::cpu::warp_unpack<T>(__ah_cpu_warp(
      AH_CPU_WARP_SHFL_XOR, anyhip::cpu::warp_pack(var), laneMask, width, (std::uint64_t)mask));
}

template <typename MaskT> AH_WARP_INLINE int __all_sync(MaskT mask, int predicate) {
  anyhip::cpu::check_mask<MaskT>();
  return (int)__ah_cpu_warp(AH_CPU_WARP_ALL, predicate != 0, 0, 0, (std::uint64_t)mask);
}
template <typename MaskT> AH_WARP_INLINE int __any_sync(MaskT mask, int predicate) {
  anyhip::cpu::check_mask<MaskT>();
  return (int)__ah_cpu_warp(AH_CPU_WARP_ANY, predicate != 0, 0, 0, (std::uint64_t)mask);
}
template <typename MaskT>
AH_WARP_INLINE unsigned long long __ballot_sync(MaskT mask, int predicate) {
  anyhip::cpu::check_mask<MaskT>();
  return __ah_cpu_warp(AH_CPU_WARP_BALLOT, predicate != 0, 0, 0, (std::uint64_t)mask);
}

template <typename MaskT, typename T>
AH_WARP_INLINE unsigned long long __match_any_sync(MaskT mask, T value) {
  anyhip::cpu::check_mask<MaskT>();
  return __ah_cpu_warp(AH_CPU_WARP_MATCH_ANY, anyhip::cpu::warp_pack(value), 0, 0,
                       (std::uint64_t)mask);
}
template <typename MaskT, typename T>
AH_WARP_INLINE unsigned long long __match_all_sync(MaskT mask, T value, int *pred) {
  anyhip::cpu::check_mask<MaskT>();
  unsigned long long m = __ah_cpu_warp(AH_CPU_WARP_MATCH_ALL, anyhip::cpu::warp_pack(value), 0, 0,
                                       (std::uint64_t)mask);
  *pred = m != 0;
  return m;
}

/* Reductions: int and unsigned int everywhere; the 64-bit integers, float
 * and double as with AMD's HIP_ENABLE_EXTRA_WARP_SYNC_TYPES (always here).
 * and/or/xor take integers only. */
#define AH_WARP_REDUCE(name, op, cond)                                                             \
  template <typename MaskT, typename T> AH_WARP_INLINE T name(MaskT mask, T var) {                 \
    anyhip::cpu::check_mask<MaskT>();                                                              \
    static_assert(cond, #name " does not take this type");                                         \
    return anyhip::cpu::warp_unpack<T>(__ah_cpu_warp(                                              \
        op, anyhip::cpu::warp_pack(var), anyhip::cpu::warp_type<T>(), 0, (std::uint64_t)mask));    \
  }
AH_WARP_REDUCE(__reduce_add_sync, AH_CPU_WARP_RED_ADD, std::is_arithmetic<T>::value)
AH_WARP_REDUCE(__reduce_min_sync, AH_CPU_WARP_RED_MIN, std::is_arithmetic<T>::value)
AH_WARP_REDUCE(__reduce_max_sync, AH_CPU_WARP_RED_MAX, std::is_arithmetic<T>::value)
AH_WARP_REDUCE(__reduce_and_sync, AH_CPU_WARP_RED_AND, std::is_integral<T>::value)
AH_WARP_REDUCE(__reduce_or_sync, AH_CPU_WARP_RED_OR, std::is_integral<T>::value)
AH_WARP_REDUCE(__reduce_xor_sync, AH_CPU_WARP_RED_XOR, std::is_integral<T>::value)
#undef AH_WARP_REDUCE

#endif /* HIP_DISABLE_WARP_SYNC_BUILTINS */

#endif
