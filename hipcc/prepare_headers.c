/* SPDX-License-Identifier: MIT */
/* Source preparation, user headers: an #include resolved as the compiler
 * would ("x.h" beside the includer, then -iquote, then -I; <x.h> through -I),
 * the header prepared as part of the translation unit, and, when it changed,
 * written to the mirror directory that the #include lines then name. */
#include "prepare_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
void ah_prep_include_header(struct prep *p, const struct ah_token *t, size_t after) {
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
  child = ah_prep_prepare_one(p->cx, path, p);
  free(path);
  if (child == NULL) {
    ah_prep_error_at(p, t->off, "cannot prepare the header this line includes");
    return;
  }
  p->incs = grow_array(p->incs, &p->capincs, p->nincs + 1, sizeof(*p->incs));
  p->incs[p->nincs++] = (struct incl){.off = t->off, .len = t->len, .child = child};
}

/* Points p's #include lines at the prepared copies of the headers that
 * changed; a header that changed (or includes one that did) is itself
 * written out. Called for headers before their includers. */
void ah_prep_mirror_includes(struct prep *p) {
  int changed = p->nedits > 0;

  for (size_t i = 0; i < p->nincs; i++)
    changed |= p->incs[i].child->mirrored;
  for (size_t i = 0; i < p->nincs; i++) {
    const struct incl *in = &p->incs[i];
    size_t nl = ah_prep_count_newlines(p, in->off, in->off + in->len);
    char *q, *ins;

    /* In a copy, "x.h" would be looked for beside the copy: every header
     * found is named by its absolute name, the original's or its copy's. */
    if (!in->child->mirrored && !(p->is_header && changed))
      continue;
    q = ah_prep_quote_file(in->child->mirrored ? in->child->mirror : in->child->real);
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

int ah_prep_write_header(struct prep *p) {
  FILE *f;

  if (make_dirs(p->mirror) != 0 || (f = fopen(p->mirror, "w")) == NULL) {
    ah_error("cannot write '%s': %s", p->mirror, strerror(errno));
    return 1;
  }
  ah_prep_write_prepared(p, f);
  if (ferror(f) | fclose(f)) {
    ah_error("cannot write '%s': %s", p->mirror, strerror(errno));
    return 1;
  }
  return 0;
}

/* The include directories of a compile's flags, as the compiler searches
 * them for "x.h" (-iquote, then -I) and for <x.h> (-I). */
void ah_prep_include_dirs(struct ctx *cx, const struct ah_strv *flags) {
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
