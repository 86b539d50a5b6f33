// SPDX-License-Identifier: MIT
// A user's bug for memcheck to find: a kernel that reads one element past
// the end of hipMalloc buffers (an off-by-one in a shift), a small one (from
// the C heap) and one of 1.2 MiB (a block mmap'd outside valgrind, where the
// read lands in the last page's slack), and a read past the dynamic shared
// memory a launch asked for. Run alone
// it "works" and exits 0; under valgrind --error-exitcode=1 the valgrind
// ctest expects the reads reported at this file's line of the kernel.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void shift_left(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1]; // BUG: in[n] when i == n - 1 (the line valgrind must name)
}

// The launch gives 32 ints of dynamic shared memory; the kernel indexes 33.
__global__ void reverse_shared(const int *in, int *out) {
  extern __shared__ int tile[];
  int t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  out[t] = tile[blockDim.x - t]; // BUG: tile[32] for thread 0 (should be - 1 - t)
}

#define TRY(x)                                                      \
  do {                                                              \
    if ((x) != hipSuccess) {                                        \
      std::printf("%s failed at line %d\n", #x, __LINE__);         \
      return 1;                                                     \
    }                                                               \
  } while (0)

static int run(int n) {
  size_t bytes = (size_t)n * sizeof(int);
  int *in, *out;
  int *h = new int[n];
  int bad = 0;

  for (int i = 0; i < n; i++)
    h[i] = 3 * i;
  TRY(hipMalloc(&in, bytes));
  TRY(hipMalloc(&out, bytes));
  TRY(hipMemcpy(in, h, bytes, hipMemcpyHostToDevice));
  shift_left<<<(n + 127) / 128, 128>>>(in, out, n);
  TRY(hipDeviceSynchronize());
  TRY(hipMemcpy(h, out, bytes, hipMemcpyDeviceToHost));
  for (int i = 0; i < n - 1; i++)
    bad += h[i] != 3 * (i + 1);
  TRY(hipFree(in));
  TRY(hipFree(out));
  delete[] h;
  return bad != 0;
}

static int run_shared(void) {
  int h[32], *in, *out;
  int bad = 0;

  for (int i = 0; i < 32; i++)
    h[i] = i + 1;
  TRY(hipMalloc(&in, sizeof(h)));
  TRY(hipMalloc(&out, sizeof(h)));
  TRY(hipMemcpy(in, h, sizeof(h), hipMemcpyHostToDevice));
  reverse_shared<<<1, 32, 32 * sizeof(int)>>>(in, out);
  TRY(hipDeviceSynchronize());
  TRY(hipMemcpy(h, out, sizeof(h), hipMemcpyDeviceToHost));
  for (int t = 1; t < 32; t++)
    bad += h[t] != 32 - t + 1;
  TRY(hipFree(in));
  TRY(hipFree(out));
  return bad != 0;
}

// `overrun small`, `large` or `shared` runs one case (memcheck reports a
// second read at the same line only in its count); no argument runs all.
int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  int all = std::strcmp(which, "all") == 0;

  // 300000 ints: over the CPU device's 1 MiB mmap threshold, not a page multiple.
  if (((all || !std::strcmp(which, "small")) && run(100)) ||
      ((all || !std::strcmp(which, "large")) && run(300000)) ||
      ((all || !std::strcmp(which, "shared")) && run_shared())) {
    std::printf("wrong results\n");
    return 1;
  }
  std::printf("ran (the reads past the end go unnoticed without valgrind)\n");
  return 0;
}
