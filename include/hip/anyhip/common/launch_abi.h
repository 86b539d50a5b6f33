/* SPDX-License-Identifier: MIT */
/* The contract between compiled HIP code and libanyhip for kernel launches.
 * hipcc-generated code and the kernel-language headers describe each kernel's
 * parameter list once (struct ahKernelSig, one per C++ signature); the runtime
 * copies the arguments at enqueue time with it and the CPU device calls the
 * kernel through `invoke`. Plain C so the runtime can include it. */
#ifndef ANYHIP_LAUNCH_ABI_H
#define ANYHIP_LAUNCH_ABI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ahKernelSig {
  /* Calls the kernel `fn` (its host address) with args[i] pointing at the
   * i-th argument, each already of the parameter's exact type. */
  void (*invoke)(const void *fn, void **args);
  unsigned nargs;
  const size_t *sizes;  /* nargs entries */
  const size_t *aligns; /* nargs entries */
} ahKernelSig;

#ifdef __cplusplus
}
#endif

#endif
