// SPDX-License-Identifier: MIT
// Device functions and a device variable that devfns.hip defines and
// main.hip uses: relocatable device code (-fgpu-rdc).
#pragma once
#include <hip/hip_runtime.h>

__device__ int scaled(int x);          // x * scale + bias()
__device__ int bias();
extern __device__ int scale;
namespace lib {
__device__ float half(float x);
}
