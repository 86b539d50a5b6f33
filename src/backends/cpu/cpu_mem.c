/* SPDX-License-Identifier: MIT */
/* Memory of the CPU device. Device, pinned host and managed memory are all
 * ordinary host memory, zero-filled when new: many HIP programs (unknowingly)
 * rely on fresh GPU memory reading as zero. Every block is an anonymous mapping of
 * its own, page-granular as a GPU allocator's, followed by a PROT_NONE guard
 * page: device memory never shares the C heap with the runtime's own data,
 * so a kernel that writes past its buffer either lands in the block's page
 * padding (harmless) or faults at the guard, where the engine reports the
 * kernel, block and thread (cpu_fault.c). A block ends as close to its guard
 * as the 256-byte alignment allows. Under valgrind, or in an AddressSanitizer
 * build, blocks come from the heap instead, because both put redzones around
 * heap blocks only (docs/debugging.md). A freed device block is kept for
 * a later allocation of its size (the reuse cache below), cleared when it is
 * handed out again. Host registration checks that the range is mapped and
 * hands back the same address; device variables are found in the ELF symbol
 * tables. */
#define _GNU_SOURCE
#include "cpu_internal.h"
#include "../../os/process_fd.h"
#include "../../os/symbols.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Under valgrind, in an AddressSanitizer build, or in a program built with
 * -fsanitize=address (its runtime is in the process even when libanyhip was
 * built without it), every block comes from the heap: they put redzones
 * around heap blocks only. */
__attribute__((unused)) static int asan_in_process(void) {
  static int known = -1; /* atomic: threads allocate concurrently */
  int k = __atomic_load_n(&known, __ATOMIC_RELAXED);

  if (k < 0) {
    k = dlsym(RTLD_DEFAULT, "__asan_init") != NULL;
    __atomic_store_n(&known, k, __ATOMIC_RELAXED);
  }
  return k;
}
#if defined(__SANITIZE_ADDRESS__)
#define HEAP_ONLY() 1
#elif defined(AH_HAVE_VALGRIND)
#include <valgrind/valgrind.h>
#define HEAP_ONLY() (RUNNING_ON_VALGRIND != 0 || asan_in_process())
#else
#define HEAP_ONLY() asan_in_process()
#endif

/* HIP guarantees 256-byte alignment for device memory; pinned host memory
 * is page-aligned, as a pinning driver would give it. */
#define DEVICE_ALIGN 256

/* The mappings and their extents, so that free knows how to give back; the
 * tree and its nodes are heap data, out of reach of an overrunning kernel. */
struct mapping {
  void *ptr;  /* what the caller got */
  void *base; /* the mapping, guard page included */
  size_t len;
  int fd;     /* the memfd behind the block once shared with another process, else -1 */
};
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static void *maps;

static int cmp_mapping(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const struct mapping *)a)->ptr;
  uintptr_t y = (uintptr_t)((const struct mapping *)b)->ptr;

  return (x > y) - (x < y);
}

static size_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);

  return p > 0 ? (size_t)p : 4096;
}

static void unmap(struct mapping *m) {
  munmap(m->base, m->len);
  if (m->fd >= 0)
    close(m->fd);
  free(m);
}

/* A block of `bytes` (bytes <= SIZE_MAX - 2 pages): its pages before the
 * guard, and where in them the block starts so that it ends at the guard
 * (rounded to align). */
static size_t block_body(size_t bytes) {
  size_t page = page_size();

  return (bytes + page - 1) / page * page;
}

static size_t block_offset(size_t bytes, size_t align) {
  return block_body(bytes) - (bytes + align - 1) / align * align;
}

/* Enters m in the map and hands out its block; unmaps it when the map
 * cannot grow. */
static hipError_t publish(struct mapping *m, void **out) {
  void **node;

  pthread_mutex_lock(&maps_lock);
  node = tsearch(m, &maps, cmp_mapping);
  pthread_mutex_unlock(&maps_lock);
  if (node == NULL) {
    unmap(m);
    return hipErrorOutOfMemory;
  }
  *out = m->ptr;
  return hipSuccess;
}

/* Maps bytes rounded up to pages plus one PROT_NONE page, and places the
 * block so that it ends at the guard (rounded to align). When the process
 * is out of mappings for the guard (vm.max_map_count), the block goes
 * without one: still out of the heap, so an overrun stays harmless. The
 * device's accounting (core/device.c) decides what fits, as on a GPU: with
 * MAP_NORESERVE the kernel's overcommit guess does not refuse a block as
 * large as the memory hipMemGetInfo reports free (all of RAM when nothing
 * is allocated); pages are backed when touched, as before. */
static hipError_t map_block(size_t bytes, size_t align, void **out) {
  size_t page = page_size(), body;
  struct mapping *m;
  char *p;

  if (bytes > SIZE_MAX - 2 * page)
    return hipErrorOutOfMemory;
  m = malloc(sizeof(*m));
  if (m == NULL)
    return hipErrorOutOfMemory;
  body = block_body(bytes);
  m->len = body + page;
  p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
           -1, 0);
  if (p == MAP_FAILED) {
    free(m);
    return hipErrorOutOfMemory;
  }
  (void)mprotect(p + body, page, PROT_NONE);
  m->fd = -1;
  m->base = p;
  m->ptr = p + block_offset(bytes, align);
  return publish(m, out);
}

/* ---- reuse cache of freed device blocks ---------------------------------- */

/* hipFree'd device blocks (their mapping and guard page as they were) wait
 * here for an allocation of the same mapping size, most recently freed
 * first, one placed at the same offset (the same size asked) before any
 * other, as AMD's and CUDA's allocators hand freed device memory back: an
 * mmap, a page fault per page and a munmap (a TLB shootdown on every core)
 * fewer per hipMalloc/hipFree pair. A cached block is PROT_NONE (a use
 * after free faults as before); handed out again it is cleared (a memset of
 * pages already there), so that device memory still reads as zero when new:
 * programs, ROCm's unit suite among them, check entries their kernels never
 * write (docs/semantics.md). Bounded: blocks up to
 * CACHE_BLOCK_MAX, CACHE_BYTES and CACHE_COUNT in all, the oldest unmapped
 * first; emptied by hipDeviceReset and when a mapping fails. Off under
 * valgrind and AddressSanitizer (blocks come from the heap there, so a use
 * after free stays visible) and with ANYHIP_CPU_ALLOC_CACHE=0. Blocks shared
 * with another process (memfd) and host or managed memory are never kept.
 * The device's accounting (core/device.c) counts a cached block as free. */
#define CACHE_COUNT 64
#define CACHE_BYTES ((size_t)256 << 20)
#define CACHE_BLOCK_MAX ((size_t)64 << 20)

static struct mapping *cache[CACHE_COUNT]; /* oldest first; under maps_lock */
static unsigned cache_n;
static size_t cache_bytes;

static void cache_drop(unsigned i) {
  cache_bytes -= cache[i]->len;
  cache_n--;
  memmove(&cache[i], &cache[i + 1], (cache_n - i) * sizeof(cache[0]));
}

/* Takes a cached block of mapping length len, placed at ptr_off if one is. */
static struct mapping *cache_take(size_t len, size_t ptr_off) {
  struct mapping *m = NULL;
  unsigned i, pick = CACHE_COUNT;

  pthread_mutex_lock(&maps_lock);
  for (i = cache_n; i-- > 0;) {
    if (cache[i]->len != len)
      continue;
    if (pick == CACHE_COUNT)
      pick = i;
    if ((size_t)((char *)cache[i]->ptr - (char *)cache[i]->base) == ptr_off) {
      pick = i;
      break;
    }
  }
  if (pick != CACHE_COUNT) {
    m = cache[pick];
    cache_drop(pick);
  }
  pthread_mutex_unlock(&maps_lock);
  return m;
}

/* Keeps m (already out of the map) for reuse, or unmaps it. */
static void cache_put(struct mapping *m) {
  struct mapping *out[CACHE_COUNT + 1];
  unsigned n = 0;

  /* Inaccessible while cached: a use after free faults, as an unmapped
   * block does, and the address is no readable host memory
   * (hipPointerGetAttributes). The pages stay. */
  if (m->fd >= 0 || m->len - page_size() > CACHE_BLOCK_MAX || !ah_cpu_config.alloc_cache ||
      mprotect(m->base, m->len - page_size(), PROT_NONE) != 0) {
    unmap(m);
    return;
  }
  pthread_mutex_lock(&maps_lock);
  while (cache_n > 0 && (cache_n == CACHE_COUNT || cache_bytes + m->len > CACHE_BYTES)) {
    out[n++] = cache[0];
    cache_drop(0);
  }
  cache[cache_n++] = m;
  cache_bytes += m->len;
  pthread_mutex_unlock(&maps_lock);
  while (n > 0)
    unmap(out[--n]);
}

void ah_cpu_mem_cache_release(void) {
  struct mapping *out[CACHE_COUNT];
  unsigned n;

  pthread_mutex_lock(&maps_lock);
  n = cache_n;
  memcpy(out, cache, n * sizeof(cache[0]));
  cache_n = 0;
  cache_bytes = 0;
  pthread_mutex_unlock(&maps_lock);
  while (n > 0)
    unmap(out[--n]);
}

/* A device block out of the cache, at the place map_block would give it. */
static int from_cache(size_t bytes, size_t align, void **out) {
  size_t body, off;
  struct mapping *m;

  if (!ah_cpu_config.alloc_cache || bytes > CACHE_BLOCK_MAX)
    return 0;
  body = block_body(bytes);
  off = block_offset(bytes, align);
  m = cache_take(body + page_size(), off);
  if (m == NULL)
    return 0;
  m->ptr = (char *)m->base + off;
  if (mprotect(m->base, body, PROT_READ | PROT_WRITE) != 0) {
    unmap(m);
    return 0;
  }
  memset(m->base, 0, body); /* as fresh as a new mapping */
  return publish(m, out) == hipSuccess;
}

hipError_t ah_cpu_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                            unsigned flags, void **out) {
  size_t align = kind == AH_MEM_HOST ? page_size() : DEVICE_ALIGN;
  void *p = NULL;
  hipError_t err;

  if (bytes == 0)
    bytes = 1;
  if (!HEAP_ONLY()) {
    if (kind == AH_MEM_DEVICE && from_cache(bytes, align, out))
      return hipSuccess;
    err = map_block(bytes, align, out);
    if (err == hipErrorOutOfMemory) { /* memory pressure: give back the cache, try again */
      ah_cpu_mem_cache_release();
      err = map_block(bytes, align, out);
    }
    return err;
  }
  if (posix_memalign(&p, align, bytes) != 0)
    return hipErrorOutOfMemory;
  memset(p, 0, bytes);
  *out = p;
  return hipSuccess;
}

hipError_t ah_cpu_mem_free(struct ah_device *dev, void *ptr, enum ah_mem_kind kind) {
  struct mapping key = {.ptr = ptr}, *m = NULL;
  void **node;

  pthread_mutex_lock(&maps_lock);
  node = tfind(&key, &maps, cmp_mapping);
  if (node != NULL) {
    m = *node;
    tdelete(&key, &maps, cmp_mapping);
  }
  pthread_mutex_unlock(&maps_lock);
  if (m != NULL) {
    if (kind == AH_MEM_DEVICE)
      cache_put(m);
    else
      unmap(m);
  } else {
    free(ptr);
  }
  return hipSuccess;
}

/* ---- interprocess memory ------------------------------------------------- */

/* What a CPU device's hipIpcMemHandle_t holds: the exporting process, the
 * memfd's number there and its identity (so a reused number is caught),
 * and where the allocation lies in it. */
struct ipc_handle {
  uint32_t magic;
  int32_t pid;
  int32_t fd;
  uint32_t pad;
  uint64_t ino, devno;
  uint64_t offset; /* the allocation's start in the memfd */
  uint64_t bytes;  /* the memfd's size: the block's pages */
  uint64_t size;   /* the allocation's size */
};
#define IPC_MAGIC 0x43504941u /* "AIPC" */
_Static_assert(sizeof(struct ipc_handle) <= 64, "hipIpcMemHandle_t holds 64 bytes");

/* The device synchronized first (the core does): a block becomes shared by
 * copying its pages into a memfd mapped over them in place, so the address
 * the program holds stays valid. Done once per block; the fd stays open
 * (it is what the other process opens) until the block is freed. */
hipError_t ah_cpu_ipc_mem_export(struct ah_device *dev, void *base, size_t bytes, void *handle) {
  struct mapping key = {.ptr = base}, *m = NULL;
  struct ipc_handle h = {.magic = IPC_MAGIC};
  size_t body;
  struct stat st;
  void **node;
  hipError_t err = hipSuccess;

  (void)dev;
  pthread_mutex_lock(&maps_lock);
  node = tfind(&key, &maps, cmp_mapping);
  if (node == NULL) { /* a heap block (valgrind, sanitizers): nothing to share */
    pthread_mutex_unlock(&maps_lock);
    return hipErrorNotSupported;
  }
  m = *node;
  body = m->len - page_size();
  if (m->fd < 0) {
    int fd = memfd_create("anyhip-ipc", MFD_CLOEXEC);

    if (fd < 0 || ftruncate(fd, (off_t)body) != 0 ||
        pwrite(fd, m->base, body, 0) != (ssize_t)body ||
        mmap(m->base, body, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
      if (fd >= 0)
        close(fd);
      err = hipErrorOutOfMemory;
    } else {
      m->fd = fd;
    }
  }
  if (err == hipSuccess && fstat(m->fd, &st) != 0)
    err = hipErrorOutOfMemory;
  if (err == hipSuccess) {
    h.pid = (int32_t)getpid();
    h.fd = m->fd;
    h.ino = (uint64_t)st.st_ino;
    h.devno = (uint64_t)st.st_dev;
    h.offset = (uint64_t)((char *)m->ptr - (char *)m->base);
    h.bytes = body;
    h.size = bytes;
    memcpy(handle, &h, sizeof(h));
  }
  pthread_mutex_unlock(&maps_lock);
  return err;
}

/* Imports by address of their block, for close. */
struct import {
  void *ptr, *map;
  size_t len;
  struct import *next;
};
static struct import *imports;

hipError_t ah_cpu_ipc_mem_open(struct ah_device *dev, const void *handle, void **base,
                               size_t *bytes) {
  struct ipc_handle h;
  struct import *im;
  void *p;
  int fd;

  (void)dev;
  memcpy(&h, handle, sizeof(h));
  if (h.magic != IPC_MAGIC || h.offset >= h.bytes || h.size > h.bytes - h.offset)
    return hipErrorInvalidValue;
  if (h.pid == (int32_t)getpid())
    return hipErrorInvalidContext; /* HIP: not in the process that made it */
  fd = ah_os_process_fd((int)h.pid, (int)h.fd, h.ino, h.devno, h.bytes);
  if (fd < 0)
    return hipErrorInvalidValue;
  im = malloc(sizeof(*im));
  p = im != NULL ? mmap(NULL, h.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  close(fd);
  if (p == MAP_FAILED) {
    free(im);
    return hipErrorOutOfMemory;
  }
  im->map = p;
  im->len = h.bytes;
  im->ptr = (char *)p + h.offset;
  pthread_mutex_lock(&maps_lock);
  im->next = imports;
  imports = im;
  pthread_mutex_unlock(&maps_lock);
  *base = im->ptr;
  *bytes = h.size;
  return hipSuccess;
}

hipError_t ah_cpu_ipc_mem_close(struct ah_device *dev, void *base) {
  struct import **pp, *im = NULL;

  (void)dev;
  pthread_mutex_lock(&maps_lock);
  for (pp = &imports; *pp != NULL; pp = &(*pp)->next)
    if ((*pp)->ptr == base) {
      im = *pp;
      *pp = im->next;
      break;
    }
  pthread_mutex_unlock(&maps_lock);
  if (im == NULL)
    return hipErrorInvalidValue;
  munmap(im->map, im->len);
  free(im);
  return hipSuccess;
}

/* Returns 1 when every page of [ptr, ptr + bytes) is mapped. mincore fails
 * with ENOMEM on a hole; it is asked a bounded number of pages at a time. */
static int range_mapped(const void *ptr, size_t bytes) {
  size_t page = page_size();
  uintptr_t lo = (uintptr_t)ptr / page * page, hi;
  unsigned char vec[1024];

  if ((uintptr_t)ptr > UINTPTR_MAX - bytes)
    return 0;
  hi = (uintptr_t)ptr + bytes;
  while (lo < hi) {
    size_t n = (hi - lo + page - 1) / page;

    if (n > sizeof(vec))
      n = sizeof(vec);
    if (mincore((void *)lo, n * page, vec) != 0)
      return 0;
    lo += n * page;
  }
  return 1;
}

hipError_t ah_cpu_host_register(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags,
                                void **device_ptr) {
  if (!range_mapped(ptr, bytes))
    return hipErrorInvalidValue;
  *device_ptr = ptr; /* the device reads host memory where it is */
  return hipSuccess;
}

hipError_t ah_cpu_host_unregister(struct ah_device *dev, void *ptr) {
  return hipSuccess;
}

struct data_probe {
  uintptr_t addr;
  int writable; /* addr lies in a writable PT_LOAD segment */
  uintptr_t base;
};

static int probe_cb(struct dl_phdr_info *info, size_t size, void *arg) {
  struct data_probe *d = arg;

  (void)size;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

    if (ph->p_type == PT_LOAD && d->addr >= lo && d->addr - lo < ph->p_memsz) {
      d->writable = (ph->p_flags & PF_W) != 0;
      d->base = info->dlpi_addr;
      return 1;
    }
  }
  return 0;
}

/* The load base of the object holding addr; 1 when found. */
static int object_base(const void *addr, uintptr_t *base) {
  Dl_info info;

  if (dladdr(addr, &info) == 0 || info.dli_fbase == NULL)
    return 0;
  *base = (uintptr_t)info.dli_fbase;
  return 1;
}

/* Whether an unregistered ELF symbol may be a device variable that hipcc did
 * not register (docs/hipcc.md: defined in a header, through a macro, ...):
 * it must be data in a writable segment (no kernel, no function, no const
 * global), and not in the C library or anyhip itself (libc's stdout is
 * writable data, but no device variable). */
static int may_be_variable(const void *addr) {
  struct data_probe d = {.addr = (uintptr_t)addr};
  uintptr_t libc, self;

  if (!dl_iterate_phdr(probe_cb, &d) || !d.writable)
    return 0;
  if (object_base((const void *)&ah_cpu_symbol_address, &self) && d.base != 0 &&
      self == d.base)
    return 0;
  /* A libc function no sanitizer intercepts: ASan's and TSan's runtimes
   * replace fclose and the like, whose address is then theirs. */
  if (object_base((const void *)(uintptr_t)&gnu_get_libc_version, &libc) && d.base != 0 &&
      libc == d.base)
    return 0;
  return 1;
}

/* A __device__ or __constant__ variable compiled for the CPU is an ordinary
 * global: its device address is its host address, its size the symbol's.
 * Only device variables are symbols: those hipcc registered, else (for the
 * variables it cannot see) writable data of the program found in the ELF
 * tables. A kernel, a const global or libc's data is hipErrorInvalidSymbol. */
hipError_t ah_cpu_symbol_address(struct ah_device *dev, const void *host_symbol, void **out,
                                 size_t *bytes) {
  struct ah_symbol s;

  if (host_symbol == NULL)
    return hipErrorInvalidSymbol;
  if (!ah_symbol_registered(host_symbol, &s)) {
    if (!ah_symbol_lookup(host_symbol, &s) || !may_be_variable(host_symbol))
      return hipErrorInvalidSymbol;
  }
  if (s.start != host_symbol || s.size == 0)
    return hipErrorInvalidSymbol;
  *out = (void *)host_symbol;
  *bytes = s.size;
  return hipSuccess;
}

/* Every host function is CPU code. */
hipError_t ah_cpu_function_check(struct ah_device *dev, const void *fn) {
  return fn != NULL ? hipSuccess : hipErrorInvalidDeviceFunction;
}
