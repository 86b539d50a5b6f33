// SPDX-License-Identifier: MIT
// A halo exchange under MPI (docs/mpi.md): a 1-D periodic domain of
// cells_per_rank * ranks cells is split across the ranks; each rank keeps its
// slice plus one halo cell at each end in device memory, and every step it
// sends its edge cells to its neighbours (MPI_Sendrecv, into their halos), then
// runs a 3-point Jacobi step as a kernel. Each rank picks its device by its
// rank on the node. The device buffers go to MPI directly where that is valid
// (anyhip's CPU device: device memory is host memory; a GPU with CUDA- or
// ROCm-aware MPI), otherwise the edges travel through pinned host buffers.
// Every rank checks its slice against the same steps run serially over the
// whole domain on the host; exit status 0 when every rank agrees.
#include "mpi_device.hpp"

#include <cmath>
#include <vector>

__global__ void jacobi_step(const double *in, double *out, int n) {
  // in and out hold n cells plus a halo at each end: cell i is at [i + 1].
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i + 1] = (in[i] + in[i + 1] + in[i + 2]) / 3.0;
}

static double initial_value(long global_index) {
  return static_cast<double>((global_index * 37) % 101) - 50.0;
}

int main(int argc, char **argv) {
  MPI_CHECK(MPI_Init(&argc, &argv));
  int rank = 0, ranks = 1;
  MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &ranks));
  const int device = select_device_by_local_rank();
  const mpi_path path = mpi_path_for_device(device);

  const int n = 1000, steps = 50; // cells per rank, Jacobi steps
  const int left = (rank + ranks - 1) % ranks, right = (rank + 1) % ranks;
  const size_t bytes = (n + 2) * sizeof(double);

  std::vector<double> host(n + 2, 0.0);
  for (int i = 0; i < n; i++)
    host[i + 1] = initial_value(static_cast<long>(rank) * n + i);
  double *cur = nullptr, *next = nullptr, *pinned = nullptr;
  HIP_CHECK(hipMalloc(&cur, bytes));
  HIP_CHECK(hipMalloc(&next, bytes));
  HIP_CHECK(hipMemcpy(cur, host.data(), bytes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(next, host.data(), bytes, hipMemcpyHostToDevice));
  if (path == mpi_path::staged)
    HIP_CHECK(hipHostMalloc(&pinned, 4 * sizeof(double))); // 2 edges out, 2 halos in

  for (int s = 0; s < steps; s++) {
    if (path == mpi_path::device_memory) {
      // First cell to the left neighbour's right halo, last cell to the right
      // neighbour's left halo; receive ours from them.
      MPI_CHECK(MPI_Sendrecv(cur + 1, 1, MPI_DOUBLE, left, 0, cur + n + 1, 1, MPI_DOUBLE, right, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      MPI_CHECK(MPI_Sendrecv(cur + n, 1, MPI_DOUBLE, right, 1, cur, 1, MPI_DOUBLE, left, 1,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
      HIP_CHECK(hipMemcpy(pinned, cur + 1, sizeof(double), hipMemcpyDeviceToHost));
      HIP_CHECK(hipMemcpy(pinned + 1, cur + n, sizeof(double), hipMemcpyDeviceToHost));
      MPI_CHECK(MPI_Sendrecv(pinned, 1, MPI_DOUBLE, left, 0, pinned + 3, 1, MPI_DOUBLE, right, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      MPI_CHECK(MPI_Sendrecv(pinned + 1, 1, MPI_DOUBLE, right, 1, pinned + 2, 1, MPI_DOUBLE, left,
                             1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      HIP_CHECK(hipMemcpy(cur, pinned + 2, sizeof(double), hipMemcpyHostToDevice));
      HIP_CHECK(hipMemcpy(cur + n + 1, pinned + 3, sizeof(double), hipMemcpyHostToDevice));
    }
    jacobi_step<<<(n + 255) / 256, 256>>>(cur, next, n);
    HIP_CHECK(hipGetLastError());
    // MPI touches the next step's buffer (directly, or the kernel reads the
    // halos just copied): the kernel must be done first.
    HIP_CHECK(hipDeviceSynchronize());
    double *t = cur;
    cur = next;
    next = t;
  }
  HIP_CHECK(hipMemcpy(host.data(), cur, bytes, hipMemcpyDeviceToHost));

  // The same steps, serially, over the whole periodic domain.
  const long total = static_cast<long>(n) * ranks;
  std::vector<double> a(total), b(total);
  for (long i = 0; i < total; i++)
    a[i] = initial_value(i);
  for (int s = 0; s < steps; s++) {
    for (long i = 0; i < total; i++)
      b[i] = (a[(i + total - 1) % total] + a[i] + a[(i + 1) % total]) / 3.0;
    a.swap(b);
  }
  long bad = 0;
  for (int i = 0; i < n; i++) {
    const double want = a[static_cast<long>(rank) * n + i];
    if (std::fabs(host[i + 1] - want) > 1e-12 * (1.0 + std::fabs(want))) {
      if (bad == 0)
        std::fprintf(stderr, "rank %d: cell %d is %.17g, expected %.17g\n", rank, i, host[i + 1],
                     want);
      bad++;
    }
  }
  long bad_all = 0;
  MPI_CHECK(MPI_Allreduce(&bad, &bad_all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  int direct = path == mpi_path::device_memory, direct_all = 0;
  MPI_CHECK(MPI_Reduce(&direct, &direct_all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    hipDeviceProp_t props;
    HIP_CHECK(hipGetDeviceProperties(&props, device));
    std::printf("halo_exchange: %d ranks x %d cells, %d steps on %s; %d of %d ranks: %s: %s\n",
                ranks, n, steps, props.name, direct_all, ranks,
                mpi_path_name(mpi_path::device_memory), bad_all == 0 ? "PASSED" : "FAILED");
  }

  HIP_CHECK(hipFree(cur));
  HIP_CHECK(hipFree(next));
  if (pinned != nullptr)
    HIP_CHECK(hipHostFree(pinned));
  MPI_CHECK(MPI_Finalize());
  return bad_all == 0 ? 0 : 1;
}
