// SPDX-License-Identifier: MIT
// How the synchronous copies and sets order with the null stream, as ROCm's unit suite checks
// it (a 100 ms kernel, then the call, then hipStreamQuery of the null stream):
// hipMemcpy from pageable host memory returns after the earlier work has finished, and so does
// a copy between host buffers, hipMemcpyAsync between pinned buffers included (CUDA's rule: "for
// transfers from any host memory to any host memory, the function is fully synchronous with
// respect to the host"); hipMemset of device memory is asynchronous with respect to the
// host (hipErrorNotReady right after), and still ordered: a following hipMemcpy sees the bytes;
// so is hipMemcpy between device buffers unless HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS is set.
#include "engine_test.h"

__global__ void delay(long long ticks) {
  long long t = wall_clock64();
  while (wall_clock64() - t < ticks) {
  }
}


int main() {
  const long long k100ms = ah_wall_ticks(100);
  char *pageable = static_cast<char *>(malloc(4096)), *p2 = static_cast<char *>(malloc(4096));
  char *pinned, *pinned2, *dev;
  CHECK_HIP(hipHostMalloc(reinterpret_cast<void **>(&pinned), 4096, 0));
  CHECK_HIP(hipHostMalloc(reinterpret_cast<void **>(&pinned2), 4096, 0));
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&dev), 4096));
  memset(pageable, 7, 4096);

  delay<<<1, 1>>>(k100ms);
  CHECK_HIP(hipMemcpy(dev, pageable, 4096, hipMemcpyHostToDevice));
  CHECK_HIP(hipStreamQuery(nullptr));

  delay<<<1, 1>>>(k100ms);
  CHECK_HIP(hipMemcpy(p2, pageable, 4096, hipMemcpyHostToHost));
  CHECK_HIP(hipStreamQuery(nullptr));

  delay<<<1, 1>>>(k100ms);
  CHECK_HIP(hipMemcpy(pinned2, pinned, 4096, hipMemcpyHostToHost));
  CHECK_HIP(hipStreamQuery(nullptr));

  // Async between pinned buffers, on the null stream and on a stream of its own.
  hipStream_t s;
  CHECK_HIP(hipStreamCreate(&s));
  memset(pinned, 9, 4096);
  delay<<<1, 1>>>(k100ms);
  CHECK_HIP(hipMemcpyAsync(pinned2, pinned, 4096, hipMemcpyHostToHost, nullptr));
  CHECK_HIP(hipStreamQuery(nullptr));
  CHECK_EQ(pinned2[4095], 9);
  memset(pinned, 11, 4096);
  delay<<<1, 1, 0, s>>>(k100ms);
  CHECK_HIP(hipMemcpyAsync(pinned2, pinned, 4096, hipMemcpyDefault, s));
  CHECK_HIP(hipStreamQuery(s));
  CHECK_EQ(pinned2[0], 11);
  // From an array (device memory) into pinned memory: asynchronous still.
  hipArray_t arr;
  hipChannelFormatDesc desc = hipCreateChannelDesc<unsigned char>();
  CHECK_HIP(hipMallocArray(&arr, &desc, 4096, 1, 0));
  delay<<<1, 1, 0, s>>>(k100ms);
  CHECK_HIP(hipMemcpy2DFromArrayAsync(pinned2, 4096, arr, 0, 0, 4096, 1, hipMemcpyDeviceToHost, s));
  CHECK_ERR(hipStreamQuery(s), hipErrorNotReady);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipFreeArray(arr));
  CHECK_HIP(hipStreamDestroy(s));

  delay<<<1, 1>>>(k100ms);
  CHECK_HIP(hipMemset(dev, 3, 4096));
  CHECK_ERR(hipStreamQuery(nullptr), hipErrorNotReady);
  CHECK_HIP(hipMemcpy(pageable, dev, 4096, hipMemcpyDeviceToHost));
  CHECK_EQ(pageable[0], 3);
  CHECK_EQ(pageable[4095], 3);

  // hipMemcpy between device buffers does not wait for the copy (CUDA's rule), so it returns
  // while a blocking stream's kernel it is ordered after still runs; with
  // HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS set on either buffer it waits.
  char *dev2;
  CHECK_HIP(hipMalloc(reinterpret_cast<void **>(&dev2), 4096));
  hipStream_t blocking;
  CHECK_HIP(hipStreamCreate(&blocking));
  bool flag = true;
  CHECK_HIP(hipPointerGetAttribute(&flag, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                                   reinterpret_cast<hipDeviceptr_t>(dev2)));
  CHECK(!flag);
  delay<<<1, 1, 0, blocking>>>(k100ms);
  CHECK_HIP(hipMemcpy(dev2, dev, 4096, hipMemcpyDeviceToDevice));
  CHECK_ERR(hipStreamQuery(blocking), hipErrorNotReady);
  CHECK_HIP(hipMemcpy(pageable, dev2, 4096, hipMemcpyDeviceToHost)); // ordered after it
  CHECK_EQ(pageable[4095], 3);
  int one = 1;
  CHECK_HIP(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                                   reinterpret_cast<hipDeviceptr_t>(dev2)));
  CHECK_HIP(hipPointerGetAttribute(&flag, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                                   reinterpret_cast<hipDeviceptr_t>(dev2)));
  CHECK(flag);
  delay<<<1, 1, 0, blocking>>>(k100ms);
  CHECK_HIP(hipMemcpy(dev2, dev, 4096, hipMemcpyDeviceToDevice));
  CHECK_HIP(hipStreamQuery(blocking));
  CHECK_HIP(hipStreamDestroy(blocking));
  CHECK_HIP(hipFree(dev2));

  // Pinned memory is set by return.
  delay<<<1, 1>>>(k100ms);
  CHECK_HIP(hipMemset(pinned, 5, 4096));
  CHECK_HIP(hipStreamQuery(nullptr));
  CHECK_EQ(pinned[100], 5);

  CHECK_HIP(hipFree(dev));
  CHECK_HIP(hipHostFree(pinned));
  CHECK_HIP(hipHostFree(pinned2));
  free(pageable);
  free(p2);
  printf("compat_sync: ok\n");
  return 0;
}
