/* SPDX-License-Identifier: MIT */
/* A C file in a HIP program: hipcc compiles it with the C compiler. */
#include <hip/hip_runtime_api.h>

int helper_factor(void) {
  int count = 0;

  /* The API header compiles as C and links from C; the count is not needed. */
  (void)hipGetDeviceCount(&count);
  return 3;
}
