/* SPDX-License-Identifier: MIT */
/* HIP's <hip/math_functions.h>: the device math library, which anyhip's
 * <hip/hip_runtime.h> already declares; included for programs that name it. */
#ifndef HIP_INCLUDE_HIP_MATH_FUNCTIONS_H
#define HIP_INCLUDE_HIP_MATH_FUNCTIONS_H
#include <hip/hip_runtime.h>
#endif
