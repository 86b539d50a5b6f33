/* SPDX-License-Identifier: MIT */
/* Source preparation: turns a HIP source into C++ the host compiler accepts,
 * by splicing the original text at token boundaries found by lex.c.
 *   - k<<<g, b[, shm[, stream]]>>>(args) becomes
 *     ::anyhip::detail::chevron(k, g, b[, shm[, stream]])(args), also inside
 *     #define bodies; when k names a template kernel of this file without
 *     template arguments, ::anyhip::detail::chevron_deduce(g, b...)(pick,
 *     args), and the same for hipLaunchKernelGGL(k, ...), where pick finds
 *     the specialisation through a declaration added after the kernel's;
 *   - extern __shared__ T name[]; becomes a pointer to the launch's dynamic
 *     shared buffer (a #define at namespace scope);
 *   - every non-template __global__ function and every __device__,
 *     __constant__ and __managed__ variable defined at namespace scope is
 *     registered at the end of the file, under the same #if conditions and
 *     inside the same namespaces as its definition.
 *   - a template kernel's specialisation used by address, (const void *)k<T>,
 *     becomes ::anyhip::detail::registered(k<T>), which registers it; a
 *     template kernel's bare name given to the occupancy templates with the
 *     pointer type, ::anyhip::detail::kernel_ref(lambda), which picks and
 *     registers the specialisation that type names;
 *   - the user headers the source includes are prepared as well (one
 *     translation unit's files share what is known of kernels), each that
 *     changes written to a mirror directory that its #include lines name;
 *     their device variables become static (one copy per translation unit).
 * For the NVIDIA target only hipLaunchKernelGGL of a template kernel changes
 * (into a chevron, which nvcc deduces), and spaced chevrons `> > >`.
 * Line numbers are kept (a #line at the top, newlines preserved by every
 * rewrite), so the compiler's messages point at the user's file. */
#define _GNU_SOURCE /* memmem */
#include "hipcc.h"
#include "lex.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct prep;

struct edit {
  size_t off, del, seq;
  char *ins;
};

enum scope_kind { SC_NS, SC_LINKAGE, SC_OTHER };

struct ns_comp {
  char *name; /* NULL: anonymous */
  int is_inline;
};

struct scope {
  enum scope_kind kind;
  struct ns_comp *comps; /* SC_NS: `namespace a::b {` has two */
  size_t ncomps;
  size_t decl;           /* the enclosing declaration's state when the brace opened */
  int paren;
  int c_linkage;         /* SC_LINKAGE: extern "C" */
};

/* One #if chain that is open: the directives of its branches seen so far. */
struct cond {
  struct ah_strv chain;
  int guard; /* an include guard (#ifndef X / #define X): not a condition to repeat */
  size_t nscopes; /* scope depth at the #if: each branch starts from it (directive) */
};

struct kernel {
  struct prep *owner; /* the file that declares it */
  struct ns_comp *ns; /* enclosing namespaces, outermost first */
  size_t nns;
  char *name;        /* as written at the definition (may be qualified) */
  char *key;         /* fully qualified, for grouping overloads */
  char *params;      /* parameter list, token texts joined */
  char *params_nodef; /* the same without default arguments (for a function type) */
  int has_default;   /* a parameter has a default argument */
  int is_template;
  int is_def;
  size_t line;
  struct ah_strv conds; /* one string per open #if level: its chain */
  char *helper;         /* a primary template: its deduction declaration (see deduce_helper) */
  size_t helper_off;    /* where that goes: right after the kernel's declaration */
  int helper_used;
  int tp_required;      /* a template's parameters without a default, packs left out */
  char *bounds;         /* __launch_bounds__'s first argument (max threads), or NULL */
};

/* A namespace-scope __device__, __constant__ or __managed__ variable. */
struct var {
  struct prep *owner;
  struct ns_comp *ns; /* enclosing namespaces, outermost first */
  size_t nns;
  char *name;
  char *mangled; /* its symbol, as the compiler names it (what the ELF tables say) */
  int managed;   /* __managed__: registered as managed memory too */
  size_t line;
  struct ah_strv conds;
};

/* A launch, rewritten once the whole file is known: whether its kernel is a
 * template of this file is only known then (a launch in a #define may come
 * before the kernel). Offsets into the source. */
struct launch {
  int ggl;       /* hipLaunchKernelGGL(k, ...) rather than k<<<...>>>(...) */
  size_t start;  /* the kernel expression; ggl: the macro's name */
  size_t open;   /* `<<<`; ggl: the comma after k */
  size_t close;  /* `>>>`; ggl: the comma after the stream, or the closing ')' */
  size_t close_len; /* chevron: the bytes of `>>>`, or of `> > >` */
  size_t paren;  /* `(` of the kernel's arguments (chevron) */
  int no_args;   /* no kernel arguments */
  char *qual;    /* a plain kernel name (`ns::k`, `::k`, `k`): "ns::", "::" or "" */
  char *base;    /* ... and "k"; NULL when the kernel is some other expression */
  int local;     /* base is unqualified and declared in the enclosing function (a parameter) */
  char *targs;   /* k<targs>: the explicit template arguments, or NULL */
};

/* An #include of a user header that was prepared too: the directive, and
 * the header's record. */
struct incl {
  size_t off, len;
  struct prep *child;
};

/* One translation unit: the source and the user headers it includes (those
 * reached through quotes, or through <> and a -I directory), which share
 * what is known of kernels and variables. */
struct ctx {
  enum ah_target target;
  char *headers;            /* absolute root of the prepared headers' mirror, or NULL */
  struct ah_strv quote_dirs; /* -iquote, then -I: for "x.h" after the includer's directory */
  struct ah_strv dirs;       /* -I: for <x.h> */
  struct prep **files;      /* the source first, then each header once */
  size_t nfiles, capfiles;
  struct prep **order;      /* as their scans ended: a header before its includers */
  size_t norder, caporder;
  struct kernel *kernels;
  size_t nkernels, capkernels;
  struct var *vars;
  size_t nvars, capvars;
  struct ah_strv host_fns; /* names of namespace-scope functions that are not kernels */
  int errors;
};

/* One file being prepared. */
struct prep {
  struct ctx *cx;
  const char *file; /* as the compiler names it in messages */
  char *path;       /* its name as found; real: its canonical name */
  char *real;
  char *qfile;      /* file, quoted for a #line */
  char *text;       /* owned: what s points at */
  int is_header;
  int mirrored;     /* a header whose prepared copy is written (it changed) */
  char *mirror;     /* that copy's name */
  struct incl *incs;
  size_t nincs, capincs;
  const char *s;
  size_t len;
  size_t *lines;
  size_t nlines;
  struct ah_tokens toks;
  struct edit *edits;
  size_t nedits, capedits;
  struct scope *scopes;
  size_t nscopes, capscopes;
  struct cond *conds;
  size_t nconds, capconds;
  struct launch *launches;
  size_t nlaunches, caplaunches;
};

static void *grow_array(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return p;
  *cap = *cap ? *cap * 2 : 16;
  if (*cap < need)
    *cap = need;
  p = realloc(p, *cap * elem);
  if (p == NULL) {
    fputs("hipcc: error: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

/* ---- positions and diagnostics ----------------------------------------- */

static void index_lines(struct prep *p) {
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

static size_t line_of(const struct prep *p, size_t off) {
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
static void error_at(struct prep *p, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(struct prep *p, size_t off, const char *fmt, ...) {
  size_t line = line_of(p, off), start = p->lines[line - 1], end = start, col;
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

static void add_edit(struct prep *p, size_t off, size_t del, char *ins) {
  p->edits = grow_array(p->edits, &p->capedits, p->nedits + 1, sizeof(*p->edits));
  p->edits[p->nedits] = (struct edit){.off = off, .del = del, .seq = p->nedits, .ins = ins};
  p->nedits++;
}

/* ---- token helpers ------------------------------------------------------ */

static int is(const struct prep *p, const struct ah_token *t, const char *s) {
  return ah_tok_is(p->s, t, s);
}

static int is_ident(const struct ah_token *t) {
  return t->kind == AH_TOK_IDENT;
}

/* Index of the token closing the group opened at toks[i] ('(' '[' '{'), or
 * the index of EOF when unbalanced. Directives inside are skipped. */
static size_t match_fwd(const struct prep *p, const struct ah_tokens *ts, size_t i) {
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
static size_t match_back(const struct prep *p, const struct ah_tokens *ts, size_t i) {
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
static size_t match_angle_back(const struct prep *p, const struct ah_tokens *ts, size_t i) {
  int depth = 0;

  for (size_t k = i + 1; k-- > 0;) {
    const struct ah_token *t = &ts->t[k];

    if (is(p, t, ">")) {
      depth++;
    } else if (is(p, t, "<")) {
      if (--depth == 0)
        return k;
    } else if (is(p, t, ")") || is(p, t, "]")) {
      k = match_back(p, ts, k);
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
static char *join_tokens(const struct prep *p, const struct ah_tokens *ts, size_t a, size_t b) {
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

static size_t count_newlines(const struct prep *p, size_t a, size_t b) {
  size_t n = 0;

  for (size_t i = a; i < b; i++)
    n += p->s[i] == '\n';
  return n;
}

/* ---- triple chevrons ------------------------------------------------------ */

static int stops_callee(const struct prep *p, const struct ah_token *t) {
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
    if (is_ident(t) && !stops_callee(p, t)) {
      j--;
    } else if (is(p, t, ">")) {
      size_t m = match_angle_back(p, ts, j - 1);

      if (m == (size_t)-1 || m == 0 || !is_ident(&ts->t[m - 1]))
        return j;
      j = m - 1; /* the template's name */
    } else if (is(p, t, ")") || is(p, t, "]")) {
      size_t m = match_back(p, ts, j - 1);

      if (m == (size_t)-1)
        return j;
      j = m;
      if (j > 0 && (is_ident(&ts->t[j - 1]) || is(p, &ts->t[j - 1], ">") ||
                    is(p, &ts->t[j - 1], "]")) &&
          !stops_callee(p, &ts->t[j - 1]))
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
        match_fwd(p, ts, a + 1) == b - 1) {
      a += 2;
      b--;
    } else if (b - a >= 2 && is(p, &ts->t[a], "(") && match_fwd(p, ts, a) == b - 1) {
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
    size_t m = match_angle_back(p, ts, b - 1);

    if (m == (size_t)-1 || m <= a || !is_ident(&ts->t[m - 1]))
      return 0;
    for (size_t k = a; k < m; k++) {
      const struct ah_token *t = &ts->t[k];
      int want_ident = ((k - a) % 2 == 0) != is(p, &ts->t[a], "::");

      if (want_ident ? !is_ident(t) || is(p, t, "template") || is(p, t, "operator")
                     : !is(p, t, "::"))
        return 0;
    }
    *targs = join_tokens(p, ts, m + 1, b - 1);
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
  *qual = join_tokens(p, ts, a, b - 1);
  *base = join_tokens(p, ts, b - 1, b);
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
    if (!((is_ident(prev) && !stops_callee(p, prev)) || is(p, prev, "*") || is(p, prev, "&") ||
          is(p, prev, "&&") || is(p, prev, ">")))
      continue;
    if (is(p, next, ",") || is(p, next, ")") || is(p, next, "=") || is(p, next, ";") ||
        is(p, next, "{") || is(p, next, "[") || is(p, next, ":"))
      return 1;
  }
  return 0;
}

/* Records the launch whose `<<<` is toks[i]. Returns the index to resume at. */
static size_t chevron(struct prep *p, const struct ah_tokens *ts, size_t i) {
  size_t start = callee_start(p, ts, i), close = 0, k;
  int depth = 0, nargs;

  if (start == i) {
    error_at(p, ts->t[i].off, "expected a kernel name before '<<<'");
    return i + 1;
  }
  for (k = i + 1; k < ts->n; k++) {
    const struct ah_token *t = &ts->t[k];

    if (t->kind == AH_TOK_EOF || (depth == 0 && (is(p, t, ";") || is(p, t, "<<<")))) {
      error_at(p, ts->t[i].off, "unterminated kernel launch: expected '>>>' before '%.*s'",
               t->kind == AH_TOK_EOF ? 11 : (int)t->len,
               t->kind == AH_TOK_EOF ? "end of file" : p->s + t->off);
      return k;
    }
    if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{")) {
      depth++;
    } else if (is(p, t, ")") || is(p, t, "]") || is(p, t, "}")) {
      if (--depth < 0) {
        error_at(p, ts->t[i].off, "unterminated kernel launch: expected '>>>' before '%.*s'",
                 (int)t->len, p->s + t->off);
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
    error_at(p, ts->t[i].off,
             "a kernel launch takes 2 to 4 configuration arguments "
             "(grid, block[, shared memory bytes[, stream]]), not %d",
             nargs);
    return close + 3;
  }
  if (!is(p, &ts->t[close + 3], "(")) {
    error_at(p, ts->t[close + 2].off + 1, "expected '(' with the kernel's arguments after '>>>'");
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
static void ggl_call(struct prep *p, const struct ah_tokens *ts, size_t i) {
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
  if (ts->t[k].kind == AH_TOK_EOF || nc < 4 || !plain_name(p, ts, i + 2, comma[0], &qual, &base, &targs))
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

/* ---- scopes ------------------------------------------------------------- */

static int at_namespace_scope(const struct prep *p) {
  for (size_t i = 0; i < p->nscopes; i++)
    if (p->scopes[i].kind == SC_OTHER)
      return 0;
  return 1;
}

static void push_scope(struct prep *p, enum scope_kind kind, struct ns_comp *comps, size_t n) {
  p->scopes = grow_array(p->scopes, &p->capscopes, p->nscopes + 1, sizeof(*p->scopes));
  p->scopes[p->nscopes++] = (struct scope){.kind = kind, .comps = comps, .ncomps = n};
}

static void pop_scope(struct prep *p) {
  if (p->nscopes == 0)
    return; /* unbalanced '}': the compiler will say so */
  p->nscopes--;
  for (size_t i = 0; i < p->scopes[p->nscopes].ncomps; i++)
    free(p->scopes[p->nscopes].comps[i].name);
  free(p->scopes[p->nscopes].comps);
}

/* Skips an attribute at toks[k] ([[...]], __attribute__((...)), alignas(...),
 * __declspec(...), __align__(...), __launch_bounds__(...)); returns the index
 * after it, or k when there is none. */
static size_t skip_attribute(const struct prep *p, const struct ah_tokens *ts, size_t k) {
  static const char *const names[] = {"__attribute__", "alignas", "__declspec", "__align__",
                                      "__launch_bounds__", "__global__", NULL};
  const struct ah_token *t = &ts->t[k];

  if (is(p, t, "[") && is(p, &ts->t[k + 1], "["))
    return match_fwd(p, ts, k) + 1;
  for (int i = 0; names[i]; i++)
    if (is(p, t, names[i]) && is(p, &ts->t[k + 1], "("))
      return match_fwd(p, ts, k + 1) + 1;
  return k;
}

/* `inline? namespace name-or-nothing attrs? {` over toks[a, b): fills comps. */
static int parse_namespace(const struct prep *p, size_t a, size_t b, struct ns_comp **out,
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
    size_t k = skip_attribute(p, ts, a);

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

/* ---- template kernels launched without template arguments ---------------- */

/* Index of the '>' closing the template parameter list whose '<' is toks[i],
 * or (size_t)-1. A '<' opens a list after a name (`std::pair<`, `template <`),
 * as the compiler reads it; parentheses are skipped. */
static size_t match_angle_fwd(const struct prep *p, const struct ah_tokens *ts, size_t i,
                              size_t end) {
  int depth = 0;

  for (size_t k = i; k < end; k++) {
    const struct ah_token *t = &ts->t[k];

    if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{"))
      k = match_fwd(p, ts, k);
    else if (is(p, t, "<") && k > 0 && is_ident(&ts->t[k - 1]))
      depth++;
    else if (is(p, t, ">") && --depth == 0)
      return k;
    else if (is(p, t, ";"))
      break;
  }
  return (size_t)-1;
}

static int is_type_keyword(const struct prep *p, const struct ah_token *t) {
  static const char *const kw[] = {"class", "typename", "struct", "enum", "int", "unsigned",
                                   "signed", "long", "short", "char", "bool", "auto",
                                   "wchar_t", "char8_t", "char16_t", "char32_t", NULL};

  for (int i = 0; kw[i]; i++)
    if (is(p, t, kw[i]))
      return 1;
  return 0;
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
        k = match_fwd(p, ts, k);
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
        j = match_fwd(p, ts, j);
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
    if (e - s >= 2 && is_ident(&ts->t[e - 1]) && !is_type_keyword(p, &ts->t[e - 1]) &&
        !is(p, &ts->t[e - 2], "::")) {
      item = join_tokens(p, ts, s, k);
      name = join_tokens(p, ts, e - 1, e);
    } else {
      char *decl = join_tokens(p, ts, s, e), *dflt = join_tokens(p, ts, e, k);

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
static void deduce_helper(struct prep *p, struct kernel *kr, size_t a, size_t b, size_t name) {
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
  gt = match_angle_fwd(p, ts, lt, name);
  if (gt == (size_t)-1 || !template_params(p, lt, gt, &hdr, &args, &kr->tp_required))
    return;
  end = kr->is_def ? match_fwd(p, ts, b) : b;
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
static const char *key_base(const char *key, size_t *nslen) {
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
    const char *b = key_base(p->cx->kernels[i].key, &nl);

    found |= p->cx->kernels[i].helper != NULL && strcmp(b, base) == 0;
  }
  if (!found)
    return 0;
  for (size_t i = 0; i < p->cx->nkernels; i++) {
    const struct kernel *k = &p->cx->kernels[i];
    size_t nl, ml;
    const char *b = key_base(k->key, &nl);
    int same = 0;

    if (k->is_template || strcmp(b, base) != 0)
      continue;
    for (size_t j = 0; j < p->cx->nkernels && !same; j++) {
      const struct kernel *t = &p->cx->kernels[j];
      const char *tb = key_base(t->key, &ml);

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

    if (k->helper == NULL || strcmp(key_base(k->key, &nl), l->base) != 0)
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
static int host_function(const struct ctx *cx, const char *base) {
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

    if (strcmp(key_base(k->key, &nl), base) != 0)
      continue;
    if (k->is_template || (found && strcmp(found->params_nodef, k->params_nodef) != 0))
      return NULL;
    found = k;
  }
  return found;
}

/* Turns the recorded launches into edits, and adds the deduction
 * declarations that the deducing ones use. */
static void rewrite_launches(struct prep *p) {
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

      if (!l->ggl && l->base && !l->targs && !l->local && host_function(p->cx, l->base) &&
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

      if (kr->helper != NULL && strcmp(key_base(kr->key, &ml), l->base) == 0)
        kr->helper_used = 1;
    }
    /* The kernel's name moves behind the configuration; its lines stay. */
    nl = count_newlines(p, l->start, l->open);
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
static void add_helpers(struct ctx *cx) {
  for (size_t k = 0; k < cx->nkernels; k++)
    if (cx->kernels[k].helper_used && cx->target == AH_TARGET_CPU)
      add_edit(cx->kernels[k].owner, cx->kernels[k].helper_off, 0,
               ah_xstrdup(cx->kernels[k].helper));
}

/* ---- kernel registration ------------------------------------------------- */

/* The namespaces open at this point, outermost first, into *ns; returns
 * their qualifier ("a::b::", "(anonymous)::"). */
static char *current_namespaces(const struct prep *p, struct ns_comp **ns, size_t *nns) {
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
static void current_conds(const struct prep *p, struct ah_strv *out) {
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

/* Looks at one namespace-scope declaration, toks[a, b) where toks[b] is the
 * `{` of a definition or the `;` of a declaration, and records it when it
 * declares a __global__ function. */
static void note_kernel(struct prep *p, size_t a, size_t b, int is_def) {
  const struct ah_tokens *ts = &p->toks;
  int global = 0, templ = 0;
  size_t name_end = 0, name_start, close;
  struct kernel *kr;
  char *qual;

  for (size_t k = a; k < b; k++) {
    if (is(p, &ts->t[k], "__global__"))
      global = 1;
    else if (is(p, &ts->t[k], "template"))
      templ = 1;
  }
  if (!global) {
    /* A host function's name, in case a kernel shares it. */
    for (size_t k = a; k + 1 < b; k++) {
      if (is(p, &ts->t[k + 1], "(") && is_ident(&ts->t[k]) && k > a &&
          skip_attribute(p, ts, k) == k && !stops_callee(p, &ts->t[k])) {
        char *n = join_tokens(p, ts, k, k + 1);

        if (!host_function(p->cx, n))
          ah_strv_push(&p->cx->host_fns, n);
        free(n);
        break;
      }
    }
    return;
  }
  /* The declarator: the first `(` whose name is not an attribute. */
  for (size_t k = a; k < b && name_end == 0;) {
    size_t n = skip_attribute(p, ts, k);

    if (n != k) {
      k = n;
    } else if (is(p, &ts->t[k], "(")) {
      if (k > a && (is_ident(&ts->t[k - 1]) || is(p, &ts->t[k - 1], ">")))
        name_end = k;
      else
        return; /* `void (*f)(...)`, not a kernel definition we can name */
    } else {
      k++;
    }
  }
  if (name_end == 0)
    return;
  if (is(p, &ts->t[name_end - 1], ">"))
    templ = 1; /* an explicit specialization k<int>(...) */
  name_start = name_end - 1;
  while (name_start >= a + 2 && is(p, &ts->t[name_start - 1], "::") &&
         is_ident(&ts->t[name_start - 2]))
    name_start -= 2;
  close = match_fwd(p, ts, name_end);
  if (close > b)
    return;

  p->cx->kernels = grow_array(p->cx->kernels, &p->cx->capkernels, p->cx->nkernels + 1, sizeof(*p->cx->kernels));
  kr = &p->cx->kernels[p->cx->nkernels++];
  memset(kr, 0, sizeof(*kr));
  kr->owner = p;
  kr->name = join_tokens(p, ts, name_start, name_end);
  kr->params = join_tokens(p, ts, name_end + 1, close);
  kr->is_template = templ;
  kr->is_def = is_def;
  kr->line = line_of(p, ts->t[name_end - 1].off);
  kr->params_nodef = ah_xstrdup("");
  for (size_t k = name_end + 1, from = k; k <= close; k++) {
    if (k < close && (is(p, &ts->t[k], "(") || is(p, &ts->t[k], "[") || is(p, &ts->t[k], "{"))) {
      k = match_fwd(p, ts, k);
    } else if (k < close && is(p, &ts->t[k], "=")) {
      char *part = join_tokens(p, ts, from, k), *n;

      kr->has_default = 1;
      n = ah_xasprintf("%s%s%s", kr->params_nodef, *kr->params_nodef ? ", " : "", part);
      free(part);
      free(kr->params_nodef);
      kr->params_nodef = n;
      while (k < close && !is(p, &ts->t[k], ",")) {
        if (is(p, &ts->t[k], "(") || is(p, &ts->t[k], "[") || is(p, &ts->t[k], "{"))
          k = match_fwd(p, ts, k);
        else if (is(p, &ts->t[k], "<") && is_ident(&ts->t[k - 1]))
          k = match_angle_fwd(p, ts, k, close) == (size_t)-1 ? k : match_angle_fwd(p, ts, k, close);
        k++;
      }
      from = k + 1;
    } else if (k == close || is(p, &ts->t[k], ",")) {
      if (k > from) {
        char *part = join_tokens(p, ts, from, k), *n;

        n = ah_xasprintf("%s%s%s", kr->params_nodef, *kr->params_nodef ? ", " : "", part);
        free(part);
        free(kr->params_nodef);
        kr->params_nodef = n;
      }
      from = k + 1;
    }
  }
  /* __launch_bounds__(max[, min_blocks[, ...]]) before the name or after the
   * parameters: max goes to the registration, which makes larger launches fail. */
  for (size_t k = a; k + 1 < b; k++) {
    if (k == name_end) {
      k = close;
      continue;
    }
    if (is(p, &ts->t[k], "__launch_bounds__") && is(p, &ts->t[k + 1], "(")) {
      size_t end = match_fwd(p, ts, k + 1), e = k + 2;

      while (e < end && !is(p, &ts->t[e], ",")) {
        if (is(p, &ts->t[e], "(") || is(p, &ts->t[e], "[") || is(p, &ts->t[e], "{"))
          e = match_fwd(p, ts, e);
        e++;
      }
      if (e > end)
        e = end;
      if (e > k + 2)
        kr->bounds = join_tokens(p, ts, k + 2, e);
      break;
    }
  }
  qual = current_namespaces(p, &kr->ns, &kr->nns);
  kr->key = ah_xasprintf("%s%s", qual, kr->name);
  free(qual);
  /* Every declaration of a template gets its own deduction declaration: they
   * redeclare one function template, with defaults where the kernel's are. */
  if (templ && name_end - name_start == 1 && !is(p, &ts->t[name_end - 1], ">"))
    deduce_helper(p, kr, a, b, name_start);
  current_conds(p, &kr->conds);
}

/* ---- device variables ---------------------------------------------------- */

/* The symbol name of a namespace-scope variable, as the NVIDIA device looks
 * it up in nvcc's code (the runtime's only use of it): the Itanium C++ ABI
 * name (a variable's type is not part of it), `x` at global scope and under
 * extern "C", `_ZN2ns1xE` in a namespace. At global scope a `static` (or
 * const) variable is `x` in nvcc's code too, though the host compiler calls
 * it `_ZL1x`. In a namespace an internal one gets the host's name
 * (`_ZN2nsL1xE`, `_ZN12_GLOBAL__N_11xE`): nvcc gives it a name of its own,
 * with a per-file hash, that nothing outside nvcc can know. */
static char *mangle(const struct var *v, int internal, int c_linkage) {
  char *m, *t;

  if (c_linkage || v->nns == 0)
    return ah_xstrdup(v->name);
  m = ah_xstrdup("_ZN");
  for (size_t c = 0; c < v->nns; c++) {
    t = v->ns[c].name ? ah_xasprintf("%s%zu%s", m, strlen(v->ns[c].name), v->ns[c].name)
                      : ah_xasprintf("%s12_GLOBAL__N_1", m);
    free(m);
    m = t;
  }
  internal &= v->ns[v->nns - 1].name != NULL;
  t = ah_xasprintf("%s%s%zu%sE", m, internal ? "L" : "", strlen(v->name), v->name);
  free(m);
  return t;
}

static int excluded_name(const struct prep *p, const struct ah_token *t) {
  static const char *const kw[] = {"const", "volatile", "static", "inline", "constexpr",
                                   "__restrict__", "__restrict", "mutable", "register", NULL};

  for (int i = 0; kw[i]; i++)
    if (is(p, t, kw[i]))
      return 1;
  return is_type_keyword(p, t) || is(p, t, "float") || is(p, t, "double") || is(p, t, "void");
}

static void add_var(struct prep *p, const struct ah_token *name, int internal, int managed) {
  struct var *v;
  char *qual;
  int c_linkage = 0;

  for (size_t i = 0; i < p->nscopes; i++)
    c_linkage |= p->scopes[i].kind == SC_LINKAGE && p->scopes[i].c_linkage;
  p->cx->vars = grow_array(p->cx->vars, &p->cx->capvars, p->cx->nvars + 1, sizeof(*p->cx->vars));
  v = &p->cx->vars[p->cx->nvars++];
  memset(v, 0, sizeof(*v));
  v->owner = p;
  v->managed = managed;
  v->name = ah_xasprintf("%.*s", (int)name->len, p->s + name->off);
  v->line = line_of(p, name->off);
  qual = current_namespaces(p, &v->ns, &v->nns);
  free(qual);
  current_conds(p, &v->conds);
  v->mangled = mangle(v, internal, c_linkage);
}

/* Looks at one namespace-scope declaration, toks[a, b) where toks[b] is its
 * `;` or a `{` (a braced initializer), and records the variables it defines
 * when it is a __device__, __constant__ or __managed__ variable definition:
 *   __device__ int x;  __constant__ float c[16] = {...};  __device__ T a, *b = &a;
 * A function (a `(` before any declarator ends), a declaration (`extern`), a
 * type, a template and anything not understood are left alone: those are
 * found through the ELF tables as before. */
static void note_variables(struct prep *p, size_t a, size_t b, int at_brace) {
  static const char *const skip[] = {"extern", "typedef", "using", "template", "friend",
                                     "__global__", "__shared__", "static_assert", "namespace",
                                     "operator", "concept", "requires", "asm", "inline", NULL};
  const struct ah_tokens *ts = &p->toks;
  int dev = 0, internal = 0, vol = 0, base_cst = 0, cst = 0, angle = 0, ptr = 0, elab = 0;
  int made_static = 0, managed = 0;
  size_t k, prev = (size_t)-1, tag = (size_t)-1; /* tag: the S of `struct S` */

  for (k = a; k < b; k++) {
    const struct ah_token *t = &ts->t[k];

    if (is(p, t, "__device__") || is(p, t, "__constant__") || is(p, t, "__managed__"))
      dev = 1, managed |= is(p, t, "__managed__");
    else if (is(p, t, "static"))
      internal = 1;
    else if (is(p, t, "volatile"))
      vol = 1;
    else if (at_brace && (is(p, t, "struct") || is(p, t, "class") || is(p, t, "union") ||
                          is(p, t, "enum")))
      return; /* `struct S {`: a type is being defined */
    for (int i = 0; skip[i]; i++)
      if (is(p, t, skip[i]))
        return;
  }
  if (!dev)
    return;
  /* The first declarator: the name before the first `=`, `[`, `,`, `{` or
   * the end, outside template argument lists; attributes anywhere. A const
   * that applies to the variable itself (not to what a pointer points at)
   * gives it internal linkage, as `static` does. */
  for (k = a; k < b; k++) {
    const struct ah_token *t = &ts->t[k];
    size_t n = skip_attribute(p, ts, k);

    if (n != k) {
      k = n - 1;
    } else if (is(p, t, "<") && k > a && is_ident(&ts->t[k - 1])) {
      angle++;
    } else if (is(p, t, ">") && angle > 0) {
      angle--;
    } else if (angle > 0) {
      if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{"))
        k = match_fwd(p, ts, k);
    } else if (is(p, t, "(")) {
      return; /* a function, or `T x(args)` */
    } else if (is(p, t, "=") || is(p, t, "[") || is(p, t, ",") || is(p, t, "{")) {
      break;
    } else {
      if (is(p, t, "struct") || is(p, t, "class") || is(p, t, "union") || is(p, t, "enum"))
        elab = 1;
      else if (elab && is_ident(t) && !is(p, t, "__device__") && !is(p, t, "__constant__") &&
               !is(p, t, "__managed__"))
        tag = k, elab = 0;
      if (is(p, t, "const") || is(p, t, "constexpr"))
        cst = 1;
      else if (is(p, t, "*") || is(p, t, "&"))
        cst = 0, ptr = 1;
      if (!ptr)
        base_cst = cst;
      prev = k;
    }
  }
  for (;;) {
    /* toks[k] ends the declarator whose name is toks[prev]; a qualified
     * name (`int ns::x = 1;`) defines a variable declared elsewhere. */
    if (prev == (size_t)-1 || !is_ident(&ts->t[prev]) || excluded_name(p, &ts->t[prev]) ||
        prev == tag || (prev > a && is(p, &ts->t[prev - 1], "::")))
      return;
    if (p->is_header && !internal && !(cst && !vol) && !made_static) {
      /* A header's variable: each translation unit that includes it gets its
       * own, as each has its own code object in HIP without -fgpu-rdc (and
       * two sources including it link). */
      size_t at = a;

      while (skip_attribute(p, ts, at) != at)
        at = skip_attribute(p, ts, at);
      add_edit(p, ts->t[at].off, 0, ah_xstrdup("static "));
      made_static = 1;
    }
    add_var(p, &ts->t[prev], internal || (cst && !vol), managed);
    /* Past its array bounds and initializer to the next `,`. */
    while (k < b && !is(p, &ts->t[k], ",")) {
      if (is(p, &ts->t[k], "(") || is(p, &ts->t[k], "[") || is(p, &ts->t[k], "{"))
        k = match_fwd(p, ts, k);
      k++;
    }
    if (k >= b)
      return;
    /* The next: `, [* & const]... name` followed by `=`, `[`, `,` or the end. */
    cst = base_cst;
    for (k++; k < b && (is(p, &ts->t[k], "*") || is(p, &ts->t[k], "&") ||
                        is(p, &ts->t[k], "const") || is(p, &ts->t[k], "__restrict__"));
         k++)
      cst = is(p, &ts->t[k], "const");
    prev = k++;
    if (prev >= b || (k < b && !is(p, &ts->t[k], "=") && !is(p, &ts->t[k], "[") &&
                      !is(p, &ts->t[k], ",") && !is(p, &ts->t[k], "{")))
      return;
  }
}

/* Writes one registration statement under the #if branches and inside the
 * namespaces of the declaration it registers, with that declaration's line. */
static void emit_at(FILE *f, const char *qfile, const struct ns_comp *ns, size_t nns,
                    const struct ah_strv *conds, size_t line, const char *stmt) {
  for (size_t c = 0; c < conds->n; c++)
    fputs(conds->v[c], f);
  fprintf(f, "#line %zu \"%s\"\n", line, qfile);
  for (size_t c = 0; c < nns; c++) {
    if (ns[c].is_inline)
      fputs("inline ", f);
    if (ns[c].name)
      fprintf(f, "namespace %s { ", ns[c].name);
    else
      fputs("namespace { ", f);
  }
  fputs(stmt, f);
  for (size_t c = 0; c < nns; c++)
    fputs(" }", f);
  fputc('\n', f);
  for (size_t c = 0; c < conds->n; c++)
    fputs("#endif\n", f);
}

/* Appends the registrations: one static initializer per kernel, reopening
 * its namespaces so that its name and parameter types resolve as they did at
 * the definition. A name defined once is registered as &name; overloads
 * (or alternatives under #if) through a cast to their exact type; a name
 * that also names a template is skipped, since &name would be ambiguous. */
static void emit_registrations(struct ctx *cx, FILE *f) {
  int n = 0;

  for (size_t i = 0; i < cx->nkernels; i++) {
    const struct kernel *k = &cx->kernels[i];
    int defs = 0, templ = 0;
    char *expr, *stmt;
    const char *bounds;

    if (!k->is_def || k->is_template)
      continue;
    for (size_t j = 0; j < cx->nkernels; j++) {
      if (strcmp(cx->kernels[j].key, k->key) != 0)
        continue;
      defs += cx->kernels[j].is_def && !cx->kernels[j].is_template;
      templ |= cx->kernels[j].is_template;
    }
    /* Overloaded, or also a template's name: the cast picks this one. */
    if (defs == 1 && !templ)
      expr = ah_xasprintf("&%s", k->name);
    else
      expr = ah_xasprintf("static_cast<void (*)(%s)>(&%s)", k->params_nodef, k->name);
    if (n++ == 0)
      fputs("\n\n/* hipcc: kernel registration (hipLaunchKernel finds kernels by address) */\n"
            "#ifndef ANYHIP_NO_KERNEL_REGISTRATION\n",
            f);
    /* The bound may be on another declaration of the same kernel. */
    bounds = k->bounds;
    for (size_t j = 0; j < cx->nkernels && bounds == NULL; j++)
      if (strcmp(cx->kernels[j].key, k->key) == 0 && !cx->kernels[j].is_template &&
          strcmp(cx->kernels[j].params_nodef, k->params_nodef) == 0)
        bounds = cx->kernels[j].bounds;
    if (bounds != NULL)
      stmt = ah_xasprintf("static int __ah_kreg_%d __attribute__((unused)) = "
                          "::anyhip::detail::register_kernel(%s, (long long)(%s));",
                          n - 1, expr, bounds);
    else
      stmt = ah_xasprintf("static int __ah_kreg_%d __attribute__((unused)) = "
                          "::anyhip::detail::register_kernel(%s);",
                          n - 1, expr);
    emit_at(f, k->owner->qfile, k->ns, k->nns, &k->conds, k->line, stmt);
    free(stmt);
    free(expr);
  }
  if (n > 0)
    fputs("#endif\n", f);
  for (size_t i = 0; i < cx->nvars; i++) {
    const struct var *v = &cx->vars[i];
    char *stmt;

    if (i == 0)
      fputs("\n/* hipcc: device variable registration (found without the ELF symbol tables) */\n"
            "#ifndef ANYHIP_NO_VARIABLE_REGISTRATION\n",
            f);
    /* `::x` at global scope: a using-directive there must not make x ambiguous. */
    stmt = ah_xasprintf("static int __ah_vreg_%zu __attribute__((unused)) = "
                        "::anyhip::detail::register_%svariable(%s%s, \"%s\");",
                        i, v->managed ? "managed_" : "", v->nns ? "" : "::", v->name,
                        v->mangled);
    emit_at(f, v->owner->qfile, v->ns, v->nns, &v->conds, v->line, stmt);
    free(stmt);
  }
  if (cx->nvars > 0)
    fputs("#endif\n", f);
}

/* ---- extern __shared__ --------------------------------------------------- */

/* `extern __shared__ [attrs] T name[];` at ts->t[i] (the `extern`). In a
 * #define body (in_macro) the `;` may be left to the macro's user and the
 * scope is taken to be a function's. Returns the index after the
 * declaration, or i + 1 when this is some other extern. */
static size_t extern_shared(struct prep *p, const struct ah_tokens *ts, size_t i, int in_macro,
                            const char *qfile) {
  size_t k = i + 1, name = 0, end, *decl = NULL, ndecl = 0, cap = 0;
  int shared = 0, has_semi = 0;
  char *type, *ins, *o;

  for (; k < ts->n; k++) {
    const struct ah_token *t = &ts->t[k];
    size_t n = skip_attribute(p, ts, k);

    if (n != k) {
      k = n - 1; /* __align__(16), alignas(8), ...: the buffer is aligned anyway */
    } else if (is(p, t, "__shared__")) {
      shared = 1;
    } else if (is(p, t, ";")) {
      has_semi = 1;
      break;
    } else if (t->kind == AH_TOK_EOF && in_macro) {
      break;
    } else if (t->kind == AH_TOK_STRING || t->kind == AH_TOK_EOF ||
               t->kind == AH_TOK_DIRECTIVE || is(p, t, "{") || is(p, t, "}") ||
               is(p, t, "(") || is(p, t, ",") || is(p, t, "=")) {
      break;
    } else if (is(p, t, "[")) {
      if (name == 0 && ndecl > 1 && decl[ndecl - 1] == k - 1 && is_ident(&ts->t[k - 1]))
        name = k - 1;
      k = match_fwd(p, ts, k);
      if (k >= ts->n - 1 || name == 0)
        break;
    } else if (name == 0) {
      decl = grow_array(decl, &cap, ndecl + 1, sizeof(*decl));
      decl[ndecl++] = k;
    } else {
      break; /* `T a[], b[]` or anything after the array: not ours */
    }
  }
  if (!shared || name == 0 || !(has_semi || (in_macro && ts->t[k].kind == AH_TOK_EOF))) {
    free(decl);
    return i + 1;
  }
  /* The type: the declaration's tokens before the name, attributes left out. */
  end = 1;
  for (size_t d = 0; d + 1 < ndecl; d++)
    end += ts->t[decl[d]].len + 1;
  o = type = ah_xmalloc(end);
  for (size_t d = 0; d + 1 < ndecl; d++) {
    const struct ah_token *t = &ts->t[decl[d]];

    if (d > 0 && (decl[d] != decl[d - 1] + 1 ||
                  ts->t[decl[d - 1]].off + ts->t[decl[d - 1]].len != t->off))
      *o++ = ' ';
    memcpy(o, p->s + t->off, t->len);
    o += t->len;
  }
  *o = '\0';
  free(decl);
  /* The replaced text: `extern` up to the `;`, or to the last `]` in a macro. */
  end = has_semi ? ts->t[k].off + 1 : ts->t[k - 1].off + ts->t[k - 1].len;
  if (!in_macro && at_namespace_scope(p)) {
    /* HIP allows it at namespace scope, where a variable cannot follow the
     * launch: every later use of the name reads the current launch's buffer. */
    ins = ah_xasprintf("\n#define %.*s (reinterpret_cast<%s *>(__ah_dynamic_shared()))\n"
                       "#line %zu \"%s\"\n",
                       (int)ts->t[name].len, p->s + ts->t[name].off, type,
                       line_of(p, end - 1), qfile);
  } else {
    ins = ah_xasprintf("%s *%.*s = reinterpret_cast<%s *>(__ah_dynamic_shared())%s", type,
                       (int)ts->t[name].len, p->s + ts->t[name].off, type,
                       has_semi ? ";" : "");
  }
  {
    /* The declaration's newlines go first, so that what follows its `;`
     * stays on its line (in a macro, as line continuations); the indentation
     * of `extern` comes after them. */
    size_t nl = count_newlines(p, ts->t[i].off, end);
    size_t col = nl ? ts->t[i].off - p->lines[line_of(p, ts->t[i].off) - 1] : 0;
    const char *brk = in_macro ? " \\\n" : "\n";
    char *full = ah_xmalloc(nl * strlen(brk) + col + strlen(ins) + 1), *w = full;

    for (size_t n = 0; n < nl; n++)
      w += sprintf(w, "%s", brk);
    memset(w, ' ', col);
    strcpy(w + col, ins);
    free(ins);
    add_edit(p, ts->t[i].off, end - ts->t[i].off, full);
  }
  free(type);
  return k + 1;
}

/* ---- static __shared__ size ---------------------------------------------- */

/* The CPU device's shared memory per block (cpu_backend.c's
 * sharedMemPerBlock). */
#define AH_CPU_SHARED_LIMIT 65536

/* `[static] __shared__ [attrs] T a[...], b;` with ts->t[i] the `__shared__`:
 * each declared name gets a static_assert after the `;` that its size fits
 * the device's shared memory, as a GPU toolchain refuses a kernel whose
 * static shared memory is over the limit. On the line of the `;` (line
 * numbers kept). Declarations it cannot read are left alone. */
static void static_shared(struct prep *p, const struct ah_tokens *ts, size_t i) {
  size_t k, last = 0, *names = NULL, nnames = 0, cap = 0;
  int angle = 0, done = 0;

  if (i > 0 && is(p, &ts->t[i - 1], "extern"))
    return;
  for (k = i + 1; k < ts->n; k++) {
    const struct ah_token *t = &ts->t[k];
    size_t n = skip_attribute(p, ts, k);

    if (n != k) {
      k = n - 1;
    } else if (t->kind == AH_TOK_EOF || t->kind == AH_TOK_DIRECTIVE || is(p, t, "{") ||
               is(p, t, "}") || is(p, t, "(")) {
      break; /* not a declaration read here */
    } else if (is(p, t, ";")) {
      if (!done && last != 0) {
        names = grow_array(names, &cap, nnames + 1, sizeof(*names));
        names[nnames++] = last;
      }
      break;
    } else if (done) {
      continue;
    } else if (is(p, t, "<")) {
      angle++;
    } else if (is(p, t, ">")) {
      angle--;
    } else if (is(p, t, ">>")) {
      angle -= 2;
    } else if (is(p, t, "[") || is(p, t, "=") || (is(p, t, ",") && angle <= 0)) {
      if (last != 0) {
        names = grow_array(names, &cap, nnames + 1, sizeof(*names));
        names[nnames++] = last;
        last = 0;
      }
      if (is(p, t, "["))
        k = match_fwd(p, ts, k);
      else if (is(p, t, "="))
        done = 1; /* an initialiser (not HIP's, but g++ takes it): no more names */
      if (k >= ts->n - 1)
        break;
    } else if (is_ident(t)) {
      last = k;
    }
  }
  if (k < ts->n && ts->t[k].kind != AH_TOK_EOF && is(p, &ts->t[k], ";")) {
    for (size_t d = 0; d < nnames; d++) {
      const struct ah_token *nt = &ts->t[names[d]];

      add_edit(p, ts->t[k].off + 1, 0,
               ah_xasprintf(" static_assert(sizeof(%.*s) <= %d, \"anyhip: __shared__ '%.*s' "
                            "is larger than the device's shared memory per block (%d "
                            "bytes)\");",
                            (int)nt->len, p->s + nt->off, AH_CPU_SHARED_LIMIT, (int)nt->len,
                            p->s + nt->off, AH_CPU_SHARED_LIMIT));
    }
  }
  free(names);
}

/* ---- preprocessor lines ---------------------------------------------------- */

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

/* Rewrites launches and extern __shared__ inside a #define body (for the
 * NVIDIA target only a hipLaunchKernelGGL of a template kernel). */
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
                   memmem(p->s + i, end - i, "hipLaunchKernelGGL", 18) == NULL))
    return;
  ah_lex(p->s, i, end, 0, &sub);
  for (size_t k = 0; k < sub.n; k++) {
    if (is(p, &sub.t[k], "hipLaunchKernelGGL"))
      ggl_call(p, &sub, k);
    else if (p->cx->target != AH_TARGET_CPU)
      continue;
    else if (is(p, &sub.t[k], "<<<"))
      k = chevron(p, &sub, k) - 1;
    else if (is(p, &sub.t[k], "extern"))
      k = extern_shared(p, &sub, k, 1, NULL) - 1;
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

/* ---- user headers ------------------------------------------------------------ */

static struct prep *prepare_one(struct ctx *cx, const char *path, const struct prep *parent);

/* Where the compiler finds the header `name` that file p includes: with
 * quotes, p's directory, then the -iquote and -I directories; with <>, the
 * -I directories only (a system header is not the program's). A new string,
 * or NULL. */
static char *resolve(const struct prep *p, const char *name, int quoted) {
  const struct ah_strv *dirs = quoted ? &p->cx->quote_dirs : &p->cx->dirs;
  char *cand;

  if (name[0] == '/')
    return ah_file_exists(name) ? ah_xstrdup(name) : NULL;
  if (quoted) {
    char *dir = ah_path_dir(p->path);

    cand = strcmp(dir, ".") == 0 ? ah_xstrdup(name) : ah_xasprintf("%s/%s", dir, name);
    free(dir);
    if (ah_file_exists(cand))
      return cand;
    free(cand);
  }
  for (size_t i = 0; i < dirs->n; i++) {
    cand = ah_xasprintf("%s/%s", dirs->v[i], name);
    if (ah_file_exists(cand))
      return cand;
    free(cand);
  }
  return NULL;
}

/* `#include "x.h"` (or <x.h> found through -I) at t: prepares the header,
 * once per translation unit, and remembers the directive, which points at
 * the prepared copy if the header changed (see mirror_includes). */
static void include_header(struct prep *p, const struct ah_token *t, size_t after) {
  size_t i = after, end = t->off + t->len, b;
  char close, *name, *path;
  struct prep *child;

  while (i < end && (p->s[i] == ' ' || p->s[i] == '\t'))
    i++;
  if (i >= end || (p->s[i] != '"' && p->s[i] != '<'))
    return; /* a computed #include: the compiler's alone */
  close = p->s[i] == '"' ? '"' : '>';
  b = ++i;
  while (i < end && p->s[i] != close && p->s[i] != '\n')
    i++;
  if (i >= end || p->s[i] != close || i == b)
    return;
  name = ah_xasprintf("%.*s", (int)(i - b), p->s + b);
  path = resolve(p, name, close == '"');
  free(name);
  if (path == NULL)
    return;
  child = prepare_one(p->cx, path, p);
  free(path);
  if (child == NULL) {
    error_at(p, t->off, "cannot prepare the header this line includes");
    return;
  }
  p->incs = grow_array(p->incs, &p->capincs, p->nincs + 1, sizeof(*p->incs));
  p->incs[p->nincs++] = (struct incl){.off = t->off, .len = t->len, .child = child};
}

/* Keeps the #if chains current (the branches a registration must repeat). */
static void directive(struct prep *p, const struct ah_token *t) {
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
      pop_scope(p);
  } else if (top && strcmp(name, "endif") == 0) {
    ah_strv_free(&top->chain);
    p->nconds--;
  } else if (strcmp(name, "define") == 0) {
    if (top && top->chain.n == 1 && is_guard(p, top->chain.v[0], t, after))
      top->guard = 1;
    define_body(p, t, after);
  } else if (strcmp(name, "include") == 0 && p->cx->headers != NULL) {
    include_header(p, t, after);
  }
  free(text);
}

/* Removes the tokens of `#if 0` branches (and their nested directives), so
 * that code commented out that way, balanced or not, is never looked at. */
static void drop_dead(struct prep *p) {
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

/* ---- template kernels used by address ------------------------------------------ */

/* Whether `name` (len n) is the unqualified name of a template kernel seen so far. */
static int template_kernel_name(const struct ctx *cx, const char *name, size_t n) {
  for (size_t i = 0; i < cx->nkernels; i++) {
    size_t nl;
    const char *b = key_base(cx->kernels[i].key, &nl);

    if (cx->kernels[i].is_template && strlen(b) == n && memcmp(b, name, n) == 0)
      return 1;
  }
  return 0;
}

/* Whether the call whose argument list holds toks[i] (at its top level) is
 * of a function named hipOccupancy* or hipFunc* (their C++ templates, which
 * take the kernel as a typed pointer), explicit template arguments allowed. */
static int in_kernel_query_call(const struct prep *p, size_t i) {
  const struct ah_tokens *ts = &p->toks;
  int depth = 0;
  size_t j = i;

  while (j > 0) {
    const struct ah_token *t = &ts->t[--j];

    if (is(p, t, ")") || is(p, t, "]") || is(p, t, "}"))
      depth++;
    else if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{")) {
      if (depth-- == 0)
        break;
    } else if (is(p, t, ";"))
      return 0;
  }
  if (j == 0 || !is(p, &ts->t[j], "("))
    return 0;
  j--;
  if (is(p, &ts->t[j], ">")) { /* f<void (*)(int *)>(...) */
    int angle = 0;

    for (; j > 0; j--) {
      if (is(p, &ts->t[j], ">"))
        angle++;
      else if (is(p, &ts->t[j], "<") && --angle == 0)
        break;
      else if (is(p, &ts->t[j], ";") || is(p, &ts->t[j], "{"))
        return 0;
    }
    if (j == 0)
      return 0;
    j--;
  }
  if (!is_ident(&ts->t[j]))
    return 0;
  return (ts->t[j].len >= 12 && memcmp(p->s + ts->t[j].off, "hipOccupancy", 12) == 0) ||
         (ts->t[j].len >= 7 && memcmp(p->s + ts->t[j].off, "hipFunc", 7) == 0);
}

/* A template kernel named without template arguments as an argument of
 * the occupancy or function-attribute templates, which the pointer type
 * they are given resolves (hipOccupancyMaxPotentialBlockSize<void (*)(int *)>
 * (&g, &b, k, 0, 0)), becomes ::anyhip::detail::kernel_ref([&](auto t) ->
 * decltype(t) { return k; }): it converts to that pointer type by picking
 * the specialisation as the plain name would, and registers it. */
static void bare_template_arg(struct prep *p, size_t i) {
  const struct ah_tokens *ts = &p->toks;

  if (i == 0 || !(is(p, &ts->t[i - 1], ",") || is(p, &ts->t[i - 1], "(")) ||
      !(is(p, &ts->t[i + 1], ",") || is(p, &ts->t[i + 1], ")")) ||
      !template_kernel_name(p->cx, p->s + ts->t[i].off, ts->t[i].len) ||
      !in_kernel_query_call(p, i))
    return;
  add_edit(p, ts->t[i].off, 0,
           ah_xstrdup("::anyhip::detail::kernel_ref([&](auto __ah_t) -> decltype(__ah_t) { "
                      "return "));
  add_edit(p, ts->t[i].off + ts->t[i].len, 0, ah_xstrdup("; })"));
}

/* A template kernel's specialisation used other than in a launch or a call,
 * `(const void *)k<T>`, `reinterpret_cast<const void *>(&ns::k<T>)`, at
 * toks[i] (the name), becomes ::anyhip::detail::registered(&ns::k<T>): the
 * specialisation registers itself where the program takes its address, so
 * that hipLaunchKernel, hipLaunchCooperativeKernel, hipGraphAddKernelNode
 * and hipFuncGetAttributes know it (HIP registers every instantiated
 * kernel; hipcc cannot list them). */
static void by_address(struct prep *p, size_t i) {
  const struct ah_tokens *ts = &p->toks;
  size_t start = i, gt;
  const struct ah_token *after;

  if (!is(p, &ts->t[i + 1], "<") ||
      !template_kernel_name(p->cx, p->s + ts->t[i].off, ts->t[i].len))
    return;
  while (start >= 2 && is(p, &ts->t[start - 1], "::") && is_ident(&ts->t[start - 2]))
    start -= 2;
  if (start >= 1 && is(p, &ts->t[start - 1], "::"))
    start--;
  if (start >= 1 && (is(p, &ts->t[start - 1], ".") || is(p, &ts->t[start - 1], "->") ||
                     is(p, &ts->t[start - 1], "template") || is(p, &ts->t[start - 1], "::")))
    return;
  if (start >= 1 && is(p, &ts->t[start - 1], "&"))
    start--;
  if (start >= 2 && is(p, &ts->t[start - 1], "(") &&
      (is(p, &ts->t[start - 2], "decltype") || is(p, &ts->t[start - 2], "sizeof") ||
       is(p, &ts->t[start - 2], "HIP_KERNEL_NAME") ||
       is(p, &ts->t[start - 2], "hipLaunchKernelGGL")))
    return; /* the kernel of a launch, which may be rewritten as a whole */
  gt = match_angle_fwd(p, ts, i + 1, ts->n);
  if (gt == (size_t)-1)
    return;
  after = &ts->t[gt + 1];
  if (is(p, after, "(") || is(p, after, "<<<") || is(p, after, "::") || is(p, after, "<") ||
      is(p, after, ">"))
    return;
  if (start > 0 && is(p, &ts->t[start - 1], "(") && is(p, after, ")") &&
      is(p, &ts->t[gt + 2], "<<<"))
    return; /* (k<T>)<<<...>>>: a launch */
  add_edit(p, ts->t[start].off, 0, ah_xstrdup("::anyhip::detail::registered("));
  add_edit(p, ts->t[gt].off + 1, 0, ah_xstrdup(")"));
}

/* ---- the pass ---------------------------------------------------------------- */

static void scan(struct prep *p) {
  const struct ah_tokens *ts = &p->toks;
  size_t decl = 0; /* first token of the current namespace-scope declaration */
  int paren = 0;   /* () and [] depth inside that declaration */

  for (size_t i = 0; i < ts->n && ts->t[i].kind != AH_TOK_EOF; i++) {
    const struct ah_token *t = &ts->t[i];
    int ns = at_namespace_scope(p);

    if (t->kind == AH_TOK_DIRECTIVE) {
      size_t depth = p->nscopes;

      directive(p, t);
      if (decl == i)
        decl = i + 1;
      if (p->nscopes < depth && at_namespace_scope(p)) {
        decl = i + 1; /* back at namespace scope: the #else branch starts a declaration */
        paren = 0;
      }
      continue;
    }
    if (is(p, t, "<<<")) {
      i = chevron(p, ts, i) - 1;
      continue;
    }
    if (is(p, t, "hipLaunchKernelGGL"))
      ggl_call(p, ts, i);
    if (p->cx->target == AH_TARGET_CPU && is(p, t, "extern")) {
      size_t next = extern_shared(p, ts, i, 0, p->qfile);

      if (next != i + 1) {
        i = next - 1;
        if (ns)
          decl = next;
        continue;
      }
    }
    if (p->cx->target == AH_TARGET_CPU && is(p, t, "__shared__"))
      static_shared(p, ts, i);
    if (p->cx->target == AH_TARGET_CPU && is_ident(t) && !ns) {
      by_address(p, i);
      bare_template_arg(p, i);
    }
    if (t->kind != AH_TOK_PUNCT)
      continue;
    if (is(p, t, "{")) {
      struct ns_comp *comps;
      size_t n;

      if (ns && paren == 0 && parse_namespace(p, decl, i, &comps, &n)) {
        push_scope(p, SC_NS, comps, n);
      } else if (ns && paren == 0 && i == decl + 2 && is(p, &ts->t[decl], "extern") &&
                 ts->t[decl + 1].kind == AH_TOK_STRING) {
        push_scope(p, SC_LINKAGE, NULL, 0);
        p->scopes[p->nscopes - 1].c_linkage = is(p, &ts->t[decl + 1], "\"C\"");
      } else {
        if (ns && paren == 0) {
          note_kernel(p, decl, i, 1);
          if (p->cx->target == AH_TARGET_CPU)
            note_variables(p, decl, i, 1);
        }
        push_scope(p, SC_OTHER, NULL, 0);
      }
      p->scopes[p->nscopes - 1].decl = decl;
      p->scopes[p->nscopes - 1].paren = paren;
      if (at_namespace_scope(p)) {
        decl = i + 1;
        paren = 0;
      }
    } else if (is(p, t, "}")) {
      /* A brace inside a declaration's parentheses (a lambda in a default
       * argument) continues that declaration; any other ends it. */
      int inner = p->nscopes > 0 && p->scopes[p->nscopes - 1].paren > 0;
      size_t saved = p->nscopes > 0 ? p->scopes[p->nscopes - 1].decl : 0;
      int saved_paren = p->nscopes > 0 ? p->scopes[p->nscopes - 1].paren : 0;

      pop_scope(p);
      if (at_namespace_scope(p)) {
        decl = inner ? saved : i + 1;
        paren = inner ? saved_paren : 0;
      }
    } else if (ns && (is(p, t, "(") || is(p, t, "["))) {
      paren++;
    } else if (ns && (is(p, t, ")") || is(p, t, "]"))) {
      paren--;
    } else if (ns && paren == 0 && is(p, t, ";")) {
      note_kernel(p, decl, i, 0);
      if (p->cx->target == AH_TARGET_CPU)
        note_variables(p, decl, i, 0);
      decl = i + 1;
    }
  }
}

static int cmp_edit(const void *a, const void *b) {
  const struct edit *x = a, *y = b;

  if (x->off != y->off)
    return x->off < y->off ? -1 : 1;
  return x->seq < y->seq ? -1 : 1;
}

/* The file name as a C string literal body. */
static char *quote_file(const char *file) {
  char *q = ah_xmalloc(strlen(file) * 2 + 1), *o = q;

  for (const char *s = file; *s; s++) {
    if (*s == '\\' || *s == '"')
      *o++ = '\\';
    *o++ = *s;
  }
  *o = '\0';
  return q;
}

static void free_prep(struct prep *p) {
  while (p->nscopes)
    pop_scope(p);
  free(p->scopes);
  for (size_t i = 0; i < p->nconds; i++)
    ah_strv_free(&p->conds[i].chain);
  free(p->conds);
  for (size_t i = 0; i < p->nedits; i++)
    free(p->edits[i].ins);
  free(p->edits);
  for (size_t i = 0; i < p->nlaunches; i++) {
    free(p->launches[i].qual);
    free(p->launches[i].base);
    free(p->launches[i].targs);
  }
  free(p->launches);
  free(p->incs);
  free(p->lines);
  ah_tokens_free(&p->toks);
  free(p->text);
  free(p->path);
  free(p->real);
  free(p->qfile);
  free(p->mirror);
  free(p);
}

static void free_ctx(struct ctx *cx) {
  for (size_t i = 0; i < cx->nkernels; i++) {
    struct kernel *k = &cx->kernels[i];

    for (size_t c = 0; c < k->nns; c++)
      free(k->ns[c].name);
    free(k->ns);
    free(k->name);
    free(k->key);
    free(k->params);
    free(k->params_nodef);
    free(k->helper);
    free(k->bounds);
    ah_strv_free(&k->conds);
  }
  free(cx->kernels);
  for (size_t i = 0; i < cx->nvars; i++) {
    for (size_t c = 0; c < cx->vars[i].nns; c++)
      free(cx->vars[i].ns[c].name);
    free(cx->vars[i].ns);
    free(cx->vars[i].name);
    free(cx->vars[i].mangled);
    ah_strv_free(&cx->vars[i].conds);
  }
  free(cx->vars);
  ah_strv_free(&cx->host_fns);
  for (size_t i = 0; i < cx->nfiles; i++)
    free_prep(cx->files[i]);
  free(cx->files);
  free(cx->order);
  ah_strv_free(&cx->quote_dirs);
  ah_strv_free(&cx->dirs);
  free(cx->headers);
}

/* Reads, tokenizes and scans one file (and, through its #include lines, the
 * user headers it includes). A header already seen in this translation unit
 * is returned as it is. parent: the includer, whose open #if branches the
 * header's registrations repeat; NULL for the source. NULL when the file
 * cannot be read (the source: after an error message). */
static struct prep *prepare_one(struct ctx *cx, const char *path, const struct prep *parent) {
  char real[PATH_MAX], *text;
  struct prep *p;
  size_t len;

  if (realpath(path, real) == NULL)
    snprintf(real, sizeof(real), "%s", path);
  for (size_t i = 0; i < cx->nfiles; i++)
    if (strcmp(cx->files[i]->real, real) == 0)
      return cx->files[i];
  text = ah_read_file(path, &len);
  if (text == NULL) {
    if (parent == NULL)
      ah_error("cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  p = ah_xmalloc(sizeof(*p));
  memset(p, 0, sizeof(*p));
  p->cx = cx;
  p->path = ah_xstrdup(path);
  p->real = ah_xstrdup(real);
  p->file = p->path;
  p->is_header = parent != NULL;
  p->text = text;
  p->len = len;
  cx->files = grow_array(cx->files, &cx->capfiles, cx->nfiles + 1, sizeof(*cx->files));
  cx->files[cx->nfiles++] = p;
  if (p->len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
    /* A UTF-8 byte order mark is only allowed first: it goes before our #line. */
    memmove(text, text + 3, p->len - 2);
    p->len -= 3;
  }
  p->s = text;
  p->qfile = quote_file(path);
  index_lines(p);
  ah_lex(text, 0, p->len, 1, &p->toks);
  /* The compiler would say this too, but only of a header: what hipcc
   * appends to the source would close the comment and hide the mistake. */
  if (p->toks.open_comment != 0)
    error_at(p, p->toks.open_comment - 1, "unterminated comment");
  drop_dead(p);
  for (size_t i = 0; parent != NULL && i < parent->nconds; i++) {
    p->conds = grow_array(p->conds, &p->capconds, p->nconds + 1, sizeof(*p->conds));
    memset(&p->conds[p->nconds], 0, sizeof(*p->conds));
    ah_strv_append(&p->conds[p->nconds].chain, &parent->conds[i].chain);
    p->conds[p->nconds++].guard = parent->conds[i].guard;
  }
  scan(p);
  cx->order = grow_array(cx->order, &cx->caporder, cx->norder + 1, sizeof(*cx->order));
  cx->order[cx->norder++] = p;
  return p;
}

/* Points p's #include lines at the prepared copies of the headers that
 * changed; a header that changed (or includes one that did) is itself
 * written out. Called for headers before their includers. */
static void mirror_includes(struct prep *p) {
  int changed = p->nedits > 0;

  for (size_t i = 0; i < p->nincs; i++)
    changed |= p->incs[i].child->mirrored;
  for (size_t i = 0; i < p->nincs; i++) {
    const struct incl *in = &p->incs[i];
    size_t nl = count_newlines(p, in->off, in->off + in->len);
    char *q, *ins;

    /* In a copy, "x.h" would be looked for beside the copy: every header
     * found is named by its absolute name, the original's or its copy's. */
    if (!in->child->mirrored && !(p->is_header && changed))
      continue;
    q = quote_file(in->child->mirrored ? in->child->mirror : in->child->real);
    ins = ah_xasprintf("#include \"%s\"%*s", q, (int)nl, "");
    memset(ins + strlen(ins) - nl, '\n', nl);
    add_edit(p, in->off, in->len, ins);
    free(q);
  }
  if (p->is_header && changed) {
    p->mirrored = 1;
    p->mirror = ah_xasprintf("%s%s", p->cx->headers, p->real);
  }
}

/* Writes p with its edits, after a #line that names the original. */
static void write_prepared(struct prep *p, FILE *f) {
  size_t pos = 0;

  fprintf(f, "#line 1 \"%s\"\n", p->qfile);
  if (p->nedits > 0)
    qsort(p->edits, p->nedits, sizeof(*p->edits), cmp_edit);
  for (size_t i = 0; i < p->nedits; i++) {
    const struct edit *e = &p->edits[i];

    if (e->off < pos)
      continue; /* inside text an earlier edit replaced (never planned) */
    fwrite(p->s + pos, 1, e->off - pos, f);
    fputs(e->ins, f);
    pos = e->off + e->del;
  }
  fwrite(p->s + pos, 1, p->len - pos, f);
}

/* mkdir -p of the directory that will hold file. */
static int make_dirs(const char *file) {
  char *d = ah_xstrdup(file);
  int rc = 0;

  for (char *c = strchr(d + 1, '/'); c != NULL && rc == 0; c = strchr(c + 1, '/')) {
    *c = '\0';
    if (mkdir(d, 0777) != 0 && errno != EEXIST)
      rc = -1;
    *c = '/';
  }
  free(d);
  return rc;
}

static int write_header(struct prep *p) {
  FILE *f;

  if (make_dirs(p->mirror) != 0 || (f = fopen(p->mirror, "w")) == NULL) {
    ah_error("cannot write '%s': %s", p->mirror, strerror(errno));
    return 1;
  }
  write_prepared(p, f);
  if (ferror(f) | fclose(f)) {
    ah_error("cannot write '%s': %s", p->mirror, strerror(errno));
    return 1;
  }
  return 0;
}

/* The include directories of a compile's flags, as the compiler searches
 * them for "x.h" (-iquote, then -I) and for <x.h> (-I). */
static void include_dirs(struct ctx *cx, const struct ah_strv *flags) {
  struct ah_strv iq = {0};

  for (size_t i = 0; flags != NULL && i < flags->n; i++) {
    const char *a = flags->v[i];
    int quote = strncmp(a, "-iquote", 7) == 0;
    size_t n = quote ? 7 : 2;

    if (!quote && strncmp(a, "-I", 2) != 0)
      continue;
    if (a[n] == '\0' && i + 1 < flags->n)
      a = flags->v[++i];
    else
      a += n;
    ah_strv_push(quote ? &iq : &cx->dirs, a);
  }
  ah_strv_append(&cx->quote_dirs, &iq);
  ah_strv_append(&cx->quote_dirs, &cx->dirs);
  ah_strv_free(&iq);
}

int ah_prepare_file(const char *in, const char *out, enum ah_target target, const char *headers,
                    const struct ah_strv *flags) {
  struct ctx cx = {.target = target};
  struct prep *p;
  FILE *f;
  int rc = 1;

  include_dirs(&cx, flags);
  if (headers != NULL) {
    char cwd[PATH_MAX];

    if (headers[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL)
      cx.headers = ah_xasprintf("%s/%s", cwd, headers);
    else
      cx.headers = ah_xstrdup(headers);
  }
  p = prepare_one(&cx, in, NULL);
  if (p == NULL || cx.errors)
    goto done;
  for (size_t i = 0; i < cx.nfiles; i++)
    rewrite_launches(cx.files[i]);
  add_helpers(&cx);
  for (size_t i = 0; i < cx.norder; i++)
    mirror_includes(cx.order[i]);
  for (size_t i = 0; i < cx.nfiles; i++)
    if (cx.files[i]->mirrored && write_header(cx.files[i]))
      goto done;

  f = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
  if (f == NULL) {
    ah_error("cannot write '%s': %s", out, strerror(errno));
    goto done;
  }
  write_prepared(p, f);
  if (target == AH_TARGET_CPU)
    emit_registrations(&cx, f);
  if (ferror(f) | (f != stdout ? fclose(f) : fflush(f))) {
    ah_error("cannot write '%s': %s", out, strerror(errno));
    goto done;
  }
  rc = 0;
done:
  free_ctx(&cx);
  return rc;
}
