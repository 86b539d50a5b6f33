/* SPDX-License-Identifier: MIT */
/* The stream-ordered allocator's core, as src/api/hip_mempool.c sees it:
 * pools, their blocks, and the counters HIP's pool attributes report. The
 * entry points validate every argument; these functions trust theirs and
 * never touch the thread's last error. */
#ifndef AH_MEMPOOL_H
#define AH_MEMPOOL_H

#include "internal.h"

struct ah_mempool;

/* The device's default pool (made on first use) and its current one. */
hipError_t ah_mempool_default(struct ah_device *dev, struct ah_mempool **out);
hipError_t ah_mempool_current(struct ah_device *dev, struct ah_mempool **out);
/* pool belongs to dev (checked by the caller). */
void ah_mempool_set_current(struct ah_device *dev, struct ah_mempool *pool);

/* Returns the live pool behind a handle, or NULL (garbage, destroyed). */
struct ah_mempool *ah_mempool_lookup(hipMemPool_t h);
struct ah_device *ah_mempool_device(const struct ah_mempool *pool);
int ah_mempool_is_default(const struct ah_mempool *pool);

/* props has been checked: pinned, on device `dev`. */
hipError_t ah_mempool_create(struct ah_device *dev, const hipMemPoolProps *props,
                             struct ah_mempool **out);
/* Invalidates the handle; memory still allocated from the pool keeps it
 * alive until it is freed (HIP's rule). Not for a default pool. */
void ah_mempool_destroy(struct ah_mempool *pool);

/* Hands out `bytes` (not 0) for work on queue q of dev: a block freed
 * earlier on q (even if that free has not run yet), a block whose free has
 * completed, or new memory from the pool's device. */
hipError_t ah_mempool_alloc(struct ah_mempool *pool, size_t bytes, struct ah_device *dev,
                            struct ah_queue *q, void **out);
/* Gives memory back until the pool holds at most `keep` reserved bytes. */
void ah_mempool_trim(struct ah_mempool *pool, uint64_t keep);

/* Attributes, with HIP's value types (int for the reuse flags, uint64_t
 * for the rest); `attr` and the value were checked by the caller. */
hipError_t ah_mempool_set_attr(struct ah_mempool *pool, hipMemPoolAttr attr, const void *value);
hipError_t ah_mempool_get_attr(struct ah_mempool *pool, hipMemPoolAttr attr, void *value);

/* Access of device `ordinal` (in range) to the pool's memory. */
hipMemAccessFlags ah_mempool_get_access(struct ah_mempool *pool, int ordinal);
void ah_mempool_set_access(struct ah_mempool *pool, int ordinal, hipMemAccessFlags flags);

/* Sharing with other processes (hipMemPoolExportToShareableHandle and
 * friends): a pool made with hipMemHandleTypePosixFileDescriptor on a
 * device whose memory is host memory keeps its memory in one memfd; on a
 * device with the backend's pool_* ops (NVIDIA) it is a pool of the
 * device's own. export: a new descriptor of it (hipErrorInvalidValue for a
 * pool not made shareable, hipErrorNotSupported on other devices); import:
 * a pool of dev over a descriptor (the caller keeps fd), which only imports
 * pointers; export_ptr: 64 bytes naming the allocation a (found in the map,
 * of a pool) at ptr; import_ptr: maps it, as an allocation of the imported
 * pool (hipFree of it unmaps it at once). */
int ah_mempool_is_imported(const struct ah_mempool *pool);
hipError_t ah_mempool_export(struct ah_mempool *pool, int *fd);
hipError_t ah_mempool_import(struct ah_device *dev, int fd, struct ah_mempool **out);
hipError_t ah_mempool_export_ptr(const struct ah_alloc *a, const void *ptr, void *data);
hipError_t ah_mempool_import_ptr(struct ah_mempool *pool, const void *data, void **out);

#endif
