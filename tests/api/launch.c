/* SPDX-License-Identifier: MIT */
/* Tests of kernel launches from C: __ahLaunchKernel (what chevrons compile
 * into), hipLaunchKernel with the registry, the configure/setup/launch
 * triple, and every refused configuration. The "kernel" is a C function
 * with a hand-written signature descriptor; the CPU device calls it once per
 * GPU thread, so counting calls checks the grid. */
#include "ah_test.h"
#include "gate.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>


static atomic_llong total;

/* kernel(atomic_llong *sum, int add, char tag, double scale): sum += add * scale + tag */
static void count_kernel(atomic_llong *sum, int add, char tag, double scale) {
  atomic_fetch_add(sum, (long long)(add * scale) + tag);
}

static void count_invoke(const void *fn, void **args) {
  ((void (*)(atomic_llong *, int, char, double))fn)(*(atomic_llong **)args[0], *(int *)args[1],
                                                    *(char *)args[2], *(double *)args[3]);
}

static const size_t count_sizes[] = {sizeof(atomic_llong *), sizeof(int), sizeof(char),
                                     sizeof(double)};
static const size_t count_aligns[] = {_Alignof(atomic_llong *), _Alignof(int), _Alignof(char),
                                      _Alignof(double)};
static const ahKernelSig count_sig = {count_invoke, 4, count_sizes, count_aligns};

/* A kernel that takes nothing. */
static atomic_int noarg_calls;
static void noarg_kernel(void) {
  atomic_fetch_add(&noarg_calls, 1);
}
static void noarg_invoke(const void *fn, void **args) {
  (void)args;
  ((void (*)(void))fn)();
}
static const size_t zero[] = {0};
static const ahKernelSig noarg_sig = {noarg_invoke, 0, zero, zero};

static hipError_t launch_count(dim3 grid, dim3 block, size_t shm, hipStream_t s, int add) {
  atomic_llong *p = &total;
  char tag = 0;
  double scale = 1.0;
  void *args[] = {&p, &add, &tag, &scale};

  return __ahLaunchKernel((const void *)count_kernel, &count_sig, grid, block, shm, s, args);
}

/* The kernels here are plain C functions: only the CPU device runs them. */
#define REQUIRE_CPU()                                                                              \
  do {                                                                                             \
    hipDeviceProp_t p_;                                                                            \
    CHECK_HIP(hipGetDeviceProperties(&p_, 0));                                                     \
    if (strcmp(p_.gcnArchName, "cpu") != 0)                                                        \
      SKIP("C kernels need the CPU device");                                                       \
  } while (0)

/* Two virtual CPU devices (ANYHIP_CPU_DEVICES=2 unless the environment
 * says otherwise); n receives the count. */
#define REQUIRE_TWO_CPU_DEVICES(n)                                                                 \
  do {                                                                                             \
    if (getenv("ANYHIP_CPU_DEVICES") == NULL)                                                      \
      setenv("ANYHIP_CPU_DEVICES", "2", 1);                                                        \
    REQUIRE_CPU();                                                                                 \
    CHECK_HIP(hipGetDeviceCount(&(n)));                                                            \
    if ((n) < 2)                                                                                   \
      SKIP("needs two devices");                                                                   \
  } while (0)

static dim3 d3(unsigned x, unsigned y, unsigned z) {
  dim3 d = {x, y, z};
  return d;
}

AH_TEST(launch_runs_every_thread) {
  REQUIRE_CPU();
  atomic_store(&total, 0);
  CHECK_HIP(launch_count(d3(2, 3, 1), d3(4, 2, 1), 0, NULL, 1));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 2 * 3 * 4 * 2);
  atomic_store(&total, 0);
  CHECK_HIP(launch_count(d3(3, 2, 2), d3(1, 5, 3), 1024, hipStreamPerThread, 2));
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_EQ(atomic_load(&total), 2 * 12 * 15);
  atomic_store(&noarg_calls, 0);
  CHECK_HIP(__ahLaunchKernel((const void *)noarg_kernel, &noarg_sig, d3(5, 1, 1), d3(7, 1, 1), 0,
                             NULL, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&noarg_calls), 35);
  return AH_PASS;
}

/* Arguments are copied at launch: changing them afterwards changes nothing. */
AH_TEST(launch_args_by_value) {
  struct gate g = GATE_INIT;
  atomic_llong *p = &total;
  int add = 5;
  char tag = 3;
  double scale = 2.0;
  void *args[] = {&p, &add, &tag, &scale};
  hipStream_t s;

  REQUIRE_CPU();
  atomic_store(&total, 0);
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipLaunchHostFunc(s, gate_fn, &g));
  CHECK_HIP(__ahLaunchKernel((const void *)count_kernel, &count_sig, d3(2, 1, 1), d3(8, 1, 1), 0, s,
                             args));
  add = 1000;
  tag = 100;
  scale = 9.0;
  p = NULL;
  sleep_ms(10);
  CHECK_EQ(atomic_load(&total), 0); /* held behind the gate */
  gate_open(&g);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&total), 16 * (5 * 2 + 3));
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* Every refused configuration gives HIP's error, is kept as the last error,
 * and runs nothing. */
AH_TEST(launch_bad_config) {
  hipDeviceProp_t prop;
  hipStream_t dead;
  struct {
    dim3 grid, block;
    size_t shm;
    hipError_t want;
  } bad[] = {
      {{1, 1, 1}, {1025, 1, 1}, 0, hipErrorInvalidConfiguration},
      {{1, 1, 1}, {512, 2, 2}, 0, hipErrorInvalidConfiguration},
      {{1, 1, 1}, {1, 1, 1025}, 0, hipErrorInvalidConfiguration},
      {{1, 1, 1}, {1, 1025, 1}, 0, hipErrorInvalidConfiguration},
      /* 2^32 threads: the product overflows 32 bits */
      {{1, 1, 1}, {65536, 65536, 1}, 0, hipErrorInvalidConfiguration},
      {{0, 1, 1}, {1, 1, 1}, 0, hipErrorInvalidConfiguration},
      {{1, 0, 1}, {1, 1, 1}, 0, hipErrorInvalidConfiguration},
      {{1, 1, 0}, {1, 1, 1}, 0, hipErrorInvalidConfiguration},
      {{1, 1, 1}, {0, 1, 1}, 0, hipErrorInvalidConfiguration},
      {{1, 1, 1}, {1, 0, 1}, 0, hipErrorInvalidConfiguration},
      {{1, 1, 1}, {1, 1, 0}, 0, hipErrorInvalidConfiguration},
      {{0x80000000u, 1, 1}, {1, 1, 1}, 0, hipErrorInvalidConfiguration}, /* over maxGridSize */
      {{0x7fffffffu, 1, 1}, {3, 1, 1}, 0, hipErrorInvalidConfiguration}, /* x threads >= 2^32 */
      {{1, 0xffffffffu, 1}, {1, 1, 1}, 0, hipErrorInvalidConfiguration},
  };

  REQUIRE_CPU();
  CHECK_HIP(hipGetDeviceProperties(&prop, 0));
  CHECK_EQ(prop.maxThreadsPerBlock, 1024);
  atomic_store(&total, 0);
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    (void)hipGetLastError();
    CHECK_ERR(launch_count(bad[i].grid, bad[i].block, bad[i].shm, NULL, 1), bad[i].want);
    CHECK_EQ(hipGetLastError(), bad[i].want);
  }
  /* Dynamic shared memory over the per-block limit. */
  CHECK_ERR(launch_count(d3(1, 1, 1), d3(1, 1, 1), prop.sharedMemPerBlock + 1, NULL, 1),
            hipErrorInvalidValue);
  CHECK_ERR(launch_count(d3(1, 1, 1), d3(1, 1, 1), SIZE_MAX, NULL, 1), hipErrorInvalidValue);
  /* A null kernel. */
  CHECK_ERR(__ahLaunchKernel(NULL, &count_sig, d3(1, 1, 1), d3(1, 1, 1), 0, NULL, NULL),
            hipErrorInvalidDeviceFunction);
  /* Arguments missing for a kernel that has parameters. */
  CHECK_ERR(__ahLaunchKernel((const void *)count_kernel, &count_sig, d3(1, 1, 1), d3(1, 1, 1), 0,
                             NULL, NULL),
            hipErrorInvalidValue);
  /* A destroyed stream. */
  CHECK_HIP(hipStreamCreate(&dead));
  CHECK_HIP(hipStreamDestroy(dead));
  CHECK_ERR(launch_count(d3(1, 1, 1), d3(1, 1, 1), 0, dead, 1), hipErrorContextIsDestroyed);
  CHECK_EQ(hipGetLastError(), hipErrorContextIsDestroyed);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 0);

  /* The limits themselves are fine. */
  CHECK_HIP(launch_count(d3(1, 1, 1), d3(1024, 1, 1), prop.sharedMemPerBlock, NULL, 1));
  CHECK_HIP(launch_count(d3(1, 1, 1), d3(1, 1, 1024), 0, NULL, 1));
  CHECK_HIP(launch_count(d3(1, 1, 1), d3(16, 8, 8), 0, NULL, 1));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 3 * 1024);
  return AH_PASS;
}

AH_TEST(launch_hipLaunchKernel) {
  atomic_llong *p = &total;
  int add = 3;
  char tag = 1;
  double scale = 1.0;
  void *args[] = {&p, &add, &tag, &scale};
  hipStream_t s;

  REQUIRE_CPU();
  /* Not registered: the runtime does not know its parameters. */
  atomic_store(&total, 0);
  CHECK_ERR(hipLaunchKernel((const void *)count_kernel, d3(1, 1, 1), d3(4, 1, 1), args, 0, NULL),
            hipErrorInvalidDeviceFunction);
  CHECK_ERR(hipLaunchKernel(NULL, d3(1, 1, 1), d3(4, 1, 1), args, 0, NULL),
            hipErrorInvalidDeviceFunction);
  __ahRegisterKernel((const void *)count_kernel, &count_sig);
  __ahRegisterKernel((const void *)noarg_kernel, &noarg_sig);
  CHECK_ERR(hipLaunchKernel((const void *)count_kernel, d3(1, 1, 1), d3(4, 1, 1), NULL, 0, NULL),
            hipErrorInvalidValue);
  CHECK_ERR(hipLaunchKernel((const void *)count_kernel, d3(1, 1, 1), d3(2048, 1, 1), args, 0, NULL),
            hipErrorInvalidConfiguration);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 0);

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipLaunchKernel((const void *)count_kernel, d3(2, 1, 1), d3(4, 1, 1), args, 0, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_EQ(atomic_load(&total), 8 * 4);
  CHECK_HIP(hipLaunchKernel((const void *)noarg_kernel, d3(3, 1, 1), d3(1, 1, 1), NULL, 0, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_ERR(hipLaunchKernel((const void *)count_kernel, d3(1, 1, 1), d3(1, 1, 1), args, 0, s),
            hipErrorContextIsDestroyed);
  return AH_PASS;
}

/* Many kernels registered: the registry grows and finds each. */
static void many_invoke(const void *fn, void **args) {
  (void)fn;
  (void)args;
}

AH_TEST(launch_registry_many) {
  static char fns[5000];
  static ahKernelSig sigs[5000];

  REQUIRE_CPU();
  for (int i = 0; i < 5000; i++) {
    sigs[i] = (ahKernelSig){many_invoke, (unsigned)i, zero, zero};
    __ahRegisterKernel(&fns[i], &sigs[i]);
  }
  /* Each lookup finds its own layout: nargs > 0 without args is refused,
   * the one without parameters runs. */
  for (int i = 1; i < 5000; i++)
    CHECK_ERR(hipLaunchKernel(&fns[i], d3(1, 1, 1), d3(1, 1, 1), NULL, 0, NULL),
              hipErrorInvalidValue);
  CHECK_HIP(hipLaunchKernel(&fns[0], d3(1, 1, 1), d3(1, 1, 1), NULL, 0, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_ERR(hipLaunchKernel(fns + 5000, d3(1, 1, 1), d3(1, 1, 1), NULL, 0, NULL),
            hipErrorInvalidDeviceFunction);
  return AH_PASS;
}

/* The configure / setup-argument / launch-by-pointer triple. */
AH_TEST(launch_by_ptr) {
  atomic_llong *p = &total;
  int add = 7;
  char tag = 2;
  double scale = 1.0;
  size_t off_add = sizeof(p), off_tag = off_add + sizeof(int);
  size_t off_scale = (off_tag + 1 + _Alignof(double) - 1) / _Alignof(double) * _Alignof(double);

  REQUIRE_CPU();
  atomic_store(&total, 0);
  __ahRegisterKernel((const void *)count_kernel, &count_sig);
  CHECK_ERR(hipLaunchByPtr((const void *)count_kernel), hipErrorMissingConfiguration);
  CHECK_ERR(hipSetupArgument(&p, sizeof(p), 0), hipErrorMissingConfiguration);
  CHECK_HIP(hipConfigureCall(d3(2, 1, 1), d3(3, 1, 1), 0, NULL));
  CHECK_HIP(hipSetupArgument(&p, sizeof(p), 0));
  CHECK_HIP(hipSetupArgument(&add, sizeof(add), off_add));
  CHECK_HIP(hipSetupArgument(&tag, sizeof(tag), off_tag));
  CHECK_HIP(hipSetupArgument(&scale, sizeof(scale), off_scale));
  CHECK_HIP(hipLaunchByPtr((const void *)count_kernel));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 6 * 9);
  /* An argument left out. */
  CHECK_HIP(hipConfigureCall(d3(1, 1, 1), d3(1, 1, 1), 0, NULL));
  CHECK_HIP(hipSetupArgument(&p, sizeof(p), 0));
  CHECK_ERR(hipLaunchByPtr((const void *)count_kernel), hipErrorInvalidValue);
  return AH_PASS;
}

/* HIP-clang's launch internals: configurations nest per thread, and
 * __hipPopCallConfiguration hands back the innermost one (ROCm's unit suite,
 * kernel/hipConfigureCall.cc). */
AH_TEST(launch_call_configuration_stack) {
  dim3 g, b;
  size_t shmem = 1;
  hipStream_t s, got = NULL;

  CHECK_HIP(hipStreamCreate(&s));
  CHECK_ERR(__hipPopCallConfiguration(&g, &b, &shmem, &got), hipErrorMissingConfiguration);
  CHECK_HIP(hipConfigureCall(d3(16, 8, 1), d3(16, 8, 2), 1024, NULL));
  CHECK_HIP(__hipPushCallConfiguration(d3(3, 2, 1), d3(5, 1, 1), 0, s));
  CHECK_ERR(__hipPopCallConfiguration(NULL, &b, &shmem, &got), hipErrorInvalidValue);
  CHECK_HIP(__hipPopCallConfiguration(&g, &b, &shmem, &got));
  CHECK(g.x == 3 && g.y == 2 && g.z == 1 && b.x == 5 && b.y == 1 && b.z == 1);
  CHECK(shmem == 0 && got == s);
  CHECK_HIP(__hipPopCallConfiguration(&g, &b, &shmem, &got));
  CHECK(g.x == 16 && g.y == 8 && g.z == 1 && b.x == 16 && b.y == 8 && b.z == 2);
  CHECK(shmem == 1024 && got == NULL);
  CHECK_ERR(__hipPopCallConfiguration(&g, &b, &shmem, &got), hipErrorMissingConfiguration);
  CHECK_HIP(hipStreamDestroy(s));
  return AH_PASS;
}

/* A kernel goes only to a stream of the current device. */
AH_TEST(launch_other_device_stream) {
  hipStream_t s1;
  int n = 0;

  REQUIRE_TWO_CPU_DEVICES(n);
  atomic_store(&total, 0);
  CHECK_HIP(hipSetDevice(1));
  CHECK_HIP(hipStreamCreate(&s1));
  CHECK_HIP(launch_count(d3(1, 1, 1), d3(2, 1, 1), 0, s1, 1));
  CHECK_HIP(hipStreamSynchronize(s1));
  CHECK_HIP(hipSetDevice(0));
  CHECK_ERR(launch_count(d3(1, 1, 1), d3(2, 1, 1), 0, s1, 1), hipErrorInvalidHandle);
  CHECK_HIP(launch_count(d3(1, 1, 1), d3(2, 1, 1), 0, NULL, 1));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 4);
  CHECK_HIP(hipStreamDestroy(s1));
  return AH_PASS;
}

/* hipExtLaunchMultiKernelMultiDevice and hipLaunchCooperativeKernelMultiDevice
 * (core/launch_multi.c): one kernel per device, each on its device's stream,
 * joined by events; the counts are what each grid adds. */
AH_TEST(launch_multi_device) {
  atomic_llong *p = &total;
  int add[2] = {1, 10};
  char tag = 0;
  double scale = 1.0;
  void *args[2][4] = {{&p, &add[0], &tag, &scale}, {&p, &add[1], &tag, &scale}};
  hipLaunchParams lp[2];
  hipStream_t s[2];
  int n = 0;

  REQUIRE_TWO_CPU_DEVICES(n);
  __ahRegisterKernel((const void *)count_kernel, &count_sig);
  for (int d = 0; d < 2; d++) {
    CHECK_HIP(hipSetDevice(d));
    CHECK_HIP(hipStreamCreate(&s[d]));
    lp[d].func = (void *)count_kernel;
    lp[d].gridDim = d3(2, 1, 1);
    lp[d].blockDim = d3(3 + d, 1, 1);
    lp[d].args = args[d];
    lp[d].sharedMem = 0;
    lp[d].stream = s[d];
  }
  CHECK_HIP(hipSetDevice(0));
  /* Grids of 2 x 3 adding 1 and 2 x 4 adding 10. */
  const long long one = 2 * 3 * 1 + 2 * 4 * 10;
  const unsigned flags[] = {
      0, hipCooperativeLaunchMultiDeviceNoPreSync, hipCooperativeLaunchMultiDeviceNoPostSync,
      hipCooperativeLaunchMultiDeviceNoPreSync | hipCooperativeLaunchMultiDeviceNoPostSync};
  for (unsigned f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
    atomic_store(&total, 0);
    CHECK_HIP(hipExtLaunchMultiKernelMultiDevice(lp, 2, flags[f]));
    CHECK_HIP(hipLaunchCooperativeKernelMultiDevice(lp, 2, flags[f]));
    for (int d = 0; d < 2; d++)
      CHECK_HIP(hipStreamSynchronize(s[d]));
    CHECK_EQ(atomic_load(&total), 2 * one);
    /* The caller's current device is kept. */
    CHECK_HIP(hipGetDevice(&n));
    CHECK_EQ(n, 0);
  }
  /* Without NoPostSync a stream goes on only once every kernel has finished:
   * work queued after the launch on one stream sees both grids' sums. */
  atomic_store(&total, 0);
  CHECK_HIP(hipExtLaunchMultiKernelMultiDevice(lp, 2, 0));
  CHECK_HIP(hipStreamSynchronize(s[0]));
  CHECK_EQ(atomic_load(&total), one);
  CHECK_HIP(hipStreamSynchronize(s[1]));
  /* Refused before anything runs. */
  atomic_store(&total, 0);
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(NULL, 2, 0), hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(lp, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(lp, 3, 0), hipErrorInvalidValue);
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(lp, 2, 0x10), hipErrorInvalidValue);
  lp[1].stream = s[0]; /* two entries for one device */
  CHECK_ERR(hipLaunchCooperativeKernelMultiDevice(lp, 2, 0), hipErrorInvalidDevice);
  lp[1].stream = NULL; /* the null stream: AMD wants an explicit one */
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(lp, 2, 0), hipErrorInvalidResourceHandle);
  lp[1].stream = s[1];
  lp[1].func = NULL;
  CHECK_ERR(hipExtLaunchMultiKernelMultiDevice(lp, 2, 0), hipErrorInvalidDeviceFunction);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 0);
  /* The module form: function handles of the program's own kernel. */
  hipFunctionLaunchParams fp[2];
  hipFunction_t f;

  CHECK_HIP(hipGetFuncBySymbol(&f, (const void *)count_kernel));
  for (int d = 0; d < 2; d++)
    fp[d] = (hipFunctionLaunchParams){.function = f,
                                      .gridDimX = 2,
                                      .gridDimY = 1,
                                      .gridDimZ = 1,
                                      .blockDimX = 3 + d,
                                      .blockDimY = 1,
                                      .blockDimZ = 1,
                                      .hStream = s[d],
                                      .kernelParams = args[d]};
  CHECK_HIP(hipModuleLaunchCooperativeKernelMultiDevice(fp, 2, 0));
  for (int d = 0; d < 2; d++)
    CHECK_HIP(hipStreamSynchronize(s[d]));
  CHECK_EQ(atomic_load(&total), one);
  CHECK_HIP(hipGetDevice(&n));
  CHECK_EQ(n, 0);
  fp[1].function = NULL;
  CHECK_ERR(hipModuleLaunchCooperativeKernelMultiDevice(fp, 2, 0), hipErrorInvalidResourceHandle);
  CHECK_ERR(hipModuleLaunchCooperativeKernelMultiDevice(fp, 3, 0), hipErrorInvalidValue);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), one);
  for (int d = 0; d < 2; d++)
    CHECK_HIP(hipStreamDestroy(s[d]));
  return AH_PASS;
}

/* ---- audit ------------------------------------------------------------------- */

/* A handle the runtime never made, or made and destroyed (hipDeviceReset
 * included), is refused before anything runs. */
AH_TEST(launch_garbage_stream) {
  static long in_data[8];
  struct {
    uint32_t magic, kind;
    int refs;
  } fake = {0x41485950u, 1, 1};
  hipStream_t bad[] = {(hipStream_t)(uintptr_t)0x1234, (hipStream_t)(uintptr_t)0x1235,
                       (hipStream_t)(void *)in_data, (hipStream_t)(void *)&fake};
  atomic_llong *p = &total;
  int add = 1;
  char tag = 0;
  double scale = 1.0;
  void *args[] = {&p, &add, &tag, &scale};
  hipStream_t s;

  REQUIRE_CPU();
  __ahRegisterKernel((const void *)count_kernel, &count_sig);
  atomic_store(&total, 0);
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    CHECK_ERR(launch_count(d3(1, 1, 1), d3(1, 1, 1), 0, bad[i], 1), hipErrorContextIsDestroyed);
    CHECK_ERR(hipLaunchKernel((const void *)count_kernel, d3(1, 1, 1), d3(1, 1, 1), args, 0,
                              bad[i]),
              hipErrorContextIsDestroyed);
    CHECK_HIP(hipConfigureCall(d3(1, 1, 1), d3(1, 1, 1), 0, bad[i]));
    for (int a = 0; a < 4; a++)
      CHECK_HIP(hipSetupArgument(args[a], count_sizes[a],
                                 a == 0 ? 0 : a == 1 ? 8 : a == 2 ? 12 : 16));
    CHECK_ERR(hipLaunchByPtr((const void *)count_kernel), hipErrorContextIsDestroyed);
  }
  /* Streams of a reset device. */
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipDeviceReset());
  CHECK_ERR(launch_count(d3(1, 1, 1), d3(1, 1, 1), 0, s, 1), hipErrorContextIsDestroyed);
  CHECK_EQ(hipGetLastError(), hipErrorContextIsDestroyed);
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 0);
  /* The device still launches. */
  CHECK_HIP(launch_count(d3(2, 1, 1), d3(3, 1, 1), 0, hipStreamPerThread, 1));
  CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
  CHECK_EQ(atomic_load(&total), 6);
  return AH_PASS;
}

/* An argument pointer left NULL is refused at launch (the arguments are
 * copied then), and nothing runs. */
AH_TEST(launch_null_argument) {
  atomic_llong *p = &total;
  int add = 1;
  char tag = 0;
  double scale = 1.0;

  REQUIRE_CPU();
  atomic_store(&total, 0);
  for (int hole = 0; hole < 4; hole++) {
    void *args[] = {&p, &add, &tag, &scale};

    args[hole] = NULL;
    CHECK_ERR(__ahLaunchKernel((const void *)count_kernel, &count_sig, d3(1, 1, 1), d3(1, 1, 1),
                               0, NULL, args),
              hipErrorInvalidValue);
  }
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(atomic_load(&total), 0);
  return AH_PASS;
}

/* hipSetupArgument keeps offsets to what a parameter list can be: a wild
 * offset is refused, not turned into a giant allocation. */
AH_TEST(launch_setup_argument_bounds) {
  int v = 5;

  CHECK_HIP(hipConfigureCall(d3(1, 1, 1), d3(1, 1, 1), 0, NULL));
  CHECK_ERR(hipSetupArgument(&v, sizeof(v), (size_t)1 << 40), hipErrorInvalidValue);
  CHECK_ERR(hipSetupArgument(&v, sizeof(v), SIZE_MAX - 2), hipErrorInvalidValue);
  CHECK_ERR(hipSetupArgument(&v, SIZE_MAX, 0), hipErrorInvalidValue);
  CHECK_ERR(hipSetupArgument(NULL, sizeof(v), 0), hipErrorInvalidValue);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  CHECK_HIP(hipSetupArgument(&v, sizeof(v), 4096 - sizeof(v)));
  CHECK_HIP(hipSetupArgument(NULL, 0, 0));
  return AH_PASS;
}

/* Per-kernel settings: checked like HIP, no effect on the launch. */
AH_TEST(launch_func_settings) {
  hipDeviceProp_t p;

  REQUIRE_CPU();
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  CHECK_HIP(hipFuncSetCacheConfig((const void *)count_kernel, hipFuncCachePreferShared));
  CHECK_HIP(hipFuncSetCacheConfig((const void *)count_kernel, hipFuncCachePreferEqual));
  CHECK_ERR(hipFuncSetCacheConfig((const void *)count_kernel, (hipFuncCache_t)4),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetCacheConfig((const void *)count_kernel, (hipFuncCache_t)-1),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetCacheConfig(NULL, hipFuncCachePreferNone), hipErrorInvalidDeviceFunction);
  CHECK_HIP(hipFuncSetAttribute((const void *)count_kernel,
                                hipFuncAttributeMaxDynamicSharedMemorySize,
                                (int)p.sharedMemPerBlock));
  CHECK_HIP(hipFuncSetAttribute((const void *)count_kernel,
                                hipFuncAttributePreferredSharedMemoryCarveout, 50));
  CHECK_HIP(hipFuncSetAttribute((const void *)count_kernel,
                                hipFuncAttributePreferredSharedMemoryCarveout, -1));
  CHECK_ERR(hipFuncSetAttribute((const void *)count_kernel,
                                hipFuncAttributeMaxDynamicSharedMemorySize, -1),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetAttribute((const void *)count_kernel,
                                hipFuncAttributeMaxDynamicSharedMemorySize, INT_MAX),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetAttribute((const void *)count_kernel,
                                hipFuncAttributePreferredSharedMemoryCarveout, 101),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetAttribute((const void *)count_kernel, hipFuncAttributeMax, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetAttribute((const void *)count_kernel, (hipFuncAttribute)0, 0),
            hipErrorInvalidValue);
  CHECK_ERR(hipFuncSetAttribute(NULL, hipFuncAttributePreferredSharedMemoryCarveout, 0),
            hipErrorInvalidDeviceFunction);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDeviceFunction);
  return AH_PASS;
}
