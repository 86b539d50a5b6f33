// SPDX-License-Identifier: MIT
// Texture management, in the manner of ROCm's rocm-examples "texture_management": an image
// goes into a HIP array (hipMallocArray, hipMemcpy2DToArray), a texture object samples it
// (hipCreateTextureObject) and kernels read it with tex2D:
//  1. a 2x enlargement with bilinear filtering and normalized coordinates, clamped at the
//     edges;
//  2. a rotation about the centre, point sampling, with the border colour outside the image;
// then a surface object writes the enlarged image into a second array (surf2Dwrite) that
// is copied back. Each result is compared with the same computation on the host (bilinear
// weights to 1/256 as the texture unit has them), to within 1/100 of the value range.
#include "common/example_utils.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void enlarge(hipTextureObject_t tex, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) // the centre of output pixel (x, y), in [0, 1]
    out[y * w + x] = tex2D<float>(tex, (x + 0.5f) / w, (y + 0.5f) / h);
}

__global__ void rotate(hipTextureObject_t tex, float *out, int w, int h, float angle) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float u = x - w / 2.0f, v = y - h / 2.0f, c = cosf(angle), s = sinf(angle);
  out[y * w + x] = tex2D<float>(tex, u * c - v * s + w / 2.0f, u * s + v * c + h / 2.0f);
}

__global__ void store(hipSurfaceObject_t surf, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    surf2Dwrite(in[y * w + x], surf, x * (int)sizeof(float), y);
}

// The host's bilinear sample at texel coordinates (x, y), clamped.
static float bilinear(const std::vector<float> &img, int w, int h, float x, float y) {
  auto at = [&](float i, float j) {
    int a = (int)std::fmin(std::fmax(i, 0.0f), w - 1.0f), b = (int)std::fmin(std::fmax(j, 0.0f), h - 1.0f);
    return img[b * w + a];
  };
  float xb = x - 0.5f, yb = y - 0.5f;
  float i = std::floor(xb), j = std::floor(yb);
  float a = std::round((xb - i) * 256.0f) / 256.0f, b = std::round((yb - j) * 256.0f) / 256.0f;
  return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) + (1 - a) * b * at(i, j + 1) +
         a * b * at(i + 1, j + 1);
}

int main() {
  print_device_banner();
  const int w = 64, h = 48, W = 2 * w, H = 2 * h;
  const float angle = 0.5f, border = -1.0f;

  // A smooth image (values in [0, 1]) with a little noise.
  std::vector<float> img(w * h);
  example_rng rng(2024);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      img[y * w + x] = 0.5f + 0.4f * sinf(x * 0.2f) * cosf(y * 0.15f) + 0.1f * rng.uniform();

  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipArray_t array;
  HIP_CHECK(hipMallocArray(&array, &desc, w, h));
  HIP_CHECK(hipMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                               hipMemcpyHostToDevice));

  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  td.filterMode = hipFilterModeLinear;
  td.readMode = hipReadModeElementType;
  td.normalizedCoords = 1;
  hipTextureObject_t smooth;
  HIP_CHECK(hipCreateTextureObject(&smooth, &res, &td, nullptr));

  td.addressMode[0] = td.addressMode[1] = hipAddressModeBorder;
  td.filterMode = hipFilterModePoint;
  td.normalizedCoords = 0;
  for (float &c : td.borderColor)
    c = border;
  hipTextureObject_t sharp;
  HIP_CHECK(hipCreateTextureObject(&sharp, &res, &td, nullptr));

  float *d_big, *d_rot;
  HIP_CHECK(hipMalloc(&d_big, W * H * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_rot, w * h * sizeof(float)));
  dim3 block(16, 16);
  enlarge<<<dim3((W + 15) / 16, (H + 15) / 16), block>>>(smooth, d_big, W, H);
  HIP_CHECK(hipGetLastError());
  rotate<<<dim3((w + 15) / 16, (h + 15) / 16), block>>>(sharp, d_rot, w, h, angle);
  HIP_CHECK(hipGetLastError());

  // The enlarged image into an array through a surface, and back.
  hipArray_t big_array;
  HIP_CHECK(hipMallocArray(&big_array, &desc, W, H, hipArraySurfaceLoadStore));
  hipResourceDesc sres = {};
  sres.resType = hipResourceTypeArray;
  sres.res.array.array = big_array;
  hipSurfaceObject_t surf;
  HIP_CHECK(hipCreateSurfaceObject(&surf, &sres));
  store<<<dim3((W + 15) / 16, (H + 15) / 16), block>>>(surf, d_big, W, H);
  HIP_CHECK(hipGetLastError());

  std::vector<float> big(W * H), rot(w * h), big_back(W * H);
  HIP_CHECK(hipMemcpy(big.data(), d_big, big.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(rot.data(), d_rot, rot.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy2DFromArray(big_back.data(), W * sizeof(float), big_array, 0, 0,
                                 W * sizeof(float), H, hipMemcpyDeviceToHost));

  size_t bad_big = 0, bad_rot = 0, bad_surf = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      float want = bilinear(img, w, h, (x + 0.5f) / W * w, (y + 0.5f) / H * h);
      bad_big += std::fabs(big[y * W + x] - want) > 0.01f;
      bad_surf += big_back[y * W + x] != big[y * W + x];
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float u = x - w / 2.0f, v = y - h / 2.0f, c = cosf(angle), s = sinf(angle);
      float sx = std::floor(u * c - v * s + w / 2.0f), sy = std::floor(u * s + v * c + h / 2.0f);
      float want = sx < 0 || sy < 0 || sx >= w || sy >= h ? border : img[(int)sy * w + (int)sx];
      bad_rot += rot[y * w + x] != want;
    }
  // A source coordinate that falls within rounding of a pixel edge may land on either side
  // on a GPU (its sinf/cosf differ from the host's in the last bits): up to 1% may differ.
  if (bad_rot <= (size_t)(w * h) / 100)
    bad_rot = 0;

  int failed = report_check("bilinear 2x enlargement (tex2D, linear, normalized)", bad_big) +
               report_check("rotation (tex2D, point, border colour)", bad_rot) +
               report_check("surface store and copy back (surf2Dwrite)", bad_surf);

  HIP_CHECK(hipDestroySurfaceObject(surf));
  HIP_CHECK(hipDestroyTextureObject(smooth));
  HIP_CHECK(hipDestroyTextureObject(sharp));
  HIP_CHECK(hipFreeArray(array));
  HIP_CHECK(hipFreeArray(big_array));
  HIP_CHECK(hipFree(d_big));
  HIP_CHECK(hipFree(d_rot));
  return failed ? 1 : 0;
}
