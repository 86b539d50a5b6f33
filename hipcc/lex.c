/* SPDX-License-Identifier: MIT */
/* A C++ tokenizer for source preparation. It is not a full translation-phase
 * implementation: it only has to find token boundaries exactly, so that
 * `<<<` inside a string, a comment or a raw string is never taken for a
 * launch, and `>>` closing nested templates is never taken for a shift.
 * Line continuations (backslash-newline) are honoured inside tokens,
 * comments and preprocessor lines, and not inside raw strings (C++11). */
#include "lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push(struct ah_tokens *ts, enum ah_tok_kind kind, size_t off, size_t len) {
  if (ts->n == ts->cap) {
    ts->cap = ts->cap ? ts->cap * 2 : 1024;
    ts->t = realloc(ts->t, ts->cap * sizeof(*ts->t));
    if (ts->t == NULL) {
      fputs("hipcc: error: out of memory\n", stderr);
      exit(1);
    }
  }
  ts->t[ts->n].kind = kind;
  ts->t[ts->n].off = off;
  ts->t[ts->n].len = len;
  ts->n++;
}

/* Skips any number of backslash-newlines at i (with a \r before the \n, and
 * trailing blanks after the backslash, as gcc accepts with a warning). */
static size_t splice(const char *s, size_t i, size_t end) {
  for (;;) {
    size_t j = i;

    if (j >= end || s[j] != '\\')
      return i;
    j++;
    while (j < end && (s[j] == ' ' || s[j] == '\t'))
      j++;
    if (j < end && s[j] == '\r')
      j++;
    if (j < end && s[j] == '\n')
      i = j + 1;
    else
      return i;
  }
}

static int ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static int ident_char(unsigned char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

/* Scans an identifier (with splices) from i; returns the end. */
static size_t scan_ident(const char *s, size_t i, size_t end) {
  for (;;) {
    size_t j = splice(s, i, end);

    if (j < end && ident_char((unsigned char)s[j]))
      i = j + 1;
    else
      return i;
  }
}

/* A pp-number: digits, letters, '.', digit separators, and signed exponents. */
static size_t scan_number(const char *s, size_t i, size_t end) {
  for (;;) {
    size_t j = splice(s, i, end);
    unsigned char c;

    if (j >= end)
      return i;
    c = (unsigned char)s[j];
    if ((c == '+' || c == '-') && strchr("eEpP", s[i - 1]) != NULL) {
      i = j + 1;
    } else if (c == '\'') {
      size_t k = splice(s, j + 1, end);

      if (k < end && ident_char((unsigned char)s[k]))
        i = k + 1;
      else
        return i;
    } else if (ident_char(c) || c == '.') {
      i = j + 1;
    } else {
      return i;
    }
  }
}

/* A quoted literal from the opening quote at i; stops after the closing
 * quote, or before an unescaped newline (an unterminated literal, which the
 * compiler reports; inside #if 0 it is legal text). */
static size_t scan_quoted(const char *s, size_t i, size_t end) {
  char q = s[i++];

  while (i < end) {
    if (s[i] == '\\') {
      size_t j = splice(s, i, end);

      i = (j != i) ? j : i + 2;
    } else if (s[i] == q) {
      return i + 1;
    } else if (s[i] == '\n') {
      return i;
    } else {
      i++;
    }
  }
  return end;
}

/* A raw string R"delim( ... )delim" with i at the opening quote. */
static size_t scan_raw(const char *s, size_t i, size_t end) {
  size_t d0 = i + 1, d1 = d0;

  while (d1 < end && d1 - d0 <= 16 && s[d1] != '(' && s[d1] != '"' && s[d1] != '\n')
    d1++;
  if (d1 >= end || s[d1] != '(')
    return scan_quoted(s, i, end); /* malformed: let the compiler complain */
  for (size_t k = d1 + 1; k < end; k++) {
    if (s[k] == ')' && k + 1 + (d1 - d0) < end && memcmp(s + k + 1, s + d0, d1 - d0) == 0 &&
        s[k + 1 + (d1 - d0)] == '"')
      return k + 2 + (d1 - d0);
  }
  return end;
}

/* Block comment from "/ *" at i; returns the end (after the closing mark). */
static size_t scan_block_comment(const char *s, size_t i, size_t end) {
  i += 2;
  while (i + 1 < end && !(s[i] == '*' && s[i + 1] == '/'))
    i++;
  return i + 1 < end ? i + 2 : end;
}

/* Line comment from "//" at i; returns the position of the ending newline. */
static size_t scan_line_comment(const char *s, size_t i, size_t end) {
  while (i < end) {
    size_t j = splice(s, i, end);

    if (j != i) {
      i = j;
      continue;
    }
    if (s[i] == '\n')
      return i;
    i++;
  }
  return end;
}

/* A preprocessor line from '#' at i to its logical end (newline excluded). */
static size_t scan_directive(const char *s, size_t i, size_t end) {
  while (i < end) {
    size_t j = splice(s, i, end);

    if (j != i) {
      i = j;
      continue;
    }
    if (s[i] == '\n')
      return i;
    if (s[i] == '"' || s[i] == '\'') {
      i = scan_quoted(s, i, end);
    } else if (s[i] == '/' && i + 1 < end && s[i + 1] == '*') {
      i = scan_block_comment(s, i, end);
    } else if (s[i] == '/' && i + 1 < end && s[i + 1] == '/') {
      return scan_line_comment(s, i, end);
    } else {
      i++;
    }
  }
  return end;
}

static const char *const puncts3[] = {"<<=", ">>=", "->*", "...", "<=>", NULL};
static const char *const puncts2[] = {"::", "->", "++", "--", "<<", "<=", ">=", "==", "!=", "&&",
                                      "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*",
                                      "##", NULL};

/* Length of the punctuator at i. `>>` is never one token: inside templates it
 * closes two argument lists, and in `>>>` it ends a launch. */
static size_t punct_len(const char *s, size_t i, size_t end, int after_operator) {
  if (!after_operator && i + 2 < end && memcmp(s + i, "<<<", 3) == 0)
    return 3;
  for (int k = 0; puncts3[k]; k++)
    if (i + 2 < end && memcmp(s + i, puncts3[k], 3) == 0)
      return 3;
  for (int k = 0; puncts2[k]; k++)
    if (i + 1 < end && memcmp(s + i, puncts2[k], 2) == 0)
      return 2;
  return 1;
}

static int is_raw_prefix(const char *s, size_t b, size_t e) {
  static const char *const p[] = {"R", "u8R", "uR", "UR", "LR", NULL};

  for (int k = 0; p[k]; k++)
    if (strlen(p[k]) == e - b && memcmp(s + b, p[k], e - b) == 0)
      return 1;
  return 0;
}

static int is_str_prefix(const char *s, size_t b, size_t e) {
  static const char *const p[] = {"u8", "u", "U", "L", NULL};

  for (int k = 0; p[k]; k++)
    if (strlen(p[k]) == e - b && memcmp(s + b, p[k], e - b) == 0)
      return 1;
  return 0;
}

int ah_tok_is(const char *src, const struct ah_token *t, const char *s) {
  size_t n = strlen(s);

  return t->len == n && memcmp(src + t->off, s, n) == 0;
}

void ah_lex(const char *s, size_t begin, size_t end, int directives, struct ah_tokens *out) {
  size_t i = begin;
  int line_start = 1;

  out->n = 0;
  while (i < end) {
    unsigned char c = (unsigned char)s[i];
    size_t j = splice(s, i, end);

    if (j != i) {
      i = j;
      continue;
    }
    if (c == '\n') {
      line_start = 1;
      i++;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      i++;
      continue;
    }
    if (c == '/' && i + 1 < end && s[i + 1] == '*') {
      size_t from = i;

      i = scan_block_comment(s, i, end);
      if (i == end && (end - from < 4 || s[end - 2] != '*' || s[end - 1] != '/'))
        out->open_comment = from + 1;
      continue;
    }
    if (c == '/' && i + 1 < end && s[i + 1] == '/') {
      i = scan_line_comment(s, i, end);
      continue;
    }
    if (c == '#' && line_start && directives) {
      size_t e = scan_directive(s, i, end);

      push(out, AH_TOK_DIRECTIVE, i, e - i);
      i = e;
      continue;
    }
    line_start = 0;
    if (ident_start(c)) {
      size_t e = scan_ident(s, i, end);

      if (e < end && s[e] == '"' && is_raw_prefix(s, i, e)) {
        e = scan_ident(s, scan_raw(s, e, end), end);
        push(out, AH_TOK_STRING, i, e - i);
      } else if (e < end && (s[e] == '"' || s[e] == '\'') && is_str_prefix(s, i, e)) {
        enum ah_tok_kind k = s[e] == '"' ? AH_TOK_STRING : AH_TOK_CHAR;

        e = scan_ident(s, scan_quoted(s, e, end), end);
        push(out, k, i, e - i);
      } else {
        push(out, AH_TOK_IDENT, i, e - i);
      }
      i = e;
    } else if (is_digit(c) || (c == '.' && i + 1 < end && is_digit((unsigned char)s[i + 1]))) {
      size_t e = scan_number(s, i + 1, end);

      push(out, AH_TOK_NUMBER, i, e - i);
      i = e;
    } else if (c == '"' || c == '\'') {
      size_t e = scan_ident(s, scan_quoted(s, i, end), end);

      push(out, c == '"' ? AH_TOK_STRING : AH_TOK_CHAR, i, e - i);
      i = e;
    } else {
      int after_op = out->n > 0 && ah_tok_is(s, &out->t[out->n - 1], "operator");
      size_t n = punct_len(s, i, end, after_op);

      push(out, AH_TOK_PUNCT, i, n);
      i += n;
    }
  }
  push(out, AH_TOK_EOF, end, 0);
}

void ah_tokens_free(struct ah_tokens *toks) {
  free(toks->t);
  toks->t = NULL;
  toks->n = toks->cap = 0;
}
