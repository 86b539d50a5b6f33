/* SPDX-License-Identifier: MIT */
/* The C++ tokenizer hipcc's source preparation runs on. It splits a buffer
 * into identifiers, numbers, string and character literals (prefixes, raw
 * strings, user-defined suffixes), punctuators and whole preprocessor lines;
 * comments and whitespace are skipped, and tokens keep their byte offsets so
 * that preparation can splice the original text without retyping it. */
#ifndef AH_HIPCC_LEX_H
#define AH_HIPCC_LEX_H

#include <stddef.h>

enum ah_tok_kind {
  AH_TOK_IDENT,
  AH_TOK_NUMBER,
  AH_TOK_STRING,
  AH_TOK_CHAR,
  AH_TOK_PUNCT,
  AH_TOK_DIRECTIVE, /* "#..." up to the end of its logical line, newline excluded */
  AH_TOK_EOF,
};

struct ah_token {
  enum ah_tok_kind kind;
  size_t off, len;
};

struct ah_tokens {
  struct ah_token *t;
  size_t n, cap;
  size_t open_comment; /* 1 + offset of a block comment that never ends, else 0 */
};

/* Tokenizes src[begin, end). directives: recognise '#' at the start of a
 * line as a preprocessor line (off for the body of a #define). The result
 * always ends with an AH_TOK_EOF token at `end`. */
void ah_lex(const char *src, size_t begin, size_t end, int directives, struct ah_tokens *out);
void ah_tokens_free(struct ah_tokens *toks);

/* 1 when token t spells exactly s. */
int ah_tok_is(const char *src, const struct ah_token *t, const char *s);

#endif
