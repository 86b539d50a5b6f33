/* SPDX-License-Identifier: MIT */
/* The HIP version anyhip mirrors. anyhip follows the API of HIP 6.2 (names,
 * numeric values, hipDeviceProp_t's 6.x layout); hipRuntimeGetVersion and
 * hipDriverGetVersion report HIP_VERSION, so version checks in HIP programs
 * take the 6.2 branch. ANYHIP_VERSION_* give anyhip's own release. */
#ifndef HIP_VERSION_H
#define HIP_VERSION_H

#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH ""
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME ""
#define HIP_VERSION \
  (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#define ANYHIP_VERSION_MAJOR 0
#define ANYHIP_VERSION_MINOR 1
#define ANYHIP_VERSION_PATCH 0

#endif
