/* SPDX-License-Identifier: MIT */
/* hiprtc's NVIDIA target: NVIDIA's NVRTC, opened with dlopen (ANYHIP_NVRTC_LIB, else
 * libnvrtc.so and its versioned names), compiles a program to PTX. No CUDA toolkit is needed
 * to build anyhip: the few NVRTC functions used are declared here. HIP's kernel-language
 * names that CUDA lacks come from a small header given to NVRTC with -include. docs/hiprtc.md. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hiprtc_internal.h"

typedef int nvrtcResult; /* NVRTC_SUCCESS = 0 */
typedef struct _nvrtcProgram *nvrtcProgram;

static struct {
  void *lib;
  const char *(*GetErrorString)(nvrtcResult);
  nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int,
                               const char *const *, const char *const *);
  nvrtcResult (*DestroyProgram)(nvrtcProgram *);
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetPTX)(nvrtcProgram, char *);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*AddNameExpression)(nvrtcProgram, const char *);
  nvrtcResult (*GetLoweredName)(nvrtcProgram, const char *, const char **);
} nv;

static pthread_once_t nv_once = PTHREAD_ONCE_INIT;
static char nv_why[512];

/* HIP's names for what CUDA calls otherwise, for sources written for hiprtc. */
static const char prelude[] =
    "#pragma once\n"
    "#define __HIPCC_RTC__ 1\n"
    "#define __HIP_PLATFORM_NVIDIA__ 1\n"
    "#define __HIP_PLATFORM_NVCC__ 1\n"
    "#define __HIP_DEVICE_COMPILE__ 1\n"
    "#define __HIP__ 1\n"
    "#define hipThreadIdx_x threadIdx.x\n#define hipThreadIdx_y threadIdx.y\n"
    "#define hipThreadIdx_z threadIdx.z\n#define hipBlockIdx_x blockIdx.x\n"
    "#define hipBlockIdx_y blockIdx.y\n#define hipBlockIdx_z blockIdx.z\n"
    "#define hipBlockDim_x blockDim.x\n#define hipBlockDim_y blockDim.y\n"
    "#define hipBlockDim_z blockDim.z\n#define hipGridDim_x gridDim.x\n"
    "#define hipGridDim_y gridDim.y\n#define hipGridDim_z gridDim.z\n"
    "#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];\n"
    "#define HIP_DYNAMIC_SHARED_ATTRIBUTE\n"
    "#define __HIP_KERNEL_NAME(...) __VA_ARGS__\n";

static void *sym(const char *name) {
  void *p = dlsym(nv.lib, name);

  if (p == NULL && nv_why[0] == '\0')
    snprintf(nv_why, sizeof(nv_why), "the NVRTC library has no %s", name);
  return p;
}

static void nv_open(void) {
  const char *env = getenv("ANYHIP_NVRTC_LIB");
  const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};

  if (env != NULL && env[0] != '\0')
    nv.lib = dlopen(env, RTLD_NOW | RTLD_LOCAL);
  else
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && nv.lib == NULL; i++)
      nv.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (nv.lib == NULL) {
    snprintf(nv_why, sizeof(nv_why), "NVIDIA's NVRTC library (%s) cannot be opened; install it "
             "or set ANYHIP_NVRTC_LIB", env != NULL && env[0] != '\0' ? env : "libnvrtc.so");
    return;
  }
  *(void **)&nv.GetErrorString = sym("nvrtcGetErrorString");
  *(void **)&nv.CreateProgram = sym("nvrtcCreateProgram");
  *(void **)&nv.DestroyProgram = sym("nvrtcDestroyProgram");
  *(void **)&nv.CompileProgram = sym("nvrtcCompileProgram");
  *(void **)&nv.GetPTXSize = sym("nvrtcGetPTXSize");
  *(void **)&nv.GetPTX = sym("nvrtcGetPTX");
  *(void **)&nv.GetProgramLogSize = sym("nvrtcGetProgramLogSize");
  *(void **)&nv.GetProgramLog = sym("nvrtcGetProgramLog");
  *(void **)&nv.AddNameExpression = sym("nvrtcAddNameExpression");
  *(void **)&nv.GetLoweredName = sym("nvrtcGetLoweredName");
}

static const char *nv_error(nvrtcResult r) {
  const char *s = nv.GetErrorString != NULL ? nv.GetErrorString(r) : NULL;

  return s != NULL ? s : "NVRTC error";
}

int ah_nvrtc_compile(const char *src, const char *name, int nheaders, char *const *headers,
                     char *const *include_names, int nopts, const char *const *opts,
                     const char *arch, size_t nnames, char *const *names, char **lowered,
                     char **ptx, size_t *ptx_size, struct ah_rtc_text *log) {
  const char **hdrs = NULL, **incs = NULL, **args = NULL;
  char arch_opt[64];
  nvrtcProgram prog = NULL;
  nvrtcResult r;
  size_t size = 0;
  int n = 0, ret = -1;

  pthread_once(&nv_once, nv_open);
  if (nv.lib == NULL || nv_why[0] != '\0') {
    ah_rtc_appendf(log, "anyhip: hiprtc: the target is an NVIDIA GPU (%s), but %s\n", arch, nv_why);
    return -1;
  }
  hdrs = calloc((size_t)nheaders + 1, sizeof(char *));
  incs = calloc((size_t)nheaders + 1, sizeof(char *));
  args = calloc((size_t)nopts + 4, sizeof(char *));
  if (hdrs == NULL || incs == NULL || args == NULL)
    goto out;
  for (int i = 0; i < nheaders; i++) {
    hdrs[i] = headers[i];
    incs[i] = include_names[i];
  }
  hdrs[nheaders] = prelude;
  incs[nheaders] = "anyhip_hiprtc_nvidia.h";
  r = nv.CreateProgram(&prog, src, name, nheaders + 1, hdrs, incs);
  if (r != 0) {
    ah_rtc_appendf(log, "anyhip: hiprtc: nvrtcCreateProgram: %s\n", nv_error(r));
    goto out;
  }
  for (size_t i = 0; i < nnames; i++)
    nv.AddNameExpression(prog, names[i]);
  snprintf(arch_opt, sizeof(arch_opt), "--gpu-architecture=%s", arch);
  args[n++] = arch_opt;
  args[n++] = "-include=anyhip_hiprtc_nvidia.h";
  for (int i = 0; i < nopts; i++)
    args[n++] = opts[i];
  r = nv.CompileProgram(prog, n, args);
  if (nv.GetProgramLogSize(prog, &size) == 0 && size > 1) {
    char *text = malloc(size);

    if (text != NULL && nv.GetProgramLog(prog, text) == 0)
      ah_rtc_append(log, text, strlen(text));
    free(text);
  }
  if (r != 0) {
    ah_rtc_appendf(log, "anyhip: hiprtc: NVRTC (%s): %s\n", arch, nv_error(r));
    goto out;
  }
  if (nv.GetPTXSize(prog, &size) != 0 || (*ptx = malloc(size)) == NULL)
    goto out;
  if (nv.GetPTX(prog, *ptx) != 0) {
    free(*ptx);
    *ptx = NULL;
    goto out;
  }
  *ptx_size = size;
  for (size_t i = 0; i < nnames; i++) {
    const char *l = NULL;

    if (nv.GetLoweredName(prog, names[i], &l) == 0 && l != NULL)
      lowered[i] = strdup(l);
  }
  ret = 0;
out:
  if (prog != NULL)
    nv.DestroyProgram(&prog);
  free(hdrs);
  free(incs);
  free(args);
  return ret;
}
