// SPDX-License-Identifier: MIT
// The guide's device selection (§16.2, seed 000 lines 12765-12866): hipSetDevice makes a
// device current; the allocation and the launch that follow go to it. With fewer than two
// devices it prints the guide's message and exits 0 (try ANYHIP_CPU_DEVICES=2 for two
// virtual CPU devices).
// Added: every element from both devices is checked (data[i] == 2 i), not only element 0,
// and hipPointerGetAttributes must place each allocation on the device that was current.
#include "common/example_utils.hpp"

#include <cstdint>
#include <cstdlib>
#include <iostream>

__global__ void simpleKernel(double *data, std::size_t elems) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < elems)
    data[idx] = idx * 2.0;
}

// Counts the elements of data that are not 2 * index, and checks the owning device.
static std::size_t check_device_data(int device, const double *hostData, std::size_t elems,
                                     const void *devicePtr) {
  std::size_t errors = 0;
  for (std::size_t i = 0; i < elems; ++i) {
    if (hostData[i] != i * 2.0 && errors++ < 5)
      std::cerr << "device " << device << ": data[" << i << "] = " << hostData[i] << "\n";
  }
  hipPointerAttribute_t attributes;
  HIP_CHECK(hipPointerGetAttributes(&attributes, devicePtr));
  if (attributes.device != device) {
    std::cerr << "allocation made on device " << device << " belongs to device "
              << attributes.device << "\n";
    ++errors;
  }
  return errors;
}

int main() {
  int deviceCount;
  HIP_CHECK(hipGetDeviceCount(&deviceCount));
  if (deviceCount < 2) {
    std::cout << "This example requires at least two HIP devices." << std::endl;
    return EXIT_SUCCESS;
  }

  double *deviceData0;
  double *deviceData1;
  constexpr std::size_t elems = 1024;
  constexpr std::size_t size = elems * sizeof(double);

  int deviceId0 = 0;
  int deviceId1 = 1;

  // Set device 0 and perform operations
  HIP_CHECK(hipSetDevice(deviceId0));            // Set device 0 as current
  HIP_CHECK(hipMalloc(&deviceData0, size));      // Allocate memory on device 0
  simpleKernel<<<8, 128>>>(deviceData0, elems);  // Launch kernel on device 0
  HIP_CHECK(hipDeviceSynchronize());

  // Set device 1 and perform operations
  HIP_CHECK(hipSetDevice(deviceId1));            // Set device 1 as current
  HIP_CHECK(hipMalloc(&deviceData1, size));      // Allocate memory on device 1
  simpleKernel<<<8, 128>>>(deviceData1, elems);  // Launch kernel on device 1
  HIP_CHECK(hipDeviceSynchronize());

  // Copy result from device 0
  double hostData0[elems];
  HIP_CHECK(hipSetDevice(deviceId0));
  HIP_CHECK(hipMemcpy(hostData0, deviceData0, size, hipMemcpyDeviceToHost));

  // Copy result from device 1
  double hostData1[elems];
  HIP_CHECK(hipSetDevice(deviceId1));
  HIP_CHECK(hipMemcpy(hostData1, deviceData1, size, hipMemcpyDeviceToHost));

  // Display results from both devices
  std::cout << "Device 0 data: " << hostData0[0] << std::endl;
  std::cout << "Device 1 data: " << hostData1[0] << std::endl;
  const std::size_t errors = check_device_data(deviceId0, hostData0, elems, deviceData0) +
                             check_device_data(deviceId1, hostData1, elems, deviceData1);

  // Free device memory
  HIP_CHECK(hipFree(deviceData0));
  HIP_CHECK(hipFree(deviceData1));
  return report_check("multi_gpu_selection", errors);
}
