/* SPDX-License-Identifier: MIT */
/* Names ROCm's unit suite (hip-tests) needs from the C API, each against a known value: the
 * context API (a primary context per device, a per-thread stack), the driver-style error
 * names, hipGetProcAddress, HIP_SUCCESS, hiprtc's objects and codes (tests/api/hiprtc.c has
 * the rest of hiprtc), zero-size sets on any pointer, and a clock rate that agrees with
 * clock64()'s nanoseconds. */
#include "ah_test.h"

#include <hip/hiprtc.h>

AH_TEST(compat_context_stack) {
  hipCtx_t c0, c1, cur;
  hipDevice_t d = -1;

  CHECK_ERR(hipCtxCreate(NULL, 0, 0), hipErrorInvalidValue);
  CHECK_ERR(hipCtxCreate(&c0, 0, 9999), hipErrorInvalidDevice);
  CHECK_ERR(hipCtxCreate(&c0, 0x1000, 0), hipErrorInvalidValue);
  CHECK_ERR(hipCtxPopCurrent(&cur), hipErrorInvalidContext); /* empty stack */
  /* Without a pushed context, the current device's is current. */
  CHECK_HIP(hipCtxGetCurrent(&cur));
  CHECK(cur != NULL);
  CHECK_HIP(hipCtxGetDevice(&d));
  CHECK_EQ(d, 0);
  CHECK_HIP(hipCtxCreate(&c0, 0, 0));
  CHECK(c0 == cur); /* one context per device */
  CHECK_HIP(hipCtxGetCurrent(&c1));
  CHECK(c1 == c0);
  CHECK_HIP(hipCtxPushCurrent(c0));
  CHECK_HIP(hipCtxPopCurrent(&c1));
  CHECK(c1 == c0);
  CHECK_HIP(hipCtxPopCurrent(NULL));
  CHECK_ERR(hipCtxPopCurrent(NULL), hipErrorInvalidContext);
  CHECK_ERR(hipCtxPushCurrent(NULL), hipErrorInvalidContext);
  CHECK_ERR(hipCtxPushCurrent((hipCtx_t)&d), hipErrorInvalidContext); /* garbage */
  CHECK_ERR(hipCtxDestroy(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipCtxGetCurrent(NULL), hipErrorInvalidValue);
  CHECK_ERR(hipCtxGetDevice(NULL), hipErrorInvalidValue);
  CHECK_HIP(hipCtxSetCurrent(c0));
  CHECK_HIP(hipCtxSetCurrent(NULL)); /* pops it */
  CHECK_ERR(hipCtxPopCurrent(NULL), hipErrorInvalidContext);
  CHECK_HIP(hipCtxCreate(&c0, 0, 0));
  CHECK_HIP(hipCtxDestroy(c0)); /* from the top of the stack */
  CHECK_ERR(hipCtxPopCurrent(NULL), hipErrorInvalidContext);
  CHECK_HIP(hipCtxSynchronize());
  return AH_PASS;
}

/* Pushing another device's context makes that device current; popping goes back. */
AH_TEST(compat_context_device_switch) {
  hipCtx_t c0, c1;
  int n, d = -1;

  CHECK_HIP(hipGetDeviceCount(&n));
  if (n < 2)
    SKIP("needs two devices (ANYHIP_CPU_DEVICES=2)");
  CHECK_HIP(hipDevicePrimaryCtxRetain(&c0, 0));
  CHECK_HIP(hipDevicePrimaryCtxRetain(&c1, 1));
  CHECK(c0 != c1);
  CHECK_HIP(hipCtxPushCurrent(c0));
  CHECK_HIP(hipCtxPushCurrent(c1));
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 1);
  CHECK_HIP(hipCtxPopCurrent(NULL));
  CHECK_HIP(hipGetDevice(&d));
  CHECK_EQ(d, 0);
  CHECK_HIP(hipCtxPopCurrent(NULL));
  CHECK_HIP(hipDevicePrimaryCtxRelease(0));
  CHECK_HIP(hipDevicePrimaryCtxRelease(1));
  return AH_PASS;
}

AH_TEST(compat_primary_context) {
  hipCtx_t c, c2;
  unsigned flags = 99;
  int active = -1;
  unsigned api = 0;

  CHECK_ERR(hipDevicePrimaryCtxRetain(NULL, 0), hipErrorInvalidValue);
  CHECK_ERR(hipDevicePrimaryCtxRetain(&c, -1), hipErrorInvalidDevice);
  CHECK_ERR(hipDevicePrimaryCtxRelease(9999), hipErrorInvalidDevice);
  CHECK_ERR(hipDevicePrimaryCtxGetState(0, NULL, &active), hipErrorInvalidValue);
  CHECK_HIP(hipDevicePrimaryCtxGetState(0, &flags, &active));
  CHECK_EQ(active, 0);
  CHECK_HIP(hipDevicePrimaryCtxSetFlags(0, hipDeviceScheduleYield));
  CHECK_HIP(hipDevicePrimaryCtxRetain(&c, 0));
  CHECK_HIP(hipDevicePrimaryCtxRetain(&c2, 0));
  CHECK(c == c2);
  CHECK_HIP(hipDevicePrimaryCtxGetState(0, &flags, &active));
  CHECK_EQ(active, 1);
  CHECK_EQ(flags, hipDeviceScheduleYield);
  CHECK_ERR(hipDevicePrimaryCtxSetFlags(0, 0), hipErrorContextAlreadyInUse);
  CHECK_HIP(hipCtxGetApiVersion(c, &api));
  CHECK_EQ(api, 4);
  CHECK_HIP(hipDevicePrimaryCtxRelease(0));
  CHECK_HIP(hipDevicePrimaryCtxGetState(0, &flags, &active));
  CHECK_EQ(active, 1); /* one retain left */
  CHECK_HIP(hipDevicePrimaryCtxReset(0));
  CHECK_HIP(hipDevicePrimaryCtxGetState(0, &flags, &active));
  CHECK_EQ(active, 0);
  CHECK_HIP(hipDevicePrimaryCtxRelease(0)); /* harmless */
  CHECK_HIP(hipDevicePrimaryCtxSetFlags(0, 0));
  return AH_PASS;
}

AH_TEST(compat_drv_error_names) {
  const char *s = NULL;

  CHECK_EQ(HIP_SUCCESS, hipSuccess);
  CHECK_EQ(HIP_ERROR_INVALID_VALUE, hipErrorInvalidValue);
  CHECK_HIP(hipDrvGetErrorName(hipErrorInvalidValue, &s));
  CHECK(strcmp(s, "hipErrorInvalidValue") == 0);
  /* The driver API's wording, as AMD's runtime gives it (ROCm's unit suite). */
  CHECK_HIP(hipDrvGetErrorString(hipErrorOutOfMemory, &s));
  CHECK(strcmp(s, "out of memory") == 0);
  CHECK_HIP(hipDrvGetErrorString(hipErrorInvalidValue, &s));
  CHECK(strcmp(s, "invalid argument") == 0);
  CHECK_HIP(hipDrvGetErrorString(hipErrorInvalidHandle, &s));
  CHECK(strcmp(s, "invalid resource handle") == 0);
  CHECK_HIP(hipDrvGetErrorString(hipErrorNoDevice, &s));
  CHECK(strcmp(s, "no ROCm-capable device is detected") == 0);
  CHECK_HIP(hipDrvGetErrorString(hipErrorUnknown, &s));
  CHECK(strcmp(s, "unknown error") == 0);
  CHECK_HIP(hipDrvGetErrorString(hipSuccess, &s));
  CHECK(strcmp(s, "no error") == 0);
  CHECK_RECORDS(hipDrvGetErrorString((hipError_t)-1, &s), hipErrorInvalidValue);
  CHECK_HIP(hipDrvGetErrorName(hipErrorUnknown, &s));
  CHECK(strcmp(s, "hipErrorUnknown") == 0);
  CHECK_RECORDS(hipDrvGetErrorName((hipError_t)-1, &s), hipErrorInvalidValue);
  CHECK_ERR(hipDrvGetErrorString(hipErrorInvalidValue, NULL), hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(compat_get_proc_address) {
  void *fn = NULL;
  hipDriverProcAddressQueryResult st = HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;

  CHECK_HIP(hipGetProcAddress("hipMalloc", &fn, HIP_VERSION, 0, &st));
  CHECK(fn == (void *)hipMalloc);
  CHECK_EQ(st, HIP_GET_PROC_ADDRESS_SUCCESS);
  CHECK_HIP(hipGetProcAddress("hipCtxCreate", &fn, HIP_VERSION, 0, NULL));
  CHECK(fn == (void *)hipCtxCreate);
  CHECK_ERR(hipGetProcAddress("hipNoSuchFunction", &fn, HIP_VERSION, 0, &st), hipErrorNotFound);
  CHECK_EQ(st, HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  CHECK(fn == NULL);
  CHECK_ERR(hipGetProcAddress("ah_init_once", &fn, HIP_VERSION, 0, &st), hipErrorNotFound);
  CHECK_ERR(hipGetProcAddress(NULL, &fn, HIP_VERSION, 0, &st), hipErrorInvalidValue);
  CHECK_ERR(hipGetProcAddress("hipMalloc", NULL, HIP_VERSION, 0, &st), hipErrorInvalidValue);
  CHECK_ERR(hipGetProcAddress("hipMalloc", &fn, 0, 0, &st), hipErrorInvalidValue);
  CHECK_ERR(hipGetProcAddress("hipMalloc", &fn, HIP_VERSION, 1u << 7, &st),
            hipErrorInvalidValue);
  return AH_PASS;
}

AH_TEST(compat_hiprtc_codes) {
  hiprtcProgram prog = NULL;
  const char *lowered = NULL;
  size_t n = 0;
  int major = 0, minor = -1;

  CHECK(strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") == 0);
  CHECK(strcmp(hiprtcGetErrorString((hiprtcResult)12345), "Invalid HIPRTC error code") == 0);
  CHECK_EQ(HIPRTC_ERROR_LINKING, 100);
  CHECK_EQ(hiprtcVersion(&major, &minor), HIPRTC_SUCCESS);
  CHECK_EQ(major, HIP_VERSION_MAJOR);
  CHECK_EQ(hiprtcCreateProgram(NULL, "", "p", 0, NULL, NULL), HIPRTC_ERROR_INVALID_INPUT);
  CHECK_EQ(hiprtcCreateProgram(&prog, "__global__ void k() { undeclared(); }", "p.cu", 0, NULL, NULL),
           HIPRTC_SUCCESS);
  CHECK_EQ(hiprtcAddNameExpression(prog, "k"), HIPRTC_SUCCESS);
  CHECK_EQ(hiprtcGetLoweredName(prog, "k", &lowered),
           HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  CHECK_EQ(hiprtcCompileProgram(prog, 0, NULL), HIPRTC_ERROR_COMPILATION); /* an error */
  CHECK_EQ(hiprtcGetProgramLogSize(prog, &n), HIPRTC_SUCCESS);
  CHECK(n > 1);
  {
    char *text = malloc(n);

    CHECK(text != NULL);
    CHECK_EQ(hiprtcGetProgramLog(prog, text), HIPRTC_SUCCESS);
    CHECK(strstr(text, "undeclared") != NULL);
    free(text);
  }
  CHECK_EQ(hiprtcAddNameExpression(prog, "k"), HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
  CHECK_EQ(hiprtcGetCodeSize(prog, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcDestroyProgram(&prog), HIPRTC_SUCCESS);
  CHECK(prog == NULL);
  CHECK_EQ(hiprtcDestroyProgram(&prog), HIPRTC_ERROR_INVALID_PROGRAM);
  CHECK_EQ(hiprtcGetProgramLogSize((hiprtcProgram)&n, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  return AH_PASS;
}

/* Nothing to set succeeds whatever the pointer (AMD checks the size first); a non-empty set
 * through NULL or past the end of an allocation still fails. */
AH_TEST(compat_memset_zero_size) {
  char *p;
  hipStream_t s;

  CHECK_HIP(hipMalloc((void **)&p, 64));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMemset(NULL, 1, 0));
  CHECK_HIP(hipMemset(p + 64, 1, 0));
  CHECK_HIP(hipMemsetAsync(NULL, 1, 0, s));
  CHECK_HIP(hipMemsetD8(NULL, 1, 0));
  CHECK_HIP(hipMemsetD16(p + 64, 1, 0));
  CHECK_HIP(hipMemsetD32Async(NULL, 1, 0, s));
  CHECK_HIP(hipMemset2D(NULL, 64, 1, 0, 0));
  CHECK_HIP(hipMemset2DAsync(p + 64, 64, 1, 64, 0, s));
  CHECK_ERR(hipMemset(NULL, 1, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemset(p + 64, 1, 1), hipErrorInvalidValue);
  CHECK_ERR(hipMemset2D(NULL, 64, 1, 1, 1), hipErrorInvalidValue);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipFree(p));
  return AH_PASS;
}

/* clock64() counts nanoseconds on the CPU device: clockRate says 1 GHz, as the wall clock. */
AH_TEST(compat_clock_rate_agrees) {
  int clock_khz = 0, wall_khz = 0, dev = 0;
  hipDeviceProp_t p;

  CHECK_HIP(hipGetDevice(&dev));
  CHECK_HIP(hipGetDeviceProperties(&p, dev));
  if (strcmp(p.gcnArchName, "cpu") != 0)
    SKIP("the CPU device's rates");
  CHECK_HIP(hipDeviceGetAttribute(&clock_khz, hipDeviceAttributeClockRate, dev));
  CHECK_HIP(hipDeviceGetAttribute(&wall_khz, hipDeviceAttributeWallClockRate, dev));
  CHECK_EQ(clock_khz, 1000000);
  CHECK_EQ(wall_khz, 1000000);
  CHECK_EQ(p.clockInstructionRate, 1000000);
  return AH_PASS;
}

/* hipMemPoolProps::maxSize bounds what a pool holds: past it an allocation fails with
 * hipErrorOutOfMemory; memory freed back to the pool counts until the pool gives it up. */
AH_TEST(compat_mempool_max_size) {
  hipMemPoolProps props;
  hipMemPool_t pool;
  hipStream_t s;
  void *a = NULL, *b = NULL;

  memset(&props, 0, sizeof(props));
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  props.maxSize = 1 << 20;
  CHECK_HIP(hipMemPoolCreate(&pool, &props));
  CHECK_HIP(hipStreamCreate(&s));
  CHECK_HIP(hipMallocFromPoolAsync(&a, 1 << 20, pool, s));
  CHECK_ERR(hipMallocFromPoolAsync(&b, 1, pool, s), hipErrorOutOfMemory);
  CHECK_HIP(hipFreeAsync(a, s));
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipMallocFromPoolAsync(&b, 4096, pool, s)); /* the freed block is reused or given up */
  CHECK_HIP(hipFreeAsync(b, s));
  CHECK_ERR(hipMallocFromPoolAsync(&b, (1 << 20) + 1, pool, s), hipErrorOutOfMemory);
  CHECK_HIP(hipStreamSynchronize(s));
  CHECK_HIP(hipStreamDestroy(s));
  CHECK_HIP(hipMemPoolDestroy(pool));
  return AH_PASS;
}

/* hipDrvMemcpy3D: a 4x3x2 box out of a pitched 3D allocation into host memory, slices
 * srcHeight rows apart, starting at (x 1 byte, y 1, z 1). */
AH_TEST(compat_drv_memcpy3d) {
  enum { W = 8, H = 4, D = 3 };
  unsigned char host[W * H * D], out[4 * 3 * 2];
  unsigned char *dev;
  HIP_MEMCPY3D c;

  for (int i = 0; i < W * H * D; i++)
    host[i] = (unsigned char)i;
  CHECK_HIP(hipMalloc((void **)&dev, sizeof(host)));
  CHECK_HIP(hipMemcpy(dev, host, sizeof(host), hipMemcpyHostToDevice));
  memset(&c, 0, sizeof(c));
  c.srcMemoryType = hipMemoryTypeDevice;
  c.srcDevice = dev;
  c.srcPitch = W;
  c.srcHeight = H;
  c.srcXInBytes = 1;
  c.srcY = 1;
  c.srcZ = 1;
  c.dstMemoryType = hipMemoryTypeHost;
  c.dstHost = out;
  c.dstPitch = 4;
  c.dstHeight = 3;
  c.WidthInBytes = 4;
  c.Height = 3;
  c.Depth = 2;
  CHECK_HIP(hipDrvMemcpy3D(&c));
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 4; x++)
        CHECK_EQ(out[(z * 3 + y) * 4 + x], host[((z + 1) * H + y + 1) * W + x + 1]);
  memset(out, 0, sizeof(out));
  CHECK_HIP(hipDrvMemcpy3DAsync(&c, NULL));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_EQ(out[0], host[(H + 1) * W + 1]);
  CHECK_ERR(hipDrvMemcpy3D(NULL), hipErrorInvalidValue);
  c.srcHeight = 2; /* slices overlap the box's rows */
  CHECK_ERR(hipDrvMemcpy3D(&c), hipErrorInvalidValue);
  c.srcHeight = H;
  /* A destination pitch and slice height of 0 are the copy's own (packed: AMD's rule; hip-tests'
   * memcpy3d_tests_common.hh leaves both heights 0), for memory and array sources alike. */
  c.dstPitch = 0;
  c.dstHeight = 0;
  memset(out, 0, sizeof(out));
  CHECK_HIP(hipDrvMemcpy3D(&c));
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 4; x++)
        CHECK_EQ(out[(z * 3 + y) * 4 + x], host[((z + 1) * H + y + 1) * W + x + 1]);
  {
    HIP_ARRAY3D_DESCRIPTOR ad = {W, H, D, HIP_AD_FORMAT_UNSIGNED_INT8, 1, 0};
    hipArray_t arr;
    HIP_MEMCPY3D a;

    CHECK_HIP(hipArray3DCreate(&arr, &ad));
    memset(&a, 0, sizeof(a));
    a.srcMemoryType = hipMemoryTypeHost; /* the whole host volume, pitch and height 0 */
    a.srcHost = host;
    a.dstMemoryType = hipMemoryTypeArray;
    a.dstArray = arr;
    a.WidthInBytes = W;
    a.Height = H;
    a.Depth = D;
    CHECK_HIP(hipDrvMemcpy3D(&a));
    memset(out, 0, sizeof(out));
    a.srcMemoryType = hipMemoryTypeArray; /* the same 4x3x2 box back out of the array */
    a.srcArray = arr;
    a.srcXInBytes = 1;
    a.srcY = 1;
    a.srcZ = 1;
    a.dstMemoryType = hipMemoryTypeHost;
    a.dstArray = NULL;
    a.dstHost = out;
    a.WidthInBytes = 4;
    a.Height = 3;
    a.Depth = 2;
    CHECK_HIP(hipDrvMemcpy3D(&a));
    for (int z = 0; z < 2; z++)
      for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
          CHECK_EQ(out[(z * 3 + y) * 4 + x], host[((z + 1) * H + y + 1) * W + x + 1]);
    a.dstPitch = 3; /* below the width */
    CHECK_ERR(hipDrvMemcpy3D(&a), hipErrorInvalidValue);
    CHECK_HIP(hipArrayDestroy(arr));
  }
  c.dstPitch = 4;
  c.dstHeight = 3;
  c.srcArray = (hipArray_t)&c; /* a handle that is no array */
  c.srcMemoryType = hipMemoryTypeArray;
  CHECK_ERR(hipDrvMemcpy3D(&c), hipErrorInvalidValue);
  CHECK_HIP(hipFree(dev));
  return AH_PASS;
}

/* External resource interoperability: declared with HIP's types (ROCm's unit
 * suite's errorHandling/hipGetLastError.cc builds against them); no device
 * imports anything, and the calls check their arguments, recording the
 * error as the last one. */
AH_TEST(compat_external_interop) {
  hipExternalSemaphoreWaitParams wait = {0};
  hipExternalSemaphoreSignalParams signal = {0};
  hipExternalSemaphoreHandleDesc sd = {0};
  hipExternalMemoryHandleDesc md = {0};
  hipExternalMemoryBufferDesc bd = {0};
  hipExternalSemaphore_t sem = NULL;
  hipExternalMemory_t mem = NULL;
  void *p = &p;

  wait.params.fence.value = 1;
  signal.params.fence.value = 1;
  CHECK_RECORDS(hipWaitExternalSemaphoresAsync(NULL, &wait, 1, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipSignalExternalSemaphoresAsync(NULL, &signal, 1, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipSignalExternalSemaphoresAsync(&sem, NULL, 1, NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipImportExternalSemaphore(NULL, &sd), hipErrorInvalidValue);
  CHECK_RECORDS(hipImportExternalSemaphore(&sem, &sd), hipErrorInvalidValue); /* type 0 */
  sd.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  sd.handle.fd = -1; /* imports that work: tests/api/external.c */
  CHECK_RECORDS(hipImportExternalSemaphore(&sem, &sd), hipErrorInvalidValue);
  sd.type = hipExternalSemaphoreHandleTypeD3D12Fence;
  CHECK_RECORDS(hipImportExternalSemaphore(&sem, &sd), hipErrorNotSupported);
  sem = &sd; /* never imported */
  CHECK_RECORDS(hipWaitExternalSemaphoresAsync(&sem, &wait, 1, NULL), hipErrorInvalidValue);
  CHECK_HIP(hipWaitExternalSemaphoresAsync(&sem, &wait, 0, NULL)); /* nothing to wait for */
  CHECK_RECORDS(hipDestroyExternalSemaphore(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipDestroyExternalSemaphore(sem), hipErrorInvalidValue);

  md.type = hipExternalMemoryHandleTypeOpaqueFd;
  md.size = 4096;
  md.handle.fd = -1;
  CHECK_RECORDS(hipImportExternalMemory(NULL, &md), hipErrorInvalidValue);
  CHECK_RECORDS(hipImportExternalMemory(&mem, &md), hipErrorInvalidValue);
  md.type = hipExternalMemoryHandleTypeD3D12Resource;
  CHECK_RECORDS(hipImportExternalMemory(&mem, &md), hipErrorNotSupported);
  mem = &md;
  CHECK_RECORDS(hipExternalMemoryGetMappedBuffer(&p, mem, &bd), hipErrorInvalidValue);
  CHECK(p == NULL);
  CHECK_RECORDS(hipExternalMemoryGetMappedBuffer(NULL, mem, &bd), hipErrorInvalidValue);
  CHECK_RECORDS(hipDestroyExternalMemory(NULL), hipErrorInvalidValue);
  CHECK_RECORDS(hipDestroyExternalMemory(mem), hipErrorInvalidValue);
  return AH_PASS;
}
