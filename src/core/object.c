/* SPDX-License-Identifier: MIT */
/* The header every handle object starts with, and the check that turns a
 * user's handle back into an object: a cheap guard against stale or foreign
 * handles (magic and kind), not a proof. */
#include "internal.h"

void ah_object_init(struct ah_object *o, enum ah_kind kind) {
  o->magic = AH_MAGIC;
  o->kind = kind;
  atomic_init(&o->refs, 1);
}

void ah_object_fini(struct ah_object *o) {
  o->magic = 0;
  o->kind = 0;
}

void *ah_object_cast(const void *o, enum ah_kind kind) {
  const struct ah_object *obj = o;

  if (obj == NULL || ((uintptr_t)obj & (_Alignof(struct ah_object) - 1)) != 0)
    return NULL;
  if (obj->magic != AH_MAGIC || obj->kind != (uint32_t)kind)
    return NULL;
  return (void *)obj;
}
