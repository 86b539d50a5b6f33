/* SPDX-License-Identifier: MIT */
/* Fibers: user-level execution contexts for the CPU device's GPU threads.
 * Only two operations: prepare a context on a stack, and switch from the
 * running context to another. The switch saves callee-saved registers only
 * (assembly for x86-64 and aarch64) or uses ucontext where there is no
 * assembly (ANYHIP_FIBER=ucontext); CMake picks the file and defines
 * AH_FIBER_ASM or AH_FIBER_UCONTEXT. Not thread-safe per fiber: a fiber is
 * switched to by one OS thread at a time, and never resumed on another. */
#ifndef AH_OS_FIBER_H
#define AH_OS_FIBER_H

#include <stddef.h>

#if defined(AH_FIBER_UCONTEXT)
#include <ucontext.h>
struct ah_fiber {
  ucontext_t uc;
  void (*entry)(void *);
  void *arg;
};
#else
struct ah_fiber {
  void *sp; /* saved stack pointer; the registers are on that stack */
};
#endif

/* Prepares f so that the first switch to it calls entry(arg) on the stack
 * [stack, stack + size). entry must never return: it ends by switching to
 * another fiber, and f is then dead until prepared again. */
void ah_fiber_init(struct ah_fiber *f, void *stack, size_t size, void (*entry)(void *), void *arg);

/* Saves the running context in `from` and resumes `to`. Returns when some
 * later switch names `from` as its target. from and to must differ. */
void ah_fiber_switch(struct ah_fiber *from, struct ah_fiber *to);

#endif
