/* SPDX-License-Identifier: MIT */
/* hipRAND's host API: generators created on the host that fill device (or,
 * from hiprandCreateGeneratorHost, host) memory with random numbers. The
 * library, libhiprand, is written in HIP on top of hiprand_kernel.h's
 * generators and built by anyhip's hipcc, so generation runs as kernels on the
 * current device (the CPU device or an NVIDIA GPU). Link with -lhiprand, or
 * CMake's hip::hiprand. Names and values are hipRAND's (ROCm); the status
 * values are also cuRAND's. What each generator's output sequence is, and what
 * is not implemented: docs/libraries.md. */
#ifndef HIPRAND_H_
#define HIPRAND_H_

#include <stddef.h>

#include <hip/hip_runtime_api.h>

/* The hipRAND release whose interface this is: major * 100000 + minor * 100 + patch. */
#define HIPRAND_VERSION 201100

#if defined(_WIN32)
#define HIPRAND_API
#else
#define HIPRAND_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hiprandGenerator_st *hiprandGenerator_t;

typedef enum hiprandStatus {
  HIPRAND_STATUS_SUCCESS = 0,
  HIPRAND_STATUS_VERSION_MISMATCH = 100,
  HIPRAND_STATUS_NOT_INITIALIZED = 101,
  HIPRAND_STATUS_ALLOCATION_FAILED = 102,
  HIPRAND_STATUS_TYPE_ERROR = 103,
  HIPRAND_STATUS_OUT_OF_RANGE = 104,
  HIPRAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  HIPRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  HIPRAND_STATUS_LAUNCH_FAILURE = 201,
  HIPRAND_STATUS_PREEXISTING_FAILURE = 202,
  HIPRAND_STATUS_INITIALIZATION_FAILED = 203,
  HIPRAND_STATUS_ARCH_MISMATCH = 204,
  HIPRAND_STATUS_INTERNAL_ERROR = 999,
  HIPRAND_STATUS_NOT_IMPLEMENTED = 1000
} hiprandStatus_t;

typedef enum hiprandRngType {
  HIPRAND_RNG_TEST = 0,
  HIPRAND_RNG_PSEUDO_DEFAULT = 400, /* XORWOW */
  HIPRAND_RNG_PSEUDO_XORWOW = 401,
  HIPRAND_RNG_PSEUDO_MRG32K3A = 402,
  HIPRAND_RNG_PSEUDO_MTGP32 = 403,  /* not implemented */
  HIPRAND_RNG_PSEUDO_MT19937 = 404, /* not implemented */
  HIPRAND_RNG_PSEUDO_PHILOX4_32_10 = 405,
  HIPRAND_RNG_QUASI_DEFAULT = 500, /* Sobol32 */
  HIPRAND_RNG_QUASI_SOBOL32 = 501,
  HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 502, /* not implemented */
  HIPRAND_RNG_QUASI_SOBOL64 = 503,           /* not implemented */
  HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 504  /* not implemented */
} hiprandRngType_t;

typedef enum hiprandOrdering {
  HIPRAND_ORDERING_PSEUDO_BEST = 100,
  HIPRAND_ORDERING_PSEUDO_DEFAULT = 101,
  HIPRAND_ORDERING_PSEUDO_SEEDED = 102,
  HIPRAND_ORDERING_PSEUDO_LEGACY = 103,
  HIPRAND_ORDERING_PSEUDO_DYNAMIC = 104,
  HIPRAND_ORDERING_QUASI_DEFAULT = 201
} hiprandOrdering_t;

typedef enum hiprandDirectionVectorSet {
  HIPRAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
  HIPRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102, /* not implemented */
  HIPRAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,           /* not implemented */
  HIPRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104  /* not implemented */
} hiprandDirectionVectorSet_t;

#ifndef HIPRAND_DIRECTION_VECTORS32_DEFINED_
#define HIPRAND_DIRECTION_VECTORS32_DEFINED_
typedef unsigned int hiprandDirectionVectors32_t[32];
#endif

/* A generator whose kernels run on the current device, writing device memory. */
HIPRAND_API hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t *generator,
                                                   hiprandRngType_t rng_type);
/* A generator that runs on the calling host thread, writing host memory. */
HIPRAND_API hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t *generator,
                                                       hiprandRngType_t rng_type);
HIPRAND_API hiprandStatus_t hiprandDestroyGenerator(hiprandGenerator_t generator);

HIPRAND_API hiprandStatus_t hiprandGenerate(hiprandGenerator_t generator, unsigned int *output_data,
                                            size_t n);
HIPRAND_API hiprandStatus_t hiprandGenerateUniform(hiprandGenerator_t generator, float *output_data,
                                                   size_t n);
HIPRAND_API hiprandStatus_t hiprandGenerateUniformDouble(hiprandGenerator_t generator,
                                                         double *output_data, size_t n);
HIPRAND_API hiprandStatus_t hiprandGenerateNormal(hiprandGenerator_t generator, float *output_data,
                                                  size_t n, float mean, float stddev);
HIPRAND_API hiprandStatus_t hiprandGenerateNormalDouble(hiprandGenerator_t generator,
                                                        double *output_data, size_t n, double mean,
                                                        double stddev);
HIPRAND_API hiprandStatus_t hiprandGenerateLogNormal(hiprandGenerator_t generator,
                                                     float *output_data, size_t n, float mean,
                                                     float stddev);
HIPRAND_API hiprandStatus_t hiprandGenerateLogNormalDouble(hiprandGenerator_t generator,
                                                           double *output_data, size_t n,
                                                           double mean, double stddev);
HIPRAND_API hiprandStatus_t hiprandGeneratePoisson(hiprandGenerator_t generator,
                                                   unsigned int *output_data, size_t n,
                                                   double lambda);
/* The states are set up at the first generation after a seed or offset
 * change; this sets them up now. */
HIPRAND_API hiprandStatus_t hiprandGenerateSeeds(hiprandGenerator_t generator);

HIPRAND_API hiprandStatus_t hiprandSetStream(hiprandGenerator_t generator, hipStream_t stream);
HIPRAND_API hiprandStatus_t hiprandSetPseudoRandomGeneratorSeed(hiprandGenerator_t generator,
                                                                unsigned long long seed);
HIPRAND_API hiprandStatus_t hiprandSetGeneratorOffset(hiprandGenerator_t generator,
                                                      unsigned long long offset);
/* Only each generator's default ordering is implemented. */
HIPRAND_API hiprandStatus_t hiprandSetGeneratorOrdering(hiprandGenerator_t generator,
                                                        hiprandOrdering_t order);
HIPRAND_API hiprandStatus_t hiprandSetQuasiRandomGeneratorDimensions(hiprandGenerator_t generator,
                                                                     unsigned int dimensions);
HIPRAND_API hiprandStatus_t hiprandGetVersion(int *version);
/* 64-bit integers come from 64-bit quasi generators only, which are not
 * implemented: HIPRAND_STATUS_TYPE_ERROR. */
HIPRAND_API hiprandStatus_t hiprandGenerateLongLong(hiprandGenerator_t generator,
                                                    unsigned long long *output_data, size_t n);
/* Joe and Kuo's direction vectors of the 1024 dimensions the host API's
 * Sobol32 uses, in host memory (for hiprand_init of hiprandStateSobol32_t:
 * copy the ones needed to the device). */
HIPRAND_API hiprandStatus_t hiprandGetDirectionVectors32(hiprandDirectionVectors32_t **vectors,
                                                         hiprandDirectionVectorSet_t set);

#ifdef __cplusplus
}
#endif

#endif
