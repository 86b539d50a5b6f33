// SPDX-License-Identifier: MIT
// A small program for gdb (tests/debug/gdb_run.sh): one kernel with a line
// to break at (marked BREAK:), one block of 8 threads. With the kernel
// compiler the kernel runs as a block function; at -O0 it keeps threadIdx
// current for gdb at each GPU thread.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void scale(int *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = k * i;
  out[i] = v; // BREAK: gdb stops here
}

int main() {
  const int n = 16;
  int *d, h[n];
  if (hipMalloc(&d, sizeof(h)) != hipSuccess)
    return 1;
  scale<<<2, 8>>>(d, 3);
  if (hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost) != hipSuccess)
    return 1;
  (void)hipFree(d);
  for (int i = 0; i < n; i++)
    if (h[i] != 3 * i) {
      std::printf("wrong result at %d\n", i);
      return 1;
    }
  std::printf("stop: ok\n");
  return 0;
}
