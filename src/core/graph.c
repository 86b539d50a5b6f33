/* SPDX-License-Identifier: MIT */
/* HIP graphs, backend-neutral: building them. A graph node stores its spec
 * (struct ah_gspec: the node type and its resolved parameters, the backend
 * command it stands for); one copy function serves adding, setting,
 * cloning and instantiating every kind of node. Also user objects and graph
 * memory. Executable graphs are in graph_exec.c, stream capture, which
 * builds graphs from queued work, in capture.c. */
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
  ah_gspec_fini(&n->s);
  free(n->deps);
  free(n);
}

int ah_gspec_no_cmd(hipGraphNodeType t) {
  return t == hipGraphNodeTypeEmpty || t == hipGraphNodeTypeMemAlloc ||
         t == hipGraphNodeTypeMemFree || t == hipGraphNodeTypeGraph || ah_gspec_has_ops(t);
}

void ah_graph_destroy(struct ah_graph *g) {
  for (size_t i = 0; i < g->n; i++)
    node_free(g->nodes[i]);
  free(g->nodes);
  ah_urefs_release(g->urefs, g->nurefs);
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

hipError_t ah_gspec_copy(struct ah_gspec *dst, const struct ah_gspec *src, int clone_child) {
  hipError_t err = hipSuccess;

  *dst = *src;
  dst->argbuf = NULL;
  dst->argv = NULL;
  dst->child = NULL;
  dst->ops = NULL;
  if (src->ops != NULL) {
    if ((dst->ops = malloc(src->ops_bytes)) == NULL)
      return hipErrorOutOfMemory;
    memcpy(dst->ops, src->ops, src->ops_bytes);
  }
  if (!ah_gspec_no_cmd(src->type) && src->cmd.kind == AH_CMD_KERNEL) {
    if (src->cmd.kernel.sig == NULL)
      return hipErrorInvalidDeviceFunction;
    err = copy_args(src->cmd.kernel.sig, src->cmd.kernel.args, &dst->argbuf, &dst->argv);
    if (err != hipSuccess) {
      free(dst->ops);
      return err;
    }
    dst->cmd.kernel.args = dst->argv;
  }
  if (clone_child && src->child != NULL) {
    err = ah_graph_clone(src->child, &dst->child);
    if (err != hipSuccess) {
      free(dst->argbuf);
      free(dst->argv);
      free(dst->ops);
      return err;
    }
    dst->child->embedded = 1;
  }
  dst->mem = ah_gmem_ref(src->mem);
  return hipSuccess;
}

void ah_gspec_fini(struct ah_gspec *s) {
  free(s->argbuf);
  free(s->argv);
  if (s->child != NULL)
    ah_graph_destroy(s->child);
  ah_gmem_release(s->mem);
  free(s->ops);
  s->argbuf = NULL;
  s->argv = NULL;
  s->child = NULL;
  s->mem = NULL;
  s->ops = NULL;
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

hipError_t ah_graph_add(struct ah_graph *g, const struct ah_gspec *spec,
                        struct ah_gnode *const *deps, size_t ndeps, struct ah_gnode **out) {
  struct ah_gnode *n = calloc(1, sizeof(*n));
  hipError_t err;

  if (n == NULL)
    return hipErrorOutOfMemory;
  n->graph = g;
  if ((err = ah_gspec_copy(&n->s, spec, 1)) != hipSuccess) {
    free(n);
    return err;
  }
  err = ah_object_init(&n->obj, AH_KIND_GRAPH_NODE);
  if (err != hipSuccess) {
    ah_gspec_fini(&n->s);
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

hipError_t ah_graph_resolve(struct ah_graph *g, const hipGraphNode_t *handles, size_t n,
                            struct ah_gnode ***out) {
  struct ah_gnode **d;

  *out = NULL;
  if (n == 0)
    return hipSuccess;
  if (handles == NULL || n > SIZE_MAX / sizeof(*d))
    return hipErrorInvalidValue;
  d = malloc(n * sizeof(*d));
  if (d == NULL)
    return hipErrorOutOfMemory;
  for (size_t i = 0; i < n; i++) {
    d[i] = ah_gnode_lookup(handles[i]);
    if (d[i] == NULL || d[i]->graph != g) {
      free(d);
      return hipErrorInvalidValue;
    }
  }
  *out = d;
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

    /* The clone shares a memory node's block and its address. */
    err = ah_graph_add(c, &s->s, NULL, 0, &n);
    if (err == hipSuccess)
      n->cloned_from = s;
  }
  if (err == hipSuccess)
    err = ah_urefs_copy(g->urefs, g->nurefs, &c->urefs);
  if (err == hipSuccess)
    c->nurefs = g->nurefs;
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

void ah_gnode_get(struct ah_gnode *n, struct ah_gspec *out) {
  pthread_mutex_lock(&n->graph->lock);
  *out = n->s;
  pthread_mutex_unlock(&n->graph->lock);
}

hipError_t ah_gnode_set(struct ah_gnode *n, const struct ah_gspec *spec) {
  struct ah_gspec c, old;
  hipError_t err = ah_gspec_copy(&c, spec, 1);

  if (err != hipSuccess)
    return err;
  pthread_mutex_lock(&n->graph->lock);
  old = n->s;
  n->s = c;
  pthread_mutex_unlock(&n->graph->lock);
  ah_gspec_fini(&old);
  return hipSuccess;
}

/* ---- user objects ---- */

/* Guards every user object's counts, graphs' and executable graphs' lists
 * of them excepted (their own locks). */
static pthread_mutex_t uobj_lock = PTHREAD_MUTEX_INITIALIZER;

hipError_t ah_uobj_create(void *ptr, void (*destroy)(void *), unsigned long long refs,
                          struct ah_uobj **out) {
  struct ah_uobj *o = calloc(1, sizeof(*o));
  hipError_t err;

  if (o == NULL)
    return hipErrorOutOfMemory;
  err = ah_object_init(&o->obj, AH_KIND_USER_OBJECT);
  if (err != hipSuccess) {
    free(o);
    return err;
  }
  o->ptr = ptr;
  o->destroy = destroy;
  o->refs = refs;
  o->holds = 1; /* the users' */
  *out = o;
  return hipSuccess;
}

struct ah_uobj *ah_uobj_lookup(hipUserObject_t h) {
  return ah_object_cast(h, AH_KIND_USER_OBJECT);
}

void ah_uobj_retain(struct ah_uobj *o, unsigned long long count) {
  pthread_mutex_lock(&uobj_lock);
  if (o->refs != 0) /* once destroyed, an object stays destroyed: a no-op */
    o->refs += count;
  pthread_mutex_unlock(&uobj_lock);
}

/* Objects whose last reference and last holder are gone keep a valid
 * handle for a while (AMD's runtime accepts retains and releases of them,
 * as no-ops, and hip-tests does that): the last DEAD_KEPT are kept, the
 * oldest freed when more die. uobj_lock held. */
#define DEAD_KEPT 1024
static struct ah_uobj *dead[DEAD_KEPT];
static size_t dead_next;

static struct ah_uobj *bury(struct ah_uobj *o) {
  struct ah_uobj *old = dead[dead_next];

  if (o->buried)
    return NULL;
  o->buried = 1;
  dead[dead_next] = o;
  dead_next = (dead_next + 1) % DEAD_KEPT;
  if (old != NULL && old->holds != 0) { /* held again by a graph: buried again when let go */
    old->buried = 0;
    old = NULL;
  }
  return old;
}

/* Drops count references and, when unhold, one hold; runs the destructor
 * when the last reference goes. uobj_lock not held. */
static void uobj_drop(struct ah_uobj *o, unsigned long long count, int unhold) {
  struct ah_uobj *evicted = NULL;
  int destroy = 0;

  pthread_mutex_lock(&uobj_lock);
  if (o->refs != 0) {
    o->refs -= count < o->refs ? count : o->refs;
    if (o->refs == 0) {
      destroy = 1;
      o->holds--; /* the users' hold */
    }
  }
  if (unhold)
    o->holds--;
  if (o->holds == 0 && (destroy || unhold))
    evicted = bury(o);
  pthread_mutex_unlock(&uobj_lock);
  if (destroy)
    o->destroy(o->ptr);
  if (evicted != NULL) {
    ah_object_fini(&evicted->obj);
    free(evicted);
  }
}

void ah_uobj_release(struct ah_uobj *o, unsigned long long count) {
  uobj_drop(o, count, 0);
}

/* g's entry for o, or NULL (g->lock held). */
static struct ah_uref *find_uref(struct ah_graph *g, const struct ah_uobj *o) {
  for (size_t i = 0; i < g->nurefs; i++)
    if (g->urefs[i].o == o)
      return &g->urefs[i];
  return NULL;
}

hipError_t ah_graph_retain_uobj(struct ah_graph *g, struct ah_uobj *o, unsigned long long count,
                                int move) {
  struct ah_uref *r;
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&g->lock);
  r = find_uref(g, o);
  if (r == NULL) {
    struct ah_uref *nr = realloc(g->urefs, (g->nurefs + 1) * sizeof(*nr));

    if (nr == NULL) {
      err = hipErrorOutOfMemory;
    } else {
      g->urefs = nr;
      r = &g->urefs[g->nurefs++];
      r->o = o;
      r->count = 0;
      pthread_mutex_lock(&uobj_lock);
      o->holds++;
      pthread_mutex_unlock(&uobj_lock);
    }
  }
  if (r != NULL) {
    r->count += count;
    if (!move)
      ah_uobj_retain(o, count);
  }
  pthread_mutex_unlock(&g->lock);
  return err;
}

hipError_t ah_graph_release_uobj(struct ah_graph *g, struct ah_uobj *o, unsigned long long count) {
  struct ah_uref *r;
  int gone;

  pthread_mutex_lock(&g->lock);
  r = find_uref(g, o);
  if (r == NULL) { /* none held: nothing to give back (AMD accepts it) */
    pthread_mutex_unlock(&g->lock);
    return hipSuccess;
  }
  if (count > r->count)
    count = r->count;
  r->count -= count;
  gone = r->count == 0;
  if (gone)
    *r = g->urefs[--g->nurefs];
  pthread_mutex_unlock(&g->lock);
  uobj_drop(o, count, gone);
  return hipSuccess;
}

hipError_t ah_urefs_copy(const struct ah_uref *in, size_t n, struct ah_uref **out) {
  *out = NULL;
  if (n == 0)
    return hipSuccess;
  *out = malloc(n * sizeof(**out));
  if (*out == NULL)
    return hipErrorOutOfMemory;
  memcpy(*out, in, n * sizeof(**out));
  pthread_mutex_lock(&uobj_lock);
  for (size_t i = 0; i < n; i++) {
    in[i].o->holds++;
    if (in[i].o->refs != 0)
      in[i].o->refs += in[i].count;
  }
  pthread_mutex_unlock(&uobj_lock);
  return hipSuccess;
}

void ah_urefs_release(struct ah_uref *urefs, size_t n) {
  for (size_t i = 0; i < n; i++)
    uobj_drop(urefs[i].o, urefs[i].count, 1);
  free(urefs);
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
  atomic_init(&m->execs, 0);
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
    if (g->nodes[i]->s.type == hipGraphNodeTypeMemAlloc && g->nodes[i]->s.mem != NULL &&
        g->nodes[i]->s.mem->ptr == ptr)
      m = ah_gmem_ref(g->nodes[i]->s.mem);
  pthread_mutex_unlock(&g->lock);
  return m;
}

hipError_t ah_graph_add_mem(struct ah_graph *g, hipGraphNodeType type, struct ah_gmem *m,
                            struct ah_gnode *const *deps, size_t ndeps, struct ah_gnode **out) {
  struct ah_gspec spec = {.type = type, .mem = m};

  if (type == hipGraphNodeTypeMemAlloc) { /* hipGraphMemAllocNodeGetParams reads these */
    spec.alloc.poolProps.allocType = hipMemAllocationTypePinned;
    spec.alloc.poolProps.location.type = hipMemLocationTypeDevice;
    spec.alloc.poolProps.location.id = m->dev->ordinal;
    spec.alloc.bytesize = m->bytes;
    spec.alloc.dptr = m->ptr;
  }
  return ah_graph_add(g, &spec, deps, ndeps, out); /* the node takes its own reference */
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
