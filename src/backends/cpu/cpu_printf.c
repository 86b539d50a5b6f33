/* SPDX-License-Identifier: MIT */
/* Device printf on the CPU device. The kernel header
 * (include/hip/anyhip/cpu/kernel.h) binds the name printf of hipcc-compiled
 * code to one of these two:
 *   __ah_cpu_printf           HIP's default (AMD's hostcall printf): prints
 *                             at once and returns the number of characters;
 *   __ah_cpu_printf_buffered  code compiled with -mprintf-kind=buffered:
 *                             each call takes a frame of the launch's buffer
 *                             of hipLimitPrintfFifoSize bytes and returns 0,
 *                             or -1 and prints nothing once the frame does
 *                             not fit (OpenCL's printf, as AMD builds it).
 * Inside a kernel both print as AMD's device library does: a NULL string for
 * %s prints nothing (glibc prints "(null)"), and the text of one call is
 * written with one fwrite, so lines of different GPU threads do not mix.
 * Outside kernels (host code of the same source) they are the C library's
 * printf. docs/semantics.md, "Device printf". */
#define _GNU_SOURCE
#include "cpu_engine.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static int in_kernel(void) { return ah_cpu_self != NULL && ah_cpu_self->in_kernel; }

/* ---- the text of one call ---- */

struct out {
  char *buf;
  size_t len, cap;
  int err;
  char small[512];
};

static void out_put(struct out *o, const char *s, size_t n) {
  if (o->err || n == 0)
    return;
  if (o->len + n + 1 > o->cap) {
    size_t cap = o->cap * 2;
    char *b;

    while (cap < o->len + n + 1)
      cap *= 2;
    b = o->buf == o->small ? malloc(cap) : realloc(o->buf, cap);
    if (b == NULL) {
      o->err = 1;
      return;
    }
    if (o->buf == o->small)
      memcpy(b, o->small, o->len);
    o->buf = b;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

/* One conversion, formatted by the C library. */
static void out_conv(struct out *o, const char *spec, ...) {
  char tmp[256];
  va_list ap, ap2;
  int n;

  va_start(ap, spec);
  va_copy(ap2, ap);
  n = vsnprintf(tmp, sizeof(tmp), spec, ap);
  if (n < 0) {
    o->err = 1;
  } else if ((size_t)n < sizeof(tmp)) {
    out_put(o, tmp, (size_t)n);
  } else {
    char *big = malloc((size_t)n + 1);

    if (big == NULL) {
      o->err = 1;
    } else {
      vsnprintf(big, (size_t)n + 1, spec, ap2);
      out_put(o, big, (size_t)n);
      free(big);
    }
  }
  va_end(ap2);
  va_end(ap);
}

/* Calls out_conv with the conversion's '*' values (ns of them) before v. */
#define CONV(v)                                                                                  \
  do {                                                                                           \
    if (ns == 0)                                                                                 \
      out_conv(o, spec, v);                                                                      \
    else if (ns == 1)                                                                            \
      out_conv(o, spec, star[0], v);                                                             \
    else                                                                                         \
      out_conv(o, spec, star[0], star[1], v);                                                    \
  } while (0)

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Formats fmt with ap into o, AMD's way; *frame gets the bytes AMD's buffered
 * printf takes for the call: a 4-byte control word, the format string's
 * 8-byte hash, each string argument with its NUL rounded up to 8 bytes
 * (none for a NULL one), every other argument 8 bytes (16 a long double).
 * Returns 0, or -1 for a format it leaves to the C library (positional
 * arguments, a conversion spec too long to copy). */
static int format(struct out *o, const char *fmt, va_list ap, size_t *frame) {
  size_t fr = 4 + 8;

  for (const char *p = fmt; *p != '\0';) {
    const char *start = p, *q;
    char spec[64];
    int star[2], ns = 0;
    char len[3] = {0};
    size_t sl;

    if (*p != '%') {
      q = strchr(p, '%');
      if (q == NULL)
        q = p + strlen(p);
      out_put(o, p, (size_t)(q - p));
      p = q;
      continue;
    }
    if (p[1] == '%') {
      out_put(o, "%", 1);
      p += 2;
      continue;
    }
    p++;
    while (*p != '\0' && strchr("-+ #0'I", *p) != NULL)
      p++;
    if (*p == '*') {
      star[ns++] = va_arg(ap, int);
      fr += 8;
      p++;
    } else {
      while (*p >= '0' && *p <= '9')
        p++;
    }
    if (*p == '.') {
      p++;
      if (*p == '*') {
        star[ns++] = va_arg(ap, int);
        fr += 8;
        p++;
      } else {
        while (*p >= '0' && *p <= '9')
          p++;
      }
    }
    if (*p == '$')
      return -1;
    if ((p[0] == 'h' && p[1] == 'h') || (p[0] == 'l' && p[1] == 'l')) {
      len[0] = p[0];
      len[1] = p[1];
      p += 2;
    } else if (*p != '\0' && strchr("hljztLq", *p) != NULL) {
      len[0] = *p++;
    }
    if (*p == '\0') { /* a lone '%' at the end: printed as it is */
      out_put(o, start, (size_t)(p - start));
      break;
    }
    p++;
    sl = (size_t)(p - start);
    if (sl >= sizeof(spec))
      return -1;
    memcpy(spec, start, sl);
    spec[sl] = '\0';
    if (memchr(spec + 1, '$', sl - 1) != NULL)
      return -1;
    switch (p[-1]) {
    case 'd':
    case 'i':
    case 'o':
    case 'u':
    case 'x':
    case 'X':
      fr += 8;
      if (len[0] == 'l' && len[1] == 'l')
        CONV(va_arg(ap, long long));
      else if (len[0] == 'l')
        CONV(va_arg(ap, long));
      else if (len[0] == 'q')
        CONV(va_arg(ap, long long));
      else if (len[0] == 'j')
        CONV(va_arg(ap, intmax_t));
      else if (len[0] == 'z')
        CONV(va_arg(ap, size_t));
      else if (len[0] == 't')
        CONV(va_arg(ap, ptrdiff_t));
      else
        CONV(va_arg(ap, int)); /* hh and h: promoted to int, narrowed by the spec */
      break;
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      if (len[0] == 'L') {
        fr += 16;
        CONV(va_arg(ap, long double));
      } else {
        fr += 8;
        CONV(va_arg(ap, double));
      }
      break;
    case 'c':
      fr += 8;
      if (len[0] == 'l')
        CONV(va_arg(ap, wint_t));
      else
        CONV(va_arg(ap, int));
      break;
    case 's':
      if (len[0] == 'l') {
        const wchar_t *ws = va_arg(ap, const wchar_t *);

        fr += ws != NULL ? align8((wcslen(ws) + 1) * sizeof(wchar_t)) : 0;
        if (ws == NULL)
          ws = L"";
        CONV(ws);
      } else {
        const char *s = va_arg(ap, const char *);

        fr += s != NULL ? align8(strlen(s) + 1) : 0;
        if (s == NULL)
          s = ""; /* AMD's device library; glibc would print "(null)" */
        CONV(s);
      }
      break;
    case 'p':
      fr += 8;
      CONV(va_arg(ap, void *));
      break;
    case 'n': {
      void *n = va_arg(ap, void *);

      fr += 8;
      if (n == NULL)
        break;
      if (len[0] == 'h' && len[1] == 'h')
        *(signed char *)n = (signed char)o->len;
      else if (len[0] == 'h')
        *(short *)n = (short)o->len;
      else if (len[0] == 'l' || len[0] == 'q' || len[0] == 'j' || len[0] == 'z' ||
               len[0] == 't')
        *(long *)n = (long)o->len;
      else
        *(int *)n = (int)o->len;
      break;
    }
    case 'm': /* glibc: strerror(errno), no argument */
      out_conv(o, "%m");
      break;
    default: /* not a conversion: printed as written */
      out_put(o, spec, sl);
      break;
    }
  }
  *frame = fr;
  return 0;
}

/* Takes `frame` bytes of the launch's buffer; 0 when they do not fit. AMD's
 * buffer starts with 8 bytes of its own (offset and size). */
static int take(struct ah_cpu_printf_buf *b, size_t frame) {
  size_t used = atomic_load_explicit(&b->used, memory_order_relaxed);

  do {
    if (b->cap < 8 || frame > b->cap - 8 - used)
      return 0;
  } while (!atomic_compare_exchange_weak_explicit(&b->used, &used, used + frame,
                                                  memory_order_relaxed, memory_order_relaxed));
  return 1;
}

/* Formats and writes one call's text from a kernel: the number of
 * characters, or -1. With a buffer b, the call's frame must fit in it first
 * (nothing is printed otherwise). */
static int device_vprintf(const char *fmt, va_list ap, struct ah_cpu_printf_buf *b) {
  struct out o = {.buf = NULL, .cap = sizeof(o.small)};
  size_t frame = 4 + 8;
  va_list ap2;
  int r;

  o.buf = o.small;
  va_copy(ap2, ap);
  if (format(&o, fmt, ap2, &frame) != 0) {
    va_end(ap2);
    if (o.buf != o.small)
      free(o.buf);
    return b != NULL && !take(b, 4 + 8) ? -1 : vprintf(fmt, ap);
  }
  va_end(ap2);
  if (o.err || (b != NULL && !take(b, frame)))
    r = -1;
  else
    r = o.len == 0 || fwrite(o.buf, 1, o.len, stdout) == o.len ? (int)o.len : -1;
  if (o.buf != o.small)
    free(o.buf);
  return r;
}

/* printf from host code (glibc's) or a kernel: directly, or into the
 * launch's buffer (the buffered kind: 0, or -1 once the buffer is full). */
static int any_vprintf(const char *fmt, va_list ap, int buffered) {
  if (fmt == NULL)
    return -1;
  if (!in_kernel())
    return vprintf(fmt, ap);
  if (!buffered)
    return device_vprintf(fmt, ap, NULL);
  return device_vprintf(fmt, ap, ah_cpu_self->block.grid->printf_buf) < 0 ? -1 : 0;
}

AH_EXPORT int __ah_cpu_printf(const char *fmt, ...) {
  va_list ap;
  int r;

  va_start(ap, fmt);
  r = any_vprintf(fmt, ap, 0);
  va_end(ap);
  return r;
}

AH_EXPORT int __ah_cpu_printf_buffered(const char *fmt, ...) {
  va_list ap;
  int r;

  va_start(ap, fmt);
  r = any_vprintf(fmt, ap, 1);
  va_end(ap);
  return r;
}
