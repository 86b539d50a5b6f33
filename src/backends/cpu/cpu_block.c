/* SPDX-License-Identifier: MIT */
/* One block of a kernel on one worker. The fast path calls the kernel once
 * per GPU thread, one after another, on one fiber stack. The first time a
 * thread reaches __syncthreads or a warp collective, the block switches to
 * fibers: that thread keeps the stack it runs on, the threads before it have
 * returned (and, as in HIP, no longer take part in barriers), and every later
 * thread gets its own fiber when first scheduled. Blocked threads hand over
 * to the next runnable thread of the block in round-robin order; there is no
 * scheduler fiber. A kernel with a block function (cpu_compiled.c) instead
 * runs it once, on the same stack the fast path would use. Everything here
 * runs on the block's worker only. */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <stdlib.h>
#include <string.h>

/* The kernel language's built-in variables (hip/anyhip/cpu/state.h). */
AH_EXPORT AH_CPU_TLS ahCpuIndex threadIdx;
AH_EXPORT AH_CPU_TLS ahCpuIndex blockIdx;
AH_EXPORT AH_CPU_TLS ahCpuIndex blockDim = {1, 1, 1};
AH_EXPORT AH_CPU_TLS ahCpuIndex gridDim = {1, 1, 1};
AH_EXPORT AH_CPU_TLS unsigned int __ah_cpu_lane;
AH_EXPORT AH_CPU_TLS void *__ah_cpu_shared;
AH_EXPORT int warpSize = 64;

__thread struct ah_cpu_worker *ah_cpu_self __attribute__((tls_model("initial-exec")));

static void thread_exit(struct ah_cpu_worker *w, struct ah_cpu_block *b) __attribute__((noreturn));

/* ---- ThreadSanitizer fibers ---- */

#if defined(__SANITIZE_THREAD__)
/* The TSan fiber of GPU thread t: the runner's for the thread that kept the
 * fast path's stack, else one per thread id, made on first use. They are
 * dropped when the block ends: a fiber that never returns leaves its frames
 * on TSan's shadow stack, which would otherwise grow block after block. */
static void *tsan_fiber(struct ah_cpu_worker *w, struct ah_cpu_gthread *t) {
  if (t->stack == NULL)
    return w->tsan_runner;
  if (t->tid >= w->tsan_cap) {
    unsigned cap = t->tid + 64;
    void **f = realloc(w->tsan_fibers, cap * sizeof(*f));

    memset(f + w->tsan_cap, 0, (cap - w->tsan_cap) * sizeof(*f));
    w->tsan_fibers = f;
    w->tsan_cap = cap;
  }
  if (w->tsan_fibers[t->tid] == NULL)
    w->tsan_fibers[t->tid] = __tsan_create_fiber(0);
  return w->tsan_fibers[t->tid];
}

static void tsan_drop(struct ah_cpu_worker *w) {
  for (unsigned i = 0; i < w->tsan_cap; i++)
    if (w->tsan_fibers[i] != NULL) {
      __tsan_destroy_fiber(w->tsan_fibers[i]);
      w->tsan_fibers[i] = NULL;
    }
  if (w->tsan_runner != NULL) {
    __tsan_destroy_fiber(w->tsan_runner);
    w->tsan_runner = NULL;
  }
}
#else
#define tsan_fiber(w, t) NULL
#define tsan_drop(w) ((void)0)
#endif

/* ---- setup ---- */

/* For memcheck and AddressSanitizer, dynamic shared memory is what a GPU
 * gives a block: the launch's bytes (undefined at the start, for memcheck);
 * the rest of the buffer is not there, so that a kernel reading past what
 * its launch asked for is reported. bytes == shared_cap unpoisons it all. */
static void shared_bounds(struct ah_cpu_worker *w, size_t bytes) {
#if !defined(__SANITIZE_ADDRESS__)
  if (!AH_VG_RUNNING())
    return; /* nothing to tell: the two requests below are a tool's */
#endif
  AH_VG_UNDEFINED(w->shared, bytes);
  AH_VG_NOACCESS((char *)w->shared + bytes, w->shared_cap - bytes);
#if defined(__SANITIZE_ADDRESS__)
  ASAN_UNPOISON_MEMORY_REGION(w->shared, bytes);
  ASAN_POISON_MEMORY_REGION((char *)w->shared + bytes, w->shared_cap - bytes);
#endif
}

/* Grows w's per-block arrays for g. Worker-owned, so reused by every block. */
static hipError_t reserve(struct ah_cpu_worker *w, const struct ah_cpu_grid *g, unsigned n,
                          unsigned nwarps) {
  if (n > w->threads_cap) {
    struct ah_cpu_gthread *t = realloc(w->threads, n * sizeof(*t));
    ahCpuSplitSlot *ws;

    if (t == NULL)
      return hipErrorOutOfMemory;
    w->threads = t;
    ws = realloc(w->wslots, n * sizeof(*ws));
    if (ws == NULL)
      return hipErrorOutOfMemory;
    w->wslots = ws;
    w->threads_cap = n;
  }
  if (nwarps > w->warps_cap) {
    struct ah_cpu_warp *wa = realloc(w->warps, nwarps * sizeof(*wa));

    if (wa == NULL)
      return hipErrorOutOfMemory;
    w->warps = wa;
    w->warps_cap = nwarps;
  }
  /* Dynamic shared memory: never NULL, 256-byte aligned like device memory. */
  if (w->shared == NULL || g->shared_bytes > w->shared_cap) {
    size_t cap = g->shared_bytes < 256 ? 256 : (g->shared_bytes + 255) & ~(size_t)255;
    void *p = NULL;

    if (posix_memalign(&p, 256, cap) != 0)
      return hipErrorOutOfMemory;
    if (w->shared != NULL)
      shared_bounds(w, w->shared_cap); /* the allocator's own view back */
    free(w->shared);
    w->shared = p;
    w->shared_cap = cap;
  }
  if (ah_cpu_arena_reserve(w) != hipSuccess)
    return hipErrorOutOfMemory;
  return ah_cpu_stack_setsize(w, g->stack_size);
}

void ah_cpu_worker_free(struct ah_cpu_worker *w) {
  ah_cpu_stacks_free(w);
  free(w->stacks);
  free(w->vg_stacks);
  free(w->threads);
  free(w->wslots);
  free(w->warps);
  ah_cpu_region_free(w);
  if (w->shared != NULL)
    shared_bounds(w, w->shared_cap);
  free(w->shared);
  ah_cpu_arena_free(w);
}

/* ---- the fast path ---- */

/* The runner fiber: every thread of the block in turn, until one of them
 * switches the block to fibers (then that thread's return ends this loop). */
static void fast_main(void *arg) {
  struct ah_cpu_worker *w = arg;
  struct ah_cpu_block *b = &w->block;
  const struct ah_cpu_grid *g = b->grid;
  void (*invoke)(const void *, void **) = g->sig->invoke;
  const void *fn = g->fn;
  void **args = g->args;
  unsigned lane_mask = b->warp_size - 1, nx = g->block.x;

  /* Per thread only what kernel code can see: threadIdx and the lane. The
   * running thread's linear id (b->cur) is worked out from threadIdx by the
   * barrier or warp function that leaves this path (ah_cpu_fast_tid). */
  AH_ASAN_FINISH(NULL, &w->native_bottom, &w->native_size);
  if (g->block.y == 1 && g->block.z == 1) {
    threadIdx.y = threadIdx.z = 0;
    for (unsigned x = 0; x < nx; x++) {
      threadIdx.x = x;
      __ah_cpu_lane = x & lane_mask;
      ah_cpu_progress(w);
      invoke(fn, args);
      if (b->fiber_mode)
        thread_exit(w, b);
    }
  } else {
    unsigned tid = 0;

    for (unsigned z = 0; z < g->block.z; z++) {
      threadIdx.z = z;
      for (unsigned y = 0; y < g->block.y; y++) {
        threadIdx.y = y;
        for (unsigned x = 0; x < nx; x++, tid++) {
          threadIdx.x = x;
          __ah_cpu_lane = tid & lane_mask;
          ah_cpu_progress(w);
          invoke(fn, args);
          if (b->fiber_mode)
            thread_exit(w, b);
        }
      }
    }
  }
  AH_ASAN_START(NULL, w->native_bottom, w->native_size);
  AH_TSAN_SWITCH(w->tsan_native);
  ah_fiber_switch(&w->runner, &w->native);
  __builtin_unreachable();
}

/* ---- a compiled block ---- */

/* A block run by the kernel's block function: one call runs every GPU
 * thread (block_abi.h), on the worker's own stack. No fiber: the block
 * function never yields, and a fault or ah_cpu_block_fail jumps straight
 * back to the worker's loop, up the same stack (b->direct tells the fault
 * handler there is no stack switch to undo). The switch to a runner fiber
 * and back was a third of a small block's cost. A GPU thread's stack limit
 * (hipLimitStackSize) larger than half the worker's own stack keeps the
 * runner fiber, which is that size (compiled_main). It keeps no threadIdx. */
static void call_block_fn(const struct ah_cpu_grid *g) {
  threadIdx = (ahCpuIndex){0, 0, 0};
  __ah_cpu_lane = 0;
  g->sig->invoke(g->block_fn, g->args);
}

/* The block has stopped running on w (it ended, or was given up). */
static void block_end(struct ah_cpu_worker *w) {
  w->in_kernel = 0;
  atomic_store_explicit(&w->running, 0, memory_order_relaxed);
  tsan_drop(w);
}

static hipError_t run_compiled(struct ah_cpu_worker *w, const struct ah_cpu_grid *g) {
  struct ah_cpu_block *b = &w->block;

  b->direct = 1;
  w->in_kernel = 1;
  call_block_fn(g);
  b->direct = 0;
  block_end(w); /* a direct block has no stacks to give back */
  return hipSuccess;
}

/* The runner fiber of a compiled block whose stack limit is too large for
 * the worker's own stack. */
static void compiled_main(void *arg) {
  struct ah_cpu_worker *w = arg;

  AH_ASAN_FINISH(NULL, &w->native_bottom, &w->native_size);
  call_block_fn(w->block.grid);
  AH_ASAN_START(NULL, w->native_bottom, w->native_size);
  AH_TSAN_SWITCH(w->tsan_native);
  ah_fiber_switch(&w->runner, &w->native);
  __builtin_unreachable();
}

/* ---- fiber mode ---- */

static void thread_main(void *arg) {
  struct ah_cpu_worker *w = ah_cpu_self;
  struct ah_cpu_block *b = &w->block;
  const struct ah_cpu_grid *g = b->grid;

  /* The switch that started us set threadIdx and the lane. */
  AH_ASAN_FINISH(NULL, NULL, NULL);
  g->sig->invoke(g->fn, g->args);
  thread_exit(w, b);
}

void ah_cpu_block_convert(struct ah_cpu_worker *w, struct ah_cpu_block *b) {
  unsigned k = b->cur, n = b->nthreads, ws = b->warp_size;
  struct ah_cpu_gthread *th = b->threads;
  unsigned bx = b->grid->block.x, by = b->grid->block.y;
  ahCpuIndex idx = {0, 0, 0};

  /* Indices counted up, not divided out: three divisions per thread stood
   * out in the profile of a block's first barrier. */
  for (unsigned i = 0; i < n; i++) {
    th[i].tid = i;
    th[i].stack = NULL;
    th[i].state = i < k ? AH_T_DONE : AH_T_NEW;
    th[i].idx = idx;
    th[i].lane = i & (ws - 1);
    if (++idx.x == bx) {
      idx.x = 0;
      if (++idx.y == by) {
        idx.y = 0;
        idx.z++;
      }
    }
  }
  th[k].state = AH_T_RUNNING;
  for (unsigned wi = 0; wi < b->nwarps; wi++) {
    unsigned lo = wi * ws, hi = lo + ws < n ? lo + ws : n;
    uint64_t m = hi - lo == 64 ? ~0ull : (1ull << (hi - lo)) - 1;

    if (k > lo)
      m = k >= hi ? 0 : m & ~((1ull << (k - lo)) - 1);
    b->warps[wi].live = m;
    b->warps[wi].waiting = 0;
    b->warps[wi].same = 0;
    b->warps[wi].mixed = 0;
    b->warps[wi].outside = 0;
  }
  b->live = n - k;
  b->runnable = n - k - 1;
  b->bar_arrived = b->bar_true = 0;
  b->bar_grid = 0;
  b->fiber_mode = 1;
}

/* The next NEW or READY thread after the running one, round robin. */
static struct ah_cpu_gthread *pick(struct ah_cpu_block *b) {
  unsigned n = b->nthreads, i = b->cur;

  if (b->runnable == 0)
    return NULL;
  for (unsigned k = 0; k < n; k++) {
    if (++i == n)
      i = 0;
    if (b->threads[i].state == AH_T_NEW || b->threads[i].state == AH_T_READY)
      return &b->threads[i];
  }
  return NULL;
}

void ah_cpu_block_yield(struct ah_cpu_worker *w, struct ah_cpu_block *b) {
  struct ah_cpu_gthread *self = &b->threads[b->cur], *next;

  ah_cpu_progress(w); /* a thread blocked, polled or returned */
  while ((next = pick(b)) == NULL) {
    if (b->live == 0) {
      /* The last thread returned: back to the worker, never to come back. */
      AH_ASAN_START(NULL, w->native_bottom, w->native_size);
      AH_TSAN_SWITCH(w->tsan_native);
      ah_fiber_switch(&self->fiber, &w->native);
      __builtin_unreachable();
    }
    /* Every thread left waits at a collective its warp-mates will not reach:
     * they diverged. Run the collective with the lanes that reached it. */
    if (!ah_cpu_warp_resolve(b))
      ah_cpu_block_fail(w, hipErrorLaunchFailure, "internal error: block deadlocked");
  }
  b->runnable--;
  if (next == self) {
    self->state = AH_T_RUNNING;
    return;
  }
  if (next->state == AH_T_NEW) {
    next->stack = ah_cpu_stack_get(w);
    if (next->stack == NULL)
      ah_cpu_block_fail(w, hipErrorOutOfMemory, "no memory for a fiber stack");
    ah_fiber_init(&next->fiber, next->stack, ah_cpu_stack_usable(w, next->tid), thread_main, NULL);
    ah_cpu_count_fiber(w);
  }
  next->state = AH_T_RUNNING;
  b->cur = next->tid;
  threadIdx = next->idx;
  __ah_cpu_lane = next->lane;
  AH_ASAN_START(self->state == AH_T_DONE ? NULL : &self->asan_fake,
                next->stack != NULL ? next->stack : b->runner_stack,
                ah_cpu_stack_usable(w, next->stack != NULL ? next->tid : 0));
  AH_TSAN_SWITCH(tsan_fiber(w, next));
  ah_fiber_switch(&self->fiber, &next->fiber);
  AH_ASAN_FINISH(self->asan_fake, NULL, NULL);
  /* Whoever resumed us set b->cur, threadIdx, the lane and our state. */
}

/* Opens the barrier: every waiting thread may go on, with the counts. */
static void barrier_release(struct ah_cpu_block *b) {
  unsigned t = b->bar_true, n = b->bar_arrived;

  for (unsigned i = 0; i < b->nthreads; i++) {
    struct ah_cpu_gthread *th = &b->threads[i];

    if (th->state == AH_T_BARRIER) {
      th->state = AH_T_READY;
      th->bar_true = t;
      th->bar_n = n;
      b->runnable++;
    }
  }
  b->bar_arrived = b->bar_true = 0;
  b->bar_grid = 0;
}

static void grid_wait(struct ah_cpu_worker *w, struct ah_cpu_block *b);

static void thread_exit(struct ah_cpu_worker *w, struct ah_cpu_block *b) {
  struct ah_cpu_gthread *self = &b->threads[b->cur];
  unsigned wi = self->tid >> b->warp_shift;

  self->state = AH_T_DONE;
  b->live--;
  b->warps[wi].live &= ~(1ull << self->lane);
  if (b->warps[wi].waiting != 0)
    ah_cpu_warp_recheck(b, wi);
  if (b->bar_arrived != 0 && b->bar_arrived == b->live) {
    if (b->bar_grid)
      grid_wait(w, b); /* the others wait at grid.sync(): this thread completes it */
    barrier_release(b);
  }
  ah_cpu_block_yield(w, b);
  __builtin_unreachable();
}

/* A block function calls the region scheduler, never these: one that does
 * (a call the kernel compiler missed) would find no fiber state. */
static __attribute__((noreturn)) void not_compiled(struct ah_cpu_worker *w) {
  ah_cpu_block_fail(w, hipErrorLaunchFailure,
                    "barrier called by a compiled block function (kernel compiler bug)");
}

AH_EXPORT int __ah_cpu_barrier(int op, int predicate) {
  struct ah_cpu_worker *w = ah_cpu_self;
  struct ah_cpu_block *b;
  struct ah_cpu_gthread *self;
  unsigned pred = predicate != 0;

  if (w == NULL || !w->in_kernel)
    return ah_cpu_bar_value(op, pred, 1); /* host code: a block of one */
  b = &w->block;
  if (!b->fiber_mode) {
    if (b->compiled)
      not_compiled(w);
    b->cur = ah_cpu_fast_tid(b);
    if (b->cur == b->nthreads - 1)
      return ah_cpu_bar_value(op, pred, 1); /* every other thread has returned */
    ah_cpu_block_convert(w, b);
  }
  self = &b->threads[b->cur];
  b->bar_arrived++;
  b->bar_true += pred;
  if (b->bar_arrived == b->live) {
    unsigned t = b->bar_true, n = b->bar_arrived;

    barrier_release(b);
    return ah_cpu_bar_value(op, t, n);
  }
  self->state = AH_T_BARRIER;
  ah_cpu_block_yield(w, b);
  return ah_cpu_bar_value(op, self->bar_true, self->bar_n);
}

/* ---- polling points ---- */

/* Polls in a row by one thread before it counts as spinning: a thread that
 * reads the clock once or twice to time its work keeps the fast path (and
 * its core); one that spins on it hands over. */
#define POLL_SPIN 16

/* Whether thread `tid` has polled POLL_SPIN times in a row: it spins. */
static int spinning(struct ah_cpu_worker *w, unsigned tid) {
  if (tid != w->poll_tid) {
    w->poll_tid = tid;
    w->poll_count = 0;
  }
  if (++w->poll_count < POLL_SPIN)
    return 0;
  w->poll_count = POLL_SPIN; /* stays spinning */
  return 1;
}

/* A thread that spins with no block-mate left to run. In a cooperative grid
 * every block is an OS thread of its own, often more of them than cores: the
 * blocks that can run go first, as a GPU runs them meanwhile (a block that
 * waits for time to pass while the others reach a point first: ROCm's
 * multi_grid_group Sync test). A worker of an ordinary grid has no other
 * block to give its core to (ah_cpu_poll_help starts helpers). */
static void poll_alone(struct ah_cpu_worker *w, struct ah_cpu_block *b, unsigned tid) {
  if (b->grid->gbar != NULL && spinning(w, tid))
    ah_cpu_coop_poll(b->grid->gbar);
}

/* clock64(), wall_clock64(), s_sleep: the running thread lets the next
 * runnable thread of its block run (round robin), so that a thread spinning
 * on the clock or on a block-mate's store does not hold the others back (a
 * GPU runs them meanwhile). The kernel compiler leaves kernels that poll to
 * the fiber engine, so a block function never gets here. */
AH_EXPORT void __ah_cpu_poll(void) {
  struct ah_cpu_worker *w = ah_cpu_self;
  struct ah_cpu_block *b;
  struct ah_cpu_gthread *self;

  if (w == NULL || !w->in_kernel)
    return; /* host code */
  b = &w->block;
  if (b->compiled)
    return;
  ah_cpu_poll_help(w); /* a block that waits long lets more blocks start */
  if (!b->fiber_mode) {
    unsigned tid = ah_cpu_fast_tid(b);

    if (tid == b->nthreads - 1) {
      poll_alone(w, b, tid); /* every other thread has returned */
      return;
    }
    if (!spinning(w, tid))
      return; /* reads the clock to time its work, maybe */
    w->poll_count = 0;
    b->cur = tid;
    ah_cpu_block_convert(w, b);
  }
  if (b->runnable == 0) {
    poll_alone(w, b, b->cur);
    return;
  }
  self = &b->threads[b->cur];
  self->state = AH_T_READY;
  b->runnable++;
  ah_cpu_block_yield(w, b);
}

/* ---- grid.sync() of cooperative groups ---- */

/* The block's part of grid.sync() (or of the multi-grid's sync) is done
 * (every thread that has not returned is there): wait for the other blocks.
 * Another block's failure ends this one quietly (that block reports it). */
static void grid_wait(struct ah_cpu_worker *w, struct ah_cpu_block *b) {
  int multi = b->bar_grid == AH_BAR_MULTI_GRID;
  struct ah_cpu_grid_barrier *gb = multi ? b->grid->mbar : b->grid->gbar;

  if (gb == NULL || ah_cpu_grid_barrier_wait(gb) != hipSuccess)
    ah_cpu_block_fail(w, hipErrorLaunchFailure,
                      multi ? "another grid of the multi-device launch failed"
                            : "another block of the cooperative grid failed");
}

/* A block barrier whose last thread to arrive also waits, with the OS thread
 * (the block's alone in a cooperative grid), for every other block of the
 * grid (kind AH_BAR_GRID) or of every grid of the multi-device launch
 * (AH_BAR_MULTI_GRID) before opening it. In a grid not launched so the
 * blocks are not all resident, so waiting could hang: the launch fails. */
static void grid_barrier(int kind) {
  struct ah_cpu_worker *w = ah_cpu_self;
  struct ah_cpu_block *b;

  if (w == NULL || !w->in_kernel)
    return; /* host code: a grid of one thread */
  b = &w->block;
  if (kind == AH_BAR_GRID && b->grid->gbar == NULL)
    ah_cpu_block_fail(w, hipErrorLaunchFailure,
                      "grid.sync() in a kernel not launched with hipLaunchCooperativeKernel");
  if (kind == AH_BAR_MULTI_GRID && b->grid->multi == NULL)
    ah_cpu_block_fail(w, hipErrorLaunchFailure,
                      "multi_grid_group::sync() in a kernel not launched with "
                      "hipLaunchCooperativeKernelMultiDevice");
  if (!b->fiber_mode) {
    if (b->compiled)
      not_compiled(w);
    b->cur = ah_cpu_fast_tid(b);
    if (b->cur == b->nthreads - 1) {
      b->bar_grid = kind;
      grid_wait(w, b); /* every other thread of the block has returned */
      b->bar_grid = 0;
      return;
    }
    ah_cpu_block_convert(w, b);
  }
  b->bar_arrived++;
  b->bar_grid = kind;
  if (b->bar_arrived == b->live) {
    grid_wait(w, b);
    barrier_release(b);
    return;
  }
  b->threads[b->cur].state = AH_T_BARRIER;
  ah_cpu_block_yield(w, b);
}

AH_EXPORT void __ah_cpu_grid_sync(void) {
  grid_barrier(AH_BAR_GRID);
}

AH_EXPORT void __ah_cpu_multi_grid_sync(void) {
  grid_barrier(AH_BAR_MULTI_GRID);
}

/* grid_group::is_valid(): the running kernel was launched cooperatively. */
AH_EXPORT int __ah_cpu_grid_valid(void) {
  struct ah_cpu_worker *w = ah_cpu_self;

  return w != NULL && w->in_kernel && w->block.grid->gbar != NULL;
}

/* multi_grid_group's numbers: whether the running kernel is a grid of a
 * cooperative multi-device launch, and out[0..3] = the number of grids, this
 * grid's rank, the multi-grid rank of this grid's thread 0, and the threads
 * of every grid. A kernel launched otherwise is a multi-grid of one grid. */
AH_EXPORT int __ah_cpu_multi_grid(unsigned long long out[4]) {
  struct ah_cpu_worker *w = ah_cpu_self;
  const struct ah_cpu_grid *g = w != NULL && w->in_kernel ? w->block.grid : NULL;

  if (g == NULL || g->multi == NULL) {
    out[0] = 1;
    out[1] = out[2] = 0;
    out[3] = g == NULL ? 1
                       : (unsigned long long)g->grid.x * g->grid.y * g->grid.z * g->block.x *
                             g->block.y * g->block.z;
    return 0;
  }
  out[0] = g->multi->count;
  out[1] = g->multi_rank;
  out[2] = g->multi->first[g->multi_rank];
  out[3] = g->multi->threads;
  return 1;
}

/* ---- one block ---- */

hipError_t ah_cpu_block_run(struct ah_cpu_worker *w, const struct ah_cpu_grid *g, uint64_t linear) {
  struct ah_cpu_block *b = &w->block;
  unsigned n = g->block.x * g->block.y * g->block.z;
  unsigned ws = (unsigned)g->warp_size; /* 32 or 64 */
  unsigned shift = ws == 32 ? 5 : 6;
  unsigned nwarps = (n + ws - 1) >> shift;
  hipError_t err = reserve(w, g, n, nwarps);

  if (err != hipSuccess)
    return err;
  ah_cpu_progress(w);
  atomic_store_explicit(&w->running, 1, memory_order_relaxed);
  b->grid = g;
  b->nthreads = n;
  b->warp_size = ws;
  b->warp_shift = shift;
  b->nwarps = nwarps;
  b->fiber_mode = 0;
  b->compiled = g->block_fn != NULL;
  b->cur = 0;
  b->threads = w->threads;
  b->warps = w->warps;
  b->wslot = w->wslots;
  if (g->grid.y == 1 && g->grid.z == 1) {
    blockIdx.x = (unsigned)linear; /* no divisions in the common cases */
    blockIdx.y = blockIdx.z = 0;
  } else if (linear <= UINT32_MAX) {
    unsigned l = (unsigned)linear, q = l / g->grid.x;

    blockIdx.x = l - q * g->grid.x;
    blockIdx.y = q % g->grid.y;
    blockIdx.z = q / g->grid.y;
  } else {
    blockIdx.x = (unsigned)(linear % g->grid.x);
    blockIdx.y = (unsigned)(linear / g->grid.x % g->grid.y);
    blockIdx.z = (unsigned)(linear / g->grid.x / g->grid.y);
  }
  blockDim = (ahCpuIndex){g->block.x, g->block.y, g->block.z};
  gridDim = (ahCpuIndex){g->grid.x, g->grid.y, g->grid.z};
  __ah_cpu_shared = w->shared;
  shared_bounds(w, g->shared_bytes);
  if (b->compiled && g->stack_size <= w->direct_stack)
    return run_compiled(w, g);
  b->runner_stack = ah_cpu_stack_get(w);
  if (b->runner_stack == NULL)
    return hipErrorOutOfMemory;

  ah_fiber_init(&w->runner, b->runner_stack, ah_cpu_stack_usable(w, 0),
                b->compiled ? compiled_main : fast_main, w);
  w->in_kernel = 1;
#if defined(__SANITIZE_THREAD__)
  if (w->tsan_native == NULL)
    w->tsan_native = __tsan_get_current_fiber();
  if (w->tsan_runner == NULL)
    w->tsan_runner = __tsan_create_fiber(0);
#endif
  AH_TSAN_SWITCH(w->tsan_runner);
  AH_ASAN_START(&w->native_fake, b->runner_stack, ah_cpu_stack_usable(w, 0));
  ah_fiber_switch(&w->native, &w->runner);
  if (w->fail_jump) {
    /* ah_cpu_block_fail came back here to jump to jb from the worker's own
     * stack (it pairs the sanitizer's switch with jb's landing, as a fault's
     * handler does). */
    w->fail_jump = 0;
    siglongjmp(w->jb, 1);
  }
  AH_ASAN_FINISH(w->native_fake, NULL, NULL);
  w->in_kernel = 0;
  ah_cpu_block_abandon(w); /* nothing is left running: just give the stacks back */
  return hipSuccess;
}

/* After the block finished or faulted: stacks back to the pool. */
void ah_cpu_block_abandon(struct ah_cpu_worker *w) {
  struct ah_cpu_block *b = &w->block;

  block_end(w);
  if (b->fiber_mode) {
    for (unsigned i = 0; i < b->nthreads; i++) {
      if (b->threads[i].stack != NULL) {
        ah_cpu_stack_put(w, b->threads[i].stack);
        b->threads[i].stack = NULL;
      }
    }
    b->fiber_mode = 0;
  }
  if (b->runner_stack != NULL) {
    ah_cpu_stack_put(w, b->runner_stack);
    b->runner_stack = NULL;
  }
  /* The built-ins stay as the block left them: the next block sets them, and
   * the worker resets them once it has no more blocks of the grid
   * (ah_cpu_block_idle, cpu_sched.c's run_blocks). */
}

/* Outside kernels the built-ins read as a block of one: a program's own
 * thread runs blocks too when it synchronizes (cpu_queue.c's help). */
void ah_cpu_block_idle(void) {
  threadIdx = blockIdx = (ahCpuIndex){0, 0, 0};
  blockDim = gridDim = (ahCpuIndex){1, 1, 1};
  __ah_cpu_lane = 0;
}

/* Ends the running block from inside it (a GPU thread's stack, or the fast
 * path's). The jump to jb is made from the worker's own stack, after a switch
 * back to it: a longjmp from one stack to another, outside a signal handler,
 * is what glibc's fortified longjmp (_FORTIFY_SOURCE, on by default in some
 * distributions' compilers) takes for a corrupt stack and aborts on, when the
 * target frame lies below the current one, as it does when a fiber stack
 * sits above the worker's (a cooperative grid's block threads are made after
 * the stacks they reuse). A fault's handler jumps from the alternate signal
 * stack, which that check allows. */
void ah_cpu_block_fail(struct ah_cpu_worker *w, hipError_t err, const char *why) {
  struct ah_fiber dead; /* the abandoned context: never resumed */

  ah_cpu_fault_record(w, err, why);
  if (w->block.direct) /* already on the worker's stack (run_compiled) */
    siglongjmp(w->jb, 1);
  w->fail_jump = 1;
  AH_ASAN_START(NULL, w->native_bottom, w->native_size);
  AH_TSAN_SWITCH(w->tsan_native);
  ah_fiber_switch(&dead, &w->native);
  __builtin_unreachable();
}
