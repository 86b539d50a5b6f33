// SPDX-License-Identifier: MIT
// Device variables: __device__ and __constant__ variables written with
// hipMemcpyToSymbol, read back with hipMemcpyFromSymbol (at offsets, on
// streams), used by a kernel, reached through hipGetSymbolAddress with plain
// hipMemcpy/hipMemset, sized by hipGetSymbolSize; and the error paths.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

#define CHECK(c)                                                   \
  do {                                                             \
    if (!(c)) {                                                    \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #c); \
      return 1;                                                    \
    }                                                              \
  } while (0)
#define CHECK_HIP(x) CHECK((x) == hipSuccess)

constexpr int N = 64;

__constant__ float coeff[16];
__device__ int table[N];
__device__ double scalar;
__device__ int results[N];

// results[i] = table[i] * coeff[i % 16] + scalar, all read on the device.
__global__ void combine() {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    results[i] = (int)(table[i] * coeff[i % 16] + scalar);
}

int main() {
  float c[16];
  int t[N], out[N];
  double s = 0.5;
  size_t size = 0;
  void *addr = nullptr;
  hipStream_t stream;

  for (int i = 0; i < 16; i++)
    c[i] = (float)(i + 1);
  for (int i = 0; i < N; i++)
    t[i] = 3 * i - 7;

  // Sizes are the variables' own.
  CHECK_HIP(hipGetSymbolSize(&size, HIP_SYMBOL(coeff)));
  CHECK(size == sizeof(coeff));
  CHECK_HIP(hipGetSymbolSize(&size, HIP_SYMBOL(table)));
  CHECK(size == sizeof(table));
  CHECK_HIP(hipGetSymbolSize(&size, HIP_SYMBOL(scalar)));
  CHECK(size == sizeof(double));

  // Write, then read back, whole and in pieces.
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(coeff), c, sizeof(c)));
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(table), t, 10 * sizeof(int)));
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(table), t + 10, (N - 10) * sizeof(int),
                              10 * sizeof(int), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(scalar), &s, sizeof(s)));
  std::memset(out, 0, sizeof(out));
  CHECK_HIP(hipMemcpyFromSymbol(out, HIP_SYMBOL(table), sizeof(table)));
  for (int i = 0; i < N; i++)
    CHECK(out[i] == t[i]);
  std::memset(out, 0, sizeof(out));
  CHECK_HIP(hipMemcpyFromSymbol(out, HIP_SYMBOL(table), 4 * sizeof(int), 60 * sizeof(int),
                                hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    CHECK(out[i] == t[60 + i]);

  // A kernel sees what was written.
  hipLaunchKernelGGL(combine, dim3(2), dim3(32), 0, 0);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpyFromSymbol(out, HIP_SYMBOL(results), sizeof(out)));
  for (int i = 0; i < N; i++)
    CHECK(out[i] == (int)(t[i] * c[i % 16] + s));

  // The device address works with the ordinary copy and set functions.
  CHECK_HIP(hipGetSymbolAddress(&addr, HIP_SYMBOL(table)));
  CHECK(addr != nullptr);
  CHECK_HIP(hipMemsetD32(addr, 5, N));
  CHECK_HIP(hipMemcpy(out, addr, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK(out[i] == 5);
  CHECK_HIP(hipMemcpy(addr, t, sizeof(t), hipMemcpyDefault));
  CHECK(hipMemcpy(addr, t, sizeof(t) + 4, hipMemcpyHostToDevice) == hipErrorInvalidValue);

  // Asynchronous forms on a stream, in order.
  CHECK_HIP(hipStreamCreate(&stream));
  for (int i = 0; i < N; i++)
    t[i] = i * i;
  CHECK_HIP(hipMemcpyToSymbolAsync(HIP_SYMBOL(table), t, sizeof(t), 0, hipMemcpyHostToDevice,
                                   stream));
  CHECK_HIP(hipMemcpyFromSymbolAsync(out, HIP_SYMBOL(table), sizeof(out), 0,
                                     hipMemcpyDeviceToHost, stream));
  CHECK_HIP(hipStreamSynchronize(stream));
  for (int i = 0; i < N; i++)
    CHECK(out[i] == i * i);
  // Device to device between two variables.
  CHECK_HIP(hipGetSymbolAddress(&addr, HIP_SYMBOL(table)));
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(results), addr, sizeof(results), 0,
                              hipMemcpyDeviceToDevice));
  CHECK_HIP(hipMemcpyFromSymbol(out, HIP_SYMBOL(results), sizeof(out), 0, hipMemcpyDefault));
  for (int i = 0; i < N; i++)
    CHECK(out[i] == i * i);
  CHECK_HIP(hipStreamDestroy(stream));

  // Errors: too many bytes, too large an offset, the wrong direction.
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), t, sizeof(table) + 4) == hipErrorInvalidValue);
  CHECK(hipMemcpyFromSymbol(out, HIP_SYMBOL(table), sizeof(int), sizeof(table)) ==
        hipErrorInvalidValue);
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), t, 8, sizeof(table) - 4) == hipErrorInvalidValue);
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), t, 4, 0, hipMemcpyDeviceToHost) ==
        hipErrorInvalidMemcpyDirection);
  CHECK(hipMemcpyFromSymbol(out, HIP_SYMBOL(table), 4, 0, hipMemcpyHostToDevice) ==
        hipErrorInvalidMemcpyDirection);
  CHECK(hipMemcpyFromSymbol(nullptr, HIP_SYMBOL(table), 4) == hipErrorInvalidValue);
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), nullptr, 4) == hipErrorInvalidValue);
  std::printf("symbols: ok\n");
  return 0;
}
