// SPDX-License-Identifier: MIT
// Only device variables are symbols (issue 15, item 5): a kernel, a const
// host global, libc's stdout, a heap block or a local variable given to the
// symbol functions is hipErrorInvalidSymbol, and nothing is written. A
// device variable still works.
#include "engine_test.h"

#include <cstdio>
#include <cstdlib>

__device__ int dev_var[4];
const int host_const[4] = {1, 2, 3, 4};
int host_plain[4] = {5, 6, 7, 8};

__global__ void kernel(int *p) { p[threadIdx.x] = 1; }

static int check_not_symbol(const void *sym, const char *what) {
  int src[4] = {-1, -1, -1, -1}, dst[4];
  size_t size = 7;
  void *addr = nullptr;

  hipError_t e1 = hipMemcpyToSymbol(sym, src, sizeof(src));
  hipError_t e2 = hipMemcpyFromSymbol(dst, sym, sizeof(dst));
  hipError_t e3 = hipGetSymbolSize(&size, sym);
  hipError_t e4 = hipGetSymbolAddress(&addr, sym);
  hipError_t e5 = hipMemcpyToSymbolAsync(sym, src, sizeof(src), 0, hipMemcpyHostToDevice, 0);
  (void)hipGetLastError();
  if (e1 != hipErrorInvalidSymbol || e2 != hipErrorInvalidSymbol || e3 != hipErrorInvalidSymbol ||
      e4 != hipErrorInvalidSymbol || e5 != hipErrorInvalidSymbol) {
    std::fprintf(stderr, "%s: got %s %s %s %s %s\n", what, hipGetErrorName(e1),
                 hipGetErrorName(e2), hipGetErrorName(e3), hipGetErrorName(e4),
                 hipGetErrorName(e5));
    return AH_FAIL;
  }
  return AH_PASS;
}

int main() {
  int local[4] = {0};
  int *heap = (int *)std::malloc(64);
  int r = AH_PASS;

  r |= check_not_symbol((const void *)kernel, "a kernel");
  r |= check_not_symbol(host_const, "a const global");
  r |= check_not_symbol(stdout, "libc's stdout");
  r |= check_not_symbol(heap, "a heap block");
  r |= check_not_symbol(local, "a local variable");
  r |= check_not_symbol((const void *)&std::printf, "a host function");
  CHECK(host_const[0] == 1 && host_plain[0] == 5);
  std::free(heap);

  int in[4] = {9, 8, 7, 6}, out[4] = {0};
  size_t size = 0;
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(dev_var), in, sizeof(in)));
  CHECK_HIP(hipMemcpyFromSymbol(out, HIP_SYMBOL(dev_var), sizeof(out)));
  CHECK_HIP(hipGetSymbolSize(&size, HIP_SYMBOL(dev_var)));
  CHECK(size == sizeof(dev_var) && out[3] == 6);
  if (r != AH_PASS)
    return r;
  std::printf("passed\n");
  return AH_PASS;
}
