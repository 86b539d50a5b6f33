/* SPDX-License-Identifier: MIT */
/* hip_device.c's work for hip_deprecated.c (HIP 5's device properties):
 * hipChooseDevice's scoring and hipGetDeviceProperties' copy, without the
 * last-error machinery. */
#ifndef AH_DEVICE_INTERNAL_H
#define AH_DEVICE_INTERNAL_H

#include "internal.h"

hipError_t ah_device_choose(int *device, const hipDeviceProp_t *prop);
hipError_t ah_device_props(hipDeviceProp_t *prop, int deviceId);

#endif
