// SPDX-License-Identifier: MIT
// A static library of device functions, as rocm-examples'
// HIP-Basic/static_device_library shows: compiled with relocatable device
// code and archived,
//     hipcc -fgpu-rdc --emit-static-lib device_library.hip -o libstatic_device.a
// its functions are called from kernels of a program linked with -fgpu-rdc.
#include "device_library.hpp"

__device__ float coefficients[4] = {1.f, -2.f, 0.5f, 0.25f};

__device__ float polynomial(float x)
{
    float r = coefficients[3];
    for(int i = 2; i >= 0; i--)
        r = r * x + coefficients[i];
    return r;
}

__device__ unsigned int collatz_steps(unsigned long long n)
{
    unsigned int steps = 0;
    while(n != 1)
    {
        n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
        steps++;
    }
    return steps;
}
