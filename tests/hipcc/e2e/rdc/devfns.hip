// SPDX-License-Identifier: MIT
#include "devfns.h"

__device__ int scale = 3;
__device__ int bias() { return 100; }
__device__ int scaled(int x) { return x * scale + bias(); }
namespace lib {
__device__ float half(float x) { return x * 0.5f; }
}
