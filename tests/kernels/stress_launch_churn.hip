// SPDX-License-Identifier: MIT
// Host threads that create and destroy streams and events while they launch:
// each iteration fills a buffer on a fresh stream, records an event there and
// destroys the stream at once (its kernel still queued), makes a second
// stream wait for the event (then destroys the event), transforms the buffer
// there with a kernel using shuffles and barriers, records a second event and
// destroys that stream too. The second event must cover everything. Threads
// also query and synchronize the device now and then, and one-block and
// many-block grids alternate so that both launch paths run concurrently.
#include "engine_test.h"

#include <thread>
#include <vector>

static const unsigned kN = 1024;
// Under ThreadSanitizer each GPU thread's fiber is a TSan fiber, made and
// dropped per block: 25 iterations took 6 minutes on 2 cores (0.04 s
// without it), past ctest's limit. Fewer there; every path still runs.
#if defined(__SANITIZE_THREAD__)
static const int kIters = 6;
#else
static const int kIters = 25;
#endif

__global__ void fill(unsigned *buf, unsigned base) {
  __shared__ unsigned s[128];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = base + i;
  __syncthreads();
  buf[i] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void transform(unsigned *out, const unsigned *buf) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = buf[i];
  unsigned w = __shfl_xor(v, 2);
  __syncthreads();
  out[i] = v * 5u + w;
}

static unsigned expect(unsigned i, unsigned base) {
  auto filled = [base](unsigned j) { return base + (j / 128) * 128 + (127 - j % 128); };
  return filled(i) * 5u + filled(i ^ 2u);
}

static int worker(int id, int *result) {
  unsigned *buf, *out;
  std::vector<unsigned> h(kN);
  CHECK_HIP(hipMalloc(&buf, kN * sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&out, kN * sizeof(unsigned)));
  for (int it = 0; it < kIters; it++) {
    hipStream_t s1, s2;
    hipEvent_t e1, e2;
    unsigned base = (unsigned)id * 1000003u + (unsigned)it * 7919u;
    if (it % 2)
      CHECK_HIP(hipStreamCreateWithFlags(&s1, hipStreamNonBlocking));
    else
      CHECK_HIP(hipStreamCreate(&s1));
    CHECK_HIP(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
    CHECK_HIP(hipEventCreateWithFlags(&e1, hipEventDisableTiming));
    CHECK_HIP(hipEventCreate(&e2));
    if (it % 3 == 0) {
      fill<<<kN / 128, 128, 0, s1>>>(buf, base); // many blocks: the worker pool
    } else {
      for (unsigned b = 0; b < kN / 128; b++) // one block each: the stream's thread
        fill<<<1, 128, 0, s1>>>(buf + b * 128, base + b * 128);
    }
    CHECK_HIP(hipGetLastError());
    CHECK_HIP(hipEventRecord(e1, s1));
    CHECK_HIP(hipStreamDestroy(s1));
    CHECK_HIP(hipStreamWaitEvent(s2, e1, 0));
    CHECK_HIP(hipEventDestroy(e1));
    transform<<<kN / 128, 128, 0, s2>>>(out, buf);
    CHECK_HIP(hipGetLastError());
    CHECK_HIP(hipEventRecord(e2, s2));
    CHECK_HIP(hipStreamDestroy(s2));
    hipError_t q = hipEventQuery(e2);
    CHECK(q == hipSuccess || q == hipErrorNotReady);
    if (it % 10 == 9 || it + 1 == kIters) // also the last: every path runs under TSan
      CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipEventSynchronize(e2));
    CHECK_HIP(hipEventQuery(e2));
    CHECK_HIP(hipEventDestroy(e2));
    CHECK_HIP(hipMemcpy(h.data(), out, kN * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (unsigned i = 0; i < kN; i++)
      if (h[i] != expect(i, base)) {
        std::fprintf(stderr, "thread %d iteration %d: out[%u] = %u, expected %u\n", id, it, i,
                     h[i], expect(i, base));
        return AH_FAIL;
      }
  }
  CHECK_HIP(hipFree(buf));
  CHECK_HIP(hipFree(out));
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
  CHECK_HIP(hipDeviceSynchronize());
  std::printf("passed\n");
  return AH_PASS;
}
