// SPDX-License-Identifier: MIT
// Older HIP code reads hipDeviceProp_t::gcnArch, which HIP 6 dropped; with
// -DANYHIP_HIP5_DEVICE_PROP (on hipcc's command line: tests/CMakeLists.txt) hipDeviceProp_t,
// hipGetDeviceProperties and hipChooseDevice are HIP 5's, so it compiles and
// reads the same values as hipGetDeviceAttribute.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

int main() {
  hipDeviceProp_t p; // hipDeviceProp_tR0000
  if (hipGetDeviceProperties(&p, 0) != hipSuccess)
    return 1;
  int cus = 0, major = 0, minor = 0;
  if (hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0) != hipSuccess ||
      hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor, 0) != hipSuccess ||
      hipDeviceGetAttribute(&minor, hipDeviceAttributeComputeCapabilityMinor, 0) != hipSuccess)
    return 1;
  if (p.multiProcessorCount != cus || p.major != major || p.minor != minor) {
    std::fprintf(stderr, "properties differ from the attributes\n");
    return 1;
  }
  int want = std::strcmp(p.gcnArchName, "cpu") == 0 ? 0 : 10 * major + minor;
  if (p.gcnArch != want) {
    std::fprintf(stderr, "gcnArch %d, expected %d (%s)\n", p.gcnArch, want, p.gcnArchName);
    return 1;
  }
  int dev = -1;
  if (hipChooseDevice(&dev, &p) != hipSuccess || dev != 0)
    return 1;
  std::printf("gcnArch %d (%s)\n", p.gcnArch, p.gcnArchName);
  return 0;
}
