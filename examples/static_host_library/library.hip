// SPDX-License-Identifier: MIT
// A static library of host functions that launch kernels, as rocm-examples'
// HIP-Basic/static_host_library shows: built with
//     hipcc --emit-static-lib library.hip -o libstatic_host.a
// and linked into a program by hipcc, or by the host compiler with
// -lanyhip (the program itself contains no HIP code).
#include "library.hpp"

#include <hip/hip_runtime.h>

#define TRY(call)                        \
    do                                   \
    {                                    \
        if((call) != hipSuccess)         \
            return #call " failed";      \
    } while(0)

namespace
{
constexpr unsigned int block_size = 256;

__global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n)
{
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if(i < n)
        y[i] = a * x[i] + y[i];
}

// One partial sum per block: a shared-memory tree over the block's elements.
__global__ void sum_kernel(const int* x, std::size_t n, long long* partial)
{
    __shared__ long long s[block_size];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0;
    __syncthreads();
    for(unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2)
    {
        if(threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if(threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}
} // namespace

const char* device_saxpy(float a, const float* x, float* y, std::size_t n)
{
    const std::size_t bytes = n * sizeof(float);
    float* d_x{};
    float* d_y{};
    TRY(hipMalloc(&d_x, bytes));
    TRY(hipMalloc(&d_y, bytes));
    TRY(hipMemcpy(d_x, x, bytes, hipMemcpyHostToDevice));
    TRY(hipMemcpy(d_y, y, bytes, hipMemcpyHostToDevice));
    saxpy_kernel<<<(n + block_size - 1) / block_size, block_size>>>(a, d_x, d_y, n);
    TRY(hipGetLastError());
    TRY(hipMemcpy(y, d_y, bytes, hipMemcpyDeviceToHost));
    TRY(hipFree(d_x));
    TRY(hipFree(d_y));
    return nullptr;
}

const char* device_sum(const int* x, std::size_t n, long long* sum)
{
    const unsigned int blocks = (n + block_size - 1) / block_size;
    int* d_x{};
    long long* d_partial{};
    TRY(hipMalloc(&d_x, n * sizeof(int)));
    TRY(hipMalloc(&d_partial, blocks * sizeof(long long)));
    TRY(hipMemcpy(d_x, x, n * sizeof(int), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(sum_kernel, dim3(blocks), dim3(block_size), 0, hipStreamDefault, d_x, n,
                       d_partial);
    TRY(hipGetLastError());
    long long* partial = new long long[blocks];
    TRY(hipMemcpy(partial, d_partial, blocks * sizeof(long long), hipMemcpyDeviceToHost));
    *sum = 0;
    for(unsigned int b = 0; b < blocks; b++)
        *sum += partial[b];
    delete[] partial;
    TRY(hipFree(d_x));
    TRY(hipFree(d_partial));
    return nullptr;
}
