// SPDX-License-Identifier: MIT
// The guide's peer-to-peer example, "without peer-to-peer" (§16.4, seed 000 lines
// 13118-13219): with device 1 current, hipMemcpy(..., hipMemcpyDeviceToDevice) copies
// device 0's buffer into device 1's without peer access enabled; the guide says this works,
// staged through host memory. With fewer than two devices it prints the guide's message and
// exits 0 (try ANYHIP_CPU_DEVICES=2).
// Fixed: `#include <cstdliblib>` is <cstdlib>, and the HIP_CHECK macro's missing line
// continuations are moot (example_utils.hpp's is used). Added: deviceData1 is cleared before
// the copy and every element is checked afterwards, so a copy that did not happen is caught
// (element 0, which the guide prints, is 0 either way).
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

  // Use deviceData0 on device 1. This works but incurs a performance penalty.
  HIP_CHECK(hipSetDevice(deviceId1));
  HIP_CHECK(hipMemset(deviceData1, 0, size));  // so that the copy below is visible
  HIP_CHECK(hipMemcpy(deviceData1, deviceData0, size, hipMemcpyDeviceToDevice));

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
  std::size_t errors = 0;
  for (std::size_t i = 0; i < elems; ++i) {
    if ((hostData0[i] != i * 2.0 || hostData1[i] != i * 2.0) && errors++ < 5)
      std::cerr << "element " << i << ": device 0 " << hostData0[i] << ", device 1 "
                << hostData1[i] << ", expected " << i * 2.0 << "\n";
  }

  // Free device memory
  HIP_CHECK(hipFree(deviceData0));
  HIP_CHECK(hipFree(deviceData1));
  return report_check("multi_gpu_no_p2p", errors);
}
