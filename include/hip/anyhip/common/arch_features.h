/* SPDX-License-Identifier: MIT */
/* The __HIP_ARCH_HAS_* feature macros that wave-aware HIP code tests, the
 * same on every anyhip device: both the CPU device and NVIDIA GPUs have warp
 * votes, ballots, shuffles, 32- and 64-bit atomics, doubles and system
 * fences; neither has surface functions or dynamic parallelism here. */
#ifndef ANYHIP_ARCH_FEATURES_H
#define ANYHIP_ARCH_FEATURES_H

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
#define __HIP_ARCH_HAS_THREAD_FENCE_SYSTEM__ 1
#define __HIP_ARCH_HAS_SYNC_THREAD_EXT__ 1
#define __HIP_ARCH_HAS_SURFACE_FUNCS__ 0
#define __HIP_ARCH_HAS_3DGRID__ 1
#define __HIP_ARCH_HAS_DYNAMIC_PARALLEL__ 0
#endif
#ifndef HIP_ARCH_HAS_WARP_VOTE
#define HIP_ARCH_HAS_WARP_VOTE 1 /* the guide's undecorated spellings */
#define HIP_ARCH_HAS_WARP_BALLOT 1
#endif

#endif
