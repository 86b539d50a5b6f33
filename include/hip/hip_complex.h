/* SPDX-License-Identifier: MIT */
/* HIP's complex numbers: hipFloatComplex (float2) and hipDoubleComplex (double2), with
 * make_, real and imaginary parts, conjugate, the four operations, absolute value, squared
 * absolute value, fused multiply-add and the float/double conversions. Host and device;
 * plain C as well. Division and hipCabs scale as HIP's do, so that no intermediate
 * overflows where the result would not. */
#ifndef HIP_INCLUDE_HIP_HIP_COMPLEX_H
#define HIP_INCLUDE_HIP_HIP_COMPLEX_H

#include <hip/hip_common.h>
#include <hip/hip_vector_types.h>

#include <math.h>

typedef float2 hipFloatComplex;
typedef double2 hipDoubleComplex;
typedef hipFloatComplex hipComplex;

#define AH_CPLX static inline AH_HOST_DEVICE

AH_CPLX float hipCrealf(hipFloatComplex z) { return z.x; }
AH_CPLX float hipCimagf(hipFloatComplex z) { return z.y; }
AH_CPLX hipFloatComplex make_hipFloatComplex(float a, float b) {
  hipFloatComplex z;
  z.x = a;
  z.y = b;
  return z;
}
AH_CPLX hipFloatComplex hipConjf(hipFloatComplex z) { return make_hipFloatComplex(z.x, -z.y); }
AH_CPLX float hipCsqabsf(hipFloatComplex z) { return z.x * z.x + z.y * z.y; }
AH_CPLX hipFloatComplex hipCaddf(hipFloatComplex p, hipFloatComplex q) {
  return make_hipFloatComplex(p.x + q.x, p.y + q.y);
}
AH_CPLX hipFloatComplex hipCsubf(hipFloatComplex p, hipFloatComplex q) {
  return make_hipFloatComplex(p.x - q.x, p.y - q.y);
}
AH_CPLX hipFloatComplex hipCmulf(hipFloatComplex p, hipFloatComplex q) {
  return make_hipFloatComplex(p.x * q.x - p.y * q.y, p.y * q.x + p.x * q.y);
}
AH_CPLX hipFloatComplex hipCdivf(hipFloatComplex p, hipFloatComplex q) {
  float s = fabsf(q.x) + fabsf(q.y), ps = 1.0f / s;
  float ar = p.x * ps, ai = p.y * ps, br = q.x * ps, bi = q.y * ps;
  float d = 1.0f / (br * br + bi * bi);
  return make_hipFloatComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
AH_CPLX float hipCabsf(hipFloatComplex z) { return hypotf(z.x, z.y); }

AH_CPLX double hipCreal(hipDoubleComplex z) { return z.x; }
AH_CPLX double hipCimag(hipDoubleComplex z) { return z.y; }
AH_CPLX hipDoubleComplex make_hipDoubleComplex(double a, double b) {
  hipDoubleComplex z;
  z.x = a;
  z.y = b;
  return z;
}
AH_CPLX hipDoubleComplex hipConj(hipDoubleComplex z) { return make_hipDoubleComplex(z.x, -z.y); }
AH_CPLX double hipCsqabs(hipDoubleComplex z) { return z.x * z.x + z.y * z.y; }
AH_CPLX hipDoubleComplex hipCadd(hipDoubleComplex p, hipDoubleComplex q) {
  return make_hipDoubleComplex(p.x + q.x, p.y + q.y);
}
AH_CPLX hipDoubleComplex hipCsub(hipDoubleComplex p, hipDoubleComplex q) {
  return make_hipDoubleComplex(p.x - q.x, p.y - q.y);
}
AH_CPLX hipDoubleComplex hipCmul(hipDoubleComplex p, hipDoubleComplex q) {
  return make_hipDoubleComplex(p.x * q.x - p.y * q.y, p.y * q.x + p.x * q.y);
}
AH_CPLX hipDoubleComplex hipCdiv(hipDoubleComplex p, hipDoubleComplex q) {
  double s = fabs(q.x) + fabs(q.y), ps = 1.0 / s;
  double ar = p.x * ps, ai = p.y * ps, br = q.x * ps, bi = q.y * ps;
  double d = 1.0 / (br * br + bi * bi);
  return make_hipDoubleComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
AH_CPLX double hipCabs(hipDoubleComplex z) { return hypot(z.x, z.y); }

AH_CPLX hipComplex make_hipComplex(float x, float y) { return make_hipFloatComplex(x, y); }
AH_CPLX hipFloatComplex hipComplexDoubleToFloat(hipDoubleComplex z) {
  return make_hipFloatComplex((float)z.x, (float)z.y);
}
AH_CPLX hipDoubleComplex hipComplexFloatToDouble(hipFloatComplex z) {
  return make_hipDoubleComplex((double)z.x, (double)z.y);
}
/* p * q + r */
AH_CPLX hipComplex hipCfmaf(hipComplex p, hipComplex q, hipComplex r) {
  float re = (p.x * q.x) + r.x, im = (q.x * p.y) + r.y;
  return make_hipComplex(-(p.y * q.y) + re, (p.x * q.y) + im);
}
AH_CPLX hipDoubleComplex hipCfma(hipDoubleComplex p, hipDoubleComplex q, hipDoubleComplex r) {
  double re = (p.x * q.x) + r.x, im = (q.x * p.y) + r.y;
  return make_hipDoubleComplex(-(p.y * q.y) + re, (p.x * q.y) + im);
}

#undef AH_CPLX

#endif
