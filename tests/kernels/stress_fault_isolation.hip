// SPDX-License-Identifier: MIT
// A kernel fault while other grids run. Grid B (many blocks, barriers) is
// running when grid A, on another stream, faults in every block: B must
// still complete with every result right, even though the device's error is
// sticky afterwards. With two virtual CPU devices (set up here through
// ANYHIP_CPU_DEVICES), the faulting device is isolated from the other: the
// worker pool they share recovers from the faults (siglongjmp out of fiber
// stacks) and keeps running the other device's grids correctly, round after
// round, and the faulting device works again after hipDeviceReset.
#include "engine_test.h"

#include <vector>

// A bound on every wait, so that a bug fails instead of hanging: clock64()
// ticks, 5 s on the CPU device (nanoseconds), about 3 s on a GPU (cycles).
#define HOLD_TICKS 5000000000LL

__global__ void hold_then_work(unsigned *out, int *started, int *go, unsigned salt) {
  __shared__ unsigned s[128];
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    atomicExch(started, 1);
    long long t0 = clock64();
    while (atomicAdd(go, 0) == 0 && clock64() - t0 < HOLD_TICKS) {
    }
  }
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i * 2654435761u + salt;
  __syncthreads();
  out[i] = s[blockDim.x - 1 - threadIdx.x] ^ 0x5a5a5a5au;
}

static unsigned expect_work(unsigned i, unsigned block, unsigned salt) {
  unsigned b = i / block, t = i % block;
  unsigned j = b * block + (block - 1 - t);
  return (j * 2654435761u + salt) ^ 0x5a5a5a5au;
}

// Every block: wait until B has started, let it go, then store through a
// null pointer (thread 0 of the block).
__global__ void wait_then_fault(int *started, int *go, int *null_ptr) {
  if (threadIdx.x == 0) {
    long long t0 = clock64();
    while (atomicAdd(started, 0) == 0 && clock64() - t0 < HOLD_TICKS) {
    }
    atomicExch(go, 1);
    null_ptr[blockIdx.x] = 1;
  }
}

__global__ void shuffle_sum(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  unsigned w = __shfl_xor(v, 1);
  __syncthreads();
  out[i] = v * 3u + w;
}

static const unsigned kBlocks = 32, kBlock = 128, kN = kBlocks * kBlock;

// Runs B (on stream sb, device db) against a faulting A (stream sa, device
// da); returns 0 when B's results are right and A reported its fault.
static int run_pair(int da, hipStream_t sa, int db, hipStream_t sb, unsigned *out, int *flags,
                    unsigned salt) {
  flags[0] = flags[1] = 0;
  CHECK_HIP(hipSetDevice(db));
  hold_then_work<<<kBlocks, kBlock, 0, sb>>>(out, &flags[0], &flags[1], salt);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipSetDevice(da));
  wait_then_fault<<<16, 32, 0, sa>>>(&flags[0], &flags[1], nullptr);
  CHECK_HIP(hipGetLastError());
  CHECK_ERR(hipStreamSynchronize(sa), hipErrorLaunchFailure);
  CHECK_HIP(hipSetDevice(db));
  hipError_t eb = hipStreamSynchronize(sb); // sticky if da == db, but it waits either way
  if (da != db)
    CHECK_HIP(eb);
  else
    CHECK_ERR(eb, hipErrorLaunchFailure);
  CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure); // the syncs above, not a launch
  CHECK_EQ(flags[0], 1);
  CHECK_EQ(flags[1], 1);
  for (unsigned i = 0; i < kN; i++)
    if (out[i] != expect_work(i, kBlock, salt)) {
      std::fprintf(stderr, "B's element %u is %u, expected %u\n", i, out[i],
                   expect_work(i, kBlock, salt));
      return AH_FAIL;
    }
  return AH_PASS;
}

// Grids with barriers and shuffles on device `dev` give the right results.
static int check_device_works(int dev, int rounds) {
  unsigned *in, *out;
  std::vector<unsigned> h(kN);
  hipStream_t s;
  CHECK_HIP(hipSetDevice(dev));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc(&in, kN * sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&out, kN * sizeof(unsigned)));
  for (unsigned i = 0; i < kN; i++)
    h[i] = i * 7u + (unsigned)dev;
  CHECK_HIP(hipMemcpyAsync(in, h.data(), kN * sizeof(unsigned), hipMemcpyHostToDevice, s));
  for (int r = 0; r < rounds; r++) {
    shuffle_sum<<<kBlocks, kBlock, 0, s>>>(in, out);
    shuffle_sum<<<kBlocks, kBlock, 0, s>>>(out, in);
  }
  CHECK_HIP(hipMemcpyAsync(h.data(), in, kN * sizeof(unsigned), hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipStreamSynchronize(s));
  std::vector<unsigned> ref(kN), tmp(kN);
  for (unsigned i = 0; i < kN; i++)
    ref[i] = i * 7u + (unsigned)dev;
  for (int r = 0; r < 2 * rounds; r++) {
    for (unsigned i = 0; i < kN; i++)
      tmp[i] = ref[i] * 3u + ref[i ^ 1u];
    ref.swap(tmp);
  }
  for (unsigned i = 0; i < kN; i++)
    CHECK_EQ(h[i], ref[i]);
  CHECK_HIP(hipFree(in));
  CHECK_HIP(hipFree(out));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

int main() {
  if (std::getenv("ANYHIP_CPU_DEVICES") == nullptr)
    setenv("ANYHIP_CPU_DEVICES", "2", 1);
  if (!ah_on_cpu_device()) {
    std::printf("skipped: faults are recoverable on the CPU device only\n");
    return AH_SKIP;
  }
  int ndev = 0;
  CHECK_HIP(hipGetDeviceCount(&ndev));
  // Plain host memory (the CPU device reaches it directly): hipDeviceReset
  // below would free the device's own allocations.
  std::vector<unsigned> out_v(kN);
  std::vector<int> flags_v(2);
  unsigned *out = out_v.data();
  int *flags = flags_v.data();
  std::fprintf(stderr, "(fault reports for kernel 'wait_then_fault' are expected below)\n");

  // One device: B, already running, completes right although the device
  // becomes sticky.
  {
    hipStream_t sa, sb;
    CHECK_HIP(hipSetDevice(0));
    CHECK_HIP(hipStreamCreate(&sa));
    CHECK_HIP(hipStreamCreateWithFlags(&sb, hipStreamNonBlocking));
    CHECK_EQ(run_pair(0, sa, 0, sb, out, flags, 11u), AH_PASS);
    CHECK_HIP(hipSetDevice(0));
    CHECK_HIP(hipDeviceReset()); // destroys sa and sb, clears the fault
    CHECK_EQ(check_device_works(0, 3), AH_PASS);
  }

  if (ndev < 2) {
    std::printf("one device only: the two-device rounds did not run\n");
    std::printf("passed\n");
    return AH_PASS;
  }

  // Two devices: device 0 faults round after round while device 1 works.
  hipStream_t s1;
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipStreamCreate(&s1));
  for (unsigned round = 0; round < 4; round++) {
    hipStream_t s0;
    CHECK_HIP(hipSetDevice(0));
    CHECK_HIP(hipStreamCreate(&s0));
    CHECK_EQ(run_pair(0, s0, 1, s1, out, flags, 100u + round), AH_PASS);
    CHECK_EQ(check_device_works(1, 1), AH_PASS);
    CHECK_HIP(hipSetDevice(0));
    CHECK_ERR(hipDeviceSynchronize(), hipErrorLaunchFailure);
    CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure);
    CHECK_HIP(hipDeviceReset());
  }
  CHECK_EQ(check_device_works(0, 2), AH_PASS);
  CHECK_EQ(check_device_works(1, 2), AH_PASS);
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipStreamDestroy(s1));
  std::printf("passed\n");
  return AH_PASS;
}
