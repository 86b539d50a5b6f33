/* SPDX-License-Identifier: MIT */
/* Host-only C code calling the HIP runtime API, compiled by the C compiler
 * and linked through the installed package's hip::host. Checks a round trip
 * through device memory against the values it wrote. */
#include <hip/hip_runtime_api.h>
#include <stdio.h>

int main(void) {
  int count = 0, host[256], back[256], i;
  void *dev = NULL;

  if (hipGetDeviceCount(&count) != hipSuccess || count < 1) {
    printf("host_app: hipGetDeviceCount failed (count %d)\n", count);
    return 1;
  }
  for (i = 0; i < 256; i++) {
    host[i] = i * 7 - 3;
    back[i] = 0;
  }
  if (hipMalloc(&dev, sizeof(host)) != hipSuccess ||
      hipMemcpy(dev, host, sizeof(host), hipMemcpyHostToDevice) != hipSuccess ||
      hipMemcpy(back, dev, sizeof(back), hipMemcpyDeviceToHost) != hipSuccess ||
      hipFree(dev) != hipSuccess) {
    printf("host_app: a runtime call failed: %s\n", hipGetErrorName(hipGetLastError()));
    return 1;
  }
  for (i = 0; i < 256; i++) {
    if (back[i] != host[i]) {
      printf("host_app: element %d is %d, expected %d\n", i, back[i], host[i]);
      return 1;
    }
  }
  if (hipMalloc(NULL, 16) != hipErrorInvalidValue) {
    printf("host_app: hipMalloc(NULL) did not fail\n");
    return 1;
  }
  printf("host_app: devices>=1 copy ok\n");
  return 0;
}
