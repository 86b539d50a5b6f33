// SPDX-License-Identifier: MIT
// hipcc reads a source before the preprocessor does, so it sees both
// branches of an #if. Two spellings of one function's head, each opening the
// body (`#if A ... ) { #else ... ) { #endif`, as ROCm's unit suite writes
// TEMPLATE_TEST_CASE heads in stream/hipStreamValue.cc), must leave one
// brace open, not two: a template kernel defined after it is still at
// namespace scope, so its launch with deduced template arguments compiles
// and runs (it did not: `no matching function for call to 'chevron'`).
#include "engine_test.h"

#define AH_PP_FIRST 1

#if AH_PP_FIRST
template <typename T> static void fill(T *p, int n, T v) {
#else
template <typename T> static void fill(T *p, int n, T v, int unused) {
#endif
  for (int i = 0; i < n; i++)
    p[i] = v;
}

template <typename T> __global__ void add(T *a, const T *b, int n) {
  int i = threadIdx.x;
  if (i < n)
    a[i] += b[i];
}

// The launch deduces T from the arguments (add<<<>>>, no <T>).
template <typename T> static int run(T base) {
  constexpr int n = 32;
  T h[n], *a = nullptr, *b = nullptr;
  fill(h, n, base);
  CHECK_HIP(hipMalloc(&a, sizeof(h)));
  CHECK_HIP(hipMalloc(&b, sizeof(h)));
  CHECK_HIP(hipMemcpy(a, h, sizeof(h), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(b, h, sizeof(h), hipMemcpyHostToDevice));
  add<<<1, n>>>(a, b, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h, a, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    CHECK(h[i] == base + base);
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipFree(b));
  return AH_PASS;
}

int main() {
  if (run<unsigned int>(21u) != AH_PASS || run<double>(1.25) != AH_PASS)
    return AH_FAIL;
  std::printf("a template kernel after #if/#else function heads: passed\n");
  return AH_PASS;
}
