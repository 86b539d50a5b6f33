// SPDX-License-Identifier: MIT
__global__ void k(int n) {}

void host(hipStream_t s) {
  k<<<64>>>(1);
  k<<<1, 2, 0, s, 5>>>(1);
  <<<1, 1>>>(2);
  k<<<1, 1>>>;
}
