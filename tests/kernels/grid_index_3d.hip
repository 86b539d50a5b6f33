// SPDX-License-Identifier: MIT
// Built-in variables over 2-D and 3-D grids and blocks: every thread writes
// its threadIdx, blockIdx, blockDim and gridDim (also read through dim3 and
// uint3 conversions) at the slot given by the correct global linearization
// (x fastest); every slot must be written exactly once with the values of
// the thread that owns it. Also blocks of a single thread, and the values
// the built-ins have in host code (indices 0, dimensions 1).
#include "engine_test.h"

#include <vector>

struct Ids {
  unsigned t[3], b[3], bd[3], gd[3];
  unsigned seen;
};

__global__ void ids(Ids *out) {
  dim3 bd = blockDim;
  uint3 gd = gridDim;
  unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned gz = blockIdx.z * blockDim.z + threadIdx.z;
  unsigned w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
  Ids &o = out[gx + gy * w + gz * w * h];
  o.t[0] = threadIdx.x, o.t[1] = threadIdx.y, o.t[2] = threadIdx.z;
  o.b[0] = blockIdx.x, o.b[1] = blockIdx.y, o.b[2] = blockIdx.z;
  o.bd[0] = bd.x, o.bd[1] = bd.y, o.bd[2] = bd.z;
  o.gd[0] = gd.x, o.gd[1] = gd.y, o.gd[2] = gd.z;
  atomicAdd(&o.seen, 1u);
}

static int run(dim3 grid, dim3 block) {
  unsigned w = grid.x * block.x, h = grid.y * block.y, d = grid.z * block.z;
  std::vector<Ids> out(w * h * d);
  Ids *dout = nullptr;

  CHECK_HIP(hipMalloc(&dout, out.size() * sizeof(Ids)));
  CHECK_HIP(hipMemset(dout, 0, out.size() * sizeof(Ids)));
  ids<<<grid, block>>>(dout);
  CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(Ids), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(dout));
  for (unsigned z = 0; z < d; z++)
    for (unsigned y = 0; y < h; y++)
      for (unsigned x = 0; x < w; x++) {
        const Ids &o = out[x + y * w + z * w * h];
        CHECK_EQ(o.seen, 1);
        CHECK_EQ(o.t[0], x % block.x);
        CHECK_EQ(o.t[1], y % block.y);
        CHECK_EQ(o.t[2], z % block.z);
        CHECK_EQ(o.b[0], x / block.x);
        CHECK_EQ(o.b[1], y / block.y);
        CHECK_EQ(o.b[2], z / block.z);
        CHECK_EQ(o.bd[0], block.x);
        CHECK_EQ(o.bd[1], block.y);
        CHECK_EQ(o.bd[2], block.z);
        CHECK_EQ(o.gd[0], grid.x);
        CHECK_EQ(o.gd[1], grid.y);
        CHECK_EQ(o.gd[2], grid.z);
      }
  return AH_PASS;
}

int main() {
  if (run(dim3(3, 4, 5), dim3(4, 3, 2)) || run(dim3(7, 5), dim3(16, 8)) ||
      run(dim3(2, 3, 4), dim3(1, 1, 1)) || run(dim3(1, 1, 70), dim3(2, 2, 16)) ||
      run(dim3(1000), dim3(3)))
    return AH_FAIL;
#if !defined(__HIP_PLATFORM_NVIDIA__)
  // In host code the built-ins describe a grid of one thread.
  CHECK_EQ(threadIdx.x + threadIdx.y + threadIdx.z + blockIdx.x + blockIdx.y + blockIdx.z, 0);
  CHECK_EQ(blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z, 1);
#endif
  std::printf("passed\n");
  return AH_PASS;
}
