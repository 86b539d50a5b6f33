/* SPDX-License-Identifier: MIT */
/* Directed rounding for the CPU device's math intrinsics (__fadd_rz,
 * __fsqrt_ru, __int2float_rd, __double2float_ru, ...): the one operation runs
 * with the host's floating-point unit switched to the named rounding mode
 * (fesetround), and the caller's mode is restored after. The host computes
 * +, -, *, /, sqrt, fma and int/float conversions exactly rounded in every
 * mode, so the results are the correctly rounded ones a GPU gives. */
#ifndef ANYHIP_CPU_MATH_ROUND_H
#define ANYHIP_CPU_MATH_ROUND_H

#include <cfenv>

namespace anyhip {
namespace cpu {

/* Without -frounding-math the compiler may move arithmetic across the calls
 * to fesetround (or fold it at compile time). Passing each operand and the
 * result through an empty asm that clobbers memory pins the operation
 * between the two calls, which may also touch memory. */
template <typename T> inline __attribute__((always_inline)) void fp_pin(T &v) {
  __asm__ volatile("" : "+m"(v) : : "memory");
}

/* Runs op() with rounding mode `mode` (FE_TONEAREST, FE_TOWARDZERO,
 * FE_UPWARD, FE_DOWNWARD); op pins its operands with fp_pin. */
template <int mode, typename Op> inline __attribute__((always_inline)) auto rounded(Op op) {
  if (mode == FE_TONEAREST && std::fegetround() == FE_TONEAREST)
    return op();
  int old = std::fegetround();
  std::fesetround(mode);
  auto r = op();
  fp_pin(r);
  std::fesetround(old);
  return r;
}

} // namespace cpu
} // namespace anyhip

/* Defines name##_rn, _rz, _ru, _rd of `T name(params)`, each evaluating expr
 * (which names the parameters) in its rounding mode; `pins` is an expression
 * that passes each parameter through fp_pin. */
#define AH_ROUND_VARIANT(name, sfx, mode, T, params, pins, expr)                                   \
  inline __attribute__((always_inline)) T name##sfx params {                                       \
    return ::anyhip::cpu::rounded<mode>([&]() -> T {                                               \
      pins;                                                                                        \
      return expr;                                                                                 \
    });                                                                                            \
  }
#define AH_ROUND_ALL(name, T, params, pins, expr)                                                  \
  AH_ROUND_VARIANT(name, _rn, FE_TONEAREST, T, params, pins, expr)                                 \
  AH_ROUND_VARIANT(name, _rz, FE_TOWARDZERO, T, params, pins, expr)                                \
  AH_ROUND_VARIANT(name, _ru, FE_UPWARD, T, params, pins, expr)                                    \
  AH_ROUND_VARIANT(name, _rd, FE_DOWNWARD, T, params, pins, expr)

#endif
