/* SPDX-License-Identifier: MIT */
/* Tests of the graph API's second round through the C API: 3D copy node
 * parameters read back and set (in a graph and in an executable graph),
 * child graph nodes, the generic hipGraphAddNode / hipGraphNodeSetParams /
 * hipGraphExecNodeSetParams, hipGraphExecUpdate, node enable/disable,
 * hipGraphUpload and hipGraphInstantiateWithParams, user objects,
 * hipStreamUpdateCaptureDependencies, a graph with an alloc node
 * instantiated twice, refusals during capture, the driver-style nodes and
 * hipGraphDebugDotPrint. Each result is checked against host arithmetic.
 * Kernel nodes (attributes, symbol copies, child graphs of kernels) are in
 * tests/kernels/graph_nodes.hip. */
#include "ah_test.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 256 };

static hipMemsetParams set_params(void *dst, unsigned value, size_t n) {
  hipMemsetParams p;

  memset(&p, 0, sizeof(p));
  p.dst = dst;
  p.elementSize = 4;
  p.width = n;
  p.height = 1;
  p.value = value;
  return p;
}

/* A 3D copy node's parameters are read back as given; setting them (in the
 * graph, then in an executable graph) changes what the launch copies. */
AH_TEST(graph_memcpy_node_params) {
  int src[N], src2[N], back[N];
  int *d;
  hipGraph_t g;
  hipGraphNode_t up, down, set;
  hipGraphExec_t x;
  hipMemcpy3DParms p, q;
  hipMemsetParams sp;

  for (int i = 0; i < N; i++) {
    src[i] = i * 3 + 1;
    src2[i] = 1000 - i;
  }
  CHECK_HIP(hipMalloc((void **)&d, sizeof(src)));
  CHECK_HIP(hipGraphCreate(&g, 0));
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_hipPitchedPtr(src, sizeof(src), N, 1);
  p.dstPtr = make_hipPitchedPtr(d, sizeof(src), N, 1);
  p.extent = make_hipExtent(sizeof(src), 1, 1);
  p.kind = hipMemcpyHostToDevice;
  CHECK_HIP(hipGraphAddMemcpyNode(&up, g, NULL, 0, &p));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&down, g, &up, 1, back, d, sizeof(back),
                                    hipMemcpyDeviceToHost));
  /* Read back: the 3D form as given, the 1D form as one row. */
  memset(&q, 0xab, sizeof(q));
  CHECK_HIP(hipGraphMemcpyNodeGetParams(up, &q));
  CHECK(memcmp(&p, &q, sizeof(p)) == 0);
  CHECK_HIP(hipGraphMemcpyNodeGetParams(down, &q));
  CHECK(q.srcPtr.ptr == d && q.dstPtr.ptr == back && q.extent.width == sizeof(back) &&
        q.extent.height == 1 && q.extent.depth == 1 && q.kind == hipMemcpyDeviceToHost);
  /* Errors. */
  CHECK_ERR(hipGraphMemcpyNodeGetParams(NULL, &q), hipErrorInvalidValue);
  CHECK_ERR(hipGraphMemcpyNodeGetParams(up, NULL), hipErrorInvalidValue);
  sp = set_params(d, 1, N);
  CHECK_HIP(hipGraphAddMemsetNode(&set, g, NULL, 0, &sp));
  CHECK_ERR(hipGraphMemcpyNodeGetParams(set, &q), hipErrorInvalidValue); /* not a copy node */
  CHECK_ERR(hipGraphMemcpyNodeSetParams(set, &p), hipErrorInvalidValue);
  CHECK_ERR(hipGraphMemcpyNodeSetParams(up, NULL), hipErrorInvalidValue);
  q = p;
  q.kind = (hipMemcpyKind)77;
  CHECK_ERR(hipGraphMemcpyNodeSetParams(up, &q), hipErrorInvalidMemcpyDirection);
  q = p;
  q.extent = make_hipExtent(sizeof(src), 1, 2); /* a second slice: past the allocation */
  CHECK_ERR(hipGraphMemcpyNodeSetParams(up, &q), hipErrorInvalidValue);
  CHECK_HIP(hipGraphDestroyNode(set));
  /* New 1D parameters must not overlap (AMD's rule). */
  CHECK_ERR(hipGraphMemcpyNodeSetParams1D(down, d, d, 64, hipMemcpyDeviceToDevice),
            hipErrorInvalidValue);
  CHECK_ERR(hipGraphMemcpyNodeSetParams1D(down, d + 4, d, 64, hipMemcpyDeviceToDevice),
            hipErrorInvalidValue);
  /* Set in the graph: src2 instead of src. */
  q = p;
  q.srcPtr.ptr = src2;
  CHECK_HIP(hipGraphMemcpyNodeSetParams(up, &q));
  CHECK_HIP(hipGraphMemcpyNodeGetParams(up, &p));
  CHECK(p.srcPtr.ptr == src2);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK(memcmp(back, src2, sizeof(back)) == 0);
  /* Set in the executable graph only: back to src; the direction stays. */
  q.srcPtr.ptr = src;
  CHECK_HIP(hipGraphExecMemcpyNodeSetParams(x, up, &q));
  q.kind = hipMemcpyDefault;
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams(x, up, &q), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams(NULL, up, &q), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams(x, NULL, &q), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams(x, up, NULL), hipErrorInvalidValue);
  /* A pitch below the row's width: hipErrorInvalidPitchValue in the graph,
   * an invalid value in the executable graph (AMD's codes). */
  q = p;
  q.srcPtr.ptr = src;
  q.dstPtr.pitch = q.extent.width / 2;
  CHECK_ERR(hipGraphMemcpyNodeSetParams(up, &q), hipErrorInvalidPitchValue);
  CHECK_ERR(hipGraphExecMemcpyNodeSetParams(x, up, &q), hipErrorInvalidValue);
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK(memcmp(back, src, sizeof(back)) == 0);
  CHECK_HIP(hipGraphMemcpyNodeGetParams(up, &p)); /* the graph's node kept src2 */
  CHECK(p.srcPtr.ptr == src2);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

struct counter {
  atomic_int n;
};

static void bump(void *p) {
  atomic_fetch_add(&((struct counter *)p)->n, 1);
}

/* A child graph node runs a copy of its graph, made when the node is added:
 * a set and a copy in the child, a host node after the child node. */
AH_TEST(graph_child_node) {
  int *d, back[N], back2[N];
  hipGraph_t child, parent, inner, other;
  hipGraphNode_t cset, ccopy, cnode, host, n2, nodes[4];
  hipGraphExec_t x;
  hipMemsetParams sp = {0};
  hipHostNodeParams hp;
  struct counter c = {0};
  hipGraphNodeType t;
  size_t num = 4;

  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK_HIP(hipGraphCreate(&child, 0));
  sp = set_params(d, 7, N);
  CHECK_HIP(hipGraphAddMemsetNode(&cset, child, NULL, 0, &sp));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&ccopy, child, &cset, 1, back, d, sizeof(back),
                                    hipMemcpyDeviceToHost));
  CHECK_HIP(hipGraphCreate(&parent, 0));
  CHECK_ERR(hipGraphAddChildGraphNode(NULL, parent, NULL, 0, child), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddChildGraphNode(&cnode, NULL, NULL, 0, child), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddChildGraphNode(&cnode, parent, NULL, 0, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipGraphAddChildGraphNode(&cnode, parent, NULL, 0, child));
  hp.fn = bump;
  hp.userData = &c;
  CHECK_HIP(hipGraphAddHostNode(&host, parent, &cnode, 1, &hp));
  CHECK_HIP(hipGraphNodeGetType(cnode, &t));
  CHECK_EQ(t, hipGraphNodeTypeGraph);
  /* The node's graph is a copy: two nodes, not the handle given. */
  CHECK_HIP(hipGraphChildGraphNodeGetGraph(cnode, &inner));
  CHECK(inner != child);
  CHECK_HIP(hipGraphGetNodes(inner, nodes, &num));
  CHECK_EQ(num, 2);
  CHECK_ERR(hipGraphChildGraphNodeGetGraph(host, &inner), hipErrorInvalidValue);
  CHECK_ERR(hipGraphChildGraphNodeGetGraph(cnode, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphDestroy(inner), hipErrorInvalidValue); /* owned by its node */
  {
    /* It can be instantiated by itself (a copy of the child). */
    hipGraphExec_t xi;

    CHECK_HIP(hipGraphInstantiate(&xi, inner, NULL, NULL, 0));
    CHECK_HIP(hipGraphExecDestroy(xi));
  }
  /* Changing the given graph now changes nothing in the node. */
  sp.value = 99;
  CHECK_HIP(hipGraphMemsetNodeSetParams(cset, &sp));
  CHECK_HIP(hipGraphInstantiate(&x, parent, NULL, NULL, 0));
  for (int rep = 0; rep < 2; rep++) {
    memset(back, 0, sizeof(back));
    CHECK_HIP(hipGraphLaunch(x, NULL));
    CHECK_HIP(hipStreamSynchronize(NULL));
    for (int i = 0; i < N; i++)
      CHECK_EQ(back[i], 7);
    CHECK_EQ(atomic_load(&c.n), rep + 1);
  }
  /* hipGraphExecChildGraphNodeSetParams: a graph of the same shape gives
   * the executable graph's child its parameters (value 99 now, copied into
   * back2); another shape is refused. */
  CHECK_HIP(hipGraphDestroyNode(ccopy));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&ccopy, child, &cset, 1, back2, d, sizeof(back2),
                                    hipMemcpyDeviceToHost));
  CHECK_HIP(hipGraphExecChildGraphNodeSetParams(x, cnode, child));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back2[i], 99);
  CHECK_HIP(hipGraphCreate(&other, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&n2, other, NULL, 0));
  CHECK_ERR(hipGraphExecChildGraphNodeSetParams(x, cnode, other), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecChildGraphNodeSetParams(x, host, child), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecChildGraphNodeSetParams(NULL, cnode, child), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecChildGraphNodeSetParams(x, cnode, NULL), hipErrorInvalidValue);
  /* A clone of the parent has its own copy of the child. */
  {
    hipGraph_t cl, cinner;
    hipGraphNode_t cn;

    CHECK_HIP(hipGraphClone(&cl, parent));
    CHECK_HIP(hipGraphNodeFindInClone(&cn, cnode, cl));
    CHECK_HIP(hipGraphChildGraphNodeGetGraph(cn, &cinner));
    CHECK(cinner != inner);
    CHECK_HIP(hipGraphDestroy(cl));
  }
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(other));
  CHECK_HIP(hipGraphDestroy(parent));
  CHECK_HIP(hipGraphDestroy(child));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* hipGraphAddNode and the generic setters, node type by node type. */
AH_TEST(graph_add_node_generic) {
  int *d, back[N];
  hipGraph_t g, child;
  hipGraphNode_t set, copy, host, empty, rec, cn, alloc, fr, k;
  hipGraphExec_t x;
  hipGraphNodeParams p;
  hipEvent_t e;
  struct counter c = {0};
  hipGraphNodeType t;
  void *mem;

  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphCreate(&child, 0));
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeMemset;
  p.memset = set_params(d, 5, N);
  CHECK_HIP(hipGraphAddNode(&set, g, NULL, 0, &p));
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeMemcpy;
  p.memcpy.copyParams.srcPtr = make_hipPitchedPtr(d, sizeof(back), N, 1);
  p.memcpy.copyParams.dstPtr = make_hipPitchedPtr(back, sizeof(back), N, 1);
  p.memcpy.copyParams.extent = make_hipExtent(sizeof(back), 1, 1);
  p.memcpy.copyParams.kind = hipMemcpyDeviceToHost;
  CHECK_HIP(hipGraphAddNode(&copy, g, &set, 1, &p));
  p.memcpy.flags = 1; /* must be zero */
  CHECK_ERR(hipGraphAddNode(&k, g, NULL, 0, &p), hipErrorInvalidValue);
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeHost;
  p.host.fn = bump;
  p.host.userData = &c;
  CHECK_HIP(hipGraphAddNode(&host, g, &copy, 1, &p));
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeEmpty;
  CHECK_HIP(hipGraphAddNode(&empty, g, &host, 1, &p));
  p.reserved0[1] = 1;
  CHECK_ERR(hipGraphAddNode(&k, g, NULL, 0, &p), hipErrorInvalidValue);
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeEventRecord;
  p.eventRecord.event = e;
  CHECK_HIP(hipGraphAddNode(&rec, g, &empty, 1, &p));
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeGraph;
  p.graph.graph = child;
  CHECK_HIP(hipGraphAddNode(&cn, g, NULL, 0, &p));
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeMemAlloc;
  p.alloc.poolProps.allocType = hipMemAllocationTypePinned;
  p.alloc.poolProps.location.type = hipMemLocationTypeDevice;
  p.alloc.bytesize = 64;
  CHECK_HIP(hipGraphAddNode(&alloc, g, NULL, 0, &p));
  mem = p.alloc.dptr;
  CHECK(mem != NULL);
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeMemFree;
  p.free.dptr = mem;
  CHECK_HIP(hipGraphAddNode(&fr, g, &alloc, 1, &p));
  p.free.dptr = d; /* not the graph's memory */
  CHECK_ERR(hipGraphAddNode(&k, g, NULL, 0, &p), hipErrorInvalidValue);
  CHECK_HIP(hipGraphNodeGetType(fr, &t));
  CHECK_EQ(t, hipGraphNodeTypeMemFree);
  /* Errors. */
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeExtSemaphoreSignal;
  CHECK_ERR(hipGraphAddNode(&k, g, NULL, 0, &p), hipErrorInvalidValue);
  p.type = (hipGraphNodeType)99;
  CHECK_ERR(hipGraphAddNode(&k, g, NULL, 0, &p), hipErrorInvalidValue);
  p.type = hipGraphNodeTypeEmpty;
  CHECK_ERR(hipGraphAddNode(NULL, g, NULL, 0, &p), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddNode(&k, NULL, NULL, 0, &p), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddNode(&k, g, NULL, 0, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphAddNode(&k, g, NULL, 1, &p), hipErrorInvalidValue);
  /* hipGraphNodeSetParams: the node's own type only. */
  memset(&p, 0, sizeof(p));
  p.type = hipGraphNodeTypeMemset;
  p.memset = set_params(d, 6, N);
  CHECK_HIP(hipGraphNodeSetParams(set, &p));
  CHECK_ERR(hipGraphNodeSetParams(copy, &p), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeSetParams(NULL, &p), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeSetParams(set, NULL), hipErrorInvalidValue);
  p.type = hipGraphNodeTypeMemAlloc; /* memory nodes cannot be changed */
  CHECK_ERR(hipGraphNodeSetParams(alloc, &p), hipErrorInvalidValue);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back[i], 6);
  CHECK_EQ(atomic_load(&c.n), 1);
  CHECK_HIP(hipEventQuery(e)); /* recorded by the graph */
  /* hipGraphExecNodeSetParams: the executable graph's copy only. */
  p.type = hipGraphNodeTypeMemset;
  p.memset = set_params(d, 8, N);
  CHECK_HIP(hipGraphExecNodeSetParams(x, set, &p));
  CHECK_ERR(hipGraphExecNodeSetParams(x, copy, &p), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecNodeSetParams(NULL, set, &p), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecNodeSetParams(x, set, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back[i], 8);
  CHECK_EQ(atomic_load(&c.n), 2);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphDestroy(child));
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Builds set(value) -> copy to back, the shape hipGraphExecUpdate needs. */
static hipError_t set_copy_graph(hipGraph_t *g, int *d, int *back, unsigned value,
                                 hipGraphNode_t *set) {
  hipMemsetParams sp = set_params(d, value, N);
  hipGraphNode_t copy;
  hipError_t err = hipGraphCreate(g, 0);

  if (err == hipSuccess)
    err = hipGraphAddMemsetNode(set, *g, NULL, 0, &sp);
  if (err == hipSuccess)
    err = hipGraphAddMemcpyNode1D(&copy, *g, set, 1, back, d, N * sizeof(int),
                                  hipMemcpyDeviceToHost);
  return err;
}

/* hipGraphExecUpdate takes a graph of the same shape's parameters; other
 * shapes are refused with the reason and the node, and nothing changes. */
AH_TEST(graph_exec_update) {
  int *d, back[N];
  hipGraph_t g1, g2, g3;
  hipGraphNode_t s1, s2, s3, err_node, extra;
  hipGraphExec_t x;
  hipGraphExecUpdateResult r;
  hipHostNodeParams hp;
  struct counter c = {0};

  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK_HIP(set_copy_graph(&g1, d, back, 1, &s1));
  CHECK_HIP(set_copy_graph(&g2, d, back, 2, &s2));
  CHECK_HIP(hipGraphInstantiate(&x, g1, NULL, NULL, 0));
  CHECK_HIP(hipGraphExecUpdate(x, g2, &err_node, &r));
  CHECK_EQ(r, hipGraphExecUpdateSuccess);
  CHECK(err_node == NULL);
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back[i], 2);
  /* One more node: topology changed. */
  CHECK_HIP(set_copy_graph(&g3, d, back, 3, &s3));
  CHECK_HIP(hipGraphAddEmptyNode(&extra, g3, NULL, 0));
  CHECK_ERR(hipGraphExecUpdate(x, g3, &err_node, &r), hipErrorGraphExecUpdateFailure);
  CHECK_EQ(r, hipGraphExecUpdateErrorTopologyChanged);
  /* Same count, another type in place of the set: node type changed. */
  CHECK_HIP(hipGraphDestroy(g3));
  CHECK_HIP(hipGraphCreate(&g3, 0));
  hp.fn = bump;
  hp.userData = &c;
  CHECK_HIP(hipGraphAddHostNode(&s3, g3, NULL, 0, &hp));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&extra, g3, &s3, 1, back, d, N * sizeof(int),
                                    hipMemcpyDeviceToHost));
  CHECK_ERR(hipGraphExecUpdate(x, g3, &err_node, &r), hipErrorGraphExecUpdateFailure);
  CHECK_EQ(r, hipGraphExecUpdateErrorNodeTypeChanged);
  CHECK(err_node == s3);
  /* Same nodes, the edge gone: topology changed. */
  CHECK_HIP(hipGraphRemoveDependencies(g2, &s2, NULL, 0));
  {
    hipGraphNode_t from[1], to[1];
    size_t ne = 1;

    CHECK_HIP(hipGraphGetEdges(g2, from, to, &ne));
    CHECK_EQ(ne, 1);
    CHECK_HIP(hipGraphRemoveDependencies(g2, from, to, 1));
  }
  CHECK_ERR(hipGraphExecUpdate(x, g2, &err_node, &r), hipErrorGraphExecUpdateFailure);
  CHECK_EQ(r, hipGraphExecUpdateErrorTopologyChanged);
  /* Nothing changed by the failures: still value 2. */
  memset(back, 0, sizeof(back));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back[i], 2);
  CHECK_EQ(atomic_load(&c.n), 0);
  /* Argument errors. */
  CHECK_ERR(hipGraphExecUpdate(NULL, g1, &err_node, &r), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecUpdate(x, NULL, &err_node, &r), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecUpdate(x, g1, NULL, &r), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecUpdate(x, g1, &err_node, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g1));
  CHECK_HIP(hipGraphDestroy(g2));
  CHECK_HIP(hipGraphDestroy(g3));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* A disabled set node runs as an empty node; enabled again, it sets. */
AH_TEST(graph_node_enable) {
  int *d, back[N];
  hipGraph_t g;
  hipGraphNode_t set, host, empty;
  hipGraphExec_t x;
  unsigned on = 7;
  hipHostNodeParams hp;
  struct counter c = {0};

  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK_HIP(hipMemset(d, 0, N * sizeof(int)));
  CHECK_HIP(set_copy_graph(&g, d, back, 4, &set));
  hp.fn = bump;
  hp.userData = &c;
  CHECK_HIP(hipGraphAddHostNode(&host, g, NULL, 0, &hp));
  CHECK_HIP(hipGraphAddEmptyNode(&empty, g, NULL, 0));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphNodeGetEnabled(x, set, &on));
  CHECK_EQ(on, 1);
  CHECK_HIP(hipGraphNodeSetEnabled(x, set, 0));
  CHECK_HIP(hipGraphNodeGetEnabled(x, set, &on));
  CHECK_EQ(on, 0);
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back[i], 0); /* the copy ran, the set did not */
  CHECK_HIP(hipGraphNodeSetEnabled(x, set, 5)); /* any nonzero enables */
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back[i], 4);
  CHECK_EQ(atomic_load(&c.n), 2);
  /* Only kernel, copy and set nodes; handles. */
  CHECK_ERR(hipGraphNodeSetEnabled(x, host, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeGetEnabled(x, empty, &on), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeSetEnabled(NULL, set, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeSetEnabled(x, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphNodeGetEnabled(x, set, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* hipGraphInstantiateWithParams (with and without upload), hipGraphUpload,
 * hipGraphExecGetFlags; a cycle reported as an invalid structure. */
AH_TEST(graph_instantiate_params_upload) {
  int *d, back[N];
  hipGraph_t g, cyc;
  hipGraphNode_t set, a, b;
  hipGraphExec_t x;
  hipGraphInstantiateParams ip;
  hipStream_t s;
  unsigned long long flags = 99;
  hipHostNodeParams hp;
  struct counter c = {0};

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK_HIP(set_copy_graph(&g, d, back, 9, &set));
  /* A second branch, so the graph has internal queues to upload. */
  hp.fn = bump;
  hp.userData = &c;
  CHECK_HIP(hipGraphAddHostNode(&a, g, NULL, 0, &hp));
  memset(&ip, 0, sizeof(ip));
  ip.flags = hipGraphInstantiateFlagUpload;
  ip.uploadStream = s;
  ip.result_out = (hipGraphInstantiateResult)42;
  CHECK_HIP(hipGraphInstantiateWithParams(&x, g, &ip));
  CHECK_EQ(ip.result_out, hipGraphInstantiateSuccess);
  CHECK_HIP(hipGraphExecGetFlags(x, &flags));
  CHECK_EQ(flags, (unsigned long long)hipGraphInstantiateFlagUpload);
  CHECK_HIP(hipGraphUpload(x, s));
  CHECK_HIP(hipGraphUpload(x, NULL));
  CHECK_HIP(hipGraphLaunch(x, s));
  CHECK_HIP(hipStreamSynchronize(s));
  for (int i = 0; i < N; i++)
    CHECK_EQ(back[i], 9);
  CHECK_EQ(atomic_load(&c.n), 1);
  CHECK_ERR(hipGraphUpload(NULL, s), hipErrorInvalidValue);
  CHECK_ERR(hipGraphUpload(x, (hipStream_t)(uintptr_t)0x1234), hipErrorContextIsDestroyed);
  CHECK_ERR(hipGraphExecGetFlags(x, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipGraphExecGetFlags(NULL, &flags), hipErrorInvalidValue);
  CHECK_HIP(hipGraphExecDestroy(x));
  /* Upload needs the params' stream: refused by hipGraphInstantiateWithFlags. */
  CHECK_ERR(hipGraphInstantiateWithFlags(&x, g, hipGraphInstantiateFlagUpload),
            hipErrorInvalidValue);
  /* A cycle. */
  CHECK_HIP(hipGraphCreate(&cyc, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&a, cyc, NULL, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&b, cyc, &a, 1));
  CHECK_HIP(hipGraphAddDependencies(cyc, &b, &a, 1));
  memset(&ip, 0, sizeof(ip));
  CHECK_ERR(hipGraphInstantiateWithParams(&x, cyc, &ip), hipErrorInvalidValue);
  CHECK_EQ(ip.result_out, hipGraphInstantiateInvalidStructure);
  CHECK(ip.errNode_out == a || ip.errNode_out == b);
  CHECK_ERR(hipGraphInstantiateWithParams(NULL, g, &ip), hipErrorInvalidValue);
  CHECK_ERR(hipGraphInstantiateWithParams(&x, g, NULL), hipErrorInvalidValue);
  ip.flags = 1u << 20;
  CHECK_ERR(hipGraphInstantiateWithParams(&x, g, &ip), hipErrorInvalidValue);
  CHECK_HIP(hipGraphDestroy(cyc));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

static atomic_int destroyed;

static void destroy_obj(void *p) {
  atomic_fetch_add(&destroyed, 1);
  *(int *)p = -1;
}

/* User objects: the destructor runs once, when the last reference (user,
 * graph, clone or executable graph) goes. */
AH_TEST(graph_user_objects) {
  int obj = 0;
  hipUserObject_t o;
  hipGraph_t g, cl;
  hipGraphNode_t e;
  hipGraphExec_t x;

  atomic_store(&destroyed, 0);
  /* Argument errors. */
  CHECK_ERR(hipUserObjectCreate(NULL, &obj, destroy_obj, 1, hipUserObjectNoDestructorSync),
            hipErrorInvalidValue);
  CHECK_ERR(hipUserObjectCreate(&o, &obj, NULL, 1, hipUserObjectNoDestructorSync),
            hipErrorInvalidValue);
  CHECK_ERR(hipUserObjectCreate(&o, &obj, destroy_obj, 0, hipUserObjectNoDestructorSync),
            hipErrorInvalidValue);
  CHECK_ERR(hipUserObjectCreate(&o, &obj, destroy_obj, 1, 0), hipErrorInvalidValue);
  CHECK_ERR(hipUserObjectCreate(&o, &obj, destroy_obj, 1, 9), hipErrorInvalidValue);
  /* User references only. */
  CHECK_HIP(hipUserObjectCreate(&o, &obj, destroy_obj, 2, hipUserObjectNoDestructorSync));
  CHECK_HIP(hipUserObjectRetain(o, 3));
  CHECK_ERR(hipUserObjectRetain(o, 0), hipErrorInvalidValue);
  CHECK_ERR(hipUserObjectRelease(o, 0), hipErrorInvalidValue);
  CHECK_ERR(hipUserObjectRetain(NULL, 1), hipErrorInvalidValue);
  CHECK_ERR(hipUserObjectRelease(NULL, 1), hipErrorInvalidValue);
  CHECK_HIP(hipUserObjectRelease(o, 4));
  CHECK_EQ(atomic_load(&destroyed), 0);
  CHECK_HIP(hipUserObjectRelease(o, 1));
  CHECK_EQ(atomic_load(&destroyed), 1);
  CHECK_EQ(obj, -1);
  /* Destroyed: the handle stays valid for a while, retains and releases of
   * it do nothing (AMD's runtime accepts them). */
  CHECK_HIP(hipUserObjectRetain(o, 1));
  CHECK_HIP(hipUserObjectRelease(o, 2));
  CHECK_EQ(atomic_load(&destroyed), 1);
  /* Graph, clone and executable graph references. */
  atomic_store(&destroyed, 0);
  obj = 0;
  CHECK_HIP(hipUserObjectCreate(&o, &obj, destroy_obj, 1, hipUserObjectNoDestructorSync));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&e, g, NULL, 0));
  CHECK_ERR(hipGraphRetainUserObject(NULL, o, 1, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphRetainUserObject(g, NULL, 1, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphRetainUserObject(g, o, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphRetainUserObject(g, o, 1, 2), hipErrorInvalidValue);
  CHECK_HIP(hipGraphReleaseUserObject(g, o, 1)); /* holds none: nothing (AMD) */
  CHECK_EQ(atomic_load(&destroyed), 0);
  CHECK_HIP(hipGraphRetainUserObject(g, o, 2, 0));                     /* two new ones */
  CHECK_HIP(hipGraphRetainUserObject(g, o, 1, hipGraphUserObjectMove)); /* the user's */
  CHECK_HIP(hipGraphClone(&cl, g));
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_HIP(hipGraphReleaseUserObject(g, o, 1));
  CHECK_ERR(hipGraphReleaseUserObject(g, o, 0), hipErrorInvalidValue);
  CHECK_HIP(hipGraphDestroy(g)); /* its last 2 */
  CHECK_EQ(atomic_load(&destroyed), 0);
  CHECK_HIP(hipGraphDestroy(cl));
  CHECK_EQ(atomic_load(&destroyed), 0); /* the executable graph still holds it */
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_EQ(atomic_load(&destroyed), 1);
  CHECK_EQ(obj, -1);
  /* Releasing more than there are destroys it once. */
  atomic_store(&destroyed, 0);
  CHECK_HIP(hipUserObjectCreate(&o, &obj, destroy_obj, 2, hipUserObjectNoDestructorSync));
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphRetainUserObject(g, o, 3, 0));
  CHECK_HIP(hipUserObjectRelease(o, 100)); /* every reference: destroyed */
  CHECK_EQ(atomic_load(&destroyed), 1);
  CHECK_HIP(hipGraphReleaseUserObject(g, o, 3)); /* the graph still names it */
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_EQ(atomic_load(&destroyed), 1);
  return AH_PASS;
}

/* hipStreamUpdateCaptureDependencies: the next captured node depends on
 * the nodes given (set) or on them too (add). */
AH_TEST(graph_update_capture_deps) {
  hipStream_t s;
  hipGraph_t g = NULL, cg, other;
  hipGraphNode_t a, b, foreign, deps[4];
  const hipGraphNode_t *cur;
  size_t n = 0, num = 4;
  hipStreamCaptureStatus st;
  int *d;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMalloc((void **)&d, 64));
  CHECK_HIP(hipGraphCreate(&other, 0));
  CHECK_HIP(hipGraphAddEmptyNode(&foreign, other, NULL, 0));
  CHECK_ERR(hipStreamUpdateCaptureDependencies(s, NULL, 0, hipStreamAddCaptureDependencies),
            hipErrorIllegalState);
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  CHECK_HIP(hipMemsetAsync(d, 1, 64, s)); /* node A */
  CHECK_HIP(hipStreamGetCaptureInfo_v2(s, &st, NULL, &cg, &cur, &n));
  CHECK_EQ(n, 1);
  a = cur[0];
  CHECK_HIP(hipGraphAddEmptyNode(&b, cg, NULL, 0)); /* B, added by hand */
  CHECK_ERR(hipStreamUpdateCaptureDependencies(s, &b, 1, 7), hipErrorInvalidValue);
  CHECK_ERR(hipStreamUpdateCaptureDependencies(s, NULL, 1, hipStreamAddCaptureDependencies),
            hipErrorInvalidValue);
  CHECK_ERR(hipStreamUpdateCaptureDependencies(s, &foreign, 1, hipStreamAddCaptureDependencies),
            hipErrorInvalidValue);
  CHECK_HIP(hipStreamUpdateCaptureDependencies(s, &b, 1, hipStreamAddCaptureDependencies));
  CHECK_HIP(hipStreamGetCaptureInfo_v2(s, &st, NULL, NULL, &cur, &n));
  CHECK_EQ(n, 2);
  CHECK_HIP(hipMemsetAsync(d, 2, 64, s)); /* C after A and B */
  CHECK_HIP(hipStreamUpdateCaptureDependencies(s, &b, 1, hipStreamSetCaptureDependencies));
  CHECK_HIP(hipMemsetAsync(d, 3, 64, s)); /* D after B only */
  CHECK_HIP(hipStreamEndCapture(s, &g));
  CHECK(g == cg);
  CHECK_HIP(hipGraphGetNodes(g, deps, &num));
  CHECK_EQ(num, 4);
  /* C (third node) has A and B; D (fourth) has B only. */
  num = 4;
  CHECK_HIP(hipGraphNodeGetDependencies(deps[2], deps, &num));
  CHECK_EQ(num, 2);
  CHECK((deps[0] == a && deps[1] == b) || (deps[0] == b && deps[1] == a));
  num = 4;
  CHECK_HIP(hipGraphGetNodes(g, deps, &num));
  num = 4;
  CHECK_HIP(hipGraphNodeGetDependencies(deps[3], deps, &num));
  CHECK_EQ(num, 1);
  CHECK(deps[0] == b);
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphDestroy(other));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* A graph with an alloc node has one executable graph at a time (801). */
AH_TEST(graph_alloc_node_one_exec) {
  hipGraph_t g;
  hipGraphNode_t an;
  hipGraphExec_t x1, x2;
  hipMemAllocNodeParams ap;
  hipGraphNode_t bad = NULL;

  memset(&ap, 0, sizeof(ap));
  ap.poolProps.allocType = hipMemAllocationTypePinned;
  ap.poolProps.location.type = hipMemLocationTypeDevice;
  ap.bytesize = 256;
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
  CHECK_HIP(hipGraphInstantiate(&x1, g, NULL, NULL, 0));
  CHECK_ERR(hipGraphInstantiate(&x2, g, &bad, NULL, 0), hipErrorNotSupported);
  CHECK(bad == an);
  CHECK_HIP(hipGraphExecDestroy(x1));
  CHECK_HIP(hipGraphInstantiate(&x2, g, NULL, NULL, 0)); /* the first is gone */
  CHECK_HIP(hipGraphExecDestroy(x2));
  CHECK_HIP(hipGraphDestroy(g));
  return AH_PASS;
}

/* Calls AMD refuses during capture (hip-tests' expectations): synchronizing
 * another stream and hipMalloc are unsafe calls (900) under the thread's
 * Global or ThreadLocal capture; synchronous null-stream work is an
 * implicit use of the null stream (906). A Relaxed capture allows them. */
AH_TEST(graph_capture_unsafe_calls) {
  hipStream_t s, other;
  hipGraph_t g = NULL;
  int *d, *p = NULL, h = 1;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipStreamCreate(&other));
  CHECK_HIP(hipMalloc((void **)&d, 64));
  for (int mode = 0; mode < 2; mode++) {
    hipStreamCaptureMode m = mode == 0 ? hipStreamCaptureModeGlobal
                                       : hipStreamCaptureModeThreadLocal;

    CHECK_HIP(hipStreamBeginCapture(s, m));
    CHECK_ERR(hipStreamSynchronize(other), hipErrorStreamCaptureUnsupported);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
    CHECK_HIP(hipStreamBeginCapture(s, m));
    CHECK_ERR(hipMalloc((void **)&p, 64), hipErrorStreamCaptureUnsupported);
    CHECK(p == NULL);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
    CHECK_HIP(hipStreamBeginCapture(s, m));
    CHECK_ERR(hipMemset(d, 0, 64), hipErrorStreamCaptureImplicit);
    CHECK_ERR(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice), hipErrorStreamCaptureImplicit);
    CHECK_ERR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
  }
  CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
  CHECK_HIP(hipStreamSynchronize(other));
  CHECK_HIP(hipMalloc((void **)&p, 64));
  CHECK_HIP(hipStreamEndCapture(s, &g));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(p));
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipStreamDestroy(other));
  return AH_PASS;
}

/* The driver-style nodes: a HIP_MEMCPY3D box (rows 1..2 of a pitched
 * source, at x offset 8) and a HIP_MEMSET_NODE_PARAMS set; their
 * parameters read back as given. */
AH_TEST(graph_drv_nodes) {
  enum { W = 16, H = 4 };
  unsigned char host[H][W], back[H][W];
  unsigned char *d;
  hipGraph_t g;
  hipGraphNode_t set, up, down;
  hipGraphExec_t x;
  HIP_MEMSET_NODE_PARAMS mp;
  HIP_MEMCPY3D c, q;

  for (int y = 0; y < H; y++)
    for (int i = 0; i < W; i++)
      host[y][i] = (unsigned char)(y * W + i);
  CHECK_HIP(hipMalloc((void **)&d, sizeof(host)));
  CHECK_HIP(hipGraphCreate(&g, 0));
  memset(&mp, 0, sizeof(mp));
  mp.dst = d;
  mp.value = 0xee;
  mp.elementSize = 1;
  mp.width = sizeof(host);
  mp.height = 1;
  CHECK_HIP(hipDrvGraphAddMemsetNode(&set, g, NULL, 0, &mp, NULL));
  memset(&c, 0, sizeof(c));
  c.srcMemoryType = hipMemoryTypeHost;
  c.srcHost = host;
  c.srcPitch = W;
  c.srcHeight = H;
  c.srcXInBytes = 8;
  c.srcY = 1;
  c.dstMemoryType = hipMemoryTypeDevice;
  c.dstDevice = d;
  c.dstPitch = W;
  c.dstHeight = H;
  c.dstXInBytes = 8;
  c.dstY = 1;
  c.WidthInBytes = 8;
  c.Height = 2;
  c.Depth = 1;
  CHECK_HIP(hipDrvGraphAddMemcpyNode(&up, g, &set, 1, &c, NULL));
  CHECK_HIP(hipGraphAddMemcpyNode1D(&down, g, &up, 1, back, d, sizeof(back),
                                    hipMemcpyDeviceToHost));
  CHECK_HIP(hipDrvGraphMemcpyNodeGetParams(up, &q));
  CHECK(memcmp(&c, &q, sizeof(c)) == 0);
  /* Errors. */
  q = c;
  q.srcHost = NULL;
  CHECK_ERR(hipDrvGraphAddMemcpyNode(&down, g, NULL, 0, &q, NULL),
            hipErrorInvalidValue);
  q = c;
  q.WidthInBytes = 0;
  CHECK_ERR(hipDrvGraphMemcpyNodeSetParams(up, &q), hipErrorInvalidValue);
  q = c;
  q.srcPitch = 8; /* x 8 + width 8 needs 16 */
  CHECK_ERR(hipDrvGraphMemcpyNodeSetParams(up, &q), hipErrorInvalidValue);
  CHECK_ERR(hipDrvGraphMemcpyNodeSetParams(set, &c), hipErrorInvalidValue);
  CHECK_ERR(hipDrvGraphMemcpyNodeGetParams(NULL, &q), hipErrorInvalidValue);
  CHECK_ERR(hipDrvGraphMemcpyNodeGetParams(up, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipDrvGraphAddMemsetNode(&set, g, NULL, 0, NULL, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipDrvGraphAddMemcpyNode(&up, g, NULL, 0, &c, (hipCtx_t)(uintptr_t)0x10),
            hipErrorInvalidValue);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  for (int y = 0; y < H; y++)
    for (int i = 0; i < W; i++)
      CHECK_EQ(back[y][i], (y >= 1 && y < 3 && i >= 8) ? host[y][i] : 0xee);
  /* The executable graph's set: 0x11. */
  mp.value = 0x11;
  CHECK_HIP(hipDrvGraphExecMemsetNodeSetParams(x, set, &mp, NULL));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipStreamSynchronize(NULL));
  CHECK_EQ(back[0][0], 0x11);
  CHECK_EQ(back[1][8], host[1][8]);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Counts the occurrences of sub in the file at path. */
static int count_in_file(const char *path, const char *sub) {
  char buf[8192];
  FILE *f = fopen(path, "r");
  size_t n;
  int count = 0;

  if (f == NULL)
    return -1;
  n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = 0;
  for (const char *p = strstr(buf, sub); p != NULL; p = strstr(p + 1, sub))
    count++;
  return count;
}

/* hipGraphDebugDotPrint: a box per node (a child graph as a cluster of its
 * own nodes), an arrow per edge. */
AH_TEST(graph_debug_dot_print) {
  int *d, back[N];
  hipGraph_t g, child;
  hipGraphNode_t set, cn, e;
  hipMemsetParams sp;
  char path[] = "/tmp/ah_graph_dot_XXXXXX";
  int fd = mkstemp(path);

  CHECK(fd >= 0);
  close(fd);
  CHECK_HIP(hipMalloc((void **)&d, N * sizeof(int)));
  CHECK_HIP(set_copy_graph(&g, d, back, 1, &set));
  CHECK_HIP(hipGraphCreate(&child, 0));
  sp = set_params(d, 2, N);
  CHECK_HIP(hipGraphAddMemsetNode(&set, child, NULL, 0, &sp));
  CHECK_HIP(hipGraphAddEmptyNode(&e, child, &set, 1));
  CHECK_HIP(hipGraphAddChildGraphNode(&cn, g, NULL, 0, child));
  CHECK_HIP(hipGraphDebugDotPrint(g, path, hipGraphDebugDotFlagsVerbose));
  CHECK_EQ(count_in_file(path, "->"), 2); /* set -> copy, and in the child */
  CHECK_EQ(count_in_file(path, "MEMSET"), 2);
  CHECK_EQ(count_in_file(path, "MEMCPY DtoH"), 1);
  CHECK_EQ(count_in_file(path, "EMPTY"), 1);
  /* Each graph is a cluster, the top one included (AMD's layout: hip-tests counts them). */
  CHECK_EQ(count_in_file(path, "subgraph"), 2);
  CHECK_EQ(count_in_file(path, "digraph"), 1);
  /* A copy into an array is HtoA, out of one AtoH (AMD's names). */
  {
    hipChannelFormatDesc cd = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindSigned);
    hipMemcpy3DParms p;
    hipArray_t arr;
    hipGraphNode_t up, down;

    CHECK_HIP(hipMalloc3DArray(&arr, &cd, make_hipExtent(N, 1, 1), 0));
    memset(&p, 0, sizeof(p));
    p.srcPtr = make_hipPitchedPtr(back, N * sizeof(int), N, 1);
    p.dstArray = arr;
    p.extent = make_hipExtent(N, 1, 1);
    p.kind = hipMemcpyHostToDevice;
    CHECK_HIP(hipGraphAddMemcpyNode(&up, child, NULL, 0, &p));
    memset(&p, 0, sizeof(p));
    p.srcArray = arr;
    p.dstPtr = make_hipPitchedPtr(back, N * sizeof(int), N, 1);
    p.extent = make_hipExtent(N, 1, 1);
    p.kind = hipMemcpyDeviceToHost;
    CHECK_HIP(hipGraphAddMemcpyNode(&down, child, &up, 1, &p));
    CHECK_HIP(hipGraphDebugDotPrint(child, path, 0));
    CHECK_EQ(count_in_file(path, "MEMCPY HtoA"), 1);
    CHECK_EQ(count_in_file(path, "MEMCPY AtoH"), 1);
    CHECK_EQ(count_in_file(path, "HtoD"), 0);
    CHECK_EQ(count_in_file(path, "subgraph"), 1);
    CHECK_HIP(hipFreeArray(arr));
  }
  CHECK_HIP(hipGraphDebugDotPrint(g, path, 0xffffffffu)); /* any flags */
  CHECK_ERR(hipGraphDebugDotPrint(NULL, path, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphDebugDotPrint(g, NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipGraphDebugDotPrint(g, "", 0), hipErrorOperatingSystem);
  unlink(path);
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipGraphDestroy(child));
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}
