// SPDX-License-Identifier: MIT
// AMD's launch extensions and issue 11's memory features, with kernels:
// hipExtLaunchKernelGGL with a struct, mixed scalar types and a template
// kernel named without its template arguments; hipExtLaunchKernel with an
// argument array and start/stop events around the kernel (the events
// complete with it, and time it); hipExtLaunchMultiKernelMultiDevice; a
// kernel held back by hipStreamWaitValue32 until another stream writes the
// word; a kernel writing through one virtual address of a hipMemCreate
// allocation and the host reading through another; the refusals AMD gives.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include "engine_test.h"

#include <vector>

struct Ten {
  double a, b, c, d, e, f, g, h, i, j;
};

__global__ void sum_struct(Ten s, double *out) {
  *out = s.a + s.b + s.c + s.d + s.e + s.f + s.g + s.h + s.i + s.j;
}

__global__ void mixed(char f, int16_t a, int b, double c, int16_t d, int e, double *out) {
  *out = a + b + c + d + e + f;
}

template <typename T> __global__ void vadd(const T *x, const T *y, T *z, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] + y[i];
}

__global__ void spin_then_set(int *p, long long ticks, int v) {
  long long t = wall_clock64();
  while (wall_clock64() - t < ticks) {
  }
  *p = v;
}

__global__ void fill(int *p, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = base + i;
}

int main() {
  double *d, h = 0;
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&d), sizeof(double)));

  // hipExtLaunchKernelGGL: a 80-byte struct by value, mixed scalar types.
  Ten s{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  hipExtLaunchKernelGGL(sum_struct, 1, 1, 0, 0, nullptr, nullptr, 0, s, d);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(&h, d, sizeof(h), hipMemcpyDeviceToHost));
  CHECK_EQ(h, 55.0);
  char ff = 10;
  int16_t a = 2, dd = 4;
  int b = 1, e = 10;
  double c = 3.0;
  hipExtLaunchKernelGGL(mixed, dim3(1), dim3(1), 0, nullptr, nullptr, nullptr, 0, ff, a, b, c,
                        dd, e, d);
  CHECK_HIP(hipMemcpy(&h, d, sizeof(h), hipMemcpyDeviceToHost));
  CHECK_EQ(h, 30.0);

  // A template kernel by name: the specialisation taking the arguments' types.
  const size_t n = 1000;
  int *x, *y, *z;
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&x), n * sizeof(int)));
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&y), n * sizeof(int)));
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&z), n * sizeof(int)));
  std::vector<int> hx(n), hy(n), hz(n);
  for (size_t i = 0; i < n; i++) {
    hx[i] = (int)i;
    hy[i] = (int)(3 * i + 1);
  }
  CHECK_HIP(hipMemcpy(x, hx.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(y, hy.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipEvent_t start, stop;
  CHECK_HIP(hipEventCreate(&start));
  CHECK_HIP(hipEventCreate(&stop));
  hipExtLaunchKernelGGL(vadd, dim3(4), dim3(256), 0, 0, start, stop, 0,
                        static_cast<const int *>(x), static_cast<const int *>(y), z, n);
  CHECK_HIP(hipEventSynchronize(stop));
  CHECK_HIP(hipMemcpy(hz.data(), z, n * sizeof(int), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++)
    CHECK_EQ(hz[i], (int)(4 * i + 1));

  // hipExtLaunchKernel: the stop event completes with the kernel, and the
  // pair times it (a 50 ms kernel takes at least 50 ms).
  int *flag;
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&flag), sizeof(int)));
  CHECK_HIP(hipMemset(flag, 0, sizeof(int)));
  long long ticks = ah_wall_ticks(50);
  int v = 7;
  void *args[] = {&flag, &ticks, &v};
  hipStream_t st;
  CHECK_HIP(hipStreamCreate(&st));
  CHECK_HIP(hipExtLaunchKernel(reinterpret_cast<const void *>(spin_then_set), dim3(1), dim3(1),
                               args, 0, st, start, stop, 0));
  CHECK_HIP(hipEventSynchronize(stop));
  int got = 0;
  CHECK_HIP(hipMemcpy(&got, flag, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_EQ(got, 7);
  float ms = 0;
  CHECK_HIP(hipEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 45.0f);
  // hipExtAnyOrderLaunch is accepted (the order is kept).
  CHECK_HIP(hipExtLaunchKernel(reinterpret_cast<const void *>(spin_then_set), dim3(1), dim3(1),
                               args, 0, st, nullptr, nullptr, hipExtAnyOrderLaunch));
  CHECK_HIP(hipStreamSynchronize(st));

  // AMD's refusals.
  const void *k = reinterpret_cast<const void *>(spin_then_set);
  CHECK_ERR(hipExtLaunchKernel(nullptr, dim3(1), dim3(1), args, 0, st, nullptr, nullptr, 0),
            hipErrorInvalidDeviceFunction);
  CHECK_ERR(hipExtLaunchKernel(k, dim3(0), dim3(1), args, 0, st, nullptr, nullptr, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchKernel(k, dim3(1), dim3(1, 0), args, 0, st, nullptr, nullptr, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchKernel(k, dim3(1), dim3(2048), args, 0, st, nullptr, nullptr, 0),
            hipErrorInvalidConfiguration);
  CHECK_ERR(hipExtLaunchKernel(k, dim3(1), dim3(1), args, 1 << 30, st, nullptr, nullptr, 0),
            hipErrorOutOfMemory);
  CHECK_ERR(hipExtLaunchKernel(k, dim3(1), dim3(1), args, 0, st, nullptr, nullptr, 2),
            hipErrorInvalidValue);
  hipEvent_t gone;
  CHECK_HIP(hipEventCreate(&gone));
  CHECK_HIP(hipEventDestroy(gone));
  CHECK_ERR(hipExtLaunchKernel(k, dim3(1), dim3(1), args, 0, st, gone, nullptr, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchKernel(k, dim3(1), dim3(1), args, 0, st, nullptr, gone, 0),
            hipErrorInvalidValue);
  hipStream_t dead;
  CHECK_HIP(hipStreamCreate(&dead));
  CHECK_HIP(hipStreamDestroy(dead));
  CHECK_ERR(hipExtLaunchKernel(k, dim3(1), dim3(1), args, 0, dead, nullptr, nullptr, 0),
            hipErrorInvalidValue);

  // hipExtLaunchMultiKernelMultiDevice on every device (one here, or more).
  int ndev = 0;
  CHECK_HIP(hipGetDeviceCount(&ndev));
  if (ndev > 8)
    ndev = 8;
  std::vector<hipLaunchParams> lp(ndev);
  std::vector<hipStream_t> streams(ndev);
  std::vector<int *> outs(ndev);
  std::vector<int> bases(ndev);
  for (int i = 0; i < ndev; i++) {
    CHECK_HIP(hipSetDevice(i));
    CHECK_HIP(hipStreamCreate(&streams[i]));
    CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&outs[i]), 256 * sizeof(int)));
    bases[i] = 1000 * (i + 1);
  }
  std::vector<void *> argv(2 * ndev);
  for (int i = 0; i < ndev; i++) {
    argv[2 * i] = &outs[i];
    argv[2 * i + 1] = &bases[i];
    lp[i].func = reinterpret_cast<void *>(fill);
    lp[i].gridDim = dim3(2);
    lp[i].blockDim = dim3(128);
    lp[i].args = &argv[2 * i];
    lp[i].sharedMem = 0;
    lp[i].stream = streams[i];
  }
  CHECK_HIP(hipSetDevice(0));
  CHECK_HIP(hipExtLaunchMultiKernelMultiDevice(lp.data(), ndev, 0));
  for (int i = 0; i < ndev; i++) {
    std::vector<int> back(256);
    CHECK_HIP(hipStreamSynchronize(streams[i]));
    CHECK_HIP(hipMemcpy(back.data(), outs[i], 256 * sizeof(int), hipMemcpyDeviceToHost));
    for (int j = 0; j < 256; j++)
      CHECK_EQ(back[j], bases[i] + j);
  }
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(nullptr, 1, 0), hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(lp.data(), 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(lp.data(), ndev, 4), hipErrorInvalidValue);

  // A kernel behind hipStreamWaitValue32 runs only once another stream has
  // written the word.
  int attr = 0;
  CHECK_HIP(hipDeviceGetAttribute(&attr, hipDeviceAttributeCanUseStreamWaitValue, 0));
  if (attr) {
    uint32_t *word;
    hipStream_t other, held;
    // Non-blocking: the null stream's copies below must not wait for it.
    CHECK_HIP(hipStreamCreateWithFlags(&held, hipStreamNonBlocking));
    CHECK_HIP(hipHostMalloc(reinterpret_cast<void **>(&word), sizeof(uint32_t), 0));
    *word = 0;
    CHECK_HIP(hipStreamCreateWithFlags(&other, hipStreamNonBlocking));
    CHECK_HIP(hipMemset(flag, 0, sizeof(int)));
    CHECK_HIP(hipStreamWaitValue32(held, word, 5, hipStreamWaitValueGte, 0xffffffffu));
    long long zero = 0;
    int nine = 9;
    void *a2[] = {&flag, &zero, &nine};
    CHECK_HIP(hipExtLaunchKernel(k, dim3(1), dim3(1), a2, 0, held, nullptr, nullptr, 0));
    usleep(30000);
    CHECK_ERR(hipStreamQuery(held), hipErrorNotReady);
    CHECK_HIP(hipMemcpy(&got, flag, sizeof(int), hipMemcpyDeviceToHost));
    CHECK_EQ(got, 0);
    CHECK_HIP(hipStreamWriteValue32(other, word, 6, 0));
    CHECK_HIP(hipStreamSynchronize(held));
    CHECK_HIP(hipMemcpy(&got, flag, sizeof(int), hipMemcpyDeviceToHost));
    CHECK_EQ(got, 9);
    CHECK_HIP(hipStreamDestroy(other));
    CHECK_HIP(hipStreamDestroy(held));
    CHECK_HIP(hipHostFree(word));
  }

  // A kernel writes through one virtual address of an allocation; the host
  // reads the same bytes through another.
  CHECK_HIP(hipDeviceGetAttribute(&attr, hipDeviceAttributeVirtualMemoryManagementSupported, 0));
  if (attr) {
    hipMemAllocationProp prop = {};
    prop.type = hipMemAllocationTypePinned;
    prop.location.type = hipMemLocationTypeDevice;
    prop.location.id = 0;
    size_t g = 0;
    CHECK_HIP(hipMemGetAllocationGranularity(&g, &prop, hipMemAllocationGranularityMinimum));
    size_t size = (256 * sizeof(int) + g - 1) / g * g;
    hipMemGenericAllocationHandle_t mh;
    CHECK_HIP(hipMemCreate(&mh, size, &prop, 0));
    void *va, *vb;
    CHECK_HIP(hipMemAddressReserve(&va, size, 0, nullptr, 0));
    CHECK_HIP(hipMemAddressReserve(&vb, size, 0, nullptr, 0));
    CHECK_HIP(hipMemMap(va, size, 0, mh, 0));
    CHECK_HIP(hipMemMap(vb, size, 0, mh, 0));
    hipMemAccessDesc acc = {};
    acc.location.type = hipMemLocationTypeDevice;
    acc.location.id = 0;
    acc.flags = hipMemAccessFlagsProtReadWrite;
    CHECK_HIP(hipMemSetAccess(va, size, &acc, 1));
    CHECK_HIP(hipMemSetAccess(vb, size, &acc, 1));
    fill<<<2, 128>>>(static_cast<int *>(va), 42);
    CHECK_HIP(hipDeviceSynchronize());
    std::vector<int> back(256);
    CHECK_HIP(hipMemcpy(back.data(), vb, 256 * sizeof(int), hipMemcpyDeviceToHost));
    for (int j = 0; j < 256; j++)
      CHECK_EQ(back[j], 42 + j);
    CHECK_HIP(hipMemUnmap(va, size));
    CHECK_HIP(hipMemUnmap(vb, size));
    CHECK_HIP(hipMemAddressFree(va, size));
    CHECK_HIP(hipMemAddressFree(vb, size));
    CHECK_HIP(hipMemRelease(mh));
  }
  std::printf("ext launches ok\n");
  return 0;
}
