/* SPDX-License-Identifier: MIT */
/* Core HIP graphs, by life cycle: building (graph.c: graphs, nodes, user
 * objects, graph memory), executing (graph_exec.c: executable graphs) and
 * capturing (capture.c). The objects behind hipGraph_t, hipGraphNode_t,
 * hipGraphExec_t and hipUserObject_t. A node holds its spec (struct
 * ah_gspec: the backend command it will run, kernel arguments copied into
 * the node); an executable graph is copies of the specs in a dependency
 * order, spread over lanes (the launch stream and internal queues). No
 * argument checks here: src/api/hip_graph*.c do them. */
#ifndef AH_GRAPH_H
#define AH_GRAPH_H

#include "internal.h"

struct ah_graph;
struct ah_gexec;

/* Graph memory: the block of a memory alloc node, from its device's default
 * pool, reserved when the node is made so that its address is fixed for the
 * graph's life (CUDA's rule). The alloc node, free nodes of it, clones and
 * executable graphs share it (refs); the last one gives it back. */
struct ah_gmem {
  atomic_int refs;
  atomic_int execs; /* executable graphs made with its alloc node (at most one) */
  struct ah_device *dev;
  void *ptr;
  size_t bytes;
};

/* What a node does: its type and that type's parameters, resolved (HIP's
 * hipGraphNodeParams after the checks of src/api/hip_graph_node.c). The one
 * description every node kind goes through: adding a node, setting its
 * parameters, instantiating it, and setting or updating an executable
 * graph's copy. A spec held by a node or an executable node owns its kernel
 * argument copies, its child graph and its memory block reference. */
struct ah_gspec {
  hipGraphNodeType type;
  struct ah_cmd cmd;         /* kernel, copy, set and host nodes; a kernel's args
                              * point into argv/argbuf */
  unsigned char *argbuf;     /* kernel argument values, copied */
  void **argv;
  hipMemcpy3DParms copy3d;   /* copy nodes: the parameters as given (GetParams) */
  HIP_MEMCPY3D drv3d;        /* copy nodes made by hipDrvGraph*: their parameters as given */
  hipMemsetParams set;       /* set nodes: the parameters as given (GetParams; a 1D set's
                              * pitch is the caller's, whatever it is) */
  hipEvent_t event;          /* event record and wait nodes: looked up at each launch */
  struct ah_graph *child;    /* child graph nodes: the node's own copy of the graph */
  struct ah_gmem *mem;       /* memory alloc and free nodes: the block */
  hipMemAllocNodeParams alloc; /* alloc nodes: the parameters as given, dptr filled */
  void *func;                /* kernel nodes: the function as given (cmd.kernel.fn: the kernel) */
  hipAccessPolicyWindow apw; /* kernel node attributes: kept, not applied */
  int priority;
  /* External semaphore nodes (the handles, then their parameters) and batch
   * memory operation nodes (the operations): the node's own copy of the
   * arrays (graph_extnodes.c), nops entries; ops_flags and ops_ctx a batch
   * node's other parameters as given. */
  void *ops;
  size_t nops, ops_bytes;
  unsigned ops_flags;
  hipCtx_t ops_ctx;
};

/* Copies src into *dst: kernel arguments, a reference to the block, and
 * the child graph cloned when `clone_child` (else dst->child is NULL). On
 * failure *dst owns nothing. */
hipError_t ah_gspec_copy(struct ah_gspec *dst, const struct ah_gspec *src, int clone_child);
void ah_gspec_fini(struct ah_gspec *s);
/* Nodes that queue no command of their own: empty, graph-memory and child
 * graph nodes (the child's nodes do the work). */
int ah_gspec_no_cmd(hipGraphNodeType t);

struct ah_gnode {
  struct ah_object obj;
  struct ah_graph *graph;
  struct ah_gspec s;      /* guarded by graph->lock once the node is in the graph */
  struct ah_gnode **deps; /* nodes this one runs after */
  size_t ndeps, capdeps;
  size_t index;           /* position in graph->nodes */
  const struct ah_gnode *cloned_from; /* identity only (hipGraphNodeFindInClone) */
};

/* A user object (hipUserObject_t): a destructor called once, when the last
 * reference goes. refs counts the references of users, graphs and
 * executable graphs; holds counts who may still name the handle (the users
 * while refs > 0, and each graph or executable graph that lists it), and
 * the handle stays valid until both are zero. */
struct ah_uobj {
  struct ah_object obj;
  unsigned long long refs;
  unsigned holds;
  int buried; /* dead, in the ring of kept handles (graph.c) */
  void *ptr;
  void (*destroy)(void *);
};
struct ah_uref {
  struct ah_uobj *o;
  unsigned long long count;
};

struct ah_graph {
  struct ah_object obj;
  pthread_mutex_t lock; /* guards nodes, every node's deps and spec, and urefs */
  struct ah_gnode **nodes;
  size_t n, cap;
  struct ah_uref *urefs; /* user objects the graph holds references to */
  size_t nurefs;
  int embedded; /* a child graph node's own graph: hipGraphDestroy refuses it */
};

/* One node of an executable graph: its own copy of the node's spec, and
 * where it runs: its lane (0 is the launch stream, others internal queues)
 * and the nodes of other lanes it waits for. */
struct ah_xnode {
  const struct ah_gnode *src; /* identity only: the graph may be gone */
  struct ah_gspec s;          /* s.child unused: sub is the child's executable graph */
  struct ah_gexec *sub;
  int disabled;               /* hipGraphNodeSetEnabled(0): runs as an empty node */
  size_t *dep_index;          /* src's dependencies, by their index in its graph */
  size_t ndeps;
  size_t lane;
  size_t *waits; /* positions in ah_gexec.nodes, all earlier than this node */
  size_t nwaits;
  int signals;   /* a node of another lane waits for this one: record ev after it */
  struct ah_dev_event *ev; /* backend event of lanes_dev, when signals */
};

/* An event a native executable graph names (an event record or wait node):
 * looked up again at each launch, as the replay does. */
struct ah_gnev {
  hipEvent_t h;
  struct ah_dev_event *impl;
  int record;
};

/* Most internal queues one executable graph uses for parallel branches. */
#define AH_GRAPH_LANES 4

struct ah_gexec {
  struct ah_object obj;   /* not registered for a child node's executable graph */
  pthread_mutex_t lock;   /* launches against the exec set-params and update paths */
  struct ah_xnode *nodes; /* in a dependency order */
  size_t n;
  size_t *pos;            /* graph index (order of adding) -> position in nodes */
  size_t nlanes;
  size_t lane_tail[AH_GRAPH_LANES]; /* each lane's last node */
  struct ah_device *lanes_dev;      /* the device queues and events below belong to */
  struct ah_queue *queues[AH_GRAPH_LANES]; /* [0] unused: lane 0 is the launch stream */
  struct ah_dev_event *start_ev;           /* recorded on the launch stream first */
  unsigned long long flags;         /* as instantiated */
  struct ah_uref *urefs;            /* the graph's user objects, referenced */
  size_t nurefs;
  /* The whole graph as one executable graph of native_dev's backend
   * (graph_build), or NULL: launches on native_dev then replay the nodes.
   * native_dev set with native NULL: the backend could not express it;
   * not asked again until a change drops both (graph_exec.c). */
  struct ah_device *native_dev;
  struct ah_dev_graph *native;
  size_t *native_idx; /* nodes[i] -> its index in the list graph_build had */
  struct ah_gnev *native_evs; /* its event nodes' events */
  size_t native_nevs;
};

hipError_t ah_graph_create(struct ah_graph **out);
void ah_graph_destroy(struct ah_graph *g);
struct ah_graph *ah_graph_lookup(hipGraph_t h);
struct ah_gnode *ah_gnode_lookup(hipGraphNode_t h);
struct ah_gexec *ah_gexec_lookup(hipGraphExec_t h);

/* Adds a node doing a copy of spec (child graph cloned) after deps (nodes
 * of g, duplicates allowed). */
hipError_t ah_graph_add(struct ah_graph *g, const struct ah_gspec *spec,
                        struct ah_gnode *const *deps, size_t ndeps, struct ah_gnode **out);
/* Resolves handles[] to nodes of g into a new array (*out, to be freed;
 * NULL when n is 0); a handle that is not a node of g is hipErrorInvalidValue. */
hipError_t ah_graph_resolve(struct ah_graph *g, const hipGraphNode_t *handles, size_t n,
                            struct ah_gnode ***out);
/* `to` runs after `from`; both of g. A repeated edge is hipErrorInvalidValue. */
hipError_t ah_graph_add_edge(struct ah_graph *g, struct ah_gnode *from, struct ah_gnode *to);
hipError_t ah_graph_clone(struct ah_graph *g, struct ah_graph **out);
/* The node of clone c made from orig, or NULL. */
struct ah_gnode *ah_graph_find_clone(struct ah_graph *c, const struct ah_gnode *orig);
/* Removes the edge from -> to (hipErrorInvalidValue when there is none). */
hipError_t ah_graph_remove_edge(struct ah_graph *g, struct ah_gnode *from, struct ah_gnode *to);
/* Removes n and its edges from its graph and frees it. */
void ah_graph_remove_node(struct ah_gnode *n);
/* Fills out[] (up to cap entries) with g's nodes, or its roots; returns the count. */
size_t ah_graph_list(struct ah_graph *g, int roots_only, struct ah_gnode **out, size_t cap);
/* n's dependencies (or the nodes depending on it) into out[] (up to cap);
 * returns the count. */
size_t ah_gnode_links(struct ah_gnode *n, int dependents, struct ah_gnode **out, size_t cap);
/* g's edges, from[i] -> to[i], up to cap; returns the count. */
size_t ah_graph_edges(struct ah_graph *g, struct ah_gnode **from, struct ah_gnode **to,
                      size_t cap);
/* n's spec, shallow: a kernel's args point into the node's own copies and
 * child is the node's graph, valid while n lives and is not set again. */
void ah_gnode_get(struct ah_gnode *n, struct ah_gspec *out);
/* Replaces n's spec with a copy of spec (n's type; child graph cloned). */
hipError_t ah_gnode_set(struct ah_gnode *n, const struct ah_gspec *spec);

/* graph_node.c: node parameters. One builder per node type: HIP's
 * parameters, checked as the matching stream call checks them, to a spec on
 * the current device (a kernel node's func may be a module's
 * hipFunction_t). alloc reserves the block now (s->mem holds a reference the
 * caller gives back) and writes its address to p->dptr; free needs the
 * address of an alloc node of g. */
hipError_t ah_gspec_kernel(const hipKernelNodeParams *p, struct ah_gspec *s);
hipError_t ah_gspec_copy3d(const hipMemcpy3DParms *p, struct ah_gspec *s);
hipError_t ah_gspec_copy1d(void *dst, const void *src, size_t count, hipMemcpyKind kind,
                           struct ah_gspec *s);
hipError_t ah_gspec_symbol(const void *symbol, void *mem, size_t count, size_t offset,
                           hipMemcpyKind kind, int to_symbol, struct ah_gspec *s);
hipError_t ah_gspec_set(const hipMemsetParams *p, struct ah_gspec *s);
hipError_t ah_gspec_host(const hipHostNodeParams *p, struct ah_gspec *s);
hipError_t ah_gspec_child(hipGraph_t graph, struct ah_gspec *s);
hipError_t ah_gspec_event(hipEvent_t event, hipGraphNodeType type, struct ah_gspec *s);
hipError_t ah_gspec_alloc(hipMemAllocNodeParams *p, struct ah_gspec *s);
hipError_t ah_gspec_free(struct ah_graph *g, void *ptr, struct ah_gspec *s);
/* External semaphore signal or wait nodes (type), and batch memory
 * operation nodes (graph_extnodes.c): the arrays checked and copied into
 * s->ops. run_ops queues such a node's work on q of dev. */
hipError_t ah_gspec_extsem(hipExternalSemaphore_t *sems, const void *params, unsigned n,
                           hipGraphNodeType type, struct ah_gspec *s);
hipError_t ah_gspec_batch(const hipBatchMemOpNodeParams *p, struct ah_gspec *s);
int ah_gspec_has_ops(hipGraphNodeType t);
hipError_t ah_gspec_run_ops(struct ah_device *dev, struct ah_queue *q, const struct ah_gspec *s);
/* The driver-style descriptors (hipDrvGraph*), kept as given in the spec. */
hipError_t ah_gspec_drv_copy(const HIP_MEMCPY3D *c, struct ah_gspec *s);
hipError_t ah_gspec_drv_set(const HIP_MEMSET_NODE_PARAMS *m, struct ah_gspec *s);
/* The one node-parameter function: HIP's generic parameters (hipGraphAddNode,
 * hipGraphNodeSetParams, hipGraphExecNodeSetParams) to a spec, through the
 * builder of the node's type; g is the graph a node is added to, NULL when
 * parameters are set. */
hipError_t ah_gspec_params(hipGraphNodeParams *p, struct ah_graph *g, struct ah_gspec *s);
/* The three uses of a spec. Adds a node doing s to graph after deps (gives
 * back s's reference to a memory block); sets node h's parameters; sets
 * executable graph x's copy of node h (h of s's type; a bad graph, node or
 * executable graph is hipErrorInvalidValue, as are new 1D copy parameters
 * whose source and destination overlap). */
hipError_t ah_gnode_add_spec(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                             size_t ndeps, struct ah_gspec *s);
hipError_t ah_gnode_set_spec(hipGraphNode_t h, const struct ah_gspec *s);
hipError_t ah_gexec_set_spec(hipGraphExec_t x, hipGraphNode_t h, const struct ah_gspec *s);
/* The node behind h when it is of `type`, else NULL; its spec into s (1) or 0. */
struct ah_gnode *ah_gnode_typed(hipGraphNode_t h, hipGraphNodeType type);
int ah_gnode_spec_of(hipGraphNode_t h, hipGraphNodeType type, struct ah_gspec *s);
/* The handles an exec-set entry point checks before its parameters. */
hipError_t ah_gexec_handles(hipGraphExec_t x, hipGraphNode_t h, hipGraphNodeType type);

/* User objects. */
hipError_t ah_uobj_create(void *ptr, void (*destroy)(void *), unsigned long long refs,
                          struct ah_uobj **out);
struct ah_uobj *ah_uobj_lookup(hipUserObject_t h);
void ah_uobj_retain(struct ah_uobj *o, unsigned long long count);
/* The users drop count references (at most as many as there are); the
 * destructor runs, in this thread, when the last reference goes. */
void ah_uobj_release(struct ah_uobj *o, unsigned long long count);
/* g takes count references (move: the caller's, else new ones). */
hipError_t ah_graph_retain_uobj(struct ah_graph *g, struct ah_uobj *o, unsigned long long count,
                                int move);
/* g gives back up to count of its references (none held: nothing done). */
hipError_t ah_graph_release_uobj(struct ah_graph *g, struct ah_uobj *o, unsigned long long count);
/* Copies g's user object references (each one more reference) into a new
 * array, for an executable graph; *out NULL when there are none. g->lock held. */
hipError_t ah_urefs_copy(const struct ah_uref *in, size_t n, struct ah_uref **out);
/* Gives back the references of urefs[] and frees it. */
void ah_urefs_release(struct ah_uref *urefs, size_t n);

/* Graph memory. Reserves `bytes` of dev's default pool (*out has one ref). */
hipError_t ah_gmem_create(struct ah_device *dev, size_t bytes, struct ah_gmem **out);
struct ah_gmem *ah_gmem_ref(struct ah_gmem *m); /* NULL-safe */
void ah_gmem_release(struct ah_gmem *m);        /* NULL-safe */
/* The block of g's alloc node whose address is ptr (a new ref), or NULL. */
struct ah_gmem *ah_graph_find_mem(struct ah_graph *g, const void *ptr);
/* Adds a memory alloc or free node of m (the node takes its own ref). */
hipError_t ah_graph_add_mem(struct ah_graph *g, hipGraphNodeType type, struct ah_gmem *m,
                            struct ah_gnode *const *deps, size_t ndeps, struct ah_gnode **out);
/* hipGraphMemAttr* of a device: used/reserved current and high bytes. */
uint64_t ah_gmem_attr(struct ah_device *dev, int attr);
void ah_gmem_reset_high(struct ah_device *dev, int attr);
/* hipMallocAsync / hipFreeAsync on a capturing stream: a memory node
 * (*done set) instead of the call; a free of memory that is not the
 * capture's graph memory is refused (hipErrorStreamCaptureUnsupported). */
hipError_t ah_capture_malloc(struct ah_queue *q, struct ah_device *dev, size_t bytes, void **out,
                             int *done);
hipError_t ah_capture_free(struct ah_queue *q, void *ptr, int *done);

/* Executable graphs (graph_exec.c). */
/* Orders g's nodes (a cycle: hipErrorInvalidValue, *bad = a node on it);
 * child graph nodes become executable graphs of their own. A graph with
 * memory alloc nodes has at most one executable graph at a time
 * (hipErrorNotSupported, as CUDA and AMD). */
hipError_t ah_graph_instantiate(struct ah_graph *g, unsigned long long flags,
                                struct ah_gexec **out, struct ah_gnode **bad);
void ah_gexec_destroy(struct ah_gexec *x);
/* Queues x's nodes on q of dev: branches on internal queues joined with
 * events, or every node on q in x's order (during any capture, or with one
 * lane). */
hipError_t ah_gexec_launch(struct ah_gexec *x, struct ah_device *dev, struct ah_queue *q);
/* Whether an enabled copy node of x (or of its child graphs) has an end in
 * host memory the runtime does not know (pageable memory): hipGraphLaunch
 * then waits for the launch, as a copy touching pageable memory completes
 * before hipMemcpyAsync returns. */
int ah_gexec_has_pageable_copy(struct ah_gexec *x);
/* Makes x's internal queues and events on dev now (hipGraphUpload). */
hipError_t ah_gexec_upload(struct ah_gexec *x, struct ah_device *dev);
/* Replaces x's copy of node n's spec (a node of x's graph, same type, else
 * hipErrorInvalidValue; a child graph must have the child's shape). */
hipError_t ah_gexec_set(struct ah_gexec *x, const struct ah_gnode *n,
                        const struct ah_gspec *spec);
/* hipGraphNodeSetEnabled (set) / GetEnabled on x's copy of n. */
hipError_t ah_gexec_enable(struct ah_gexec *x, const struct ah_gnode *n, int set, int *enabled);
/* hipGraphExecUpdate: g must have the shape of x's graph (as many nodes,
 * node by node in the order they were added the same types and the same
 * dependencies); then every node's parameters are copied into x. Otherwise
 * hipErrorGraphExecUpdateFailure, *result says why and *bad names g's node. */
hipError_t ah_gexec_update(struct ah_gexec *x, struct ah_graph *g, struct ah_gnode **bad,
                           hipGraphExecUpdateResult *result);

/* Stream capture. q is the stream's queue (the capture's key). */
/* Sets the calling thread's capture mode; returns the previous one. */
hipStreamCaptureMode ah_capture_exchange_mode(hipStreamCaptureMode mode);
/* Begins capturing q into a new graph, or into `into` (a user's graph)
 * after deps, nodes of it. */
hipError_t ah_capture_begin(struct ah_device *dev, struct ah_queue *q, hipStreamCaptureMode mode,
                            struct ah_graph *into, struct ah_gnode *const *deps, size_t ndeps);
/* Ends the capture q began: *out is its graph, or NULL with
 * hipErrorStreamCaptureInvalidated. */
hipError_t ah_capture_end(struct ah_queue *q, struct ah_graph **out);
/* The state of q's capture; deps (may be NULL) get the nodes the next
 * captured operation will depend on, valid until q's next capture call. */
hipError_t ah_capture_info(struct ah_device *dev, struct ah_queue *q,
                           hipStreamCaptureStatus *status, unsigned long long *id,
                           struct ah_graph **graph, struct ah_gnode *const **deps, size_t *ndeps);
/* hipStreamUpdateCaptureDependencies: the nodes q's next captured
 * operation depends on become deps (set) or gain them; each must be a node
 * of the capture's graph (hipErrorInvalidValue). q not capturing:
 * hipErrorIllegalState. */
hipError_t ah_capture_update_deps(struct ah_queue *q, struct ah_gnode *const *deps, size_t n,
                                  int set);
/* hipDeviceSynchronize (one of CUDA's "potentially unsafe" calls): refused
 * with hipErrorStreamCaptureUnsupported while a capture forbids the calling
 * thread work on the null stream (same rule and modes), invalidating those
 * captures. */
hipError_t ah_capture_check_unsafe(void);
/* hipDeviceSynchronize: refused as an unsafe call, and also while the
 * calling thread (not in Relaxed mode) has a Relaxed capture of its own,
 * which stays valid (AMD refuses it during every capture). */
hipError_t ah_capture_check_device_sync(void);
/* hipEventSynchronize / hipEventQuery: hipErrorCapturedEvent when e was last
 * recorded in a capture still going, which is invalidated (HIP's rule). */
hipError_t ah_capture_check_event(struct ah_event *e);
/* hipDeviceReset: every capture of dev's streams ends, its graph discarded. */
void ah_capture_drop_device(struct ah_device *dev);

#endif
