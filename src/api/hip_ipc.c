/* SPDX-License-Identifier: MIT */
/* Interprocess handles: device memory and events shared between processes
 * (hipIpcGetMemHandle, hipIpcOpenMemHandle, hipIpcCloseMemHandle,
 * hipIpcGetEventHandle, hipIpcOpenEventHandle), and the stream-ordered
 * pools' export functions. Memory goes through the backend (CPU: a memfd
 * the other process opens, cpu_mem.c; NVIDIA: cuIpc*). An event of a
 * backend without events of its own to share (the CPU's) is shared through
 * a page of shared memory that counts its records and their completions:
 * the other process's query, synchronize and stream wait read it
 * (docs/memory.md, "Interprocess memory and events"). */
#define _GNU_SOURCE
#include "../core/stream.h"
#include "../core/mempool.h"
#include "mem_internal.h"
#include "../os/process_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- memory ------------------------------------------------------------------ */

/* Handles opened in this process: opening one twice gives the same address
 * and needs two closes (CUDA's and HIP's reference counting). */
struct opened {
  hipIpcMemHandle_t handle;
  struct ah_device *dev;
  void *base;
  int refs;
  struct opened *next;
};
static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct opened *opened;

/* The handle names the whole allocation that devPtr lies in. The device is
 * synchronized first: the CPU device moves the block's bytes into shared
 * memory, which must not race with a kernel writing them. */
AH_EXPORT hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(handle != NULL && devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(devPtr, &a), hipErrorInvalidValue);
  AH_REQUIRE(a.kind == AH_MEM_DEVICE && a.origin == AH_ORIGIN_ALLOC && a.pool_block == NULL,
             hipErrorInvalidValue);
  AH_REQUIRE(a.dev->backend->ipc_mem_export != NULL, hipErrorNotSupported);
  AH_NOT_IN_HOST_FN();
  if (a.dev->backend->device_sync != NULL)
    (void)a.dev->backend->device_sync(a.dev);
  memset(handle, 0, sizeof(*handle));
  AH_RETURN(a.dev->backend->ipc_mem_export(a.dev, (void *)a.base, a.bytes, handle->reserved));
}

/* Opened on the current device; flags 0 or hipIpcMemLazyEnablePeerAccess
 * (peers always reach each other here). The address is the allocation's
 * start. */
AH_EXPORT hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t handle,
                                         unsigned int flags) {
  struct ah_alloc a = {0};
  struct ah_device *dev;
  struct opened *o;
  size_t bytes;
  void *base;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~(unsigned)hipIpcMemLazyEnablePeerAccess) == 0, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(dev->backend->ipc_mem_open != NULL, hipErrorNotSupported);
  pthread_mutex_lock(&ipc_lock);
  for (o = opened; o != NULL; o = o->next)
    if (o->dev == dev && memcmp(&o->handle, &handle, sizeof(handle)) == 0) {
      o->refs++;
      *devPtr = o->base;
      pthread_mutex_unlock(&ipc_lock);
      return hipSuccess;
    }
  o = calloc(1, sizeof(*o));
  err = o == NULL ? hipErrorOutOfMemory
                  : dev->backend->ipc_mem_open(dev, handle.reserved, &base, &bytes);
  if (err == hipSuccess) {
    a.base = (uintptr_t)base;
    a.bytes = bytes;
    a.dev = dev;
    a.kind = AH_MEM_DEVICE;
    a.device_ptr = base;
    a.origin = AH_ORIGIN_IPC;
    err = ah_alloc_insert(&a);
    if (err != hipSuccess)
      dev->backend->ipc_mem_close(dev, base);
  }
  if (err != hipSuccess) {
    pthread_mutex_unlock(&ipc_lock);
    free(o);
    return ah_fail(err, __func__, "open");
  }
  o->handle = handle;
  o->dev = dev;
  o->base = base;
  o->refs = 1;
  o->next = opened;
  opened = o;
  pthread_mutex_unlock(&ipc_lock);
  *devPtr = base;
  return hipSuccess;
}

/* Only an address hipIpcOpenMemHandle gave (the exporting process's own
 * allocation is hipErrorInvalidValue, as on AMD). The last close waits for
 * the device, then unmaps. */
AH_EXPORT hipError_t hipIpcCloseMemHandle(void *devPtr) {
  struct opened **pp, *o = NULL;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL, hipErrorInvalidValue);
  pthread_mutex_lock(&ipc_lock);
  for (pp = &opened; *pp != NULL; pp = &(*pp)->next)
    if ((*pp)->base == devPtr) {
      o = *pp;
      if (--o->refs == 0)
        *pp = o->next;
      break;
    }
  pthread_mutex_unlock(&ipc_lock);
  AH_REQUIRE(o != NULL, hipErrorInvalidValue);
  if (o->refs > 0)
    return hipSuccess;
  if (o->dev->backend->device_sync != NULL)
    (void)o->dev->backend->device_sync(o->dev);
  (void)ah_alloc_remove(o->base, AH_MEM_DEVICE, NULL);
  o->dev->backend->ipc_mem_close(o->dev, o->base);
  free(o);
  return hipSuccess;
}

/* ---- events ---------------------------------------------------------------- */

/* The shared page of an interprocess event: how many records were made (in
 * any process) and the highest record number that has completed. */
struct shm_event {
  uint32_t magic;
  uint32_t pad;
  uint64_t recorded;  /* atomic */
  uint64_t completed; /* atomic, raised to a record's number when it completes */
};
#define SHM_EVENT_MAGIC 0x45504941u /* "AIPE" */

struct ah_ipc_event {
  atomic_int refs; /* the event's, plus one per queued completion */
  struct shm_event *shm;
  int fd;          /* the memfd (exporter) or -1 */
  int imported;
};

/* hipIpcEventHandle_t of a shared-page event. */
struct event_handle {
  uint32_t magic;
  int32_t pid;
  int32_t fd;
  uint32_t pad;
  uint64_t ino, devno;
};

static void ipc_event_put(struct ah_ipc_event *ie) {
  if (atomic_fetch_sub(&ie->refs, 1) != 1)
    return;
  munmap(ie->shm, sizeof(*ie->shm));
  if (ie->fd >= 0)
    close(ie->fd);
  free(ie);
}

void ah_ipc_event_release(struct ah_event *e) {
  if (e->ipc != NULL)
    ipc_event_put(e->ipc);
  e->ipc = NULL;
}

struct completion {
  struct ah_ipc_event *ie;
  uint64_t seq;
};

static void complete(void *p) {
  struct completion *c = p;
  uint64_t now = __atomic_load_n(&c->ie->shm->completed, __ATOMIC_ACQUIRE);

  while (now < c->seq && !__atomic_compare_exchange_n(&c->ie->shm->completed, &now, c->seq, 1,
                                                      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
    ;
  ipc_event_put(c->ie);
  free(c);
}

/* After a record of e on (dev, q): a new record number, completed when the
 * stream gets past this point. */
hipError_t ah_ipc_event_recorded(struct ah_event *e, struct ah_device *dev, void *q) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct completion *c = malloc(sizeof(*c));
  hipError_t err;

  if (c == NULL)
    return hipErrorOutOfMemory;
  c->ie = e->ipc;
  c->seq = __atomic_add_fetch(&e->ipc->shm->recorded, 1, __ATOMIC_ACQ_REL);
  atomic_fetch_add(&c->ie->refs, 1);
  cmd.host_fn.fn = complete;
  cmd.host_fn.data = c;
  err = dev->backend->submit(dev, q, &cmd, 0);
  if (err != hipSuccess) {
    ipc_event_put(c->ie);
    free(c);
  }
  return err;
}

/* Whether every record made so far (in any process) has completed. */
int ah_ipc_event_done(const struct ah_event *e) {
  return __atomic_load_n(&e->ipc->shm->completed, __ATOMIC_ACQUIRE) >=
         __atomic_load_n(&e->ipc->shm->recorded, __ATOMIC_ACQUIRE);
}

struct ipc_wait {
  struct ah_ipc_event *ie;
  uint64_t target;
};

static void wait_target(struct ah_ipc_event *ie, uint64_t target) {
  long pause_ns = 1000;

  while (__atomic_load_n(&ie->shm->completed, __ATOMIC_ACQUIRE) < target) {
    struct timespec ts = {0, pause_ns};

    nanosleep(&ts, NULL);
    if (pause_ns < 100000)
      pause_ns *= 2;
  }
}

static void run_wait(void *p) {
  struct ipc_wait *w = p;

  wait_target(w->ie, w->target);
  ipc_event_put(w->ie);
  free(w);
}

/* hipEventSynchronize: until the records made so far have completed. */
void ah_ipc_event_sync(struct ah_event *e) {
  wait_target(e->ipc, __atomic_load_n(&e->ipc->shm->recorded, __ATOMIC_ACQUIRE));
}

/* hipStreamWaitEvent: (dev, q) goes on once the records made so far have
 * completed, wherever they were made. */
hipError_t ah_ipc_event_wait(struct ah_event *e, struct ah_device *dev, void *q) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  struct ipc_wait *w = malloc(sizeof(*w));
  hipError_t err;

  if (w == NULL)
    return hipErrorOutOfMemory;
  w->ie = e->ipc;
  w->target = __atomic_load_n(&e->ipc->shm->recorded, __ATOMIC_ACQUIRE);
  atomic_fetch_add(&w->ie->refs, 1);
  cmd.host_fn.fn = run_wait;
  cmd.host_fn.data = w;
  err = ah_submit(dev, q, &cmd, 0);
  if (err != hipSuccess) {
    ipc_event_put(w->ie);
    free(w);
  }
  return err;
}

static hipError_t shared_page(int fd, struct ah_ipc_event **out, int imported) {
  struct ah_ipc_event *ie = calloc(1, sizeof(*ie));
  void *p;

  if (ie == NULL)
    return hipErrorOutOfMemory;
  p = mmap(NULL, sizeof(struct shm_event), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    free(ie);
    return hipErrorOutOfMemory;
  }
  atomic_init(&ie->refs, 1);
  ie->shm = p;
  ie->fd = imported ? -1 : fd;
  ie->imported = imported;
  *out = ie;
  return hipSuccess;
}

/* Only an event made with hipEventInterprocess (hipErrorInvalidResourceHandle
 * otherwise, as CUDA). Records made before the first handle are not shared:
 * the other process sees them as complete. */
AH_EXPORT hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t event) {
  struct event_handle h = {.magic = SHM_EVENT_MAGIC};
  struct ah_event *e;
  struct stat st;
  hipError_t err = hipSuccess;

  AH_ENTER();
  AH_REQUIRE(handle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(event != NULL, hipErrorInvalidResourceHandle);
  e = ah_event_lookup(event);
  AH_REQUIRE(e != NULL, hipErrorInvalidResourceHandle);
  AH_REQUIRE(e->flags & hipEventInterprocess, hipErrorInvalidResourceHandle);
  memset(handle, 0, sizeof(*handle));
  if (e->dev->backend->ipc_event_export != NULL)
    AH_RETURN(e->dev->backend->ipc_event_export(e->dev, e->impl, handle->reserved));
  pthread_mutex_lock(&ipc_lock);
  if (e->ipc == NULL) {
    int fd = memfd_create("anyhip-ipc-event", MFD_CLOEXEC);

    if (fd < 0 || ftruncate(fd, sizeof(struct shm_event)) != 0)
      err = hipErrorOutOfMemory;
    else
      err = shared_page(fd, &e->ipc, 0);
    if (err != hipSuccess && fd >= 0)
      close(fd);
    if (err == hipSuccess)
      e->ipc->shm->magic = SHM_EVENT_MAGIC;
  }
  if (err == hipSuccess && fstat(e->ipc->fd, &st) != 0)
    err = hipErrorOutOfMemory;
  if (err == hipSuccess) {
    h.pid = (int32_t)getpid();
    h.fd = e->ipc->fd;
    h.ino = (uint64_t)st.st_ino;
    h.devno = (uint64_t)st.st_dev;
    memcpy(handle->reserved, &h, sizeof(h));
  }
  pthread_mutex_unlock(&ipc_lock);
  AH_RETURN(err);
}

/* The opened event is of the current device, with the flags
 * hipEventDisableTiming | hipEventInterprocess; the exporting process may
 * be gone by the time it is used (its page lives on). */
AH_EXPORT hipError_t hipIpcOpenEventHandle(hipEvent_t *event, hipIpcEventHandle_t handle) {
  struct event_handle h;
  struct ah_device *dev;
  struct ah_event *e;
  hipError_t err;
  void *impl = NULL;
  int fd;

  AH_ENTER();
  AH_REQUIRE(event != NULL, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  if (dev->backend->ipc_event_open != NULL) {
    AH_REQUIRE_OK(dev->backend->ipc_event_open(dev, handle.reserved, &impl));
    AH_RETURN(ah_event_adopt(dev, hipEventDisableTiming | hipEventInterprocess, impl, event));
  }
  memcpy(&h, handle.reserved, sizeof(h));
  AH_REQUIRE(h.magic == SHM_EVENT_MAGIC, hipErrorInvalidValue);
  AH_REQUIRE(h.pid != (int32_t)getpid(), hipErrorInvalidContext);
  fd = ah_os_process_fd((int)h.pid, (int)h.fd, h.ino, h.devno, 0);
  AH_REQUIRE(fd >= 0, hipErrorInvalidValue);
  err = ah_event_create(dev, hipEventDisableTiming | hipEventInterprocess, &e);
  if (err == hipSuccess) {
    err = shared_page(fd, &e->ipc, 1);
    if (err != hipSuccess)
      ah_event_destroy(e);
  }
  close(fd);
  AH_REQUIRE_OK(err);
  *event = (hipEvent_t)e;
  return hipSuccess;
}

/* ---- stream-ordered pools ---------------------------------------------------- */

/* Pools made with hipMemHandleTypePosixFileDescriptor could be shared the
 * way hipIpcGetMemHandle shares an allocation; that is not built yet: the
 * arguments are checked, then hipErrorNotSupported (docs/memory.md). */
AH_EXPORT hipError_t hipMemPoolExportToShareableHandle(void *shared_handle, hipMemPool_t mem_pool,
                                                       hipMemAllocationHandleType handle_type,
                                                       unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(shared_handle != NULL && mem_pool != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(handle_type == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  AH_REQUIRE(ah_mempool_lookup(mem_pool) != NULL, hipErrorInvalidValue);
  return ah_fail(hipErrorNotSupported, __func__, "pool export");
}

AH_EXPORT hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t *mem_pool,
                                                         void *shared_handle,
                                                         hipMemAllocationHandleType handle_type,
                                                         unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(mem_pool != NULL && shared_handle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(handle_type == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  return ah_fail(hipErrorNotSupported, __func__, "pool import");
}

AH_EXPORT hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData *export_data, void *dev_ptr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(export_data != NULL && dev_ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_alloc_find(dev_ptr, &a) && a.pool_block != NULL, hipErrorInvalidValue);
  return ah_fail(hipErrorNotSupported, __func__, "pool export");
}

AH_EXPORT hipError_t hipMemPoolImportPointer(void **dev_ptr, hipMemPool_t mem_pool,
                                             hipMemPoolPtrExportData *export_data) {
  AH_ENTER();
  AH_REQUIRE(dev_ptr != NULL && mem_pool != NULL && export_data != NULL, hipErrorInvalidValue);
  return ah_fail(hipErrorNotSupported, __func__, "pool import");
}
