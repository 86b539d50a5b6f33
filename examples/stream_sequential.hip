// SPDX-License-Identifier: MIT
// The guide's "Sequential" version of the stream example (§10.4.3.4, seed 000 lines
// 6092-6232): 50 iterations of copy A and B to the device, kernelA (A += 1), kernelB
// (B += A + 3), copy both back, all on the null stream; the results are compared with the
// closed form the guide gives.
// Fixed: a page break had closed the loop after the host-to-device copies (the launches and
// copies back belong inside it); `initialValueB` is `initValueB`; 2^20 blocks of 1024 threads
// (a billion threads) for 2^25 doubles became a grid that covers the array, and the array
// is 2^16 doubles instead of 256 MiB; the program returns EXIT_FAILURE on a mismatch, and
// HIP_CHECK exits on error.
#include "common/example_utils.hpp"

#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <vector>

// GPU Kernels
__global__ void kernelA(double *arrayA, std::size_t size) {
  const std::size_t x = threadIdx.x + blockDim.x * blockIdx.x;
  if (x < size)
    arrayA[x] += 1.0;
}

__global__ void kernelB(double *arrayA, double *arrayB, std::size_t size) {
  const std::size_t x = threadIdx.x + blockDim.x * blockIdx.x;
  if (x < size)
    arrayB[x] += arrayA[x] + 3.0;
}

int main() {
  constexpr int threadsPerBlock = 1024;
  constexpr int numberOfIterations = 50;
  constexpr std::size_t arraySize = 1U << 16;
  constexpr int numOfBlocks = (arraySize + threadsPerBlock - 1) / threadsPerBlock;
  double *d_dataA;
  double *d_dataB;

  double initValueA = 0.0;
  double initValueB = 2.0;

  std::vector<double> vectorA(arraySize, initValueA);
  std::vector<double> vectorB(arraySize, initValueB);
  // Allocate device memory
  HIP_CHECK(hipMalloc(&d_dataA, arraySize * sizeof(*d_dataA)));
  HIP_CHECK(hipMalloc(&d_dataB, arraySize * sizeof(*d_dataB)));
  for (int iteration = 0; iteration < numberOfIterations; iteration++) {
    // Host to Device copies
    HIP_CHECK(hipMemcpy(d_dataA, vectorA.data(), arraySize * sizeof(*d_dataA),
                        hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_dataB, vectorB.data(), arraySize * sizeof(*d_dataB),
                        hipMemcpyHostToDevice));
    // Launch the GPU kernels
    kernelA<<<numOfBlocks, threadsPerBlock>>>(d_dataA, arraySize);
    kernelB<<<numOfBlocks, threadsPerBlock>>>(d_dataA, d_dataB, arraySize);
    // Device to Host copies
    HIP_CHECK(hipMemcpy(vectorA.data(), d_dataA, arraySize * sizeof(*vectorA.data()),
                        hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(vectorB.data(), d_dataB, arraySize * sizeof(*vectorB.data()),
                        hipMemcpyDeviceToHost));
  }
  // Wait for all operations to complete
  HIP_CHECK(hipDeviceSynchronize());

  // Verify results
  const double expectedA = (double)numberOfIterations;
  const double expectedB =
      initValueB + (3.0 * numberOfIterations) + (expectedA * (expectedA + 1.0)) / 2.0;
  bool passed = true;
  for (std::size_t i = 0; i < arraySize; ++i) {
    if (vectorA[i] != expectedA) {
      passed = false;
      std::cerr << "Validation failed! Expected " << expectedA << " got " << vectorA[i]
                << " at index: " << i << std::endl;
      break;
    }
    if (vectorB[i] != expectedB) {
      passed = false;
      std::cerr << "Validation failed! Expected " << expectedB << " got " << vectorB[i]
                << " at index: " << i << std::endl;
      break;
    }
  }

  if (passed)
    std::cout << "Sequential execution completed successfully." << std::endl;
  else
    std::cerr << "Sequential execution failed." << std::endl;

  // Cleanup
  HIP_CHECK(hipFree(d_dataA));
  HIP_CHECK(hipFree(d_dataB));
  return passed ? EXIT_SUCCESS : EXIT_FAILURE;
}
