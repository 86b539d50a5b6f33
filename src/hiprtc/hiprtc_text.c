/* SPDX-License-Identifier: MIT */
/* hiprtc's log text: a growing string both compilers (hipcc's pass in
 * hiprtc.c, NVRTC in hiprtc_nvrtc.c) write to. */
#include "hiprtc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ah_rtc_append(struct ah_rtc_text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    char *p;

    while (cap < t->len + n + 1)
      cap *= 2;
    p = realloc(t->s, cap);
    if (p == NULL)
      return; /* the log is best effort */
    t->s = p;
    t->cap = cap;
  }
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
}

void ah_rtc_appendf(struct ah_rtc_text *t, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  int n;

  va_start(ap, fmt);
  n = vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (n > 0)
    ah_rtc_append(t, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}
