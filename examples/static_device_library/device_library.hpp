// SPDX-License-Identifier: MIT
// The device functions and the device variable of the static device library
// (device_library.hip). Code that calls them must be compiled with
// -fgpu-rdc: without it, HIP compiles each source's device code alone and
// the calls are undefined symbols when the program is linked.
#ifndef STATIC_DEVICE_LIBRARY_HPP
#define STATIC_DEVICE_LIBRARY_HPP

#include <hip/hip_runtime.h>

// A polynomial, evaluated by Horner's rule with the library's coefficients.
__device__ float polynomial(float x);

// The number of steps of the Collatz sequence from n down to 1.
__device__ unsigned int collatz_steps(unsigned long long n);

// The polynomial's coefficients, c[0] + c[1] x + c[2] x^2 + c[3] x^3; the
// program may change them with hipMemcpyToSymbol.
extern __device__ float coefficients[4];

#endif
