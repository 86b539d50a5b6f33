/* SPDX-License-Identifier: MIT */
/* Graph nodes' parameters: one builder per node type turns HIP's parameters
 * into a spec (struct ah_gspec, graph.h), checked as the matching stream call
 * checks them (a kernel node as a launch, a memcpy node with memcpy.c's and
 * memcpy3d.c's checks, a memset node with memset.c's command); the one
 * node-parameter function ah_gspec_params dispatches HIP's generic
 * parameters (hipGraphAddNode, hipGraphNodeSetParams,
 * hipGraphExecNodeSetParams) to them. Then the three uses of a spec: adding a
 * node, setting a node's parameters, setting an executable graph's copy. No
 * argument checks of the entry points here: src/api/hip_graph_node.c. */
#include "device_ops.h"
#include "graph.h"
#include "launch.h"
#include "memory.h"
#include "stream.h"

#include <stdlib.h>
#include <string.h>

/* ---- one builder per node type: HIP's parameters -> a spec ---- */

/* A kernel node, checked against the current device as a launch would be.
 * The argument values are copied when the spec is copied into a node. */
hipError_t ah_gspec_kernel(const hipKernelNodeParams *p, struct ah_gspec *s) {
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
hipError_t ah_gspec_copy3d(const hipMemcpy3DParms *p, struct ah_gspec *s) {
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
hipError_t ah_gspec_copy1d(void *dst, const void *src, size_t count, hipMemcpyKind kind,
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
hipError_t ah_gspec_symbol(const void *symbol, void *mem, size_t count, size_t offset,
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
  return to_symbol ? ah_gspec_copy1d(addr, mem, count, kind, s)
                   : ah_gspec_copy1d(mem, addr, count, kind, s);
}

/* A set node: 1D or pitched 2D, checked as hipMemset2D checks it; a node
 * must set something. */
hipError_t ah_gspec_set(const hipMemsetParams *p, struct ah_gspec *s) {
  uint32_t value;

  if (p == NULL || p->dst == NULL)
    return hipErrorInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    return hipErrorInvalidValue;
  if (p->width == 0 || p->height == 0)
    return hipErrorInvalidValue;
  value = p->elementSize == 4   ? p->value
          : p->elementSize == 2 ? (p->value & 0xffffu)
                                : (p->value & 0xffu);
  *s = (struct ah_gspec){.type = hipGraphNodeTypeMemset, .set = *p};
  return ah_memset_cmd(p->dst, value, p->elementSize, p->width, p->pitch, p->height, &s->cmd);
}

hipError_t ah_gspec_host(const hipHostNodeParams *p, struct ah_gspec *s) {
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
hipError_t ah_gspec_child(hipGraph_t graph, struct ah_gspec *s) {
  struct ah_graph *g = ah_graph_lookup(graph);

  if (g == NULL)
    return hipErrorInvalidValue;
  *s = (struct ah_gspec){.type = hipGraphNodeTypeGraph, .child = g};
  return hipSuccess;
}

/* An event record or wait node: recorded or waited for as hipEventRecord
 * and hipStreamWaitEvent on the node's queue; the event is checked now and
 * looked up again at each launch. */
hipError_t ah_gspec_event(hipEvent_t event, hipGraphNodeType type, struct ah_gspec *s) {
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
hipError_t ah_gspec_alloc(hipMemAllocNodeParams *p, struct ah_gspec *s) {
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
hipError_t ah_gspec_free(struct ah_graph *g, void *ptr, struct ah_gspec *s) {
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
hipError_t ah_gspec_params(hipGraphNodeParams *p, struct ah_graph *g, struct ah_gspec *s) {
  if (p == NULL)
    return hipErrorInvalidValue;
  for (int i = 0; i < 3; i++)
    if (p->reserved0[i] != 0)
      return hipErrorInvalidValue;
  switch (p->type) {
  case hipGraphNodeTypeKernel:
    return ah_gspec_kernel(&p->kernel, s);
  case hipGraphNodeTypeMemcpy:
    if (p->memcpy.flags != 0 || p->memcpy.reserved[0] != 0 || p->memcpy.reserved[1] != 0 ||
        p->memcpy.reserved[2] != 0)
      return hipErrorInvalidValue;
    return ah_gspec_copy3d(&p->memcpy.copyParams, s);
  case hipGraphNodeTypeMemset:
    return ah_gspec_set(&p->memset, s);
  case hipGraphNodeTypeHost:
    return ah_gspec_host(&p->host, s);
  case hipGraphNodeTypeGraph:
    return ah_gspec_child(p->graph.graph, s);
  case hipGraphNodeTypeEmpty:
    *s = (struct ah_gspec){.type = hipGraphNodeTypeEmpty};
    return hipSuccess;
  case hipGraphNodeTypeWaitEvent:
    return ah_gspec_event(p->eventWait.event, p->type, s);
  case hipGraphNodeTypeEventRecord:
    return ah_gspec_event(p->eventRecord.event, p->type, s);
  case hipGraphNodeTypeMemAlloc:
    return g != NULL ? ah_gspec_alloc(&p->alloc, s) : hipErrorInvalidValue;
  case hipGraphNodeTypeMemFree:
    return ah_gspec_free(g, p->free.dptr, s);
  default: /* external semaphores, and what HIP does not define */
    return hipErrorInvalidValue;
  }
}

/* ---- the three uses of a spec: add, set, exec-set ---- */

/* Adds a node doing s to graph after deps; gives back s's reference to a
 * memory block (the node holds its own). */
hipError_t ah_gnode_add_spec(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
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
struct ah_gnode *ah_gnode_typed(hipGraphNode_t h, hipGraphNodeType type) {
  struct ah_gnode *n = ah_gnode_lookup(h);

  return n != NULL && n->s.type == type ? n : NULL;
}

/* Node h's parameters into s when it is of `type`; 0 when it is not. */
int ah_gnode_spec_of(hipGraphNode_t h, hipGraphNodeType type, struct ah_gspec *s) {
  struct ah_gnode *n = ah_gnode_typed(h, type);

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
hipError_t ah_gnode_set_spec(hipGraphNode_t h, const struct ah_gspec *s) {
  struct ah_gnode *n = ah_gnode_typed(h, s->type);

  if (n == NULL || overlaps(s))
    return hipErrorInvalidValue;
  return ah_gnode_set(n, s);
}

/* Sets executable graph x's copy of node h (h of s's type). */
hipError_t ah_gexec_set_spec(hipGraphExec_t x, hipGraphNode_t h, const struct ah_gspec *s) {
  struct ah_gexec *xo = ah_gexec_lookup(x);
  struct ah_gnode *n = ah_gnode_typed(h, s->type);

  if (xo == NULL || n == NULL || overlaps(s))
    return hipErrorInvalidValue;
  return ah_gexec_set(xo, n, s);
}

/* Checks the handles an exec-set entry point takes before its parameters. */
hipError_t ah_gexec_handles(hipGraphExec_t x, hipGraphNode_t h, hipGraphNodeType type) {
  return ah_gexec_lookup(x) != NULL && ah_gnode_typed(h, type) != NULL ? hipSuccess
                                                                       : hipErrorInvalidValue;
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
hipError_t ah_gspec_drv_copy(const HIP_MEMCPY3D *c, struct ah_gspec *s) {
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
  err = ah_gspec_copy3d(&p, s);
  if (err == hipSuccess)
    s->drv3d = *c;
  return err;
}

hipError_t ah_gspec_drv_set(const HIP_MEMSET_NODE_PARAMS *m, struct ah_gspec *s) {
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
  return ah_gspec_set(&p, s);
}
