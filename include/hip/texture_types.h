/* SPDX-License-Identifier: MIT */
/* Texture objects: the sampler settings of hipCreateTextureObject (address, filter and read
 * modes), the texture types and hipTextureDesc. Plain C; values and layout are HIP's.
 * docs/textures.md says how anyhip samples. Texture references (HIP's deprecated
 * `texture<T, dim, mode>`) are not provided. */
#ifndef HIP_INCLUDE_HIP_TEXTURE_TYPES_H
#define HIP_INCLUDE_HIP_TEXTURE_TYPES_H

#include <hip/driver_types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define hipTextureType1D 0x01
#define hipTextureType2D 0x02
#define hipTextureType3D 0x03
#define hipTextureTypeCubemap 0x0C
#define hipTextureType1DLayered 0xF1
#define hipTextureType2DLayered 0xF2
#define hipTextureTypeCubemapLayered 0xFC

enum hipTextureAddressMode {
  hipAddressModeWrap = 0,
  hipAddressModeClamp = 1,
  hipAddressModeMirror = 2,
  hipAddressModeBorder = 3
};

enum hipTextureFilterMode { hipFilterModePoint = 0, hipFilterModeLinear = 1 };

enum hipTextureReadMode { hipReadModeElementType = 0, hipReadModeNormalizedFloat = 1 };

typedef struct hipTextureDesc {
  enum hipTextureAddressMode addressMode[3];
  enum hipTextureFilterMode filterMode;
  enum hipTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum hipTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
} hipTextureDesc;

/* A texture reference (HIP's deprecated `texture<T, dim, mode>`, AMD's
 * layout): declared so that code declaring one compiles (ROCm's unit suite,
 * module/addKernel.cc), and hipModuleGetTexRef finds a module's; anyhip
 * provides no call that binds one (hipBindTexture*, hipTexRef*) and no fetch
 * through one (docs/textures.md). */
typedef struct textureReference {
  int normalized;
  enum hipTextureReadMode readMode;
  enum hipTextureFilterMode filterMode;
  enum hipTextureAddressMode addressMode[3];
  struct hipChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum hipTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  hipTextureObject_t textureObject;
  int numChannels;
  enum hipArray_Format format;
} textureReference;

typedef struct textureReference *hipTexRef;

#ifdef __cplusplus
}
#endif

#endif
