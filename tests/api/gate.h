/* SPDX-License-Identifier: MIT */
/* Test helpers for ordering on streams: a gate is a host function that holds
 * its stream until the test opens it, and a mark records that (and in which
 * order) host functions ran. Used by the stream, event and launch tests. */
#ifndef AH_TEST_GATE_H
#define AH_TEST_GATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

struct gate {
  pthread_mutex_t m;
  pthread_cond_t c;
  int open;
  atomic_int entered; /* the host function started */
};

#define GATE_INIT                                                                                  \
  { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 }

/* hipHostFn_t: blocks its stream until gate_open. */
static inline void gate_fn(void *p) {
  struct gate *g = p;

  atomic_store(&g->entered, 1);
  pthread_mutex_lock(&g->m);
  while (!g->open)
    pthread_cond_wait(&g->c, &g->m);
  pthread_mutex_unlock(&g->m);
}

static inline void gate_open(struct gate *g) {
  pthread_mutex_lock(&g->m);
  g->open = 1;
  pthread_cond_broadcast(&g->c);
  pthread_mutex_unlock(&g->m);
}

static inline void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

  nanosleep(&ts, NULL);
}

static inline double now_ms(void) {
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Waits up to ms for *flag to become nonzero; returns its value. */
static inline int wait_flag(atomic_int *flag, int ms) {
  double end = now_ms() + ms;

  while (!atomic_load(flag) && now_ms() < end)
    sleep_ms(1);
  return atomic_load(flag);
}

/* A log of host functions in the order they ran. */
struct order_log {
  atomic_int n;
  int seq[256];
};

struct order_item {
  struct order_log *log;
  int id;
};

static inline void order_fn(void *p) {
  struct order_item *it = p;
  int i = atomic_fetch_add(&it->log->n, 1);

  if (i < 256)
    it->log->seq[i] = it->id;
}

/* hipHostFn_t: sets an atomic_int flag. */
static inline void mark_fn(void *p) {
  atomic_store((atomic_int *)p, 1);
}

#endif
