/* SPDX-License-Identifier: MIT */
/* The NVIDIA device's managed-memory op: hints passed to cuMemAdvise /
 * cuMemPrefetchAsync / cuStreamAttachMemAsync. The core keeps its own record
 * of the hints for hipMemRangeGetAttribute. */
#include "nvidia_internal.h"

extern const struct ah_backend ah_backend_nvidia;

/* A HIP location as the driver's: a device of this backend, else the host
 * (the CPU device's memory is the host's). */
static CUmemLocation location(const struct ah_device *target) {
  CUmemLocation l = {CU_MEM_LOCATION_TYPE_HOST, 0};

  if (target != NULL && target->backend == &ah_backend_nvidia) {
    l.type = CU_MEM_LOCATION_TYPE_DEVICE;
    l.id = AH_NV(target)->cu;
  }
  return l;
}

hipError_t ah_nv_managed_hint(struct ah_device *dev, const struct ah_managed_hint *h) {
  struct ah_nv_device *nd = AH_NV(dev);
  CUdeviceptr p = (CUdeviceptr)(uintptr_t)h->ptr;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess)
    return err;
  switch (h->kind) {
  case AH_HINT_ADVISE:
    /* Coarse-grain coherence is AMD's; CUDA has no such advice. */
    if (h->advice == hipMemAdviseSetCoarseGrain || h->advice == hipMemAdviseUnsetCoarseGrain)
      return hipSuccess;
    if (ah_cuda.cuMemAdvise == NULL)
      return hipErrorNotSupported;
    /* CUmem_advise numbers the six advices as HIP does. */
    return ah_cuda_status(ah_cuda.cuMemAdvise(p, h->bytes, (int)h->advice, location(h->target)));
  case AH_HINT_PREFETCH:
    if (ah_cuda.cuMemPrefetchAsync == NULL)
      return hipErrorNotSupported;
    return ah_cuda_status(ah_cuda.cuMemPrefetchAsync(p, h->bytes, location(h->target), 0,
                                                     ((struct ah_nv_queue *)h->q)->s));
  case AH_HINT_ATTACH: /* hipMemAttach* and CU_MEM_ATTACH_* agree */
    return ah_cuda_status(
        ah_cuda.cuStreamAttachMemAsync(((struct ah_nv_queue *)h->q)->s, p, h->bytes, h->flags));
  }
  return hipErrorInvalidValue;
}
