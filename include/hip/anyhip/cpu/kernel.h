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

/* What AMD's compiler announces for wave-aware code. */
#ifndef __HIP_ARCH_HAS_WARP_VOTE__
#define __HIP_ARCH_HAS_WARP_VOTE__ 1
#define __HIP_ARCH_HAS_WARP_BALLOT__ 1
#define __HIP_ARCH_HAS_WARP_SHUFFLE__ 1
#define __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__ 1
#define __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__ 1
#define __HIP_ARCH_HAS_GLOBAL_FLOAT_ATOMIC_EXCH__ 1
#define __HIP_ARCH_HAS_SHARED_INT32_ATOMICS__ 1
#define __HIP_ARCH_HAS_SHARED_FLOAT_ATOMIC_EXCH__ 1
#define __HIP_ARCH_HAS_FLOAT_ATOMIC_ADD__ 1
#define __HIP_ARCH_HAS_GLOBAL_INT64_ATOMICS__ 1
#define __HIP_ARCH_HAS_SHARED_INT64_ATOMICS__ 1
#define __HIP_ARCH_HAS_DOUBLES__ 1
#define __HIP_ARCH_HAS_SYNC_THREAD_EXT__ 1
#define __HIP_ARCH_HAS_SURFACE_FUNCS__ 0
#define __HIP_ARCH_HAS_3DGRID__ 1
#define __HIP_ARCH_HAS_DYNAMIC_PARALLEL__ 0
#endif

#endif
