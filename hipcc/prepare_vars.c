/* SPDX-License-Identifier: MIT */
/* Source preparation, device symbols: namespace-scope __device__,
 * __constant__ and __managed__ variables (their symbol names for the NVIDIA
 * device, static in headers), and without -fgpu-rdc the pure __device__
 * functions declared but not defined, renamed so that using one of another
 * source fails the link as in HIP. */
#include "prepare_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  return ah_prep_is_type_keyword(p, t) || is(p, t, "float") || is(p, t, "double") ||
         is(p, t, "void");
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
  v->line = ah_prep_line_of(p, name->off);
  qual = ah_prep_current_namespaces(p, &v->ns, &v->nns);
  free(qual);
  ah_prep_current_conds(p, &v->conds);
  v->mangled = mangle(v, internal, c_linkage);
}

/* Looks at one namespace-scope declaration, toks[a, b) where toks[b] is its
 * `;` or a `{` (a braced initializer), and records the variables it defines
 * when it is a __device__, __constant__ or __managed__ variable definition:
 *   __device__ int x;  __constant__ float c[16] = {...};  __device__ T a, *b = &a;
 * A function (a `(` before any declarator ends), a declaration (`extern`), a
 * type, a template and anything not understood are left alone: those are
 * found through the ELF tables as before. */
void ah_prep_note_variables(struct prep *p, size_t a, size_t b, int at_brace) {
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
    size_t n = ah_prep_skip_attribute(p, ts, k);

    if (n != k) {
      k = n - 1;
    } else if (is(p, t, "<") && k > a && is_ident(&ts->t[k - 1])) {
      angle++;
    } else if (is(p, t, ">") && angle > 0) {
      angle--;
    } else if (angle > 0) {
      if (is(p, t, "(") || is(p, t, "[") || is(p, t, "{"))
        k = ah_prep_match_fwd(p, ts, k);
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

      while (ah_prep_skip_attribute(p, ts, at) != at)
        at = ah_prep_skip_attribute(p, ts, at);
      add_edit(p, ts->t[at].off, 0, ah_xstrdup("static "));
      made_static = 1;
    }
    add_var(p, &ts->t[prev], internal || (cst && !vol), managed);
    /* Past its array bounds and initializer to the next `,`. */
    while (k < b && !is(p, &ts->t[k], ",")) {
      if (is(p, &ts->t[k], "(") || is(p, &ts->t[k], "[") || is(p, &ts->t[k], "{"))
        k = ah_prep_match_fwd(p, ts, k);
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

/* The function a namespace-scope declaration toks[a, b) declares: the index
 * of its name (the identifier before the first `(` outside brackets), or
 * (size_t)-1 when it declares none that can be named so. */
static size_t function_name(const struct prep *p, size_t a, size_t b) {
  const struct ah_tokens *ts = &p->toks;

  for (size_t k = a; k < b; k++) {
    size_t n = ah_prep_skip_attribute(p, ts, k);

    if (n != k) {
      k = n - 1;
    } else if (is(p, &ts->t[k], "(")) {
      if (k == a || !is_ident(&ts->t[k - 1]) || excluded_name(p, &ts->t[k - 1]) ||
          is(p, &ts->t[k - 1], "operator") || (k > a + 1 && is(p, &ts->t[k - 2], "::")))
        return (size_t)-1;
      return k - 1;
    } else if (is(p, &ts->t[k], "[") || is(p, &ts->t[k], "{") || is(p, &ts->t[k], "=")) {
      return (size_t)-1;
    }
  }
  return (size_t)-1;
}

/* A namespace-scope declaration toks[a, b): at a `{` (at_brace) the name of
 * the function it defines is noted; at a `;`, a declaration of a pure
 * __device__ function (not __host__, static, inline, a template, a reserved
 * __name, nor already renamed) is kept for rename_device_decls. */
void ah_prep_note_device_decl(struct prep *p, size_t a, size_t b, int at_brace) {
  static const char *const skip[] = {"__host__", "__global__", "static", "inline",
                                     "__forceinline__", "constexpr", "template", "typedef",
                                     "using", "friend", "asm", "__asm__", "__asm", "=",
                                     "operator", NULL};
  const struct ah_tokens *ts = &p->toks;
  size_t name = function_name(p, a, b), open;
  int dev = 0;
  struct dev_decl *d;

  if (name == (size_t)-1)
    return;
  if (at_brace) {
    char *n = ah_prep_join_tokens(p, ts, name, name + 1);

    ah_strv_push(&p->cx->defined_fns, n);
    free(n);
    return;
  }
  for (size_t k = a; k < b; k++) {
    dev |= is(p, &ts->t[k], "__device__");
    for (int i = 0; skip[i]; i++)
      if (is(p, &ts->t[k], skip[i]))
        return;
  }
  open = name + 1;
  /* `__device__ T x(5);` initializes a variable: no type starts the list. A
   * reserved name (`__fdividef`) redeclares one of the implementation's. */
  if (!dev || (ts->t[name].len >= 2 && p->s[ts->t[name].off] == '_' &&
               p->s[ts->t[name].off + 1] == '_') ||
      ah_prep_match_fwd(p, ts, open) >= b ||
      (open + 1 < b && !is_ident(&ts->t[open + 1]) && !is(p, &ts->t[open + 1], ")") &&
       !is(p, &ts->t[open + 1], "::")))
    return;
  p->cx->dev_decls = grow_array(p->cx->dev_decls, &p->cx->capdev_decls, p->cx->ndev_decls + 1,
                                sizeof(*p->cx->dev_decls));
  d = &p->cx->dev_decls[p->cx->ndev_decls++];
  d->owner = p;
  d->semi = ts->t[b].off;
  d->name = ah_prep_join_tokens(p, ts, name, name + 1);
}

/* Without -fgpu-rdc, HIP compiles each source's device code alone: a call to
 * a __device__ function that another source defines is an undefined symbol
 * when the program is linked. On the CPU device such a function is a host
 * function that would link; its declarations get an assembler name that no
 * source defines, so the link fails as HIP's does, naming the function:
 *   undefined reference to `twice.defined_in_another_source.needs_fgpu_rdc'
 * A function this translation unit also defines keeps its name. */
void ah_prep_rename_device_decls(struct ctx *cx) {
  for (size_t i = 0; i < cx->ndev_decls && !cx->rdc; i++) {
    const struct dev_decl *d = &cx->dev_decls[i];
    int defined = 0;

    for (size_t j = 0; j < cx->defined_fns.n && !defined; j++)
      defined = strcmp(cx->defined_fns.v[j], d->name) == 0;
    if (!defined)
      add_edit(d->owner, d->semi, 0,
               ah_xasprintf(" __asm__(\"%s.defined_in_another_source.needs_fgpu_rdc\")",
                            d->name));
  }
}

/* With -fgpu-rdc, the pure __device__ functions this translation unit calls
 * but does not define are another source's: the kernel compiler cannot see
 * whether they wait at a barrier or read threadIdx, so the names go to it in
 * __anyhip_rdc_extern_device ("name" "\0" ...), and a kernel that calls one
 * keeps the fiber engine (kernel-compiler/kernel_module.cpp). */
void ah_prep_emit_extern_device(struct ctx *cx, FILE *f) {
  int n = 0;

  for (size_t i = 0; i < cx->ndev_decls && cx->rdc; i++) {
    const struct dev_decl *d = &cx->dev_decls[i];
    int seen = 0;

    for (size_t j = 0; j < cx->defined_fns.n && !seen; j++)
      seen = strcmp(cx->defined_fns.v[j], d->name) == 0;
    for (size_t j = 0; j < i && !seen; j++)
      seen = strcmp(cx->dev_decls[j].name, d->name) == 0;
    if (seen)
      continue;
    if (n++ == 0)
      fputs("\n/* hipcc: device functions of other sources (-fgpu-rdc), for the kernel "
            "compiler */\n"
            "static const char __anyhip_rdc_extern_device[] __attribute__((used)) =",
            f);
    fprintf(f, " \"%s\" \"\\0\"", d->name);
  }
  if (n > 0)
    fputs(";\n", f);
}
