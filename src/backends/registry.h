/* SPDX-License-Identifier: MIT */
/* Looks up compiled-in backends by name (for ANYHIP_DEVICES) or position. */
#ifndef AH_REGISTRY_H
#define AH_REGISTRY_H

#include "backend.h"
#include <string.h>

const struct ah_backend *ah_backend_find(const char *name, size_t len);
const struct ah_backend *ah_backend_at(size_t i); /* NULL past the end */
/* NULL when b fills every required op of backend.h (and the optional ones
 * that go together, together), else what it lacks. */
const char *ah_backend_missing(const struct ah_backend *b);

#endif
