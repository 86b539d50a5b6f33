// SPDX-License-Identifier: MIT
// Launches in user headers: launch.h (quoted, including nested/kernels.h),
// also included by other.hip; <angle.h> found through -I; once.h included
// twice, defining a kernel launched by address; nested/deep.h, two levels
// down, launches its own kernel and one of its includer. Prints PASSED.
#include <hip/hip_runtime.h>

#include "../check.h"
#include "launch.h"
#include "once.h"
#include <angle.h>
#include "once.h"

int other_part(int *d);

int main() {
  int *d, h[64];
  float *f, hf[64];

  CHECK(hipMalloc(&d, sizeof(h)));
  CHECK(hipMalloc(&f, sizeof(hf)));
  fill_launch(d, 3, nullptr);
  add_one_launch(d);
  {
    void *args[] = {&d};

    CHECK(hipLaunchKernel(reinterpret_cast<const void *>(&add_one), dim3(1), dim3(64), args, 0,
                          nullptr));
  }
  CHECK(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++)
    EXPECT(h[i] == 5);
  CHECK(fill_by_address(d, 9));
  CHECK(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[63] == 9);
  EXPECT(other_part(d) == 0);
  CHECK(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[0] == 6 && h[1] == 6);
  deep_launch(d, 10, nullptr); // a launch two headers down, in this source too
  CHECK(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[0] == 16 && h[63] == 16);
  for (int i = 0; i < 64; i++)
    hf[i] = 1.5f;
  CHECK(hipMemcpy(f, hf, sizeof(hf), hipMemcpyHostToDevice));
  scale_launch(f, 2.0f);
  CHECK(hipMemcpy(hf, f, sizeof(hf), hipMemcpyDeviceToHost));
  EXPECT(hf[10] == 6.0f);
  deep_launch(d, 0, f); // deep.h deduces scale<float> of nested/kernels.h
  CHECK(hipMemcpy(hf, f, sizeof(hf), hipMemcpyDeviceToHost));
  EXPECT(hf[10] == 3.0f);
  CHECK(hipFree(d));
  CHECK(hipFree(f));
  std::printf("PASSED\n");
  return 0;
}
