/* SPDX-License-Identifier: MIT */
/* HIP's deprecated profiler control and its callback/activity helpers.
 * hipProfilerStart and hipProfilerStop do what CUDA's do for anyhip's own
 * profiler, the ANYHIP_TRACE trace: stop pauses its recording, start
 * resumes it (both succeed, and do nothing, without a trace; AMD's runtime
 * answers hipErrorNotSupported). The helpers name a kernel by its handle or
 * host function (the mangled name of its symbol, which lives as long as the
 * process) and a stream's device. hipApiName's ids are anyhip's own: 1 +
 * the position of a name in HIP 6.3's function list (tools/hip_api_6.3.txt,
 * hip_api_names.inc), not the ids of AMD's roctracer tables; anyhip has no
 * activity callbacks that would hand ids out. Other ids (0 among them) name
 * "unknown", as AMD's table does for an id it does not know. */
#include "../os/symbols.h"
#include "launch.h"

AH_EXPORT hipError_t hipProfilerStart(void) {
  AH_ENTER();
  ah_trace_pause(0);
  return hipSuccess;
}

AH_EXPORT hipError_t hipProfilerStop(void) {
  AH_ENTER();
  ah_trace_pause(1);
  return hipSuccess;
}

static const char *const api_names[] = {
#include "hip_api_names.inc"
};

AH_EXPORT const char *hipApiName(uint32_t id) {
  if (id == 0 || id > sizeof(api_names) / sizeof(api_names[0]))
    return "unknown";
  return api_names[id - 1];
}

/* The symbol name of a kernel's host function, or NULL. */
static const char *kernel_name(const void *fn) {
  struct ah_symbol sym;

  if (fn == NULL || ah_kernel_sig(fn) == NULL || !ah_symbol_lookup(fn, &sym) || sym.start != fn)
    return NULL;
  return sym.name;
}

/* NULL for a NULL or unknown handle (AMD's answer), with the error recorded. */
AH_EXPORT const char *hipKernelNameRef(const hipFunction_t f) {
  const ahKernelSig *sig;
  const void *fn;
  const char *name;

  if (ah_init_once() != hipSuccess)
    return NULL;
  if (f == NULL || ah_module_function(f, &fn, &sig) != hipSuccess) {
    (void)ah_fail(hipErrorInvalidResourceHandle, __func__, "f");
    return NULL;
  }
  name = kernel_name(fn);
  if (name == NULL)
    (void)ah_fail(hipErrorNotFound, __func__, "no symbol for the kernel");
  return name;
}

/* The stream is not needed to name a kernel (AMD's runtime ignores it too,
 * past its check): NULL for an unknown stream or a function that is no
 * registered kernel. */
AH_EXPORT const char *hipKernelNameRefByPtr(const void *hostFunction, hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;
  const char *name;

  if (ah_init_once() != hipSuccess)
    return NULL;
  if (hostFunction == NULL) {
    (void)ah_fail(hipErrorInvalidValue, __func__, "hostFunction != NULL");
    return NULL;
  }
  if (ah_stream_resolve(stream, &dev, &q) != hipSuccess) {
    (void)ah_fail(hipErrorInvalidHandle, __func__, "stream");
    return NULL;
  }
  name = kernel_name(hostFunction);
  if (name == NULL)
    (void)ah_fail(hipErrorInvalidDeviceFunction, __func__, "not a registered kernel");
  return name;
}

/* The stream's device ordinal (the null stream's: the current device); -1
 * for a stream the runtime does not know, with the error recorded. */
AH_EXPORT int hipGetStreamDeviceId(hipStream_t stream) {
  struct ah_device *dev;
  struct ah_queue *q;
  hipError_t err;

  if (ah_init_once() != hipSuccess)
    return -1;
  err = ah_stream_resolve(stream, &dev, &q);
  if (err != hipSuccess) {
    (void)ah_fail(err, __func__, "stream");
    return -1;
  }
  return dev->ordinal;
}
