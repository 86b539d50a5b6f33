// SPDX-License-Identifier: MIT
// Native CUDA build of bench/peer_copy.hip (nvcc + cudart), the baseline that
// `bench/run.sh <build-dir> --nvidia` runs beside anyhip's build of it.
#include "hip_to_cuda.h"
#include "../peer_copy.hip"
