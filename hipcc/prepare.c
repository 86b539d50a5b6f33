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
 * rewrite), so the compiler's messages point at the user's file.
 *
 * This file is the pass: read, tokenize and scan each file of the
 * translation unit, then rewrite and write them. The scan hands each
 * construct to the part that knows it (prepare_internal.h has the shared
 * records): prepare_text.c (positions, errors, edits, token walks),
 * prepare_scope.c (namespaces, #if chains, #define bodies, #if 0),
 * prepare_headers.c (user headers and their prepared copies),
 * prepare_launch.c (launches and template argument deduction),
 * prepare_register.c (kernels and their registration, kernels by address),
 * prepare_vars.c (device variables; device functions of other sources),
 * prepare_shared.c (extern and static __shared__). */
#include "prepare_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Walks one file's tokens once, at namespace scope tracking the current
 * declaration: directives, launches, extern and static __shared__, kernels
 * and templates used by address, and at each `{` or `;` that ends a
 * namespace-scope declaration, the kernels, variables and device functions
 * it declares. */
static void scan(struct prep *p) {
  const struct ah_tokens *ts = &p->toks;
  size_t decl = 0; /* first token of the current namespace-scope declaration */
  int paren = 0;   /* () and [] depth inside that declaration */

  for (size_t i = 0; i < ts->n && ts->t[i].kind != AH_TOK_EOF; i++) {
    const struct ah_token *t = &ts->t[i];
    int ns = ah_prep_at_namespace_scope(p);

    if (t->kind == AH_TOK_DIRECTIVE) {
      size_t depth = p->nscopes;

      ah_prep_directive(p, t);
      if (decl == i)
        decl = i + 1;
      if (p->nscopes < depth && ah_prep_at_namespace_scope(p)) {
        decl = i + 1; /* back at namespace scope: the #else branch starts a declaration */
        paren = 0;
      }
      continue;
    }
    if (is(p, t, "<<<")) {
      i = ah_prep_chevron(p, ts, i) - 1;
      continue;
    }
    if (is(p, t, "hipLaunchKernelGGL"))
      ah_prep_ggl_call(p, ts, i);
    if (p->cx->target == AH_TARGET_CPU && is(p, t, "extern")) {
      size_t next = ah_prep_extern_shared(p, ts, i, 0, p->qfile);

      if (next != i + 1) {
        i = next - 1;
        if (ns)
          decl = next;
        continue;
      }
    }
    if (p->cx->target == AH_TARGET_CPU && is(p, t, "__shared__"))
      ah_prep_static_shared(p, ts, i);
    if (p->cx->target == AH_TARGET_CPU && is_ident(t) && !ns) {
      ah_prep_by_address(p, i);
      ah_prep_bare_template_arg(p, i);
    }
    if (t->kind != AH_TOK_PUNCT)
      continue;
    if (is(p, t, "{")) {
      struct ns_comp *comps;
      size_t n;

      if (ns && paren == 0 && ah_prep_parse_namespace(p, decl, i, &comps, &n)) {
        ah_prep_push_scope(p, SC_NS, comps, n);
      } else if (ns && paren == 0 && i == decl + 2 && is(p, &ts->t[decl], "extern") &&
                 ts->t[decl + 1].kind == AH_TOK_STRING) {
        ah_prep_push_scope(p, SC_LINKAGE, NULL, 0);
        p->scopes[p->nscopes - 1].c_linkage = is(p, &ts->t[decl + 1], "\"C\"");
      } else {
        if (ns && paren == 0) {
          ah_prep_note_kernel(p, decl, i, 1);
          if (p->cx->target == AH_TARGET_CPU)
            ah_prep_note_variables(p, decl, i, 1);
          if (p->cx->target == AH_TARGET_CPU)
            ah_prep_note_device_decl(p, decl, i, 1);
        }
        ah_prep_push_scope(p, SC_OTHER, NULL, 0);
      }
      p->scopes[p->nscopes - 1].decl = decl;
      p->scopes[p->nscopes - 1].paren = paren;
      if (ah_prep_at_namespace_scope(p)) {
        decl = i + 1;
        paren = 0;
      }
    } else if (is(p, t, "}")) {
      /* A brace inside a declaration's parentheses (a lambda in a default
       * argument) continues that declaration; any other ends it. */
      int inner = p->nscopes > 0 && p->scopes[p->nscopes - 1].paren > 0;
      size_t saved = p->nscopes > 0 ? p->scopes[p->nscopes - 1].decl : 0;
      int saved_paren = p->nscopes > 0 ? p->scopes[p->nscopes - 1].paren : 0;

      ah_prep_pop_scope(p);
      if (ah_prep_at_namespace_scope(p)) {
        decl = inner ? saved : i + 1;
        paren = inner ? saved_paren : 0;
      }
    } else if (ns && (is(p, t, "(") || is(p, t, "["))) {
      paren++;
    } else if (ns && (is(p, t, ")") || is(p, t, "]"))) {
      paren--;
    } else if (ns && paren == 0 && is(p, t, ";")) {
      ah_prep_note_kernel(p, decl, i, 0);
      if (p->cx->target == AH_TARGET_CPU)
        ah_prep_note_variables(p, decl, i, 0);
      if (p->cx->target == AH_TARGET_CPU)
        ah_prep_note_device_decl(p, decl, i, 0);
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

static void free_prep(struct prep *p) {
  while (p->nscopes)
    ah_prep_pop_scope(p);
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
  ah_strv_free(&cx->defined_fns);
  for (size_t i = 0; i < cx->ndev_decls; i++)
    free(cx->dev_decls[i].name);
  free(cx->dev_decls);
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
struct prep *ah_prep_prepare_one(struct ctx *cx, const char *path, const struct prep *parent) {
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
  p->qfile = ah_prep_quote_file(path);
  ah_prep_index_lines(p);
  ah_lex(text, 0, p->len, 1, &p->toks);
  /* The compiler would say this too, but only of a header: what hipcc
   * appends to the source would close the comment and hide the mistake. */
  if (p->toks.open_comment != 0)
    ah_prep_error_at(p, p->toks.open_comment - 1, "unterminated comment");
  ah_prep_drop_dead(p);
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

/* Writes p with its edits, after a #line that names the original. */
void ah_prep_write_prepared(struct prep *p, FILE *f) {
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

int ah_prepare_file(const char *in, const char *out, enum ah_target target, const char *headers,
                    const struct ah_strv *flags, int rdc) {
  struct ctx cx = {.target = target, .rdc = rdc};
  struct prep *p;
  FILE *f;
  int rc = 1;

  ah_prep_include_dirs(&cx, flags);
  if (headers != NULL) {
    char cwd[PATH_MAX];

    if (headers[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL)
      cx.headers = ah_xasprintf("%s/%s", cwd, headers);
    else
      cx.headers = ah_xstrdup(headers);
  }
  p = ah_prep_prepare_one(&cx, in, NULL);
  if (p == NULL || cx.errors)
    goto done;
  for (size_t i = 0; i < cx.nfiles; i++)
    ah_prep_rewrite_launches(cx.files[i]);
  ah_prep_add_helpers(&cx);
  ah_prep_rename_device_decls(&cx);
  for (size_t i = 0; i < cx.norder; i++)
    ah_prep_mirror_includes(cx.order[i]);
  for (size_t i = 0; i < cx.nfiles; i++)
    if (cx.files[i]->mirrored && ah_prep_write_header(cx.files[i]))
      goto done;

  f = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
  if (f == NULL) {
    ah_error("cannot write '%s': %s", out, strerror(errno));
    goto done;
  }
  ah_prep_write_prepared(p, f);
  if (target == AH_TARGET_CPU) {
    ah_prep_emit_registrations(&cx, f);
    ah_prep_emit_extern_device(&cx, f);
  }
  if (ferror(f) | (f != stdout ? fclose(f) : fflush(f))) {
    ah_error("cannot write '%s': %s", out, strerror(errno));
    goto done;
  }
  rc = 0;
done:
  free_ctx(&cx);
  return rc;
}
