// SPDX-License-Identifier: MIT
// The guide's SAXPY (ROCm programming guide §7, seed 000 lines 1991-2074),
// completed into a whole program as in rocm-examples' HIP-Basic/saxpy: it
// computes y = a*x + y on the default device, prints the guide's expected
// lines, and checks every element against a CPU loop.
#include "common/example_utils.hpp"

#include <cmath>
#include <iostream>
#include <numeric>
#include <vector>

__global__ void saxpy_kernel(const float a, const float* d_x, float* d_y, const unsigned int size)
{
    // Compute the current thread's index in the grid.
    const unsigned int global_idx = blockIdx.x * blockDim.x + threadIdx.x;

    // The grid can be larger than the number of items in the vectors. Avoid out-of-bounds
    // addressing.
    if(global_idx < size)
    {
        d_y[global_idx] = a * d_x[global_idx] + d_y[global_idx];
    }
}

int main()
{
    constexpr unsigned int size = 1000000;
    constexpr size_t size_bytes = size * sizeof(float);
    constexpr unsigned int block_size = 256;
    constexpr unsigned int grid_size = (size + block_size - 1) / block_size;
    constexpr float a = 2.f;

    print_device_banner();
    std::vector<float> x(size);
    std::vector<float> y(size, 1.f);
    std::iota(x.begin(), x.end(), 1.f);
    std::vector<float> expected(size);
    for(unsigned int i = 0; i < size; i++)
        expected[i] = a * x[i] + y[i];

    std::cout << "Calculating y[i] = a * x[i] + y[i] over " << size << " elements." << std::endl;

    // Allocate and copy vectors to device memory.
    float* d_x{};
    float* d_y{};
    HIP_CHECK(hipMalloc(&d_x, size_bytes));
    HIP_CHECK(hipMalloc(&d_y, size_bytes));
    HIP_CHECK(hipMemcpy(d_x, x.data(), size_bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, y.data(), size_bytes, hipMemcpyHostToDevice));

    // Launch the kernel on the default stream.
    saxpy_kernel<<<dim3(grid_size), dim3(block_size), 0, hipStreamDefault>>>(a, d_x, d_y, size);
    HIP_CHECK(hipGetLastError());

    HIP_CHECK(hipMemcpy(y.data(), d_y, size_bytes, hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));

    std::cout << "First 10 elements of the results: [ ";
    for(unsigned int i = 0; i < 10; i++)
        std::cout << y[i] << (i + 1 < 10 ? ", " : " ]\n");

    unsigned int errors = 0;
    for(unsigned int i = 0; i < size; i++)
        errors += std::fabs(y[i] - expected[i]) > 1e-6f * std::fabs(expected[i]);
    if(errors != 0)
    {
        std::cerr << "Validation failed: " << errors << " wrong elements\n";
        return 1;
    }
    return 0;
}
