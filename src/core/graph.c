/* SPDX-License-Identifier: MIT */
/* HIP graphs, backend-neutral. A graph node stores the backend command it
 * stands for; instantiation puts the nodes in a dependency order (Kahn's
 * algorithm), copies them and spreads independent branches over lanes; a
 * launch queues each node on its lane's queue (the launch stream or an
 * internal one), with events for the edges between lanes. Stream capture,
 * which builds graphs from queued work, is in capture.c. */
#include "graph.h"
#include "mempool.h"
#include "stream.h"

#include <stdlib.h>
#include <string.h>

/* ---- objects ---- */

struct ah_graph *ah_graph_lookup(hipGraph_t h) {
  return ah_object_cast(h, AH_KIND_GRAPH);
}

struct ah_gnode *ah_gnode_lookup(hipGraphNode_t h) {
  return ah_object_cast(h, AH_KIND_GRAPH_NODE);
}

struct ah_gexec *ah_gexec_lookup(hipGraphExec_t h) {
  return ah_object_cast(h, AH_KIND_GRAPH_EXEC);
}

hipError_t ah_graph_create(struct ah_graph **out) {
  struct ah_graph *g = calloc(1, sizeof(*g));
  hipError_t err;

  if (g == NULL)
    return hipErrorOutOfMemory;
  err = ah_object_init(&g->obj, AH_KIND_GRAPH);
  if (err != hipSuccess) {
    free(g);
    return err;
  }
  pthread_mutex_init(&g->lock, NULL);
  *out = g;
  return hipSuccess;
}

static void node_free(struct ah_gnode *n) {
  ah_object_fini(&n->obj);
  free(n->argbuf);
  free(n->argv);
  free(n->deps);
  ah_gmem_release(n->mem);
  free(n);
}

/* Nodes that carry no command: empty and graph-memory nodes (the memory is
 * reserved for the graph's life, so allocating and freeing queue nothing). */
static int no_cmd(hipGraphNodeType t) {
  return t == hipGraphNodeTypeEmpty || t == hipGraphNodeTypeMemAlloc ||
         t == hipGraphNodeTypeMemFree;
}

void ah_graph_destroy(struct ah_graph *g) {
  for (size_t i = 0; i < g->n; i++)
    node_free(g->nodes[i]);
  free(g->nodes);
  ah_object_fini(&g->obj);
  pthread_mutex_destroy(&g->lock);
  free(g);
}

/* Copies the argument values args[] point at into one buffer laid out by
 * sig; *argv then points at each copy. */
static hipError_t copy_args(const ahKernelSig *sig, void **args, unsigned char **buf,
                            void ***argv) {
  size_t off = 0, align = 16;
  size_t *offs;

  *buf = NULL;
  *argv = NULL;
  if (sig->nargs == 0)
    return hipSuccess;
  offs = malloc(sig->nargs * sizeof(*offs));
  *argv = malloc(sig->nargs * sizeof(**argv));
  if (offs == NULL || *argv == NULL)
    goto oom;
  for (unsigned i = 0; i < sig->nargs; i++) {
    size_t al = sig->aligns[i] != 0 ? sig->aligns[i] : 1;

    if (al > align)
      align = al;
    off = (off + al - 1) / al * al;
    offs[i] = off;
    off += sig->sizes[i];
  }
  if (posix_memalign((void **)buf, align, off != 0 ? off : 1) != 0) {
    *buf = NULL;
    goto oom;
  }
  for (unsigned i = 0; i < sig->nargs; i++) {
    memcpy(*buf + offs[i], args[i], sig->sizes[i]);
    (*argv)[i] = *buf + offs[i];
  }
  free(offs);
  return hipSuccess;
oom:
  free(offs);
  free(*argv);
  *argv = NULL;
  return hipErrorOutOfMemory;
}

/* Copies cmd into *dst with its own argument values. */
static hipError_t copy_cmd(struct ah_cmd *dst, const struct ah_cmd *cmd, unsigned char **buf,
                           void ***argv) {
  *dst = *cmd;
  *buf = NULL;
  *argv = NULL;
  if (cmd->kind != AH_CMD_KERNEL)
    return hipSuccess;
  if (cmd->kernel.sig == NULL)
    return hipErrorInvalidDeviceFunction;
  hipError_t err = copy_args(cmd->kernel.sig, cmd->kernel.args, buf, argv);
  dst->kernel.args = *argv;
  return err;
}

static int has_dep(const struct ah_gnode *n, const struct ah_gnode *d) {
  for (size_t i = 0; i < n->ndeps; i++)
    if (n->deps[i] == d)
      return 1;
  return 0;
}

/* g->lock held. */
static hipError_t push_dep(struct ah_gnode *n, struct ah_gnode *d) {
  if (n->ndeps == n->capdeps) {
    size_t ncap = n->capdeps != 0 ? 2 * n->capdeps : 4;
    struct ah_gnode **nd = realloc(n->deps, ncap * sizeof(*nd));

    if (nd == NULL)
      return hipErrorOutOfMemory;
    n->deps = nd;
    n->capdeps = ncap;
  }
  n->deps[n->ndeps++] = d;
  return hipSuccess;
}

hipError_t ah_graph_add(struct ah_graph *g, hipGraphNodeType type, const struct ah_cmd *cmd,
                        struct ah_gnode *const *deps, size_t ndeps, struct ah_gnode **out) {
  struct ah_gnode *n = calloc(1, sizeof(*n));
  hipError_t err;

  if (n == NULL)
    return hipErrorOutOfMemory;
  n->graph = g;
  n->type = type;
  if (cmd != NULL && (err = copy_cmd(&n->cmd, cmd, &n->argbuf, &n->argv)) != hipSuccess) {
    free(n);
    return err;
  }
  err = ah_object_init(&n->obj, AH_KIND_GRAPH_NODE);
  if (err != hipSuccess) {
    free(n->argbuf);
    free(n->argv);
    free(n);
    return err;
  }
  pthread_mutex_lock(&g->lock);
  for (size_t i = 0; i < ndeps && err == hipSuccess; i++)
    if (!has_dep(n, deps[i]))
      err = push_dep(n, deps[i]);
  if (err == hipSuccess && g->n == g->cap) {
    size_t ncap = g->cap != 0 ? 2 * g->cap : 16;
    struct ah_gnode **nn = realloc(g->nodes, ncap * sizeof(*nn));

    if (nn == NULL)
      err = hipErrorOutOfMemory;
    else {
      g->nodes = nn;
      g->cap = ncap;
    }
  }
  if (err == hipSuccess) {
    n->index = g->n;
    g->nodes[g->n++] = n;
  }
  pthread_mutex_unlock(&g->lock);
  if (err != hipSuccess) {
    node_free(n);
    return err;
  }
  *out = n;
  return hipSuccess;
}

hipError_t ah_graph_add_edge(struct ah_graph *g, struct ah_gnode *from, struct ah_gnode *to) {
  hipError_t err;

  pthread_mutex_lock(&g->lock);
  err = has_dep(to, from) ? hipErrorInvalidValue : push_dep(to, from);
  pthread_mutex_unlock(&g->lock);
  return err;
}

hipError_t ah_graph_clone(struct ah_graph *g, struct ah_graph **out) {
  struct ah_graph *c;
  hipError_t err = ah_graph_create(&c);

  if (err != hipSuccess)
    return err;
  pthread_mutex_lock(&g->lock);
  for (size_t i = 0; i < g->n && err == hipSuccess; i++) {
    struct ah_gnode *s = g->nodes[i], *n;

    err = ah_graph_add(c, s->type, no_cmd(s->type) ? NULL : &s->cmd, NULL, 0, &n);
    if (err == hipSuccess) {
      n->cloned_from = s;
      n->event = s->event;
      n->mem = ah_gmem_ref(s->mem); /* the clone shares the block and its address */
    }
  }
  /* Edges once every node has its twin at the same index: a dependency
   * may come after its node in g->nodes (hipGraphAddDependencies). */
  for (size_t i = 0; i < g->n && err == hipSuccess; i++) {
    struct ah_gnode *s = g->nodes[i];

    for (size_t j = 0; j < s->ndeps && err == hipSuccess; j++)
      err = push_dep(c->nodes[i], c->nodes[s->deps[j]->index]);
  }
  pthread_mutex_unlock(&g->lock);
  if (err != hipSuccess) {
    ah_graph_destroy(c);
    return err;
  }
  *out = c;
  return hipSuccess;
}

struct ah_gnode *ah_graph_find_clone(struct ah_graph *c, const struct ah_gnode *orig) {
  struct ah_gnode *found = NULL;

  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < c->n && found == NULL; i++)
    if (c->nodes[i]->cloned_from == orig)
      found = c->nodes[i];
  pthread_mutex_unlock(&c->lock);
  return found;
}

/* Removes d from n's dependencies; returns whether it was there. g->lock held. */
static int drop_dep(struct ah_gnode *n, const struct ah_gnode *d) {
  for (size_t i = 0; i < n->ndeps; i++)
    if (n->deps[i] == d) {
      n->deps[i] = n->deps[--n->ndeps];
      return 1;
    }
  return 0;
}

hipError_t ah_graph_remove_edge(struct ah_graph *g, struct ah_gnode *from, struct ah_gnode *to) {
  int found;

  pthread_mutex_lock(&g->lock);
  found = drop_dep(to, from);
  pthread_mutex_unlock(&g->lock);
  return found ? hipSuccess : hipErrorInvalidValue;
}

void ah_graph_remove_node(struct ah_gnode *n) {
  struct ah_graph *g = n->graph;

  pthread_mutex_lock(&g->lock);
  for (size_t i = n->index + 1; i < g->n; i++) {
    g->nodes[i - 1] = g->nodes[i];
    g->nodes[i - 1]->index = i - 1;
  }
  g->n--;
  for (size_t i = 0; i < g->n; i++)
    drop_dep(g->nodes[i], n);
  pthread_mutex_unlock(&g->lock);
  node_free(n);
}

size_t ah_graph_list(struct ah_graph *g, int roots_only, struct ah_gnode **out, size_t cap) {
  size_t count = 0;

  pthread_mutex_lock(&g->lock);
  for (size_t i = 0; i < g->n; i++) {
    if (roots_only && g->nodes[i]->ndeps != 0)
      continue;
    if (out != NULL && count < cap)
      out[count] = g->nodes[i];
    count++;
  }
  pthread_mutex_unlock(&g->lock);
  return count;
}

size_t ah_gnode_links(struct ah_gnode *n, int dependents, struct ah_gnode **out, size_t cap) {
  struct ah_graph *g = n->graph;
  size_t count = 0;

  pthread_mutex_lock(&g->lock);
  if (!dependents) {
    for (size_t i = 0; i < n->ndeps; i++, count++)
      if (out != NULL && count < cap)
        out[count] = n->deps[i];
  } else {
    for (size_t i = 0; i < g->n; i++)
      if (has_dep(g->nodes[i], n)) {
        if (out != NULL && count < cap)
          out[count] = g->nodes[i];
        count++;
      }
  }
  pthread_mutex_unlock(&g->lock);
  return count;
}

size_t ah_graph_edges(struct ah_graph *g, struct ah_gnode **from, struct ah_gnode **to,
                      size_t cap) {
  size_t count = 0;

  pthread_mutex_lock(&g->lock);
  for (size_t i = 0; i < g->n; i++)
    for (size_t j = 0; j < g->nodes[i]->ndeps; j++, count++)
      if (from != NULL && count < cap) {
        from[count] = g->nodes[i]->deps[j];
        to[count] = g->nodes[i];
      }
  pthread_mutex_unlock(&g->lock);
  return count;
}

void ah_gnode_set_event(struct ah_gnode *n, hipEvent_t ev) {
  pthread_mutex_lock(&n->graph->lock);
  n->event = ev;
  pthread_mutex_unlock(&n->graph->lock);
}

void ah_gnode_get_cmd(struct ah_gnode *n, struct ah_cmd *out) {
  pthread_mutex_lock(&n->graph->lock);
  *out = n->cmd;
  pthread_mutex_unlock(&n->graph->lock);
}

hipError_t ah_gnode_set_cmd(struct ah_gnode *n, const struct ah_cmd *cmd) {
  unsigned char *buf;
  void **argv;
  struct ah_cmd c;
  hipError_t err = copy_cmd(&c, cmd, &buf, &argv);

  if (err != hipSuccess)
    return err;
  pthread_mutex_lock(&n->graph->lock);
  free(n->argbuf);
  free(n->argv);
  n->cmd = c;
  n->argbuf = buf;
  n->argv = argv;
  pthread_mutex_unlock(&n->graph->lock);
  return hipSuccess;
}

/* ---- executable graphs ---- */

static void xnodes_free(struct ah_xnode *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(x[i].argbuf);
    free(x[i].argv);
    free(x[i].waits);
    ah_gmem_release(x[i].mem);
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

hipError_t ah_graph_instantiate(struct ah_graph *g, struct ah_gexec **out, struct ah_gnode **bad) {
  struct ah_gexec *x = calloc(1, sizeof(*x));
  size_t *order = NULL, got = 0;
  hipError_t err = hipSuccess;

  *bad = NULL;
  if (x == NULL)
    return hipErrorOutOfMemory;
  pthread_mutex_lock(&g->lock);
  order = malloc((g->n + 1) * sizeof(*order));
  x->nodes = calloc(g->n + 1, sizeof(*x->nodes));
  if (order == NULL || x->nodes == NULL || (got = topo_order(g, order)) == (size_t)-1) {
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
  }
  for (size_t i = 0; err == hipSuccess && i < g->n; i++) {
    const struct ah_gnode *s = g->nodes[order[i]];
    struct ah_xnode *d = &x->nodes[x->n];

    d->src = s;
    d->type = s->type;
    d->event = s->event;
    d->mem = ah_gmem_ref(s->mem);
    if (!no_cmd(s->type))
      err = copy_cmd(&d->cmd, &s->cmd, &d->argbuf, &d->argv);
    if (err == hipSuccess)
      x->n++;
  }
  if (err == hipSuccess) {
    /* order[] becomes pos[]: graph index -> position in x. */
    size_t *pos = malloc((g->n + 1) * sizeof(*pos));

    if (pos == NULL) {
      err = hipErrorOutOfMemory;
    } else {
      for (size_t i = 0; i < g->n; i++)
        pos[order[i]] = i;
      err = assign_lanes(x, pos);
      free(pos);
    }
  }
  pthread_mutex_unlock(&g->lock);
  free(order);
  if (err == hipSuccess)
    err = ah_object_init(&x->obj, AH_KIND_GRAPH_EXEC);
  if (err != hipSuccess) {
    xnodes_free(x->nodes, x->n);
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

void ah_gexec_destroy(struct ah_gexec *x) {
  ah_object_fini(&x->obj);
  lanes_release(x);
  xnodes_free(x->nodes, x->n);
  pthread_mutex_destroy(&x->lock);
  free(x);
}

static int is_event(hipGraphNodeType t) {
  return t == hipGraphNodeTypeEventRecord || t == hipGraphNodeTypeWaitEvent;
}

/* An event node on queue q of dev, as hipEventRecord and hipStreamWaitEvent
 * do it (through the capture hooks when `capture`). The event is looked up
 * now: one destroyed since the node was made is hipErrorInvalidHandle. */
static hipError_t run_event(struct ah_device *dev, void *q, const struct ah_xnode *n, int capture) {
  struct ah_event *e = ah_event_lookup(n->event);
  int done = 0;
  hipError_t err;

  if (e == NULL)
    return hipErrorInvalidHandle;
  if (n->type == hipGraphNodeTypeEventRecord) {
    if (e->dev != dev)
      return hipErrorInvalidHandle; /* as hipEventRecord: a stream of the event's device */
    if (capture && (err = ah_capture_event_record(q, e, &done)) != hipSuccess)
      return err;
    if (done)
      return hipSuccess;
    err = dev->backend->event_record(dev, q, e->impl);
    if (err == hipSuccess)
      e->recorded = 1;
    return err;
  }
  if (capture && (err = ah_capture_wait_event(dev, q, e, &done)) != hipSuccess)
    return err;
  if (done)
    return hipSuccess;
  if (e->dev->backend != dev->backend) /* as hipStreamWaitEvent */
    return e->dev->backend->event_sync(e->dev, e->impl);
  return dev->backend->queue_wait_event(dev, q, e->impl);
}

/* Every node on its lane: lanes start after what q had queued (start_ev),
 * a node first waits for its dependencies on other lanes, and q ends
 * after every lane's last node. Nodes are queued in x's order, so each
 * wait finds the record it needs already made. x->lock held. */
static hipError_t launch_lanes(struct ah_gexec *x, struct ah_device *dev, void *q) {
  const struct ah_backend *b = dev->backend;
  hipError_t err = b->event_record(dev, q, x->start_ev);

  for (size_t l = 1; l < x->nlanes && err == hipSuccess; l++)
    err = b->queue_wait_event(dev, x->queues[l], x->start_ev);
  for (size_t i = 0; i < x->n && err == hipSuccess; i++) {
    const struct ah_xnode *n = &x->nodes[i];
    void *lq = n->lane == 0 ? q : x->queues[n->lane];

    for (size_t w = 0; w < n->nwaits && err == hipSuccess; w++)
      err = b->queue_wait_event(dev, lq, x->nodes[n->waits[w]].ev);
    if (err == hipSuccess && is_event(n->type)) {
      err = run_event(dev, lq, n, 0);
    } else if (err == hipSuccess && !no_cmd(n->type)) {
      if (n->cmd.kind == AH_CMD_KERNEL && b->function_check != NULL)
        err = b->function_check(dev, n->cmd.kernel.fn);
      if (err == hipSuccess)
        err = b->submit(dev, lq, &n->cmd, 0);
    }
    if (err == hipSuccess && n->signals)
      err = b->event_record(dev, lq, n->ev);
  }
  for (size_t l = 1; l < x->nlanes && err == hipSuccess; l++)
    err = b->queue_wait_event(dev, q, x->nodes[x->lane_tail[l]].ev);
  return err;
}

hipError_t ah_gexec_launch(struct ah_gexec *x, struct ah_device *dev, void *q) {
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&x->lock);
  /* During any capture the nodes go through ah_submit one by one, so a
   * launch into a capturing stream is captured as a chain. */
  if (x->nlanes > 1 && atomic_load(&ah_capture_count) == 0 &&
      lanes_ready(x, dev) == hipSuccess) {
    err = launch_lanes(x, dev, q);
    pthread_mutex_unlock(&x->lock);
    return err;
  }
  for (size_t i = 0; i < x->n && err == hipSuccess; i++) {
    const struct ah_xnode *n = &x->nodes[i];

    if (no_cmd(n->type))
      continue;
    if (is_event(n->type)) {
      err = run_event(dev, q, n, atomic_load(&ah_capture_count) != 0);
      continue;
    }
    if (n->cmd.kind == AH_CMD_KERNEL && dev->backend->function_check != NULL) {
      err = dev->backend->function_check(dev, n->cmd.kernel.fn);
      if (err != hipSuccess)
        break;
    }
    err = ah_submit(dev, q, &n->cmd, 0);
  }
  pthread_mutex_unlock(&x->lock);
  return err;
}

hipError_t ah_gexec_set_event(struct ah_gexec *x, const struct ah_gnode *n, hipEvent_t ev) {
  hipError_t err = hipErrorInvalidValue;

  pthread_mutex_lock(&x->lock);
  for (size_t i = 0; i < x->n; i++)
    if (x->nodes[i].src == n && x->nodes[i].type == n->type) {
      x->nodes[i].event = ev;
      err = hipSuccess;
      break;
    }
  pthread_mutex_unlock(&x->lock);
  return err;
}

hipError_t ah_gexec_set_cmd(struct ah_gexec *x, const struct ah_gnode *n,
                            const struct ah_cmd *cmd) {
  hipError_t err = hipErrorInvalidValue;

  pthread_mutex_lock(&x->lock);
  for (size_t i = 0; i < x->n; i++) {
    struct ah_xnode *d = &x->nodes[i];
    unsigned char *buf;
    void **argv;
    struct ah_cmd c;

    if (d->src != n)
      continue;
    if (d->type != n->type || d->cmd.kind != cmd->kind)
      break;
    err = copy_cmd(&c, cmd, &buf, &argv);
    if (err == hipSuccess) {
      free(d->argbuf);
      free(d->argv);
      d->cmd = c;
      d->argbuf = buf;
      d->argv = argv;
    }
    break;
  }
  pthread_mutex_unlock(&x->lock);
  return err;
}

/* ---- graph memory ---- */

#define GMEM_DEVS 64 /* devices whose graph-memory use is counted */

static pthread_mutex_t gmem_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t gmem_used[GMEM_DEVS], gmem_high[GMEM_DEVS];

static void gmem_count(struct ah_device *dev, size_t bytes, int add) {
  if (dev->ordinal < 0 || dev->ordinal >= GMEM_DEVS)
    return;
  pthread_mutex_lock(&gmem_lock);
  if (add) {
    gmem_used[dev->ordinal] += bytes;
    if (gmem_used[dev->ordinal] > gmem_high[dev->ordinal])
      gmem_high[dev->ordinal] = gmem_used[dev->ordinal];
  } else {
    gmem_used[dev->ordinal] -= bytes;
  }
  pthread_mutex_unlock(&gmem_lock);
}

hipError_t ah_gmem_create(struct ah_device *dev, size_t bytes, struct ah_gmem **out) {
  struct ah_gmem *m = calloc(1, sizeof(*m));
  struct ah_mempool *pool;
  hipError_t err;

  if (m == NULL)
    return hipErrorOutOfMemory;
  err = ah_mempool_default(dev, &pool);
  /* No queue: only blocks whose free has completed, as any stream may use it. */
  if (err == hipSuccess)
    err = ah_mempool_alloc(pool, bytes, dev, NULL, &m->ptr);
  if (err != hipSuccess) {
    free(m);
    return err;
  }
  atomic_init(&m->refs, 1);
  m->dev = dev;
  m->bytes = bytes;
  gmem_count(dev, bytes, 1);
  *out = m;
  return hipSuccess;
}

struct ah_gmem *ah_gmem_ref(struct ah_gmem *m) {
  if (m != NULL)
    atomic_fetch_add(&m->refs, 1);
  return m;
}

void ah_gmem_release(struct ah_gmem *m) {
  if (m == NULL || atomic_fetch_sub(&m->refs, 1) != 1)
    return;
  /* Given back in the null stream's order, after work queued there (a
   * launch still running on a blocking stream). After a hipDeviceReset the
   * pool already took it back and the free finds nothing. */
  (void)ah_mempool_free(m->ptr, m->dev, m->dev->null_queue);
  gmem_count(m->dev, m->bytes, 0);
  free(m);
}

struct ah_gmem *ah_graph_find_mem(struct ah_graph *g, const void *ptr) {
  struct ah_gmem *m = NULL;

  pthread_mutex_lock(&g->lock);
  for (size_t i = 0; i < g->n && m == NULL; i++)
    if (g->nodes[i]->type == hipGraphNodeTypeMemAlloc && g->nodes[i]->mem != NULL &&
        g->nodes[i]->mem->ptr == ptr)
      m = ah_gmem_ref(g->nodes[i]->mem);
  pthread_mutex_unlock(&g->lock);
  return m;
}

hipError_t ah_graph_add_mem(struct ah_graph *g, hipGraphNodeType type, struct ah_gmem *m,
                            struct ah_gnode *const *deps, size_t ndeps, struct ah_gnode **out) {
  hipError_t err = ah_graph_add(g, type, NULL, deps, ndeps, out);

  if (err == hipSuccess)
    (*out)->mem = ah_gmem_ref(m); /* set before anyone else can see the node */
  return err;
}

uint64_t ah_gmem_attr(struct ah_device *dev, int attr) {
  uint64_t v = 0;

  if (dev->ordinal < 0 || dev->ordinal >= GMEM_DEVS)
    return 0;
  pthread_mutex_lock(&gmem_lock);
  /* Graph memory is reserved and used alike for the graph's life. */
  v = attr == hipGraphMemAttrUsedMemHigh || attr == hipGraphMemAttrReservedMemHigh
          ? gmem_high[dev->ordinal]
          : gmem_used[dev->ordinal];
  pthread_mutex_unlock(&gmem_lock);
  return v;
}

void ah_gmem_reset_high(struct ah_device *dev, int attr) {
  (void)attr;
  if (dev->ordinal < 0 || dev->ordinal >= GMEM_DEVS)
    return;
  pthread_mutex_lock(&gmem_lock);
  gmem_high[dev->ordinal] = gmem_used[dev->ordinal];
  pthread_mutex_unlock(&gmem_lock);
}
