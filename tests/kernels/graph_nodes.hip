// SPDX-License-Identifier: MIT
// Kernels in the graph API's second round: a child graph of copies and
// kernels inside a parent graph, symbol copy nodes feeding a kernel, kernel
// node attributes, hipGraphAddNode / hipGraphExecUpdate / enable-disable of
// kernel nodes. Every result is compared with a host loop.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define HIP_CHECK(expression)                                                                  \
  do {                                                                                         \
    const hipError_t status = (expression);                                                    \
    if (status != hipSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d: %s returned %d (%s)\n", __FILE__, __LINE__, #expression,    \
                   (int)status, hipGetErrorName(status));                                      \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

#define EXPECT_ERR(expression, want)                                                           \
  do {                                                                                         \
    const hipError_t status = (expression);                                                    \
    if (status != (want)) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s returned %d (%s), expected %s\n", __FILE__, __LINE__,   \
                   #expression, (int)status, hipGetErrorName(status), #want);                  \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

#define EXPECT(c)                                                                              \
  do {                                                                                         \
    if (!(c)) {                                                                                \
      std::fprintf(stderr, "%s:%d: EXPECT(%s) failed\n", __FILE__, __LINE__, #c);             \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

constexpr int N = 1000;

__global__ void axpb(float *out, const float *in, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * a + b;
}

__global__ void square(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * p[i];
}

__device__ int table[N];
__device__ int other_table[4];
__managed__ int managed_cell[4];

// Multiplies the device variable `table` by k in place.
__global__ void scale_table(int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    table[i] *= k;
}

static hipKernelNodeParams axpb_params(void **args) {
  hipKernelNodeParams p{};
  p.func = reinterpret_cast<void *>(axpb);
  p.gridDim = dim3((N + 127) / 128);
  p.blockDim = dim3(128);
  p.kernelParams = args;
  return p;
}

// Parent: child(in -> d_in, axpb(d_out, d_in, 2, 1)) -> square(d_out) -> d_out -> out.
// The child graph's own copy and kernel run inside the parent, twice.
static void child_graph_of_kernels() {
  std::vector<float> in(N), out(N);
  float *d_in, *d_out;
  for (int i = 0; i < N; i++)
    in[i] = 0.5f * i - 7.0f;
  HIP_CHECK(hipMalloc(&d_in, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, N * sizeof(float)));

  hipGraph_t child, parent;
  hipGraphNode_t up, k, cnode, sq, down;
  HIP_CHECK(hipGraphCreate(&child, 0));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&up, child, nullptr, 0, d_in, in.data(), N * sizeof(float),
                                    hipMemcpyHostToDevice));
  float a = 2.0f, b = 1.0f;
  int n = N;
  void *args[] = {&d_out, &d_in, &a, &b, &n};
  hipKernelNodeParams kp = axpb_params(args);
  HIP_CHECK(hipGraphAddKernelNode(&k, child, &up, 1, &kp));

  HIP_CHECK(hipGraphCreate(&parent, 0));
  HIP_CHECK(hipGraphAddChildGraphNode(&cnode, parent, nullptr, 0, child));
  void *sargs[] = {&d_out, &n};
  hipKernelNodeParams sp{};
  sp.func = reinterpret_cast<void *>(square);
  sp.gridDim = dim3((N + 255) / 256);
  sp.blockDim = dim3(256);
  sp.kernelParams = sargs;
  HIP_CHECK(hipGraphAddKernelNode(&sq, parent, &cnode, 1, &sp));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&down, parent, &sq, 1, out.data(), d_out, N * sizeof(float),
                                    hipMemcpyDeviceToHost));
  hipGraphExec_t x;
  HIP_CHECK(hipGraphInstantiate(&x, parent, nullptr, nullptr, 0));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  for (int rep = 0; rep < 2; rep++) {
    std::fill(out.begin(), out.end(), 0.0f);
    HIP_CHECK(hipGraphLaunch(x, s));
    HIP_CHECK(hipStreamSynchronize(s));
    for (int i = 0; i < N; i++) {
      float v = in[i] * 2.0f + 1.0f;
      EXPECT(out[i] == v * v);
    }
    for (int i = 0; i < N; i++)
      in[i] += 1.0f; // the child's copy reads `in` at each launch
  }
  // The executable graph's child takes a child of the same shape: a = 3.
  hipGraph_t child2;
  hipGraphNode_t up2, k2;
  HIP_CHECK(hipGraphCreate(&child2, 0));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&up2, child2, nullptr, 0, d_in, in.data(), N * sizeof(float),
                                    hipMemcpyHostToDevice));
  a = 3.0f;
  kp = axpb_params(args);
  HIP_CHECK(hipGraphAddKernelNode(&k2, child2, &up2, 1, &kp));
  HIP_CHECK(hipGraphExecChildGraphNodeSetParams(x, cnode, child2));
  HIP_CHECK(hipGraphLaunch(x, s));
  HIP_CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < N; i++) {
    float v = in[i] * 3.0f + 1.0f;
    EXPECT(out[i] == v * v);
  }
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphDestroy(parent));
  HIP_CHECK(hipGraphDestroy(child));
  HIP_CHECK(hipGraphDestroy(child2));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
}

// to-symbol node -> scale_table(k) -> from-symbol node, with the symbol
// nodes' parameters set in the graph and in the executable graph.
static void symbol_nodes() {
  std::vector<int> src(N), src2(N), back(N);
  for (int i = 0; i < N; i++) {
    src[i] = i - 300;
    src2[i] = 2 * i + 5;
  }
  hipGraph_t g;
  hipGraphNode_t to, k, from, e;
  HIP_CHECK(hipGraphCreate(&g, 0));
  HIP_CHECK(hipGraphAddMemcpyNodeToSymbol(&to, g, nullptr, 0, HIP_SYMBOL(table), src.data(),
                                          N * sizeof(int), 0, hipMemcpyHostToDevice));
  int kk = 3;
  void *args[] = {&kk};
  hipKernelNodeParams kp{};
  kp.func = reinterpret_cast<void *>(scale_table);
  kp.gridDim = dim3((N + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  HIP_CHECK(hipGraphAddKernelNode(&k, g, &to, 1, &kp));
  HIP_CHECK(hipGraphAddMemcpyNodeFromSymbol(&from, g, &k, 1, back.data(), HIP_SYMBOL(table),
                                            N * sizeof(int), 0, hipMemcpyDefault));
  hipGraphNodeType t;
  HIP_CHECK(hipGraphNodeGetType(to, &t));
  EXPECT(t == hipGraphNodeTypeMemcpy);
  // Errors, in HIP's order.
  HIP_CHECK(hipGraphAddEmptyNode(&e, g, nullptr, 0));
  hipGraphNode_t bad;
  EXPECT_ERR(hipGraphAddMemcpyNodeFromSymbol(&bad, g, nullptr, 0, nullptr, HIP_SYMBOL(table),
                                             4, 0, hipMemcpyDefault),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphAddMemcpyNodeFromSymbol(&bad, g, nullptr, 0, back.data(), nullptr, 4, 0,
                                             hipMemcpyDefault),
             hipErrorInvalidSymbol);
  EXPECT_ERR(hipGraphAddMemcpyNodeFromSymbol(&bad, g, nullptr, 0, back.data(),
                                             HIP_SYMBOL(table), 0, 0, hipMemcpyDefault),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphAddMemcpyNodeFromSymbol(&bad, g, nullptr, 0, back.data(),
                                             HIP_SYMBOL(table), N * sizeof(int), 4,
                                             hipMemcpyDefault),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphAddMemcpyNodeFromSymbol(&bad, g, nullptr, 0, back.data(),
                                             HIP_SYMBOL(table), 4, 0, hipMemcpyHostToDevice),
             hipErrorInvalidMemcpyDirection);
  EXPECT_ERR(hipGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, HIP_SYMBOL(table), src.data(),
                                           4, 0, hipMemcpyDeviceToHost),
             hipErrorInvalidMemcpyDirection);
  EXPECT_ERR(hipGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, HIP_SYMBOL(table), nullptr, 4,
                                           0, hipMemcpyHostToDevice),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphMemcpyNodeSetParamsToSymbol(e, HIP_SYMBOL(table), src.data(), 4, 0,
                                                 hipMemcpyHostToDevice),
             hipErrorInvalidValue); // not a copy node
  // Another device variable's own address as the other side of a
  // device-to-device copy: its host shadow in HIP, refused as on AMD's
  // runtime (the side must be memory the runtime allocated); device memory
  // and a __managed__ variable are fine.
  EXPECT_ERR(hipGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, HIP_SYMBOL(table), other_table,
                                           4, 0, hipMemcpyDeviceToDevice),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphMemcpyNodeSetParamsFromSymbol(from, other_table, HIP_SYMBOL(table), 4, 0,
                                                   hipMemcpyDeviceToDevice),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphMemcpyNodeSetParamsFromSymbol(from, other_table + 1, HIP_SYMBOL(table), 4,
                                                   0, hipMemcpyDeviceToDevice),
             hipErrorInvalidValue);
  // Pageable host memory as a device-to-device copy's side: refused too.
  EXPECT_ERR(hipGraphMemcpyNodeSetParamsToSymbol(to, HIP_SYMBOL(table), src.data(), 4, 0,
                                                 hipMemcpyDeviceToDevice),
             hipErrorInvalidValue);
  {
    int *dmem = nullptr;
    hipGraphNode_t ok1, ok2;
    HIP_CHECK(hipMalloc((void **)&dmem, 16));
    HIP_CHECK(hipGraphAddMemcpyNodeToSymbol(&ok1, g, nullptr, 0, HIP_SYMBOL(table), dmem, 4, 0,
                                            hipMemcpyDeviceToDevice));
    HIP_CHECK(hipGraphDestroyNode(ok1));
    // A __managed__ variable is managed memory on the CPU device; on an
    // NVIDIA GPU host code sees its own copy of it (docs/nvidia.md), which
    // is no device memory.
    int dev = 0;
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDevice(&dev));
    HIP_CHECK(hipGetDeviceProperties(&prop, dev));
    if (std::strcmp(prop.gcnArchName, "cpu") == 0) {
      HIP_CHECK(hipGraphAddMemcpyNodeToSymbol(&ok2, g, nullptr, 0, HIP_SYMBOL(table),
                                              managed_cell, 4, 0, hipMemcpyDeviceToDevice));
      HIP_CHECK(hipGraphDestroyNode(ok2));
    }
    HIP_CHECK(hipFree(dmem));
  }
  EXPECT_ERR(hipGraphAddMemcpyNodeToSymbol(nullptr, g, nullptr, 0, HIP_SYMBOL(table),
                                           src.data(), 4, 0, hipMemcpyHostToDevice),
             hipErrorInvalidValue);

  hipGraphExec_t x;
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipStreamSynchronize(0));
  for (int i = 0; i < N; i++)
    EXPECT(back[i] == src[i] * 3);
  // The executable graph's to-symbol copy reads src2 (the graph keeps src);
  // its from-symbol copy writes the second half only, at offset N/2.
  HIP_CHECK(hipGraphExecMemcpyNodeSetParamsToSymbol(x, to, HIP_SYMBOL(table), src2.data(),
                                                    N * sizeof(int), 0, hipMemcpyHostToDevice));
  std::fill(back.begin(), back.end(), -1);
  HIP_CHECK(hipGraphExecMemcpyNodeSetParamsFromSymbol(x, from, back.data() + N / 2,
                                                      HIP_SYMBOL(table), N / 2 * sizeof(int),
                                                      N / 2 * sizeof(int), hipMemcpyDefault));
  EXPECT_ERR(hipGraphExecMemcpyNodeSetParamsFromSymbol(x, from, back.data(), HIP_SYMBOL(table),
                                                       4, 0, hipMemcpyDeviceToHost),
             hipErrorInvalidValue); // the direction as given cannot change
  EXPECT_ERR(hipGraphExecMemcpyNodeSetParamsToSymbol(nullptr, to, HIP_SYMBOL(table),
                                                     src2.data(), 4, 0, hipMemcpyHostToDevice),
             hipErrorInvalidValue);
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipStreamSynchronize(0));
  for (int i = 0; i < N; i++)
    EXPECT(back[i] == (i < N / 2 ? -1 : src2[i] * 3));
  // In the graph: from-symbol of the first 10 ints into back at 0.
  HIP_CHECK(hipGraphMemcpyNodeSetParamsFromSymbol(from, back.data(), HIP_SYMBOL(table),
                                                  10 * sizeof(int), 0, hipMemcpyDefault));
  HIP_CHECK(hipGraphMemcpyNodeSetParamsToSymbol(to, HIP_SYMBOL(table), src2.data(),
                                                N * sizeof(int), 0, hipMemcpyHostToDevice));
  hipGraphExec_t x2;
  HIP_CHECK(hipGraphInstantiate(&x2, g, nullptr, nullptr, 0));
  std::fill(back.begin(), back.end(), -1);
  HIP_CHECK(hipGraphLaunch(x2, 0));
  HIP_CHECK(hipStreamSynchronize(0));
  for (int i = 0; i < N; i++)
    EXPECT(back[i] == (i < 10 ? src2[i] * 3 : -1));
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphExecDestroy(x2));
  HIP_CHECK(hipGraphDestroy(g));
}

static bool same_window(const hipAccessPolicyWindow &a, const hipAccessPolicyWindow &b) {
  return a.base_ptr == b.base_ptr && a.hitProp == b.hitProp && a.hitRatio == b.hitRatio &&
         a.missProp == b.missProp && a.num_bytes == b.num_bytes;
}

// Attributes are kept, read back, copied, kept across SetParams; the
// cooperative one makes the node a cooperative launch (the result is the
// same).
static void kernel_attributes() {
  std::vector<float> in(N), out(N);
  float *d_in, *d_out;
  for (int i = 0; i < N; i++)
    in[i] = static_cast<float>(i);
  HIP_CHECK(hipMalloc(&d_in, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, N * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), N * sizeof(float), hipMemcpyHostToDevice));
  float a = -1.0f, b = 4.0f;
  int n = N;
  void *args[] = {&d_out, &d_in, &a, &b, &n};
  hipKernelNodeParams kp = axpb_params(args);
  hipGraph_t g;
  hipGraphNode_t k1, k2, e;
  HIP_CHECK(hipGraphCreate(&g, 0));
  HIP_CHECK(hipGraphAddKernelNode(&k1, g, nullptr, 0, &kp));
  HIP_CHECK(hipGraphAddKernelNode(&k2, g, &k1, 1, &kp));
  HIP_CHECK(hipGraphAddEmptyNode(&e, g, nullptr, 0));

  hipKernelNodeAttrValue v, w;
  std::memset(&v, 0x5a, sizeof(v));
  HIP_CHECK(hipGraphKernelNodeGetAttribute(k1, hipKernelNodeAttributeCooperative, &v));
  EXPECT(v.cooperative == 0);
  int max_window = 0;
  HIP_CHECK(hipDeviceGetAttribute(&max_window, hipDeviceAttributeAccessPolicyMaxWindowSize, 0));
  std::memset(&v, 0, sizeof(v));
  v.accessPolicyWindow.base_ptr = d_in;
  v.accessPolicyWindow.num_bytes = static_cast<size_t>(max_window);
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.hitProp = hipAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = hipAccessPropertyStreaming;
  HIP_CHECK(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributeAccessPolicyWindow, &v));
  HIP_CHECK(hipGraphKernelNodeGetAttribute(k1, hipKernelNodeAttributeAccessPolicyWindow, &w));
  EXPECT(same_window(v.accessPolicyWindow, w.accessPolicyWindow));
  // Errors.
  hipKernelNodeAttrValue bad = v;
  bad.accessPolicyWindow.hitRatio = 1.5f;
  EXPECT_ERR(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributeAccessPolicyWindow, &bad),
             hipErrorInvalidValue);
  bad = v;
  bad.accessPolicyWindow.hitRatio = -0.1f;
  EXPECT_ERR(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributeAccessPolicyWindow, &bad),
             hipErrorInvalidValue);
  bad = v;
  bad.accessPolicyWindow.missProp = hipAccessPropertyPersisting;
  EXPECT_ERR(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributeAccessPolicyWindow, &bad),
             hipErrorInvalidValue);
  bad = v;
  bad.accessPolicyWindow.num_bytes = static_cast<size_t>(max_window) + 1;
  EXPECT_ERR(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributeAccessPolicyWindow, &bad),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphKernelNodeSetAttribute(k1, static_cast<hipKernelNodeAttrID>(-1), &v),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphKernelNodeGetAttribute(k1, static_cast<hipKernelNodeAttrID>(-1), &w),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributeAccessPolicyWindow,
                                            nullptr),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphKernelNodeGetAttribute(nullptr, hipKernelNodeAttributeCooperative, &w),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphKernelNodeGetAttribute(e, hipKernelNodeAttributeCooperative, &w),
             hipErrorInvalidValue);
  EXPECT_ERR(hipGraphKernelNodeCopyAttributes(k1, e), hipErrorInvalidValue);
  EXPECT_ERR(hipGraphKernelNodeCopyAttributes(nullptr, k2), hipErrorInvalidValue);
  // Copy to k2; cooperative on k2; kept across hipGraphKernelNodeSetParams.
  HIP_CHECK(hipGraphKernelNodeCopyAttributes(k1, k2));
  HIP_CHECK(hipGraphKernelNodeGetAttribute(k2, hipKernelNodeAttributeAccessPolicyWindow, &w));
  EXPECT(same_window(v.accessPolicyWindow, w.accessPolicyWindow));
  hipKernelNodeAttrValue coop{};
  coop.cooperative = 1;
  HIP_CHECK(hipGraphKernelNodeSetAttribute(k2, hipKernelNodeAttributeCooperative, &coop));
  b = 5.0f;
  kp = axpb_params(args);
  HIP_CHECK(hipGraphKernelNodeSetParams(k2, &kp));
  HIP_CHECK(hipGraphKernelNodeGetAttribute(k2, hipKernelNodeAttributeCooperative, &w));
  EXPECT(w.cooperative == 1);
  HIP_CHECK(hipGraphKernelNodeGetAttribute(k2, hipKernelNodeAttributeAccessPolicyWindow, &w));
  EXPECT(same_window(v.accessPolicyWindow, w.accessPolicyWindow));
  hipGraphExec_t x;
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipMemcpy(out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == in[i] * -1.0f + 5.0f); // k2 (b = 5) ran last
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
}

// hipGraphAddNode of a kernel, hipGraphExecUpdate of its arguments, a
// kernel node disabled and enabled again.
static void generic_update_enable() {
  std::vector<float> in(N), out(N);
  float *d_in, *d_out;
  for (int i = 0; i < N; i++)
    in[i] = 1.0f + i;
  HIP_CHECK(hipMalloc(&d_in, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, N * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), N * sizeof(float), hipMemcpyHostToDevice));
  float a = 2.0f, b = 0.0f;
  int n = N;
  void *args[] = {&d_out, &d_in, &a, &b, &n};

  auto build = [&](hipGraph_t *g, hipGraphNode_t *k, void *fn) {
    hipGraphNodeParams p{};
    p.type = hipGraphNodeTypeKernel;
    p.kernel = axpb_params(args);
    p.kernel.func = fn;
    HIP_CHECK(hipGraphCreate(g, 0));
    HIP_CHECK(hipGraphAddNode(k, *g, nullptr, 0, &p));
  };
  hipGraph_t g1, g2, g3;
  hipGraphNode_t k1, k2, k3, err_node;
  build(&g1, &k1, reinterpret_cast<void *>(axpb));
  a = 10.0f; // g2's node: a = 10 (the values are copied when the node is added)
  build(&g2, &k2, reinterpret_cast<void *>(axpb));
  hipGraphExec_t x;
  HIP_CHECK(hipGraphInstantiate(&x, g1, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipMemcpy(out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == in[i] * 2.0f);
  hipGraphExecUpdateResult r;
  HIP_CHECK(hipGraphExecUpdate(x, g2, &err_node, &r));
  EXPECT(r == hipGraphExecUpdateSuccess);
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipMemcpy(out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == in[i] * 10.0f);
  // Another kernel: the function may change (AMD's rule), square(d_out) now.
  hipGraphNodeParams sq{};
  sq.type = hipGraphNodeTypeKernel;
  void *sargs[] = {&d_out, &n};
  sq.kernel.func = reinterpret_cast<void *>(square);
  sq.kernel.gridDim = dim3(4);
  sq.kernel.blockDim = dim3(256);
  sq.kernel.kernelParams = sargs;
  HIP_CHECK(hipGraphCreate(&g3, 0));
  HIP_CHECK(hipGraphAddNode(&k3, g3, nullptr, 0, &sq));
  HIP_CHECK(hipGraphExecUpdate(x, g3, &err_node, &r));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipMemcpy(out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == (in[i] * 10.0f) * (in[i] * 10.0f));
  HIP_CHECK(hipGraphExecUpdate(x, g2, &err_node, &r)); // back to axpb with a = 10
  // Disabled: d_out keeps what it has.
  HIP_CHECK(hipMemset(d_out, 0, N * sizeof(float)));
  HIP_CHECK(hipGraphNodeSetEnabled(x, k1, 0));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipMemcpy(out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == 0.0f);
  HIP_CHECK(hipGraphNodeSetEnabled(x, k1, 1));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipMemcpy(out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == in[i] * 10.0f);
  // hipGraphExecNodeSetParams of the kernel: a = 2 again.
  a = 2.0f;
  hipGraphNodeParams p{};
  p.type = hipGraphNodeTypeKernel;
  p.kernel = axpb_params(args);
  HIP_CHECK(hipGraphExecNodeSetParams(x, k1, &p));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipMemcpy(out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == in[i] * 2.0f);
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphDestroy(g1));
  HIP_CHECK(hipGraphDestroy(g2));
  HIP_CHECK(hipGraphDestroy(g3));
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
}

int main() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    std::printf("skipped: no device\n");
    return 77;
  }
  child_graph_of_kernels();
  symbol_nodes();
  kernel_attributes();
  generic_update_enable();
  std::printf("graph_nodes: ok\n");
  return 0;
}
