/* SPDX-License-Identifier: MIT */
/* Diagnostic lines on stderr for the areas chosen with ANYHIP_LOG. One
 * fprintf per line, so lines from several threads do not interleave. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

void ah_log(const char *area, const char *fmt, ...) {
  char line[1024];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  fprintf(stderr, "anyhip[%s]: %s\n", area, line);
}
