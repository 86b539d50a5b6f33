// SPDX-License-Identifier: MIT
// The guide's image gamma correction, one thread per value (§15.4, Listing 1, seed 000 lines
// 11330-11390): V_out = V_in^gamma on the 8-bit channels of an RGB image, gamma = 4, blocks
// of 256 threads and a grid rounded up to cover every value.
// Fixed/completed: the listing never allocates d_image nor copies the image to it, and its
// image load and save are comments; here a synthetic 267x267 RGB image (the size of the
// guide's figure) from a fixed seed is copied in, the result copied back and compared with
// the same formula on the CPU (allowing 1 level for powf rounding differences).
#include "common/example_utils.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

__global__ void image_gamma(std::uint8_t *d_image, float gamma, int num_values) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < num_values)
    d_image[idx] = powf(d_image[idx] / 255.f, gamma) * 255.f;
}

int main() {
  const int width = 267, height = 267, channels = 3;
  const int num_values = width * height * channels;

  // A synthetic image instead of a file.
  std::vector<std::uint8_t> data(num_values);
  example_rng rng(11305);
  for (auto &v : data)
    v = static_cast<std::uint8_t>(rng.range(0, 256));

  std::uint8_t *d_image;
  HIP_CHECK(hipMalloc(&d_image, num_values * sizeof(std::uint8_t)));
  HIP_CHECK(hipMemcpy(d_image, data.data(), num_values * sizeof(std::uint8_t),
                      hipMemcpyHostToDevice));

  int blockSize = 256;
  int gridSize = (num_values + blockSize - 1) / blockSize;
  float gamma = 4.f;
  image_gamma<<<gridSize, blockSize>>>(d_image, gamma, num_values);
  HIP_CHECK(hipGetLastError());

  std::vector<std::uint8_t> result(num_values);
  HIP_CHECK(hipMemcpy(result.data(), d_image, num_values * sizeof(std::uint8_t),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_image));

  std::size_t errors = 0;
  for (int i = 0; i < num_values; ++i) {
    const int expected = static_cast<std::uint8_t>(std::pow(data[i] / 255.f, gamma) * 255.f);
    if (std::abs(result[i] - expected) > 1 && errors++ < 5)
      std::cerr << "value " << i << ": " << int(data[i]) << " -> " << int(result[i])
                << ", expected " << expected << "\n";
  }
  std::cout << "Gamma " << gamma << " on " << num_values << " values, grid of " << gridSize
            << " blocks" << std::endl;
  return report_check("gamma_correction", errors);
}
