/* SPDX-License-Identifier: MIT */
/* Virtual memory of the CPU device (the vmm_* ops of backend.h), whose memory
 * is host memory: a physical allocation is a memfd, a reservation a PROT_NONE
 * range, a map an mmap(MAP_SHARED | MAP_FIXED) of the memfd into it, so two
 * addresses of one allocation see the same bytes and kernels use mapped
 * addresses as any device memory; access is mprotect, and an export is a
 * duplicate of the memfd. The virtual CPU devices share the process's address
 * space, so a range gets the widest access any of them has (the core holds
 * each device to its own in copies). The core keeps the bookkeeping
 * (src/core/vmm.c). */
#define _GNU_SOURCE
#include "cpu_internal.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define RESERVED (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

/* The page: what mmap maps. */
static size_t page(void) {
  long p = sysconf(_SC_PAGESIZE);

  return p > 0 ? (size_t)p : 4096;
}

hipError_t ah_cpu_vmm_granularity(struct ah_device *dev, int recommended, size_t *out) {
  (void)dev;
  (void)recommended;
  *out = page();
  return hipSuccess;
}

hipError_t ah_cpu_vmm_create(struct ah_device *dev, size_t bytes, int shareable, uint64_t *phys) {
  int fd = memfd_create("anyhip-vmm", MFD_CLOEXEC);

  (void)dev;
  (void)shareable; /* any memfd can be exported */
  if (fd < 0)
    return hipErrorOutOfMemory;
  if (ftruncate(fd, (off_t)bytes) != 0) {
    close(fd);
    return hipErrorOutOfMemory;
  }
  *phys = (uint64_t)fd;
  return hipSuccess;
}

hipError_t ah_cpu_vmm_release(struct ah_device *dev, uint64_t phys) {
  (void)dev;
  close((int)phys);
  return hipSuccess;
}

hipError_t ah_cpu_vmm_export(struct ah_device *dev, uint64_t phys, int *fd) {
  (void)dev;
  *fd = fcntl((int)phys, F_DUPFD_CLOEXEC, 0);
  return *fd >= 0 ? hipSuccess : hipErrorInvalidValue; /* out of descriptors */
}

/* The descriptor must be a file of whole pages (a memfd another process
 * exported, typically). */
hipError_t ah_cpu_vmm_import(struct ah_device *dev, int fd, uint64_t *phys, size_t *bytes) {
  struct stat st;
  int own;

  (void)dev;
  if (fstat(fd, &st) != 0 || st.st_size <= 0 || (size_t)st.st_size % page() != 0)
    return hipErrorInvalidValue;
  own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0)
    return hipErrorOutOfMemory;
  *phys = (uint64_t)own;
  *bytes = (size_t)st.st_size;
  return hipSuccess;
}

/* Over-reserves by the alignment and trims the slack on both sides. */
hipError_t ah_cpu_vmm_reserve(struct ah_device *dev, size_t bytes, size_t alignment, void *hint,
                              void **out) {
  size_t g = page(), len = bytes + alignment - g;
  char *p, *q;

  (void)dev;
  p = mmap(hint, len, PROT_NONE, RESERVED, -1, 0);
  if (p == MAP_FAILED)
    return hipErrorOutOfMemory;
  q = (char *)(((uintptr_t)p + alignment - 1) / alignment * alignment);
  if (q > p)
    munmap(p, (size_t)(q - p));
  if (p + len > q + bytes)
    munmap(q + bytes, (size_t)(p + len - (q + bytes)));
  *out = q;
  return hipSuccess;
}

hipError_t ah_cpu_vmm_address_free(struct ah_device *dev, void *base, size_t bytes) {
  (void)dev;
  return munmap(base, bytes) == 0 ? hipSuccess : hipErrorInvalidValue;
}

hipError_t ah_cpu_vmm_map(struct ah_device *dev, void *ptr, size_t bytes, uint64_t phys,
                          size_t offset) {
  (void)dev;
  if (mmap(ptr, bytes, PROT_NONE, MAP_SHARED | MAP_FIXED, (int)phys, (off_t)offset) == MAP_FAILED)
    return hipErrorOutOfMemory;
  return hipSuccess;
}

/* The range becomes PROT_NONE reserved space again. */
hipError_t ah_cpu_vmm_unmap(struct ah_device *dev, void *ptr, size_t bytes) {
  (void)dev;
  if (mmap(ptr, bytes, PROT_NONE, RESERVED | MAP_FIXED, -1, 0) == MAP_FAILED)
    return hipErrorOutOfMemory;
  return hipSuccess;
}

hipError_t ah_cpu_vmm_set_access(struct ah_device *dev, void *ptr, size_t bytes,
                                 const struct ah_vmm_access *acc, size_t n) {
  unsigned widest = 0;
  int prot;

  (void)dev;
  for (size_t i = 0; i < n; i++)
    widest |= acc[i].flags;
  prot = widest == hipMemAccessFlagsProtReadWrite ? PROT_READ | PROT_WRITE
         : widest == hipMemAccessFlagsProtRead    ? PROT_READ
                                                  : PROT_NONE;
  return mprotect(ptr, bytes, prot) == 0 ? hipSuccess : hipErrorInvalidValue;
}
