/* SPDX-License-Identifier: MIT */
/* The launch path of hip_launch.c for other entry points of src/api/ (the
 * module API of hip_module.c): the same checks and queueing as
 * hipLaunchKernel, without touching the last error. */
#ifndef AH_LAUNCH_INTERNAL_H
#define AH_LAUNCH_INTERNAL_H

#include "../core/internal.h"

/* Launches kernel fn (its host address) with layout sig on stream;
 * cooperative: every block resident at once (hipLaunchCooperativeKernel). */
hipError_t ah_launch_kernel(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                            size_t shmem, hipStream_t stream, void **args, int cooperative);
/* hipFuncGetAttributes for fn on the current device (arguments unchecked). */
hipError_t ah_launch_func_attributes(const void *func, hipFuncAttributes *attr);
/* hip_module.c: the kernel behind a module's function handle (its host
 * address in the code object and its layout), or hipErrorInvalidResourceHandle
 * (graph kernel nodes take hipFunction_t as func, as in AMD's runtime). */
hipError_t ah_module_function(const void *h, const void **fn, const ahKernelSig **sig);
/* hipSuccess when func is a registered kernel, else hipErrorInvalidDeviceFunction. */
hipError_t ah_launch_is_kernel(const void *func);

/* hip_module.c: hipModuleLaunchKernel's checks and launch (kernelParams or
 * extra) of a module function handle. */
hipError_t ah_module_launch(hipFunction_t f, dim3 grid, dim3 block, size_t shmem,
                            hipStream_t stream, void **kernelParams, void **extra,
                            int cooperative);

#endif
