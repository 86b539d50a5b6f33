// SPDX-License-Identifier: MIT
// Static __shared__ memory: a padded 2-D tile (matrix transpose of a 77x100
// matrix on a 2-D grid), `static __shared__` inside a __device__ function,
// a namespace-scope __shared__ variable, and isolation between blocks: many
// blocks running at once on several workers each fill their shared array
// with their own block number and, after several barriers, still see only
// their own values. Results are compared with the host.
#include "engine_test.h"

#include <vector>

constexpr int kTile = 16;

__global__ void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  if (x < cols && y < rows)
    tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  if (x < rows && y < cols)
    out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

// A block-wide sum through a shared array owned by a device function.
__device__ int block_sum(int v) {
  static __shared__ int part[256];
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if ((int)threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  int r = part[0];
  __syncthreads(); // nobody overwrites part[0] before everyone read it
  return r;
}

__global__ void sums(const int *in, int *out) {
  int r = block_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = r;
}

__shared__ int g_flag; // namespace scope

__global__ void isolation(int *bad) {
  __shared__ int mine[128];
  if (threadIdx.x == 0)
    g_flag = blockIdx.x;
  mine[threadIdx.x] = blockIdx.x;
  for (int k = 0; k < 6; k++) {
    __syncthreads();
    int v = mine[(threadIdx.x + 17 * k) % 128];
    if (v != (int)blockIdx.x || g_flag != (int)blockIdx.x)
      atomicAdd(bad, 1);
    __syncthreads();
    mine[threadIdx.x] = blockIdx.x;
  }
}

int main() {
  const int rows = 77, cols = 100;
  std::vector<float> in(rows * cols), out(rows * cols);
  float *din = nullptr, *dout = nullptr;

  for (int i = 0; i < rows * cols; i++)
    in[i] = (float)i * 0.5f;
  CHECK_HIP(hipMalloc(&din, in.size() * sizeof(float)));
  CHECK_HIP(hipMalloc(&dout, in.size() * sizeof(float)));
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));
  transpose<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(kTile, kTile)>>>(
      din, dout, rows, cols);
  CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < cols; x++)
      CHECK(out[x * rows + y] == in[y * cols + x]);

  const int blocks = 40;
  std::vector<int> v(blocks * 256), s(blocks);
  int *dv = nullptr, *ds = nullptr;
  for (size_t i = 0; i < v.size(); i++)
    v[i] = (int)(i % 13) - 6 + (int)(i / 256);
  CHECK_HIP(hipMalloc(&dv, v.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&ds, s.size() * sizeof(int)));
  CHECK_HIP(hipMemcpy(dv, v.data(), v.size() * sizeof(int), hipMemcpyHostToDevice));
  sums<<<blocks, 256>>>(dv, ds);
  CHECK_HIP(hipMemcpy(s.data(), ds, s.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int want = 0;
    for (int t = 0; t < 256; t++)
      want += v[b * 256 + t];
    CHECK_EQ(s[b], want);
  }

  int *dbad = nullptr, bad = -1;
  CHECK_HIP(hipMalloc(&dbad, sizeof(int)));
  CHECK_HIP(hipMemset(dbad, 0, sizeof(int)));
  isolation<<<500, 128>>>(dbad);
  CHECK_HIP(hipMemcpy(&bad, dbad, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_EQ(bad, 0);

  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
  CHECK_HIP(hipFree(dv));
  CHECK_HIP(hipFree(ds));
  CHECK_HIP(hipFree(dbad));
  std::printf("passed\n");
  return AH_PASS;
}
