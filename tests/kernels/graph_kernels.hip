// SPDX-License-Identifier: MIT
// Kernels in HIP graphs: kernel nodes whose argument values are copied when
// the node is added (the host variables change afterwards and the node
// still uses the old values), hipGraphExecKernelNodeSetParams, kernel nodes
// in a diamond with copies, capture of <<<>>> launches (a template kernel
// included) and hipLaunchKernelGGL, and the guide's stream capture example
// (seed 000, lines 7130-7311). Results are compared with host loops.
// Changes to the guide's listing, so that it can fail and runs here:
//  - HIP_CHECK printed the error and went on; it now exits with status 1.
//  - the graph is launched twice (its memory nodes make that valid).
//  - `initialValue` (undeclared) is `initValue`; a failure exits with 1.
#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <vector>

#define HIP_CHECK(expression)                                                                \
  {                                                                                          \
    const hipError_t status = expression;                                                    \
    if (status != hipSuccess) {                                                              \
      std::cerr << "HIP error " << status << ": " << hipGetErrorString(status) << " at "    \
                << __FILE__ << ":" << __LINE__ << std::endl;                                 \
      std::exit(1);                                                                          \
    }                                                                                        \
  }

#define EXPECT(c)                                                          \
  do {                                                                     \
    if (!(c)) {                                                            \
      std::fprintf(stderr, "%s:%d: EXPECT(%s) failed\n", __FILE__, __LINE__, #c); \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

__global__ void axpb(float *out, const float *in, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * a + b;
}

template <typename T> __global__ void fill(T *p, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

__global__ void add_into(int *dst, const int *a, const int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = a[i] + b[i];
}

// Argument values are read when the node is added; later changes to the
// host variables (pointer and scalars) do not reach it.
static void kernel_node_args_copied() {
  const int n = 1000;
  float *in, *out, *other;
  std::vector<float> h(n), r(n);
  for (int i = 0; i < n; i++)
    h[i] = 0.5f * i - 7.0f;
  HIP_CHECK(hipMalloc(&in, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&out, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&other, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(in, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(out, 0, n * sizeof(float)));
  HIP_CHECK(hipMemset(other, 0, n * sizeof(float)));

  hipGraph_t g;
  hipGraphNode_t k;
  hipGraphExec_t x;
  float a = 2.0f, b = 1.0f;
  int count = n;
  float *dst = out;
  void *args[] = {&dst, &in, &a, &b, &count};
  hipKernelNodeParams p = {};
  p.func = reinterpret_cast<void *>(axpb);
  p.gridDim = dim3((n + 127) / 128);
  p.blockDim = dim3(128);
  p.sharedMemBytes = 0;
  p.kernelParams = args;
  HIP_CHECK(hipGraphCreate(&g, 0));
  HIP_CHECK(hipGraphAddKernelNode(&k, g, nullptr, 0, &p));
  hipGraphNodeType t;
  HIP_CHECK(hipGraphNodeGetType(k, &t));
  EXPECT(t == hipGraphNodeTypeKernel);
  a = 100.0f;
  b = 100.0f;
  dst = other;
  count = 1;
  // The node reports its own copies: the old values.
  hipKernelNodeParams got;
  HIP_CHECK(hipGraphKernelNodeGetParams(k, &got));
  EXPECT(got.func == p.func && got.gridDim.x == p.gridDim.x && got.blockDim.x == 128);
  EXPECT(*static_cast<float **>(got.kernelParams[0]) == out);
  EXPECT(*static_cast<float *>(got.kernelParams[2]) == 2.0f);
  EXPECT(*static_cast<float *>(got.kernelParams[3]) == 1.0f);
  EXPECT(*static_cast<int *>(got.kernelParams[4]) == n);
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(r.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(r[i] == h[i] * 2.0f + 1.0f);
  HIP_CHECK(hipMemcpy(r.data(), other, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(r[i] == 0.0f);

  // hipGraphExecKernelNodeSetParams: the executable graph takes the new
  // values (a = 3, b = -1, into `other`); the graph itself keeps the old.
  a = 3.0f;
  b = -1.0f;
  dst = other;
  count = n;
  HIP_CHECK(hipGraphExecKernelNodeSetParams(x, k, &p));
  a = b = 55.0f;
  HIP_CHECK(hipGraphLaunch(x, 0));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(r.data(), other, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(r[i] == h[i] * 3.0f - 1.0f);
  // hipGraphKernelNodeSetParams changes the graph's node (a = 3, b = -1
  // into `out` now); a new instantiation sees it, x does not.
  dst = out;
  a = 3.0f;
  b = -1.0f;
  HIP_CHECK(hipGraphKernelNodeSetParams(k, &p));
  a = b = 77.0f;
  hipGraphExec_t x2;
  HIP_CHECK(hipGraphInstantiate(&x2, g, nullptr, nullptr, 0));
  HIP_CHECK(hipMemset(out, 0, n * sizeof(float)));
  HIP_CHECK(hipGraphLaunch(x2, 0));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(r.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(r[i] == h[i] * 3.0f - 1.0f);
  HIP_CHECK(hipGraphExecDestroy(x2));
  // Errors: a node that is not a kernel node; bad configuration.
  hipGraphNode_t e;
  HIP_CHECK(hipGraphAddEmptyNode(&e, g, nullptr, 0));
  EXPECT(hipGraphExecKernelNodeSetParams(x, e, &p) == hipErrorInvalidValue);
  p.blockDim = dim3(0);
  EXPECT(hipGraphAddKernelNode(&k, g, nullptr, 0, &p) == hipErrorInvalidConfiguration);
  p.blockDim = dim3(128);
  p.kernelParams = nullptr;
  EXPECT(hipGraphAddKernelNode(&k, g, nullptr, 0, &p) == hipErrorInvalidValue);
  (void)hipGetLastError();
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipFree(in));
  HIP_CHECK(hipFree(out));
  HIP_CHECK(hipFree(other));
}

// Two sets in parallel, joined by a kernel node, then a copy back: a
// diamond, launched three times on a stream. Template kernels go into a
// graph by capture.
static void kernel_diamond() {
  const int n = 4096;
  int *a, *b, *c;
  std::vector<int> r(n);
  HIP_CHECK(hipMalloc(&a, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&b, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&c, n * sizeof(int)));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  hipGraph_t g;
  HIP_CHECK(hipGraphCreate(&g, 0));
  void (*fill_int)(int *, int, int) = fill<int>;
  EXPECT(hipGraphAddEmptyNode(nullptr, g, nullptr, 0) == hipErrorInvalidValue);
  // fill<int> is a template taken by address: hipcc registers that
  // specialisation there, so a kernel node can copy its arguments, as in HIP.
  int seven = 7, n_ = n;
  void *fargs[] = {&a, &seven, &n_};
  hipKernelNodeParams fp = {};
  fp.func = reinterpret_cast<void *>(fill_int);
  fp.gridDim = dim3(n / 256);
  fp.blockDim = dim3(256);
  fp.kernelParams = fargs;
  hipGraphNode_t tmp;
  hipGraph_t g2;
  HIP_CHECK(hipGraphCreate(&g2, 0));
  HIP_CHECK(hipGraphAddKernelNode(&tmp, g2, nullptr, 0, &fp));
  HIP_CHECK(hipGraphDestroy(g2));

  // Build the fills by capture, then add the rest by hand after them.
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  fill<int><<<n / 256, 256, 0, s>>>(a, 7, n);
  hipLaunchKernelGGL(fill<int>, dim3(n / 256), dim3(256), 0, s, b, 35, n);
  hipGraph_t cap;
  HIP_CHECK(hipStreamEndCapture(s, &cap));
  hipGraphNode_t fills[2];
  size_t nf = 2;
  HIP_CHECK(hipGraphGetNodes(cap, fills, &nf));
  EXPECT(nf == 2);
  // A second graph, by hand: add (after both fills) -> copy to host.
  int *pa = a, *pb = b, *pc = c;
  void *aargs[] = {&pc, &pa, &pb, &n_};
  hipKernelNodeParams ap = {};
  ap.func = reinterpret_cast<void *>(add_into);
  ap.gridDim = dim3(n / 256);
  ap.blockDim = dim3(256);
  ap.kernelParams = aargs;
  hipGraphNode_t root, f1, f2, add, cpy;
  HIP_CHECK(hipGraphAddEmptyNode(&root, g, nullptr, 0));
  // The two branches: 32-bit sets of a (7) and b (35).
  hipMemsetParams m1 = {}, m2 = {};
  m1.dst = a;
  m1.elementSize = m2.elementSize = 4;
  m1.width = m2.width = n;
  m1.height = m2.height = 1;
  m1.value = 7;
  m2.dst = b;
  m2.value = 35;
  HIP_CHECK(hipGraphAddMemsetNode(&f1, g, &root, 1, &m1));
  HIP_CHECK(hipGraphAddMemsetNode(&f2, g, &root, 1, &m2));
  hipGraphNode_t both[] = {f1, f2};
  HIP_CHECK(hipGraphAddKernelNode(&add, g, both, 2, &ap));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&cpy, g, &add, 1, r.data(), c, n * sizeof(int),
                                    hipMemcpyDeviceToHost));
  hipGraphExec_t xc, x;
  HIP_CHECK(hipGraphInstantiate(&xc, cap, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  for (int rep = 0; rep < 3; rep++) {
    std::fill(r.begin(), r.end(), 0);
    HIP_CHECK(hipMemset(c, 0, n * sizeof(int)));
    HIP_CHECK(hipGraphLaunch(x, s));
    HIP_CHECK(hipStreamSynchronize(s));
    for (int i = 0; i < n; i++)
      EXPECT(r[i] == 42);
  }
  // The captured fills write 7 and 35 too: clear, replay them, add on the host.
  std::vector<int> ha(n), hb(n);
  HIP_CHECK(hipMemset(a, 0, n * sizeof(int)));
  HIP_CHECK(hipMemset(b, 0, n * sizeof(int)));
  HIP_CHECK(hipGraphLaunch(xc, s));
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipMemcpy(ha.data(), a, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hb.data(), b, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(ha[i] == 7 && hb[i] == 35);
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphExecDestroy(xc));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipGraphDestroy(cap));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  HIP_CHECK(hipFree(c));
}

// Captured launches copy their arguments at capture time, like a kernel
// node: a variable changed after the launch does not change the graph.
static void capture_args_copied() {
  const int n = 512;
  float *in, *out;
  std::vector<float> h(n), r(n);
  for (int i = 0; i < n; i++)
    h[i] = (float)i;
  HIP_CHECK(hipMalloc(&in, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&out, n * sizeof(float)));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  float a = 4.0f, b = 0.25f;
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  HIP_CHECK(hipMemcpyAsync(in, h.data(), n * sizeof(float), hipMemcpyHostToDevice, s));
  axpb<<<n / 64, 64, 0, s>>>(out, in, a, b, n);
  // hipLaunchKernel with an argument array: out = out * 1 + 1.
  float one = 1.0f;
  int cnt = n;
  void *args[] = {&out, &out, &one, &one, &cnt};
  HIP_CHECK(hipLaunchKernel(reinterpret_cast<const void *>(axpb), dim3(n / 64), dim3(64), args,
                            0, s));
  HIP_CHECK(hipMemcpyAsync(r.data(), out, n * sizeof(float), hipMemcpyDeviceToHost, s));
  hipGraph_t g;
  HIP_CHECK(hipStreamEndCapture(s, &g));
  a = 1000.0f;
  one = 1000.0f;
  for (int i = 0; i < n; i++)
    EXPECT(r[i] == 0.0f); // nothing ran
  hipGraphExec_t x;
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(x, s));
  HIP_CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; i++)
    EXPECT(r[i] == (h[i] * 4.0f + 0.25f) * 1.0f + 1.0f);
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(in));
  HIP_CHECK(hipFree(out));
}

// ---- the guide's example ----

__global__ void kernelA(double *arrayA, std::size_t size) {
  const std::size_t x = threadIdx.x + blockDim.x * blockIdx.x;
  if (x < size)
    arrayA[x] *= 2.0;
}

__global__ void kernelB(int *arrayB, std::size_t size) {
  const std::size_t x = threadIdx.x + blockDim.x * blockIdx.x;
  if (x < size)
    arrayB[x] = 3;
}

__global__ void kernelC(double *arrayA, const int *arrayB, std::size_t size) {
  const std::size_t x = threadIdx.x + blockDim.x * blockIdx.x;
  if (x < size)
    arrayA[x] += arrayB[x];
}

struct set_vector_args {
  std::vector<double> &h_array;
  double value;
};

void set_vector(void *args) {
  set_vector_args h_args{*(reinterpret_cast<set_vector_args *>(args))};
  std::vector<double> &vec{h_args.h_array};
  vec.assign(vec.size(), h_args.value);
}

static int guide_example() {
  constexpr int numOfBlocks = 1024;
  constexpr int threadsPerBlock = 1024;
  constexpr std::size_t arraySize = 1U << 20;

  double *d_arrayA;
  int *d_arrayB;
  std::vector<double> h_array(arraySize);
  constexpr double initValue = 2.0;

  hipStream_t captureStream;
  HIP_CHECK(hipStreamCreate(&captureStream));

  // As in the guide: the allocations are part of the capture (memory alloc
  // and free nodes); the graph frees them, so it can run again.
  hipGraph_t graph;
  HIP_CHECK(hipStreamBeginCapture(captureStream, hipStreamCaptureModeGlobal));
  HIP_CHECK(hipMallocAsync(&d_arrayA, arraySize * sizeof(double), captureStream));
  HIP_CHECK(hipMallocAsync(&d_arrayB, arraySize * sizeof(int), captureStream));
  set_vector_args args{h_array, initValue};
  HIP_CHECK(hipLaunchHostFunc(captureStream, set_vector, &args));
  HIP_CHECK(hipMemcpyAsync(d_arrayA, h_array.data(), arraySize * sizeof(double),
                           hipMemcpyHostToDevice, captureStream));
  kernelA<<<numOfBlocks, threadsPerBlock, 0, captureStream>>>(d_arrayA, arraySize);
  kernelB<<<numOfBlocks, threadsPerBlock, 0, captureStream>>>(d_arrayB, arraySize);
  kernelC<<<numOfBlocks, threadsPerBlock, 0, captureStream>>>(d_arrayA, d_arrayB, arraySize);
  HIP_CHECK(hipMemcpyAsync(h_array.data(), d_arrayA, arraySize * sizeof(*d_arrayA),
                           hipMemcpyDeviceToHost, captureStream));
  HIP_CHECK(hipFreeAsync(d_arrayA, captureStream));
  HIP_CHECK(hipFreeAsync(d_arrayB, captureStream));
  HIP_CHECK(hipStreamEndCapture(captureStream, &graph));
  EXPECT(h_array[0] == 0.0); // the host function did not run during capture

  hipGraphExec_t graphExec;
  HIP_CHECK(hipGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphDestroy(graph));
  constexpr double expected = initValue * 2.0 + 3;
  bool passed = true;
  for (int run = 0; run < 2 && passed; run++) {
    std::fill(h_array.begin(), h_array.end(), 0.0);
    HIP_CHECK(hipGraphLaunch(graphExec, captureStream));
    HIP_CHECK(hipStreamSynchronize(captureStream));
    for (std::size_t i = 0; i < arraySize; ++i) {
      if (h_array[i] != expected) {
        passed = false;
        std::cerr << "Validation failed! Expected " << expected << " got " << h_array[i]
                  << std::endl;
        break;
      }
    }
  }
  if (passed)
    std::cerr << "Validation passed." << std::endl;

  HIP_CHECK(hipGraphExecDestroy(graphExec));
  HIP_CHECK(hipStreamDestroy(captureStream));
  return passed ? 0 : 1;
}

int main() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    std::printf("skipped: no device\n");
    return 77;
  }
  kernel_node_args_copied();
  kernel_diamond();
  capture_args_copied();
  if (guide_example() != 0)
    return 1;
  std::printf("graph_kernels: ok\n");
  return 0;
}
