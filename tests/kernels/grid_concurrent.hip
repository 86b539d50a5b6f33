// SPDX-License-Identifier: MIT
// Several grids at once: four host threads, each with its own stream, each
// launch 30 barrier kernels of 16 blocks (the engine runs blocks of different
// grids on the same workers, each block's fibers staying on its worker),
// and one-block kernels in between (which the launching stream's thread may
// run itself). Every result is checked.
#include "engine_test.h"

#include <thread>
#include <vector>

__global__ void scan(int *data, int add) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * 128 + t];
  for (int off = 1; off < 128; off *= 2) {
    __syncthreads();
    int v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
  }
  data[blockIdx.x * 128 + t] = s[t] % 1000 + add;
}

__global__ void bump(int *x) { x[threadIdx.x] += 1; }

static int worker(int id, int *result) {
  hipStream_t s;
  std::vector<int> h(16 * 128), want(16 * 128);
  int *d = nullptr, *c = nullptr, hc[4];
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc(&d, h.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&c, sizeof(hc)));
  for (size_t i = 0; i < h.size(); i++)
    want[i] = h[i] = (int)(i * 7 + id) % 13;
  CHECK_HIP(hipMemcpyAsync(d, h.data(), h.size() * sizeof(int), hipMemcpyHostToDevice, s));
  CHECK_HIP(hipMemsetAsync(c, 0, sizeof(hc), s));
  for (int k = 0; k < 30; k++) {
    scan<<<16, 128, 0, s>>>(d, id);
    bump<<<1, 4, 0, s>>>(c);
    for (int b = 0; b < 16; b++) {
      int acc = 0;
      for (int t = 0; t < 128; t++) {
        acc += want[b * 128 + t];
        want[b * 128 + t] = acc;
      }
      for (int t = 0; t < 128; t++)
        want[b * 128 + t] = want[b * 128 + t] % 1000 + id;
    }
  }
  CHECK_HIP(hipMemcpyAsync(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipMemcpyAsync(hc, c, sizeof(hc), hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipStreamSynchronize(s));
  for (size_t i = 0; i < h.size(); i++)
    CHECK_EQ(h[i], want[i]);
  for (int k = 0; k < 4; k++)
    CHECK_EQ(hc[k], 30);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(c));
  CHECK_HIP(hipStreamDestroy(s));
  *result = AH_PASS;
  return AH_PASS;
}

int main() {
  int results[4] = {AH_FAIL, AH_FAIL, AH_FAIL, AH_FAIL};
  std::vector<std::thread> threads;
  for (int id = 0; id < 4; id++)
    threads.emplace_back([id, &results] { worker(id, &results[id]); });
  for (auto &t : threads)
    t.join();
  for (int id = 0; id < 4; id++)
    CHECK_EQ(results[id], AH_PASS);
  std::printf("passed\n");
  return AH_PASS;
}
