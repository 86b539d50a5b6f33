/* SPDX-License-Identifier: MIT */
/* HIP's module API: kernels loaded at run time by name. A code object for
 * anyhip is a shared library built by `hipcc --genco`; hipModuleLoad opens it
 * with dlopen (its constructors register its kernels, device variables and
 * NVIDIA device code, as for any library), hipModuleGetFunction finds a kernel
 * with dlsym and its registered signature, and hipModuleLaunchKernel goes
 * through the same launch path as hipLaunchKernel. docs/modules.md. */
#define _GNU_SOURCE
#include "../core/occupancy.h"
#include "launch_internal.h"
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
  void *lib;        /* dlopen handle */
  struct link_map *map;
  int memfd;        /* hipModuleLoadData's image (names the library; kept open), or -1 */
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
static hipError_t open_module(const char *path, int memfd, struct ah_module **out) {
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
  *out = m;
  return hipSuccess;
}

static hipError_t load_file(const char *fname, struct ah_module **out) {
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
static hipError_t load_image(const void *image, struct ah_module **out) {
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

AH_EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *fname) {
  struct ah_module *m;

  AH_ENTER();
  AH_REQUIRE(module != NULL, hipErrorInvalidValue);
  AH_REQUIRE(fname != NULL && fname[0] != '\0', hipErrorInvalidValue);
  AH_REQUIRE_OK(load_file(fname, &m));
  *module = (hipModule_t)m;
  return hipSuccess;
}

AH_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  struct ah_module *m;

  AH_ENTER();
  AH_REQUIRE(module != NULL, hipErrorInvalidValue);
  AH_REQUIRE(image != NULL, hipErrorInvalidValue);
  AH_REQUIRE_OK(load_image(image, &m));
  *module = (hipModule_t)m;
  return hipSuccess;
}

/* Nothing is compiled at load time, so the options have nothing to change. */
AH_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image,
                                         unsigned int numOptions, hipJitOption *options,
                                         void **optionValues) {
  struct ah_module *m;

  AH_ENTER();
  AH_REQUIRE(module != NULL, hipErrorInvalidValue);
  AH_REQUIRE(image != NULL, hipErrorInvalidValue);
  AH_REQUIRE(numOptions == 0 || (options != NULL && optionValues != NULL), hipErrorInvalidValue);
  AH_REQUIRE_OK(load_image(image, &m));
  *module = (hipModule_t)m;
  return hipSuccess;
}

AH_EXPORT hipError_t hipModuleUnload(hipModule_t module) {
  struct ah_module *m;
  struct ah_function *f, *next;

  AH_ENTER();
  pthread_mutex_lock(&mod_lock);
  m = ah_object_cast(module, AH_KIND_MODULE);
  if (m == NULL) {
    /* NULL is an invalid handle; a module that is not loaded (unloaded
     * already) is not found, as AMD's runtime says. */
    pthread_mutex_unlock(&mod_lock);
    return ah_fail(module == NULL ? hipErrorInvalidResourceHandle : hipErrorNotFound, __func__,
                   "module");
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
 * dependencies), or NULL; *type gets the symbol's ELF type. */
static void *find_symbol(struct ah_module *m, const char *name, int *type) {
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
  return addr;
}

AH_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                          const char *kname) {
  struct ah_module *m;
  struct ah_function *f;
  const ahKernelSig *sig;
  hipError_t err = hipSuccess;
  size_t len;
  void *addr;
  int type = STT_NOTYPE;

  AH_ENTER();
  AH_REQUIRE(function != NULL, hipErrorInvalidValue);
  AH_REQUIRE(kname != NULL && kname[0] != '\0', hipErrorInvalidValue);
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
    addr = find_symbol(m, kname, &type);
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
  if (err != hipSuccess)
    return ah_fail(err, __func__, kname);
  return hipSuccess;
}

/* Handles of the program's own kernels (hipGetFuncBySymbol), one per kernel, kept for the
 * life of the process; under mod_lock. */
static struct ah_function *symbol_fns;

AH_EXPORT hipError_t hipGetFuncBySymbol(hipFunction_t *functionPtr, const void *symbolPtr) {
  struct ah_function *f;
  const ahKernelSig *sig;
  hipError_t err = hipSuccess;

  AH_ENTER();
  AH_REQUIRE(functionPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbolPtr != NULL, hipErrorInvalidDeviceFunction);
  sig = ah_kernel_sig(symbolPtr);
  AH_REQUIRE(sig != NULL, hipErrorInvalidDeviceFunction); /* not a registered kernel */
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
  AH_RETURN(err);
}

AH_EXPORT hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod,
                                        const char *name) {
  struct ah_module *m;
  struct ah_device *dev;
  void *addr = NULL, *dev_addr = NULL;
  size_t size = 0;
  int type = STT_NOTYPE;

  AH_ENTER();
  AH_REQUIRE(dptr != NULL || bytes != NULL, hipErrorInvalidValue);
  AH_REQUIRE(name != NULL && name[0] != '\0', hipErrorInvalidValue);
  pthread_mutex_lock(&mod_lock);
  m = ah_object_cast(hmod, AH_KIND_MODULE);
  if (m != NULL)
    addr = find_symbol(m, name, &type);
  pthread_mutex_unlock(&mod_lock);
  AH_REQUIRE(m != NULL, hipErrorInvalidResourceHandle);
  AH_REQUIRE(addr != NULL && type == STT_OBJECT, hipErrorNotFound);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE_OK(ah_memcpy_symbol(dev, addr, &dev_addr, &size));
  if (dptr != NULL)
    *dptr = dev_addr;
  if (bytes != NULL)
    *bytes = size;
  return hipSuccess;
}

/* ---- launches and attributes ---------------------------------------------- */

/* Copies the kernel and layout of a live function handle. */
static hipError_t resolve_function(hipFunction_t h, const void **fn, const ahKernelSig **sig) {
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

hipError_t ah_module_function(const void *h, const void **fn, const ahKernelSig **sig) {
  return resolve_function((hipFunction_t)h, fn, sig);
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

/* hipModuleLaunchKernel's work, for hipExtModuleLaunchKernel too. */
hipError_t ah_module_launch(hipFunction_t f, dim3 grid, dim3 block, size_t shmem,
                            hipStream_t stream, void **kernelParams, void **extra,
                            int cooperative) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  void *small[AH_MODULE_ARGS], **argv = kernelParams;
  unsigned char *buf;
  size_t size;
  hipError_t err;

  if (kernelParams != NULL && extra != NULL)
    return hipErrorInvalidValue;
  err = resolve_function(f, &fn, &sig);
  if (err != hipSuccess || extra == NULL)
    return err != hipSuccess
               ? err
               : ah_launch_kernel(fn, sig, grid, block, shmem, stream, argv, cooperative);
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
    err = ah_launch_kernel(fn, sig, grid, block, shmem, stream, argv, cooperative);
  if (argv != small)
    free(argv);
  return err;
}

/* The driver-style launches report a bad grid or block as an invalid value
 * (AMD's runtime, as cuLaunchKernel), where the runtime-style ones say
 * hipErrorInvalidConfiguration. */
static hipError_t driver_launch_code(hipError_t err) {
  return err == hipErrorInvalidConfiguration ? hipErrorInvalidValue : err;
}

AH_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                           unsigned int gridDimY, unsigned int gridDimZ,
                                           unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes,
                                           hipStream_t stream, void **kernelParams,
                                           void **extra) {
  dim3 grid = {gridDimX, gridDimY, gridDimZ}, block = {blockDimX, blockDimY, blockDimZ};

  AH_ENTER();
  AH_RETURN(driver_launch_code(
      ah_module_launch(f, grid, block, sharedMemBytes, stream, kernelParams, extra, 0)));
}

/* Every block resident at once, so that the kernel may use grid.sync(). */
AH_EXPORT hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX,
                                                      unsigned int gridDimY, unsigned int gridDimZ,
                                                      unsigned int blockDimX,
                                                      unsigned int blockDimY,
                                                      unsigned int blockDimZ,
                                                      unsigned int sharedMemBytes,
                                                      hipStream_t stream, void **kernelParams) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  dim3 grid = {gridDimX, gridDimY, gridDimZ}, block = {blockDimX, blockDimY, blockDimZ};
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE_OK(resolve_function(f, &fn, &sig));
  err = driver_launch_code(
      ah_launch_kernel(fn, sig, grid, block, sharedMemBytes, stream, kernelParams, 1));
  /* AMD's runtime says invalid value for a destroyed stream here too (the
   * non-cooperative launch says hipErrorContextIsDestroyed). */
  AH_RETURN(err == hipErrorContextIsDestroyed ? hipErrorInvalidValue : err);
}

/* ---- occupancy: hip_occupancy.c's rules, for a module function ------------ */

#define OCCUPANCY_FLAGS hipOccupancyDisableCachingOverride

AH_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk,
    unsigned int flags) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(numBlocks != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(resolve_function(f, &fn, &sig));
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(blockSize > 0, hipErrorInvalidValue);
  AH_RETURN(ah_occupancy_blocks(dev, fn, blockSize, dynSharedMemPerBlk, flags, numBlocks));
}

AH_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                        hipFunction_t f,
                                                                        int blockSize,
                                                                        size_t dynSharedMemPerBlk) {
  return hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, f, blockSize, dynSharedMemPerBlk, hipOccupancyDefault);
}

AH_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize,
                                                                      int *blockSize,
                                                                      hipFunction_t f,
                                                                      size_t dynSharedMemPerBlk,
                                                                      int blockSizeLimit,
                                                                      unsigned int flags) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  struct ah_device *dev;

  AH_ENTER();
  AH_REQUIRE(gridSize != NULL && blockSize != NULL, hipErrorInvalidValue);
  AH_REQUIRE((flags & ~OCCUPANCY_FLAGS) == 0, hipErrorInvalidValue);
  AH_REQUIRE_OK(resolve_function(f, &fn, &sig));
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE(blockSizeLimit >= 0, hipErrorInvalidValue); /* 0: the kernel's own limit */
  AH_RETURN(ah_occupancy_block_size(dev, fn, NULL, NULL, dynSharedMemPerBlk, blockSizeLimit,
                                    flags, gridSize, blockSize));
}

AH_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize,
                                                             hipFunction_t f,
                                                             size_t dynSharedMemPerBlk,
                                                             int blockSizeLimit) {
  return hipModuleOccupancyMaxPotentialBlockSizeWithFlags(
      gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit, hipOccupancyDefault);
}

AH_EXPORT hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib,
                                         hipFunction_t hfunc) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  hipFuncAttributes a;

  AH_ENTER();
  AH_REQUIRE(value != NULL, hipErrorInvalidValue);
  AH_REQUIRE((unsigned)attrib < (unsigned)HIP_FUNC_ATTRIBUTE_MAX, hipErrorInvalidValue);
  AH_REQUIRE_OK(resolve_function(hfunc, &fn, &sig));
  AH_REQUIRE_OK(ah_launch_func_attributes(fn, &a));
  switch (attrib) {
  case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = a.maxThreadsPerBlock;
    break;
  case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = (int)a.sharedSizeBytes;
    break;
  case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    *value = (int)a.constSizeBytes;
    break;
  case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *value = (int)a.localSizeBytes;
    break;
  case HIP_FUNC_ATTRIBUTE_NUM_REGS:
    *value = a.numRegs;
    break;
  case HIP_FUNC_ATTRIBUTE_PTX_VERSION:
    *value = a.ptxVersion;
    break;
  case HIP_FUNC_ATTRIBUTE_BINARY_VERSION:
    *value = a.binaryVersion;
    break;
  case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    *value = a.cacheModeCA;
    break;
  case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = a.maxDynamicSharedSizeBytes;
    break;
  default: /* HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT */
    *value = a.preferredShmemCarveout;
    break;
  }
  return hipSuccess;
}
