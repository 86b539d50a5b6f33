/* SPDX-License-Identifier: MIT */
/* Interprocess memory (memory.h): the export of a device allocation through the backend
 * (CPU: a memfd the other process opens, cpu_mem.c; NVIDIA: cuIpc*), and the table of
 * handles opened in this process: opening one twice gives the same address and needs two
 * closes (CUDA's and HIP's reference counting). hip_ipc.c checks the arguments. */
#include "device_ops.h"
#include "memory.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct opened {
  hipIpcMemHandle_t handle;
  struct ah_device *dev;
  void *base;
  int refs;
  struct opened *next;
};
static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;
static struct opened *opened;

/* The device is synchronized first: the CPU device moves the block's bytes into shared
 * memory, which must not race with a kernel writing them. */
hipError_t ah_ipc_mem_export(const struct ah_alloc *a, hipIpcMemHandle_t *handle) {
  (void)ah_dev_sync(a->dev);
  memset(handle, 0, sizeof(*handle));
  return ah_dev_ipc_mem_export(a->dev, (void *)a->base, a->bytes, handle->reserved);
}

hipError_t ah_ipc_mem_open(struct ah_device *dev, const hipIpcMemHandle_t *handle, void **out) {
  struct ah_alloc a;
  struct opened *o;
  size_t bytes;
  void *base;
  hipError_t err;

  pthread_mutex_lock(&opened_lock);
  for (o = opened; o != NULL; o = o->next)
    if (o->dev == dev && memcmp(&o->handle, handle, sizeof(*handle)) == 0) {
      o->refs++;
      *out = o->base;
      pthread_mutex_unlock(&opened_lock);
      return hipSuccess;
    }
  o = calloc(1, sizeof(*o));
  err = o == NULL ? hipErrorOutOfMemory : ah_dev_ipc_mem_open(dev, handle->reserved, &base, &bytes);
  if (err == hipSuccess) {
    a = (struct ah_alloc){.base = (uintptr_t)base, .bytes = bytes, .dev = dev,
                          .kind = AH_MEM_DEVICE, .device_ptr = base, .origin = AH_ORIGIN_IPC};
    err = ah_alloc_insert(&a);
    if (err != hipSuccess)
      ah_dev_ipc_mem_close(dev, base);
  }
  if (err != hipSuccess) {
    pthread_mutex_unlock(&opened_lock);
    free(o);
    return err;
  }
  o->handle = *handle;
  o->dev = dev;
  o->base = base;
  o->refs = 1;
  o->next = opened;
  opened = o;
  pthread_mutex_unlock(&opened_lock);
  *out = base;
  return hipSuccess;
}

/* The last close waits for the device, then unmaps. */
hipError_t ah_ipc_mem_close(void *ptr) {
  struct opened **pp, *o = NULL;
  int last = 0;

  pthread_mutex_lock(&opened_lock);
  for (pp = &opened; *pp != NULL; pp = &(*pp)->next)
    if ((*pp)->base == ptr) {
      o = *pp;
      last = --o->refs == 0;
      if (last)
        *pp = o->next;
      break;
    }
  pthread_mutex_unlock(&opened_lock);
  if (o == NULL)
    return hipErrorInvalidValue;
  if (!last) /* o is another close's to free: read nothing of it past the lock */
    return hipSuccess;
  (void)ah_dev_sync(o->dev);
  (void)ah_alloc_remove(o->base, AH_MEM_DEVICE, NULL);
  ah_dev_ipc_mem_close(o->dev, o->base);
  free(o);
  return hipSuccess;
}
