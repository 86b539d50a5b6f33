// SPDX-License-Identifier: MIT
// The guide's fixed-size gamma correction kernel with a grid-stride loop (§15.5, Listing 2,
// seed 000 lines 11436-11480): the grid no longer depends on the image size; each thread
// handles the values idx, idx + gridDim.x * blockDim.x, ...
// Fixed/completed: `#include <cstdliblib>` is <cstdlib>; num_values, d_image and the copy
// to the device were missing; the placeholder `[GridSize]` is swept over several sizes (one
// block, an odd count, the number of multiprocessors and multiples of it, as the guide's
// advice suggests, and one thread per value), each result checked against the CPU;
// d_image is freed.
#include "common/example_utils.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

__global__ void image_gamma(std::uint8_t *d_image, float gamma, int num_values) {
  int global_size = blockDim.x * gridDim.x;
  int idx = threadIdx.x + blockIdx.x * blockDim.x;

  for (; idx < num_values; idx += global_size) {
    float value = d_image[idx] / 255.f;
    value = powf(value, gamma);
    d_image[idx] = (std::uint8_t)(value * 255.f);
  }
}

int main() {
  const int width = 300, height = 200, channels = 3;
  const int num_values = width * height * channels;

  std::vector<std::uint8_t> data(num_values);
  example_rng rng(11417);
  for (auto &v : data)
    v = static_cast<std::uint8_t>(rng.range(0, 256));
  const float gamma = 4.f;
  std::vector<std::uint8_t> expected(num_values);
  for (int i = 0; i < num_values; ++i)
    expected[i] = (std::uint8_t)(std::pow(data[i] / 255.f, gamma) * 255.f);

  hipDeviceProp_t props;
  int device;
  HIP_CHECK(hipGetDevice(&device));
  HIP_CHECK(hipGetDeviceProperties(&props, device));
  const int cus = props.multiProcessorCount > 0 ? props.multiProcessorCount : 1;

  std::uint8_t *d_image;
  HIP_CHECK(hipMalloc(&d_image, num_values * sizeof(std::uint8_t)));

  const int blockSize = 256;
  const int gridSizes[] = {1, 7, cus, 4 * cus, (num_values + blockSize - 1) / blockSize};
  int failures = 0;
  std::vector<std::uint8_t> result(num_values);
  for (int gridSize : gridSizes) {
    HIP_CHECK(hipMemcpy(d_image, data.data(), num_values, hipMemcpyHostToDevice));
    image_gamma<<<gridSize, blockSize>>>(d_image, gamma, num_values);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(result.data(), d_image, num_values, hipMemcpyDeviceToHost));

    std::size_t errors = 0;
    for (int i = 0; i < num_values; ++i) {
      if (std::abs(result[i] - expected[i]) > 1 && errors++ < 5)
        std::cerr << "grid " << gridSize << ", value " << i << ": " << int(result[i])
                  << ", expected " << int(expected[i]) << "\n";
    }
    std::cout << "grid of " << gridSize << " blocks: ";
    failures += report_check("gamma_grid_stride", errors);
  }
  HIP_CHECK(hipFree(d_image));
  return failures;
}
