// SPDX-License-Identifier: MIT
// The guide's dynamic shared memory listing (§9.1.2.3, seed 000 lines 2696-2727): an
// `extern __shared__` array whose size is the third launch parameter.
// Added: the listing's kernel fills shared memory and returns, so nothing could be checked;
// here each thread then reads a neighbour's slot (written by another thread, which is why
// the __syncthreads() is needed) and stores it to global memory, and the host checks every
// element. The grid has 2 blocks of 256 threads, as in the listing.
#include "common/example_utils.hpp"

#include <cstdlib>
#include <iostream>
#include <vector>

extern __shared__ int shared_array[];

__global__ void kernel(int *out) {
  // initialize shared memory
  shared_array[threadIdx.x] = threadIdx.x;
  // use shared memory - synchronize to make sure, that all threads of the
  // block see all changes to shared memory
  __syncthreads();
  // Read the slot of the next thread (wrapping), written by another thread.
  const unsigned int neighbour = (threadIdx.x + 1) % blockDim.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = shared_array[neighbour] + 1000 * blockIdx.x;
}

int main() {
  // shared memory in this case depends on the configurable block size
  constexpr int blockSize = 256;
  constexpr int sharedMemSize = blockSize * sizeof(int);
  constexpr int gridSize = 2;
  constexpr int total = blockSize * gridSize;

  int *d_out;
  HIP_CHECK(hipMalloc(&d_out, total * sizeof(int)));
  HIP_CHECK(hipMemset(d_out, 0xff, total * sizeof(int)));

  kernel<<<dim3(gridSize), dim3(blockSize), sharedMemSize, 0>>>(d_out);
  HIP_CHECK(hipGetLastError());
  if (auto err = hipDeviceSynchronize(); err != hipSuccess) {
    std::cerr << "HIP error " << err << ": " << hipGetErrorString(err) << "\n";
    return EXIT_FAILURE;
  }

  std::vector<int> out(total);
  HIP_CHECK(hipMemcpy(out.data(), d_out, total * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_out));

  std::size_t errors = 0;
  for (int b = 0; b < gridSize; ++b) {
    for (int t = 0; t < blockSize; ++t) {
      const int expected = (t + 1) % blockSize + 1000 * b;
      const int got = out[b * blockSize + t];
      if (got != expected && errors++ < 5)
        std::cerr << "block " << b << " thread " << t << ": got " << got << ", expected "
                  << expected << "\n";
    }
  }
  return report_check("dynamic_shared_memory", errors);
}
