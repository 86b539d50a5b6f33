/* SPDX-License-Identifier: MIT */
/* The one seam between the runtime core and a device backend. Each backend
 * defines one const struct ah_backend (named ah_backend_<name>) and is listed
 * once in backends.def. The core never asks which backend it talks to.
 *
 * Contracts common to every op:
 *  - Called from any host thread, with no core lock held, after the core has
 *    validated every argument (handles resolved, sizes checked, pointers known).
 *  - Return hipSuccess or a HIP error code; never touch the thread's last error.
 *  - `q` is a queue handle the backend made in queue_create (the device's null
 *    stream is made at device_open and lives in dev->null_queue).
 *  - Asynchronous failures (a kernel fault) are kept by the backend and
 *    returned by the next queue_sync/queue_query/device_sync of that device. */
#ifndef AH_BACKEND_H
#define AH_BACKEND_H

#include <hip/hip_runtime_api.h>
#include <hip/anyhip/common/launch_abi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct ah_device;
/* A backend's queue (a stream's), event, executable graph, array and
 * mipmapped array: each backend defines its own and converts these pointers
 * to them; the core only keeps and passes them. Distinct types, so that one
 * is never passed for another. (Texture and surface objects are the
 * backend's 64-bit handles, as in HIP.) */
struct ah_queue;
struct ah_dev_event;
struct ah_dev_graph;
struct ah_dev_array;
struct ah_dev_mipmap;

/* Kinds of allocation; the core's allocation map stores one per range. */
enum ah_mem_kind {
  AH_MEM_DEVICE = 1, /* hipMalloc, hipMallocPitch */
  AH_MEM_HOST,       /* hipHostMalloc: pinned host memory, device-visible */
  AH_MEM_REGISTERED, /* hipHostRegister: the user's host memory */
  AH_MEM_MANAGED,    /* hipMallocManaged */
};

/* One unit of queued work. submit() copies what it keeps (kernel arguments
 * included, through sig) before it returns; the caller's cmd is gone after. */
enum ah_cmd_kind {
  AH_CMD_KERNEL = 1,
  AH_CMD_COPY,    /* 1D copy */
  AH_CMD_COPY_2D, /* pitched copy */
  AH_CMD_COPY_3D, /* pitched copy of depth slices (hipMemcpy3D) */
  AH_CMD_SET,     /* memset of 1, 2 or 4 byte elements, 1D or 2D */
  AH_CMD_HOST_FN, /* hipLaunchHostFunc / hipStreamAddCallback */
};

/* The grids of one hipLaunchCooperativeKernelMultiDevice, as
 * this_multi_grid() sees them: made by the core (launch_multi.c) with one
 * reference per grid. A backend keeps its multi-grid barrier in `impl`, made
 * by the first grid to start (under `lock`) and freed with impl_free by the
 * last release. */
#define AH_MULTI_GRID_MAX 64
struct ah_multi_grid {
  unsigned count;                      /* grids */
  uint64_t blocks;                     /* blocks of every grid */
  uint64_t threads;                    /* threads of every grid: the group's size */
  uint64_t first[AH_MULTI_GRID_MAX];   /* the multi-grid rank of each grid's thread 0 */
  uint64_t grid_blocks[AH_MULTI_GRID_MAX];
  pthread_mutex_t lock;
  uint64_t absent; /* blocks of grids that never ran or returned at once (lock held) */
  int failed;      /* a grid never ran (lock held) */
  void *impl;
  void (*impl_free)(void *impl);
  /* `blocks` blocks leave impl's barrier without arriving (returned, or never
   * ran: then with `failed`, which ends the others' waits). */
  void (*impl_leave)(void *impl, uint64_t blocks, int failed);
  _Atomic unsigned refs;
};
/* `blocks` blocks of m will not arrive at its barrier (that never ran:
 * `failed`, which ends the other blocks' waits with a failure). */
void ah_multi_grid_leave(struct ah_multi_grid *m, uint64_t blocks, int failed);
/* Grid `rank` of m ran no block: ah_multi_grid_leave of all its blocks, then
 * ah_multi_grid_release of its reference. */
void ah_multi_grid_drop(struct ah_multi_grid *m, unsigned rank, int failed);
/* Drops one grid's reference; the last frees m (and impl). */
void ah_multi_grid_release(struct ah_multi_grid *m);

struct ah_cmd {
  enum ah_cmd_kind kind;
  union {
    struct {
      const void *fn;          /* the kernel's host address: its identity */
      const ahKernelSig *sig;  /* parameter layout; NULL only if the backend needs none */
      dim3 grid, block;
      size_t shared_bytes;     /* dynamic shared memory */
      void **args;             /* args[i] points at argument i */
      int cooperative;         /* all blocks resident at once (grid sync) */
      /* One grid of a cooperative multi-device launch (multi_grid_group), its
       * rank there; NULL otherwise. Only a backend with multi_grid set gets one,
       * and releases it (ah_multi_grid_release) once the grid is done or skipped. */
      struct ah_multi_grid *multi;
      unsigned multi_rank;
    } kernel;
    struct {
      void *dst;
      const void *src;
      size_t bytes;
      hipMemcpyKind kind; /* resolved: never hipMemcpyDefault */
    } copy;
    struct {
      void *dst;
      size_t dpitch;
      const void *src;
      size_t spitch;
      size_t width, height; /* width in bytes */
      hipMemcpyKind kind;
    } copy2d;
    /* depth slices of height rows of width bytes. dst/src point at the box's
     * first byte; rows are pitch bytes apart and slices slice_rows * pitch
     * (slice_rows >= height). The core checked the ranges and sends a box
     * whose slices are contiguous (slice_rows == height) as AH_CMD_COPY_2D. */
    struct {
      void *dst;
      size_t dpitch, dslice_rows;
      const void *src;
      size_t spitch, sslice_rows;
      size_t width, height, depth; /* width in bytes */
      hipMemcpyKind kind;          /* resolved: never hipMemcpyDefault */
      /* A side whose array is set is that backend array (array_create's) from position
       * (x in bytes, y, z); its pointer, pitch and slice_rows are then unused. Only a
       * backend with array_create gets these (src/core/array.c). */
      struct ah_dev_array *dst_array;
      const struct ah_dev_array *src_array;
      size_t dst_pos[3], src_pos[3];
    } copy3d;
    struct {
      void *dst;
      uint32_t value;      /* the element value, low bytes used */
      unsigned elem_size;  /* 1, 2 or 4 */
      size_t count;        /* elements per row */
      size_t pitch;        /* bytes between rows */
      size_t height;       /* rows; 1 for 1D */
      int host;            /* dst is host memory (pinned or registered) */
    } set;
    struct {
      void (*fn)(void *data);
      void *data;
    } host_fn;
  };
};

/* A managed-memory hint for the managed_hint op. The range is managed
 * memory of the device the op belongs to, or system memory. */
enum ah_hint_kind {
  AH_HINT_ADVISE = 1, /* hipMemAdvise: advice about target */
  AH_HINT_PREFETCH,   /* hipMemPrefetchAsync: move to target, in q's order */
  AH_HINT_ATTACH,     /* hipStreamAttachMemAsync: flags, in q's order */
};
struct ah_managed_hint {
  enum ah_hint_kind kind;
  const void *ptr;
  size_t bytes;            /* ATTACH: 0 means the whole allocation */
  hipMemoryAdvise advice;  /* ADVISE */
  struct ah_device *target; /* ADVISE, PREFETCH: NULL is the host (hipCpuDeviceId); may
                             * be a device of another backend */
  struct ah_queue *q;       /* PREFETCH, ATTACH: a queue of this device */
  unsigned flags;          /* ATTACH: hipMemAttachGlobal, Host or Single */
};

/* hipStreamWaitValue32/64 and hipStreamWriteValue32/64 (the stream_memop op). */
struct ah_memop_req {
  void *ptr;            /* the word: memory of this device's backend, checked */
  uint64_t value, mask; /* mask: all ones for a write */
  unsigned op;          /* a wait's hipStreamWaitValue* */
  int wide;             /* 64-bit word */
  int write;
};

/* One node of a graph handed to the graph_build op. Nodes come in a
 * dependency order: deps[] are indices of earlier nodes of the same list. */
enum ah_gn_kind {
  AH_GN_EMPTY = 1, /* runs nothing: an empty node, a disabled node, a child graph's end */
  AH_GN_CMD,       /* runs cmd: AH_CMD_KERNEL, AH_CMD_COPY*, AH_CMD_SET */
  AH_GN_EVENT_RECORD, /* records ev (an event of this device) */
  AH_GN_EVENT_WAIT,   /* waits for ev's last record (an event of this device) */
};
struct ah_gn {
  enum ah_gn_kind kind;
  const struct ah_cmd *cmd; /* AH_GN_CMD; a kernel's args valid during graph_build only */
  struct ah_dev_event *ev;  /* AH_GN_EVENT_*: the backend event */
  const size_t *deps;
  size_t ndeps;
};

/* One device's access to a virtual memory mapping (the vmm_set_access op). */
struct ah_vmm_access {
  struct ah_device *dev; /* a device of the op's backend */
  unsigned flags;        /* hipMemAccessFlags */
};

/* The virtual memory ops (hipMemCreate and friends, src/core/vmm.c): all set or all NULL. */
#define AH_BACKEND_VMM(X)                                                                          \
  X(vmm_granularity)                                                                               \
  X(vmm_create) X(vmm_release) X(vmm_export) X(vmm_import) X(vmm_reserve) X(vmm_address_free)     \
      X(vmm_map) X(vmm_unmap) X(vmm_set_access)

/* Shareable stream-ordered pools of the device itself (the pool_* ops): all set or all NULL. */
#define AH_BACKEND_POOL(X)                                                                         \
  X(pool_create) X(pool_destroy) X(pool_alloc) X(pool_free) X(pool_export) X(pool_import)          \
      X(pool_export_ptr) X(pool_import_ptr)

/* External memory and semaphores of the device itself (the ext_* ops): all set or all NULL. */
#define AH_BACKEND_EXTERNAL(X)                                                                     \
  X(ext_mem_import) X(ext_mem_map) X(ext_mem_unmap) X(ext_mem_destroy) X(ext_sem_import)           \
      X(ext_sem_signal) X(ext_sem_wait) X(ext_sem_destroy)

/* The ops every backend fills: ah_backend_missing (registry.c) checks them
 * once, before the backend is probed, and a backend lacking one is not used.
 * The core calls them without a NULL check. */
#define AH_BACKEND_REQUIRED(X)                                                                     \
  X(probe)                                                                                         \
  X(device_open) X(device_sync) X(mem_alloc) X(mem_free) X(queue_create) X(queue_destroy)          \
      X(submit) X(queue_sync) X(queue_query) X(event_create) X(event_destroy) X(event_record)      \
          X(event_query) X(event_sync) X(event_elapsed) X(queue_wait_event)

/* Every other op is optional: NULL means the fallback its comment names,
 * which the core applies in one place, the wrapper ah_dev_<op> of
 * core/device_ops.h. Ops that go together (the ipc_mem trio, the two
 * ipc_event ops, graph_build with graph_launch and graph_destroy) are all set
 * or all NULL; registry.c checks that too. */
struct ah_backend {
  const char *name; /* matched against ANYHIP_DEVICES only */
  /* Device memory is host memory at the same address (the CPU's): the core
   * then reads it itself (stream memory operations, arrays and textures,
   * docs/memory.md). */
  int host_addressable;
  /* The core checks a kernel's static __shared__ bytes (counted by hipcc's
   * CPU pass) against the device's limit at launch; 0 where the driver checks
   * its own (NVIDIA's). */
  int checks_static_shared;
  /* The device runs PTX for its compute capability (props.major, .minor):
   * hiprtc compiles for compute_<major><minor> when it is the current device;
   * 0 where kernels are host code built by hipcc (the CPU's). */
  int runs_ptx;
  /* Runs the grids of a cooperative multi-device launch together, with
   * multi_grid_group's barrier across them (each kernel command's `multi`). */
  int multi_grid;

  /* ---- devices ---- */
  /* Required. probe runs once, under the init lock, after the backend read
   * its settings; returns how many devices this backend has (0 is fine: no
   * driver, no devices). device_open fills dev->props, dev->impl and
   * dev->null_queue for device `index`. device_sync waits for every queue of
   * dev and returns a stored asynchronous failure. */
  int (*probe)(void);
  hipError_t (*device_open)(int index, struct ah_device *dev);
  hipError_t (*device_sync)(struct ah_device *dev);
  /* Optional (NULL: nothing to reset). After the core freed dev's objects. */
  hipError_t (*device_reset)(struct ah_device *dev);
  /* Optional (NULL: free and total are props.totalGlobalMem). */
  hipError_t (*mem_info)(struct ah_device *dev, size_t *free_bytes, size_t *total_bytes);
  /* Optional (NULL: hipErrorInvalidValue). An attribute the core cannot
   * derive from dev->props. */
  hipError_t (*attribute)(struct ah_device *dev, hipDeviceAttribute_t attr, int *value);
  /* Optional (NULL: the core keeps the value as given). The backend may
   * round the value; it stores what it honours. */
  hipError_t (*set_limit)(struct ah_device *dev, hipLimit_t limit, size_t value);
  /* Optional (NULL: every device of the backend reaches every other through
   * one address space, the CPU's). Peer access between two devices of this
   * backend, and turning it on or off (NULL: nothing to do). */
  int (*can_access_peer)(struct ah_device *dev, struct ah_device *peer);
  hipError_t (*peer_enable)(struct ah_device *dev, struct ah_device *peer, int enable);
  /* Optional: attribute attr (hipDeviceP2PAttr) of the link from dev to peer,
   * two devices of this backend that reach each other. NULL: the core's
   * answer for devices of one address space (rank 0; access, native atomics
   * and array access 1). */
  hipError_t (*p2p_attribute)(struct ah_device *dev, struct ah_device *peer, hipDeviceP2PAttr attr,
                              int *value);

  /* ---- memory (synchronous) ---- */
  /* Required. */
  hipError_t (*mem_alloc)(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                          unsigned flags, void **out);
  hipError_t (*mem_free)(struct ah_device *dev, void *ptr, enum ah_mem_kind kind);
  /* Optional (NULL: hipHostRegister is hipErrorNotSupported). Returns the
   * device-side address; unregister ends what register began. */
  hipError_t (*host_register)(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags,
                              void **device_ptr);
  hipError_t (*host_unregister)(struct ah_device *dev, void *ptr);

  /* ---- queues ---- */
  /* Required. queue_destroy may return before the queue's work is done (as
   * hipStreamDestroy does); that work still runs, and device_sync waits for
   * it. submit enqueues cmd on q with HIP's null-stream rules
   * (dev->null_queue is the null stream); with `wait` set, it returns only
   * once cmd has completed. queue_query: hipSuccess or hipErrorNotReady. */
  hipError_t (*queue_create)(struct ah_device *dev, unsigned flags, int priority,
                             struct ah_queue **q);
  hipError_t (*queue_destroy)(struct ah_device *dev, struct ah_queue *q);
  hipError_t (*submit)(struct ah_device *dev, struct ah_queue *q, const struct ah_cmd *cmd,
                       int wait);
  hipError_t (*queue_sync)(struct ah_device *dev, struct ah_queue *q);
  hipError_t (*queue_query)(struct ah_device *dev, struct ah_queue *q);

  /* ---- events ---- */
  /* Required. queue_wait_event makes q wait for ev's last record. */
  hipError_t (*event_create)(struct ah_device *dev, unsigned flags, struct ah_dev_event **ev);
  hipError_t (*event_destroy)(struct ah_device *dev, struct ah_dev_event *ev);
  hipError_t (*event_record)(struct ah_device *dev, struct ah_queue *q, struct ah_dev_event *ev);
  hipError_t (*event_query)(struct ah_device *dev, struct ah_dev_event *ev);
  hipError_t (*event_sync)(struct ah_device *dev, struct ah_dev_event *ev);
  hipError_t (*event_elapsed)(struct ah_device *dev, struct ah_dev_event *start,
                              struct ah_dev_event *stop, float *ms);
  hipError_t (*queue_wait_event)(struct ah_device *dev, struct ah_queue *q,
                                 struct ah_dev_event *ev);

  /* ---- device code ---- */
  /* Optional (NULL: hipErrorInvalidSymbol). The device copy of a
   * __device__, __constant__ or __managed__ variable from its host address. */
  hipError_t (*symbol_address)(struct ah_device *dev, const void *host_symbol, void **out,
                               size_t *bytes);
  /* Optional (NULL: every registered kernel runs here). Checks that the
   * device has code for kernel `fn`. */
  hipError_t (*function_check)(struct ah_device *dev, const void *fn);
  /* Optional: the compiled kernel's attributes (registers, static shared
   * memory...). NULL: the core answers from the device's limits (launch.c
   * for hipFuncGetAttributes, occupancy.c's model for occupancy). */
  hipError_t (*function_attributes)(struct ah_device *dev, const void *fn,
                                    hipFuncAttributes *out);
  /* Optional: the most blocks of `threads` threads, with `shmem` bytes of
   * dynamic shared memory each, that a cooperative launch may have (all
   * resident at once); a larger grid fails with
   * hipErrorCooperativeLaunchTooLarge before anything is queued. NULL: the
   * backend's submit checks it (the CUDA driver does). */
  uint64_t (*coop_max_blocks)(struct ah_device *dev, unsigned threads, size_t shmem);
  /* Optional: how many blocks of `threads` threads (1..maxThreadsPerBlock),
   * each with `shmem` bytes of dynamic shared memory, kernel fn can keep
   * resident on one multiprocessor (0 when none fits); flags are
   * hipOccupancy*. NULL: the core's model from dev->props and
   * function_attributes (docs/occupancy.md). */
  hipError_t (*occupancy)(struct ah_device *dev, const void *fn, int threads, size_t shmem,
                          unsigned flags, int *blocks);

  /* ---- memory hints and stream memory operations ---- */
  /* Optional: pass a managed-memory hint on to the device (the core has
   * checked the range, the device and the queue, and keeps what
   * hipMemRangeGetAttribute reports itself). NULL: nothing to tell it. */
  hipError_t (*managed_hint)(struct ah_device *dev, const struct ah_managed_hint *hint);
  /* Optional: a stream memory operation queued on q by the device itself.
   * hipErrorNotSupported (or NULL) sends it to the core's fallback, a host
   * function that polls or writes the word; a backend without this op has
   * device memory the host can address directly (the CPU's). */
  hipError_t (*stream_memop)(struct ah_device *dev, struct ah_queue *q,
                             const struct ah_memop_req *req);

  /* ---- interprocess sharing ---- */
  /* Optional, the three together: interprocess memory (hipIpc*MemHandle).
   * export writes a handle (at most 64 bytes, zeroed by the caller) naming
   * the device allocation [base, base + bytes); open maps a handle made by
   * another process and gives the allocation's address and size here
   * (hipErrorInvalidContext for a handle of this process); close unmaps what
   * open gave. NULL: hipErrorNotSupported. */
  hipError_t (*ipc_mem_export)(struct ah_device *dev, void *base, size_t bytes, void *handle);
  hipError_t (*ipc_mem_open)(struct ah_device *dev, const void *handle, void **base,
                             size_t *bytes);
  hipError_t (*ipc_mem_close)(struct ah_device *dev, void *base);
  /* Optional, the two together: interprocess events of the device itself
   * (NVIDIA's). NULL: the core shares the event's state through shared
   * memory (the CPU's). */
  hipError_t (*ipc_event_export)(struct ah_device *dev, struct ah_dev_event *ev, void *handle);
  hipError_t (*ipc_event_open)(struct ah_device *dev, const void *handle, struct ah_dev_event **ev);

  /* ---- executable graphs ---- */
  /* Optional (graph_build, graph_launch and graph_destroy together):
   * executable graphs of the device itself (NVIDIA's CUgraphExec).
   * graph_build makes one from nodes[0..n) (*out), or answers
   * hipErrorNotSupported for a graph it cannot express (a node kind, host
   * memory it would have to read when the graph is made, a missing driver
   * entry point): the core then replays the graph command by command, as it
   * does for a backend without these ops (the CPU's). graph_launch queues
   * the whole graph on q (hipErrorNotSupported: the core drops the native
   * graph and replays); graph_set_kernel (optional by itself; NULL: the core
   * rebuilds) gives node `node` (an index into the list graph_build had, an
   * AH_CMD_KERNEL node) new parameters for later launches
   * (hipErrorNotSupported: the core rebuilds); graph_destroy frees it
   * (launches in flight still complete). */
  hipError_t (*graph_build)(struct ah_device *dev, const struct ah_gn *nodes, size_t n,
                            struct ah_dev_graph **out);
  hipError_t (*graph_launch)(struct ah_device *dev, struct ah_queue *q, struct ah_dev_graph *graph);
  hipError_t (*graph_set_kernel)(struct ah_device *dev, struct ah_dev_graph *graph, size_t node,
                                 const struct ah_cmd *cmd);
  void (*graph_destroy)(struct ah_device *dev, struct ah_dev_graph *graph);

  /* Optional (array_create and array_destroy together; the mipmap trio and
   * the texture and surface quartet only with them): arrays of the device
   * itself (NVIDIA's CUarray). array_create makes an array of shape d (sizes
   * in elements, checked by the core), mipmap_create a mipmapped one of
   * `levels` levels, mipmap_level gives a level's array (owned by the
   * mipmapped array). Copies reach them through AH_CMD_COPY_3D's array sides.
   * NULL: the core keeps an array in device memory from mem_alloc, rows
   * packed, which the kernels of a host_addressable backend read directly
   * (src/core/array.c). */
  hipError_t (*array_create)(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                             struct ah_dev_array **out);
  hipError_t (*array_destroy)(struct ah_device *dev, struct ah_dev_array *array);
  hipError_t (*mipmap_create)(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                              unsigned levels, struct ah_dev_mipmap **out);
  hipError_t (*mipmap_level)(struct ah_device *dev, struct ah_dev_mipmap *mipmap, unsigned level,
                             struct ah_dev_array **out);
  hipError_t (*mipmap_destroy)(struct ah_device *dev, struct ah_dev_mipmap *mipmap);
  /* Optional, with array_create: texture and surface objects of the device
   * itself. res names device memory and the backend's arrays (its hArray and
   * hMipmappedArray fields hold struct ah_dev_array * and struct
   * ah_dev_mipmap *, put there by the core), all checked; view may be NULL.
   * NULL: the core's descriptor, which the CPU kernel headers read
   * (hip/anyhip/common/texture_abi.h). */
  hipError_t (*texture_create)(struct ah_device *dev, const HIP_RESOURCE_DESC *res,
                               const HIP_TEXTURE_DESC *tex, const HIP_RESOURCE_VIEW_DESC *view,
                               uint64_t *out);
  hipError_t (*texture_destroy)(struct ah_device *dev, uint64_t tex);
  hipError_t (*surface_create)(struct ah_device *dev, struct ah_dev_array *array, uint64_t *out);
  hipError_t (*surface_destroy)(struct ah_device *dev, uint64_t surf);

  /* ---- virtual memory management ---- */
  /* Optional, all together (AH_BACKEND_VMM); NULL: hipErrorNotSupported (and the device's
   * hipDeviceAttributeVirtualMemoryManagementSupported is the backend's to report). The
   * core (src/core/vmm.c) keeps handles, reservations, mappings, reference counts and
   * the access each device was given, registers mapped ranges in the allocation map,
   * and checks every size and offset against vmm_granularity before calling these; the
   * backend only makes and maps physical memory. These ops are called with the core's
   * virtual-memory lock held (one at a time in the process) and must not call back into
   * the core. `phys` is the backend's name for one
   * physical allocation (CPU: a memfd; NVIDIA: a CUmemGenericAllocationHandle).
   *  - vmm_granularity: the minimum (or recommended) granularity of dev's allocations,
   *    a power of two; reservations and mappings are multiples of the minimum.
   *  - vmm_create: `bytes` of physical memory of dev; `shareable` asks for an allocation
   *    that vmm_export can give as a POSIX file descriptor. vmm_release frees it (the
   *    core has unmapped it everywhere first).
   *  - vmm_export: a new file descriptor of phys for another process (the caller's to
   *    close). vmm_import: the allocation of a descriptor another process (or this one)
   *    exported; *bytes its size, or 0 where the backend cannot tell (the driver then
   *    checks mappings itself). The descriptor stays the caller's.
   *  - vmm_reserve: `bytes` of address space aligned to `alignment` (a power of two, at
   *    least the granularity), near `hint` if the backend can; nothing is accessible
   *    there. vmm_address_free gives a whole reservation back (nothing mapped in it).
   *  - vmm_map: maps [offset, offset + bytes) of phys at ptr, inside a reservation of
   *    this backend, with no access yet. vmm_unmap: ends the mappings in [ptr, ptr +
   *    bytes) (whole ones; the device was synchronized), the range reserved again.
   *  - vmm_set_access: gives the mapping(s) in [ptr, ptr + bytes) the access acc[0..n)
   *    lists: every device of this backend that has access, and those this call
   *    changed (hipMemAccessFlagsProtNone included). */
  hipError_t (*vmm_granularity)(struct ah_device *dev, int recommended, size_t *out);
  hipError_t (*vmm_create)(struct ah_device *dev, size_t bytes, int shareable, uint64_t *phys);
  hipError_t (*vmm_release)(struct ah_device *dev, uint64_t phys);
  hipError_t (*vmm_export)(struct ah_device *dev, uint64_t phys, int *fd);
  hipError_t (*vmm_import)(struct ah_device *dev, int fd, uint64_t *phys, size_t *bytes);
  hipError_t (*vmm_reserve)(struct ah_device *dev, size_t bytes, size_t alignment, void *hint,
                            void **out);
  hipError_t (*vmm_address_free)(struct ah_device *dev, void *base, size_t bytes);
  hipError_t (*vmm_map)(struct ah_device *dev, void *ptr, size_t bytes, uint64_t phys,
                        size_t offset);
  hipError_t (*vmm_unmap)(struct ah_device *dev, void *ptr, size_t bytes);
  hipError_t (*vmm_set_access)(struct ah_device *dev, void *ptr, size_t bytes,
                               const struct ah_vmm_access *acc, size_t n);

  /* ---- shareable stream-ordered pools ---- */
  /* Optional, all together (AH_BACKEND_POOL). A pool made with
   * hipMemHandleTypePosixFileDescriptor on a device whose memory the host
   * cannot map is one of the device's own (NVIDIA's CUmemoryPool), so that
   * another process can import it. The core (src/core/mempool.c) keeps the
   * blocks, their reuse and the counters as for every pool; these ops only
   * make and share the memory. NULL: such a pool is shareable on a
   * host_addressable backend only (the core's memfd), else its export is
   * hipErrorNotSupported. Called with no core lock held.
   *  - pool_create: a pool of dev whose memory exports as a POSIX file
   *    descriptor (*pool: the backend's handle); pool_destroy frees it, every
   *    allocation of this process from it freed first.
   *  - pool_alloc: `bytes` of the pool, usable by every queue of dev when it
   *    returns; pool_free gives an allocation of this process back, one of
   *    pool_alloc or of pool_import_ptr (waiting for the device first).
   *  - pool_export: a new descriptor naming the pool (the caller's to close);
   *    pool_import: the pool another process exported as fd (which stays the
   *    caller's).
   *  - pool_export_ptr: the 64 bytes (hipMemPoolPtrExportData) naming the
   *    allocation at ptr; pool_import_ptr: maps it from an imported pool:
   *    *out the address exported, [*base, *base + *bytes) the allocation. */
  hipError_t (*pool_create)(struct ah_device *dev, uint64_t *pool);
  hipError_t (*pool_destroy)(struct ah_device *dev, uint64_t pool);
  hipError_t (*pool_alloc)(struct ah_device *dev, uint64_t pool, size_t bytes, void **out);
  hipError_t (*pool_free)(struct ah_device *dev, void *ptr);
  hipError_t (*pool_export)(struct ah_device *dev, uint64_t pool, int *fd);
  hipError_t (*pool_import)(struct ah_device *dev, int fd, uint64_t *pool);
  hipError_t (*pool_export_ptr)(struct ah_device *dev, void *ptr, void *data);
  hipError_t (*pool_import_ptr)(struct ah_device *dev, uint64_t pool, const void *data,
                                void **out, void **base, size_t *bytes);

  /* ---- external memory and semaphores ---- */
  /* Optional, all together (AH_BACKEND_EXTERNAL): memory and semaphores
   * another API (or process) exported, imported by the device itself
   * (NVIDIA's cuImportExternalMemory...). NULL: the core's own on a
   * host_addressable backend (an opaque descriptor is memory to mmap, or an
   * eventfd; src/core/external.c), else hipErrorNotSupported. The core has
   * checked the descriptors (types, sizes, ranges, flags). A handle type the
   * device cannot import is hipErrorNotSupported.
   *  - ext_mem_import: the memory d names (*mem: the backend's handle). On
   *    success a descriptor in d is the backend's (closed at destroy or at
   *    once). ext_mem_destroy ends the handle; mapped buffers stay until
   *    ext_mem_unmap.
   *  - ext_mem_map: device memory of [offset, offset + bytes) of mem (the
   *    core checked the range against the imported size); ext_mem_unmap ends
   *    it (the device was synchronized).
   *  - ext_sem_import / ext_sem_destroy: a semaphore, as the memory.
   *  - ext_sem_signal / ext_sem_wait: queue a signal or a wait of sem on q. */
  hipError_t (*ext_mem_import)(struct ah_device *dev, const hipExternalMemoryHandleDesc *d,
                               uint64_t *mem);
  hipError_t (*ext_mem_map)(struct ah_device *dev, uint64_t mem, uint64_t offset, uint64_t bytes,
                            void **out);
  hipError_t (*ext_mem_unmap)(struct ah_device *dev, void *ptr);
  hipError_t (*ext_mem_destroy)(struct ah_device *dev, uint64_t mem);
  hipError_t (*ext_sem_import)(struct ah_device *dev, const hipExternalSemaphoreHandleDesc *d,
                               uint64_t *sem);
  hipError_t (*ext_sem_signal)(struct ah_device *dev, struct ah_queue *q, uint64_t sem,
                               const hipExternalSemaphoreSignalParams *p);
  hipError_t (*ext_sem_wait)(struct ah_device *dev, struct ah_queue *q, uint64_t sem,
                             const hipExternalSemaphoreWaitParams *p);
  hipError_t (*ext_sem_destroy)(struct ah_device *dev, uint64_t sem);
};

#endif
