// SPDX-License-Identifier: MIT
// Runtime compilation with hiprtc, in the manner of rocm-examples' HIP-Basic/runtime_compilation
// (written here from scratch): a kernel's source is a string, compiled while the program runs
// with options (-D for the coefficient, -std), a template kernel is named through a name
// expression and found by its lowered (mangled) name, the code object is loaded with
// hipModuleLoadData and launched with hipModuleLaunchKernel, and every result is checked
// against a CPU loop. On the CPU device the compiler is anyhip's hipcc; on an NVIDIA GPU NVRTC
// adds PTX to the same code object (docs/hiprtc.md).
#include "common/example_utils.hpp"

#include <hip/hiprtc.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#define HIPRTC_CHECK(expr)                                                                   \
    do                                                                                       \
    {                                                                                        \
        const hiprtcResult res = (expr);                                                     \
        if(res != HIPRTC_SUCCESS)                                                            \
        {                                                                                    \
            std::cerr << "hiprtc error: " << hiprtcGetErrorString(res) << " at " << __FILE__ \
                      << ":" << __LINE__ << "\n";                                            \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while(false)

// The kernels, compiled at run time. A is given with -D; the template is instantiated for the
// types named by name expressions.
static constexpr const char* program_source = R"(
#include "axpy_common.h"

extern "C" __global__ void saxpy_kernel(const float* x, float* y, unsigned int size)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < size)
        y[i] = axpy(A, x[i], y[i]);
}

template<typename T>
__global__ void scale_kernel(T* data, T factor, unsigned int size)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < size)
        data[i] *= factor;
}
)";

// A header given to hiprtcCreateProgram by name (no file on disk).
static constexpr const char* header_source = R"(
#pragma once
template<typename T>
__device__ inline T axpy(T a, T x, T y) { return a * x + y; }
)";

int main()
{
    constexpr unsigned int size = 4096;
    constexpr unsigned int block_size = 128;
    constexpr unsigned int grid_size = (size + block_size - 1) / block_size;
    constexpr float a = 3.f;

    print_device_banner();

    // Create and compile the program.
    hiprtcProgram prog;
    const char* headers[] = {header_source};
    const char* header_names[] = {"axpy_common.h"};
    HIPRTC_CHECK(hiprtcCreateProgram(&prog, program_source, "runtime_kernels.hip", 1, headers,
                                     header_names));
    HIPRTC_CHECK(hiprtcAddNameExpression(prog, "scale_kernel<double>"));
    const std::string coefficient = "-DA=" + std::to_string(a) + "f";
    const char* options[] = {coefficient.c_str(), "-std=c++17", "-O2"};
    const hiprtcResult compiled = hiprtcCompileProgram(prog, 3, options);

    size_t log_size = 0;
    HIPRTC_CHECK(hiprtcGetProgramLogSize(prog, &log_size));
    if(log_size > 1)
    {
        std::string log(log_size, '\0');
        HIPRTC_CHECK(hiprtcGetProgramLog(prog, &log[0]));
        std::cout << "Compile log:\n" << log << "\n";
    }
    HIPRTC_CHECK(compiled);

    size_t code_size = 0;
    HIPRTC_CHECK(hiprtcGetCodeSize(prog, &code_size));
    std::vector<char> code(code_size);
    HIPRTC_CHECK(hiprtcGetCode(prog, code.data()));
    const char* lowered = nullptr;
    HIPRTC_CHECK(hiprtcGetLoweredName(prog, "scale_kernel<double>", &lowered));
    const std::string scale_name = lowered; // the program owns the string
    HIPRTC_CHECK(hiprtcDestroyProgram(&prog));
    std::cout << "Compiled " << code_size << " bytes of code; scale_kernel<double> is "
              << scale_name << ".\n";

    // Load the code object and find both kernels.
    hipModule_t module;
    hipFunction_t saxpy, scale;
    HIP_CHECK(hipModuleLoadData(&module, code.data()));
    HIP_CHECK(hipModuleGetFunction(&saxpy, module, "saxpy_kernel"));
    HIP_CHECK(hipModuleGetFunction(&scale, module, scale_name.c_str()));

    // Data and CPU references.
    std::vector<float> x(size), y(size), expected_y(size);
    std::vector<double> d(size), expected_d(size);
    const double factor = -0.5;
    for(unsigned int i = 0; i < size; i++)
    {
        x[i] = static_cast<float>(i % 97) * 0.5f;
        y[i] = static_cast<float>(i % 13);
        expected_y[i] = a * x[i] + y[i];
        d[i] = 1.0 / (1 + i);
        expected_d[i] = d[i] * factor;
    }

    float* d_x{};
    float* d_y{};
    double* d_d{};
    HIP_CHECK(hipMalloc(&d_x, size * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_y, size * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_d, size * sizeof(double)));
    HIP_CHECK(hipMemcpy(d_x, x.data(), size * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, y.data(), size * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_d, d.data(), size * sizeof(double), hipMemcpyHostToDevice));

    // Launch: kernelParams for saxpy, a packed argument buffer (`extra`) for the template.
    unsigned int n = size;
    void* saxpy_args[] = {&d_x, &d_y, &n};
    HIP_CHECK(hipModuleLaunchKernel(saxpy, grid_size, 1, 1, block_size, 1, 1, 0, nullptr,
                                    saxpy_args, nullptr));
    struct
    {
        double* data;
        double factor;
        unsigned int size;
    } scale_args{d_d, factor, size};
    size_t args_size = sizeof(scale_args);
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &scale_args, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                     &args_size, HIP_LAUNCH_PARAM_END};
    HIP_CHECK(hipModuleLaunchKernel(scale, grid_size, 1, 1, block_size, 1, 1, 0, nullptr, nullptr,
                                    extra));

    HIP_CHECK(hipMemcpy(y.data(), d_y, size * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(d.data(), d_d, size * sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipFree(d_d));
    HIP_CHECK(hipModuleUnload(module));

    unsigned int errors = 0;
    for(unsigned int i = 0; i < size; i++)
    {
        errors += std::fabs(y[i] - expected_y[i]) > 1e-6f * std::fabs(expected_y[i]);
        errors += d[i] != expected_d[i];
    }
    if(errors != 0)
    {
        std::cerr << "Validation failed: " << errors << " wrong elements\n";
        return 1;
    }
    std::cout << "saxpy_kernel and scale_kernel<double> compiled at run time: all " << 2 * size
              << " results match.\n";
    return 0;
}
