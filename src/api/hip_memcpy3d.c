/* SPDX-License-Identifier: MIT */
/* 3D and driver-style copies: hipMemcpy3D and its Async form, the driver's
 * 2D descriptor (hipMemcpyParam2D[Async], hipDrvMemcpy2DUnaligned) and 3D
 * descriptor (hipDrvMemcpy3D[Async]). core/memcpy3d.c checks the boxes and
 * queues the copies. */
#include "memory.h"

AH_EXPORT hipError_t hipMemcpy3D(const struct hipMemcpy3DParms *p) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_3d(p, NULL, 1, NULL));
}

AH_EXPORT hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms *p, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_3d(p, stream, 0, NULL));
}

AH_EXPORT hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_param_2d(pCopy, NULL, 1));
}

AH_EXPORT hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_param_2d(pCopy, stream, 0));
}

/* HIP's name for the same copy without alignment rules: anyhip has none. */
AH_EXPORT hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *pCopy) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_param_2d(pCopy, NULL, 1));
}

AH_EXPORT hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *pCopy) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_param_3d(pCopy, NULL, 1));
}

AH_EXPORT hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *pCopy, hipStream_t stream) {
  AH_ENTER();
  AH_RETURN(ah_memcpy_param_3d(pCopy, stream, 0));
}
