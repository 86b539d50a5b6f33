/* SPDX-License-Identifier: MIT */
/* hiprtc: argument errors, the compile log (a syntax error names its line), options, named
 * headers, lowered names (extern "C", C++, namespace and template kernels, a device variable)
 * found by hipModuleGetFunction / hipModuleGetGlobal, kernels compiled at run time launched
 * and checked against host loops, the linker with one input, a missing compiler, and NVRTC's
 * PTX (skipped where libnvrtc is absent). docs/hiprtc.md. */
#define _GNU_SOURCE
#include "ah_test.h"

#include <dirent.h>
#include <unistd.h>
#include <hip/hiprtc.h>
#include <stdlib.h>
#include <string.h>

#define RTC_CHECK(x) CHECK_EQ((x), HIPRTC_SUCCESS)

/* The program's log (malloc'd). */
static char *log_of(hiprtcProgram p) {
  size_t n = 0;
  char *log;

  if (hiprtcGetProgramLogSize(p, &n) != HIPRTC_SUCCESS || n == 0 || (log = malloc(n)) == NULL)
    return NULL;
  if (hiprtcGetProgramLog(p, log) != HIPRTC_SUCCESS || log[n - 1] != '\0') {
    free(log);
    return NULL;
  }
  return log;
}

/* Compiles src with opts and loads the code object; 0 on success, the log printed otherwise. */
static int build(const char *src, const char *name, int nopts, const char **opts,
                 const char **exprs, int nexprs, hiprtcProgram *prog, hipModule_t *mod) {
  hiprtcResult r;
  size_t size = 0;
  char *code;

  if (hiprtcCreateProgram(prog, src, name, 0, NULL, NULL) != HIPRTC_SUCCESS)
    return -1;
  for (int i = 0; i < nexprs; i++)
    if (hiprtcAddNameExpression(*prog, exprs[i]) != HIPRTC_SUCCESS)
      return -1;
  r = hiprtcCompileProgram(*prog, nopts, opts);
  if (r != HIPRTC_SUCCESS) {
    char *log = log_of(*prog);

    fprintf(stderr, "compile: %s\n%s\n", hiprtcGetErrorString(r), log != NULL ? log : "");
    free(log);
    return -1;
  }
  if (hiprtcGetCodeSize(*prog, &size) != HIPRTC_SUCCESS || size == 0 ||
      (code = malloc(size)) == NULL)
    return -1;
  if (hiprtcGetCode(*prog, code) != HIPRTC_SUCCESS || hipModuleLoadData(mod, code) != hipSuccess) {
    free(code);
    return -1;
  }
  free(code); /* the module keeps its own copy */
  return 0;
}

/* A private TMPDIR for this test process, so that what hiprtc leaves there can be counted. */
static char tmp_dir[64];

static int private_tmp(void) {
  strcpy(tmp_dir, "/tmp/ah-rtc-test-XXXXXX");
  if (mkdtemp(tmp_dir) == NULL)
    return -1;
  return setenv("TMPDIR", tmp_dir, 1);
}

/* Entries left in the private TMPDIR (then removes it when empty). */
static int temp_left(void) {
  DIR *d = opendir(tmp_dir);
  struct dirent *e;
  int n = 0;

  if (d == NULL)
    return -1;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      n++;
  closedir(d);
  if (n == 0)
    rmdir(tmp_dir);
  return n;
}

AH_TEST(hiprtc_arguments) {
  hiprtcProgram prog = NULL;
  hiprtcLinkState link = NULL;
  const char *hdr[] = {"#define X 1\n"}, *inc[] = {"x.h"}, *lowered = NULL;
  hiprtcJIT_option bad_opt = (hiprtcJIT_option)9999;
  void *bad_val = NULL, *bin = NULL;
  size_t n = 7;
  char buf[8];
  int major = 0, minor = -1;

  CHECK(strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") == 0);
  CHECK(strcmp(hiprtcGetErrorString((hiprtcResult)12345), "Invalid HIPRTC error code") == 0);
  CHECK_EQ(hiprtcVersion(NULL, &minor), HIPRTC_ERROR_INVALID_INPUT);
  RTC_CHECK(hiprtcVersion(&major, &minor));
  CHECK_EQ(major, HIP_VERSION_MAJOR);
  CHECK_EQ(hiprtcCreateProgram(NULL, "", "p", 0, NULL, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcCreateProgram(&prog, NULL, "p", 0, NULL, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcCreateProgram(&prog, "", "p", -1, NULL, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcCreateProgram(&prog, "", "p", 1, NULL, inc), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcCreateProgram(&prog, "", "p", 1, hdr, NULL), HIPRTC_ERROR_INVALID_INPUT);
  RTC_CHECK(hiprtcCreateProgram(&prog, "#include \"x.h\"\n", NULL, 1, hdr, inc));
  CHECK_EQ(hiprtcAddNameExpression(NULL, "k"), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcAddNameExpression(prog, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcAddNameExpression(prog, ""), HIPRTC_ERROR_INVALID_INPUT);
  RTC_CHECK(hiprtcAddNameExpression(prog, "k"));
  CHECK_EQ(hiprtcGetLoweredName(prog, "k", &lowered), HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  CHECK_EQ(hiprtcGetLoweredName(prog, NULL, &lowered), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcGetLoweredName(prog, "k", NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcGetLoweredName(NULL, "k", &lowered), HIPRTC_ERROR_INVALID_PROGRAM);
  /* Before a compile: an empty log, no code. */
  RTC_CHECK(hiprtcGetProgramLogSize(prog, &n));
  CHECK_EQ(n, (size_t)1);
  RTC_CHECK(hiprtcGetProgramLog(prog, buf));
  CHECK_EQ(buf[0], '\0');
  CHECK_EQ(hiprtcGetProgramLogSize(prog, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcGetProgramLog(prog, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcGetProgramLogSize(NULL, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcGetCodeSize(prog, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcGetCode(prog, buf), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcGetCodeSize(prog, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcGetBitcodeSize(NULL, NULL), HIPRTC_ERROR_INVALID_INPUT); /* output first */
  CHECK_EQ(hiprtcGetBitcodeSize(prog, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcCompileProgram(NULL, 0, NULL), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcCompileProgram(prog, -1, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcCompileProgram(prog, 1, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcDestroyProgram(NULL), HIPRTC_ERROR_INVALID_INPUT);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  CHECK(prog == NULL);
  CHECK_EQ(hiprtcDestroyProgram(&prog), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcGetProgramLogSize((hiprtcProgram)&n, &n), HIPRTC_ERROR_INVALID_PROGRAM);

  /* The linker's arguments. */
  CHECK_EQ(hiprtcLinkCreate(0, NULL, NULL, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcLinkCreate(1, NULL, NULL, &link), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcLinkCreate(1, &bad_opt, &bad_val, &link), HIPRTC_ERROR_INVALID_OPTION);
  RTC_CHECK(hiprtcLinkCreate(0, NULL, NULL, &link));
  CHECK_EQ(hiprtcLinkAddData(NULL, HIPRTC_JIT_INPUT_OBJECT, buf, 8, "x", 0, NULL, NULL),
           HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcLinkAddData(link, HIPRTC_JIT_INPUT_OBJECT, NULL, 8, "x", 0, NULL, NULL),
           HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcLinkAddData(link, HIPRTC_JIT_INPUT_OBJECT, buf, 0, "x", 0, NULL, NULL),
           HIPRTC_ERROR_INVALID_INPUT);
  memset(buf, 0, sizeof(buf));
  CHECK_EQ(hiprtcLinkAddData(link, HIPRTC_JIT_INPUT_OBJECT, buf, sizeof(buf), "x", 0, NULL, NULL),
           HIPRTC_ERROR_PROGRAM_CREATION_FAILURE); /* not a code object */
  CHECK_EQ(hiprtcLinkAddFile(link, HIPRTC_JIT_INPUT_OBJECT, NULL, 0, NULL, NULL),
           HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcLinkAddFile(link, HIPRTC_JIT_INPUT_NVVM, "/nonexistent/x.co", 0, NULL, NULL),
           HIPRTC_ERROR_INVALID_INPUT); /* not a type a code object comes as */
  CHECK_EQ(hiprtcLinkAddData(link, HIPRTC_JIT_INPUT_PTX, buf, sizeof(buf), "x", 0, NULL, NULL),
           HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcLinkAddFile(link, HIPRTC_JIT_INPUT_OBJECT, "/nonexistent/x.co", 0, NULL, NULL),
           HIPRTC_ERROR_PROGRAM_CREATION_FAILURE);
  CHECK_EQ(hiprtcLinkComplete(link, NULL, &n), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcLinkComplete(link, &bin, &n), HIPRTC_ERROR_LINKING); /* nothing added */
  CHECK_EQ(hiprtcLinkDestroy(NULL), HIPRTC_ERROR_INVALID_INPUT);
  RTC_CHECK(hiprtcLinkDestroy(link));
  CHECK_EQ(hiprtcLinkDestroy(link), HIPRTC_ERROR_INVALID_INPUT);
  return AH_PASS;
}

/* A syntax error: HIPRTC_ERROR_COMPILATION, and a log that names the program and the line. */
AH_TEST(hiprtc_compile_error_log) {
  static const char src[] = "extern \"C\" __global__ void ok(int *p) { *p = 1; }\n"
                            "\n"
                            "extern \"C\" __global__ void bad(int *p) { *p = 1 }\n";
  hiprtcProgram prog;
  size_t n;
  char *log;

  CHECK(private_tmp() == 0);
  RTC_CHECK(hiprtcCreateProgram(&prog, src, "broken.hip", 0, NULL, NULL));
  CHECK_EQ(hiprtcCompileProgram(prog, 0, NULL), HIPRTC_ERROR_COMPILATION);
  log = log_of(prog);
  CHECK(log != NULL);
  /* clang's "broken.hip:3:...", NVRTC's "broken.hip(3): error" */
  if ((strstr(log, "broken.hip:3") == NULL && strstr(log, "broken.hip(3)") == NULL) ||
      strstr(log, "error") == NULL) {
    fprintf(stderr, "log:\n%s\n", log);
    CHECK(0);
  }
  CHECK(strstr(log, "anyhip-rtc-") == NULL); /* no temporary path in the log */
  free(log);
  CHECK_EQ(hiprtcGetCodeSize(prog, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcAddNameExpression(prog, "ok"), HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  CHECK_EQ(temp_left(), 0);
  return AH_PASS;
}

/* Options that would change hiprtc's output are refused, with a log line. */
AH_TEST(hiprtc_options_refused) {
  const char *out[] = {"-o", "x.so"}, *target[] = {"--offload-arch=banana"};
  hiprtcProgram prog;
  char *log;

  RTC_CHECK(hiprtcCreateProgram(&prog, "__global__ void k() {}", "k.hip", 0, NULL, NULL));
  CHECK_EQ(hiprtcCompileProgram(prog, 2, out), HIPRTC_ERROR_INVALID_OPTION);
  log = log_of(prog);
  CHECK(log != NULL && strstr(log, "'-o'") != NULL);
  free(log);
  CHECK_EQ(hiprtcCompileProgram(prog, 1, target), HIPRTC_ERROR_INVALID_OPTION);
  log = log_of(prog);
  CHECK(log != NULL && strstr(log, "banana") != NULL);
  free(log);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  return AH_PASS;
}

/* No compiler at run time: HIPRTC_ERROR_COMPILATION and a log saying so. */
AH_TEST(hiprtc_no_compiler) {
  hiprtcProgram prog;
  char *log;

  setenv("ANYHIP_HIPRTC_HIPCC", "/nonexistent/hipcc", 1);
  RTC_CHECK(hiprtcCreateProgram(&prog, "__global__ void k() {}", "k.hip", 0, NULL, NULL));
  CHECK_EQ(hiprtcCompileProgram(prog, 0, NULL), HIPRTC_ERROR_COMPILATION);
  log = log_of(prog);
  CHECK(log != NULL && strstr(log, "needs hipcc") != NULL &&
        strstr(log, "/nonexistent/hipcc") != NULL);
  free(log);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  unsetenv("ANYHIP_HIPRTC_HIPCC");
  return AH_PASS;
}

static const char kernels_src[] =
    "extern \"C\" __device__ int counter = 5;\n"
    "extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i] + BIAS;\n"
    "}\n"
    "__global__ void cpp_scale(float *x, float s, int n) {\n"
    "  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;\n"
    "  if (i < n) x[i] *= s;\n"
    "}\n"
    "namespace ops {\n"
    "template <typename T, int K> __global__ void add_k(T *x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] += (T)K;\n"
    "  if (i == 0) atomicAdd(&counter, 1);\n"
    "}\n"
    "}\n"
    "template <typename T> __global__ void block_sum(const T *x, T *out) {\n"
    "  __shared__ T part[64];\n"
    "  part[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];\n"
    "  __syncthreads();\n"
    "  for (int s = 32; s > 0; s /= 2) {\n"
    "    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];\n"
    "    __syncthreads();\n"
    "  }\n"
    "  if (threadIdx.x == 0) out[blockIdx.x] = part[0];\n"
    "}\n";

/* Lowered names: mangled as the Itanium C++ ABI says, and found by the module API. */
AH_TEST(hiprtc_lowered_names) {
  const char *exprs[] = {"saxpy", "cpp_scale", "ops::add_k<float, 3>", "block_sum<int>",
                         "&block_sum<double>", "&counter"};
  const char *want[] = {"saxpy", "_Z9cpp_scalePffi", "_ZN3ops5add_kIfLi3EEEvPT_i",
                        "_Z9block_sumIiEvPKT_PS0_", "_Z9block_sumIdEvPKT_PS0_", "counter"};
  const char *opts[] = {"-DBIAS=0"};
  hiprtcProgram prog;
  hipModule_t mod;
  hipFunction_t f;
  hipDeviceptr_t d;
  size_t bytes = 0;

  CHECK(private_tmp() == 0);
  CHECK(build(kernels_src, "names.hip", 1, opts, exprs, 6, &prog, &mod) == 0);
  for (int i = 0; i < 6; i++) {
    const char *l = NULL;

    RTC_CHECK(hiprtcGetLoweredName(prog, exprs[i], &l));
    if (l == NULL || strcmp(l, want[i]) != 0) {
      fprintf(stderr, "%s: lowered %s, want %s\n", exprs[i], l != NULL ? l : "(null)", want[i]);
      CHECK(0);
    }
    if (i < 5)
      CHECK_HIP(hipModuleGetFunction(&f, mod, l));
  }
  CHECK_HIP(hipModuleGetGlobal(&d, &bytes, mod, "counter"));
  CHECK_EQ(bytes, sizeof(int));
  {
    const char *l;

    CHECK_EQ(hiprtcGetLoweredName(prog, "ops::add_k<int, 3>", &l),
             HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID); /* not added */
  }
  CHECK_ERR(hipModuleGetFunction(&f, mod, "_Z9block_sumIfEvPKT_PS0_"), hipErrorNotFound);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  CHECK_HIP(hipModuleUnload(mod));
  CHECK_EQ(temp_left(), 0);
  return AH_PASS;
}

/* Kernels compiled at run time (with -D and -U), launched, checked against host loops: an extern "C"
 * kernel, a C++ one by its lowered name, template kernels through name expressions, and a
 * device variable the kernels change. */
AH_TEST(hiprtc_kernels_run) {
  enum { N = 1000, B = 8 };
  const char *exprs[] = {"cpp_scale", "ops::add_k<float, 3>", "block_sum<int>"};
  /* A: a name anyhip's headers use, defined to garbage; it must reach only the program. */
  const char *opts[] = {"-DBIAS=1.0f", "-O2", "-std=c++17", "-D", "A=(", "-UNOTHING",
                        "--offload-arch=gfx90a"};
  float hx[N], hy[N], out[N], a = 2.5f, s = -0.5f;
  int hi[B * 64], sums[B], counter = 0;
  float *dx, *dy;
  int *di, *dsum, n = N;
  hiprtcProgram prog;
  hipModule_t mod;
  hipFunction_t f;
  hipDeviceptr_t dcounter;
  const char *l;

  CHECK(build(kernels_src, "kernels.hip", 7, opts, exprs, 3, &prog, &mod) == 0);
  for (int i = 0; i < N; i++) {
    hx[i] = (float)i * 0.25f;
    hy[i] = (float)(N - i);
  }
  for (int i = 0; i < B * 64; i++)
    hi[i] = i * 7 - 300;
  CHECK_HIP(hipMalloc((void **)&dx, sizeof(hx)));
  CHECK_HIP(hipMalloc((void **)&dy, sizeof(hy)));
  CHECK_HIP(hipMalloc((void **)&di, sizeof(hi)));
  CHECK_HIP(hipMalloc((void **)&dsum, sizeof(sums)));
  CHECK_HIP(hipMemcpy(dx, hx, sizeof(hx), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dy, hy, sizeof(hy), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(di, hi, sizeof(hi), hipMemcpyHostToDevice));

  /* y = a x + y + BIAS */
  CHECK_HIP(hipModuleGetFunction(&f, mod, "saxpy"));
  {
    void *args[] = {&a, &dx, &dy, &n};

    CHECK_HIP(hipModuleLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
  }
  /* x *= s, through the lowered name */
  RTC_CHECK(hiprtcGetLoweredName(prog, "cpp_scale", &l));
  CHECK_HIP(hipModuleGetFunction(&f, mod, l));
  {
    void *args[] = {&dx, &s, &n};

    CHECK_HIP(hipModuleLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  }
  /* x += 3, a template; it also counts its launches in `counter` */
  RTC_CHECK(hiprtcGetLoweredName(prog, "ops::add_k<float, 3>", &l));
  CHECK_HIP(hipModuleGetFunction(&f, mod, l));
  {
    void *args[] = {&dx, &n};

    CHECK_HIP(hipModuleLaunchKernel(f, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
    CHECK_HIP(hipModuleLaunchKernel(f, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
  }
  /* per-block sums with shared memory and barriers */
  RTC_CHECK(hiprtcGetLoweredName(prog, "block_sum<int>", &l));
  CHECK_HIP(hipModuleGetFunction(&f, mod, l));
  {
    void *args[] = {&di, &dsum};

    CHECK_HIP(hipModuleLaunchKernel(f, B, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
  }
  CHECK_HIP(hipMemcpy(out, dy, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_EQ(out[i], a * hx[i] + hy[i] + 1.0f);
  CHECK_HIP(hipMemcpy(out, dx, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_EQ(out[i], hx[i] * s + 3.0f + 3.0f);
  CHECK_HIP(hipMemcpy(sums, dsum, sizeof(sums), hipMemcpyDeviceToHost));
  for (int b = 0; b < B; b++) {
    int want = 0;

    for (int t = 0; t < 64; t++)
      want += hi[b * 64 + t];
    CHECK_EQ(sums[b], want);
  }
  CHECK_HIP(hipModuleGetGlobal(&dcounter, NULL, mod, "counter"));
  CHECK_HIP(hipMemcpyDtoH(&counter, dcounter, sizeof(counter)));
  CHECK_EQ(counter, 5 + 2);
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipFree(di));
  CHECK_HIP(hipFree(dsum));
  CHECK_HIP(hipModuleUnload(mod));
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  return AH_PASS;
}

/* Headers given to hiprtcCreateProgram, in a subdirectory too. */
AH_TEST(hiprtc_named_headers) {
  static const char src[] = "#include \"consts.h\"\n#include <sub/ops.h>\n"
                            "extern \"C\" __global__ void fill(int *p) { p[threadIdx.x] = twice(K) + threadIdx.x; }\n";
  const char *hdrs[] = {"#pragma once\n#define K 21\n",
                        "#pragma once\n__device__ inline int twice(int v) { return 2 * v; }\n"};
  const char *names[] = {"consts.h", "sub/ops.h"};
  hiprtcProgram prog;
  hipModule_t mod;
  hipFunction_t f;
  int *d, h[32];
  size_t size;
  char *code;

  RTC_CHECK(hiprtcCreateProgram(&prog, src, "headers.hip", 2, hdrs, names));
  RTC_CHECK(hiprtcCompileProgram(prog, 0, NULL));
  RTC_CHECK(hiprtcGetCodeSize(prog, &size));
  code = malloc(size);
  CHECK(code != NULL);
  RTC_CHECK(hiprtcGetCode(prog, code));
  CHECK_HIP(hipModuleLoadData(&mod, code));
  free(code);
  CHECK_HIP(hipModuleGetFunction(&f, mod, "fill"));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  {
    void *args[] = {&d};

    CHECK_HIP(hipModuleLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
  }
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 32; i++)
    CHECK_EQ(h[i], 42 + i);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipModuleUnload(mod));
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  return AH_PASS;
}

/* -fgpu-rdc, the "bitcode" (the code object) through the linker, one input; two inputs are
 * refused with a message in the error log buffer. */
AH_TEST(hiprtc_link_one_input) {
  static const char src[] = "extern \"C\" __global__ void neg(int *p) { p[threadIdx.x] = -p[threadIdx.x]; }\n";
  const char *opts[] = {"-fgpu-rdc"};
  char errlog[256] = "";
  hiprtcJIT_option lopts[] = {HIPRTC_JIT_ERROR_LOG_BUFFER, HIPRTC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *lvals[] = {errlog, (void *)(uintptr_t)sizeof(errlog)};
  hiprtcProgram prog;
  hiprtcLinkState link;
  hipModule_t mod;
  hipFunction_t f;
  void *bin;
  size_t size, bin_size;
  char *bc;
  int *d, h[16];

  RTC_CHECK(hiprtcCreateProgram(&prog, src, "neg.hip", 0, NULL, NULL));
  RTC_CHECK(hiprtcCompileProgram(prog, 1, opts));
  RTC_CHECK(hiprtcGetBitcodeSize(prog, &size));
  bc = malloc(size);
  CHECK(bc != NULL);
  RTC_CHECK(hiprtcGetBitcode(prog, bc));
  RTC_CHECK(hiprtcLinkCreate(2, lopts, lvals, &link));
  RTC_CHECK(hiprtcLinkAddData(link, HIPRTC_JIT_INPUT_LLVM_BITCODE, bc, size, "neg", 0, NULL, NULL));
  RTC_CHECK(hiprtcLinkComplete(link, &bin, &bin_size));
  CHECK_EQ(bin_size, size);
  CHECK_HIP(hipModuleLoadData(&mod, bin));
  RTC_CHECK(hiprtcLinkDestroy(link));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "neg"));
  for (int i = 0; i < 16; i++)
    h[i] = i * i;
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
  {
    void *args[] = {&d};

    CHECK_HIP(hipModuleLaunchKernel(f, 1, 1, 1, 16, 1, 1, 0, NULL, args, NULL));
  }
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++)
    CHECK_EQ(h[i], -i * i);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipModuleUnload(mod));

  /* Two inputs. */
  RTC_CHECK(hiprtcLinkCreate(2, lopts, lvals, &link));
  RTC_CHECK(hiprtcLinkAddData(link, HIPRTC_JIT_INPUT_LLVM_BITCODE, bc, size, "a", 0, NULL, NULL));
  RTC_CHECK(hiprtcLinkAddData(link, HIPRTC_JIT_INPUT_LLVM_BITCODE, bc, size, "b", 0, NULL, NULL));
  CHECK_EQ(hiprtcLinkComplete(link, &bin, &bin_size), HIPRTC_ERROR_LINKING);
  CHECK(strstr(errlog, "one code object") != NULL);
  RTC_CHECK(hiprtcLinkDestroy(link));
  free(bc);
  RTC_CHECK(hiprtcDestroyProgram(&prog));

  /* Without -fgpu-rdc there is code but no "bitcode". */
  RTC_CHECK(hiprtcCreateProgram(&prog, src, "neg.hip", 0, NULL, NULL));
  RTC_CHECK(hiprtcCompileProgram(prog, 0, NULL));
  RTC_CHECK(hiprtcGetCodeSize(prog, &size));
  CHECK_EQ(hiprtcGetBitcodeSize(prog, &size), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  return AH_PASS;
}

/* An NVIDIA target named in the options: NVRTC's PTX goes into the code object (which still
 * runs on the CPU device). Skipped without libnvrtc. */
AH_TEST(hiprtc_nvrtc_ptx) {
  static const char src[] = "template <typename T> __global__ void twice(T *p) {\n"
                            "  p[hipThreadIdx_x] *= FACTOR;\n}\n";
  const char *opts[] = {"--offload-arch=sm_80", "-DFACTOR=2", "-D", "A=(", "-std=c++17"};
  const char *l = NULL;
  const char *exprs[] = {"twice<int>"};
  hiprtcProgram prog;
  hiprtcResult r;
  size_t size;
  char *code, *log;
  int found = 0;

  RTC_CHECK(hiprtcCreateProgram(&prog, src, "twice.hip", 0, NULL, NULL));
  RTC_CHECK(hiprtcAddNameExpression(prog, exprs[0]));
  r = hiprtcCompileProgram(prog, 5, opts);
  log = log_of(prog);
  if (r != HIPRTC_SUCCESS && log != NULL && strstr(log, "cannot be opened") != NULL) {
    free(log);
    RTC_CHECK(hiprtcDestroyProgram(&prog));
    SKIP("no NVRTC library");
  }
  if (r != HIPRTC_SUCCESS)
    fprintf(stderr, "%s\n", log != NULL ? log : "");
  free(log);
  RTC_CHECK(r);
  RTC_CHECK(hiprtcGetLoweredName(prog, exprs[0], &l));
  CHECK(strcmp(l, "_Z5twiceIiEvPT_") == 0);
  RTC_CHECK(hiprtcGetCodeSize(prog, &size));
  code = malloc(size);
  CHECK(code != NULL);
  RTC_CHECK(hiprtcGetCode(prog, code));
  /* The PTX, with the kernel's entry under the same name. */
  for (size_t i = 0; i + 32 < size && !found; i++)
    if (memcmp(code + i, ".entry _Z5twiceIiEvPT_", 22) == 0)
      found = 1;
  CHECK(found);
  {
    hipModule_t mod;
    hipFunction_t f;
    int h[8] = {1, 2, 3, 4, 5, 6, 7, 8}, *d;
    void *args[] = {&d};

    CHECK_HIP(hipModuleLoadData(&mod, code));
    CHECK_HIP(hipModuleGetFunction(&f, mod, l));
    CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
    CHECK_HIP(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
    CHECK_HIP(hipModuleLaunchKernel(f, 1, 1, 1, 8, 1, 1, 0, NULL, args, NULL));
    CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
      CHECK_EQ(h[i], 2 * (i + 1));
    CHECK_HIP(hipFree(d));
    CHECK_HIP(hipModuleUnload(mod));
  }
  free(code);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  return AH_PASS;
}

/* --gpu-architecture=cpu (the CPU device's gcnArchName, as ROCm's tests pass it) chooses the
 * CPU device even next to an NVIDIA target: no PTX. __half is there without an include, as in
 * HIP's hiprtc. */
AH_TEST(hiprtc_cpu_target_half) {
  static const char src[] = "extern \"C\" __global__ void halve(float *p) {\n"
                            "  __half h = __float2half(p[threadIdx.x]);\n"
                            "  p[threadIdx.x] = __half2float(h) / 2;\n}\n";
  const char *opts[] = {"--offload-arch=sm_80", "--gpu-architecture=cpu"};
  hiprtcProgram prog;
  hipModule_t mod;
  hipFunction_t f;
  float h[16], *d;
  size_t size;
  char *code;
  hipDeviceProp_t props;
  int dev;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&props, dev));
  if (strcmp(props.gcnArchName, "cpu") != 0)
    SKIP("code for the CPU device only");
  RTC_CHECK(hiprtcCreateProgram(&prog, src, "half.hip", 0, NULL, NULL));
  RTC_CHECK(hiprtcCompileProgram(prog, 2, opts));
  RTC_CHECK(hiprtcGetCodeSize(prog, &size));
  code = malloc(size);
  CHECK(code != NULL);
  RTC_CHECK(hiprtcGetCode(prog, code));
  for (size_t i = 0; i + 7 < size; i++)
    CHECK(memcmp(code + i, ".entry ", 7) != 0);
  CHECK_HIP(hipModuleLoadData(&mod, code));
  free(code);
  CHECK_HIP(hipModuleGetFunction(&f, mod, "halve"));
  for (int i = 0; i < 16; i++)
    h[i] = (float)(i * 3);
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
  {
    void *args[] = {&d};

    CHECK_HIP(hipModuleLaunchKernel(f, 1, 1, 1, 16, 1, 1, 0, NULL, args, NULL));
  }
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++)
    CHECK_EQ(h[i], (float)(i * 3) / 2); /* small integers are exact in half precision */
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipModuleUnload(mod));
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  return AH_PASS;
}
