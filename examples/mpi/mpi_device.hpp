// SPDX-License-Identifier: MIT
// Shared by the MPI examples (docs/mpi.md): checks for MPI and HIP calls, the
// device a rank uses (by its rank on the node), and whether MPI may be given
// the device's memory (hipMalloc pointers) or needs it staged through pinned
// host buffers.
#ifndef ANYHIP_MPI_DEVICE_HPP
#define ANYHIP_MPI_DEVICE_HPP

#include <hip/hip_runtime.h>
// The MPI C API only: Open MPI's and MPICH's mpi.h otherwise bring in their
// deprecated C++ bindings when compiled as C++, whose library (-lmpi_cxx)
// MPI::MPI_C does not link.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> // MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support (Open MPI)
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define HIP_CHECK(expression)                                                                      \
  do {                                                                                             \
    const hipError_t status_ = (expression);                                                       \
    if (status_ != hipSuccess) {                                                                   \
      std::fprintf(stderr, "HIP error %d (%s) at %s:%d\n", status_, hipGetErrorName(status_),      \
                   __FILE__, __LINE__);                                                            \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                \
    }                                                                                              \
  } while (0)

#define MPI_CHECK(expression)                                                                      \
  do {                                                                                             \
    const int status_ = (expression);                                                              \
    if (status_ != MPI_SUCCESS) {                                                                  \
      char text_[MPI_MAX_ERROR_STRING];                                                            \
      int len_ = 0;                                                                                \
      MPI_Error_string(status_, text_, &len_);                                                     \
      std::fprintf(stderr, "MPI error %s at %s:%d\n", text_, __FILE__, __LINE__);                  \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                \
    }                                                                                              \
  } while (0)

// The rank of this process among those on its node: Open MPI's
// OMPI_COMM_WORLD_LOCAL_RANK, MPICH's MPI_LOCALRANKID, Slurm's SLURM_LOCALID;
// otherwise from a communicator of the processes that share memory.
inline int local_rank() {
  static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                     "SLURM_LOCALID"};
  for (const char *v : vars) {
    const char *s = std::getenv(v);
    if (s != nullptr && *s != '\0')
      return std::atoi(s);
  }
  MPI_Comm node;
  int rank = 0;
  MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  MPI_CHECK(MPI_Comm_rank(node, &rank));
  MPI_CHECK(MPI_Comm_free(&node));
  return rank;
}

// Each rank takes device local_rank % count: with as many devices as ranks
// per node, one device each. Returns the device chosen.
inline int select_device_by_local_rank() {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  if (count < 1) {
    std::fprintf(stderr, "no HIP device\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int device = local_rank() % count;
  HIP_CHECK(hipSetDevice(device));
  return device;
}

// Whether MPI may read and write this device's memory itself:
// - a device whose memory is the host's (anyhip's CPU device, integrated):
//   hipMalloc returns host memory, which any MPI handles;
// - an NVIDIA GPU, when Open MPI was built CUDA-aware (MPIX_CUDA_AWARE_SUPPORT)
//   and says so at run time (MPIX_Query_cuda_support);
// - an AMD GPU, when Open MPI was built ROCm-aware (Open MPI 5).
// Otherwise the caller stages through pinned host memory. MPI_DEVICE_STAGING=1
// in the environment forces staging (to test that path anywhere).
enum class mpi_path { device_memory, staged };

inline mpi_path mpi_path_for_device(int device) {
  const char *force = std::getenv("MPI_DEVICE_STAGING");
  if (force != nullptr && std::strcmp(force, "1") == 0)
    return mpi_path::staged;
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, device));
  if (props.integrated)
    return mpi_path::device_memory;
  const bool nvidia = std::strstr(props.name, "NVIDIA") != nullptr;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (nvidia && MPIX_Query_cuda_support() == 1)
    return mpi_path::device_memory;
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  if (!nvidia && MPIX_Query_rocm_support() == 1)
    return mpi_path::device_memory;
#endif
  (void)nvidia;
  return mpi_path::staged;
}

inline const char *mpi_path_name(mpi_path p) {
  return p == mpi_path::device_memory ? "device memory passed to MPI"
                                      : "staged through pinned host memory";
}

#endif
