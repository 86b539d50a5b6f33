// SPDX-License-Identifier: MIT
// Calls devfns.hip's device functions from a kernel and sets its device
// variable through hipMemcpyToSymbol, and a block sum whose barriers and
// thread indices are in devfns.hip; checks against the host's arithmetic.
#include "devfns.h"

#include <cstdio>

__global__ void apply(int *out, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = scaled(i);
    f[i] = lib::half(float(i));
  }
}

// Barriers and thread indices inside another source's device functions.
__global__ void block_sums(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = block_sum(my_thread() + 1);
}

// The inline function's __shared__ array, written here and read in devfns.hip.
__global__ void mailboxes(int *out) {
  int t = threadIdx.x;
  mailbox()[t] = t * 5 + blockIdx.x;
  out[blockIdx.x * blockDim.x + t] = read_mailbox((t + 1) % blockDim.x);
}

static int check(int s) {
  const int n = 300;
  int *d, h[n];
  float *df, hf[n];
  if (hipMalloc(&d, sizeof(h)) != hipSuccess || hipMalloc(&df, sizeof(hf)) != hipSuccess)
    return 1;
  if (hipMemcpyToSymbol(HIP_SYMBOL(scale), &s, sizeof(s)) != hipSuccess)
    return 1;
  apply<<<(n + 127) / 128, 128>>>(d, df, n);
  if (hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost) != hipSuccess ||
      hipMemcpy(hf, df, sizeof(hf), hipMemcpyDeviceToHost) != hipSuccess)
    return 1;
  for (int i = 0; i < n; i++)
    if (h[i] != i * s + 100 || hf[i] != i * 0.5f) {
      printf("FAILED: scale %d, element %d: %d %g\n", s, i, h[i], hf[i]);
      return 1;
    }
  (void)hipFree(d);
  (void)hipFree(df);
  return 0;
}

int main() {
  int s = 0;
  if (hipMemcpyFromSymbol(&s, HIP_SYMBOL(scale), sizeof(s)) != hipSuccess || s != 3) {
    printf("FAILED: scale starts at %d\n", s);
    return 1;
  }
  if (check(3) || check(-7))
    return 1;
  int *d, h[256];
  if (hipMalloc(&d, sizeof(h)) != hipSuccess)
    return 1;
  block_sums<<<2, 128>>>(d);
  if (hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost) != hipSuccess)
    return 1;
  for (int i = 0; i < 256; i++)
    if (h[i] != 128 * 129 / 2) {
      printf("FAILED: block sum %d: %d\n", i, h[i]);
      return 1;
    }
  mailboxes<<<2, 128>>>(d);
  if (hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost) != hipSuccess)
    return 1;
  for (int i = 0; i < 256; i++)
    if (h[i] != (i % 128 + 1) % 128 * 5 + i / 128) {
      printf("FAILED: mailbox %d: %d\n", i, h[i]);
      return 1;
    }
  (void)hipFree(d);
  printf("PASSED\n");
  return 0;
}
