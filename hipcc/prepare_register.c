/* SPDX-License-Identifier: MIT */
/* Source preparation, kernel registration: the __global__ functions a
 * translation unit declares (name, namespaces, parameters, #if conditions,
 * __launch_bounds__), the registration statements appended to the source,
 * and template kernels named by address or given bare to the occupancy
 * templates, which register the specialisation they name. */
#include "prepare_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Looks at one namespace-scope declaration, toks[a, b) where toks[b] is the
 * `{` of a definition or the `;` of a declaration, and records it when it
 * declares a __global__ function. */
/* The first argument (max threads) of the `__launch_bounds__(` at token k,
 * as text, or NULL when it is empty. */
static char *launch_bounds_max(const struct prep *p, const struct ah_tokens *ts, size_t k) {
  size_t end = ah_prep_match_fwd(p, ts, k + 1), e = k + 2;

  while (e < end && !is(p, &ts->t[e], ",")) {
    if (is(p, &ts->t[e], "(") || is(p, &ts->t[e], "[") || is(p, &ts->t[e], "{"))
      e = ah_prep_match_fwd(p, ts, e);
    e++;
  }
  if (e > end)
    e = end;
  return e > k + 2 ? ah_prep_join_tokens(p, ts, k + 2, e) : NULL;
}

void ah_prep_note_kernel(struct prep *p, size_t a, size_t b, int is_def) {
  const struct ah_tokens *ts = &p->toks;
  int global = 0, templ = 0;
  size_t name_end = 0, name_start, close, from = a;
  struct kernel *kr;
  char *qual;

  for (size_t k = a; k < b; k++) {
    if (is(p, &ts->t[k], "__global__")) {
      if (!global)
        from = k;
      global = 1;
    } else if (is(p, &ts->t[k], "template"))
      templ = 1;
  }
  if (!global) {
    /* A host function's name, in case a kernel shares it. */
    for (size_t k = a; k + 1 < b; k++) {
      if (is(p, &ts->t[k + 1], "(") && is_ident(&ts->t[k]) && k > a &&
          ah_prep_skip_attribute(p, ts, k) == k && !ah_prep_stops_callee(p, &ts->t[k])) {
        char *n = ah_prep_join_tokens(p, ts, k, k + 1);

        if (!ah_prep_host_function(p->cx, n))
          ah_strv_push(&p->cx->host_fns, n);
        free(n);
        break;
      }
    }
    return;
  }
  /* The declarator: the first `(` after __global__ whose name is not an
   * attribute (what comes before may be a macro's use without a `;`,
   * `DEFINE_KERNELS(int)`, which is no part of this declaration). */
  for (size_t k = from; k < b && name_end == 0;) {
    size_t n = ah_prep_skip_attribute(p, ts, k);

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
  close = ah_prep_match_fwd(p, ts, name_end);
  if (close > b)
    return;

  p->cx->kernels = grow_array(p->cx->kernels, &p->cx->capkernels, p->cx->nkernels + 1, sizeof(*p->cx->kernels));
  kr = &p->cx->kernels[p->cx->nkernels++];
  memset(kr, 0, sizeof(*kr));
  kr->owner = p;
  kr->name = ah_prep_join_tokens(p, ts, name_start, name_end);
  kr->params = ah_prep_join_tokens(p, ts, name_end + 1, close);
  kr->is_template = templ;
  kr->is_def = is_def;
  /* `{}`: nothing between the braces, not even a preprocessor line. */
  kr->empty = is_def && is(p, &ts->t[b], "{") && is(p, &ts->t[b + 1], "}");
  kr->line = ah_prep_line_of(p, ts->t[name_end - 1].off);
  kr->params_nodef = ah_xstrdup("");
  for (size_t k = name_end + 1, from = k; k <= close; k++) {
    if (k < close && (is(p, &ts->t[k], "(") || is(p, &ts->t[k], "[") || is(p, &ts->t[k], "{"))) {
      k = ah_prep_match_fwd(p, ts, k);
    } else if (k < close && is(p, &ts->t[k], "=")) {
      char *part = ah_prep_join_tokens(p, ts, from, k), *n;

      kr->has_default = 1;
      n = ah_xasprintf("%s%s%s", kr->params_nodef, *kr->params_nodef ? ", " : "", part);
      free(part);
      free(kr->params_nodef);
      kr->params_nodef = n;
      while (k < close && !is(p, &ts->t[k], ",")) {
        if (is(p, &ts->t[k], "(") || is(p, &ts->t[k], "[") || is(p, &ts->t[k], "{"))
          k = ah_prep_match_fwd(p, ts, k);
        else if (is(p, &ts->t[k], "<") && is_ident(&ts->t[k - 1]))
          k = ah_prep_match_angle_fwd(p, ts, k, close) == (size_t)-1
                  ? k
                  : ah_prep_match_angle_fwd(p, ts, k, close);
        k++;
      }
      from = k + 1;
    } else if (k == close || is(p, &ts->t[k], ",")) {
      if (k > from) {
        char *part = ah_prep_join_tokens(p, ts, from, k), *n;

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
      kr->bounds = launch_bounds_max(p, ts, k);
      break;
    }
  }
  qual = ah_prep_current_namespaces(p, &kr->ns, &kr->nns);
  kr->key = ah_xasprintf("%s%s", qual, kr->name);
  free(qual);
  /* Every declaration of a template gets its own deduction declaration: they
   * redeclare one function template, with defaults where the kernel's are. */
  if (templ && name_end - name_start == 1 && !is(p, &ts->t[name_end - 1], ">"))
    ah_prep_deduce_helper(p, kr, a, b, name_start);
  ah_prep_current_conds(p, &kr->conds);
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

/* Appends the registrations: one static initializer per kernel (an empty
 * one's says so: the CPU device runs none of its blocks), reopening
 * its namespaces so that its name and parameter types resolve as they did at
 * the definition. A name defined once is registered as &name; overloads
 * (or alternatives under #if) through a cast to their exact type; a name
 * that also names a template is skipped, since &name would be ambiguous. */
void ah_prep_emit_registrations(struct ctx *cx, FILE *f) {
  int n = 0;

  for (size_t i = 0; i < cx->nkernels; i++) {
    const struct kernel *k = &cx->kernels[i];
    int defs = 0, templ = 0;
    size_t nl;
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
    /* Overloaded, also a template's name, or a host function's (HIP lets a
     * host function overload a kernel): the cast picks this one. */
    if (defs == 1 && !templ && !ah_prep_host_function(cx, ah_prep_key_base(k->key, &nl)))
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
                          "::anyhip::detail::register_%skernel(%s, (long long)(%s));",
                          n - 1, k->empty ? "empty_" : "", expr, bounds);
    else
      stmt = ah_xasprintf("static int __ah_kreg_%d __attribute__((unused)) = "
                          "::anyhip::detail::register_%skernel(%s);",
                          n - 1, k->empty ? "empty_" : "", expr);
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

/* Whether `name` (len n) is the unqualified name of a template kernel seen so far. */
static int template_kernel_name(const struct ctx *cx, const char *name, size_t n) {
  for (size_t i = 0; i < cx->nkernels; i++) {
    size_t nl;
    const char *b = ah_prep_key_base(cx->kernels[i].key, &nl);

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
void ah_prep_bare_template_arg(struct prep *p, size_t i) {
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
void ah_prep_by_address(struct prep *p, size_t i) {
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
  gt = ah_prep_match_angle_fwd(p, ts, i + 1, ts->n);
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

size_t ah_prep_macro_kernel(struct prep *p, const struct ah_tokens *ts, size_t k) {
  size_t j, name_end = 0, name_start, close, body, body_end;
  char *name, *stmt, *bounds = NULL;

  /* Templates are left alone (their specialisations register where used). */
  for (j = k; j > 0; j--) {
    const struct ah_token *t = &ts->t[j - 1];

    if (is(p, t, ";") || is(p, t, "}") || is(p, t, "{"))
      break;
    if (is(p, t, "template") || is(p, t, ">"))
      return k + 1;
  }
  /* The declarator: the first `(` that no attribute opens. */
  for (j = k; j < ts->n && ts->t[j].kind != AH_TOK_EOF && name_end == 0;) {
    size_t n = ah_prep_skip_attribute(p, ts, j);

    if (n != j)
      j = n;
    else if (is(p, &ts->t[j], ";") || is(p, &ts->t[j], "{") || is(p, &ts->t[j], "<"))
      return k + 1;
    else if (is(p, &ts->t[j], "("))
      name_end = j;
    else
      j++;
  }
  if (name_end == 0 || !is_ident(&ts->t[name_end - 1]))
    return k + 1;
  /* The name: identifiers joined by ## (`T ## _kernel`, `prefix ## T`). */
  name_start = name_end - 1;
  while (name_start >= k + 2 && is(p, &ts->t[name_start - 1], "##") &&
         is_ident(&ts->t[name_start - 2]))
    name_start -= 2;
  close = ah_prep_match_fwd(p, ts, name_end);
  if (close >= ts->n || ts->t[close].kind == AH_TOK_EOF)
    return k + 1;
  /* A definition: its body, after what may follow the parameters. */
  for (body = close + 1; body < ts->n && ts->t[body].kind != AH_TOK_EOF; body++) {
    if (is(p, &ts->t[body], "{") || is(p, &ts->t[body], ";"))
      break;
    if (is(p, &ts->t[body], "("))
      body = ah_prep_match_fwd(p, ts, body);
  }
  if (body >= ts->n || !is(p, &ts->t[body], "{"))
    return close + 1;
  body_end = ah_prep_match_fwd(p, ts, body);
  if (body_end >= ts->n || !is(p, &ts->t[body_end], "}"))
    return close + 1;
  /* __launch_bounds__(max, ...) before the name or after the parameters. */
  for (j = k; j < body; j++) {
    if (j == name_end) {
      j = close;
    } else if (is(p, &ts->t[j], "__launch_bounds__") && is(p, &ts->t[j + 1], "(")) {
      bounds = launch_bounds_max(p, ts, j);
      break;
    }
  }
  name = ah_prep_join_tokens(p, ts, name_start, name_end);
  /* One line (a macro body): the variable's name pastes the kernel's. */
  stmt = ah_xasprintf(" static int __ah_kregm_ ## %s __attribute__((unused)) = "
                      "::anyhip::detail::register_%skernel(&%s%s%s%s);",
                      name, body_end == body + 1 ? "empty_" : "", name,
                      bounds ? ", (long long)(" : "", bounds ? bounds : "", bounds ? ")" : "");
  free(name);
  free(bounds);
  add_edit(p, ts->t[body_end].off + 1, 0, stmt);
  return body_end + 1;
}
