// SPDX-License-Identifier: MIT
// HIP's deprecated texture reference type, texture<T, dim, mode>, is declared
// on the CPU device so that code declaring one compiles (ROCm's unit suite:
// module/addKernel.cc declares `texture<float, 2> tex;` next to the kernels
// its module tests load). Nothing binds one or fetches through one. Checked:
// the settings HIP's constructors give, against hipCreateChannelDesc, and
// that kernels of a source declaring texture references run. CUDA 12 has no
// texture references: skipped on NVIDIA.
#include "engine_test.h"

// The NVIDIA pass sees none of it (CUDA 12 has no texture references): the host code,
// always the CPU pass's, skips on an NVIDIA device.
#if !defined(__HIP_PLATFORM_NVIDIA__)
texture<float, 2> tex;
texture<uchar4, hipTextureType2D, hipReadModeNormalizedFloat> tex_n(1, hipFilterModeLinear,
                                                                    hipAddressModeWrap);

__global__ void add2(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 2;
}

static bool same(const hipChannelFormatDesc &a, const hipChannelFormatDesc &b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w && a.f == b.f;
}

int main() {
  // The program's host code is the CPU pass's (this branch) on every device.
  if (!ah_on_cpu_device()) {
    std::printf("skipped: CUDA 12 has no texture references\n");
    return AH_SKIP;
  }
  CHECK_EQ(tex.normalized, 0);
  CHECK_EQ(tex.readMode, hipReadModeElementType);
  CHECK_EQ(tex.filterMode, hipFilterModePoint);
  for (int d = 0; d < 3; d++)
    CHECK_EQ(tex.addressMode[d], hipAddressModeClamp);
  CHECK(same(tex.channelDesc, hipCreateChannelDesc<float>()));
  CHECK(tex.textureObject == nullptr);
  CHECK_EQ(tex_n.normalized, 1);
  CHECK_EQ(tex_n.readMode, hipReadModeNormalizedFloat);
  CHECK_EQ(tex_n.filterMode, hipFilterModeLinear);
  for (int d = 0; d < 3; d++)
    CHECK_EQ(tex_n.addressMode[d], hipAddressModeWrap);
  CHECK(same(tex_n.channelDesc, hipCreateChannelDesc<uchar4>()));
  textureReference *base = &tex_n; // a texture is a textureReference
  CHECK_EQ(base->normalized, 1);

  const int n = 100;
  int h[n], *d;
  for (int i = 0; i < n; i++)
    h[i] = i;
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
  add2<<<4, 32>>>(d, n);
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    CHECK_EQ(h[i], i + 2);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}
#endif
