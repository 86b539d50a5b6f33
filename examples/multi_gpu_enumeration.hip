// SPDX-License-Identifier: MIT
// The guide's device enumeration (§16.1, seed 000 lines 12691-12763): counts the devices
// and prints the main fields of each one's hipDeviceProp_t, in the guide's format.
// Added: checks that each device reports plausible values (a name, a warp size of 32 or
// 64, at least one multiprocessor, a block limit of at least 64 threads that fits in
// maxThreadsDim, a non-zero memory) and that asking for a device past the end fails with
// hipErrorInvalidDevice. Run with ANYHIP_CPU_DEVICES=2 to see two virtual CPU devices.
#include "common/example_utils.hpp"

#include <cstdlib>
#include <iostream>

int main() {
  int deviceCount;
  HIP_CHECK(hipGetDeviceCount(&deviceCount));
  std::cout << "Number of devices: " << deviceCount << std::endl;

  std::size_t errors = 0;
  for (int deviceId = 0; deviceId < deviceCount; ++deviceId) {
    hipDeviceProp_t deviceProp;
    HIP_CHECK(hipGetDeviceProperties(&deviceProp, deviceId));
    std::cout << "Device " << deviceId << std::endl << " Properties:" << std::endl;
    std::cout << "  Name: " << deviceProp.name << std::endl;
    std::cout << "  Total Global Memory: " << deviceProp.totalGlobalMem / (1024 * 1024) << " MiB"
              << std::endl;
    std::cout << "  Shared Memory per Block: " << deviceProp.sharedMemPerBlock / 1024 << " KiB"
              << std::endl;
    std::cout << "  Registers per Block: " << deviceProp.regsPerBlock << std::endl;
    std::cout << "  Warp Size: " << deviceProp.warpSize << std::endl;
    std::cout << "  Max Threads per Block: " << deviceProp.maxThreadsPerBlock << std::endl;
    std::cout << "  Max Threads per Multiprocessor: " << deviceProp.maxThreadsPerMultiProcessor
              << std::endl;
    std::cout << "  Number of Multiprocessors: " << deviceProp.multiProcessorCount << std::endl;
    std::cout << "  Max Threads Dimensions: [" << deviceProp.maxThreadsDim[0] << ", "
              << deviceProp.maxThreadsDim[1] << ", " << deviceProp.maxThreadsDim[2] << "]"
              << std::endl;
    std::cout << "  Max Grid Size: [" << deviceProp.maxGridSize[0] << ", "
              << deviceProp.maxGridSize[1] << ", " << deviceProp.maxGridSize[2] << "]"
              << std::endl;
    std::cout << std::endl;

    auto expect = [&](bool ok, const char *what) {
      if (!ok && errors++ < 10)
        std::cerr << "device " << deviceId << ": implausible " << what << "\n";
    };
    expect(deviceProp.name[0] != '\0', "name");
    expect(deviceProp.totalGlobalMem > 0, "totalGlobalMem");
    expect(deviceProp.sharedMemPerBlock >= 16 * 1024, "sharedMemPerBlock");
    expect(deviceProp.warpSize == 32 || deviceProp.warpSize == 64, "warpSize");
    expect(deviceProp.maxThreadsPerBlock >= 64 &&
               deviceProp.maxThreadsPerBlock <= deviceProp.maxThreadsDim[0] *
                                                    deviceProp.maxThreadsDim[1] *
                                                    deviceProp.maxThreadsDim[2],
           "maxThreadsPerBlock");
    expect(deviceProp.maxThreadsPerMultiProcessor >= deviceProp.maxThreadsPerBlock,
           "maxThreadsPerMultiProcessor");
    expect(deviceProp.multiProcessorCount > 0, "multiProcessorCount");
    expect(deviceProp.maxGridSize[0] > 0 && deviceProp.maxGridSize[1] > 0 &&
               deviceProp.maxGridSize[2] > 0,
           "maxGridSize");
  }

  hipDeviceProp_t none;
  const hipError_t past_end = hipGetDeviceProperties(&none, deviceCount);
  if (past_end != hipErrorInvalidDevice && errors++ < 10)
    std::cerr << "hipGetDeviceProperties(" << deviceCount << ") returned "
              << hipGetErrorName(past_end) << ", expected hipErrorInvalidDevice\n";
  (void)hipGetLastError();  // that error was expected
  return report_check("multi_gpu_enumeration", errors);
}
