/* SPDX-License-Identifier: MIT */
/* HIP executable graphs, backend-neutral: instantiation puts a graph's
 * nodes in a dependency order (Kahn's algorithm), copies their specs and
 * spreads independent branches over lanes; a launch queues each node on its
 * lane's queue (the launch stream or an internal one), with events for the
 * edges between lanes. A child graph node is an executable graph of its
 * own, launched on its node's lane. Setting one node's parameters, enabling
 * and disabling nodes, and hipGraphExecUpdate change the copies. */
#include "device_ops.h"
#include "graph.h"
#include "stream.h"

#include <stdlib.h>
#include <string.h>

static void xnodes_free(struct ah_xnode *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (x[i].s.type == hipGraphNodeTypeMemAlloc && x[i].s.mem != NULL)
      atomic_fetch_sub(&x[i].s.mem->execs, 1);
    ah_gspec_fini(&x[i].s);
    free(x[i].waits);
    free(x[i].dep_index);
    if (x[i].sub != NULL)
      ah_gexec_destroy(x[i].sub);
  }
  free(x);
}

/* Puts x's nodes on lanes (g->lock held; pos[] maps a graph index to x's
 * position): a node continues the lane of a dependency that is that lane's
 * last node, so a chain stays on one queue; otherwise it opens a new lane,
 * or, past AH_GRAPH_LANES, shares one (still correct: every node is queued
 * after all it waits for). Dependencies on other lanes become waits. */
static hipError_t assign_lanes(struct ah_gexec *x, const size_t *pos) {
  for (size_t i = 0; i < x->n; i++) {
    struct ah_xnode *d = &x->nodes[i];
    const struct ah_gnode *s = d->src;
    size_t lane = SIZE_MAX;

    for (size_t j = 0; j < s->ndeps && lane == SIZE_MAX; j++) {
      size_t p = pos[s->deps[j]->index];

      if (x->lane_tail[x->nodes[p].lane] == p)
        lane = x->nodes[p].lane;
    }
    if (lane == SIZE_MAX)
      lane = x->nlanes < AH_GRAPH_LANES ? x->nlanes++ : i % AH_GRAPH_LANES;
    d->lane = lane;
    x->lane_tail[lane] = i;
    if (s->ndeps != 0 && (d->waits = malloc(s->ndeps * sizeof(*d->waits))) == NULL)
      return hipErrorOutOfMemory;
    for (size_t j = 0; j < s->ndeps; j++) {
      size_t p = pos[s->deps[j]->index];

      if (x->nodes[p].lane != lane) {
        d->waits[d->nwaits++] = p;
        x->nodes[p].signals = 1;
      }
    }
  }
  /* The launch stream waits for every other lane's last node. */
  for (size_t l = 1; l < x->nlanes; l++)
    x->nodes[x->lane_tail[l]].signals = 1;
  return hipSuccess;
}

/* Kahn's algorithm over g (g->lock held): order[] gets node indices with
 * every node after its dependencies; returns how many could be ordered
 * (fewer than g->n means a cycle). */
static size_t topo_order(struct ah_graph *g, size_t *order) {
  size_t n = g->n, edges = 0, head = 0, tail = 0;
  size_t *indeg = calloc(n + 1, sizeof(size_t)), *start = calloc(n + 1, sizeof(size_t));
  size_t *fill = calloc(n + 1, sizeof(size_t)), *succ;

  for (size_t i = 0; i < n; i++)
    edges += g->nodes[i]->ndeps;
  succ = malloc((edges + 1) * sizeof(size_t));
  if (indeg == NULL || start == NULL || fill == NULL || succ == NULL) {
    free(indeg), free(start), free(fill), free(succ);
    return (size_t)-1;
  }
  /* Successor lists in one array (CSR): start[i] is node i's first. */
  for (size_t i = 0; i < n; i++) {
    indeg[i] = g->nodes[i]->ndeps;
    for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
      start[g->nodes[i]->deps[j]->index + 1]++;
  }
  for (size_t i = 0; i < n; i++)
    start[i + 1] += start[i];
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < g->nodes[i]->ndeps; j++) {
      size_t d = g->nodes[i]->deps[j]->index;

      succ[start[d] + fill[d]++] = i;
    }
  /* Ties keep the order the nodes were added in: a graph made of one chain
   * runs exactly as written. */
  for (size_t i = 0; i < n; i++)
    if (indeg[i] == 0)
      order[tail++] = i;
  while (head < tail) {
    size_t v = order[head++];

    for (size_t k = start[v]; k < start[v + 1]; k++)
      if (--indeg[succ[k]] == 0)
        order[tail++] = succ[k];
  }
  free(indeg), free(start), free(fill), free(succ);
  return tail;
}

/* A graph with an alloc node has one executable graph at a time (CUDA's
 * rule, AMD's hipErrorNotSupported): the block's address is the graph's.
 * g->lock held. */
static struct ah_gnode *mem_in_use(struct ah_graph *g) {
  for (size_t i = 0; i < g->n; i++)
    if (g->nodes[i]->s.type == hipGraphNodeTypeMemAlloc && g->nodes[i]->s.mem != NULL &&
        atomic_load(&g->nodes[i]->s.mem->execs) != 0)
      return g->nodes[i];
  return NULL;
}

static hipError_t instantiate(struct ah_graph *g, unsigned long long flags, int top,
                              struct ah_gexec **out, struct ah_gnode **bad);

/* x's copy of graph node s (g->lock held). */
static hipError_t xnode_init(struct ah_xnode *d, const struct ah_gnode *s,
                             unsigned long long flags, struct ah_gnode **bad) {
  hipError_t err;

  d->src = s;
  if (s->ndeps != 0 && (d->dep_index = malloc(s->ndeps * sizeof(*d->dep_index))) == NULL)
    return hipErrorOutOfMemory;
  for (size_t j = 0; j < s->ndeps; j++)
    d->dep_index[d->ndeps++] = s->deps[j]->index;
  err = ah_gspec_copy(&d->s, &s->s, 0);
  if (err != hipSuccess) {
    free(d->dep_index);
    return err;
  }
  if (s->s.type == hipGraphNodeTypeGraph && s->s.child != NULL) {
    err = instantiate(s->s.child, flags, 0, &d->sub, bad);
    if (err != hipSuccess) {
      ah_gspec_fini(&d->s);
      free(d->dep_index);
      return err;
    }
  }
  if (d->s.type == hipGraphNodeTypeMemAlloc && d->s.mem != NULL)
    atomic_fetch_add(&d->s.mem->execs, 1);
  return hipSuccess;
}

static int native_ready(struct ah_gexec *x, struct ah_device *dev);

hipError_t ah_graph_instantiate(struct ah_graph *g, unsigned long long flags,
                                struct ah_gexec **out, struct ah_gnode **bad) {
  hipError_t err = instantiate(g, flags, 1, out, bad);
  struct ah_device *dev = err == hipSuccess ? ah_current_device() : NULL;

  /* The current device's native graph now, so that the first launch does
   * not pay for it (a launch on another device builds that one's then). */
  if (dev != NULL && dev->backend->graph_build != NULL) {
    pthread_mutex_lock(&(*out)->lock);
    native_ready(*out, dev);
    pthread_mutex_unlock(&(*out)->lock);
  }
  return err;
}

/* top: the executable graph gets a handle (a child node's is reached
 * through its parent only). */
static hipError_t instantiate(struct ah_graph *g, unsigned long long flags, int top,
                              struct ah_gexec **out, struct ah_gnode **bad) {
  struct ah_gexec *x = calloc(1, sizeof(*x));
  size_t *order = NULL, got = 0;
  hipError_t err = hipSuccess;

  *bad = NULL;
  if (x == NULL)
    return hipErrorOutOfMemory;
  x->flags = flags;
  pthread_mutex_lock(&g->lock);
  order = malloc((g->n + 1) * sizeof(*order));
  x->nodes = calloc(g->n + 1, sizeof(*x->nodes));
  x->pos = malloc((g->n + 1) * sizeof(*x->pos));
  if (order == NULL || x->nodes == NULL || x->pos == NULL ||
      (got = topo_order(g, order)) == (size_t)-1) {
    err = hipErrorOutOfMemory;
  } else if (got < g->n) {
    /* Some node never became ready: it is on a cycle or after one. */
    char *seen = calloc(g->n, 1);

    for (size_t i = 0; seen != NULL && i < got; i++)
      seen[order[i]] = 1;
    for (size_t i = 0; seen != NULL && i < g->n && *bad == NULL; i++)
      if (!seen[i])
        *bad = g->nodes[i];
    free(seen);
    err = hipErrorInvalidValue;
  } else if ((*bad = mem_in_use(g)) != NULL) {
    err = hipErrorNotSupported;
  }
  for (size_t i = 0; err == hipSuccess && i < g->n; i++) {
    err = xnode_init(&x->nodes[x->n], g->nodes[order[i]], flags, bad);
    if (err == hipSuccess)
      x->n++;
  }
  if (err == hipSuccess) {
    for (size_t i = 0; i < g->n; i++)
      x->pos[order[i]] = i;
    err = assign_lanes(x, x->pos);
  }
  if (err == hipSuccess && (err = ah_urefs_copy(g->urefs, g->nurefs, &x->urefs)) == hipSuccess)
    x->nurefs = g->nurefs;
  pthread_mutex_unlock(&g->lock);
  free(order);
  if (err == hipSuccess && top)
    err = ah_object_init(&x->obj, AH_KIND_GRAPH_EXEC);
  if (err != hipSuccess) {
    xnodes_free(x->nodes, x->n);
    ah_urefs_release(x->urefs, x->nurefs);
    free(x->pos);
    free(x);
    return err;
  }
  pthread_mutex_init(&x->lock, NULL);
  *out = x;
  return hipSuccess;
}

/* Gives back x's internal queues and events (x->lock held, or x dying).
 * Work queued on them still runs: queue_destroy lets it finish. */
static void lanes_release(struct ah_gexec *x) {
  struct ah_device *dev = x->lanes_dev;

  if (dev == NULL)
    return;
  for (size_t l = 1; l < x->nlanes; l++)
    if (x->queues[l] != NULL)
      dev->backend->queue_destroy(dev, x->queues[l]);
  for (size_t i = 0; i < x->n; i++)
    if (x->nodes[i].ev != NULL)
      dev->backend->event_destroy(dev, x->nodes[i].ev);
  if (x->start_ev != NULL)
    dev->backend->event_destroy(dev, x->start_ev);
  memset(x->queues, 0, sizeof(x->queues));
  for (size_t i = 0; i < x->n; i++)
    x->nodes[i].ev = NULL;
  x->start_ev = NULL;
  x->lanes_dev = NULL;
}

/* Makes the internal queues and events on dev (x->lock held). The queues
 * are non-blocking: the null stream's rules apply to the launch stream
 * alone, which every lane starts after and ends before. */
static hipError_t lanes_ready(struct ah_gexec *x, struct ah_device *dev) {
  const struct ah_backend *b = dev->backend;
  hipError_t err = hipSuccess;

  if (x->lanes_dev == dev)
    return hipSuccess;
  lanes_release(x);
  x->lanes_dev = dev;
  for (size_t l = 1; l < x->nlanes && err == hipSuccess; l++)
    err = b->queue_create(dev, hipStreamNonBlocking, 0, &x->queues[l]);
  if (err == hipSuccess)
    err = b->event_create(dev, hipEventDisableTiming, &x->start_ev);
  for (size_t i = 0; i < x->n && err == hipSuccess; i++)
    if (x->nodes[i].signals)
      err = b->event_create(dev, hipEventDisableTiming, &x->nodes[i].ev);
  if (err != hipSuccess)
    lanes_release(x);
  return err;
}

static int is_event(hipGraphNodeType t) {
  return t == hipGraphNodeTypeEventRecord || t == hipGraphNodeTypeWaitEvent;
}

/* ---- native executable graphs (the backend's graph_* ops) ---- */

/* The nodes of x in one list for graph_build (child graphs flattened). */
struct flat {
  struct ah_gn *v;
  size_t n, cap;
  struct ah_device *dev; /* the device it is for */
  struct ah_gnev *evs;   /* the events of its event nodes */
  size_t nevs;
};

static void flat_free(struct flat *f) {
  for (size_t i = 0; i < f->n; i++)
    free((void *)f->v[i].deps);
  free(f->v);
  free(f->evs);
}

/* An event record or wait node's event, when it is an event of f->dev
 * (another device's, or one shared with other processes: replayed). */
static hipError_t flat_event(struct flat *f, const struct ah_xnode *d, struct ah_dev_event **impl) {
  struct ah_event *e = ah_event_lookup(d->s.event);
  struct ah_gnev *v;

  if (e == NULL || e->dev != f->dev || e->ipc != NULL)
    return hipErrorNotSupported;
  if ((v = realloc(f->evs, (f->nevs + 1) * sizeof(*v))) == NULL)
    return hipErrorOutOfMemory;
  f->evs = v;
  v[f->nevs++] = (struct ah_gnev){d->s.event, e->impl, d->s.type == hipGraphNodeTypeEventRecord};
  *impl = e->impl;
  return hipSuccess;
}

/* Appends a node after deps[] (duplicates dropped); *idx gets its index. */
static hipError_t flat_add(struct flat *f, enum ah_gn_kind kind, const struct ah_cmd *cmd,
                           const size_t *deps, size_t ndeps, size_t *idx) {
  size_t *d = NULL, nd = 0;

  if (f->n == f->cap) {
    size_t cap = f->cap != 0 ? 2 * f->cap : 64;
    struct ah_gn *v = realloc(f->v, cap * sizeof(*v));

    if (v == NULL)
      return hipErrorOutOfMemory;
    f->v = v;
    f->cap = cap;
  }
  if (ndeps != 0 && (d = malloc(ndeps * sizeof(*d))) == NULL)
    return hipErrorOutOfMemory;
  for (size_t j = 0; j < ndeps; j++) {
    size_t k = 0;

    while (k < nd && d[k] != deps[j])
      k++;
    if (k == nd)
      d[nd++] = deps[j];
  }
  f->v[f->n] = (struct ah_gn){.kind = kind, .cmd = cmd, .deps = d, .ndeps = nd};
  *idx = f->n++;
  return hipSuccess;
}

static int native_cmd(const struct ah_xnode *d) {
  switch (d->s.type) {
  case hipGraphNodeTypeKernel:
  case hipGraphNodeTypeMemcpy:
  case hipGraphNodeTypeMemset:
  case hipGraphNodeTypeMemcpyFromSymbol:
  case hipGraphNodeTypeMemcpyToSymbol:
    return d->s.cmd.kind == AH_CMD_KERNEL || d->s.cmd.kind == AH_CMD_COPY ||
           d->s.cmd.kind == AH_CMD_COPY_2D || d->s.cmd.kind == AH_CMD_COPY_3D ||
           d->s.cmd.kind == AH_CMD_SET;
  default:
    return 0;
  }
}

/* Appends x's nodes to f (x's order is a dependency order); a node with no
 * dependency in x depends on entry[] (a child graph node's own
 * dependencies). map[i] gets nodes[i]'s index in f; a child graph node's
 * is an empty node after all of the child's nodes. hipErrorNotSupported
 * for a node kind no native graph takes (host, event, memory nodes...). */
static hipError_t flatten(const struct ah_gexec *x, struct flat *f, const size_t *entry,
                          size_t nentry, size_t *map) {
  hipError_t err = hipSuccess;

  for (size_t i = 0; i < x->n && err == hipSuccess; i++) {
    const struct ah_xnode *d = &x->nodes[i];
    const size_t *deps = entry;
    size_t *own = NULL, ndeps = nentry;

    if (d->ndeps != 0) {
      if ((own = malloc(d->ndeps * sizeof(*own))) == NULL)
        return hipErrorOutOfMemory;
      for (size_t j = 0; j < d->ndeps; j++)
        own[j] = map[x->pos[d->dep_index[j]]];
      deps = own;
      ndeps = d->ndeps;
    }
    if (d->disabled || d->s.type == hipGraphNodeTypeEmpty) {
      err = flat_add(f, AH_GN_EMPTY, NULL, deps, ndeps, &map[i]);
    } else if (d->sub != NULL) {
      size_t *sub = malloc((d->sub->n + 1) * sizeof(*sub));

      if (sub == NULL)
        err = hipErrorOutOfMemory;
      else if ((err = flatten(d->sub, f, deps, ndeps, sub)) == hipSuccess)
        err = d->sub->n != 0 ? flat_add(f, AH_GN_EMPTY, NULL, sub, d->sub->n, &map[i])
                             : flat_add(f, AH_GN_EMPTY, NULL, deps, ndeps, &map[i]);
      free(sub);
    } else if (native_cmd(d)) {
      err = flat_add(f, AH_GN_CMD, &d->s.cmd, deps, ndeps, &map[i]);
    } else if (is_event(d->s.type)) {
      struct ah_dev_event *impl = NULL;

      err = flat_event(f, d, &impl);
      if (err == hipSuccess)
        err = flat_add(f, d->s.type == hipGraphNodeTypeEventRecord ? AH_GN_EVENT_RECORD
                                                                   : AH_GN_EVENT_WAIT,
                       NULL, deps, ndeps, &map[i]);
      if (err == hipSuccess)
        f->v[map[i]].ev = impl;
    } else {
      err = hipErrorNotSupported;
    }
    free(own);
  }
  return err;
}

/* Gives back x's native graph, if any, and forgets a refusal, so that the
 * next launch asks the backend again (x->lock held, or x dying). */
static void native_drop(struct ah_gexec *x) {
  if (x->native != NULL)
    x->native_dev->backend->graph_destroy(x->native_dev, x->native);
  x->native = NULL;
  x->native_dev = NULL;
  free(x->native_evs);
  x->native_evs = NULL;
  x->native_nevs = 0;
}

/* Whether every event x's native graph names is still the event it was
 * (a destroyed one: the replay reports hipErrorInvalidHandle). */
static int native_events_live(const struct ah_gexec *x) {
  for (size_t i = 0; i < x->native_nevs; i++) {
    struct ah_event *e = ah_event_lookup(x->native_evs[i].h);

    if (e == NULL || e->impl != x->native_evs[i].impl)
      return 0;
  }
  return 1;
}

/* Whether x runs on dev as a native graph, built now if it was not asked
 * for dev yet (x->lock held; x a top-level executable graph). */
static int native_ready(struct ah_gexec *x, struct ah_device *dev) {
  struct flat f = {.dev = dev};
  hipError_t err;

  if (x->native_dev == dev)
    return x->native != NULL;
  if (dev->backend->graph_build == NULL || !ah_config.graph_native)
    return 0;
  native_drop(x);
  x->native_dev = dev;
  if (x->native_idx == NULL && (x->native_idx = malloc((x->n + 1) * sizeof(size_t))) == NULL)
    return 0;
  err = flatten(x, &f, NULL, 0, x->native_idx);
  if (err == hipSuccess)
    err = dev->backend->graph_build(dev, f.v, f.n, &x->native);
  if (err != hipSuccess) {
    x->native = NULL; /* replayed; asked again after a change */
  } else {
    x->native_evs = f.evs;
    x->native_nevs = f.nevs;
    f.evs = NULL;
  }
  flat_free(&f);
  return x->native != NULL;
}

void ah_gexec_destroy(struct ah_gexec *x) {
  ah_object_fini(&x->obj); /* nothing for a child node's */
  native_drop(x);
  free(x->native_idx);
  lanes_release(x);
  xnodes_free(x->nodes, x->n);
  ah_urefs_release(x->urefs, x->nurefs);
  free(x->pos);
  pthread_mutex_destroy(&x->lock);
  free(x);
}

/* An event node on queue q of dev, as hipEventRecord and hipStreamWaitEvent
 * do it (through the capture hooks when `capture`). The event is looked up
 * now: one destroyed since the node was made is hipErrorInvalidHandle. */
static hipError_t run_event(struct ah_device *dev, struct ah_queue *q, const struct ah_xnode *n,
                            int capture) {
  struct ah_event *e = ah_event_lookup(n->s.event);

  if (e == NULL)
    return hipErrorInvalidHandle;
  if (n->s.type != hipGraphNodeTypeEventRecord)
    return ah_event_wait_on(e, dev, q, capture); /* as hipStreamWaitEvent */
  if (e->dev != dev)
    return hipErrorInvalidHandle; /* as hipEventRecord: a stream of the event's device */
  return ah_event_record_on(e, dev, q, capture);
}

static hipError_t replay(struct ah_gexec *x, struct ah_device *dev, struct ah_queue *q);

/* One node on queue q of dev: its command, its event, or its child graph
 * (through the capture hooks when `capture`). */
static hipError_t run_node(struct ah_device *dev, struct ah_queue *q, const struct ah_xnode *n,
                           int capture) {
  hipError_t err;

  if (n->sub != NULL)
    return replay(n->sub, dev, q);
  if (is_event(n->s.type))
    return run_event(dev, q, n, capture);
  if (ah_gspec_has_ops(n->s.type)) { /* external semaphores, stream memory operations */
    if (capture && (err = ah_capture_check_sync(q)) != hipSuccess)
      return err; /* not capturable: no such nodes in a captured graph */
    return ah_gspec_run_ops(dev, q, &n->s);
  }
  if (ah_gspec_no_cmd(n->s.type))
    return hipSuccess;
  if (n->s.cmd.kind == AH_CMD_KERNEL) {
    err = ah_dev_function_check(dev, n->s.cmd.kernel.fn);
    if (err != hipSuccess)
      return err;
  }
  return ah_submit(dev, q, &n->s.cmd, 0); /* the backend's submit while nothing captures */
}

/* Every node on its lane: lanes start after what q had queued (start_ev),
 * a node first waits for its dependencies on other lanes, and q ends
 * after every lane's last node. Nodes are queued in x's order, so each
 * wait finds the record it needs already made. x->lock held. */
static hipError_t launch_lanes(struct ah_gexec *x, struct ah_device *dev, struct ah_queue *q) {
  const struct ah_backend *b = dev->backend;
  hipError_t err = b->event_record(dev, q, x->start_ev);

  for (size_t l = 1; l < x->nlanes && err == hipSuccess; l++)
    err = b->queue_wait_event(dev, x->queues[l], x->start_ev);
  for (size_t i = 0; i < x->n && err == hipSuccess; i++) {
    const struct ah_xnode *n = &x->nodes[i];
    struct ah_queue *lq = n->lane == 0 ? q : x->queues[n->lane];

    for (size_t w = 0; w < n->nwaits && err == hipSuccess; w++)
      err = b->queue_wait_event(dev, lq, x->nodes[n->waits[w]].ev);
    if (err == hipSuccess && !n->disabled)
      err = run_node(dev, lq, n, 0);
    if (err == hipSuccess && n->signals)
      err = b->event_record(dev, lq, n->ev);
  }
  for (size_t l = 1; l < x->nlanes && err == hipSuccess; l++)
    err = b->queue_wait_event(dev, q, x->nodes[x->lane_tail[l]].ev);
  return err;
}

/* x's nodes one by one on q, or on its lanes (x->lock held). */
static hipError_t replay_locked(struct ah_gexec *x, struct ah_device *dev, struct ah_queue *q) {
  hipError_t err = hipSuccess;

  /* During any capture the nodes go through ah_submit one by one, so a
   * launch into a capturing stream is captured as a chain. */
  if (x->nlanes > 1 && atomic_load(&ah_capture_count) == 0 && lanes_ready(x, dev) == hipSuccess)
    return launch_lanes(x, dev, q);
  for (size_t i = 0; i < x->n && err == hipSuccess; i++)
    if (!x->nodes[i].disabled)
      err = run_node(dev, q, &x->nodes[i], atomic_load(&ah_capture_count) != 0);
  return err;
}

/* A child graph node's executable graph, in its place. */
static hipError_t replay(struct ah_gexec *x, struct ah_device *dev, struct ah_queue *q) {
  hipError_t err;

  pthread_mutex_lock(&x->lock);
  err = replay_locked(x, dev, q);
  pthread_mutex_unlock(&x->lock);
  return err;
}

/* Whether [p, p + n) touches host memory the runtime does not know. */
static int pageable_end(const void *p) {
  struct ah_alloc a;

  return p != NULL && !ah_alloc_find(p, &a);
}

static int copy_pageable(const struct ah_cmd *c) {
  switch (c->kind) {
  case AH_CMD_COPY:
    return pageable_end(c->copy.dst) || pageable_end(c->copy.src);
  case AH_CMD_COPY_2D:
    return pageable_end(c->copy2d.dst) || pageable_end(c->copy2d.src);
  case AH_CMD_COPY_3D:
    return pageable_end(c->copy3d.dst) || pageable_end(c->copy3d.src);
  default:
    return 0;
  }
}

int ah_gexec_has_pageable_copy(struct ah_gexec *x) {
  int found = 0;

  pthread_mutex_lock(&x->lock);
  for (size_t i = 0; i < x->n && !found; i++) {
    const struct ah_xnode *d = &x->nodes[i];

    if (d->disabled)
      continue;
    if (d->sub != NULL)
      found = ah_gexec_has_pageable_copy(d->sub);
    else if (d->s.type == hipGraphNodeTypeMemcpy)
      found = copy_pageable(&d->s.cmd);
  }
  pthread_mutex_unlock(&x->lock);
  return found;
}

hipError_t ah_gexec_launch(struct ah_gexec *x, struct ah_device *dev, struct ah_queue *q) {
  hipError_t err = hipErrorNotSupported;

  pthread_mutex_lock(&x->lock);
  /* During any capture the nodes are replayed (captured one by one). */
  if (atomic_load(&ah_capture_count) == 0 && native_ready(x, dev)) {
    if (native_events_live(x))
      err = dev->backend->graph_launch(dev, q, x->native);
    if (err == hipErrorNotSupported)
      native_drop(x); /* an event gone, or the backend gave it up (a device reset) */
    for (size_t i = 0; err == hipSuccess && i < x->native_nevs; i++) {
      struct ah_event *e = ah_event_lookup(x->native_evs[i].h);

      if (x->native_evs[i].record && e != NULL)
        e->recorded = 1; /* as hipEventRecord */
    }
  }
  if (err == hipErrorNotSupported)
    err = replay_locked(x, dev, q);
  pthread_mutex_unlock(&x->lock);
  return err;
}

/* x's internal queues and events on dev, and its child graphs'. */
static hipError_t lanes_upload(struct ah_gexec *x, struct ah_device *dev) {
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&x->lock);
  if (x->nlanes > 1)
    err = lanes_ready(x, dev);
  for (size_t i = 0; i < x->n && err == hipSuccess; i++)
    if (x->nodes[i].sub != NULL)
      err = lanes_upload(x->nodes[i].sub, dev);
  pthread_mutex_unlock(&x->lock);
  return err;
}

hipError_t ah_gexec_upload(struct ah_gexec *x, struct ah_device *dev) {
  int native;

  pthread_mutex_lock(&x->lock);
  native = native_ready(x, dev);
  pthread_mutex_unlock(&x->lock);
  return native ? hipSuccess : lanes_upload(x, dev);
}

/* x's copy of n, or NULL (x->lock held). */
static struct ah_xnode *find_xnode(struct ah_gexec *x, const struct ah_gnode *n) {
  for (size_t i = 0; i < x->n; i++)
    if (x->nodes[i].src == n)
      return &x->nodes[i];
  return NULL;
}

/* Replaces d's spec with a copy of spec; a child graph node's executable
 * graph takes the new child's parameters (same shape). x->lock held. */
static hipError_t xnode_set(struct ah_xnode *d, const struct ah_gspec *spec) {
  struct ah_gspec c, old;
  hipError_t err;

  if (spec->type != d->s.type)
    return hipErrorInvalidValue;
  /* A copy's direction, as given, is the executable graph's (HIP). */
  if (d->s.type == hipGraphNodeTypeMemcpy && spec->copy3d.kind != d->s.copy3d.kind)
    return hipErrorInvalidValue;
  if (d->s.type == hipGraphNodeTypeGraph) {
    struct ah_gnode *bad;
    hipGraphExecUpdateResult r;

    if (spec->child == NULL || d->sub == NULL)
      return hipErrorInvalidValue;
    err = ah_gexec_update(d->sub, spec->child, &bad, &r);
    return err == hipSuccess ? hipSuccess : hipErrorInvalidValue;
  }
  if (d->s.type == hipGraphNodeTypeMemAlloc || d->s.type == hipGraphNodeTypeMemFree)
    /* CUDA: memory nodes cannot be changed (an update with the same block is no change) */
    return spec->mem == d->s.mem ? hipSuccess : hipErrorInvalidValue;
  err = ah_gspec_copy(&c, spec, 0);
  if (err != hipSuccess)
    return err;
  old = d->s;
  d->s = c;
  ah_gspec_fini(&old);
  return hipSuccess;
}

/* After d's spec changed: a kernel node's new parameters go to the native
 * graph; any other change drops it, to be built again (x->lock held). */
static void native_changed(struct ah_gexec *x, const struct ah_xnode *d) {
  struct ah_device *dev = x->native_dev;

  if (d->s.type == hipGraphNodeTypeEmpty)
    return; /* nothing to change */
  if (x->native != NULL && d->s.type == hipGraphNodeTypeKernel && !d->disabled &&
      d->sub == NULL && dev->backend->graph_set_kernel != NULL &&
      dev->backend->graph_set_kernel(dev, x->native, x->native_idx[d - x->nodes],
                                     &d->s.cmd) == hipSuccess)
    return;
  native_drop(x);
}

hipError_t ah_gexec_set(struct ah_gexec *x, const struct ah_gnode *n,
                        const struct ah_gspec *spec) {
  struct ah_xnode *d;
  hipError_t err = hipErrorInvalidValue;

  pthread_mutex_lock(&x->lock);
  d = find_xnode(x, n);
  if (d != NULL)
    err = xnode_set(d, spec);
  if (err == hipSuccess && x->native_dev != NULL)
    native_changed(x, d);
  pthread_mutex_unlock(&x->lock);
  return err;
}

hipError_t ah_gexec_enable(struct ah_gexec *x, const struct ah_gnode *n, int set, int *enabled) {
  struct ah_xnode *d;

  pthread_mutex_lock(&x->lock);
  d = find_xnode(x, n);
  if (d != NULL) {
    if (set && d->disabled != !*enabled)
      native_drop(x); /* a disabled node is an empty node of the native graph */
    if (set)
      d->disabled = !*enabled;
    else
      *enabled = !d->disabled;
  }
  pthread_mutex_unlock(&x->lock);
  return d != NULL ? hipSuccess : hipErrorInvalidValue;
}

/* Whether g has the shape of x's graph (x->lock and g->lock held); child
 * graph nodes' graphs are compared with their executable graphs too, so
 * that an update changes all or nothing. */
static hipGraphExecUpdateResult same_shape(struct ah_gexec *x, struct ah_graph *g,
                                           struct ah_gnode **bad) {
  hipGraphExecUpdateResult r = hipGraphExecUpdateSuccess;

  if (g->n != x->n)
    return hipGraphExecUpdateErrorTopologyChanged;
  /* Node i of g stands for the node added i-th to x's graph, which is
   * x->nodes[x->pos[i]]; its dependencies must be the same nodes. */
  for (size_t i = 0; i < g->n && r == hipGraphExecUpdateSuccess; i++) {
    const struct ah_gnode *gn = g->nodes[i];
    const struct ah_xnode *d = &x->nodes[x->pos[i]];

    *bad = g->nodes[i];
    if (gn->s.type != d->s.type)
      r = hipGraphExecUpdateErrorNodeTypeChanged;
    else if (gn->ndeps != d->ndeps)
      r = hipGraphExecUpdateErrorTopologyChanged;
    else if ((gn->s.type == hipGraphNodeTypeMemAlloc || gn->s.type == hipGraphNodeTypeMemFree) &&
             gn->s.mem != d->s.mem)
      r = hipGraphExecUpdateErrorNotSupported;
    else if (gn->s.type == hipGraphNodeTypeMemcpy && gn->s.copy3d.kind != d->s.copy3d.kind)
      r = hipGraphExecUpdateErrorParametersChanged;
    for (size_t j = 0; j < gn->ndeps && r == hipGraphExecUpdateSuccess; j++) {
      int found = 0;

      for (size_t k = 0; k < d->ndeps && !found; k++)
        found = d->dep_index[k] == gn->deps[j]->index;
      if (!found)
        r = hipGraphExecUpdateErrorTopologyChanged;
    }
    if (r == hipGraphExecUpdateSuccess && d->sub != NULL && gn->s.child != NULL) {
      struct ah_gnode *inner;

      pthread_mutex_lock(&d->sub->lock);
      pthread_mutex_lock(&gn->s.child->lock);
      r = same_shape(d->sub, gn->s.child, &inner);
      pthread_mutex_unlock(&gn->s.child->lock);
      pthread_mutex_unlock(&d->sub->lock);
    }
  }
  return r;
}

hipError_t ah_gexec_update(struct ah_gexec *x, struct ah_graph *g, struct ah_gnode **bad,
                           hipGraphExecUpdateResult *result) {
  hipError_t err = hipSuccess;

  *bad = NULL;
  pthread_mutex_lock(&x->lock);
  pthread_mutex_lock(&g->lock);
  *result = same_shape(x, g, bad);
  for (size_t i = 0; i < g->n && *result == hipGraphExecUpdateSuccess && err == hipSuccess;
       i++) {
    *bad = g->nodes[i];
    err = xnode_set(&x->nodes[x->pos[i]], &g->nodes[i]->s);
    if (err != hipSuccess)
      *result = hipGraphExecUpdateError; /* out of memory only: the shape was checked */
    else if (x->native_dev != NULL)
      native_changed(x, &x->nodes[x->pos[i]]);
  }
  if (*result != hipGraphExecUpdateSuccess && x->native_dev != NULL)
    native_drop(x); /* some nodes may have changed */
  pthread_mutex_unlock(&g->lock);
  pthread_mutex_unlock(&x->lock);
  if (*result == hipGraphExecUpdateSuccess) {
    *bad = NULL;
    return hipSuccess;
  }
  return hipErrorGraphExecUpdateFailure;
}
