/* SPDX-License-Identifier: MIT */
/* HIP's modules: kernels loaded at run time by name. A code object for
 * anyhip is a shared library built by `hipcc --genco`; loading opens it with
 * dlopen (its constructors register its kernels, device variables and NVIDIA
 * device code, as for any library), a function is found with dlsym and its
 * registered signature, and a module launch goes through the launch path of
 * launch.c. No argument checks here: src/api/hip_module.c. docs/modules.md. */
#define _GNU_SOURCE
#include "launch.h"
#include "memory.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Function handles live in the object registry too (AH_KIND_FUNCTION), so
 * that a garbage hipFunction_t is refused without being read. */

/* The most kernel arguments an `extra` buffer is unpacked into on the stack. */
#define AH_MODULE_ARGS 64

struct ah_function {
  struct ah_object obj;
  const void *fn;         /* the kernel's host address in the library */
  const ahKernelSig *sig; /* registered by the library's constructors */
  struct ah_function *next;
  char name[];
};

/* The library is never closed: the kernel and symbol registries and the
 * NVIDIA device's code cache key entries by address, and a closed library's
 * addresses could be reused by the next one mapped. hipModuleUnload ends the
 * handles; loading the same file again finds the mapping still there. */
struct ah_module {
  struct ah_object obj;
  void *lib; /* dlopen handle */
  struct link_map *map;
  int memfd; /* hipModuleLoadData's image (names the library; kept open), or -1 */
  struct ah_function *fns;
};

/* Guards every module's function list and the handles' lifetimes, so that a
 * handle checked under it is not freed before its fields are copied. */
static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- loading ------------------------------------------------------------- */

#if defined(__x86_64__)
#define AH_ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define AH_ELF_MACHINE EM_AARCH64
#elif defined(__riscv)
#define AH_ELF_MACHINE EM_RISCV
#endif

/* Whether the first bytes of a file are a shared object for this host (an
 * AMD code object, a cubin or a text file is not). */
static int is_host_library(const unsigned char *p, size_t n) {
  const ElfW(Ehdr) *h = (const ElfW(Ehdr) *)p;

  if (n < sizeof(*h) || memcmp(p, ELFMAG, SELFMAG) != 0)
    return 0;
  if (p[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
    return 0;
#ifdef AH_ELF_MACHINE
  if (h->e_machine != AH_ELF_MACHINE)
    return 0;
#endif
  return h->e_type == ET_DYN;
}

/* Opens the library at path (absolute) and makes a module of it. */
static hipError_t open_module(const char *path, int memfd, hipModule_t *out) {
  struct ah_module *m;
  void *lib;
  hipError_t err;

  dlerror();
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    const char *why = dlerror();

    AH_LOG(API, "hipModuleLoad: %s: %s", path, why != NULL ? why : "dlopen failed");
    return hipErrorInvalidImage;
  }
  m = calloc(1, sizeof(*m));
  if (m == NULL)
    return hipErrorOutOfMemory;
  if (dlinfo(lib, RTLD_DI_LINKMAP, &m->map) != 0)
    m->map = NULL;
  m->lib = lib;
  m->memfd = memfd;
  err = ah_object_init(&m->obj, AH_KIND_MODULE);
  if (err != hipSuccess) {
    free(m);
    return err;
  }
  *out = (hipModule_t)m;
  return hipSuccess;
}

hipError_t ah_module_load_file(const char *fname, hipModule_t *out) {
  unsigned char head[sizeof(ElfW(Ehdr))];
  char *path;
  struct stat st;
  ssize_t n;
  hipError_t err;
  int fd = open(fname, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return errno == ENOMEM ? hipErrorOutOfMemory : hipErrorFileNotFound;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return hipErrorFileNotFound;
  }
  n = read(fd, head, sizeof(head));
  close(fd);
  if (n < 0 || !is_host_library(head, (size_t)n))
    return hipErrorInvalidImage;
  /* An absolute path: dlopen would search the library path for a bare
   * "kernels.co", and the name is what makes a second load find the first. */
  path = realpath(fname, NULL);
  if (path == NULL)
    return hipErrorFileNotFound;
  err = open_module(path, -1, out);
  free(path);
  return err;
}

/* How many bytes the ELF image at p spans: its section header table ends
 * it in files a linker writes; program contents are counted too. */
static size_t image_size(const unsigned char *p) {
  const ElfW(Ehdr) *h = (const ElfW(Ehdr) *)p;
  const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(p + h->e_phoff);
  size_t end = sizeof(*h);

  if (h->e_shoff + (size_t)h->e_shnum * h->e_shentsize > end)
    end = h->e_shoff + (size_t)h->e_shnum * h->e_shentsize;
  if (h->e_phoff + (size_t)h->e_phnum * h->e_phentsize > end)
    end = h->e_phoff + (size_t)h->e_phnum * h->e_phentsize;
  for (unsigned i = 0; i < h->e_phnum && h->e_phentsize == sizeof(*ph); i++)
    if (ph[i].p_offset + ph[i].p_filesz > end)
      end = ph[i].p_offset + ph[i].p_filesz;
  return end;
}

/* A library in memory is written to an anonymous file and opened from
 * there. The file stays open: its /proc/self/fd name is the library's name,
 * and a reused descriptor number would make dlopen return this library. */
hipError_t ah_module_load_image(const void *image, hipModule_t *out) {
  const unsigned char *p = image;
  char path[64];
  size_t size, done = 0;
  hipError_t err;
  int fd;

  if (!is_host_library(p, sizeof(ElfW(Ehdr))))
    return hipErrorInvalidImage;
  size = image_size(p);
  fd = memfd_create("anyhip-module", MFD_CLOEXEC);
  if (fd < 0)
    return hipErrorOutOfMemory;
  while (done < size) {
    ssize_t w = write(fd, p + done, size - done);

    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      close(fd);
      return hipErrorOutOfMemory;
    }
    done += (size_t)w;
  }
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  err = open_module(path, fd, out);
  if (err != hipSuccess)
    close(fd);
  return err;
}

hipError_t ah_module_unload(hipModule_t module) {
  struct ah_module *m;
  struct ah_function *f, *next;

  pthread_mutex_lock(&mod_lock);
  m = ah_object_cast(module, AH_KIND_MODULE);
  if (m == NULL) {
    /* NULL is an invalid handle; a module that is not loaded (unloaded
     * already) is not found, as AMD's runtime says. */
    pthread_mutex_unlock(&mod_lock);
    return module == NULL ? hipErrorInvalidResourceHandle : hipErrorNotFound;
  }
  for (f = m->fns; f != NULL; f = next) {
    next = f->next;
    ah_object_fini(&f->obj);
    free(f);
  }
  ah_object_fini(&m->obj);
  pthread_mutex_unlock(&mod_lock);
  free(m);
  return hipSuccess;
}

/* ---- names ---------------------------------------------------------------- */

/* The address of `name` defined in m's own library (not one of its
 * dependencies), or NULL; *type gets the symbol's ELF type, *size (when not
 * NULL) its size. */
static void *find_symbol(struct ah_module *m, const char *name, int *type, size_t *size) {
  const ElfW(Sym) *sym = NULL;
  struct link_map *map = NULL;
  Dl_info info;
  void *addr;

  addr = dlsym(m->lib, name);
  if (addr == NULL)
    return NULL;
  if (dladdr1(addr, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map != m->map)
    return NULL;
  if (dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL)
    return NULL;
  *type = ELF64_ST_TYPE(sym->st_info);
  if (size != NULL)
    *size = sym->st_size;
  return addr;
}

hipError_t ah_module_get_function(hipFunction_t *function, hipModule_t module, const char *kname) {
  struct ah_module *m;
  struct ah_function *f;
  const ahKernelSig *sig;
  hipError_t err = hipSuccess;
  size_t len;
  void *addr;
  int type = STT_NOTYPE;

  pthread_mutex_lock(&mod_lock);
  m = ah_object_cast(module, AH_KIND_MODULE);
  if (m == NULL) {
    err = hipErrorInvalidResourceHandle;
    goto out;
  }
  for (f = m->fns; f != NULL; f = f->next)
    if (strcmp(f->name, kname) == 0)
      break;
  if (f == NULL) {
    /* A kernel is a function the library's constructors registered: a host
     * function or a variable of the same name is not one. */
    addr = find_symbol(m, kname, &type, NULL);
    sig = addr != NULL && type == STT_FUNC ? ah_kernel_sig(addr) : NULL;
    if (sig == NULL) {
      err = hipErrorNotFound;
      goto out;
    }
    len = strlen(kname);
    f = calloc(1, sizeof(*f) + len + 1);
    if (f == NULL) {
      err = hipErrorOutOfMemory;
      goto out;
    }
    memcpy(f->name, kname, len + 1);
    f->fn = addr;
    f->sig = sig;
    err = ah_object_init(&f->obj, AH_KIND_FUNCTION);
    if (err != hipSuccess) {
      free(f);
      goto out;
    }
    f->next = m->fns;
    m->fns = f;
  }
  *function = (hipFunction_t)f;
out:
  pthread_mutex_unlock(&mod_lock);
  return err;
}

/* Handles of the program's own kernels (hipGetFuncBySymbol), one per kernel, kept for the
 * life of the process; under mod_lock. */
static struct ah_function *symbol_fns;

hipError_t ah_module_func_by_symbol(hipFunction_t *functionPtr, const void *symbolPtr) {
  struct ah_function *f;
  const ahKernelSig *sig;
  hipError_t err = hipSuccess;

  sig = ah_kernel_sig(symbolPtr);
  if (sig == NULL)
    return hipErrorInvalidDeviceFunction; /* not a registered kernel */
  pthread_mutex_lock(&mod_lock);
  for (f = symbol_fns; f != NULL; f = f->next)
    if (f->fn == symbolPtr)
      break;
  if (f == NULL) {
    f = calloc(1, sizeof(*f) + 1);
    if (f == NULL) {
      err = hipErrorOutOfMemory;
      goto out;
    }
    f->fn = symbolPtr;
    f->sig = sig;
    err = ah_object_init(&f->obj, AH_KIND_FUNCTION);
    if (err != hipSuccess) {
      free(f);
      goto out;
    }
    f->next = symbol_fns;
    symbol_fns = f;
  }
  *functionPtr = (hipFunction_t)f;
out:
  pthread_mutex_unlock(&mod_lock);
  return err;
}

/* Variable `name` of module hmod's own library: its host address and its
 * ELF size. */
static hipError_t module_variable(hipModule_t hmod, const char *name, void **addr,
                                  size_t *size) {
  struct ah_module *m;
  void *a = NULL;
  int type = STT_NOTYPE;

  pthread_mutex_lock(&mod_lock);
  m = ah_object_cast(hmod, AH_KIND_MODULE);
  if (m != NULL)
    a = find_symbol(m, name, &type, size);
  pthread_mutex_unlock(&mod_lock);
  if (m == NULL)
    return hipErrorInvalidResourceHandle;
  if (a == NULL || type != STT_OBJECT)
    return hipErrorNotFound;
  *addr = a;
  return hipSuccess;
}

hipError_t ah_module_get_global(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod,
                                const char *name) {
  struct ah_device *dev;
  void *addr, *dev_addr = NULL;
  size_t size = 0;
  hipError_t err = module_variable(hmod, name, &addr, &size);

  if (err != hipSuccess)
    return err;
  dev = ah_current_device();
  if (dev == NULL)
    return hipErrorNoDevice;
  err = ah_memcpy_symbol(dev, addr, &dev_addr, &size);
  if (err != hipSuccess)
    return err;
  if (dptr != NULL)
    *dptr = dev_addr;
  if (bytes != NULL)
    *bytes = size;
  return hipSuccess;
}

/* A texture reference is a host object of the code object (a GPU runtime
 * mirrors it in device memory when it is bound; nothing binds one here:
 * docs/textures.md): its address, once the symbol is a variable of a
 * reference's size. */
hipError_t ah_module_get_texref(struct textureReference **ref, hipModule_t hmod,
                                const char *name) {
  void *addr;
  size_t size = 0;
  hipError_t err = module_variable(hmod, name, &addr, &size);

  if (err != hipSuccess)
    return err;
  if (size != sizeof(struct textureReference))
    return hipErrorNotFound;
  *ref = addr;
  return hipSuccess;
}

/* ---- launches -------------------------------------------------------------- */

hipError_t ah_module_function(const void *h, const void **fn, const ahKernelSig **sig) {
  struct ah_function *f;

  pthread_mutex_lock(&mod_lock);
  f = ah_object_cast(h, AH_KIND_FUNCTION);
  if (f != NULL) {
    *fn = f->fn;
    *sig = f->sig;
  }
  pthread_mutex_unlock(&mod_lock);
  return f != NULL ? hipSuccess : hipErrorInvalidResourceHandle;
}

/* Reads HIP_LAUNCH_PARAM_* pairs: the packed argument buffer and its size. */
static hipError_t parse_extra(void **extra, unsigned char **buf, size_t *size) {
  int have_size = 0;

  *buf = NULL;
  *size = 0;
  for (size_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
      *buf = extra[i + 1];
    } else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
      if (extra[i + 1] == NULL)
        return hipErrorInvalidValue;
      *size = *(const size_t *)extra[i + 1];
      have_size = 1;
    } else {
      return hipErrorInvalidValue;
    }
  }
  return *buf != NULL && have_size ? hipSuccess : hipErrorInvalidValue;
}

/* Points argv[i] at each argument of a buffer laid out as the C structure of
 * the parameter list (each at its alignment), as HIP's `extra` is. */
static hipError_t unpack(const ahKernelSig *sig, unsigned char *buf, size_t size, void **argv) {
  size_t off = 0;

  for (unsigned i = 0; i < sig->nargs; i++) {
    size_t al = sig->aligns[i] != 0 ? sig->aligns[i] : 1;

    off = (off + al - 1) / al * al;
    if (off > size || sig->sizes[i] > size - off)
      return hipErrorInvalidValue; /* the buffer ends before this argument */
    argv[i] = buf + off;
    off += sig->sizes[i];
  }
  return hipSuccess;
}

hipError_t ah_module_launch(hipFunction_t f, dim3 grid, dim3 block, size_t shmem,
                            hipStream_t stream, void **kernelParams, void **extra,
                            int cooperative) {
  return ah_module_launch_grid_of(f, grid, block, shmem, stream, kernelParams, extra, cooperative,
                                  NULL, 0);
}

hipError_t ah_module_launch_grid_of(hipFunction_t f, dim3 grid, dim3 block, size_t shmem,
                                    hipStream_t stream, void **kernelParams, void **extra,
                                    int cooperative, struct ah_multi_grid *multi, unsigned rank) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  void *small[AH_MODULE_ARGS], **argv = kernelParams;
  unsigned char *buf;
  size_t size;
  hipError_t err;

  if (kernelParams != NULL && extra != NULL)
    return hipErrorInvalidValue;
  err = ah_module_function(f, &fn, &sig);
  if (err != hipSuccess || extra == NULL)
    return err != hipSuccess
               ? err
               : ah_launch_grid_of(fn, sig, grid, block, shmem, stream, argv, cooperative, multi,
                                   rank);
  err = parse_extra(extra, &buf, &size);
  if (err != hipSuccess)
    return err;
  argv = small;
  if (sig->nargs > AH_MODULE_ARGS) {
    argv = calloc(sig->nargs, sizeof(*argv));
    if (argv == NULL)
      return hipErrorOutOfMemory;
  }
  err = unpack(sig, buf, size, argv);
  /* The launch copies the arguments before it returns. */
  if (err == hipSuccess)
    err = ah_launch_grid_of(fn, sig, grid, block, shmem, stream, argv, cooperative, multi, rank);
  if (argv != small)
    free(argv);
  return err;
}
