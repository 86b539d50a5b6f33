/* SPDX-License-Identifier: MIT */
/* HIP's graph node parameters: every entry point that adds a node, reads or
 * sets a node's parameters, or sets an executable graph's copy of them.
 * Each node type's parameters are checked once, by one builder per type
 * that turns them into a spec (struct ah_gspec, src/core/graph.h); the
 * typed entry points (hipGraphAddKernelNode, ...), the generic ones
 * (hipGraphAddNode, hipGraphNodeSetParams, hipGraphExecNodeSetParams, all
 * through node_spec) and the exec paths hand that spec to the core's three
 * calls: ah_graph_add, ah_gnode_set and ah_gexec_set. A bad graph, node or
 * executable graph handle is hipErrorInvalidValue, as in HIP. */
#include "device_ops.h"
#include "../core/graph.h"
#include "../core/stream.h"
#include "launch.h"
#include "memory.h"

#include <stdlib.h>
#include <string.h>

/* ---- one builder per node type: HIP's parameters -> a spec ---- */

/* A kernel node, checked against the current device as a launch would be.
 * The argument values are copied when the spec is copied into a node. */
static hipError_t kernel_spec(const hipKernelNodeParams *p, struct ah_gspec *s) {
  struct ah_device *dev = ah_current_device();
  const ahKernelSig *sig;
  const void *fn;
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
   * every non-template __global__ function); a module's function handle
   * names one of a code object's kernels. */
  fn = p->func;
  sig = ah_kernel_sig(fn);
  if (sig == NULL && ah_module_function(p->func, &fn, &sig) != hipSuccess)
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
  {
    hipError_t err = ah_dev_function_check(dev, fn);

    if (err != hipSuccess)
      return err;
  }
  *s = (struct ah_gspec){.type = hipGraphNodeTypeKernel};
  s->cmd.kind = AH_CMD_KERNEL;
  s->cmd.kernel.fn = fn;
  s->func = p->func; /* as given (a module's handle): hipGraphKernelNodeGetParams */
  s->cmd.kernel.sig = sig;
  s->cmd.kernel.grid = g;
  s->cmd.kernel.block = b;
  s->cmd.kernel.shared_bytes = p->sharedMemBytes;
  s->cmd.kernel.args = p->kernelParams;
  return hipSuccess;
}

/* A 3D copy node, checked on the current device as hipMemcpy3D checks the
 * copy (src/api/hip_memcpy3d.c). */
static hipError_t copy3d_spec(const hipMemcpy3DParms *p, struct ah_gspec *s) {
  hipError_t err;

  if (p == NULL)
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = hipGraphNodeTypeMemcpy};
  err = ah_memcpy_3d(p, NULL, 0, &s->cmd);
  s->copy3d = *p;
  return err;
}

/* A 1D copy node, checked as hipMemcpyAsync checks the copy; its 3D
 * parameters (hipGraphMemcpyNodeGetParams) are one row of count bytes. */
static hipError_t copy1d_spec(void *dst, const void *src, size_t count, hipMemcpyKind kind,
                              struct ah_gspec *s) {
  int pageable;

  if (!ah_memcpy_valid_kind(kind))
    return hipErrorInvalidMemcpyDirection;
  if (dst == NULL || src == NULL || count == 0) /* a node must move something (HIP) */
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = hipGraphNodeTypeMemcpy};
  s->cmd.kind = AH_CMD_COPY;
  s->cmd.copy.dst = dst;
  s->cmd.copy.src = src;
  s->cmd.copy.bytes = count;
  s->copy3d.srcPtr = make_hipPitchedPtr((void *)src, count, count, 1);
  s->copy3d.dstPtr = make_hipPitchedPtr(dst, count, count, 1);
  s->copy3d.extent = make_hipExtent(count, 1, 1);
  s->copy3d.kind = kind;
  return ah_memcpy_check(dst, count, src, count, kind, &s->cmd.copy.kind, &pageable);
}

/* A copy to or from a device variable (at offset into it) on the current
 * device: a 1D copy node of the variable's device address, checked as
 * hipMemcpyTo/FromSymbol checks it, and as AMD's node functions check the
 * other pointer (below). */
static hipError_t symbol_spec(const void *symbol, void *mem, size_t count, size_t offset,
                              hipMemcpyKind kind, int to_symbol, struct ah_gspec *s) {
  struct ah_device *dev = ah_current_device();
  struct ah_alloc a;
  void *addr;
  size_t size;
  hipError_t err;

  if (mem == NULL)
    return hipErrorInvalidValue;
  if (symbol == NULL)
    return hipErrorInvalidSymbol;
  if (dev == NULL)
    return hipErrorNoDevice;
  err = ah_memcpy_symbol(dev, symbol, &addr, &size);
  if (err != hipSuccess)
    return err;
  if (count == 0 || offset > size || count > size - offset)
    return hipErrorInvalidValue;
  if (!ah_memcpy_symbol_kind(kind, to_symbol))
    return hipErrorInvalidMemcpyDirection;
  if (kind == hipMemcpyDeviceToDeviceNoCU)
    kind = hipMemcpyDeviceToDevice;
  /* The other side of a device-to-device copy must be memory the runtime
   * allocated (AMD's check): not pageable host memory, and not a device
   * variable's own address, which in HIP is the variable's host shadow (on
   * the CPU device it would be the variable's storage). A __managed__
   * variable is managed memory, and allowed. */
  if (kind == hipMemcpyDeviceToDevice && !ah_alloc_find(mem, &a))
    return hipErrorInvalidValue;
  addr = (char *)addr + offset;
  return to_symbol ? copy1d_spec(addr, mem, count, kind, s)
                   : copy1d_spec(mem, addr, count, kind, s);
}

/* A set node: 1D or pitched 2D, checked as hipMemset2D checks it; a node
 * must set something. */
static hipError_t set_spec(const hipMemsetParams *p, struct ah_gspec *s) {
  uint32_t value;

  if (p == NULL || p->dst == NULL)
    return hipErrorInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    return hipErrorInvalidValue;
  if (p->width == 0 || p->height == 0)
    return hipErrorInvalidValue;
  value = p->elementSize == 4 ? p->value
          : p->elementSize == 2 ? (p->value & 0xffffu) : (p->value & 0xffu);
  *s = (struct ah_gspec){.type = hipGraphNodeTypeMemset};
  return ah_memset_cmd(p->dst, value, p->elementSize, p->width, p->pitch, p->height, &s->cmd);
}

static hipError_t host_spec(const hipHostNodeParams *p, struct ah_gspec *s) {
  if (p == NULL || p->fn == NULL)
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = hipGraphNodeTypeHost};
  s->cmd.kind = AH_CMD_HOST_FN;
  s->cmd.host_fn.fn = p->fn;
  s->cmd.host_fn.data = p->userData;
  return hipSuccess;
}

/* A child graph node: the core copies the graph (CUDA's rule: the node
 * owns a clone; changing childGraph afterwards changes nothing). */
static hipError_t child_spec(hipGraph_t graph, struct ah_gspec *s) {
  struct ah_graph *g = ah_graph_lookup(graph);

  if (g == NULL)
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = hipGraphNodeTypeGraph, .child = g};
  return hipSuccess;
}

/* An event record or wait node: recorded or waited for as hipEventRecord
 * and hipStreamWaitEvent on the node's queue; the event is checked now and
 * looked up again at each launch. */
static hipError_t event_spec(hipEvent_t event, hipGraphNodeType type, struct ah_gspec *s) {
  if (ah_event_lookup(event) == NULL)
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = type, .event = event};
  return hipSuccess;
}

/* A memory alloc node: the block is reserved now (s->mem holds a reference
 * the caller gives back) and its address written to p->dptr: it stays the
 * same for the graph's life (and its clones' and executable graphs'), as in
 * CUDA, so later nodes can be given it. Memory of the location's device's
 * default pool; access descriptors are accepted (every device may access). */
static hipError_t alloc_spec(hipMemAllocNodeParams *p, struct ah_gspec *s) {
  const hipMemPoolProps *pp;
  struct ah_device *dev;
  hipError_t err;

  if (p == NULL)
    return hipErrorInvalidValue;
  pp = &p->poolProps;
  if (pp->allocType != hipMemAllocationTypePinned || pp->location.type != hipMemLocationTypeDevice)
    return hipErrorInvalidValue;
  dev = ah_device_get(pp->location.id);
  if (dev == NULL)
    return hipErrorInvalidValue;
  if ((p->accessDescCount != 0 && p->accessDescs == NULL) || p->bytesize == 0)
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = hipGraphNodeTypeMemAlloc};
  err = ah_gmem_create(dev, p->bytesize, &s->mem);
  if (err == hipSuccess) {
    p->dptr = s->mem->ptr;
    s->alloc = *p; /* read back as given (the access descriptors' address included) */
  }
  return err;
}

/* A memory free node of g: ptr must be the address of an alloc node of g
 * (s->mem holds a reference the caller gives back). */
static hipError_t free_spec(struct ah_graph *g, void *ptr, struct ah_gspec *s) {
  if (g == NULL || ptr == NULL)
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = hipGraphNodeTypeMemFree};
  s->mem = ah_graph_find_mem(g, ptr);
  return s->mem != NULL ? hipSuccess : hipErrorInvalidValue;
}

/* The one node-parameter function: HIP's generic parameters (hipGraphAddNode,
 * hipGraphNodeSetParams, hipGraphExecNodeSetParams) to a spec, through the
 * builder of the node's type. g is the graph a node is added to (memory free
 * nodes need it), NULL when parameters are set. */
static hipError_t node_spec(hipGraphNodeParams *p, struct ah_graph *g, struct ah_gspec *s) {
  if (p == NULL)
    return hipErrorInvalidValue;
  for (int i = 0; i < 3; i++)
    if (p->reserved0[i] != 0)
      return hipErrorInvalidValue;
  switch (p->type) {
  case hipGraphNodeTypeKernel:
    return kernel_spec(&p->kernel, s);
  case hipGraphNodeTypeMemcpy:
    if (p->memcpy.flags != 0 || p->memcpy.reserved[0] != 0 || p->memcpy.reserved[1] != 0 ||
        p->memcpy.reserved[2] != 0)
      return hipErrorInvalidValue;
    return copy3d_spec(&p->memcpy.copyParams, s);
  case hipGraphNodeTypeMemset:
    return set_spec(&p->memset, s);
  case hipGraphNodeTypeHost:
    return host_spec(&p->host, s);
  case hipGraphNodeTypeGraph:
    return child_spec(p->graph.graph, s);
  case hipGraphNodeTypeEmpty:
    *s = (struct ah_gspec){.type = hipGraphNodeTypeEmpty};
    return hipSuccess;
  case hipGraphNodeTypeWaitEvent:
    return event_spec(p->eventWait.event, p->type, s);
  case hipGraphNodeTypeEventRecord:
    return event_spec(p->eventRecord.event, p->type, s);
  case hipGraphNodeTypeMemAlloc:
    return g != NULL ? alloc_spec(&p->alloc, s) : hipErrorInvalidValue;
  case hipGraphNodeTypeMemFree:
    return free_spec(g, p->free.dptr, s);
  default: /* external semaphores, and what HIP does not define */
    return hipErrorInvalidValue;
  }
}

/* ---- the three uses of a spec: add, set, exec-set ---- */

/* Adds a node doing s to graph after deps; gives back s's reference to a
 * memory block (the node holds its own). */
static hipError_t add_spec(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                           size_t ndeps, struct ah_gspec *s) {
  struct ah_graph *g = ah_graph_lookup(graph);
  struct ah_gnode **d = NULL, *n;
  hipError_t err = g != NULL ? ah_graph_resolve(g, deps, ndeps, &d) : hipErrorInvalidValue;

  if (err == hipSuccess)
    err = ah_graph_add(g, s, d, ndeps, &n);
  free(d);
  ah_gmem_release(s->mem);
  s->mem = NULL;
  if (err == hipSuccess)
    *out = (hipGraphNode_t)n;
  return err;
}

/* The node behind h when it is of `type`. */
static struct ah_gnode *typed_node(hipGraphNode_t h, hipGraphNodeType type) {
  struct ah_gnode *n = ah_gnode_lookup(h);

  return n != NULL && n->s.type == type ? n : NULL;
}

/* Node h's parameters into s when it is of `type`; 0 when it is not. */
static int spec_of(hipGraphNode_t h, hipGraphNodeType type, struct ah_gspec *s) {
  struct ah_gnode *n = typed_node(h, type);

  if (n != NULL)
    ah_gnode_get(n, s);
  return n != NULL;
}

/* New 1D copy parameters of an existing node must not overlap source and
 * destination (AMD's runtime refuses them there, as hip-tests checks). */
static int overlaps(const struct ah_gspec *s) {
  uintptr_t d = (uintptr_t)s->cmd.copy.dst, c = (uintptr_t)s->cmd.copy.src;

  return s->type == hipGraphNodeTypeMemcpy && s->cmd.kind == AH_CMD_COPY &&
         d < c + s->cmd.copy.bytes && c < d + s->cmd.copy.bytes;
}

/* Sets node h's parameters (h of s's type). */
static hipError_t set_spec_of(hipGraphNode_t h, const struct ah_gspec *s) {
  struct ah_gnode *n = typed_node(h, s->type);

  if (n == NULL || overlaps(s))
    return hipErrorInvalidValue;
  return ah_gnode_set(n, s);
}

/* Sets executable graph x's copy of node h (h of s's type). */
static hipError_t exec_set_spec(hipGraphExec_t x, hipGraphNode_t h, const struct ah_gspec *s) {
  struct ah_gexec *xo = ah_gexec_lookup(x);
  struct ah_gnode *n = typed_node(h, s->type);

  if (xo == NULL || n == NULL || overlaps(s))
    return hipErrorInvalidValue;
  return ah_gexec_set(xo, n, s);
}

/* Checks the handles an exec-set entry point takes before its parameters. */
static hipError_t exec_handles(hipGraphExec_t x, hipGraphNode_t h, hipGraphNodeType type) {
  return ah_gexec_lookup(x) != NULL && typed_node(h, type) != NULL ? hipSuccess
                                                                    : hipErrorInvalidValue;
}

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
  AH_REQUIRE_OK(node_spec(nodeParams, g, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const hipKernelNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(kernel_spec(pNodeParams, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                             const hipGraphNode_t *pDependencies,
                                             size_t numDependencies, void *dst, const void *src,
                                             size_t count, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(copy1d_spec(dst, src, count, kind, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const struct hipMemcpy3DParms *pCopyParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(copy3d_spec(pCopyParams, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
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
  AH_REQUIRE_OK(symbol_spec(symbol, (void *)src, count, offset, kind, 1, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
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
  AH_REQUIRE_OK(symbol_spec(symbol, dst, count, offset, kind, 0, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies,
                                           size_t numDependencies,
                                           const hipMemsetParams *pMemsetParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(set_spec(pMemsetParams, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t *pDependencies,
                                         size_t numDependencies,
                                         const hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(graph) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(host_spec(pNodeParams, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

AH_EXPORT hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                          const hipGraphNode_t *pDependencies,
                                          size_t numDependencies) {
  struct ah_gspec s = {.type = hipGraphNodeTypeEmpty};

  AH_ENTER();
  AH_REQUIRE(pGraphNode != NULL, hipErrorInvalidValue);
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
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
  AH_REQUIRE_OK(child_spec(childGraph, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

static hipError_t add_event_node(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                                 size_t ndeps, hipEvent_t event, hipGraphNodeType type) {
  struct ah_gspec s;
  hipError_t err;

  if (out == NULL || ah_graph_lookup(graph) == NULL)
    return hipErrorInvalidValue;
  err = event_spec(event, type, &s);
  return err != hipSuccess ? err : add_spec(out, graph, deps, ndeps, &s);
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
  AH_REQUIRE_OK(alloc_spec(pNodeParams, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
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
  AH_REQUIRE_OK(free_spec(g, dev_ptr, &s));
  AH_RETURN(add_spec(pGraphNode, graph, pDependencies, numDependencies, &s));
}

/* ---- reading a node's parameters ---- */

/* kernelParams points at the node's own copies of the arguments: valid
 * while the node lives and its parameters are not set again. */
AH_EXPORT hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node,
                                                 hipKernelNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && spec_of(node, hipGraphNodeTypeKernel, &s),
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
  AH_REQUIRE(pNodeParams != NULL && spec_of(node, hipGraphNodeTypeMemcpy, &s),
             hipErrorInvalidValue);
  *pNodeParams = s.copy3d;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node,
                                               hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && spec_of(node, hipGraphNodeTypeHost, &s), hipErrorInvalidValue);
  pNodeParams->fn = s.cmd.host_fn.fn;
  pNodeParams->userData = s.cmd.host_fn.data;
  return hipSuccess;
}

AH_EXPORT hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node,
                                                 hipMemsetParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pNodeParams != NULL && spec_of(node, hipGraphNodeTypeMemset, &s),
             hipErrorInvalidValue);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->dst = s.cmd.set.dst;
  pNodeParams->elementSize = s.cmd.set.elem_size;
  pNodeParams->width = s.cmd.set.count;
  pNodeParams->height = s.cmd.set.height;
  pNodeParams->pitch = s.cmd.set.pitch;
  pNodeParams->value = s.cmd.set.value;
  return hipSuccess;
}

/* The node's own graph (a copy of the one given): it can be inspected and
 * changed, not destroyed; changing it does not change executable graphs
 * made before. */
AH_EXPORT hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t *pGraph) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(pGraph != NULL && spec_of(node, hipGraphNodeTypeGraph, &s), hipErrorInvalidValue);
  *pGraph = (hipGraph_t)s.child;
  return hipSuccess;
}

static hipError_t get_event(hipGraphNode_t node, hipEvent_t *out, hipGraphNodeType type) {
  struct ah_gspec s;

  if (out == NULL || !spec_of(node, type, &s))
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
  AH_REQUIRE(pNodeParams != NULL && spec_of(node, hipGraphNodeTypeMemAlloc, &s),
             hipErrorInvalidValue);
  AH_REQUIRE(s.mem != NULL, hipErrorInvalidValue);
  *pNodeParams = s.alloc;
  return hipSuccess;
}

/* dev_ptr points at a void * that receives the freed address. */
AH_EXPORT hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL && spec_of(node, hipGraphNodeTypeMemFree, &s), hipErrorInvalidValue);
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
  AH_REQUIRE_OK(node_spec(nodeParams, NULL, &s));
  AH_RETURN(set_spec_of(node, &s));
}

/* A node's kernel attributes are kept across hipGraphKernelNodeSetParams. */
static void keep_attrs(hipGraphNode_t node, struct ah_gspec *s) {
  struct ah_gnode *n = typed_node(node, s->type);
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
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeKernel) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(kernel_spec(pNodeParams, &s));
  keep_attrs(node, &s);
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node,
                                                 const hipMemcpy3DParms *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(copy3d_spec(pNodeParams, &s));
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src,
                                                   size_t count, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(copy1d_spec(dst, src, count, kind, &s));
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void *symbol,
                                                         const void *src, size_t count,
                                                         size_t offset, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(symbol_spec(symbol, (void *)src, count, offset, kind, 1, &s));
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void *dst,
                                                           const void *symbol, size_t count,
                                                           size_t offset, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(symbol_spec(symbol, dst, count, offset, kind, 0, &s));
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node,
                                                 const hipMemsetParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeMemset) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(set_spec(pNodeParams, &s));
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node,
                                               const hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(host_spec(pNodeParams, &s));
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeEventRecord) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(event_spec(event, hipGraphNodeTypeEventRecord, &s));
  AH_RETURN(set_spec_of(node, &s));
}

AH_EXPORT hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(typed_node(node, hipGraphNodeTypeWaitEvent) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(event_spec(event, hipGraphNodeTypeWaitEvent, &s));
  AH_RETURN(set_spec_of(node, &s));
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
  n = typed_node(hNode, hipGraphNodeTypeKernel);
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
  n = typed_node(hNode, hipGraphNodeTypeKernel);
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
  src = typed_node(hSrc, hipGraphNodeTypeKernel);
  dst = typed_node(hDst, hipGraphNodeTypeKernel);
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
  AH_REQUIRE_OK(node_spec(nodeParams, NULL, &s));
  keep_attrs(node, &s);
  AH_RETURN(exec_set_spec(graphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     const hipKernelNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeKernel));
  AH_REQUIRE_OK(kernel_spec(pNodeParams, &s));
  keep_attrs(node, &s);
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

/* The copy's direction cannot change (hipErrorInvalidValue, as in HIP). */
AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     hipMemcpy3DParms *pNodeParams) {
  struct ah_gspec s;

  hipError_t err;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  /* A pitch smaller than the row is an invalid value here (AMD's code for
   * this setter; hipGraphMemcpyNodeSetParams and hipMemcpy3D say
   * hipErrorInvalidPitchValue). */
  err = copy3d_spec(pNodeParams, &s);
  AH_REQUIRE_OK(err == hipErrorInvalidPitchValue ? hipErrorInvalidValue : err);
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec,
                                                       hipGraphNode_t node, void *dst,
                                                       const void *src, size_t count,
                                                       hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  AH_REQUIRE_OK(copy1d_spec(dst, src, count, kind, &s));
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec,
                                                             hipGraphNode_t node,
                                                             const void *symbol, const void *src,
                                                             size_t count, size_t offset,
                                                             hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  AH_REQUIRE_OK(symbol_spec(symbol, (void *)src, count, offset, kind, 1, &s));
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec,
                                                               hipGraphNode_t node, void *dst,
                                                               const void *symbol, size_t count,
                                                               size_t offset, hipMemcpyKind kind) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeMemcpy));
  AH_REQUIRE_OK(symbol_spec(symbol, dst, count, offset, kind, 0, &s));
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec,
                                                     hipGraphNode_t node,
                                                     const hipMemsetParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeMemset));
  AH_REQUIRE_OK(set_spec(pNodeParams, &s));
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

AH_EXPORT hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                   const hipHostNodeParams *pNodeParams) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(host_spec(pNodeParams, &s));
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeHost));
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

/* childGraph must have the shape of the node's graph (as hipGraphExecUpdate
 * requires); its nodes' parameters replace the executable graph's. */
AH_EXPORT hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec,
                                                         hipGraphNode_t node,
                                                         hipGraph_t childGraph) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, node, hipGraphNodeTypeGraph));
  AH_REQUIRE_OK(child_spec(childGraph, &s));
  AH_RETURN(exec_set_spec(hGraphExec, node, &s));
}

static hipError_t exec_set_event(hipGraphExec_t x, hipGraphNode_t node, hipEvent_t event,
                                 hipGraphNodeType type) {
  struct ah_gspec s;
  hipError_t err = exec_handles(x, node, type);

  if (err == hipSuccess)
    err = event_spec(event, type, &s);
  return err != hipSuccess ? err : exec_set_spec(x, node, &s);
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

/* One side of a driver-style copy as a pitched pointer; arrays are not
 * taken (hipMemcpy3DParms here has none). */
static hipError_t drv_side(hipMemoryType type, const void *host, hipDeviceptr_t dev,
                           const void **out, int *is_dev) {
  switch (type) {
  case hipMemoryTypeHost:
    *out = host;
    *is_dev = 0;
    return host != NULL ? hipSuccess : hipErrorInvalidValue;
  case hipMemoryTypeDevice:
  case hipMemoryTypeUnified:
  case hipMemoryTypeManaged:
    *out = (const void *)dev;
    *is_dev = 1;
    return dev != NULL ? hipSuccess : hipErrorInvalidValue;
  default:
    return hipErrorInvalidValue;
  }
}

/* A HIP_MEMCPY3D as the 3D copy node it describes, checked as
 * hipGraphAddMemcpyNode checks it; kept as given for
 * hipDrvGraphMemcpyNodeGetParams. */
static hipError_t drv_copy_spec(const HIP_MEMCPY3D *c, struct ah_gspec *s) {
  hipMemcpy3DParms p;
  const void *src, *dst;
  int sdev, ddev;
  hipError_t err;

  if (c == NULL || c->srcLOD != 0 || c->dstLOD != 0)
    return hipErrorInvalidValue;
  if ((err = drv_side(c->srcMemoryType, c->srcHost, c->srcDevice, &src, &sdev)) != hipSuccess ||
      (err = drv_side(c->dstMemoryType, c->dstHost, c->dstDevice, &dst, &ddev)) != hipSuccess)
    return err;
  if (c->WidthInBytes == 0 || c->Height == 0 || c->Depth == 0)
    return hipErrorInvalidValue;
  if (c->srcPitch < c->srcXInBytes + c->WidthInBytes ||
      c->dstPitch < c->dstXInBytes + c->WidthInBytes)
    return hipErrorInvalidValue;
  if (c->Depth > 1 && (c->srcHeight < c->srcY + c->Height || c->dstHeight < c->dstY + c->Height))
    return hipErrorInvalidValue;
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_hipPitchedPtr((void *)src, c->srcPitch, c->WidthInBytes,
                                c->srcHeight != 0 ? c->srcHeight : c->srcY + c->Height);
  p.srcPos = make_hipPos(c->srcXInBytes, c->srcY, c->srcZ);
  p.dstPtr = make_hipPitchedPtr((void *)dst, c->dstPitch, c->WidthInBytes,
                                c->dstHeight != 0 ? c->dstHeight : c->dstY + c->Height);
  p.dstPos = make_hipPos(c->dstXInBytes, c->dstY, c->dstZ);
  p.extent = make_hipExtent(c->WidthInBytes, c->Height, c->Depth);
  p.kind = sdev ? (ddev ? hipMemcpyDeviceToDevice : hipMemcpyDeviceToHost)
                : (ddev ? hipMemcpyHostToDevice : hipMemcpyHostToHost);
  err = copy3d_spec(&p, s);
  if (err == hipSuccess)
    s->drv3d = *c;
  return err;
}

static hipError_t drv_set_spec(const HIP_MEMSET_NODE_PARAMS *m, struct ah_gspec *s) {
  hipMemsetParams p;

  if (m == NULL)
    return hipErrorInvalidValue;
  memset(&p, 0, sizeof(p));
  p.dst = (void *)m->dst;
  p.pitch = m->pitch;
  p.value = m->value;
  p.elementSize = m->elementSize;
  p.width = m->width;
  p.height = m->height;
  return set_spec(&p, s);
}

AH_EXPORT hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                              const hipGraphNode_t *dependencies,
                                              size_t numDependencies,
                                              const HIP_MEMCPY3D *copyParams, hipCtx_t ctx) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE(phGraphNode != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_graph_lookup(hGraph) != NULL && ctx_ok(ctx), hipErrorInvalidValue);
  AH_REQUIRE_OK(drv_copy_spec(copyParams, &s));
  AH_RETURN(add_spec(phGraphNode, hGraph, dependencies, numDependencies, &s));
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
  n = typed_node(hNode, hipGraphNodeTypeMemcpy);
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
  AH_REQUIRE(typed_node(hNode, hipGraphNodeTypeMemcpy) != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(drv_copy_spec(nodeParams, &s));
  AH_RETURN(set_spec_of(hNode, &s));
}

AH_EXPORT hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec,
                                                        hipGraphNode_t hNode,
                                                        const HIP_MEMCPY3D *copyParams,
                                                        hipCtx_t ctx) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, hNode, hipGraphNodeTypeMemcpy));
  AH_REQUIRE(ctx_ok(ctx), hipErrorInvalidValue);
  AH_REQUIRE_OK(drv_copy_spec(copyParams, &s));
  AH_RETURN(exec_set_spec(hGraphExec, hNode, &s));
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
  AH_REQUIRE_OK(drv_set_spec(memsetParams, &s));
  AH_RETURN(add_spec(phGraphNode, hGraph, dependencies, numDependencies, &s));
}

AH_EXPORT hipError_t
hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                   const HIP_MEMSET_NODE_PARAMS *memsetParams, hipCtx_t ctx) {
  struct ah_gspec s;

  AH_ENTER();
  AH_REQUIRE_OK(exec_handles(hGraphExec, hNode, hipGraphNodeTypeMemset));
  AH_REQUIRE(ctx_ok(ctx), hipErrorInvalidValue);
  AH_REQUIRE_OK(drv_set_spec(memsetParams, &s));
  AH_RETURN(exec_set_spec(hGraphExec, hNode, &s));
}

AH_EXPORT hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                               const hipGraphNode_t *dependencies,
                                               size_t numDependencies, hipDeviceptr_t dptr) {
  AH_ENTER();
  AH_RETURN(hipGraphAddMemFreeNode(phGraphNode, hGraph, dependencies, numDependencies,
                                   (void *)dptr));
}
