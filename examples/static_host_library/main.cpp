// SPDX-License-Identifier: MIT
// A program without HIP code that uses the static host library: it calls
// the library's functions, which launch kernels, and checks their results
// against loops on the CPU. Built twice: by hipcc (linking
// libstatic_host.a), and by the host C++ compiler alone:
//     g++ main.cpp libstatic_host.a -L<anyhip>/lib -lanyhip
#include "library.hpp"

#include <cstdio>
#include <vector>

int main()
{
    constexpr std::size_t n = 100000;
    std::vector<float> x(n), y(n), expected(n);
    std::vector<int> v(n);
    long long want = 0;
    for(std::size_t i = 0; i < n; i++)
    {
        x[i] = float(i % 1000);
        y[i] = 0.5f * float(i % 7);
        expected[i] = 3.f * x[i] + y[i];
        v[i] = int(i % 4093) - 2000;
        want += v[i];
    }

    if(const char* err = device_saxpy(3.f, x.data(), y.data(), n))
    {
        std::printf("FAILED: %s\n", err);
        return 1;
    }
    for(std::size_t i = 0; i < n; i++)
        if(y[i] != expected[i])
        {
            std::printf("FAILED: y[%zu] = %g, expected %g\n", i, y[i], expected[i]);
            return 1;
        }
    std::printf("saxpy through the static library: %zu elements match\n", n);

    long long sum = 0;
    if(const char* err = device_sum(v.data(), n, &sum))
    {
        std::printf("FAILED: %s\n", err);
        return 1;
    }
    if(sum != want)
    {
        std::printf("FAILED: sum %lld, expected %lld\n", sum, want);
        return 1;
    }
    std::printf("sum through the static library: %lld\n", sum);
    std::printf("PASSED\n");
    return 0;
}
