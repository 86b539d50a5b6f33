// SPDX-License-Identifier: MIT
// Device-side dynamic memory: malloc/free and new/delete (arrays and an
// object with a constructor and a destructor) inside kernels, by every
// thread at once, and memory allocated in one kernel, kept in global memory
// and freed by a later kernel, as HIP allows. Results are compared with the
// host's arithmetic.
#include "engine_test.h"

struct Counter {
  int base, *log;
  __device__ Counter(int b, int *l) : base(b), log(l) { atomicAdd(&log[0], 1); }
  __device__ ~Counter() { atomicAdd(&log[1], 1); }
  __device__ int twice() const { return 2 * base; }
};

__global__ void scratch(long long *out, int *log) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 1 + i % 50;
  int *a = new int[n];
  double *b = (double *)malloc(n * sizeof(double));
  long long s = 0;
  if (a == nullptr || b == nullptr) {
    out[i] = -1;
    return;
  }
  for (int k = 0; k < n; k++) {
    a[k] = i + k;
    b[k] = 0.5 * k;
  }
  for (int k = 0; k < n; k++)
    s += a[k] + (long long)(2 * b[k]);
  Counter *c = new Counter(i, log);
  s += c->twice();
  delete c;
  delete[] a;
  free(b);
  out[i] = s;
}

__global__ void keep(int **slots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  slots[i] = (int *)malloc(4 * sizeof(int));
  for (int k = 0; k < 4; k++)
    slots[i][k] = i * 4 + k;
}

__global__ void release(int **slots, int *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sums[i] = slots[i][0] + slots[i][1] + slots[i][2] + slots[i][3];
  free(slots[i]);
}

int main() {
  const int blocks = 16, threads = 128, n = blocks * threads;
  long long *dout = nullptr, out[n];
  int *dlog = nullptr, log[2] = {0, 0};

  CHECK_HIP(hipMalloc(&dout, sizeof(out)));
  CHECK_HIP(hipMalloc(&dlog, sizeof(log)));
  CHECK_HIP(hipMemset(dlog, 0, sizeof(log)));
  scratch<<<blocks, threads>>>(dout, dlog);
  CHECK_HIP(hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(log, dlog, sizeof(log), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    long long want = 2LL * i;
    for (int k = 0; k < 1 + i % 50; k++)
      want += i + k + k;
    CHECK_EQ(out[i], want);
  }
  CHECK_EQ(log[0], n); // constructed
  CHECK_EQ(log[1], n); // destroyed

  int **slots = nullptr, *dsums = nullptr, sums[n];
  CHECK_HIP(hipMalloc(&slots, n * sizeof(int *)));
  CHECK_HIP(hipMalloc(&dsums, sizeof(sums)));
  keep<<<blocks, threads>>>(slots);
  release<<<blocks, threads>>>(slots, dsums);
  CHECK_HIP(hipMemcpy(sums, dsums, sizeof(sums), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    CHECK_EQ(sums[i], 16 * i + 6);

  CHECK_HIP(hipFree(dout));
  CHECK_HIP(hipFree(dlog));
  CHECK_HIP(hipFree(slots));
  CHECK_HIP(hipFree(dsums));
  std::printf("passed\n");
  return AH_PASS;
}
