// SPDX-License-Identifier: MIT
// Random programs of kernels (plain, with barriers, with warp shuffles, one
// block or many), copies, sets, host functions and event waits over four
// streams with the null stream in between, checked against a sequential
// reference computed on the host. Every operation is ordered after the
// earlier accesses to the arrays it touches only by what HIP guarantees:
// FIFO order on a stream, the null stream's rules for blocking streams, and
// hipStreamWaitEvent on an event re-recorded each time (a wait holds the
// record current when it was made). The streams start held by a host
// function, so the queues fill up and dependencies decide the order. Two
// host threads run programs at once (sharing the null stream) while a third
// calls hipDeviceSynchronize over and over.
#include "engine_test.h"

#include <atomic>
#include <pthread.h>
#include <thread>
#include <vector>

#include <condition_variable>
#include <mutex>

static const unsigned kN = 1024;
static const int kDev = 6, kHost = 3, kStreams = 5, kOps = 120;

__global__ void k_plain(unsigned *dst, const unsigned *src, unsigned a, unsigned b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i] * a + b;
}

__global__ void k_reverse(unsigned *dst, const unsigned *src, unsigned a, unsigned b) {
  __shared__ unsigned s[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = src[i];
  __syncthreads();
  dst[i] = s[blockDim.x - 1 - threadIdx.x] * a + b;
}

__global__ void k_pairs(unsigned *dst, const unsigned *src, unsigned a, unsigned b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = src[i];
  unsigned w = __shfl_xor(v, 1);
  dst[i] = (v + w) * a + b;
}

// One block striding over the array: the launching stream's thread runs it.
__global__ void k_single(unsigned *dst, const unsigned *src, unsigned a, unsigned b, unsigned n) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    dst[i] = src[i] + a * i + b;
}

enum Kind { PLAIN, REVERSE, PAIRS, SINGLE, COPY_DD, COPY_DH, COPY_HD, SET_D, HOST_FN, NKINDS };

struct Op {
  Kind kind;
  int dst, src; // array numbers: device 0..kDev-1, host kDev..kDev+kHost-1
  unsigned a, b, block;
  unsigned *host; // HOST_FN: the host array
};

static void host_affine(void *p) {
  Op *o = static_cast<Op *>(p);
  for (unsigned i = 0; i < kN; i++)
    o->host[i] = o->host[i] * o->a + i;
}

static void reference(std::vector<std::vector<unsigned>> &v, const Op &o) {
  std::vector<unsigned> &d = v[o.dst];
  const std::vector<unsigned> src = o.src >= 0 ? v[o.src] : std::vector<unsigned>();
  for (unsigned i = 0; i < kN; i++) {
    switch (o.kind) {
    case PLAIN:
      d[i] = src[i] * o.a + o.b;
      break;
    case REVERSE: {
      unsigned blk = i / o.block, t = i % o.block;
      d[i] = src[blk * o.block + (o.block - 1 - t)] * o.a + o.b;
      break;
    }
    case PAIRS:
      d[i] = (src[i] + src[i ^ 1u]) * o.a + o.b;
      break;
    case SINGLE:
      d[i] = src[i] + o.a * i + o.b;
      break;
    case SET_D:
      d[i] = o.a;
      break;
    case HOST_FN:
      d[i] = d[i] * o.a + i;
      break;
    default: // copies
      d[i] = src[i];
      break;
    }
  }
}

struct Gate {
  std::mutex m;
  std::condition_variable c;
  bool open = false;
};

static void gate_fn(void *p) {
  Gate *g = static_cast<Gate *>(p);
  std::unique_lock<std::mutex> l(g->m);
  g->c.wait(l, [g] { return g->open; });
}

static unsigned rnd(unsigned &s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

static bool blocking(int s) { return s == 1 || s == 3; } // 0 is the null stream

static bool implied(int from, int to) {
  if (from == to)
    return true;
  if (to == 0)
    return blocking(from);
  if (from == 0)
    return blocking(to);
  return false;
}

// With `phase` set, the threads running programs at once meet there before
// holding their streams and again once all are released: allocating,
// copying synchronously and freeing then never happen while another thread
// holds a stream it has yet to release. On NVIDIA, the driver holds up every
// thread's calls during such a call that waits for the device (as with
// cudaMemcpy, cudaFree), so a thread holding its gate would block.
static int program(unsigned seed, pthread_barrier_t *phase) {
  hipStream_t st[kStreams];
  hipEvent_t ev[kStreams];
  std::vector<unsigned *> arr(kDev + kHost);
  std::vector<std::vector<unsigned>> ref(kDev + kHost, std::vector<unsigned>(kN));
  std::vector<Op> ops(kOps);
  std::vector<int> last(kDev + kHost, 0);
  Gate gate;

  st[0] = seed % 2 ? hipStreamLegacy : nullptr;
  CHECK_HIP(hipStreamCreate(&st[1]));
  CHECK_HIP(hipStreamCreateWithFlags(&st[2], hipStreamNonBlocking));
  st[3] = hipStreamPerThread;
  CHECK_HIP(hipStreamCreateWithPriority(&st[4], hipStreamNonBlocking, -1));
  for (int s = 0; s < kStreams; s++)
    CHECK_HIP(hipEventCreateWithFlags(&ev[s], hipEventDisableTiming));
  for (int k = 0; k < kDev + kHost; k++) {
    if (k < kDev)
      CHECK_HIP(hipMalloc(&arr[k], kN * sizeof(unsigned)));
    else
      CHECK_HIP(hipHostMalloc(&arr[k], kN * sizeof(unsigned), 0));
    for (unsigned i = 0; i < kN; i++)
      ref[k][i] = i * 2654435761u + (unsigned)k + seed;
    CHECK_HIP(hipMemcpy(arr[k], ref[k].data(), kN * sizeof(unsigned), hipMemcpyDefault));
  }
  if (phase != nullptr)
    pthread_barrier_wait(phase);
  for (int s = 1; s < kStreams; s++)
    CHECK_HIP(hipLaunchHostFunc(st[s], gate_fn, &gate));

  for (int n = 0; n < kOps; n++) {
    Op &o = ops[n];
    int s = (int)(rnd(seed) % kStreams);
    o.kind = (Kind)(rnd(seed) % NKINDS);
    o.a = rnd(seed) | 1u;
    o.b = rnd(seed);
    static const unsigned blocks[] = {64, 128, 256};
    o.block = blocks[rnd(seed) % 3];
    o.src = -1;
    switch (o.kind) {
    case COPY_DH:
      o.dst = kDev + (int)(rnd(seed) % kHost);
      o.src = (int)(rnd(seed) % kDev);
      break;
    case COPY_HD:
      o.dst = (int)(rnd(seed) % kDev);
      o.src = kDev + (int)(rnd(seed) % kHost);
      break;
    case HOST_FN:
      o.dst = kDev + (int)(rnd(seed) % kHost);
      o.host = arr[o.dst];
      break;
    case SET_D:
      o.dst = (int)(rnd(seed) % kDev);
      break;
    default: // kernels and device copies: two different device arrays
      o.dst = (int)(rnd(seed) % kDev);
      o.src = (o.dst + 1 + (int)(rnd(seed) % (kDev - 1))) % kDev;
      break;
    }
    int uses[2] = {o.dst, o.src};
    for (int u : uses) {
      if (u < 0 || implied(last[u], s))
        continue;
      CHECK_HIP(hipEventRecord(ev[last[u]], st[last[u]]));
      CHECK_HIP(hipStreamWaitEvent(st[s], ev[last[u]], 0));
    }
    unsigned *d = arr[o.dst], *src = o.src >= 0 ? arr[o.src] : nullptr;
    switch (o.kind) {
    case PLAIN:
      k_plain<<<kN / o.block, o.block, 0, st[s]>>>(d, src, o.a, o.b);
      break;
    case REVERSE:
      k_reverse<<<kN / o.block, o.block, 0, st[s]>>>(d, src, o.a, o.b);
      break;
    case PAIRS:
      hipLaunchKernelGGL(k_pairs, dim3(kN / o.block), dim3(o.block), 0, st[s], d, src, o.a, o.b);
      break;
    case SINGLE:
      k_single<<<1, o.block, 0, st[s]>>>(d, src, o.a, o.b, kN);
      break;
    case SET_D:
      CHECK_HIP(hipMemsetD32Async((hipDeviceptr_t)d, (int)o.a, kN, st[s]));
      break;
    case HOST_FN:
      CHECK_HIP(hipLaunchHostFunc(st[s], host_affine, &o));
      break;
    default:
      CHECK_HIP(hipMemcpyAsync(d, src, kN * sizeof(unsigned), hipMemcpyDefault, st[s]));
      break;
    }
    CHECK_HIP(hipGetLastError());
    for (int u : uses)
      if (u >= 0)
        last[u] = s;
    reference(ref, o);
  }
  {
    std::lock_guard<std::mutex> l(gate.m);
    gate.open = true;
  }
  gate.c.notify_all();
  if (phase != nullptr)
    pthread_barrier_wait(phase);
  CHECK_HIP(hipDeviceSynchronize());
  std::vector<unsigned> h(kN);
  for (int k = 0; k < kDev + kHost; k++) {
    CHECK_HIP(hipMemcpy(h.data(), arr[k], kN * sizeof(unsigned), hipMemcpyDefault));
    for (unsigned i = 0; i < kN; i++)
      if (h[i] != ref[k][i]) {
        std::fprintf(stderr, "seed %u: array %d element %u is %u, expected %u\n", seed, k, i,
                     h[i], ref[k][i]);
        return AH_FAIL;
      }
  }
  for (int k = 0; k < kDev + kHost; k++)
    CHECK_HIP(k < kDev ? hipFree(arr[k]) : hipHostFree(arr[k]));
  for (int s = 0; s < kStreams; s++)
    CHECK_HIP(hipEventDestroy(ev[s]));
  CHECK_HIP(hipStreamDestroy(st[1]));
  CHECK_HIP(hipStreamDestroy(st[2]));
  CHECK_HIP(hipStreamDestroy(st[4]));
  return AH_PASS;
}

int main() {
  // One thread first, then two at once with a third synchronizing the device.
  for (unsigned seed = 1; seed <= 2; seed++)
    CHECK_EQ(program(seed * 0x9e3779b9u, nullptr), AH_PASS);
  std::atomic<int> done{0}, sync_errors{0};
  int results[2] = {AH_FAIL, AH_FAIL};
  std::vector<std::thread> threads;
  pthread_barrier_t phase;
  CHECK_EQ(pthread_barrier_init(&phase, nullptr, 2), 0);
  for (int t = 0; t < 2; t++)
    threads.emplace_back([t, &results, &done, &phase] {
      int r = AH_PASS;
      for (unsigned k = 0; k < 2; k++) // both rounds: the other thread meets this one
        if (program(1000u + (unsigned)t * 77u + k * 13u, &phase) != AH_PASS)
          r = AH_FAIL;
      results[t] = r;
      done++;
    });
  threads.emplace_back([&done, &sync_errors] {
    while (done.load() < 2)
      if (hipDeviceSynchronize() != hipSuccess)
        sync_errors++;
  });
  for (auto &t : threads)
    t.join();
  pthread_barrier_destroy(&phase);
  CHECK_EQ(results[0], AH_PASS);
  CHECK_EQ(results[1], AH_PASS);
  CHECK_EQ(sync_errors.load(), 0);
  std::printf("passed\n");
  return AH_PASS;
}
