// SPDX-License-Identifier: MIT
// The guide's matrix multiplication (§11.3, seed 000 lines 8143-8398): one thread per
// element of C = A * B, a 2D grid of 16x16 blocks launched with hipLaunchKernelGGL, checked
// against the guide's own CPU version (cpu_matrix_multiplication).
// Fixed/completed: the host code is assembled from the guide's four steps; BLOCK_SIZE,
// never defined, is 16 as the text says; hipMalloc((void*)&d_a) is hipMalloc((void**)&d_a)
// (a void* does not convert to void**); N is 100, not a multiple of 16, so the rounded-up
// grid and the kernel's bounds check matter; inputs come from a fixed seed, and every API
// call is checked.
#include "common/example_utils.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>

#define N 100
#define BLOCK_SIZE 16

__global__ void gpu_matrix_multiplication(float *a, float *b, float *c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;

  if (row < n && col < n) {
    for (int k = 0; k < n; ++k)
      sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

void cpu_matrix_multiplication(float *a, float *b, float *c, int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
  }
}

int main() {
  // Step 1: host memory allocation and initialization, values in [0, 1).
  float *h_a, *h_b, *h_c, *h_ref;
  h_a = (float *)malloc(sizeof(float) * N * N);
  h_b = (float *)malloc(sizeof(float) * N * N);
  h_c = (float *)malloc(sizeof(float) * N * N);
  h_ref = (float *)malloc(sizeof(float) * N * N);
  example_rng rng(8108);
  for (int i = 0; i < N * N; ++i)
    h_a[i] = rng.uniform();
  for (int i = 0; i < N * N; ++i)
    h_b[i] = rng.uniform();

  // Step 2: device memory allocation and data transfer.
  float *d_a, *d_b, *d_c;
  HIP_CHECK(hipMalloc((void **)&d_a, sizeof(float) * N * N));
  HIP_CHECK(hipMalloc((void **)&d_b, sizeof(float) * N * N));
  HIP_CHECK(hipMalloc((void **)&d_c, sizeof(float) * N * N));
  HIP_CHECK(hipMemcpy(d_a, h_a, sizeof(float) * N * N, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_b, h_b, sizeof(float) * N * N, hipMemcpyHostToDevice));

  // Step 3: configure and launch the kernel.
  dim3 threadsPerBlock(BLOCK_SIZE, BLOCK_SIZE);
  int n_blocks = static_cast<int>(ceil(static_cast<float>(N) / BLOCK_SIZE));
  dim3 blocksPerGrid(n_blocks, n_blocks);
  std::cout << "Grid " << n_blocks << "x" << n_blocks << " blocks of " << BLOCK_SIZE << "x"
            << BLOCK_SIZE << " threads for a " << N << "x" << N << " matrix" << std::endl;
  hipLaunchKernelGGL(gpu_matrix_multiplication, blocksPerGrid, threadsPerBlock, 0, 0, d_a, d_b,
                     d_c, N);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());

  // Step 4: copy the result back and clean up.
  HIP_CHECK(hipMemcpy(h_c, d_c, sizeof(float) * N * N, hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_a));
  HIP_CHECK(hipFree(d_b));
  HIP_CHECK(hipFree(d_c));

  // Same sums in the same order; the tolerance allows for fused multiply-adds.
  cpu_matrix_multiplication(h_a, h_b, h_ref, N);
  std::size_t errors = 0;
  for (int i = 0; i < N * N; ++i) {
    if (!(std::fabs(h_c[i] - h_ref[i]) <= 1e-4f * std::fabs(h_ref[i]) + 1e-5f) && errors++ < 5)
      std::cerr << "c[" << i / N << "][" << i % N << "] = " << h_c[i] << ", expected "
                << h_ref[i] << "\n";
  }
  free(h_a);
  free(h_b);
  free(h_c);
  free(h_ref);
  return report_check("matrix_multiplication", errors);
}
