/* SPDX-License-Identifier: MIT */
/* hipCUB's per-primitive header, as ROCm's hipCUB lays them out: anyhip's
 * hipCUB is one header (hipcub/hipcub.hpp), which this includes. */
#include "../hipcub.hpp"
