/* SPDX-License-Identifier: MIT */
/* Virtual memory management: physical allocations (hipMemCreate) mapped
 * into reserved address ranges (hipMemAddressReserve, hipMemMap) with an
 * access per device (hipMemSetAccess). The core keeps the objects and their
 * rules: handles and their reference counts, reservations and the mappings
 * in them, the access each device was given, and the allocation map's record
 * of every mapped range, so copies, sets, kernels and hipPointerGetAttributes
 * know mapped memory as device memory of the allocation's device (and copies
 * honour its access). The backend's vmm_* ops make, map and protect the
 * physical memory: memfd and mmap on the CPU device, cuMem* on NVIDIA
 * (backend.h; docs/ext.md, "Virtual memory"). */
#include "vmm.h"

#include "device_ops.h"

#include <stdlib.h>
#include <string.h>

/* A physical allocation (the handle). It lives while the user holds it
 * (hipMemCreate, hipMemImportFromShareableHandle, hipMemRetainAllocationHandle,
 * each released once) or a mapping uses it; the handle stops being valid
 * when the user's count reaches zero, as CUDA's does at release. */
struct vmm_alloc {
  struct ah_object obj;
  struct ah_device *dev;
  size_t size;    /* 0: not known (an import the backend cannot measure) */
  size_t counted; /* bytes counted in dev->mem_used */
  uint64_t phys;  /* the backend's allocation */
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
  struct ah_device *dev; /* whose backend reserved it */
  struct vmap *maps;
  struct resv *next;
};

/* Guards everything here; the vmm_* ops run under it (backend.h). */
static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct resv *resvs;

static hipError_t granule(struct ah_device *dev, size_t *g) {
  return ah_dev_vmm_granularity(dev, 0, g);
}

/* Counts bytes against dev's size, as hipMalloc does. */
static hipError_t count_bytes(struct ah_device *dev, size_t bytes) {
  size_t total = dev->props.totalGlobalMem, used = atomic_load(&dev->mem_used);

  if (total == 0)
    return hipSuccess;
  do {
    if (bytes > total - used)
      return hipErrorOutOfMemory;
  } while (!atomic_compare_exchange_weak(&dev->mem_used, &used, used + bytes));
  return hipSuccess;
}

static void uncount_bytes(struct ah_device *dev, size_t bytes) {
  if (dev->props.totalGlobalMem != 0 && bytes != 0)
    atomic_fetch_sub(&dev->mem_used, bytes);
}

/* vmm_lock held. Frees a whose last user and mapping reference went. */
static void alloc_drop(struct vmm_alloc *a) {
  if (a->user_refs > 0 || a->map_refs > 0)
    return;
  (void)ah_dev_vmm_release(a->dev, a->phys);
  uncount_bytes(a->dev, a->counted);
  free(a);
}

static struct vmm_alloc *alloc_of(hipMemGenericAllocationHandle_t h) {
  return h != NULL ? ah_object_cast(h, AH_KIND_VMM_ALLOC) : NULL;
}

/* A new handle for phys (vmm_lock not needed: nobody sees it yet). */
static hipError_t alloc_new(struct ah_device *dev, uint64_t phys, size_t size, size_t counted,
                            const hipMemAllocationProp *prop,
                            hipMemGenericAllocationHandle_t *out) {
  struct vmm_alloc *a = calloc(1, sizeof(*a));

  if (a == NULL || ah_object_init(&a->obj, AH_KIND_VMM_ALLOC) != hipSuccess) {
    free(a);
    return hipErrorOutOfMemory;
  }
  a->dev = dev;
  a->size = size;
  a->counted = counted;
  a->phys = phys;
  a->prop = *prop;
  a->user_refs = 1;
  *out = (hipMemGenericAllocationHandle_t)a;
  return hipSuccess;
}

/* The reservation holding [p, p + size), vmm_lock held. */
static struct resv *resv_of(uintptr_t p, size_t size) {
  for (struct resv *r = resvs; r != NULL; r = r->next)
    if (p >= r->base && p - r->base < r->size && size <= r->size - (p - r->base))
      return r;
  return NULL;
}

/* The mapping holding p, vmm_lock held. */
static struct vmap *map_of(uintptr_t p) {
  for (struct resv *r = resvs; r != NULL; r = r->next)
    for (struct vmap *m = r->maps; m != NULL; m = m->next)
      if (p >= m->ptr && p - m->ptr < m->size)
        return m;
  return NULL;
}

/* ---- granularity, allocations ------------------------------------------------ */

hipError_t ah_vmm_granularity(const hipMemAllocationProp *prop, int recommended, size_t *out) {
  struct ah_device *dev = ah_device_get(prop->location.id);

  if (dev == NULL)
    return hipErrorInvalidValue;
  return ah_dev_vmm_granularity(dev, recommended, out);
}

hipError_t ah_vmm_create(const hipMemAllocationProp *prop, size_t size,
                         hipMemGenericAllocationHandle_t *out) {
  struct ah_device *dev = ah_device_get(prop->location.id);
  uint64_t phys;
  size_t g;
  hipError_t err;

  if (dev == NULL)
    return hipErrorInvalidValue;
  if ((err = granule(dev, &g)) != hipSuccess)
    return err;
  if (size % g != 0)
    return hipErrorInvalidValue;
  if ((err = count_bytes(dev, size)) != hipSuccess)
    return err;
  /* requestedHandleType is not checked (AMD does not either; hip-tests
   * leaves it uninitialized): only hipMemHandleTypePosixFileDescriptor makes
   * the allocation exportable. */
  pthread_mutex_lock(&vmm_lock);
  err = ah_dev_vmm_create(dev, size,
                          prop->requestedHandleType == hipMemHandleTypePosixFileDescriptor, &phys);
  pthread_mutex_unlock(&vmm_lock);
  if (err == hipSuccess) {
    err = alloc_new(dev, phys, size, size, prop, out);
    if (err != hipSuccess) {
      pthread_mutex_lock(&vmm_lock);
      (void)ah_dev_vmm_release(dev, phys);
      pthread_mutex_unlock(&vmm_lock);
    }
  }
  if (err != hipSuccess)
    uncount_bytes(dev, size);
  return err;
}

hipError_t ah_vmm_release(hipMemGenericAllocationHandle_t h) {
  struct vmm_alloc *a;

  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(h);
  if (a != NULL) {
    if (--a->user_refs == 0)
      ah_object_fini(&a->obj);
    alloc_drop(a);
  }
  pthread_mutex_unlock(&vmm_lock);
  return a != NULL ? hipSuccess : hipErrorInvalidValue;
}

hipError_t ah_vmm_properties(hipMemGenericAllocationHandle_t h, hipMemAllocationProp *prop) {
  struct vmm_alloc *a;

  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(h);
  if (a != NULL)
    *prop = a->prop;
  pthread_mutex_unlock(&vmm_lock);
  return a != NULL ? hipSuccess : hipErrorInvalidValue;
}

hipError_t ah_vmm_retain(void *addr, hipMemGenericAllocationHandle_t *out) {
  struct vmap *m;

  pthread_mutex_lock(&vmm_lock);
  m = map_of((uintptr_t)addr);
  if (m != NULL) {
    if (m->a->user_refs++ == 0) /* released but still mapped: valid again */
      (void)ah_object_init(&m->a->obj, AH_KIND_VMM_ALLOC);
    *out = (hipMemGenericAllocationHandle_t)m->a;
  }
  pthread_mutex_unlock(&vmm_lock);
  return m != NULL ? hipSuccess : hipErrorInvalidValue;
}

hipError_t ah_vmm_export(hipMemGenericAllocationHandle_t h, int *fd) {
  struct vmm_alloc *a;
  hipError_t err = hipErrorInvalidValue;

  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(h);
  /* Only an allocation made shareable exports. */
  if (a != NULL && a->prop.requestedHandleType == hipMemHandleTypePosixFileDescriptor)
    err = ah_dev_vmm_export(a->dev, a->phys, fd);
  pthread_mutex_unlock(&vmm_lock);
  return err;
}

hipError_t ah_vmm_import(int fd, hipMemGenericAllocationHandle_t *out) {
  struct ah_device *dev = ah_current_device();
  hipMemAllocationProp prop;
  uint64_t phys;
  size_t bytes = 0, g;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if ((err = granule(dev, &g)) != hipSuccess)
    return err;
  pthread_mutex_lock(&vmm_lock);
  err = ah_dev_vmm_import(dev, fd, &phys, &bytes);
  pthread_mutex_unlock(&vmm_lock);
  if (err != hipSuccess)
    return err;
  memset(&prop, 0, sizeof(prop));
  prop.type = hipMemAllocationTypePinned;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = dev->ordinal;
  if (bytes % g != 0)
    err = hipErrorInvalidValue;
  else
    err = count_bytes(dev, bytes);
  if (err == hipSuccess) {
    err = alloc_new(dev, phys, bytes, bytes, &prop, out);
    if (err != hipSuccess)
      uncount_bytes(dev, bytes);
  }
  if (err != hipSuccess) {
    pthread_mutex_lock(&vmm_lock);
    (void)ah_dev_vmm_release(dev, phys);
    pthread_mutex_unlock(&vmm_lock);
  }
  return err;
}

/* ---- address ranges and mappings -------------------------------------------- */

/* AMD's codes: a size of 0 or not a multiple of the granularity, or an
 * alignment that is not a power of two, is hipErrorMemoryAllocation. */
hipError_t ah_vmm_reserve(size_t size, size_t alignment, void *addr, void **out) {
  struct ah_device *dev = ah_current_device();
  struct resv *r;
  size_t g, align;
  void *p;
  hipError_t err;

  if (dev == NULL)
    return hipErrorNoDevice;
  if ((err = granule(dev, &g)) != hipSuccess)
    return err;
  if (size == 0 || size % g != 0 || (alignment & (alignment - 1)) != 0)
    return hipErrorMemoryAllocation;
  align = alignment > g ? alignment : g;
  if (size > SIZE_MAX - align)
    return hipErrorMemoryAllocation;
  r = calloc(1, sizeof(*r));
  if (r == NULL)
    return hipErrorOutOfMemory;
  pthread_mutex_lock(&vmm_lock);
  err = ah_dev_vmm_reserve(dev, size, align, addr, &p);
  if (err == hipSuccess) {
    r->base = (uintptr_t)p;
    r->size = size;
    r->dev = dev;
    r->next = resvs;
    resvs = r;
    r = NULL;
    *out = p;
  }
  pthread_mutex_unlock(&vmm_lock);
  free(r);
  return err == hipErrorOutOfMemory ? hipErrorMemoryAllocation : err;
}

/* vmm_lock held: ends mapping m of r (its range becomes reserved space again). */
static void unmap_one(struct resv *r, struct vmap *m) {
  struct vmap **pp;

  for (pp = &r->maps; *pp != m; pp = &(*pp)->next)
    ;
  *pp = m->next;
  (void)ah_alloc_remove((void *)m->ptr, AH_MEM_DEVICE, NULL);
  (void)ah_dev_vmm_unmap(m->a->dev, (void *)m->ptr, m->size);
  m->a->map_refs--;
  alloc_drop(m->a);
  free(m);
}

hipError_t ah_vmm_address_free(void *ptr, size_t size) {
  struct resv **pp, *r = NULL;
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&vmm_lock);
  for (pp = &resvs; *pp != NULL; pp = &(*pp)->next)
    if ((*pp)->base == (uintptr_t)ptr && (*pp)->size == size) {
      r = *pp;
      *pp = r->next;
      break;
    }
  if (r != NULL) {
    if (r->maps != NULL)
      (void)ah_dev_sync(r->dev); /* no kernel still uses what is unmapped */
    while (r->maps != NULL)
      unmap_one(r, r->maps);
    err = ah_dev_vmm_address_free(r->dev, (void *)r->base, r->size);
    free(r);
  }
  pthread_mutex_unlock(&vmm_lock);
  return r != NULL ? err : hipErrorInvalidValue;
}

/* Maps size bytes of the allocation from offset at ptr, a free part of a
 * reservation of the allocation's backend. The range has no access until
 * hipMemSetAccess (CUDA's rule): copies to it are refused and kernels fault. */
hipError_t ah_vmm_map(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t h) {
  struct ah_alloc rec = {0};
  struct vmm_alloc *a;
  struct resv *r;
  struct vmap *m = calloc(1, sizeof(*m));
  uintptr_t p = (uintptr_t)ptr;
  size_t g = 0;
  hipError_t err = hipSuccess;

  if (m == NULL)
    return hipErrorOutOfMemory;
  pthread_mutex_lock(&vmm_lock);
  a = alloc_of(h);
  r = resv_of(p, size);
  if (a == NULL || r == NULL || r->dev->backend != a->dev->backend)
    err = hipErrorInvalidValue;
  else if ((err = granule(a->dev, &g)) == hipSuccess &&
           (p % g != 0 || size % g != 0 || offset % g != 0 ||
            (a->size != 0 && (offset > a->size || size > a->size - offset))))
    err = hipErrorInvalidValue;
  for (struct vmap *o = r != NULL ? r->maps : NULL; err == hipSuccess && o != NULL; o = o->next)
    if (p < o->ptr + o->size && o->ptr < p + size)
      err = hipErrorInvalidValue; /* overlaps a mapping */
  if (err == hipSuccess)
    err = ah_dev_vmm_map(a->dev, ptr, size, a->phys, offset);
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
      (void)ah_dev_vmm_unmap(a->dev, ptr, size);
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
  return err;
}

/* Every mapping in [ptr, ptr + size), which must be mapped from end to end
 * by whole mappings, vmm_lock held. */
static hipError_t covered(uintptr_t p, size_t size, struct resv **rr) {
  struct resv *r = resv_of(p, size);
  size_t bytes = 0;

  if (r == NULL)
    return hipErrorInvalidValue;
  for (struct vmap *m = r->maps; m != NULL; m = m->next) {
    if (m->ptr >= p && m->ptr - p < size) {
      if (m->size > size - (m->ptr - p))
        return hipErrorInvalidValue; /* runs past the end */
      bytes += m->size;
    } else if (p > m->ptr && p - m->ptr < m->size) {
      return hipErrorInvalidValue; /* starts inside a mapping */
    }
  }
  *rr = r;
  return bytes == size ? hipSuccess : hipErrorInvalidValue;
}

static int inside(const struct vmap *m, uintptr_t p, size_t size) {
  return m->ptr >= p && m->ptr - p < size;
}

hipError_t ah_vmm_unmap(void *ptr, size_t size) {
  struct resv *r;
  uintptr_t p = (uintptr_t)ptr;
  hipError_t err;

  pthread_mutex_lock(&vmm_lock);
  err = covered(p, size, &r);
  if (err == hipSuccess)
    for (struct vmap *m = r->maps; m != NULL; m = m->next)
      if (inside(m, p, size))
        (void)ah_dev_sync(m->a->dev); /* no kernel still uses the range */
  for (struct vmap *m = err == hipSuccess ? r->maps : NULL, *next; m != NULL; m = next) {
    next = m->next;
    if (inside(m, p, size))
      unmap_one(r, m);
  }
  pthread_mutex_unlock(&vmm_lock);
  return err;
}

/* Gives mapping m the access desc[0..count) names, vmm_lock held: the
 * backend hears every device of its own with access (and those named). */
static hipError_t set_access_one(struct vmap *m, const hipMemAccessDesc *desc, size_t count) {
  struct ah_vmm_access acc[AH_VMM_DEVICES];
  unsigned char old[AH_VMM_DEVICES], named[AH_VMM_DEVICES] = {0};
  struct ah_alloc rec;
  size_t n = 0;
  int widest = 0, ndev = ah_device_count();
  hipError_t err;

  for (size_t i = 0; i < count; i++)
    if (ah_device_get(desc[i].location.id)->backend != m->a->dev->backend)
      return hipErrorInvalidValue; /* another kind of device cannot reach this memory */
  memcpy(old, m->access, sizeof(old));
  for (size_t i = 0; i < count; i++) {
    m->access[desc[i].location.id] = (unsigned char)desc[i].flags;
    named[desc[i].location.id] = 1;
  }
  for (int d = 0; d < ndev && d < AH_VMM_DEVICES; d++) {
    struct ah_device *dev = ah_device_get(d);

    if (dev->backend != m->a->dev->backend || (m->access[d] == 0 && !named[d]))
      continue;
    acc[n].dev = dev;
    acc[n++].flags = m->access[d];
    widest |= m->access[d];
  }
  err = ah_dev_vmm_set_access(m->a->dev, (void *)m->ptr, m->size, acc, n);
  if (err != hipSuccess) {
    memcpy(m->access, old, sizeof(old));
    return err;
  }
  /* The allocation map's record carries the access the copies check: the
   * widest any device has (devices of one process share its addresses). */
  if (ah_alloc_remove((void *)m->ptr, AH_MEM_DEVICE, &rec)) {
    rec.flags = (unsigned)widest;
    (void)ah_alloc_insert(&rec);
  }
  return hipSuccess;
}

hipError_t ah_vmm_set_access(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count) {
  struct resv *r;
  uintptr_t p = (uintptr_t)ptr;
  hipError_t err;

  pthread_mutex_lock(&vmm_lock);
  err = covered(p, size, &r);
  for (struct vmap *m = err == hipSuccess ? r->maps : NULL; m != NULL && err == hipSuccess;
       m = m->next)
    if (inside(m, p, size))
      err = set_access_one(m, desc, count);
  pthread_mutex_unlock(&vmm_lock);
  return err;
}

hipError_t ah_vmm_get_access(const hipMemLocation *loc, void *ptr, unsigned long long *flags) {
  struct vmap *m;

  pthread_mutex_lock(&vmm_lock);
  m = map_of((uintptr_t)ptr);
  if (m != NULL)
    *flags = m->access[loc->id];
  pthread_mutex_unlock(&vmm_lock);
  return m != NULL ? hipSuccess : hipErrorInvalidValue;
}
