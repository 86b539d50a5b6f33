/* SPDX-License-Identifier: MIT */
/* The runtime core's shared definitions: objects behind HIP's handles, the
 * device table, configuration, logging and the last-error machinery. Core
 * functions (ah_*) never validate user input and never set the last error;
 * src/api/ does both.
 *
 * Lock order: ah_devices_lock (init) -> device->lock -> stream -> event ->
 * the allocation map's lock. */
#ifndef AH_INTERNAL_H
#define AH_INTERNAL_H

#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../backends/backend.h"

#define AH_EXPORT __attribute__((visibility("default")))

/* ---- objects ------------------------------------------------------------ */

enum ah_kind {
  AH_KIND_STREAM = 1,
  AH_KIND_EVENT,
  AH_KIND_MODULE,
  AH_KIND_GRAPH,
  AH_KIND_MEMPOOL,
  AH_KIND_GRAPH_NODE,
  AH_KIND_GRAPH_EXEC,
  AH_KIND_FUNCTION, /* hipFunction_t of a loaded module */
  AH_KIND_RTC_PROGRAM, /* hiprtcProgram */
  AH_KIND_RTC_LINK,    /* hiprtcLinkState */
  AH_KIND_CONTEXT,     /* hipCtx_t: a device's primary context */
  AH_KIND_USER_OBJECT, /* hipUserObject_t (graphs) */
  AH_KIND_VMM_ALLOC,   /* hipMemGenericAllocationHandle_t (src/api/hip_vmm.c) */
  AH_KIND_ARRAY,       /* hipArray_t (src/core/array.c) */
  AH_KIND_MIPMAP,      /* hipMipmappedArray_t */
  AH_KIND_EXTMEM,      /* hipExternalMemory_t (src/core/external.c) */
  AH_KIND_EXTSEM,      /* hipExternalSemaphore_t */
};
#define AH_MAGIC 0x41485950u /* "AHYP" */

/* Every handle object starts with this header. */
struct ah_object {
  uint32_t magic;
  uint32_t kind;
  atomic_int refs;
};

/* init adds o to the registry of live objects (hipErrorOutOfMemory if it
 * cannot); fini removes it and clears the magic. */
hipError_t ah_object_init(struct ah_object *o, enum ah_kind kind);
void ah_object_fini(struct ah_object *o);
/* Returns o when it is a live object of `kind`, else NULL. Never reads
 * memory at a handle the registry does not hold, so garbage is safe. */
void *ah_object_cast(const void *o, enum ah_kind kind);

/* ---- devices ------------------------------------------------------------ */

struct ah_stream;

struct ah_device {
  int ordinal; /* HIP device number after ANYHIP_DEVICES/HIP_VISIBLE_DEVICES */
  const struct ah_backend *backend;
  void *impl;       /* backend state */
  struct ah_queue *null_queue; /* backend queue of the null stream, made by device_open */
  hipDeviceProp_t props;
  pthread_mutex_t lock; /* guards flags, limits, streams */
  unsigned flags;       /* hipSetDeviceFlags */
  size_t limits[3];     /* hipLimitStackSize, hipLimitPrintfFifoSize, hipLimitMallocHeapSize */
  struct ah_stream *streams; /* user streams, for hipDeviceReset */
  atomic_size_t mem_used;    /* device and managed bytes allocated (hipMemGetInfo) */
};

hipError_t ah_init_once(void);
/* Device memory through the backend, counted against props.totalGlobalMem:
 * device and managed allocations past the device's size fail with
 * hipErrorOutOfMemory (docs/semantics.md, "Memory accounting"). Pinned and
 * registered host memory is not counted. Any thread, no lock held. */
hipError_t ah_device_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                               unsigned flags, void **out);
hipError_t ah_device_mem_free(struct ah_device *dev, void *ptr, size_t bytes,
                              enum ah_mem_kind kind);
int ah_device_count(void);
struct ah_device *ah_device_get(int ordinal); /* NULL when out of range */
/* A device argument: hipErrorNoDevice without devices, hipErrorInvalidDevice out of range. */
hipError_t ah_device_arg(int ordinal, struct ah_device **out);
/* hipGetDeviceProperties of a device argument (prop NULL: hipErrorInvalidValue). */
hipError_t ah_device_props(hipDeviceProp_t *prop, int deviceId);
/* hipChooseDevice: the device meeting most of the requested (nonzero)
 * properties, ties to the lowest ordinal. */
hipError_t ah_device_choose(int *device, const hipDeviceProp_t *prop);
/* Whether an array of shape d fits the device's limits for textures or for surfaces
 * (CUDA's tables; a limit the device reports as 0 is none we know). */
enum ah_array_use { AH_ARRAY_TEXTURE, AH_ARRAY_SURFACE };
int ah_array_fits(const hipDeviceProp_t *p, enum ah_array_use use, const HIP_ARRAY3D_DESCRIPTOR *d);
/* dev's flags (hipSetDeviceFlags, hipCtxCreate) and limits (hipDeviceSetLimit:
 * the backend's set_limit first; the value set is what is read back), each
 * read and set under dev's lock. The limit is one HIP knows. */
unsigned ah_device_flags(struct ah_device *dev);
void ah_device_set_flags(struct ah_device *dev, unsigned flags);
size_t ah_device_limit(struct ah_device *dev, hipLimit_t limit);
hipError_t ah_device_set_limit(struct ah_device *dev, hipLimit_t limit, size_t value);
/* device_reset.c. hipDeviceReset's work on dev: every stream, event,
 * allocation and pool block of dev destroyed or freed, flags and peer grants
 * forgotten, the backend's reset; other threads are kept out meanwhile. */
hipError_t ah_device_reset(struct ah_device *dev);
/* Whether dev may reach peer's memory (hipDeviceCanAccessPeer); granting
 * and ending that access (hipErrorPeerAccessAlreadyEnabled,
 * hipErrorPeerAccessNotEnabled as HIP says). */
int ah_peer_can_access(struct ah_device *dev, struct ah_device *peer);
hipError_t ah_peer_enable(struct ah_device *dev, struct ah_device *peer);
hipError_t ah_peer_disable(struct ah_device *dev, struct ah_device *peer);
/* The calling host thread's current device (hipSetDevice; default 0). NULL
 * when there are no devices: entry points then return hipErrorNoDevice. */
struct ah_device *ah_current_device(void);
int ah_current_ordinal(void);
void ah_set_current_ordinal(int ordinal);

/* ---- streams and events ------------------------------------------------- */

struct ah_stream {
  struct ah_object obj;
  struct ah_device *dev;
  struct ah_queue *queue; /* backend queue */
  unsigned flags;
  int priority;
  uint32_t *cu_mask;      /* hipExtStreamCreateWithCUMask's mask (malloc'd), or NULL */
  uint32_t cu_mask_words;
  struct ah_stream *next; /* in dev->streams */
};

struct ah_event {
  struct ah_object obj;
  struct ah_device *dev;
  struct ah_dev_event *impl; /* backend event */
  unsigned flags;
  atomic_int recorded; /* hipEventElapsedTime needs both; set by concurrent records */
  struct ah_ipc_event *ipc; /* shared with other processes (core/ipc_event.c), or NULL */
  /* The last record's queue and the pool frees it follows (core/mempool.c):
   * pool_seq under mempool.c's lock; pool_q atomic too, as a record with no
   * pool in the process clears it without that lock (records may race). */
  _Atomic(struct ah_queue *) pool_q;
  uint64_t pool_seq;
};

/* Resolves a user stream handle: NULL and hipStreamLegacy are the current
 * device's null stream, hipStreamPerThread the thread's own stream. Returns
 * hipErrorInvalidHandle (or hipErrorContextIsDestroyed) for a bad handle. On
 * success *dev and *queue say where to submit. */
hipError_t ah_stream_resolve(hipStream_t s, struct ah_device **dev, struct ah_queue **queue);

/* ---- allocation map ----------------------------------------------------- */

struct ah_alloc {
  uintptr_t base;
  size_t bytes;
  struct ah_device *dev;
  enum ah_mem_kind kind;
  unsigned flags;
  void *device_ptr; /* the device-side address (host memory mapped to device) */
  void *host_ptr;   /* the host-side address, NULL for device memory */
  size_t pitch;     /* hipMallocPitch, else 0 */
  void *pool_block; /* hipMallocAsync memory: its block in core/mempool.c, else NULL */
  int origin;       /* AH_ORIGIN_*: who made the range (and so who may free it) */
  uint32_t id;      /* set by ah_alloc_insert: unique in the process (HIP_POINTER_ATTRIBUTE_BUFFER_ID) */
  int sync_memops;  /* HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS (hipPointerSetAttribute) */
};
/* ah_alloc.origin: ranges not made by an allocation call are not hipFree's. */
enum {
  AH_ORIGIN_ALLOC = 0,
  AH_ORIGIN_VMM,     /* hipMemMap */
  AH_ORIGIN_IPC,     /* hipIpcOpenMemHandle */
  AH_ORIGIN_VARIABLE, /* a __managed__ variable: the program's storage, never freed */
  AH_ORIGIN_EXTERNAL  /* hipExternalMemoryGetMappedBuffer: hipFree unmaps it (core/external.c) */
};
/* hipFree of an AH_ORIGIN_EXTERNAL buffer at ptr (its start), the device synchronized. */
hipError_t ah_extmem_buffer_free(void *ptr);

hipError_t ah_alloc_insert(const struct ah_alloc *a);
/* Finds the allocation holding addr (device or host side); copies it to *out. */
int ah_alloc_find(const void *addr, struct ah_alloc *out);
/* Sets HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS of the allocation holding addr;
 * 0 when there is none. */
int ah_alloc_set_sync_memops(const void *addr, int on);
/* Removes the allocation starting exactly at base (and of `kind` if nonzero). */
int ah_alloc_remove(const void *base, enum ah_mem_kind kind, struct ah_alloc *out);
/* Removes every allocation of dev (hipDeviceReset); calls free_fn on each. */
void ah_alloc_remove_device(struct ah_device *dev, void (*free_fn)(const struct ah_alloc *));
/* A __managed__ variable hipcc registered (any time, before main too): once
 * the devices are open (ah_alloc_publish_variables, at initialization) it is
 * managed memory of device 0 when that device's memory is host memory, so
 * hipMemset, hipStreamAttachMemAsync and hipPointerGetAttributes know it. */
void ah_alloc_note_variable(const void *var, size_t size);
void ah_alloc_publish_variables(void);

/* ---- stream-ordered allocator (core/mempool.c) ------------------------- */

/* Returns the block at ptr to its pool: at once with q NULL (hipFree, after a
 * device sync), else when queue q of dev reaches this point. */
hipError_t ah_mempool_free(void *ptr, struct ah_device *dev, struct ah_queue *q);
/* After a successful stream, event or device sync: pools of dev give back
 * freed memory above their release threshold. Cheap when no pool is used. */
void ah_mempool_sync(struct ah_device *dev);
/* Event dependencies (hipMemPoolReuseFollowEventDependencies): a record of
 * e on queue q notes the pool frees queued on q so far; a wait of queue q on
 * e makes q ordered after them (and after what e's queue was ordered after). */
void ah_mempool_note_record(struct ah_event *e, struct ah_queue *q);
void ah_mempool_note_wait(struct ah_queue *q, const struct ah_event *e);
/* hipDeviceReset, after the device sync: drops dev's pools and their memory. */
void ah_mempool_reset_device(struct ah_device *dev);

/* ---- kernels ------------------------------------------------------------ */

/* Remembers the parameter layout of a kernel, for hipLaunchKernel. */
void ah_kernel_register(const void *fn, const ahKernelSig *sig);
void ah_kernel_register_bounds(const void *fn, const ahKernelSig *sig, unsigned max_threads);
const ahKernelSig *ah_kernel_sig(const void *fn);
unsigned ah_kernel_max_threads(const void *fn);
/* Static __shared__ bytes of a kernel built by anyhip's kernel compiler
 * (__ahCpuRegisterShared); 0 when not known. */
void ah_kernel_set_static_shared(const void *fn, size_t bytes);
size_t ah_kernel_static_shared(const void *fn);
/* A kernel whose body hipcc saw empty (`{}`): the CPU device runs no block of it. */
void ah_kernel_set_empty(const void *fn);
int ah_kernel_empty(const void *fn);

/* ---- stream capture (core/capture.c) ------------------------------------ */

struct ah_event;
/* Streams capturing now; while it is 0 ah_submit is the backend's submit. */
extern atomic_int ah_capture_count;
/* ah_submit's slow path: cmd becomes a node of the graph q captures into
 * (its kernel arguments copied), or is refused on the null stream while a
 * capture forbids that; otherwise it is submitted. */
hipError_t ah_capture_submit(struct ah_device *dev, struct ah_queue *q, const struct ah_cmd *cmd,
                             int wait);
/* Nonzero while this thread runs a host function (hipLaunchHostFunc, a
 * stream callback, a graph host node). A call that would wait for the
 * device from there could wait for the host function itself, forever: it
 * returns hipErrorNotPermitted instead, as in CUDA (docs/semantics.md). */
extern _Thread_local int ah_in_host_fn;
/* Runs a host function with ah_in_host_fn set; the backends call this. */
/* The bucket of a code or data address in a power-of-two hash table of
 * mask + 1 slots (the kernel registries): a 64-bit mix, as addresses of
 * neighbouring functions differ in few bits. */
static inline size_t ah_addr_slot(const void *p, size_t mask) {
  uint64_t h = (uint64_t)(uintptr_t)p;

  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h & mask;
}

static inline void ah_host_fn_call(void (*fn)(void *), void *data) {
  ah_in_host_fn++;
  fn(data);
  ah_in_host_fn--;
}
#define AH_NOT_IN_HOST_FN() AH_REQUIRE(ah_in_host_fn == 0, hipErrorNotPermitted)

/* The submit path of every entry point in src/api/. A waiting submit is
 * refused inside a host function (see ah_in_host_fn). */
static inline hipError_t ah_submit(struct ah_device *dev, struct ah_queue *q,
                                   const struct ah_cmd *cmd, int wait) {
  if (wait && ah_in_host_fn != 0)
    return hipErrorNotPermitted;
  if (atomic_load_explicit(&ah_capture_count, memory_order_relaxed) != 0)
    return ah_capture_submit(dev, q, cmd, wait);
  return dev->backend->submit(dev, q, cmd, wait);
}
/* hipEventRecord / hipStreamWaitEvent on a capturing queue (or of a captured
 * event): *done set when the capture took the call (cross-stream edges). */
hipError_t ah_capture_event_record(struct ah_queue *q, struct ah_event *e, int *done);
hipError_t ah_capture_wait_event(struct ah_device *dev, struct ah_queue *q, struct ah_event *e,
                                 int *done);
/* hipErrorStreamCaptureUnsupported when q captures (and invalidates that
 * capture): a synchronizing call cannot be part of a graph. */
hipError_t ah_capture_check_sync(struct ah_queue *q);
/* hipStreamDestroy: q's capture ends and is discarded (for the stream that
 * began it, the whole capture). */
void ah_capture_drop(struct ah_queue *q);

/* ---- configuration (read once from the environment) --------------------- */

/* The core's settings; each backend owns its own (cpu_internal.h,
 * nvidia_internal.h) and reads them with the ah_env_* readers below. */
struct ah_config {
  const char *devices; /* ANYHIP_DEVICES, NULL for the default order */
  const char *visible; /* HIP_VISIBLE_DEVICES */
  unsigned log;        /* ANYHIP_LOG areas */
  int graph_native;    /* ANYHIP_GRAPH_NATIVE: device-native executable graphs (1) */
};
extern struct ah_config ah_config;
void ah_config_load(void);
/* An integer in [min, max]; def when unset. A size such as 8G, 512M, 65536
 * (K, M, G, T: powers of 1024), 0 when unset. Seconds, fractions allowed, 0
 * to a day; def when unset. A bad value is reported on stderr and means the
 * default. */
long ah_env_long(const char *name, long def, long min, long max);
size_t ah_env_size(const char *name);
double ah_env_seconds(const char *name, double def);

/* ---- logging ------------------------------------------------------------ */

enum { AH_LOG_API = 1, AH_LOG_CPU = 2, AH_LOG_NVIDIA = 4, AH_LOG_INIT = 8 };
void ah_log(const char *area, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define AH_LOG(area, ...)                          \
  do {                                             \
    if (ah_config.log & AH_LOG_##area)             \
      ah_log(#area, __VA_ARGS__);                  \
  } while (0)

/* ---- tracing (trace.c): ANYHIP_TRACE=FILE --------------------------------- */

extern int ah_trace_on; /* set once, when the library loads */
uint64_t ah_trace_now(void);
/* An API call being traced: name is NULL when tracing is off. */
struct ah_trace_span {
  const char *name;
  uint64_t t0;
};
void ah_trace_api(const struct ah_trace_span *s);
struct ah_cmd;
/* One command (AH_CMD_* in op) a device ran from t0 until now. */
void ah_trace_cmd(const struct ah_cmd *cmd, int op, uint64_t t0);
/* hipProfilerStop (1) and hipProfilerStart (0): nothing is written while paused. */
void ah_trace_pause(int paused);

static inline struct ah_trace_span ah_trace_begin(const char *name) {
  struct ah_trace_span s = {NULL, 0};

  if (ah_trace_on) {
    s.name = name;
    s.t0 = ah_trace_now();
  }
  return s;
}

static inline void ah_trace_end(struct ah_trace_span *s) {
  if (s->name != NULL)
    ah_trace_api(s);
}

/* ---- errors (src/api/ only) --------------------------------------------- */

/* Records err as the calling thread's last error and logs it; returns err. */
hipError_t ah_fail(hipError_t err, const char *func, const char *what);
hipError_t ah_last_error_take(void);
hipError_t ah_last_error_peek(void);
const char *ah_error_name(hipError_t err);
const char *ah_error_string(hipError_t err);

#define AH_REQUIRE(c, err)                       \
  do {                                           \
    if (!(c))                                    \
      return ah_fail((err), __func__, #c);       \
  } while (0)
#define AH_REQUIRE_OK(x)                         \
  do {                                           \
    hipError_t e_ = (x);                         \
    if (e_ != hipSuccess)                        \
      return ah_fail(e_, __func__, #x);          \
  } while (0)
#define AH_RETURN(x)                             \
  do {                                           \
    AH_REQUIRE_OK(x);                            \
    return hipSuccess;                           \
  } while (0)
/* The reset gate (core/gate.c): every entry point counts itself in this
 * thread's slot while it runs, so that hipDeviceReset can wait until no other
 * thread is inside the runtime before it frees streams and queues (a call
 * that arrives during a reset waits for it). One TLS store and one load per
 * call, no shared cache line. */
struct ah_gate_slot {
  atomic_int depth; /* entry points of this thread now running */
  atomic_int free;  /* the thread has exited; the slot is reused */
  struct ah_gate_slot *next;
};
extern _Thread_local struct ah_gate_slot *ah_gate_mine;
extern atomic_int ah_gate_closed;
struct ah_gate_slot *ah_gate_wait(struct ah_gate_slot *s); /* slow path */
static inline struct ah_gate_slot *ah_gate_enter(void) {
  struct ah_gate_slot *s = ah_gate_mine;

  if (s != NULL && atomic_load_explicit(&s->depth, memory_order_relaxed) != 0) {
    atomic_fetch_add_explicit(&s->depth, 1, memory_order_relaxed); /* nested */
    return s;
  }
  if (s == NULL || atomic_load_explicit(&ah_gate_closed, memory_order_relaxed))
    return ah_gate_wait(s);
  atomic_store(&s->depth, 1); /* seq_cst: ordered before the load below */
  if (atomic_load(&ah_gate_closed))
    return ah_gate_wait(s);
  return s;
}
static inline void ah_gate_leave(struct ah_gate_slot **s) {
  if (*s != NULL)
    atomic_fetch_sub_explicit(&(*s)->depth, 1, memory_order_release);
}
/* hipDeviceReset: closes the gate and waits until every other thread is
 * out of the runtime; open reopens it. */
void ah_gate_close(void);
void ah_gate_open(void);

/* Starts every entry point: the span ends (and is traced) at any return. */
#define AH_ENTER()                                                                 \
  struct ah_gate_slot *ah_gate_ __attribute__((cleanup(ah_gate_leave))) =        \
      ah_gate_enter();                                                           \
  struct ah_trace_span ah_span_ __attribute__((cleanup(ah_trace_end))) =         \
      ah_trace_begin(__func__);                                                  \
  AH_REQUIRE_OK(ah_init_once())

#endif
