// SPDX-License-Identifier: MIT
// A compile error after a rewritten launch: the host compiler's message must
// name this file and line 10, not hipcc's prepared copy.
__global__ void k(int *p) {}

int main() {
  int *d = nullptr;
  k<<<dim3(1), dim3(1), 0, nullptr>>>(d);
  k<<<1, 1>>>(d);
  undeclared_name = 4;
  return 0;
}
