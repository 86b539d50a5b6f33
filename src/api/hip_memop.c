/* SPDX-License-Identifier: MIT */
/* Stream memory operations (hipStreamWaitValue32/64, hipStreamWriteValue32/64)
 * and the pointer functions of the driver API (hipPointerSetAttribute,
 * hipDrvPointerGetAttributes). A wait holds back the rest of its stream
 * until a 32- or 64-bit word in memory meets a condition; a write stores a
 * word in the stream's order; core/memop.c queues them (docs/semantics.md,
 * "Stream memory operations"). */
#include "../core/stream.h"
#include "memory.h"

AH_EXPORT hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value,
                                          unsigned int flags, uint32_t mask) {
  AH_ENTER();
  AH_RETURN(ah_stream_memop(stream, ptr, value, mask, flags, 0, 0));
}

AH_EXPORT hipError_t hipStreamWaitValue64(hipStream_t stream, void *ptr, uint64_t value,
                                          unsigned int flags, uint64_t mask) {
  AH_ENTER();
  AH_RETURN(ah_stream_memop(stream, ptr, value, mask, flags, 1, 0));
}

/* flags: 0 (CUDA's NO_MEMORY_BARRIER is not HIP's). */
AH_EXPORT hipError_t hipStreamWriteValue32(hipStream_t stream, void *ptr, uint32_t value,
                                           unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_RETURN(ah_stream_memop(stream, ptr, value, UINT64_MAX, 0, 0, 1));
}

AH_EXPORT hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value,
                                           unsigned int flags) {
  AH_ENTER();
  AH_REQUIRE(flags == 0, hipErrorInvalidValue);
  AH_RETURN(ah_stream_memop(stream, ptr, value, UINT64_MAX, 0, 1, 1));
}

/* Every operation checked before any is queued (core/memop.c). */
AH_EXPORT hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count,
                                         hipStreamBatchMemOpParams *paramArray,
                                         unsigned int flags) {
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  AH_REQUIRE_OK(ah_batch_check(paramArray, count, flags));
  AH_REQUIRE_OK(ah_stream_resolve(stream, &dev, &q));
  AH_RETURN(ah_batch_queue(dev, q, paramArray, count));
}

/* ---- pointers -------------------------------------------------------------- */

/* Only HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS can be set (CUDA and HIP), and
 * only on device memory: a synchronous copy between device buffers then
 * waits for the copy (core/memcpy.c). */
AH_EXPORT hipError_t hipPointerSetAttribute(const void *value, hipPointer_attribute attribute,
                                            hipDeviceptr_t ptr) {
  struct ah_alloc a;

  AH_ENTER();
  AH_REQUIRE(value != NULL && ptr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(attribute == HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, hipErrorInvalidValue);
  /* Not device memory (host, freed, unknown): AMD's hipErrorInvalidDevicePointer. */
  AH_REQUIRE(ah_alloc_find(ptr, &a), hipErrorInvalidDevicePointer);
  AH_REQUIRE(a.kind == AH_MEM_DEVICE || a.kind == AH_MEM_MANAGED, hipErrorInvalidDevicePointer);
  AH_REQUIRE(ah_alloc_set_sync_memops(ptr, *(const int *)value != 0), hipErrorInvalidDevicePointer);
  return hipSuccess;
}

/* Each attribute as hipPointerGetAttribute gives it, into data[i]; the
 * first failure stops (AMD). */
AH_EXPORT hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes,
                                                hipPointer_attribute *attributes, void **data,
                                                hipDeviceptr_t ptr) {
  AH_ENTER();
  AH_REQUIRE(numAttributes != 0 && attributes != NULL && data != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ptr != NULL, hipErrorInvalidValue);
  for (unsigned i = 0; i < numAttributes; i++) {
    hipError_t err = ah_mem_pointer_attribute(data[i], attributes[i], ptr);
    unsigned type;

    /* The host address of memory that has none is NULL here, not an error (AMD's runtime,
     * and CUDA's cuPointerGetAttributes: one call answers for every attribute). */
    if (err == hipErrorInvalidValue && attributes[i] == HIP_POINTER_ATTRIBUTE_HOST_POINTER &&
        data[i] != NULL &&
        ah_mem_pointer_attribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr) == hipSuccess) {
      *(void **)data[i] = NULL;
      continue;
    }
    AH_REQUIRE_OK(err);
  }
  return hipSuccess;
}
