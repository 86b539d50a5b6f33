/* SPDX-License-Identifier: MIT */
/* Source preparation, kernel launches: k<<<g, b[, shm[, stream]]>>>(args)
 * and hipLaunchKernelGGL(k, ...) found during the scan and rewritten once the
 * whole translation unit is known, into ::anyhip::detail::chevron calls, or
 * chevron_deduce with a picker when k is a template kernel launched without
 * template arguments (the deduction helpers declared after each template). */
#include "prepare_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ah_prep_stops_callee(const struct prep *p, const struct ah_token *t) {
  static const char *const kw[] = {"return", "else",     "case",      "do",     "throw",
                                   "new",    "delete",   "co_await",  "co_return", "sizeof",
                                   "typedef", "if",      "while",     "for",    "switch",
                                   "catch",  "co_yield", "goto",      NULL};

  for (int i = 0; kw[i]; i++)
    if (is(p, t, kw[i]))
      return 1;
  return 0;
}

/* First token of the kernel expression that ends just before toks[i] (the
 * `<<<`): a qualified name, a template-id, a member access, (k), f()... */
static size_t callee_start(const struct prep *p, const struct ah_tokens *ts, size_t i) {
  size_t j = i;

  for (;;) {
    const struct ah_token *t;

    if (j == 0)
      return j;
    t = &ts->t[j - 1];
    if (is_ident(t) && !ah_prep_stops_callee(p, t)) {
      j--;
    } else if (is(p, t, ">")) {
      size_t m = ah_prep_match_angle_back(p, ts, j - 1);

      if (m == (size_t)-1 || m == 0 || !is_ident(&ts->t[m - 1]))
        return j;
      j = m - 1; /* the template's name */
    } else if (is(p, t, ")") || is(p, t, "]")) {
      size_t m = ah_prep_match_back(p, ts, j - 1);

      if (m == (size_t)-1)
        return j;
      j = m;
      if (j > 0 && (is_ident(&ts->t[j - 1]) || is(p, &ts->t[j - 1], ">") ||
                    is(p, &ts->t[j - 1], "]")) &&
          !ah_prep_stops_callee(p, &ts->t[j - 1]))
        continue; /* a call or a subscript: keep the postfix expression */
      return j;
    } else {
      return j;
    }
    /* After a name: continue through `::`, `.`, `->`, `##` (inside macros), `template`. */
    if (j > 0 && (is(p, &ts->t[j - 1], "::") || is(p, &ts->t[j - 1], ".") ||
                  is(p, &ts->t[j - 1], "->") || is(p, &ts->t[j - 1], "##"))) {
      j--;
      if (j > 0 && is(p, &ts->t[j - 1], "template"))
        j--;
      continue;
    }
    return j;
  }
}

/* Only spaces and tabs (or nothing) between toks[k] and toks[k + 1]. */
static int only_blanks(const struct prep *p, const struct ah_tokens *ts, size_t k) {
  for (size_t i = ts->t[k].off + ts->t[k].len; i < ts->t[k + 1].off; i++)
    if (p->s[i] != ' ' && p->s[i] != '\t')
      return 0;
  return 1;
}

/* Number of `>` tokens in the run starting at toks[k]: adjacent ones, or
 * (spaced) only blanks between them, as `k<<<1, 1, 0, s> > >()`, which
 * compilers accept since `>>>` is no token to them either. */
static size_t gt_run(const struct prep *p, const struct ah_tokens *ts, size_t k) {
  size_t r = 0;

  while (k + r < ts->n && is(p, &ts->t[k + r], ">") &&
         (r == 0 || only_blanks(p, ts, k + r - 1)))
    r++;
  return r;
}

/* Counts the launch's configuration arguments in toks(a, b): commas outside
 * parentheses; with angles, commas inside `name<...>` are skipped too. */
static int count_args(const struct prep *p, const struct ah_tokens *ts, size_t a, size_t b,
                      int angles) {
  int n = 1, depth = 0;

  if (a + 1 >= b)
    return 0;
  for (size_t k = a + 1; k < b; k++) {
    const struct ah_token *t = &ts->t[k];

    if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{")) {
      depth++;
    } else if (is(p, t, ")") || is(p, t, "]") || is(p, t, "}")) {
      depth--;
    } else if (depth == 0 && is(p, t, ",")) {
      n++;
    } else if (angles && depth == 0 && is(p, t, "<") && is_ident(&ts->t[k - 1])) {
      int ad = 0, pd = 0;

      for (size_t m = k; m < b; m++) {
        const struct ah_token *u = &ts->t[m];

        if (is(p, u, "(") || is(p, u, "["))
          pd++;
        else if (is(p, u, ")") || is(p, u, "]"))
          pd--;
        else if (pd == 0 && is(p, u, "<"))
          ad++;
        else if (pd == 0 && is(p, u, ">") && --ad == 0) {
          k = m;
          break;
        }
      }
    }
  }
  return n;
}

/* toks[a, b) as a plain kernel name: `k`, `ns::k`, `::k`, also inside
 * parentheses or HIP_KERNEL_NAME(...). Sets *qual ("ns::", "::", "") and
 * *base ("k") and returns 1; 0 for any other expression (a template-id,
 * a member, a call). */
static int plain_name(const struct prep *p, const struct ah_tokens *ts, size_t a, size_t b,
                      char **qual, char **base, char **targs) {
  *targs = NULL;
  for (;;) {
    if (b - a >= 3 && is(p, &ts->t[a], "HIP_KERNEL_NAME") && is(p, &ts->t[a + 1], "(") &&
        ah_prep_match_fwd(p, ts, a + 1) == b - 1) {
      a += 2;
      b--;
    } else if (b - a >= 2 && is(p, &ts->t[a], "(") && ah_prep_match_fwd(p, ts, a) == b - 1) {
      a++;
      b--;
    } else {
      break;
    }
  }
  if (a >= b)
    return 0;
  if (b - a >= 3 && is(p, &ts->t[b - 1], ">")) {
    /* A template-id: k<T, N> (its arguments in *targs). */
    size_t m = ah_prep_match_angle_back(p, ts, b - 1);

    if (m == (size_t)-1 || m <= a || !is_ident(&ts->t[m - 1]))
      return 0;
    for (size_t k = a; k < m; k++) {
      const struct ah_token *t = &ts->t[k];
      int want_ident = ((k - a) % 2 == 0) != is(p, &ts->t[a], "::");

      if (want_ident ? !is_ident(t) || is(p, t, "template") || is(p, t, "operator")
                     : !is(p, t, "::"))
        return 0;
    }
    *targs = ah_prep_join_tokens(p, ts, m + 1, b - 1);
    b = m;
  }
  for (size_t k = a; k < b; k++) {
    const struct ah_token *t = &ts->t[k];
    int want_ident = ((k - a) % 2 == 0) != is(p, &ts->t[a], "::");

    if (want_ident ? !is_ident(t) || is(p, t, "template") || is(p, t, "operator")
                   : !is(p, t, "::"))
      return 0;
  }
  if (!is_ident(&ts->t[b - 1])) {
    free(*targs);
    *targs = NULL;
    return 0;
  }
  *qual = ah_prep_join_tokens(p, ts, a, b - 1);
  *base = ah_prep_join_tokens(p, ts, b - 1, b);
  return 1;
}

static struct launch *new_launch(struct prep *p) {
  struct launch *l;

  p->launches = grow_array(p->launches, &p->caplaunches, p->nlaunches + 1, sizeof(*p->launches));
  l = &p->launches[p->nlaunches++];
  memset(l, 0, sizeof(*l));
  return l;
}

/* Whether the unqualified name `base`, launched at toks[i] of the file's own
 * tokens, is declared inside the enclosing function (its parameters
 * included) before the launch: `template <typename K> void run(K kernel)
 * { kernel<<<1, 1>>>(); }` launches the parameter, not a kernel `kernel`.
 * A declaration is the name after a type-ish token (a name, `*`, `&`, `>`)
 * and before `,` `)` `=` `;` `{` `[` `:`. */
static int shadowed(const struct prep *p, size_t i, const char *base) {
  const struct ah_tokens *ts = &p->toks;
  size_t start = (size_t)-1, n = strlen(base);

  for (size_t k = 0; k < p->nscopes; k++) {
    if (p->scopes[k].kind == SC_OTHER) {
      start = p->scopes[k].decl;
      break;
    }
  }
  if (start == (size_t)-1)
    return 0;
  for (size_t k = start + 1; k + 1 < i; k++) {
    const struct ah_token *t = &ts->t[k], *prev = &ts->t[k - 1], *next = &ts->t[k + 1];

    if (!is_ident(t) || t->len != n || memcmp(p->s + t->off, base, n) != 0)
      continue;
    if (!((is_ident(prev) && !ah_prep_stops_callee(p, prev)) || is(p, prev, "*") ||
          is(p, prev, "&") || is(p, prev, "&&") || is(p, prev, ">")))
      continue;
    if (is(p, next, ",") || is(p, next, ")") || is(p, next, "=") || is(p, next, ";") ||
        is(p, next, "{") || is(p, next, "[") || is(p, next, ":"))
      return 1;
  }
  return 0;
}

/* Records the launch whose `<<<` is toks[i]. Returns the index to resume at. */
size_t ah_prep_chevron(struct prep *p, const struct ah_tokens *ts, size_t i) {
  size_t start = callee_start(p, ts, i), close = 0, k;
  int depth = 0, nargs;

  if (start == i) {
    ah_prep_error_at(p, ts->t[i].off, "expected a kernel name before '<<<'");
    return i + 1;
  }
  for (k = i + 1; k < ts->n; k++) {
    const struct ah_token *t = &ts->t[k];

    if (t->kind == AH_TOK_EOF || (depth == 0 && (is(p, t, ";") || is(p, t, "<<<")))) {
      ah_prep_error_at(p, ts->t[i].off, "unterminated kernel launch: expected '>>>' before '%.*s'",
                       t->kind == AH_TOK_EOF ? 11 : (int)t->len,
                       t->kind == AH_TOK_EOF ? "end of file" : p->s + t->off);
      return k;
    }
    if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{")) {
      depth++;
    } else if (is(p, t, ")") || is(p, t, "]") || is(p, t, "}")) {
      if (--depth < 0) {
        ah_prep_error_at(p, ts->t[i].off,
                         "unterminated kernel launch: expected '>>>' before '%.*s'", (int)t->len,
                         p->s + t->off);
        return k;
      }
    } else if (depth == 0 && is(p, t, ">")) {
      size_t r = gt_run(p, ts, k);

      if (r >= 3) {
        close = k + r - 3; /* extra '>' before the last three close template lists */
        break;
      }
      k += r - 1;
    }
  }
  nargs = count_args(p, ts, i, close, 0);
  if (nargs < 2 || nargs > 4)
    nargs = count_args(p, ts, i, close, 1);
  if (nargs < 2 || nargs > 4) {
    ah_prep_error_at(p, ts->t[i].off,
                     "a kernel launch takes 2 to 4 configuration arguments "
                     "(grid, block[, shared memory bytes[, stream]]), not %d",
                     nargs);
    return close + 3;
  }
  if (!is(p, &ts->t[close + 3], "(")) {
    ah_prep_error_at(p, ts->t[close + 2].off + 1,
                     "expected '(' with the kernel's arguments after '>>>'");
    return close + 3;
  }
  {
    struct launch *l = new_launch(p);

    l->start = ts->t[start].off;
    l->open = ts->t[i].off;
    l->close = ts->t[close].off;
    l->close_len = ts->t[close + 2].off + 1 - l->close;
    l->paren = ts->t[close + 3].off;
    l->no_args = is(p, &ts->t[close + 4], ")");
    if (!plain_name(p, ts, start, i, &l->qual, &l->base, &l->targs))
      l->qual = l->base = NULL;
    else if (ts == &p->toks && !*l->qual)
      l->local = shadowed(p, i, l->base);
  }
  return close + 3;
}

/* hipLaunchKernelGGL(k, grid, block, shm, stream, args...) at toks[i],
 * recorded when k is a plain name: if k turns out to be a template kernel
 * of this file, the call becomes a chevron_deduce launch (the header's
 * macro takes every other case). Commas split the macro's arguments as the
 * preprocessor splits them, outside parentheses only. */
void ah_prep_ggl_call(struct prep *p, const struct ah_tokens *ts, size_t i) {
  size_t comma[5], nc = 0, k;
  int depth = 0;
  char *qual, *base, *targs;
  struct launch *l;

  if (!is(p, &ts->t[i + 1], "("))
    return;
  for (k = i + 1; ts->t[k].kind != AH_TOK_EOF; k++) {
    if (is(p, &ts->t[k], "(")) {
      depth++;
    } else if (is(p, &ts->t[k], ")")) {
      if (--depth == 0)
        break;
    } else if (depth == 1 && is(p, &ts->t[k], ",")) {
      if (nc < 5)
        comma[nc] = k;
      nc++;
    }
  }
  if (ts->t[k].kind == AH_TOK_EOF || nc < 4 ||
      !plain_name(p, ts, i + 2, comma[0], &qual, &base, &targs))
    return;
  l = new_launch(p);
  l->ggl = 1;
  l->start = ts->t[i].off;
  l->open = ts->t[comma[0]].off;
  l->no_args = nc == 4;
  l->close = ts->t[l->no_args ? k : comma[4]].off;
  l->qual = qual;
  l->base = base;
  l->targs = targs;
  if (ts == &p->toks && !*qual)
    l->local = shadowed(p, i, base);
}

/* The template parameter list toks(lt, gt) as the deduction declaration
 * repeats it (*hdr: every parameter named, defaults kept) and as the
 * kernel's template argument list (*args: `T, N, Ts...`). Unnamed
 * parameters (`typename = enable_if_t<...>`, `int`) get a name. Returns 0
 * for an empty list (`template <>`). */
static int template_params(const struct prep *p, size_t lt, size_t gt, char **hdr, char **args,
                           int *required) {
  const struct ah_tokens *ts = &p->toks;
  size_t s = lt + 1;
  int depth = 0, n = 0;

  *required = 0;
  if (s >= gt)
    return 0;
  *hdr = ah_xstrdup("");
  *args = ah_xstrdup("");
  for (size_t k = s; k <= gt; k++) {
    const struct ah_token *t = &ts->t[k];
    size_t e = k;
    int pack = 0, d = 0;
    char *item, *name, *h, *a;

    if (k < gt) {
      if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{"))
        k = ah_prep_match_fwd(p, ts, k);
      else if (is(p, t, "<") && is_ident(&ts->t[k - 1]))
        depth++;
      else if (is(p, t, ">"))
        depth--;
      if (k < gt && !(depth == 0 && is(p, t, ",")))
        continue;
    }
    /* One parameter, toks[s, k); its declaration ends at a `=` (a default). */
    for (size_t j = s; j < k; j++) {
      const struct ah_token *u = &ts->t[j];

      if (is(p, u, "(") || is(p, u, "[") || is(p, u, "{")) {
        j = ah_prep_match_fwd(p, ts, j);
      } else if (is(p, u, "<") && j > s && is_ident(&ts->t[j - 1])) {
        d++;
      } else if (is(p, u, ">")) {
        d--;
      } else if (d == 0 && is(p, u, "...")) {
        pack = 1;
      } else if (d == 0 && is(p, u, "=")) {
        e = j;
        break;
      }
    }
    if (e == s)
      return 0;
    *required += e == k && !pack;
    if (e - s >= 2 && is_ident(&ts->t[e - 1]) && !ah_prep_is_type_keyword(p, &ts->t[e - 1]) &&
        !is(p, &ts->t[e - 2], "::")) {
      item = ah_prep_join_tokens(p, ts, s, k);
      name = ah_prep_join_tokens(p, ts, e - 1, e);
    } else {
      char *decl = ah_prep_join_tokens(p, ts, s, e), *dflt = ah_prep_join_tokens(p, ts, e, k);

      name = ah_xasprintf("__ah_tp%d", n);
      item = ah_xasprintf("%s %s%s%s", decl, name, *dflt ? " " : "", dflt);
      free(decl);
      free(dflt);
    }
    h = ah_xasprintf("%s%s%s", *hdr, n ? ", " : "", item);
    a = ah_xasprintf("%s%s%s%s", *args, n ? ", " : "", name, pack ? "..." : "");
    free(*hdr);
    free(*args);
    free(item);
    free(name);
    *hdr = h;
    *args = a;
    n++;
    s = k + 1;
  }
  return 1;
}

/* The declaration that lets a launch deduce a template kernel's arguments
 * as a call would: for
 *   template <typename T> __global__ void k(const T *in, T *out, int n)
 * it is
 *   template <typename T> auto __ah_deduce_k(const T *in, T *out, int n)
 *       -> decltype(&k<T>);
 * so decltype(__ah_deduce_k(args...)) is the type of the specialisation
 * that k(args...) would call (see chevron_deduce in launch.hpp). Never
 * defined: it only appears in decltype. Set on the kernel record kr, for a
 * primary template declared by its unqualified name, toks[a, b) being the
 * declaration up to its `{` or `;`; added to the output only when a launch
 * uses it. */
void ah_prep_deduce_helper(struct prep *p, struct kernel *kr, size_t a, size_t b, size_t name) {
  const struct ah_tokens *ts = &p->toks;
  size_t lt = (size_t)-1, gt, end;
  char *hdr, *args;

  for (size_t k = a; k + 1 < name; k++) {
    if (is(p, &ts->t[k], "template") && is(p, &ts->t[k + 1], "<")) {
      lt = k + 1;
      break;
    }
  }
  if (lt == (size_t)-1)
    return;
  gt = ah_prep_match_angle_fwd(p, ts, lt, name);
  if (gt == (size_t)-1 || !template_params(p, lt, gt, &hdr, &args, &kr->tp_required))
    return;
  end = kr->is_def ? ah_prep_match_fwd(p, ts, b) : b;
  if (ts->t[end].kind != AH_TOK_EOF) {
    /* The exact type (not decltype(&k<...>)): several templates of one name
     * make &k<...> an overload set. */
    kr->helper = ah_xasprintf(" template <%s> auto __ah_deduce_%s(%s) -> void (*)(%s);", hdr,
                              kr->name, kr->params, kr->params_nodef);
    kr->helper_off = ts->t[end].off + ts->t[end].len;
  }
  free(hdr);
  free(args);
}

/* The last component of a kernel's qualified key, and the length before it. */
const char *ah_prep_key_base(const char *key, size_t *nslen) {
  const char *b = key;

  for (const char *c = key; (c = strstr(c, "::")) != NULL; c += 2)
    b = c + 2;
  *nslen = (size_t)(b - key);
  return b;
}

/* Whether a launch of the plain name `base` goes through chevron_deduce: a
 * template kernel of that name was declared in this file (with a deduction
 * declaration), and every non-template kernel of that name sits in a
 * namespace that has such a template too (an overload set, where deduction
 * picks the right one), not in another namespace where the launch may mean
 * only the non-template. */
static int deducible(const struct prep *p, const char *base) {
  int found = 0;

  for (size_t i = 0; i < p->cx->nkernels; i++) {
    size_t nl;
    const char *b = ah_prep_key_base(p->cx->kernels[i].key, &nl);

    found |= p->cx->kernels[i].helper != NULL && strcmp(b, base) == 0;
  }
  if (!found)
    return 0;
  for (size_t i = 0; i < p->cx->nkernels; i++) {
    const struct kernel *k = &p->cx->kernels[i];
    size_t nl, ml;
    const char *b = ah_prep_key_base(k->key, &nl);
    int same = 0;

    if (k->is_template || strcmp(b, base) != 0)
      continue;
    for (size_t j = 0; j < p->cx->nkernels && !same; j++) {
      const struct kernel *t = &p->cx->kernels[j];
      const char *tb = ah_prep_key_base(t->key, &ml);

      same = t->helper != NULL && strcmp(tb, base) == 0 && ml == nl &&
             memcmp(t->key, k->key, nl) == 0;
    }
    if (!same)
      return 0;
  }
  return 1;
}

/* The lambda a deducing launch passes first: its return type is the
 * specialisation's pointer type, and it returns the kernel converted to it. */
static char *picker(const struct launch *l) {
  const char *lt = l->targs ? "<" : "", *ta = l->targs ? l->targs : "", *gt = l->targs ? ">" : "";

  return ah_xasprintf("[](auto &&...__ah_a) -> decltype(%s__ah_deduce_%s%s%s%s(static_cast<"
                      "decltype(__ah_a) &&>(__ah_a)...)) { return %s%s%s%s%s; }",
                      l->qual, l->base, lt, ta, gt, l->qual, l->base, lt, ta, gt);
}

/* Top-level arguments in a template argument list's text. */
static int count_targs(const char *s) {
  int n = *s ? 1 : 0, depth = 0;

  for (; *s; s++) {
    if (*s == '(' || *s == '[' || *s == '{' || *s == '<')
      depth++;
    else if (*s == ')' || *s == ']' || *s == '}' || *s == '>')
      depth--;
    else if (*s == ',' && depth == 0)
      n++;
  }
  return n;
}

/* Whether a launch of k<targs> goes through chevron_deduce: k names several
 * template kernels (hip-tests' TestKernel<T, op, shm, scope> of two arities
 * of function parameters), where k<targs> is an overload set that only the
 * arguments resolve, or targs leaves parameters to deduce
 * (f<global_memory><<<...>>>(p, n)). A fully explicit k<targs> of one
 * template stays a chevron (its arguments convert as in a call). */
static int explicit_deducible(const struct prep *p, const struct launch *l) {
  const struct kernel *first = NULL;
  int required = 1 << 30, several = 0;

  for (size_t i = 0; i < p->cx->nkernels; i++) {
    const struct kernel *k = &p->cx->kernels[i];
    size_t nl;

    if (k->helper == NULL || strcmp(ah_prep_key_base(k->key, &nl), l->base) != 0)
      continue;
    if (first == NULL)
      first = k;
    else if (strcmp(first->params_nodef, k->params_nodef) != 0 ||
             first->tp_required != k->tp_required)
      several = 1;
    if (k->tp_required < required)
      required = k->tp_required;
  }
  return first != NULL && (several || count_targs(l->targs) < required);
}

/* Whether `base` is also the name of a namespace-scope host function (a
 * launch of it names an overload set that chevron cannot take). */
int ah_prep_host_function(const struct ctx *cx, const char *base) {
  for (size_t i = 0; i < cx->host_fns.n; i++)
    if (strcmp(cx->host_fns.v[i], base) == 0)
      return 1;
  return 0;
}

/* The only non-template kernel named `base`, or NULL (none, or overloads
 * with different parameters). */
static const struct kernel *single_kernel(const struct ctx *cx, const char *base) {
  const struct kernel *found = NULL;

  for (size_t i = 0; i < cx->nkernels; i++) {
    const struct kernel *k = &cx->kernels[i];
    size_t nl;

    if (strcmp(ah_prep_key_base(k->key, &nl), base) != 0)
      continue;
    if (k->is_template || (found && strcmp(found->params_nodef, k->params_nodef) != 0))
      return NULL;
    found = k;
  }
  return found;
}

/* Turns the recorded launches into edits, and adds the deduction
 * declarations that the deducing ones use. */
void ah_prep_rewrite_launches(struct prep *p) {
  for (size_t i = 0; i < p->nlaunches; i++) {
    const struct launch *l = &p->launches[i];
    char *pick, *head;
    size_t nl;

    if (!l->ggl && p->cx->target != AH_TARGET_CPU) {
      /* nvcc keeps chevrons (and deduces itself), but only spelled `>>>`. */
      if (l->close_len != 3)
        add_edit(p, l->close, l->close_len, ah_xstrdup(">>>"));
      continue;
    }
    if (l->base == NULL || l->local ||
        !(l->targs ? explicit_deducible(p, l) : deducible(p, l->base))) {
      const struct kernel *k1;

      if (!l->ggl && l->base && !l->targs && !l->local && ah_prep_host_function(p->cx, l->base) &&
          (k1 = single_kernel(p->cx, l->base)) != NULL) {
        /* A host function of the kernel's name: the cast picks the kernel. */
        add_edit(p, l->start, 0,
                 ah_xasprintf("::anyhip::detail::chevron(static_cast<void (*)(%s)>(",
                              k1->params_nodef));
        add_edit(p, l->open, 3, ah_xstrdup("), "));
        add_edit(p, l->close, l->close_len, ah_xstrdup(")"));
        continue;
      }
      if (!l->ggl) {
        add_edit(p, l->start, 0, ah_xstrdup("::anyhip::detail::chevron("));
        add_edit(p, l->open, 3, ah_xstrdup(", "));
        add_edit(p, l->close, l->close_len, ah_xstrdup(")"));
      }
      continue;
    }
    for (size_t k = 0; k < p->cx->nkernels; k++) {
      struct kernel *kr = &p->cx->kernels[k];
      size_t ml;

      if (kr->helper != NULL && strcmp(ah_prep_key_base(kr->key, &ml), l->base) == 0)
        kr->helper_used = 1;
    }
    /* The kernel's name moves behind the configuration; its lines stay. */
    nl = ah_prep_count_newlines(p, l->start, l->open);
    if (p->cx->target != AH_TARGET_CPU) {
      /* nvcc deduces a chevron's template arguments itself. */
      head = ah_xasprintf("%s%s%s%s%s<<<%*s", l->qual, l->base, l->targs ? "<" : "",
                          l->targs ? l->targs : "", l->targs ? ">" : "", (int)nl, "");
      memset(head + strlen(head) - nl, '\n', nl);
      add_edit(p, l->start, l->open + 1 - l->start, head);
      add_edit(p, l->close, 1, ah_xstrdup(l->no_args ? ">>>()" : ">>>("));
      continue;
    }
    head = ah_xasprintf("::anyhip::detail::chevron_deduce(%*s", (int)nl, "");
    memset(head + strlen(head) - nl, '\n', nl);
    pick = picker(l);
    if (l->ggl) {
      add_edit(p, l->start, l->open + 1 - l->start, head);
      if (l->no_args)
        add_edit(p, l->close, 0, ah_xasprintf(")(%s", pick));
      else
        add_edit(p, l->close, 1, ah_xasprintf(")(%s,", pick));
    } else {
      add_edit(p, l->start, l->open + 3 - l->start, head);
      add_edit(p, l->close, l->close_len, ah_xstrdup(")"));
      add_edit(p, l->paren + 1, 0, ah_xasprintf("%s%s", pick, l->no_args ? "" : ", "));
    }
    free(pick);
  }
}

/* The deduction declarations that launches use, each after its kernel's
 * declaration, in the file that has it. */
void ah_prep_add_helpers(struct ctx *cx) {
  for (size_t k = 0; k < cx->nkernels; k++)
    if (cx->kernels[k].helper_used && cx->target == AH_TARGET_CPU)
      add_edit(cx->kernels[k].owner, cx->kernels[k].helper_off, 0,
               ah_xstrdup(cx->kernels[k].helper));
}
