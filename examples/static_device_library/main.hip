// SPDX-License-Identifier: MIT
// A program whose kernel calls device functions of a static library
// (device_library.hip) and sets the library's __device__ variable, checked
// against the same computations on the CPU. Linked with the library named
// first, which HIP allows for device libraries:
//     hipcc -fgpu-rdc libstatic_device.a main.hip -o static_device_library
#include "device_library.hpp"
#include "../common/example_utils.hpp"

#include <cmath>
#include <iostream>
#include <vector>

__global__ void apply(const float* x, float* y, unsigned int* steps, unsigned int n)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
    {
        y[i] = polynomial(x[i]);
        steps[i] = collatz_steps(i + 1);
    }
}

static float host_polynomial(const float c[4], float x)
{
    float r = c[3];
    for(int i = 2; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

static unsigned int host_collatz(unsigned long long n)
{
    unsigned int steps = 0;
    for(; n != 1; steps++)
        n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
    return steps;
}

int main()
{
    constexpr unsigned int n = 10000;
    constexpr unsigned int block_size = 128;
    print_device_banner();

    std::vector<float> x(n), y(n);
    std::vector<unsigned int> steps(n);
    for(unsigned int i = 0; i < n; i++)
        x[i] = -2.f + 4.f * float(i) / float(n);

    float *d_x{}, *d_y{};
    unsigned int* d_steps{};
    HIP_CHECK(hipMalloc(&d_x, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_steps, n * sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(d_x, x.data(), n * sizeof(float), hipMemcpyHostToDevice));

    // Twice: with the library's coefficients, then with the program's.
    float c[4];
    HIP_CHECK(hipMemcpyFromSymbol(c, HIP_SYMBOL(coefficients), sizeof(c)));
    for(int round = 0; round < 2; round++)
    {
        if(round == 1)
        {
            const float mine[4] = {0.f, 1.f, -1.f, 2.f};
            HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coefficients), mine, sizeof(mine)));
            std::copy(mine, mine + 4, c);
        }
        apply<<<(n + block_size - 1) / block_size, block_size>>>(d_x, d_y, d_steps, n);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(y.data(), d_y, n * sizeof(float), hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(steps.data(), d_steps, n * sizeof(unsigned int),
                            hipMemcpyDeviceToHost));
        for(unsigned int i = 0; i < n; i++)
        {
            const float want = host_polynomial(c, x[i]);
            if(std::fabs(y[i] - want) > 1e-4f * (1.f + std::fabs(want)))
            {
                std::cout << "FAILED: round " << round << ", y[" << i << "] = " << y[i]
                          << ", expected " << want << std::endl;
                return 1;
            }
            if(steps[i] != host_collatz(i + 1))
            {
                std::cout << "FAILED: steps[" << i << "] = " << steps[i] << ", expected "
                          << host_collatz(i + 1) << std::endl;
                return 1;
            }
        }
        std::cout << "Round " << round << ": polynomial and Collatz steps of " << n
                  << " elements match" << std::endl;
    }
    std::cout << "Collatz steps of 27: " << steps[26] << std::endl;

    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipFree(d_steps));
    std::cout << "PASSED" << std::endl;
    return 0;
}
