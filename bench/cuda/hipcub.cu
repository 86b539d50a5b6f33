// SPDX-License-Identifier: MIT
// Native CUDA build of bench/hipcub.hip with NVIDIA's CUB in hipCUB's place
// (hipCUB on NVIDIA is CUB), the baseline that `bench/run.sh <build-dir>
// --nvidia` runs beside anyhip's hipCUB: issue 9 asks anyhip's within 1.5x.
#include "hip_to_cuda.h"

#include <cub/cub.cuh>
namespace hipcub = cub;
#define ANYHIP_BENCH_NATIVE_CUB 1
#include "../hipcub.hip"
