// SPDX-License-Identifier: MIT
// extern __shared__ (dynamic shared memory) in kernels and at namespace scope.
extern __shared__ float ns_shared[];

__global__ void reduce(float *out) {
  extern __shared__ float sdata[];
  sdata[threadIdx.x] = ns_shared[0];
  out[0] = sdata[0];
}

template <typename T>
__global__ void typed(T *out) {
  extern __shared__ __align__(16) unsigned char raw[];
  T *buf = reinterpret_cast<T *>(raw);
  out[0] = buf[0];
}

__global__ void aligned(double *out) {
  extern __shared__ __align__(16)
      double
          across_lines[];
  out[0] = across_lines[0];
}

extern int not_shared;
extern "C" int also_not(int);
