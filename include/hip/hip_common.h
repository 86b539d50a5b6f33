/* SPDX-License-Identifier: MIT */
/* Platform macros every HIP header sees first. anyhip implements AMD's HIP
 * API (its numeric values, 64-lane warps by default), so it announces the AMD
 * platform, as ROCm's own headers do, unless the program asked for the NVIDIA
 * one; __HIP_PLATFORM_ANYHIP__ lets code tell anyhip apart. Define
 * ANYHIP_NO_PLATFORM_AMD to keep __HIP_PLATFORM_AMD__ undefined. */
#ifndef HIP_COMMON_H
#define HIP_COMMON_H

#define __HIP_PLATFORM_ANYHIP__ 1

#if !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__) && \
    !defined(ANYHIP_NO_PLATFORM_AMD)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIP_PLATFORM_HCC__
#define __HIP_PLATFORM_HCC__ 1 /* the older spelling, still tested by some programs */
#endif
#endif

/* __host__ __device__ where the compiler knows them (nvcc), nothing elsewhere:
 * the CPU pass compiles every function for the host anyway. */
#if defined(__CUDACC__)
#define AH_HOST_DEVICE __host__ __device__
#else
#define AH_HOST_DEVICE
#endif

#endif
