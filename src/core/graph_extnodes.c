/* SPDX-License-Identifier: MIT */
/* Graph nodes of external semaphores (signal, wait) and of stream memory
 * operations (batch memory operation nodes): their parameters are arrays,
 * which the node keeps its own copy of in its spec (s->ops), and they run
 * as the stream calls do (hipSignalExternalSemaphoresAsync,
 * hipWaitExternalSemaphoresAsync, hipStreamBatchMemOp) on the lane the
 * executable graph gives them. A semaphore handle is checked when the node
 * is made and looked up again at each launch (destroyed since:
 * hipErrorInvalidValue). No such node is native to a device graph: a graph
 * holding one is replayed by the core (graph_exec.c). */
#include "external.h"
#include "graph.h"
#include "stream.h"

#include <stdlib.h>
#include <string.h>

int ah_gspec_has_ops(hipGraphNodeType t) {
  return t == hipGraphNodeTypeExtSemaphoreSignal || t == hipGraphNodeTypeExtSemaphoreWait ||
         t == hipGraphNodeTypeBatchMemOp;
}

/* The size of one semaphore's parameters. */
static size_t params_size(hipGraphNodeType type) {
  return type == hipGraphNodeTypeExtSemaphoreSignal ? sizeof(hipExternalSemaphoreSignalParams)
                                                    : sizeof(hipExternalSemaphoreWaitParams);
}

/* ops: n handles, then n parameter structs. */
hipError_t ah_gspec_extsem(hipExternalSemaphore_t *sems, const void *params, unsigned n,
                           hipGraphNodeType type, struct ah_gspec *s) {
  size_t ps = params_size(type);

  memset(s, 0, sizeof(*s));
  s->type = type;
  if (sems == NULL || params == NULL || n == 0)
    return hipErrorInvalidValue;
  for (unsigned i = 0; i < n; i++)
    if (ah_extsem_lookup(sems[i]) == NULL)
      return hipErrorInvalidValue;
  s->ops_bytes = (size_t)n * (sizeof(*sems) + ps);
  s->ops = malloc(s->ops_bytes);
  if (s->ops == NULL)
    return hipErrorOutOfMemory;
  memcpy(s->ops, sems, n * sizeof(*sems));
  memcpy((char *)s->ops + n * sizeof(*sems), params, n * ps);
  s->nops = n;
  return hipSuccess;
}

hipError_t ah_gspec_batch(const hipBatchMemOpNodeParams *p, struct ah_gspec *s) {
  hipError_t err;

  memset(s, 0, sizeof(*s));
  s->type = hipGraphNodeTypeBatchMemOp;
  if (p == NULL)
    return hipErrorInvalidValue;
  err = ah_batch_check(p->paramArray, p->count, p->flags);
  if (err != hipSuccess)
    return err;
  s->ops_bytes = (size_t)p->count * sizeof(*p->paramArray);
  s->ops = malloc(s->ops_bytes);
  if (s->ops == NULL)
    return hipErrorOutOfMemory;
  memcpy(s->ops, p->paramArray, s->ops_bytes);
  s->nops = p->count;
  s->ops_flags = p->flags;
  s->ops_ctx = p->ctx;
  return hipSuccess;
}

hipError_t ah_gspec_run_ops(struct ah_device *dev, struct ah_queue *q, const struct ah_gspec *s) {
  const hipExternalSemaphore_t *sems = s->ops;
  const char *params = (const char *)s->ops + s->nops * sizeof(*sems);
  size_t ps = params_size(s->type);
  hipError_t err = hipSuccess;

  if (s->type == hipGraphNodeTypeBatchMemOp)
    return ah_batch_queue(dev, q, s->ops, (unsigned)s->nops);
  for (size_t i = 0; i < s->nops; i++)
    if (ah_extsem_lookup(sems[i]) == NULL || !ah_extsem_usable(ah_extsem_lookup(sems[i]), dev))
      return hipErrorInvalidValue;
  for (size_t i = 0; i < s->nops && err == hipSuccess; i++) {
    struct ah_extsem *e = ah_extsem_lookup(sems[i]);

    if (s->type == hipGraphNodeTypeExtSemaphoreSignal)
      err = ah_extsem_signal(e, dev, q, (const void *)(params + i * ps));
    else
      err = ah_extsem_wait(e, dev, q, (const void *)(params + i * ps));
  }
  return err;
}
