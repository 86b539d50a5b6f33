// A static __shared__ array larger than the device's shared memory per block
// (64 KiB) is refused at compile time, as GPU toolchains refuse it; arrays
// that fit, a template's and a multi-name declaration, compile.
#include <hip/hip_runtime.h>

__global__ void fits(float *out) {
  __shared__ float a[8192], b[8192]; // 32 KiB each
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

template <typename T, int N> __global__ void templ(T *out) {
  __shared__ T buf[N];
  buf[threadIdx.x] = T(1);
  out[threadIdx.x] = buf[threadIdx.x];
}

#ifdef TOO_BIG
__global__ void too_big(float *out) {
  __shared__ float big[1 << 20]; // 4 MiB
  big[threadIdx.x] = 1.0f;
  out[threadIdx.x] = big[threadIdx.x];
}
#endif

int main() {
  float *d = nullptr;
  hipMalloc(&d, 64 * sizeof(float));
  fits<<<1, 64>>>(d);
  templ<float, 16384><<<1, 64>>>(d);
#ifdef TEMPLATE_TOO_BIG
  templ<double, 16384><<<1, 64>>>((double *)d);
#endif
  hipDeviceSynchronize();
  hipFree(d);
  return 0;
}
