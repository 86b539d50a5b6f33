/* SPDX-License-Identifier: MIT */
/* A queue's next command must not be stranded when a synchronous copy that
 * ran inline on the caller's thread completes while another thread sleeps
 * waiting on the same queue as a "helper" (it once waited for the
 * dispatcher's 2-second idle timeout: src/backends/cpu/cpu_queue.c kicks the
 * queue after an inline run now). */
#include "ah_test.h"
#include "gate.h"

#include <pthread.h>
#include <stdatomic.h>

struct wk_copy {
  unsigned *dst, *src;
  atomic_int entered;
  hipError_t err;
};

static void *wk_copy_thread(void *p) {
  struct wk_copy *c = p;

  atomic_store(&c->entered, 1);
  /* Null stream, idle: runs inline on this thread, and first waits (with the
   * null queue busy) for the gated blocking stream. */
  c->err = hipMemcpy(c->dst, c->src, sizeof(unsigned), hipMemcpyHostToHost);
  return NULL;
}

struct wk_open {
  struct gate *g;
  int ms;
};

static void *wk_open_thread(void *p) {
  struct wk_open *o = p;

  sleep_ms(o->ms);
  gate_open(o->g);
  return NULL;
}

AH_TEST(stress_inline_copy_wakes_dispatcher) {
  struct gate g = GATE_INIT;
  struct wk_copy c = {0};
  struct wk_open o = {&g, 100};
  pthread_t tc, to;
  hipStream_t s;
  hipEvent_t e;
  unsigned *v;
  double t0, t1;

  CHECK_HIP(hipHostMalloc((void **)&v, 4 * sizeof(unsigned), 0));
  v[0] = 0;
  v[1] = 41;
  c.dst = &v[0];
  c.src = &v[1];
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipEventCreate(&e));
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK_EQ(pthread_create(&tc, NULL, wk_copy_thread, &c), 0);
  CHECK(wait_flag(&c.entered, 5000));
  sleep_ms(50); /* the copy is now inline, waiting for s */
  CHECK_HIP(hipMemsetD32Async((hipDeviceptr_t)&v[2], 7, 1, NULL));
  CHECK_HIP(hipEventRecord(e, NULL));
  CHECK_EQ(pthread_create(&to, NULL, wk_open_thread, &o), 0);
  t0 = now_ms();
  CHECK_HIP(hipEventSynchronize(e)); /* sleeps as a helper of the busy null queue */
  t1 = now_ms();
  pthread_join(tc, NULL);
  pthread_join(to, NULL);
  CHECK_HIP(c.err);
  CHECK_EQ(v[0], 41);
  CHECK_EQ(v[2], 7);
  /* The gate opens after 100 ms; the memset and record are then one step
   * away. 2 s (the dispatcher's idle timeout) means nobody woke it. */
  if (t1 - t0 > 1000) {
    fprintf(stderr, "hipEventSynchronize took %.0f ms\n", t1 - t0);
    return AH_FAIL;
  }
  CHECK_HIP(hipEventDestroy(e));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipHostFree(v));
  return AH_PASS;
}
