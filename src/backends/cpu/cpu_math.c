/* SPDX-License-Identifier: MIT */
/* Device math that must not touch process state: lgammaf and lgamma set
 * libm's global signgam, which every thread of a kernel would write at once
 * (a data race, and the host's signgam changed behind its back). The CPU
 * device's math header (include/hip/anyhip/cpu/device_math.h) binds the
 * names lgammaf and lgamma of hipcc-compiled code to these: they compute
 * with the reentrant lgammaf_r/lgamma_r and set signgam only when called
 * outside a kernel (host code keeps C's behaviour). */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <math.h>

/* Whether this thread runs a block now (a launching thread is a worker too,
 * but not between launches). */
static int in_kernel(void) {
  return ah_cpu_self != NULL && ah_cpu_self->in_kernel;
}

AH_EXPORT float __ah_lgammaf(float x) {
  int sign;
  float r = lgammaf_r(x, &sign);

  if (!in_kernel())
    signgam = sign;
  return r;
}

AH_EXPORT double __ah_lgamma(double x) {
  int sign;
  double r = lgamma_r(x, &sign);

  if (!in_kernel())
    signgam = sign;
  return r;
}
