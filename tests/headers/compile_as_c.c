/* SPDX-License-Identifier: MIT */
/* Compiles the public C headers as strict C99 (see tests/CMakeLists.txt) and
 * checks, at compile time, numeric values and layouts against HIP's: a wrong
 * value breaks the build of this file. Values are those of HIP 6.2. */
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>
#include <hip/hiprtc.h>
#include <hip/hip_complex.h>
#include <hip/hip_bfloat16.h>
#include <hip/math_functions.h>
#include <hiprand/hiprand.h>

#include <stddef.h>

/* C99 has no _Static_assert: a negative array size fails the build. */
#define AH_CHECK(name, cond) typedef char ah_check_##name[(cond) ? 1 : -1]

/* hipError_t: a sample from each range, and the aliases. */
AH_CHECK(err_success, hipSuccess == 0);
AH_CHECK(err_value, hipErrorInvalidValue == 1);
AH_CHECK(err_oom, hipErrorOutOfMemory == 2 && hipErrorMemoryAllocation == 2);
AH_CHECK(err_notinit, hipErrorNotInitialized == 3 && hipErrorInitializationError == 3);
AH_CHECK(err_config, hipErrorInvalidConfiguration == 9);
AH_CHECK(err_pitch, hipErrorInvalidPitchValue == 12);
AH_CHECK(err_symbol, hipErrorInvalidSymbol == 13);
AH_CHECK(err_devptr, hipErrorInvalidDevicePointer == 17);
AH_CHECK(err_dir, hipErrorInvalidMemcpyDirection == 21);
AH_CHECK(err_devfn, hipErrorInvalidDeviceFunction == 98);
AH_CHECK(err_nodev, hipErrorNoDevice == 100 && hipErrorInvalidDevice == 101);
AH_CHECK(err_image, hipErrorInvalidImage == 200 && hipErrorInvalidContext == 201);
AH_CHECK(err_map, hipErrorMapFailed == 205 && hipErrorMapBufferObjectFailed == 205);
AH_CHECK(err_limit, hipErrorUnsupportedLimit == 215);
AH_CHECK(err_src, hipErrorInvalidSource == 300 && hipErrorOperatingSystem == 304);
AH_CHECK(err_handle, hipErrorInvalidHandle == 400 && hipErrorInvalidResourceHandle == 400);
AH_CHECK(err_state, hipErrorIllegalState == 401 && hipErrorNotFound == 500);
AH_CHECK(err_ready, hipErrorNotReady == 600 && hipErrorIllegalAddress == 700);
AH_CHECK(err_res, hipErrorLaunchOutOfResources == 701 && hipErrorLaunchTimeOut == 702);
AH_CHECK(err_peer, hipErrorPeerAccessAlreadyEnabled == 704 && hipErrorPeerAccessNotEnabled == 705);
AH_CHECK(err_destroyed, hipErrorContextIsDestroyed == 709 && hipErrorAssert == 710);
AH_CHECK(err_reg, hipErrorHostMemoryAlreadyRegistered == 712 &&
                      hipErrorHostMemoryNotRegistered == 713);
AH_CHECK(err_launch, hipErrorLaunchFailure == 719 && hipErrorCooperativeLaunchTooLarge == 720);
AH_CHECK(err_nosup, hipErrorNotSupported == 801);
AH_CHECK(err_capture, hipErrorStreamCaptureUnsupported == 900 &&
                          hipErrorStreamCaptureWrongThread == 908);
AH_CHECK(err_graph, hipErrorGraphExecUpdateFailure == 910);
AH_CHECK(err_unknown, hipErrorUnknown == 999);
AH_CHECK(err_runtime, hipErrorRuntimeMemory == 1052 && hipErrorRuntimeOther == 1053);

/* Copy kinds, limits, cache and bank configurations. */
AH_CHECK(memcpy_kinds, hipMemcpyHostToHost == 0 && hipMemcpyHostToDevice == 1 &&
                           hipMemcpyDeviceToHost == 2 && hipMemcpyDeviceToDevice == 3 &&
                           hipMemcpyDefault == 4);
AH_CHECK(limits, hipLimitStackSize == 0 && hipLimitPrintfFifoSize == 1 &&
                     hipLimitMallocHeapSize == 2);
AH_CHECK(cache, hipFuncCachePreferNone == 0 && hipFuncCachePreferEqual == 3);
AH_CHECK(banks, hipSharedMemBankSizeDefault == 0 && hipSharedMemBankSizeEightByte == 2);
AH_CHECK(memtype, hipMemoryTypeHost == 1 && hipMemoryTypeDevice == 2 &&
                      hipMemoryTypeManaged == 3 && hipMemoryTypeArray == 10);

/* Device attributes: both ends of each range and a few in between. */
AH_CHECK(attr_ecc, hipDeviceAttributeEccEnabled == 0);
AH_CHECK(attr_async, hipDeviceAttributeAsyncEngineCount == 2);
AH_CHECK(attr_clock, hipDeviceAttributeClockRate == 5);
AH_CHECK(attr_coop, hipDeviceAttributeCooperativeLaunch == 10);
AH_CHECK(attr_managed, hipDeviceAttributeManagedMemory == 24);
AH_CHECK(attr_blockx, hipDeviceAttributeMaxBlockDimX == 26);
AH_CHECK(attr_gridz, hipDeviceAttributeMaxGridDimZ == 31);
AH_CHECK(attr_threads, hipDeviceAttributeMaxThreadsPerBlock == 56);
AH_CHECK(attr_mpcount, hipDeviceAttributeMultiprocessorCount == 63);
AH_CHECK(attr_pageable, hipDeviceAttributePageableMemoryAccess == 65);
AH_CHECK(attr_domain, hipDeviceAttributePciDomainID == 69);
AH_CHECK(attr_shmem, hipDeviceAttributeMaxSharedMemoryPerBlock == 74);
AH_CHECK(attr_totalmem, hipDeviceAttributeTotalGlobalMem == 84);
AH_CHECK(attr_warp, hipDeviceAttributeWarpSize == 87);
AH_CHECK(attr_vmm, hipDeviceAttributeVirtualMemoryManagementSupported == 89);
AH_CHECK(attr_amd, hipDeviceAttributeClockInstructionRate == 10000);
AH_CHECK(attr_image, hipDeviceAttributeImageSupport == 10014);
AH_CHECK(attr_wallclock, hipDeviceAttributeWallClockRate == 10017);
AH_CHECK(attr_old, hipDeviceAttributeName == hipDeviceAttributeUnused1 &&
                       hipDeviceAttributeGcnArchName == hipDeviceAttributeUnused5);

/* Flags. */
AH_CHECK(stream_flags, hipStreamDefault == 0 && hipStreamNonBlocking == 1);
AH_CHECK(event_flags, hipEventDefault == 0 && hipEventBlockingSync == 1 &&
                          hipEventDisableTiming == 2 && hipEventInterprocess == 4);
AH_CHECK(host_flags, hipHostMallocDefault == 0 && hipHostMallocPortable == 1 &&
                         hipHostMallocMapped == 2 && hipHostMallocWriteCombined == 4 &&
                         hipHostMallocNumaUser == 0x20000000 &&
                         hipHostMallocCoherent == 0x40000000 &&
                         hipHostMallocNonCoherent == 0x80000000u &&
                         hipHostAllocMapped == hipHostMallocMapped);
AH_CHECK(register_flags, hipHostRegisterDefault == 0 && hipHostRegisterPortable == 1 &&
                             hipHostRegisterMapped == 2 && hipHostRegisterIoMemory == 4);
AH_CHECK(sched_flags, hipDeviceScheduleAuto == 0 && hipDeviceScheduleSpin == 1 &&
                          hipDeviceScheduleYield == 2 && hipDeviceScheduleBlockingSync == 4 &&
                          hipDeviceScheduleMask == 7 && hipDeviceMapHost == 8);
AH_CHECK(attach_flags, hipMemAttachGlobal == 1 && hipMemAttachHost == 2 &&
                           hipMemAttachSingle == 4);
AH_CHECK(device_ids, hipCpuDeviceId == -1 && hipInvalidDeviceId == -2);

/* Layouts (__alignof__: C99 has no _Alignof). */
AH_CHECK(dim3_size, sizeof(dim3) == 12);
AH_CHECK(prop_name, offsetof(hipDeviceProp_t, name) == 0);
AH_CHECK(prop_uuid, offsetof(hipDeviceProp_t, uuid) == 256);
AH_CHECK(ptrattr, offsetof(hipPointerAttribute_t, device) == sizeof(int));
AH_CHECK(float4_layout, sizeof(float4) == 16 && __alignof__(float4) == 16);
AH_CHECK(float3_layout, sizeof(float3) == 12 && __alignof__(float3) == 4);
AH_CHECK(int2_layout, sizeof(int2) == 8 && __alignof__(int2) == 8);
AH_CHECK(char4_layout, sizeof(char4) == 4 && __alignof__(char4) == 4);
AH_CHECK(double2_layout, sizeof(double2) == 16 && __alignof__(double2) == 16);
AH_CHECK(double4_layout, sizeof(double4) == 32 && __alignof__(double4) == 16);
AH_CHECK(short4_layout, sizeof(short4) == 8 && __alignof__(short4) == 8);

/* Every prototype group is visible and callable from C; these are only
 * referenced, never run. */
typedef hipError_t (*ah_memcpy_fn)(void *, const void *, size_t, hipMemcpyKind);
typedef hipError_t (*ah_launch_fn)(const void *, dim3, dim3, void **, size_t, hipStream_t);

int ah_header_compiles_as_c(void);
int ah_header_compiles_as_c(void) {
  ah_memcpy_fn copy = hipMemcpy;
  ah_launch_fn launch = hipLaunchKernel;
  hipError_t (*last)(void) = hipGetLastError;
  const char *(*name)(hipError_t) = hipGetErrorName;
  hipError_t (*launch_abi)(const void *, const struct ahKernelSig *, dim3, dim3, size_t,
                           hipStream_t, void **) = __ahLaunchKernel;
  hipPointerAttribute_t attr;
  hipDeviceProp_t prop;
  dim3 grid = {1, 1, 1};
  float4 f = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  double2 d = make_double2(2.0, 4.0);
  enum hipLimit_t lim = hipLimitStackSize;
  hipStream_t per_thread = hipStreamPerThread;

  attr.memoryType = hipMemoryTypeDevice; /* HIP 5 name of the same field */
  prop.warpSize = 64;
  return (copy != 0) + (launch != 0) + (last != 0) + (name != 0) + (launch_abi != 0) +
         (attr.type == hipMemoryTypeDevice) + (prop.warpSize == 64) + (int)grid.x +
         (f.w == 4.0f) + (d.x == 2.0) + (int)lim + (per_thread != 0);
}

/* hiprtc's codes (HIP 6.2), HIP's older success spelling, the array formats. */
AH_CHECK(rtc_compilation, HIPRTC_ERROR_COMPILATION == 6 && HIPRTC_ERROR_INTERNAL_ERROR == 11);
AH_CHECK(rtc_linking, HIPRTC_ERROR_LINKING == 100);
AH_CHECK(hip_success, HIP_SUCCESS == 0);
AH_CHECK(ad_format, HIP_AD_FORMAT_SIGNED_INT32 == 0x0a && HIP_AD_FORMAT_FLOAT == 0x20);
AH_CHECK(bf16_size, sizeof(hip_bfloat16) == 2);
AH_CHECK(complex_size, sizeof(hipDoubleComplex) == 16);
AH_CHECK(pool_props_max, offsetof(hipMemPoolProps, maxSize) + sizeof(size_t) + 56 ==
                            sizeof(hipMemPoolProps));

/* hipRAND's host API (hiprand/hiprand.h): hipRAND's values (also cuRAND's statuses). */
AH_CHECK(rand_success, HIPRAND_STATUS_SUCCESS == 0);
AH_CHECK(rand_not_init, HIPRAND_STATUS_NOT_INITIALIZED == 101);
AH_CHECK(rand_length, HIPRAND_STATUS_LENGTH_NOT_MULTIPLE == 105);
AH_CHECK(rand_launch, HIPRAND_STATUS_LAUNCH_FAILURE == 201);
AH_CHECK(rand_not_impl, HIPRAND_STATUS_NOT_IMPLEMENTED == 1000);
AH_CHECK(rand_xorwow, HIPRAND_RNG_PSEUDO_XORWOW == 401);
AH_CHECK(rand_philox, HIPRAND_RNG_PSEUDO_PHILOX4_32_10 == 405);
AH_CHECK(rand_sobol, HIPRAND_RNG_QUASI_SOBOL32 == 501);
