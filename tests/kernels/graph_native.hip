// SPDX-License-Identifier: MIT
// Executable graphs that a device may run as one native graph (NVIDIA's
// CUDA graphs, docs/graphs.md) and those it must replay, checked against
// host loops on every test device: a graph of memset, memcpy (pinned host
// memory, device to device), kernel, empty and child graph nodes launched
// several times; kernel parameters changed on the executable graph
// (hipGraphExecKernelNodeSetParams), a memset's value changed on it, a node
// disabled and enabled again, hipGraphExecUpdate; a captured chain of 100
// kernels followed by 100 plain launches (bench/graph_launch.hip's check);
// event record and wait nodes (other streams waiting for a record node,
// hipEventElapsedTime of two, a wait node, a destroyed event); pitched
// memset, 2D and 3D copy nodes;
// and graphs that stay on the replay path: a host node, and a copy from
// pageable memory that must read the host buffer when the graph runs.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(expr)                                                                       \
  do {                                                                                    \
    hipError_t e_ = (expr);                                                               \
    if (e_ != hipSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr,                  \
                   hipGetErrorString(e_));                                                \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

#define EXPECT_EQ(got, want, what, i)                                                     \
  do {                                                                                    \
    long long g_ = (long long)(got), w_ = (long long)(want);                              \
    if (g_ != w_) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s[%d] = %lld, want %lld\n", __FILE__, __LINE__, what,  \
                   (int)(i), g_, w_);                                                     \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int N = 1000;
constexpr int kBlock = 128;
constexpr int kGrid = (N + kBlock - 1) / kBlock;

// z[i] = x[i] * a + y[i]
__global__ void axpy(int *z, const int *x, const int *y, int a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] * a + y[i];
}

__global__ void add_const(int *p, int c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += c;
}

// w[i] = z[i] * 2 + v[i]
__global__ void twice_plus(int *w, const int *z, const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] = z[i] * 2 + v[i];
}

__global__ void bump(int *a) {
  a[threadIdx.x] += 1;
}

static hipKernelNodeParams kparams(const void *fn, void **args) {
  hipKernelNodeParams p;
  std::memset(&p, 0, sizeof(p));
  p.func = const_cast<void *>(fn);
  p.gridDim = dim3(kGrid);
  p.blockDim = dim3(kBlock);
  p.sharedMemBytes = 0;
  p.kernelParams = args;
  p.extra = nullptr;
  return p;
}

static hipMemsetParams mparams(int *dst, unsigned value) {
  hipMemsetParams p;
  std::memset(&p, 0, sizeof(p));
  p.dst = dst;
  p.elementSize = 4;
  p.width = N;
  p.height = 1;
  p.pitch = 0;
  p.value = value;
  return p;
}

// The host loop of the big graph: x = memset value, y = in, z = x*a + y,
// then the child adds c1 and c2 to z, w = z*2 + v (v = y copied on the
// device), out = w.
static void reference(std::vector<int> &out, unsigned xval, const int *in, int a, int c1, int c2) {
  for (int i = 0; i < N; i++) {
    int z = (int)xval * a + in[i] + c1 + c2;
    out[i] = z * 2 + in[i];
  }
}

static void check_out(const int *got, const std::vector<int> &want, const char *what) {
  for (int i = 0; i < N; i++)
    EXPECT_EQ(got[i], want[i], what, i);
}

static void big_graph() {
  int *x, *y, *z, *v, *w, *hin, *hout;
  CHECK(hipMalloc((void **)&x, N * sizeof(int)));
  CHECK(hipMalloc((void **)&y, N * sizeof(int)));
  CHECK(hipMalloc((void **)&z, N * sizeof(int)));
  CHECK(hipMalloc((void **)&v, N * sizeof(int)));
  CHECK(hipMalloc((void **)&w, N * sizeof(int)));
  CHECK(hipHostMalloc((void **)&hin, N * sizeof(int), 0));
  CHECK(hipHostMalloc((void **)&hout, N * sizeof(int), 0));
  for (int i = 0; i < N; i++)
    hin[i] = i * 3 - 500;

  hipGraph_t g, child;
  CHECK(hipGraphCreate(&g, 0));
  CHECK(hipGraphCreate(&child, 0));

  // memset x (4-byte value 5) and copy in -> y: both roots.
  hipGraphNode_t nset, ncopy_in, nk1, nchild, ncopy_v, nk2, nempty, ncopy_out;
  hipMemsetParams mp = mparams(x, 5);
  CHECK(hipGraphAddMemsetNode(&nset, g, nullptr, 0, &mp));
  CHECK(hipGraphAddMemcpyNode1D(&ncopy_in, g, nullptr, 0, y, hin, N * sizeof(int),
                                hipMemcpyHostToDevice));
  // z = x * a + y
  int a = 3, n = N;
  void *k1args[] = {&z, &x, &y, &a, &n};
  hipKernelNodeParams kp1 = kparams((const void *)axpy, k1args);
  hipGraphNode_t k1deps[] = {nset, ncopy_in};
  CHECK(hipGraphAddKernelNode(&nk1, g, k1deps, 2, &kp1));
  // The child: z += 10, then z += 100 (a chain of two kernel nodes).
  int c1 = 10, c2 = 100;
  void *c1args[] = {&z, &c1, &n}, *c2args[] = {&z, &c2, &n};
  hipKernelNodeParams cp1 = kparams((const void *)add_const, c1args);
  hipKernelNodeParams cp2 = kparams((const void *)add_const, c2args);
  hipGraphNode_t cn1, cn2;
  CHECK(hipGraphAddKernelNode(&cn1, child, nullptr, 0, &cp1));
  CHECK(hipGraphAddKernelNode(&cn2, child, &cn1, 1, &cp2));
  CHECK(hipGraphAddChildGraphNode(&nchild, g, &nk1, 1, child));
  // v = y on the device, a branch beside k1 and the child.
  CHECK(hipGraphAddMemcpyNode1D(&ncopy_v, g, &ncopy_in, 1, v, y, N * sizeof(int),
                                hipMemcpyDeviceToDevice));
  // w = z * 2 + v, after the child and the copy, through an empty node.
  hipGraphNode_t edeps[] = {nchild, ncopy_v};
  CHECK(hipGraphAddEmptyNode(&nempty, g, edeps, 2));
  void *k2args[] = {&w, &z, &v, &n};
  hipKernelNodeParams kp2 = kparams((const void *)twice_plus, k2args);
  CHECK(hipGraphAddKernelNode(&nk2, g, &nempty, 1, &kp2));
  CHECK(hipGraphAddMemcpyNode1D(&ncopy_out, g, &nk2, 1, hout, w, N * sizeof(int),
                                hipMemcpyDeviceToHost));

  hipGraphExec_t ge;
  CHECK(hipGraphInstantiate(&ge, g, nullptr, nullptr, 0));
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  std::vector<int> want(N);

  // Launched three times: the same result each time (out cleared between).
  reference(want, 5, hin, 3, 10, 100);
  for (int rep = 0; rep < 3; rep++) {
    std::memset(hout, 0, N * sizeof(int));
    CHECK(hipGraphLaunch(ge, s));
    CHECK(hipStreamSynchronize(s));
    check_out(hout, want, "launch");
  }
  // The host input changes between launches (pinned: read when the graph runs).
  for (int i = 0; i < N; i++)
    hin[i] = 7 - i;
  reference(want, 5, hin, 3, 10, 100);
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipStreamSynchronize(s));
  check_out(hout, want, "new input");

  // Kernel parameters changed on the executable graph: a = -2.
  a = -2;
  hipKernelNodeParams kp1b = kparams((const void *)axpy, k1args);
  CHECK(hipGraphExecKernelNodeSetParams(ge, nk1, &kp1b));
  a = 99; // the values were copied by the call: later changes do not reach them
  reference(want, 5, hin, -2, 10, 100);
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipStreamSynchronize(s));
  check_out(hout, want, "exec kernel params");
  // Twice in a row, launched in between without waiting, then once more.
  a = 4;
  hipKernelNodeParams kp1c = kparams((const void *)axpy, k1args);
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipGraphExecKernelNodeSetParams(ge, nk1, &kp1c));
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipStreamSynchronize(s));
  reference(want, 5, hin, 4, 10, 100);
  check_out(hout, want, "exec kernel params again");

  // The memset's value changed on the executable graph.
  hipMemsetParams mp2 = mparams(x, 11);
  CHECK(hipGraphExecMemsetNodeSetParams(ge, nset, &mp2));
  reference(want, 11, hin, 4, 10, 100);
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipStreamSynchronize(s));
  check_out(hout, want, "exec memset params");

  // k2 disabled: w keeps what was there (-1), then enabled again.
  CHECK(hipMemset(w, 0xff, N * sizeof(int)));
  CHECK(hipDeviceSynchronize());
  CHECK(hipGraphNodeSetEnabled(ge, nk2, 0));
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < N; i++)
    EXPECT_EQ(hout[i], -1, "k2 disabled", i);
  CHECK(hipGraphNodeSetEnabled(ge, nk2, 1));
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipStreamSynchronize(s));
  check_out(hout, want, "k2 enabled again");

  // hipGraphExecUpdate from the graph with k1's a = 7 (the memset back to 5).
  a = 7;
  hipKernelNodeParams kp1d = kparams((const void *)axpy, k1args);
  CHECK(hipGraphKernelNodeSetParams(nk1, &kp1d));
  hipGraphNode_t bad = nullptr;
  hipGraphExecUpdateResult r = hipGraphExecUpdateError;
  CHECK(hipGraphExecUpdate(ge, g, &bad, &r));
  EXPECT_EQ(r, hipGraphExecUpdateSuccess, "update result", 0);
  reference(want, 5, hin, 7, 10, 100);
  CHECK(hipGraphLaunch(ge, s));
  CHECK(hipStreamSynchronize(s));
  check_out(hout, want, "exec update");

  // Launched on the null stream too, after hipGraphUpload.
  CHECK(hipGraphUpload(ge, nullptr));
  std::memset(hout, 0, N * sizeof(int));
  CHECK(hipGraphLaunch(ge, nullptr));
  CHECK(hipDeviceSynchronize());
  check_out(hout, want, "null stream");

  CHECK(hipGraphExecDestroy(ge));
  CHECK(hipGraphDestroy(child));
  CHECK(hipGraphDestroy(g));
  CHECK(hipStreamDestroy(s));
  CHECK(hipFree(x));
  CHECK(hipFree(y));
  CHECK(hipFree(z));
  CHECK(hipFree(v));
  CHECK(hipFree(w));
  CHECK(hipHostFree(hin));
  CHECK(hipHostFree(hout));
}

// bench/graph_launch.hip's check: a captured chain of 100 kernels, then
// 100 plain launches, both in stream order after a memset.
static void captured_chain() {
  constexpr int kNodes = 100, kElems = 256;
  hipStream_t s;
  hipGraph_t g;
  hipGraphExec_t ge;
  int *d;
  CHECK(hipStreamCreate(&s));
  CHECK(hipMalloc((void **)&d, kElems * sizeof(int)));
  CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  for (int i = 0; i < kNodes; i++)
    bump<<<1, kElems, 0, s>>>(d);
  CHECK(hipGetLastError());
  CHECK(hipStreamEndCapture(s, &g));
  size_t count = 0;
  CHECK(hipGraphGetNodes(g, nullptr, &count));
  EXPECT_EQ(count, kNodes, "captured nodes", 0);
  CHECK(hipGraphInstantiateWithFlags(&ge, g, 0));
  for (int rep = 1; rep <= 2; rep++) {
    CHECK(hipMemsetAsync(d, 0, kElems * sizeof(int), s));
    for (int k = 0; k < rep; k++)
      CHECK(hipGraphLaunch(ge, s));
    for (int i = 0; i < kNodes; i++)
      bump<<<1, kElems, 0, s>>>(d);
    CHECK(hipGetLastError());
    CHECK(hipStreamSynchronize(s));
    std::vector<int> h(kElems);
    CHECK(hipMemcpy(h.data(), d, kElems * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < kElems; i++)
      EXPECT_EQ(h[i], (rep + 1) * kNodes, "chain", i);
  }
  CHECK(hipGraphExecDestroy(ge));
  CHECK(hipGraphDestroy(g));
  CHECK(hipFree(d));
  CHECK(hipStreamDestroy(s));
}

// Event record and wait nodes: a record node other streams wait for, two
// records timed with hipEventElapsedTime, a wait node for a record made on
// another stream before the launch, and a record node whose event is
// destroyed (the launch reports hipErrorInvalidHandle).
static void event_nodes() {
  int *d, *hout;
  CHECK(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK(hipHostMalloc((void **)&hout, N * sizeof(int), 0));
  hipStream_t s, s2;
  CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  CHECK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  hipEvent_t start, stop, done;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventCreateWithFlags(&done, hipEventDisableTiming));

  // memset d = 0 -> record start -> d += 1 (x50) -> record stop, record done
  hipGraph_t g;
  CHECK(hipGraphCreate(&g, 0));
  hipGraphNode_t prev, node;
  hipMemsetParams mp = mparams(d, 0);
  CHECK(hipGraphAddMemsetNode(&prev, g, nullptr, 0, &mp));
  CHECK(hipGraphAddEventRecordNode(&node, g, &prev, 1, start));
  prev = node;
  int one = 1, n = N;
  void *args[] = {&d, &one, &n};
  hipKernelNodeParams kp = kparams((const void *)add_const, args);
  for (int i = 0; i < 50; i++) {
    CHECK(hipGraphAddKernelNode(&node, g, &prev, 1, &kp));
    prev = node;
  }
  hipGraphNode_t rec_stop, rec_done;
  CHECK(hipGraphAddEventRecordNode(&rec_stop, g, &prev, 1, stop));
  CHECK(hipGraphAddEventRecordNode(&rec_done, g, &prev, 1, done));
  hipGraphExec_t ge;
  CHECK(hipGraphInstantiate(&ge, g, nullptr, nullptr, 0));
  for (int rep = 0; rep < 2; rep++) {
    CHECK(hipGraphLaunch(ge, s));
    // s2 waits for the graph's record of `done`, then doubles d and copies it out.
    CHECK(hipStreamWaitEvent(s2, done, 0));
    axpy<<<kGrid, kBlock, 0, s2>>>(d, d, d, 1, N); // d = d * 1 + d
    CHECK(hipGetLastError());
    CHECK(hipMemcpyAsync(hout, d, N * sizeof(int), hipMemcpyDeviceToHost, s2));
    CHECK(hipStreamSynchronize(s2));
    for (int i = 0; i < N; i++)
      EXPECT_EQ(hout[i], 100, "after the record node", i);
    CHECK(hipStreamSynchronize(s));
    EXPECT_EQ(hipEventQuery(done), hipSuccess, "done recorded", rep);
    float ms = -1.0f;
    CHECK(hipEventElapsedTime(&ms, start, stop));
    if (!(ms >= 0.0f)) {
      std::fprintf(stderr, "elapsed time %f\n", ms);
      std::exit(1);
    }
  }
  CHECK(hipGraphExecDestroy(ge));
  CHECK(hipGraphDestroy(g));

  // A wait node: the graph's kernel runs after a record made on s2.
  hipEvent_t ready;
  CHECK(hipEventCreateWithFlags(&ready, hipEventDisableTiming));
  hipGraph_t gw;
  CHECK(hipGraphCreate(&gw, 0));
  hipGraphNode_t wait_node, kernel_node, out_node;
  CHECK(hipGraphAddEventWaitNode(&wait_node, gw, nullptr, 0, ready));
  int seven = 7;
  void *wargs[] = {&d, &seven, &n};
  hipKernelNodeParams wkp = kparams((const void *)add_const, wargs);
  CHECK(hipGraphAddKernelNode(&kernel_node, gw, &wait_node, 1, &wkp));
  CHECK(hipGraphAddMemcpyNode1D(&out_node, gw, &kernel_node, 1, hout, d, N * sizeof(int),
                                hipMemcpyDeviceToHost));
  hipGraphExec_t gwe;
  CHECK(hipGraphInstantiate(&gwe, gw, nullptr, nullptr, 0));
  CHECK(hipMemsetAsync(d, 0, N * sizeof(int), s2));
  for (int i = 0; i < 20; i++)
    add_const<<<kGrid, kBlock, 0, s2>>>(d, 5, N);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(ready, s2));
  CHECK(hipGraphLaunch(gwe, s));
  CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < N; i++)
    EXPECT_EQ(hout[i], 107, "after the wait node", i);
  CHECK(hipGraphExecDestroy(gwe));
  CHECK(hipGraphDestroy(gw));

  // A record node whose event is gone: the launch fails, as the replay's does.
  hipEvent_t gone;
  CHECK(hipEventCreate(&gone));
  hipGraph_t gg;
  CHECK(hipGraphCreate(&gg, 0));
  CHECK(hipGraphAddKernelNode(&node, gg, nullptr, 0, &kp));
  CHECK(hipGraphAddEventRecordNode(&prev, gg, &node, 1, gone));
  hipGraphExec_t gge;
  CHECK(hipGraphInstantiate(&gge, gg, nullptr, nullptr, 0));
  CHECK(hipGraphLaunch(gge, s));
  CHECK(hipStreamSynchronize(s));
  CHECK(hipEventDestroy(gone));
  EXPECT_EQ(hipGraphLaunch(gge, s), hipErrorInvalidHandle, "launch after hipEventDestroy", 0);
  CHECK(hipStreamSynchronize(s));
  CHECK(hipGraphExecDestroy(gge));
  CHECK(hipGraphDestroy(gg));

  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipEventDestroy(done));
  CHECK(hipEventDestroy(ready));
  CHECK(hipStreamDestroy(s));
  CHECK(hipStreamDestroy(s2));
  CHECK(hipFree(d));
  CHECK(hipHostFree(hout));
}

// value[row][col] += row * 1000 + col over a pitched buffer of rows x w ints.
__global__ void mark_pitched(int *p, size_t pitch, int w, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < w * rows) {
    int row = i / w, col = i % w;
    int *r = (int *)((char *)p + row * pitch);
    r[col] += row * 1000 + col;
  }
}

// Pitched nodes: a 2D memset, a kernel, a 2D copy (a box of one slice) and
// a 3D copy of two slices whose rows are not contiguous, to pinned memory.
static void pitched_nodes() {
  constexpr int W = 37, H = 24; // 2H rows in all: two slices of H rows
  int *dp, *h2, *h3;
  size_t pitch = 0;
  CHECK(hipMallocPitch((void **)&dp, &pitch, W * sizeof(int), 2 * H));
  CHECK(hipHostMalloc((void **)&h2, W * 2 * H * sizeof(int), 0));
  CHECK(hipHostMalloc((void **)&h3, W * H * sizeof(int), 0));
  hipGraph_t g;
  CHECK(hipGraphCreate(&g, 0));
  hipMemsetParams mp;
  std::memset(&mp, 0, sizeof(mp));
  mp.dst = dp;
  mp.pitch = pitch;
  mp.elementSize = 4;
  mp.width = W;
  mp.height = 2 * H;
  mp.value = 9;
  hipGraphNode_t nset, nk, n2d, n3d;
  CHECK(hipGraphAddMemsetNode(&nset, g, nullptr, 0, &mp));
  int w = W, rows = 2 * H;
  void *args[] = {&dp, &pitch, &w, &rows};
  hipKernelNodeParams kp = kparams((const void *)mark_pitched, args);
  kp.gridDim = dim3((W * 2 * H + kBlock - 1) / kBlock);
  CHECK(hipGraphAddKernelNode(&nk, g, &nset, 1, &kp));
  // The whole buffer as one slice of 2H rows, to h2 (rows W ints apart).
  hipMemcpy3DParms c2;
  std::memset(&c2, 0, sizeof(c2));
  c2.srcPtr = make_hipPitchedPtr(dp, pitch, W * sizeof(int), 2 * H);
  c2.dstPtr = make_hipPitchedPtr(h2, W * sizeof(int), W * sizeof(int), 2 * H);
  c2.extent = make_hipExtent(W * sizeof(int), 2 * H, 1);
  c2.kind = hipMemcpyDeviceToHost;
  CHECK(hipGraphAddMemcpyNode(&n2d, g, &nk, 1, &c2));
  // The first H/2 rows of each of the two slices of H rows, to h3.
  hipMemcpy3DParms c3;
  std::memset(&c3, 0, sizeof(c3));
  c3.srcPtr = make_hipPitchedPtr(dp, pitch, W * sizeof(int), H);
  c3.dstPtr = make_hipPitchedPtr(h3, W * sizeof(int), W * sizeof(int), H / 2);
  c3.extent = make_hipExtent(W * sizeof(int), H / 2, 2);
  c3.kind = hipMemcpyDeviceToHost;
  CHECK(hipGraphAddMemcpyNode(&n3d, g, &nk, 1, &c3));
  hipGraphExec_t ge;
  CHECK(hipGraphInstantiate(&ge, g, nullptr, nullptr, 0));
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  for (int rep = 0; rep < 2; rep++) {
    std::memset(h2, 0, W * 2 * H * sizeof(int));
    std::memset(h3, 0, W * H * sizeof(int));
    CHECK(hipGraphLaunch(ge, s));
    CHECK(hipStreamSynchronize(s));
    for (int r = 0; r < 2 * H; r++)
      for (int c = 0; c < W; c++)
        EXPECT_EQ(h2[r * W + c], 9 + r * 1000 + c, "2D copy", r * W + c);
    for (int z = 0; z < 2; z++)
      for (int r = 0; r < H / 2; r++)
        for (int c = 0; c < W; c++) {
          int row = z * H + r;
          EXPECT_EQ(h3[(z * (H / 2) + r) * W + c], 9 + row * 1000 + c, "3D copy",
                    (z * (H / 2) + r) * W + c);
        }
  }
  CHECK(hipGraphExecDestroy(ge));
  CHECK(hipGraphDestroy(g));
  CHECK(hipStreamDestroy(s));
  CHECK(hipFree(dp));
  CHECK(hipHostFree(h2));
  CHECK(hipHostFree(h3));
}

static int host_calls = 0;
static void count_call(void *p) {
  ++*static_cast<int *>(p);
}

// Graphs that stay on the replay path: a host node between kernels, and a
// copy from pageable host memory, which must read the buffer as it is when
// the graph runs.
static void replayed_graphs() {
  int *d, *hout;
  CHECK(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK(hipHostMalloc((void **)&hout, N * sizeof(int), 0));
  std::vector<int> pageable(N);
  for (int i = 0; i < N; i++)
    pageable[i] = i;

  hipGraph_t g;
  hipGraphNode_t ncopy, nk, nhost, nout;
  CHECK(hipGraphCreate(&g, 0));
  CHECK(hipGraphAddMemcpyNode1D(&ncopy, g, nullptr, 0, d, pageable.data(), N * sizeof(int),
                                hipMemcpyHostToDevice));
  int c = 1000, n = N;
  void *kargs[] = {&d, &c, &n};
  hipKernelNodeParams kp = kparams((const void *)add_const, kargs);
  CHECK(hipGraphAddKernelNode(&nk, g, &ncopy, 1, &kp));
  hipHostNodeParams hp = {count_call, &host_calls};
  CHECK(hipGraphAddHostNode(&nhost, g, &nk, 1, &hp));
  CHECK(hipGraphAddMemcpyNode1D(&nout, g, &nhost, 1, hout, d, N * sizeof(int),
                                hipMemcpyDeviceToHost));
  hipGraphExec_t ge;
  CHECK(hipGraphInstantiate(&ge, g, nullptr, nullptr, 0));
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  for (int rep = 0; rep < 2; rep++) {
    for (int i = 0; i < N; i++)
      pageable[i] = i * (rep + 2);
    CHECK(hipGraphLaunch(ge, s));
    CHECK(hipStreamSynchronize(s));
    for (int i = 0; i < N; i++)
      EXPECT_EQ(hout[i], i * (rep + 2) + 1000, "replayed", i);
    EXPECT_EQ(host_calls, rep + 1, "host node calls", rep);
  }
  CHECK(hipGraphExecDestroy(ge));
  CHECK(hipGraphDestroy(g));
  CHECK(hipStreamDestroy(s));
  CHECK(hipFree(d));
  CHECK(hipHostFree(hout));
}

int main() {
  big_graph();
  captured_chain();
  event_nodes();
  pitched_nodes();
  replayed_graphs();
  std::printf("graph_native: ok\n");
  return 0;
}
