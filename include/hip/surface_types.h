/* SPDX-License-Identifier: MIT */
/* Surface objects (hipCreateSurfaceObject): the boundary modes of surf*read/surf*write.
 * Values are HIP's (CUDA numbers clamp and trap the other way round; the NVIDIA pass maps
 * them). */
#ifndef HIP_INCLUDE_HIP_SURFACE_TYPES_H
#define HIP_INCLUDE_HIP_SURFACE_TYPES_H

#include <hip/driver_types.h>

enum hipSurfaceBoundaryMode {
  hipBoundaryModeZero = 0,
  hipBoundaryModeTrap = 1,
  hipBoundaryModeClamp = 2
};

#endif
