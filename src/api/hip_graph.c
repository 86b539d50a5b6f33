/* SPDX-License-Identifier: MIT */
/* HIP's graph entry points, building side: graphs (create, destroy, clone),
 * dependencies and what can be listed of them, user objects, and the
 * graph-memory device attributes. Node parameters are in hip_graph_node.c,
 * executable graphs in hip_graph_exec.c, stream capture in
 * hip_graph_capture.c. Every argument is checked here, with HIP's codes (a
 * bad graph or node handle is hipErrorInvalidValue, as in HIP); the work is
 * in src/core/graph.c. */
#include "../core/graph.h"
#include "../core/stream.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  AH_REQUIRE(!g->embedded, hipErrorInvalidValue); /* a child graph node's own graph */
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
  *pType = n->s.type;
  return hipSuccess;
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

/* ---- user objects ---- */

/* The destructor runs once, in the thread that drops the last reference
 * (a hipUserObjectRelease, hipGraphReleaseUserObject, hipGraphDestroy or
 * hipGraphExecDestroy), after the work of executable graphs holding it was
 * queued, not necessarily finished: CUDA runs it later on a thread of its
 * own. Only hipUserObjectNoDestructorSync is accepted, as in CUDA. */
AH_EXPORT hipError_t hipUserObjectCreate(hipUserObject_t *object_out, void *ptr,
                                         hipHostFn_t destroy, unsigned int initialRefcount,
                                         unsigned int flags) {
  struct ah_uobj *o;

  AH_ENTER();
  AH_REQUIRE(object_out != NULL && destroy != NULL, hipErrorInvalidValue);
  AH_REQUIRE(initialRefcount != 0 && initialRefcount <= INT_MAX, hipErrorInvalidValue);
  AH_REQUIRE(flags == hipUserObjectNoDestructorSync, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_uobj_create(ptr, destroy, initialRefcount, &o));
  *object_out = (hipUserObject_t)o;
  return hipSuccess;
}

/* Releasing more references than there are destroys the object once. */
AH_EXPORT hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count) {
  struct ah_uobj *o;

  AH_ENTER();
  o = ah_uobj_lookup(object);
  AH_REQUIRE(o != NULL, hipErrorInvalidValue);
  AH_REQUIRE(count != 0 && count <= INT_MAX, hipErrorInvalidValue);
  ah_uobj_release(o, count);
  return hipSuccess;
}

AH_EXPORT hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count) {
  struct ah_uobj *o;

  AH_ENTER();
  o = ah_uobj_lookup(object);
  AH_REQUIRE(o != NULL, hipErrorInvalidValue);
  AH_REQUIRE(count != 0 && count <= INT_MAX, hipErrorInvalidValue);
  ah_uobj_retain(o, count);
  return hipSuccess;
}

/* flags hipGraphUserObjectMove: the graph takes count of the caller's
 * references; 0: new ones. Clones and executable graphs of the graph hold
 * references of their own. */
AH_EXPORT hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object,
                                              unsigned int count, unsigned int flags) {
  struct ah_graph *g;
  struct ah_uobj *o;

  AH_ENTER();
  g = ah_graph_lookup(graph);
  o = ah_uobj_lookup(object);
  AH_REQUIRE(g != NULL && o != NULL, hipErrorInvalidValue);
  AH_REQUIRE(count != 0 && count <= INT_MAX, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0 || flags == hipGraphUserObjectMove, hipErrorInvalidValue);
  AH_RETURN(ah_graph_retain_uobj(g, o, count, flags == hipGraphUserObjectMove));
}

/* At most the references the graph holds are given back; none held is
 * nothing to do (AMD's runtime accepts it). */
AH_EXPORT hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object,
                                               unsigned int count) {
  struct ah_graph *g;
  struct ah_uobj *o;

  AH_ENTER();
  g = ah_graph_lookup(graph);
  o = ah_uobj_lookup(object);
  AH_REQUIRE(g != NULL && o != NULL, hipErrorInvalidValue);
  AH_REQUIRE(count != 0 && count <= INT_MAX, hipErrorInvalidValue);
  AH_RETURN(ah_graph_release_uobj(g, o, count));
}

/* ---- hipGraphDebugDotPrint ---- */

/* A copy's direction as AMD's runtime writes it: an array side is "A" (HtoA, AtoD, ...). */
static const char *copy_dir(const hipMemcpy3DParms *p) {
  static const char *const names[2][2][2][2] = {
      /* [src array][dst array][src host][dst host] */
      {{{"DtoD", "DtoH"}, {"HtoD", "HtoH"}}, {{"DtoA", "DtoA"}, {"HtoA", "HtoA"}}},
      {{{"AtoD", "AtoH"}, {"AtoD", "AtoH"}}, {{"AtoA", "AtoA"}, {"AtoA", "AtoA"}}}};
  hipMemcpyKind k = p->kind;

  if (k != hipMemcpyHostToHost && k != hipMemcpyHostToDevice && k != hipMemcpyDeviceToHost &&
      k != hipMemcpyDeviceToDevice)
    return "Default";
  return names[p->srcArray != NULL][p->dstArray != NULL]
              [k == hipMemcpyHostToHost || k == hipMemcpyHostToDevice]
              [k == hipMemcpyHostToHost || k == hipMemcpyDeviceToHost];
}

static const char *type_name(hipGraphNodeType t) {
  switch (t) {
  case hipGraphNodeTypeKernel: return "KERNEL";
  case hipGraphNodeTypeMemcpy: return "MEMCPY";
  case hipGraphNodeTypeMemset: return "MEMSET";
  case hipGraphNodeTypeHost: return "HOST";
  case hipGraphNodeTypeGraph: return "GRAPH";
  case hipGraphNodeTypeEmpty: return "EMPTY";
  case hipGraphNodeTypeWaitEvent: return "EVENT_WAIT";
  case hipGraphNodeTypeEventRecord: return "EVENT_RECORD";
  case hipGraphNodeTypeMemAlloc: return "MEM_ALLOC";
  case hipGraphNodeTypeMemFree: return "MEM_FREE";
  default: return "UNKNOWN";
  }
}

/* g's nodes (a child graph's as a cluster) and edges, in DOT. */
static void dot_graph(FILE *f, struct ah_graph *g, unsigned flags, int depth) {
  size_t n = ah_graph_list(g, 0, NULL, 0), ne;
  struct ah_gnode **nodes = calloc(n + 1, sizeof(*nodes)), **from, **to;

  if (nodes == NULL)
    return;
  n = ah_graph_list(g, 0, nodes, n);
  for (size_t i = 0; i < n; i++) {
    struct ah_gspec s;

    ah_gnode_get(nodes[i], &s);
    fprintf(f, "%*s\"n%p\" [shape=box label=\"%s", 2 * depth, "", (void *)nodes[i],
            type_name(s.type));
    if (s.type == hipGraphNodeTypeMemcpy)
      fprintf(f, " %s %zu x %zu x %zu", copy_dir(&s.copy3d), s.copy3d.extent.width,
              s.copy3d.extent.height, s.copy3d.extent.depth);
    else if (s.type == hipGraphNodeTypeKernel && (flags & (hipGraphDebugDotFlagsVerbose |
                                                            hipGraphDebugDotFlagsKernelNodeParams)))
      fprintf(f, " grid (%u,%u,%u) block (%u,%u,%u) shared %zu", s.cmd.kernel.grid.x,
              s.cmd.kernel.grid.y, s.cmd.kernel.grid.z, s.cmd.kernel.block.x,
              s.cmd.kernel.block.y, s.cmd.kernel.block.z, s.cmd.kernel.shared_bytes);
    else if (s.type == hipGraphNodeTypeMemset)
      fprintf(f, " %u-byte value 0x%x, %zu x %zu", s.cmd.set.elem_size, s.cmd.set.value,
              s.cmd.set.count, s.cmd.set.height);
    if (flags & (hipGraphDebugDotFlagsVerbose | hipGraphDebugDotFlagsHandles))
      fprintf(f, " node %p", (void *)nodes[i]);
    fprintf(f, "\"];\n");
    if (s.type == hipGraphNodeTypeGraph && s.child != NULL) {
      fprintf(f, "%*ssubgraph \"cluster_%p\" {\n", 2 * depth, "", (void *)nodes[i]);
      dot_graph(f, s.child, flags, depth + 1);
      fprintf(f, "%*s}\n", 2 * depth, "");
    }
  }
  free(nodes);
  ne = ah_graph_edges(g, NULL, NULL, 0);
  from = calloc(ne + 1, sizeof(*from));
  to = calloc(ne + 1, sizeof(*to));
  if (from != NULL && to != NULL) {
    ne = ah_graph_edges(g, from, to, ne);
    for (size_t i = 0; i < ne; i++)
      fprintf(f, "%*s\"n%p\" -> \"n%p\";\n", 2 * depth, "", (void *)from[i], (void *)to[i]);
  }
  free(from);
  free(to);
}

/* A DOT file of the graph: one box per node (its type, a copy's direction
 * and extent, a set's value; kernel launch parameters and handles with the
 * flags that ask for them), a child graph as a cluster, one arrow per edge.
 * Every flag value is accepted. A file that cannot be written:
 * hipErrorOperatingSystem. */
AH_EXPORT hipError_t hipGraphDebugDotPrint(hipGraph_t graph, const char *path,
                                           unsigned int flags) {
  struct ah_graph *g;
  FILE *f;

  AH_ENTER();
  g = ah_graph_lookup(graph);
  AH_REQUIRE(g != NULL && path != NULL, hipErrorInvalidValue);
  f = fopen(path, "w");
  AH_REQUIRE(f != NULL, hipErrorOperatingSystem);
  /* The graph itself is a cluster too, as AMD's runtime writes it (one "subgraph" per graph,
   * child graphs included: hip-tests counts them). */
  fprintf(f, "digraph dot {\n  subgraph \"cluster_%p\" {\n", (void *)graph);
  dot_graph(f, g, flags, 2);
  fprintf(f, "  }\n}\n");
  AH_REQUIRE(fclose(f) == 0, hipErrorOperatingSystem);
  return hipSuccess;
}
