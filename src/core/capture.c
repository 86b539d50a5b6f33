/* SPDX-License-Identifier: MIT */
/* Stream capture: while a stream captures, commands queued on it
 * (ah_submit) become nodes of a graph that depend on the stream's previous
 * ones instead of running; events recorded and waited for during capture
 * carry those dependencies across streams (fork and join), hipMallocAsync and
 * hipFreeAsync become graph memory nodes, and calls that would synchronize
 * with captured work are refused and invalidate it. */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

/* One capturing stream. The stream that began the capture is its origin;
 * streams that waited for an event recorded during the capture join it. */
struct capture {
  struct ah_queue *q;
  struct ah_device *dev;
  struct ah_graph *graph;
  hipStreamCaptureMode mode;
  pthread_t thread; /* the thread that began the capture */
  unsigned long long id;
  int *invalid;     /* shared by every stream of one capture */
  int origin;
  int owned;        /* origin: the capture made its graph (not hipStreamBeginCaptureToGraph) */
  struct ah_gnode **leaves; /* what the stream's next node depends on */
  size_t nleaves, cap;
  struct capture *next;
};

/* An event recorded on a capturing stream: the nodes before the record. */
struct cevent {
  struct ah_event *e;
  struct ah_graph *graph;
  struct ah_gnode **nodes;
  size_t n;
  struct cevent *next;
};

atomic_int ah_capture_count;
static pthread_mutex_t cap_lock = PTHREAD_MUTEX_INITIALIZER; /* before any graph->lock */
static struct capture *caps;
static struct cevent *cevents;
static unsigned long long next_id = 1;

/* cap_lock held, as for every helper below. */
static struct capture *find(struct ah_queue *q) {
  for (struct capture *c = caps; c != NULL; c = c->next)
    if (c->q == q)
      return c;
  return NULL;
}

static struct cevent *find_event(struct ah_event *e) {
  for (struct cevent *v = cevents; v != NULL; v = v->next)
    if (v->e == e)
      return v;
  return NULL;
}

static void drop_event(struct ah_event *e) {
  for (struct cevent **p = &cevents; *p != NULL; p = &(*p)->next)
    if ((*p)->e == e) {
      struct cevent *v = *p;

      *p = v->next;
      free(v->nodes);
      free(v);
      return;
    }
}

/* Adds nodes to c's leaves, skipping ones it has. */
static hipError_t add_leaves(struct capture *c, struct ah_gnode *const *nodes, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t j = 0;

    while (j < c->nleaves && c->leaves[j] != nodes[i])
      j++;
    if (j < c->nleaves)
      continue;
    if (c->nleaves == c->cap) {
      size_t ncap = c->cap != 0 ? 2 * c->cap : 4;
      struct ah_gnode **nl = realloc(c->leaves, ncap * sizeof(*nl));

      if (nl == NULL)
        return hipErrorOutOfMemory;
      c->leaves = nl;
      c->cap = ncap;
    }
    c->leaves[c->nleaves++] = nodes[i];
  }
  return hipSuccess;
}

static void unlink_capture(struct capture *c) {
  for (struct capture **p = &caps; *p != NULL; p = &(*p)->next)
    if (*p == c) {
      *p = c->next;
      break;
    }
  if (c->origin)
    free(c->invalid);
  free(c->leaves);
  free(c);
  atomic_fetch_sub(&ah_capture_count, 1);
}

/* Ends every stream's part of the capture into g, and forgets its events. */
static void end_all(struct ah_graph *g) {
  struct capture *origin = NULL;

  for (struct capture *c = caps, *nx; c != NULL; c = nx) {
    nx = c->next;
    if (c->graph != g)
      continue;
    if (c->origin)
      origin = c; /* last: the others share its invalid flag */
    else
      unlink_capture(c);
  }
  if (origin != NULL)
    unlink_capture(origin);
  for (struct cevent **p = &cevents; *p != NULL;) {
    struct cevent *v = *p;

    if (v->graph == g) {
      *p = v->next;
      free(v->nodes);
      free(v);
    } else {
      p = &v->next;
    }
  }
}

/* The calling thread's mode for unsafe calls (hipThreadExchangeStreamCaptureMode). */
static _Thread_local hipStreamCaptureMode thread_mode = hipStreamCaptureModeGlobal;

/* Whether capture k forbids the calling thread unsafe calls (work on the
 * null stream), by CUDA's rules, which HIP follows: a capture this thread
 * began that is not Relaxed, or another thread's Global capture while this
 * thread's own mode is Global; a thread in Relaxed mode is never stopped. */
static int forbids(const struct capture *k) {
  if (thread_mode == hipStreamCaptureModeRelaxed)
    return 0;
  if (pthread_equal(k->thread, pthread_self()))
    return k->mode != hipStreamCaptureModeRelaxed;
  return thread_mode == hipStreamCaptureModeGlobal && k->mode == hipStreamCaptureModeGlobal;
}

hipStreamCaptureMode ah_capture_exchange_mode(hipStreamCaptureMode mode) {
  hipStreamCaptureMode old = thread_mode;

  thread_mode = mode;
  return old;
}

/* Whether work on the null stream must be refused now (HIP's rule that
 * synchronous calls on the default stream fail during capture). Marks the
 * captures that forbid it invalid, as HIP does. */
static int null_forbidden(void) {
  int hit = 0;

  for (struct capture *c = caps; c != NULL; c = c->next) {
    if (forbids(c)) {
      *c->invalid = 1;
      hit = 1;
    }
  }
  return hit;
}

static hipGraphNodeType node_type(enum ah_cmd_kind k) {
  switch (k) {
  case AH_CMD_KERNEL:
    return hipGraphNodeTypeKernel;
  case AH_CMD_SET:
    return hipGraphNodeTypeMemset;
  case AH_CMD_HOST_FN:
    return hipGraphNodeTypeHost;
  default:
    return hipGraphNodeTypeMemcpy;
  }
}

hipError_t ah_capture_submit(struct ah_device *dev, struct ah_queue *q, const struct ah_cmd *cmd,
                             int wait) {
  struct capture *c;
  struct ah_gnode *n;
  hipError_t err;

  pthread_mutex_lock(&cap_lock);
  c = find(q);
  if (c == NULL) {
    int forbid = q == dev->null_queue && null_forbidden();

    pthread_mutex_unlock(&cap_lock);
    if (forbid) /* synchronous or not, an implicit use of the null stream (AMD's code) */
      return hipErrorStreamCaptureImplicit;
    return dev->backend->submit(dev, q, cmd, wait);
  }
  /* Captured work does not run, so `wait` (a pageable copy's) has nothing
   * to wait for; the node runs when the graph is launched. */
  if (*c->invalid) {
    pthread_mutex_unlock(&cap_lock);
    return hipErrorStreamCaptureInvalidated;
  }
  if (cmd->kind == AH_CMD_KERNEL && cmd->kernel.sig == NULL) {
    /* hipLaunchKernel of a kernel hipcc did not register: its arguments
     * cannot be copied into a node. */
    err = hipErrorStreamCaptureUnsupported;
  } else {
    struct ah_gspec spec = {.type = node_type(cmd->kind), .cmd = *cmd};

    err = ah_graph_add(c->graph, &spec, c->leaves, c->nleaves, &n);
  }
  if (err == hipSuccess) {
    c->nleaves = 0;
    err = add_leaves(c, &n, 1);
  }
  if (err != hipSuccess)
    *c->invalid = 1;
  pthread_mutex_unlock(&cap_lock);
  return err;
}

hipError_t ah_capture_event_record(struct ah_queue *q, struct ah_event *e, int *done) {
  struct capture *c;
  struct cevent *v;
  hipError_t err = hipSuccess;

  *done = 0;
  pthread_mutex_lock(&cap_lock);
  c = find(q);
  drop_event(e); /* a new record replaces what the event stood for */
  if (c != NULL) {
    *done = 1;
    v = calloc(1, sizeof(*v));
    if (v != NULL && c->nleaves != 0)
      v->nodes = malloc(c->nleaves * sizeof(*v->nodes));
    if (v == NULL || (c->nleaves != 0 && v->nodes == NULL)) {
      free(v);
      *c->invalid = 1;
      err = hipErrorOutOfMemory;
    } else {
      v->e = e;
      v->graph = c->graph;
      v->n = c->nleaves;
      if (v->n != 0)
        memcpy(v->nodes, c->leaves, v->n * sizeof(*v->nodes));
      v->next = cevents;
      cevents = v;
    }
  }
  pthread_mutex_unlock(&cap_lock);
  return err;
}

hipError_t ah_capture_wait_event(struct ah_device *dev, struct ah_queue *q, struct ah_event *e,
                                 int *done) {
  struct capture *c, *o;
  struct cevent *v;
  hipError_t err = hipSuccess;

  *done = 0;
  pthread_mutex_lock(&cap_lock);
  c = find(q);
  v = find_event(e);
  if (v != NULL && c != NULL) {
    *done = 1;
    if (c->graph != v->graph)
      err = hipErrorStreamCaptureIsolation; /* two captures cannot be merged */
    else
      err = add_leaves(c, v->nodes, v->n);
  } else if (v != NULL) {
    /* The stream joins the capture (a fork): its next work depends on the
     * nodes before the record. Find the capture's origin for its mode. */
    *done = 1;
    for (o = caps; o != NULL && !(o->graph == v->graph && o->origin); o = o->next)
      ;
    c = calloc(1, sizeof(*c));
    if (o == NULL || c == NULL) {
      free(c);
      err = o == NULL ? hipErrorStreamCaptureInvalidated : hipErrorOutOfMemory;
    } else {
      *c = (struct capture){.q = q, .dev = dev, .graph = v->graph, .mode = o->mode,
                            .thread = o->thread, .id = o->id, .invalid = o->invalid};
      err = add_leaves(c, v->nodes, v->n);
      if (err != hipSuccess) {
        free(c->leaves);
        free(c);
      } else {
        c->next = caps;
        caps = c;
        atomic_fetch_add(&ah_capture_count, 1);
      }
    }
  } else if (c != NULL) {
    /* An event recorded outside the capture: the graph cannot wait for
     * it, and it completed or will complete before any launch of the
     * graph can start on this stream's order; nothing to add. */
    *done = 1;
  }
  pthread_mutex_unlock(&cap_lock);
  return err;
}

hipError_t ah_capture_check_sync(struct ah_queue *q) {
  struct capture *c;

  if (atomic_load(&ah_capture_count) == 0)
    return hipSuccess;
  pthread_mutex_lock(&cap_lock);
  c = find(q);
  if (c != NULL)
    *c->invalid = 1;
  pthread_mutex_unlock(&cap_lock);
  return c != NULL ? hipErrorStreamCaptureUnsupported : hipSuccess;
}

hipError_t ah_capture_begin(struct ah_device *dev, struct ah_queue *q, hipStreamCaptureMode mode,
                            struct ah_graph *into, struct ah_gnode *const *deps, size_t ndeps) {
  struct capture *c = calloc(1, sizeof(*c));
  int *invalid = calloc(1, sizeof(int));
  struct ah_graph *g = into;
  hipError_t err = hipSuccess;

  if (c == NULL || invalid == NULL || (g == NULL && ah_graph_create(&g) != hipSuccess)) {
    free(c);
    free(invalid);
    return hipErrorOutOfMemory;
  }
  *c = (struct capture){.q = q, .dev = dev, .graph = g, .mode = mode, .thread = pthread_self(),
                        .invalid = invalid, .origin = 1, .owned = into == NULL};
  pthread_mutex_lock(&cap_lock);
  if (find(q) != NULL) {
    err = hipErrorIllegalState;
  } else if (into != NULL) {
    /* One capture at a time into a user's graph: ending it ends its streams. */
    for (struct capture *k = caps; k != NULL; k = k->next)
      if (k->graph == into)
        err = hipErrorIllegalState;
  }
  if (err == hipSuccess)
    err = add_leaves(c, deps, ndeps);
  if (err != hipSuccess) {
    pthread_mutex_unlock(&cap_lock);
    if (into == NULL)
      ah_graph_destroy(g);
    free(c->leaves);
    free(c);
    free(invalid);
    return err;
  }
  c->id = next_id++;
  c->next = caps;
  caps = c;
  atomic_fetch_add(&ah_capture_count, 1);
  pthread_mutex_unlock(&cap_lock);
  return hipSuccess;
}

/* Whether every stream that joined the capture into o->graph came back:
 * each of its last nodes must be the origin's last node or come before one
 * (a walk back from o's leaves over the dependencies). cap_lock held. */
static int all_joined(struct capture *o) {
  struct ah_graph *g = o->graph;
  char *seen;
  size_t *stack, top = 0;
  int ok = 1, joined = 0;

  for (struct capture *c = caps; c != NULL; c = c->next)
    joined |= c->graph == g && !c->origin;
  if (!joined)
    return 1;
  pthread_mutex_lock(&g->lock);
  seen = calloc(g->n + 1, 1);
  stack = malloc((g->n + 1) * sizeof(*stack));
  if (seen == NULL || stack == NULL) {
    pthread_mutex_unlock(&g->lock);
    free(seen);
    free(stack);
    return 1; /* cannot tell: do not fail a capture for want of memory */
  }
  for (size_t i = 0; i < o->nleaves; i++)
    if (!seen[o->leaves[i]->index]) {
      seen[o->leaves[i]->index] = 1;
      stack[top++] = o->leaves[i]->index;
    }
  while (top > 0) {
    struct ah_gnode *n = g->nodes[stack[--top]];

    for (size_t j = 0; j < n->ndeps; j++)
      if (!seen[n->deps[j]->index]) {
        seen[n->deps[j]->index] = 1;
        stack[top++] = n->deps[j]->index;
      }
  }
  for (struct capture *c = caps; c != NULL && ok; c = c->next)
    if (c->graph == g && !c->origin)
      for (size_t i = 0; i < c->nleaves; i++)
        if (!seen[c->leaves[i]->index])
          ok = 0;
  pthread_mutex_unlock(&g->lock);
  free(seen);
  free(stack);
  return ok;
}

hipError_t ah_capture_end(struct ah_queue *q, struct ah_graph **out) {
  struct capture *c;
  struct ah_graph *g;
  int invalid, owned;

  *out = NULL;
  pthread_mutex_lock(&cap_lock);
  c = find(q);
  if (c == NULL || !c->origin) {
    pthread_mutex_unlock(&cap_lock);
    return c == NULL ? hipErrorIllegalState : hipErrorStreamCaptureUnmatched;
  }
  if (c->mode != hipStreamCaptureModeRelaxed && !pthread_equal(c->thread, pthread_self())) {
    pthread_mutex_unlock(&cap_lock);
    return hipErrorStreamCaptureWrongThread;
  }
  g = c->graph;
  owned = c->owned;
  invalid = *c->invalid ? 1 : !all_joined(c) ? 2 : 0;
  end_all(g);
  pthread_mutex_unlock(&cap_lock);
  if (invalid) {
    if (owned) /* a user's graph stays theirs, with what was captured into it */
      ah_graph_destroy(g);
    return invalid == 1 ? hipErrorStreamCaptureInvalidated : hipErrorStreamCaptureUnjoined;
  }
  *out = g;
  return hipSuccess;
}

hipError_t ah_capture_update_deps(struct ah_queue *q, struct ah_gnode *const *deps, size_t n,
                                  int set) {
  struct capture *c;
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&cap_lock);
  c = find(q);
  if (c == NULL) {
    err = hipErrorIllegalState;
  } else if (*c->invalid) {
    err = hipErrorStreamCaptureInvalidated;
  } else {
    for (size_t i = 0; i < n && err == hipSuccess; i++)
      if (deps[i]->graph != c->graph)
        err = hipErrorInvalidValue;
    if (err == hipSuccess) {
      if (set)
        c->nleaves = 0;
      err = add_leaves(c, deps, n);
    }
  }
  pthread_mutex_unlock(&cap_lock);
  return err;
}

hipError_t ah_capture_info(struct ah_device *dev, struct ah_queue *q,
                           hipStreamCaptureStatus *status, unsigned long long *id,
                           struct ah_graph **graph, struct ah_gnode *const **deps, size_t *ndeps) {
  struct capture *c;
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&cap_lock);
  c = find(q);
  if (c == NULL) {
    /* Asking about the null stream while a capture forbids its use is
     * itself an implicit use (CUDA's rule; HIP's header lists the code). */
    if (q == dev->null_queue) {
      for (struct capture *k = caps; k != NULL; k = k->next)
        if (forbids(k))
          err = hipErrorStreamCaptureImplicit;
    }
    *status = hipStreamCaptureStatusNone;
    if (deps != NULL)
      *deps = NULL;
    if (ndeps != NULL)
      *ndeps = 0;
  } else {
    *status = *c->invalid ? hipStreamCaptureStatusInvalidated : hipStreamCaptureStatusActive;
    if (id != NULL)
      *id = c->id;
    if (graph != NULL)
      *graph = c->graph;
    if (deps != NULL)
      *deps = c->leaves;
    if (ndeps != NULL)
      *ndeps = c->nleaves;
  }
  pthread_mutex_unlock(&cap_lock);
  return err;
}

void ah_capture_drop(struct ah_queue *q) {
  struct capture *c;
  struct ah_graph *g = NULL;

  if (atomic_load(&ah_capture_count) == 0)
    return;
  pthread_mutex_lock(&cap_lock);
  c = find(q);
  if (c != NULL && c->origin) {
    g = c->owned ? c->graph : NULL;
    end_all(c->graph);
  } else if (c != NULL) {
    *c->invalid = 1; /* the capture lost a stream that had to join back */
    unlink_capture(c);
  }
  pthread_mutex_unlock(&cap_lock);
  if (g != NULL)
    ah_graph_destroy(g);
}

hipError_t ah_capture_check_unsafe(void) {
  int hit;

  if (atomic_load(&ah_capture_count) == 0)
    return hipSuccess;
  pthread_mutex_lock(&cap_lock);
  hit = null_forbidden(); /* the same captures that forbid the null stream */
  pthread_mutex_unlock(&cap_lock);
  return hit ? hipErrorStreamCaptureUnsupported : hipSuccess;
}

hipError_t ah_capture_check_device_sync(void) {
  int hit;

  if (atomic_load(&ah_capture_count) == 0)
    return hipSuccess;
  pthread_mutex_lock(&cap_lock);
  hit = null_forbidden();
  /* The thread's own Relaxed captures refuse it too (AMD), without being
   * invalidated; a thread in Relaxed mode is still never stopped. */
  for (struct capture *c = caps; c != NULL && !hit; c = c->next)
    hit = thread_mode != hipStreamCaptureModeRelaxed && pthread_equal(c->thread, pthread_self());
  pthread_mutex_unlock(&cap_lock);
  return hit ? hipErrorStreamCaptureUnsupported : hipSuccess;
}

hipError_t ah_capture_check_event(struct ah_event *e) {
  struct cevent *v;
  int hit = 0;

  if (atomic_load(&ah_capture_count) == 0)
    return hipSuccess;
  pthread_mutex_lock(&cap_lock);
  v = find_event(e); /* records of ended captures are gone (end_all) */
  if (v != NULL) {
    for (struct capture *c = caps; c != NULL; c = c->next)
      if (c->graph == v->graph && c->origin) {
        *c->invalid = 1;
        hit = 1;
      }
  }
  pthread_mutex_unlock(&cap_lock);
  return hit ? hipErrorCapturedEvent : hipSuccess;
}

void ah_capture_drop_device(struct ah_device *dev) {
  for (;;) {
    struct ah_queue *q = NULL;

    if (atomic_load(&ah_capture_count) == 0)
      return;
    pthread_mutex_lock(&cap_lock);
    for (struct capture *c = caps; c != NULL && q == NULL; c = c->next)
      if (c->dev == dev)
        q = c->q;
    pthread_mutex_unlock(&cap_lock);
    if (q == NULL)
      return;
    ah_capture_drop(q); /* a joined stream's drop unlinks it, so the loop ends */
  }
}

/* Adds a memory node of m to c's graph after c's leaves. cap_lock held. */
static hipError_t add_mem_node(struct capture *c, hipGraphNodeType type, struct ah_gmem *m) {
  struct ah_gnode *n;
  hipError_t err = ah_graph_add_mem(c->graph, type, m, c->leaves, c->nleaves, &n);

  if (err == hipSuccess) {
    c->nleaves = 0;
    err = add_leaves(c, &n, 1);
  }
  return err;
}

/* For a call that becomes a memory node: *c is q's live capture, with
 * cap_lock held, or NULL (nothing held) when q is not capturing or its
 * capture is invalidated (then *done is set and the error says so). */
static hipError_t lock_live(struct ah_queue *q, int *done, struct capture **c) {
  *done = 0;
  *c = NULL;
  if (atomic_load(&ah_capture_count) == 0)
    return hipSuccess;
  pthread_mutex_lock(&cap_lock);
  *c = find(q);
  if (*c == NULL) {
    pthread_mutex_unlock(&cap_lock);
    return hipSuccess;
  }
  *done = 1;
  if (*(*c)->invalid) {
    *c = NULL;
    pthread_mutex_unlock(&cap_lock);
    return hipErrorStreamCaptureInvalidated;
  }
  return hipSuccess;
}

hipError_t ah_capture_malloc(struct ah_queue *q, struct ah_device *dev, size_t bytes, void **out,
                             int *done) {
  struct capture *c;
  struct ah_gmem *m = NULL;
  hipError_t err = lock_live(q, done, &c);

  if (c == NULL)
    return err;
  /* The block is reserved now: the captured work that follows uses its
   * address, which stays the same at every launch of the graph. */
  err = ah_gmem_create(dev, bytes, &m);
  if (err == hipSuccess)
    err = add_mem_node(c, hipGraphNodeTypeMemAlloc, m);
  if (err == hipSuccess)
    *out = m->ptr;
  else
    *c->invalid = 1;
  pthread_mutex_unlock(&cap_lock);
  ah_gmem_release(m); /* the node holds its own reference */
  return err;
}

hipError_t ah_capture_free(struct ah_queue *q, void *ptr, int *done) {
  struct capture *c;
  struct ah_gmem *m = NULL;
  hipError_t err = lock_live(q, done, &c);

  if (c == NULL)
    return err;
  /* Only the capture's own graph memory can be freed by the graph. */
  m = ah_graph_find_mem(c->graph, ptr);
  err = m == NULL ? hipErrorStreamCaptureUnsupported
                  : add_mem_node(c, hipGraphNodeTypeMemFree, m);
  if (err != hipSuccess)
    *c->invalid = 1;
  pthread_mutex_unlock(&cap_lock);
  ah_gmem_release(m);
  return err;
}
