/* SPDX-License-Identifier: MIT */
/* Host-side execution of memset and 3D copy commands, shared by the
 * backends: typed stores per row so the compiler vectorises the fill. */
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

void ah_host_copy3d(const struct ah_cmd *c) {
  size_t dslice = c->copy3d.dslice_rows * c->copy3d.dpitch;
  size_t sslice = c->copy3d.sslice_rows * c->copy3d.spitch;

  for (size_t z = 0; z < c->copy3d.depth; z++) {
    char *d = (char *)c->copy3d.dst + z * dslice;
    const char *s = (const char *)c->copy3d.src + z * sslice;

    /* memmove: hipMemcpy3D within one allocation may overlap itself. */
    for (size_t r = 0; r < c->copy3d.height; r++)
      memmove(d + r * c->copy3d.dpitch, s + r * c->copy3d.spitch, c->copy3d.width);
  }
}
