/* SPDX-License-Identifier: MIT */
/* HIP's module API: code objects loaded at run time (hipModuleLoad*), their
 * kernels and variables by name, launches of a module's function handle,
 * and a function's attributes. The loader and the handles are
 * core/module.c's; launches go through core/launch.c. docs/modules.md. */
#include "launch.h"

AH_EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *fname) {
  AH_ENTER();
  AH_REQUIRE(module != NULL, hipErrorInvalidValue);
  AH_REQUIRE(fname != NULL && fname[0] != '\0', hipErrorInvalidValue);
  AH_RETURN(ah_module_load_file(fname, module));
}

AH_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  AH_ENTER();
  AH_REQUIRE(module != NULL, hipErrorInvalidValue);
  AH_REQUIRE(image != NULL, hipErrorInvalidValue);
  AH_RETURN(ah_module_load_image(image, module));
}

/* Nothing is compiled at load time, so the options have nothing to change. */
AH_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image,
                                         unsigned int numOptions, hipJitOption *options,
                                         void **optionValues) {
  AH_ENTER();
  AH_REQUIRE(module != NULL, hipErrorInvalidValue);
  AH_REQUIRE(image != NULL, hipErrorInvalidValue);
  AH_REQUIRE(numOptions == 0 || (options != NULL && optionValues != NULL), hipErrorInvalidValue);
  AH_RETURN(ah_module_load_image(image, module));
}

AH_EXPORT hipError_t hipModuleUnload(hipModule_t module) {
  AH_ENTER();
  AH_RETURN(ah_module_unload(module));
}

/* ---- names ---------------------------------------------------------------- */

AH_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                          const char *kname) {
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE(function != NULL, hipErrorInvalidValue);
  AH_REQUIRE(kname != NULL && kname[0] != '\0', hipErrorInvalidValue);
  err = ah_module_get_function(function, module, kname);
  if (err != hipSuccess)
    return ah_fail(err, __func__, kname);
  return hipSuccess;
}

AH_EXPORT hipError_t hipGetFuncBySymbol(hipFunction_t *functionPtr, const void *symbolPtr) {
  AH_ENTER();
  AH_REQUIRE(functionPtr != NULL, hipErrorInvalidValue);
  AH_REQUIRE(symbolPtr != NULL, hipErrorInvalidDeviceFunction);
  AH_RETURN(ah_module_func_by_symbol(functionPtr, symbolPtr));
}

AH_EXPORT hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod,
                                        const char *name) {
  AH_ENTER();
  AH_REQUIRE(dptr != NULL || bytes != NULL, hipErrorInvalidValue);
  AH_REQUIRE(name != NULL && name[0] != '\0', hipErrorInvalidValue);
  AH_RETURN(ah_module_get_global(dptr, bytes, hmod, name));
}

AH_EXPORT hipError_t hipModuleGetTexRef(textureReference **texRef, hipModule_t hmod,
                                        const char *name) {
  AH_ENTER();
  AH_REQUIRE(texRef != NULL, hipErrorInvalidValue);
  AH_REQUIRE(name != NULL && name[0] != '\0', hipErrorInvalidValue);
  AH_RETURN(ah_module_get_texref(texRef, hmod, name));
}

/* ---- launches and attributes ---------------------------------------------- */

/* The driver-style launches report a bad grid or block as an invalid value
 * (AMD's runtime, as cuLaunchKernel), where the runtime-style ones say
 * hipErrorInvalidConfiguration. */
static hipError_t driver_launch_code(hipError_t err) {
  return err == hipErrorInvalidConfiguration ? hipErrorInvalidValue : err;
}

AH_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                           unsigned int gridDimY, unsigned int gridDimZ,
                                           unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes,
                                           hipStream_t stream, void **kernelParams,
                                           void **extra) {
  dim3 grid = {gridDimX, gridDimY, gridDimZ}, block = {blockDimX, blockDimY, blockDimZ};

  AH_ENTER();
  AH_RETURN(driver_launch_code(
      ah_module_launch(f, grid, block, sharedMemBytes, stream, kernelParams, extra, 0)));
}

/* Every block resident at once, so that the kernel may use grid.sync(). */
AH_EXPORT hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX,
                                                      unsigned int gridDimY, unsigned int gridDimZ,
                                                      unsigned int blockDimX,
                                                      unsigned int blockDimY,
                                                      unsigned int blockDimZ,
                                                      unsigned int sharedMemBytes,
                                                      hipStream_t stream, void **kernelParams) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  dim3 grid = {gridDimX, gridDimY, gridDimZ}, block = {blockDimX, blockDimY, blockDimZ};
  hipError_t err;

  AH_ENTER();
  AH_REQUIRE_OK(ah_module_function(f, &fn, &sig));
  err = driver_launch_code(
      ah_launch_kernel(fn, sig, grid, block, sharedMemBytes, stream, kernelParams, 1));
  /* AMD's runtime says invalid value for a destroyed stream here too (the
   * non-cooperative launch says hipErrorContextIsDestroyed). */
  AH_RETURN(err == hipErrorContextIsDestroyed ? hipErrorInvalidValue : err);
}

AH_EXPORT hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib,
                                         hipFunction_t hfunc) {
  const void *fn = NULL;
  const ahKernelSig *sig = NULL;
  hipFuncAttributes a;

  AH_ENTER();
  AH_REQUIRE(value != NULL, hipErrorInvalidValue);
  AH_REQUIRE((unsigned)attrib < (unsigned)HIP_FUNC_ATTRIBUTE_MAX, hipErrorInvalidValue);
  AH_REQUIRE_OK(ah_module_function(hfunc, &fn, &sig));
  AH_REQUIRE_OK(ah_launch_func_attributes(fn, &a));
  switch (attrib) {
  case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = a.maxThreadsPerBlock;
    break;
  case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = (int)a.sharedSizeBytes;
    break;
  case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    *value = (int)a.constSizeBytes;
    break;
  case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *value = (int)a.localSizeBytes;
    break;
  case HIP_FUNC_ATTRIBUTE_NUM_REGS:
    *value = a.numRegs;
    break;
  case HIP_FUNC_ATTRIBUTE_PTX_VERSION:
    *value = a.ptxVersion;
    break;
  case HIP_FUNC_ATTRIBUTE_BINARY_VERSION:
    *value = a.binaryVersion;
    break;
  case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    *value = a.cacheModeCA;
    break;
  case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = a.maxDynamicSharedSizeBytes;
    break;
  default: /* HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT */
    *value = a.preferredShmemCarveout;
    break;
  }
  return hipSuccess;
}
