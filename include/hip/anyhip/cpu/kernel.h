/* SPDX-License-Identifier: MIT */
/* The HIP kernel language for the CPU device, as hip_runtime.h brings it in
 * when the host compiler compiles HIP code (hipcc's CPU pass, C++17). A
 * kernel is an ordinary function that libanyhip's engine calls once per GPU
 * thread; what it needs from the engine (built-in variables, barriers, warp
 * functions) is declared in state.h. Device printf, malloc/free and
 * new/delete are the host's; device assert is the host's <cassert>. */
#ifndef ANYHIP_CPU_KERNEL_H
#define ANYHIP_CPU_KERNEL_H

#include <cassert>

#include <hip/anyhip/cpu/qualifiers.h>
#include <hip/anyhip/cpu/state.h>
#include <hip/anyhip/cpu/sync.h>
#include <hip/anyhip/cpu/warp.h>
#include <hip/anyhip/cpu/atomic.h>
#include <hip/anyhip/cpu/device_functions.h>
#include <hip/anyhip/cpu/device_math.h>

/* The __HIP_ARCH_HAS_* macros: hip/anyhip/common/arch_features.h. */

#endif
