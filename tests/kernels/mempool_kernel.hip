// SPDX-License-Identifier: MIT
// Kernels on stream-ordered memory: the guide's SOMA example (hipMallocAsync
// on the null stream, a kernel writes data[i] = 2i, copy back, hipFreeAsync),
// the explicit-pool variant on a created stream, and a loop that allocates,
// computes and frees on one stream without synchronizing, so freed blocks are
// handed out again while the stream is still behind. Checked against a CPU
// reference.
#include <hip/hip_runtime.h>

#include <vector>

#include "ah_test.h"

__global__ void twice(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = 2 * i;
}

__global__ void axpy(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static int guide_default_pool() {
  const int n = 1024;
  std::vector<int> h(n);
  int *d = nullptr;

  CHECK_HIP(hipMallocAsync(&d, n * sizeof(int), 0));
  twice<<<(n + 255) / 256, 256>>>(d, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFreeAsync(d, 0));
  CHECK_HIP(hipDeviceSynchronize());
  for (int i = 0; i < n; i++)
    CHECK_EQ(h[i], 2 * i);
  return AH_PASS;
}

static int guide_explicit_pool() {
  const int n = 1024;
  hipMemPoolProps props = {};
  hipMemPool_t pool;
  hipStream_t s;
  std::vector<int> h(n);
  int *d = nullptr;

  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  CHECK_HIP(hipMemPoolCreate(&pool, &props));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocFromPoolAsync(&d, n * sizeof(int), pool, s));
  twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFreeAsync(d, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  CHECK_HIP(hipStreamDestroy(s));
  for (int i = 0; i < n; i++)
    CHECK_EQ(h[i], 2 * i);
  return AH_PASS;
}

// Each round allocates two buffers, fills them, runs a kernel and copies the
// result out, then frees both; nothing waits until the end.
static int rounds_without_sync() {
  const int n = 5000, rounds = 20;
  hipStream_t s;
  hipMemPool_t pool;
  float *out = nullptr;
  std::vector<float> x(n);
  uint64_t reserved = 0;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipHostMalloc(&out, (size_t)rounds * n * sizeof(float), 0));
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 97);
  for (int r = 0; r < rounds; r++) {
    float *dx = nullptr, *dy = nullptr;
    CHECK_HIP(hipMallocAsync(&dx, n * sizeof(float), s));
    CHECK_HIP(hipMallocAsync(&dy, n * sizeof(float), s));
    CHECK_HIP(hipMemcpyAsync(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice, s));
    CHECK_HIP(hipMemsetD32Async(dy, 0x3f800000, n, s)); // 1.0f
    axpy<<<(n + 127) / 128, 128, 0, s>>>(dx, dy, (float)r, n);
    CHECK_HIP(hipMemcpyAsync(out + (size_t)r * n, dy, n * sizeof(float), hipMemcpyDeviceToHost,
                             s));
    CHECK_HIP(hipFreeAsync(dx, s));
    CHECK_HIP(hipFreeAsync(dy, s));
  }
  // Same-stream reuse keeps the pool at two buffers' worth.
  CHECK_HIP(hipDeviceGetMemPool(&pool, 0));
  CHECK_HIP(hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemHigh, &reserved));
  CHECK(reserved <= 2 * ((n * sizeof(float) + 255) / 256 * 256));
  CHECK_HIP(hipStreamSynchronize(s));
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < n; i++)
      CHECK_EQ(out[(size_t)r * n + i], (float)r * (float)(i % 97) + 1.0f);
  CHECK_HIP(hipHostFree(out));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

int main() {
  if (guide_default_pool() != AH_PASS || guide_explicit_pool() != AH_PASS ||
      rounds_without_sync() != AH_PASS)
    return 1;
  std::printf("mempool_kernel: ok\n");
  return 0;
}
