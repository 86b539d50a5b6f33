// SPDX-License-Identifier: MIT
// The CPU engine's side of compiled block functions (hip/anyhip/cpu/
// block_abi.h), before the kernel compiler exists: each kernel here comes
// with a block function written by hand the way the plugin would write it
// (loops over the block's threads, split at barriers and warp functions,
// values that live across a split in `frame`), registered with
// __ahCpuRegisterBlock from a constructor. The per-thread kernels are
// launched as usual; the engine runs the block functions instead, and the
// results must match CPU reference loops. Kernels: barrier-free (2-D
// blocks), __syncthreads in a loop, an early return before barriers with
// __syncthreads_count, __syncthreads_count/_and/_or (one with the op stored
// per thread), a __shfl_down reduction (partial last warp), and a warp
// function inside `if (warp == 0)` followed by __activemask in a branch,
// a ballot where the two halves of a warp pass different masks (the op
// stored per thread), and a cooperative launch.
// The program runs four times: warp size 64 and 32, with block functions
// and with ANYHIP_CPU_COMPILED=0 (fibers), checking
// __ah_cpu_blocks_compiled() each time. CPU device only.
#include "engine_test.h"

#include <vector>

__global__ void plain2d(int *out) {
  int b = blockIdx.x + gridDim.x * blockIdx.y;
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  out[b * blockDim.x * blockDim.y + t] = b * 1000 + t * 3;
}

__global__ void loop_sync(int *out, int iters) {
  __shared__ int s[1024];
  int t = threadIdx.x, n = blockDim.x, v = t + blockIdx.x;
  for (int i = 0; i < iters; i++) {
    s[t] = v;
    __syncthreads();
    v += s[(t + 1) % n];
    __syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

__global__ void early_exit(int *out, int m) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  if (t >= m)
    return;
  s[t] = t * 7;
  __syncthreads();
  int v = s[m - 1 - t];
  out[blockIdx.x * blockDim.x + t] = v + 100000 * __syncthreads_count(t % 2);
}

__global__ void predicates(int *out) {
  int t = threadIdx.x;
  int c = __syncthreads_count(t % 3 == 0);
  int a = __syncthreads_and(t != 7);
  int o = __syncthreads_or(t == 5);
  out[blockIdx.x * blockDim.x + t] = c * 100 + a * 10 + o;
}

__global__ void warp_sum(int *out) {
  int t = threadIdx.x, v = t * 3 + 1;
  for (int off = warpSize / 2; off > 0; off /= 2)
    v += __shfl_down(v, off);
  int nw = (blockDim.x + warpSize - 1) / warpSize;
  if ((t & (warpSize - 1)) == 0)
    out[blockIdx.x * nw + t / warpSize] = v;
}

__global__ void warp_branch(int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x, n = blockDim.x, v = t * 2;
  if (t < warpSize)
    v = __shfl_xor(v, 1);
  if ((t & (warpSize - 1)) < 10)
    v += (int)(__activemask() & 0xffff);
  s[t] = v;
  __syncthreads();
  out[blockIdx.x * n + t] = s[n - 1 - t];
}

// Two collectives in one warp: lanes 0..15 and the others pass different
// masks, and each half votes on its own.
__global__ void ballot_halves(unsigned long long *out) {
  int t = threadIdx.x, lane = t & (warpSize - 1);
  unsigned long long m = lane < 16 ? 0xffffull : ~0xffffull;
  out[blockIdx.x * blockDim.x + t] = __ballot_sync(m, t % 2 == 0 || lane == 17);
}

#if !defined(__HIP_PLATFORM_NVIDIA__)
#include <hip/anyhip/cpu/block_abi.h>

// What the plugin's block function does around its regions: run region 0
// for every thread, then whatever __ah_cpu_block_next says, until -1.
// region(c, r, t) runs region r for thread t and returns where it stopped.
template <typename R> static void drive(const ahCpuBlockKernel *k, R region) {
  ahCpuBlockCtx *c = __ah_cpu_block_begin(k);
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  int32_t next = 0;

  while (next >= 0) {
    unsigned r = (unsigned)next >> 1;
    bool masked = next & 1;
    uint32_t lo = AH_CPU_PC_DONE, hi = 0;

    for (unsigned t = 0; t < n; t++) {
      if (masked && c->pc[t] != (AH_CPU_PC_RUN | r))
        continue;
      uint32_t pc = region(c, r, t);
      c->pc[t] = pc;
      lo = pc < lo ? pc : lo;
      hi = pc > hi ? pc : hi;
    }
    next = __ah_cpu_block_next(c, lo, hi, !masked);
  }
}

template <typename F> static F *frame(ahCpuBlockCtx *c, unsigned t) {
  return reinterpret_cast<F *>(c->frame) + t;
}

static void warp_slot(ahCpuSplitSlot *s, uint64_t value, int arg, int width) {
  s->value = value;
  s->mask = ~0ull;
  s->arg = arg;
  s->width = width;
}

static const ahCpuBlockKernel plain2d_k = {AH_CPU_BLOCK_ABI, 0, 0, 0, nullptr};
static void plain2d_block(int *out) {
  int b = blockIdx.x + gridDim.x * blockIdx.y;
  for (unsigned y = 0; y < blockDim.y; y++)
    for (unsigned x = 0; x < blockDim.x; x++) {
      int t = x + blockDim.x * y;
      out[b * blockDim.x * blockDim.y + t] = b * 1000 + t * 3;
    }
}

static const uint32_t loop_sync_info[] = {0, AH_CPU_BAR_SYNC, AH_CPU_BAR_SYNC};
static const ahCpuBlockKernel loop_sync_k = {AH_CPU_BLOCK_ABI, 8, 2, 0, loop_sync_info};
static thread_local int loop_sync_s[1024]; // what __shared__ is on the CPU
static void loop_sync_block(int *out, int iters) {
  struct F {
    int v, i;
  };
  int n = (int)blockDim.x;
  drive(&loop_sync_k, [&](ahCpuBlockCtx *c, unsigned r, unsigned t) -> uint32_t {
    F *f = frame<F>(c, t);
    switch (r) {
    case 0:
      f->v = (int)(t + blockIdx.x);
      f->i = 0;
      break;
    case 1:
      f->v += loop_sync_s[(t + 1) % n];
      return 2;
    default:
      f->i++;
      break;
    }
    if (f->i < iters) {
      loop_sync_s[t] = f->v;
      return 1;
    }
    out[blockIdx.x * n + t] = f->v;
    return AH_CPU_PC_DONE;
  });
}

static const uint32_t early_exit_info[] = {0, AH_CPU_BAR_SYNC, AH_CPU_BAR_COUNT};
static const ahCpuBlockKernel early_exit_k = {AH_CPU_BLOCK_ABI, 4, 2, 0, early_exit_info};
static thread_local int early_exit_s[1024];
static void early_exit_block(int *out, int m) {
  drive(&early_exit_k, [&](ahCpuBlockCtx *c, unsigned r, unsigned t) -> uint32_t {
    int *v = frame<int>(c, t);
    switch (r) {
    case 0:
      if ((int)t >= m)
        return AH_CPU_PC_DONE;
      early_exit_s[t] = (int)t * 7;
      return 1;
    case 1:
      *v = early_exit_s[m - 1 - (int)t];
      c->slot[t].value = t % 2;
      return 2;
    default:
      out[blockIdx.x * blockDim.x + t] = *v + 100000 * (int)c->slot[t].value;
      return AH_CPU_PC_DONE;
    }
  });
}

// The _and is a split whose op each thread stores (AH_CPU_SPLIT_OP_DYNAMIC).
static const uint32_t predicates_info[] = {0, AH_CPU_BAR_COUNT, AH_CPU_SPLIT_OP_DYNAMIC,
                                           AH_CPU_BAR_OR};
static const ahCpuBlockKernel predicates_k = {AH_CPU_BLOCK_ABI, 8, 3, 0, predicates_info};
static void predicates_block(int *out) {
  struct F {
    int c, a;
  };
  drive(&predicates_k, [&](ahCpuBlockCtx *c, unsigned r, unsigned t) -> uint32_t {
    F *f = frame<F>(c, t);
    ahCpuSplitSlot *s = &c->slot[t];
    switch (r) {
    case 0:
      s->value = t % 3 == 0;
      return 1;
    case 1:
      f->c = (int)s->value;
      s->value = t != 7;
      s->op = AH_CPU_BAR_AND;
      return 2;
    case 2:
      f->a = (int)s->value;
      s->value = t == 5;
      return 3;
    default:
      out[blockIdx.x * blockDim.x + t] = f->c * 100 + f->a * 10 + (int)s->value;
      return AH_CPU_PC_DONE;
    }
  });
}

static const uint32_t warp_sum_info[] = {0, AH_CPU_SPLIT_WARP | AH_CPU_WARP_SHFL_DOWN};
static const ahCpuBlockKernel warp_sum_k = {AH_CPU_BLOCK_ABI, 8, 1, 0, warp_sum_info};
static void warp_sum_block(int *out) {
  struct F {
    int v, off;
  };
  int ws = warpSize, nw = ((int)blockDim.x + ws - 1) / ws;
  drive(&warp_sum_k, [&](ahCpuBlockCtx *c, unsigned r, unsigned t) -> uint32_t {
    F *f = frame<F>(c, t);
    if (r == 0) {
      f->v = (int)t * 3 + 1;
      f->off = ws / 2;
    } else {
      f->v += (int)(uint32_t)c->slot[t].value;
      f->off /= 2;
    }
    if (f->off > 0) {
      warp_slot(&c->slot[t], (uint32_t)f->v, f->off, ws);
      return 1;
    }
    if ((t & (ws - 1)) == 0)
      out[blockIdx.x * nw + t / ws] = f->v;
    return AH_CPU_PC_DONE;
  });
}

static const uint32_t warp_branch_info[] = {0, AH_CPU_SPLIT_WARP | AH_CPU_WARP_SHFL_XOR,
                                            AH_CPU_SPLIT_WARP | AH_CPU_WARP_ACTIVE,
                                            AH_CPU_BAR_SYNC};
static const ahCpuBlockKernel warp_branch_k = {AH_CPU_BLOCK_ABI, 4, 3, 0, warp_branch_info};
static thread_local int warp_branch_s[1024];
static void warp_branch_block(int *out) {
  int ws = warpSize, n = (int)blockDim.x;
  drive(&warp_branch_k, [&](ahCpuBlockCtx *c, unsigned r, unsigned t) -> uint32_t {
    int *v = frame<int>(c, t);
    switch (r) {
    case 0:
      *v = (int)t * 2;
      if ((int)t < ws) {
        warp_slot(&c->slot[t], (uint32_t)*v, 1, ws);
        return 1;
      }
      break;
    case 1:
      *v = (int)(uint32_t)c->slot[t].value;
      break;
    case 2:
      *v += (int)(c->slot[t].value & 0xffff);
      warp_branch_s[t] = *v;
      return 3;
    default:
      out[blockIdx.x * n + t] = warp_branch_s[n - 1 - (int)t];
      return AH_CPU_PC_DONE;
    }
    // after the shuffle (or instead of it)
    if ((t & (ws - 1)) < 10) {
      warp_slot(&c->slot[t], 0, 0, 0);
      return 2;
    }
    warp_branch_s[t] = *v;
    return 3;
  });
}

// The op is stored per thread (AH_CPU_SPLIT_OP_DYNAMIC).
static const uint32_t ballot_halves_info[] = {0, AH_CPU_SPLIT_WARP | AH_CPU_SPLIT_OP_DYNAMIC};
static const ahCpuBlockKernel ballot_halves_k = {AH_CPU_BLOCK_ABI, 0, 1, 0, ballot_halves_info};
static void ballot_halves_block(unsigned long long *out) {
  unsigned ws = (unsigned)warpSize;
  drive(&ballot_halves_k, [&](ahCpuBlockCtx *c, unsigned r, unsigned t) -> uint32_t {
    ahCpuSplitSlot *s = &c->slot[t];
    unsigned lane = t & (ws - 1);
    if (r == 0) {
      warp_slot(s, t % 2 == 0 || lane == 17, 0, 0);
      s->mask = lane < 16 ? 0xffffull : ~0xffffull;
      s->op = AH_CPU_WARP_BALLOT;
      return 1;
    }
    out[blockIdx.x * blockDim.x + t] = s->value;
    return AH_CPU_PC_DONE;
  });
}

template <typename... P> static void reg(void (*kernel)(P...), void (*block)(P...),
                                         const ahCpuBlockKernel *k) {
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(kernel),
                       reinterpret_cast<const void *>(block), k, nullptr);
}

__attribute__((constructor)) static void register_blocks() {
  reg(plain2d, plain2d_block, &plain2d_k);
  reg(loop_sync, loop_sync_block, &loop_sync_k);
  reg(loop_sync, loop_sync_block, &loop_sync_k); // a second unit: idempotent
  reg(early_exit, early_exit_block, &early_exit_k);
  reg(predicates, predicates_block, &predicates_k);
  reg(warp_sum, warp_sum_block, &warp_sum_k);
  reg(warp_branch, warp_branch_block, &warp_branch_k);
  reg(ballot_halves, ballot_halves_block, &ballot_halves_k);
}
static unsigned long long compiled_blocks() { return __ah_cpu_blocks_compiled(); }
#else
static unsigned long long compiled_blocks() { return 0; }
#endif

static std::vector<int> fetch(int *d, size_t n) {
  std::vector<int> h(n);
  if (hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess)
    h.assign(n, -12345);
  return h;
}

static int body(int ws, bool compiled) {
  const size_t N = 1 << 16;
  int *d = nullptr;
  unsigned long long c0 = compiled_blocks(), blocks = 0;
  CHECK_HIP(hipMalloc(&d, N * sizeof(int)));

  { // barrier-free, 2-D grid of 2-D blocks
    plain2d<<<dim3(3, 2), dim3(16, 4)>>>(d);
    blocks += 6;
    std::vector<int> h = fetch(d, 6 * 64);
    for (int b = 0; b < 6; b++)
      for (int t = 0; t < 64; t++)
        CHECK_EQ(h[b * 64 + t], b * 1000 + t * 3);
  }
  for (int n : {1, 100, 256}) { // __syncthreads in a loop
    const int nb = 5, iters = 4;
    loop_sync<<<nb, n>>>(d, iters);
    blocks += nb;
    std::vector<int> h = fetch(d, nb * n);
    for (int b = 0; b < nb; b++) {
      std::vector<int> v(n), s(n);
      for (int t = 0; t < n; t++)
        v[t] = t + b;
      for (int i = 0; i < iters; i++) {
        s = v;
        for (int t = 0; t < n; t++)
          v[t] += s[(t + 1) % n];
      }
      for (int t = 0; t < n; t++)
        CHECK_EQ(h[b * n + t], v[t]);
    }
  }
  for (int m : {200, 37, 1, 0}) { // early return, then barriers
    const int nb = 3, n = 200;
    CHECK_HIP(hipMemset(d, 0xff, nb * n * sizeof(int)));
    early_exit<<<nb, n>>>(d, m);
    blocks += nb;
    std::vector<int> h = fetch(d, nb * n);
    for (int b = 0; b < nb; b++)
      for (int t = 0; t < n; t++)
        CHECK_EQ(h[b * n + t], t < m ? (m - 1 - t) * 7 + 100000 * (m / 2) : -1);
  }
  for (int n : {1, 6, 96, 256}) { // __syncthreads_count / _and / _or
    predicates<<<2, n>>>(d);
    blocks += 2;
    std::vector<int> h = fetch(d, 2 * n);
    int c = (n + 2) / 3, a = n <= 7, o = n > 5;
    for (int i = 0; i < 2 * n; i++)
      CHECK_EQ(h[i], c * 100 + a * 10 + o);
  }
  for (int n : {100, 256}) { // shuffle reduction per warp, partial last warp
    const int nb = 4, nw = (n + ws - 1) / ws;
    warp_sum<<<nb, n>>>(d);
    blocks += nb;
    std::vector<int> h = fetch(d, nb * nw);
    for (int b = 0; b < nb; b++)
      for (int w = 0; w < nw; w++) {
        int sum = 0;
        for (int t = w * ws; t < (w + 1) * ws && t < n; t++)
          sum += t * 3 + 1;
        CHECK_EQ(h[b * nw + w], sum);
      }
  }
  { // a shuffle in warp 0 only, then __activemask in lanes 0..9 of each warp
    const int nb = 3, n = 200;
    warp_branch<<<nb, n>>>(d);
    blocks += nb;
    std::vector<int> h = fetch(d, nb * n), v(n);
    for (int t = 0; t < n; t++) {
      v[t] = t < ws ? (t ^ 1) * 2 : t * 2;
      int base = t / ws * ws, lanes = n - base < 10 ? n - base : 10;
      if (t - base < 10)
        v[t] += (int)(((1ull << lanes) - 1) & 0xffff);
    }
    for (int b = 0; b < nb; b++)
      for (int t = 0; t < n; t++)
        CHECK_EQ(h[b * n + t], v[n - 1 - t]);
  }
  { // two masks in one warp
    const int n = 100;
    unsigned long long *u = reinterpret_cast<unsigned long long *>(d);
    ballot_halves<<<2, n>>>(u);
    blocks += 2;
    std::vector<unsigned long long> h(2 * n);
    CHECK_HIP(hipMemcpy(h.data(), u, h.size() * sizeof(*u), hipMemcpyDeviceToHost));
    for (int b = 0; b < 2; b++)
      for (int t = 0; t < n; t++) {
        int base = t / ws * ws, lane = t - base;
        unsigned long long want = 0;
        for (int l = 0; l < ws && base + l < n; l++)
          if ((l < 16) == (lane < 16) && ((base + l) % 2 == 0 || l == 17))
            want |= 1ull << l;
        CHECK_EQ(h[b * n + t], want);
      }
  }
  { // a cooperative launch uses the block function too
    int iters = 3;
    void *args[] = {&d, &iters};
    CHECK_HIP(hipLaunchCooperativeKernel((const void *)loop_sync, dim3(2), dim3(64), args, 0, 0));
    blocks += 2;
    std::vector<int> h = fetch(d, 2 * 64);
    for (int b = 0; b < 2; b++) {
      std::vector<int> v(64), s(64);
      for (int t = 0; t < 64; t++)
        v[t] = t + b;
      for (int i = 0; i < iters; i++) {
        s = v;
        for (int t = 0; t < 64; t++)
          v[t] += s[(t + 1) % 64];
      }
      for (int t = 0; t < 64; t++)
        CHECK_EQ(h[b * 64 + t], v[t]);
    }
  }
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(compiled_blocks() - c0, compiled ? blocks : 0ull);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

int main(int argc, char **argv) {
  (void)argc;
  // Four runs of this program: warp size 64, 32, then both with fibers.
  static const char *const phases[][2] = {{"64", "1"}, {"32", "1"}, {"64", "0"}, {"32", "0"}};
  const char *p = std::getenv("AH_TEST_PHASE");
  int phase = p != nullptr ? std::atoi(p) : 0;

  if (phase == 0) {
    setenv("ANYHIP_CPU_WARP_SIZE", phases[0][0], 1);
    setenv("ANYHIP_CPU_COMPILED", phases[0][1], 1);
  }
  if (!ah_on_cpu_device())
    SKIP("block functions belong to the CPU device");
  int ws = ah_device_warp_size();
  bool compiled = std::strcmp(phases[phase][1], "1") == 0;
  CHECK_EQ(ws, std::atoi(phases[phase][0]));
  int r = body(ws, compiled);
  std::printf("warp size %d, %s: %s\n", ws, compiled ? "block functions" : "fibers",
              r == AH_PASS ? "passed" : "FAILED");
  if (r != AH_PASS || phase == 3)
    return r;
  char next[4];
  std::snprintf(next, sizeof(next), "%d", phase + 1);
  setenv("AH_TEST_PHASE", next, 1);
  setenv("ANYHIP_CPU_WARP_SIZE", phases[phase + 1][0], 1);
  setenv("ANYHIP_CPU_COMPILED", phases[phase + 1][1], 1);
  std::fflush(stdout);
  std::fflush(stderr);
  execv("/proc/self/exe", argv);
  execv(argv[0], argv);
  std::perror("execv");
  return AH_FAIL;
}
