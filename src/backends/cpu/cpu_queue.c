/* SPDX-License-Identifier: MIT */
/* The CPU device's queues and events. Each queue is a FIFO of commands run by
 * its own dispatcher thread (started on first use), so a host function that
 * blocks one stream never stalls another. Ordering across queues is a list of
 * dependencies per command, (queue, sequence number) pairs fixed at submit
 * time: HIP's null-stream rules and hipStreamWaitEvent are both expressed so.
 * A thread that waits for a queue (a synchronize, a synchronous copy) runs the
 * queue's next commands itself rather than sleeping while the dispatcher runs
 * them (help), so "launch, synchronize" costs no thread hand-off.
 * One process-wide lock guards every queue of every CPU device (commands are
 * coarse, and cross-device event waits then need no lock ordering). */
#define _GNU_SOURCE /* pthread_setname_np */
#include "cpu_internal.h"
#include "../host_ops.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A dispatcher with nothing to do for this long exits. */
#define AH_CPU_IDLE_EXIT_S 2

/* Internal command kinds beyond enum ah_cmd_kind. */
enum { OP_RECORD = 100, OP_MARKER };

struct cq;

/* "Wait until queue q has completed its command number seq." */
struct dep {
  struct cq *q;
  uint64_t seq;
};

struct cpu_event {
  unsigned flags;
  int refs;     /* the user's, plus one per pending record command */
  struct cq *q; /* queue of the latest record (a reference), NULL if never recorded */
  uint64_t seq; /* that record's command number in q */
  uint64_t gen; /* number of records so far; a record stamps only if still the latest */
  uint64_t ns;  /* CLOCK_MONOTONIC time at which the latest record ran */
};

struct qcmd {
  struct qcmd *next;
  int op; /* enum ah_cmd_kind or OP_* */
  uint64_t seq;
  struct ah_cmd cmd;    /* a copy; kernel args point into this allocation */
  struct cpu_event *ev; /* OP_RECORD */
  uint64_t ev_gen;
  unsigned ndeps;
  struct dep *deps;
  size_t stack_size; /* a kernel's fiber stacks: hipLimitStackSize when launched */
  size_t printf_fifo; /* its buffered printf's bytes: hipLimitPrintfFifoSize when launched */
};

struct cq {
  struct ah_cpu_queues *dq;
  struct cq *next; /* in dq->list while it has work or the user holds it */
  unsigned flags;  /* hipStreamNonBlocking */
  int priority;
  int is_null;
  struct qcmd *head, *tail;
  uint64_t submitted; /* number of the last command submitted */
  uint64_t completed; /* number of the last command completed (in order) */
  int busy;           /* a command is running (dispatcher or inline) */
  int closing;        /* the user destroyed it; finish the work, then go */
  int in_list;
  int thread_started;
  int refs;            /* user, dispatcher thread, dependencies, events, waiters */
  int waiters;         /* threads sleeping on `done` */
  int helpers;         /* threads in wait_seq that run q's commands (help) */
  uint64_t wake_at;    /* the smallest command number one of them waits for */
  pthread_cond_t work; /* new command, or closing */
  pthread_cond_t done; /* command number wake_at completed */
};

struct ah_cpu_queues {
  struct ah_cpu_device *cd;
  struct cq *null_q;
  struct cq *list;      /* every queue of the device, the null queue included */
  hipError_t sticky;    /* first kernel fault; reported until the device is reset */
  hipError_t async_err; /* another kernel failure; reported once by the next sync */
};

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ns(void) {
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct ah_cpu_queues *dev_queues(struct ah_device *dev) {
  return ((struct ah_cpu_device *)dev->impl)->queues;
}

/* The seam's queues and events (backend.h) are this file's struct cq and
 * struct cpu_event. */
static struct cq *CQ(struct ah_queue *q) {
  return (struct cq *)q;
}

static struct cpu_event *CEV(struct ah_dev_event *ev) {
  return (struct cpu_event *)ev;
}

/* ---- queue lifetime (qlock held) ---- */

static void cq_unlink(struct cq *q) {
  struct cq **pp = &q->dq->list;

  while (*pp != NULL && *pp != q)
    pp = &(*pp)->next;
  if (*pp == q)
    *pp = q->next;
  q->in_list = 0;
}

static void cq_unref(struct cq *q) {
  if (--q->refs > 0)
    return;
  if (q->in_list)
    cq_unlink(q);
  pthread_cond_destroy(&q->work);
  pthread_cond_destroy(&q->done);
  free(q);
}

static int cq_drained(const struct cq *q) {
  return q->head == NULL && !q->busy;
}

static int cq_pending(const struct cq *q) {
  return q->completed < q->submitted;
}

/* The error a sync reports: the sticky fault, else a one-time failure. */
static hipError_t take_error(struct ah_cpu_queues *dq) {
  hipError_t err = dq->async_err;

  if (dq->sticky != hipSuccess)
    return dq->sticky;
  dq->async_err = hipSuccess;
  return err;
}

static hipError_t run_inline(struct cq *q, struct qcmd *c);

static int deps_met(const struct qcmd *c) {
  for (unsigned i = 0; i < c->ndeps; i++)
    if (c->deps[i].q->completed < c->deps[i].seq)
      return 0;
  return 1;
}

/* A thread about to sleep until q gets further runs q's next command itself
 * when it may: q is not running one, and the command's dependencies are met
 * (so the helper never blocks on another queue while q looks busy). Host
 * functions stay on the stream's thread, as a program may expect. This turns
 * "launch, then synchronize" into no thread hand-off at all: the waiter does
 * not sleep until the dispatcher wakes, runs and wakes it back (two futex
 * wake-ups, 10-100 us on a loaded machine). qlock held; returns 0 when there
 * was nothing to take. */
static int help(struct cq *q) {
  struct qcmd *c = q->head;

  if (c == NULL || q->busy || c->op == AH_CMD_HOST_FN || !deps_met(c))
    return 0;
  q->head = c->next;
  if (q->head == NULL)
    q->tail = NULL;
  run_inline(q, c);
  return 1;
}

/* Wakes q's dispatcher when it has a command to run that no helper takes. */
static void kick(struct cq *q) {
  if (q->head != NULL && !q->busy)
    pthread_cond_signal(&q->work);
}

/* Sleeps until q has completed its command number seq (qlock held; the
 * caller holds a reference on q), running q's commands itself meanwhile
 * when `may_help` (see help). Only a completion that reaches what some
 * thread waits for wakes anybody, so a long queue does not wake a waiter
 * once per command. */
static void wait_seq(struct cq *q, uint64_t seq, int may_help) {
  if (may_help)
    q->helpers++;
  while (q->completed < seq) {
    if (may_help) {
      if (help(q))
        continue;
      kick(q); /* a command only the dispatcher may run, or one left for it */
    }
    if (seq < q->wake_at)
      q->wake_at = seq;
    q->waiters++;
    pthread_cond_wait(&q->done, &qlock);
    q->waiters--;
  }
  if (may_help) {
    q->helpers--;
    kick(q);
  }
}

static void wait_deps(const struct qcmd *c) {
  for (unsigned i = 0; i < c->ndeps; i++)
    wait_seq(c->deps[i].q, c->deps[i].seq, 0);
}

static void deps_release(struct qcmd *c) {
  for (unsigned i = 0; i < c->ndeps; i++)
    cq_unref(c->deps[i].q);
  c->ndeps = 0;
}

static void event_unref(struct cpu_event *ev) {
  if (--ev->refs > 0)
    return;
  if (ev->q != NULL)
    cq_unref(ev->q);
  free(ev);
}

/* ---- running one command (no lock held) ---- */

static hipError_t run_kernel(const struct qcmd *q) {
  const struct ah_cmd *c = &q->cmd;
  struct ah_cpu_printf_buf pbuf = {.cap = q->printf_fifo};
  hipError_t st;
  struct ah_cpu_grid g = {
      .fn = c->kernel.fn,
      .sig = c->kernel.sig,
      .args = c->kernel.args,
      .grid = c->kernel.grid,
      .block = c->kernel.block,
      .shared_bytes = c->kernel.shared_bytes,
      .cooperative = c->kernel.cooperative,
      .multi = c->kernel.multi,
      .multi_rank = c->kernel.multi_rank,
      .stack_size = q->stack_size,
      .warp_size = ah_cpu_config.warp_size == 32 ? 32 : 64,
      .printf_buf = &pbuf,
  };

  /* An empty kernel (hipcc saw `{}`): no block could do anything, so none
   * runs; a grid of 2^31 such blocks completes at once, as on a GPU. */
  if (ah_kernel_empty(c->kernel.fn)) {
    if (g.multi != NULL)
      ah_multi_grid_drop(g.multi, g.multi_rank, 0);
    return hipSuccess;
  }
  st = ah_cpu_grid_run(&g); /* a multi-grid's blocks leave its barrier as they end */
  ah_multi_grid_release(g.multi);
  return st;
}

/* Runs c. After a kernel fault the device is unusable (as on a GPU): data
 * work is skipped, while host functions, records and markers still run so
 * that nobody waits forever. */
static hipError_t run_cmd(struct ah_cpu_queues *dq, struct qcmd *c, hipError_t sticky) {
  const struct ah_cmd *k = &c->cmd;

  switch (c->op) {
  case AH_CMD_KERNEL:
    if (sticky == hipSuccess)
      return run_kernel(c);
    if (k->kernel.multi != NULL) /* its blocks never come: the other grids fail */
      ah_multi_grid_drop(k->kernel.multi, k->kernel.multi_rank, 1);
    return sticky;
  case AH_CMD_COPY:
    if (sticky == hipSuccess && k->copy.bytes != 0 && k->copy.dst != k->copy.src)
      memmove(k->copy.dst, k->copy.src, k->copy.bytes);
    return sticky;
  case AH_CMD_COPY_2D:
    if (sticky == hipSuccess)
      for (size_t r = 0; r < k->copy2d.height; r++)
        memmove((char *)k->copy2d.dst + r * k->copy2d.dpitch,
                (const char *)k->copy2d.src + r * k->copy2d.spitch, k->copy2d.width);
    return sticky;
  case AH_CMD_COPY_3D:
    if (sticky == hipSuccess)
      ah_host_copy3d(k);
    return sticky;
  case AH_CMD_SET:
    if (sticky == hipSuccess)
      ah_host_set(k);
    return sticky;
  case AH_CMD_HOST_FN:
    ah_host_fn_call(k->host_fn.fn, k->host_fn.data);
    return hipSuccess;
  default: /* OP_RECORD (stamped by the caller) and OP_MARKER */
    return hipSuccess;
  }
}

/* run_cmd, traced when ANYHIP_TRACE is set. */
static hipError_t run(struct ah_cpu_queues *dq, struct qcmd *c, hipError_t sticky) {
  uint64_t t0;
  hipError_t st;

  if (!ah_trace_on)
    return run_cmd(dq, c, sticky);
  t0 = ah_trace_now();
  st = run_cmd(dq, c, sticky);
  ah_trace_cmd(&c->cmd, c->op, t0);
  return st;
}

/* Marks c done on q (qlock held) and frees it. */
static void complete(struct cq *q, struct qcmd *c, hipError_t status, uint64_t t) {
  if (c->op == AH_CMD_KERNEL && status != hipSuccess && status != q->dq->sticky) {
    if (status == hipErrorLaunchFailure)
      q->dq->sticky = status;
    else if (q->dq->async_err == hipSuccess)
      q->dq->async_err = status;
  }
  if (c->op == OP_RECORD) {
    if (c->ev->gen == c->ev_gen)
      c->ev->ns = t;
    event_unref(c->ev);
  }
  deps_release(c);
  q->completed = c->seq;
  q->busy = 0;
  if (q->waiters > 0 && q->completed >= q->wake_at) {
    q->wake_at = UINT64_MAX;
    pthread_cond_broadcast(&q->done);
  }
  /* Only the dispatcher waits on `work`, for a next command or for closing.
   * While a helper is there, it takes the next command or kicks the
   * dispatcher when it stops: no futex wake-up per command. */
  if ((q->head != NULL && q->helpers == 0) || q->closing)
    pthread_cond_signal(&q->work);
  free(c);
}

static void *dispatcher(void *arg) {
  struct cq *q = arg;

  pthread_mutex_lock(&qlock);
  for (;;) {
    struct qcmd *c;
    hipError_t st;
    uint64_t t = 0;

    while (q->head == NULL || q->busy) {
      struct timespec until;

      if (q->closing && cq_drained(q))
        goto out;
      clock_gettime(CLOCK_MONOTONIC, &until);
      until.tv_sec += AH_CPU_IDLE_EXIT_S;
      if (pthread_cond_timedwait(&q->work, &qlock, &until) == ETIMEDOUT && cq_drained(q) &&
          !q->closing) {
        /* Idle: give the thread back; the next submit starts another. A
         * program with many quiet streams then holds few threads. */
        q->thread_started = 0;
        cq_unref(q);
        pthread_mutex_unlock(&qlock);
        return NULL;
      }
    }
    c = q->head;
    q->busy = 1; /* c is ours: no waiting thread takes it (help) meanwhile */
    wait_deps(c);
    q->head = c->next;
    if (q->head == NULL)
      q->tail = NULL;
    deps_release(c);
    st = q->dq->sticky;
    pthread_mutex_unlock(&qlock);
    st = run(q->dq, c, st);
    if (c->op == OP_RECORD)
      t = now_ns();
    pthread_mutex_lock(&qlock);
    complete(q, c, st, t);
  }
out:
  if (q->in_list)
    cq_unlink(q);
  cq_unref(q);
  pthread_mutex_unlock(&qlock);
  return NULL;
}

/* ---- submission ---- */

/* Counts (out == NULL) or fills the dependencies HIP's null-stream rules
 * give a new command on q. qlock held. */
static unsigned stream_deps(struct cq *q, struct dep *out) {
  unsigned n = 0;

  if (q->is_null) {
    /* The null stream waits for earlier work of every blocking stream. */
    for (struct cq *p = q->dq->list; p != NULL; p = p->next) {
      if (p == q || (p->flags & hipStreamNonBlocking) || !cq_pending(p))
        continue;
      if (out != NULL)
        out[n] = (struct dep){p, p->submitted};
      n++;
    }
  } else if (!(q->flags & hipStreamNonBlocking) && cq_pending(q->dq->null_q)) {
    /* Blocking streams wait for earlier work of the null stream. */
    if (out != NULL)
      out[n] = (struct dep){q->dq->null_q, q->dq->null_q->submitted};
    n++;
  }
  return n;
}

static hipError_t start_thread(struct cq *q) {
  pthread_attr_t a;
  pthread_t t;
  int rc;

  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  q->refs++; /* the dispatcher's */
  rc = pthread_create(&t, &a, dispatcher, q);
  pthread_attr_destroy(&a);
  if (rc != 0) {
    q->refs--;
    return hipErrorOutOfMemory;
  }
  /* For gdb, top and perf. Detached, but it exits only after AH_CPU_IDLE_EXIT_S idle. */
  pthread_setname_np(t, "anyhip-stream");
  q->thread_started = 1;
  return hipSuccess;
}

/* Bytes of the kernel argument block for sig, each argument at its alignment. */
static int args_layout(const ahKernelSig *sig, size_t *bytes, size_t *max_align) {
  size_t off = 0, ma = sizeof(void *);

  for (unsigned i = 0; i < sig->nargs; i++) {
    size_t al = sig->aligns[i] != 0 ? sig->aligns[i] : 1;

    if ((al & (al - 1)) != 0)
      return 0;
    off = (off + al - 1) & ~(al - 1);
    if (sig->sizes[i] > SIZE_MAX / 2 || off > SIZE_MAX / 2)
      return 0;
    off += sig->sizes[i];
    if (al > ma)
      ma = al;
  }
  *bytes = off;
  *max_align = ma;
  return 1;
}

/* Allocates a command with room for ndeps dependencies and, for a kernel, a
 * copy of its arguments (taken now: HIP passes kernel arguments by value). */
static struct qcmd *cmd_new(int op, const struct ah_cmd *src, unsigned ndeps, hipError_t *err) {
  size_t head = sizeof(struct qcmd) + ndeps * sizeof(struct dep);
  size_t argv_off = 0, blk_off = 0, blk = 0, align = sizeof(void *), total = head;
  const ahKernelSig *sig = op == AH_CMD_KERNEL ? src->kernel.sig : NULL;
  struct qcmd *c;

  if (sig != NULL && sig->nargs > 0) {
    if (!args_layout(sig, &blk, &align)) {
      *err = hipErrorInvalidValue;
      return NULL;
    }
    argv_off = (total + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
    blk_off = (argv_off + sig->nargs * sizeof(void *) + align - 1) & ~(align - 1);
    total = blk_off + blk;
  }
  /* aligned_alloc wants a multiple of the alignment. */
  if (align < _Alignof(max_align_t))
    align = _Alignof(max_align_t);
  c = aligned_alloc(align, (total + align - 1) & ~(align - 1));
  if (c == NULL) {
    *err = hipErrorOutOfMemory;
    return NULL;
  }
  memset(c, 0, sizeof(*c));
  c->op = op;
  if (src != NULL)
    c->cmd = *src;
  c->deps = (struct dep *)(void *)(c + 1);
  if (sig != NULL && sig->nargs > 0) {
    void **argv = (void **)(void *)((char *)c + argv_off);
    size_t off = 0;

    for (unsigned i = 0; i < sig->nargs; i++) {
      size_t al = sig->aligns[i] != 0 ? sig->aligns[i] : 1;

      off = (off + al - 1) & ~(al - 1);
      argv[i] = (char *)c + blk_off + off;
      memcpy(argv[i], src->kernel.args[i], sig->sizes[i]);
      off += sig->sizes[i];
    }
    c->cmd.kernel.args = argv;
  } else if (op == AH_CMD_KERNEL) {
    c->cmd.kernel.args = NULL;
  }
  return c;
}

/* Runs c on this thread: the caller waits anyway and q is idle, so there is
 * no hand-off to the dispatcher (a synchronous copy costs no thread switch;
 * help() runs queued commands so too). c is off the queue. qlock held on
 * entry and exit. */
static hipError_t run_inline(struct cq *q, struct qcmd *c) {
  hipError_t st;
  uint64_t t = 0;

  q->busy = 1;
  q->refs++; /* q stays valid even if another thread destroys it meanwhile */
  wait_deps(c);
  deps_release(c);
  st = q->dq->sticky;
  pthread_mutex_unlock(&qlock);
  st = run(q->dq, c, st);
  if (c->op == OP_RECORD)
    t = now_ns();
  pthread_mutex_lock(&qlock);
  complete(q, c, st, t);
  if (q->closing && cq_drained(q) && q->in_list && !q->thread_started)
    cq_unlink(q);
  cq_unref(q);
  return st;
}

/* Builds a command of kind op for q, with the null-stream dependencies plus
 * a wait for event wait_ev (hipStreamWaitEvent) or a record of rec_ev, and
 * enqueues it (or runs it inline, see run_inline). */
static hipError_t submit_op(struct cq *q, int op, const struct ah_cmd *cmd,
                            struct cpu_event *wait_ev, struct cpu_event *rec_ev, int wait) {
  struct qcmd *c;
  unsigned n;
  int inline_run;
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&qlock);
  if (q->dq->sticky != hipSuccess) {
    err = q->dq->sticky;
    goto done;
  }
  if (wait_ev != NULL &&
      (wait_ev->q == NULL || wait_ev->q == q || wait_ev->q->completed >= wait_ev->seq))
    goto done; /* nothing to wait for, or FIFO order on q already gives it */
  inline_run = wait && cq_drained(q);
  if (!inline_run && !q->thread_started) {
    err = start_thread(q);
    if (err != hipSuccess)
      goto done;
  }
  n = stream_deps(q, NULL) + (wait_ev != NULL);
  c = cmd_new(op, cmd, n, &err);
  if (c == NULL)
    goto done;
  /* The limit in force at the launch, not when the stream gets to it. */
  c->stack_size = __atomic_load_n(&q->dq->cd->stack_size, __ATOMIC_RELAXED);
  c->printf_fifo = __atomic_load_n(&q->dq->cd->printf_fifo, __ATOMIC_RELAXED);
  c->ndeps = stream_deps(q, c->deps);
  if (wait_ev != NULL)
    c->deps[c->ndeps++] = (struct dep){wait_ev->q, wait_ev->seq};
  for (unsigned i = 0; i < c->ndeps; i++)
    c->deps[i].q->refs++;
  c->seq = ++q->submitted;
  if (rec_ev != NULL) {
    /* This record becomes the event's latest: queries track it from now. */
    c->ev = rec_ev;
    c->ev_gen = ++rec_ev->gen;
    rec_ev->refs++;
    q->refs++;
    if (rec_ev->q != NULL)
      cq_unref(rec_ev->q);
    rec_ev->q = q;
    rec_ev->seq = c->seq;
  }
  if (inline_run) {
    err = run_inline(q, c);
    kick(q); /* a later command may have arrived while c ran; its helper may sleep */
    goto done;
  }
  if (q->tail != NULL)
    q->tail->next = c;
  else
    q->head = c;
  q->tail = c;
  pthread_cond_signal(&q->work);
  if (wait) {
    uint64_t seq = c->seq;

    q->refs++;
    wait_seq(q, seq, 1);
    err = q->dq->sticky;
    cq_unref(q);
  }
done:
  pthread_mutex_unlock(&qlock);
  return err;
}

/* ---- the cpu_queue.c interface ---- */

static struct cq *cq_new(struct ah_cpu_queues *dq, unsigned flags, int priority, int is_null) {
  struct cq *q = calloc(1, sizeof(*q));
  pthread_condattr_t a;

  if (q == NULL)
    return NULL;
  q->dq = dq;
  q->flags = flags;
  q->priority = priority;
  q->is_null = is_null;
  q->refs = 1;
  q->wake_at = UINT64_MAX;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&q->work, &a);
  pthread_condattr_destroy(&a);
  pthread_cond_init(&q->done, NULL);
  pthread_mutex_lock(&qlock);
  q->next = dq->list;
  dq->list = q;
  q->in_list = 1;
  pthread_mutex_unlock(&qlock);
  return q;
}

hipError_t ah_cpu_queues_init(struct ah_cpu_device *cd) {
  struct ah_cpu_queues *dq = calloc(1, sizeof(*dq));

  if (dq == NULL)
    return hipErrorOutOfMemory;
  dq->cd = cd;
  dq->null_q = cq_new(dq, 0, 0, 1);
  if (dq->null_q == NULL) {
    free(dq);
    return hipErrorOutOfMemory;
  }
  cd->queues = dq;
  cd->dev->null_queue = (struct ah_queue *)dq->null_q;
  return hipSuccess;
}

void ah_cpu_queues_reset(struct ah_device *dev) {
  struct ah_cpu_queues *dq = dev_queues(dev);

  pthread_mutex_lock(&qlock);
  dq->sticky = hipSuccess;
  pthread_mutex_unlock(&qlock);
}

hipError_t ah_cpu_queue_create(struct ah_device *dev, unsigned flags, int priority,
                               struct ah_queue **q) {
  struct ah_cpu_queues *dq = dev_queues(dev);
  hipError_t sticky;

  pthread_mutex_lock(&qlock);
  sticky = dq->sticky;
  pthread_mutex_unlock(&qlock);
  if (sticky != hipSuccess)
    return sticky;
  *q = (struct ah_queue *)cq_new(dq, flags, priority, 0);
  return *q != NULL ? hipSuccess : hipErrorOutOfMemory;
}

/* Returns at once: queued work still runs (HIP and CUDA let hipStreamDestroy
 * return before the stream's work is done), then the dispatcher frees q. */
hipError_t ah_cpu_queue_destroy(struct ah_device *dev, struct ah_queue *qp) {
  struct cq *q = CQ(qp);

  pthread_mutex_lock(&qlock);
  q->closing = 1;
  if (cq_drained(q) && q->in_list)
    cq_unlink(q);
  pthread_cond_signal(&q->work);
  cq_unref(q);
  pthread_mutex_unlock(&qlock);
  return hipSuccess;
}

hipError_t ah_cpu_submit(struct ah_device *dev, struct ah_queue *q, const struct ah_cmd *cmd,
                         int wait) {
  if (cmd->kind == AH_CMD_KERNEL && cmd->kernel.sig == NULL)
    return hipErrorInvalidDeviceFunction; /* the CPU calls kernels through their signature */
  if (cmd->kind == AH_CMD_HOST_FN && cmd->host_fn.fn == NULL)
    return hipErrorInvalidValue;
  return submit_op(CQ(q), cmd->kind, cmd, NULL, NULL, wait);
}

/* Waits (qlock held) until each queue in qs reached its target. */
static void wait_all(struct cq **qs, const uint64_t *target, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    wait_seq(qs[i], target[i], 1);
}

/* Snapshots the queues whose work a sync must wait for: the null stream's
 * sync (like HIP's) covers every blocking stream; a device sync covers all. */
static hipError_t sync_set(struct ah_cpu_queues *dq, struct cq *only, int blocking_only) {
  unsigned n = 0, i = 0;
  struct cq **qs;
  uint64_t *target;
  hipError_t err;

  pthread_mutex_lock(&qlock);
  if (only != NULL) {
    only->refs++;
    wait_seq(only, only->submitted, 1);
    cq_unref(only);
    err = take_error(dq);
    pthread_mutex_unlock(&qlock);
    return err;
  }
  for (struct cq *p = dq->list; p != NULL; p = p->next)
    n += cq_pending(p) && !(blocking_only && (p->flags & hipStreamNonBlocking));
  qs = malloc(n * (sizeof(*qs) + sizeof(*target)) + 1);
  if (qs == NULL) {
    /* No room for a snapshot: wait for the queues one at a time. */
    for (;;) {
      struct cq *p = dq->list;

      while (p != NULL && !(cq_pending(p) && !(blocking_only && (p->flags & hipStreamNonBlocking))))
        p = p->next;
      if (p == NULL)
        break;
      p->refs++;
      wait_seq(p, p->submitted, 1);
      cq_unref(p);
    }
  } else {
    target = (uint64_t *)(void *)(qs + n);
    for (struct cq *p = dq->list; p != NULL && i < n; p = p->next) {
      if (!cq_pending(p) || (blocking_only && (p->flags & hipStreamNonBlocking)))
        continue;
      p->refs++;
      qs[i] = p;
      target[i++] = p->submitted;
    }
    wait_all(qs, target, i);
    for (unsigned j = 0; j < i; j++)
      cq_unref(qs[j]);
    free(qs);
  }
  err = take_error(dq);
  pthread_mutex_unlock(&qlock);
  return err;
}

hipError_t ah_cpu_queue_sync(struct ah_device *dev, struct ah_queue *qp) {
  struct cq *q = CQ(qp);

  return sync_set(q->dq, q->is_null ? NULL : q, 1);
}

hipError_t ah_cpu_queue_query(struct ah_device *dev, struct ah_queue *qp) {
  struct cq *q = CQ(qp);
  hipError_t err;

  pthread_mutex_lock(&qlock);
  err = q->dq->sticky;
  if (err == hipSuccess && cq_pending(q))
    err = hipErrorNotReady;
  if (err == hipSuccess && q->is_null)
    for (struct cq *p = q->dq->list; p != NULL; p = p->next)
      if (!(p->flags & hipStreamNonBlocking) && cq_pending(p))
        err = hipErrorNotReady;
  pthread_mutex_unlock(&qlock);
  return err;
}

hipError_t ah_cpu_device_sync(struct ah_device *dev) {
  return sync_set(dev_queues(dev), NULL, 0);
}

/* ---- events ---- */

hipError_t ah_cpu_event_create(struct ah_device *dev, unsigned flags, struct ah_dev_event **out) {
  struct cpu_event *ev;
  hipError_t sticky;

  pthread_mutex_lock(&qlock);
  sticky = dev_queues(dev)->sticky;
  pthread_mutex_unlock(&qlock);
  if (sticky != hipSuccess)
    return sticky;
  ev = calloc(1, sizeof(*ev));
  if (ev == NULL)
    return hipErrorOutOfMemory;
  ev->flags = flags;
  ev->refs = 1;
  *out = (struct ah_dev_event *)ev;
  return hipSuccess;
}

/* Pending records keep the event alive until they ran (HIP and CUDA let an
 * event be destroyed before it completes). */
hipError_t ah_cpu_event_destroy(struct ah_device *dev, struct ah_dev_event *evp) {
  pthread_mutex_lock(&qlock);
  event_unref(CEV(evp));
  pthread_mutex_unlock(&qlock);
  return hipSuccess;
}

hipError_t ah_cpu_event_record(struct ah_device *dev, struct ah_queue *q, struct ah_dev_event *ev) {
  return submit_op(CQ(q), OP_RECORD, NULL, NULL, CEV(ev), 0);
}

static int event_done(const struct cpu_event *ev) {
  return ev->q == NULL || ev->q->completed >= ev->seq;
}

hipError_t ah_cpu_event_query(struct ah_device *dev, struct ah_dev_event *evp) {
  struct cpu_event *ev = CEV(evp);
  hipError_t err;

  pthread_mutex_lock(&qlock);
  err = dev_queues(dev)->sticky;
  if (err == hipSuccess && !event_done(ev))
    err = hipErrorNotReady;
  pthread_mutex_unlock(&qlock);
  return err;
}

hipError_t ah_cpu_event_sync(struct ah_device *dev, struct ah_dev_event *evp) {
  struct cpu_event *ev = CEV(evp);
  struct cq *q;
  uint64_t seq;
  hipError_t err;

  pthread_mutex_lock(&qlock);
  /* Wait for the record current now, even if the event is recorded again. */
  q = ev->q;
  seq = ev->seq;
  if (q != NULL) {
    q->refs++;
    wait_seq(q, seq, 1);
    cq_unref(q);
  }
  err = take_error(dev_queues(dev));
  pthread_mutex_unlock(&qlock);
  return err;
}

hipError_t ah_cpu_event_elapsed(struct ah_device *dev, struct ah_dev_event *startp,
                                struct ah_dev_event *stopp, float *ms) {
  struct cpu_event *a = CEV(startp), *b = CEV(stopp);
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&qlock);
  if (a->q == NULL || b->q == NULL)
    err = hipErrorInvalidHandle;
  else if ((a->flags | b->flags) & hipEventDisableTiming)
    err = hipErrorInvalidHandle;
  else if (!event_done(a) || !event_done(b))
    err = hipErrorNotReady;
  else
    *ms = (float)(((double)(int64_t)(b->ns - a->ns)) / 1e6);
  pthread_mutex_unlock(&qlock);
  return err;
}

hipError_t ah_cpu_queue_wait_event(struct ah_device *dev, struct ah_queue *q,
                                   struct ah_dev_event *ev) {
  return submit_op(CQ(q), OP_MARKER, NULL, CEV(ev), NULL, 0);
}
