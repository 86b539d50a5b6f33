/* SPDX-License-Identifier: MIT */
/* The table of compiled-in backends, built from backends.def. */
#include "registry.h"

#define AH_BACKEND(n) extern const struct ah_backend ah_backend_##n;
#include "backends.def"
#undef AH_BACKEND

#define AH_BACKEND(n) &ah_backend_##n,
static const struct ah_backend *const all_backends[] = {
#include "backends.def"
};
#undef AH_BACKEND

const struct ah_backend *ah_backend_find(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof(all_backends) / sizeof(all_backends[0]); i++)
    if (strlen(all_backends[i]->name) == len && strncmp(all_backends[i]->name, name, len) == 0)
      return all_backends[i];
  return NULL;
}

const struct ah_backend *ah_backend_at(size_t i) {
  return i < sizeof(all_backends) / sizeof(all_backends[0]) ? all_backends[i] : NULL;
}
