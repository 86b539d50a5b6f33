/* SPDX-License-Identifier: MIT */
/* A stand-in for libcuda.so.1 that is not a usable driver, for the tests of
 * the NVIDIA backend's loader on machines without a GPU: cuInit returns
 * FAKE_CUDA_INIT (default 0, success) and cuGetProcAddress_v2 finds nothing,
 * so the backend must give up cleanly and report no devices. */
#include <stdint.h>
#include <stdlib.h>

int cuInit(unsigned int flags) {
  const char *r = getenv("FAKE_CUDA_INIT");

  (void)flags;
  return r != NULL ? atoi(r) : 0;
}

int cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags,
                        int *status) {
  (void)symbol;
  (void)version;
  (void)flags;
  *pfn = NULL;
  if (status != NULL)
    *status = 1; /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
  return 500;    /* CUDA_ERROR_NOT_FOUND */
}
