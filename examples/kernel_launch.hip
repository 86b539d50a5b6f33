// SPDX-License-Identifier: MIT
// The guide's kernel launch example (§9.1.1.3.1, seed 000 lines 2530-2607): a __device__
// helper called from a __global__ kernel, a __host__ __device__ constexpr function computing
// the grid, and a triple-chevron launch with shared memory size 0 on the default stream.
// Fixed: N is 1,000,000 instead of 100,000,000 (400 MB, and more than a float can count
// exactly); HIP_CHECK exits on error; the listing never looks at the array, so this copy
// reads it back and checks a[i] == i; and round_up_to_nearest_multiple, which in fact
// returns the number of blocks, is called what it does.
#include "common/example_utils.hpp"

#include <iostream>
#include <vector>

// Performs a simple initialization of an array with the thread's index variables.
// This function is only available in device code.
__device__ void init_array(float *const a, const unsigned int arraySize) {
  // globalIdx uniquely identifies a thread in a 1D launch configuration.
  const int globalIdx = threadIdx.x + blockDim.x * blockIdx.x;
  // Each thread initializes a single element of the array.
  if (globalIdx < arraySize)
    a[globalIdx] = globalIdx;
}

// Divides, rounding up: the number of blocks of `multiple` threads that cover `number`.
// This function is available in host and device code.
__host__ __device__ constexpr int round_up_division(int number, int multiple) {
  return (number + multiple - 1) / multiple;
}

__global__ void example_kernel(float *const a, const unsigned int N) {
  // Initialize array.
  init_array(a, N);
}

int main() {
  constexpr int N = 1000000;      // problem size
  constexpr int blockSize = 256;  // configurable block size
  // Needed number of blocks for the given problem size (the last block is partly idle).
  constexpr int gridSize = round_up_division(N, blockSize);

  float *a;
  HIP_CHECK(hipMalloc(&a, sizeof(*a) * N));

  std::cout << "Launching kernel." << std::endl;
  example_kernel<<<dim3(gridSize), dim3(blockSize), 0 /*no shared memory*/,
                   0 /*default stream*/>>>(a, N);
  HIP_CHECK(hipGetLastError());
  // Make sure kernel execution is finished by synchronizing. The CPU can also execute
  // other instructions during that time.
  HIP_CHECK(hipDeviceSynchronize());
  std::cout << "Kernel execution finished." << std::endl;

  std::vector<float> host(N);
  HIP_CHECK(hipMemcpy(host.data(), a, sizeof(*a) * N, hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(a));

  std::size_t errors = 0;
  for (int i = 0; i < N; ++i) {
    if (host[i] != static_cast<float>(i) && errors++ < 5)
      std::cerr << "a[" << i << "] = " << host[i] << ", expected " << i << "\n";
  }
  return report_check("kernel_launch", errors);
}
