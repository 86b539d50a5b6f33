/* SPDX-License-Identifier: MIT */
/* Virtual memory management: physical allocations (hipMemCreate) mapped
 * into reserved address ranges (hipMemAddressReserve, hipMemMap) with an
 * access per device (hipMemSetAccess). On a device whose memory is host
 * memory (the CPU's) these are real mappings: an allocation is a memfd, a
 * reservation a PROT_NONE range, a map an mmap(MAP_SHARED | MAP_FIXED) of
 * the memfd into it, so two addresses of one allocation see the same bytes
 * and kernels use mapped addresses as any device memory; access is
 * mprotect. An allocation made with hipMemHandleTypePosixFileDescriptor
 * exports as a duplicate of its memfd, which another process imports.
 * Other devices: hipErrorNotSupported (docs/memory.md, "Virtual memory"). */
#define _GNU_SOURCE
#include "device_ops.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define AH_VMM_DEVICES 64 /* access is kept for this many devices */

/* A physical allocation (the handle). It lives while the user holds it
 * (hipMemCreate, hipMemRetainAllocationHandle, each released once) or a
 * mapping uses it; the handle stops being valid when the user's count
 * reaches zero, as CUDA's does at release. */
struct vmm_alloc {
  struct ah_object obj;
  struct ah_device *dev;
  size_t size;
  int fd; /* the memfd */
  hipMemAllocationProp prop;
  int user_refs, map_refs; /* vmm_lock */
};

struct vmap {
  uintptr_t ptr;
  size_t size, offset;
  struct vmm_alloc *a;
  unsigned char access[AH_VMM_DEVICES]; /* hipMemAccessFlags per device ordinal */
  struct vmap *next;
};

struct resv {
  uintptr_t base;
  size_t size;
  struct vmap *maps;
  struct resv *next;
};

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct resv *resvs;

static size_t granule(void) {
  long p = sysconf(_SC_PAGESIZE);

  return p > 0 ? (size_t)p : 4096;
}

/* The device a property names: a device location with a valid ordinal. */
static hipError_t prop_device(const hipMemAllocationProp *prop, struct ah_device **dev) {
  if (prop->type != hipMemAllocationTypePinned || prop->location.type != hipMemLocationTypeDevice)
    return hipErrorInvalidValue;
  *dev = ah_device_get(prop->location.id);
  return *dev != NULL ? hipSuccess : hipErrorInvalidValue;
}

/* vmm_lock held. Frees a whose last user and mapping reference went. */
static void alloc_drop(struct vmm_alloc *a) {
  if (a->user_refs > 0 || a->map_refs > 0)
    return;
  close(a->fd);
  if (a->dev->props.totalGlobalMem != 0)
    atomic_fetch_sub(&a->dev->mem_used, a->size);
  free(a);
}

static struct vmm_alloc *alloc_of(hipMemGenericAllocationHandle_t h) {
  return h != NULL ? ah_object_cast(h, AH_KIND_VMM_ALLOC) : NULL;
}

/* The reservation holding [p, p + size), vmm_lock held. */
static struct resv *resv_of(uintptr_t p, size_t size) {
  for (struct resv *r = resvs; r != NULL; r = r->next)
    if (p >= r->base && p - r->base < r->size && size <= r->size - (p - r->base))
      return r;
  return NULL;
}

/* The mapping holding p, vmm_lock held. */
static struct vmap *map_of(uintptr_t p, struct resv **out) {
  for (struct resv *r = resvs; r != NULL; r = r->next)
    for (struct vmap *m = r->maps; m != NULL; m = m->next)
      if (p >= m->ptr && p - m->ptr < m->size) {
        if (out != NULL)
          *out = r;
        return m;
      }
  return NULL;
}

/* ---- granularity, allocations ------------------------------------------------ */

AH_EXPORT hipError_t hipMemGetAllocationGranularity(size_t *granularity,
                                                    const hipMemAllocationProp *prop,
                                                    hipMemAllocationGranularity_flags option) {
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(granularity != NULL && prop != NULL, hipErrorInvalidValue);
  AH_REQUIRE(option == hipMemAllocationGranularityMinimum ||
                 option == hipMemAllocationGranularityRecommended,
             hipErrorInvalidValue);
  AH_REQUIRE_OK(prop_device(prop, &dev));
  AH_REQUIRE(dev->backend->host_addressable, hipErrorNotSupported);
  *granularity = granule(); /* the page: what mmap maps */
  return hipSuccess;
}

AH_EXPORT hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size,
                                  const hipMemAllocationProp *prop, unsigned long long flags) {
  struct ah_device *dev;
  struct vmm_alloc *a;
  size_t total, used;

  AH_ENTER();
  AH_REQUIRE(handle != NULL && prop != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(size != 0 && size % granule() == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(prop_device(prop, &dev));
  /* requestedHandleType is not checked here (AMD does not either; hip-tests
   * leaves it uninitialized): only hipMemHandleTypePosixFileDescriptor
   * makes the allocation exportable. */
  AH_REQUIRE(dev->backend->host_addressable, hipErrorNotSupported);
  /* Counted against the device's size, as hipMalloc. */
  total = dev->props.totalGlobalMem;
  used = atomic_load(&dev->mem_used);
  if (total != 0) {
    do {
      AH_REQUIRE(size <= total - used, hipErrorOutOfMemory);
    } while (!atomic_compare_exchange_weak(&dev->mem_used, &used, used + size));
  }
  a = calloc(1, sizeof(*a));
  if (a != NULL) {
    a->fd = memfd_create("anyhip-vmm", MFD_CLOEXEC);
    if (a->fd < 0 || ftruncate(a->fd, (off_t)size) != 0 ||
        ah_object_init(&a->obj, AH_KIND_VMM_ALLOC) != hipSuccess) {
      if (a->fd >= 0)
        close(a->fd);
      free(a);
      a = NULL;
    }
  }
  if (a == NULL) {
    if (total != 0)
      atomic_fetch_sub(&dev->mem_used, size);
    return ah_fail(hipErrorOutOfMemory, __func__, "memfd");
  }
  a->dev = dev;
  a->size = size;
  a->prop = *prop;
  a->user_refs = 1;
  *handle = (hipMemGenericAllocationHandle_t)a;
  return hipSuccess;
}

/* The allocation goes once no mapping uses it any more. */
AH_EXPORT hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle) {
  struct vmm_alloc *a;

  AH_ENTER();
  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(handle);
  if (a == NULL) {
    pthread_mutex_unlock(&vmm_lock);
    return ah_fail(hipErrorInvalidValue, __func__, "handle");
  }
  if (--a->user_refs == 0)
    ah_object_fini(&a->obj);
  alloc_drop(a);
  pthread_mutex_unlock(&vmm_lock);
  return hipSuccess;
}

AH_EXPORT hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp *prop,
                                                             hipMemGenericAllocationHandle_t handle) {
  struct vmm_alloc *a;

  AH_ENTER();
  AH_REQUIRE(prop != NULL, hipErrorInvalidValue);
  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(handle);
  if (a != NULL)
    *prop = a->prop;
  pthread_mutex_unlock(&vmm_lock);
  AH_REQUIRE(a != NULL, hipErrorInvalidValue);
  return hipSuccess;
}

/* The handle of the allocation mapped at addr, one more reference to
 * release. */
AH_EXPORT hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *handle,
                                                  void *addr) {
  struct vmap *m;

  AH_ENTER();
  AH_REQUIRE(handle != NULL && addr != NULL, hipErrorInvalidValue);
  pthread_mutex_lock(&vmm_lock);
  m = map_of((uintptr_t)addr, NULL);
  if (m != NULL) {
    if (m->a->user_refs++ == 0) /* released but still mapped: valid again */
      (void)ah_object_init(&m->a->obj, AH_KIND_VMM_ALLOC);
    *handle = (hipMemGenericAllocationHandle_t)m->a;
  }
  pthread_mutex_unlock(&vmm_lock);
  AH_REQUIRE(m != NULL, hipErrorInvalidValue);
  return hipSuccess;
}

/* hipMemHandleTypePosixFileDescriptor: *(int *)shareableHandle receives a
 * new file descriptor of the allocation (the caller closes it, and passes it
 * to another process over a Unix socket or by pidfd_getfd). */
AH_EXPORT hipError_t hipMemExportToShareableHandle(void *shareableHandle,
                                                   hipMemGenericAllocationHandle_t handle,
                                                   hipMemAllocationHandleType handleType,
                                                   unsigned long long flags) {
  struct vmm_alloc *a;
  int fd = -1;

  AH_ENTER();
  AH_REQUIRE(shareableHandle != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(handleType == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(handle);
  if (a != NULL && a->prop.requestedHandleType == hipMemHandleTypePosixFileDescriptor)
    fd = fcntl(a->fd, F_DUPFD_CLOEXEC, 0);
  pthread_mutex_unlock(&vmm_lock);
  AH_REQUIRE(a != NULL, hipErrorInvalidValue);
  AH_REQUIRE(fd >= 0, hipErrorInvalidValue); /* not made shareable, or out of descriptors */
  *(int *)shareableHandle = fd;
  return hipSuccess;
}

/* osHandle names a file descriptor in either convention: AMD's runtime
 * (and hip-tests) passes a pointer to it, CUDA code (hipified) the
 * descriptor itself cast to a pointer. Nothing is mapped below 64 KiB
 * (mmap_min_addr), so a smaller value is a descriptor, a larger one a
 * pointer to one. The descriptor stays the caller's. The allocation is of
 * the current device. */
AH_EXPORT hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle,
                                                     void *osHandle,
                                                     hipMemAllocationHandleType shHandleType) {
  struct ah_device *dev;
  struct vmm_alloc *a;
  struct stat st;
  int fd;

  AH_ENTER();
  AH_REQUIRE(handle != NULL && osHandle != NULL, hipErrorInvalidValue);
  fd = (uintptr_t)osHandle < 65536 ? (int)(uintptr_t)osHandle : *(const int *)osHandle;
  AH_REQUIRE(shHandleType == hipMemHandleTypePosixFileDescriptor, hipErrorInvalidValue);
  AH_REQUIRE(fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0, hipErrorInvalidValue);
  AH_REQUIRE((size_t)st.st_size % granule() == 0, hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(dev->backend->host_addressable, hipErrorNotSupported);
  a = calloc(1, sizeof(*a));
  AH_REQUIRE(a != NULL, hipErrorOutOfMemory);
  a->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (a->fd < 0 || ah_object_init(&a->obj, AH_KIND_VMM_ALLOC) != hipSuccess) {
    if (a->fd >= 0)
      close(a->fd);
    free(a);
    return ah_fail(hipErrorOutOfMemory, __func__, "import");
  }
  a->dev = dev;
  a->size = (size_t)st.st_size;
  a->prop.type = hipMemAllocationTypePinned;
  a->prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  a->prop.location.type = hipMemLocationTypeDevice;
  a->prop.location.id = dev->ordinal;
  a->user_refs = 1;
  if (dev->props.totalGlobalMem != 0) /* alloc_drop gives it back */
    atomic_fetch_add(&dev->mem_used, a->size);
  *handle = (hipMemGenericAllocationHandle_t)a;
  return hipSuccess;
}

/* ---- address ranges and mappings -------------------------------------------- */

/* AMD's codes: a size of 0 or not a multiple of the granularity, or an
 * alignment that is not a power of two, is hipErrorMemoryAllocation. addr
 * is a hint. */
AH_EXPORT hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr,
                                          unsigned long long flags) {
  size_t g = granule(), align, len;
  struct resv *r;
  char *p, *q;

  AH_ENTER();
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(size != 0 && size % g == 0, hipErrorMemoryAllocation);
  AH_REQUIRE((alignment & (alignment - 1)) == 0, hipErrorMemoryAllocation);
  align = alignment > g ? alignment : g;
  AH_REQUIRE(size <= SIZE_MAX - align, hipErrorMemoryAllocation);
  len = size + align - g;
  p = mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  AH_REQUIRE(p != MAP_FAILED, hipErrorMemoryAllocation);
  q = (char *)(((uintptr_t)p + align - 1) / align * align);
  if (q > p) /* trim the alignment slack on both sides */
    munmap(p, (size_t)(q - p));
  if (p + len > q + size)
    munmap(q + size, (size_t)(p + len - (q + size)));
  r = calloc(1, sizeof(*r));
  if (r == NULL) {
    munmap(q, size);
    return ah_fail(hipErrorOutOfMemory, __func__, "reservation");
  }
  r->base = (uintptr_t)q;
  r->size = size;
  pthread_mutex_lock(&vmm_lock);
  r->next = resvs;
  resvs = r;
  pthread_mutex_unlock(&vmm_lock);
  *ptr = q;
  return hipSuccess;
}

/* vmm_lock held: ends mapping m of r (its range becomes PROT_NONE reserved
 * space again). */
static void unmap_one(struct resv *r, struct vmap *m) {
  struct vmap **pp;

  for (pp = &r->maps; *pp != m; pp = &(*pp)->next)
    ;
  *pp = m->next;
  (void)ah_alloc_remove((void *)m->ptr, AH_MEM_DEVICE, NULL);
  (void)mmap((void *)m->ptr, m->size, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  m->a->map_refs--;
  alloc_drop(m->a);
  free(m);
}

/* The whole reservation; mappings still in it are unmapped first. */
AH_EXPORT hipError_t hipMemAddressFree(void *devPtr, size_t size) {
  struct resv **pp, *r = NULL;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL && size != 0, hipErrorInvalidValue);
  pthread_mutex_lock(&vmm_lock);
  for (pp = &resvs; *pp != NULL; pp = &(*pp)->next)
    if ((*pp)->base == (uintptr_t)devPtr && (*pp)->size == size) {
      r = *pp;
      *pp = r->next;
      break;
    }
  if (r != NULL) {
    while (r->maps != NULL)
      unmap_one(r, r->maps);
    munmap((void *)r->base, r->size);
    free(r);
  }
  pthread_mutex_unlock(&vmm_lock);
  AH_REQUIRE(r != NULL, hipErrorInvalidValue);
  return hipSuccess;
}

/* Maps size bytes of the allocation from offset at ptr, a free part of a
 * reservation. The range has no access until hipMemSetAccess (CUDA's rule):
 * copies to it are refused and kernels fault. */
AH_EXPORT hipError_t hipMemMap(void *ptr, size_t size, size_t offset,
                               hipMemGenericAllocationHandle_t handle, unsigned long long flags) {
  size_t g = granule();
  struct ah_alloc rec = {0};
  struct vmm_alloc *a;
  struct resv *r;
  struct vmap *m;
  uintptr_t p = (uintptr_t)ptr;
  hipError_t err = hipSuccess;

  AH_ENTER();
  AH_REQUIRE(ptr != NULL && size != 0, hipErrorInvalidValue);
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_REQUIRE(p % g == 0 && size % g == 0 && offset % g == 0, hipErrorInvalidValue);
  m = calloc(1, sizeof(*m));
  AH_REQUIRE(m != NULL, hipErrorOutOfMemory);
  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(handle);
  r = resv_of(p, size);
  if (a == NULL || r == NULL || offset > a->size || size > a->size - offset)
    err = hipErrorInvalidValue;
  for (struct vmap *o = r != NULL ? r->maps : NULL; err == hipSuccess && o != NULL; o = o->next)
    if (p < o->ptr + o->size && o->ptr < p + size)
      err = hipErrorInvalidValue; /* overlaps a mapping */
  if (err == hipSuccess &&
      mmap(ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, a->fd, (off_t)offset) == MAP_FAILED)
    err = hipErrorOutOfMemory;
  if (err == hipSuccess) {
    rec.base = p;
    rec.bytes = size;
    rec.dev = a->dev;
    rec.kind = AH_MEM_DEVICE;
    rec.flags = hipMemAccessFlagsProtNone;
    rec.device_ptr = ptr;
    rec.origin = AH_ORIGIN_VMM;
    err = ah_alloc_insert(&rec);
    if (err != hipSuccess)
      (void)mmap(ptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
                 -1, 0);
  }
  if (err == hipSuccess) {
    m->ptr = p;
    m->size = size;
    m->offset = offset;
    m->a = a;
    a->map_refs++;
    m->next = r->maps;
    r->maps = m;
    m = NULL;
  }
  pthread_mutex_unlock(&vmm_lock);
  free(m);
  AH_RETURN(err);
}

/* Every mapping in [ptr, ptr + size), which must be mapped from end to end
 * by whole mappings, vmm_lock held; n gets how many. */
static hipError_t covered(uintptr_t p, size_t size, struct resv **rr, size_t *n) {
  struct resv *r = resv_of(p, size);
  size_t bytes = 0;

  *n = 0;
  if (r == NULL)
    return hipErrorInvalidValue;
  for (struct vmap *m = r->maps; m != NULL; m = m->next) {
    if (m->ptr >= p && m->ptr - p < size) {
      if (m->size > size - (m->ptr - p))
        return hipErrorInvalidValue; /* runs past the end */
      bytes += m->size;
      (*n)++;
    } else if (p > m->ptr && p - m->ptr < m->size) {
      return hipErrorInvalidValue; /* starts inside a mapping */
    }
  }
  *rr = r;
  return bytes == size ? hipSuccess : hipErrorInvalidValue;
}

/* The device synchronized first: no kernel still uses the range. */
AH_EXPORT hipError_t hipMemUnmap(void *ptr, size_t size) {
  struct resv *r;
  size_t n;
  uintptr_t p = (uintptr_t)ptr;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(ptr != NULL && size != 0, hipErrorInvalidValue);
  AH_NOT_IN_HOST_FN();
  pthread_mutex_lock(&vmm_lock);
  err = covered(p, size, &r, &n);
  if (err == hipSuccess)
    for (struct vmap *m = r->maps; m != NULL; m = m->next)
      if (m->ptr >= p && m->ptr - p < size)
        (void)ah_dev_sync(m->a->dev);
  for (struct vmap *m = err == hipSuccess ? r->maps : NULL, *next; m != NULL; m = next) {
    next = m->next;
    if (m->ptr >= p && m->ptr - p < size)
      unmap_one(r, m);
  }
  pthread_mutex_unlock(&vmm_lock);
  AH_RETURN(err);
}

static int valid_access(hipMemAccessFlags f) {
  return f == hipMemAccessFlagsProtNone || f == hipMemAccessFlagsProtRead ||
         f == hipMemAccessFlagsProtReadWrite;
}

/* Access per device. Devices of one process share its address space, so
 * the pages get the widest access any device has (the copy and set
 * functions hold each device to its own); what each device was given is
 * what hipMemGetAccess reports. */
AH_EXPORT hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc,
                                     size_t count) {
  struct resv *r;
  size_t n;
  uintptr_t p = (uintptr_t)ptr;
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(ptr != NULL && size != 0 && desc != NULL && count != 0, hipErrorInvalidValue);
  for (size_t i = 0; i < count; i++) {
    AH_REQUIRE(desc[i].location.type == hipMemLocationTypeDevice &&
                   ah_device_get(desc[i].location.id) != NULL &&
                   desc[i].location.id < AH_VMM_DEVICES,
               hipErrorInvalidValue);
    AH_REQUIRE(valid_access(desc[i].flags), hipErrorInvalidValue);
  }
  pthread_mutex_lock(&vmm_lock);
  err = covered(p, size, &r, &n);
  for (struct vmap *m = err == hipSuccess ? r->maps : NULL; m != NULL; m = m->next) {
    struct ah_alloc rec;
    int widest = 0, prot;

    if (!(m->ptr >= p && m->ptr - p < size))
      continue;
    for (size_t i = 0; i < count; i++)
      m->access[desc[i].location.id] = (unsigned char)desc[i].flags;
    for (int d = 0; d < AH_VMM_DEVICES; d++)
      widest |= m->access[d];
    prot = widest == hipMemAccessFlagsProtReadWrite ? PROT_READ | PROT_WRITE
           : widest == hipMemAccessFlagsProtRead    ? PROT_READ
                                                    : PROT_NONE;
    if (mprotect((void *)m->ptr, m->size, prot) != 0) {
      err = hipErrorInvalidValue;
      break;
    }
    /* The allocation map's record carries the access the copies check. */
    if (ah_alloc_remove((void *)m->ptr, AH_MEM_DEVICE, &rec)) {
      rec.flags = (unsigned)widest;
      (void)ah_alloc_insert(&rec);
    }
  }
  pthread_mutex_unlock(&vmm_lock);
  AH_RETURN(err);
}

AH_EXPORT hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *location,
                                     void *ptr) {
  struct vmap *m;

  AH_ENTER();
  AH_REQUIRE(flags != NULL && location != NULL && ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(location->type == hipMemLocationTypeDevice && ah_device_get(location->id) != NULL &&
                 location->id < AH_VMM_DEVICES,
             hipErrorInvalidValue);
  pthread_mutex_lock(&vmm_lock);
  m = map_of((uintptr_t)ptr, NULL);
  if (m != NULL)
    *flags = m->access[location->id];
  pthread_mutex_unlock(&vmm_lock);
  AH_REQUIRE(m != NULL, hipErrorInvalidValue);
  return hipSuccess;
}
