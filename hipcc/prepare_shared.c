/* SPDX-License-Identifier: MIT */
/* Source preparation, shared memory: `extern __shared__ T a[];` becomes the
 * launch's dynamic shared buffer, and each static __shared__ declaration gets
 * a static_assert that it fits the CPU device's 64 KiB, as a GPU toolchain
 * refuses a kernel whose static shared memory does not fit. */
#include "prepare_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CPU device's shared memory per block (cpu_backend.c's
 * sharedMemPerBlock). */
#define AH_CPU_SHARED_LIMIT 65536

/* `extern __shared__ [attrs] T name[];` at ts->t[i] (the `extern`). In a
 * #define body (in_macro) the `;` may be left to the macro's user and the
 * scope is taken to be a function's. Returns the index after the
 * declaration, or i + 1 when this is some other extern. */
size_t ah_prep_extern_shared(struct prep *p, const struct ah_tokens *ts, size_t i, int in_macro,
                             const char *qfile) {
  size_t k = i + 1, name = 0, end, *decl = NULL, ndecl = 0, cap = 0;
  int shared = 0, has_semi = 0;
  char *type, *ins, *o;

  for (; k < ts->n; k++) {
    const struct ah_token *t = &ts->t[k];
    size_t n = ah_prep_skip_attribute(p, ts, k);

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
      k = ah_prep_match_fwd(p, ts, k);
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
  if (!in_macro && ah_prep_at_namespace_scope(p)) {
    /* HIP allows it at namespace scope, where a variable cannot follow the
     * launch: every later use of the name reads the current launch's buffer. */
    ins = ah_xasprintf("\n#define %.*s (reinterpret_cast<%s *>(__ah_dynamic_shared()))\n"
                       "#line %zu \"%s\"\n",
                       (int)ts->t[name].len, p->s + ts->t[name].off, type,
                       ah_prep_line_of(p, end - 1), qfile);
  } else {
    ins = ah_xasprintf("%s *%.*s = reinterpret_cast<%s *>(__ah_dynamic_shared())%s", type,
                       (int)ts->t[name].len, p->s + ts->t[name].off, type,
                       has_semi ? ";" : "");
  }
  {
    /* The declaration's newlines go first, so that what follows its `;`
     * stays on its line (in a macro, as line continuations); the indentation
     * of `extern` comes after them. */
    size_t nl = ah_prep_count_newlines(p, ts->t[i].off, end);
    size_t col = nl ? ts->t[i].off - p->lines[ah_prep_line_of(p, ts->t[i].off) - 1] : 0;
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

/* `[static] __shared__ [attrs] T a[...], b;` with ts->t[i] the `__shared__`:
 * each declared name gets a static_assert after the `;` that its size fits
 * the device's shared memory, as a GPU toolchain refuses a kernel whose
 * static shared memory is over the limit. On the line of the `;` (line
 * numbers kept). Declarations it cannot read are left alone. */
void ah_prep_static_shared(struct prep *p, const struct ah_tokens *ts, size_t i) {
  size_t k, last = 0, *names = NULL, nnames = 0, cap = 0;
  int angle = 0, done = 0;

  if (i > 0 && is(p, &ts->t[i - 1], "extern"))
    return;
  for (k = i + 1; k < ts->n; k++) {
    const struct ah_token *t = &ts->t[k];
    size_t n = ah_prep_skip_attribute(p, ts, k);

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
        k = ah_prep_match_fwd(p, ts, k);
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
