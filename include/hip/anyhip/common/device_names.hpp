/* SPDX-License-Identifier: MIT */
/* Device-code names both devices' kernel headers give HIP code the same way
 * (cpu/device_math.h, cpu/atomic.h; nvidia/compat.h):
 *   - C++17's float functions in std (std::sinf, ...), which HIP code calls
 *     and libstdc++ before GCC 14 leaves out; a second using-declaration of
 *     one it has is harmless;
 *   - the memory-scope values of clang's __hip_atomic_* builtins. */
#ifndef ANYHIP_COMMON_DEVICE_NAMES_HPP
#define ANYHIP_COMMON_DEVICE_NAMES_HPP

namespace std {
using ::acosf; using ::acoshf; using ::asinf; using ::asinhf; using ::atanf; using ::atan2f;
using ::atanhf; using ::cbrtf; using ::ceilf; using ::copysignf; using ::cosf; using ::coshf;
using ::erff; using ::erfcf; using ::expf; using ::exp2f; using ::expm1f; using ::fabsf;
using ::fdimf; using ::floorf; using ::fmaf; using ::fmaxf; using ::fminf; using ::fmodf;
using ::frexpf; using ::hypotf; using ::ilogbf; using ::ldexpf; using ::lgammaf;
using ::llrintf; using ::llroundf; using ::logf; using ::log10f; using ::log1pf; using ::log2f;
using ::logbf; using ::lrintf; using ::lroundf; using ::modff; using ::nanf; using ::nearbyintf;
using ::nextafterf; using ::powf; using ::remainderf; using ::remquof; using ::rintf;
using ::roundf; using ::scalblnf; using ::scalbnf; using ::sinf; using ::sinhf; using ::sqrtf;
using ::tanf; using ::tanhf; using ::tgammaf; using ::truncf;
} // namespace std

#ifndef __HIP_MEMORY_SCOPE_SINGLETHREAD
#define __HIP_MEMORY_SCOPE_SINGLETHREAD 1
#define __HIP_MEMORY_SCOPE_WAVEFRONT 2
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
#define __HIP_MEMORY_SCOPE_AGENT 4
#define __HIP_MEMORY_SCOPE_SYSTEM 5
#endif

#endif
