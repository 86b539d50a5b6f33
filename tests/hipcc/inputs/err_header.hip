// SPDX-License-Identifier: MIT
// Includes a header with a malformed launch.
__global__ void k(int *d) {}

#include "headers/bad_launch.h"
