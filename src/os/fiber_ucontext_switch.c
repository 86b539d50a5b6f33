/* SPDX-License-Identifier: MIT */
/* Fiber init and switch on ucontext (makecontext/swapcontext): the portable
 * fallback for machines without an assembly switch, chosen with
 * ANYHIP_FIBER=ucontext. Much slower than the assembly (swapcontext also
 * saves the signal mask with a system call), but correct everywhere glibc
 * runs. CMake's source glob sees this file in every build; it is empty
 * unless the ucontext switch was chosen. */
#if defined(AH_FIBER_UCONTEXT)
#include "fiber.h"

#include <stdint.h>

/* makecontext passes int arguments only: the fiber's address travels in two
 * halves. */
static void start(unsigned hi, unsigned lo) {
  struct ah_fiber *f = (struct ah_fiber *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo);

  f->entry(f->arg);
}

void ah_fiber_init(struct ah_fiber *f, void *stack, size_t size, void (*entry)(void *), void *arg) {
  uintptr_t p = (uintptr_t)f;

  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = stack;
  f->uc.uc_stack.ss_size = size;
  f->uc.uc_link = NULL; /* entry never returns */
  f->entry = entry;
  f->arg = arg;
  makecontext(&f->uc, (void (*)(void))start, 2, (unsigned)(p >> 16 >> 16), (unsigned)p);
}

void ah_fiber_switch(struct ah_fiber *from, struct ah_fiber *to) {
  swapcontext(&from->uc, &to->uc);
}
#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int ah_fiber_ucontext_unused;
#endif
