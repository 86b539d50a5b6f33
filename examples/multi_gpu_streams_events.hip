// SPDX-License-Identifier: MIT
// The guide's streams and events on two devices (§16.3, seed 000 lines 12868-13004): each
// device gets its own stream, two events and a buffer, created while it is current; a
// kernel is timed between two events on each device's stream. With fewer than two devices
// it prints the guide's message and exits 0 (try ANYHIP_CPU_DEVICES=2).
// Added: both devices' results are copied back on their own streams and checked
// (data[i] == 2 i), and the elapsed times must be non-negative.
#include "common/example_utils.hpp"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

__global__ void simpleKernel(double *data, std::size_t elems) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < elems)
    data[idx] = idx * 2.0;
}

int main() {
  int numDevices;
  HIP_CHECK(hipGetDeviceCount(&numDevices));
  if (numDevices < 2) {
    std::cout << "This example requires at least two HIP devices." << std::endl;
    return EXIT_SUCCESS;
  }

  double *deviceData0;
  double *deviceData1;
  constexpr std::size_t elems = 1024;
  constexpr std::size_t size = elems * sizeof(double);

  // Create streams and events for each device
  hipStream_t stream0, stream1;
  hipEvent_t startEvent0, stopEvent0, startEvent1, stopEvent1;

  // Initialize device 0
  HIP_CHECK(hipSetDevice(0));
  HIP_CHECK(hipStreamCreate(&stream0));
  HIP_CHECK(hipEventCreate(&startEvent0));
  HIP_CHECK(hipEventCreate(&stopEvent0));
  HIP_CHECK(hipMalloc(&deviceData0, size));

  // Initialize device 1
  HIP_CHECK(hipSetDevice(1));
  HIP_CHECK(hipStreamCreate(&stream1));
  HIP_CHECK(hipEventCreate(&startEvent1));
  HIP_CHECK(hipEventCreate(&stopEvent1));
  HIP_CHECK(hipMalloc(&deviceData1, size));

  // Record the start event on device 0
  HIP_CHECK(hipSetDevice(0));
  HIP_CHECK(hipEventRecord(startEvent0, stream0));
  // Launch the kernel asynchronously on device 0
  simpleKernel<<<8, 128, 0, stream0>>>(deviceData0, elems);
  // Record the stop event on device 0
  HIP_CHECK(hipEventRecord(stopEvent0, stream0));
  // Wait for the stop event on device 0 to complete
  HIP_CHECK(hipEventSynchronize(stopEvent0));

  // Record the start event on device 1
  HIP_CHECK(hipSetDevice(1));
  HIP_CHECK(hipEventRecord(startEvent1, stream1));
  // Launch the kernel asynchronously on device 1
  simpleKernel<<<8, 128, 0, stream1>>>(deviceData1, elems);
  // Record the stop event on device 1
  HIP_CHECK(hipEventRecord(stopEvent1, stream1));
  // Wait for the stop event on device 1 to complete
  HIP_CHECK(hipEventSynchronize(stopEvent1));

  // Calculate elapsed time between the events for both devices
  float milliseconds0 = 0, milliseconds1 = 0;
  HIP_CHECK(hipEventElapsedTime(&milliseconds0, startEvent0, stopEvent0));
  HIP_CHECK(hipEventElapsedTime(&milliseconds1, startEvent1, stopEvent1));

  std::cout << "Elapsed time on GPU 0: " << milliseconds0 << " ms" << std::endl;
  std::cout << "Elapsed time on GPU 1: " << milliseconds1 << " ms" << std::endl;

  std::size_t errors = 0;
  if (milliseconds0 < 0 || milliseconds1 < 0) {
    std::cerr << "negative elapsed time\n";
    ++errors;
  }

  // Both devices' results, read on the stream that produced them.
  std::vector<double> host(elems);
  double *deviceData[2] = {deviceData0, deviceData1};
  hipStream_t streams[2] = {stream0, stream1};
  for (int d = 0; d < 2; ++d) {
    HIP_CHECK(hipSetDevice(d));
    HIP_CHECK(hipMemcpyAsync(host.data(), deviceData[d], size, hipMemcpyDeviceToHost, streams[d]));
    HIP_CHECK(hipStreamSynchronize(streams[d]));
    for (std::size_t i = 0; i < elems; ++i) {
      if (host[i] != i * 2.0 && errors++ < 5)
        std::cerr << "device " << d << ": data[" << i << "] = " << host[i] << "\n";
    }
  }

  // Cleanup for device 0
  HIP_CHECK(hipSetDevice(0));
  HIP_CHECK(hipEventDestroy(startEvent0));
  HIP_CHECK(hipEventDestroy(stopEvent0));
  HIP_CHECK(hipStreamSynchronize(stream0));
  HIP_CHECK(hipStreamDestroy(stream0));
  HIP_CHECK(hipFree(deviceData0));

  // Cleanup for device 1
  HIP_CHECK(hipSetDevice(1));
  HIP_CHECK(hipEventDestroy(startEvent1));
  HIP_CHECK(hipEventDestroy(stopEvent1));
  HIP_CHECK(hipStreamSynchronize(stream1));
  HIP_CHECK(hipStreamDestroy(stream1));
  HIP_CHECK(hipFree(deviceData1));

  return report_check("multi_gpu_streams_events", errors);
}
