/* SPDX-License-Identifier: MIT */
/* HIP's graph entry points: building a graph node by node (kernel, 1D copy,
 * set, host and empty nodes, dependencies), instantiating and launching it,
 * and stream capture. Every argument is checked here, with HIP's codes (a
 * bad graph, node or executable graph handle is hipErrorInvalidValue, as in
 * HIP); the work is in src/core/graph.c. */
#include "../core/graph.h"
#include "../core/stream.h"
#include "mem_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

/* Resolves deps[] to nodes of g into a new array (*out, to be freed). */
static hipError_t resolve_deps(struct ah_graph *g, const hipGraphNode_t *deps, size_t n,
                               struct ah_gnode ***out) {
  struct ah_gnode **d;

  *out = NULL;
  if (n == 0)
    return hipSuccess;
  if (deps == NULL)
    return hipErrorInvalidValue;
  if (n > SIZE_MAX / sizeof(*d))
    return hipErrorInvalidValue;
  d = malloc(n * sizeof(*d));
  if (d == NULL)
    return hipErrorOutOfMemory;
  for (size_t i = 0; i < n; i++) {
    d[i] = ah_gnode_lookup(deps[i]);
    if (d[i] == NULL || d[i]->graph != g) {
      free(d);
      return hipErrorInvalidValue;
    }
  }
  *out = d;
  return hipSuccess;
}

/* The common part of every hipGraphAdd*Node: outputs, graph, dependencies. */
static hipError_t add_node(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                           size_t ndeps, hipGraphNodeType type, const struct ah_cmd *cmd) {
  struct ah_graph *g = ah_graph_lookup(graph);
  struct ah_gnode **d, *n;
  hipError_t err;

  if (g == NULL)
    return hipErrorInvalidValue;
  err = resolve_deps(g, deps, ndeps, &d);
  if (err != hipSuccess)
    return err;
  err = ah_graph_add(g, type, cmd, d, ndeps, &n);
  free(d);
  if (err == hipSuccess)
    *out = (hipGraphNode_t)n;
  return err;
}

/* A kernel node's command, checked against the current device as a launch
 * would be. The argument values are copied when the node is made. */
static hipError_t kernel_cmd(const hipKernelNodeParams *p, struct ah_cmd *cmd) {
  struct ah_device *dev = ah_current_device();
  const ahKernelSig *sig;
  dim3 g, b;
  uint64_t threads;

  if (p == NULL)
    return hipErrorInvalidValue;
  if (p->func == NULL)
    return hipErrorInvalidDeviceFunction;
  if (p->extra != NULL)
    return hipErrorNotSupported; /* HIP_LAUNCH_PARAM_* buffers: see docs/graphs.md */
  if (dev == NULL)
    return hipErrorNoDevice;
  /* Only a registered kernel's argument sizes are known (hipcc registers
   * every non-template __global__ function). */
  sig = ah_kernel_sig(p->func);
  if (sig == NULL)
    return hipErrorInvalidDeviceFunction;
  if (sig->nargs > 0) {
    if (p->kernelParams == NULL)
      return hipErrorInvalidValue;
    for (unsigned i = 0; i < sig->nargs; i++)
      if (p->kernelParams[i] == NULL)
        return hipErrorInvalidValue;
  }
  g = p->gridDim;
  b = p->blockDim;
  threads = (uint64_t)b.x * b.y * b.z;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0 ||
      threads > (uint64_t)dev->props.maxThreadsPerBlock ||
      b.x > (unsigned)dev->props.maxThreadsDim[0] || b.y > (unsigned)dev->props.maxThreadsDim[1] ||
      b.z > (unsigned)dev->props.maxThreadsDim[2] || g.x > (unsigned)dev->props.maxGridSize[0] ||
      g.y > (unsigned)dev->props.maxGridSize[1] || g.z > (unsigned)dev->props.maxGridSize[2])
    return hipErrorInvalidConfiguration;
  if (p->sharedMemBytes > dev->props.sharedMemPerBlock)
    return hipErrorInvalidValue;
  if (dev->backend->function_check != NULL) {
    hipError_t err = dev->backend->function_check(dev, p->func);

    if (err != hipSuccess)
      return err;
  }
  *cmd = (struct ah_cmd){.kind = AH_CMD_KERNEL};
  cmd->kernel.fn = p->func;
  cmd->kernel.sig = sig;
  cmd->kernel.grid = g;
  cmd->kernel.block = b;
  cmd->kernel.shared_bytes = p->sharedMemBytes;
  cmd->kernel.args = p->kernelParams;
  return hipSuccess;
}

/* ---- graphs and nodes ---- */

AH_EXPORT hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags) {
  struct ah_graph *g;

  AH_ENTER();
  AH_REQUIRE(pGraph != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue); /* reserved */
  AH_REQUIRE_OK(ah_graph_create(&g));
  *pGraph = (hipGraph_t)g;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphDestroy(hipGraph_t graph) {
  struct ah_graph *g;

  AH_ENTER();
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  ah_graph_destroy(g);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphClone(hipGraph_t *pGraphClone, hipGraph_t originalGraph) {
  struct ah_graph *g, *c;

  AH_ENTER();
  AH_REQUIRE(pGraphClone != NULL, hipErrorInvalidValue);
  g = ah_graph_lookup(originalGraph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_graph_clone(g, &c));
  *pGraphClone = (hipGraph_t)c;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const hipKernelNodeParams *pNodeParams) {
  struct ah_cmd cmd;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(kernel_cmd(pNodeParams, &cmd));
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeKernel,
                     &cmd));
}

/* A 1D copy node's command, checked as hipMemcpyAsync checks the copy. */
static hipError_t copy_cmd_1d(void *dst, const void *src, size_t count, hipMemcpyKind kind,
                              struct ah_cmd *cmd) {
  int pageable;

  if (!ah_memcpy_valid_kind(kind))
    return hipErrorInvalidMemcpyDirection;
  if (dst == NULL || src == NULL || count == 0) /* a node must move something (HIP) */
    return hipErrorInvalidValue;
  *cmd = (struct ah_cmd){.kind = AH_CMD_COPY};
  cmd->copy.dst = dst;
  cmd->copy.src = src;
  cmd->copy.bytes = count;
  return ah_memcpy_check(dst, count, src, count, kind, &cmd->copy.kind, &pageable);
}

AH_EXPORT hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                             const hipGraphNode_t *pDependencies,
                                             size_t numDependencies, void *dst, const void *src,
                                             size_t count, hipMemcpyKind kind) {
  struct ah_cmd cmd;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(copy_cmd_1d(dst, src, count, kind, &cmd));
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpy,
                     &cmd));
}

/* The copy is checked now, on the current device, as hipMemcpy3D checks it
 * (src/api/hip_memcpy3d.c). */
AH_EXPORT hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const struct hipMemcpy3DParms *pCopyParams) {
  struct ah_cmd cmd;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE(pCopyParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_memcpy_3d(pCopyParams, NULL, 0, &cmd));
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpy,
                     &cmd));
}

/* A set node's command: 1D or pitched 2D, checked as hipMemset2D checks it;
 * a node must set something. */
static hipError_t set_cmd(const hipMemsetParams *p, struct ah_cmd *cmd) {
  uint32_t value;

  if (p == NULL || p->dst == NULL)
    return hipErrorInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    return hipErrorInvalidValue;
  if (p->width == 0 || p->height == 0)
    return hipErrorInvalidValue;
  value = p->elementSize == 4 ? p->value
          : p->elementSize == 2 ? (p->value & 0xffffu) : (p->value & 0xffu);
  return ah_memset_cmd(p->dst, value, p->elementSize, p->width, p->pitch, p->height, cmd);
}

AH_EXPORT hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const hipMemsetParams *pMemsetParams) {
  struct ah_cmd cmd;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(set_cmd(pMemsetParams, &cmd));
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemset,
                     &cmd));
}

AH_EXPORT hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t *pDependencies,
                                         size_t numDependencies,
                                         const hipHostNodeParams *pNodeParams) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE(pNodeParams != NULL && pNodeParams->fn != NULL, hipErrorInvalidValue);
  cmd.host_fn.fn = pNodeParams->fn;
  cmd.host_fn.data = pNodeParams->userData;
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeHost,
                     &cmd));
}

AH_EXPORT hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                          const hipGraphNode_t *pDependencies,
                                          size_t numDependencies) {
  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeEmpty,
                     NULL));
}

AH_EXPORT hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t *from,
                                             const hipGraphNode_t *to, size_t numDependencies) {
  struct ah_graph *g;

  AH_ENTER();
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  AH_REQUIRE(numDependencies == 0 || (from != NULL && to != NULL), hipErrorInvalidValue);
  /* Every pair is checked before any edge is added. */
  for (size_t i = 0; i < numDependencies; i++) {
    struct ah_gnode *a = ah_gnode_lookup(from[i]), *b = ah_gnode_lookup(to[i]);

    AH_REQUIRE(a != NULL && b != NULL && a->graph == g && b->graph == g, hipErrorInvalidValue);
    AH_REQUIRE(a != b, hipErrorInvalidValue);
  }
  for (size_t i = 0; i < numDependencies; i++)
    AH_REQUIRE_OK(ah_graph_add_edge(g, ah_gnode_lookup(from[i]), ah_gnode_lookup(to[i])));
  return hipSuccess;
}

/* CUDA's rule for every list: with the array NULL, *num gets the count;
 * else up to *num entries are written (by the core), the rest of the array
 * is NULLed, and *num gets how many were written. b is a second array
 * filled alongside (edges), or NULL. */
static void list_out(size_t total, hipGraphNode_t *a, hipGraphNode_t *b, size_t *num) {
  if (a == NULL) {
    *num = total;
    return;
  }
  for (size_t i = total; i < *num; i++) {
    a[i] = NULL;
    if (b != NULL)
      b[i] = NULL;
  }
  if (total < *num)
    *num = total;
}

static hipError_t list_nodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *num, int roots) {
  struct ah_graph *g = ah_graph_lookup(graph);

  if (g == NULL || num == NULL)
    return hipErrorInvalidValue;
  list_out(ah_graph_list(g, roots, (struct ah_gnode **)nodes, nodes != NULL ? *num : 0), nodes,
           NULL, num);
  return hipSuccess;
}

static hipError_t list_links(hipGraphNode_t node, hipGraphNode_t *out, size_t *num,
                             int dependents) {
  struct ah_gnode *n = ah_gnode_lookup(node);

  if (n == NULL || num == NULL)
    return hipErrorInvalidValue;
  list_out(ah_gnode_links(n, dependents, (struct ah_gnode **)out, out != NULL ? *num : 0), out,
           NULL, num);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node,
                                                 hipGraphNode_t *pDependencies,
                                                 size_t *pNumDependencies) {
  AH_ENTER();
  AH_RETURN(list_links(node, pDependencies, pNumDependencies, 0));
}

AH_EXPORT hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node,
                                                   hipGraphNode_t *pDependentNodes,
                                                   size_t *pNumDependentNodes) {
  AH_ENTER();
  AH_RETURN(list_links(node, pDependentNodes, pNumDependentNodes, 1));
}

AH_EXPORT hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t *from, hipGraphNode_t *to,
                                      size_t *numEdges) {
  struct ah_graph *g;

  AH_ENTER();
  AH_REQUIRE(numEdges != NULL, hipErrorInvalidValue);
  AH_REQUIRE((from == NULL) == (to == NULL), hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  list_out(ah_graph_edges(g, (struct ah_gnode **)from, (struct ah_gnode **)to,
                          from != NULL ? *numEdges : 0),
           from, to, numEdges);
  return hipSuccess;
}

/* The node behind h when it is of `type`. */
static struct ah_gnode *typed_node(hipGraphNode_t h, hipGraphNodeType type) {
  struct ah_gnode *n = ah_gnode_lookup(h);

  return n != NULL && n->type == type ? n : NULL;
}

/* kernelParams points at the node's own copies of the arguments: valid
 * while the node lives and its parameters are not set again. */
AH_EXPORT hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node,
                                                 hipKernelNodeParams *pNodeParams) {
  struct ah_gnode *n;
  struct ah_cmd c;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL, hipErrorInvalidValue);
  n = typed_node(node, hipGraphNodeTypeKernel);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  ah_gnode_get_cmd(n, &c);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->func = (void *)c.kernel.fn;
  pNodeParams->gridDim = c.kernel.grid;
  pNodeParams->blockDim = c.kernel.block;
  pNodeParams->sharedMemBytes = (unsigned)c.kernel.shared_bytes;
  pNodeParams->kernelParams = c.kernel.args;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node,
                                                 const hipKernelNodeParams *pNodeParams) {
  struct ah_gnode *n;
  struct ah_cmd cmd;

  AH_ENTER();
  n = typed_node(node, hipGraphNodeTypeKernel);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(kernel_cmd(pNodeParams, &cmd));
  AH_RETURN(ah_gnode_set_cmd(n, &cmd));
}

AH_EXPORT hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node,
                                               hipHostNodeParams *pNodeParams) {
  struct ah_gnode *n;
  struct ah_cmd c;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL, hipErrorInvalidValue);
  n = typed_node(node, hipGraphNodeTypeHost);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  ah_gnode_get_cmd(n, &c);
  pNodeParams->fn = c.host_fn.fn;
  pNodeParams->userData = c.host_fn.data;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node,
                                               const hipHostNodeParams *pNodeParams) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct ah_gnode *n;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && pNodeParams->fn != NULL, hipErrorInvalidValue);
  n = typed_node(node, hipGraphNodeTypeHost);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  cmd.host_fn.fn = pNodeParams->fn;
  cmd.host_fn.data = pNodeParams->userData;
  AH_RETURN(ah_gnode_set_cmd(n, &cmd));
}

AH_EXPORT hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node,
                                                 hipMemsetParams *pNodeParams) {
  struct ah_gnode *n;
  struct ah_cmd c;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL, hipErrorInvalidValue);
  n = typed_node(node, hipGraphNodeTypeMemset);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  ah_gnode_get_cmd(n, &c);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->dst = c.set.dst;
  pNodeParams->elementSize = c.set.elem_size;
  pNodeParams->width = c.set.count;
  pNodeParams->height = c.set.height;
  pNodeParams->pitch = c.set.pitch;
  pNodeParams->value = c.set.value;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *numNodes) {
  AH_ENTER();
  AH_RETURN(list_nodes(graph, nodes, numNodes, 0));
}

AH_EXPORT hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t *pRootNodes,
                                          size_t *pNumRootNodes) {
  AH_ENTER();
  AH_RETURN(list_nodes(graph, pRootNodes, pNumRootNodes, 1));
}

AH_EXPORT hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType *pType) {
  struct ah_gnode *n;

  AH_ENTER();
  AH_REQUIRE(pType != NULL, hipErrorInvalidValue);
  n = ah_gnode_lookup(node);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  *pType = n->type;
  return hipSuccess;
}

/* ---- executable graphs ---- */

static hipError_t instantiate(hipGraphExec_t *out, hipGraph_t graph, hipGraphNode_t *bad_out) {
  struct ah_graph *g = ah_graph_lookup(graph);
  struct ah_gexec *x;
  struct ah_gnode *bad;
  hipError_t err;

  if (g == NULL)
    return hipErrorInvalidValue;
  err = ah_graph_instantiate(g, &x, &bad);
  if (err != hipSuccess) {
    if (bad_out != NULL)
      *bad_out = (hipGraphNode_t)bad;
    return err;
  }
  *out = (hipGraphExec_t)x;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                         hipGraphNode_t *pErrorNode, char *pLogBuffer,
                                         size_t bufferSize) {
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(pGraphExec != NULL, hipErrorInvalidValue);
  err = instantiate(pGraphExec, graph, pErrorNode);
  if (pLogBuffer != NULL && bufferSize != 0)
    snprintf(pLogBuffer, bufferSize, "%s",
             err == hipSuccess ? "" : err == hipErrorInvalidValue && ah_graph_lookup(graph) != NULL
                                          ? "graph has a dependency cycle"
                                          : ah_error_string(err));
  AH_RETURN(err);
}

AH_EXPORT hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                                  unsigned long long flags) {
  AH_ENTER();
  AH_REQUIRE(pGraphExec != NULL, hipErrorInvalidValue);
  /* AutoFreeOnLaunch concerns graph memory nodes, which no graph here has;
   * the device-side launch and upload flags ask for what a host-run graph
   * does not do. */
  AH_REQUIRE((flags & ~(unsigned long long)hipGraphInstantiateFlagAutoFreeOnLaunch) == 0,
             hipErrorInvalidValue);
  AH_RETURN(instantiate(pGraphExec, graph, NULL));
}

AH_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
  struct ah_gexec *x;
  struct ah_device *dev;
  void *q;

  AH_ENTER();
  x = ah_gexec_lookup(graphExec);
  AH_REQUIRE(x != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  AH_RETURN(ah_gexec_launch(x, dev, q));
}

AH_EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
  struct ah_gexec *x;

  AH_ENTER();
  x = ah_gexec_lookup(graphExec);
  AH_REQUIRE(x != NULL, hipErrorInvalidValue);
  ah_gexec_destroy(x);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     const hipKernelNodeParams *pNodeParams) {
  struct ah_gexec *x;
  struct ah_gnode *n;
  struct ah_cmd cmd;

  AH_ENTER();
  x = ah_gexec_lookup(hGraphExec);
  n = ah_gnode_lookup(node);
  AH_REQUIRE(x != NULL && n != NULL, hipErrorInvalidValue);
  AH_REQUIRE(n->type == hipGraphNodeTypeKernel, hipErrorInvalidValue);
  AH_REQUIRE_OK(kernel_cmd(pNodeParams, &cmd));
  AH_RETURN(ah_gexec_set_cmd(x, n, &cmd));
}

/* ---- event nodes ---- */

/* A record node records the event when the graph reaches it, a wait node
 * makes what follows wait for the event's latest record then, as
 * hipEventRecord and hipStreamWaitEvent on the launch stream would. The
 * event is checked now and looked up again at each launch. */
static hipError_t add_event_node(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                                 size_t ndeps, hipEvent_t event, hipGraphNodeType type) {
  hipError_t err;

  if (out == NULL || ah_graph_lookup(graph) == NULL || ah_event_lookup(event) == NULL)
    return hipErrorInvalidValue;
  err = add_node(out, graph, deps, ndeps, type, NULL);
  if (err == hipSuccess)
    ah_gnode_set_event(ah_gnode_lookup(*out), event);
  return err;
}

AH_EXPORT hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                const hipGraphNode_t *pDependencies,
                                                size_t numDependencies, hipEvent_t event) {
  AH_ENTER();
  AH_RETURN(add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                           hipGraphNodeTypeEventRecord));
}

AH_EXPORT hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                              const hipGraphNode_t *pDependencies,
                                              size_t numDependencies, hipEvent_t event) {
  AH_ENTER();
  AH_RETURN(add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                           hipGraphNodeTypeWaitEvent));
}

static hipError_t get_event(hipGraphNode_t node, hipEvent_t *out, hipGraphNodeType type) {
  struct ah_gnode *n = typed_node(node, type);

  if (out == NULL || n == NULL)
    return hipErrorInvalidValue;
  pthread_mutex_lock(&n->graph->lock);
  *out = n->event;
  pthread_mutex_unlock(&n->graph->lock);
  return hipSuccess;
}

static hipError_t set_event(hipGraphNode_t node, hipEvent_t event, hipGraphNodeType type) {
  struct ah_gnode *n = typed_node(node, type);

  if (n == NULL || ah_event_lookup(event) == NULL)
    return hipErrorInvalidValue;
  ah_gnode_set_event(n, event);
  return hipSuccess;
}

static hipError_t exec_set_event(hipGraphExec_t x, hipGraphNode_t node, hipEvent_t event,
                                 hipGraphNodeType type) {
  struct ah_gexec *xo = ah_gexec_lookup(x);
  struct ah_gnode *n = typed_node(node, type);

  if (xo == NULL || n == NULL || ah_event_lookup(event) == NULL)
    return hipErrorInvalidValue;
  return ah_gexec_set_event(xo, n, event);
}

AH_EXPORT hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  AH_ENTER();
  AH_RETURN(get_event(node, event_out, hipGraphNodeTypeEventRecord));
}

AH_EXPORT hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  AH_ENTER();
  AH_RETURN(get_event(node, event_out, hipGraphNodeTypeWaitEvent));
}

AH_EXPORT hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  AH_ENTER();
  AH_RETURN(set_event(node, event, hipGraphNodeTypeEventRecord));
}

AH_EXPORT hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  AH_ENTER();
  AH_RETURN(set_event(node, event, hipGraphNodeTypeWaitEvent));
}

AH_EXPORT hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec,
                                                         hipGraphNode_t hNode, hipEvent_t event) {
  AH_ENTER();
  AH_RETURN(exec_set_event(hGraphExec, hNode, event, hipGraphNodeTypeEventRecord));
}

AH_EXPORT hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec,
                                                       hipGraphNode_t hNode, hipEvent_t event) {
  AH_ENTER();
  AH_RETURN(exec_set_event(hGraphExec, hNode, event, hipGraphNodeTypeWaitEvent));
}

/* ---- changing nodes ---- */

AH_EXPORT hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node,
                                                 const hipMemsetParams *pNodeParams) {
  struct ah_gnode *n;
  struct ah_cmd cmd;

  AH_ENTER();
  n = typed_node(node, hipGraphNodeTypeMemset);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(set_cmd(pNodeParams, &cmd));
  AH_RETURN(ah_gnode_set_cmd(n, &cmd));
}

/* A node made by hipGraphAddMemcpyNode (3D) stays 3D: 1D parameters are
 * for 1D copy nodes only. */
AH_EXPORT hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src,
                                                   size_t count, hipMemcpyKind kind) {
  struct ah_gnode *n;
  struct ah_cmd cmd, cur;

  AH_ENTER();
  n = typed_node(node, hipGraphNodeTypeMemcpy);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  ah_gnode_get_cmd(n, &cur);
  AH_REQUIRE(cur.kind == AH_CMD_COPY, hipErrorInvalidValue);
  AH_REQUIRE_OK(copy_cmd_1d(dst, src, count, kind, &cmd));
  AH_RETURN(ah_gnode_set_cmd(n, &cmd));
}

/* The node behind h, of `type`, and the executable graph behind x. */
static hipError_t exec_node(hipGraphExec_t x, hipGraphNode_t h, hipGraphNodeType type,
                            struct ah_gexec **xo, struct ah_gnode **no) {
  *xo = ah_gexec_lookup(x);
  *no = typed_node(h, type);
  return *xo != NULL && *no != NULL ? hipSuccess : hipErrorInvalidValue;
}

AH_EXPORT hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                   const hipHostNodeParams *pNodeParams) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct ah_gexec *x;
  struct ah_gnode *n;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && pNodeParams->fn != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(exec_node(hGraphExec, node, hipGraphNodeTypeHost, &x, &n));
  cmd.host_fn.fn = pNodeParams->fn;
  cmd.host_fn.data = pNodeParams->userData;
  AH_RETURN(ah_gexec_set_cmd(x, n, &cmd));
}

AH_EXPORT hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     const hipMemsetParams *pNodeParams) {
  struct ah_gexec *x;
  struct ah_gnode *n;
  struct ah_cmd cmd;

  AH_ENTER();
  AH_REQUIRE_OK(exec_node(hGraphExec, node, hipGraphNodeTypeMemset, &x, &n));
  AH_REQUIRE_OK(set_cmd(pNodeParams, &cmd));
  AH_RETURN(ah_gexec_set_cmd(x, n, &cmd));
}

AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec,
                                                       hipGraphNode_t node, void *dst,
                                                       const void *src, size_t count,
                                                       hipMemcpyKind kind) {
  struct ah_gexec *x;
  struct ah_gnode *n;
  struct ah_cmd cmd;

  AH_ENTER();
  AH_REQUIRE_OK(exec_node(hGraphExec, node, hipGraphNodeTypeMemcpy, &x, &n));
  AH_REQUIRE_OK(copy_cmd_1d(dst, src, count, kind, &cmd));
  AH_RETURN(ah_gexec_set_cmd(x, n, &cmd)); /* a 3D node's copy: hipErrorInvalidValue */
}

AH_EXPORT hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t *from,
                                                const hipGraphNode_t *to,
                                                size_t numDependencies) {
  struct ah_graph *g;

  AH_ENTER();
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  AH_REQUIRE(numDependencies == 0 || (from != NULL && to != NULL), hipErrorInvalidValue);
  for (size_t i = 0; i < numDependencies; i++) {
    struct ah_gnode *a = ah_gnode_lookup(from[i]), *b = ah_gnode_lookup(to[i]);

    AH_REQUIRE(a != NULL && b != NULL && a->graph == g && b->graph == g, hipErrorInvalidValue);
  }
  /* An edge that is not there fails, after the ones before it were removed. */
  for (size_t i = 0; i < numDependencies; i++)
    AH_REQUIRE_OK(ah_graph_remove_edge(g, ah_gnode_lookup(from[i]), ah_gnode_lookup(to[i])));
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphDestroyNode(hipGraphNode_t node) {
  struct ah_gnode *n;

  AH_ENTER();
  n = ah_gnode_lookup(node);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  ah_graph_remove_node(n);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphNodeFindInClone(hipGraphNode_t *pNode, hipGraphNode_t originalNode,
                                             hipGraph_t clonedGraph) {
  struct ah_gnode *orig, *n;
  struct ah_graph *c;

  AH_ENTER();
  AH_REQUIRE(pNode != NULL, hipErrorInvalidValue);
  orig = ah_gnode_lookup(originalNode);
  c = ah_graph_lookup(clonedGraph);
  AH_REQUIRE(orig != NULL && c != NULL, hipErrorInvalidValue);
  n = ah_graph_find_clone(c, orig);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue); /* c is not a clone of orig's graph */
  *pNode = (hipGraphNode_t)n;
  return hipSuccess;
}

/* ---- stream capture ---- */

AH_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE((unsigned)mode <= (unsigned)hipStreamCaptureModeRelaxed, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  /* The null stream synchronizes with others: it cannot be captured. */
  AH_REQUIRE(s != NULL, hipErrorStreamCaptureUnsupported);
  AH_RETURN(ah_capture_begin(s->dev, s->queue, mode, NULL, NULL, 0));
}

/* Captures into an existing graph, after `dependencies` (nodes of it). Edge
 * data, if given, must be the default (all zero): edge types and ports are
 * for launches that anyhip does not have. */
AH_EXPORT hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph,
                                                  const hipGraphNode_t *dependencies,
                                                  const hipGraphEdgeData *dependencyData,
                                                  size_t numDependencies,
                                                  hipStreamCaptureMode mode) {
  static const hipGraphEdgeData zero;
  struct ah_gnode **deps;
  struct ah_stream *s;
  struct ah_graph *g;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE((unsigned)mode <= (unsigned)hipStreamCaptureModeRelaxed, hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  for (size_t i = 0; dependencyData != NULL && i < numDependencies; i++)
    AH_REQUIRE(memcmp(&dependencyData[i], &zero, sizeof(zero)) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  AH_REQUIRE(s != NULL, hipErrorStreamCaptureUnsupported);
  AH_REQUIRE_OK(resolve_deps(g, dependencies, numDependencies, &deps));
  err = ah_capture_begin(s->dev, s->queue, mode, g, deps, numDependencies);
  free(deps);
  AH_RETURN(err);
}

/* The calling thread's mode for calls that are unsafe during capture:
 * Global (the default) is stopped by any Global capture, ThreadLocal only by
 * its own captures, Relaxed never. *mode gets the previous mode. */
AH_EXPORT hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode) {
  AH_ENTER();
  AH_REQUIRE(mode != NULL, hipErrorInvalidValue);
  AH_REQUIRE((unsigned)*mode <= (unsigned)hipStreamCaptureModeRelaxed, hipErrorInvalidValue);
  *mode = ah_capture_exchange_mode(*mode);
  return hipSuccess;
}

AH_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph) {
  struct ah_graph *g;
  struct ah_stream *s;

  AH_ENTER();
  AH_REQUIRE(pGraph != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_lookup(stream, &s));
  AH_REQUIRE(s != NULL, hipErrorIllegalState); /* the null stream never captures */
  *pGraph = NULL;
  AH_REQUIRE_OK(ah_capture_end(s->queue, &g));
  *pGraph = (hipGraph_t)g;
  return hipSuccess;
}

static hipError_t capture_info(hipStream_t stream, hipStreamCaptureStatus *status,
                               unsigned long long *id, hipGraph_t *graph,
                               const hipGraphNode_t **deps, size_t *ndeps) {
  struct ah_device *dev;
  struct ah_graph *g = NULL;
  void *q;
  hipError_t err;

  if (status == NULL)
    return hipErrorInvalidValue;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess)
    return err;
  err = ah_capture_info(dev, q, status, id, &g, (struct ah_gnode *const **)deps, ndeps);
  if (err == hipSuccess && graph != NULL && *status != hipStreamCaptureStatusNone)
    *graph = (hipGraph_t)g;
  return err;
}

AH_EXPORT hipError_t hipStreamIsCapturing(hipStream_t stream,
                                          hipStreamCaptureStatus *pCaptureStatus) {
  AH_ENTER();
  AH_RETURN(capture_info(stream, pCaptureStatus, NULL, NULL, NULL, NULL));
}

AH_EXPORT hipError_t hipStreamGetCaptureInfo(hipStream_t stream,
                                             hipStreamCaptureStatus *pCaptureStatus,
                                             unsigned long long *pId) {
  AH_ENTER();
  AH_RETURN(capture_info(stream, pCaptureStatus, pId, NULL, NULL, NULL));
}

AH_EXPORT hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream,
                                                hipStreamCaptureStatus *captureStatus_out,
                                                unsigned long long *id_out, hipGraph_t *graph_out,
                                                const hipGraphNode_t **dependencies_out,
                                                size_t *numDependencies_out) {
  AH_ENTER();
  AH_RETURN(capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out,
                         numDependencies_out));
}

/* ---- graph memory nodes ---- */

/* The block is reserved now and its address given back in dptr: it stays the
 * same for the graph's life (and its clones' and executable graphs'), as in
 * CUDA, so later nodes can be given it. Memory of the location's device's
 * default pool; access descriptors are accepted (every device may access). */
AH_EXPORT hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                             const hipGraphNode_t *pDependencies,
                                             size_t numDependencies,
                                             hipMemAllocNodeParams *pNodeParams) {
  struct ah_graph *g;
  struct ah_gnode **d, *n;
  struct ah_device *dev;
  struct ah_gmem *m;
  const hipMemPoolProps *pp;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL && pNodeParams != NULL, hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  pp = &pNodeParams->poolProps;
  AH_REQUIRE(pp->allocType == hipMemAllocationTypePinned, hipErrorInvalidValue);
  AH_REQUIRE(pp->location.type == hipMemLocationTypeDevice, hipErrorInvalidValue);
  dev = ah_device_get(pp->location.id);
  AH_REQUIRE(dev != NULL, hipErrorInvalidValue);
  AH_REQUIRE(pNodeParams->accessDescCount == 0 || pNodeParams->accessDescs != NULL,
             hipErrorInvalidValue);
  AH_REQUIRE(pNodeParams->bytesize != 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(resolve_deps(g, pDependencies, numDependencies, &d));
  err = ah_gmem_create(dev, pNodeParams->bytesize, &m);
  if (err == hipSuccess) {
    err = ah_graph_add_mem(g, hipGraphNodeTypeMemAlloc, m, d, numDependencies, &n);
    if (err == hipSuccess) {
      pNodeParams->dptr = m->ptr;
      *pGraphNode = (hipGraphNode_t)n;
    }
    ah_gmem_release(m); /* the node holds its own reference */
  }
  free(d);
  AH_RETURN(err);
}

AH_EXPORT hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node,
                                                   hipMemAllocNodeParams *pNodeParams) {
  struct ah_gnode *n;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL, hipErrorInvalidValue);
  n = typed_node(node, hipGraphNodeTypeMemAlloc);
  AH_REQUIRE(n != NULL && n->mem != NULL, hipErrorInvalidValue);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->poolProps.allocType = hipMemAllocationTypePinned;
  pNodeParams->poolProps.location.type = hipMemLocationTypeDevice;
  pNodeParams->poolProps.location.id = n->mem->dev->ordinal;
  pNodeParams->bytesize = n->mem->bytes;
  pNodeParams->dptr = n->mem->ptr;
  return hipSuccess;
}

/* dev_ptr must be the address of a memory alloc node of the same graph. */
AH_EXPORT hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                            const hipGraphNode_t *pDependencies,
                                            size_t numDependencies, void *dev_ptr) {
  struct ah_graph *g;
  struct ah_gnode **d, *n;
  struct ah_gmem *m;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL && dev_ptr != NULL, hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(resolve_deps(g, pDependencies, numDependencies, &d));
  m = ah_graph_find_mem(g, dev_ptr);
  err = m == NULL ? hipErrorInvalidValue
                  : ah_graph_add_mem(g, hipGraphNodeTypeMemFree, m, d, numDependencies, &n);
  if (err == hipSuccess)
    *pGraphNode = (hipGraphNode_t)n;
  ah_gmem_release(m);
  free(d);
  AH_RETURN(err);
}

/* dev_ptr points at a void * that receives the freed address. */
AH_EXPORT hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr) {
  struct ah_gnode *n;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL, hipErrorInvalidValue);
  n = typed_node(node, hipGraphNodeTypeMemFree);
  AH_REQUIRE(n != NULL && n->mem != NULL, hipErrorInvalidValue);
  *(void **)dev_ptr = n->mem->ptr;
  return hipSuccess;
}

static hipError_t gmem_device(int device, hipGraphMemAttributeType attr, void *value,
                              struct ah_device **dev) {
  if (ah_device_count() == 0)
    return hipErrorNoDevice;
  *dev = ah_device_get(device);
  if (*dev == NULL)
    return hipErrorInvalidDevice;
  if (value == NULL || (unsigned)attr > (unsigned)hipGraphMemAttrReservedMemHigh)
    return hipErrorInvalidValue;
  return hipSuccess;
}

/* Bytes of graph memory (uint64_t): reserved and used are the same here,
 * as every block is held for its graph's life. */
AH_EXPORT hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr,
                                                   void *value) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE_OK(gmem_device(device, attr, value, &dev));
  *(uint64_t *)value = ah_gmem_attr(dev, (int)attr);
  return hipSuccess;
}

/* Only the high marks can be set, and only to 0 (they restart at the
 * current use), as in CUDA. */
AH_EXPORT hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr,
                                                   void *value) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE_OK(gmem_device(device, attr, value, &dev));
  AH_REQUIRE(attr == hipGraphMemAttrUsedMemHigh || attr == hipGraphMemAttrReservedMemHigh,
             hipErrorInvalidValue);
  AH_REQUIRE(*(const uint64_t *)value == 0, hipErrorInvalidValue);
  ah_gmem_reset_high(dev, (int)attr);
  return hipSuccess;
}

/* Every block is held by a live graph, so there is nothing unused to give
 * back; freed blocks went back to the default pool, which its release
 * threshold trims. */
AH_EXPORT hipError_t hipDeviceGraphMemTrim(int device) {
  AH_ENTER();
  AH_REQUIRE(ah_device_count() != 0, hipErrorNoDevice);
  AH_REQUIRE(ah_device_get(device) != NULL, hipErrorInvalidDevice);
  return hipSuccess;
}
