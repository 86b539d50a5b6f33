// SPDX-License-Identifier: MIT
// Launch spellings hip-tests uses: closing chevrons written `> > >`, and a
// function template whose parameter is named like a template kernel of the
// file (`kernel`): the launch inside launches the parameter. Prints PASSED.
#include <hip/hip_runtime.h>

#include "check.h"

template <typename T> __global__ void kernel(T *p, T v) {
  p[threadIdx.x] = v;
}

__global__ void set(int *p, int v) {
  p[threadIdx.x] = v;
}

namespace ns {
__global__ void empty() {}
} // namespace ns

template <typename K, typename... A> void launch(K kernel, hipStream_t s, A... args) {
  kernel<<<1, 2, 0, s>>>(args...); // 2 threads: launched at d + 2 of 4 ints
}

int main() {
  int *d, h[4];
  hipStream_t s;

  CHECK(hipStreamCreate(&s));
  CHECK(hipMalloc(&d, sizeof(h)));
  ns::empty<<<1, 1, 0, s> > >();
  set<<<1, 4, 0, s> > >(d, 1);
  kernel<int><<<dim3(1), dim3(2), 0, s> >  >(d, 2);
  launch(set, s, d + 2, 3);
  CHECK(hipGetLastError());
  CHECK(hipStreamSynchronize(s));
  CHECK(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  EXPECT(h[0] == 2 && h[1] == 2 && h[2] == 3 && h[3] == 3);
  CHECK(hipFree(d));
  CHECK(hipStreamDestroy(s));
  std::printf("PASSED\n");
  return 0;
}
