/* SPDX-License-Identifier: MIT */
/* Host-side execution of a memset command, shared by the backends: typed
 * stores per row so the compiler vectorises the fill. */
#include "host_ops.h"

#include <string.h>

void ah_host_set(const struct ah_cmd *c) {
  for (size_t r = 0; r < c->set.height; r++) {
    char *row = (char *)c->set.dst + r * c->set.pitch;

    switch (c->set.elem_size) {
    case 1:
      memset(row, (int)(c->set.value & 0xff), c->set.count);
      break;
    case 2: {
      uint16_t v = (uint16_t)c->set.value, *p = (uint16_t *)(void *)row;
      for (size_t i = 0; i < c->set.count; i++)
        p[i] = v;
      break;
    }
    default: {
      uint32_t v = c->set.value, *p = (uint32_t *)(void *)row;
      for (size_t i = 0; i < c->set.count; i++)
        p[i] = v;
      break;
    }
    }
  }
}
