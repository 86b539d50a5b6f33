/* SPDX-License-Identifier: MIT */
/* The CPU engine's worker pool and grid scheduling. One pool per process,
 * shared by every virtual CPU device, started by the first launch with
 * ah_cpu_config.threads - 1 workers (0: one per core the process may run on,
 * less one), since the launching thread runs blocks too.
 * A grid joins a FIFO list; idle workers take it and claim its blocks from an
 * atomic counter, in shares that shrink towards the end of the grid, so
 * several grids (from several streams) run at once and a slow block never
 * holds up the others for long. The launching thread
 * (a stream's dispatcher) takes blocks too, and runs a grid of one block
 * alone: waking a worker costs more than most small grids. A cooperative
 * grid gets one thread per block instead, so that all its blocks are
 * resident at once. */
#define _GNU_SOURCE
#include "cpu_engine.h"
#include "../../os/symbols.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One launch while it runs; lives on the launching thread's stack. */
/* A grid's blocks are cut into one share per participant (the launching
 * thread and the pool's workers, up to MAX_SHARES), each claimed from its
 * front in chunks, by its owner first and then by whoever has run out: a
 * worker gets the same blocks launch after launch while the load is even,
 * so a kernel that reads the same data again (a benchmark's repetitions, an
 * iterative solver) finds its part still in that core's cache, as with
 * OpenMP's static schedule; a worker that comes late loses its share to the
 * others. Each share has a cache line of its own. */
#define MAX_SHARES 64
struct share {
  _Atomic uint64_t next; /* next block to hand out */
  uint64_t end;
} __attribute__((aligned(64)));

struct grid_run {
  const struct ah_cpu_grid *g;
  uint64_t nblocks;
  struct share share[MAX_SHARES];
  unsigned nshares;
  atomic_int failed;     /* a block faulted: hand out no more */
  hipError_t err;        /* first failure (pool lock) */
  int active;            /* workers inside (pool lock) */
  int listed;            /* in the pool's list (pool lock) */
  atomic_int finished;   /* !listed && active == 0, set under the pool lock */
  atomic_int single;     /* helpers joined (long clock polls): claim one block at a time */
  pthread_cond_t done;   /* signalled then */
  struct grid_run *next_run;
};

static struct {
  pthread_once_t once;
  hipError_t start_err;
  pthread_mutex_t lock; /* guards everything below */
  pthread_cond_t work;  /* idle workers wait here */
  struct grid_run *head, *tail;
  atomic_int listed; /* grids in the list: read without the lock by spinning workers */
  int nworkers, idle;
  struct ah_cpu_worker *workers; /* every worker ever made, for the counters */
  _Atomic unsigned long long grids; /* counted without the lock */
  pthread_cond_t wd_wake; /* the watchdog waits here while no block runs */
  int wd_asleep;
} pool = {.once = PTHREAD_ONCE_INIT,
          .lock = PTHREAD_MUTEX_INITIALIZER,
          .work = PTHREAD_COND_INITIALIZER,
          .wd_wake = PTHREAD_COND_INITIALIZER};

/* Launching threads that ran a block themselves: freed at their exit. */
static pthread_key_t caller_key;
static void caller_exit(void *arg);

/* Counters of workers that are gone (cooperative launches, launching threads). */
static _Atomic unsigned long long retired_fibers, retired_blocks, retired_compiled;

void ah_cpu_count_fiber(struct ah_cpu_worker *w) {
  atomic_store_explicit(&w->fibers, atomic_load_explicit(&w->fibers, memory_order_relaxed) + 1,
                        memory_order_relaxed);
}

enum counter { FIBERS, BLOCKS, COMPILED };

static _Atomic unsigned long long *counter_of(struct ah_cpu_worker *w, enum counter c) {
  return c == FIBERS ? &w->fibers : c == BLOCKS ? &w->blocks : &w->compiled;
}

static unsigned long long sum(enum counter c) {
  unsigned long long n = atomic_load(c == FIBERS   ? &retired_fibers
                                     : c == BLOCKS ? &retired_blocks
                                                   : &retired_compiled);

  pthread_mutex_lock(&pool.lock);
  for (struct ah_cpu_worker *w = pool.workers; w != NULL; w = w->next)
    n += atomic_load_explicit(counter_of(w, c), memory_order_relaxed);
  pthread_mutex_unlock(&pool.lock);
  return n;
}

/* A worker's counters move to the retired totals when it goes away. */
static void retire(struct ah_cpu_worker *w) {
  atomic_fetch_add(&retired_fibers, atomic_load(&w->fibers));
  atomic_fetch_add(&retired_blocks, atomic_load(&w->blocks));
  atomic_fetch_add(&retired_compiled, atomic_load(&w->compiled));
}

static void bump(_Atomic unsigned long long *c) {
  atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1, memory_order_relaxed);
}

AH_EXPORT unsigned long long __ah_cpu_fibers_created(void) { return sum(FIBERS); }
AH_EXPORT unsigned long long __ah_cpu_blocks_run(void) { return sum(BLOCKS); }
AH_EXPORT unsigned long long __ah_cpu_blocks_compiled(void) { return sum(COMPILED); }

/* ---- waiting ---- */

/* Workers and launching threads spin this long before they sleep: a
 * futex wake-up costs tens of microseconds on an idle machine, more than a
 * small grid's work, and back-to-back launches are common. */
#define SPIN_WORKER_NS 50000
#define SPIN_CALLER_NS 20000

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* Spins until *flag is nonzero (returns 1) or ns nanoseconds have passed. */
static int spin(atomic_int *flag, long ns) {
  struct timespec t0, t;

  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (unsigned i = 1;; i++) {
    if (atomic_load_explicit(flag, memory_order_acquire))
      return 1;
    relax();
    if ((i & 63) == 0) {
      clock_gettime(CLOCK_MONOTONIC, &t);
      if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > ns)
        return 0;
    }
  }
}

/* ---- running blocks ---- */

/* Claims a chunk [*first, *last) of r's blocks: from share `mine` first,
 * then from the others in turn; 0 when every share is handed out. A chunk
 * is a quarter of what is left of the share, at most 64 blocks: one atomic
 * per chunk, not per block, and small ones at the end keep it balanced. */
static int claim(struct grid_run *r, unsigned mine, uint64_t *first, uint64_t *last) {
  for (unsigned k = 0; k < r->nshares; k++) {
    struct share *s = &r->share[(mine + k) % r->nshares];
    uint64_t next = atomic_load_explicit(&s->next, memory_order_relaxed), chunk, b;

    if (next >= s->end)
      continue;
    chunk = (s->end - next) / 4;
    chunk = chunk < 1 || atomic_load_explicit(&r->single, memory_order_relaxed) ? 1
            : chunk > 64                                                     ? 64
                                                                             : chunk;
    b = atomic_fetch_add_explicit(&s->next, chunk, memory_order_relaxed);
    if (b >= s->end)
      continue;
    *first = b;
    *last = b + chunk < s->end ? b + chunk : s->end;
    return 1;
  }
  return 0;
}

/* Blocks of r not handed out yet, counted up to `enough`. */
static uint64_t blocks_left(struct grid_run *r, uint64_t enough) {
  uint64_t n = 0;

  for (unsigned k = 0; k < r->nshares && n < enough; k++) {
    uint64_t next = atomic_load_explicit(&r->share[k].next, memory_order_relaxed);

    n += next < r->share[k].end ? r->share[k].end - next : 0;
  }
  return n;
}

/* Claims and runs blocks of r on w until none is left (or, with `only`, runs
 * just that block). A fault jumps back here; the block is abandoned and the
 * grid hands out no more blocks. */
static void claim_and_run(struct ah_cpu_worker *w, struct grid_run *r, uint64_t only) {
  const struct ah_cpu_grid *g = r->g;
  volatile uint64_t b = only;
  hipError_t err;

  /* Blocks [w->run_next, w->run_end) are claimed by this worker and not
   * started (a helper starts with some: ah_cpu_poll_help). */

  if (sigsetjmp(w->jb, 0) != 0) {
    int compiled = w->block.compiled;

    if (!w->block.direct)
      AH_ASAN_FINISH(NULL, NULL, NULL);
    w->block.direct = 0;
    ah_cpu_block_abandon(w);
    w->fault_compiled = compiled;
    if (atomic_exchange(&r->failed, 1) == 0) {
      if (compiled)
        ah_cpu_fault_rerun(w, g, b); /* which thread it was */
      ah_cpu_fault_report(w, g, b);
      pthread_mutex_lock(&pool.lock);
      r->err = w->fault_err;
      pthread_mutex_unlock(&pool.lock);
    }
    return;
  }
  for (;;) {
    if (atomic_load_explicit(&r->failed, memory_order_relaxed))
      return;
    if (only == UINT64_MAX) {
      if (w->run_next < w->run_end) {
        b = w->run_next++;
      } else {
        uint64_t first, last;

        if (!claim(r, w->share, &first, &last))
          return;
        b = first;
        w->run_next = first + 1;
        w->run_end = last;
      }
    }
    err = ah_cpu_block_run(w, g, b);
    bump(&w->blocks);
    if (g->block_fn != NULL)
      bump(&w->compiled);
    if (err != hipSuccess) {
      if (atomic_exchange(&r->failed, 1) == 0) {
        pthread_mutex_lock(&pool.lock);
        r->err = err;
        pthread_mutex_unlock(&pool.lock);
      }
      return;
    }
    if (only != UINT64_MAX)
      return;
  }
}

/* claim_and_run, then the built-ins as outside kernels (each block sets
 * them; a compiled block leaves them as they were). */
static void run_blocks(struct ah_cpu_worker *w, struct grid_run *r, uint64_t only) {
  w->run = only == UINT64_MAX ? r : NULL;
  w->run_next = w->run_end = 0;
  claim_and_run(w, r, only);
  w->run = NULL;
  ah_cpu_block_idle();
}

/* Makes the calling thread the worker w (a zeroed struct). Without an
 * alternate signal stack the worker still runs blocks; only a GPU thread's
 * stack overflow then goes unreported. */
static void worker_begin(struct ah_cpu_worker *w) {
  pthread_attr_t a;
  size_t size = 0;

  ah_cpu_self = w;
  /* Compiled blocks run on this thread's own stack when a GPU thread's
   * stack (hipLimitStackSize) fits in half of it (run_compiled). */
  if (pthread_getattr_np(pthread_self(), &a) == 0) {
    if (pthread_attr_getstacksize(&a, &size) != 0)
      size = 0;
    pthread_attr_destroy(&a);
  }
  w->direct_stack = size / 2;
  if (ah_cpu_fault_thread_init(w) != hipSuccess)
    AH_LOG(CPU, "worker without an alternate signal stack");
}

static void worker_end(struct ah_cpu_worker *w) {
  ah_cpu_fault_thread_fini(w);
  ah_cpu_worker_free(w);
  ah_cpu_self = NULL;
}

/* A participant (worker or launching thread) is done with r: every block is
 * handed out, or the grid failed. Takes r off the list, so that no other
 * worker enters it, and wakes the launching thread when the last one leaves.
 * Pool lock held. The launching thread may see `finished` before the lock is
 * released, but takes the lock before its grid_run (and r->done) goes away. */
static void leave(struct grid_run *r) {
  if (r->listed) {
    struct grid_run **p = &pool.head, *prev = NULL;

    while (*p != r) {
      prev = *p;
      p = &(*p)->next_run;
    }
    *p = r->next_run;
    if (pool.tail == r)
      pool.tail = prev;
    r->listed = 0;
    atomic_fetch_sub(&pool.listed, 1);
  }
  if (--r->active == 0) {
    atomic_store_explicit(&r->finished, 1, memory_order_release);
    pthread_cond_signal(&r->done);
  }
}

/* A worker that found blocks to run wakes two more idle workers while blocks
 * are left, so that a large grid reaches every worker in a few rounds of
 * wake-ups without the launching thread paying for all of them. Pool lock
 * held. */
static void wake_more(struct grid_run *r) {
  uint64_t left = blocks_left(r, 3);

  for (int i = 0; i < 2 && i < pool.idle && 1 + (uint64_t)i < left; i++)
    pthread_cond_signal(&pool.work);
}

static void *worker_main(void *arg) {
  struct ah_cpu_worker *w = arg;
  struct grid_run *r;

  worker_begin(w);
  pthread_mutex_lock(&pool.lock);
  for (;;) {
    if (pool.head == NULL) {
      pthread_mutex_unlock(&pool.lock);
      spin(&pool.listed, SPIN_WORKER_NS);
      pthread_mutex_lock(&pool.lock);
    }
    while (pool.head == NULL) {
      pool.idle++;
      pthread_cond_wait(&pool.work, &pool.lock);
      pool.idle--;
    }
    r = pool.head;
    r->active++;
    wake_more(r);
    pthread_mutex_unlock(&pool.lock);

    run_blocks(w, r, UINT64_MAX);

    pthread_mutex_lock(&pool.lock);
    leave(r);
  }
  return NULL;
}

/* ---- blocks that poll the clock for long ---- */

/* A GPU keeps as many blocks of a grid resident as occupancy allows, and a
 * block whose threads wait for time to pass (a clock64() spin-wait: delay
 * kernels, "run for 500 ms") waits alongside the others. A worker runs one
 * block at a time, so such a grid took (blocks / workers) x the wait. A
 * block that has polled the clock for HELP_AFTER_NS starts helper threads,
 * up to as many blocks as occupancy says the workers hold
 * (docs/occupancy.md: 1024 threads of blocks, 32 blocks, a worker); each
 * takes one of the worker's claimed blocks not started yet, or claims one,
 * and goes on claiming as a worker does. The grid's blocks are then claimed
 * one at a time. */
#define HELP_AFTER_NS 10000000LL

static long long now_ns(void) {
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The most blocks of g that run at once: occupancy's blocks per worker. */
static uint64_t resident_limit(const struct ah_cpu_grid *g) {
  uint64_t threads = (uint64_t)g->block.x * g->block.y * g->block.z;
  uint64_t warp = (uint64_t)ah_cpu_config.warp_size, rounded, per;

  rounded = (threads + warp - 1) / warp * warp;
  per = rounded > AH_CPU_THREADS_PER_WORKER ? 1 : AH_CPU_THREADS_PER_WORKER / rounded;
  per = per > AH_CPU_BLOCKS_PER_WORKER ? AH_CPU_BLOCKS_PER_WORKER : per < 1 ? 1 : per;
  return per * ((uint64_t)pool.nworkers + 1);
}

/* Takes w out of the pool's worker list (the pool lock held). */
static void unlist(struct ah_cpu_worker *w) {
  struct ah_cpu_worker **p;

  for (p = &pool.workers; *p != NULL && *p != w; p = &(*p)->next)
    ;
  if (*p == w)
    *p = w->next;
}

/* A helper's or a calling thread's worker, out of the list: gone. */
static void worker_free(struct ah_cpu_worker *w) {
  retire(w);
  worker_end(w);
  free(w);
}

static void *helper_main(void *arg) {
  struct ah_cpu_worker *h = arg;
  struct grid_run *r = h->run;

  worker_begin(h);
  pthread_mutex_lock(&pool.lock); /* watched and counted as a worker while it runs */
  h->next = pool.workers;
  pool.workers = h;
  h->thread = pthread_self();
  h->watched = 1;
  pthread_mutex_unlock(&pool.lock);
  claim_and_run(h, r, UINT64_MAX); /* starts with the blocks it was given */
  h->run = NULL;
  ah_cpu_block_idle();
  pthread_mutex_lock(&pool.lock);
  leave(r); /* r may be gone once the lock is released */
  unlist(h);
  pthread_mutex_unlock(&pool.lock);
  worker_free(h);
  return NULL;
}

/* Starts helpers for r, as many as may join it (occupancy, blocks left),
 * each with the next of w's claimed blocks not started yet while there are
 * any: all at once, since a helper gets the CPU late on a busy machine. */
static void start_helpers(struct ah_cpu_worker *w, struct grid_run *r) {
  uint64_t want = 0, limit = resident_limit(r->g), mine = w->run_end - w->run_next;
  pthread_attr_t attr;

  pthread_mutex_lock(&pool.lock);
  /* active > 0: the grid is listed (a grid run by its launching thread
   * alone has no helpers) and w is in it, so it cannot finish meanwhile. */
  if (r->active > 0 && !atomic_load(&r->failed) && (uint64_t)r->active < limit) {
    want = limit - (uint64_t)r->active;
    uint64_t avail = mine + blocks_left(r, want);
    want = want < avail ? want : avail;
    r->active += (int)want;
  }
  pthread_mutex_unlock(&pool.lock);
  if (want == 0)
    return;
  atomic_store(&r->single, 1);
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (; want > 0; want--) {
    struct ah_cpu_worker *h = calloc(1, sizeof(*h));
    int given = w->run_next < w->run_end;
    pthread_t t;

    if (h == NULL)
      break;
    h->share = w->share;
    h->run = r;
    if (given) { /* one of w's blocks; without, it claims */
      h->run_next = w->run_next++;
      h->run_end = h->run_next + 1;
    }
    if (pthread_create(&t, &attr, helper_main, h) != 0) {
      if (given)
        w->run_next--; /* w runs it after all */
      free(h);
      break;
    }
  }
  pthread_attr_destroy(&attr);
  if (want > 0) { /* helpers that could not start leave the grid */
    pthread_mutex_lock(&pool.lock);
    for (; want > 0; want--)
      leave(r);
    pthread_mutex_unlock(&pool.lock);
  }
}

void ah_cpu_poll_help(struct ah_cpu_worker *w) {
  unsigned long long blk;

  if (w->run == NULL)
    return;
  blk = atomic_load_explicit(&w->blocks, memory_order_relaxed) + 1;
  if (w->help_block != blk) { /* the block's first poll */
    w->help_block = blk;
    w->help_polls = 0;
    w->help_done = 0;
    w->help_t0 = now_ns();
    return;
  }
  if ((++w->help_polls & 63) != 0)
    return;
  if (w->help_done) {
    /* A block still waiting after HELP_AFTER_NS gives its core away every
     * 64 polls, as s_sleep does: with helpers more blocks wait than there
     * are cores, and each then sees its wait end soon after it does (32
     * blocks of 500 ms on 2 loaded cores: 0.6 s, 0.6 to 1.1 s without). */
    sched_yield();
    return;
  }
  if (now_ns() - w->help_t0 < HELP_AFTER_NS)
    return;
  w->help_done = 1;
  start_helpers(w, w->run);
}

static void log_counters(void) {
  if (ah_config.log & AH_LOG_CPU)
    ah_log("CPU", "%llu grids, %llu blocks (%llu by compiled block functions), %llu fibers created",
           atomic_load(&pool.grids), __ah_cpu_blocks_run(), __ah_cpu_blocks_compiled(),
           __ah_cpu_fibers_created());
}

/* ---- the watchdog ---- */

/* A GPU thread that spins until a block-mate stores a flag never lets that
 * block-mate run on the CPU device (the engine switches threads only at
 * barriers, warp functions, polling points and returns). The watchdog
 * thread looks at every worker a few times per limit; a worker whose block
 * has not moved on (ah_cpu_progress) for ANYHIP_CPU_WATCHDOG seconds gets
 * the watchdog's signal, whose handler (cpu_fault.c) ends the block when
 * threads of it wait for the running one. Cooperative grids' block threads
 * are not watched. */
static double now_s(void) {
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A compiled block that stalls: said once, since it may be healthy. */
static void report_compiled_stall(const void *fn, double seconds) {
  char name[512];

  if (ah_symbol_pretty(fn, name, sizeof(name)) == NULL)
    snprintf(name, sizeof(name), "%p", fn);
  fprintf(stderr,
          "anyhip: kernel '%s': a compiled block has run %.1f s between barriers "
          "(ANYHIP_CPU_WATCHDOG); if its threads wait for each other (a spin-wait on a "
          "block-mate), it cannot finish on the CPU device: ANYHIP_CPU_COMPILED=0 runs it on "
          "fibers, where the watchdog ends it (docs/cpu-engine.md)\n",
          name, seconds);
}

static void *watchdog_main(void *arg) {
  const double limit = ah_cpu_config.watchdog;
  double tick = limit / 4;
  struct timespec ts;

  (void)arg;
  tick = tick < 0.01 ? 0.01 : tick > 1 ? 1 : tick;
  ts.tv_sec = (time_t)tick;
  ts.tv_nsec = (long)((tick - (double)ts.tv_sec) * 1e9);
  for (;;) {
    double now;
    int busy = 0;

    nanosleep(&ts, NULL);
    now = now_s();
    pthread_mutex_lock(&pool.lock);
    for (struct ah_cpu_worker *w = pool.workers; w != NULL; w = w->next) {
      busy |= atomic_load_explicit(&w->running, memory_order_relaxed);
      unsigned long p = atomic_load_explicit(&w->progress, memory_order_relaxed);

      if (!w->watched || !atomic_load_explicit(&w->running, memory_order_relaxed) ||
          p != w->wd_last) {
        w->wd_last = p;
        w->wd_since = now;
      } else if (now - w->wd_since >= limit) {
        const void *fn = atomic_exchange_explicit(&w->wd_compiled_fn, NULL, memory_order_relaxed);

        if (fn != NULL) {
          if (w->wd_reported != p)
            report_compiled_stall(fn, now - w->wd_since);
          w->wd_reported = p;
          continue; /* a compiled block is left running */
        }
        /* Again every tick until the block moves on or ends: the handler
         * declines while the worker is in the C library or libanyhip. */
        atomic_store_explicit(&w->wd_seen, p, memory_order_relaxed);
        pthread_kill(w->thread, AH_CPU_WATCHDOG_SIG);
      }
    }
    /* No block runs and no grid is listed: sleep until one is (a block
     * starts only from a listed grid), so an idle process is not woken
     * every tick. */
    if (!busy && atomic_load(&pool.listed) == 0) {
      pool.wd_asleep = 1;
      while (atomic_load(&pool.listed) == 0)
        pthread_cond_wait(&pool.wd_wake, &pool.lock);
      pool.wd_asleep = 0;
    }
    pthread_mutex_unlock(&pool.lock);
  }
  return NULL;
}

static void watchdog_start(void) {
  pthread_attr_t attr;
  sigset_t all, old;
  pthread_t t;

  if (!(ah_cpu_config.watchdog > 0))
    return;
  ah_cpu_watchdog_install(ah_cpu_config.watchdog);
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  sigfillset(&all); /* the program's signals go to its own threads */
  pthread_sigmask(SIG_SETMASK, &all, &old);
  if (pthread_create(&t, &attr, watchdog_main, NULL) != 0)
    AH_LOG(CPU, "no watchdog thread");
  else
    pthread_setname_np(t, "anyhip-watchdog"); /* for gdb, top, and the tests */
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
}

/* ANYHIP_CPU_THREADS (or one per core) threads run blocks: the launching
 * thread (a stream's) is one of them, the pool has the rest. With 1, every
 * block of a stream runs on that stream's thread, in order. */
static void pool_start(void) {
  int n = (ah_cpu_config.threads > 0 ? ah_cpu_config.threads : ah_cpu_online_cores()) - 1;
  pthread_attr_t attr;

  ah_cpu_fault_install();
  if (pthread_key_create(&caller_key, caller_exit) != 0) {
    pool.start_err = hipErrorOutOfMemory;
    return;
  }
  pthread_attr_init(&attr);
  /* Workers' own stacks hold only the worker loop and the signal handler's
   * caller; kernels run on fiber stacks. */
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (int i = 0; i < n; i++) {
    struct ah_cpu_worker *w = calloc(1, sizeof(*w));
    pthread_t t;

    if (w == NULL)
      break;
    w->share = (unsigned)pool.nworkers + 1; /* the launching thread's is 0 */
    pthread_mutex_lock(&pool.lock);
    w->next = pool.workers;
    pool.workers = w;
    pthread_mutex_unlock(&pool.lock);
    if (pthread_create(&t, &attr, worker_main, w) != 0)
      break;
    pthread_setname_np(t, "anyhip-worker"); /* for gdb, top and perf: named before it may run */
    pthread_mutex_lock(&pool.lock);
    w->thread = t;
    w->watched = 1;
    pthread_mutex_unlock(&pool.lock);
    pool.nworkers++;
  }
  pthread_attr_destroy(&attr);
  watchdog_start();
  AH_LOG(CPU, "%d workers besides the launching threads", pool.nworkers);
  atexit(log_counters);
}

/* ---- blocks run by the launching thread ---- */

static __thread struct ah_cpu_worker *caller;

static void caller_exit(void *arg) {
  struct ah_cpu_worker *w = arg;

  pthread_mutex_lock(&pool.lock);
  unlist(w);
  pthread_mutex_unlock(&pool.lock);
  worker_free(w);
}

/* The calling thread as a worker (made on first use, freed at thread exit). */
static struct ah_cpu_worker *caller_worker(void) {
  struct ah_cpu_worker *w = caller;

  if (w != NULL)
    return w;
  w = calloc(1, sizeof(*w));
  if (w == NULL)
    return NULL;
  worker_begin(w);
  pthread_mutex_lock(&pool.lock);
  w->next = pool.workers;
  pool.workers = w;
  w->thread = pthread_self();
  w->watched = 1;
  pthread_mutex_unlock(&pool.lock);
  pthread_setspecific(caller_key, w);
  caller = w;
  return w;
}

/* ---- cooperative grids ---- */

/* The grid-wide barrier of grid.sync(). Each block runs on an OS thread of
 * its own, so the barrier is a mutex and a condition: the last GPU thread of
 * a block to arrive waits here for the other blocks while the rest of its
 * block waits at the block barrier. When every block has a core, a waiter
 * spins a little first: a futex wake-up costs about 10 us, far more than a
 * round of a small grid. Blocks that have returned no longer take part (as
 * exited threads do at __syncthreads); a block that failed opens the barrier
 * for good, and the waiters give up their blocks. */
struct ah_cpu_grid_barrier {
  pthread_mutex_t lock;
  pthread_cond_t open;
  uint64_t members;          /* blocks not returned */
  uint64_t arrived;          /* blocks waiting in this round */
  uint64_t pollers;          /* blocks in ah_cpu_coop_poll */
  _Atomic uint64_t round;    /* rounds completed: written under the lock */
  atomic_int failed;         /* written under the lock */
  int spin;                  /* no more blocks than cores */
};

/* A barrier for `members` blocks; they spin a little while waiting when
 * there are no more of them than cores. */
static void gbar_init(struct ah_cpu_grid_barrier *gb, uint64_t members) {
  pthread_mutex_init(&gb->lock, NULL);
  pthread_cond_init(&gb->open, NULL);
  gb->members = members;
  gb->spin = members <= (uint64_t)ah_cpu_online_cores();
}

static void gbar_destroy(struct ah_cpu_grid_barrier *gb) {
  pthread_cond_destroy(&gb->open);
  pthread_mutex_destroy(&gb->lock);
}

/* Completes the round. Lock held. */
static void gbar_open(struct ah_cpu_grid_barrier *gb) {
  gb->arrived = 0;
  atomic_fetch_add_explicit(&gb->round, 1, memory_order_release);
  pthread_cond_broadcast(&gb->open);
}

/* Spins until round `r` is over or the grid failed, SPIN_CALLER_NS at most. */
static void gbar_spin(struct ah_cpu_grid_barrier *gb, uint64_t r) {
  struct timespec t0, t;

  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (unsigned i = 1;; i++) {
    if (atomic_load_explicit(&gb->round, memory_order_acquire) != r ||
        atomic_load_explicit(&gb->failed, memory_order_relaxed))
      return;
    relax();
    if ((i & 63) == 0) {
      clock_gettime(CLOCK_MONOTONIC, &t);
      if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > SPIN_CALLER_NS)
        return;
    }
  }
}

hipError_t ah_cpu_grid_barrier_wait(struct ah_cpu_grid_barrier *gb) {
  hipError_t err = hipSuccess;
  uint64_t r;

  pthread_mutex_lock(&gb->lock);
  r = atomic_load_explicit(&gb->round, memory_order_relaxed);
  if (atomic_load_explicit(&gb->failed, memory_order_relaxed)) {
    err = hipErrorLaunchFailure;
  } else if (++gb->arrived >= gb->members) {
    gbar_open(gb);
  } else {
    if (gb->spin) {
      pthread_mutex_unlock(&gb->lock);
      gbar_spin(gb, r);
      pthread_mutex_lock(&gb->lock);
    }
    while (atomic_load_explicit(&gb->round, memory_order_relaxed) == r &&
           !atomic_load_explicit(&gb->failed, memory_order_relaxed))
      pthread_cond_wait(&gb->open, &gb->lock);
    if (atomic_load_explicit(&gb->round, memory_order_relaxed) == r)
      err = hipErrorLaunchFailure;
  }
  pthread_mutex_unlock(&gb->lock);
  return err;
}

/* n blocks returned (or failed): the barrier waits for n blocks less. */
static void gbar_leave(struct ah_cpu_grid_barrier *gb, uint64_t n, int failed) {
  pthread_mutex_lock(&gb->lock);
  gb->members -= n;
  if (failed) {
    atomic_store_explicit(&gb->failed, 1, memory_order_relaxed);
    pthread_cond_broadcast(&gb->open);
  } else if (gb->arrived > 0 && gb->arrived >= gb->members) {
    gbar_open(gb);
  }
  pthread_mutex_unlock(&gb->lock);
}

/* How long a polling block of a cooperative grid lets the others go first,
 * at most, per poll: a block it waits for may spin without polling. */
#define COOP_POLL_DEFER_NS 20000000LL

void ah_cpu_coop_poll(struct ah_cpu_grid_barrier *gb) {
  long long t0 = now_ns();
  int others_busy;

  pthread_mutex_lock(&gb->lock);
  gb->pollers++;
  for (;;) {
    others_busy = gb->arrived + gb->pollers < gb->members &&
                  !atomic_load_explicit(&gb->failed, memory_order_relaxed);
    if (!others_busy || now_ns() - t0 >= COOP_POLL_DEFER_NS)
      break;
    pthread_mutex_unlock(&gb->lock);
    sched_yield();
    pthread_mutex_lock(&gb->lock);
  }
  gb->pollers--;
  pthread_mutex_unlock(&gb->lock);
}

/* Every block of a cooperative grid runs at once, and at grid.sync() every
 * GPU thread of the grid has a fiber stack: two memory mappings (the stack
 * and its guard page), plus about four per block (its OS thread's stack and
 * the fast path's). A grid may take half of the process's mappings
 * (vm.max_map_count, 65530 by default: 15 blocks of 1024 threads, 63 of 256,
 * 481 of 32), and at most AH_CPU_COOP_BLOCKS blocks (OS threads). */
#define AH_CPU_COOP_BLOCKS 1024
#define AH_CPU_MAP_COUNT_DEFAULT 65530

static uint64_t map_count(void) {
  static _Atomic uint64_t cached;
  uint64_t n = atomic_load_explicit(&cached, memory_order_relaxed);
  unsigned long long v;
  FILE *f;

  if (n != 0)
    return n;
  n = AH_CPU_MAP_COUNT_DEFAULT;
  f = fopen("/proc/sys/vm/max_map_count", "r");
  if (f != NULL) {
    if (fscanf(f, "%llu", &v) == 1 && v > 0)
      n = v;
    fclose(f);
  }
  atomic_store_explicit(&cached, n, memory_order_relaxed);
  return n;
}

uint64_t ah_cpu_coop_max_blocks(struct ah_device *dev, unsigned threads, size_t shmem) {
  uint64_t n = map_count() / 2 / (2 * ((uint64_t)threads + 2));

  (void)dev;
  (void)shmem; /* dynamic shared memory is one buffer per OS thread, of the launch's size */
  return n < 1 ? 1 : n > AH_CPU_COOP_BLOCKS ? AH_CPU_COOP_BLOCKS : n;
}

struct coop_arg {
  struct grid_run *r;
  uint64_t block;
};

static void *coop_main(void *arg) {
  struct coop_arg *a = arg;
  struct ah_cpu_worker w;

  memset(&w, 0, sizeof(w));
  worker_begin(&w);
  run_blocks(&w, a->r, a->block);
  gbar_leave(a->r->g->gbar, 1, atomic_load(&a->r->failed));
  if (a->r->g->mbar != NULL)
    gbar_leave(a->r->g->mbar, 1, atomic_load(&a->r->failed));
  retire(&w);
  worker_end(&w);
  return NULL;
}

/* ---- multi-grid launches ---- */

static void mbar_free(void *p) {
  gbar_destroy(p);
  free(p);
}

static void mbar_leave(void *p, uint64_t n, int failed) {
  gbar_leave(p, n, failed);
}

/* The barrier of this_multi_grid().sync(): one for every block of every grid
 * of m, made by the first of its grids to start (the blocks of grids that
 * will not come already left; one that never ran fails it). NULL when out of
 * memory: the grid's blocks then fail at their multi-grid sync. */
static struct ah_cpu_grid_barrier *multi_barrier(struct ah_multi_grid *m) {
  struct ah_cpu_grid_barrier *gb;

  pthread_mutex_lock(&m->lock);
  gb = m->impl;
  if (gb == NULL && (gb = calloc(1, sizeof(*gb))) != NULL) {
    gbar_init(gb, m->blocks - m->absent);
    atomic_init(&gb->failed, m->failed);
    m->impl = gb;
    m->impl_free = mbar_free;
    m->impl_leave = mbar_leave;
  }
  pthread_mutex_unlock(&m->lock);
  return gb;
}

/* Runs every block of r at once, one OS thread each, with g's barrier. */
static hipError_t run_cooperative(struct grid_run *r, const struct ah_cpu_grid *g) {
  pthread_t *t = calloc(r->nblocks, sizeof(*t));
  struct coop_arg *a = calloc(r->nblocks, sizeof(*a));
  struct ah_cpu_grid cg = *g;
  struct ah_cpu_grid_barrier gb = {0};
  pthread_attr_t attr;
  uint64_t started = 0;
  hipError_t err = hipSuccess;

  if (t == NULL || a == NULL) {
    free(t);
    free(a);
    if (g->multi != NULL) /* its blocks never come: the other grids fail */
      ah_multi_grid_leave(g->multi, r->nblocks, 1);
    return hipErrorOutOfMemory;
  }
  gbar_init(&gb, r->nblocks);
  cg.gbar = &gb;
  if (g->multi != NULL)
    cg.mbar = multi_barrier(g->multi);
  r->g = &cg;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  for (; started < r->nblocks; started++) {
    a[started] = (struct coop_arg){r, started};
    if (pthread_create(&t[started], &attr, coop_main, &a[started]) != 0) {
      /* Not every block can be resident: the launch cannot run, and the
       * blocks already started must not wait for the others. */
      atomic_store(&r->failed, 1);
      err = hipErrorCooperativeLaunchTooLarge;
      gbar_leave(&gb, r->nblocks - started, 1);
      if (cg.mbar != NULL)
        gbar_leave(cg.mbar, r->nblocks - started, 1);
      break;
    }
  }
  pthread_attr_destroy(&attr);
  for (uint64_t i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  free(t);
  free(a);
  gbar_destroy(&gb);
  if (err == hipSuccess && r->err != hipSuccess)
    err = r->err;
  return err;
}

/* ---- the entry point ---- */

static void start(void) { pool_start(); }

/* r for the grid g, its blocks cut into one share per participant (the
 * launching thread's is share 0); the shares themselves are not cleared
 * first (4 KiB a launch), only the ones in use are set. */
static void grid_run_init(struct grid_run *r, const struct ah_cpu_grid *g) {
  uint64_t base, rem;

  memset(r, 0, offsetof(struct grid_run, share));
  memset(&r->nshares, 0, sizeof(*r) - offsetof(struct grid_run, nshares));
  r->g = g;
  r->err = hipSuccess;
  r->nblocks = (uint64_t)g->grid.x * g->grid.y * g->grid.z;
  r->nshares = pool.nworkers + 1 < MAX_SHARES ? (unsigned)pool.nworkers + 1 : MAX_SHARES;
  base = r->nblocks / r->nshares; /* no product that overflows: grids reach 2^63 blocks */
  rem = r->nblocks % r->nshares;
  for (unsigned k = 0; k < r->nshares; k++) {
    atomic_init(&r->share[k].next, base * k + (k < rem ? k : rem));
    r->share[k].end = base * (k + 1) + (k + 1 < rem ? k + 1 : rem);
  }
}

hipError_t ah_cpu_grid_run(const struct ah_cpu_grid *launch) {
  struct ah_cpu_grid grid = *launch, *g = &grid;
  struct ah_cpu_worker *w;
  struct grid_run r;
  hipError_t err;

  err = g->sig == NULL || g->sig->invoke == NULL ? hipErrorInvalidDeviceFunction : hipSuccess;
  if (err == hipSuccess) {
    pthread_once(&pool.once, start);
    err = pool.start_err;
  }
  if (err != hipSuccess) {
    if (g->multi != NULL) /* its blocks never come: the other grids fail */
      ah_multi_grid_leave(g->multi, g->multi->grid_blocks[g->multi_rank], 1);
    return err;
  }
  ah_cpu_compiled_pick(g);

  grid_run_init(&r, g);
  if (r.nblocks == 0 || (uint64_t)g->block.x * g->block.y * g->block.z == 0) {
    if (g->multi != NULL)
      ah_multi_grid_leave(g->multi, r.nblocks, 0);
    return hipSuccess;
  }

  atomic_fetch_add_explicit(&pool.grids, 1, memory_order_relaxed);
  if (g->cooperative)
    return run_cooperative(&r, g);
  w = caller_worker();
  if (w == NULL)
    return hipErrorOutOfMemory;
  if (r.nblocks == 1 || pool.nworkers == 0) {
    run_blocks(w, &r, UINT64_MAX);
    return r.err;
  }

  /* List the grid for the workers, wake one, and run blocks here too: a
   * small grid is often done before a sleeping worker has woken up, and a
   * futex wake-up per worker would cost this thread more than such a grid. */
  pthread_cond_init(&r.done, NULL);
  pthread_mutex_lock(&pool.lock);
  r.listed = 1;
  r.active = 1;
  if (pool.tail != NULL)
    pool.tail->next_run = &r;
  else
    pool.head = &r;
  pool.tail = &r;
  atomic_fetch_add(&pool.listed, 1);
  if (pool.idle > 0)
    pthread_cond_signal(&pool.work); /* that worker wakes more (wake_more) */
  if (pool.wd_asleep)
    pthread_cond_signal(&pool.wd_wake);
  pthread_mutex_unlock(&pool.lock);
  run_blocks(w, &r, UINT64_MAX);
  pthread_mutex_lock(&pool.lock);
  leave(&r);
  pthread_mutex_unlock(&pool.lock);

  spin(&r.finished, SPIN_CALLER_NS);
  pthread_mutex_lock(&pool.lock);
  while (!atomic_load(&r.finished))
    pthread_cond_wait(&r.done, &pool.lock);
  err = r.err;
  pthread_mutex_unlock(&pool.lock);
  pthread_cond_destroy(&r.done);
  return err;
}
