/* SPDX-License-Identifier: MIT */
/* HIP's graph node parameters: every entry point that adds a node, reads or
 * sets a node's parameters, or sets an executable graph's copy of them.
 * Each node type's parameters are checked once, by the core's builder for
 * the type (core/graph_node.c), which turns them into a spec (struct
 * ah_gspec, src/core/graph.h); the typed entry points (hipGraphAddKernelNode,
 * ...), the generic ones (hipGraphAddNode, hipGraphNodeSetParams,
 * hipGraphExecNodeSetParams, all through ah_gspec_params) and the exec paths
 * hand that spec to one of its three uses: ah_gnode_add_spec,
 * ah_gnode_set_spec and ah_gexec_set_spec. A bad graph, node or executable
 * graph handle is hipErrorInvalidValue, as in HIP. */
#include "../core/graph.h"
#include "../core/stream.h"

#include <stdlib.h>
#include <string.h>

/* ---- adding nodes ---- */

AH_EXPORT hipError_t hipGraphAddNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                     const hipGraphNode_t *pDependencies, size_t numDependencies,
                                     hipGraphNodeParams *nodeParams) {
  struct ah_gspec s;
  struct ah_graph *g;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_params(nodeParams, g, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const hipKernelNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_kernel(pNodeParams, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                             const hipGraphNode_t *pDependencies,
                                             size_t numDependencies, void *dst, const void *src,
                                             size_t count, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_copy1d(dst, src, count, kind, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const struct hipMemcpy3DParms *pCopyParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_copy3d(pCopyParams, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

/* The symbol is resolved now, on the current device: the node copies to or
 * from the variable's device address there (a 1D copy node, as in HIP). */
AH_EXPORT hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                   const hipGraphNode_t *pDependencies,
                                                   size_t numDependencies, const void *symbol,
                                                   const void *src, size_t count, size_t offset,
                                                   hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_symbol(symbol, (void *)src, count, offset, kind, 1, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                     const hipGraphNode_t *pDependencies,
                                                     size_t numDependencies, void *dst,
                                                     const void *symbol, size_t count,
                                                     size_t offset, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_symbol(symbol, dst, count, offset, kind, 0, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const hipMemsetParams *pMemsetParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_set(pMemsetParams, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t *pDependencies,
                                         size_t numDependencies,
                                         const hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_host(pNodeParams, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                          const hipGraphNode_t *pDependencies,
                                          size_t numDependencies) {
  struct ah_gspec s = {.type = hipGraphNodeTypeEmpty};

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

/* The node runs a copy of childGraph, made now (childGraph may be graph
 * itself: the copy is of its nodes so far). */
AH_EXPORT hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                               const hipGraphNode_t *pDependencies,
                                               size_t numDependencies, hipGraph_t childGraph) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_child(childGraph, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

static hipError_t add_event_node(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                                 size_t ndeps, hipEvent_t event, hipGraphNodeType type) {
  struct ah_gspec s;
  hipError_t err;

  if (out == NULL || ah_graph_lookup(graph) == NULL)
    return hipErrorInvalidValue;
  err = ah_gspec_event(event, type, &s);
  return err != hipSuccess ? err : ah_gnode_add_spec(out, graph, deps, ndeps, &s);
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

AH_EXPORT hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                             const hipGraphNode_t *pDependencies,
                                             size_t numDependencies,
                                             hipMemAllocNodeParams *pNodeParams) {
  struct ah_gspec s;
  struct ah_graph *g;
  struct ah_gnode **d;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL && pNodeParams != NULL, hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  /* Dependencies are checked before the block is reserved. */
  AH_REQUIRE_OK(ah_graph_resolve(g, pDependencies, numDependencies, &d));
  free(d);
  AH_REQUIRE_OK(ah_gspec_alloc(pNodeParams, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

/* dev_ptr must be the address of a memory alloc node of the same graph. */
AH_EXPORT hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                            const hipGraphNode_t *pDependencies,
                                            size_t numDependencies, void *dev_ptr) {
  struct ah_gspec s;
  struct ah_graph *g;
  struct ah_gnode **d;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL && dev_ptr != NULL, hipErrorInvalidValue);
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_graph_resolve(g, pDependencies, numDependencies, &d));
  free(d);
  AH_REQUIRE_OK(ah_gspec_free(g, dev_ptr, &s));
  AH_RETURN(ah_gnode_add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

/* ---- reading a node's parameters ---- */

/* kernelParams points at the node's own copies of the arguments: valid
 * while the node lives and its parameters are not set again. */
AH_EXPORT hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node,
                                                 hipKernelNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && ah_gnode_spec_of(node, hipGraphNodeTypeKernel, &s),
             hipErrorInvalidValue);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->func = s.func != NULL ? s.func : (void *)s.cmd.kernel.fn; /* captured: fn */
  pNodeParams->gridDim = s.cmd.kernel.grid;
  pNodeParams->blockDim = s.cmd.kernel.block;
  pNodeParams->sharedMemBytes = (unsigned)s.cmd.kernel.shared_bytes;
  pNodeParams->kernelParams = s.cmd.kernel.args;
  return hipSuccess;
}

/* The parameters as given (a 1D or symbol node: one row of count bytes). */
AH_EXPORT hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node,
                                                 hipMemcpy3DParms *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && ah_gnode_spec_of(node, hipGraphNodeTypeMemcpy, &s),
             hipErrorInvalidValue);
  *pNodeParams = s.copy3d;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node,
                                               hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && ah_gnode_spec_of(node, hipGraphNodeTypeHost, &s),
             hipErrorInvalidValue);
  pNodeParams->fn = s.cmd.host_fn.fn;
  pNodeParams->userData = s.cmd.host_fn.data;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node,
                                                 hipMemsetParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && ah_gnode_spec_of(node, hipGraphNodeTypeMemset, &s),
             hipErrorInvalidValue);
  *pNodeParams = s.set; /* as given, as AMD's runtime keeps them */
  return hipSuccess;
}

/* The node's own graph (a copy of the one given): it can be inspected and
 * changed, not destroyed; changing it does not change executable graphs
 * made before. */
AH_EXPORT hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t *pGraph) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraph != NULL && ah_gnode_spec_of(node, hipGraphNodeTypeGraph, &s),
             hipErrorInvalidValue);
  *pGraph = (hipGraph_t)s.child;
  return hipSuccess;
}

static hipError_t get_event(hipGraphNode_t node, hipEvent_t *out, hipGraphNodeType type) {
  struct ah_gspec s;

  if (out == NULL || !ah_gnode_spec_of(node, type, &s))
    return hipErrorInvalidValue;
  *out = s.event;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  AH_ENTER();
  AH_RETURN(get_event(node, event_out, hipGraphNodeTypeEventRecord));
}

AH_EXPORT hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  AH_ENTER();
  AH_RETURN(get_event(node, event_out, hipGraphNodeTypeWaitEvent));
}

AH_EXPORT hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node,
                                                   hipMemAllocNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && ah_gnode_spec_of(node, hipGraphNodeTypeMemAlloc, &s),
             hipErrorInvalidValue);
  AH_REQUIRE(s.mem != NULL, hipErrorInvalidValue);
  *pNodeParams = s.alloc;
  return hipSuccess;
}

/* dev_ptr points at a void * that receives the freed address. */
AH_EXPORT hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL && ah_gnode_spec_of(node, hipGraphNodeTypeMemFree, &s),
             hipErrorInvalidValue);
  AH_REQUIRE(s.mem != NULL, hipErrorInvalidValue);
  *(void **)dev_ptr = s.mem->ptr;
  return hipSuccess;
}

/* ---- setting a node's parameters ---- */

AH_EXPORT hipError_t hipGraphNodeSetParams(hipGraphNode_t node, hipGraphNodeParams *nodeParams) {
  struct ah_gnode *n;
  struct ah_gspec s;

  AH_ENTER();
  n = ah_gnode_lookup(node);
  AH_REQUIRE(n != NULL && nodeParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE(nodeParams->type == n->s.type, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_params(nodeParams, NULL, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

/* A node's kernel attributes are kept across hipGraphKernelNodeSetParams. */
static void keep_attrs(hipGraphNode_t node, struct ah_gspec *s) {
  struct ah_gnode *n = ah_gnode_typed(node, s->type);
  struct ah_gspec cur;

  if (n == NULL || s->type != hipGraphNodeTypeKernel)
    return;
  ah_gnode_get(n, &cur);
  s->apw = cur.apw;
  s->priority = cur.priority;
  s->cmd.kernel.cooperative = cur.cmd.kernel.cooperative;
}

AH_EXPORT hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node,
                                                 const hipKernelNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeKernel) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_kernel(pNodeParams, &s));
  keep_attrs(node, &s);
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node,
                                                 const hipMemcpy3DParms *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_copy3d(pNodeParams, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src,
                                                   size_t count, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_copy1d(dst, src, count, kind, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void *symbol,
                                                         const void *src, size_t count,
                                                         size_t offset, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_symbol(symbol, (void *)src, count, offset, kind, 1, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void *dst,
                                                           const void *symbol, size_t count,
                                                           size_t offset, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_symbol(symbol, dst, count, offset, kind, 0, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node,
                                                 const hipMemsetParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeMemset) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_set(pNodeParams, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node,
                                               const hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gspec_host(pNodeParams, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeEventRecord) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_event(event, hipGraphNodeTypeEventRecord, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

AH_EXPORT hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(node, hipGraphNodeTypeWaitEvent) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_event(event, hipGraphNodeTypeWaitEvent, &s));
  AH_RETURN(ah_gnode_set_spec(node, &s));
}

/* ---- kernel node attributes ---- */

/* The access policy window and priority are kept and read back (no cache
 * to steer on the CPU device; not passed to the NVIDIA driver either);
 * the cooperative attribute makes the node a cooperative launch. */
AH_EXPORT hipError_t hipGraphKernelNodeSetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr,
                                                    const hipKernelNodeAttrValue *value) {
  struct ah_device *dev = ah_current_device();
  struct ah_gnode *n;
  struct ah_gspec s;

  AH_ENTER();
  n = ah_gnode_typed(hNode, hipGraphNodeTypeKernel);
  AH_REQUIRE(n != NULL && value != NULL, hipErrorInvalidValue);
  ah_gnode_get(n, &s);
  switch (attr) {
  case hipLaunchAttributeAccessPolicyWindow: {
    const hipAccessPolicyWindow *w = &value->accessPolicyWindow;

    AH_REQUIRE(dev != NULL, hipErrorNoDevice);
    AH_REQUIRE(w->num_bytes <= (size_t)dev->props.accessPolicyMaxWindowSize,
               hipErrorInvalidValue);
    AH_REQUIRE(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f, hipErrorInvalidValue);
    AH_REQUIRE((unsigned)w->hitProp <= hipAccessPropertyPersisting, hipErrorInvalidValue);
    AH_REQUIRE((unsigned)w->missProp <= hipAccessPropertyStreaming, hipErrorInvalidValue);
    s.apw = *w;
    break;
  }
  case hipLaunchAttributeCooperative:
    s.cmd.kernel.cooperative = value->cooperative; /* nonzero: cooperative; read back as set */
    break;
  case hipLaunchAttributePriority:
    s.priority = value->priority;
    break;
  default:
    return ah_fail(hipErrorInvalidValue, __func__, "attr");
  }
  AH_RETURN(ah_gnode_set(n, &s));
}

AH_EXPORT hipError_t hipGraphKernelNodeGetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr,
                                                    hipKernelNodeAttrValue *value) {
  struct ah_gnode *n;
  struct ah_gspec s;

  AH_ENTER();
  n = ah_gnode_typed(hNode, hipGraphNodeTypeKernel);
  AH_REQUIRE(n != NULL && value != NULL, hipErrorInvalidValue);
  ah_gnode_get(n, &s);
  switch (attr) {
  case hipLaunchAttributeAccessPolicyWindow:
    value->accessPolicyWindow = s.apw;
    return hipSuccess;
  case hipLaunchAttributeCooperative:
    value->cooperative = s.cmd.kernel.cooperative;
    return hipSuccess;
  case hipLaunchAttributePriority:
    value->priority = s.priority;
    return hipSuccess;
  default:
    return ah_fail(hipErrorInvalidValue, __func__, "attr");
  }
}

AH_EXPORT hipError_t hipGraphKernelNodeCopyAttributes(hipGraphNode_t hSrc, hipGraphNode_t hDst) {
  struct ah_gnode *src, *dst;
  struct ah_gspec a, b;

  AH_ENTER();
  src = ah_gnode_typed(hSrc, hipGraphNodeTypeKernel);
  dst = ah_gnode_typed(hDst, hipGraphNodeTypeKernel);
  AH_REQUIRE(src != NULL && dst != NULL, hipErrorInvalidValue);
  if (src == dst)
    return hipSuccess;
  ah_gnode_get(src, &a);
  ah_gnode_get(dst, &b);
  b.apw = a.apw;
  b.priority = a.priority;
  b.cmd.kernel.cooperative = a.cmd.kernel.cooperative;
  AH_RETURN(ah_gnode_set(dst, &b));
}

/* ---- an executable graph's copy of a node ---- */

AH_EXPORT hipError_t hipGraphExecNodeSetParams(hipGraphExec_t graphExec, hipGraphNode_t node,
                                               hipGraphNodeParams *nodeParams) {
  struct ah_gnode *n;
  struct ah_gspec s;

  AH_ENTER();
  n = ah_gnode_lookup(node);
  AH_REQUIRE(ah_gexec_lookup(graphExec) != NULL && n != NULL && nodeParams != NULL,
             hipErrorInvalidValue);
  AH_REQUIRE(nodeParams->type == n->s.type, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_params(nodeParams, NULL, &s));
  keep_attrs(node, &s);
  AH_RETURN(ah_gexec_set_spec(graphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     const hipKernelNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeKernel));
  AH_REQUIRE_OK(ah_gspec_kernel(pNodeParams, &s));
  keep_attrs(node, &s);
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

/* The copy's direction cannot change (hipErrorInvalidValue, as in HIP). */
AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     hipMemcpy3DParms *pNodeParams) {
  struct ah_gspec s;

  hipError_t err;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  /* A pitch smaller than the row is an invalid value here (AMD's code for
   * this setter; hipGraphMemcpyNodeSetParams and hipMemcpy3D say
   * hipErrorInvalidPitchValue). */
  err = ah_gspec_copy3d(pNodeParams, &s);
  AH_REQUIRE_OK(err == hipErrorInvalidPitchValue ? hipErrorInvalidValue : err);
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec,
                                                       hipGraphNode_t node, void *dst,
                                                       const void *src, size_t count,
                                                       hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  AH_REQUIRE_OK(ah_gspec_copy1d(dst, src, count, kind, &s));
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec,
                                                             hipGraphNode_t node,
                                                             const void *symbol, const void *src,
                                                             size_t count, size_t offset,
                                                             hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  AH_REQUIRE_OK(ah_gspec_symbol(symbol, (void *)src, count, offset, kind, 1, &s));
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec,
                                                               hipGraphNode_t node, void *dst,
                                                               const void *symbol, size_t count,
                                                               size_t offset, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  AH_REQUIRE_OK(ah_gspec_symbol(symbol, dst, count, offset, kind, 0, &s));
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     const hipMemsetParams *pNodeParams) {
  struct ah_gspec s, was;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeMemset));
  AH_REQUIRE_OK(ah_gspec_set(pNodeParams, &s));
  /* Only a 1D set node of an executable graph can be changed, and only to a 1D set (CUDA's
   * rule; AMD's runtime refuses a 2D one with hipErrorInvalidValue). */
  AH_REQUIRE(pNodeParams->height <= 1, hipErrorInvalidValue);
  AH_REQUIRE(!ah_gnode_spec_of(node, hipGraphNodeTypeMemset, &was) || was.set.height <= 1,
             hipErrorInvalidValue);
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                   const hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gspec_host(pNodeParams, &s));
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeHost));
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

/* childGraph must have the shape of the node's graph (as hipGraphExecUpdate
 * requires); its nodes' parameters replace the executable graph's. */
AH_EXPORT hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec,
                                                         hipGraphNode_t node,
                                                         hipGraph_t childGraph) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, node, hipGraphNodeTypeGraph));
  AH_REQUIRE_OK(ah_gspec_child(childGraph, &s));
  AH_RETURN(ah_gexec_set_spec(hGraphExec, node, &s));
}

static hipError_t exec_set_event(hipGraphExec_t x, hipGraphNode_t node, hipEvent_t event,
                                 hipGraphNodeType type) {
  struct ah_gspec s;
  hipError_t err = ah_gexec_handles(x, node, type);

  if (err == hipSuccess)
    err = ah_gspec_event(event, type, &s);
  return err != hipSuccess ? err : ah_gexec_set_spec(x, node, &s);
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

/* ---- driver-style nodes (hipDrvGraph*) ---- */

/* A context argument: NULL or a live context (the node is on the current
 * device either way). */
static int ctx_ok(hipCtx_t ctx) {
  return ctx == NULL || ah_object_cast(ctx, AH_KIND_CONTEXT) != NULL;
}

AH_EXPORT hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                              const hipGraphNode_t *dependencies,
                                              size_t numDependencies,
                                              const HIP_MEMCPY3D *copyParams, hipCtx_t ctx) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(phGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(hGraph) != NULL && ctx_ok(ctx), hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_drv_copy(copyParams, &s));
  AH_RETURN(ah_gnode_add_spec(phGraphNode, hGraph, dependencies, numDependencies, &s));
}

/* The parameters as given to a hipDrvGraph* call; a node made otherwise
 * gives its copy as host or device pointers. */
AH_EXPORT hipError_t hipDrvGraphMemcpyNodeGetParams(hipGraphNode_t hNode,
                                                    HIP_MEMCPY3D *nodeParams) {
  struct ah_gnode *n;
  struct ah_gspec s;
  const hipMemcpy3DParms *p;

  AH_ENTER();
  AH_REQUIRE(nodeParams != NULL, hipErrorInvalidValue);
  n = ah_gnode_typed(hNode, hipGraphNodeTypeMemcpy);
  AH_REQUIRE(n != NULL, hipErrorInvalidValue);
  ah_gnode_get(n, &s);
  if (s.drv3d.WidthInBytes != 0) {
    *nodeParams = s.drv3d;
    return hipSuccess;
  }
  p = &s.copy3d;
  memset(nodeParams, 0, sizeof(*nodeParams));
  nodeParams->srcXInBytes = p->srcPos.x;
  nodeParams->srcY = p->srcPos.y;
  nodeParams->srcZ = p->srcPos.z;
  nodeParams->srcMemoryType = hipMemoryTypeUnified;
  nodeParams->srcDevice = (hipDeviceptr_t)p->srcPtr.ptr;
  nodeParams->srcPitch = p->srcPtr.pitch;
  nodeParams->srcHeight = p->srcPtr.ysize;
  nodeParams->dstXInBytes = p->dstPos.x;
  nodeParams->dstY = p->dstPos.y;
  nodeParams->dstZ = p->dstPos.z;
  nodeParams->dstMemoryType = hipMemoryTypeUnified;
  nodeParams->dstDevice = (hipDeviceptr_t)p->dstPtr.ptr;
  nodeParams->dstPitch = p->dstPtr.pitch;
  nodeParams->dstHeight = p->dstPtr.ysize;
  nodeParams->WidthInBytes = p->extent.width;
  nodeParams->Height = p->extent.height;
  nodeParams->Depth = p->extent.depth;
  return hipSuccess;
}

AH_EXPORT hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t hNode,
                                                    const HIP_MEMCPY3D *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(hNode, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_drv_copy(nodeParams, &s));
  AH_RETURN(ah_gnode_set_spec(hNode, &s));
}

AH_EXPORT hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec,
                                                        hipGraphNode_t hNode,
                                                        const HIP_MEMCPY3D *copyParams,
                                                        hipCtx_t ctx) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, hNode, hipGraphNodeTypeMemcpy));
  AH_REQUIRE(ctx_ok(ctx), hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_drv_copy(copyParams, &s));
  AH_RETURN(ah_gexec_set_spec(hGraphExec, hNode, &s));
}

AH_EXPORT hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                              const hipGraphNode_t *dependencies,
                                              size_t numDependencies,
                                              const HIP_MEMSET_NODE_PARAMS *memsetParams,
                                              hipCtx_t ctx) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(phGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(hGraph) != NULL && ctx_ok(ctx), hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_drv_set(memsetParams, &s));
  AH_RETURN(ah_gnode_add_spec(phGraphNode, hGraph, dependencies, numDependencies, &s));
}

AH_EXPORT hipError_t
hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                   const HIP_MEMSET_NODE_PARAMS *memsetParams, hipCtx_t ctx) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, hNode, hipGraphNodeTypeMemset));
  AH_REQUIRE(ctx_ok(ctx), hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_drv_set(memsetParams, &s));
  AH_RETURN(ah_gexec_set_spec(hGraphExec, hNode, &s));
}

AH_EXPORT hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                               const hipGraphNode_t *dependencies,
                                               size_t numDependencies, hipDeviceptr_t dptr) {
  AH_ENTER();
  AH_RETURN(hipGraphAddMemFreeNode(phGraphNode, hGraph, dependencies, numDependencies,
                                   (void *)dptr));
}
