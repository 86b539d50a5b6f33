// SPDX-License-Identifier: MIT
// The guide's tiling tutorial (§15.7, seed 000 lines 12319-12585): C (m x n) = A (m x k) *
// B (k x n) three ways, each checked against a CPU product:
//   naive           one thread per output, everything from global memory
//   LDS tiling      16x16 tiles of A and B staged in shared memory, two barriers per tile
//   register tiling each thread computes a 4x4 block of C from registers; 2x2 "warps" of
//                   4x4-thread tiles per block, k in steps of 16 through padded shared tiles
// Fixed/completed: the guide gives the kernels only; host code, data (fixed seed) and the
// CPU reference are written here. `warp_size`, used but never defined by the register-tiling
// kernel, must be a compile-time constant: it becomes a template argument chosen from the
// device's warp size (it shapes the block, 4 * warp_size threads, not the hardware warp,
// so either value is correct on any device). Sizes (m, n, k = 100, 75, 90) are not multiples
// of the tiles, so the zero padding at the edges is exercised.
#include "common/example_utils.hpp"

#include <cmath>
#include <iostream>
#include <vector>

// Naive matrix multiplication kernel
__global__ void matrix_multiply_naive(float *a, float *b, float *out, int m, int n, int k) {
  int gid_x = blockDim.x * blockIdx.x + threadIdx.x;
  int gid_y = blockDim.y * blockIdx.y + threadIdx.y;

  if (gid_x < n && gid_y < m) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i)
      sum += a[gid_y * k + i] * b[i * n + gid_x];
    out[gid_y * n + gid_x] = sum;
  }
}

// LDS tiling parameters
constexpr int base_tile_size = 16;  // LDS tile dimension

// LDS tiling kernel; the block must be base_tile_size x base_tile_size threads.
__global__ void matrix_multiply_lds_tiling(float *a, float *b, float *out, int m, int n, int k) {
  __shared__ float tilea[base_tile_size][base_tile_size];
  __shared__ float tileb[base_tile_size][base_tile_size];

  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = blockIdx.y * base_tile_size + ty;
  int col = blockIdx.x * base_tile_size + tx;
  float sum = 0.0f;

  int numtiles = (k + base_tile_size - 1) / base_tile_size;
  for (int t = 0; t < numtiles; t++) {
    int acol = t * base_tile_size + tx;
    if (row < m && acol < k)
      tilea[ty][tx] = a[row * k + acol];
    else
      tilea[ty][tx] = 0.0f;

    int brow = t * base_tile_size + ty;
    if (brow < k && col < n)
      tileb[ty][tx] = b[brow * n + col];
    else
      tileb[ty][tx] = 0.0f;

    __syncthreads();
    for (int i = 0; i < base_tile_size; i++)
      sum += tilea[ty][i] * tileb[i][tx];
    __syncthreads();
  }

  if (row < m && col < n)
    out[row * n + col] = sum;
}

// Register tiling parameters
constexpr int thread_tile_m = 4;  // Each thread computes 4x4 output
constexpr int thread_tile_n = 4;
constexpr int warp_threads_n = thread_tile_n;  // 4
constexpr int block_warps_m = 2;
constexpr int block_warps_n = 2;
constexpr int k_tile_size = 16;  // K-dimension tile size

// Register tiling kernel; the block must be 4 * warp_size threads.
template <int warp_size>
__global__ void matrix_multiply_register_tiling(float *a, float *b, float *out, int m, int n,
                                                int k) {
  constexpr int warp_threads_m = warp_size / warp_threads_n;
  constexpr int warp_tile_m = warp_threads_m * thread_tile_m;
  constexpr int warp_tile_n = warp_threads_n * thread_tile_n;
  constexpr int block_threads = warp_size * block_warps_m * block_warps_n;
  constexpr int block_tile_m = block_warps_m * warp_tile_m;
  constexpr int block_tile_n = block_warps_n * warp_tile_n;

  __shared__ float tilea[block_tile_m][k_tile_size + 4];
  __shared__ float tileb[k_tile_size][block_tile_n];

  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int warp_id = tid / warp_size;
  int lane_id = tid % warp_size;
  int warp_row = warp_id / block_warps_n;
  int warp_col = warp_id % block_warps_n;
  int lane_row = lane_id / warp_threads_n;
  int lane_col = lane_id % warp_threads_n;
  int thread_row_in_block = warp_row * warp_tile_m + lane_row * thread_tile_m;
  int thread_col_in_block = warp_col * warp_tile_n + lane_col * thread_tile_n;
  int block_row_start = blockIdx.y * block_tile_m;
  int block_col_start = blockIdx.x * block_tile_n;

  float regc[thread_tile_m][thread_tile_n] = {{0.0f}};

  int numtiles = (k + k_tile_size - 1) / k_tile_size;
  for (int t = 0; t < numtiles; t++) {
    int elements_to_load_a = (block_tile_m * k_tile_size) / block_threads;
    for (int i = 0; i < elements_to_load_a; i++) {
      int idx = tid + i * block_threads;
      int tile_m = idx / k_tile_size;
      int tile_n = idx % k_tile_size;
      int global_m = block_row_start + tile_m;
      int global_n = t * k_tile_size + tile_n;
      if (global_m < m && global_n < k && tile_m < block_tile_m)
        tilea[tile_m][tile_n] = a[global_m * k + global_n];
      else if (tile_m < block_tile_m)
        tilea[tile_m][tile_n] = 0.0f;
    }

    int elements_to_load_b = (k_tile_size * block_tile_n) / block_threads;
    for (int i = 0; i < elements_to_load_b; i++) {
      int idx = tid + i * block_threads;
      int tile_m = idx / block_tile_n;
      int tile_n = idx % block_tile_n;
      int global_m = t * k_tile_size + tile_m;
      int global_n = block_col_start + tile_n;
      if (global_m < k && global_n < n && tile_m < k_tile_size)
        tileb[tile_m][tile_n] = b[global_m * n + global_n];
      else if (tile_m < k_tile_size)
        tileb[tile_m][tile_n] = 0.0f;
    }

    __syncthreads();

    for (int kk = 0; kk < k_tile_size; kk++) {
      float rega[thread_tile_m];
      for (int i = 0; i < thread_tile_m; i++)
        rega[i] = tilea[thread_row_in_block + i][kk];
      float regb[thread_tile_n];
      for (int j = 0; j < thread_tile_n; j++)
        regb[j] = tileb[kk][thread_col_in_block + j];
      for (int i = 0; i < thread_tile_m; i++)
        for (int j = 0; j < thread_tile_n; j++)
          regc[i][j] += rega[i] * regb[j];
    }

    __syncthreads();
  }

  for (int i = 0; i < thread_tile_m; i++) {
    for (int j = 0; j < thread_tile_n; j++) {
      int global_row = block_row_start + thread_row_in_block + i;
      int global_col = block_col_start + thread_col_in_block + j;
      if (global_row < m && global_col < n)
        out[global_row * n + global_col] = regc[i][j];
    }
  }
}

template <int warp_size>
static void launch_register_tiling(float *a, float *b, float *out, int m, int n, int k) {
  constexpr int block_tile_m = block_warps_m * (warp_size / warp_threads_n) * thread_tile_m;
  constexpr int block_tile_n = block_warps_n * warp_threads_n * thread_tile_n;
  const dim3 grid((n + block_tile_n - 1) / block_tile_n, (m + block_tile_m - 1) / block_tile_m);
  const dim3 block(warp_size * block_warps_m * block_warps_n);
  matrix_multiply_register_tiling<warp_size><<<grid, block>>>(a, b, out, m, n, k);
}

int main() {
  constexpr int m = 100, n = 75, k = 90;
  std::vector<float> a(m * k), b(k * n), ref(m * n, 0.0f), out(m * n);
  example_rng rng(12294);
  for (auto &v : a)
    v = rng.uniform() - 0.5f;
  for (auto &v : b)
    v = rng.uniform() - 0.5f;
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c) {
      double sum = 0.0;
      for (int i = 0; i < k; ++i)
        sum += double(a[r * k + i]) * b[i * n + c];
      ref[r * n + c] = float(sum);
    }

  float *d_a, *d_b, *d_out;
  HIP_CHECK(hipMalloc(&d_a, a.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_b, b.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, out.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_a, a.data(), a.size() * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_b, b.data(), b.size() * sizeof(float), hipMemcpyHostToDevice));

  const int warp_size = current_warp_size();
  int failures = 0;
  for (int variant = 0; variant < 3; ++variant) {
    HIP_CHECK(hipMemset(d_out, 0, out.size() * sizeof(float)));
    const dim3 tile(base_tile_size, base_tile_size);
    const dim3 grid((n + tile.x - 1) / tile.x, (m + tile.y - 1) / tile.y);
    const char *name = nullptr;
    if (variant == 0) {
      name = "naive";
      matrix_multiply_naive<<<grid, tile>>>(d_a, d_b, d_out, m, n, k);
    } else if (variant == 1) {
      name = "LDS tiling";
      matrix_multiply_lds_tiling<<<grid, tile>>>(d_a, d_b, d_out, m, n, k);
    } else {
      name = "register tiling";
      if (warp_size == 32)
        launch_register_tiling<32>(d_a, d_b, d_out, m, n, k);
      else
        launch_register_tiling<64>(d_a, d_b, d_out, m, n, k);
    }
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), d_out, out.size() * sizeof(float), hipMemcpyDeviceToHost));

    std::size_t errors = 0;
    for (int i = 0; i < m * n; ++i) {
      if (!(std::fabs(out[i] - ref[i]) <= 1e-3f) && errors++ < 5)
        std::cerr << name << ": out[" << i / n << "][" << i % n << "] = " << out[i]
                  << ", expected " << ref[i] << "\n";
    }
    std::cout << "matrix multiply " << m << "x" << k << " * " << k << "x" << n << ", " << name
              << ": ";
    failures += report_check("tiled_matrix_multiplication", errors);
  }
  HIP_CHECK(hipFree(d_a));
  HIP_CHECK(hipFree(d_b));
  HIP_CHECK(hipFree(d_out));
  return failures;
}
