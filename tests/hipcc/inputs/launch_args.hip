// SPDX-License-Identifier: MIT
// Launch configurations: dim3 and integer arguments, expressions with commas
// inside parentheses, shared memory and stream, launches across lines,
// parenthesised and member kernels, launches as statements of any kind.
#include <algorithm>

__global__ void k(int *p, int n) {}

struct Table {
  void (*fn)(int *, int);
};

void host(int *d, int n, hipStream_t stream, Table t, Table *tp) {
  k<<<dim3(n / 256 + 1, 1, 1), dim3(256)>>>(d, n);
  k<<<n, 256>>>(d, n);
  k<<<std::max(1, n / 64), std::min(n, 1024), 0>>>(d, n);
  k<<<1, 64, 64 * sizeof(int), stream>>>(d, n);
  k<<<
      dim3(2, 2),
      dim3(16, 16),
      0,
      stream>>>(d,
                n);
  (k)<<<1, 1>>>(d, 0);
  t.fn<<<1, 1>>>(d, 1);
  tp->fn<<<1, 1>>>(d, 2);
  if (n > 0)
    k<<<n >> 1, (n, 32)>>>(d, n);
  else
    k<<<1, 1, 0, 0>>>(d, n);
  for (int i = 0; i < 2; i++) k<<<i + 1, 1>>>(d, i);
  while (n-- > 0) (k)<<<1, 1>>>(d, n);
  switch (n) { case 0: k<<<1, 1>>>(d, n); }
}
