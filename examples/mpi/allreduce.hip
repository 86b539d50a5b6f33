// SPDX-License-Identifier: MIT
// An allreduce of device buffers under MPI (docs/mpi.md), the core of data-
// parallel training and of distributed dot products: each rank fills a vector
// with a kernel (values that depend on its rank), the ranks sum their vectors
// with MPI_Allreduce, and a second kernel scales the sum by 1/ranks (the mean).
// Each rank picks its device by its rank on the node. MPI is given the
// hipMalloc buffers where that is valid (anyhip's CPU device; a GPU with CUDA-
// or ROCm-aware MPI), otherwise they are staged through pinned host buffers.
// Every rank checks every element against the closed form of the sum; exit
// status 0 when all ranks agree. Also a scalar MPI_Allreduce of a device-side
// dot product, checked the same way.
#include "mpi_device.hpp"

#include <cmath>
#include <vector>

// The value rank r contributes at index i: small integers, so that every sum
// is exact in double whatever order MPI adds in.
__host__ __device__ inline double contribution(int r, int i) {
  return static_cast<double>((r + 1) * (i % 7) + r);
}

__global__ void fill(double *v, int n, int rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = contribution(rank, i);
}

__global__ void scale(double *v, int n, double s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= s;
}

// One partial sum per block of v[i] * v[i] (blockDim.x = 256).
__global__ void square_sums(const double *v, int n, double *partial) {
  __shared__ double part[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  part[t] = i < n ? v[i] * v[i] : 0.0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = part[0];
}

int main(int argc, char **argv) {
  MPI_CHECK(MPI_Init(&argc, &argv));
  int rank = 0, ranks = 1;
  MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &ranks));
  const int device = select_device_by_local_rank();
  const mpi_path path = mpi_path_for_device(device);

  const int n = 1 << 16, threads = 256, blocks = (n + threads - 1) / threads;
  const size_t bytes = n * sizeof(double);
  double *v = nullptr, *sum = nullptr, *partial = nullptr;
  HIP_CHECK(hipMalloc(&v, bytes));
  HIP_CHECK(hipMalloc(&sum, bytes));
  HIP_CHECK(hipMalloc(&partial, blocks * sizeof(double)));

  fill<<<blocks, threads>>>(v, n, rank);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize()); // MPI reads v next: the kernel must be done

  // 1. The vector sum, into another device buffer.
  if (path == mpi_path::device_memory) {
    MPI_CHECK(MPI_Allreduce(v, sum, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
  } else {
    double *send = nullptr, *recv = nullptr;
    HIP_CHECK(hipHostMalloc(&send, bytes));
    HIP_CHECK(hipHostMalloc(&recv, bytes));
    HIP_CHECK(hipMemcpy(send, v, bytes, hipMemcpyDeviceToHost));
    MPI_CHECK(MPI_Allreduce(send, recv, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    HIP_CHECK(hipMemcpy(sum, recv, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipHostFree(send));
    HIP_CHECK(hipHostFree(recv));
  }
  scale<<<blocks, threads>>>(sum, n, 1.0 / ranks);
  HIP_CHECK(hipGetLastError());

  // 2. A dot product: each rank's v . v on its device, summed in place.
  square_sums<<<blocks, threads>>>(v, n, partial);
  HIP_CHECK(hipGetLastError());
  std::vector<double> partial_host(blocks);
  HIP_CHECK(
      hipMemcpy(partial_host.data(), partial, blocks * sizeof(double), hipMemcpyDeviceToHost));
  double dot = 0.0;
  for (double p : partial_host)
    dot += p;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));

  std::vector<double> mean(n);
  HIP_CHECK(hipMemcpy(mean.data(), sum, bytes, hipMemcpyDeviceToHost));
  long bad = 0;
  double want_dot = 0.0;
  for (int i = 0; i < n; i++) {
    double total = 0.0;
    for (int r = 0; r < ranks; r++) {
      total += contribution(r, i);
      want_dot += contribution(r, i) * contribution(r, i);
    }
    const double want = total / ranks;
    if (std::fabs(mean[i] - want) > 1e-12 * (1.0 + std::fabs(want))) {
      if (bad == 0)
        std::fprintf(stderr, "rank %d: mean[%d] is %.17g, expected %.17g\n", rank, i, mean[i],
                     want);
      bad++;
    }
  }
  if (dot != want_dot) { // integers below 2^53: exact in any order
    std::fprintf(stderr, "rank %d: dot product %.17g, expected %.17g\n", rank, dot, want_dot);
    bad++;
  }
  long bad_all = 0;
  MPI_CHECK(MPI_Allreduce(&bad, &bad_all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  int direct = path == mpi_path::device_memory, direct_all = 0;
  MPI_CHECK(MPI_Reduce(&direct, &direct_all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    hipDeviceProp_t props;
    HIP_CHECK(hipGetDeviceProperties(&props, device));
    std::printf("allreduce: %d ranks x %d doubles on %s; %d of %d ranks: %s: %s\n", ranks, n,
                props.name, direct_all, ranks, mpi_path_name(mpi_path::device_memory),
                bad_all == 0 ? "PASSED" : "FAILED");
  }

  HIP_CHECK(hipFree(v));
  HIP_CHECK(hipFree(sum));
  HIP_CHECK(hipFree(partial));
  MPI_CHECK(MPI_Finalize());
  return bad_all == 0 ? 0 : 1;
}
