/* SPDX-License-Identifier: MIT */
/* Runs with an unusable CUDA driver (ANYHIP_CUDA_LIB names a missing file, a
 * library that is not a driver, or a fake driver whose cuInit fails or that
 * lacks the entry points): the NVIDIA backend must report no devices and
 * everything else must work. usage: no_driver EXPECTED_DEVICE_COUNT */
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                       \
  do {                                                                 \
    if (!(c)) {                                                        \
      fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #c);   \
      return 1;                                                        \
    }                                                                  \
  } while (0)

int main(int argc, char **argv) {
  int want = argc > 1 ? atoi(argv[1]) : 0, count = -1;
  unsigned char h[256], back[256];
  hipDeviceProp_t p;
  void *d;

  if (want == 0) {
    CHECK(hipGetDeviceCount(&count) == hipErrorNoDevice);
    CHECK(count == 0);
    CHECK(hipMalloc(&d, 16) == hipErrorNoDevice);
    printf("no device, as expected (ANYHIP_CUDA_LIB=%s)\n", getenv("ANYHIP_CUDA_LIB"));
    return 0;
  }
  CHECK(hipGetDeviceCount(&count) == hipSuccess);
  CHECK(count == want);
  for (int i = 0; i < count; i++) {
    CHECK(hipGetDeviceProperties(&p, i) == hipSuccess);
    CHECK(strncmp(p.gcnArchName, "sm_", 3) != 0); /* no NVIDIA device slipped in */
    printf("device %d: %s\n", i, p.name);
  }
  for (int i = 0; i < 256; i++)
    h[i] = (unsigned char)(i * 7);
  CHECK(hipMalloc(&d, sizeof(h)) == hipSuccess);
  CHECK(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice) == hipSuccess);
  CHECK(hipMemset(d, 0x5a, 16) == hipSuccess);
  CHECK(hipMemcpy(back, d, sizeof(back), hipMemcpyDeviceToHost) == hipSuccess);
  for (int i = 0; i < 256; i++)
    CHECK(back[i] == (i < 16 ? 0x5a : h[i]));
  CHECK(hipFree(d) == hipSuccess);
  printf("ok\n");
  return 0;
}
