/* SPDX-License-Identifier: MIT */
/* What a texture or surface object is on a device whose kernels the host compiler builds
 * (the CPU's): the handle is the address of a struct ahTexDesc that the runtime filled
 * (src/core/texture.c) and the kernel headers read (hip/anyhip/cpu/texture.h). Every
 * resource is seen as levels of `depth` slices of `height` rows of `width` elements; a
 * layer (layered arrays) and a cube face are slices. Plain C, shared by both sides. */
#ifndef ANYHIP_COMMON_TEXTURE_ABI_H
#define ANYHIP_COMMON_TEXTURE_ABI_H

#define AH_TEX_MAX_LEVELS 16
#define AH_TEX_MAGIC 0x41485458u /* "AHTX" */

/* ahTexDesc.format: how a channel is stored. */
enum { AH_TEXF_SIGNED = 0, AH_TEXF_UNSIGNED = 1, AH_TEXF_FLOAT = 2, AH_TEXF_HALF = 3 };
/* ahTexDesc.shape */
enum {
  AH_TEXS_LINEAR = 0, /* linear memory: tex1Dfetch */
  AH_TEXS_1D, AH_TEXS_2D, AH_TEXS_3D,
  AH_TEXS_1D_LAYERED, AH_TEXS_2D_LAYERED,
  AH_TEXS_CUBEMAP, AH_TEXS_CUBEMAP_LAYERED
};

struct ahTexLevel {
  const unsigned char *data;
  unsigned long long width, height, depth; /* elements, rows, slices; each at least 1 */
  unsigned long long pitch, slice;         /* bytes from a row to the next, a slice to the next */
};

struct ahTexDesc {
  unsigned magic;         /* AH_TEX_MAGIC while the object lives */
  unsigned surface;       /* a surface object (surf*read/write) */
  unsigned shape;         /* AH_TEXS_* */
  unsigned format;        /* AH_TEXF_* */
  unsigned bits;          /* bits per channel: 8, 16 or 32 */
  unsigned channels;      /* 1, 2 or 4 */
  unsigned elem;          /* bytes per element */
  unsigned address[3];    /* hipTextureAddressMode per coordinate */
  unsigned filter;        /* hipTextureFilterMode */
  unsigned read_mode;     /* hipTextureReadMode */
  unsigned normalized;    /* normalized coordinates */
  unsigned mip_filter;    /* hipTextureFilterMode between levels */
  float border[4];        /* the border colour */
  float lod_bias, min_lod, max_lod;
  unsigned levels;        /* 1 unless mipmapped */
  struct ahTexLevel level[AH_TEX_MAX_LEVELS];
};

#endif
