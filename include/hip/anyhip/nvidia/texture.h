/* SPDX-License-Identifier: MIT */
/* Textures and surfaces for hipcc's NVIDIA pass. hipTextureObject_t and hipSurfaceObject_t
 * are CUDA's 64-bit object handles, so CUDA's own tex1Dfetch, tex1D ... texCubemapGrad and
 * surf*read/surf*write templates (cuda_runtime.h) serve HIP calls as they are. Only the
 * boundary mode differs: HIP numbers zero 0, trap 1, clamp 2 (CUDA: zero 0, clamp 1,
 * trap 2), so the overloads below take HIP's enum and pass CUDA's value on. A call
 * without a boundary mode gets CUDA's default, trap (HIP's is zero): docs/textures.md. */
#ifndef ANYHIP_NVIDIA_TEXTURE_H
#define ANYHIP_NVIDIA_TEXTURE_H

#include <hip/surface_types.h>

namespace anyhip {
namespace nv {
__device__ inline cudaSurfaceBoundaryMode boundary(hipSurfaceBoundaryMode m) {
  return m == hipBoundaryModeClamp  ? cudaBoundaryModeClamp
         : m == hipBoundaryModeTrap ? cudaBoundaryModeTrap
                                    : cudaBoundaryModeZero;
}
} // namespace nv
} // namespace anyhip

#define AH_NV_SURF(name, params, args)                                                      \
  template <class T>                                                                        \
  __device__ inline void name##read(T *data, hipSurfaceObject_t obj, params,                \
                                    hipSurfaceBoundaryMode mode) {                          \
    name##read(data, obj, args, anyhip::nv::boundary(mode));                                \
  }                                                                                         \
  template <class T>                                                                        \
  __device__ inline void name##write(T data, hipSurfaceObject_t obj, params,                \
                                     hipSurfaceBoundaryMode mode) {                         \
    name##write(data, obj, args, anyhip::nv::boundary(mode));                               \
  }
#define AH_NV_COMMA ,
AH_NV_SURF(surf1D, int x, x)
AH_NV_SURF(surf2D, int x AH_NV_COMMA int y, x AH_NV_COMMA y)
AH_NV_SURF(surf3D, int x AH_NV_COMMA int y AH_NV_COMMA int z, x AH_NV_COMMA y AH_NV_COMMA z)
AH_NV_SURF(surf1DLayered, int x AH_NV_COMMA int layer, x AH_NV_COMMA layer)
AH_NV_SURF(surf2DLayered, int x AH_NV_COMMA int y AH_NV_COMMA int layer,
           x AH_NV_COMMA y AH_NV_COMMA layer)
AH_NV_SURF(surfCubemap, int x AH_NV_COMMA int y AH_NV_COMMA int face,
           x AH_NV_COMMA y AH_NV_COMMA face)
#undef AH_NV_SURF
#undef AH_NV_COMMA

/* HIP names a layered cubemap's face and layer apart; CUDA takes layer * 6 + face. */
template <class T>
__device__ inline void surfCubemapLayeredread(T *data, hipSurfaceObject_t obj, int x, int y,
                                              int face, int layer,
                                              hipSurfaceBoundaryMode mode = hipBoundaryModeZero) {
  surfCubemapLayeredread(data, obj, x, y, layer * 6 + face, anyhip::nv::boundary(mode));
}
template <class T>
__device__ inline void surfCubemapLayeredwrite(T data, hipSurfaceObject_t obj, int x, int y,
                                               int face, int layer,
                                               hipSurfaceBoundaryMode mode = hipBoundaryModeZero) {
  surfCubemapLayeredwrite(data, obj, x, y, layer * 6 + face, anyhip::nv::boundary(mode));
}

#endif
