// SPDX-License-Identifier: MIT
// The guide's peer-to-peer example, "with peer-to-peer" (§16.4, seed 000 lines 13014-13116):
// each device enables access to the other's memory (before allocating, so that it covers
// "allocated and future" memory), then device 0 copies device 1's buffer with a plain
// hipMemcpy(..., hipMemcpyDeviceToDevice). With fewer than two devices it prints the guide's
// message and exits 0 (try ANYHIP_CPU_DEVICES=2).
// Added: hipDeviceCanAccessPeer is asked first (the guide assumes yes); deviceData0 is
// cleared before the copy and every element is checked afterwards, so a copy that did not
// happen is caught (element 0, which the guide prints, is 0 either way); a second
// hipDeviceEnablePeerAccess must report hipErrorPeerAccessAlreadyEnabled.
#include "common/example_utils.hpp"

#include <cstdint>
#include <cstdlib>
#include <iostream>

__global__ void simpleKernel(double *data, std::size_t elems) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < elems)
    data[idx] = idx * 2.0;
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

  int canAccess01 = 0, canAccess10 = 0;
  HIP_CHECK(hipDeviceCanAccessPeer(&canAccess01, deviceId0, deviceId1));
  HIP_CHECK(hipDeviceCanAccessPeer(&canAccess10, deviceId1, deviceId0));
  if (!canAccess01 || !canAccess10) {
    std::cout << "Devices 0 and 1 cannot access each other's memory." << std::endl;
    return EXIT_SUCCESS;
  }

  // Enable peer access to the memory (allocated and future) on the peer device.
  // Ensure the device is active before enabling peer access.
  HIP_CHECK(hipSetDevice(deviceId0));
  HIP_CHECK(hipDeviceEnablePeerAccess(deviceId1, 0));

  HIP_CHECK(hipSetDevice(deviceId1));
  HIP_CHECK(hipDeviceEnablePeerAccess(deviceId0, 0));

  std::size_t errors = 0;
  const hipError_t again = hipDeviceEnablePeerAccess(deviceId0, 0);
  if (again != hipErrorPeerAccessAlreadyEnabled) {
    std::cerr << "enabling peer access twice returned " << hipGetErrorName(again) << "\n";
    ++errors;
  }
  (void)hipGetLastError();  // that error was expected

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

  // Use peer-to-peer access
  HIP_CHECK(hipSetDevice(deviceId0));
  HIP_CHECK(hipMemset(deviceData0, 0, size));  // so that the copy below is visible

  // Now device 0 can access memory allocated on device 1
  HIP_CHECK(hipMemcpy(deviceData0, deviceData1, size, hipMemcpyDeviceToDevice));

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
  for (std::size_t i = 0; i < elems; ++i) {
    if ((hostData0[i] != i * 2.0 || hostData1[i] != i * 2.0) && errors++ < 5)
      std::cerr << "element " << i << ": device 0 " << hostData0[i] << ", device 1 "
                << hostData1[i] << ", expected " << i * 2.0 << "\n";
  }

  // Free device memory
  HIP_CHECK(hipFree(deviceData0));
  HIP_CHECK(hipFree(deviceData1));
  return report_check("multi_gpu_p2p", errors);
}
