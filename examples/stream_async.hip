// SPDX-License-Identifier: MIT
// The guide's "Asynchronous" version of the stream example (§10.4.3.4, seed 000 lines
// 6234-6384): the same 50 iterations as stream_sequential, with A's copies and kernel on
// streamA and B's on streamB; the host waits for streamA before launching kernelB.
// Fixed: `#include <cstdliblib>` is gone; the grid covers the 2^16-double array (see
// stream_sequential); the host buffers are page-locked (hipHostMalloc), so that the copies
// are really asynchronous; and a race that this exposes: nothing kept the next iteration's
// copy into d_dataA and kernelA (streamA) from running while this iteration's kernelB
// (streamB) still reads d_dataA, so each iteration now ends by waiting for streamB (without
// that wait this program fails in about half the runs on the CPU device).
// EXIT_FAILURE on a mismatch; HIP_CHECK exits on error.
#include "common/example_utils.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <iostream>

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

  // Page-locked host buffers, as asynchronous copies want (§10.4.2.1). With the guide's
  // pageable std::vectors the device-to-host copies block the host, which hides the
  // ordering bugs fixed here; with these, the copies really run behind the host's back.
  double *vectorA, *vectorB;
  HIP_CHECK(hipHostMalloc(&vectorA, arraySize * sizeof(*vectorA)));
  HIP_CHECK(hipHostMalloc(&vectorB, arraySize * sizeof(*vectorB)));
  std::fill(vectorA, vectorA + arraySize, initValueA);
  std::fill(vectorB, vectorB + arraySize, initValueB);
  // Allocate device memory
  HIP_CHECK(hipMalloc(&d_dataA, arraySize * sizeof(*d_dataA)));
  HIP_CHECK(hipMalloc(&d_dataB, arraySize * sizeof(*d_dataB)));
  // Create streams
  hipStream_t streamA, streamB;
  HIP_CHECK(hipStreamCreate(&streamA));
  HIP_CHECK(hipStreamCreate(&streamB));
  for (unsigned int iteration = 0; iteration < numberOfIterations; iteration++) {
    // Stream 1: Host to Device 1
    HIP_CHECK(hipMemcpyAsync(d_dataA, vectorA, arraySize * sizeof(*d_dataA),
                             hipMemcpyHostToDevice, streamA));
    // Stream 2: Host to Device 2
    HIP_CHECK(hipMemcpyAsync(d_dataB, vectorB, arraySize * sizeof(*d_dataB),
                             hipMemcpyHostToDevice, streamB));
    // Stream 1: Kernel 1
    kernelA<<<numOfBlocks, threadsPerBlock, 0, streamA>>>(d_dataA, arraySize);
    // Wait for streamA finish
    HIP_CHECK(hipStreamSynchronize(streamA));
    // Stream 2: Kernel 2
    kernelB<<<numOfBlocks, threadsPerBlock, 0, streamB>>>(d_dataA, d_dataB, arraySize);
    // Stream 1: Device to Host 2 (after Kernel 1)
    HIP_CHECK(hipMemcpyAsync(vectorA, d_dataA, arraySize * sizeof(*vectorA),
                             hipMemcpyDeviceToHost, streamA));
    // Stream 2: Device to Host 2 (after Kernel 2)
    HIP_CHECK(hipMemcpyAsync(vectorB, d_dataB, arraySize * sizeof(*vectorB),
                             hipMemcpyDeviceToHost, streamB));
    // kernelB reads d_dataA: the next iteration may overwrite it only after streamB is done.
    HIP_CHECK(hipStreamSynchronize(streamB));
  }
  // Wait for all operations in both streams to complete
  HIP_CHECK(hipStreamSynchronize(streamA));
  HIP_CHECK(hipStreamSynchronize(streamB));
  // Verify results
  double expectedA = (double)numberOfIterations;
  double expectedB =
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
    std::cout << "Asynchronous execution completed successfully." << std::endl;
  else
    std::cerr << "Asynchronous execution failed." << std::endl;

  // Cleanup
  HIP_CHECK(hipStreamDestroy(streamA));
  HIP_CHECK(hipStreamDestroy(streamB));
  HIP_CHECK(hipFree(d_dataA));
  HIP_CHECK(hipFree(d_dataB));
  HIP_CHECK(hipHostFree(vectorA));
  HIP_CHECK(hipHostFree(vectorB));
  return passed ? EXIT_SUCCESS : EXIT_FAILURE;
}
