/* SPDX-License-Identifier: MIT */
/* Small helpers for the hipcc driver: string vectors, allocation that never
 * returns NULL (a compiler driver out of memory can only stop), file and path
 * helpers, and the "hipcc: error:" diagnostics. */
#include "hipcc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void *ah_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);

  if (p == NULL) {
    fputs("hipcc: error: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

char *ah_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;

  return memcpy(ah_xmalloc(n), s, n);
}

static char *vformat(const char *fmt, va_list ap) {
  va_list ap2;
  int n;
  char *s;

  va_copy(ap2, ap);
  n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  s = ah_xmalloc((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *ah_xasprintf(const char *fmt, ...) {
  va_list ap;
  char *s;

  va_start(ap, fmt);
  s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

static void grow(struct ah_strv *sv) {
  if (sv->n + 2 > sv->cap) {
    sv->cap = sv->cap ? sv->cap * 2 : 16;
    sv->v = realloc(sv->v, sv->cap * sizeof(*sv->v));
    if (sv->v == NULL) {
      fputs("hipcc: error: out of memory\n", stderr);
      exit(1);
    }
  }
}

void ah_strv_push(struct ah_strv *sv, const char *s) {
  grow(sv);
  sv->v[sv->n++] = ah_xstrdup(s);
  sv->v[sv->n] = NULL;
}

void ah_strv_pushf(struct ah_strv *sv, const char *fmt, ...) {
  va_list ap;

  grow(sv);
  va_start(ap, fmt);
  sv->v[sv->n++] = vformat(fmt, ap);
  va_end(ap);
  sv->v[sv->n] = NULL;
}

void ah_strv_append(struct ah_strv *sv, const struct ah_strv *from) {
  for (size_t i = 0; i < from->n; i++)
    ah_strv_push(sv, from->v[i]);
}

void ah_strv_split(struct ah_strv *sv, const char *words) {
  const char *p = words;

  while (*p) {
    const char *start;

    while (*p == ' ' || *p == '\t' || *p == '\n')
      p++;
    if (*p == '\0')
      break;
    start = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n')
      p++;
    ah_strv_pushf(sv, "%.*s", (int)(p - start), start);
  }
}

void ah_strv_free(struct ah_strv *sv) {
  for (size_t i = 0; i < sv->n; i++)
    free(sv->v[i]);
  free(sv->v);
  sv->v = NULL;
  sv->n = sv->cap = 0;
}

char *ah_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t n = 0, cap = 0;

  if (f == NULL)
    return NULL;
  for (;;) {
    size_t got;

    if (cap - n < 65536) {
      cap = cap ? cap * 2 : 65536;
      buf = realloc(buf, cap + 1);
      if (buf == NULL) {
        fclose(f);
        errno = ENOMEM;
        return NULL;
      }
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror(f)) {
    int e = errno;

    free(buf);
    fclose(f);
    errno = e ? e : EIO;
    return NULL;
  }
  fclose(f);
  buf[n] = '\0';
  if (len != NULL)
    *len = n;
  return buf;
}

int ah_file_exists(const char *path) {
  struct stat st;

  return stat(path, &st) == 0;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');

  return s ? s + 1 : path;
}

const char *ah_path_ext(const char *path) {
  const char *b = base_name(path);
  const char *dot = strrchr(b, '.');

  return (dot && dot != b) ? dot : b + strlen(b);
}

char *ah_path_stem(const char *path) {
  const char *b = base_name(path);
  const char *e = ah_path_ext(path);

  return ah_xasprintf("%.*s", (int)(e - b), b);
}

char *ah_path_dir(const char *path) {
  const char *s = strrchr(path, '/');

  if (s == NULL)
    return ah_xstrdup(".");
  if (s == path)
    return ah_xstrdup("/");
  return ah_xasprintf("%.*s", (int)(s - path), path);
}

void ah_error(const char *fmt, ...) {
  va_list ap;

  fputs("hipcc: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

void ah_warning(const char *fmt, ...) {
  va_list ap;

  fputs("hipcc: warning: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

void ah_note(const char *fmt, ...) {
  va_list ap;

  fputs("hipcc: note: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}
