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

const char *ah_backend_missing(const struct ah_backend *b) {
#define AH_REQUIRED(op)                                                                            \
  if (b->op == NULL)                                                                               \
    return #op;
  AH_BACKEND_REQUIRED(AH_REQUIRED)
#undef AH_REQUIRED
  /* Optional ops that only work together. */
  if ((b->ipc_mem_export == NULL) != (b->ipc_mem_open == NULL) ||
      (b->ipc_mem_export == NULL) != (b->ipc_mem_close == NULL))
    return "ipc_mem_export, ipc_mem_open and ipc_mem_close together";
  if ((b->ipc_event_export == NULL) != (b->ipc_event_open == NULL))
    return "ipc_event_export and ipc_event_open together";
  if (b->graph_build != NULL && (b->graph_launch == NULL || b->graph_destroy == NULL))
    return "graph_launch and graph_destroy with graph_build";
  if ((b->array_create == NULL) != (b->array_destroy == NULL))
    return "array_create and array_destroy together";
  if ((b->mipmap_create == NULL) != (b->mipmap_level == NULL) ||
      (b->mipmap_create == NULL) != (b->mipmap_destroy == NULL) ||
      (b->mipmap_create != NULL && b->array_create == NULL))
    return "mipmap_create, mipmap_level and mipmap_destroy together, with array_create";
  if ((b->texture_create == NULL) != (b->texture_destroy == NULL) ||
      (b->texture_create == NULL) != (b->surface_create == NULL) ||
      (b->texture_create == NULL) != (b->surface_destroy == NULL) ||
      (b->texture_create != NULL && b->array_create == NULL))
    return "texture_create, texture_destroy, surface_create and surface_destroy together, "
           "with array_create";
#define AH_VMM_OP(op)                                                                              \
  if ((b->op == NULL) != (b->vmm_create == NULL))                                                  \
    return "the vmm_* ops together";
  AH_BACKEND_VMM(AH_VMM_OP)
#undef AH_VMM_OP
#define AH_POOL_OP(op)                                                                             \
  if ((b->op == NULL) != (b->pool_create == NULL))                                                 \
    return "the pool_* ops together";
  AH_BACKEND_POOL(AH_POOL_OP)
#undef AH_POOL_OP
#define AH_EXT_OP(op)                                                                              \
  if ((b->op == NULL) != (b->ext_mem_import == NULL))                                              \
    return "the ext_* ops together";
  AH_BACKEND_EXTERNAL(AH_EXT_OP)
#undef AH_EXT_OP
  return NULL;
}

const struct ah_backend *ah_backend_at(size_t i) {
  return i < sizeof(all_backends) / sizeof(all_backends[0]) ? all_backends[i] : NULL;
}
