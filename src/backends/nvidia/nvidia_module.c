/* SPDX-License-Identifier: MIT */
/* Device code for the NVIDIA device. hipcc embeds each source's `nvcc --fatbin`
 * output in an .nv_fatbin section and a constructor hands it to
 * __ahRegisterFatbin (hiprtc registers NVRTC's PTX the same way); every image
 * is loaded, eagerly, into every open device's primary context. Kernels and device variables are found by symbol name: the
 * host function's (or host variable's) mangled name from the ELF symbol tables
 * is the name nvcc gave the device entity, searched in the images of the
 * loaded object (executable or library) that holds the host function, so two
 * libraries (two hipModuleLoad'ed code objects) may define the same name.
 * Lookups are cached per device. */
#define _GNU_SOURCE
#include "nvidia_internal.h"
#include "../../os/symbols.h"

#include <dlfcn.h>
#include <hip/anyhip/common/register.h>
#include <stdlib.h>
#include <string.h>

#define AH_NV_MAX_DEVICES 64
#define FATBIN_MAGIC 0xBA55ED50u /* first word of an `nvcc --fatbin` file */
#define JIT_LOG_BYTES 4096

struct image {
  const void *data;
  size_t size;
  const void *obj; /* base address of the loaded object holding data, or NULL */
};

/* The base address of the loaded object (executable or shared library) that
 * holds addr, or NULL when the dynamic linker does not know it. */
static const void *object_of(const void *addr) {
  Dl_info info;

  if (dladdr(addr, &info) == 0)
    return NULL;
  return info.dli_fbase;
}
/* The functions of module mod (CUDA 12.4's enumeration; NULL and *n = 0
 * where the driver has none). The caller frees the list. */
static CUfunction *module_functions(CUmodule mod, unsigned int *n) {
  CUfunction *fns = NULL;

  *n = 0;
  if (mod == NULL || ah_cuda.cuModuleGetFunctionCount == NULL ||
      ah_cuda.cuModuleEnumerateFunctions == NULL ||
      ah_cuda.cuModuleGetFunctionCount(n, mod) != CUDA_SUCCESS || *n == 0 ||
      (fns = calloc(*n, sizeof(*fns))) == NULL ||
      ah_cuda.cuModuleEnumerateFunctions(fns, *n, mod) != CUDA_SUCCESS) {
    free(fns);
    *n = 0;
    return NULL;
  }
  return fns;
}

/* A kernel in an anonymous namespace: the host compiler names the
 * namespace `12_GLOBAL__N_1`, nvcc `<n>_GLOBAL__N__<hash>_<file>_<hash>`
 * (n its length), so the device name differs from the host's. Whether
 * device name d is host name h so renamed. */
static int anonymous_match(const char *h, const char *d) {
  static const char host_ns[] = "12_GLOBAL__N_1";
  const char *a = strstr(h, host_ns);
  size_t pre;
  unsigned long n;
  char *end;

  if (a == NULL)
    return 0;
  pre = (size_t)(a - h);
  if (strncmp(h, d, pre) != 0 || d[pre] < '0' || d[pre] > '9')
    return 0;
  n = strtoul(d + pre, &end, 10);
  if (strncmp(end, "_GLOBAL__N__", 12) != 0 || strlen(end) < n)
    return 0;
  return strcmp(end + n, a + sizeof(host_ns) - 1) == 0;
}

/* Module mod's function for host kernel name h when h is in an anonymous
 * namespace (anonymous_match); the driver must name its functions (CUDA
 * 12.3). Two sources of one program with the same anonymous kernel (name
 * and parameters) cannot be told apart: the first image's is taken. */
static int anonymous_function(CUmodule mod, const char *h, CUfunction *out) {
  unsigned int n = 0;
  CUfunction *fns;
  int found = 0;

  if (strstr(h, "12_GLOBAL__N_1") == NULL || ah_cuda.cuFuncGetName == NULL)
    return 0;
  fns = module_functions(mod, &n);
  for (unsigned int k = 0; k < n && !found; k++) {
    const char *name = NULL;

    if (ah_cuda.cuFuncGetName(&name, fns[k]) == CUDA_SUCCESS && name != NULL &&
        anonymous_match(h, name)) {
      *out = fns[k];
      found = 1;
    }
  }
  free(fns);
  return found;
}


/* Lock order: reg_lock -> ah_nv_device.lock. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct image *images;
static size_t nimages, images_cap;
static size_t images_bytes;
static struct ah_nv_device *open_devices[AH_NV_MAX_DEVICES];
static size_t nopen;

enum entry_kind { ENTRY_EMPTY = 0, ENTRY_FUNCTION, ENTRY_VARIABLE, ENTRY_MISSING };

struct ah_nv_entry {
  const void *key;     /* host address of the kernel or variable */
  unsigned char kind;  /* enum entry_kind */
  size_t generation;   /* ENTRY_MISSING: nd->nmodules when the search failed */
  CUfunction fn;       /* ENTRY_FUNCTION */
  size_t dyn_smem_ok;  /* ENTRY_FUNCTION: dynamic shared memory already allowed */
  CUdeviceptr dptr;    /* ENTRY_VARIABLE */
  size_t bytes;        /* ENTRY_VARIABLE */
};

/* ---- registration ------------------------------------------------------- */

/* Loads image i into nd (nd->lock held, nd's context current). A failure
 * leaves a NULL module: kernels of that image then report
 * hipErrorInvalidDeviceFunction on this device, as HIP does for code that
 * was not built for the GPU. */
static void load_image(struct ah_nv_device *nd, size_t i) {
  char log[JIT_LOG_BYTES] = "";
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(uintptr_t)sizeof(log)};
  CUmodule mod = NULL;
  CUresult r = ah_cuda.cuModuleLoadDataEx(&mod, images[i].data, 2, opts, vals);
  CUmoduleLoadingMode mode = CU_MODULE_EAGER_LOADING;

  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "device %d: image %zu (%zu bytes) not loaded: %s %s", nd->dev->ordinal, i,
           images[i].size, ah_cuda_error_name(r), log);
    mod = NULL;
  } else if (ah_cuda.cuModuleGetLoadingMode != NULL &&
             ah_cuda.cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS &&
             mode == CU_MODULE_LAZY_LOADING && ah_cuda.cuFuncLoad != NULL) {
    /* The user asked for lazy loading (or the driver was initialized before
     * us): load every kernel now, so no launch waits for other streams. */
    unsigned int n = 0;
    CUfunction *fns = module_functions(mod, &n);

    for (unsigned int k = 0; k < n; k++)
      ah_cuda.cuFuncLoad(fns[k]);
    free(fns);
  }
  if (mod != NULL)
    AH_LOG(NVIDIA, "device %d: loaded image %zu (%zu bytes)", nd->dev->ordinal, i,
           images[i].size);
  nd->module_objs[nd->nmodules] = images[i].obj;
  nd->modules[nd->nmodules++] = mod;
}

/* Grows nd->modules to hold n entries (nd->lock held). */
static int reserve_modules(struct ah_nv_device *nd, size_t n) {
  CUmodule *m;
  const void **o;

  if (n <= nd->nmodules)
    return 1;
  m = realloc(nd->modules, n * sizeof(*m));
  if (m == NULL)
    return 0;
  nd->modules = m;
  o = realloc(nd->module_objs, n * sizeof(*o));
  if (o == NULL)
    return 0;
  nd->module_objs = o;
  return 1;
}

/* PTX text, NUL-terminated, as hiprtc puts NVRTC's output into a code object (the driver
 * compiles it when the image is loaded). */
static int is_ptx(const void *data, size_t size) {
  const char *p = data;

  return p[size - 1] == '\0' && strstr(p, ".version") != NULL && strstr(p, ".target") != NULL;
}

AH_EXPORT void __ahRegisterFatbin(const void *data, size_t size) {
  struct image *grown;

  if (data == NULL || size < 16 || (*(const uint32_t *)data != FATBIN_MAGIC && !is_ptx(data, size)))
    return; /* not a fatbin nor PTX: nothing of ours could have produced it */
  pthread_mutex_lock(&reg_lock);
  if (nimages == images_cap) {
    size_t cap = images_cap ? images_cap * 2 : 8;

    grown = realloc(images, cap * sizeof(*grown));
    if (grown == NULL) {
      pthread_mutex_unlock(&reg_lock);
      return;
    }
    images = grown;
    images_cap = cap;
  }
  images[nimages++] = (struct image){data, size, object_of(data)};
  images_bytes += size;
  /* A library opened after initialization: load it into the open devices now. */
  for (size_t d = 0; d < nopen; d++) {
    struct ah_nv_device *nd = open_devices[d];

    pthread_mutex_lock(&nd->lock);
    if (ah_nv_enter(nd) == hipSuccess && reserve_modules(nd, nimages))
      while (nd->nmodules < nimages)
        load_image(nd, nd->nmodules);
    pthread_mutex_unlock(&nd->lock);
  }
  pthread_mutex_unlock(&reg_lock);
}

size_t ah_nv_images(size_t *bytes) {
  size_t n;

  pthread_mutex_lock(&reg_lock);
  n = nimages;
  if (bytes != NULL)
    *bytes = images_bytes;
  pthread_mutex_unlock(&reg_lock);
  return n;
}

hipError_t ah_nv_modules_open(struct ah_nv_device *nd) {
  hipError_t err = hipSuccess;
  int known = 0;

  pthread_mutex_lock(&reg_lock);
  pthread_mutex_lock(&nd->lock);
  if (!reserve_modules(nd, nimages))
    err = hipErrorOutOfMemory;
  else
    while (nd->nmodules < nimages)
      load_image(nd, nd->nmodules);
  pthread_mutex_unlock(&nd->lock);
  for (size_t d = 0; d < nopen; d++)
    known |= open_devices[d] == nd;
  if (err == hipSuccess && !known) {
    if (nopen < AH_NV_MAX_DEVICES)
      open_devices[nopen++] = nd;
    else
      err = hipErrorInvalidDevice;
  }
  pthread_mutex_unlock(&reg_lock);
  return err;
}

void ah_nv_modules_close(struct ah_nv_device *nd) {
  pthread_mutex_lock(&nd->lock);
  for (size_t i = 0; i < nd->nmodules; i++)
    if (nd->modules[i] != NULL)
      ah_cuda.cuModuleUnload(nd->modules[i]);
  nd->nmodules = 0;
  free(nd->cache);
  nd->cache = NULL;
  nd->cache_cap = nd->cache_used = 0;
  pthread_mutex_unlock(&nd->lock);
}

/* ---- lookup cache (nd->lock held) ---------------------------------------- */

static size_t slot_of(const void *key, size_t cap) {
  uintptr_t h = (uintptr_t)key;

  h ^= h >> 17;
  h *= (uintptr_t)0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 7) & (cap - 1);
}

static struct ah_nv_entry *cache_find(struct ah_nv_device *nd, const void *key) {
  if (nd->cache_cap == 0)
    return NULL;
  for (size_t i = slot_of(key, nd->cache_cap);; i = (i + 1) & (nd->cache_cap - 1)) {
    if (nd->cache[i].kind == ENTRY_EMPTY)
      return NULL;
    if (nd->cache[i].key == key)
      return &nd->cache[i];
  }
}

/* Returns a new slot for key (growing the table at half full), or NULL. */
static struct ah_nv_entry *cache_insert(struct ah_nv_device *nd, const void *key) {
  size_t i;

  if (2 * (nd->cache_used + 1) > nd->cache_cap) {
    size_t cap = nd->cache_cap ? nd->cache_cap * 2 : 64;
    struct ah_nv_entry *old = nd->cache, *t = calloc(cap, sizeof(*t));

    if (t == NULL)
      return NULL;
    for (size_t k = 0; k < nd->cache_cap; k++) {
      if (old[k].kind == ENTRY_EMPTY)
        continue;
      for (i = slot_of(old[k].key, cap); t[i].kind != ENTRY_EMPTY; i = (i + 1) & (cap - 1))
        ;
      t[i] = old[k];
    }
    free(old);
    nd->cache = t;
    nd->cache_cap = cap;
  }
  for (i = slot_of(key, nd->cache_cap); nd->cache[i].kind != ENTRY_EMPTY;
       i = (i + 1) & (nd->cache_cap - 1))
    ;
  nd->cache_used++;
  memset(&nd->cache[i], 0, sizeof(nd->cache[i]));
  nd->cache[i].key = key;
  return &nd->cache[i];
}

/* Finds (or searches and caches) what the device has for host address key;
 * want is ENTRY_FUNCTION or ENTRY_VARIABLE. Returns NULL when out of memory. */
static struct ah_nv_entry *lookup(struct ah_nv_device *nd, const void *key,
                                  enum entry_kind want) {
  struct ah_nv_entry *e = cache_find(nd, key);
  struct ah_symbol sym;
  const void *obj;

  if (e != NULL && (e->kind != ENTRY_MISSING || e->generation == nd->nmodules))
    return e;
  if (e == NULL && (e = cache_insert(nd, key)) == NULL)
    return NULL;
  e->kind = ENTRY_MISSING;
  e->generation = nd->nmodules;
  /* The symbol must start at key: an address inside some other function or
   * variable names nothing. */
  if (!ah_symbol_lookup(key, &sym) || sym.start != key || sym.name == NULL) {
    AH_LOG(NVIDIA, "device %d: no symbol at %p", nd->dev->ordinal, key);
    return e;
  }
  /* Only the images of key's own object: another library's kernel or
   * variable of the same name is not this one. An image or a key whose
   * object is unknown matches any. */
  obj = object_of(key);
  for (size_t i = 0; i < nd->nmodules; i++) {
    if (nd->modules[i] == NULL)
      continue;
    if (obj != NULL && nd->module_objs[i] != NULL && nd->module_objs[i] != obj)
      continue;
    if (want == ENTRY_FUNCTION &&
        (ah_cuda.cuModuleGetFunction(&e->fn, nd->modules[i], sym.name) == CUDA_SUCCESS ||
         anonymous_function(nd->modules[i], sym.name, &e->fn))) {
      int static_smem = 0;

      /* Without an opt-in, static and dynamic shared memory share 48 KiB. */
      ah_cuda.cuFuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, e->fn);
      e->kind = ENTRY_FUNCTION;
      e->dyn_smem_ok = (size_t)static_smem < nd->static_smem_limit
                           ? nd->static_smem_limit - (size_t)static_smem
                           : 0;
      break;
    }
    if (want == ENTRY_VARIABLE && ah_cuda.cuModuleGetGlobal(&e->dptr, &e->bytes, nd->modules[i],
                                                            sym.name) == CUDA_SUCCESS) {
      e->kind = ENTRY_VARIABLE;
      break;
    }
  }
  AH_LOG(NVIDIA, "device %d: %s %s", nd->dev->ordinal, sym.name,
         e->kind == ENTRY_MISSING ? "has no device code" : "found");
  return e;
}

hipError_t ah_nv_function(struct ah_nv_device *nd, const void *fn, size_t dyn_smem,
                          CUfunction *out) {
  struct ah_nv_entry *e;
  hipError_t err = hipSuccess;

  pthread_mutex_lock(&nd->lock);
  e = lookup(nd, fn, ENTRY_FUNCTION);
  if (e == NULL)
    err = hipErrorOutOfMemory;
  else if (e->kind != ENTRY_FUNCTION)
    err = hipErrorInvalidDeviceFunction;
  else {
    /* CUDA caps dynamic shared memory at 48 KiB unless the function opts in;
     * HIP has no such step, so opt in on the first launch that needs it. */
    if (dyn_smem > e->dyn_smem_ok) {
      err = ah_cuda_status(ah_cuda.cuFuncSetAttribute(
          e->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn_smem));
      if (err == hipSuccess)
        e->dyn_smem_ok = dyn_smem;
      else
        err = hipErrorInvalidValue;
    }
    *out = e->fn;
  }
  pthread_mutex_unlock(&nd->lock);
  return err;
}

hipError_t ah_nv_function_check(struct ah_device *dev, const void *fn) {
  struct ah_nv_device *nd = AH_NV(dev);
  struct ah_nv_entry *e;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  pthread_mutex_lock(&nd->lock);
  e = lookup(nd, fn, ENTRY_FUNCTION);
  err = e == NULL ? hipErrorOutOfMemory
                  : e->kind == ENTRY_FUNCTION ? hipSuccess : hipErrorInvalidDeviceFunction;
  pthread_mutex_unlock(&nd->lock);
  return err;
}

/* hipFuncGetAttributes: what the driver knows of the compiled kernel. */
hipError_t ah_nv_function_attributes(struct ah_device *dev, const void *fn,
                                     hipFuncAttributes *out) {
  struct ah_nv_device *nd = AH_NV(dev);
  int v[10] = {0};
  CUfunction f;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess || (err = ah_nv_function(nd, fn, 0, &f)) != hipSuccess)
    return err;
  /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK (0) .. PREFERRED_SHARED_MEMORY_CARVEOUT (9) */
  for (int a = 0; a < 10; a++) {
    err = ah_cuda_status(ah_cuda.cuFuncGetAttribute(&v[a], (CUfunction_attribute)a, f));
    if (err != hipSuccess)
      return err;
  }
  out->maxThreadsPerBlock = v[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK];
  out->sharedSizeBytes = (size_t)v[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES];
  out->constSizeBytes = (size_t)v[CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES];
  out->localSizeBytes = (size_t)v[CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES];
  out->numRegs = v[CU_FUNC_ATTRIBUTE_NUM_REGS];
  out->ptxVersion = v[CU_FUNC_ATTRIBUTE_PTX_VERSION];
  out->binaryVersion = v[CU_FUNC_ATTRIBUTE_BINARY_VERSION];
  out->cacheModeCA = v[CU_FUNC_ATTRIBUTE_CACHE_MODE_CA];
  out->maxDynamicSharedSizeBytes = v[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES];
  out->preferredShmemCarveout = v[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT];
  return hipSuccess;
}

hipError_t ah_nv_symbol_address(struct ah_device *dev, const void *host_symbol, void **out,
                                size_t *bytes) {
  struct ah_nv_device *nd = AH_NV(dev);
  struct ah_nv_entry *e;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  pthread_mutex_lock(&nd->lock);
  e = lookup(nd, host_symbol, ENTRY_VARIABLE);
  if (e == NULL)
    err = hipErrorOutOfMemory;
  else if (e->kind != ENTRY_VARIABLE)
    err = hipErrorInvalidSymbol;
  else {
    if (out != NULL)
      *out = (void *)(uintptr_t)e->dptr;
    if (bytes != NULL)
      *bytes = e->bytes;
  }
  pthread_mutex_unlock(&nd->lock);
  return err;
}
