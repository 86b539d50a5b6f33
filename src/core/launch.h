/* SPDX-License-Identifier: MIT */
/* Launches (launch.c) and modules (module.c): the one launch path every
 * launching entry point and the graph's kernel nodes use, and the code
 * objects loaded at run time with their function handles. Each function does
 * what its HIP call does after the argument checks of src/api/, returning
 * HIP's error codes; none touches the thread's last error. */
#ifndef AH_LAUNCH_H
#define AH_LAUNCH_H

#include "internal.h"

/* ---- launch.c ---- */

/* Launches kernel fn (its host address) with layout sig (NULL when the
 * backend needs none) on stream, a stream of the current device; cooperative:
 * 1 (AH_LAUNCH_COOPERATIVE) for every block resident at once
 * (hipLaunchCooperativeKernel), with AH_LAUNCH_WORK_SIZES for a launch given
 * in work sizes (hipExtModuleLaunchKernel), whose limit is 2^32 - 1 threads a
 * dimension, as AMD's, not maxGridSize blocks. */
#define AH_LAUNCH_COOPERATIVE 1
#define AH_LAUNCH_WORK_SIZES 2
hipError_t ah_launch_kernel(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                            size_t shmem, hipStream_t stream, void **args, int cooperative);
/* ah_launch_kernel of grid `rank` of the cooperative multi-device launch
 * `multi` (launch_multi.c), which the backend releases once it is done. */
hipError_t ah_launch_grid_of(const void *fn, const ahKernelSig *sig, dim3 grid, dim3 block,
                             size_t shmem, hipStream_t stream, void **args, int cooperative,
                             struct ah_multi_grid *multi, unsigned rank);
/* The current device in *out, and whether it has code for kernel fn. */
hipError_t ah_launch_device(const void *fn, struct ah_device **out);
/* hipFuncGetAttributes for fn on the current device (arguments unchecked). */
hipError_t ah_launch_func_attributes(const void *func, hipFuncAttributes *attr);
/* Whether func is a kernel: hipcc registers every __global__ function (and
 * each template specialisation whose address is taken) before main, so a
 * pointer the registry does not know (a host function, data, garbage) is no
 * kernel, as on HIP: hipErrorInvalidDeviceFunction. Module functions come as
 * hipFunction_t, not here. */
hipError_t ah_launch_is_kernel(const void *func);

/* ---- launch_multi.c: AMD's extended launches ---- */

/* Records start (or not: NULL), launches (module_fn through ah_module_launch with args or
 * extra, else fn with sig), records stop (NULL: none), all on stream. */
hipError_t ah_launch_between(struct ah_event *start, struct ah_event *stop, const void *fn,
                             const ahKernelSig *sig, hipFunction_t module_fn, dim3 grid, dim3 block,
                             size_t shmem, hipStream_t stream, void **args, void **extra);
/* The most devices one multi-device launch lists. */
#define AH_LAUNCH_MULTI_MAX AH_MULTI_GRID_MAX
/* Launches list[0..n) (checked: a kernel each, explicit streams of the distinct devices
 * devs[i], n at most AH_LAUNCH_MULTI_MAX), joined by events as flags say
 * (hipCooperativeLaunchMultiDeviceNoPreSync / NoPostSync). */
hipError_t ah_launch_multi(const hipLaunchParams *list, int n, struct ah_device *const *devs,
                           unsigned flags, int cooperative);
/* Launches list[0..n) (checked: functions and streams), cooperative, one by one. */
hipError_t ah_launch_module_multi(const hipFunctionLaunchParams *list, unsigned n);

/* ---- call_config.c: hipConfigureCall / hipSetupArgument / hipLaunchByPtr ---- */

/* Whether the calling thread has a configuration pushed and not launched. */
int ah_call_configured(void);
/* Pushes a configuration (hipErrorInvalidConfiguration past 8 deep). */
hipError_t ah_call_push(dim3 grid, dim3 block, size_t shmem, hipStream_t stream);
/* Pops the innermost one (hipErrorMissingConfiguration: none). */
hipError_t ah_call_pop(dim3 *grid, dim3 *block, size_t *shmem, hipStream_t *stream);
/* Places size bytes of arg at offset in the innermost configuration's arguments (the caller
 * bounded size and offset). */
hipError_t ah_call_setup_argument(const void *arg, size_t size, size_t offset);
/* Pops the innermost configuration and launches kernel func with it, its arguments laid out
 * as func's registered signature says (hipErrorInvalidValue for one not set up). */
hipError_t ah_call_launch(const void *func);

/* ---- module.c ---- */

/* hipModuleLoad of a file, hipModuleLoadData(Ex) of an image in memory. */
hipError_t ah_module_load_file(const char *fname, hipModule_t *out);
hipError_t ah_module_load_image(const void *image, hipModule_t *out);
/* Ends a module's handle and its function handles (NULL:
 * hipErrorInvalidResourceHandle; one unloaded already: hipErrorNotFound). */
hipError_t ah_module_unload(hipModule_t module);
/* The handle of kernel `kname` of module (one per name, made on first ask). */
hipError_t ah_module_get_function(hipFunction_t *function, hipModule_t module, const char *kname);
/* The handle of one of the program's own kernels (hipGetFuncBySymbol). */
hipError_t ah_module_func_by_symbol(hipFunction_t *function, const void *symbol);
/* A module's device variable `name` on the current device (either output may be NULL). */
hipError_t ah_module_get_global(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod,
                                const char *name);
/* A module's texture reference `name` (hipModuleGetTexRef). */
hipError_t ah_module_get_texref(struct textureReference **ref, hipModule_t hmod,
                                const char *name);
/* The kernel behind a function handle (its host address in the code object
 * and its layout), or hipErrorInvalidResourceHandle (graph kernel nodes take
 * hipFunction_t as func, as in AMD's runtime). */
hipError_t ah_module_function(const void *h, const void **fn, const ahKernelSig **sig);
/* hipModuleLaunchKernel's launch (kernelParams or extra) of a function handle. */
hipError_t ah_module_launch(hipFunction_t f, dim3 grid, dim3 block, size_t shmem,
                            hipStream_t stream, void **kernelParams, void **extra, int cooperative);
/* The same for grid `rank` of a cooperative multi-device launch (ah_launch_grid_of). */
hipError_t ah_module_launch_grid_of(hipFunction_t f, dim3 grid, dim3 block, size_t shmem,
                                    hipStream_t stream, void **kernelParams, void **extra,
                                    int cooperative, struct ah_multi_grid *multi, unsigned rank);

#endif
