/* SPDX-License-Identifier: MIT */
/* External resource interoperability (hipImportExternalMemory and
 * hipImportExternalSemaphore, for memory and semaphores of Vulkan, Direct3D
 * and the like). No anyhip device imports them: an import with valid
 * arguments is hipErrorNotSupported, so no handle is ever valid, and the
 * calls that take handles check their arguments (AMD's runtime:
 * hipErrorInvalidValue for NULL arrays and handles) and then refuse the
 * handle as one that was never imported. */
#include "internal.h"

static int memory_type_ok(hipExternalMemoryHandleType t) {
  return t >= hipExternalMemoryHandleTypeOpaqueFd && t <= hipExternalMemoryHandleTypeNvSciBuf;
}

static int semaphore_type_ok(hipExternalSemaphoreHandleType t) {
  return t >= hipExternalSemaphoreHandleTypeOpaqueFd &&
         t <= hipExternalSemaphoreHandleTypeTimelineSemaphoreWin32;
}

AH_EXPORT hipError_t hipImportExternalMemory(hipExternalMemory_t *extMem_out,
                                             const hipExternalMemoryHandleDesc *memHandleDesc) {
  AH_ENTER();
  AH_REQUIRE(extMem_out != NULL && memHandleDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE(memory_type_ok(memHandleDesc->type) && memHandleDesc->size != 0,
             hipErrorInvalidValue);
  AH_RETURN(hipErrorNotSupported);
}

AH_EXPORT hipError_t hipExternalMemoryGetMappedBuffer(void **devPtr, hipExternalMemory_t extMem,
                                                      const hipExternalMemoryBufferDesc *bufferDesc) {
  AH_ENTER();
  AH_REQUIRE(devPtr != NULL && extMem != NULL && bufferDesc != NULL, hipErrorInvalidValue);
  *devPtr = NULL;
  AH_RETURN(hipErrorInvalidValue); /* never imported */
}

AH_EXPORT hipError_t hipDestroyExternalMemory(hipExternalMemory_t extMem) {
  AH_ENTER();
  AH_REQUIRE(extMem != NULL, hipErrorInvalidValue);
  AH_RETURN(hipErrorInvalidValue); /* never imported */
}

AH_EXPORT hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t *extSem_out,
                                                const hipExternalSemaphoreHandleDesc *semHandleDesc) {
  AH_ENTER();
  AH_REQUIRE(extSem_out != NULL && semHandleDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE(semaphore_type_ok(semHandleDesc->type), hipErrorInvalidValue);
  AH_RETURN(hipErrorNotSupported);
}

/* The checks both semaphore operations make; a handle is never valid. */
static hipError_t semaphores_check(const hipExternalSemaphore_t *sems, const void *params,
                                   unsigned n, hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;

  if (sems == NULL || params == NULL)
    return hipErrorInvalidValue;
  if (ah_stream_resolve(stream, &dev, &q) != hipSuccess)
    return hipErrorInvalidHandle;
  return n == 0 ? hipSuccess : hipErrorInvalidValue;
}

AH_EXPORT hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                                      const hipExternalSemaphoreSignalParams *paramsArray,
                                                      unsigned int numExtSems, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(semaphores_check(extSemArray, paramsArray, numExtSems, stream));
}

AH_EXPORT hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                                    const hipExternalSemaphoreWaitParams *paramsArray,
                                                    unsigned int numExtSems, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(semaphores_check(extSemArray, paramsArray, numExtSems, stream));
}

AH_EXPORT hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t extSem) {
  AH_ENTER();
  AH_REQUIRE(extSem != NULL, hipErrorInvalidValue);
  AH_RETURN(hipErrorInvalidValue); /* never imported */
}
