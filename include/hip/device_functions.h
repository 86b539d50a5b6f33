/* SPDX-License-Identifier: MIT */
/* HIP's <hip/device_functions.h>: the device intrinsics (bit operations, timers, warp and
 * synchronization functions), which anyhip's <hip/hip_runtime.h> already declares; included
 * for programs that name it. */
#ifndef HIP_INCLUDE_HIP_DEVICE_FUNCTIONS_H
#define HIP_INCLUDE_HIP_DEVICE_FUNCTIONS_H
#include <hip/hip_runtime.h>
#endif
