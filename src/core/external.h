/* SPDX-License-Identifier: MIT */
/* External memory and semaphores (hipImportExternalMemory and friends), as
 * src/api/hip_external.c sees them. The entry points validate every
 * argument; these functions trust theirs and never touch the thread's last
 * error. */
#ifndef AH_EXTERNAL_H
#define AH_EXTERNAL_H

#include "internal.h"

struct ah_extmem;
struct ah_extsem;

/* The live object behind a handle, or NULL (garbage, destroyed). */
struct ah_extmem *ah_extmem_lookup(hipExternalMemory_t h);
struct ah_extsem *ah_extsem_lookup(hipExternalSemaphore_t h);

/* Imports d's memory into dev (d checked: a known type, size not 0). On
 * success a descriptor in d belongs to the runtime (CUDA's rule). A type the
 * device cannot import: hipErrorNotSupported. */
hipError_t ah_extmem_import(struct ah_device *dev, const hipExternalMemoryHandleDesc *d,
                            struct ah_extmem **out);
/* [offset, offset + bytes) of m as device memory that hipFree unmaps;
 * hipErrorInvalidValue when the range is not inside m. */
hipError_t ah_extmem_map(struct ah_extmem *m, uint64_t offset, uint64_t bytes, void **out);
/* Ends the handle; buffers mapped from it stay until freed. */
hipError_t ah_extmem_destroy(struct ah_extmem *m);

hipError_t ah_extsem_import(struct ah_device *dev, const hipExternalSemaphoreHandleDesc *d,
                            struct ah_extsem **out);
/* Whether s can be signalled or waited on from a queue of dev. */
int ah_extsem_usable(const struct ah_extsem *s, const struct ah_device *dev);
/* Queues a signal or a wait of s on q of dev (usable, checked). */
hipError_t ah_extsem_signal(struct ah_extsem *s, struct ah_device *dev, struct ah_queue *q,
                            const hipExternalSemaphoreSignalParams *p);
hipError_t ah_extsem_wait(struct ah_extsem *s, struct ah_device *dev, struct ah_queue *q,
                          const hipExternalSemaphoreWaitParams *p);
hipError_t ah_extsem_destroy(struct ah_extsem *s);

#endif
