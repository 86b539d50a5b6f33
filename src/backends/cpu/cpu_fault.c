/* SPDX-License-Identifier: MIT */
/* Faults inside kernels. A SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGTRAP (what
 * __trap() raises on aarch64) raised by a
 * worker while it runs a block is caught on the worker's alternate signal
 * stack (so a GPU thread's stack overflow is caught too), the block is
 * abandoned by a jump back to the worker's loop, and the launch fails with
 * hipErrorLaunchFailure after a one-line report naming the kernel, the block
 * and the thread. A block function (a compiled kernel) keeps no threadIdx,
 * so its block is run again through the per-thread entry to find the thread.
 * Any other fault keeps its previous behaviour: the handler
 * that was installed before ours runs, or the default action (a core dump). */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <link.h>
#include <inttypes.h>
#include <stdio.h>
#include <ucontext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../os/symbols.h"

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
#define NSIG_FAULT (sizeof(fault_signals) / sizeof(fault_signals[0]))
static struct sigaction previous[NSIG_FAULT];

static int slot(int sig) {
  for (unsigned i = 0; i < NSIG_FAULT; i++)
    if (fault_signals[i] == sig)
      return (int)i;
  return -1;
}

/* Not a kernel's fault: behave as if we had never been installed. */
static void chain(int sig, siginfo_t *si, void *uc) {
  int i = slot(sig);
  struct sigaction *old = i >= 0 ? &previous[i] : NULL;

  if (old != NULL && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction != NULL) {
    old->sa_sigaction(sig, si, uc);
    return;
  }
  if (old != NULL && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
    old->sa_handler(sig);
    return;
  }
  /* Default action. Returning re-runs the faulting instruction, which now
   * kills the process with the right signal and state for a core dump; a
   * signal someone sent (kill) is raised again instead. */
  signal(sig, SIG_DFL);
  if (si->si_code <= 0)
    raise(sig);
}

/* Whether addr is in the guard page of the running GPU thread's stack. */
static int in_guard(struct ah_cpu_worker *w, const void *addr) {
  struct ah_cpu_block *b = &w->block;
  char *stack = b->runner_stack;

  if (b->fiber_mode && b->threads[b->cur].stack != NULL)
    stack = b->threads[b->cur].stack;
  return stack != NULL && (const char *)addr < stack && (const char *)addr >= stack - w->guard_size;
}

/* From a signal handler back to the worker's loop, which abandons the block. */
static __attribute__((noreturn)) void jump_back(struct ah_cpu_worker *w) {
  sigset_t set;

  /* The jump buffer does not hold a signal mask (saving one costs a system
   * call per block): unblock the signals ourselves. */
  sigemptyset(&set);
  for (unsigned i = 0; i < NSIG_FAULT; i++) /* an interposed handler (TSan) may block them all */
    sigaddset(&set, fault_signals[i]);
  sigaddset(&set, AH_CPU_WATCHDOG_SIG);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  if (!w->block.direct) { /* from a fiber's stack back to the worker's */
    AH_ASAN_START(NULL, w->native_bottom, w->native_size);
    AH_TSAN_SWITCH(w->tsan_native);
  }
  siglongjmp(w->jb, 1);
}

static void handler(int sig, siginfo_t *si, void *uc) {
  struct ah_cpu_worker *w = ah_cpu_self;

  if (w == NULL || !w->in_kernel || si->si_code <= 0) {
    chain(sig, si, uc);
    return;
  }
  w->in_kernel = 0;
  w->fault_sig = sig;
  w->fault_addr = si->si_addr;
  w->fault_overflow = sig == SIGSEGV && in_guard(w, si->si_addr);
  w->fault_thread = threadIdx;
  w->fault_err = hipErrorLaunchFailure;
  w->fault_why = NULL;
  jump_back(w);
}

static void install(void) {
  struct sigaction sa;

  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (unsigned i = 0; i < NSIG_FAULT; i++)
    sigaction(fault_signals[i], &sa, &previous[i]);
}

/* ---- the watchdog's signal ---- */

/* The executable segments of the C library and of libanyhip: a worker
 * interrupted there may hold a lock (stdio's, the allocator's, the
 * engine's), so the block is not abandoned then; the watchdog signals
 * again. */
#define NRANGES 16
static struct {
  uintptr_t lo, hi;
} ranges[NRANGES];
static unsigned nranges;
static struct sigaction wd_previous;
static char wd_why[256];

static int add_ranges(struct dl_phdr_info *info, size_t size, void *arg) {
  uintptr_t addr = (uintptr_t)arg;
  int found = 0;

  (void)size;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

    if (ph->p_type == PT_LOAD && addr >= lo && addr < lo + ph->p_memsz)
      found = 1;
  }
  if (!found)
    return 0;
  for (int i = 0; i < info->dlpi_phnum && nranges < NRANGES; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      ranges[nranges].lo = info->dlpi_addr + ph->p_vaddr;
      ranges[nranges].hi = ranges[nranges].lo + ph->p_memsz;
      nranges++;
    }
  }
  return 1;
}

static int in_runtime(const void *uc) {
  uintptr_t ip = 0;

#if defined(__x86_64__)
  ip = (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  ip = (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
#else
  (void)uc;
#endif
  for (unsigned i = 0; i < nranges; i++)
    if (ip >= ranges[i].lo && ip < ranges[i].hi)
      return 1;
  return 0;
}

/* Whether threads of w's block wait for the running one: threads not
 * started on the fast path, threads at a barrier or collective in fiber
 * mode. (Compiled blocks are only reported: wd_handler.) */
static int block_waits(struct ah_cpu_worker *w) {
  struct ah_cpu_block *b = &w->block;

  if (!b->fiber_mode)
    return ah_cpu_fast_tid(b) + 1 < b->nthreads;
  return b->live > 1;
}

static void wd_handler(int sig, siginfo_t *si, void *uc) {
  struct ah_cpu_worker *w = ah_cpu_self;

  if (si->si_code != SI_TKILL || si->si_pid != getpid() || w == NULL) {
    /* not ours: whoever had the signal before */
    if ((wd_previous.sa_flags & SA_SIGINFO) && wd_previous.sa_sigaction != NULL)
      wd_previous.sa_sigaction(sig, si, uc);
    else if (wd_previous.sa_handler != SIG_DFL && wd_previous.sa_handler != SIG_IGN)
      wd_previous.sa_handler(sig);
    return;
  }
  if (!w->in_kernel || !atomic_load_explicit(&w->running, memory_order_relaxed) ||
      atomic_load_explicit(&w->progress, memory_order_relaxed) !=
          atomic_load_explicit(&w->wd_seen, memory_order_relaxed) ||
      in_runtime(uc))
    return; /* it moved on meanwhile, or cannot be stopped here */
  if (w->block.compiled) {
    /* Its threads run as loops between split points: a long loop of
     * healthy threads looks the same as a spin-wait. Reported, not ended. */
    if (w->block.nthreads > 1)
      atomic_store_explicit(&w->wd_compiled_fn, w->block.grid->fn, memory_order_relaxed);
    return;
  }
  if (!block_waits(w))
    return;
  ah_cpu_fault_record(w, hipErrorLaunchTimeOut, wd_why);
  jump_back(w);
}

void ah_cpu_watchdog_install(double seconds) {
  struct sigaction sa;

  snprintf(wd_why, sizeof(wd_why),
           "no progress for %g s (ANYHIP_CPU_WATCHDOG) while threads of its block wait: "
           "a spin-wait on a block-mate cannot finish on the CPU device (docs/cpu-engine.md)",
           seconds);
  dl_iterate_phdr(add_ranges, (void *)(uintptr_t)&ah_cpu_watchdog_install);
  dl_iterate_phdr(add_ranges, (void *)(uintptr_t)&snprintf);
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = wd_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(AH_CPU_WATCHDOG_SIG, &sa, &wd_previous);
}

void ah_cpu_fault_install(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;

  pthread_once(&once, install);
}

hipError_t ah_cpu_fault_thread_init(struct ah_cpu_worker *w) {
  stack_t ss;
  size_t size = 64 * 1024;

  /* A program's thread that synchronizes runs kernels too (cpu_queue.c's
   * help): an alternate stack it set up itself stays, and serves us. */
  if (sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE) && ss.ss_size >= (size_t)SIGSTKSZ)
    return hipSuccess;
  if ((size_t)SIGSTKSZ > size)
    size = (size_t)SIGSTKSZ;
  w->altstack = malloc(size);
  if (w->altstack == NULL)
    return hipErrorOutOfMemory;
  w->altstack_size = size;
  memset(&ss, 0, sizeof(ss));
  ss.ss_sp = w->altstack;
  ss.ss_size = size;
  if (sigaltstack(&ss, NULL) != 0) {
    free(w->altstack);
    w->altstack = NULL;
    return hipErrorOutOfMemory;
  }
  return hipSuccess;
}

void ah_cpu_fault_thread_fini(struct ah_cpu_worker *w) {
  stack_t ss;

  if (w->altstack == NULL)
    return;
  memset(&ss, 0, sizeof(ss));
  ss.ss_flags = SS_DISABLE;
  sigaltstack(&ss, NULL);
  free(w->altstack);
  w->altstack = NULL;
}

static const char *signal_name(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGTRAP:
    return "SIGTRAP";
  default:
    return "signal";
  }
}

/* The re-run may write memory the first run wrote already; the launch fails
 * either way, and its results are lost on a GPU too. */
void ah_cpu_fault_rerun(struct ah_cpu_worker *w, const struct ah_cpu_grid *g, uint64_t block) {
  struct ah_cpu_grid fibers = *g;
  const int sig = w->fault_sig, overflow = w->fault_overflow;
  void *const addr = w->fault_addr;
  const hipError_t err = w->fault_err;
  const char *const why = w->fault_why;

  if (sig == 0)
    return; /* the engine gave up the block (no memory): no thread to find */
  fibers.block_fn = NULL;
  fibers.block_k = NULL;
  if (sigsetjmp(w->jb, 0) == 0) {
    (void)ah_cpu_block_run(w, &fibers, block);
  } else {
    AH_ASAN_FINISH(NULL, NULL, NULL);
    ah_cpu_block_abandon(w);
    if (w->fault_sig != 0) {
      w->fault_compiled = 0; /* the same block faulted in a thread we know */
      return;
    }
  }
  w->fault_sig = sig;
  w->fault_addr = addr;
  w->fault_overflow = overflow;
  w->fault_err = err;
  w->fault_why = why;
  w->fault_compiled = 1;
}

void ah_cpu_fault_report(struct ah_cpu_worker *w, const struct ah_cpu_grid *g, uint64_t block) {
  char name[512], thread[96];
  const ahCpuIndex *t = &w->fault_thread;
  unsigned bx = (unsigned)(block % g->grid.x), by = (unsigned)(block / g->grid.x % g->grid.y);
  unsigned bz = (unsigned)(block / g->grid.x / g->grid.y);

  if (ah_symbol_pretty(g->fn, name, sizeof(name)) == NULL)
    snprintf(name, sizeof(name), "%p", g->fn);
  if (w->fault_compiled)
    snprintf(thread, sizeof(thread),
             "thread unknown (compiled block; rerun with ANYHIP_CPU_COMPILED=0)");
  else
    snprintf(thread, sizeof(thread), "thread (%u,%u,%u)", t->x, t->y, t->z);
  if (w->fault_sig != 0)
    fprintf(stderr,
            "anyhip: kernel '%s' faulted: %s at address 0x%" PRIxPTR " (block (%u,%u,%u), %s)%s\n",
            name, signal_name(w->fault_sig), (uintptr_t)w->fault_addr, bx, by, bz, thread,
            w->fault_overflow ? ": stack overflow (raise hipLimitStackSize)" : "");
  else
    fprintf(stderr, "anyhip: kernel '%s' failed: %s (block (%u,%u,%u), %s)\n", name, w->fault_why,
            bx, by, bz, thread);
}
