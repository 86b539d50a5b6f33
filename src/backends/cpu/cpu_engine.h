/* SPDX-License-Identifier: MIT */
/* The CPU device's kernel engine, as its files see each other:
 *   cpu_sched.c  worker pool, grids and blocks handed to workers, counters
 *   cpu_block.c  one block: fast path, switch to fibers, barriers, scheduling
 *   cpu_warp.c   warp collectives (shuffles, votes, match, reductions)
 *   cpu_compiled.c  kernels compiled into block functions: registry, choice per launch
 *   cpu_region.c the region scheduler that compiled block functions call
 *   cpu_stack.c  fiber stacks (mmap'd with a guard page, pooled per worker)
 *   cpu_fault.c  SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGTRAP inside kernels
 * Everything here runs on one worker thread at a time: a block's state and
 * its fibers belong to the worker that runs the block, so none of it is
 * locked. The rest of the CPU device needs only ah_cpu_grid_run
 * (cpu_internal.h) and the constants at the top. */
#ifndef AH_CPU_ENGINE_H
#define AH_CPU_ENGINE_H

#include "cpu_internal.h"

#include <hip/anyhip/cpu/block_abi.h>
#include <hip/anyhip/cpu/state.h>
#include <setjmp.h>
#include <signal.h>

#include "../../os/fiber.h"

/* wall_clock64() counts nanoseconds of CLOCK_MONOTONIC: a constant rate of
 * 1 GHz, which hipDeviceAttributeWallClockRate reports in kHz. */
#define AH_CPU_WALL_CLOCK_KHZ 1000000

/* Fiber stacks smaller than this are rounded up: host-compiled device code
 * calls the C library (printf alone takes a few KiB). */
#define AH_CPU_STACK_MIN ((size_t)16 * 1024)

/* ---- one GPU thread, and one block ---- */

/* What else a block barrier waits for (ah_cpu_block's bar_grid). */
enum { AH_BAR_BLOCK, AH_BAR_GRID, AH_BAR_MULTI_GRID };

enum ah_cpu_tstate {
  AH_T_NEW,     /* not started: gets a fiber when first scheduled */
  AH_T_READY,   /* can run */
  AH_T_RUNNING, /* the one running (one per block) */
  AH_T_BARRIER, /* waiting at __syncthreads */
  AH_T_WARP,    /* waiting at a warp collective */
  AH_T_DONE     /* returned from the kernel: takes part in nothing */
};

struct ah_cpu_gthread {
  ahCpuIndex idx; /* threadIdx */
  unsigned lane;
  struct ah_fiber fiber;
  void *stack;  /* from the worker's pool; NULL while none */
  unsigned tid; /* linear thread id in the block */
  unsigned char state;
  /* barrier result, written when the barrier opens */
  unsigned bar_true, bar_n;
  void *asan_fake; /* AddressSanitizer's fake stack while switched out */
  /* the warp collective this thread waits at (its operands are in the
   * block's wslot[tid]) */
  uint64_t wresult;
  const void *wsite;
};

struct ah_cpu_warp {
  uint64_t live;    /* lanes that exist and have not returned */
  uint64_t waiting; /* lanes waiting at a collective */
  /* The usual case, kept without scanning: every waiting lane is at the
   * same call site with the same mask. `mixed` when they are not. */
  uint64_t same; /* waiting lanes with site and mask below */
  const void *site;
  uint64_t mask;
  int mixed;
  uint64_t outside; /* waiting lanes that called outside their own mask */
};

struct ah_cpu_block {
  const struct ah_cpu_grid *grid;
  unsigned nthreads, warp_size, nwarps;
  unsigned warp_shift; /* log2(warp_size): lane and warp of a tid without a division */
  int fiber_mode;    /* 0: fast path, threads one after another */
  int compiled;      /* run by the kernel's block function (cpu_compiled.c) */
  int direct;        /* ... called on the worker's own stack, no fiber (run_compiled) */
  unsigned cur;      /* running thread (fiber mode; see ah_cpu_fast_tid) */
  unsigned live;     /* threads not returned (fiber mode) */
  unsigned runnable; /* threads NEW or READY */
  unsigned bar_arrived, bar_true;
  int bar_grid; /* the waiting barrier is a grid.sync() or a multi-grid's (AH_BAR_*) */
  void *runner_stack;             /* the stack the fast path runs on */
  struct ah_cpu_gthread *threads; /* nthreads of them (worker-owned array) */
  struct ah_cpu_warp *warps;      /* nwarps */
  ahCpuSplitSlot *wslot;          /* nthreads: operands of the warp collective each waits at */
};

/* A compiled block's per-thread state (cpu_region.c): per worker, grown as
 * needed and reused by every block. */
struct ah_cpu_region {
  ahCpuBlockCtx ctx; /* first: __ah_cpu_block_next finds the rest from its argument */
  const ahCpuBlockKernel *k;
  unsigned nthreads, warp_size, warp_shift;
  unsigned cap;     /* pc and slot entries */
  int all_live;     /* the masked region released last is every live thread's */
  unsigned dx;      /* blockDim.x */
  int one_d;        /* blockDim.y == blockDim.z == 1: a range of x is a range of threads */
  int sub;          /* the region released last runs unmasked over ctx.x_begin..x_end,
                       which holds every live thread */
  size_t frame_cap; /* frame bytes */
};

/* ---- one worker thread ---- */

struct ah_cpu_worker {
  struct ah_fiber native; /* the worker's own context, waiting while a block runs */
  struct ah_fiber runner; /* the fast path's context */
  /* AddressSanitizer builds: the worker's own stack, learnt at the first
   * switch, and its fake stack while a block runs */
  const void *native_bottom;
  size_t native_size;
  void *native_fake;
  struct ah_cpu_block block;
  struct ah_cpu_gthread *threads;
  struct ah_cpu_warp *warps;
  ahCpuSplitSlot *wslots; /* threads_cap of them */
  unsigned threads_cap, warps_cap;
  unsigned share; /* which share of a grid's blocks it claims first: a pool
                     worker's number (1, 2, ...), 0 for a launching thread */
  struct ah_cpu_region region;
  void *shared; /* dynamic shared memory */
  size_t shared_cap;
  /* static __shared__ memory (cpu_arena.c): arena_cap bytes at arena, in
   * the mapping arena_map; NULL until the thread's first block */
  char *arena;
  size_t arena_cap;
  void *arena_map;
  size_t arena_map_size;
  /* stack pool: stacks of stack_size usable bytes, guard bytes below each */
  size_t stack_size, guard_size;
  void **stacks;
  unsigned nstacks, stacks_cap;
  /* faults: the handler (or ah_cpu_block_fail) fills these and jumps to jb */
  sigjmp_buf jb;
  volatile sig_atomic_t in_kernel;
  volatile int fault_sig; /* 0 for an engine failure */
  void *volatile fault_addr;
  ahCpuIndex fault_thread;
  int fault_overflow;    /* the address is in the stack's guard page */
  hipError_t fault_err;  /* what the launch returns */
  const char *fault_why; /* engine failures only */
  int fault_compiled;    /* in a compiled block, and the thread is not known */
  volatile int fail_jump; /* ah_cpu_block_fail switched back to `native` to jump from there */
  void *altstack;
  size_t altstack_size;
  size_t direct_stack; /* the most stack a block may take on the thread's own (run_compiled) */
  /* polling points (__ah_cpu_poll) in the fast path: the thread that polled
   * last and how many times in a row */
  unsigned poll_tid, poll_count;
  /* counters, read by other threads (relaxed) */
  _Atomic unsigned long long fibers, blocks, compiled;
  /* The watchdog (ANYHIP_CPU_WATCHDOG, cpu_sched.c and cpu_fault.c): the
   * worker bumps `progress` whenever its block moves on (a block starts, a
   * GPU thread starts, switches, stops at a barrier or returns, a compiled
   * block reaches a split point); `running` while a block runs. The
   * watchdog thread reads them (relaxed), owns wd_last and wd_since, and
   * writes wd_seen, the count it saw stall, before signalling `thread`. */
  pthread_t thread;
  int watched; /* `thread` is set (pool lock) */
  _Atomic unsigned long progress;
  atomic_int running;
  _Atomic unsigned long wd_seen;
  unsigned long wd_last;
  double wd_since;
  /* A compiled block cannot be told from a long healthy one (the engine
   * sees nothing between split points): the handler leaves it running and
   * puts its kernel here, and the watchdog thread reports it once a stall. */
  _Atomic(const void *) wd_compiled_fn;
  unsigned long wd_reported;
  struct ah_cpu_worker *next; /* in the pool's list */
  /* Long clock polls (cpu_sched.c, ah_cpu_poll_help): the grid the worker
   * claims blocks of (NULL in a cooperative grid), its claimed blocks
   * [run_next, run_end) not started yet, and the running block's polls:
   * which block (`blocks` + 1), since when (ns), how many, helped yet. */
  void *run;
  uint64_t run_next, run_end;
  unsigned long long help_block;
  long long help_t0;
  unsigned help_polls;
  int help_done;
  /* ThreadSanitizer builds: the worker's own fiber and those of a block */
  void *tsan_native, *tsan_runner;
  void **tsan_fibers;
  unsigned tsan_cap;
  /* Valgrind: the id of each fiber stack registered with it (cpu_stack.c) */
  struct ah_cpu_vgstack *vg_stacks;
  unsigned vg_n, vg_cap;
};

struct ah_cpu_vgstack {
  void *stack;
  unsigned id;
};

/* AddressSanitizer must be told about every stack switch (ANYHIP_SANITIZE
 * builds); nothing otherwise. START before switching away (fakep NULL when
 * the context being left never resumes), FINISH first thing after. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define AH_ASAN_START(fakep, bottom, size) __sanitizer_start_switch_fiber(fakep, bottom, size)
#define AH_ASAN_FINISH(fake, bottomp, sizep) __sanitizer_finish_switch_fiber(fake, bottomp, sizep)
#else
#define AH_ASAN_START(fakep, bottom, size) ((void)0)
#define AH_ASAN_FINISH(fake, bottomp, sizep) ((void)0)
#endif

/* ThreadSanitizer must be told about every stack switch too. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define AH_TSAN_SWITCH(f) __tsan_switch_to_fiber((f), 0)
#else
#define AH_TSAN_SWITCH(f) ((void)0)
#endif

/* Valgrind must know every fiber stack: it tells a stack switch from a
 * function call only by the stack pointer landing in another registered
 * stack, and otherwise takes the switch between two neighbouring fibers for
 * a huge frame pushed or popped, marking live frames undefined or
 * unaddressable. Client requests are a few no-op instructions outside
 * valgrind; without <valgrind/valgrind.h> (AH_HAVE_VALGRIND unset) they are
 * nothing at all. */
#if defined(AH_HAVE_VALGRIND)
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>
#define AH_VG_RUNNING() (RUNNING_ON_VALGRIND != 0)
#define AH_VG_STACK_REGISTER(lo, hi) VALGRIND_STACK_REGISTER((lo), (hi))
#define AH_VG_STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#define AH_VG_UNDEFINED(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define AH_VG_NOACCESS(p, n) VALGRIND_MAKE_MEM_NOACCESS((p), (n))
#else
#define AH_VG_RUNNING() 0
#define AH_VG_STACK_REGISTER(lo, hi) 0u
#define AH_VG_STACK_DEREGISTER(id) ((void)0)
#define AH_VG_UNDEFINED(p, n) ((void)0)
#define AH_VG_NOACCESS(p, n) ((void)0)
#endif

/* The kernel language's warpSize (cpu_block.c): set at device open, for host code too. */
extern int warpSize;
/* The worker running on this OS thread, NULL elsewhere. */
extern __thread struct ah_cpu_worker *ah_cpu_self __attribute__((tls_model("initial-exec")));

/* cpu_sched.c */
void ah_cpu_count_fiber(struct ah_cpu_worker *w);
/* A polling point of w's running block (cpu_sched.c): a block that has
 * polled the clock for HELP_AFTER_NS lets one more block of its grid start
 * on a helper thread, up to the blocks a worker holds (occupancy). */
void ah_cpu_poll_help(struct ah_cpu_worker *w);

/* The running block moved on (the watchdog's sign of life). One writer. */
static inline void ah_cpu_progress(struct ah_cpu_worker *w) {
  atomic_store_explicit(&w->progress,
                        atomic_load_explicit(&w->progress, memory_order_relaxed) + 1,
                        memory_order_relaxed);
}

/* What __syncthreads_count/_and/_or return: t of the n threads had a true
 * predicate. */
static inline int ah_cpu_bar_value(int op, unsigned t, unsigned n) {
  switch (op) {
  case AH_CPU_BAR_COUNT:
    return (int)t;
  case AH_CPU_BAR_AND:
    return t == n;
  case AH_CPU_BAR_OR:
    return t != 0;
  default:
    return 0;
  }
}

/* cpu_block.c. Runs block number `linear` of g on w; returns when every
 * thread of it has returned. On a fault the signal handler jumps to w->jb
 * instead and the caller calls ah_cpu_block_abandon. */
hipError_t ah_cpu_block_run(struct ah_cpu_worker *w, const struct ah_cpu_grid *g, uint64_t linear);
int ah_cpu_avx2_ok(void);
void ah_cpu_block_abandon(struct ah_cpu_worker *w);
/* Records that the running block ends with `err` (and `why` for the report),
 * at the current thread, not from a signal: the caller then jumps to w->jb.
 * Stores only (the watchdog's signal handler uses it). */
static inline void ah_cpu_fault_record(struct ah_cpu_worker *w, hipError_t err, const char *why) {
  w->fault_sig = 0;
  w->fault_addr = NULL;
  w->fault_overflow = 0;
  w->fault_thread = threadIdx;
  w->fault_err = err;
  w->fault_why = why;
  w->in_kernel = 0;
}
/* Gives up the running block (no memory for a fiber stack, say): jumps to
 * w->jb like a fault, with `err` for the launch. Does not return. */
void ah_cpu_block_fail(struct ah_cpu_worker *w, hipError_t err, const char *why)
    __attribute__((noreturn));
/* Releases w's memory (the thread exits after). */
void ah_cpu_worker_free(struct ah_cpu_worker *w);
/* Switches the running block from the fast path to fibers: the running
 * thread keeps its stack, the threads before it have returned, the threads
 * after it get fibers when first scheduled. */
void ah_cpu_block_convert(struct ah_cpu_worker *w, struct ah_cpu_block *b);
/* The running thread blocked (state BARRIER or WARP) or returned (DONE): run
 * another thread of the block until someone makes it RUNNING again. */
void ah_cpu_block_yield(struct ah_cpu_worker *w, struct ah_cpu_block *b);

/* The running thread's linear id in its block, on the fast path (which
 * does not keep b->cur up to date; fiber mode does). */
static inline unsigned ah_cpu_fast_tid(const struct ah_cpu_block *b) {
  const dim3 *d = &b->grid->block;

  return threadIdx.x + d->x * (threadIdx.y + d->y * threadIdx.z);
}

/* cpu_warp.c */
/* The results of one warp collective: lanes[l] holds lane l's operands (l
 * counted from the warp's lane 0), G the lanes that take part; op >= 0 is the
 * op of every lane, -1 means each lane's lanes[l].op. res[l] gets the result
 * of each lane l in G. Both engines call it: the fibers' collectives and the
 * region scheduler's warp split points. */
/* A shuffle (op) of a whole warp whose lanes all take part with one mask:
 * the same results as ah_cpu_warp_compute, written over the lanes' values
 * with no per-lane bookkeeping. Returns 0, touching nothing, when the warp
 * is not such a case. */
int ah_cpu_warp_shuffle_full(ahCpuSplitSlot *lanes, unsigned ws, int op);
void ah_cpu_warp_compute(const ahCpuSplitSlot *lanes, uint64_t G, unsigned ws, int op,
                         uint64_t *res);
/* A lane of warp `wi` returned: complete every collective of that warp that
 * now has all its lanes. */
void ah_cpu_warp_recheck(struct ah_cpu_block *b, unsigned wi);
/* Nothing is runnable: complete one waiting collective with the lanes that
 * reached it (they are the active lanes of a divergent warp). Returns 0 when
 * no collective was waiting. */
int ah_cpu_warp_resolve(struct ah_cpu_block *b);

/* cpu_stack.c */
hipError_t ah_cpu_stack_setsize(struct ah_cpu_worker *w, size_t size);
/* The built-ins as outside kernels (a block of one), after a worker's last
 * block of a grid. */
void ah_cpu_block_idle(void);
void *ah_cpu_stack_get(struct ah_cpu_worker *w); /* NULL when out of memory */
void ah_cpu_stack_put(struct ah_cpu_worker *w, void *stack);
/* How many bytes from `stack` up thread tid's fiber uses (at least stack_size). */
size_t ah_cpu_stack_usable(struct ah_cpu_worker *w, unsigned tid);
void ah_cpu_stacks_free(struct ah_cpu_worker *w);

/* cpu_fault.c */
void ah_cpu_fault_install(void);                              /* once per process */
hipError_t ah_cpu_fault_thread_init(struct ah_cpu_worker *w); /* the alternate signal stack */
void ah_cpu_fault_thread_fini(struct ah_cpu_worker *w);
/* A fault in a compiled block function (which keeps no threadIdx): runs
 * that block again through the per-thread entry, with fibers, to learn the
 * faulting thread. Keeps the re-run's fault when it faults; otherwise the
 * first fault, with w->fault_compiled set (thread unknown). */
void ah_cpu_fault_rerun(struct ah_cpu_worker *w, const struct ah_cpu_grid *g, uint64_t block);
/* The watchdog's signal: installed once, when the watchdog starts. Its
 * handler ends the worker's block, as a fault does, with
 * hipErrorLaunchTimeOut, when the block still makes no progress, some of its
 * threads wait for the running one, and the worker runs kernel code (not the
 * C library or libanyhip, whose locks a jump would leave held). */
#define AH_CPU_WATCHDOG_SIG (SIGRTMAX - 2)
void ah_cpu_watchdog_install(double seconds);
/* Prints the fault that brought w back to its jump buffer. */
void ah_cpu_fault_report(struct ah_cpu_worker *w, const struct ah_cpu_grid *g, uint64_t block);

/* cpu_compiled.c: sets g->block_fn and g->block_k when g's kernel has a
 * usable block function and ANYHIP_CPU_COMPILED allows it; says which at the
 * kernel's first launch under ANYHIP_LOG=cpu. Any thread. */
void ah_cpu_compiled_pick(struct ah_cpu_grid *g);

/* cpu_arena.c: before each block, on w's thread: w's arena of static
 * __shared__ memory holds every place registered so far, and
 * __ah_cpu_shared_arena points at it (hipErrorOutOfMemory when it cannot). */
hipError_t ah_cpu_arena_reserve(struct ah_cpu_worker *w);
void ah_cpu_arena_free(struct ah_cpu_worker *w);

/* cpu_region.c: frees w's compiled-block buffers. */
void ah_cpu_region_free(struct ah_cpu_worker *w);

#endif
