/* SPDX-License-Identifier: MIT */
/* The HIP shared library of the consumer project: a kernel behind a plain
 * C++ function, so that its callers need not know about kernels. */
#ifndef VECOPS_H
#define VECOPS_H

/* out[i] = a * x[i] + y[i] for n host values, computed by a kernel; returns 0
 * on success. */
int vecops_saxpy(int n, float a, const float *x, const float *y, float *out);

#endif
