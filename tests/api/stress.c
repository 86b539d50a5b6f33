/* SPDX-License-Identifier: MIT */
/* Concurrency stress tests of streams, events and memory, run from several
 * host threads at once: stream and event churn with work still queued,
 * random programs over four streams and the null stream checked against a
 * sequential reference, hipDeviceSynchronize from many threads, destroying
 * streams (and exiting threads with per-thread streams) while their work is
 * held back, and hipMalloc/hipFree racing pointer queries. Each asserts only
 * what HIP's ordering rules guarantee, so the results are deterministic;
 * they are also meant to be run under ThreadSanitizer. */
#include "ah_test.h"
#include "gate.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ST_THREADS 4

/* A small deterministic generator (xorshift), one per thread or program. */
static unsigned rnd(unsigned *s) {
  unsigned x = *s;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static void count_fn(void *p) {
  atomic_fetch_add((atomic_int *)p, 1);
}

/* Runs fn(i) on ST_THREADS threads and returns AH_PASS if every one did. */
static int run_threads(void *(*fn)(void *)) {
  pthread_t t[ST_THREADS];
  intptr_t rc[ST_THREADS];

  for (intptr_t i = 0; i < ST_THREADS; i++)
    CHECK_EQ(pthread_create(&t[i], NULL, fn, (void *)i), 0);
  for (int i = 0; i < ST_THREADS; i++) {
    void *r;

    pthread_join(t[i], &r);
    rc[i] = (intptr_t)r;
  }
  for (int i = 0; i < ST_THREADS; i++)
    CHECK_EQ(rc[i], AH_PASS);
  return AH_PASS;
}

/* In a thread: a failed check returns AH_FAIL through pthread_exit's value. */
#define T_CHECK(c)                                                                  \
  do {                                                                              \
    if (!(c)) {                                                                     \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c);         \
      return (void *)(intptr_t)AH_FAIL;                                             \
    }                                                                               \
  } while (0)
#define T_HIP(x)                                                                    \
  do {                                                                              \
    hipError_t e_ = (x);                                                            \
    if (e_ != hipSuccess) {                                                         \
      fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #x,            \
              hipGetErrorName(e_));                                                 \
      return (void *)(intptr_t)AH_FAIL;                                             \
    }                                                                               \
  } while (0)

/* ---- stream and event churn ------------------------------------------------ */

#define CHURN_ITERS 120
static atomic_int churn_count;

/* Every iteration makes a stream and an event, queues a memset, a host
 * function and a record there, destroys both at once (work still queued),
 * and reads the result on the per-thread stream after waiting for the
 * event: the wait must hold even though stream and event are gone. */
static void *churn_thread(void *arg) {
  int id = (int)(intptr_t)arg;
  int *buf, *out;

  T_HIP(hipHostMalloc((void **)&buf, sizeof(int), 0));
  T_HIP(hipHostMalloc((void **)&out, sizeof(int), 0));
  for (int it = 0; it < CHURN_ITERS; it++) {
    hipStream_t s;
    hipEvent_t e;
    int want = id * 100000 + it;

    if (it % 3 == 0)
      T_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    else
      T_HIP(hipStreamCreate(&s));
    T_HIP(hipEventCreateWithFlags(&e, it % 2 ? hipEventDisableTiming : 0));
    T_HIP(hipMemsetD32Async((hipDeviceptr_t)buf, want, 1, s));
    T_HIP(hipLaunchHostFunc(s, count_fn, &churn_count));
    T_HIP(hipEventRecord(e, s));
    T_HIP(hipStreamDestroy(s));
    T_HIP(hipStreamWaitEvent(hipStreamPerThread, e, 0));
    T_HIP(hipEventDestroy(e));
    T_HIP(hipMemcpyAsync(out, buf, sizeof(int), hipMemcpyDefault, hipStreamPerThread));
    T_HIP(hipStreamSynchronize(hipStreamPerThread));
    T_CHECK(*out == want);
  }
  T_HIP(hipHostFree(buf));
  T_HIP(hipHostFree(out));
  return (void *)(intptr_t)AH_PASS;
}

AH_TEST(stress_stream_event_churn) {
  atomic_store(&churn_count, 0);
  CHECK_EQ(run_threads(churn_thread), AH_PASS);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&churn_count), ST_THREADS * CHURN_ITERS);
  return AH_PASS;
}

/* ---- random programs over four streams and the null stream --------------- */

/* Variables live in managed memory, so that copies, sets and host functions
 * all reach them on any device, and a copy between them stays asynchronous
 * (between host buffers, pinned ones too, it would wait for its stream: CUDA's
 * rule, and the gate below would hold it forever). Each operation reads some
 * variables and writes one; before it is queued on stream s, every earlier
 * access to those variables is ordered before it: by FIFO order on s, by
 * HIP's null-stream rules where they apply, else by an event recorded on the
 * stream of that access (one event per stream, re-recorded each time: a
 * wait holds the record current when it was made). */
#define PROG_VARS 24
#define PROG_OPS 500
#define PROG_STREAMS 5 /* 0 is the null stream */

enum { OP_SET, OP_COPY, OP_AFFINE, OP_MIX };

struct prog_op {
  unsigned *v;
  int kind, dst, a, b;
  unsigned k1, k2;
};

static void affine_fn(void *p) {
  struct prog_op *o = p;

  o->v[o->dst] = o->v[o->dst] * o->k1 + o->k2;
}

static void mix_fn(void *p) {
  struct prog_op *o = p;

  o->v[o->dst] = o->v[o->a] * 3u + o->v[o->b] + o->k1;
}

static void prog_ref(unsigned *v, const struct prog_op *o) {
  switch (o->kind) {
  case OP_SET:
    v[o->dst] = o->k1;
    break;
  case OP_COPY:
    v[o->dst] = v[o->a];
    break;
  case OP_AFFINE:
    v[o->dst] = v[o->dst] * o->k1 + o->k2;
    break;
  default:
    v[o->dst] = v[o->a] * 3u + v[o->b] + o->k1;
    break;
  }
}

static int stream_blocking(int s, const unsigned *flags) {
  return s != 0 && !(flags[s] & hipStreamNonBlocking);
}

/* Whether an access on stream `from` is ordered before a later op on `to`
 * without an event. */
static int implied(int from, int to, const unsigned *flags) {
  if (from == to)
    return 1;
  if (to == 0)
    return stream_blocking(from, flags); /* the null stream waits for blocking streams */
  if (from == 0)
    return stream_blocking(to, flags); /* blocking streams wait for the null stream */
  return 0;
}

/* With `phase` set, the threads running programs at once meet there before
 * holding their streams and again once all are released: allocating,
 * freeing and waiting for the device then never happen while another
 * thread holds a stream it has yet to release. On NVIDIA, the driver holds
 * up every thread's calls during such a call that waits for the device (as
 * with cudaMemcpy, cudaFreeHost): a thread holding its gate would block. */
static int run_program(unsigned seed, int use_legacy, pthread_barrier_t *phase) {
  hipStream_t st[PROG_STREAMS];
  unsigned flags[PROG_STREAMS] = {0, hipStreamDefault, hipStreamNonBlocking, 0,
                                  hipStreamNonBlocking};
  hipEvent_t ev[PROG_STREAMS];
  struct prog_op *ops = calloc(PROG_OPS, sizeof(*ops));
  struct gate g = GATE_INIT;
  unsigned *v, ref[PROG_VARS];
  int last[PROG_VARS]; /* stream of the latest access to each variable */

  CHECK(ops != NULL);
  st[0] = use_legacy ? hipStreamLegacy : NULL;
  CHECK_HIP(hipStreamCreate(&st[1]));
  CHECK_HIP(hipStreamCreateWithFlags(&st[2], hipStreamNonBlocking));
  st[3] = hipStreamPerThread;
  CHECK_HIP(hipStreamCreateWithPriority(&st[4], hipStreamNonBlocking, -1));
  for (int s = 0; s < PROG_STREAMS; s++)
    CHECK_HIP(hipEventCreateWithFlags(&ev[s], hipEventDisableTiming));
  CHECK_HIP(hipMallocManaged((void **)&v, PROG_VARS * sizeof(unsigned), hipMemAttachGlobal));
  for (int i = 0; i < PROG_VARS; i++) {
    v[i] = ref[i] = (unsigned)i * 2654435761u + seed;
    last[i] = 0;
  }
  if (phase != NULL)
    pthread_barrier_wait(phase);
  /* Hold every user stream back, so that the queues fill up and ordering is
   * decided by dependencies, not by the order of submission. */
  for (int s = 1; s < PROG_STREAMS; s++)
    CHECK_HIP(hipLaunchHostFunc(st[s], gate_fn, &g));

  for (int i = 0; i < PROG_OPS; i++) {
    struct prog_op *o = &ops[i];
    int s = (int)(rnd(&seed) % PROG_STREAMS), uses[3], n = 0;

    o->v = v;
    o->kind = (int)(rnd(&seed) % 4);
    o->dst = (int)(rnd(&seed) % PROG_VARS);
    o->a = (int)(rnd(&seed) % PROG_VARS);
    o->b = (int)(rnd(&seed) % PROG_VARS);
    o->k1 = rnd(&seed);
    o->k2 = rnd(&seed);
    uses[n++] = o->dst;
    if (o->kind == OP_COPY || o->kind == OP_MIX)
      uses[n++] = o->a;
    if (o->kind == OP_MIX)
      uses[n++] = o->b;
    for (int k = 0; k < n; k++) {
      int from = last[uses[k]];

      if (!implied(from, s, flags)) {
        CHECK_HIP(hipEventRecord(ev[from], st[from]));
        CHECK_HIP(hipStreamWaitEvent(st[s], ev[from], 0));
      }
    }
    switch (o->kind) {
    case OP_SET:
      CHECK_HIP(hipMemsetD32Async((hipDeviceptr_t)&v[o->dst], (int)o->k1, 1, st[s]));
      break;
    case OP_COPY:
      CHECK_HIP(hipMemcpyAsync(&v[o->dst], &v[o->a], sizeof(unsigned), hipMemcpyDefault, st[s]));
      break;
    case OP_AFFINE:
      CHECK_HIP(hipLaunchHostFunc(st[s], affine_fn, o));
      break;
    default:
      CHECK_HIP(hipLaunchHostFunc(st[s], mix_fn, o));
      break;
    }
    for (int k = 0; k < n; k++)
      last[uses[k]] = s;
    prog_ref(ref, o);
  }
  gate_open(&g);
  if (phase != NULL)
    pthread_barrier_wait(phase);
  CHECK_HIP(hipDeviceSynchronize());
  for (int i = 0; i < PROG_VARS; i++)
    CHECK_EQ(v[i], ref[i]);
  for (int s = 0; s < PROG_STREAMS; s++)
    CHECK_HIP(hipEventDestroy(ev[s]));
  CHECK_HIP(hipStreamDestroy(st[1]));
  CHECK_HIP(hipStreamDestroy(st[2]));
  CHECK_HIP(hipStreamDestroy(st[4]));
  CHECK_HIP(hipFree(v));
  free(ops);
  return AH_PASS;
}

AH_TEST(stress_streams_vs_reference) {
  for (unsigned seed = 1; seed <= 6; seed++)
    CHECK_EQ(run_program(seed * 0x9e3779b9u, seed % 2, NULL), AH_PASS);
  return AH_PASS;
}

/* The same programs from several host threads at once: each thread has its
 * own variables and streams, and they all share the null stream, which only
 * adds ordering. (A check failing between meetings leaves the others
 * waiting: the test then fails by its timeout.) */
static pthread_barrier_t program_phase;

static void *program_thread(void *arg) {
  unsigned id = (unsigned)(intptr_t)arg;
  int rc = AH_PASS;

  for (unsigned r = 0; r < 2; r++)
    if (run_program(id * 7919u + r * 104729u + 1u, (int)(r + id) % 2, &program_phase) != AH_PASS)
      rc = AH_FAIL;
  return (void *)(intptr_t)rc;
}

AH_TEST(stress_streams_vs_reference_threads) {
  int rc;

  CHECK_EQ(pthread_barrier_init(&program_phase, NULL, ST_THREADS), 0);
  rc = run_threads(program_thread);
  pthread_barrier_destroy(&program_phase);
  return rc;
}

/* ---- hipDeviceSynchronize from several threads ----------------------------- */

#define DSYNC_ITERS 300
static atomic_int dsync_done[ST_THREADS];

/* Each thread queues host functions on its own stream (and copies on the null
 * stream) and often calls hipDeviceSynchronize, or synchronizes the null
 * stream, which covers blocking streams: everything it queued before must
 * have run when the call returns, whatever the other threads do. */
static void *dsync_thread(void *arg) {
  int id = (int)(intptr_t)arg, submitted = 0;
  hipStream_t s;
  int *d, h = 0;

  T_HIP(hipStreamCreate(&s));
  T_HIP(hipMalloc((void **)&d, sizeof(int)));
  for (int it = 0; it < DSYNC_ITERS; it++) {
    T_HIP(hipLaunchHostFunc(s, count_fn, &dsync_done[id]));
    submitted++;
    if (it % 5 == 0) {
      T_HIP(hipMemsetD32Async((hipDeviceptr_t)d, it, 1, s));
      T_HIP(hipMemcpyAsync(&h, d, sizeof(int), hipMemcpyDeviceToHost, NULL));
    }
    if (it % 7 == 0) {
      T_HIP(hipDeviceSynchronize());
      T_CHECK(atomic_load(&dsync_done[id]) == submitted);
    } else if (it % 7 == 3) {
      T_HIP(hipStreamSynchronize(NULL));
      T_CHECK(atomic_load(&dsync_done[id]) == submitted);
    }
  }
  T_HIP(hipDeviceSynchronize());
  T_CHECK(atomic_load(&dsync_done[id]) == submitted);
  T_CHECK(h == (DSYNC_ITERS - 1) / 5 * 5);
  T_HIP(hipFree(d));
  T_HIP(hipStreamDestroy(s));
  return (void *)(intptr_t)AH_PASS;
}

AH_TEST(stress_device_sync_threads) {
  for (int i = 0; i < ST_THREADS; i++)
    atomic_store(&dsync_done[i], 0);
  return run_threads(dsync_thread);
}

/* ---- destroying streams with queued work ------------------------------------ */

#define DESTROY_ITERS 40
#define DESTROY_WORK 8

struct destroy_check {
  atomic_int *count;
  int want;
  atomic_int ok;
};

static void destroy_check_fn(void *p) {
  struct destroy_check *c = p;

  atomic_store(&c->ok, atomic_load(c->count) == c->want ? 1 : 2);
}

static unsigned *destroy_bufs[ST_THREADS];

/* A blocking stream is held by a gate, gets work and is destroyed; a host
 * function queued on the null stream afterwards must still wait for all of
 * that work. A non-blocking stream's work must finish by the next device
 * synchronization. Four threads do this at once. The buffers are freed once
 * every thread is done: hipHostFree waits for the whole device, and on
 * NVIDIA the driver holds up other threads' calls meanwhile (as with
 * cudaFreeHost), so a free while another thread holds its gate deadlocks. */
static void *destroy_thread(void *arg) {
  int id = (int)(intptr_t)arg;
  unsigned *buf = destroy_bufs[id];

  for (int it = 0; it < DESTROY_ITERS; it++) {
    struct gate g = GATE_INIT;
    struct destroy_check chk = {0};
    atomic_int count = 0;
    int nonblocking = it % 4 == 3;
    hipStream_t s;

    T_HIP(hipStreamCreateWithFlags(&s, nonblocking ? hipStreamNonBlocking : hipStreamDefault));
    T_HIP(hipLaunchHostFunc(s, gate_fn, &g));
    for (int k = 0; k < DESTROY_WORK; k++) {
      T_HIP(hipMemsetD32Async((hipDeviceptr_t)&buf[k], id * 1000 + it + k, 1, s));
      T_HIP(hipLaunchHostFunc(s, count_fn, &count));
    }
    T_HIP(hipStreamDestroy(s));
    chk.count = &count;
    chk.want = DESTROY_WORK;
    if (!nonblocking)
      T_HIP(hipLaunchHostFunc(NULL, destroy_check_fn, &chk));
    T_CHECK(atomic_load(&count) == 0); /* still held by the gate */
    gate_open(&g);
    if (nonblocking) {
      T_HIP(hipDeviceSynchronize());
    } else {
      T_HIP(hipStreamSynchronize(NULL));
      T_CHECK(atomic_load(&chk.ok) == 1);
    }
    T_CHECK(atomic_load(&count) == DESTROY_WORK);
    for (int k = 0; k < DESTROY_WORK; k++)
      T_CHECK(buf[k] == (unsigned)(id * 1000 + it + k));
  }
  return (void *)(intptr_t)AH_PASS;
}

AH_TEST(stress_destroy_queued_work) {
  int rc;

  for (int i = 0; i < ST_THREADS; i++)
    CHECK_HIP(hipHostMalloc((void **)&destroy_bufs[i], DESTROY_WORK * sizeof(unsigned), 0));
  rc = run_threads(destroy_thread);
  for (int i = 0; i < ST_THREADS; i++)
    CHECK_HIP(hipHostFree(destroy_bufs[i]));
  return rc;
}

/* ---- deep queues behind a held stream ------------------------------------- */

#define DEEP_FNS 300

struct deep_item {
  atomic_int *next; /* the number of functions run so far */
  int id;
  atomic_int *bad;
};

static void deep_fn(void *p) {
  struct deep_item *it = p;

  if (atomic_fetch_add(it->next, 1) != it->id)
    atomic_store(it->bad, 1);
}

/* Hundreds of host functions, each followed by a set, queued on two streams
 * behind a gate: every enqueue returns (on NVIDIA the driver blocks a record
 * of a blocking-sync event once about 56 are pending, so each host function
 * cannot have its own), and the functions then run in order. */
AH_TEST(stress_deep_held_queue) {
  static struct deep_item items[2][DEEP_FNS];
  atomic_int next[2] = {0, 0}, bad = 0;
  struct gate g = GATE_INIT;
  hipStream_t s[2];
  int *d;

  CHECK_HIP(hipMalloc((void **)&d, 2 * sizeof(int)));
  for (int k = 0; k < 2; k++) {
    CHECK_HIP(hipStreamCreateWithFlags(&s[k], hipStreamNonBlocking));
    CHECK_HIP(hipLaunchHostFunc(s[k], gate_fn, &g));
  }
  for (int i = 0; i < DEEP_FNS; i++)
    for (int k = 0; k < 2; k++) {
      items[k][i] = (struct deep_item){&next[k], i, &bad};
      CHECK_HIP(hipLaunchHostFunc(s[k], deep_fn, &items[k][i]));
      CHECK_HIP(hipMemsetD32Async((hipDeviceptr_t)&d[k], i, 1, s[k]));
    }
  CHECK_EQ(atomic_load(&next[0]) + atomic_load(&next[1]), 0); /* still held */
  gate_open(&g);
  for (int k = 0; k < 2; k++) {
    int h = -1;

    CHECK_HIP(hipStreamSynchronize(s[k]));
    CHECK_EQ(atomic_load(&next[k]), DEEP_FNS);
    CHECK_HIP(hipMemcpy(&h, &d[k], sizeof(int), hipMemcpyDeviceToHost));
    CHECK_EQ(h, DEEP_FNS - 1);
    CHECK_HIP(hipStreamDestroy(s[k]));
  }
  CHECK_EQ(atomic_load(&bad), 0);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* ---- per-thread streams of exiting threads ---------------------------------- */

#define EXIT_THREADS 8
static atomic_int exit_marks[EXIT_THREADS];

static void slow_mark_fn(void *p) {
  sleep_ms(30);
  atomic_store((atomic_int *)p, 1);
}

static void *exit_thread(void *arg) {
  int id = (int)(intptr_t)arg;

  /* The thread's stream goes when it exits; its work must still run, and the
   * null stream must still wait for it (a per-thread stream is blocking). */
  if (hipLaunchHostFunc(hipStreamPerThread, slow_mark_fn, &exit_marks[id]) != hipSuccess)
    return (void *)(intptr_t)AH_FAIL;
  return (void *)(intptr_t)AH_PASS;
}

AH_TEST(stress_per_thread_stream_exit) {
  pthread_t t[EXIT_THREADS];

  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < EXIT_THREADS; i++)
      atomic_store(&exit_marks[i], 0);
    for (intptr_t i = 0; i < EXIT_THREADS; i++)
      CHECK_EQ(pthread_create(&t[i], NULL, exit_thread, (void *)i), 0);
    for (int i = 0; i < EXIT_THREADS; i++) {
      void *r;

      pthread_join(t[i], &r);
      CHECK_EQ((intptr_t)r, AH_PASS);
    }
    CHECK_HIP(hipStreamSynchronize(NULL));
    for (int i = 0; i < EXIT_THREADS; i++)
      CHECK_EQ(atomic_load(&exit_marks[i]), 1);
  }
  return AH_PASS;
}

/* ---- dispatchers that exit when idle ----------------------------------------- */

#define IDLE_STREAMS 8

/* A stream's thread gives itself back after 2 s without work (docs/
 * semantics.md). Streams get work at staggered times, then more work right
 * around the moments their threads time out, then after they all have: every
 * command must still run, in order, and the null stream must still wait. */
AH_TEST(stress_dispatcher_idle_restart) {
  hipStream_t s[IDLE_STREAMS];
  atomic_int n[IDLE_STREAMS];
  struct order_log log = {0};
  struct order_item items[3 * IDLE_STREAMS];
  struct destroy_check chk[IDLE_STREAMS];
  double t0;

  for (int i = 0; i < IDLE_STREAMS; i++) {
    atomic_store(&n[i], 0);
    CHECK_HIP(hipStreamCreate(&s[i]));
  }
  t0 = now_ms();
  for (int i = 0; i < IDLE_STREAMS; i++) {
    CHECK_HIP(hipLaunchHostFunc(s[i], count_fn, &n[i]));
    sleep_ms(3);
  }
  /* Around the first threads' 2 s timeouts: some submissions race an exit. */
  while (now_ms() < t0 + 2000 - 6)
    sleep_ms(1);
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < IDLE_STREAMS; i++) {
      items[round * IDLE_STREAMS + i] = (struct order_item){&log, round};
      CHECK_HIP(hipLaunchHostFunc(s[i], count_fn, &n[i]));
      CHECK_HIP(hipLaunchHostFunc(s[i], order_fn, &items[round * IDLE_STREAMS + i]));
      sleep_ms(1);
    }
    for (int i = 0; i < IDLE_STREAMS; i++) {
      chk[i] = (struct destroy_check){.count = &n[i], .want = 2 + round};
      atomic_store(&chk[i].ok, 0);
      CHECK_HIP(hipLaunchHostFunc(NULL, destroy_check_fn, &chk[i]));
    }
    CHECK_HIP(hipStreamSynchronize(NULL));
    for (int i = 0; i < IDLE_STREAMS; i++) {
      CHECK_EQ(atomic_load(&n[i]), 2 + round);
      CHECK_EQ(atomic_load(&chk[i].ok), 1);
    }
    if (round == 1)
      sleep_ms(2100); /* every thread has gone: the next round starts them again */
  }
  CHECK_EQ(atomic_load(&log.n), 3 * IDLE_STREAMS);
  for (int k = 1; k < 3 * IDLE_STREAMS; k++)
    CHECK(log.seq[k - 1] <= log.seq[k]); /* rounds never overlap: each was synchronized */
  for (int i = 0; i < IDLE_STREAMS; i++)
    CHECK_HIP(hipStreamDestroy(s[i]));
  return AH_PASS;
}

/* ---- allocation map under concurrent allocate, free and query --------------- */

#define ALLOC_ITERS 400
#define ALLOC_LIVE 8

struct live_alloc {
  void *p;
  size_t bytes;
  int kind; /* 0 device, 1 pinned host, 2 managed */
};

static int attrs_match(const struct live_alloc *a) {
  hipPointerAttribute_t at;
  hipDeviceptr_t base = 0;
  size_t size = 0, off = a->bytes / 2;

  if (hipPointerGetAttributes(&at, (char *)a->p + off) != hipSuccess)
    return 0;
  if (at.devicePointer != (char *)a->p + off)
    return 0;
  if (a->kind == 0 && at.type != hipMemoryTypeDevice)
    return 0;
  if (a->kind == 1 && (at.type != hipMemoryTypeHost || at.hostPointer != (char *)a->p + off))
    return 0;
  if (a->kind == 2 && (at.type != hipMemoryTypeManaged || !at.isManaged))
    return 0;
  if (hipMemGetAddressRange(&base, &size, (hipDeviceptr_t)((char *)a->p + off)) != hipSuccess)
    return 0;
  return base == (hipDeviceptr_t)a->p && size == a->bytes;
}

/* Threads allocate (some sizes take the mmap path), query and free at once,
 * with asynchronous sets in flight on their per-thread streams (hipFree waits
 * for the device). Every live allocation of a thread must keep answering
 * with its own range and kind; a set of it must read back. */
static void *alloc_thread(void *arg) {
  unsigned seed = 0x1234567u + (unsigned)(intptr_t)arg * 977u;
  struct live_alloc live[ALLOC_LIVE] = {{0}};
  static const size_t sizes[] = {1, 24, 256, 4000, 65536, (size_t)1 << 20, (3u << 20) + 5};

  for (int it = 0; it < ALLOC_ITERS; it++) {
    struct live_alloc *a = &live[rnd(&seed) % ALLOC_LIVE];

    if (a->p != NULL) {
      unsigned word = 0;

      T_CHECK(attrs_match(a));
      T_HIP(hipMemcpy(&word, a->p, sizeof(word) <= a->bytes ? sizeof(word) : 1,
                      hipMemcpyDefault));
      if (a->bytes >= sizeof(word))
        T_CHECK(word == (unsigned)(uintptr_t)a->p);
      if (a->kind == 1)
        T_HIP(hipHostFree(a->p));
      else
        T_HIP(hipFree(a->p));
      a->p = NULL;
      continue;
    }
    a->bytes = sizes[rnd(&seed) % (sizeof(sizes) / sizeof(sizes[0]))];
    a->kind = (int)(rnd(&seed) % 3);
    if (a->kind == 0)
      T_HIP(hipMalloc(&a->p, a->bytes));
    else if (a->kind == 1)
      T_HIP(hipHostMalloc(&a->p, a->bytes, 0));
    else
      T_HIP(hipMallocManaged(&a->p, a->bytes, hipMemAttachGlobal));
    T_CHECK(attrs_match(a));
    if (a->bytes >= sizeof(unsigned))
      T_HIP(hipMemsetD32Async((hipDeviceptr_t)a->p, (int)(unsigned)(uintptr_t)a->p, 1,
                              hipStreamPerThread));
  }
  for (int i = 0; i < ALLOC_LIVE; i++) {
    if (live[i].p == NULL)
      continue;
    T_CHECK(attrs_match(&live[i]));
    if (live[i].kind == 1)
      T_HIP(hipHostFree(live[i].p));
    else
      T_HIP(hipFree(live[i].p));
  }
  return (void *)(intptr_t)AH_PASS;
}

AH_TEST(stress_alloc_map_threads) {
  return run_threads(alloc_thread);
}

/* ---- one event shared by several threads ------------------------------------ */

#define SHARED_EV_ITERS 1000
static hipEvent_t shared_ev;
static atomic_int shared_ev_stop;

/* Two threads record the event on their own streams over and over while two
 * others query and synchronize it: only success and hipErrorNotReady may come
 * back, and once everyone is done and the device is synchronized the event
 * is complete. */
static void *ev_thread(void *arg) {
  int id = (int)(intptr_t)arg;

  if (id < 2) {
    hipStream_t s;
    atomic_int n = 0;

    T_HIP(hipStreamCreate(&s));
    for (int it = 0; it < SHARED_EV_ITERS; it++) {
      T_HIP(hipLaunchHostFunc(s, count_fn, &n));
      T_HIP(hipEventRecord(shared_ev, s));
    }
    T_HIP(hipStreamSynchronize(s));
    T_CHECK(atomic_load(&n) == SHARED_EV_ITERS);
    T_HIP(hipStreamDestroy(s));
    atomic_fetch_add(&shared_ev_stop, 1);
    return (void *)(intptr_t)AH_PASS;
  }
  while (atomic_load(&shared_ev_stop) < 2) {
    hipError_t q = hipEventQuery(shared_ev);

    T_CHECK(q == hipSuccess || q == hipErrorNotReady);
    T_HIP(hipEventSynchronize(shared_ev));
  }
  return (void *)(intptr_t)AH_PASS;
}

AH_TEST(stress_event_shared_threads) {
  atomic_store(&shared_ev_stop, 0);
  CHECK_HIP(hipEventCreate(&shared_ev));
  CHECK_EQ(run_threads(ev_thread), AH_PASS);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipEventQuery(shared_ev));
  CHECK_HIP(hipEventDestroy(shared_ev));
  (void)hipGetLastError(); /* hipEventQuery's NotReady is never kept, but be sure */
  return AH_PASS;
}
