/* SPDX-License-Identifier: MIT */
/* Arrays, mipmapped arrays, texture and surface objects of the NVIDIA device: the
 * driver's own (cuArray3DCreate, cuMipmappedArrayCreate, cuTexObjectCreate,
 * cuSurfObjectCreate). HIP's driver-style descriptors have CUDA's layouts, so they are
 * copied over as they are; the core already put the driver's arrays in place of its own
 * (src/core/texture.c). Copies reach arrays through AH_CMD_COPY_3D (nvidia_queue.c). */
#include "nvidia_internal.h"

#include <string.h>

/* The backend's array handles are the driver's own. */
#define ARRAY(a) ((CUarray)(a))
#define MIPMAP(m) ((CUmipmappedArray)(m))

_Static_assert(sizeof(CUDA_ARRAY3D_DESCRIPTOR) == sizeof(HIP_ARRAY3D_DESCRIPTOR), "layout");
_Static_assert(sizeof(CUDA_RESOURCE_DESC) == sizeof(HIP_RESOURCE_DESC), "layout");
_Static_assert(sizeof(CUDA_TEXTURE_DESC) == sizeof(HIP_TEXTURE_DESC), "layout");
_Static_assert(sizeof(CUDA_RESOURCE_VIEW_DESC) == sizeof(HIP_RESOURCE_VIEW_DESC), "layout");

static void shape(const HIP_ARRAY3D_DESCRIPTOR *d, CUDA_ARRAY3D_DESCRIPTOR *c) {
  memcpy(c, d, sizeof(*c));
}

hipError_t ah_nv_array_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                              struct ah_dev_array **out) {
  CUDA_ARRAY3D_DESCRIPTOR c;
  CUarray a;
  CUresult r;

  AH_NV_ENTER(dev, cuArray3DCreate);
  shape(d, &c);
  /* A surface needs the flag on NVIDIA (HIP on AMD does not ask for it), which the
   * driver refuses past the (smaller) surface limits: such an array is a texture's only. */
  if (ah_array_fits(&dev->props, AH_ARRAY_SURFACE, d))
    c.Flags |= hipArraySurfaceLoadStore;
  r = ah_cuda.cuArray3DCreate(&a, &c);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *out = (struct ah_dev_array *)a;
  return hipSuccess;
}

hipError_t ah_nv_array_destroy(struct ah_device *dev, struct ah_dev_array *array) {
  AH_NV_ENTER(dev, cuArrayDestroy);
  return ah_cuda_status(ah_cuda.cuArrayDestroy(ARRAY(array)));
}

hipError_t ah_nv_mipmap_create(struct ah_device *dev, const HIP_ARRAY3D_DESCRIPTOR *d,
                               unsigned levels, struct ah_dev_mipmap **out) {
  CUDA_ARRAY3D_DESCRIPTOR c;
  CUmipmappedArray m;
  CUresult r;

  AH_NV_ENTER(dev, cuMipmappedArrayCreate);
  shape(d, &c);
  r = ah_cuda.cuMipmappedArrayCreate(&m, &c, levels);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *out = (struct ah_dev_mipmap *)m;
  return hipSuccess;
}

hipError_t ah_nv_mipmap_level(struct ah_device *dev, struct ah_dev_mipmap *mipmap, unsigned level,
                              struct ah_dev_array **out) {
  CUarray a;
  CUresult r;

  AH_NV_ENTER(dev, cuMipmappedArrayGetLevel);
  r = ah_cuda.cuMipmappedArrayGetLevel(&a, MIPMAP(mipmap), level);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *out = (struct ah_dev_array *)a;
  return hipSuccess;
}

hipError_t ah_nv_mipmap_destroy(struct ah_device *dev, struct ah_dev_mipmap *mipmap) {
  AH_NV_ENTER(dev, cuMipmappedArrayDestroy);
  return ah_cuda_status(ah_cuda.cuMipmappedArrayDestroy(MIPMAP(mipmap)));
}

hipError_t ah_nv_texture_create(struct ah_device *dev, const HIP_RESOURCE_DESC *res,
                                const HIP_TEXTURE_DESC *tex, const HIP_RESOURCE_VIEW_DESC *view,
                                uint64_t *out) {
  CUDA_RESOURCE_DESC cr;
  CUDA_TEXTURE_DESC ct;
  CUDA_RESOURCE_VIEW_DESC cv;
  CUtexObject t;
  CUresult r;

  AH_NV_ENTER(dev, cuTexObjectCreate);
  memcpy(&cr, res, sizeof(cr));
  memcpy(&ct, tex, sizeof(ct));
  if (view != NULL)
    memcpy(&cv, view, sizeof(cv));
  r = ah_cuda.cuTexObjectCreate(&t, &cr, &ct, view != NULL ? &cv : NULL);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *out = t;
  return hipSuccess;
}

hipError_t ah_nv_texture_destroy(struct ah_device *dev, uint64_t tex) {
  AH_NV_ENTER(dev, cuTexObjectDestroy);
  return ah_cuda_status(ah_cuda.cuTexObjectDestroy(tex));
}

hipError_t ah_nv_surface_create(struct ah_device *dev, struct ah_dev_array *array, uint64_t *out) {
  CUDA_RESOURCE_DESC cr;
  CUsurfObject s;
  CUresult r;

  AH_NV_ENTER(dev, cuSurfObjectCreate);
  memset(&cr, 0, sizeof(cr));
  cr.resType = CU_RESOURCE_TYPE_ARRAY;
  cr.res.array.hArray = ARRAY(array);
  r = ah_cuda.cuSurfObjectCreate(&s, &cr);
  if (r != CUDA_SUCCESS)
    return ah_cuda_status(r);
  *out = s;
  return hipSuccess;
}

hipError_t ah_nv_surface_destroy(struct ah_device *dev, uint64_t surf) {
  AH_NV_ENTER(dev, cuSurfObjectDestroy);
  return ah_cuda_status(ah_cuda.cuSurfObjectDestroy(surf));
}

void ah_nv_copy3d_arrays(const struct ah_cmd *cmd, CUDA_MEMCPY3D *c) {
  if (cmd->copy3d.src_array != NULL) {
    c->srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c->srcArray = ARRAY(cmd->copy3d.src_array);
    c->srcDevice = 0;
    c->srcXInBytes = cmd->copy3d.src_pos[0];
    c->srcY = cmd->copy3d.src_pos[1];
    c->srcZ = cmd->copy3d.src_pos[2];
  }
  if (cmd->copy3d.dst_array != NULL) {
    c->dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c->dstArray = ARRAY(cmd->copy3d.dst_array);
    c->dstDevice = 0;
    c->dstXInBytes = cmd->copy3d.dst_pos[0];
    c->dstY = cmd->copy3d.dst_pos[1];
    c->dstZ = cmd->copy3d.dst_pos[2];
  }
}
