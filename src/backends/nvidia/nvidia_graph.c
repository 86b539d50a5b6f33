/* SPDX-License-Identifier: MIT */
/* Native executable graphs of the NVIDIA device: the core hands over an
 * executable graph's nodes (struct ah_gn, child graphs already flattened)
 * and, when the driver can express every one, they become one CUgraph
 * instantiated as a CUgraphExec, which hipGraphLaunch queues with one
 * cuGraphLaunch instead of one driver call per node. Expressed: kernels
 * (not cooperative ones), memsets of device memory, copies whose host side
 * (if any) is pinned or registered memory, empty nodes, and event record
 * and wait nodes of the device's own events. Anything else
 * answers hipErrorNotSupported and the core replays the graph (docs/graphs.md).
 * A host copy from pageable memory stays on the replay path because the
 * driver would read it when the graph is made, not when it runs. */
#include "nvidia_internal.h"

#include <stdlib.h>
#include <string.h>

#define QUEUE(q) ((struct ah_nv_queue *)(q))
#define DPTR(p) ((CUdeviceptr)(uintptr_t)(p))

struct ah_nv_graph {
  CUgraph g;          /* kept: cuGraphExecKernelNodeSetParams names its nodes */
  CUgraphExec x;
  CUgraphNode *nodes; /* by the core's node index */
  size_t n;
  unsigned gen;       /* nd->resets when built: a reset destroyed both handles */
};

static unsigned resets(struct ah_nv_device *nd) {
  return __atomic_load_n(&nd->resets, __ATOMIC_ACQUIRE);
}

static int have_graph_api(void) {
  return ah_cuda.cuGraphCreate != NULL && ah_cuda.cuGraphDestroy != NULL &&
         ah_cuda.cuGraphAddEmptyNode != NULL && ah_cuda.cuGraphAddKernelNode != NULL &&
         ah_cuda.cuGraphAddMemsetNode != NULL && ah_cuda.cuGraphAddMemcpyNode != NULL &&
         ah_cuda.cuGraphInstantiateWithFlags != NULL && ah_cuda.cuGraphLaunch != NULL &&
         ah_cuda.cuGraphExecDestroy != NULL;
}

/* Host memory the driver knows nothing of (not allocated or registered
 * through anyhip). */
static int pageable(const void *ptr) {
  struct ah_alloc a;

  return !ah_alloc_find(ptr, &a);
}

/* cmd as kernel node parameters: the same function lookup and argument
 * array as a plain launch (nvidia_queue.c). hipErrorNotSupported for what a
 * kernel node does not express here (a cooperative launch). */
static hipError_t kernel_params(struct ah_nv_device *nd, const struct ah_cmd *cmd,
                                CUDA_KERNEL_NODE_PARAMS *p) {
  CUfunction f;
  hipError_t err;

  if (cmd->kernel.cooperative)
    return hipErrorNotSupported;
  err = ah_nv_function(nd, cmd->kernel.fn, cmd->kernel.shared_bytes, &f);
  if (err != hipSuccess)
    return hipErrorNotSupported; /* the replay path reports the lookup's error */
  memset(p, 0, sizeof(*p));
  p->func = f;
  p->gridDimX = cmd->kernel.grid.x;
  p->gridDimY = cmd->kernel.grid.y;
  p->gridDimZ = cmd->kernel.grid.z;
  p->blockDimX = cmd->kernel.block.x;
  p->blockDimY = cmd->kernel.block.y;
  p->blockDimZ = cmd->kernel.block.z;
  p->sharedMemBytes = (unsigned int)cmd->kernel.shared_bytes;
  p->kernelParams = cmd->kernel.args; /* copied by the driver */
  return hipSuccess;
}

/* A copy command as CUDA_MEMCPY3D over unified addresses; *empty for one
 * that moves nothing. hipErrorNotSupported for host-to-host copies and
 * pageable host memory. */
static hipError_t copy_params(const struct ah_cmd *cmd, CUDA_MEMCPY3D *c, int *empty) {
  hipMemcpyKind kind;
  const void *src;
  void *dst;

  memset(c, 0, sizeof(*c));
  c->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  c->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  switch (cmd->kind) {
  case AH_CMD_COPY:
    kind = cmd->copy.kind, src = cmd->copy.src, dst = cmd->copy.dst;
    c->WidthInBytes = cmd->copy.bytes;
    c->Height = c->Depth = 1;
    c->srcPitch = c->dstPitch = cmd->copy.bytes;
    c->srcHeight = c->dstHeight = 1;
    break;
  case AH_CMD_COPY_2D:
    kind = cmd->copy2d.kind, src = cmd->copy2d.src, dst = cmd->copy2d.dst;
    c->srcPitch = cmd->copy2d.spitch;
    c->dstPitch = cmd->copy2d.dpitch;
    c->WidthInBytes = cmd->copy2d.width;
    c->Height = cmd->copy2d.height;
    c->srcHeight = c->dstHeight = cmd->copy2d.height;
    c->Depth = 1;
    break;
  default: /* AH_CMD_COPY_3D */
    if (cmd->copy3d.dst_array != NULL || cmd->copy3d.src_array != NULL)
      return hipErrorNotSupported; /* arrays: the core replays the copy */
    kind = cmd->copy3d.kind, src = cmd->copy3d.src, dst = cmd->copy3d.dst;
    c->srcPitch = cmd->copy3d.spitch;
    c->srcHeight = cmd->copy3d.sslice_rows;
    c->dstPitch = cmd->copy3d.dpitch;
    c->dstHeight = cmd->copy3d.dslice_rows;
    c->WidthInBytes = cmd->copy3d.width;
    c->Height = cmd->copy3d.height;
    c->Depth = cmd->copy3d.depth;
    break;
  }
  if (kind == hipMemcpyHostToHost || (kind == hipMemcpyHostToDevice && pageable(src)) ||
      (kind == hipMemcpyDeviceToHost && pageable(dst)))
    return hipErrorNotSupported;
  c->srcDevice = DPTR(src);
  c->dstDevice = DPTR(dst);
  *empty = c->WidthInBytes == 0 || c->Height == 0 || c->Depth == 0;
  return hipSuccess;
}

/* Adds node i (deps already mapped) to g; hipErrorNotSupported for what
 * this file does not express, or when the driver refuses it. */
static hipError_t add_node(struct ah_device *dev, CUgraph g, const struct ah_gn *gn,
                           const CUgraphNode *deps, CUgraphNode *out) {
  struct ah_nv_device *nd = AH_NV(dev);
  const struct ah_cmd *cmd = gn->cmd;
  CUresult r = CUDA_SUCCESS;
  hipError_t err = hipSuccess;
  int empty = gn->kind == AH_GN_EMPTY;

  if (gn->kind == AH_GN_EVENT_RECORD || gn->kind == AH_GN_EVENT_WAIT) {
    if (ah_cuda.cuGraphAddEventRecordNode == NULL || ah_cuda.cuGraphAddEventWaitNode == NULL)
      err = hipErrorNotSupported;
    else if (gn->kind == AH_GN_EVENT_RECORD)
      r = ah_cuda.cuGraphAddEventRecordNode(out, g, deps, gn->ndeps, (CUevent)gn->ev);
    else
      r = ah_cuda.cuGraphAddEventWaitNode(out, g, deps, gn->ndeps, (CUevent)gn->ev);
  } else if (!empty) {
    switch (cmd->kind) {
    case AH_CMD_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS p;

      if ((err = kernel_params(nd, cmd, &p)) == hipSuccess)
        r = ah_cuda.cuGraphAddKernelNode(out, g, deps, gn->ndeps, &p);
      break;
    }
    case AH_CMD_SET: {
      CUDA_MEMSET_NODE_PARAMS p = {
          .dst = DPTR(cmd->set.dst),
          .pitch = cmd->set.height <= 1 ? 0 : cmd->set.pitch,
          .value = cmd->set.value,
          .elementSize = cmd->set.elem_size,
          .width = cmd->set.count,
          .height = cmd->set.height,
      };

      if (cmd->set.host)
        err = hipErrorNotSupported; /* the host sets host memory (nvidia_queue.c) */
      else if (cmd->set.count == 0 || cmd->set.height == 0)
        empty = 1;
      else
        r = ah_cuda.cuGraphAddMemsetNode(out, g, deps, gn->ndeps, &p, nd->ctx);
      break;
    }
    case AH_CMD_COPY:
    case AH_CMD_COPY_2D:
    case AH_CMD_COPY_3D: {
      CUDA_MEMCPY3D c;

      if ((err = copy_params(cmd, &c, &empty)) == hipSuccess && !empty)
        r = ah_cuda.cuGraphAddMemcpyNode(out, g, deps, gn->ndeps, &c, nd->ctx);
      break;
    }
    default:
      err = hipErrorNotSupported;
      break;
    }
  }
  if (err == hipSuccess && empty)
    r = ah_cuda.cuGraphAddEmptyNode(out, g, deps, gn->ndeps);
  if (err == hipSuccess && r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "device %d: graph node (kind %d, command %d): %s; the graph is replayed",
           dev->ordinal, (int)gn->kind, gn->kind == AH_GN_CMD ? (int)cmd->kind : 0,
           ah_cuda_error_name(r));
    err = hipErrorNotSupported;
  }
  return err;
}

static void graph_free(struct ah_nv_device *nd, struct ah_nv_graph *ng) {
  if (ng->gen == resets(nd)) { /* else the context's reset took them */
    if (ng->x != NULL)
      ah_cuda.cuGraphExecDestroy(ng->x);
    if (ng->g != NULL)
      ah_cuda.cuGraphDestroy(ng->g);
  }
  free(ng->nodes);
  free(ng);
}

hipError_t ah_nv_graph_build(struct ah_device *dev, const struct ah_gn *nodes, size_t n,
                             struct ah_dev_graph **out) {
  struct ah_nv_device *nd = AH_NV(dev);
  struct ah_nv_graph *ng;
  CUgraphNode *deps = NULL;
  size_t maxdeps = 0;
  hipError_t err;
  CUresult r;

  if (!have_graph_api())
    return hipErrorNotSupported;
  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  for (size_t i = 0; i < n; i++)
    if (nodes[i].ndeps > maxdeps)
      maxdeps = nodes[i].ndeps;
  ng = calloc(1, sizeof(*ng));
  if (ng == NULL || (ng->nodes = calloc(n + 1, sizeof(*ng->nodes))) == NULL ||
      (deps = malloc((maxdeps + 1) * sizeof(*deps))) == NULL) {
    if (ng != NULL)
      free(ng->nodes);
    free(ng);
    return hipErrorOutOfMemory;
  }
  ng->n = n;
  ng->gen = resets(nd);
  r = ah_cuda.cuGraphCreate(&ng->g, 0);
  err = r == CUDA_SUCCESS ? hipSuccess : hipErrorNotSupported;
  for (size_t i = 0; i < n && err == hipSuccess; i++) {
    for (size_t j = 0; j < nodes[i].ndeps; j++)
      deps[j] = ng->nodes[nodes[i].deps[j]];
    err = add_node(dev, ng->g, &nodes[i], deps, &ng->nodes[i]);
  }
  free(deps);
  if (err == hipSuccess && (r = ah_cuda.cuGraphInstantiateWithFlags(&ng->x, ng->g, 0)) !=
                               CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "device %d: cuGraphInstantiateWithFlags: %s; the graph is replayed",
           dev->ordinal, ah_cuda_error_name(r));
    ng->x = NULL;
    err = hipErrorNotSupported;
  }
  if (err != hipSuccess) {
    graph_free(nd, ng);
    return err;
  }
  AH_LOG(NVIDIA, "device %d: an executable graph of %zu nodes as a CUDA graph", dev->ordinal, n);
  *out = (struct ah_dev_graph *)ng;
  return hipSuccess;
}

hipError_t ah_nv_graph_launch(struct ah_device *dev, struct ah_queue *q,
                              struct ah_dev_graph *graph) {
  struct ah_nv_device *nd = AH_NV(dev);
  struct ah_nv_graph *ng = (struct ah_nv_graph *)graph;
  hipError_t err;
  CUresult r;

  if (ng->gen != resets(nd))
    return hipErrorNotSupported; /* built in a context hipDeviceReset destroyed */
  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  r = ah_cuda.cuGraphLaunch(ng->x, QUEUE(q)->s);
  if (r != CUDA_SUCCESS)
    AH_LOG(NVIDIA, "device %d: cuGraphLaunch: %s", dev->ordinal, ah_cuda_error_name(r));
  return ah_cuda_status(r);
}

hipError_t ah_nv_graph_set_kernel(struct ah_device *dev, struct ah_dev_graph *graph, size_t node,
                                  const struct ah_cmd *cmd) {
  struct ah_nv_device *nd = AH_NV(dev);
  struct ah_nv_graph *ng = (struct ah_nv_graph *)graph;
  CUDA_KERNEL_NODE_PARAMS p;
  hipError_t err;
  CUresult r;

  if (ng->gen != resets(nd) || node >= ng->n || cmd->kind != AH_CMD_KERNEL ||
      ah_cuda.cuGraphExecKernelNodeSetParams == NULL)
    return hipErrorNotSupported;
  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  if ((err = kernel_params(nd, cmd, &p)) != hipSuccess)
    return err;
  r = ah_cuda.cuGraphExecKernelNodeSetParams(ng->x, ng->nodes[node], &p);
  if (r != CUDA_SUCCESS) {
    /* e.g. a kernel of another module: CUDA refuses what the core can rebuild */
    AH_LOG(NVIDIA, "device %d: cuGraphExecKernelNodeSetParams: %s; the graph is rebuilt",
           dev->ordinal, ah_cuda_error_name(r));
    return hipErrorNotSupported;
  }
  return hipSuccess;
}

void ah_nv_graph_destroy(struct ah_device *dev, struct ah_dev_graph *graph) {
  struct ah_nv_device *nd = AH_NV(dev);

  if (ah_nv_enter(nd) != hipSuccess)
    return; /* a context that cannot be entered: leak rather than crash */
  graph_free(nd, (struct ah_nv_graph *)graph);
}
