/* SPDX-License-Identifier: MIT */
/* Tests of HIP graphs through the C API: set, copy, host and empty nodes;
 * a diamond of dependencies (some added after the nodes); a graph launched
 * many times and on different streams; node lists and types; cycles;
 * clones and executable graphs that no longer follow their graph; stream
 * capture of a sequence of async operations, across two streams through
 * events, and its error paths; calls refused during capture; graph memory
 * nodes, built and captured; garbage and destroyed handles. Kernel nodes
 * are in tests/kernels/graph_kernels.hip. */
#include "ah_test.h"
#include "garbage_handles.h"
#include "gate.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- host-node helpers: a log of which node ran, in order ---- */

struct trace {
  atomic_int n;
  int ids[64];
};

struct step {
  struct trace *t;
  int id;
};

static void record_step(void *p) {
  struct step *s = p;
  int i = atomic_fetch_add(&s->t->n, 1);

  if (i < 64)
    s->t->ids[i] = s->id;
}

/* Position of id in the trace, or -1. */
static int pos(const struct trace *t, int id) {
  for (int i = 0; i < atomic_load(&t->n) && i < 64; i++)
    if (t->ids[i] == id)
      return i;
  return -1;
}

static void count_fn(void *p) {
  atomic_fetch_add((atomic_int *)p, 1);
}

/* ---- graphs built node by node ---- */

AH_TEST(graph_create_destroy) {
  hipGraph_t g = NULL;
  hipGraphNode_t n;
  size_t num = 99;

  CHECK_ERR(hipGraphCreate(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphCreate(&g, 1), hipErrorInvalidValue);
  CHECK(g == NULL);
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK(g != NULL);
  CHECK_HIP(hipGraphGetNodes(g, NULL, &num));
  CHECK_EQ(num, 0);
  CHECK_HIP(hipGraphAddEmptyNode(&n, g, NULL, 0));
  CHECK_HIP(hipGraphDestroy(g));
  /* The graph and its nodes are gone. */
  CHECK_RECORDS(hipGraphDestroy(g), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddEmptyNode(&n, g, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphDestroy(NULL), hipErrorInvalidValue);
  return AH_PASS;
}

/* set (device) -> copy to host -> host node reading the host copy. */
struct check_arg {
  const uint32_t *host;
  size_t n;
  uint32_t want;
  atomic_int ok, runs;
};

static void check_host(void *p) {
  struct check_arg *c = p;
  int ok = 1;

  for (size_t i = 0; i < c->n; i++)
    ok &= c->host[i] == c->want;
  atomic_store(&c->ok, ok);
  atomic_fetch_add(&c->runs, 1);
}

AH_TEST(graph_memset_memcpy_host) {
  enum { N = 1000 };
  uint32_t *d, *h = malloc(N * sizeof(uint32_t));
  struct check_arg c = {.host = h, .n = N, .want = 0xa5a5a5a5u};
  hipGraph_t g;
  hipGraphExec_t x;
  hipGraphNode_t set, cpy, host, nodes[3];
  hipMemsetParams mp = {0};
  hipHostNodeParams hp = {check_host, &c};
  hipGraphNodeType type;

  CHECK(h != NULL);
  memset(h, 0, N * sizeof(uint32_t));
  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(uint32_t)));
  CHECK_HIP(hipGraphCreate(&g, 0));
  mp.dst = d;
  mp.elementSize = 1;
  mp.width = N * sizeof(uint32_t);
  mp.height = 1;
  mp.value = 0xa5;
  CHECK_HIP(hipGraphAddMemsetNode(&set, g, NULL, 0, &mp));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&cpy, g, &set, 1, h, d, N * sizeof(uint32_t),
                                    hipMemcpyDeviceToHost));
  CHECK_HIP(hipGraphAddHostNode(&host, g, &cpy, 1, &hp));
  CHECK_HIP(hipGraphNodeGetType(set, &type));
  CHECK_EQ(type, hipGraphNodeTypeMemset);
  CHECK_HIP(hipGraphNodeGetType(cpy, &type));
  CHECK_EQ(type, hipGraphNodeTypeMemcpy);
  CHECK_HIP(hipGraphNodeGetType(host, &type));
  CHECK_EQ(type, hipGraphNodeTypeHost);
  /* Building runs nothing. */
  CHECK_EQ(h[0], 0);
  CHECK_EQ(atomic_load(&c.runs), 0);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(atomic_load(&c.runs), 1);
  CHECK_EQ(atomic_load(&c.ok), 1);
  for (size_t i = 0; i < N; i++)
    CHECK_EQ(h[i], 0xa5a5a5a5u);
  size_t num = 3;
  CHECK_HIP(hipGraphGetNodes(g, nodes, &num));
  CHECK_EQ(num, 3);
  CHECK(nodes[0] == set && nodes[1] == cpy && nodes[2] == host);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(d));
  free(h);
  return AH_PASS;
}

/* 16- and 32-bit sets, 2D, into pinned host memory. */
AH_TEST(graph_memset_2d_elements) {
  enum { W = 5, H = 4, PITCH = 32 };
  unsigned char *p;
  hipGraph_t g;
  hipGraphExec_t x;
  hipGraphNode_t a, b;
  hipMemsetParams m16 = {0}, m32 = {0};

  CHECK_HIP(hipHostMalloc((void **)&p, PITCH * H + 64, 0));
  memset(p, 0x11, PITCH * H + 64);
  CHECK_HIP(hipGraphCreate(&g, 0));
  m16.dst = p;
  m16.elementSize = 2;
  m16.width = W;
  m16.height = H;
  m16.pitch = PITCH;
  m16.value = 0xbeef;
  CHECK_HIP(hipGraphAddMemsetNode(&a, g, NULL, 0, &m16));
  m32.dst = p + PITCH * H;
  m32.elementSize = 4;
  m32.width = 3;
  m32.height = 1;
  m32.value = 0x01020304u;
  CHECK_HIP(hipGraphAddMemsetNode(&b, g, NULL, 0, &m32));
  CHECK_HIP(hipGraphInstantiateWithFlags(&x, g, 0));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  for (int r = 0; r < H; r++)
    for (int c = 0; c < PITCH; c++) {
      uint16_t v;

      if (c < 2 * W) {
        memcpy(&v, p + r * PITCH + (c & ~1), 2);
        CHECK_EQ(v, 0xbeef);
      } else {
        CHECK_EQ(p[r * PITCH + c], 0x11);
      }
    }
  for (int i = 0; i < 3; i++) {
    uint32_t v;

    memcpy(&v, p + PITCH * H + 4 * i, 4);
    CHECK_EQ(v, 0x01020304u);
  }
  CHECK_EQ(p[PITCH * H + 12], 0x11);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipHostFree(p));
  return AH_PASS;
}

/* A -> {B, C} -> D, with D and the B/C edges made before A exists in the
 * node list: the order must come from the edges, not from insertion. */
AH_TEST(graph_diamond) {
  struct trace t = {0};
  struct step sa = {&t, 1}, sb = {&t, 2}, sc = {&t, 3}, sd = {&t, 4};
  hipHostNodeParams pa = {record_step, &sa}, pb = {record_step, &sb}, pc = {record_step, &sc},
                    pd = {record_step, &sd};
  hipGraph_t g;
  hipGraphExec_t x;
  hipGraphNode_t a, b, c, d, roots[4];
  size_t nroots = 4;

  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddHostNode(&d, g, NULL, 0, &pd));
  CHECK_HIP(hipGraphAddHostNode(&b, g, NULL, 0, &pb));
  CHECK_HIP(hipGraphAddHostNode(&c, g, NULL, 0, &pc));
  CHECK_HIP(hipGraphAddHostNode(&a, g, NULL, 0, &pa));
  {
    hipGraphNode_t from[] = {a, a, b, c}, to[] = {b, c, d, d};

    CHECK_HIP(hipGraphAddDependencies(g, from, to, 4));
  }
  CHECK_HIP(hipGraphGetRootNodes(g, roots, &nroots));
  CHECK_EQ(nroots, 1);
  CHECK(roots[0] == a && roots[1] == NULL);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  for (int rep = 0; rep < 3; rep++) {
    atomic_store(&t.n, 0);
    CHECK_HIP(hipGraphLaunch(x, NULL));
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_EQ(atomic_load(&t.n), 4);
    CHECK(pos(&t, 1) < pos(&t, 2) && pos(&t, 1) < pos(&t, 3));
    CHECK(pos(&t, 2) < pos(&t, 4) && pos(&t, 3) < pos(&t, 4));
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  return AH_PASS;
}

/* One executable graph, launched many times on the null stream, a created
 * stream and the per-thread stream; each launch runs every node once. */
AH_TEST(graph_launch_repeat_streams) {
  atomic_int count = 0;
  hipHostNodeParams hp = {count_fn, &count};
  int *d, h[4] = {0}, src[4] = {7, 8, 9, 10};
  hipGraph_t g;
  hipGraphExec_t x;
  hipGraphNode_t n1, n2, e;
  hipStream_t s;

  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&n1, g, NULL, 0, d, src, sizeof(src), hipMemcpyHostToDevice));
  CHECK_HIP(hipGraphAddEmptyNode(&e, g, &n1, 1));
  CHECK_HIP(hipGraphAddHostNode(&n2, g, &e, 1, &hp));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  for (int i = 0; i < 10; i++)
    CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&count), 10);
  CHECK_HIP(hipGraphLaunch(x, hipStreamPerThread));
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&count), 12);
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    CHECK_EQ(h[i], src[i]);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_RECORDS(hipGraphLaunch(x, s), hipErrorInvalidValue);
  CHECK_RECORDS(hipGraphExecDestroy(x), hipErrorInvalidValue);
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* An executable graph is a snapshot: nodes added to the graph later, or the
 * graph's destruction, do not change it; a clone has the same nodes and
 * edges. */
AH_TEST(graph_exec_snapshot_and_clone) {
  struct trace t = {0};
  struct step s1 = {&t, 1}, s2 = {&t, 2}, s3 = {&t, 3};
  hipHostNodeParams p1 = {record_step, &s1}, p2 = {record_step, &s2}, p3 = {record_step, &s3};
  hipGraph_t g, c;
  hipGraphExec_t x, xc;
  hipGraphNode_t a, b, z;
  size_t n = 0;

  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddHostNode(&b, g, NULL, 0, &p2));
  CHECK_HIP(hipGraphAddHostNode(&a, g, NULL, 0, &p1));
  CHECK_HIP(hipGraphAddDependencies(g, &a, &b, 1));
  CHECK_ERR(hipGraphAddDependencies(g, &a, &b, 1), hipErrorInvalidValue); /* already there */
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphClone(&c, g));
  CHECK_HIP(hipGraphAddHostNode(&z, g, &b, 1, &p3));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&t.n), 2);
  CHECK(t.ids[0] == 1 && t.ids[1] == 2);
  /* The clone: two nodes, the edge a -> b. */
  CHECK_HIP(hipGraphGetNodes(c, NULL, &n));
  CHECK_EQ(n, 2);
  CHECK_HIP(hipGraphGetRootNodes(c, NULL, &n));
  CHECK_EQ(n, 1);
  CHECK_HIP(hipGraphInstantiate(&xc, c, NULL, NULL, 0));
  atomic_store(&t.n, 0);
  CHECK_HIP(hipGraphLaunch(xc, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&t.n), 2);
  CHECK(t.ids[0] == 1 && t.ids[1] == 2);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphExecDestroy(xc));
  CHECK_HIP(hipGraphDestroy(c));
  return AH_PASS;
}

AH_TEST(graph_cycle) {
  hipGraph_t g;
  hipGraphExec_t x = NULL;
  hipGraphNode_t a, b, c, bad = NULL;
  char log[128] = "unset";

  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&a, g, NULL, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&b, g, &a, 1));
  CHECK_HIP(hipGraphAddEmptyNode(&c, g, &b, 1));
  CHECK_HIP(hipGraphAddDependencies(g, &c, &a, 1));
  CHECK_RECORDS(hipGraphInstantiate(&x, g, &bad, log, sizeof(log)), hipErrorInvalidValue);
  CHECK(x == NULL);
  CHECK(bad == a || bad == b || bad == c);
  CHECK(strstr(log, "cycle") != NULL);
  CHECK_ERR(hipGraphInstantiateWithFlags(&x, g, 0), hipErrorInvalidValue);
  CHECK_HIP(hipGraphDestroy(g));
  return AH_PASS;
}

static hipGraph_t live_graph;
static hipGraphNode_t live_node;

static int refuses_graph(void *h) {
  hipGraphNode_t n;
  hipGraphExec_t x;
  size_t num = 0;

  CHECK_ERR(hipGraphAddEmptyNode(&n, (hipGraph_t)h, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphGetNodes((hipGraph_t)h, NULL, &num), hipErrorInvalidValue);
  CHECK_ERR(hipGraphInstantiate(&x, (hipGraph_t)h, NULL, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphDestroy((hipGraph_t)h), hipErrorInvalidValue);
  return AH_PASS;
}

static int refuses_node(void *h) {
  hipGraphNode_t n, bad = (hipGraphNode_t)h;
  hipGraphNodeType t;

  CHECK_ERR(hipGraphNodeGetType(bad, &t), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddEmptyNode(&n, live_graph, &bad, 1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddDependencies(live_graph, &bad, &live_node, 1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddDependencies(live_graph, &live_node, &bad, 1), hipErrorInvalidValue);
  return AH_PASS;
}

static int refuses_exec(void *h) {
  CHECK_ERR(hipGraphLaunch((hipGraphExec_t)h, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecDestroy((hipGraphExec_t)h), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(graph_errors) {
  hipGraph_t g, other;
  hipGraphNode_t n, m, foreign, list[2];
  hipGraphExec_t x;
  hipMemsetParams mp = {0};
  hipHostNodeParams hp = {NULL, NULL};
  hipStream_t s;
  int *d;
  char host[16];
  size_t num;

  CHECK_HIP(hipMalloc((void **)&d, 64));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphCreate(&other, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&n, g, NULL, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&foreign, other, NULL, 0));
  /* Outputs and dependency lists. */
  CHECK_ERR(hipGraphAddEmptyNode(NULL, g, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddEmptyNode(&m, g, NULL, 1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddEmptyNode(&m, g, &foreign, 1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddDependencies(g, &n, &foreign, 1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddDependencies(g, &n, &n, 1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddDependencies(g, NULL, &n, 1), hipErrorInvalidValue);
  CHECK_HIP(hipGraphAddDependencies(g, NULL, NULL, 0));
  CHECK_ERR(hipGraphGetNodes(g, NULL, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphGetRootNodes(g, NULL, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeGetType(n, NULL), hipErrorInvalidValue);
  /* A list longer than the graph: the count shrinks, the rest is NULLed. */
  num = 2;
  list[1] = n;
  CHECK_HIP(hipGraphGetNodes(g, list, &num));
  CHECK_EQ(num, 1);
  CHECK(list[0] == n && list[1] == NULL);
  /* Copy nodes. */
  CHECK_ERR(hipGraphAddMemcpyNode1D(&m, g, NULL, 0, d, host, 16, (hipMemcpyKind)77),
            hipErrorInvalidMemcpyDirection);
  CHECK_ERR(hipGraphAddMemcpyNode1D(&m, g, NULL, 0, NULL, host, 16, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddMemcpyNode1D(&m, g, NULL, 0, d, host, 0, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddMemcpyNode1D(&m, g, NULL, 0, d, host, 65, hipMemcpyHostToDevice),
            hipErrorInvalidValue); /* past the allocation */
  CHECK_ERR(hipGraphAddMemcpyNode1D(&m, NULL, NULL, 0, d, host, 16, hipMemcpyHostToDevice),
            hipErrorInvalidValue);
  /* Set nodes. */
  CHECK_ERR(hipGraphAddMemsetNode(&m, g, NULL, 0, NULL), hipErrorInvalidValue);
  mp.dst = d;
  mp.elementSize = 3;
  mp.width = 4;
  mp.height = 1;
  CHECK_ERR(hipGraphAddMemsetNode(&m, g, NULL, 0, &mp), hipErrorInvalidValue);
  mp.elementSize = 4;
  mp.width = 17; /* 68 bytes of 64 */
  CHECK_ERR(hipGraphAddMemsetNode(&m, g, NULL, 0, &mp), hipErrorInvalidValue);
  mp.width = 4;
  mp.height = 2;
  mp.pitch = 8; /* less than a row */
  CHECK_ERR(hipGraphAddMemsetNode(&m, g, NULL, 0, &mp), hipErrorInvalidValue);
  mp.dst = host; /* memory HIP does not know */
  mp.height = 1;
  CHECK_ERR(hipGraphAddMemsetNode(&m, g, NULL, 0, &mp), hipErrorInvalidValue);
  /* Host and kernel nodes. */
  CHECK_ERR(hipGraphAddHostNode(&m, g, NULL, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddHostNode(&m, g, NULL, 0, &hp), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddKernelNode(&m, g, NULL, 0, NULL), hipErrorInvalidValue);
  {
    hipKernelNodeParams kp = {0};

    kp.gridDim = (dim3){1, 1, 1};
    kp.blockDim = (dim3){1, 1, 1};
    CHECK_ERR(hipGraphAddKernelNode(&m, g, NULL, 0, &kp), hipErrorInvalidDeviceFunction);
    kp.func = (void *)host; /* not a kernel hipcc registered */
    CHECK_ERR(hipGraphAddKernelNode(&m, g, NULL, 0, &kp), hipErrorInvalidDeviceFunction);
  }
  /* Instantiate and launch. */
  CHECK_ERR(hipGraphInstantiate(NULL, g, NULL, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphInstantiateWithFlags(NULL, g, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphInstantiateWithFlags(&x, g, hipGraphInstantiateFlagDeviceLaunch),
            hipErrorInvalidValue);
  CHECK_HIP(hipGraphInstantiateWithFlags(&x, g, hipGraphInstantiateFlagAutoFreeOnLaunch));
  CHECK_ERR(hipGraphLaunch(x, (hipStream_t)(uintptr_t)0x1234), hipErrorContextIsDestroyed);
  CHECK_ERR(hipGraphLaunch(NULL, s), hipErrorInvalidValue);
  /* Garbage handles of each kind, and live handles of the other kinds. */
  live_graph = g;
  live_node = n;
  CHECK(check_garbage_handles(4, refuses_graph, (void *)n) == AH_PASS);
  CHECK(check_garbage_handles(6, refuses_node, (void *)g) == AH_PASS);
  CHECK(check_garbage_handles(7, refuses_exec, (void *)s) == AH_PASS);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphDestroy(other));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* ---- stream capture ---- */

AH_TEST(graph_capture_sequence) {
  enum { N = 256 };
  int *d, *src = malloc(N * sizeof(int)), *dst = malloc(N * sizeof(int));
  atomic_int count = 0;
  hipStream_t s;
  hipGraph_t g;
  hipGraphExec_t x;
  hipStreamCaptureStatus st;
  unsigned long long id = 0, id2 = 0;
  hipGraphNode_t nodes[8];
  size_t num = 8;
  hipGraphNodeType t;

  CHECK(src != NULL && dst != NULL);
  for (int i = 0; i < N; i++)
    src[i] = i * 3 + 1;
  memset(dst, 0, N * sizeof(int));
  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK_HIP(hipMemset(d, 0, N * sizeof(int)));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamIsCapturing(s, &st));
  CHECK_EQ(st, hipStreamCaptureStatusNone);
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipStreamIsCapturing(s, &st));
  CHECK_EQ(st, hipStreamCaptureStatusActive);
  CHECK_HIP(hipStreamGetCaptureInfo(s, &st, &id));
  CHECK_EQ(st, hipStreamCaptureStatusActive);
  CHECK(id != 0);
  CHECK_HIP(hipMemsetAsync(d, 0xff, N * sizeof(int), s));
  CHECK_HIP(hipMemcpyAsync(d, src, N / 2 * sizeof(int), hipMemcpyHostToDevice, s));
  CHECK_HIP(hipLaunchHostFunc(s, count_fn, &count));
  CHECK_HIP(hipMemcpyAsync(dst, d, N * sizeof(int), hipMemcpyDeviceToHost, s));
  {
    const hipGraphNode_t *deps;
    size_t nd;
    hipGraph_t cg;

    CHECK_HIP(hipStreamGetCaptureInfo_v2(s, &st, &id2, &cg, &deps, &nd));
    CHECK_EQ(id2, id);
    CHECK_EQ(nd, 1); /* the last copy */
    CHECK_HIP(hipGraphNodeGetType(deps[0], &t));
    CHECK_EQ(t, hipGraphNodeTypeMemcpy);
  }
  /* Captured work does not run. */
  CHECK_EQ(atomic_load(&count), 0);
  CHECK_EQ(dst[0], 0);
  CHECK_HIP(hipStreamEndCapture(s, &g));
  CHECK(g != NULL);
  CHECK_HIP(hipStreamIsCapturing(s, &st));
  CHECK_EQ(st, hipStreamCaptureStatusNone);
  CHECK_HIP(hipGraphGetNodes(g, nodes, &num));
  CHECK_EQ(num, 4);
  CHECK_HIP(hipGraphGetRootNodes(g, NULL, &num));
  CHECK_EQ(num, 1); /* a chain */
  CHECK_HIP(hipGraphNodeGetType(nodes[2], &t));
  CHECK_EQ(t, hipGraphNodeTypeHost);
  {
    int probe;

    CHECK_HIP(hipMemcpy(&probe, d, sizeof(int), hipMemcpyDeviceToHost));
    CHECK_EQ(probe, 0);
  }
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  for (int rep = 0; rep < 2; rep++) {
    memset(dst, 0, N * sizeof(int));
    CHECK_HIP(hipGraphLaunch(x, s));
    CHECK_HIP(hipStreamSynchronize(s));
    for (int i = 0; i < N; i++)
      CHECK_EQ(dst[i], i < N / 2 ? src[i] : -1);
  }
  CHECK_EQ(atomic_load(&count), 2);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  free(src);
  free(dst);
  return AH_PASS;
}

/* s1: A, record e1; s2 waits e1 (joins the capture), B, record e2; s1 waits
 * e2, C. The graph: A -> B -> C, and C after A. */
AH_TEST(graph_capture_cross_stream) {
  struct trace t = {0};
  struct step sa = {&t, 1}, sb = {&t, 2}, sc = {&t, 3}, sd = {&t, 4};
  hipStream_t s1, s2;
  hipEvent_t e1, e2;
  hipGraph_t g;
  hipGraphExec_t x;
  hipStreamCaptureStatus st;
  unsigned long long id1, id2;
  size_t num;

  CHECK_HIP(hipStreamCreate(&s1));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipEventCreate(&e1));
  CHECK_HIP(hipEventCreate(&e2));
  CHECK_HIP(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipLaunchHostFunc(s1, record_step, &sa));
  CHECK_HIP(hipEventRecord(e1, s1));
  CHECK_HIP(hipStreamWaitEvent(s2, e1, 0));
  CHECK_HIP(hipStreamGetCaptureInfo(s2, &st, &id2));
  CHECK_HIP(hipStreamGetCaptureInfo(s1, &st, &id1));
  CHECK_EQ(st, hipStreamCaptureStatusActive);
  CHECK_EQ(id1, id2);
  CHECK_HIP(hipLaunchHostFunc(s2, record_step, &sb));
  CHECK_HIP(hipLaunchHostFunc(s1, record_step, &sd)); /* parallel to B */
  CHECK_HIP(hipEventRecord(e2, s2));
  CHECK_HIP(hipStreamWaitEvent(s1, e2, 0));
  CHECK_HIP(hipLaunchHostFunc(s1, record_step, &sc));
  /* Only the stream that began the capture ends it. */
  CHECK_ERR(hipStreamEndCapture(s2, &g), hipErrorStreamCaptureUnmatched);
  CHECK_HIP(hipStreamEndCapture(s1, &g));
  CHECK_HIP(hipStreamIsCapturing(s2, &st));
  CHECK_EQ(st, hipStreamCaptureStatusNone);
  CHECK_EQ(atomic_load(&t.n), 0);
  CHECK_HIP(hipGraphGetNodes(g, NULL, &num));
  CHECK_EQ(num, 4);
  CHECK_HIP(hipGraphGetRootNodes(g, NULL, &num));
  CHECK_EQ(num, 1);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, s2)); /* any stream may launch it */
  CHECK_HIP(hipStreamSynchronize(s2));
  CHECK_EQ(atomic_load(&t.n), 4);
  CHECK(pos(&t, 1) < pos(&t, 2) && pos(&t, 2) < pos(&t, 3));
  CHECK(pos(&t, 1) < pos(&t, 4) && pos(&t, 4) < pos(&t, 3));
  /* After the capture the events work as before. */
  CHECK_HIP(hipEventRecord(e1, s1));
  CHECK_HIP(hipStreamWaitEvent(s2, e1, 0));
  CHECK_HIP(hipEventSynchronize(e1));
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipEventDestroy(e1));
  CHECK_HIP(hipEventDestroy(e2));
  CHECK_HIP(hipStreamDestroy(s1));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

static void nop_fn(void *p) {
  (void)p;
}

static void nop_callback(hipStream_t s, hipError_t e, void *p) {
  (void)s, (void)e, (void)p;
}

AH_TEST(graph_capture_errors) {
  hipStream_t s, s2;
  hipGraph_t g = (hipGraph_t)(uintptr_t)1;
  hipStreamCaptureStatus st;
  int *d, h = 0;

  CHECK_HIP(hipMalloc((void **)&d, 64));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&s2));
  /* The null stream cannot capture; bad modes; ending what never began. */
  CHECK_RECORDS(hipStreamBeginCapture(NULL, hipStreamCaptureModeGlobal),
                hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamBeginCapture(s, (hipStreamCaptureMode)3), hipErrorInvalidValue);
  CHECK_ERR(hipStreamBeginCapture((hipStream_t)(uintptr_t)0x1234, hipStreamCaptureModeGlobal),
            hipErrorContextIsDestroyed);
  CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorIllegalState);
  CHECK(g == NULL);
  CHECK_ERR(hipStreamEndCapture(NULL, &g), hipErrorIllegalState);
  CHECK_ERR(hipStreamIsCapturing(s, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipStreamGetCaptureInfo(s, NULL, NULL), hipErrorInvalidValue);

  /* Twice on one stream; NULL output. */
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  CHECK_ERR(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal), hipErrorIllegalState);
  CHECK_ERR(hipStreamEndCapture(s, NULL), hipErrorInvalidValue);
  /* Synchronous work on the null stream during a global capture fails, as
   * an implicit use of it (AMD's code); so does asking the null stream's
   * capture state. */
  CHECK_RECORDS(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice),
                hipErrorStreamCaptureImplicit);
  CHECK_ERR(hipStreamIsCapturing(NULL, &st), hipErrorStreamCaptureImplicit);
  /* ... and invalidates the capture. */
  CHECK_HIP(hipStreamIsCapturing(s, &st));
  CHECK_EQ(st, hipStreamCaptureStatusInvalidated);
  CHECK_ERR(hipMemsetAsync(d, 0, 64, s), hipErrorStreamCaptureInvalidated);
  CHECK_RECORDS(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
  CHECK(g == NULL);
  /* The stream works normally again, and so does the null stream. */
  CHECK_HIP(hipMemsetAsync(d, 0, 64, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice));

  /* Synchronizing or querying a capturing stream invalidates it too. */
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal));
  CHECK_RECORDS(hipStreamSynchronize(s), hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamQuery(s), hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamAddCallback(s, nop_callback, NULL, 0), hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);

  /* Relaxed mode leaves the null stream alone; a capture of nothing is an
   * empty graph. */
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
  CHECK_HIP(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice));
  CHECK_HIP(hipStreamIsCapturing(NULL, &st));
  CHECK_EQ(st, hipStreamCaptureStatusNone);
  CHECK_HIP(hipStreamEndCapture(s, &g));
  {
    size_t n = 5;

    CHECK_HIP(hipGraphGetNodes(g, NULL, &n));
    CHECK_EQ(n, 0);
  }
  CHECK_HIP(hipGraphDestroy(g));

  /* Two captures are separate: waiting across them fails. */
  {
    hipEvent_t e;
    hipGraph_t g2;

    CHECK_HIP(hipEventCreate(&e));
    CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
    CHECK_HIP(hipStreamBeginCapture(s2, hipStreamCaptureModeRelaxed));
    CHECK_HIP(hipLaunchHostFunc(s, nop_fn, NULL));
    CHECK_HIP(hipEventRecord(e, s));
    CHECK_ERR(hipStreamWaitEvent(s2, e, 0), hipErrorStreamCaptureIsolation);
    CHECK_HIP(hipStreamEndCapture(s2, &g2));
    CHECK_HIP(hipStreamEndCapture(s, &g));
    CHECK_HIP(hipGraphDestroy(g));
    CHECK_HIP(hipGraphDestroy(g2));
    CHECK_HIP(hipEventDestroy(e));
  }

  /* A capturing stream destroyed: its capture is dropped. */
  CHECK_HIP(hipStreamBeginCapture(s2, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipLaunchHostFunc(s2, nop_fn, NULL));
  CHECK_HIP(hipStreamDestroy(s2));
  CHECK_HIP(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice)); /* no capture is left */

  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* A graph launched into a capturing stream becomes part of the capture. */
AH_TEST(graph_capture_graph_launch) {
  atomic_int count = 0;
  hipHostNodeParams hp = {count_fn, &count};
  hipGraph_t inner, outer;
  hipGraphExec_t xi, xo;
  hipGraphNode_t a, b;
  hipStream_t s;
  size_t n;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipGraphCreate(&inner, 0));
  CHECK_HIP(hipGraphAddHostNode(&a, inner, NULL, 0, &hp));
  CHECK_HIP(hipGraphAddHostNode(&b, inner, &a, 1, &hp));
  CHECK_HIP(hipGraphInstantiate(&xi, inner, NULL, NULL, 0));
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipGraphLaunch(xi, s));
  CHECK_HIP(hipLaunchHostFunc(s, count_fn, &count));
  CHECK_HIP(hipStreamEndCapture(s, &outer));
  CHECK_EQ(atomic_load(&count), 0);
  CHECK_HIP(hipGraphGetNodes(outer, NULL, &n));
  CHECK_EQ(n, 3);
  CHECK_HIP(hipGraphInstantiate(&xo, outer, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(xo, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&count), 3);
  CHECK_HIP(hipGraphExecDestroy(xi));
  CHECK_HIP(hipGraphExecDestroy(xo));
  CHECK_HIP(hipGraphDestroy(inner));
  CHECK_HIP(hipGraphDestroy(outer));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* ---- parallel branches ---- */

struct meet {
  atomic_int c_ran;
  atomic_int b_saw_c;
};

static void wait_for_c(void *p) {
  struct meet *m = p;
  double end = now_ms() + 5000;

  while (!atomic_load(&m->c_ran) && now_ms() < end)
    sleep_ms(1);
  atomic_store(&m->b_saw_c, atomic_load(&m->c_ran));
}

static void set_c(void *p) {
  atomic_store(&((struct meet *)p)->c_ran, 1);
}

/* A -> {B, C} -> D where B waits (up to 5 s) for C: the branches run at
 * once (B is added first, so one queue would run B before C). The graph
 * starts after the work queued before it on the launch stream, and work
 * queued after it starts after all of it. */
AH_TEST(graph_parallel_branches) {
  struct meet m = {0};
  struct trace t = {0};
  struct step sa = {&t, 1}, sd = {&t, 4};
  struct gate gt = GATE_INIT;
  hipHostNodeParams pa = {record_step, &sa}, pb = {wait_for_c, &m}, pc = {set_c, &m},
                    pd = {record_step, &sd};
  hipGraph_t g;
  hipGraphExec_t x;
  hipGraphNode_t a, b, c, d, bc[2];
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddHostNode(&a, g, NULL, 0, &pa));
  CHECK_HIP(hipGraphAddHostNode(&b, g, &a, 1, &pb));
  CHECK_HIP(hipGraphAddHostNode(&c, g, &a, 1, &pc));
  bc[0] = b;
  bc[1] = c;
  CHECK_HIP(hipGraphAddHostNode(&d, g, bc, 2, &pd));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  for (int rep = 0; rep < 3; rep++) {
    atomic_store(&m.c_ran, 0);
    atomic_store(&m.b_saw_c, 0);
    atomic_store(&t.n, 0);
    gt.open = 0;
    CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &gt));
    CHECK_HIP(hipGraphLaunch(x, rep == 2 ? NULL : s));
    sleep_ms(30);
    CHECK_EQ(atomic_load(&t.n), 0); /* behind the gate */
    CHECK_EQ(atomic_load(&m.c_ran), 0);
    gate_open(&gt);
    CHECK_HIP(hipStreamSynchronize(rep == 2 ? NULL : s));
    CHECK_EQ(atomic_load(&m.b_saw_c), 1);
    CHECK_EQ(atomic_load(&t.n), 2);
    CHECK(t.ids[0] == 1 && t.ids[1] == 4);
    CHECK_HIP(hipDeviceSynchronize());
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

struct tally {
  atomic_int roots;
  atomic_int seen; /* what the join node saw */
};

static void bump_root(void *p) {
  sleep_ms(2);
  atomic_fetch_add(&((struct tally *)p)->roots, 1);
}

static void join_fn(void *p) {
  struct tally *t = p;

  atomic_store(&t->seen, atomic_load(&t->roots));
}

/* More independent branches than internal queues: they share queues, and
 * the join still runs after all of them, every launch. */
AH_TEST(graph_wide) {
  enum { W = 11 };
  struct tally t = {0};
  hipHostNodeParams pr = {bump_root, &t}, pj = {join_fn, &t};
  hipGraph_t g;
  hipGraphExec_t x;
  hipGraphNode_t roots[W], mid[W], j;
  hipStream_t s;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipGraphCreate(&g, 0));
  for (int i = 0; i < W; i++) {
    CHECK_HIP(hipGraphAddHostNode(&roots[i], g, NULL, 0, &pr));
    CHECK_HIP(hipGraphAddEmptyNode(&mid[i], g, &roots[i], 1));
  }
  CHECK_HIP(hipGraphAddHostNode(&j, g, mid, W, &pj));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  for (int rep = 1; rep <= 4; rep++) {
    CHECK_HIP(hipGraphLaunch(x, s));
    CHECK_HIP(hipStreamSynchronize(s));
    CHECK_EQ(atomic_load(&t.seen), W * rep);
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* ---- node queries and parameters ---- */

static int has_node(const hipGraphNode_t *a, size_t n, hipGraphNode_t x) {
  for (size_t i = 0; i < n; i++)
    if (a[i] == x)
      return 1;
  return 0;
}

AH_TEST(graph_node_queries) {
  atomic_int c1 = 0, c2 = 0;
  hipHostNodeParams h1 = {count_fn, &c1}, h2 = {count_fn, &c2}, got;
  hipMemsetParams mp = {0}, mg;
  hipGraph_t g;
  hipGraphExec_t x;
  hipGraphNode_t a, b, c, d, list[6], from[6], to[6], bc[2];
  size_t n;
  int *dm;

  CHECK_HIP(hipMalloc((void **)&dm, 256));
  CHECK_HIP(hipGraphCreate(&g, 0));
  mp.dst = dm;
  mp.elementSize = 2;
  mp.width = 100;
  mp.height = 1;
  mp.value = 0x1234;
  CHECK_HIP(hipGraphAddMemsetNode(&a, g, NULL, 0, &mp));
  CHECK_HIP(hipGraphAddHostNode(&b, g, &a, 1, &h1));
  CHECK_HIP(hipGraphAddEmptyNode(&c, g, &a, 1));
  bc[0] = b;
  bc[1] = c;
  CHECK_HIP(hipGraphAddHostNode(&d, g, bc, 2, &h1));
  /* Dependencies and dependents. */
  CHECK_HIP(hipGraphNodeGetDependencies(d, NULL, &n));
  CHECK_EQ(n, 2);
  n = 6;
  CHECK_HIP(hipGraphNodeGetDependencies(d, list, &n));
  CHECK_EQ(n, 2);
  CHECK(has_node(list, 2, b) && has_node(list, 2, c) && list[2] == NULL);
  n = 6;
  CHECK_HIP(hipGraphNodeGetDependentNodes(a, list, &n));
  CHECK_EQ(n, 2);
  CHECK(has_node(list, 2, b) && has_node(list, 2, c));
  CHECK_HIP(hipGraphNodeGetDependencies(a, NULL, &n));
  CHECK_EQ(n, 0);
  CHECK_HIP(hipGraphNodeGetDependentNodes(d, NULL, &n));
  CHECK_EQ(n, 0);
  /* Edges. */
  CHECK_HIP(hipGraphGetEdges(g, NULL, NULL, &n));
  CHECK_EQ(n, 4);
  n = 6;
  CHECK_HIP(hipGraphGetEdges(g, from, to, &n));
  CHECK_EQ(n, 4);
  for (int i = 0; i < 4; i++)
    CHECK((from[i] == a && (to[i] == b || to[i] == c)) ||
          ((from[i] == b || from[i] == c) && to[i] == d));
  CHECK(from[4] == NULL && to[4] == NULL);
  CHECK_ERR(hipGraphGetEdges(g, from, NULL, &n), hipErrorInvalidValue);
  CHECK_ERR(hipGraphGetEdges(g, NULL, NULL, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeGetDependencies(a, NULL, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeGetDependentNodes(NULL, NULL, &n), hipErrorInvalidValue);
  /* Parameters: memset read back; host node changed before instantiation. */
  CHECK_HIP(hipGraphMemsetNodeGetParams(a, &mg));
  CHECK(mg.dst == dm && mg.elementSize == 2 && mg.width == 100 && mg.height == 1);
  CHECK_EQ(mg.value, 0x1234);
  CHECK_EQ(mg.pitch, 0); /* as given: a one-row set's pitch is the caller's (ROCm's suite) */
  CHECK_HIP(hipGraphHostNodeGetParams(b, &got));
  CHECK(got.fn == count_fn && got.userData == &c1);
  CHECK_HIP(hipGraphHostNodeSetParams(b, &h2));
  CHECK_HIP(hipGraphHostNodeGetParams(b, &got));
  CHECK(got.userData == &c2);
  /* Wrong node kinds, NULL outputs. */
  CHECK_ERR(hipGraphHostNodeGetParams(a, &got), hipErrorInvalidValue);
  CHECK_ERR(hipGraphMemsetNodeGetParams(b, &mg), hipErrorInvalidValue);
  CHECK_ERR(hipGraphHostNodeSetParams(c, &h2), hipErrorInvalidValue);
  CHECK_ERR(hipGraphHostNodeGetParams(b, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphMemsetNodeGetParams(a, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphHostNodeSetParams(b, NULL), hipErrorInvalidValue);
  {
    hipKernelNodeParams kp;

    CHECK_ERR(hipGraphKernelNodeGetParams(b, &kp), hipErrorInvalidValue);
    CHECK_ERR(hipGraphKernelNodeSetParams(b, &kp), hipErrorInvalidValue);
  }
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphHostNodeSetParams(b, &h1)); /* after instantiation: x keeps h2 */
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&c1), 1); /* d */
  CHECK_EQ(atomic_load(&c2), 1); /* b */
  {
    uint16_t h[128];

    CHECK_HIP(hipMemcpy(h, dm, sizeof(h), hipMemcpyDeviceToHost));
    for (int i = 0; i < 100; i++)
      CHECK_EQ(h[i], 0x1234);
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(dm));
  return AH_PASS;
}

/* A 3D copy node: a box from a host array into hipMalloc3D memory with a
 * non-contiguous pitch, then back out, each launch; checked against the
 * host indexing. */
AH_TEST(graph_memcpy_3d_node) {
  enum { W = 10, H = 3, D = 4 };
  unsigned char src[D][H][W], back[D][H][W];
  hipPitchedPtr dev;
  hipMemcpy3DParms in, out;
  hipGraph_t g;
  hipGraphNode_t a, b;
  hipGraphExec_t x;

  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int i = 0; i < W; i++)
        src[z][y][i] = (unsigned char)(z * 50 + y * 13 + i);
  memset(back, 0, sizeof(back));
  CHECK_HIP(hipMalloc3D(&dev, make_hipExtent(W, H + 2, D))); /* slices of H + 2 rows */
  memset(&in, 0, sizeof(in));
  in.srcPtr = make_hipPitchedPtr(src, W, W, H);
  in.dstPtr = dev;
  in.extent = make_hipExtent(W, H, D);
  in.kind = hipMemcpyHostToDevice;
  out = in;
  out.srcPtr = dev;
  out.dstPtr = make_hipPitchedPtr(back, W, W, H);
  out.kind = hipMemcpyDefault;
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddMemcpyNode(&a, g, NULL, 0, &in));
  CHECK_HIP(hipGraphAddMemcpyNode(&b, g, &a, 1, &out));
  {
    hipGraphNodeType t;

    CHECK_HIP(hipGraphNodeGetType(b, &t));
    CHECK_EQ(t, hipGraphNodeTypeMemcpy);
  }
  /* Checked as hipMemcpy3D: pitch below the width, empty box, NULL. */
  {
    hipMemcpy3DParms bad = in;
    hipGraphNode_t n;

    bad.srcPtr.pitch = W - 1;
    CHECK_ERR(hipGraphAddMemcpyNode(&n, g, NULL, 0, &bad), hipErrorInvalidPitchValue);
    bad = in;
    bad.extent = make_hipExtent(W, H, 0);
    CHECK_ERR(hipGraphAddMemcpyNode(&n, g, NULL, 0, &bad), hipErrorInvalidValue);
    bad = in;
    bad.extent = make_hipExtent(W, H + 3, D); /* past the slices of dev */
    CHECK_ERR(hipGraphAddMemcpyNode(&n, g, NULL, 0, &bad), hipErrorInvalidValue);
    CHECK_ERR(hipGraphAddMemcpyNode(&n, g, NULL, 0, NULL), hipErrorInvalidValue);
    CHECK_ERR(hipGraphAddMemcpyNode(NULL, g, NULL, 0, &in), hipErrorInvalidValue);
    /* A side given as both an array and a pointer (CUDA's and AMD's refusal), in a node and
     * in hipMemcpy3D. */
    {
      hipChannelFormatDesc cd = hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindUnsigned);
      hipArray_t arr;

      CHECK_HIP(hipMalloc3DArray(&arr, &cd, make_hipExtent(W, H, D), 0));
      bad = in;
      bad.dstPtr = make_hipPitchedPtr(NULL, 0, 0, 0);
      bad.dstArray = arr;
      CHECK_HIP(hipMemcpy3D(&bad)); /* the array alone is a valid destination */
      bad.srcArray = arr;
      CHECK_ERR(hipGraphAddMemcpyNode(&n, g, NULL, 0, &bad), hipErrorInvalidValue);
      CHECK_ERR(hipMemcpy3D(&bad), hipErrorInvalidValue);
      bad = in;
      bad.dstArray = arr; /* dstPtr is set too */
      CHECK_ERR(hipMemcpy3D(&bad), hipErrorInvalidValue);
      CHECK_HIP(hipFreeArray(arr));
    }
  }
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  /* An executable graph's copy keeps its direction as given (HIP). */
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams1D(x, a, dev.ptr, src, 4, hipMemcpyDeviceToDevice),
            hipErrorInvalidValue);
  for (int rep = 0; rep < 2; rep++) {
    memset(back, 0, sizeof(back));
    CHECK_HIP(hipGraphLaunch(x, NULL));
    CHECK_HIP(hipDeviceSynchronize());
    CHECK(memcmp(src, back, sizeof(src)) == 0);
    src[rep][0][0] ^= 0xff; /* the node reads the array at each launch */
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(dev.ptr));
  return AH_PASS;
}

/* A stream that joined a capture must come back before it ends: its last
 * node must come before the origin's last node. Otherwise the capture fails
 * with hipErrorStreamCaptureUnjoined and gives no graph. */
AH_TEST(graph_capture_unjoined) {
  hipStream_t s1, s2;
  hipEvent_t e, back;
  hipGraph_t g = NULL;
  hipStreamCaptureStatus st;

  CHECK_HIP(hipStreamCreate(&s1));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventCreate(&back));
  /* Forked, only waited for, no work of its own: nothing to rejoin. */
  CHECK_HIP(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipLaunchHostFunc(s1, nop_fn, NULL));
  CHECK_HIP(hipEventRecord(e, s1));
  CHECK_HIP(hipStreamWaitEvent(s2, e, 0));
  CHECK_HIP(hipLaunchHostFunc(s1, nop_fn, NULL));
  CHECK_HIP(hipStreamEndCapture(s1, &g));
  CHECK_HIP(hipGraphDestroy(g));
  /* Forked with work that never comes back. */
  CHECK_HIP(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipLaunchHostFunc(s1, nop_fn, NULL));
  CHECK_HIP(hipEventRecord(e, s1));
  CHECK_HIP(hipStreamWaitEvent(s2, e, 0));
  CHECK_HIP(hipLaunchHostFunc(s2, nop_fn, NULL));
  CHECK_RECORDS(hipStreamEndCapture(s1, &g), hipErrorStreamCaptureUnjoined);
  CHECK(g == NULL);
  CHECK_HIP(hipStreamIsCapturing(s2, &st));
  CHECK_EQ(st, hipStreamCaptureStatusNone);
  /* The same, joined back. */
  CHECK_HIP(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipLaunchHostFunc(s1, nop_fn, NULL));
  CHECK_HIP(hipEventRecord(e, s1));
  CHECK_HIP(hipStreamWaitEvent(s2, e, 0));
  CHECK_HIP(hipLaunchHostFunc(s2, nop_fn, NULL));
  CHECK_HIP(hipEventRecord(back, s2));
  CHECK_HIP(hipStreamWaitEvent(s1, back, 0));
  CHECK_HIP(hipStreamEndCapture(s1, &g));
  CHECK(g != NULL);
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipEventDestroy(back));
  CHECK_HIP(hipStreamDestroy(s1));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* Changing a graph: set, copy and host nodes get new parameters, in the
 * graph (seen by later instantiations) and in one executable graph only;
 * edges and nodes are removed; a clone's nodes are found from the
 * original's. */
AH_TEST(graph_node_changes) {
  atomic_int c1 = 0, c2 = 0;
  hipHostNodeParams h1 = {count_fn, &c1}, h2 = {count_fn, &c2};
  hipMemsetParams mp = {0};
  hipGraph_t g, c;
  hipGraphExec_t x, x2;
  hipGraphNode_t set, cpy, host, extra, found, nodes[8];
  int *d, out[16], other[16];
  size_t n;

  CHECK_HIP(hipMalloc((void **)&d, sizeof(out)));
  CHECK_HIP(hipGraphCreate(&g, 0));
  mp.dst = d;
  mp.elementSize = 4;
  mp.width = 16;
  mp.height = 1;
  mp.value = 5;
  CHECK_HIP(hipGraphAddMemsetNode(&set, g, NULL, 0, &mp));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&cpy, g, &set, 1, out, d, sizeof(out),
                                    hipMemcpyDeviceToHost));
  CHECK_HIP(hipGraphAddHostNode(&host, g, &cpy, 1, &h1));
  CHECK_HIP(hipGraphAddHostNode(&extra, g, &set, 1, &h1));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  /* The executable graph: set 9, copy into other[], host node counts c2. */
  mp.value = 9;
  CHECK_HIP(hipGraphExecMemsetNodeSetParams(x, set, &mp));
  CHECK_HIP(hipGraphExecMemcpyNodeSetParams1D(x, cpy, other, d, sizeof(other),
                                              hipMemcpyDeviceToHost));
  CHECK_HIP(hipGraphExecHostNodeSetParams(x, host, &h2));
  memset(out, 0, sizeof(out));
  memset(other, 0, sizeof(other));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  for (int i = 0; i < 16; i++)
    CHECK(other[i] == 9 && out[i] == 0);
  CHECK_EQ(atomic_load(&c2), 1);
  CHECK_EQ(atomic_load(&c1), 1); /* extra */
  /* The graph itself: set 3; the extra node and the set -> copy edge go. */
  mp.value = 3;
  CHECK_HIP(hipGraphMemsetNodeSetParams(set, &mp));
  CHECK_HIP(hipGraphMemcpyNodeSetParams1D(cpy, out, d, sizeof(out), hipMemcpyDefault));
  CHECK_HIP(hipGraphDestroyNode(extra));
  CHECK_ERR(hipGraphDestroyNode(extra), hipErrorInvalidValue);
  CHECK_HIP(hipGraphGetNodes(g, NULL, &n));
  CHECK_EQ(n, 3);
  CHECK_HIP(hipGraphNodeGetDependentNodes(set, NULL, &n));
  CHECK_EQ(n, 1);
  CHECK_HIP(hipGraphRemoveDependencies(g, &set, &cpy, 1));
  CHECK_ERR(hipGraphRemoveDependencies(g, &set, &cpy, 1), hipErrorInvalidValue);
  CHECK_HIP(hipGraphGetRootNodes(g, NULL, &n));
  CHECK_EQ(n, 2);
  CHECK_HIP(hipGraphAddDependencies(g, &set, &cpy, 1)); /* back, for the run below */
  CHECK_HIP(hipGraphInstantiate(&x2, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x2, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  for (int i = 0; i < 16; i++)
    CHECK_EQ(out[i], 3);
  CHECK_EQ(atomic_load(&c1), 2); /* host node, back in the graph's own parameters */
  /* Clones. */
  CHECK_HIP(hipGraphClone(&c, g));
  CHECK_HIP(hipGraphNodeFindInClone(&found, cpy, c));
  n = 8;
  CHECK_HIP(hipGraphGetNodes(c, nodes, &n));
  CHECK(has_node(nodes, n, found) && found != cpy);
  {
    hipGraphNodeType t;

    CHECK_HIP(hipGraphNodeGetType(found, &t));
    CHECK_EQ(t, hipGraphNodeTypeMemcpy);
  }
  CHECK_ERR(hipGraphNodeFindInClone(&found, cpy, g), hipErrorInvalidValue); /* not a clone */
  CHECK_ERR(hipGraphNodeFindInClone(NULL, cpy, c), hipErrorInvalidValue);
  /* Errors: wrong kinds, bad parameters, a 3D-less node given 1D... */
  CHECK_ERR(hipGraphExecMemsetNodeSetParams(x, host, &mp), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecHostNodeSetParams(x, set, &h1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecHostNodeSetParams(x, host, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams1D(x, cpy, NULL, d, 4, hipMemcpyDefault),
            hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams1D(x, found, out, d, 4, hipMemcpyDefault),
            hipErrorInvalidValue); /* a node of another graph */
  mp.elementSize = 8;
  CHECK_ERR(hipGraphMemsetNodeSetParams(set, &mp), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecMemsetNodeSetParams(x, set, &mp), hipErrorInvalidValue);
  /* Only 1D set nodes of an executable graph change, and only into 1D sets (CUDA's rule,
   * AMD's hipErrorInvalidValue). */
  mp.elementSize = 4;
  mp.width = 4;
  mp.height = 2;
  mp.pitch = 32;
  CHECK_ERR(hipGraphExecMemsetNodeSetParams(x, set, &mp), hipErrorInvalidValue);
  {
    hipGraph_t g2;
    hipGraphNode_t set2;
    hipGraphExec_t x3;

    CHECK_HIP(hipGraphCreate(&g2, 0));
    CHECK_HIP(hipGraphAddMemsetNode(&set2, g2, NULL, 0, &mp)); /* a 2D node */
    CHECK_HIP(hipGraphInstantiate(&x3, g2, NULL, NULL, 0));
    mp.width = 8;
    CHECK_ERR(hipGraphExecMemsetNodeSetParams(x3, set2, &mp), hipErrorInvalidValue);
    mp.height = 1;
    CHECK_ERR(hipGraphExecMemsetNodeSetParams(x3, set2, &mp), hipErrorInvalidValue);
    CHECK_HIP(hipGraphExecDestroy(x3));
    CHECK_HIP(hipGraphDestroy(g2));
  }
  CHECK_ERR(hipGraphMemcpyNodeSetParams1D(host, out, d, 4, hipMemcpyDefault),
            hipErrorInvalidValue);
  CHECK_ERR(hipGraphRemoveDependencies(g, NULL, &cpy, 1), hipErrorInvalidValue);
  CHECK_ERR(hipGraphDestroyNode(NULL), hipErrorInvalidValue);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphExecDestroy(x2));
  CHECK_HIP(hipGraphDestroy(c));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* hipStreamBeginCaptureToGraph: captured work joins an existing graph after
 * the given nodes; ending gives that same graph back. */
AH_TEST(graph_capture_to_graph) {
  struct trace t = {0};
  struct step sa = {&t, 1}, sb = {&t, 2}, sc = {&t, 3};
  hipHostNodeParams pa = {record_step, &sa};
  hipGraph_t g, other, got = NULL;
  hipGraphNode_t a, foreign, deps[2];
  hipGraphEdgeData ed[1];
  hipGraphExec_t x;
  hipStream_t s, s2;
  size_t n;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphCreate(&other, 0));
  CHECK_HIP(hipGraphAddHostNode(&a, g, NULL, 0, &pa));
  CHECK_HIP(hipGraphAddEmptyNode(&foreign, other, NULL, 0));
  /* Errors first. */
  memset(ed, 0, sizeof(ed));
  ed[0].type = 1;
  CHECK_ERR(hipStreamBeginCaptureToGraph(s, g, &a, ed, 1, hipStreamCaptureModeGlobal),
            hipErrorInvalidValue);
  CHECK_ERR(hipStreamBeginCaptureToGraph(s, g, &foreign, NULL, 1, hipStreamCaptureModeGlobal),
            hipErrorInvalidValue);
  CHECK_ERR(hipStreamBeginCaptureToGraph(s, NULL, NULL, NULL, 0, hipStreamCaptureModeGlobal),
            hipErrorInvalidValue);
  CHECK_ERR(hipStreamBeginCaptureToGraph(NULL, g, NULL, NULL, 0, hipStreamCaptureModeGlobal),
            hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, (hipStreamCaptureMode)9),
            hipErrorInvalidValue);
  /* The real one: B after A; C after B. */
  ed[0].type = 0;
  CHECK_HIP(hipStreamBeginCaptureToGraph(s, g, &a, ed, 1, hipStreamCaptureModeGlobal));
  CHECK_ERR(hipStreamBeginCaptureToGraph(s2, g, NULL, NULL, 0, hipStreamCaptureModeGlobal),
            hipErrorIllegalState); /* one capture into a graph at a time */
  {
    const hipGraphNode_t *cur;
    hipStreamCaptureStatus st;

    CHECK_HIP(hipStreamGetCaptureInfo_v2(s, &st, NULL, &got, &cur, &n));
    CHECK(got == g);
    CHECK_EQ(n, 1);
    CHECK(cur[0] == a);
  }
  CHECK_HIP(hipLaunchHostFunc(s, record_step, &sb));
  CHECK_HIP(hipLaunchHostFunc(s, record_step, &sc));
  got = NULL;
  CHECK_HIP(hipStreamEndCapture(s, &got));
  CHECK(got == g);
  CHECK_HIP(hipGraphGetNodes(g, NULL, &n));
  CHECK_EQ(n, 3);
  CHECK_HIP(hipGraphGetRootNodes(g, deps, &(size_t){2}));
  CHECK(deps[0] == a && deps[1] == NULL);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&t.n), 3);
  CHECK(t.ids[0] == 1 && t.ids[1] == 2 && t.ids[2] == 3);
  /* An invalidated capture into a user's graph leaves the graph usable. */
  CHECK_HIP(hipStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, hipStreamCaptureModeGlobal));
  CHECK_ERR(hipStreamSynchronize(s), hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamEndCapture(s, &got), hipErrorStreamCaptureInvalidated);
  CHECK(got == NULL);
  CHECK_HIP(hipGraphGetNodes(g, NULL, &n));
  CHECK_EQ(n, 3);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphDestroy(other));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* A capture begun by another thread, with the mode each thread runs in:
 * hipThreadExchangeStreamCaptureMode decides whether that capture stops this
 * thread's null-stream work. */
struct capturer {
  hipStream_t s;
  hipStreamCaptureMode mode;
  atomic_int phase; /* 1: capturing; 2: asked to end; 3: ended */
  hipError_t end;
};

static void *capture_thread(void *p) {
  struct capturer *c = p;
  hipGraph_t g = NULL;

  if (hipStreamBeginCapture(c->s, c->mode) != hipSuccess) {
    atomic_store(&c->phase, 3);
    return NULL;
  }
  atomic_store(&c->phase, 1);
  while (atomic_load(&c->phase) != 2)
    sleep_ms(1);
  c->end = hipStreamEndCapture(c->s, &g);
  if (g != NULL)
    (void)hipGraphDestroy(g);
  atomic_store(&c->phase, 3);
  return NULL;
}

/* Runs a capture in another thread with `mode`; returns what hipMemcpy on
 * the null stream (or hipDeviceSynchronize, when devsync) gives in this
 * thread meanwhile, and in *end what hipStreamEndCapture gave there. */
static hipError_t call_during(hipStreamCaptureMode mode, int devsync, hipError_t *end) {
  struct capturer c = {.mode = mode};
  pthread_t th;
  int *d, h = 1;
  hipError_t r;

  if (hipStreamCreate(&c.s) != hipSuccess || hipMalloc((void **)&d, 4) != hipSuccess)
    return hipErrorUnknown;
  pthread_create(&th, NULL, capture_thread, &c);
  while (atomic_load(&c.phase) == 0)
    sleep_ms(1);
  r = devsync ? hipDeviceSynchronize() : hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice);
  atomic_store(&c.phase, 2);
  pthread_join(th, NULL);
  *end = c.end;
  (void)hipFree(d);
  (void)hipStreamDestroy(c.s);
  return r;
}

#define copy_during(mode, end) call_during(mode, 0, end)

AH_TEST(graph_capture_thread_modes) {
  hipStreamCaptureMode m;
  hipError_t end;

  CHECK_ERR(hipThreadExchangeStreamCaptureMode(NULL), hipErrorInvalidValue);
  m = (hipStreamCaptureMode)7;
  CHECK_ERR(hipThreadExchangeStreamCaptureMode(&m), hipErrorInvalidValue);
  /* This thread Global (the default): another thread's Global capture stops it
   * and is invalidated; a ThreadLocal or Relaxed one does not. */
  CHECK_ERR(copy_during(hipStreamCaptureModeGlobal, &end), hipErrorStreamCaptureImplicit);
  CHECK_EQ(end, hipErrorStreamCaptureInvalidated);
  CHECK_HIP(copy_during(hipStreamCaptureModeThreadLocal, &end));
  CHECK_HIP(end);
  CHECK_HIP(copy_during(hipStreamCaptureModeRelaxed, &end));
  CHECK_HIP(end);
  /* This thread ThreadLocal, then Relaxed: others' Global captures do not stop it. */
  m = hipStreamCaptureModeThreadLocal;
  CHECK_HIP(hipThreadExchangeStreamCaptureMode(&m));
  CHECK_EQ(m, hipStreamCaptureModeGlobal);
  CHECK_HIP(copy_during(hipStreamCaptureModeGlobal, &end));
  CHECK_HIP(end);
  m = hipStreamCaptureModeRelaxed;
  CHECK_HIP(hipThreadExchangeStreamCaptureMode(&m));
  CHECK_EQ(m, hipStreamCaptureModeThreadLocal);
  CHECK_HIP(copy_during(hipStreamCaptureModeGlobal, &end));
  CHECK_HIP(end);
  /* Relaxed: even this thread's own Global capture does not stop it. */
  {
    hipStream_t s;
    hipGraph_t g;
    int *d, h = 3;

    CHECK_HIP(hipStreamCreate(&s));
    CHECK_HIP(hipMalloc((void **)&d, 4));
    CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    CHECK_HIP(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice));
    /* Back to Global: now it is refused. */
    m = hipStreamCaptureModeGlobal;
    CHECK_HIP(hipThreadExchangeStreamCaptureMode(&m));
    CHECK_EQ(m, hipStreamCaptureModeRelaxed);
    CHECK_ERR(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice),
              hipErrorStreamCaptureImplicit);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
    CHECK_HIP(hipFree(d));
    CHECK_HIP(hipStreamDestroy(s));
  }
  return AH_PASS;
}

/* ---- event nodes ---- */

struct slow_flag {
  atomic_int set;
};

static void slow_set(void *p) {
  sleep_ms(30);
  atomic_store(&((struct slow_flag *)p)->set, 1);
}

static void read_flag(void *p) {
  struct slow_flag *f = p;

  atomic_store(&f[1].set, atomic_load(&f[0].set) + 1); /* 2: f[0] was set when this ran */
}

/* A record node: the event completes only after the nodes before it, and
 * another stream can wait for it. A wait node: the graph's later nodes wait
 * for a record made on another stream. */
AH_TEST(graph_event_nodes) {
  struct slow_flag f[2] = {{0}, {0}};
  atomic_int count = 0;
  struct gate gt = GATE_INIT;
  hipHostNodeParams ps = {slow_set, f}, pc = {count_fn, &count};
  hipGraph_t g, g2;
  hipGraphExec_t x, x2;
  hipGraphNode_t a, rec, w, after;
  hipEvent_t e, e2, got;
  hipStream_t s, s2;
  hipGraphNodeType t;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventCreate(&e2));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddHostNode(&a, g, NULL, 0, &ps));
  CHECK_HIP(hipGraphAddEventRecordNode(&rec, g, &a, 1, e));
  CHECK_HIP(hipGraphNodeGetType(rec, &t));
  CHECK_EQ(t, hipGraphNodeTypeEventRecord);
  CHECK_HIP(hipGraphEventRecordNodeGetEvent(rec, &got));
  CHECK(got == e);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamWaitEvent(s2, e, 0));
  CHECK_HIP(hipLaunchHostFunc(s2, read_flag, f));
  CHECK_HIP(hipEventSynchronize(e));
  CHECK_EQ(atomic_load(&f[0].set), 1);
  CHECK_HIP(hipStreamSynchronize(s2));
  CHECK_EQ(atomic_load(&f[1].set), 2);
  CHECK_HIP(hipStreamSynchronize(s));

  /* Wait node on e2, recorded on s2 behind a gate. */
  CHECK_HIP(hipGraphCreate(&g2, 0));
  CHECK_HIP(hipGraphAddEventWaitNode(&w, g2, NULL, 0, e));
  CHECK_HIP(hipGraphAddHostNode(&after, g2, &w, 1, &pc));
  CHECK_HIP(hipGraphEventWaitNodeSetEvent(w, e2));
  CHECK_HIP(hipGraphEventWaitNodeGetEvent(w, &got));
  CHECK(got == e2);
  CHECK_HIP(hipGraphInstantiate(&x2, g2, NULL, NULL, 0));
  CHECK_HIP(hipLaunchHostFunc(s2, gate_fn, &gt));
  CHECK_HIP(hipEventRecord(e2, s2));
  CHECK_HIP(hipGraphLaunch(x2, s));
  sleep_ms(30);
  CHECK_EQ(atomic_load(&count), 0);
  gate_open(&gt);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&count), 1);

  /* Setters and errors. */
  CHECK_HIP(hipGraphEventRecordNodeSetEvent(rec, e2));
  CHECK_HIP(hipGraphExecEventRecordNodeSetEvent(x, rec, e2));
  CHECK_HIP(hipGraphExecEventWaitNodeSetEvent(x2, w, e));
  CHECK_ERR(hipGraphExecEventWaitNodeSetEvent(x2, rec, e), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecEventRecordNodeSetEvent(x2, w, e), hipErrorInvalidValue);
  CHECK_ERR(hipGraphEventRecordNodeGetEvent(w, &got), hipErrorInvalidValue);
  CHECK_ERR(hipGraphEventWaitNodeGetEvent(rec, &got), hipErrorInvalidValue);
  CHECK_ERR(hipGraphEventWaitNodeGetEvent(w, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddEventRecordNode(&a, g, NULL, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddEventWaitNode(&a, g, NULL, 0, (hipEvent_t)(uintptr_t)0x1234),
            hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddEventWaitNode(NULL, g, NULL, 0, e), hipErrorInvalidValue);
  CHECK_ERR(hipGraphEventWaitNodeSetEvent(w, NULL), hipErrorInvalidValue);
  /* An event destroyed after it was set: the launch fails. */
  {
    hipEvent_t gone;
    hipGraphNode_t r2;
    hipGraphExec_t x3;

    CHECK_HIP(hipEventCreate(&gone));
    CHECK_HIP(hipGraphAddEventRecordNode(&r2, g2, NULL, 0, gone));
    CHECK_HIP(hipGraphInstantiate(&x3, g2, NULL, NULL, 0));
    CHECK_HIP(hipEventDestroy(gone));
    CHECK_RECORDS(hipGraphLaunch(x3, s), hipErrorInvalidHandle);
    CHECK_HIP(hipStreamSynchronize(s));
    CHECK_HIP(hipGraphExecDestroy(x3));
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphExecDestroy(x2));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphDestroy(g2));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipEventDestroy(e2));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* ---- calls refused during capture ---- */

/* Begins a Global capture on s with one memset node of d (4 ints of v). */
static hipError_t begin_with_set(hipStream_t s, int *d, int v, hipStreamCaptureMode mode) {
  hipError_t err = hipStreamBeginCapture(s, mode);

  return err != hipSuccess ? err : hipMemsetD32Async((hipDeviceptr_t)d, v, 4, s);
}

/* hipDeviceSynchronize: refused (and the capture invalidated) while this
 * thread captures in Global or ThreadLocal mode, or another thread in Global
 * mode; allowed for a Relaxed capture and in a Relaxed or ThreadLocal thread. */
AH_TEST(graph_capture_device_sync) {
  hipStream_t s;
  hipGraph_t g = NULL;
  hipGraphExec_t x;
  hipStreamCaptureStatus st;
  hipError_t end;
  int *d, h[4];

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  for (int mode = 0; mode < 2; mode++) {
    CHECK_HIP(begin_with_set(s, d, 5,
                             mode == 0 ? hipStreamCaptureModeGlobal
                                       : hipStreamCaptureModeThreadLocal));
    CHECK_ERR(hipDeviceSynchronize(), hipErrorStreamCaptureUnsupported);
    CHECK_HIP(hipStreamIsCapturing(s, &st));
    CHECK_EQ(st, hipStreamCaptureStatusInvalidated);
    CHECK_ERR(hipMemsetD32Async((hipDeviceptr_t)d, 1, 4, s), hipErrorStreamCaptureInvalidated);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
    CHECK(g == NULL);
  }
  /* The thread's own Relaxed capture refuses it too (AMD), but stays valid
   * and its graph still runs. */
  CHECK_HIP(hipMemset(d, 0, sizeof(h)));
  CHECK_HIP(begin_with_set(s, d, 9, hipStreamCaptureModeRelaxed));
  CHECK_ERR(hipDeviceSynchronize(), hipErrorStreamCaptureUnsupported);
  CHECK_HIP(hipStreamIsCapturing(s, &st));
  CHECK_EQ(st, hipStreamCaptureStatusActive);
  CHECK_HIP(hipStreamEndCapture(s, &g));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  CHECK_EQ(h[0], 0); /* captured, not run */
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    CHECK_EQ(h[i], 9);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  /* Another thread's capture: only a Global one stops this (Global) thread. */
  CHECK_ERR(call_during(hipStreamCaptureModeGlobal, 1, &end), hipErrorStreamCaptureUnsupported);
  CHECK_EQ(end, hipErrorStreamCaptureInvalidated);
  CHECK_HIP(call_during(hipStreamCaptureModeThreadLocal, 1, &end));
  CHECK_HIP(end);
  CHECK_HIP(call_during(hipStreamCaptureModeRelaxed, 1, &end));
  CHECK_HIP(end);
  /* This thread Relaxed: even its own Global capture does not stop it. */
  {
    hipStreamCaptureMode m = hipStreamCaptureModeRelaxed;

    CHECK_HIP(hipThreadExchangeStreamCaptureMode(&m));
    CHECK_HIP(begin_with_set(s, d, 5, hipStreamCaptureModeGlobal));
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipStreamEndCapture(s, &g));
    CHECK_HIP(hipGraphDestroy(g));
    CHECK_HIP(hipThreadExchangeStreamCaptureMode(&m));
  }
  CHECK_HIP(hipDeviceSynchronize()); /* no capture: fine */
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* hipEventQuery / hipEventSynchronize of an event recorded in a capture
 * still going: hipErrorCapturedEvent, and the capture is invalidated. An
 * event recorded outside the capture is queried as usual; synchronizing on
 * it is an unsafe call (refused by Global captures). */
AH_TEST(graph_capture_event_sync) {
  hipStream_t s, s2;
  hipEvent_t e, out;
  hipGraph_t g = NULL;
  hipStreamCaptureStatus st;
  int *d, h[4];

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&s2));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipEventCreate(&out));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  for (int call = 0; call < 2; call++) {
    CHECK_HIP(begin_with_set(s, d, 5, hipStreamCaptureModeGlobal));
    CHECK_HIP(hipEventRecord(e, s));
    CHECK_ERR(call == 0 ? hipEventQuery(e) : hipEventSynchronize(e), hipErrorCapturedEvent);
    CHECK_HIP(hipStreamIsCapturing(s, &st));
    CHECK_EQ(st, hipStreamCaptureStatusInvalidated);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
    CHECK(g == NULL);
    /* The capture is over: the event is an ordinary one again. */
    CHECK_HIP(hipEventRecord(e, s2));
    CHECK_HIP(hipEventSynchronize(e));
    CHECK_HIP(hipEventQuery(e));
  }
  /* An event recorded outside the capture: hipEventSynchronize is an unsafe
   * call, refused by a Global capture (AMD: 900), which is invalidated ... */
  CHECK_HIP(hipMemsetD32Async((hipDeviceptr_t)d, 3, 4, s2));
  CHECK_HIP(hipEventRecord(out, s2));
  CHECK_HIP(begin_with_set(s, d, 5, hipStreamCaptureModeGlobal));
  CHECK_ERR(hipEventSynchronize(out), hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
  /* ... and allowed by a Relaxed one, which stays valid. */
  CHECK_HIP(begin_with_set(s, d, 5, hipStreamCaptureModeRelaxed));
  CHECK_HIP(hipEventSynchronize(out));
  CHECK_HIP(hipEventQuery(out));
  CHECK_HIP(hipStreamEndCapture(s, &g));
  CHECK(g != NULL);
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    CHECK_EQ(h[i], 3); /* s2's set ran; the captured one did not */
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipEventDestroy(out));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* hipMemcpyWithStream is synchronous: on a capturing stream it is refused
 * and invalidates the capture; on another stream it copies as usual. */
AH_TEST(graph_capture_memcpy_with_stream) {
  hipStream_t s, s2;
  hipGraph_t g = NULL;
  int *d, h[4] = {1, 2, 3, 4}, back[4] = {0};

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(begin_with_set(s, d, 5, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipMemcpyWithStream(d, h, sizeof(h), hipMemcpyHostToDevice, s2));
  CHECK_HIP(hipMemcpyWithStream(back, d, sizeof(h), hipMemcpyDeviceToHost, s2));
  for (int i = 0; i < 4; i++)
    CHECK_EQ(back[i], i + 1);
  CHECK_ERR(hipMemcpyWithStream(d, h, sizeof(h), hipMemcpyHostToDevice, s),
            hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
  CHECK(g == NULL);
  /* Not capturing: an ordinary synchronous copy on s. */
  h[0] = 42;
  CHECK_HIP(hipMemcpyWithStream(d, h, sizeof(h), hipMemcpyHostToDevice, s));
  CHECK_HIP(hipMemcpyWithStream(back, d, sizeof(h), hipMemcpyDeviceToHost, s));
  CHECK_EQ(back[0], 42);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipStreamDestroy(s2));
  return AH_PASS;
}

/* hipDeviceReset during a capture ends it (its stream is destroyed, its
 * graph discarded): nothing is left that forbids the null stream, and a new
 * capture works. */
AH_TEST(graph_capture_device_reset) {
  hipStream_t s;
  hipGraph_t g = NULL;
  hipGraphExec_t x;
  hipStreamCaptureStatus st = hipStreamCaptureStatusActive;
  int *d, h[4];

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(begin_with_set(s, d, 5, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipDeviceReset());
  CHECK_HIP(hipStreamIsCapturing(NULL, &st)); /* a capture left behind: Implicit */
  CHECK_EQ(st, hipStreamCaptureStatusNone);
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(hipMemset(d, 0, sizeof(h))); /* the null stream works again */
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(begin_with_set(s, d, 8, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipStreamEndCapture(s, &g));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    CHECK_EQ(h[i], 8);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* ---- graph memory nodes ---- */

/* alloc -> memset -> copy out -> host check -> free, launched several
 * times: the address given when the node was added is the one the nodes
 * use at every launch; getters, clones, attributes and error paths. */
AH_TEST(graph_mem_nodes) {
  enum { N = 256 };
  hipGraph_t g, c;
  hipGraphNode_t an, sn, cn, fn, bad, twin;
  hipGraphExec_t x;
  hipStream_t s;
  hipMemAllocNodeParams ap, got;
  hipGraphNodeType t;
  uint64_t used = 1, high = 0;
  int h[N];
  void *fp = NULL;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipGraphCreate(&g, 0));
  memset(&ap, 0, sizeof(ap));
  ap.poolProps.allocType = hipMemAllocationTypePinned;
  ap.poolProps.location.type = hipMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = N * sizeof(int);
  CHECK_HIP(hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, &used));
  CHECK_EQ(used, 0);
  CHECK_HIP(hipGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
  CHECK(ap.dptr != NULL);
  CHECK_HIP(hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, &used));
  CHECK(used >= N * sizeof(int));
  {
    hipMemsetParams mp = {.dst = ap.dptr, .elementSize = 4, .width = N, .height = 1,
                          .value = 0x01020304};

    CHECK_HIP(hipGraphAddMemsetNode(&sn, g, &an, 1, &mp));
  }
  CHECK_HIP(hipGraphAddMemcpyNode1D(&cn, g, &sn, 1, h, ap.dptr, sizeof(h),
                                    hipMemcpyDeviceToHost));
  CHECK_HIP(hipGraphAddMemFreeNode(&fn, g, &cn, 1, ap.dptr));
  CHECK_HIP(hipGraphNodeGetType(an, &t));
  CHECK_EQ(t, hipGraphNodeTypeMemAlloc);
  CHECK_HIP(hipGraphNodeGetType(fn, &t));
  CHECK_EQ(t, hipGraphNodeTypeMemFree);
  CHECK_HIP(hipGraphMemAllocNodeGetParams(an, &got));
  CHECK(got.dptr == ap.dptr);
  CHECK_EQ(got.bytesize, N * sizeof(int));
  CHECK_EQ(got.poolProps.location.id, 0);
  CHECK_HIP(hipGraphMemFreeNodeGetParams(fn, &fp));
  CHECK(fp == ap.dptr);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  for (int run = 0; run < 3; run++) {
    memset(h, 0, sizeof(h));
    CHECK_HIP(hipGraphLaunch(x, s));
    CHECK_HIP(hipStreamSynchronize(s));
    for (int i = 0; i < N; i++)
      CHECK_EQ(h[i], 0x01020304);
  }
  /* A clone shares the block (same address); the executable graph keeps it
   * after the graph is gone. */
  CHECK_HIP(hipGraphClone(&c, g));
  CHECK_HIP(hipGraphNodeFindInClone(&twin, an, c));
  CHECK_HIP(hipGraphMemAllocNodeGetParams(twin, &got));
  CHECK(got.dptr == ap.dptr);
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphDestroy(c));
  memset(h, 0, sizeof(h));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(h[N - 1], 0x01020304);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, &used));
  CHECK_EQ(used, 0); /* the last holder gave it back */
  CHECK_HIP(hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrReservedMemHigh, &high));
  CHECK(high >= N * sizeof(int));
  high = 0;
  CHECK_HIP(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, &high));
  CHECK_HIP(hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, &high));
  CHECK_EQ(high, 0);
  CHECK_HIP(hipDeviceGraphMemTrim(0));

  /* Errors. */
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_ERR(hipGraphAddMemAllocNode(NULL, g, NULL, 0, &ap), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddMemAllocNode(&bad, g, NULL, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddMemAllocNode(&bad, NULL, NULL, 0, &ap), hipErrorInvalidValue);
  ap.bytesize = 0;
  CHECK_ERR(hipGraphAddMemAllocNode(&bad, g, NULL, 0, &ap), hipErrorInvalidValue);
  ap.bytesize = 64;
  ap.poolProps.location.id = 99;
  CHECK_ERR(hipGraphAddMemAllocNode(&bad, g, NULL, 0, &ap), hipErrorInvalidValue);
  ap.poolProps.location.id = 0;
  ap.poolProps.allocType = hipMemAllocationTypeInvalid;
  CHECK_ERR(hipGraphAddMemAllocNode(&bad, g, NULL, 0, &ap), hipErrorInvalidValue);
  ap.poolProps.allocType = hipMemAllocationTypePinned;
  ap.accessDescCount = 1;
  CHECK_ERR(hipGraphAddMemAllocNode(&bad, g, NULL, 0, &ap), hipErrorInvalidValue);
  ap.accessDescCount = 0;
  CHECK_HIP(hipGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
  {
    void *plain;

    CHECK_HIP(hipMalloc(&plain, 64));
    CHECK_ERR(hipGraphAddMemFreeNode(&bad, g, &an, 1, plain), hipErrorInvalidValue);
    CHECK_HIP(hipFree(plain));
  }
  CHECK_ERR(hipGraphAddMemFreeNode(&bad, g, &an, 1, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddMemFreeNode(NULL, g, &an, 1, ap.dptr), hipErrorInvalidValue);
  CHECK_ERR(hipGraphMemAllocNodeGetParams(an, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphMemFreeNodeGetParams(an, &fp), hipErrorInvalidValue); /* wrong type */
  CHECK_ERR(hipGraphMemAllocNodeGetParams(NULL, &got), hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetGraphMemAttribute(99, hipGraphMemAttrUsedMemCurrent, &used),
            hipErrorInvalidDevice);
  CHECK_ERR(hipDeviceGetGraphMemAttribute(0, (hipGraphMemAttributeType)9, &used),
            hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, NULL),
            hipErrorInvalidValue);
  high = 5;
  CHECK_ERR(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, &high),
            hipErrorInvalidValue);
  high = 0;
  CHECK_ERR(hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, &high),
            hipErrorInvalidValue);
  CHECK_ERR(hipDeviceGraphMemTrim(99), hipErrorInvalidDevice);
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* hipMallocAsync / hipFreeAsync on a capturing stream become memory alloc
 * and free nodes: the address is given at capture time and the graph runs
 * many times; freeing memory that is not the capture's is refused. */
AH_TEST(graph_capture_malloc_async) {
  enum { N = 64 };
  hipStream_t s;
  hipGraph_t g = NULL;
  hipGraphExec_t x;
  hipGraphNode_t nodes[8];
  hipGraphNodeType t;
  size_t nn = 8;
  int *d = NULL, h[N], *plain;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipMallocAsync((void **)&d, sizeof(h), s));
  CHECK(d != NULL);
  CHECK_HIP(hipMemsetD32Async((hipDeviceptr_t)d, 77, N, s));
  CHECK_HIP(hipMemcpyAsync(h, d, sizeof(h), hipMemcpyDeviceToHost, s));
  CHECK_HIP(hipFreeAsync(d, s));
  CHECK_HIP(hipStreamEndCapture(s, &g));
  CHECK_HIP(hipGraphGetNodes(g, nodes, &nn));
  CHECK_EQ(nn, 4);
  CHECK_HIP(hipGraphNodeGetType(nodes[0], &t));
  CHECK_EQ(t, hipGraphNodeTypeMemAlloc);
  CHECK_HIP(hipGraphNodeGetType(nodes[3], &t));
  CHECK_EQ(t, hipGraphNodeTypeMemFree);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  for (int run = 0; run < 3; run++) {
    memset(h, 0, sizeof(h));
    CHECK_HIP(hipGraphLaunch(x, s));
    CHECK_HIP(hipStreamSynchronize(s));
    for (int i = 0; i < N; i++)
      CHECK_EQ(h[i], 77);
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  /* Freeing memory from outside the capture: refused, capture invalidated. */
  CHECK_HIP(hipMallocAsync((void **)&plain, 64, s));
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  CHECK_ERR(hipFreeAsync(plain, s), hipErrorStreamCaptureUnsupported);
  CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
  CHECK_HIP(hipFreeAsync(plain, s));
  /* hipMallocFromPoolAsync of the default pool during capture: an alloc
   * node, as hipMallocAsync (hip-tests' capturehipFreeAsync); another
   * pool is refused. */
  {
    hipMemPool_t pool, mine;
    hipMemPoolProps props;
    hipGraphNode_t nodes[4];
    hipGraphNodeType t;
    size_t num = 4;
    void *p;

    CHECK_HIP(hipDeviceGetDefaultMemPool(&pool, 0));
    CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    CHECK_HIP(hipMallocFromPoolAsync(&p, 64, pool, s));
    CHECK(p != NULL);
    CHECK_HIP(hipMemsetAsync(p, 0x5a, 64, s));
    CHECK_HIP(hipFreeAsync(p, s));
    CHECK_HIP(hipStreamEndCapture(s, &g));
    CHECK_HIP(hipGraphGetNodes(g, nodes, &num));
    CHECK_EQ(num, 3);
    CHECK_HIP(hipGraphNodeGetType(nodes[0], &t));
    CHECK_EQ(t, hipGraphNodeTypeMemAlloc);
    CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    CHECK_HIP(hipGraphLaunch(x, s));
    CHECK_HIP(hipStreamSynchronize(s));
    CHECK_HIP(hipGraphExecDestroy(x));
    CHECK_HIP(hipGraphDestroy(g));
    memset(&props, 0, sizeof(props));
    props.allocType = hipMemAllocationTypePinned;
    props.location.type = hipMemLocationTypeDevice;
    CHECK_HIP(hipMemPoolCreate(&mine, &props));
    CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    CHECK_ERR(hipMallocFromPoolAsync(&p, 64, mine, s), hipErrorStreamCaptureUnsupported);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
    CHECK_HIP(hipMemPoolDestroy(mine));
  }
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}
