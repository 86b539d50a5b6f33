/* SPDX-License-Identifier: MIT */
#ifndef LANG_VECOPS_H
#define LANG_VECOPS_H

/* out[i] = a * x[i] + y[i] for n host values, by a kernel; 0 on success. */
int lang_saxpy(int n, float a, const float *x, const float *y, float *out);

#endif
