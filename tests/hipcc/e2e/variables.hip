// SPDX-License-Identifier: MIT
// Device variables in a stripped program (built with -s): hipcc registers
// each namespace-scope __device__, __constant__ and __managed__ variable, so
// hipMemcpyToSymbol, hipMemcpyFromSymbol, hipGetSymbolSize and
// hipGetSymbolAddress find them without the ELF symbol tables. Variables at
// global scope, in a namespace, static, two in one declaration; a kernel
// reads and writes them. Prints PASSED and exits 0 on the CPU device. (On an
// NVIDIA GPU the variables are found too, by the registered names, but the
// kernel of a stripped program is not: kernels are looked up by their ELF
// symbol names.)
// Built with -DANYHIP_NO_VARIABLE_REGISTRATION (and stripped) it must find
// none of them: it prints UNREGISTERED and exits 3 (the test checks both).
#include <hip/hip_runtime.h>

#include <cstdio>

#define EXPECT(c)                                                   \
  do {                                                              \
    if (!(c)) {                                                     \
      std::printf("%s:%d: %s is false\n", __FILE__, __LINE__, #c); \
      return 1;                                                     \
    }                                                               \
  } while (0)
#define CHECK(x) EXPECT((x) == hipSuccess)

struct Params {
  float scale;
  int offset;
};

__constant__ Params params;
__device__ int table[64], total;
static __device__ float bias;
namespace lib {
__device__ double weights[8];
__device__ int hits;
} // namespace lib

// out[i] = table[i] * scale + offset + bias + weights[i % 8]; counts threads.
__global__ void combine(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 64) {
    out[i] = table[i] * params.scale + params.offset + bias + (float)lib::weights[i % 8];
    atomicAdd(&lib::hits, 1);
    atomicAdd(&total, table[i]);
  }
}

int main() {
  size_t size = 0;
  void *addr = nullptr;

  // Without registration a stripped program has no record of the variables.
  if (hipGetSymbolSize(&size, HIP_SYMBOL(table)) == hipErrorInvalidSymbol) {
    std::printf("UNREGISTERED\n");
    return 3;
  }
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(table)));
  EXPECT(size == sizeof(table));
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(params)));
  EXPECT(size == sizeof(Params));
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(lib::weights)));
  EXPECT(size == 8 * sizeof(double));
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(total)));
  EXPECT(size == sizeof(int));

  int t[64];
  double w[8];
  Params prm = {0.5f, 3};
  float b = 0.25f;
  for (int i = 0; i < 64; i++)
    t[i] = 2 * i - 11;
  for (int i = 0; i < 8; i++)
    w[i] = 0.125 * i;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), t, sizeof(t)));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(params), &prm, sizeof(prm)));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(bias), &b, sizeof(b)));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(lib::weights), w, 4 * sizeof(double)));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(lib::weights), w + 4, 4 * sizeof(double),
                          4 * sizeof(double), hipMemcpyHostToDevice));
  // The address works with the ordinary functions.
  CHECK(hipGetSymbolAddress(&addr, HIP_SYMBOL(lib::hits)));
  CHECK(hipMemset(addr, 0, sizeof(int)));
  CHECK(hipGetSymbolAddress(&addr, HIP_SYMBOL(total)));
  CHECK(hipMemset(addr, 0, sizeof(int)));
  // An offset past the end is refused.
  EXPECT(hipMemcpyToSymbol(HIP_SYMBOL(table), t, 8, sizeof(table) - 4, hipMemcpyHostToDevice) ==
         hipErrorInvalidValue);
  EXPECT(hipGetLastError() == hipErrorInvalidValue);

  float *out = nullptr, h[64];
  CHECK(hipMalloc(&out, sizeof(h)));
  hipLaunchKernelGGL(combine, dim3(2), dim3(32), 0, 0, out);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(h, out, sizeof(h), hipMemcpyDeviceToHost));
  int sum = 0, hits = 0, tot = 0;
  for (int i = 0; i < 64; i++) {
    EXPECT(h[i] == t[i] * 0.5f + 3 + 0.25f + (float)w[i % 8]);
    sum += t[i];
  }
  CHECK(hipMemcpyFromSymbol(&hits, HIP_SYMBOL(lib::hits), sizeof(int)));
  CHECK(hipMemcpyFromSymbol(&tot, HIP_SYMBOL(total), sizeof(int)));
  EXPECT(hits == 64);
  EXPECT(tot == sum);
  CHECK(hipFree(out));
  std::printf("PASSED\n");
  return 0;
}
