// SPDX-License-Identifier: MIT
// The guide's 2D image convolution, a box blur (§11.6, kernel at seed 000 lines 9248-9281,
// host code at 9371-9445): one thread per pixel, taps outside the image skipped, 16x16
// blocks on a rounded-up 2D grid.
// Fixed/completed: the listing reads neighbours from `image` while other threads overwrite
// it (a data race), so the kernel reads `input` and writes `output`; "image.h" and the
// image file are replaced by a synthetic grey-scale picture from a fixed seed; `channels`,
// used uninitialised to size the mask, is 1, the one channel the kernel indexes; the mask
// is 7x7 instead of 200x200 (40,000 taps per pixel). Checked against the same loop on the
// CPU, allowing 1 grey level for rounding (fused multiply-adds).
#include "common/example_utils.hpp"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

__global__ void conv2d(const uint8_t *input, uint8_t *output, float *mask, int image_width,
                       int image_height, int mask_width, int mask_height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= image_width || y >= image_height)
    return;

  float sum = 0;
  for (int i = 0; i < mask_width; i++) {
    for (int j = 0; j < mask_height; j++) {
      // Calculate the coordinate of the pixel to read.
      int image_x = x + i - mask_width / 2;
      int image_y = y + j - mask_height / 2;

      // Do not read outside the image.
      if (image_x < 0 || image_x >= image_width || image_y < 0 || image_y >= image_height)
        continue;

      // Accumulate the value of the pixel.
      int image_index = image_y * image_width + image_x;
      int mask_index = j * mask_width + i;
      sum += input[image_index] / 255.0f * mask[mask_index];
    }
  }

  int image_index = y * image_width + x;
  output[image_index] = sum * 255;
}

// The same computation on the CPU.
static void conv2d_cpu(const std::vector<uint8_t> &input, std::vector<uint8_t> &output,
                       const std::vector<float> &mask, int width, int height, int mask_width,
                       int mask_height) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float sum = 0;
      for (int i = 0; i < mask_width; i++) {
        for (int j = 0; j < mask_height; j++) {
          int image_x = x + i - mask_width / 2, image_y = y + j - mask_height / 2;
          if (image_x < 0 || image_x >= width || image_y < 0 || image_y >= height)
            continue;
          sum += input[image_y * width + image_x] / 255.0f * mask[j * mask_width + i];
        }
      }
      output[y * width + x] = sum * 255;
    }
  }
}

int main() {
  constexpr int width = 150, height = 100, channels = 1;
  static const int maskWidth = 7;
  static const int maskHeight = 7;
  std::vector<float> mask(maskWidth * maskHeight * channels);

  // Initialize mask with uniform averaging weights
  for (int i = 0; i < maskWidth * maskHeight; ++i)
    mask[i] = 1.0f / maskWidth / maskHeight / channels;

  // A synthetic picture: a diagonal gradient, a bright square, and noise.
  std::vector<uint8_t> image(width * height * channels);
  example_rng rng(9163);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int v = (x + y) % 128 + rng.range(0, 64);
      if (x > 40 && x < 80 && y > 30 && y < 60)
        v = 250;
      image[y * width + x] = static_cast<uint8_t>(v);
    }
  }

  // Allocate GPU memory and copy data to the GPU.
  uint8_t *d_input, *d_output;
  float *d_mask;
  const std::size_t imageBytes = width * height * channels * sizeof(uint8_t);
  HIP_CHECK(hipMalloc(&d_input, imageBytes));
  HIP_CHECK(hipMalloc(&d_output, imageBytes));
  HIP_CHECK(hipMalloc(&d_mask, maskWidth * maskHeight * channels * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_input, image.data(), imageBytes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_mask, mask.data(), maskWidth * maskHeight * channels * sizeof(float),
                      hipMemcpyHostToDevice));

  // Calculate grid size and launch the kernel.
  dim3 block_size = {16, 16, 1};
  dim3 grid_size = {(width + block_size.x - 1) / block_size.x,
                    (height + block_size.y - 1) / block_size.y, 1};
  conv2d<<<grid_size, block_size>>>(d_input, d_output, d_mask, width, height, maskWidth,
                                    maskHeight);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());

  // Copy the data back to the host.
  std::vector<uint8_t> result(width * height * channels);
  HIP_CHECK(hipMemcpy(result.data(), d_output, imageBytes, hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_input));
  HIP_CHECK(hipFree(d_output));
  HIP_CHECK(hipFree(d_mask));

  std::vector<uint8_t> expected(width * height * channels);
  conv2d_cpu(image, expected, mask, width, height, maskWidth, maskHeight);
  std::size_t errors = 0;
  for (int i = 0; i < width * height; ++i) {
    if (std::abs(result[i] - expected[i]) > 1 && errors++ < 5)
      std::cerr << "pixel (" << i % width << ", " << i / width << "): " << int(result[i])
                << ", expected " << int(expected[i]) << "\n";
  }
  std::cout << "Blurred centre of the bright square: " << int(result[45 * width + 60])
            << std::endl;
  return report_check("convolution", errors);
}
