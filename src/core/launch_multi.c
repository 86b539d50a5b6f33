/* SPDX-License-Identifier: MIT */
/* Launches of AMD's extensions (launch.h) beyond the one launch path (launch.c): a kernel
 * between two event records (hipExtLaunchKernel, hipExtModuleLaunchKernel), and several
 * kernels on several devices in one call (hipExtLaunchMultiKernelMultiDevice,
 * hipLaunchCooperativeKernelMultiDevice, hipModuleLaunchCooperativeKernelMultiDevice).
 * hip_ext.c checks the arguments. */
#include "device_ops.h"
#include "launch.h"
#include "stream.h"

#include <stdlib.h>

/* The kernel is checked before the start event is recorded, so a refused launch records
 * nothing. */
hipError_t ah_launch_between(struct ah_event *start, struct ah_event *stop, const void *fn,
                             const ahKernelSig *sig, hipFunction_t module_fn, dim3 grid, dim3 block,
                             size_t shmem, hipStream_t stream, void **args, void **extra) {
  hipError_t err;

  if (start != NULL) {
    err = ah_event_record(start, stream);
    if (err != hipSuccess)
      return err;
  }
  /* A module launch here is given in work sizes (hipExtModuleLaunchKernel). */
  err = module_fn != NULL ? ah_module_launch(module_fn, grid, block, shmem, stream, args, extra,
                                             AH_LAUNCH_WORK_SIZES)
                          : ah_launch_kernel(fn, sig, grid, block, shmem, stream, args, 0);
  if (err == hipSuccess && stop != NULL)
    err = ah_event_record(stop, stream);
  return err;
}

/* ---- multi_grid_group ---- */

void ah_multi_grid_release(struct ah_multi_grid *m) {
  if (m == NULL || atomic_fetch_sub(&m->refs, 1) != 1)
    return;
  if (m->impl != NULL && m->impl_free != NULL)
    m->impl_free(m->impl);
  pthread_mutex_destroy(&m->lock);
  free(m);
}

void ah_multi_grid_leave(struct ah_multi_grid *m, uint64_t blocks, int failed) {
  pthread_mutex_lock(&m->lock);
  m->absent += blocks;
  m->failed |= failed;
  if (m->impl != NULL)
    m->impl_leave(m->impl, blocks, failed);
  pthread_mutex_unlock(&m->lock);
}

void ah_multi_grid_drop(struct ah_multi_grid *m, unsigned rank, int failed) {
  ah_multi_grid_leave(m, m->grid_blocks[rank], failed);
  ah_multi_grid_release(m);
}

/* n grids of the given shapes, on devs[0..n), as one multi-grid, when every
 * device's backend runs them so (NULL otherwise, or when out of memory: the
 * grids then run without). */
static struct ah_multi_grid *multi_grid_new(int n, const dim3 *grids, const dim3 *blocks,
                                            struct ah_device *const *devs) {
  struct ah_multi_grid *m;

  for (int i = 0; i < n; i++)
    if (devs[i] == NULL || !devs[i]->backend->multi_grid)
      return NULL;
  m = calloc(1, sizeof(*m));
  if (m == NULL)
    return NULL;
  m->count = (unsigned)n;
  for (int i = 0; i < n; i++) {
    uint64_t nb = (uint64_t)grids[i].x * grids[i].y * grids[i].z;

    m->first[i] = m->threads;
    m->grid_blocks[i] = nb;
    m->blocks += nb;
    m->threads += nb * blocks[i].x * blocks[i].y * blocks[i].z;
  }
  pthread_mutex_init(&m->lock, NULL);
  atomic_init(&m->refs, (unsigned)n);
  return m;
}

/* Each kernel is launched on its own stream with its device made current for the launch;
 * the caller's current device is restored. Without NoPreSync, each launch first waits for
 * the work already queued on every listed stream; without NoPostSync, no listed stream goes
 * on before every kernel has finished (events join them), as HIP's multi-device launches. */
hipError_t ah_launch_multi(const hipLaunchParams *list, int n, struct ah_device *const *devs,
                           unsigned flags, int cooperative) {
  hipEvent_t pre[AH_LAUNCH_MULTI_MAX], post[AH_LAUNCH_MULTI_MAX];
  int saved = ah_current_ordinal(), made = 0, launched = 0;
  struct ah_multi_grid *multi = NULL;
  hipError_t err = hipSuccess;

  for (; made < n; made++) {
    struct ah_event *e;

    ah_set_current_ordinal(devs[made]->ordinal);
    err = ah_event_create(devs[made], hipEventDisableTiming, &e);
    if (err != hipSuccess)
      break;
    pre[made] = (hipEvent_t)e;
    err = ah_event_create(devs[made], hipEventDisableTiming, &e);
    if (err != hipSuccess) {
      ah_event_destroy(ah_event_lookup(pre[made]));
      break;
    }
    post[made] = (hipEvent_t)e;
  }
  /* A multi-grid cannot be captured: its barrier belongs to this launch. */
  for (int i = 0; err == hipSuccess && cooperative && i < n; i++)
    err = ah_capture_check_sync(((struct ah_stream *)list[i].stream)->queue);
  if (err == hipSuccess && cooperative) {
    dim3 grids[AH_LAUNCH_MULTI_MAX], blocks[AH_LAUNCH_MULTI_MAX];

    for (int i = 0; i < n; i++)
      grids[i] = list[i].gridDim, blocks[i] = list[i].blockDim;
    multi = multi_grid_new(n, grids, blocks, devs);
  }
  for (int i = 0; err == hipSuccess && i < n && !(flags & hipCooperativeLaunchMultiDeviceNoPreSync);
       i++)
    err = ah_event_record(ah_event_lookup(pre[i]), list[i].stream);
  for (int i = 0; err == hipSuccess && i < n; i++) {
    struct ah_device *dev = devs[i];
    struct ah_queue *q = ((struct ah_stream *)list[i].stream)->queue;

    ah_set_current_ordinal(dev->ordinal);
    for (int j = 0;
         err == hipSuccess && j < n && !(flags & hipCooperativeLaunchMultiDeviceNoPreSync); j++)
      if (j != i)
        err = ah_dev_queue_wait_event(dev, q, ah_event_lookup(pre[j])->impl);
    if (err == hipSuccess)
      err = ah_launch_grid_of(list[i].func, ah_kernel_sig(list[i].func), list[i].gridDim,
                              list[i].blockDim, list[i].sharedMem, list[i].stream, list[i].args,
                              cooperative, multi, (unsigned)i);
    if (err != hipSuccess)
      break;
    launched++;
    err = ah_event_record(ah_event_lookup(post[i]), list[i].stream);
  }
  /* Grids that were not launched never arrive: the launched ones fail at
   * their next multi-grid sync rather than wait for them. */
  for (int i = launched; multi != NULL && i < n; i++)
    ah_multi_grid_drop(multi, (unsigned)i, 1);
  for (int i = 0;
       err == hipSuccess && i < n && !(flags & hipCooperativeLaunchMultiDeviceNoPostSync); i++) {
    struct ah_queue *q = ((struct ah_stream *)list[i].stream)->queue;

    for (int j = 0; err == hipSuccess && j < n; j++)
      if (j != i)
        err = ah_dev_queue_wait_event(devs[i], q, ah_event_lookup(post[j])->impl);
  }
  for (int i = 0; i < made; i++) { /* the waits hold what they need */
    ah_event_destroy(ah_event_lookup(pre[i]));
    ah_event_destroy(ah_event_lookup(post[i]));
  }
  ah_set_current_ordinal(saved);
  return err;
}

/* One by one, each on its own stream with that stream's device current (the caller's is
 * restored), as one multi-grid where the devices run them so; the first failure ends the
 * list (the grids not launched then fail the others' multi-grid sync). Not under capture. */
hipError_t ah_launch_module_multi(const hipFunctionLaunchParams *list, unsigned n) {
  dim3 grids[AH_LAUNCH_MULTI_MAX] = {{0, 0, 0}}, blocks[AH_LAUNCH_MULTI_MAX] = {{0, 0, 0}};
  struct ah_device *devs[AH_LAUNCH_MULTI_MAX] = {NULL};
  struct ah_multi_grid *multi = NULL;
  hipError_t err = hipSuccess;
  unsigned launched = 0;

  if (n > AH_LAUNCH_MULTI_MAX)
    return hipErrorInvalidValue;
  for (unsigned i = 0; i < n; i++) {
    const hipFunctionLaunchParams *p = &list[i];
    struct ah_stream *s;

    (void)ah_stream_lookup(p->hStream, &s);
    devs[i] = s != NULL ? s->dev : NULL;
    grids[i] = (dim3){p->gridDimX, p->gridDimY, p->gridDimZ};
    blocks[i] = (dim3){p->blockDimX, p->blockDimY, p->blockDimZ};
    if (s != NULL && err == hipSuccess)
      err = ah_capture_check_sync(s->queue);
  }
  if (err != hipSuccess)
    return err;
  multi = multi_grid_new((int)n, grids, blocks, devs);
  for (; launched < n; launched++) {
    const hipFunctionLaunchParams *p = &list[launched];
    int saved = ah_current_ordinal();

    if (devs[launched] != NULL)
      ah_set_current_ordinal(devs[launched]->ordinal);
    err = ah_module_launch_grid_of(p->function, grids[launched], blocks[launched],
                                   p->sharedMemBytes, p->hStream, p->kernelParams, NULL, 1,
                                   multi, launched);
    ah_set_current_ordinal(saved);
    if (err != hipSuccess)
      break;
  }
  for (unsigned i = launched; multi != NULL && i < n; i++)
    ah_multi_grid_drop(multi, i, 1);
  return err;
}
