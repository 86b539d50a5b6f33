/* SPDX-License-Identifier: MIT */
/* Core HIP graphs (src/core/graph.c): the objects behind hipGraph_t,
 * hipGraphNode_t and hipGraphExec_t, and stream capture (capture.c). A node
 * holds the backend command it will run (kernel arguments copied into the
 * node); an executable graph is the nodes in a dependency order, spread
 * over lanes (the launch stream and internal queues). No argument checks
 * here: src/api/hip_graph.c does them. */
#ifndef AH_GRAPH_H
#define AH_GRAPH_H

#include "internal.h"

struct ah_graph;

/* Graph memory: the block of a memory alloc node, from its device's default
 * pool, reserved when the node is made so that its address is fixed for the
 * graph's life (CUDA's rule). The alloc node, free nodes of it, clones and
 * executable graphs share it (refs); the last one gives it back. */
struct ah_gmem {
  atomic_int refs;
  struct ah_device *dev;
  void *ptr;
  size_t bytes;
};

struct ah_gnode {
  struct ah_object obj;
  struct ah_graph *graph;
  hipGraphNodeType type;
  struct ah_cmd cmd;      /* a kernel's args point into argv/argbuf */
  unsigned char *argbuf;  /* kernel argument values, copied when the node was made */
  void **argv;
  struct ah_gnode **deps; /* nodes this one runs after */
  size_t ndeps, capdeps;
  size_t index;           /* position in graph->nodes */
  const struct ah_gnode *cloned_from; /* identity only (hipGraphNodeFindInClone) */
  hipEvent_t event; /* event record and wait nodes: looked up at each launch */
  struct ah_gmem *mem; /* memory alloc and free nodes: the block (a reference) */
};

struct ah_graph {
  struct ah_object obj;
  pthread_mutex_t lock; /* guards nodes and every node's deps */
  struct ah_gnode **nodes;
  size_t n, cap;
};

/* One node of an executable graph: its own copy of the command, and where
 * it runs: its lane (0 is the launch stream, others internal queues) and
 * the nodes of other lanes it waits for. */
struct ah_xnode {
  const struct ah_gnode *src; /* identity only: the graph may be gone */
  hipGraphNodeType type;
  struct ah_cmd cmd;
  unsigned char *argbuf;
  void **argv;
  size_t lane;
  size_t *waits; /* positions in ah_gexec.nodes, all earlier than this node */
  size_t nwaits;
  hipEvent_t event; /* event record and wait nodes */
  int signals;   /* a node of another lane waits for this one: record ev after it */
  void *ev;      /* backend event of lanes_dev, when signals */
  struct ah_gmem *mem; /* memory nodes: keeps the block while x lives */
};

/* Most internal queues one executable graph uses for parallel branches. */
#define AH_GRAPH_LANES 4

struct ah_gexec {
  struct ah_object obj;
  pthread_mutex_t lock; /* launches against hipGraphExecKernelNodeSetParams */
  struct ah_xnode *nodes; /* in a dependency order */
  size_t n;
  size_t nlanes;
  size_t lane_tail[AH_GRAPH_LANES]; /* each lane's last node */
  struct ah_device *lanes_dev;      /* the device queues and events below belong to */
  void *queues[AH_GRAPH_LANES];     /* [0] unused: lane 0 is the launch stream */
  void *start_ev;                   /* recorded on the launch stream first */
};

hipError_t ah_graph_create(struct ah_graph **out);
void ah_graph_destroy(struct ah_graph *g);
struct ah_graph *ah_graph_lookup(hipGraph_t h);
struct ah_gnode *ah_gnode_lookup(hipGraphNode_t h);
struct ah_gexec *ah_gexec_lookup(hipGraphExec_t h);

/* Adds a node running cmd (NULL for an empty node) after deps (nodes of g,
 * duplicates allowed). A kernel's argument values are copied through its
 * signature, which must be set. */
hipError_t ah_graph_add(struct ah_graph *g, hipGraphNodeType type, const struct ah_cmd *cmd,
                        struct ah_gnode *const *deps, size_t ndeps, struct ah_gnode **out);
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
/* A node's command (a kernel's args point into the node's own copies). */
void ah_gnode_get_cmd(struct ah_gnode *n, struct ah_cmd *out);
/* Replaces n's command with cmd (of the same kind), copying kernel arguments. */
hipError_t ah_gnode_set_cmd(struct ah_gnode *n, const struct ah_cmd *cmd);

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
hipError_t ah_capture_malloc(void *q, struct ah_device *dev, size_t bytes, void **out, int *done);
hipError_t ah_capture_free(void *q, void *ptr, int *done);

/* Orders g's nodes (a cycle: hipErrorInvalidValue, *bad = a node on it). */
hipError_t ah_graph_instantiate(struct ah_graph *g, struct ah_gexec **out, struct ah_gnode **bad);
void ah_gexec_destroy(struct ah_gexec *x);
/* Queues x's nodes on q of dev: branches on internal queues joined with
 * events, or every node on q in x's order (during any capture, or with one
 * lane). */
hipError_t ah_gexec_launch(struct ah_gexec *x, struct ah_device *dev, void *q);
/* Sets the event of an event node, in g or in x's copy. */
void ah_gnode_set_event(struct ah_gnode *n, hipEvent_t ev);
hipError_t ah_gexec_set_event(struct ah_gexec *x, const struct ah_gnode *n, hipEvent_t ev);
/* Replaces x's copy of node n's command (same node type and command kind,
 * else hipErrorInvalidValue; kernel arguments copied). */
hipError_t ah_gexec_set_cmd(struct ah_gexec *x, const struct ah_gnode *n,
                            const struct ah_cmd *cmd);

/* Stream capture. q is the stream's queue (the capture's key). */
/* Sets the calling thread's capture mode; returns the previous one. */
hipStreamCaptureMode ah_capture_exchange_mode(hipStreamCaptureMode mode);
/* Begins capturing q into a new graph, or into `into` (a user's graph)
 * after deps, nodes of it. */
hipError_t ah_capture_begin(struct ah_device *dev, void *q, hipStreamCaptureMode mode,
                            struct ah_graph *into, struct ah_gnode *const *deps, size_t ndeps);
/* Ends the capture q began: *out is its graph, or NULL with
 * hipErrorStreamCaptureInvalidated. */
hipError_t ah_capture_end(void *q, struct ah_graph **out);
/* The state of q's capture; deps (may be NULL) get the nodes the next
 * captured operation will depend on, valid until q's next capture call. */
hipError_t ah_capture_info(struct ah_device *dev, void *q, hipStreamCaptureStatus *status,
                           unsigned long long *id, struct ah_graph **graph,
                           struct ah_gnode *const **deps, size_t *ndeps);
/* hipDeviceSynchronize (one of CUDA's "potentially unsafe" calls): refused
 * with hipErrorStreamCaptureUnsupported while a capture forbids the calling
 * thread work on the null stream (same rule and modes), invalidating those
 * captures. */
hipError_t ah_capture_check_unsafe(void);
/* hipEventSynchronize / hipEventQuery: hipErrorCapturedEvent when e was last
 * recorded in a capture still going, which is invalidated (HIP's rule). */
hipError_t ah_capture_check_event(struct ah_event *e);
/* hipDeviceReset: every capture of dev's streams ends, its graph discarded. */
void ah_capture_drop_device(struct ah_device *dev);

#endif
