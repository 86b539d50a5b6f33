// SPDX-License-Identifier: MIT
// The interface of the static host library: plain C++, so that a program
// compiled by any C++ compiler (g++ without HIP) can call it. The HIP code,
// kernels and their launches, stays inside the library.
#ifndef STATIC_HOST_LIBRARY_HPP
#define STATIC_HOST_LIBRARY_HPP

#include <cstddef>

// y[i] = a * x[i] + y[i] on the default device. Returns 0, or a message
// (a static string) naming the HIP call that failed.
const char* device_saxpy(float a, const float* x, float* y, std::size_t n);

// The sum of x[0..n) by a block reduction on the default device, in *sum.
const char* device_sum(const int* x, std::size_t n, long long* sum);

#endif
