/* SPDX-License-Identifier: MIT */
/* Source preparation, scopes and directives: the namespaces and extern "C"
 * blocks the scan is in, the #if chains open at each point (registrations are
 * repeated under them), #define bodies (launches in macros), include guards,
 * #include lines handed to prepare_headers.c, and #if 0 blocks left alone. */
#define _GNU_SOURCE /* memmem */
#include "prepare_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ah_prep_at_namespace_scope(const struct prep *p) {
  for (size_t i = 0; i < p->nscopes; i++)
    if (p->scopes[i].kind == SC_OTHER)
      return 0;
  return 1;
}

void ah_prep_push_scope(struct prep *p, enum scope_kind kind, struct ns_comp *comps, size_t n) {
  p->scopes = grow_array(p->scopes, &p->capscopes, p->nscopes + 1, sizeof(*p->scopes));
  p->scopes[p->nscopes++] = (struct scope){.kind = kind, .comps = comps, .ncomps = n};
}

void ah_prep_pop_scope(struct prep *p) {
  if (p->nscopes == 0)
    return; /* unbalanced '}': the compiler will say so */
  p->nscopes--;
  for (size_t i = 0; i < p->scopes[p->nscopes].ncomps; i++)
    free(p->scopes[p->nscopes].comps[i].name);
  free(p->scopes[p->nscopes].comps);
}

/* `inline? namespace name-or-nothing attrs? {` over toks[a, b): fills comps. */
int ah_prep_parse_namespace(const struct prep *p, size_t a, size_t b, struct ns_comp **out,
                            size_t *nout) {
  const struct ah_tokens *ts = &p->toks;
  int is_inline = 0;
  struct ns_comp *comps = NULL;
  size_t n = 0, cap = 0;

  while (a < b && ts->t[a].kind == AH_TOK_DIRECTIVE)
    a++;
  if (a < b && is(p, &ts->t[a], "inline")) {
    is_inline = 1;
    a++;
  }
  if (a >= b || !is(p, &ts->t[a], "namespace"))
    return 0;
  for (a++; a < b;) {
    size_t k = ah_prep_skip_attribute(p, ts, a);

    if (k != a) {
      a = k;
    } else if (is(p, &ts->t[a], "::")) {
      a++;
    } else if (is(p, &ts->t[a], "inline")) {
      is_inline = 1;
      a++;
    } else if (is_ident(&ts->t[a])) {
      comps = grow_array(comps, &cap, n + 1, sizeof(*comps));
      comps[n].name = ah_xasprintf("%.*s", (int)ts->t[a].len, p->s + ts->t[a].off);
      comps[n].is_inline = is_inline;
      is_inline = 0;
      n++;
      a++;
    } else {
      for (size_t i = 0; i < n; i++)
        free(comps[i].name);
      free(comps);
      return 0; /* `namespace x = y;` never gets here; anything else is not ours */
    }
  }
  if (n == 0) {
    comps = grow_array(comps, &cap, 1, sizeof(*comps));
    comps[0] = (struct ns_comp){.name = NULL, .is_inline = is_inline};
    n = 1;
  }
  *out = comps;
  *nout = n;
  return 1;
}

/* The namespaces open at this point, outermost first, into *ns; returns
 * their qualifier ("a::b::", "(anonymous)::"). */
char *ah_prep_current_namespaces(const struct prep *p, struct ns_comp **ns, size_t *nns) {
  char *qual = ah_xstrdup("");
  size_t cap = 0;

  *ns = NULL;
  *nns = 0;
  for (size_t i = 0; i < p->nscopes; i++) {
    for (size_t c = 0; c < p->scopes[i].ncomps; c++) {
      const struct ns_comp *nc = &p->scopes[i].comps[c];
      char *q;

      *ns = grow_array(*ns, &cap, *nns + 1, sizeof(**ns));
      (*ns)[*nns].name = nc->name ? ah_xstrdup(nc->name) : NULL;
      (*ns)[*nns].is_inline = nc->is_inline;
      (*nns)++;
      q = ah_xasprintf("%s%s::", qual, nc->name ? nc->name : "(anonymous)");
      free(qual);
      qual = q;
    }
  }
  return qual;
}

/* The #if chains open at this point (include guards left out), one string
 * per level, for a registration to repeat. */
void ah_prep_current_conds(const struct prep *p, struct ah_strv *out) {
  for (size_t i = 0; i < p->nconds; i++) {
    struct ah_strv *c = &p->conds[i].chain;
    size_t n = 0;
    char *s, *o;

    if (p->conds[i].guard)
      continue;
    for (size_t j = 0; j < c->n; j++)
      n += strlen(c->v[j]) + 1;
    o = s = ah_xmalloc(n + 1);
    for (size_t j = 0; j < c->n; j++)
      o += sprintf(o, "%s\n", c->v[j]);
    *o = '\0';
    ah_strv_push(out, s);
    free(s);
  }
}

/* The directive's name ("if", "define", ...) into buf; returns the offset after it. */
static size_t directive_name(const struct prep *p, const struct ah_token *t, char *buf,
                             size_t cap) {
  size_t i = t->off + 1, end = t->off + t->len, n = 0;

  while (i < end && (p->s[i] == ' ' || p->s[i] == '\t'))
    i++;
  while (i < end && n + 1 < cap &&
         ((p->s[i] >= 'a' && p->s[i] <= 'z') || (p->s[i] >= 'A' && p->s[i] <= 'Z') ||
          p->s[i] == '_'))
    buf[n++] = p->s[i++];
  buf[n] = '\0';
  return i;
}

/* `#if 0` exactly (what people use to comment code out). */
static int is_if0(const struct prep *p, const struct ah_token *t, size_t after) {
  size_t i = after, end = t->off + t->len;

  while (i < end && (p->s[i] == ' ' || p->s[i] == '\t'))
    i++;
  if (i >= end || p->s[i] != '0')
    return 0;
  for (i++; i < end && (p->s[i] == ' ' || p->s[i] == '\t' || p->s[i] == '\r'); i++)
    ;
  return i == end || p->s[i] == '/';
}

/* Rewrites launches and extern __shared__ inside a #define body, and
 * registers the kernels it defines (for the NVIDIA target only a
 * hipLaunchKernelGGL of a template kernel). */
static void define_body(struct prep *p, const struct ah_token *t, size_t after) {
  size_t i = after, end = t->off + t->len;
  struct ah_tokens sub = {0};

  while (i < end && (p->s[i] == ' ' || p->s[i] == '\t'))
    i++;
  while (i < end && ((p->s[i] >= 'a' && p->s[i] <= 'z') || (p->s[i] >= 'A' && p->s[i] <= 'Z') ||
                     (p->s[i] >= '0' && p->s[i] <= '9') || p->s[i] == '_'))
    i++;
  if (i < end && p->s[i] == '(') { /* function-like: skip the parameters */
    while (i < end && p->s[i] != ')')
      i++;
    i++;
  }
  if (i >= end || (memmem(p->s + i, end - i, "<<<", 3) == NULL &&
                   memmem(p->s + i, end - i, "__shared__", 10) == NULL &&
                   memmem(p->s + i, end - i, "__global__", 10) == NULL &&
                   memmem(p->s + i, end - i, "hipLaunchKernelGGL", 18) == NULL))
    return;
  ah_lex(p->s, i, end, 0, &sub);
  for (size_t k = 0; k < sub.n; k++) {
    if (is(p, &sub.t[k], "hipLaunchKernelGGL"))
      ah_prep_ggl_call(p, &sub, k);
    else if (p->cx->target != AH_TARGET_CPU)
      continue;
    else if (is(p, &sub.t[k], "<<<"))
      k = ah_prep_chevron(p, &sub, k) - 1;
    else if (is(p, &sub.t[k], "extern"))
      k = ah_prep_extern_shared(p, &sub, k, 1, NULL) - 1;
    else if (is(p, &sub.t[k], "__global__"))
      k = ah_prep_macro_kernel(p, &sub, k) - 1;
  }
  ah_tokens_free(&sub);
}

/* The identifier starting at s (after blanks); its length in *n. */
static const char *word_at(const char *s, const char *end, size_t *n) {
  const char *w;

  while (s < end && (*s == ' ' || *s == '\t'))
    s++;
  w = s;
  while (s < end && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                     (*s >= '0' && *s <= '9') || *s == '_'))
    s++;
  *n = (size_t)(s - w);
  return w;
}

/* `#define X` right under `#ifndef X`: an include guard. */
static int is_guard(const struct prep *p, const char *ifndef, const struct ah_token *def,
                    size_t after) {
  const char *e1 = ifndef + strlen(ifndef), *w1, *w2, *kw;
  size_t n1, n2, nk;

  kw = word_at(ifndef + 1, e1, &nk);
  if (nk != 6 || memcmp(kw, "ifndef", 6) != 0)
    return 0;
  w1 = word_at(kw + nk, e1, &n1);
  w2 = word_at(p->s + after, p->s + def->off + def->len, &n2);
  return n1 > 0 && n1 == n2 && memcmp(w1, w2, n1) == 0;
}

/* Keeps the #if chains current (the branches a registration must repeat). */
void ah_prep_directive(struct prep *p, const struct ah_token *t) {
  char name[16], *text;
  size_t after = directive_name(p, t, name, sizeof(name));
  struct cond *top = p->nconds ? &p->conds[p->nconds - 1] : NULL;

  text = ah_xasprintf("%.*s", (int)t->len, p->s + t->off);
  if (strcmp(name, "if") == 0 || strcmp(name, "ifdef") == 0 || strcmp(name, "ifndef") == 0) {
    p->conds = grow_array(p->conds, &p->capconds, p->nconds + 1, sizeof(*p->conds));
    memset(&p->conds[p->nconds], 0, sizeof(*p->conds));
    ah_strv_push(&p->conds[p->nconds].chain, text);
    p->conds[p->nconds].nscopes = p->nscopes;
    p->nconds++;
  } else if (top && (strcmp(name, "elif") == 0 || strcmp(name, "else") == 0 ||
                     strcmp(name, "elifdef") == 0 || strcmp(name, "elifndef") == 0)) {
    ah_strv_push(&top->chain, text);
    /* Only one branch is compiled: a branch that opened braces (two
     * spellings of one function's head, `#if A f(x) { #else f(y) { #endif`)
     * must not leave them open for the next one to open again. */
    while (p->nscopes > top->nscopes)
      ah_prep_pop_scope(p);
  } else if (top && strcmp(name, "endif") == 0) {
    ah_strv_free(&top->chain);
    p->nconds--;
  } else if (strcmp(name, "define") == 0) {
    if (top && top->chain.n == 1 && is_guard(p, top->chain.v[0], t, after))
      top->guard = 1;
    define_body(p, t, after);
  } else if (strcmp(name, "include") == 0 && p->cx->headers != NULL) {
    ah_prep_include_header(p, t, after);
  }
  free(text);
}

/* Removes the tokens of `#if 0` branches (and their nested directives), so
 * that code commented out that way, balanced or not, is never looked at. */
void ah_prep_drop_dead(struct prep *p) {
  struct level {
    int dead, parent;
  } *lv = NULL;
  size_t nlv = 0, caplv = 0, w = 0;
  struct ah_tokens *ts = &p->toks;

  for (size_t i = 0; i < ts->n; i++) {
    struct ah_token *t = &ts->t[i];
    int cur = nlv ? lv[nlv - 1].dead : 0, keep = !cur;

    if (t->kind == AH_TOK_DIRECTIVE) {
      char name[16];
      size_t after = directive_name(p, t, name, sizeof(name));

      if (strcmp(name, "if") == 0 || strcmp(name, "ifdef") == 0 || strcmp(name, "ifndef") == 0) {
        lv = grow_array(lv, &caplv, nlv + 1, sizeof(*lv));
        lv[nlv].parent = cur;
        lv[nlv].dead = cur || (strcmp(name, "if") == 0 && is_if0(p, t, after));
        nlv++;
      } else if (nlv && (strcmp(name, "elif") == 0 || strcmp(name, "else") == 0 ||
                         strcmp(name, "elifdef") == 0 || strcmp(name, "elifndef") == 0)) {
        keep = !lv[nlv - 1].parent;
        lv[nlv - 1].dead = lv[nlv - 1].parent || (strcmp(name, "elif") == 0 && is_if0(p, t, after));
      } else if (nlv && strcmp(name, "endif") == 0) {
        keep = !lv[nlv - 1].parent;
        nlv--;
      }
    }
    if (keep || t->kind == AH_TOK_EOF)
      ts->t[w++] = *t;
  }
  ts->n = w;
  free(lv);
}
