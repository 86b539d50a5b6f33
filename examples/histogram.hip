// SPDX-License-Identifier: MIT
// The guide's brightness histogram with atomics (§11.4, kernel at seed 000 lines 8560-8583)
// and the shared-memory privatised variant its best practices recommend (lines 8642-8658):
// each block counts into its own bins in shared memory, then adds each bin to global memory
// with one atomic. Both results must equal a CPU histogram exactly.
// Fixed/completed: the guide gives only the kernel, so the host code and a synthetic RGB
// image (fixed seed, interleaved HWC as the kernel indexes it, although the text says CHW)
// are written here; a brightness of exactly 1.0 gave bin == numBins, one past the end, so
// the bin is clamped (the image contains such white pixels on purpose).
#include "common/example_utils.hpp"

#include <iostream>
#include <vector>

__device__ __host__ inline int brightness_bin(const float *pixel, int channels, int numBins) {
  float brightness = 0.0f;
  for (int c = 0; c < channels; ++c)
    brightness += pixel[c];
  brightness /= channels;  // Normalize to [0, 1]
  int bin = static_cast<int>(brightness * numBins);
  return bin < numBins ? bin : numBins - 1;  // brightness 1.0 belongs to the last bin
}

// The guide's kernel: one global atomic per pixel.
__global__ void calculateHistogram(float *imageData, int *histogram, int width, int height,
                                   int channels, int numBins) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= width || y >= height)
    return;

  int idx = (y * width + x) * channels;
  int bin = brightness_bin(&imageData[idx], channels, numBins);
  // Atomic increment to avoid race conditions
  atomicAdd(&histogram[bin], 1);
}

// Privatised: per-block bins in shared memory (numBins ints of dynamic shared memory), one
// global atomic per non-empty bin per block. No early return: every thread must reach both
// barriers.
__global__ void calculateHistogramShared(float *imageData, int *histogram, int width, int height,
                                         int channels, int numBins) {
  extern __shared__ int localBins[];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int blockThreads = blockDim.x * blockDim.y;

  for (int b = tid; b < numBins; b += blockThreads)
    localBins[b] = 0;
  __syncthreads();

  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    atomicAdd(&localBins[brightness_bin(&imageData[(y * width + x) * channels], channels,
                                        numBins)],
              1);
  __syncthreads();

  for (int b = tid; b < numBins; b += blockThreads) {
    if (localBins[b] != 0)
      atomicAdd(&histogram[b], localBins[b]);
  }
}

int main() {
  constexpr int width = 300, height = 200, channels = 3, numBins = 64;
  constexpr int pixels = width * height;

  // A synthetic image: random channels, plus a band of white pixels (brightness exactly 1).
  std::vector<float> image(pixels * channels);
  example_rng rng(8459);
  for (auto &v : image)
    v = rng.uniform();
  for (int i = 0; i < 50 * channels; ++i)
    image[i] = 1.0f;

  std::vector<int> expected(numBins, 0);
  for (int p = 0; p < pixels; ++p)
    expected[brightness_bin(&image[p * channels], channels, numBins)]++;

  float *d_image;
  int *d_histogram;
  HIP_CHECK(hipMalloc(&d_image, image.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_histogram, numBins * sizeof(int)));
  HIP_CHECK(hipMemcpy(d_image, image.data(), image.size() * sizeof(float),
                      hipMemcpyHostToDevice));

  const dim3 block(16, 16);
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  int failures = 0;
  for (int variant = 0; variant < 2; ++variant) {
    HIP_CHECK(hipMemset(d_histogram, 0, numBins * sizeof(int)));
    if (variant == 0)
      calculateHistogram<<<grid, block>>>(d_image, d_histogram, width, height, channels, numBins);
    else
      calculateHistogramShared<<<grid, block, numBins * sizeof(int)>>>(
          d_image, d_histogram, width, height, channels, numBins);
    HIP_CHECK(hipGetLastError());
    std::vector<int> histogram(numBins);
    HIP_CHECK(hipMemcpy(histogram.data(), d_histogram, numBins * sizeof(int),
                        hipMemcpyDeviceToHost));

    std::size_t errors = 0;
    for (int b = 0; b < numBins; ++b) {
      if (histogram[b] != expected[b] && errors++ < 5)
        std::cerr << "bin " << b << ": " << histogram[b] << ", expected " << expected[b] << "\n";
    }
    failures += report_check(variant == 0 ? "histogram (global atomics)"
                                          : "histogram (shared-memory privatised)",
                             errors);
  }
  std::cout << "Last bin (includes the 50 white pixels): " << expected[numBins - 1] << std::endl;

  HIP_CHECK(hipFree(d_image));
  HIP_CHECK(hipFree(d_histogram));
  return failures;
}
