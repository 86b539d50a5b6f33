/* SPDX-License-Identifier: MIT */
/* The NVIDIA device's occupancy op: the driver's occupancy calculator on the
 * kernel's CUfunction (docs/occupancy.md). */
#include "nvidia_internal.h"

hipError_t ah_nv_occupancy(struct ah_device *dev, const void *fn, int threads, size_t shmem,
                           unsigned flags, int *blocks) {
  struct ah_nv_device *nd = AH_NV(dev);
  CUfunction f;
  hipError_t err;

  if ((err = ah_nv_enter(nd)) != hipSuccess || (err = ah_nv_function(nd, fn, 0, &f)) != hipSuccess)
    return err;
  /* HIP has no opt-in step for large dynamic shared memory; a launch opts in
   * (ah_nv_function), so the calculator must count with it too. More than the
   * device allows fits no block at all. */
  if (shmem > 0 && ah_nv_function(nd, fn, shmem, &f) != hipSuccess) {
    *blocks = 0;
    return hipSuccess;
  }
  return ah_cuda_status(ah_cuda.cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      blocks, f, threads, shmem, flags));
}
