// SPDX-License-Identifier: MIT
// The guide's "hipStreamWaitEvent" version of the stream example (§10.4.3.4, seed 000
// lines 6386-6554): as stream_async, but streamB waits for an event recorded after kernelA
// on streamA instead of the host waiting for streamA.
// Fixed: `#include <cstdliblib>` and `initialValueB` (is initValueB); the grid covers the
// 2^16-double array (see stream_sequential); the host buffers are page-locked
// (hipHostMalloc), so that the copies are really asynchronous, which exposes two bugs.
// Each iteration ended by making each stream wait for its own event (eventA on streamA,
// eventB on streamB), which orders nothing, so the next iteration's copy into d_dataA raced
// with kernelB reading it: the streams now wait for each other's event. And the results
// were verified without waiting for the streams: the host now synchronizes both first.
// Either bug alone makes this program fail on the CPU device in most runs. EXIT_FAILURE
// on a mismatch; HIP_CHECK exits on error.
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
  // Create events
  hipEvent_t event, eventA, eventB;
  HIP_CHECK(hipEventCreate(&event));
  HIP_CHECK(hipEventCreate(&eventA));
  HIP_CHECK(hipEventCreate(&eventB));
  for (unsigned int iteration = 0; iteration < numberOfIterations; iteration++) {
    // Stream 1: Host to Device 1
    HIP_CHECK(hipMemcpyAsync(d_dataA, vectorA, arraySize * sizeof(*d_dataA),
                             hipMemcpyHostToDevice, streamA));
    // Stream 2: Host to Device 2
    HIP_CHECK(hipMemcpyAsync(d_dataB, vectorB, arraySize * sizeof(*d_dataB),
                             hipMemcpyHostToDevice, streamB));
    // Stream 1: Kernel 1
    kernelA<<<numOfBlocks, threadsPerBlock, 0, streamA>>>(d_dataA, arraySize);
    // Record event after the GPU kernel in Stream 1
    HIP_CHECK(hipEventRecord(event, streamA));
    // Stream 2: Wait for event before starting Kernel 2
    HIP_CHECK(hipStreamWaitEvent(streamB, event, 0));
    // Stream 2: Kernel 2
    kernelB<<<numOfBlocks, threadsPerBlock, 0, streamB>>>(d_dataA, d_dataB, arraySize);
    // Stream 1: Device to Host 2 (after Kernel 1)
    HIP_CHECK(hipMemcpyAsync(vectorA, d_dataA, arraySize * sizeof(*vectorA),
                             hipMemcpyDeviceToHost, streamA));
    // Stream 2: Device to Host 2 (after Kernel 2)
    HIP_CHECK(hipMemcpyAsync(vectorB, d_dataB, arraySize * sizeof(*vectorB),
                             hipMemcpyDeviceToHost, streamB));
    // Each stream's next iteration waits for the other stream's work of this one.
    HIP_CHECK(hipEventRecord(eventA, streamA));
    HIP_CHECK(hipEventRecord(eventB, streamB));
    HIP_CHECK(hipStreamWaitEvent(streamA, eventB, 0));
    HIP_CHECK(hipStreamWaitEvent(streamB, eventA, 0));
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
    std::cout << "Asynchronous execution with events completed successfully." << std::endl;
  else
    std::cerr << "Asynchronous execution with events failed." << std::endl;

  // Cleanup
  HIP_CHECK(hipEventDestroy(event));
  HIP_CHECK(hipEventDestroy(eventA));
  HIP_CHECK(hipEventDestroy(eventB));
  HIP_CHECK(hipStreamDestroy(streamA));
  HIP_CHECK(hipStreamDestroy(streamB));
  HIP_CHECK(hipFree(d_dataA));
  HIP_CHECK(hipFree(d_dataB));
  HIP_CHECK(hipHostFree(vectorA));
  HIP_CHECK(hipHostFree(vectorB));
  return passed ? EXIT_SUCCESS : EXIT_FAILURE;
}
