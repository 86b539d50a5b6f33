// SPDX-License-Identifier: MIT
// Shuffles the kernel compiler computes inside block functions (a kernel
// whose every barrier and warp function all running threads reach together:
// block_loops.cpp, inlineShuffles), against host models of HIP's rules, in
// both modes (ctest's cpu/ and cpu-fibers/ entries) and at both warp sizes:
//  - a warp scan with __shfl_up in a loop: each step reads lower lanes,
//    which have already stopped at the next step when a higher lane reads
//    (the two exchange buffers must keep them apart);
//  - a butterfly with __shfl_xor: every lane ends with its warp's sum;
//  - __shfl from a computed lane with width 16, and __shfl_down with width
//    8, in a block of 100 threads (the last warp partial: lanes beyond the
//    block read 0);
//  - whole warps returning before the shuffles (they read 0 too);
//  - one warp going on alone, a middle one or the block's last, partial
//    one (the engine runs it over its own range of threads: cpu_region.c,
//    release_live), with a __shfl_up scan and a __shfl_down tree;
//  - 2D blocks whose rows start inside a warp (48 x 4: whole warps, so the
//    thread loops run in chunks of one warp, block_loops.cpp laneChunkCheck;
//    20 x 5: a partial last warp, the general loops), with scans, trees,
//    constant deltas and one past the warp (the caller's own value);
//  - a block that runs millions of inline shuffles, three times the
//    watchdog's limit (0.5 s here): the block function moves from one to
//    the next without the engine, but tells it every 64th, so the watchdog
//    sees it move and says nothing.
#include "engine_test.h"
#include "fault_capture.h"

#include <chrono>

#include <vector>

__global__ void warp_scan(const int *in, int *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  for (int d = 1; d < warpSize; d *= 2) {
    int up = __shfl_up(v, d);
    if ((int)(threadIdx.x % warpSize) >= d)
      v += up;
  }
  out[t] = v;
}

__global__ void butterfly(const int *in, int *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  for (int m = warpSize / 2; m > 0; m /= 2)
    v += __shfl_xor(v, m);
  out[t] = v;
}

__global__ void widths(const int *in, int *out) {
  unsigned t = threadIdx.x;
  int v = in[t];
  int a = __shfl(v, (int)(t * 5 + 3), 16);
  int b = __shfl_down(a, 3, 8);
  out[t] = a * 1000 + b;
}

__global__ void after_return(const int *in, int *out, unsigned live) {
  unsigned t = threadIdx.x;
  if (t >= live)
    return;
  int v = in[t];
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += __shfl_down(v, d);
  out[t] = v;
}

__global__ void one_warp_left(const int *in, int *out, unsigned which) {
  unsigned t = threadIdx.x;
  if (t / warpSize != which)
    return;
  int v = in[t];
  unsigned l = t % warpSize;
  for (unsigned d = 1; d < (unsigned)warpSize; d *= 2) {
    int up = __shfl_up(v, d);
    if (l >= d)
      v += up;
  }
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += __shfl_down(v, d);
  out[t] = v;
}

__global__ void rows_2d(const int *in, int *out) {
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x * blockDim.y + t;
  int v = in[g];
  for (int d = 1; d < warpSize; d *= 2) {
    int up = __shfl_up(v, d);
    if ((int)(t % warpSize) >= d)
      v += up;
  }
  int s = v;
  for (int d = warpSize / 2; d > 0; d /= 2)
    s += __shfl_down(s, d);
  // threadIdx.x % warpSize is not the lane where rows start inside warps.
  int mark = threadIdx.x % warpSize < 2 ? 1000 : 0;
  if (threadIdx.x % warpSize == 0)
    mark += 100;
  int near = __shfl_down(v, 3) - __shfl_up(v, 5);
  out[g] = s * 7 + near + 3 * __shfl_down(v, 70) + mark;
}

// n steps of swapping each lane pair's values and adding 1: lane l ends
// with its own value plus n (n even).
__global__ void swaps(int *v, int n) {
  int x = v[threadIdx.x];
  for (int i = 0; i < n; i++)
    x = __shfl_xor(x, 1) + 1;
  v[threadIdx.x] = x;
}

// rows_2d's result for a block of nt threads at in[base]: lanes beyond the
// block read 0, sources outside the warp read the caller's own.
static void rows_2d_model(const std::vector<int> &in, std::vector<int> &want, unsigned base,
                          unsigned nt, unsigned dx, int ws) {
  std::vector<int> v(nt);
  for (unsigned t = 0; t < nt; t++)
    v[t] = in[base + t];
  auto at = [&](const std::vector<int> &a, unsigned t) { return t < nt ? a[t] : 0; };
  for (int d = 1; d < ws; d *= 2) {
    std::vector<int> next(v);
    for (unsigned t = 0; t < nt; t++)
      if ((int)(t % ws) >= d)
        next[t] = v[t] + v[t - d];
    v = next;
  }
  std::vector<int> s(v);
  for (int d = ws / 2; d > 0; d /= 2) {
    std::vector<int> next(s);
    for (unsigned t = 0; t < nt; t++)
      next[t] = s[t] + ((int)(t % ws) + d < ws ? at(s, t + d) : s[t]);
    s = next;
  }
  for (unsigned t = 0; t < nt; t++) {
    int l = (int)(t % ws);
    int down3 = l + 3 < ws ? at(v, t + 3) : v[t];
    int up5 = l >= 5 ? v[t - 5] : v[t];
    unsigned xl = t % dx % (unsigned)ws;
    want[base + t] = s[t] * 7 + down3 - up5 + 3 * v[t] + (xl < 2 ? 1000 : 0) + (xl == 0 ? 100 : 0);
  }
}

// HIP's source lane (cpu_warp.c, shfl_source); -1 when it is out of range
// and the caller reads its own value.
static int src_lane(int op, int l, int arg, int width) {
  int base = l & ~(width - 1);
  switch (op) {
  case 0:
    return base + (arg & (width - 1));
  case 2:
    return l - base + arg >= width ? l : l + arg;
  default:
    return -1;
  }
}

static int body(int ws) {
  unsigned long long compiled0 = __ah_cpu_blocks_compiled();
  int fails = 0;
  const unsigned blocks = 3, threads = 128, n = blocks * threads;
  std::vector<int> in(n), got(n);
  for (unsigned i = 0; i < n; i++)
    in[i] = (int)(i * 31 % 97) - 40;
  int *din, *dout;
  CHECK_HIP(hipMalloc(&din, n * sizeof(int)));
  CHECK_HIP(hipMalloc(&dout, n * sizeof(int)));
  CHECK_HIP(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));

  warp_scan<<<blocks, threads>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned w = 0; w < n / ws; w++) {
    int sum = 0;
    for (int l = 0; l < ws; l++) {
      sum += in[w * ws + l];
      CHECK_EQ(got[w * ws + l], sum);
    }
  }

  butterfly<<<blocks, threads>>>(din, dout);
  CHECK_HIP(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (unsigned w = 0; w < n / ws; w++) {
    int sum = 0;
    for (int l = 0; l < ws; l++)
      sum += in[w * ws + l];
    for (int l = 0; l < ws; l++)
      CHECK_EQ(got[w * ws + l], sum);
  }

  // widths: one block of 100 threads; lanes beyond the block read 0.
  {
    const int m = 100;
    auto lane_value = [&](const std::vector<int> &v, int t, int l) {
      int id = t - t % ws + l;
      return id < m ? v[id] : 0;
    };
    std::vector<int> a(m), want(m);
    for (int t = 0; t < m; t++) {
      int s = src_lane(0, t % ws, t * 5 + 3, 16);
      a[t] = lane_value(in, t, s);
    }
    for (int t = 0; t < m; t++) {
      int s = src_lane(2, t % ws, 3, 8);
      want[t] = a[t] * 1000 + lane_value(a, t, s);
    }
    widths<<<1, m>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, m * sizeof(int), hipMemcpyDeviceToHost));
    for (int t = 0; t < m; t++)
      CHECK_EQ(got[t], want[t]);
  }

  // after_return: the lanes of the last warp at and beyond `live` returned.
  {
    const unsigned live = threads - (unsigned)ws / 2;
    std::vector<int> before(threads, -7);
    CHECK_HIP(hipMemcpy(dout, before.data(), threads * sizeof(int), hipMemcpyHostToDevice));
    after_return<<<1, threads>>>(din, dout, live);
    CHECK_HIP(hipMemcpy(got.data(), dout, threads * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < threads; t++) {
      if (t >= live) {
        CHECK_EQ(got[t], -7);
        continue;
      }
      // Tree of __shfl_down over the warp, returned lanes reading 0.
      std::vector<int> v(ws);
      unsigned w0 = t - t % ws;
      for (int l = 0; l < ws; l++)
        v[l] = w0 + l < live ? in[w0 + l] : 0;
      for (int d = ws / 2; d > 0; d /= 2) {
        std::vector<int> next(v);
        for (int l = 0; l < ws; l++)
          next[l] = v[l] + (l + d < ws ? v[l + d] : v[l]);
        v = next;
      }
      CHECK_EQ(got[t], v[t % ws]);
    }
  }
  // one_warp_left: warp 1 of 4, then the last (partial) warp of 2.5.
  for (unsigned bs : {4u * ws, 5u * ws / 2}) {
    unsigned which = bs == 4u * ws ? 1 : 2, w0 = which * ws;
    unsigned lanes = bs - w0 < (unsigned)ws ? bs - w0 : (unsigned)ws;
    std::vector<int> before(bs, -7);
    CHECK_HIP(hipMemcpy(dout, before.data(), bs * sizeof(int), hipMemcpyHostToDevice));
    one_warp_left<<<1, bs>>>(din, dout, which);
    CHECK_HIP(hipMemcpy(got.data(), dout, bs * sizeof(int), hipMemcpyDeviceToHost));
    // The host model: lanes beyond the block read 0, sources outside the
    // warp read the caller's own.
    std::vector<int> v(ws, 0);
    for (unsigned l = 0; l < lanes; l++)
      v[l] = in[w0 + l];
    for (int d = 1; d < ws; d *= 2) {
      std::vector<int> next(v);
      for (int l = d; l < ws; l++)
        next[l] = v[l] + v[l - d];
      v = next;
    }
    for (unsigned l = lanes; l < (unsigned)ws; l++)
      v[l] = 0;
    for (int d = ws / 2; d > 0; d /= 2) {
      std::vector<int> next(v);
      for (int l = 0; l < ws; l++)
        next[l] = v[l] + (l + d < ws ? v[l + d] : v[l]);
      for (unsigned l = lanes; l < (unsigned)ws; l++)
        next[l] = 0;
      v = next;
    }
    for (unsigned t = 0; t < bs; t++)
      CHECK_EQ(got[t], t / ws == which ? v[t - w0] : -7);
  }
  // rows_2d: 2 blocks of 48 x 4 (whole warps) and of 20 x 5 (100 threads).
  for (dim3 bd : {dim3(48, 4), dim3(20, 5)}) {
    unsigned nt = bd.x * bd.y, m = 2 * nt;
    std::vector<int> want(m);
    for (unsigned b = 0; b < 2; b++)
      rows_2d_model(in, want, b * nt, nt, bd.x, ws);
    rows_2d<<<2, bd>>>(din, dout);
    CHECK_HIP(hipMemcpy(got.data(), dout, m * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned t = 0; t < m; t++)
      CHECK_EQ(got[t], want[t]);
  }
  // swaps, compiled only (on fibers each shuffle is the engine's), once.
  if (ah_compiled_blocks_on() && ws == 64) {
    int n = 1 << 14;
    double took = 0;
    for (;; n *= 2) { // until a run takes a fifth of a second
      auto t0 = std::chrono::steady_clock::now();
      swaps<<<1, 64>>>(dout, n);
      CHECK_HIP(hipDeviceSynchronize());
      took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (took > 0.2 || n > (1 << 28))
        break;
    }
    double want = (double)n * 1.5 / took; // about 1.5 s: three times the limit
    n = (int)(want < (1 << 30) ? want : (1 << 30)) & ~1;
    CHECK_HIP(hipMemcpy(dout, in.data(), 64 * sizeof(int), hipMemcpyHostToDevice));
    hipError_t err = hipErrorUnknown;
    std::string report = ah_capture_stderr([&] {
      swaps<<<1, 64>>>(dout, n);
      err = hipDeviceSynchronize();
    });
    CHECK_HIP(err);
    CHECK_HIP(hipMemcpy(got.data(), dout, 64 * sizeof(int), hipMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
      CHECK_EQ(got[t], in[t] + n);
    if (report.find("a compiled block has run") != std::string::npos) {
      std::fprintf(stderr, "%s(%d shuffles): the watchdog saw no progress\n", report.c_str(), n);
      return AH_FAIL;
    }
  }
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));

  unsigned long long compiled = __ah_cpu_blocks_compiled() - compiled0;
  const char *sw = std::getenv("ANYHIP_CPU_COMPILED");
  bool off = sw != nullptr && std::strcmp(sw, "0") == 0;
#if defined(__ANYHIP_KERNEL_COMPILER__)
  if (off)
    CHECK_EQ(compiled, 0ull);
  else
    CHECK(compiled > 0);
#else
  CHECK_EQ(compiled, 0ull);
#endif
  return fails == 0 ? AH_PASS : AH_FAIL;
}

int main(int argc, char **argv) {
  (void)argc;
  if (std::getenv("ANYHIP_CPU_WATCHDOG") == nullptr)
    setenv("ANYHIP_CPU_WATCHDOG", "0.5", 1); // read at the first HIP call, just below
  if (!ah_on_cpu_device()) {
    std::printf("skipped: inline shuffles are the CPU device's kernel compiler's\n");
    return 77;
  }
  return ah_run_both_warp_sizes(argv, body);
}
