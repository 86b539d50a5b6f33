/* SPDX-License-Identifier: MIT */
/* The reset gate. hipDeviceReset frees streams, queues and events that other
 * threads may be using right now (a broken contract, but no reason to
 * corrupt memory): it closes the gate, waits until no other thread is inside
 * an entry point, does its work, and reopens the gate. A thread that enters
 * while the gate is closed waits for the reset to end. Each thread owns a
 * slot, found through TLS; slots are never freed (a thread's exit marks its
 * slot for reuse), so the reset may walk the list without a lock. A thread
 * running a host function passes the gate: the reset may be waiting for the
 * very work that thread is doing. */
#include "internal.h"

#include <sched.h>
#include <stdlib.h>

_Thread_local struct ah_gate_slot *ah_gate_mine;
atomic_int ah_gate_closed;

static pthread_mutex_t reset_lock = PTHREAD_MUTEX_INITIALIZER; /* held through a reset */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER; /* guards adding slots */
static struct ah_gate_slot *_Atomic slots;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void thread_exit(void *p) {
  struct ah_gate_slot *s = p;

  atomic_store(&s->depth, 0);
  atomic_store(&s->free, 1);
}

static void make_key(void) {
  (void)pthread_key_create(&exit_key, thread_exit);
}

/* This thread's slot: a free one reused, or a new one. NULL when out of memory. */
static struct ah_gate_slot *claim(void) {
  struct ah_gate_slot *s;

  pthread_once(&key_once, make_key);
  pthread_mutex_lock(&slots_lock);
  for (s = atomic_load(&slots); s != NULL; s = s->next)
    if (atomic_load(&s->free))
      break;
  if (s == NULL && (s = calloc(1, sizeof(*s))) != NULL) {
    s->next = atomic_load(&slots);
    atomic_store(&slots, s);
  }
  if (s != NULL)
    atomic_store(&s->free, 0);
  pthread_mutex_unlock(&slots_lock);
  if (s != NULL)
    (void)pthread_setspecific(exit_key, s);
  ah_gate_mine = s;
  return s;
}

struct ah_gate_slot *ah_gate_wait(struct ah_gate_slot *s) {
  if (s == NULL && (s = claim()) == NULL)
    return NULL; /* out of memory: the call goes on unguarded */
  for (;;) {
    atomic_store(&s->depth, 1);
    if (!atomic_load(&ah_gate_closed) || ah_in_host_fn != 0)
      return s;
    atomic_store(&s->depth, 0);
    pthread_mutex_lock(&reset_lock); /* held until the reset ends */
    pthread_mutex_unlock(&reset_lock);
  }
}

void ah_gate_close(void) {
  struct ah_gate_slot *me = ah_gate_mine;

  /* Our own count would keep another reset from closing the gate: drop it
   * while waiting for the lock, as ah_gate_wait does. */
  if (me != NULL)
    atomic_fetch_sub(&me->depth, 1);
  pthread_mutex_lock(&reset_lock);
  if (me != NULL)
    atomic_fetch_add(&me->depth, 1);
  atomic_store(&ah_gate_closed, 1);
  for (struct ah_gate_slot *s = atomic_load(&slots); s != NULL; s = s->next)
    while (s != me && atomic_load(&s->depth) != 0)
      sched_yield();
}

void ah_gate_open(void) {
  atomic_store(&ah_gate_closed, 0);
  pthread_mutex_unlock(&reset_lock);
}
