// SPDX-License-Identifier: MIT
// Reached as <angle.h> through -I (hip-tests includes <hip_test_common.hh>
// so): a launch in it is prepared too.
#ifndef HEADERS_ANGLE_H
#define HEADERS_ANGLE_H

#include "../once.h"

inline void add_one_launch(int *d) {
  add_one<<<dim3(1), dim3(64)>>>(d);
}

#endif
