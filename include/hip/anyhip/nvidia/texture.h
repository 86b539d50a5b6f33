/* SPDX-License-Identifier: MIT */
/* Textures and surfaces for hipcc's NVIDIA pass. hipTextureObject_t and hipSurfaceObject_t
 * are opaque pointers (AMD's types) whose value, on an NVIDIA device, is CUDA's 64-bit
 * object; each HIP function here converts it and calls CUDA's own template of the same
 * name (cuda_runtime.h's texture_indirect_functions.h and surface_indirect_functions.h).
 * HIP numbers the surface boundary modes zero 0, trap 1, clamp 2 (CUDA: zero 0, clamp 1,
 * trap 2), and defaults to zero (CUDA: trap); the surface functions map them.
 * docs/textures.md. */
#ifndef ANYHIP_NVIDIA_TEXTURE_H
#define ANYHIP_NVIDIA_TEXTURE_H

#include <hip/surface_types.h>
#include <stdint.h>

namespace anyhip {
namespace nv {
__device__ inline cudaTextureObject_t tex(hipTextureObject_t t) {
  return (cudaTextureObject_t)(uintptr_t)t;
}
__device__ inline cudaSurfaceObject_t surf(hipSurfaceObject_t s) {
  return (cudaSurfaceObject_t)(uintptr_t)s;
}
__device__ inline cudaSurfaceBoundaryMode boundary(int m) {
  return m == hipBoundaryModeClamp  ? cudaBoundaryModeClamp
         : m == hipBoundaryModeTrap ? cudaBoundaryModeTrap
                                    : cudaBoundaryModeZero;
}
} // namespace nv
} // namespace anyhip

/* name<T>(obj, params...) and name(&result, obj, params...). */
#define AH_NV_TEX(name, params, args)                                              \
  template <class T> __device__ inline T name(hipTextureObject_t obj params) {     \
    return ::name<T>(anyhip::nv::tex(obj) args);                                   \
  }                                                                                \
  template <class T> __device__ inline void name(T *ptr, hipTextureObject_t obj params) { \
    ::name(ptr, anyhip::nv::tex(obj) args);                                        \
  }
#define C_ ,
AH_NV_TEX(tex1Dfetch, C_ int x, C_ x)
AH_NV_TEX(tex1D, C_ float x, C_ x)
AH_NV_TEX(tex2D, C_ float x C_ float y, C_ x C_ y)
AH_NV_TEX(tex3D, C_ float x C_ float y C_ float z, C_ x C_ y C_ z)
AH_NV_TEX(tex1DLayered, C_ float x C_ int layer, C_ x C_ layer)
AH_NV_TEX(tex2DLayered, C_ float x C_ float y C_ int layer, C_ x C_ y C_ layer)
AH_NV_TEX(texCubemap, C_ float x C_ float y C_ float z, C_ x C_ y C_ z)
AH_NV_TEX(texCubemapLayered, C_ float x C_ float y C_ float z C_ int layer,
          C_ x C_ y C_ z C_ layer)
AH_NV_TEX(tex1DLod, C_ float x C_ float level, C_ x C_ level)
AH_NV_TEX(tex2DLod, C_ float x C_ float y C_ float level, C_ x C_ y C_ level)
AH_NV_TEX(tex3DLod, C_ float x C_ float y C_ float z C_ float level, C_ x C_ y C_ z C_ level)
AH_NV_TEX(tex1DLayeredLod, C_ float x C_ int layer C_ float level, C_ x C_ layer C_ level)
AH_NV_TEX(tex2DLayeredLod, C_ float x C_ float y C_ int layer C_ float level,
          C_ x C_ y C_ layer C_ level)
AH_NV_TEX(texCubemapLod, C_ float x C_ float y C_ float z C_ float level,
          C_ x C_ y C_ z C_ level)
AH_NV_TEX(texCubemapLayeredLod, C_ float x C_ float y C_ float z C_ int layer C_ float level,
          C_ x C_ y C_ z C_ layer C_ level)
AH_NV_TEX(tex1DGrad, C_ float x C_ float dPdx C_ float dPdy, C_ x C_ dPdx C_ dPdy)
AH_NV_TEX(tex2DGrad, C_ float x C_ float y C_ float2 dPdx C_ float2 dPdy,
          C_ x C_ y C_ dPdx C_ dPdy)
AH_NV_TEX(tex3DGrad, C_ float x C_ float y C_ float z C_ float4 dPdx C_ float4 dPdy,
          C_ x C_ y C_ z C_ dPdx C_ dPdy)
AH_NV_TEX(tex1DLayeredGrad, C_ float x C_ int layer C_ float dPdx C_ float dPdy,
          C_ x C_ layer C_ dPdx C_ dPdy)
AH_NV_TEX(tex2DLayeredGrad, C_ float x C_ float y C_ int layer C_ float2 dPdx C_ float2 dPdy,
          C_ x C_ y C_ layer C_ dPdx C_ dPdy)
AH_NV_TEX(texCubemapGrad, C_ float x C_ float y C_ float z C_ float4 dPdx C_ float4 dPdy,
          C_ x C_ y C_ z C_ dPdx C_ dPdy)
AH_NV_TEX(texCubemapLayeredGrad,
          C_ float x C_ float y C_ float z C_ int layer C_ float4 dPdx C_ float4 dPdy,
          C_ x C_ y C_ z C_ layer C_ dPdx C_ dPdy)
#undef AH_NV_TEX

template <class T>
__device__ inline T tex2Dgather(hipTextureObject_t obj, float x, float y, int comp = 0) {
  return ::tex2Dgather<T>(anyhip::nv::tex(obj), x, y, comp);
}
template <class T>
__device__ inline void tex2Dgather(T *ptr, hipTextureObject_t obj, float x, float y, int comp = 0) {
  ::tex2Dgather(ptr, anyhip::nv::tex(obj), x, y, comp);
}

/* nameread(&v, obj, params..., mode), namewrite(v, obj, params..., mode), and CUDA's
 * value-returning nameread<T>(obj, params..., mode). */
#define AH_NV_SURF(name, params, args)                                                        \
  template <class T>                                                                          \
  __device__ inline void name##read(T *data, hipSurfaceObject_t obj params,                   \
                                    int mode = hipBoundaryModeZero) {                         \
    ::name##read(data, anyhip::nv::surf(obj) args, anyhip::nv::boundary(mode));              \
  }                                                                                           \
  template <class T>                                                                          \
  __device__ inline T name##read(hipSurfaceObject_t obj params, int mode = hipBoundaryModeZero) { \
    T v;                                                                                      \
    ::name##read(&v, anyhip::nv::surf(obj) args, anyhip::nv::boundary(mode));                \
    return v;                                                                                 \
  }                                                                                           \
  template <class T>                                                                          \
  __device__ inline void name##write(T data, hipSurfaceObject_t obj params,                   \
                                     int mode = hipBoundaryModeZero) {                        \
    ::name##write(data, anyhip::nv::surf(obj) args, anyhip::nv::boundary(mode));             \
  }
AH_NV_SURF(surf1D, C_ int x, C_ x)
AH_NV_SURF(surf2D, C_ int x C_ int y, C_ x C_ y)
AH_NV_SURF(surf3D, C_ int x C_ int y C_ int z, C_ x C_ y C_ z)
AH_NV_SURF(surf1DLayered, C_ int x C_ int layer, C_ x C_ layer)
AH_NV_SURF(surf2DLayered, C_ int x C_ int y C_ int layer, C_ x C_ y C_ layer)
AH_NV_SURF(surfCubemap, C_ int x C_ int y C_ int face, C_ x C_ y C_ face)

AH_NV_SURF(surfCubemapLayered, C_ int x C_ int y C_ int layerFace, C_ x C_ y C_ layerFace)
#undef AH_NV_SURF
#undef C_

#endif
