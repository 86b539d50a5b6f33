/* SPDX-License-Identifier: MIT */
/* The module API on a code object built by `hipcc --genco` (kernels.hip):
 * load from a file and from memory, kernels by C and mangled names, launches
 * with kernelParams and with a packed `extra` buffer checked against host
 * loops, device variables through hipModuleGetGlobal, and every error path.
 * Usage: module_test <kernels.co> [test]; exit 0 pass, 1 fail, 77 skip. */
#include "ah_test.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

static const char *co_path;

/* The code object's bytes, for hipModuleLoadData. */
static void *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  long n;

  if (f == NULL)
    return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)n);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    *len = (size_t)n;
  }
  fclose(f);
  return buf;
}

/* saxpy through kernelParams, checked against a host loop. */
static int run_saxpy(hipModule_t mod) {
  enum { N = 1000 };
  float hx[N], hy[N], out[N], a = 2.5f;
  float *dx, *dy;
  int n = N;
  hipFunction_t f;

  for (int i = 0; i < N; i++) {
    hx[i] = (float)i * 0.5f;
    hy[i] = (float)(N - i);
  }
  CHECK_HIP(hipModuleGetFunction(&f, mod, "saxpy"));
  CHECK_HIP(hipMalloc((void **)&dx, sizeof(hx)));
  CHECK_HIP(hipMalloc((void **)&dy, sizeof(hy)));
  CHECK_HIP(hipMemcpy(dx, hx, sizeof(hx), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dy, hy, sizeof(hy), hipMemcpyHostToDevice));
  {
    void *params[] = {&a, &dx, &dy, &n};

    CHECK_HIP(hipModuleLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
  }
  CHECK_HIP(hipMemcpy(out, dy, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_NEAR(out[i], a * hx[i] + hy[i], 1e-3);
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  return AH_PASS;
}

AH_TEST(module_load_launch_params) {
  hipModule_t mod;
  hipFunction_t f1, f2;

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK(mod != NULL);
  if (run_saxpy(mod) != AH_PASS)
    return AH_FAIL;
  /* The same name gives the same handle, as in HIP and CUDA. */
  CHECK_HIP(hipModuleGetFunction(&f1, mod, "saxpy"));
  CHECK_HIP(hipModuleGetFunction(&f2, mod, "saxpy"));
  CHECK(f1 == f2);
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

/* mixed(char, double, long long *, short, int) from a packed buffer laid out
 * as the C structure of its parameters. */
AH_TEST(module_launch_extra) {
  enum { N = 300 };
  struct {
    char c;
    double d;
    long long *out;
    short s;
    int n;
  } args;
  long long host[N];
  size_t size = sizeof(args);
  hipModule_t mod;
  hipFunction_t f;
  hipStream_t stream;

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "mixed"));
  CHECK_HIP(hipStreamCreate(&stream));
  memset(&args, 0xff, sizeof(args)); /* padding holds garbage, as in a user's buffer */
  args.c = 7;
  args.d = 123.75;
  args.s = -5;
  args.n = N;
  CHECK_HIP(hipMalloc((void **)&args.out, sizeof(host)));
  CHECK_HIP(hipMemset(args.out, 0, sizeof(host)));
  {
    void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     HIP_LAUNCH_PARAM_END};

    CHECK_HIP(hipModuleLaunchKernel(f, 3, 1, 1, 100, 1, 1, 0, stream, NULL, extra));
    /* The buffer was copied at the launch: changing it now changes nothing. */
    args.c = 1;
  }
  CHECK_HIP(hipStreamSynchronize(stream));
  CHECK_HIP(hipMemcpy(host, args.out, sizeof(host), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_EQ(host[i], 7LL * 1000000 + 123 * 1000 - 5 + i);
  CHECK_HIP(hipFree(args.out));
  CHECK_HIP(hipStreamDestroy(stream));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

/* A C++ kernel by its mangled name. */
AH_TEST(module_mangled_name) {
  enum { N = 64 };
  float h[N], *d;
  float factor = -3.0f;
  int n = N;
  hipModule_t mod;
  hipFunction_t f;

  for (int i = 0; i < N; i++)
    h[i] = (float)i + 0.25f;
  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_ERR(hipModuleGetFunction(&f, mod, "scale"), hipErrorNotFound);
  CHECK_HIP(hipModuleGetFunction(&f, mod, "_Z5scalePffi"));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
  {
    void *params[] = {&d, &factor, &n};

    CHECK_HIP(hipModuleLaunchKernel(f, 1, 1, 1, N, 1, 1, 0, NULL, params, NULL));
  }
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_NEAR(h[i], ((float)i + 0.25f) * factor, 1e-4);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

/* counter and table through hipModuleGetGlobal; bump() adds one per thread. */
AH_TEST(module_get_global) {
  hipModule_t mod;
  hipFunction_t f;
  hipDeviceptr_t dcounter, dtable;
  size_t bytes = 0;
  int before, after;
  float table[16], copy[16], *dcopy;

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetGlobal(&dcounter, &bytes, mod, "counter"));
  CHECK_EQ(bytes, sizeof(int));
  CHECK_HIP(hipModuleGetGlobal(&dtable, NULL, mod, "table"));
  bytes = 0;
  CHECK_HIP(hipModuleGetGlobal(NULL, &bytes, mod, "table"));
  CHECK_EQ(bytes, sizeof(table));
  CHECK_HIP(hipMemcpyDtoH(&before, dcounter, sizeof(before)));
  CHECK_HIP(hipMemcpyDtoH(table, dtable, sizeof(table)));
  for (int i = 0; i < 16; i++)
    CHECK_EQ(table[i], i);
  CHECK_HIP(hipMalloc((void **)&dcopy, sizeof(copy)));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "bump"));
  {
    void *params[] = {&dcopy};

    CHECK_HIP(hipModuleLaunchKernel(f, 4, 1, 1, 8, 8, 1, 0, NULL, params, NULL));
  }
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpyDtoH(&after, dcounter, sizeof(after)));
  CHECK_EQ(after, before + 4 * 64);
  CHECK_HIP(hipMemcpy(copy, dcopy, sizeof(copy), hipMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++)
    CHECK_EQ(copy[i], i);
  /* Writing the variable through its device address is seen by kernels. */
  {
    int v = 1000;

    CHECK_HIP(hipMemcpyHtoD(dcounter, &v, sizeof(v)));
    CHECK_HIP(hipModuleLaunchKernel(f, 1, 1, 1, 10, 1, 1, 0, NULL, (void *[]){&dcopy}, NULL));
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipMemcpyDtoH(&v, dcounter, sizeof(v)));
    CHECK_EQ(v, 1010);
  }
  CHECK_HIP(hipFree(dcopy));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

/* The module's texture references, with the settings their constructors gave. */
AH_TEST(module_get_texref) {
  hipModule_t mod;
  hipTexRef ref = NULL, wrap = NULL, keep;

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetTexRef(&ref, mod, "tex"));
  CHECK(ref != NULL);
  CHECK_EQ(ref->normalized, 0);
  CHECK_EQ(ref->filterMode, hipFilterModePoint);
  CHECK_EQ(ref->addressMode[0], hipAddressModeClamp);
  CHECK_EQ(ref->channelDesc.f, hipChannelFormatKindFloat);
  CHECK_EQ(ref->channelDesc.x, 32);
  CHECK_EQ(ref->channelDesc.y, 0);
  CHECK_HIP(hipModuleGetTexRef(&wrap, mod, "tex_wrap"));
  CHECK(wrap != NULL && wrap != ref);
  CHECK_EQ(wrap->normalized, 1);
  CHECK_EQ(wrap->addressMode[1], hipAddressModeWrap);
  CHECK_EQ(wrap->channelDesc.f, hipChannelFormatKindSigned);

  keep = ref;
  CHECK_RECORDS(hipModuleGetTexRef(NULL, mod, "tex"), hipErrorInvalidValue);
  CHECK_ERR(hipModuleGetTexRef(&ref, mod, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipModuleGetTexRef(&ref, mod, ""), hipErrorInvalidValue);
  CHECK_RECORDS(hipModuleGetTexRef(&ref, mod, "no_such_texture"), hipErrorNotFound);
  /* Other variables and functions are no texture references. */
  CHECK_ERR(hipModuleGetTexRef(&ref, mod, "counter"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetTexRef(&ref, mod, "saxpy"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetTexRef(&ref, NULL, "tex"), hipErrorInvalidResourceHandle);
  CHECK(ref == keep);
  CHECK_HIP(hipModuleUnload(mod));
  CHECK_ERR(hipModuleGetTexRef(&ref, mod, "tex"), hipErrorInvalidResourceHandle);
  return AH_PASS;
}

/* A code object from memory: hipModuleLoadData and hipModuleLoadDataEx. */
AH_TEST(module_load_data) {
  hipModule_t mod;
  hipDeviceptr_t d;
  size_t len = 0;
  void *image = read_all(co_path, &len);
  int v = 0;

  CHECK(image != NULL);
  CHECK_HIP(hipModuleLoadData(&mod, image));
  /* The loaded copy does not read the image again. */
  memset(image, 0, len);
  free(image);
  CHECK_HIP(hipModuleGetGlobal(&d, NULL, mod, "counter"));
  CHECK_HIP(hipMemcpyDtoH(&v, d, sizeof(v)));
  CHECK_EQ(v, 42);
  if (run_saxpy(mod) != AH_PASS)
    return AH_FAIL;
  CHECK_HIP(hipModuleUnload(mod));
  /* hipModuleLoadDataEx: options are accepted and ignored. */
  image = read_all(co_path, &len);
  CHECK(image != NULL);
  {
    hipJitOption opt[1] = {hipJitOptionMaxRegisters};
    void *val[1] = {(void *)(uintptr_t)32};

    CHECK_HIP(hipModuleLoadDataEx(&mod, image, 1, opt, val));
    free(image);
    if (run_saxpy(mod) != AH_PASS)
      return AH_FAIL;
    CHECK_HIP(hipModuleUnload(mod));
  }
  return AH_PASS;
}

/* The same image from a file and from memory: two libraries, each with its
 * own kernels and variables (on an NVIDIA GPU, each its own device code). */
AH_TEST(module_load_twice) {
  hipModule_t mod, mod2;
  hipDeviceptr_t d1, d2;
  size_t len = 0;
  void *image;
  int v, five = 5;

  image = read_all(co_path, &len);
  CHECK(image != NULL);
  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetGlobal(&d1, NULL, mod, "counter"));
  CHECK_HIP(hipMemcpyHtoD(d1, &five, sizeof(five)));
  CHECK_HIP(hipModuleLoadData(&mod2, image));
  free(image);
  CHECK(mod2 != mod);
  CHECK_HIP(hipModuleGetGlobal(&d2, NULL, mod2, "counter"));
  CHECK(d2 != d1);
  CHECK_HIP(hipMemcpyDtoH(&v, d2, sizeof(v)));
  CHECK_EQ(v, 42);
  CHECK_HIP(hipMemcpyDtoH(&v, d1, sizeof(v)));
  CHECK_EQ(v, 5);
  if (run_saxpy(mod2) != AH_PASS)
    return AH_FAIL;
  CHECK_HIP(hipModuleUnload(mod2));
  /* Loading the file again gives a new handle on the same library. */
  CHECK_HIP(hipModuleLoad(&mod2, co_path));
  CHECK(mod2 != mod);
  CHECK_HIP(hipModuleGetGlobal(&d2, NULL, mod2, "counter"));
  CHECK(d2 == d1);
  CHECK_HIP(hipModuleUnload(mod2));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

AH_TEST(module_func_attribute) {
  hipModule_t mod;
  hipFunction_t f;
  hipDeviceProp_t prop;
  int dev, v = -1;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&prop, dev));
  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "saxpy"));
  CHECK_HIP(hipFuncGetAttribute(&v, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  CHECK(v > 0 && v <= prop.maxThreadsPerBlock);
  CHECK_HIP(hipFuncGetAttribute(&v, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
  CHECK(v >= 0 && (size_t)v <= prop.sharedMemPerBlockOptin + prop.sharedMemPerBlock);
  CHECK_ERR(hipFuncGetAttribute(NULL, HIP_FUNC_ATTRIBUTE_NUM_REGS, f), hipErrorInvalidValue);
  CHECK_ERR(hipFuncGetAttribute(&v, HIP_FUNC_ATTRIBUTE_MAX, f), hipErrorInvalidValue);
  CHECK_ERR(hipFuncGetAttribute(&v, (hipFunction_attribute)-1, f), hipErrorInvalidValue);
  CHECK_ERR(hipFuncGetAttribute(&v, HIP_FUNC_ATTRIBUTE_NUM_REGS, NULL),
            hipErrorInvalidResourceHandle);
  CHECK_ERR(hipFuncGetAttribute(&v, HIP_FUNC_ATTRIBUTE_NUM_REGS, (hipFunction_t)mod),
            hipErrorInvalidResourceHandle);
  CHECK_HIP(hipModuleUnload(mod));
  CHECK_ERR(hipFuncGetAttribute(&v, HIP_FUNC_ATTRIBUTE_NUM_REGS, f),
            hipErrorInvalidResourceHandle);
  return AH_PASS;
}

/* grid_sum needs every block resident: its grid barrier checks it. */
AH_TEST(module_cooperative) {
  enum { N = 512 };
  int host[N], out[2], sum = 0, *d, *dout, n = N, coop = 0, dev;
  hipModule_t mod;
  hipFunction_t f;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, dev));
  if (!coop)
    SKIP("the device has no cooperative launch");
  for (int i = 0; i < N; i++) {
    host[i] = i * 3 - 100;
    sum += host[i];
  }
  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "grid_sum"));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(host)));
  CHECK_HIP(hipMalloc((void **)&dout, sizeof(out)));
  CHECK_HIP(hipMemcpy(d, host, sizeof(host), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemset(dout, 0, sizeof(out)));
  {
    void *params[] = {&d, &dout, &n};

    CHECK_HIP(hipModuleLaunchCooperativeKernel(f, N / 64, 1, 1, 64, 1, 1, 0, NULL, params));
    CHECK_RECORDS(hipModuleLaunchCooperativeKernel(NULL, 1, 1, 1, 64, 1, 1, 0, NULL, params),
                  hipErrorInvalidResourceHandle);
    CHECK_ERR(hipModuleLaunchCooperativeKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchCooperativeKernel(f, 1u << 20, 1, 1, 1024, 1, 1, 0, NULL, params),
              hipErrorCooperativeLaunchTooLarge);
  }
  CHECK_HIP(hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost));
  CHECK_EQ(out[0], sum);
  CHECK_EQ(out[1], sum);
  CHECK_HIP(hipFree(d));
  CHECK_HIP(hipFree(dout));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

AH_TEST(module_occupancy) {
  hipModule_t mod;
  hipFunction_t f;
  hipDeviceProp_t prop;
  int dev, blocks = -1, grid = -1, block = -1;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&prop, dev));
  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "saxpy"));
  CHECK_HIP(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 64, 0));
  CHECK(blocks >= 1 && blocks * 64 <= prop.maxThreadsPerMultiProcessor);
  CHECK_HIP(hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      &blocks, f, 64, 0, hipOccupancyDisableCachingOverride));
  CHECK(blocks >= 1);
  CHECK_HIP(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0));
  CHECK(block >= 1 && block <= prop.maxThreadsPerBlock);
  CHECK(grid >= prop.multiProcessorCount);
  CHECK_HIP(hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, 0, 32,
                                                             hipOccupancyDefault));
  CHECK(block >= 1 && block <= 32);
  CHECK_RECORDS(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f, 64, 0),
                hipErrorInvalidValue);
  CHECK_ERR(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 0, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, f, 64, 0, 0x10),
            hipErrorInvalidValue);
  CHECK_ERR(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, NULL, 64, 0),
            hipErrorInvalidResourceHandle);
  CHECK_ERR(hipModuleOccupancyMaxPotentialBlockSize(NULL, &block, f, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, -1),
            hipErrorInvalidValue);
  CHECK_ERR(hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, 0, 0, 0x10),
            hipErrorInvalidValue);
  CHECK_ERR(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, (hipFunction_t)mod, 0, 0),
            hipErrorInvalidResourceHandle);
  CHECK_HIP(hipModuleUnload(mod));
  CHECK_ERR(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0),
            hipErrorInvalidResourceHandle);
  return AH_PASS;
}

AH_TEST(module_load_errors) {
  char text[] = "/tmp/anyhip-module-XXXXXX";
  static const unsigned char garbage[64] = {0x7f, 'E', 'L', 'F', 9, 9, 9};
  static const char not_elf[] = "this is not a code object, it is text";
  hipModule_t mod = (hipModule_t)0x1;
  int fd;

  CHECK_RECORDS(hipModuleLoad(NULL, co_path), hipErrorInvalidValue);
  CHECK_ERR(hipModuleLoad(&mod, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipModuleLoad(&mod, ""), hipErrorInvalidValue);
  CHECK_RECORDS(hipModuleLoad(&mod, "/nonexistent/anyhip/kernels.co"), hipErrorFileNotFound);
  CHECK_ERR(hipModuleLoad(&mod, "/tmp"), hipErrorFileNotFound);
  /* A file that is not a shared library of this host. */
  fd = mkstemp(text);
  CHECK(fd >= 0);
  CHECK(write(fd, not_elf, sizeof(not_elf)) == (ssize_t)sizeof(not_elf));
  close(fd);
  CHECK_RECORDS(hipModuleLoad(&mod, text), hipErrorInvalidImage);
  unlink(text);
  CHECK(mod == (hipModule_t)0x1); /* untouched on failure */
  CHECK_ERR(hipModuleLoadData(NULL, garbage), hipErrorInvalidValue);
  CHECK_ERR(hipModuleLoadData(&mod, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipModuleLoadData(&mod, garbage), hipErrorInvalidImage);
  CHECK_ERR(hipModuleLoadData(&mod, not_elf), hipErrorInvalidImage);
  CHECK_ERR(hipModuleLoadDataEx(&mod, not_elf, 0, NULL, NULL), hipErrorInvalidImage);
  CHECK_ERR(hipModuleLoadDataEx(&mod, garbage, 1, NULL, NULL), hipErrorInvalidValue);
  CHECK(mod == (hipModule_t)0x1);
  /* Bad module handles. */
  /* NULL is an invalid handle; a module that is not loaded (unloaded
   * already, or never made) is not found (AMD's runtime; docs/semantics.md). */
  CHECK_RECORDS(hipModuleUnload(NULL), hipErrorInvalidResourceHandle);
  CHECK_ERR(hipModuleUnload((hipModule_t)0x1234), hipErrorNotFound);
  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleUnload(mod));
  CHECK_ERR(hipModuleUnload(mod), hipErrorNotFound);
  return AH_PASS;
}

AH_TEST(module_name_errors) {
  hipModule_t mod;
  hipFunction_t f = (hipFunction_t)0x1;
  hipDeviceptr_t d = (hipDeviceptr_t)0x1;
  size_t bytes = 7;

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_RECORDS(hipModuleGetFunction(NULL, mod, "saxpy"), hipErrorInvalidValue);
  CHECK_ERR(hipModuleGetFunction(&f, mod, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipModuleGetFunction(&f, mod, ""), hipErrorInvalidValue);
  CHECK_RECORDS(hipModuleGetFunction(&f, mod, "no_such_kernel"), hipErrorNotFound);
  /* Names in the library that are not kernels, and names of its dependencies. */
  CHECK_ERR(hipModuleGetFunction(&f, mod, "not_a_kernel"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetFunction(&f, mod, "counter"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetFunction(&f, mod, "malloc"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetFunction(&f, mod, "hipMalloc"), hipErrorNotFound);
  CHECK_RECORDS(hipModuleGetFunction(&f, NULL, "saxpy"), hipErrorInvalidResourceHandle);
  CHECK_ERR(hipModuleGetFunction(&f, (hipModule_t)0x1234, "saxpy"),
            hipErrorInvalidResourceHandle);
  CHECK(f == (hipFunction_t)0x1);

  CHECK_RECORDS(hipModuleGetGlobal(NULL, NULL, mod, "counter"), hipErrorInvalidValue);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, mod, NULL), hipErrorInvalidValue);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, mod, ""), hipErrorInvalidValue);
  CHECK_RECORDS(hipModuleGetGlobal(&d, &bytes, mod, "no_such_variable"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, mod, "saxpy"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, mod, "not_a_kernel"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, mod, "environ"), hipErrorNotFound);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, NULL, "counter"), hipErrorInvalidResourceHandle);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, (hipModule_t)0x1234, "counter"),
            hipErrorInvalidResourceHandle);
  CHECK(d == (hipDeviceptr_t)0x1 && bytes == 7);

  CHECK_HIP(hipModuleUnload(mod));
  CHECK_ERR(hipModuleGetFunction(&f, mod, "saxpy"), hipErrorInvalidResourceHandle);
  CHECK_ERR(hipModuleGetGlobal(&d, &bytes, mod, "counter"), hipErrorInvalidResourceHandle);
  return AH_PASS;
}

AH_TEST(module_launch_errors) {
  float *dy, a = 1.0f, zero = 0.0f;
  int n = 4;
  size_t size_small = 8, size_ok = 32;
  hipModule_t mod;
  hipFunction_t f;
  void *params[4];

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "saxpy"));
  CHECK_HIP(hipMalloc((void **)&dy, 4 * sizeof(float)));
  CHECK_HIP(hipMemset(dy, 0, 4 * sizeof(float)));
  params[0] = &a;
  params[1] = &dy;
  params[2] = &dy;
  params[3] = &n;
  {
    struct {
      float a;
      const float *x;
      float *y;
      int n;
    } buf = {zero, dy, dy, n};
    void *extra_ok[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &buf, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                        &size_ok, HIP_LAUNCH_PARAM_END};
    void *extra_small[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &buf, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                           &size_small, HIP_LAUNCH_PARAM_END};
    void *extra_nobuf[] = {HIP_LAUNCH_PARAM_BUFFER_SIZE, &size_ok, HIP_LAUNCH_PARAM_END};
    void *extra_nosize[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &buf, HIP_LAUNCH_PARAM_END};
    void *extra_badkey[] = {(void *)0x7, &buf, HIP_LAUNCH_PARAM_END};

    CHECK_EQ(sizeof(buf), size_ok);
    CHECK_RECORDS(hipModuleLaunchKernel(NULL, 1, 1, 1, 4, 1, 1, 0, NULL, params, NULL),
                  hipErrorInvalidResourceHandle);
    CHECK_ERR(hipModuleLaunchKernel((hipFunction_t)mod, 1, 1, 1, 4, 1, 1, 0, NULL, params, NULL),
              hipErrorInvalidResourceHandle);
    CHECK_RECORDS(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, params, extra_ok),
                  hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, NULL),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, extra_small),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, extra_nobuf),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, extra_nosize),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, extra_badkey),
              hipErrorInvalidValue);
    /* A bad grid or block is an invalid value for the driver-style launch
     * (AMD's runtime, ROCm's unit suite; docs/semantics.md). */
    CHECK_RECORDS(hipModuleLaunchKernel(f, 0, 1, 1, 4, 1, 1, 0, NULL, params, NULL),
                  hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 0, 1, 1, 0, NULL, params, NULL),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4096, 1, 1, 0, NULL, params, NULL),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 2048, 0, NULL, params, NULL),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchCooperativeKernel(f, 1, 1, 1, 4, 4, 512, 0, NULL, params),
              hipErrorInvalidValue);
    CHECK_ERR(hipModuleLaunchCooperativeKernel(f, 1, 0, 1, 4, 1, 1, 0, NULL, params),
              hipErrorInvalidValue);
    /* A destroyed stream: invalid value for the cooperative one (AMD's runtime). */
    CHECK_ERR(hipModuleLaunchCooperativeKernel(f, 1, 1, 1, 4, 1, 1, 0, (hipStream_t)0x1234, params),
              hipErrorInvalidValue);
    /* anyhip's answer for a stream handle it does not know (tests/api/launch.c). */
    CHECK_ERR(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, (hipStream_t)0x1234, params, NULL),
              hipErrorContextIsDestroyed);
    /* Nothing above ran: y is still zero. A good extra launch (a = 0) keeps it. */
    CHECK_HIP(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, extra_ok));
    {
      float h[4];

      CHECK_HIP(hipMemcpy(h, dy, sizeof(h), hipMemcpyDeviceToHost));
      for (int i = 0; i < 4; i++)
        CHECK_EQ(h[i], 0);
    }
  }
  CHECK_HIP(hipModuleUnload(mod));
  CHECK_RECORDS(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, params, NULL),
                hipErrorInvalidResourceHandle);
  CHECK_HIP(hipFree(dy));
  return AH_PASS;
}

/* A module's function handle as a graph kernel node's func (as AMD's
 * runtime takes it): the node runs saxpy and reads its handle back. */
AH_TEST(module_graph_node) {
  enum { N = 300 };
  float hx[N], hy[N], out[N], a = -1.5f;
  float *dx, *dy;
  int n = N;
  hipModule_t mod;
  hipFunction_t f;
  hipGraph_t g;
  hipGraphNode_t k;
  hipGraphExec_t x;
  hipKernelNodeParams kp, back;
  void *params[] = {&a, &dx, &dy, &n};

  for (int i = 0; i < N; i++) {
    hx[i] = (float)i;
    hy[i] = 3.0f;
  }
  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "saxpy"));
  CHECK_HIP(hipMalloc((void **)&dx, sizeof(hx)));
  CHECK_HIP(hipMalloc((void **)&dy, sizeof(hy)));
  CHECK_HIP(hipMemcpy(dx, hx, sizeof(hx), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dy, hy, sizeof(hy), hipMemcpyHostToDevice));
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)f;
  kp.gridDim = (dim3){(N + 63) / 64, 1, 1};
  kp.blockDim = (dim3){64, 1, 1};
  kp.kernelParams = params;
  CHECK_HIP(hipGraphCreate(&g, 0));
  CHECK_HIP(hipGraphAddKernelNode(&k, g, NULL, 0, &kp));
  CHECK_HIP(hipGraphKernelNodeGetParams(k, &back));
  CHECK(back.func == (void *)f);
  kp.func = (void *)(uintptr_t)0x1234; /* neither a kernel nor a handle */
  CHECK_ERR(hipGraphAddKernelNode(&k, g, NULL, 0, &kp), hipErrorInvalidDeviceFunction);
  CHECK_HIP(hipGraphInstantiate(&x, g, NULL, NULL, 0));
  CHECK_HIP(hipGraphLaunch(x, NULL));
  CHECK_HIP(hipMemcpy(out, dy, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_NEAR(out[i], a * hx[i] + hy[i], 1e-4);
  CHECK_HIP(hipGraphExecDestroy(x));
  CHECK_HIP(hipGraphDestroy(g));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

struct entry {
  const char *name;
  int (*fn)(void);
};

/* hipExtModuleLaunchKernel: sizes in threads, start and stop events around
 * the kernel; a global size below the local one is one block of that size
 * (AMD's partial workgroup), a larger remainder is refused; the module
 * path's codes (AMD's). */
AH_TEST(module_ext_launch) {
  enum { N = 1000 };
  float hx[N], hy[N], out[N], a = 1.5f;
  float *dx, *dy;
  int n = N;
  hipModule_t mod;
  hipFunction_t f;
  hipEvent_t start, stop;
  void *params[] = {&a, &dx, &dy, &n};

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&f, mod, "saxpy"));
  for (int i = 0; i < N; i++) {
    hx[i] = (float)i;
    hy[i] = 1.0f;
  }
  CHECK_HIP(hipMalloc((void **)&dx, sizeof(hx)));
  CHECK_HIP(hipMalloc((void **)&dy, sizeof(hy)));
  CHECK_HIP(hipMemcpy(dx, hx, sizeof(hx), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(dy, hy, sizeof(hy), hipMemcpyHostToDevice));
  CHECK_HIP(hipEventCreate(&start));
  CHECK_HIP(hipEventCreate(&stop));
  /* 1000 threads in blocks of 200: global sizes are threads, not blocks. */
  CHECK_HIP(hipExtModuleLaunchKernel(f, N, 1, 1, 200, 1, 1, 0, NULL, params, NULL, start, stop,
                                     0));
  CHECK_HIP(hipEventSynchronize(stop));
  CHECK_HIP(hipMemcpy(out, dy, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_NEAR(out[i], a * hx[i] + 1.0f, 1e-3);
  /* Global 10 below local 256: one block of 10 threads (y[0..9] once more). */
  CHECK_HIP(hipHccModuleLaunchKernel(f, 10, 1, 1, 256, 1, 1, 0, NULL, params, NULL, NULL, NULL));
  CHECK_HIP(hipMemcpy(out, dy, sizeof(out), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_NEAR(out[i], i < 10 ? 2 * a * hx[i] + 1.0f : a * hx[i] + 1.0f, 1e-3);
  CHECK_ERR(hipExtModuleLaunchKernel(f, 1000, 1, 1, 300, 1, 1, 0, NULL, params, NULL, NULL, NULL,
                                     0),
            hipErrorInvalidValue);
  CHECK_ERR(hipExtModuleLaunchKernel(f, 0, 1, 1, 1, 1, 1, 0, NULL, params, NULL, NULL, NULL, 0),
            hipErrorInvalidValue);
  /* A local size past the block limits, even above the global size: AMD's code. */
  CHECK_ERR(hipExtModuleLaunchKernel(f, 10, 1, 1, (uint32_t)-1, 1, 1, 0, NULL, params, NULL, NULL,
                                     NULL, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipExtModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, (size_t)-1, NULL, params, NULL, NULL,
                                     NULL, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipExtModuleLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL, NULL, NULL,
                                     0),
            hipErrorInvalidResourceHandle);
  CHECK_ERR(hipExtModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL, NULL, NULL, 7),
            hipErrorInvalidValue);
  /* Work sizes up to 2^32 - 1 threads a dimension, past maxGridSize blocks
   * (AMD's limit; ROCm's unit suite, hipExtModuleLaunchKernel's corner
   * tests), of an empty kernel; a launch of as many blocks is refused. */
  {
    hipFunction_t nop;

    hipDeviceProp_t p;

    CHECK_HIP(hipModuleGetFunction(&nop, mod, "int_nop"));
    CHECK_HIP(hipGetDeviceProperties(&p, 0));
    /* An NVIDIA GPU launches at most maxGridSize blocks (2^31 - 1 in x,
     * 65535 in y and z): there these are refused. */
    hipError_t want = strcmp(p.gcnArchName, "cpu") == 0 ? hipSuccess : hipErrorInvalidValue;

    CHECK_ERR(hipExtModuleLaunchKernel(nop, UINT32_MAX, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, NULL,
                                       NULL, 0),
              want);
    CHECK_ERR(hipExtModuleLaunchKernel(nop, 1, UINT32_MAX, 1, 1, 1, 1, 0, NULL, NULL, NULL, NULL,
                                       NULL, 0),
              want);
    CHECK_ERR(hipHccModuleLaunchKernel(nop, 1, 1, UINT32_MAX, 1, 1, 1, 0, NULL, NULL, NULL, NULL,
                                       NULL),
              want);
    CHECK_HIP(hipDeviceSynchronize());
    CHECK(hipModuleLaunchKernel(nop, UINT32_MAX, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL) !=
          hipSuccess);
    (void)hipGetLastError();
  }
  CHECK_HIP(hipEventDestroy(start));
  CHECK_HIP(hipEventDestroy(stop));
  CHECK_HIP(hipFree(dx));
  CHECK_HIP(hipFree(dy));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

/* reverse_blocks of mod on 8 blocks of 256, checked against the host. */
static int run_reverse(hipModule_t mod) {
  enum { N = 8 * 256 };
  int h[N], *d;
  hipFunction_t f;

  for (int i = 0; i < N; i++)
    h[i] = i * 3 + 1;
  CHECK_HIP(hipModuleGetFunction(&f, mod, "reverse_blocks"));
  CHECK_HIP(hipMalloc((void **)&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice));
  {
    void *params[] = {&d};

    CHECK_HIP(hipModuleLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
  }
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    CHECK_EQ(h[i], (i / 256 * 256 + 255 - i % 256) * 3 + 1);
  CHECK_HIP(hipFree(d));
  return AH_PASS;
}

/* Static __shared__ memory of modules loaded one after the other: the
 * second copy (from memory: a library of its own) places its variables
 * after the first's, and the threads that ran the first's blocks grow their
 * arena for it; both run right, before and after. */
AH_TEST(module_shared_arena) {
  hipModule_t a, b;
  size_t len = 0;
  void *image = read_all(co_path, &len);

  CHECK(image != NULL);
  CHECK_HIP(hipModuleLoad(&a, co_path));
  if (run_reverse(a) != AH_PASS)
    return AH_FAIL;
  CHECK_HIP(hipModuleLoadData(&b, image));
  free(image);
  if (run_reverse(b) != AH_PASS || run_reverse(a) != AH_PASS)
    return AH_FAIL;
  CHECK_HIP(hipModuleUnload(a));
  if (run_reverse(b) != AH_PASS)
    return AH_FAIL;
  CHECK_HIP(hipModuleUnload(b));
  return AH_PASS;
}

/* Kernels a macro defines (names pasted, C linkage): found, launched, and
 * their variables written (the module's int_value and float_value). */
AH_TEST(module_macro_kernels) {
  hipModule_t mod;
  hipFunction_t fi, ff, fn;
  hipDeviceptr_t gi, gf;
  size_t bytes = 0;
  int *same, h = 0, iv = 42, hi = 0;
  float fv = 2.5f, hf = 0;

  CHECK_HIP(hipModuleLoad(&mod, co_path));
  CHECK_HIP(hipModuleGetFunction(&fi, mod, "int_set"));
  CHECK_HIP(hipModuleGetFunction(&ff, mod, "float_set"));
  CHECK_HIP(hipModuleGetFunction(&fn, mod, "float_nop"));
  CHECK_HIP(hipModuleGetGlobal(&gi, &bytes, mod, "int_value"));
  CHECK_EQ(bytes, sizeof(int));
  CHECK_HIP(hipModuleGetGlobal(&gf, &bytes, mod, "float_value"));
  CHECK_EQ(bytes, sizeof(float));
  CHECK_HIP(hipMalloc((void **)&same, sizeof(int)));
  {
    void *pi[] = {&iv, &same}, *pf[] = {&fv, &same};

    CHECK_HIP(hipModuleLaunchKernel(fi, 1, 1, 1, 1, 1, 1, 0, NULL, pi, NULL));
    CHECK_HIP(hipModuleLaunchKernel(ff, 1, 1, 1, 1, 1, 1, 0, NULL, pf, NULL));
    CHECK_HIP(hipModuleLaunchKernel(fn, 1000, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
  }
  CHECK_HIP(hipMemcpy(&h, same, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(&hi, (void *)gi, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(&hf, (void *)gf, sizeof(float), hipMemcpyDeviceToHost));
  CHECK_EQ(h, 1);
  CHECK_EQ(hi, 42);
  CHECK_NEAR(hf, 2.5f, 0);
  CHECK_HIP(hipFree(same));
  CHECK_HIP(hipModuleUnload(mod));
  return AH_PASS;
}

int main(int argc, char **argv) {
  static const struct entry tests[] = {
      {"macro_kernels", ah_test_module_macro_kernels},
      {"ext_launch", ah_test_module_ext_launch},
      {"load_launch_params", ah_test_module_load_launch_params},
      {"launch_extra", ah_test_module_launch_extra},
      {"mangled_name", ah_test_module_mangled_name},
      {"get_global", ah_test_module_get_global},
      {"get_texref", ah_test_module_get_texref},
      {"load_data", ah_test_module_load_data},
      {"load_twice", ah_test_module_load_twice},
      {"func_attribute", ah_test_module_func_attribute},
      {"cooperative", ah_test_module_cooperative},
      {"occupancy", ah_test_module_occupancy},
      {"load_errors", ah_test_module_load_errors},
      {"name_errors", ah_test_module_name_errors},
      {"launch_errors", ah_test_module_launch_errors},
      {"graph_node", ah_test_module_graph_node},
      {"shared_arena", ah_test_module_shared_arena},
  };
  int count, failed = 0, ran = 0;

  if (argc < 2) {
    fprintf(stderr, "usage: %s kernels.co [test]\n", argv[0]);
    return 1;
  }
  co_path = argv[1];
  if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    printf("skipped: no device\n");
    return AH_SKIP;
  }
  for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
    int rc;

    if (argc > 2 && strcmp(argv[2], tests[i].name) != 0)
      continue;
    rc = tests[i].fn();
    ran++;
    printf("%s: %s\n", tests[i].name, rc == AH_PASS ? "ok" : "FAILED");
    failed += rc != AH_PASS;
  }
  if (ran == 0) {
    fprintf(stderr, "no test named %s\n", argv[2]);
    return 1;
  }
  return failed != 0 ? AH_FAIL : AH_PASS;
}
