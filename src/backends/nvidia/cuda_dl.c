/* SPDX-License-Identifier: MIT */
/* The CUDA driver, opened at run time: libcuda.so.1 (or ANYHIP_CUDA_LIB) with
 * dlopen, every entry point of cuda_syms.def through cuGetProcAddress, and
 * the one map from CUresult to hipError_t. anyhip links nothing of CUDA, so a
 * machine without the driver simply has no NVIDIA devices. */
#include "nvidia_internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

struct ah_cuda_api ah_cuda;

typedef CUresult (*init_fn)(unsigned int flags);
typedef CUresult (*proc_fn)(const char *symbol, void **pfn, int cuda_version, cuuint64_t flags,
                            CUdriverProcAddressQueryResult *status);

/* The ABI the parameter lists of cuda_syms.def describe; also the oldest
 * driver we accept (cuGetProcAddress_v2 appeared with it). */
#define AH_CUDA_ABI 12000

/* Resolves one symbol; returns 0 when the driver does not have it. */
static int resolve(proc_fn proc, const char *name, int version, void **out) {
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;

  *out = NULL;
  if (proc(name, out, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status) != CUDA_SUCCESS ||
      status != CU_GET_PROC_ADDRESS_SUCCESS)
    *out = NULL;
  return *out != NULL;
}

int ah_cuda_load(const char *path) {
  void *lib;
  init_fn cu_init;
  proc_fn proc;
  const char *missing = NULL;
  CUresult r;
  int version = 0, initialized = 0;

  dlerror(); /* Reset error status. */
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    AH_LOG(NVIDIA, "no CUDA driver: %s", dlerror());
    return 0;
  }
  *(void **)&cu_init = dlsym(lib, "cuInit");
  *(void **)&proc = dlsym(lib, "cuGetProcAddress_v2");
  if (cu_init == NULL || proc == NULL) {
    AH_LOG(NVIDIA, "%s is not a CUDA 12 (or newer) driver", path);
    goto fail;
  }
  /* Lazy loading (CUDA's default since 12.2) loads a kernel, the driver's own
   * memset kernels included, at its first use, and that waits for work queued
   * on other streams: a memset on one stream then hangs behind a host function
   * that holds another. CUDA reads the setting at cuInit; a user's explicit
   * choice wins. */
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  r = cu_init(0);
  if (r != CUDA_SUCCESS) {
    AH_LOG(NVIDIA, "cuInit: error %d", r);
    goto fail;
  }
  initialized = 1;
#define AH_CU(name, params) \
  if (missing == NULL && !resolve(proc, #name, AH_CUDA_ABI, (void **)&ah_cuda.name)) \
    missing = #name;
#define AH_CU_OPT(name, ver, params) resolve(proc, #name, ver, (void **)&ah_cuda.name);
#include "cuda_syms.def"
#undef AH_CU
#undef AH_CU_OPT
  if (missing != NULL) {
    AH_LOG(NVIDIA, "%s: the driver has no %s", path, missing);
    goto fail;
  }
  ah_cuda.cuDriverGetVersion(&version);
  AH_LOG(NVIDIA, "%s: CUDA driver %d.%d", path, version / 1000, version % 1000 / 10);
  return 1;
fail:
  memset(&ah_cuda, 0, sizeof(ah_cuda)); /* no half-filled table survives */
  if (!initialized) /* an initialized driver may have threads running its code */
    dlclose(lib);
  return 0;
}

hipError_t ah_cuda_status(CUresult r) {
  switch (r) {
  case CUDA_SUCCESS:
    return hipSuccess;
  case CUDA_ERROR_INVALID_VALUE:
    return hipErrorInvalidValue;
  case CUDA_ERROR_OUT_OF_MEMORY:
    return hipErrorOutOfMemory;
  case CUDA_ERROR_NOT_INITIALIZED:
    return hipErrorNotInitialized;
  case CUDA_ERROR_DEINITIALIZED:
    return hipErrorDeinitialized;
  case CUDA_ERROR_STUB_LIBRARY:
  case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER:
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
  case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
    return hipErrorInsufficientDriver;
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_DEVICE_UNAVAILABLE:
  case CUDA_ERROR_SYSTEM_NOT_READY:
    return hipErrorNoDevice;
  case CUDA_ERROR_INVALID_DEVICE:
  case CUDA_ERROR_DEVICE_NOT_LICENSED:
    return hipErrorInvalidDevice;
  case CUDA_ERROR_INVALID_IMAGE:
    return hipErrorInvalidImage;
  case CUDA_ERROR_INVALID_CONTEXT:
    return hipErrorInvalidContext;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    return hipErrorNoBinaryForGpu;
  case CUDA_ERROR_UNSUPPORTED_LIMIT:
    return hipErrorUnsupportedLimit;
  case CUDA_ERROR_PEER_ACCESS_UNSUPPORTED:
    return hipErrorPeerAccessUnsupported;
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_JIT_COMPILATION_DISABLED:
    return hipErrorInvalidKernelFile;
  case CUDA_ERROR_INVALID_HANDLE:
    return hipErrorInvalidHandle;
  case CUDA_ERROR_ILLEGAL_STATE:
    return hipErrorIllegalState;
  case CUDA_ERROR_NOT_FOUND:
    return hipErrorNotFound;
  case CUDA_ERROR_NOT_READY:
    return hipErrorNotReady;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return hipErrorLaunchOutOfResources;
  case CUDA_ERROR_LAUNCH_TIMEOUT:
    return hipErrorLaunchTimeOut;
  case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
    return hipErrorPeerAccessAlreadyEnabled;
  case CUDA_ERROR_PEER_ACCESS_NOT_ENABLED:
    return hipErrorPeerAccessNotEnabled;
  case CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE:
    return hipErrorSetOnActiveProcess;
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    return hipErrorContextIsDestroyed;
  case CUDA_ERROR_ASSERT:
    return hipErrorAssert;
  case CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
    return hipErrorHostMemoryAlreadyRegistered;
  case CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED:
    return hipErrorHostMemoryNotRegistered;
  /* A fault in a kernel. CUDA names its kind; anyhip reports every one as
   * hipErrorLaunchFailure, as the CPU device does, so a program sees the same
   * error whichever device ran the kernel. */
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return hipErrorLaunchFailure;
  case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
    return hipErrorCooperativeLaunchTooLarge;
  case CUDA_ERROR_NOT_PERMITTED:
  case CUDA_ERROR_NOT_SUPPORTED:
    return hipErrorNotSupported;
  case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED:
    return hipErrorStreamCaptureUnsupported;
  case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:
    return hipErrorStreamCaptureInvalidated;
  case CUDA_ERROR_STREAM_CAPTURE_MERGE:
    return hipErrorStreamCaptureMerge;
  case CUDA_ERROR_STREAM_CAPTURE_UNMATCHED:
    return hipErrorStreamCaptureUnmatched;
  case CUDA_ERROR_STREAM_CAPTURE_UNJOINED:
    return hipErrorStreamCaptureUnjoined;
  case CUDA_ERROR_STREAM_CAPTURE_ISOLATION:
    return hipErrorStreamCaptureIsolation;
  case CUDA_ERROR_STREAM_CAPTURE_IMPLICIT:
    return hipErrorStreamCaptureImplicit;
  case CUDA_ERROR_CAPTURED_EVENT:
    return hipErrorCapturedEvent;
  case CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD:
    return hipErrorStreamCaptureWrongThread;
  case CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE:
    return hipErrorGraphExecUpdateFailure;
  default:
    return hipErrorUnknown;
  }
}

const char *ah_cuda_error_name(CUresult r) {
  const char *s = NULL;

  if (ah_cuda.cuGetErrorName == NULL || ah_cuda.cuGetErrorName(r, &s) != CUDA_SUCCESS ||
      s == NULL)
    return "CUDA_ERROR_?";
  return s;
}
