// SPDX-License-Identifier: MIT
// The second source including launch.h.
#include <hip/hip_runtime.h>

#include "launch.h"

int other_part(int *d) {
  fill_launch(d, 5, nullptr);
  deep_launch(d, 1, nullptr); // nested/deep.h, through launch.h
  if (fill_by_address(d + 0, 6) != hipSuccess)
    return 1;
  return hipDeviceSynchronize() != hipSuccess;
}
