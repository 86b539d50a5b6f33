/* SPDX-License-Identifier: MIT */
/* The CPU device's private interface between its parts:
 *   cpu_backend.c  the ah_backend_cpu table, probe, device_open (properties
 *                  from the host), attributes, limits, mem_info, reset
 *   cpu_mem.c      allocation, host registration, symbols, function check
 *   cpu_queue.c    queues (one dispatcher thread each), HIP's null-stream
 *                  rules, events, command execution, device sync
 *   cpu_sched.c, cpu_launch.c, cpu_warp.c ... the kernel engine: worker pool,
 *                  blocks, fibers, barriers, warps, fault reports */
#ifndef AH_CPU_INTERNAL_H
#define AH_CPU_INTERNAL_H

#include "../../core/internal.h"

/* The CPU device's settings (docs/config.md), read by its probe with the
 * core's ah_env_* readers; the defaults hold until then. */
struct ah_cpu_config {
  int threads;     /* ANYHIP_CPU_THREADS, 0 = one per core */
  int warp_size;   /* ANYHIP_CPU_WARP_SIZE: 64 or 32 */
  int devices;     /* ANYHIP_CPU_DEVICES, default 1 */
  int compiled;    /* ANYHIP_CPU_COMPILED: run block functions (default 1) */
  int avx2;        /* ANYHIP_CPU_AVX2: their AVX2 copies where the CPU has it (1) */
  size_t memory;   /* ANYHIP_CPU_MEMORY in bytes, 0 = physical RAM */
  double watchdog; /* ANYHIP_CPU_WATCHDOG in seconds, 0 = off (10) */
  int alloc_cache; /* ANYHIP_CPU_ALLOC_CACHE: freed device blocks kept for reuse (1) */
};
extern struct ah_cpu_config ah_cpu_config;

/* The cores this process may run on (taskset, cgroups' cpusets): what "one
 * worker per core" means (cpu_backend.c). */
int ah_cpu_online_cores(void);

/* What a worker (a multiprocessor) holds resident: threads of blocks, and
 * blocks (hipDeviceProp_t, occupancy; clock-waiting blocks, cpu_sched.c). */
#define AH_CPU_THREADS_PER_WORKER 1024
#define AH_CPU_BLOCKS_PER_WORKER 32

/* Per-device state (dev->impl). */
struct ah_cpu_queues;
struct ah_cpu_device {
  struct ah_device *dev;
  size_t stack_size;  /* honoured hipLimitStackSize of fibers, bytes */
  size_t heap_size;   /* hipLimitMallocHeapSize (reported; device malloc is the host's) */
  size_t printf_fifo; /* hipLimitPrintfFifoSize: a launch's buffer for buffered printf */
  struct ah_cpu_queues *queues; /* cpu_queue.c's state */
};

/* ---- cpu_mem.c ---- */
hipError_t ah_cpu_mem_alloc(struct ah_device *dev, size_t bytes, enum ah_mem_kind kind,
                            unsigned flags, void **out);
hipError_t ah_cpu_mem_free(struct ah_device *dev, void *ptr, enum ah_mem_kind kind);
/* Unmaps the freed device blocks kept for reuse (hipDeviceReset, memory pressure). */
void ah_cpu_mem_cache_release(void);
/* Interprocess memory (cpu_mem.c): a block becomes memfd-backed in place. */
hipError_t ah_cpu_ipc_mem_export(struct ah_device *dev, void *base, size_t bytes, void *handle);
hipError_t ah_cpu_ipc_mem_open(struct ah_device *dev, const void *handle, void **base,
                               size_t *bytes);
hipError_t ah_cpu_ipc_mem_close(struct ah_device *dev, void *base);

/* ---- cpu_vmm.c: virtual memory (the vmm_* ops) ---- */
hipError_t ah_cpu_vmm_granularity(struct ah_device *dev, int recommended, size_t *out);
hipError_t ah_cpu_vmm_create(struct ah_device *dev, size_t bytes, int shareable, uint64_t *phys);
hipError_t ah_cpu_vmm_release(struct ah_device *dev, uint64_t phys);
hipError_t ah_cpu_vmm_export(struct ah_device *dev, uint64_t phys, int *fd);
hipError_t ah_cpu_vmm_import(struct ah_device *dev, int fd, uint64_t *phys, size_t *bytes);
hipError_t ah_cpu_vmm_reserve(struct ah_device *dev, size_t bytes, size_t alignment, void *hint,
                              void **out);
hipError_t ah_cpu_vmm_address_free(struct ah_device *dev, void *base, size_t bytes);
hipError_t ah_cpu_vmm_map(struct ah_device *dev, void *ptr, size_t bytes, uint64_t phys,
                          size_t offset);
hipError_t ah_cpu_vmm_unmap(struct ah_device *dev, void *ptr, size_t bytes);
hipError_t ah_cpu_vmm_set_access(struct ah_device *dev, void *ptr, size_t bytes,
                                 const struct ah_vmm_access *acc, size_t n);
hipError_t ah_cpu_host_register(struct ah_device *dev, void *ptr, size_t bytes, unsigned flags,
                                void **device_ptr);
hipError_t ah_cpu_host_unregister(struct ah_device *dev, void *ptr);
hipError_t ah_cpu_symbol_address(struct ah_device *dev, const void *host_symbol, void **out,
                                 size_t *bytes);
hipError_t ah_cpu_function_check(struct ah_device *dev, const void *fn);

/* ---- cpu_queue.c ---- */
hipError_t ah_cpu_queues_init(struct ah_cpu_device *cd); /* makes dev->null_queue */
void ah_cpu_queues_reset(struct ah_device *dev); /* hipDeviceReset: clears the sticky error */
hipError_t ah_cpu_queue_create(struct ah_device *dev, unsigned flags, int priority,
                               struct ah_queue **q);
hipError_t ah_cpu_queue_destroy(struct ah_device *dev, struct ah_queue *q);
hipError_t ah_cpu_submit(struct ah_device *dev, struct ah_queue *q, const struct ah_cmd *cmd,
                         int wait);
hipError_t ah_cpu_queue_sync(struct ah_device *dev, struct ah_queue *q);
hipError_t ah_cpu_queue_query(struct ah_device *dev, struct ah_queue *q);
hipError_t ah_cpu_device_sync(struct ah_device *dev);
hipError_t ah_cpu_event_create(struct ah_device *dev, unsigned flags, struct ah_dev_event **ev);
hipError_t ah_cpu_event_destroy(struct ah_device *dev, struct ah_dev_event *ev);
hipError_t ah_cpu_event_record(struct ah_device *dev, struct ah_queue *q, struct ah_dev_event *ev);
hipError_t ah_cpu_event_query(struct ah_device *dev, struct ah_dev_event *ev);
hipError_t ah_cpu_event_sync(struct ah_device *dev, struct ah_dev_event *ev);
hipError_t ah_cpu_event_elapsed(struct ah_device *dev, struct ah_dev_event *start,
                                struct ah_dev_event *stop, float *ms);
hipError_t ah_cpu_queue_wait_event(struct ah_device *dev, struct ah_queue *q,
                                   struct ah_dev_event *ev);

/* ---- the kernel engine (cpu_sched.c and friends) ---- */

struct ah_cpu_grid_barrier; /* cpu_sched.c */
struct ahCpuBlockKernel;    /* hip/anyhip/cpu/block_abi.h */

/* One kernel launch as the engine sees it; args already copied by the queue. */
struct ah_cpu_grid {
  const void *fn;
  const ahKernelSig *sig;
  void **args;
  dim3 grid, block;
  size_t shared_bytes; /* dynamic shared memory per block */
  int cooperative;     /* every block resident at once */
  size_t stack_size;   /* fiber stack bytes */
  int warp_size;       /* 32 or 64 */
  /* The grid-wide barrier of grid.sync(): set by ah_cpu_grid_run for a
   * cooperative grid only (the queue leaves it NULL). */
  struct ah_cpu_grid_barrier *gbar;
  /* A grid of a cooperative multi-device launch (multi_grid_group), its rank
   * there, and the barrier across every block of every grid (set by
   * ah_cpu_grid_run); NULL otherwise. */
  struct ah_multi_grid *multi;
  unsigned multi_rank;
  struct ah_cpu_grid_barrier *mbar;
  /* The kernel's block function and its descriptor, when the engine runs
   * it (set by ah_cpu_grid_run; the queue leaves them NULL). */
  const void *block_fn;
  const struct ahCpuBlockKernel *block_k;
  /* The launch's buffer of device printf compiled with -mprintf-kind=buffered
   * (cpu_printf.c); NULL: none (such printf always succeeds). */
  struct ah_cpu_printf_buf *printf_buf;
};

/* Bytes a launch's buffered printf has taken of its hipLimitPrintfFifoSize. */
struct ah_cpu_printf_buf {
  size_t cap;
  _Atomic size_t used;
};

/* Runs every block of g on the worker pool (started on first use, with
 * ah_cpu_config.threads workers) and returns when all have finished. Called
 * from a queue dispatcher thread; several grids may run at once. A fault in
 * the kernel (SIGSEGV, SIGBUS, SIGFPE, SIGILL) is printed with the kernel's
 * name, block and thread, and returned as hipErrorLaunchFailure. */
hipError_t ah_cpu_grid_run(const struct ah_cpu_grid *g);

/* The most blocks of `threads` threads that a cooperative grid may have on
 * the CPU device (each block gets an OS thread of its own): see
 * docs/cooperative-groups.md. The coop_max_blocks op. */
uint64_t ah_cpu_coop_max_blocks(struct ah_device *dev, unsigned threads, size_t shmem);

/* grid.sync() of a cooperative grid, called by the last GPU thread of a block
 * to arrive while the block's other threads wait at the block barrier: blocks
 * the OS thread until every block of the grid that has not returned arrives.
 * hipErrorLaunchFailure when another block failed (the caller gives up its
 * block). */
hipError_t ah_cpu_grid_barrier_wait(struct ah_cpu_grid_barrier *gb);
/* A block of a cooperative grid whose one runnable thread polls (waits for
 * time to pass, or for another block's store): on a GPU the other blocks run
 * meanwhile; here the OS threads of the blocks that can run go first. Returns
 * once every other block waits too (at grid.sync() or polling so), or after
 * 20 ms, so that a wait for a block that spins without polling still ends. */
void ah_cpu_coop_poll(struct ah_cpu_grid_barrier *gb);

#endif
