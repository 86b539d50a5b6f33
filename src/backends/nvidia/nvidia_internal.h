/* SPDX-License-Identifier: MIT */
/* The NVIDIA device's private interface between its parts:
 *   cuda_dl.c         the driver table ah_cuda (dlopen + cuGetProcAddress) and
 *                     ah_cuda_status, the one CUresult -> hipError_t map
 *   nvidia_backend.c  the ah_backend_nvidia table, probe, device_open (props
 *                     from the driver), attributes, limits, reset
 *   nvidia_mem.c      allocation, host registration
 *   nvidia_queue.c    streams, events, command submission
 *   nvidia_module.c   embedded fatbins: registration, eager loading on every
 *                     device, kernel and variable lookup by symbol name
 *   nvidia_occupancy.c  occupancy (the driver's calculator)
 *   nvidia_managed.c  managed-memory hints (cuMemAdvise, cuMemPrefetchAsync,
 *                     attach)
 *   nvidia_graph.c    executable graphs as CUgraphExecs (the graph_* ops)
 *   nvidia_array.c    arrays, mipmapped arrays, texture and surface objects
 *   nvidia_vmm.c      virtual memory management (cuMemCreate, cuMemMap...)
 *   nvidia_pool.c     shareable stream-ordered pools (cuMemPool*)
 *   nvidia_external.c external memory and semaphores (cuImportExternal*)
 * A queue handle is a struct ah_nv_queue around its CUstream (the null
 * stream's is CU_STREAM_LEGACY, kept in the device); an event handle is the
 * CUevent itself, an array handle the CUarray, a mipmapped array's the
 * CUmipmappedArray. */
#ifndef AH_NVIDIA_INTERNAL_H
#define AH_NVIDIA_INTERNAL_H

#include "../../core/internal.h"
#include "cuda_types.h"

/* The NVIDIA device's settings (docs/config.md), read by its probe. */
struct ah_nv_config {
  const char *cuda_lib; /* ANYHIP_CUDA_LIB, default libcuda.so.1 */
  int driver_host_fns;  /* ANYHIP_NVIDIA_HOST_FUNCS=driver: cuLaunchHostFunc only */
};
extern struct ah_nv_config ah_nv_config;

/* ---- cuda_dl.c ---- */

struct ah_cuda_api {
#define AH_CU(name, params) CUresult (*name) params;
#define AH_CU_OPT(name, version, params) CUresult (*name) params;
#include "cuda_syms.def"
#undef AH_CU
#undef AH_CU_OPT
};
extern struct ah_cuda_api ah_cuda; /* callers write ah_cuda.cuInit(0) */

/* Opens the driver at path, resolves every symbol and calls cuInit. Returns 1
 * when the driver is usable; 0 means "no NVIDIA devices", not an error. Called
 * once, under the init lock. */
int ah_cuda_load(const char *path);
/* The one map from CUDA's error codes to HIP's. */
hipError_t ah_cuda_status(CUresult r);
/* CUDA's name of r ("CUDA_ERROR_..."), for logs. */
const char *ah_cuda_error_name(CUresult r);

/* ---- per-device state (dev->impl) ---- */

struct ah_nv_device;
struct ah_nv_hostjob;

/* One stream. Host functions do not use CUDA's own host-function thread,
 * which runs the functions of every stream one at a time, so one that blocks
 * would stall every other stream: each queue has a worker thread of its own.
 * For each function the stream writes its number to a pinned word (reached)
 * and then waits (cuStreamWaitValue32) on another (done), which the worker
 * sets once it has seen `reached` and run the function. */
enum { FLAG_DONE, FLAG_REACHED };
struct ah_nv_queue {
  CUstream s;
  struct ah_nv_device *nd;
  /* Held while a host function is enqueued (write, wait, job), so the jobs
   * are in the stream's order. Never taken by the worker: enqueueing may
   * block in the driver until the stream moves, which may take the worker. */
  pthread_mutex_t submit;
  volatile uint32_t *flag;       /* pinned [FLAG_DONE, FLAG_REACHED] (submit) */
  CUdeviceptr flag_dev;          /* the flags' device address (submit) */
  uint32_t seq;                  /* the last host function enqueued (submit) */
  CUevent idle;                  /* recorded to learn whether a copy waits (submit), or NULL */
  pthread_mutex_t lock;          /* guards the five below; held briefly */
  struct ah_nv_hostjob *head, *tail;
  struct ah_nv_hostjob *spare;   /* done jobs, kept for reuse */
  int worker;                    /* the worker thread runs (it exits when idle) */
  int closing;                   /* destroyed: the worker frees the queue when drained */
};

struct ah_nv_entry; /* nvidia_module.c's lookup cache */
struct ah_nv_flags;  /* nvidia_queue.c's pinned flag slots */
struct ah_nv_stage;  /* nvidia_queue.c's pinned staging buffers */
struct ah_nv_device {
  struct ah_device *dev;
  CUdevice cu;
  CUcontext ctx;            /* the device's primary context, retained */
  int least_priority;       /* cuCtxGetStreamPriorityRange */
  int greatest_priority;
  size_t static_smem_limit; /* dynamic shared memory that needs no opt-in */
  unsigned resets;          /* device_reset count: driver handles made before are gone */
  struct ah_nv_queue null_queue; /* CU_STREAM_LEGACY */
  pthread_mutex_t lock;     /* guards everything below */
  struct ah_nv_flags *flags; /* flag slots for host functions */
  struct ah_nv_stage *stages; /* staging buffers of copies from pageable memory */
  CUmodule *modules;        /* one per registered image, NULL when it failed */
  const void **module_objs; /* the loaded object (dladdr base) each image came from, or NULL */
  size_t nmodules;
  struct ah_nv_entry *cache; /* open addressing, keyed by host address */
  size_t cache_cap, cache_used;
};

/* Makes the device's primary context current on the calling thread (a
 * no-op when it already is). Every op calls it before using the driver. */
static inline hipError_t ah_nv_enter(struct ah_nv_device *nd) {
  CUcontext cur = NULL;

  if (ah_cuda.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == nd->ctx)
    return hipSuccess;
  return ah_cuda_status(ah_cuda.cuCtxSetCurrent(nd->ctx));
}

#define AH_NV(dev) ((struct ah_nv_device *)(dev)->impl)

/* For an op whose driver entry is optional (arrays, textures, VMM, pools,
 * external memory): hipErrorNotSupported when the driver lacks fn, else
 * enters dev's context; returns from the op on failure. */
#define AH_NV_ENTER(dev, fn)                                                                       \
  do {                                                                                             \
    hipError_t e_;                                                                                 \
    if (ah_cuda.fn == NULL)                                                                        \
      return hipErrorNotSupported;                                                                 \
    if ((e_ = ah_nv_enter(AH_NV(dev))) != hipSuccess)                                              \
      return e_;                                                                                   \
  } while (0)

/* ---- nvidia_mem.c ---- */
hipError_t ah_nv_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                           unsigned flags, void **out);
hipError_t ah_nv_mem_free(struct ah_device *dev, void *ptr, enum ah_mem_kind kind);
hipError_t ah_nv_host_register(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags,
                               void **device_ptr);
hipError_t ah_nv_host_unregister(struct ah_device *dev, void *ptr);
hipError_t ah_nv_mem_info(struct ah_device *dev, size_t *free_bytes, size_t *total_bytes);

/* ---- nvidia_queue.c ---- */
/* Sets up the null queue of nd (CU_STREAM_LEGACY). */
void ah_nv_null_queue_init(struct ah_nv_device *nd);
/* Forgets the pinned flag slots (their memory went with a context reset). */
void ah_nv_flags_reset(struct ah_nv_device *nd);
/* Forgets the staging buffers of pageable copies (the same). */
void ah_nv_stages_reset(struct ah_nv_device *nd);
hipError_t ah_nv_queue_create(struct ah_device *dev, unsigned flags, int priority,
                              struct ah_queue **q);
hipError_t ah_nv_queue_destroy(struct ah_device *dev, struct ah_queue *q);
hipError_t ah_nv_submit(struct ah_device *dev, struct ah_queue *q, const struct ah_cmd *cmd,
                        int wait);
hipError_t ah_nv_queue_sync(struct ah_device *dev, struct ah_queue *q);
hipError_t ah_nv_queue_query(struct ah_device *dev, struct ah_queue *q);
hipError_t ah_nv_device_sync(struct ah_device *dev);
hipError_t ah_nv_event_create(struct ah_device *dev, unsigned flags, struct ah_dev_event **ev);
hipError_t ah_nv_event_destroy(struct ah_device *dev, struct ah_dev_event *ev);
hipError_t ah_nv_event_record(struct ah_device *dev, struct ah_queue *q, struct ah_dev_event *ev);
hipError_t ah_nv_event_query(struct ah_device *dev, struct ah_dev_event *ev);
hipError_t ah_nv_event_sync(struct ah_device *dev, struct ah_dev_event *ev);
hipError_t ah_nv_event_elapsed(struct ah_device *dev, struct ah_dev_event *start,
                               struct ah_dev_event *stop, float *ms);
hipError_t ah_nv_queue_wait_event(struct ah_device *dev, struct ah_queue *q,
                                  struct ah_dev_event *ev);
hipError_t ah_nv_ipc_mem_export(struct ah_device *dev, void *base, size_t bytes, void *handle);
hipError_t ah_nv_ipc_mem_open(struct ah_device *dev, const void *handle, void **base,
                              size_t *bytes);
hipError_t ah_nv_ipc_mem_close(struct ah_device *dev, void *base);
hipError_t ah_nv_ipc_event_export(struct ah_device *dev, struct ah_dev_event *ev, void *handle);
hipError_t ah_nv_ipc_event_open(struct ah_device *dev, const void *handle,
                                struct ah_dev_event **ev);
hipError_t ah_nv_stream_memop(struct ah_device *dev, struct ah_queue *q,
                              const struct ah_memop_req *r);

/* ---- nvidia_module.c ---- */
/* Loads every registered image into nd's context and remembers nd so that
 * images registered later are loaded into it at once. Called by device_open
 * (and device_reset) with nd's context current. */
hipError_t ah_nv_modules_open(struct ah_nv_device *nd);
/* How many images are registered, and their total size. */
size_t ah_nv_images(size_t *bytes);
/* Unloads nd's modules and forgets its lookups (before a context reset). */
void ah_nv_modules_close(struct ah_nv_device *nd);
/* The kernel whose host function is fn, allowed to use `dyn_smem` bytes of
 * dynamic shared memory (raised through the function attribute when that is
 * over the default limit), or hipErrorInvalidDeviceFunction. Needs nd's
 * context current. */
hipError_t ah_nv_function(struct ah_nv_device *nd, const void *fn, size_t dyn_smem,
                          CUfunction *out);
hipError_t ah_nv_symbol_address(struct ah_device *dev, const void *host_symbol, void **out,
                                size_t *bytes);
hipError_t ah_nv_function_check(struct ah_device *dev, const void *fn);
hipError_t ah_nv_function_attributes(struct ah_device *dev, const void *fn,
                                     hipFuncAttributes *out);

/* ---- nvidia_occupancy.c ---- */
hipError_t ah_nv_occupancy(struct ah_device *dev, const void *fn, int threads, size_t shmem,
                           unsigned flags, int *blocks);

/* ---- nvidia_managed.c ---- */
hipError_t ah_nv_managed_hint(struct ah_device *dev, const struct ah_managed_hint *h);

/* ---- nvidia_array.c ---- */
hipError_t ah_nv_array_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                              struct ah_dev_array **out);
hipError_t ah_nv_array_destroy(struct ah_device *dev, struct ah_dev_array *array);
hipError_t ah_nv_mipmap_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                               unsigned levels, struct ah_dev_mipmap **out);
hipError_t ah_nv_mipmap_level(struct ah_device *dev, struct ah_dev_mipmap *mipmap, unsigned level,
                              struct ah_dev_array **out);
hipError_t ah_nv_mipmap_destroy(struct ah_device *dev, struct ah_dev_mipmap *mipmap);
hipError_t ah_nv_texture_create(struct ah_device *dev, const HIP_RESOURCE_DESC *res,
                                const HIP_TEXTURE_DESC *tex, const HIP_RESOURCE_VIEW_DESC *view,
                                uint64_t *out);
hipError_t ah_nv_texture_destroy(struct ah_device *dev, uint64_t tex);
hipError_t ah_nv_surface_create(struct ah_device *dev, struct ah_dev_array *array, uint64_t *out);
hipError_t ah_nv_surface_destroy(struct ah_device *dev, uint64_t surf);
/* Points the sides of c that are arrays in cmd (an AH_CMD_COPY_3D) at them. */
void ah_nv_copy3d_arrays(const struct ah_cmd *cmd, CUDA_MEMCPY3D *c);

/* ---- nvidia_vmm.c ---- */
/* Whether the driver and dev take virtual memory management (the attribute). */
int ah_nv_vmm_supported(struct ah_device *dev);
hipError_t ah_nv_vmm_granularity(struct ah_device *dev, int recommended, size_t *out);
hipError_t ah_nv_vmm_create(struct ah_device *dev, size_t bytes, int shareable, uint64_t *phys);
hipError_t ah_nv_vmm_release(struct ah_device *dev, uint64_t phys);
hipError_t ah_nv_vmm_export(struct ah_device *dev, uint64_t phys, int *fd);
hipError_t ah_nv_vmm_import(struct ah_device *dev, int fd, uint64_t *phys, size_t *bytes);
hipError_t ah_nv_vmm_reserve(struct ah_device *dev, size_t bytes, size_t alignment, void *hint,
                             void **out);
hipError_t ah_nv_vmm_address_free(struct ah_device *dev, void *base, size_t bytes);
hipError_t ah_nv_vmm_map(struct ah_device *dev, void *ptr, size_t bytes, uint64_t phys,
                         size_t offset);
hipError_t ah_nv_vmm_unmap(struct ah_device *dev, void *ptr, size_t bytes);
hipError_t ah_nv_vmm_set_access(struct ah_device *dev, void *ptr, size_t bytes,
                                const struct ah_vmm_access *acc, size_t n);

/* ---- nvidia_pool.c ---- */
hipError_t ah_nv_pool_create(struct ah_device *dev, uint64_t *pool);
hipError_t ah_nv_pool_destroy(struct ah_device *dev, uint64_t pool);
hipError_t ah_nv_pool_alloc(struct ah_device *dev, uint64_t pool, size_t bytes, void **out);
hipError_t ah_nv_pool_free(struct ah_device *dev, void *ptr);
hipError_t ah_nv_pool_export(struct ah_device *dev, uint64_t pool, int *fd);
hipError_t ah_nv_pool_import(struct ah_device *dev, int fd, uint64_t *pool);
hipError_t ah_nv_pool_export_ptr(struct ah_device *dev, void *ptr, void *data);
hipError_t ah_nv_pool_import_ptr(struct ah_device *dev, uint64_t pool, const void *data,
                                 void **out, void **base, size_t *bytes);

/* ---- nvidia_external.c ---- */
hipError_t ah_nv_ext_mem_import(struct ah_device *dev, const hipExternalMemoryHandleDesc *d,
                                uint64_t *mem);
hipError_t ah_nv_ext_mem_map(struct ah_device *dev, uint64_t mem, uint64_t offset, uint64_t bytes,
                             void **out);
hipError_t ah_nv_ext_mem_unmap(struct ah_device *dev, void *ptr);
hipError_t ah_nv_ext_mem_destroy(struct ah_device *dev, uint64_t mem);
hipError_t ah_nv_ext_sem_import(struct ah_device *dev, const hipExternalSemaphoreHandleDesc *d,
                                uint64_t *sem);
hipError_t ah_nv_ext_sem_signal(struct ah_device *dev, struct ah_queue *q, uint64_t sem,
                                const hipExternalSemaphoreSignalParams *p);
hipError_t ah_nv_ext_sem_wait(struct ah_device *dev, struct ah_queue *q, uint64_t sem,
                              const hipExternalSemaphoreWaitParams *p);
hipError_t ah_nv_ext_sem_destroy(struct ah_device *dev, uint64_t sem);

/* ---- nvidia_graph.c ---- */
hipError_t ah_nv_graph_build(struct ah_device *dev, const struct ah_gn *nodes, size_t n,
                             struct ah_dev_graph **out);
hipError_t ah_nv_graph_launch(struct ah_device *dev, struct ah_queue *q,
                              struct ah_dev_graph *graph);
hipError_t ah_nv_graph_set_kernel(struct ah_device *dev, struct ah_dev_graph *graph, size_t node,
                                  const struct ah_cmd *cmd);
void ah_nv_graph_destroy(struct ah_device *dev, struct ah_dev_graph *graph);

#endif
