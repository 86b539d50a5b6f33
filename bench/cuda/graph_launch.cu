// SPDX-License-Identifier: MIT
// Native CUDA build of bench/graph_launch.hip (nvcc + cudart), the baseline
// that `bench/run.sh <build-dir> --nvidia` runs beside anyhip's build of it.
#include "hip_to_cuda.h"
#include "../graph_launch.hip"
