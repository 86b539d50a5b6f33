/* SPDX-License-Identifier: MIT */
/* Source preparation, text and tokens: line numbers of offsets, gcc-style
 * error messages with the line and a caret, edits spliced in by offset, and
 * the token walks every other part uses (matching brackets, joining tokens,
 * attributes, type keywords). */
#include "prepare_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ah_prep_index_lines(struct prep *p) {
  size_t cap = 0;

  p->lines = grow_array(NULL, &cap, 1, sizeof(size_t));
  p->lines[p->nlines++] = 0;
  for (size_t i = 0; i < p->len; i++) {
    if (p->s[i] == '\n') {
      p->lines = grow_array(p->lines, &cap, p->nlines + 1, sizeof(size_t));
      p->lines[p->nlines++] = i + 1;
    }
  }
}

size_t ah_prep_line_of(const struct prep *p, size_t off) {
  size_t lo = 0, hi = p->nlines;

  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;

    if (p->lines[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo + 1;
}

/* gcc's format: "file:line:col: error: msg", then the line and a caret.
 * Of a long line only a window around the caret is shown, so that many
 * errors on one line do not print it again and again. */
#define ERROR_WINDOW 160
void ah_prep_error_at(struct prep *p, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ah_prep_error_at(struct prep *p, size_t off, const char *fmt, ...) {
  size_t line = ah_prep_line_of(p, off), start = p->lines[line - 1], end = start, col;
  va_list ap;

  while (end < p->len && p->s[end] != '\n')
    end++;
  col = off - start + 1;
  if (off - start > ERROR_WINDOW / 2)
    start = off - ERROR_WINDOW / 2;
  if (end - start > ERROR_WINDOW)
    end = start + ERROR_WINDOW;
  fprintf(stderr, "%s:%zu:%zu: error: ", p->file, line, col);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n %5zu | %.*s\n       | ", line, (int)(end - start), p->s + start);
  for (size_t i = start; i < off; i++)
    fputc(p->s[i] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
  p->cx->errors++;
}

/* Index of the token closing the group opened at toks[i] ('(' '[' '{'), or
 * the index of EOF when unbalanced. Directives inside are skipped. */
size_t ah_prep_match_fwd(const struct prep *p, const struct ah_tokens *ts, size_t i) {
  int depth = 0;

  for (; i < ts->n && ts->t[i].kind != AH_TOK_EOF; i++) {
    const struct ah_token *t = &ts->t[i];

    if (t->kind != AH_TOK_PUNCT)
      continue;
    if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{"))
      depth++;
    else if (is(p, t, ")") || is(p, t, "]") || is(p, t, "}"))
      if (--depth == 0)
        return i;
  }
  return ts->n - 1;
}

/* Index of the opener matching the closer at toks[i], or (size_t)-1. */
size_t ah_prep_match_back(const struct prep *p, const struct ah_tokens *ts, size_t i) {
  int depth = 0;

  for (size_t k = i + 1; k-- > 0;) {
    const struct ah_token *t = &ts->t[k];

    if (t->kind != AH_TOK_PUNCT)
      continue;
    if (is(p, t, ")") || is(p, t, "]") || is(p, t, "}"))
      depth++;
    else if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{"))
      if (--depth == 0)
        return k;
  }
  return (size_t)-1;
}

/* Index of the '<' opening the template argument list closed by the '>' at
 * toks[i], or (size_t)-1. */
size_t ah_prep_match_angle_back(const struct prep *p, const struct ah_tokens *ts, size_t i) {
  int depth = 0;

  for (size_t k = i + 1; k-- > 0;) {
    const struct ah_token *t = &ts->t[k];

    if (is(p, t, ">")) {
      depth++;
    } else if (is(p, t, "<")) {
      if (--depth == 0)
        return k;
    } else if (is(p, t, ")") || is(p, t, "]")) {
      k = ah_prep_match_back(p, ts, k);
      if (k == (size_t)-1)
        return k;
    } else if (is(p, t, ";") || is(p, t, "{") || is(p, t, "}") || is(p, t, "<<<")) {
      return (size_t)-1;
    }
  }
  return (size_t)-1;
}

/* Token texts from toks[a, b) joined, with one space where the source had
 * any gap (comments and newlines become one space). */
char *ah_prep_join_tokens(const struct prep *p, const struct ah_tokens *ts, size_t a, size_t b) {
  size_t n = 1;
  char *out, *o;

  for (size_t k = a; k < b; k++)
    n += ts->t[k].len + 1;
  o = out = ah_xmalloc(n);
  for (size_t k = a; k < b; k++) {
    const struct ah_token *t = &ts->t[k];

    if (t->kind == AH_TOK_DIRECTIVE)
      continue;
    if (o != out && ts->t[k - 1].off + ts->t[k - 1].len != t->off)
      *o++ = ' ';
    memcpy(o, p->s + t->off, t->len);
    o += t->len;
  }
  *o = '\0';
  return out;
}

size_t ah_prep_count_newlines(const struct prep *p, size_t a, size_t b) {
  size_t n = 0;

  for (size_t i = a; i < b; i++)
    n += p->s[i] == '\n';
  return n;
}

/* Skips an attribute at toks[k] ([[...]], __attribute__((...)), alignas(...),
 * __declspec(...), __align__(...), __launch_bounds__(...)); returns the index
 * after it, or k when there is none. */
size_t ah_prep_skip_attribute(const struct prep *p, const struct ah_tokens *ts, size_t k) {
  static const char *const names[] = {"__attribute__", "alignas", "__declspec", "__align__",
                                      "__launch_bounds__", "__global__", NULL};
  const struct ah_token *t = &ts->t[k];

  if (is(p, t, "[") && is(p, &ts->t[k + 1], "["))
    return ah_prep_match_fwd(p, ts, k) + 1;
  for (int i = 0; names[i]; i++)
    if (is(p, t, names[i]) && is(p, &ts->t[k + 1], "("))
      return ah_prep_match_fwd(p, ts, k + 1) + 1;
  return k;
}

/* Index of the '>' closing the template parameter list whose '<' is toks[i],
 * or (size_t)-1. A '<' opens a list after a name (`std::pair<`, `template <`),
 * as the compiler reads it; parentheses are skipped. */
size_t ah_prep_match_angle_fwd(const struct prep *p, const struct ah_tokens *ts, size_t i,
                               size_t end) {
  int depth = 0;

  for (size_t k = i; k < end; k++) {
    const struct ah_token *t = &ts->t[k];

    if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{"))
      k = ah_prep_match_fwd(p, ts, k);
    else if (is(p, t, "<") && k > 0 && is_ident(&ts->t[k - 1]))
      depth++;
    else if (is(p, t, ">") && --depth == 0)
      return k;
    else if (is(p, t, ";"))
      break;
  }
  return (size_t)-1;
}

int ah_prep_is_type_keyword(const struct prep *p, const struct ah_token *t) {
  static const char *const kw[] = {"class", "typename", "struct", "enum", "int", "unsigned",
                                   "signed", "long", "short", "char", "bool", "auto",
                                   "wchar_t", "char8_t", "char16_t", "char32_t", NULL};

  for (int i = 0; kw[i]; i++)
    if (is(p, t, kw[i]))
      return 1;
  return 0;
}

/* The file name as a C string literal body. */
char *ah_prep_quote_file(const char *file) {
  char *q = ah_xmalloc(strlen(file) * 2 + 1), *o = q;

  for (const char *s = file; *s; s++) {
    if (*s == '\\' || *s == '"')
      *o++ = '\\';
    *o++ = *s;
  }
  *o = '\0';
  return q;
}
