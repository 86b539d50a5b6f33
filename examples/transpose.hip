// SPDX-License-Identifier: MIT
// The guide's matrix transpose (§15.8, seed 000 lines 12609-12663): a naive kernel (reads
// coalesced, writes strided) and one staging a tile in shared memory so that both global
// reads and writes are coalesced; plus the padded tile the guide's bank-conflict advice
// suggests ([tile_dim][tile_dim + 1]). Each result must equal the CPU transpose exactly.
// Fixed/completed: tile_dim, never defined, is 16 (the guide suggests 16 or 32); the kernels
// had no bounds checks, so only sizes that are multiples of tile_dim worked: the guide's
// "edge case handling" advice is followed (each global access checked) and the matrix is
// 200 x 130. Host code and data (fixed seed) are written here.
#include "common/example_utils.hpp"

#include <iostream>
#include <vector>

constexpr int tile_dim = 16;

// Simple matrix transpose kernel
__global__ void transpose_naive_kernel(float *in, float *out, int width, int height) {
  int x_index = blockIdx.x * tile_dim + threadIdx.x;
  int y_index = blockIdx.y * tile_dim + threadIdx.y;

  int in_index = y_index * width + x_index;
  int out_index = x_index * height + y_index;

  if (x_index < width && y_index < height)
    out[out_index] = in[in_index];
}

// LDS-based matrix transpose kernel for better memory coalescing; Pad = 1 gives the
// bank-conflict-free layout.
template <int Pad>
__global__ void transpose_lds_kernel(float *in, float *out, int width, int height) {
  __shared__ float tile[tile_dim][tile_dim + Pad];

  int x_tile_index = blockIdx.x * tile_dim;
  int y_tile_index = blockIdx.y * tile_dim;

  int in_index = (y_tile_index + threadIdx.y) * width + (x_tile_index + threadIdx.x);
  int out_index = (x_tile_index + threadIdx.y) * height + (y_tile_index + threadIdx.x);

  if (x_tile_index + threadIdx.x < width && y_tile_index + threadIdx.y < height)
    tile[threadIdx.y][threadIdx.x] = in[in_index];

  __syncthreads();

  if (x_tile_index + threadIdx.y < width && y_tile_index + threadIdx.x < height)
    out[out_index] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  constexpr int width = 200, height = 130;
  std::vector<float> in(width * height), out(width * height);
  example_rng rng(12602);
  for (auto &v : in)
    v = rng.uniform();

  float *d_in, *d_out;
  HIP_CHECK(hipMalloc(&d_in, in.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, out.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));

  const dim3 block(tile_dim, tile_dim);
  const dim3 grid((width + tile_dim - 1) / tile_dim, (height + tile_dim - 1) / tile_dim);
  const char *names[] = {"naive", "LDS tile", "LDS tile, padded"};
  int failures = 0;
  for (int variant = 0; variant < 3; ++variant) {
    HIP_CHECK(hipMemset(d_out, 0, out.size() * sizeof(float)));
    if (variant == 0)
      transpose_naive_kernel<<<grid, block>>>(d_in, d_out, width, height);
    else if (variant == 1)
      transpose_lds_kernel<0><<<grid, block>>>(d_in, d_out, width, height);
    else
      transpose_lds_kernel<1><<<grid, block>>>(d_in, d_out, width, height);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), d_out, out.size() * sizeof(float), hipMemcpyDeviceToHost));

    // out has `width` rows of `height` values.
    std::size_t errors = 0;
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        if (out[x * height + y] != in[y * width + x] && errors++ < 5)
          std::cerr << names[variant] << ": out[" << x << "][" << y << "] = "
                    << out[x * height + y] << ", expected " << in[y * width + x] << "\n";
      }
    }
    std::cout << "transpose " << width << "x" << height << ", " << names[variant] << ": ";
    failures += report_check("transpose", errors);
  }
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
  return failures;
}
