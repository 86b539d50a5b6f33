/* SPDX-License-Identifier: MIT */
/* External memory and semaphores (external.h). A device whose backend has
 * the ext_* ops imports them itself (NVIDIA: cuImportExternalMemory...).
 * On a device whose memory is host memory (the CPU's) the core does it:
 *  - memory of type hipExternalMemoryHandleTypeOpaqueFd is a file descriptor
 *    to mmap (a memfd, a hipMemExportToShareableHandle export, a shared
 *    file): each mapped buffer is a shared mapping of its range, so a kernel
 *    that writes the buffer writes the file;
 *  - a semaphore of type hipExternalSemaphoreHandleTypeOpaqueFd is an
 *    eventfd: a signal adds 1 to its counter, a wait holds the stream until
 *    the counter is not 0 and takes it (a binary semaphore);
 * and every other type is hipErrorNotSupported (docs/memory.md). A buffer is
 * in the allocation map as device memory of origin AH_ORIGIN_EXTERNAL, which
 * hipFree unmaps. */
#define _GNU_SOURCE
#include "external.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct ah_extmem {
  struct ah_object obj;
  struct ah_device *dev;
  int native;  /* the backend's (h), else the core's (fd) */
  uint64_t h;
  int fd;
  uint64_t size;
};

struct ah_extsem {
  struct ah_object obj;
  struct ah_device *dev;
  int native;
  uint64_t h;
  int fd; /* the core's: an eventfd */
};

/* A mapped buffer, until hipFree. */
struct buffer {
  void *ptr;
  struct ah_device *dev;
  int native;
  void *map; /* the core's: the mapping (page-aligned) and its length */
  size_t len;
  struct buffer *next;
};
static pthread_mutex_t buffers_lock = PTHREAD_MUTEX_INITIALIZER;
static struct buffer *buffers;

static int native(const struct ah_device *dev) {
  return dev->backend->ext_mem_import != NULL;
}

struct ah_extmem *ah_extmem_lookup(hipExternalMemory_t h) {
  return ah_object_cast(h, AH_KIND_EXTMEM);
}

struct ah_extsem *ah_extsem_lookup(hipExternalSemaphore_t h) {
  return ah_object_cast(h, AH_KIND_EXTSEM);
}

/* ---- memory --------------------------------------------------------------- */

hipError_t ah_extmem_import(struct ah_device *dev, const hipExternalMemoryHandleDesc *d,
                            struct ah_extmem **out) {
  struct ah_extmem *m;
  struct stat st;
  hipError_t err;

  if (!native(dev) && !dev->backend->host_addressable)
    return hipErrorNotSupported;
  if (!native(dev)) {
    if (d->type != hipExternalMemoryHandleTypeOpaqueFd)
      return hipErrorNotSupported;
    /* A descriptor that is open and, for a file, holds the whole size. */
    if (d->handle.fd < 0 || fstat(d->handle.fd, &st) != 0)
      return hipErrorInvalidValue;
    if (S_ISREG(st.st_mode) && d->size > (uint64_t)st.st_size)
      return hipErrorInvalidValue;
    if (!S_ISREG(st.st_mode))
      return hipErrorInvalidValue; /* a pipe, a socket, a device: not memory to share */
  }
  m = calloc(1, sizeof(*m));
  if (m == NULL)
    return hipErrorOutOfMemory;
  m->dev = dev;
  m->native = native(dev);
  m->fd = -1;
  m->size = d->size;
  if (m->native) {
    err = dev->backend->ext_mem_import(dev, d, &m->h);
    if (err != hipSuccess) {
      free(m);
      return err;
    }
  } else {
    m->fd = d->handle.fd;
  }
  err = ah_object_init(&m->obj, AH_KIND_EXTMEM);
  if (err != hipSuccess) {
    if (m->native)
      (void)dev->backend->ext_mem_destroy(dev, m->h);
    free(m); /* the descriptor stays the caller's: the import failed */
    return err;
  }
  *out = m;
  return hipSuccess;
}

hipError_t ah_extmem_map(struct ah_extmem *m, uint64_t offset, uint64_t bytes, void **out) {
  struct ah_alloc a = {0};
  struct buffer *b;
  long page = sysconf(_SC_PAGESIZE);
  hipError_t err;

  if (offset > m->size || bytes > m->size - offset || bytes > SIZE_MAX / 2)
    return hipErrorInvalidValue;
  b = calloc(1, sizeof(*b));
  if (b == NULL)
    return hipErrorOutOfMemory;
  b->dev = m->dev;
  b->native = m->native;
  if (m->native) {
    err = m->dev->backend->ext_mem_map(m->dev, m->h, offset, bytes, &b->ptr);
    if (err != hipSuccess) {
      free(b);
      return err;
    }
  } else {
    uint64_t start = offset / (uint64_t)page * (uint64_t)page;

    b->len = (size_t)(offset - start + bytes);
    b->map = mmap(NULL, b->len, PROT_READ | PROT_WRITE, MAP_SHARED, m->fd, (off_t)start);
    if (b->map == MAP_FAILED) {
      int e = errno;

      free(b);
      return e == ENOMEM ? hipErrorOutOfMemory : hipErrorInvalidValue;
    }
    b->ptr = (char *)b->map + (offset - start);
  }
  a.base = (uintptr_t)b->ptr;
  a.bytes = (size_t)bytes;
  a.dev = m->dev;
  a.kind = AH_MEM_DEVICE;
  a.device_ptr = b->ptr;
  a.origin = AH_ORIGIN_EXTERNAL;
  err = ah_alloc_insert(&a);
  if (err != hipSuccess) {
    if (b->native)
      (void)b->dev->backend->ext_mem_unmap(b->dev, b->ptr);
    else
      munmap(b->map, b->len);
    free(b);
    return err;
  }
  pthread_mutex_lock(&buffers_lock);
  b->next = buffers;
  buffers = b;
  pthread_mutex_unlock(&buffers_lock);
  *out = b->ptr;
  return hipSuccess;
}

hipError_t ah_extmem_buffer_free(void *ptr) {
  struct buffer **pb, *b = NULL;

  pthread_mutex_lock(&buffers_lock);
  for (pb = &buffers; *pb != NULL; pb = &(*pb)->next)
    if ((*pb)->ptr == ptr) {
      b = *pb;
      *pb = b->next;
      break;
    }
  pthread_mutex_unlock(&buffers_lock);
  if (b == NULL || !ah_alloc_remove(ptr, AH_MEM_DEVICE, NULL)) {
    free(b);
    return hipErrorInvalidValue; /* another thread freed it meanwhile */
  }
  if (b->native)
    (void)b->dev->backend->ext_mem_unmap(b->dev, b->ptr);
  else
    munmap(b->map, b->len);
  free(b);
  return hipSuccess;
}

hipError_t ah_extmem_destroy(struct ah_extmem *m) {
  hipError_t err = hipSuccess;

  ah_object_fini(&m->obj);
  if (m->native)
    err = m->dev->backend->ext_mem_destroy(m->dev, m->h);
  else
    close(m->fd);
  free(m);
  return err;
}

/* ---- semaphores ------------------------------------------------------------- */

/* Whether fd is an eventfd (its /proc link names it). */
static int is_eventfd(int fd) {
  char path[64], target[64];
  ssize_t n;

  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  n = readlink(path, target, sizeof(target) - 1);
  if (n <= 0)
    return 0;
  target[n] = '\0';
  return strcmp(target, "anon_inode:[eventfd]") == 0;
}

hipError_t ah_extsem_import(struct ah_device *dev, const hipExternalSemaphoreHandleDesc *d,
                            struct ah_extsem **out) {
  struct ah_extsem *s;
  hipError_t err;

  if (!native(dev) && !dev->backend->host_addressable)
    return hipErrorNotSupported;
  if (!native(dev)) {
    if (d->type != hipExternalSemaphoreHandleTypeOpaqueFd)
      return hipErrorNotSupported;
    if (d->handle.fd < 0 || !is_eventfd(d->handle.fd))
      return hipErrorInvalidValue;
  }
  s = calloc(1, sizeof(*s));
  if (s == NULL)
    return hipErrorOutOfMemory;
  s->dev = dev;
  s->native = native(dev);
  s->fd = -1;
  if (s->native) {
    err = dev->backend->ext_sem_import(dev, d, &s->h);
    if (err != hipSuccess) {
      free(s);
      return err;
    }
  } else {
    s->fd = d->handle.fd;
  }
  err = ah_object_init(&s->obj, AH_KIND_EXTSEM);
  if (err != hipSuccess) {
    if (s->native)
      (void)dev->backend->ext_sem_destroy(dev, s->h);
    free(s);
    return err;
  }
  *out = s;
  return hipSuccess;
}

int ah_extsem_usable(const struct ah_extsem *s, const struct ah_device *dev) {
  return s->native ? s->dev == dev : dev->backend->host_addressable;
}

/* The core's signal and wait run on the stream as host functions, each with
 * a descriptor of its own (the semaphore may be destroyed meanwhile). */
static void run_signal(void *p) {
  int fd = (int)(intptr_t)p;
  uint64_t one = 1;

  while (write(fd, &one, sizeof(one)) < 0 && errno == EINTR)
    ;
  close(fd);
}

static void run_wait(void *p) {
  int fd = (int)(intptr_t)p;
  struct pollfd pfd = {.fd = fd, .events = POLLIN};
  uint64_t v;

  for (;;) {
    if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
      break;
    if (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
      break; /* the counter taken */
    if (errno != EAGAIN && errno != EINTR)
      break; /* not an eventfd any more: nothing to wait for */
  }
  close(fd);
}

static hipError_t queue_host(struct ah_extsem *s, struct ah_device *dev, struct ah_queue *q,
                             void (*fn)(void *)) {
  struct ah_cmd cmd = {.kind = AH_CMD_HOST_FN};
  int fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
  hipError_t err;

  if (fd < 0)
    return hipErrorOutOfMemory;
  cmd.host_fn.fn = fn;
  cmd.host_fn.data = (void *)(intptr_t)fd;
  err = dev->backend->submit(dev, q, &cmd, 0);
  if (err != hipSuccess)
    close(fd);
  return err;
}

hipError_t ah_extsem_signal(struct ah_extsem *s, struct ah_device *dev, struct ah_queue *q,
                            const hipExternalSemaphoreSignalParams *p) {
  if (s->native)
    return dev->backend->ext_sem_signal(dev, q, s->h, p);
  return queue_host(s, dev, q, run_signal);
}

hipError_t ah_extsem_wait(struct ah_extsem *s, struct ah_device *dev, struct ah_queue *q,
                          const hipExternalSemaphoreWaitParams *p) {
  if (s->native)
    return dev->backend->ext_sem_wait(dev, q, s->h, p);
  return queue_host(s, dev, q, run_wait);
}

hipError_t ah_extsem_destroy(struct ah_extsem *s) {
  hipError_t err = hipSuccess;

  ah_object_fini(&s->obj);
  if (s->native)
    err = s->dev->backend->ext_sem_destroy(s->dev, s->h);
  else
    close(s->fd);
  free(s);
  return err;
}
