// SPDX-License-Identifier: MIT
// CHECK and EXPECT for the hipcc end-to-end programs: print where and what
// failed, and return 1 from main.
#ifndef HIPCC_E2E_CHECK_H
#define HIPCC_E2E_CHECK_H

#include <cstdio>

#define CHECK(x)                                                                     \
  do {                                                                               \
    hipError_t e_ = (x);                                                             \
    if (e_ != hipSuccess) {                                                          \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_)); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)
#define EXPECT(c)                                                   \
  do {                                                              \
    if (!(c)) {                                                     \
      std::printf("%s:%d: %s is false\n", __FILE__, __LINE__, #c); \
      return 1;                                                     \
    }                                                               \
  } while (0)

#endif
