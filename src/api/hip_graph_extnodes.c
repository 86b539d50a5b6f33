/* SPDX-License-Identifier: MIT */
/* Graph nodes of external semaphores and of stream memory operations:
 * adding them, reading and setting their parameters, and setting an
 * executable graph's copy (core/graph_extnodes.c builds the spec; the
 * three uses are the other nodes' ones, src/api/hip_graph_node.c). A
 * node's parameters read back point at the node's own copies of the
 * arrays, valid until its parameters change. A bad graph, node or
 * executable graph handle, a node of another type, NULL or empty arrays and
 * unknown semaphores are hipErrorInvalidValue; the operations of a batch
 * are checked as hipStreamBatchMemOp checks them. */
#include "../core/graph.h"

/* The three uses copy the spec: the arrays built here are given back after. */
static hipError_t add_node(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                           size_t ndeps, struct ah_gspec *s) {
  hipError_t err = ah_gnode_add_spec(out, graph, deps, ndeps, s);

  ah_gspec_fini(s);
  return err;
}

static hipError_t set_node(hipGraphNode_t node, struct ah_gspec *s) {
  hipError_t err = ah_gnode_set_spec(node, s);

  ah_gspec_fini(s);
  return err;
}

static hipError_t set_exec(hipGraphExec_t x, hipGraphNode_t node, struct ah_gspec *s) {
  hipError_t err = ah_gexec_set_spec(x, node, s);

  ah_gspec_fini(s);
  return err;
}

/* ---- external semaphores ---- */

/* A semaphore node's own arrays, as its spec keeps them (ah_gspec_extsem): the
 * semaphores, then their parameters; for the node's GetParams. */
static hipExternalSemaphore_t *extsem_arrays(const struct ah_gspec *s, const void **params,
                                             unsigned *n) {
  *params = (const char *)s->ops + s->nops * sizeof(hipExternalSemaphore_t);
  *n = (unsigned)s->nops;
  return s->ops;
}

AH_EXPORT hipError_t hipGraphAddExternalSemaphoresSignalNode(
    hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
    size_t numDependencies, const hipExternalSemaphoreSignalNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL && nodeParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_extsem(nodeParams->extSemArray, nodeParams->paramsArray,
                                nodeParams->numExtSems, hipGraphNodeTypeExtSemaphoreSignal, &s));
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddExternalSemaphoresWaitNode(
    hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
    size_t numDependencies, const hipExternalSemaphoreWaitNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL && nodeParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_extsem(nodeParams->extSemArray, nodeParams->paramsArray,
                                nodeParams->numExtSems, hipGraphNodeTypeExtSemaphoreWait, &s));
  AH_RETURN(add_node(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphExternalSemaphoresSignalNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreSignalNodeParams *params_out) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(params_out != NULL &&
                 ah_gnode_spec_of(hNode, hipGraphNodeTypeExtSemaphoreSignal, &s),
             hipErrorInvalidValue);
  params_out->extSemArray = extsem_arrays(&s, (const void **)&params_out->paramsArray,
                                          &params_out->numExtSems);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphExternalSemaphoresWaitNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreWaitNodeParams *params_out) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(params_out != NULL && ah_gnode_spec_of(hNode, hipGraphNodeTypeExtSemaphoreWait, &s),
             hipErrorInvalidValue);
  params_out->extSemArray = extsem_arrays(&s, (const void **)&params_out->paramsArray,
                                          &params_out->numExtSems);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphExternalSemaphoresSignalNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreSignalNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(nodeParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_gnode_typed(hNode, hipGraphNodeTypeExtSemaphoreSignal) != NULL,
             hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_extsem(nodeParams->extSemArray, nodeParams->paramsArray,
                                nodeParams->numExtSems, hipGraphNodeTypeExtSemaphoreSignal, &s));
  AH_RETURN(set_node(hNode, &s));
}

AH_EXPORT hipError_t hipGraphExternalSemaphoresWaitNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreWaitNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(nodeParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_gnode_typed(hNode, hipGraphNodeTypeExtSemaphoreWait) != NULL,
             hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_extsem(nodeParams->extSemArray, nodeParams->paramsArray,
                                nodeParams->numExtSems, hipGraphNodeTypeExtSemaphoreWait, &s));
  AH_RETURN(set_node(hNode, &s));
}

AH_EXPORT hipError_t hipGraphExecExternalSemaphoresSignalNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreSignalNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, hNode, hipGraphNodeTypeExtSemaphoreSignal));
  AH_REQUIRE(nodeParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_extsem(nodeParams->extSemArray, nodeParams->paramsArray,
                                nodeParams->numExtSems, hipGraphNodeTypeExtSemaphoreSignal, &s));
  AH_RETURN(set_exec(hGraphExec, hNode, &s));
}

AH_EXPORT hipError_t hipGraphExecExternalSemaphoresWaitNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreWaitNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, hNode, hipGraphNodeTypeExtSemaphoreWait));
  AH_REQUIRE(nodeParams != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_extsem(nodeParams->extSemArray, nodeParams->paramsArray,
                                nodeParams->numExtSems, hipGraphNodeTypeExtSemaphoreWait, &s));
  AH_RETURN(set_exec(hGraphExec, hNode, &s));
}

/* ---- stream memory operations ---- */

AH_EXPORT hipError_t hipGraphAddBatchMemOpNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                               const hipGraphNode_t *dependencies,
                                               size_t numDependencies,
                                               const hipBatchMemOpNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(phGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(hGraph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_batch(nodeParams, &s));
  AH_RETURN(add_node(phGraphNode, hGraph, dependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphBatchMemOpNodeGetParams(hipGraphNode_t hNode,
                                                     hipBatchMemOpNodeParams *nodeParams_out) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(nodeParams_out != NULL && ah_gnode_spec_of(hNode, hipGraphNodeTypeBatchMemOp, &s),
             hipErrorInvalidValue);
  nodeParams_out->ctx = s.ops_ctx;
  nodeParams_out->count = (unsigned)s.nops;
  nodeParams_out->paramArray = s.ops;
  nodeParams_out->flags = s.ops_flags;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphBatchMemOpNodeSetParams(hipGraphNode_t hNode,
                                                     hipBatchMemOpNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(ah_gnode_typed(hNode, hipGraphNodeTypeBatchMemOp) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_gspec_batch(nodeParams, &s));
  AH_RETURN(set_node(hNode, &s));
}

AH_EXPORT hipError_t hipGraphExecBatchMemOpNodeSetParams(hipGraphExec_t hGraphExec,
                                                         hipGraphNode_t hNode,
                                                         const hipBatchMemOpNodeParams *nodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(ah_gexec_handles(hGraphExec, hNode, hipGraphNodeTypeBatchMemOp));
  AH_REQUIRE_OK(ah_gspec_batch(nodeParams, &s));
  AH_RETURN(set_exec(hGraphExec, hNode, &s));
}
