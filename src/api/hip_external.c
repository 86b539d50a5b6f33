/* SPDX-License-Identifier: MIT */
/* External resource interoperability (hipImportExternalMemory and
 * hipImportExternalSemaphore, for memory and semaphores another API or
 * process exported). The CPU device imports opaque file descriptors (memory
 * it maps, eventfd semaphores); NVIDIA devices go through the driver
 * (core/external.c, docs/memory.md). AMD's codes: NULL arguments, unknown
 * types, a size of 0, a range outside the memory and a handle that was
 * never imported (or was destroyed) are hipErrorInvalidValue; a bad stream
 * hipErrorInvalidHandle; a type the device cannot import
 * hipErrorNotSupported. Imports go to the current device. */
#include "../core/external.h"

static int memory_type_ok(hipExternalMemoryHandleType t) {
  return t >= hipExternalMemoryHandleTypeOpaqueFd && t <= hipExternalMemoryHandleTypeNvSciBuf;
}

static int semaphore_type_ok(hipExternalSemaphoreHandleType t) {
  return t >= hipExternalSemaphoreHandleTypeOpaqueFd &&
         t <= hipExternalSemaphoreHandleTypeTimelineSemaphoreWin32;
}

AH_EXPORT hipError_t hipImportExternalMemory(hipExternalMemory_t *extMem_out,
                                             const hipExternalMemoryHandleDesc *memHandleDesc) {
  struct ah_device *dev;
  struct ah_extmem *m;

  AH_ENTER();
  AH_REQUIRE(extMem_out != NULL && memHandleDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE(memory_type_ok(memHandleDesc->type) && memHandleDesc->size != 0,
             hipErrorInvalidValue);
  AH_REQUIRE((memHandleDesc->flags & ~(unsigned)hipExternalMemoryDedicated) == 0,
             hipErrorInvalidValue);
  AH_REQUIRE(memHandleDesc->type != hipExternalMemoryHandleTypeOpaqueFd ||
                 memHandleDesc->handle.fd >= 0,
             hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE_OK(ah_extmem_import(dev, memHandleDesc, &m));
  *extMem_out = (hipExternalMemory_t)m;
  return hipSuccess;
}

/* The buffer is freed with hipFree (and stays valid after
 * hipDestroyExternalMemory, as CUDA's). flags must be 0. */
AH_EXPORT hipError_t hipExternalMemoryGetMappedBuffer(void **devPtr, hipExternalMemory_t extMem,
                                                      const hipExternalMemoryBufferDesc *bufferDesc) {
  struct ah_extmem *m;

  AH_ENTER();
  AH_REQUIRE(devPtr != NULL && extMem != NULL && bufferDesc != NULL, hipErrorInvalidValue);
  *devPtr = NULL;
  m = ah_extmem_lookup(extMem);
  AH_REQUIRE(m != NULL, hipErrorInvalidValue);
  AH_REQUIRE(bufferDesc->size != 0 && bufferDesc->flags == 0, hipErrorInvalidValue);
  AH_RETURN(ah_extmem_map(m, bufferDesc->offset, bufferDesc->size, devPtr));
}

/* Mipmapped arrays over external memory: checked, then hipErrorNotSupported
 * on every device (an array of the CPU device, or of the core's, has storage
 * of its own; docs/memory.md). */
AH_EXPORT hipError_t hipExternalMemoryGetMappedMipmappedArray(
    hipMipmappedArray_t *mipmap, hipExternalMemory_t extMem,
    const hipExternalMemoryMipmappedArrayDesc *mipmapDesc) {
  AH_ENTER();
  AH_REQUIRE(mipmap != NULL && extMem != NULL && mipmapDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE(ah_extmem_lookup(extMem) != NULL, hipErrorInvalidValue);
  AH_REQUIRE(mipmapDesc->numLevels != 0 && mipmapDesc->extent.width != 0,
             hipErrorInvalidValue);
  AH_RETURN(hipErrorNotSupported);
}

AH_EXPORT hipError_t hipDestroyExternalMemory(hipExternalMemory_t extMem) {
  struct ah_extmem *m;

  AH_ENTER();
  AH_REQUIRE(extMem != NULL, hipErrorInvalidValue);
  m = ah_extmem_lookup(extMem);
  AH_REQUIRE(m != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_extmem_destroy(m));
}

AH_EXPORT hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t *extSem_out,
                                                const hipExternalSemaphoreHandleDesc *semHandleDesc) {
  struct ah_device *dev;
  struct ah_extsem *s;

  AH_ENTER();
  AH_REQUIRE(extSem_out != NULL && semHandleDesc != NULL, hipErrorInvalidValue);
  AH_REQUIRE(semaphore_type_ok(semHandleDesc->type), hipErrorInvalidValue);
  AH_REQUIRE((semHandleDesc->type != hipExternalSemaphoreHandleTypeOpaqueFd &&
              semHandleDesc->type != hipExternalSemaphoreHandleTypeTimelineSemaphoreFd) ||
                 semHandleDesc->handle.fd >= 0,
             hipErrorInvalidValue);
  dev = ah_current_device();
  AH_REQUIRE(dev != NULL, hipErrorNoDevice);
  AH_REQUIRE_OK(ah_extsem_import(dev, semHandleDesc, &s));
  *extSem_out = (hipExternalSemaphore_t)s;
  return hipSuccess;
}

/* The checks both semaphore operations make, every handle before any is
 * queued; a capturing stream refuses them (no external-semaphore graph
 * nodes: hipErrorStreamCaptureUnsupported, the capture invalidated). */
static hipError_t semaphores_check(const hipExternalSemaphore_t *sems, const void *params,
                                   unsigned n, hipStream_t stream, struct ah_device **dev,
                                   struct ah_queue **q) {
  if (sems == NULL || params == NULL)
    return hipErrorInvalidValue;
  if (ah_stream_resolve(stream, dev, q) != hipSuccess)
    return hipErrorInvalidHandle;
  for (unsigned i = 0; i < n; i++) {
    struct ah_extsem *s = ah_extsem_lookup(sems[i]);

    if (s == NULL || !ah_extsem_usable(s, *dev))
      return hipErrorInvalidValue;
  }
  return n == 0 ? hipSuccess : ah_capture_check_sync(*q);
}

AH_EXPORT hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                                      const hipExternalSemaphoreSignalParams *paramsArray,
                                                      unsigned int numExtSems, hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  AH_REQUIRE_OK(semaphores_check(extSemArray, paramsArray, numExtSems, stream, &dev, &q));
  for (unsigned i = 0; i < numExtSems; i++)
    AH_REQUIRE_OK(
        ah_extsem_signal(ah_extsem_lookup(extSemArray[i]), dev, q, &paramsArray[i]));
  return hipSuccess;
}

AH_EXPORT hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                                    const hipExternalSemaphoreWaitParams *paramsArray,
                                                    unsigned int numExtSems, hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;

  AH_ENTER();
  AH_REQUIRE_OK(semaphores_check(extSemArray, paramsArray, numExtSems, stream, &dev, &q));
  for (unsigned i = 0; i < numExtSems; i++)
    AH_REQUIRE_OK(ah_extsem_wait(ah_extsem_lookup(extSemArray[i]), dev, q, &paramsArray[i]));
  return hipSuccess;
}

AH_EXPORT hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t extSem) {
  struct ah_extsem *s;

  AH_ENTER();
  AH_REQUIRE(extSem != NULL, hipErrorInvalidValue);
  s = ah_extsem_lookup(extSem);
  AH_REQUIRE(s != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_extsem_destroy(s));
}
