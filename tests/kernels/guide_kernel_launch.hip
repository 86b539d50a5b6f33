// SPDX-License-Identifier: MIT
// The guide's kernel launch example (seed 000, lines 2530-2607): 1e8 threads
// in 390625 blocks of 256, each writing its index into a 400 MB array.
// Fixes to the listing, so that it can fail:
//  - HIP_CHECK printed the error and went on; it now exits with status 1.
//  - The launch itself was never checked; hipGetLastError() now is.
//  - The result was never read back; it is now checked: a[i] == (float)i,
//    the float the kernel stores (exact only up to 2^24, hence the cast).
//  - round_up_to_nearest_multiple returns the number of blocks (a ceiling
//    division), not a multiple; the name stays, the comment says so.
// The listing's output lines are checked too: the program runs itself as a
// child and compares the child's stdout with the guide's two lines.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#define HIP_CHECK(expression)                                                      \
  {                                                                                \
    const hipError_t err = expression;                                             \
    if (err != hipSuccess) {                                                       \
      std::cerr << "HIP error: " << hipGetErrorString(err) << " at " << __LINE__ \
                << "\n";                                                           \
      std::exit(1);                                                                \
    }                                                                              \
  }

// Performs a simple initialization of an array with the thread's index variables.
// This function is only available in device code.
__device__ void init_array(float *const a, const unsigned int arraySize) {
  // globalIdx uniquely identifies a thread in a 1D launch configuration.
  const int globalIdx = threadIdx.x + blockDim.x * blockIdx.x;
  // Each thread initializes a single element of the array.
  if (globalIdx < arraySize) {
    a[globalIdx] = globalIdx;
  }
}

// Divides rounding up: the number of blocks of `multiple` threads that cover
// `number` threads. This function is available in host and device code.
__host__ __device__ constexpr int round_up_to_nearest_multiple(int number, int multiple) {
  return (number + multiple - 1) / multiple;
}

__global__ void example_kernel(float *const a, const unsigned int N) {
  // Initialize array.
  init_array(a, N);
}

static int run_listing() {
  constexpr int N = 100000000;   // problem size
  constexpr int blockSize = 256; // configurable block size

  // needed number of blocks for the given problem size
  constexpr int gridSize = round_up_to_nearest_multiple(N, blockSize);
  static_assert(gridSize == 390625, "1e8 / 256 blocks");

  float *a;
  // allocate memory on the GPU
  HIP_CHECK(hipMalloc(&a, sizeof(*a) * N));

  std::cout << "Launching kernel." << std::endl;
  example_kernel<<<dim3(gridSize), dim3(blockSize), 0 /*example doesn't use shared memory*/,
                   0 /*default stream*/>>>(a, N);
  HIP_CHECK(hipGetLastError());
  // make sure kernel execution is finished by synchronizing. The CPU can also
  // execute other instructions during that time
  HIP_CHECK(hipDeviceSynchronize());
  std::cout << "Kernel execution finished." << std::endl;

  // Not in the listing: read the array back and check every element.
  std::vector<float> h(N);
  HIP_CHECK(hipMemcpy(h.data(), a, sizeof(*a) * N, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    if (h[i] != static_cast<float>(i)) {
      std::cerr << "a[" << i << "] = " << h[i] << ", expected " << static_cast<float>(i) << "\n";
      return 1;
    }
  }
  HIP_CHECK(hipFree(a));
  return 0;
}

int main(int argc, char **argv) {
  if (std::getenv("GUIDE_KERNEL_LAUNCH_CHILD") != nullptr)
    return run_listing();

  // Parent: run the listing as a child and compare its output with the guide's.
  std::string cmd = "GUIDE_KERNEL_LAUNCH_CHILD=1 '";
  for (const char *p = argv[0]; *p; p++)
    cmd += *p == '\'' ? std::string("'\\''") : std::string(1, *p);
  cmd += "'";
  FILE *child = popen(cmd.c_str(), "r");
  if (child == nullptr) {
    std::perror("popen");
    return 1;
  }
  std::string out;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), child)) > 0)
    out.append(buf, n);
  int status = pclose(child);
  std::fputs(out.c_str(), stdout);
  if (status != 0) {
    std::fprintf(stderr, "the listing failed (status %d)\n", status);
    return 1;
  }
  const char *expected = "Launching kernel.\nKernel execution finished.\n";
  if (out != expected) {
    std::fprintf(stderr, "output differs from the guide's:\n%s", out.c_str());
    return 1;
  }
  (void)argc;
  return 0;
}
