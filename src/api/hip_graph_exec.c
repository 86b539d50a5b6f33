/* SPDX-License-Identifier: MIT */
/* HIP's executable graph entry points: instantiating a graph (every form),
 * uploading, launching, updating from a graph of the same shape, enabling
 * and disabling nodes, destroying. Setting one node's parameters in an
 * executable graph is in hip_graph_node.c. A bad graph, node or executable
 * graph handle is hipErrorInvalidValue, as in HIP; the work is in
 * src/core/graph_exec.c. */
#include "../core/graph.h"
#include "../core/stream.h"
#include "device_ops.h"

#include <stdio.h>
#include <string.h>

/* Flags accepted for instantiation. AutoFreeOnLaunch concerns graph
 * memory, whose blocks live as long as the graph here (nothing to free);
 * Upload asks for hipGraphUpload on the instantiate parameters' stream.
 * Device launch has no meaning for a host-run graph, and AMD's runtime
 * refuses UseNodePriority: hipErrorInvalidValue. */
#define INSTANTIATE_FLAGS                                                                      \
  ((unsigned long long)(hipGraphInstantiateFlagAutoFreeOnLaunch | hipGraphInstantiateFlagUpload))

static hipError_t instantiate(hipGraphExec_t *out, hipGraph_t graph, unsigned long long flags,
                              hipGraphNode_t *bad_out) {
  struct ah_graph *g = ah_graph_lookup(graph);
  struct ah_gexec *x;
  struct ah_gnode *bad;
  hipError_t err;

  if (g == NULL)
    return hipErrorInvalidValue;
  if ((flags & ~INSTANTIATE_FLAGS) != 0)
    return hipErrorInvalidValue;
  err = ah_graph_instantiate(g, flags, &x, &bad);
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
  err = instantiate(pGraphExec, graph, 0, pErrorNode);
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
  /* Upload needs a stream: only hipGraphInstantiateWithParams has one. */
  AH_REQUIRE((flags & hipGraphInstantiateFlagUpload) == 0, hipErrorInvalidValue);
  AH_RETURN(instantiate(pGraphExec, graph, flags, NULL));
}

static hipError_t upload(struct ah_gexec *x, hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;
  hipError_t err = ah_stream_resolve(stream, &dev, &q);

  return err != hipSuccess ? err : ah_gexec_upload(x, dev);
}

/* result_out says why instantiation failed (a cycle: InvalidStructure);
 * with hipGraphInstantiateFlagUpload the graph is uploaded to uploadStream. */
AH_EXPORT hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                                   hipGraphInstantiateParams *instantiateParams) {
  hipGraphInstantiateParams *p = instantiateParams;
  hipGraphNode_t bad = NULL;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(pGraphExec != NULL && p != NULL, hipErrorInvalidValue);
  err = instantiate(pGraphExec, graph, p->flags, &bad);
  p->errNode_out = bad;
  p->result_out = err == hipSuccess ? hipGraphInstantiateSuccess
                  : bad != NULL && err == hipErrorInvalidValue
                      ? hipGraphInstantiateInvalidStructure
                  : err == hipErrorNotSupported && bad == NULL
                      ? hipGraphInstantiateNodeOperationNotSupported
                      : hipGraphInstantiateError;
  AH_REQUIRE_OK(err);
  if ((p->flags & hipGraphInstantiateFlagUpload) != 0) {
    err = upload(ah_gexec_lookup(*pGraphExec), p->uploadStream);
    if (err != hipSuccess) {
      ah_gexec_destroy(ah_gexec_lookup(*pGraphExec));
      *pGraphExec = NULL;
      p->result_out = hipGraphInstantiateError;
      AH_REQUIRE_OK(err);
    }
  }
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphExecGetFlags(hipGraphExec_t graphExec, unsigned long long *flags) {
  struct ah_gexec *x;

  AH_ENTER();
  x = ah_gexec_lookup(graphExec);
  AH_REQUIRE(x != NULL && flags != NULL, hipErrorInvalidValue);
  *flags = x->flags;
  return hipSuccess;
}

/* Makes the internal queues and events of parallel branches on the
 * stream's device now rather than at the first launch; a launch on another
 * device makes them again there. */
AH_EXPORT hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream) {
  struct ah_gexec *x;

  AH_ENTER();
  x = ah_gexec_lookup(graphExec);
  AH_REQUIRE(x != NULL, hipErrorInvalidValue);
  AH_RETURN(upload(x, stream));
}

AH_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
  struct ah_gexec *x;
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  x = ah_gexec_lookup(graphExec);
  AH_REQUIRE(x != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  AH_REQUIRE_OK(ah_gexec_launch(x, dev, q));
  /* A copy node touching pageable host memory is done when the launch
   * returns, as AMD's runtime does it (and hipMemcpyAsync does it here). */
  if (atomic_load(&ah_capture_count) == 0 && ah_gexec_has_pageable_copy(x))
    AH_RETURN(ah_dev_queue_sync(dev, q));
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
  struct ah_gexec *x;

  AH_ENTER();
  x = ah_gexec_lookup(graphExec);
  AH_REQUIRE(x != NULL, hipErrorInvalidValue);
  ah_gexec_destroy(x);
  return hipSuccess;
}

/* hGraph must have the shape of the graph hGraphExec was made from: as
 * many nodes, and node by node, in the order they were added, the same
 * type, the same dependencies, a copy node the same direction, memory
 * nodes the same block (a kernel node may run another kernel, as in AMD's
 * runtime). Then every node's
 * parameters (child graphs' included) replace the executable graph's, and
 * nodes keep their enabled state. Otherwise nothing changes:
 * hipErrorGraphExecUpdateFailure with the reason in *updateResult_out and
 * the first node that differs in *hErrorNode_out. */
AH_EXPORT hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph,
                                        hipGraphNode_t *hErrorNode_out,
                                        hipGraphExecUpdateResult *updateResult_out) {
  struct ah_gexec *x;
  struct ah_graph *g;
  struct ah_gnode *bad;
  hipGraphExecUpdateResult r;
  hipError_t err;

  AH_ENTER();
  x = ah_gexec_lookup(hGraphExec);
  g = ah_graph_lookup(hGraph);
  AH_REQUIRE(x != NULL && g != NULL, hipErrorInvalidValue);
  AH_REQUIRE(hErrorNode_out != NULL && updateResult_out != NULL, hipErrorInvalidValue);
  err = ah_gexec_update(x, g, &bad, &r);
  *hErrorNode_out = (hipGraphNode_t)bad;
  *updateResult_out = r;
  AH_RETURN(err);
}

/* Kernel, copy and set nodes can be disabled (CUDA's and HIP's rule): a
 * disabled node runs as an empty node, its parameters kept. */
static hipError_t enable_node(hipGraphExec_t graphExec, hipGraphNode_t node, int set,
                              int *enabled) {
  struct ah_gexec *x = ah_gexec_lookup(graphExec);
  struct ah_gnode *n = ah_gnode_lookup(node);

  if (x == NULL || n == NULL)
    return hipErrorInvalidValue;
  if (n->s.type != hipGraphNodeTypeKernel && n->s.type != hipGraphNodeTypeMemcpy &&
      n->s.type != hipGraphNodeTypeMemset)
    return hipErrorInvalidValue;
  return ah_gexec_enable(x, n, set, enabled);
}

AH_EXPORT hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                            unsigned int isEnabled) {
  int on = isEnabled != 0;

  AH_ENTER();
  AH_RETURN(enable_node(hGraphExec, hNode, 1, &on));
}

AH_EXPORT hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                            unsigned int *isEnabled) {
  int on = 0;

  AH_ENTER();
  AH_REQUIRE(isEnabled != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(enable_node(hGraphExec, hNode, 0, &on));
  *isEnabled = (unsigned)on;
  return hipSuccess;
}
