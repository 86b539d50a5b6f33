/* SPDX-License-Identifier: MIT */
/* Plain C++, compiled by the project's C++ compiler, linking the HIP library
 * built by CMake's HIP language and the runtime through hip::host. */
#include <hip/hip_runtime_api.h>

#include <cstdio>

#include "lang_vecops.h"

int main() {
  int count = 0;
  float x[3] = {1, 2, 3}, y[3] = {10, 20, 30}, out[3] = {0, 0, 0};

  if (hipGetDeviceCount(&count) != hipSuccess || count < 1) {
    std::printf("lang_host: no device\n");
    return 1;
  }
  if (lang_saxpy(3, 3.0f, x, y, out) != 0 || out[0] != 13 || out[1] != 26 || out[2] != 39) {
    std::printf("lang_host: saxpy gave %g %g %g\n", out[0], out[1], out[2]);
    return 1;
  }
  std::printf("lang_host: devices>=1 saxpy ok\n");
  return 0;
}
