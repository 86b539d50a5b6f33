/* SPDX-License-Identifier: MIT */
/* Streams, events and command submission of the NVIDIA device. A HIP stream
 * is a CUstream (blocking streams are CU_STREAM_DEFAULT, so CUDA's legacy
 * default stream gives HIP's null-stream rules), the null stream is
 * CU_STREAM_LEGACY, an event is a CUevent. Each command is one driver call
 * (copies and memsets take unified addresses), except host functions, which
 * run on a worker thread of their queue while the stream waits on a pinned
 * flag (struct ah_nv_queue says why). */
#include "nvidia_internal.h"
#include "../host_ops.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUEUE(q) ((struct ah_nv_queue *)(q))
#define EVENT(e) ((CUevent)(e))
#define DPTR(p) ((CUdeviceptr)(uintptr_t)(p))

/* One host function waiting for its turn (or done and kept for reuse). */
struct ah_nv_hostjob {
  struct ah_nv_hostjob *next;
  void (*fn)(void *data);
  void *data;
  uint32_t seq;
};

/* ---- pinned flag slots ---------------------------------------------------- */

/* A page of pinned, device-mapped words, taken in pairs (struct ah_nv_queue
 * says what for). A slot whose queue is gone goes back to the free list with
 * its values: the next owner counts on from there, so a wait still pending
 * in the old stream (for a value already written) stays satisfied. Guarded
 * by nd->lock; the memory lives as long as the context. */
#define FLAG_SLOTS 512
#define FLAG_WORDS 2
struct ah_nv_flags {
  uint32_t *host;
  CUdeviceptr dev;
  unsigned used;
  struct ah_nv_flags *next;
};
struct free_slot {
  volatile uint32_t *flag;
  CUdeviceptr dev;
};
static struct free_slot *free_slots; /* one list for all devices: tagged below */
static struct ah_nv_device **free_owner;
static size_t nfree, free_cap;
static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;

/* Gives q a flag slot (q->submit held). Returns 0 when none can be had. */
static int flag_get(struct ah_nv_queue *q) {
  struct ah_nv_device *nd = q->nd;
  struct ah_nv_flags *f;
  int ok = 0;

  pthread_mutex_lock(&free_lock);
  for (size_t i = nfree; i-- > 0;) {
    if (free_owner[i] != nd)
      continue;
    q->flag = free_slots[i].flag;
    q->flag_dev = free_slots[i].dev;
    free_slots[i] = free_slots[nfree - 1];
    free_owner[i] = free_owner[nfree - 1];
    nfree--;
    ok = 1;
    break;
  }
  pthread_mutex_unlock(&free_lock);
  if (ok) {
    q->seq = __atomic_load_n(&q->flag[FLAG_DONE], __ATOMIC_ACQUIRE);
    return 1;
  }
  pthread_mutex_lock(&nd->lock);
  f = nd->flags;
  if (f == NULL || f->used == FLAG_SLOTS) {
    void *host = NULL;
    CUdeviceptr dev = 0;

    f = calloc(1, sizeof(*f));
    if (f != NULL && ah_cuda.cuMemHostAlloc(&host, FLAG_SLOTS * FLAG_WORDS * sizeof(uint32_t),
                                            CU_MEMHOSTALLOC_PORTABLE |
                                                CU_MEMHOSTALLOC_DEVICEMAP) == CUDA_SUCCESS) {
      if (ah_cuda.cuMemHostGetDevicePointer(&dev, host, 0) == CUDA_SUCCESS) {
        memset(host, 0, FLAG_SLOTS * FLAG_WORDS * sizeof(uint32_t));
        f->host = host;
        f->dev = dev;
        f->next = nd->flags;
        nd->flags = f;
      } else {
        ah_cuda.cuMemFreeHost(host);
        free(f);
        f = NULL;
      }
    } else {
      free(f);
      f = NULL;
    }
  }
  if (f != NULL) {
    q->flag = &f->host[f->used * FLAG_WORDS];
    q->flag_dev = f->dev + f->used * FLAG_WORDS * sizeof(uint32_t);
    f->used++;
    q->seq = 0;
    ok = 1;
  }
  pthread_mutex_unlock(&nd->lock);
  return ok;
}

static void flag_put(struct ah_nv_queue *q) {
  pthread_mutex_lock(&free_lock);
  if (nfree == free_cap) {
    size_t cap = free_cap ? free_cap * 2 : 64;
    struct free_slot *fs = realloc(free_slots, cap * sizeof(*fs));
    struct ah_nv_device **fo = fs ? realloc(free_owner, cap * sizeof(*fo)) : NULL;

    if (fs != NULL)
      free_slots = fs;
    if (fo != NULL) {
      free_owner = fo;
      free_cap = cap;
    }
  }
  if (nfree < free_cap) { /* else the slot is lost, which is harmless */
    free_slots[nfree] = (struct free_slot){q->flag, q->flag_dev};
    free_owner[nfree] = q->nd;
    nfree++;
  }
  pthread_mutex_unlock(&free_lock);
}

void ah_nv_flags_reset(struct ah_nv_device *nd) {
  pthread_mutex_lock(&free_lock);
  for (size_t i = nfree; i-- > 0;)
    if (free_owner[i] == nd) {
      free_slots[i] = free_slots[nfree - 1];
      free_owner[i] = free_owner[nfree - 1];
      nfree--;
    }
  pthread_mutex_unlock(&free_lock);
  pthread_mutex_lock(&nd->lock);
  while (nd->flags != NULL) {
    struct ah_nv_flags *f = nd->flags;

    nd->flags = f->next;
    free(f); /* the pinned page went with the context */
  }
  pthread_mutex_unlock(&nd->lock);
  pthread_mutex_lock(&nd->null_queue.submit);
  nd->null_queue.flag = NULL;
  nd->null_queue.seq = 0;
  nd->null_queue.idle = NULL; /* went with the context */
  pthread_mutex_lock(&nd->null_queue.lock);
  while (nd->null_queue.spare != NULL) {
    struct ah_nv_hostjob *j = nd->null_queue.spare;

    nd->null_queue.spare = j->next;
    free(j);
  }
  pthread_mutex_unlock(&nd->null_queue.lock);
  pthread_mutex_unlock(&nd->null_queue.submit);
}

/* ---- host functions ---------------------------------------------------------- */

static void queue_free(struct ah_nv_queue *q) {
  while (q->spare != NULL) {
    struct ah_nv_hostjob *j = q->spare;

    q->spare = j->next;
    free(j);
  }
  if (q->flag != NULL)
    flag_put(q);
  pthread_mutex_destroy(&q->lock);
  pthread_mutex_destroy(&q->submit);
  free(q);
}

/* Waits until q's stream has reached j (written j->seq to the reached word).
 * It polls, backing off from a yield to 100 us: a wait on an event would be a
 * driver call, which can block behind another thread's synchronous call (a
 * copy through the null stream, a free) that waits for this very stream. */
static void job_wait(struct ah_nv_queue *q, const struct ah_nv_hostjob *j) {
  long ns = 0;

  while ((int32_t)(__atomic_load_n(&q->flag[FLAG_REACHED], __ATOMIC_ACQUIRE) - j->seq) < 0) {
    struct timespec ts = {0, ns};

    if (ns == 0)
      sched_yield();
    else
      nanosleep(&ts, NULL);
    ns = ns == 0 ? 1000 : (ns < 100000 ? ns * 2 : ns);
  }
}

/* The queue's worker: runs its host functions in order, each once the work
 * before it is done, then releases the stream. Exits when idle (a later host
 * function starts it again) or, once the queue is destroyed, when drained. */
static void *host_worker(void *arg) {
  struct ah_nv_queue *q = arg;
  int gone;

  pthread_mutex_lock(&q->lock);
  while (q->head != NULL) {
    struct ah_nv_hostjob *j = q->head;

    q->head = j->next;
    if (q->head == NULL)
      q->tail = NULL;
    pthread_mutex_unlock(&q->lock);
    job_wait(q, j);
    ah_host_fn_call(j->fn, j->data);
    __atomic_store_n(&q->flag[FLAG_DONE], j->seq, __ATOMIC_RELEASE);
    /* The job is reused by the next host function. The worker makes no
     * driver call at all: any could wait for a thread this function holds. */
    pthread_mutex_lock(&q->lock);
    j->next = q->spare;
    q->spare = j;
  }
  q->worker = 0;
  gone = q->closing;
  pthread_mutex_unlock(&q->lock);
  if (gone)
    queue_free(q);
  return NULL;
}

/* Enqueues on q's stream the write of q->seq + 1 to the reached word, then
 * the wait for the same value in the done word. As one batch where the
 * driver has it: a stream takes about 1000 submissions queued behind a held
 * point before the next one blocks (CUDA 13 on H100), and a batch is one. */
static CUresult hold_stream(struct ah_nv_queue *q) {
  CUstreamBatchMemOpParams ops[2];
  CUdeviceptr done = q->flag_dev + FLAG_DONE * sizeof(uint32_t);
  CUdeviceptr reached = q->flag_dev + FLAG_REACHED * sizeof(uint32_t);
  CUresult r;

  if (ah_cuda.cuStreamBatchMemOp != NULL) {
    memset(ops, 0, sizeof(ops));
    ops[0].value_op.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    ops[0].value_op.address = reached;
    ops[0].value_op.value = q->seq + 1;
    ops[0].value_op.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
    ops[1].value_op.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
    ops[1].value_op.address = done;
    ops[1].value_op.value = q->seq + 1;
    ops[1].value_op.flags = CU_STREAM_WAIT_VALUE_GEQ;
    if (ah_cuda.cuStreamBatchMemOp(q->s, 2, ops, 0) == CUDA_SUCCESS)
      return CUDA_SUCCESS;
  }
  r = ah_cuda.cuStreamWriteValue32(q->s, reached, q->seq + 1, CU_STREAM_WRITE_VALUE_DEFAULT);
  if (r == CUDA_SUCCESS)
    r = ah_cuda.cuStreamWaitValue32(q->s, done, q->seq + 1, CU_STREAM_WAIT_VALUE_GEQ);
  return r;
}

/* Enqueues fn(data) on q. Returns CUDA_SUCCESS, or an error with nothing
 * enqueued (the caller then falls back to cuLaunchHostFunc). */
static CUresult host_fn(struct ah_nv_queue *q, void (*fn)(void *), void *data) {
  struct ah_nv_hostjob *j;
  pthread_attr_t attr;
  pthread_t t;
  CUresult r;
  int inline_run = 0;

  pthread_mutex_lock(&q->submit);
  pthread_mutex_lock(&q->lock);
  j = q->spare;
  if (j != NULL)
    q->spare = j->next;
  pthread_mutex_unlock(&q->lock);
  if (j == NULL && (j = calloc(1, sizeof(*j))) == NULL) {
    r = CUDA_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  j->next = NULL;
  j->fn = fn;
  j->data = data;
  if (q->flag == NULL && !flag_get(q)) {
    r = CUDA_ERROR_NOT_SUPPORTED;
    goto fail;
  }
  r = hold_stream(q);
  if (r != CUDA_SUCCESS)
    goto fail;
  j->seq = ++q->seq;
  pthread_mutex_lock(&q->lock);
  if (q->tail != NULL)
    q->tail->next = j;
  else
    q->head = j;
  q->tail = j;
  if (!q->worker) {
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, host_worker, q) == 0) {
      q->worker = 1;
    } else {
      q->head = q->tail = NULL; /* the list was empty: j alone */
      inline_run = 1;
    }
    pthread_attr_destroy(&attr);
  }
  pthread_mutex_unlock(&q->lock);
  pthread_mutex_unlock(&q->submit);
  if (inline_run) {
    /* No thread to be had. The stream waits for this function: run it here
     * rather than never. */
    job_wait(q, j);
    fn(data);
    __atomic_store_n(&q->flag[FLAG_DONE], j->seq, __ATOMIC_RELEASE);
    pthread_mutex_lock(&q->lock);
    j->next = q->spare;
    q->spare = j;
    pthread_mutex_unlock(&q->lock);
  }
  return CUDA_SUCCESS;
fail:
  free(j);
  pthread_mutex_unlock(&q->submit);
  return r;
}

/* ---- queues -------------------------------------------------------------- */

static void queue_init(struct ah_nv_queue *q, struct ah_nv_device *nd, CUstream s) {
  memset(q, 0, sizeof(*q));
  q->s = s;
  q->nd = nd;
  pthread_mutex_init(&q->lock, NULL);
  pthread_mutex_init(&q->submit, NULL);
}

void ah_nv_null_queue_init(struct ah_nv_device *nd) {
  queue_init(&nd->null_queue, nd, CU_STREAM_LEGACY);
}

hipError_t ah_nv_queue_create(struct ah_device *dev, unsigned flags, int priority,
                              struct ah_queue **q) {
  struct ah_nv_device *nd = AH_NV(dev);
  struct ah_nv_queue *nq;
  CUstream s = NULL;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  /* HIP has three priorities (1 low, 0 normal, -1 high); CUDA's default is
   * already its lowest, so HIP's high priority is CUDA's greatest and the
   * other two are CUDA's default. */
  priority = priority < 0 ? nd->greatest_priority : nd->least_priority;
  nq = malloc(sizeof(*nq));
  if (nq == NULL)
    return hipErrorOutOfMemory;
  err = ah_cuda_status(ah_cuda.cuStreamCreateWithPriority(
      &s, (flags & hipStreamNonBlocking) ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT, priority));
  if (err != hipSuccess) {
    free(nq);
    return err;
  }
  queue_init(nq, nd, s);
  *q = (struct ah_queue *)nq;
  return hipSuccess;
}

/* Returns at once, as hipStreamDestroy does: CUDA releases the stream once its
 * work is done, and a pending host function still runs, after which its
 * worker frees the queue. */
hipError_t ah_nv_queue_destroy(struct ah_device *dev, struct ah_queue *qp) {
  struct ah_nv_queue *q = QUEUE(qp);
  hipError_t err = ah_nv_enter(AH_NV(dev));
  int busy;

  if (err != hipSuccess)
    return err;
  if (q == &AH_NV(dev)->null_queue)
    return hipSuccess;
  if (q->idle != NULL)
    ah_cuda.cuEventDestroy(q->idle);
  q->idle = NULL;
  err = ah_cuda_status(ah_cuda.cuStreamDestroy(q->s));
  pthread_mutex_lock(&q->lock);
  q->closing = 1;
  busy = q->worker;
  pthread_mutex_unlock(&q->lock);
  if (!busy)
    queue_free(q);
  return err;
}

/* Fills one side of a 2D copy: every pointer is a unified address. */
static void copy2d(const struct ah_cmd *cmd, CUDA_MEMCPY2D *c) {
  memset(c, 0, sizeof(*c));
  c->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  c->srcDevice = DPTR(cmd->copy2d.src);
  c->srcPitch = cmd->copy2d.spitch;
  c->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c->dstDevice = DPTR(cmd->copy2d.dst);
  c->dstPitch = cmd->copy2d.dpitch;
  c->WidthInBytes = cmd->copy2d.width;
  c->Height = cmd->copy2d.height;
}

/* The same for a 3D copy; each pointer is the box's first byte, so every
 * position is 0 and the slice height is what separates slices. */
static void copy3d(const struct ah_cmd *cmd, CUDA_MEMCPY3D *c) {
  memset(c, 0, sizeof(*c));
  c->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  c->srcDevice = DPTR(cmd->copy3d.src);
  c->srcPitch = cmd->copy3d.spitch;
  c->srcHeight = cmd->copy3d.sslice_rows;
  c->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c->dstDevice = DPTR(cmd->copy3d.dst);
  c->dstPitch = cmd->copy3d.dpitch;
  c->dstHeight = cmd->copy3d.dslice_rows;
  c->WidthInBytes = cmd->copy3d.width;
  c->Height = cmd->copy3d.height;
  c->Depth = cmd->copy3d.depth;
  ah_nv_copy3d_arrays(cmd, c);
}

static CUresult memset_1d(const struct ah_cmd *cmd, CUstream s) {
  CUdeviceptr d = DPTR(cmd->set.dst);

  switch (cmd->set.elem_size) {
  case 1:
    return ah_cuda.cuMemsetD8Async(d, (unsigned char)cmd->set.value, cmd->set.count, s);
  case 2:
    return ah_cuda.cuMemsetD16Async(d, (unsigned short)cmd->set.value, cmd->set.count, s);
  default:
    return ah_cuda.cuMemsetD32Async(d, cmd->set.value, cmd->set.count, s);
  }
}

static CUresult memset_2d(const struct ah_cmd *cmd, CUstream s) {
  CUdeviceptr d = DPTR(cmd->set.dst);
  size_t pitch = cmd->set.pitch, w = cmd->set.count, h = cmd->set.height;

  switch (cmd->set.elem_size) {
  case 1:
    return ah_cuda.cuMemsetD2D8Async(d, pitch, (unsigned char)cmd->set.value, w, h, s);
  case 2:
    return ah_cuda.cuMemsetD2D16Async(d, pitch, (unsigned short)cmd->set.value, w, h, s);
  default:
    return ah_cuda.cuMemsetD2D32Async(d, pitch, cmd->set.value, w, h, s);
  }
}

/* ---- copies and sets the host does, in stream order ------------------------- */

/* The driver runs a host-to-host copy, and a set of host memory, on the CPU
 * once the stream is idle: enqueued behind a host function that holds the
 * stream, it would block the enqueuing thread (a deadlock when that thread is
 * the one to release it). Queued as host functions of their own, they stay
 * asynchronous, in order, as on the CPU device. */
/* Runs and frees a copy of an AH_CMD_COPY (host to host) or AH_CMD_SET. */
static void host_op_run(void *p) {
  struct ah_cmd *c = p;

  if (c->kind == AH_CMD_COPY)
    memmove(c->copy.dst, c->copy.src, c->copy.bytes);
  else
    ah_host_set(c);
  free(c);
}

/* Whether cmd is host work (see above) that should go through host_op_run. */
static int is_host_op(const struct ah_cmd *cmd) {
  return (cmd->kind == AH_CMD_COPY && cmd->copy.kind == hipMemcpyHostToHost) ||
         (cmd->kind == AH_CMD_SET && cmd->set.host);
}

/* ---- copies from pageable host memory, in stream order -------------------- */

/* The driver reads pageable (unregistered) host memory for a copy to the
 * device when the copy is enqueued, not when the stream reaches it (CUDA's
 * documented behaviour for cuMemcpyAsync from pageable memory). HIP's copies
 * happen in stream order, as on the CPU device: a host function that fills
 * the buffer before the copy, in the same stream, must be seen (the guide's
 * stream-capture example does exactly that). So when the copy would wait for
 * earlier work, the data goes through a pinned staging buffer: a host
 * function of the stream (no driver call) copies the pageable bytes into it
 * when the stream gets there, then the driver copies the buffer to the
 * device. A copy whose stream has nothing pending takes the driver's path. */
struct ah_nv_stage {
  struct ah_nv_stage *next;
  void *buf;   /* pinned, cuMemHostAlloc */
  size_t cap;
  CUevent done; /* recorded after the copy out of buf: free again once complete */
  int busy;     /* being enqueued (nd->lock) */
};

struct stage_job {
  void *dst;
  const void *src;
  size_t bytes;
};

#define STAGE_MIN (64 * 1024)

static void stage_in(void *p) {
  struct stage_job *j = p;

  memcpy(j->dst, j->src, j->bytes);
  free(j);
}

/* Whether ptr is host memory the driver knows nothing of (not allocated or
 * registered through anyhip): memory it must read when the copy is enqueued. */
static int pageable(const void *ptr) {
  struct ah_alloc a;

  return !ah_alloc_find(ptr, &a);
}

/* Whether a copy enqueued on q now would wait for earlier work (q's own, or,
 * through the null stream's rules and event waits, other streams'): an event
 * recorded there is not complete yet. q->submit held. */
static int would_wait(struct ah_nv_queue *q) {
  if (q->idle == NULL && ah_cuda.cuEventCreate(&q->idle, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    q->idle = NULL;
    return 1;
  }
  if (ah_cuda.cuEventRecord(q->idle, q->s) != CUDA_SUCCESS)
    return 1;
  return ah_cuda.cuEventQuery(q->idle) != CUDA_SUCCESS;
}

/* A free staging buffer of at least bytes (marked busy), or NULL. Buffers
 * are kept for reuse until the context goes (hipDeviceReset). */
static struct ah_nv_stage *stage_get(struct ah_nv_device *nd, size_t bytes) {
  struct ah_nv_stage *st;

  pthread_mutex_lock(&nd->lock);
  for (st = nd->stages; st != NULL; st = st->next)
    if (!st->busy && st->cap >= bytes && ah_cuda.cuEventQuery(st->done) == CUDA_SUCCESS) {
      st->busy = 1;
      break;
    }
  pthread_mutex_unlock(&nd->lock);
  if (st != NULL)
    return st;
  if ((st = calloc(1, sizeof(*st))) == NULL)
    return NULL;
  st->cap = (bytes + STAGE_MIN - 1) / STAGE_MIN * STAGE_MIN;
  if (ah_cuda.cuMemHostAlloc(&st->buf, st->cap, CU_MEMHOSTALLOC_PORTABLE) != CUDA_SUCCESS) {
    free(st);
    return NULL;
  }
  if (ah_cuda.cuEventCreate(&st->done, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    ah_cuda.cuMemFreeHost(st->buf);
    free(st);
    return NULL;
  }
  st->busy = 1;
  pthread_mutex_lock(&nd->lock);
  st->next = nd->stages;
  nd->stages = st;
  pthread_mutex_unlock(&nd->lock);
  return st;
}

static void stage_put(struct ah_nv_device *nd, struct ah_nv_stage *st) {
  pthread_mutex_lock(&nd->lock);
  st->busy = 0;
  pthread_mutex_unlock(&nd->lock);
}

void ah_nv_stages_reset(struct ah_nv_device *nd) {
  pthread_mutex_lock(&nd->lock);
  while (nd->stages != NULL) {
    struct ah_nv_stage *st = nd->stages;

    nd->stages = st->next;
    free(st); /* the pinned buffer and the event went with the context */
  }
  pthread_mutex_unlock(&nd->lock);
}

/* Before a 2D or 3D copy from pageable memory (no staging for those): waits
 * until the stream has done what the copy would wait for, so that the
 * driver reads the source after it. */
static CUresult settle(struct ah_nv_queue *q) {
  CUresult r = CUDA_SUCCESS;

  pthread_mutex_lock(&q->submit);
  if (would_wait(q) && q->idle != NULL)
    r = ah_cuda.cuEventSynchronize(q->idle);
  pthread_mutex_unlock(&q->submit);
  return r;
}

/* The copy of cmd (host to device, from pageable memory) through a staging
 * buffer, when q would make it wait. *staged says whether it was enqueued
 * so; otherwise the caller enqueues it as usual. */
static CUresult copy_staged(struct ah_nv_device *nd, struct ah_nv_queue *q,
                            const struct ah_cmd *cmd, int *staged) {
  struct ah_nv_stage *st;
  struct stage_job *j;
  int wait;
  CUresult r;

  *staged = 0;
  pthread_mutex_lock(&q->submit);
  wait = would_wait(q);
  pthread_mutex_unlock(&q->submit);
  if (!wait)
    return CUDA_SUCCESS;
  if ((st = stage_get(nd, cmd->copy.bytes)) == NULL)
    return CUDA_SUCCESS; /* no pinned memory: the driver's path after all */
  if ((j = malloc(sizeof(*j))) == NULL) {
    stage_put(nd, st);
    return CUDA_SUCCESS;
  }
  *j = (struct stage_job){st->buf, cmd->copy.src, cmd->copy.bytes};
  r = ah_nv_config.driver_host_fns ? CUDA_ERROR_NOT_SUPPORTED : host_fn(q, stage_in, j);
  if (r != CUDA_SUCCESS)
    r = ah_cuda.cuLaunchHostFunc(q->s, stage_in, j);
  if (r != CUDA_SUCCESS) {
    free(j);
    stage_put(nd, st);
    return CUDA_SUCCESS;
  }
  *staged = 1;
  r = ah_cuda.cuMemcpyAsync(DPTR(cmd->copy.dst), DPTR(st->buf), cmd->copy.bytes, q->s);
  /* Recorded even after a failed copy: the host function still writes buf. */
  if (ah_cuda.cuEventRecord(st->done, q->s) == CUDA_SUCCESS)
    stage_put(nd, st); /* else the buffer stays busy: never reused */
  return r;
}

static CUresult launch(struct ah_nv_device *nd, const struct ah_cmd *cmd, CUstream s,
                       hipError_t *lookup_err) {
  CUfunction f;
  const dim3 *g = &cmd->kernel.grid, *b = &cmd->kernel.block;
  unsigned int shm = (unsigned int)cmd->kernel.shared_bytes;

  *lookup_err = ah_nv_function(nd, cmd->kernel.fn, cmd->kernel.shared_bytes, &f);
  if (*lookup_err != hipSuccess)
    return CUDA_SUCCESS;
  /* The arguments array is exactly CUDA's kernelParams (one pointer per
   * parameter, each at the parameter's type); the driver copies them before
   * returning. */
  if (cmd->kernel.cooperative)
    return ah_cuda.cuLaunchCooperativeKernel(f, g->x, g->y, g->z, b->x, b->y, b->z, shm, s,
                                             cmd->kernel.args);
  return ah_cuda.cuLaunchKernel(f, g->x, g->y, g->z, b->x, b->y, b->z, shm, s, cmd->kernel.args,
                                NULL);
}

hipError_t ah_nv_submit(struct ah_device *dev, struct ah_queue *q, const struct ah_cmd *cmd,
                        int wait) {
  struct ah_nv_device *nd = AH_NV(dev);
  CUstream s = QUEUE(q)->s;
  int legacy = s == CU_STREAM_LEGACY, done = 0;
  CUDA_MEMCPY2D c2;
  CUDA_MEMCPY3D c3;
  hipError_t err;
  CUresult r;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  if (!wait && is_host_op(cmd)) {
    struct ah_cmd *op = malloc(sizeof(*op));

    if (op == NULL)
      return hipErrorOutOfMemory;
    *op = *cmd;
    r = ah_nv_config.driver_host_fns ? CUDA_ERROR_NOT_SUPPORTED
                                     : host_fn(QUEUE(q), host_op_run, op);
    if (r != CUDA_SUCCESS)
      r = ah_cuda.cuLaunchHostFunc(s, host_op_run, op);
    if (r != CUDA_SUCCESS)
      free(op);
    return ah_cuda_status(r);
  }
  switch (cmd->kind) {
  case AH_CMD_KERNEL:
    r = launch(nd, cmd, s, &err);
    if (err != hipSuccess)
      return err;
    break;
  case AH_CMD_COPY:
    if (wait && cmd->copy.kind == hipMemcpyHostToHost) {
      /* Two host buffers (pageable, as likely as not): the host copies them
       * once the queue's earlier work is done. */
      r = ah_cuda.cuStreamSynchronize(s);
      if (r == CUDA_SUCCESS)
        memmove(cmd->copy.dst, cmd->copy.src, cmd->copy.bytes);
      done = 1;
    } else if (wait && legacy) {
      /* What cudaMemcpy does: the driver's synchronous path, fastest for
       * pageable memory. A copy to the host is complete when it returns; the
       * others may still be in flight (pageable staging, device to device). */
      r = ah_cuda.cuMemcpy(DPTR(cmd->copy.dst), DPTR(cmd->copy.src), cmd->copy.bytes);
      done = cmd->copy.kind == hipMemcpyDeviceToHost;
    } else {
      int staged = 0;

      r = CUDA_SUCCESS;
      if (cmd->copy.kind == hipMemcpyHostToDevice && cmd->copy.bytes != 0 &&
          pageable(cmd->copy.src))
        r = copy_staged(nd, QUEUE(q), cmd, &staged);
      if (!staged)
        r = ah_cuda.cuMemcpyAsync(DPTR(cmd->copy.dst), DPTR(cmd->copy.src), cmd->copy.bytes, s);
    }
    break;
  case AH_CMD_COPY_2D:
    copy2d(cmd, &c2);
    r = CUDA_SUCCESS;
    if (!(wait && legacy) && cmd->copy2d.kind == hipMemcpyHostToDevice &&
        pageable(cmd->copy2d.src))
      r = settle(QUEUE(q));
    if (r == CUDA_SUCCESS)
      r = wait && legacy ? ah_cuda.cuMemcpy2D(&c2) : ah_cuda.cuMemcpy2DAsync(&c2, s);
    break;
  case AH_CMD_COPY_3D:
    copy3d(cmd, &c3);
    r = CUDA_SUCCESS;
    if (!(wait && legacy) && cmd->copy3d.kind == hipMemcpyHostToDevice &&
        pageable(cmd->copy3d.src))
      r = settle(QUEUE(q));
    if (r == CUDA_SUCCESS)
      r = wait && legacy ? ah_cuda.cuMemcpy3D(&c3) : ah_cuda.cuMemcpy3DAsync(&c3, s);
    break;
  case AH_CMD_SET:
    r = cmd->set.height <= 1 ? memset_1d(cmd, s) : memset_2d(cmd, s);
    break;
  case AH_CMD_HOST_FN:
    r = ah_nv_config.driver_host_fns ? CUDA_ERROR_NOT_SUPPORTED
                                     : host_fn(QUEUE(q), cmd->host_fn.fn, cmd->host_fn.data);
    if (r != CUDA_SUCCESS) {
      /* No stream memory operations here: CUDA's host-function thread, which
       * one blocking function holds for every stream. */
      AH_LOG(NVIDIA, "device %d: host function through cuLaunchHostFunc (%s)", dev->ordinal,
             ah_cuda_error_name(r));
      r = ah_cuda.cuLaunchHostFunc(s, cmd->host_fn.fn, cmd->host_fn.data);
    }
    break;
  default:
    return hipErrorInvalidValue;
  }
  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "device %d: command %d: %s", dev->ordinal, (int)cmd->kind,
           ah_cuda_error_name(r));
    return ah_cuda_status(r);
  }
  if (wait && !done)
    return ah_cuda_status(ah_cuda.cuStreamSynchronize(s));
  return hipSuccess;
}

hipError_t ah_nv_queue_sync(struct ah_device *dev, struct ah_queue *q) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuStreamSynchronize(QUEUE(q)->s));
}

hipError_t ah_nv_queue_query(struct ah_device *dev, struct ah_queue *q) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuStreamQuery(QUEUE(q)->s));
}

hipError_t ah_nv_device_sync(struct ah_device *dev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuCtxSynchronize());
}

hipError_t ah_nv_event_create(struct ah_device *dev, unsigned flags, struct ah_dev_event **ev) {
  unsigned cu_flags = CU_EVENT_DEFAULT;
  CUevent e = NULL;
  hipError_t err = ah_nv_enter(AH_NV(dev));

  if (err != hipSuccess)
    return err;
  if (flags & hipEventBlockingSync)
    cu_flags |= CU_EVENT_BLOCKING_SYNC;
  if (flags & hipEventDisableTiming)
    cu_flags |= CU_EVENT_DISABLE_TIMING;
  if (flags & hipEventInterprocess)
    cu_flags |= CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING;
  err = ah_cuda_status(ah_cuda.cuEventCreate(&e, cu_flags));
  if (err == hipSuccess)
    *ev = (struct ah_dev_event *)e;
  return err;
}

hipError_t ah_nv_event_destroy(struct ah_device *dev, struct ah_dev_event *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventDestroy(EVENT(ev)));
}

hipError_t ah_nv_event_record(struct ah_device *dev, struct ah_queue *q, struct ah_dev_event *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventRecord(EVENT(ev), QUEUE(q)->s));
}

hipError_t ah_nv_event_query(struct ah_device *dev, struct ah_dev_event *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventQuery(EVENT(ev)));
}

hipError_t ah_nv_event_sync(struct ah_device *dev, struct ah_dev_event *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err : ah_cuda_status(ah_cuda.cuEventSynchronize(EVENT(ev)));
}

hipError_t ah_nv_event_elapsed(struct ah_device *dev, struct ah_dev_event *start,
                               struct ah_dev_event *stop, float *ms) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  if (err != hipSuccess)
    return err;
  return ah_cuda_status(ah_cuda.cuEventElapsedTime(ms, EVENT(start), EVENT(stop)));
}

hipError_t ah_nv_queue_wait_event(struct ah_device *dev, struct ah_queue *q,
                                  struct ah_dev_event *ev) {
  hipError_t err = ah_nv_enter(AH_NV(dev));

  return err != hipSuccess ? err
                           : ah_cuda_status(ah_cuda.cuStreamWaitEvent(QUEUE(q)->s, EVENT(ev), 0));
}

/* hipStreamWaitValue / WriteValue: CUDA's stream memory operations, whose
 * conditions (GEQ, EQ, AND, NOR) have HIP's numbers. CUDA has no mask: a
 * wait with one is hipErrorNotSupported here, which sends it to the core's
 * host-function fallback (host-visible words only). CUDA's GEQ is cyclic
 * ((int)(*addr - value) >= 0), HIP's on AMD a plain comparison. */
hipError_t ah_nv_stream_memop(struct ah_device *dev, struct ah_queue *q,
                              const struct ah_memop_req *r) {
  hipError_t err = ah_nv_enter(AH_NV(dev));
  CUstream s = QUEUE(q)->s;
  CUdeviceptr p = (CUdeviceptr)(uintptr_t)r->ptr;

  if (err != hipSuccess)
    return err;
  if (!r->write && r->mask != (r->wide ? UINT64_MAX : UINT32_MAX) && r->mask != UINT64_MAX)
    return hipErrorNotSupported;
  if (r->wide && (r->write ? ah_cuda.cuStreamWriteValue64 : ah_cuda.cuStreamWaitValue64) == NULL)
    return hipErrorNotSupported;
  if (r->write)
    return ah_cuda_status(r->wide ? ah_cuda.cuStreamWriteValue64(s, p, r->value, 0)
                                  : ah_cuda.cuStreamWriteValue32(s, p, (uint32_t)r->value, 0));
  return ah_cuda_status(r->wide ? ah_cuda.cuStreamWaitValue64(s, p, r->value, r->op)
                                : ah_cuda.cuStreamWaitValue32(s, p, (uint32_t)r->value, r->op));
}
