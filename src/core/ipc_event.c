/* SPDX-License-Identifier: MIT */
/* Interprocess events: a backend's own (NVIDIA's), or, for a backend without
 * events of its own to share (the CPU's), a page of shared memory (a memfd)
 * that counts the records made in any process and the highest record number
 * that has completed; query, synchronize and stream waits in either process
 * read it. hip_ipc.c checks the arguments of hipIpcGetEventHandle /
 * hipIpcOpenEventHandle and calls ah_ipc_event_export here and
 * ah_ipc_event_import (event.c, which makes the event and attaches its page
 * here); events and streams call the rest (stream.h). Nothing here makes or
 * destroys an event object (stream.c's). */
#define _GNU_SOURCE
#include "device_ops.h"
#include "stream.h"
#include "../os/process_fd.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
hipError_t ah_ipc_event_recorded(struct ah_event *e, struct ah_device *dev, struct ah_queue *q) {
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
hipError_t ah_ipc_event_wait(struct ah_event *e, struct ah_device *dev, struct ah_queue *q) {
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

/* Guards the first export's making of an event's shared page. */
static pthread_mutex_t export_lock = PTHREAD_MUTEX_INITIALIZER;

static hipError_t page_export(struct ah_event *e, void *handle, size_t size) {
  struct event_handle h = {.magic = SHM_EVENT_MAGIC};
  struct stat st;
  hipError_t err = hipSuccess;

  if (size < sizeof(h))
    return hipErrorInvalidValue;
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
    memcpy(handle, &h, sizeof(h));
  }
  return err;
}

hipError_t ah_ipc_event_export(struct ah_event *e, void *handle, size_t size) {
  hipError_t err;

  memset(handle, 0, size);
  if (ah_dev_ipc_events_native(e->dev))
    return ah_dev_ipc_event_export(e, handle);
  pthread_mutex_lock(&export_lock);
  err = page_export(e, handle, size);
  pthread_mutex_unlock(&export_lock);
  return err;
}

hipError_t ah_ipc_event_attach(struct ah_event *e, const void *handle) {
  struct event_handle h;
  hipError_t err;
  int fd;

  memcpy(&h, handle, sizeof(h));
  if (h.magic != SHM_EVENT_MAGIC)
    return hipErrorInvalidValue;
  if (h.pid == (int32_t)getpid())
    return hipErrorInvalidContext;
  fd = ah_os_process_fd((int)h.pid, (int)h.fd, h.ino, h.devno, 0);
  if (fd < 0)
    return hipErrorInvalidValue;
  err = shared_page(fd, &e->ipc, 1);
  close(fd);
  return err;
}
