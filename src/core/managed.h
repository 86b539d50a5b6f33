/* SPDX-License-Identifier: MIT */
/* Managed-memory hints (src/core/managed.c): the advice and prefetch
 * locations given to byte ranges, kept so that hipMemRangeGetAttribute(s)
 * reports them on every device. Ranges are exact byte ranges, not rounded to
 * pages (a small managed allocation may share its page with another). No
 * argument checks here: src/api/hip_managed.c. */
#ifndef AH_MANAGED_H
#define AH_MANAGED_H

#include "internal.h"

/* Devices an accessed-by mask can name: hipCpuDeviceId and 0..62. */
#define AH_HINT_MAX_DEVICES 63

/* Records advice for [base, base + bytes). loc is hipCpuDeviceId or a device
 * ordinal below AH_HINT_MAX_DEVICES (ignored by the read-mostly advice). */
hipError_t ah_managed_advise(uintptr_t base, size_t bytes, hipMemoryAdvise advice, int loc);
/* Records loc as the range's last prefetch location. */
hipError_t ah_managed_prefetched(uintptr_t base, size_t bytes, int loc);
/* Writes attribute attr of the whole range to data (data_size bytes, checked
 * by the caller: 4, or a multiple of 4 for hipMemRangeAttributeAccessedBy). */
void ah_managed_query(uintptr_t base, size_t bytes, hipMemRangeAttribute attr, void *data,
                      size_t data_size);
/* Drops every hint in the range (its memory was freed). */
void ah_managed_forget(uintptr_t base, size_t bytes);

#endif
