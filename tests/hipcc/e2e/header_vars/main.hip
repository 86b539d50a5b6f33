// SPDX-License-Identifier: MIT
// Device variables of a header included by main.hip and other.hip: the
// program links, and each source reads and writes its own. Prints PASSED.
#include <hip/hip_runtime.h>

#include "../check.h"
#include "vars.h"

int other_counter();

int main() {
  int v = 0;

  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter), &v, sizeof(v)));
  bump<<<1, 1>>>(2);
  CHECK(hipGetLastError());
  EXPECT(other_counter() == 5);
  CHECK(hipMemcpyFromSymbol(&v, HIP_SYMBOL(counter), sizeof(v)));
  EXPECT(v == 2);
  CHECK(hipDeviceSynchronize());
  EXPECT(ns::flag == 4);
  std::printf("PASSED\n");
  return 0;
}
