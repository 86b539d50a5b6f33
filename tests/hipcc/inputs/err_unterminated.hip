// SPDX-License-Identifier: MIT
__global__ void k(int n) {}

void host() {
  k<<<1, 64(8);
}
