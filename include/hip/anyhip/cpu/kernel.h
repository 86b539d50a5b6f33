/* SPDX-License-Identifier: MIT */
/* The HIP kernel language for the CPU device, as hip_runtime.h brings it in
 * when the host compiler compiles HIP code (hipcc's CPU pass, C++17). A
 * kernel is an ordinary function that libanyhip's engine calls once per GPU
 * thread; what it needs from the engine (built-in variables, barriers, warp
 * functions) is declared in state.h. Device malloc/free and new/delete are
 * the host's; device assert is the host's <cassert>; device printf is
 * libanyhip's (below). */
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

/* Device printf: hipcc binds printf to libanyhip's (src/backends/cpu/
 * cpu_printf.c), which prints as AMD's device library does inside kernels
 * (a NULL %s string prints nothing) and is the C library's printf elsewhere.
 * hipcc's -mprintf-kind=buffered defines __ANYHIP_PRINTF_BUFFERED: printf
 * then returns 0, or -1 once the launch's hipLimitPrintfFifoSize bytes are
 * taken (docs/semantics.md, "Device printf"). hipcc includes this header
 * first, before any use of printf, as the asm label requires. */
#if defined(__HIPCC__)
#include <cstdio>
#if defined(__ANYHIP_PRINTF_BUFFERED)
extern "C" int printf(const char *__restrict, ...) __asm__("__ah_cpu_printf_buffered");
#else
extern "C" int printf(const char *__restrict, ...) __asm__("__ah_cpu_printf");
#endif
#endif

/* The __HIP_ARCH_HAS_* macros: hip/anyhip/common/arch_features.h. */

#endif
