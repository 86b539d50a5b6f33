/* SPDX-License-Identifier: MIT */
/* The plan: every step of one hipcc run, built before anything runs, so that
 * `-###` can print exactly what a run would do. Per HIP source: prepare it
 * (in process), let the NVIDIA pass add its steps, compile the prepared file
 * with the host C++ compiler; plain C++ and C sources are compiled as they
 * are; then one link with libanyhip. The CPU pass is one host compile per
 * source: with clang++ 14 and anyhip's LLVM plugin (-fpass-plugin) when the
 * kernel compiler is on (DESIGN §7), else with the host C++ compiler. */
#include "hipcc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ah_step *new_step(struct ah_plan *p, enum ah_step_kind kind) {
  struct ah_step *s;

  if (p->n == p->cap) {
    p->cap = p->cap ? p->cap * 2 : 16;
    p->steps = realloc(p->steps, p->cap * sizeof(*p->steps));
    if (p->steps == NULL) {
      fputs("hipcc: error: out of memory\n", stderr);
      exit(1);
    }
  }
  s = &p->steps[p->n++];
  memset(s, 0, sizeof(*s));
  s->kind = kind;
  return s;
}

struct ah_step *ah_plan_add_run(struct ah_plan *p, const struct ah_strv *argv) {
  struct ah_step *s = new_step(p, AH_STEP_RUN);

  ah_strv_append(&s->argv, argv);
  return s;
}

struct ah_step *ah_plan_add_prepare(struct ah_plan *p, const struct ah_toolchain *tc,
                                    const char *in, const char *out, enum ah_target target) {
  struct ah_step *s = new_step(p, AH_STEP_PREPARE);

  s->in = ah_xstrdup(in);
  s->out = ah_xstrdup(out);
  s->target = target;
  ah_strv_push(&s->argv, tc->self);
  ah_strv_push(&s->argv, "--ah-prepare");
  ah_strv_push(&s->argv, target == AH_TARGET_CPU ? "--ah-target=cpu" : "--ah-target=nvidia");
  ah_strv_push(&s->argv, in);
  ah_strv_push(&s->argv, "-o");
  ah_strv_push(&s->argv, out);
  return s;
}

struct ah_step *ah_plan_add_fn(struct ah_plan *p, const char *desc, int (*fn)(void *),
                               void *arg) {
  struct ah_step *s = new_step(p, AH_STEP_FN);

  ah_strv_split(&s->argv, desc);
  s->fn = fn;
  s->arg = arg;
  return s;
}

char *ah_plan_temp(struct ah_plan *p, const char *src, const char *suffix) {
  char *stem = ah_path_stem(src), *r;

  if (p->tmpdir_is_cwd)
    r = ah_xasprintf("%s%s", stem, suffix);
  else
    r = ah_xasprintf("%s/%d-%s%s", p->tmpdir, p->counter, stem, suffix);
  free(stem);
  return r;
}

/* ---- dependency files ---------------------------------------------------- */

/* gcc names the prepared file in a .d file; make must see the user's source. */
struct fix_deps {
  char *file, *from, *to;
};

static int fix_deps(void *arg) {
  struct fix_deps *d = arg;
  size_t len, nfrom = strlen(d->from);
  char *text = ah_read_file(d->file, &len), *hit, *pos;
  FILE *f;

  if (text == NULL)
    return 0; /* no .d file was asked for this output after all */
  f = fopen(d->file, "w");
  if (f == NULL) {
    ah_error("cannot write '%s': %s", d->file, strerror(errno));
    free(text);
    return 1;
  }
  for (pos = text; (hit = strstr(pos, d->from)) != NULL; pos = hit + nfrom) {
    fwrite(pos, 1, (size_t)(hit - pos), f);
    fputs(d->to, f);
  }
  fputs(pos, f);
  free(text);
  return fclose(f) != 0;
}

/* Also reachable as `hipcc --ah-fix-deps FILE FROM TO`, so printed plans run. */
int ah_plan_fix_deps(const char *file, const char *from, const char *to) {
  struct fix_deps d = {(char *)file, (char *)from, (char *)to};

  return fix_deps(&d);
}

/* Copies a file to standard output (-E of a HIP source without -o). */
static int print_file(void *arg) {
  size_t len;
  char *text = ah_read_file(arg, &len);

  if (text == NULL) {
    ah_error("cannot read '%s': %s", (const char *)arg, strerror(errno));
    return 1;
  }
  fwrite(text, 1, len, stdout);
  free(text);
  return fflush(stdout) != 0;
}

/* Removes a file that may not exist (--emit-static-lib's old archive). */
static int remove_file(void *arg) {
  if (unlink(arg) != 0 && errno != ENOENT) {
    ah_error("cannot remove '%s': %s", (const char *)arg, strerror(errno));
    return 1;
  }
  return 0;
}

/* ---- building ------------------------------------------------------------ */

static char *replace_ext(const char *path, const char *ext) {
  const char *e = ah_path_ext(path);

  return ah_xasprintf("%.*s%s", (int)(e - path), path, ext);
}

/* The output of one source compile: -o, or <stem>.o / <stem>.s in the current
 * directory, or stdout (NULL) for -E; a temporary object when linking. */
static char *source_output(struct ah_plan *p, const struct ah_opts *o, const char *src) {
  char *stem, *r;

  switch (o->mode) {
  case AH_MODE_LINK:
    return ah_plan_temp(p, src, ".o");
  case AH_MODE_PREPROCESS:
    return o->output ? ah_xstrdup(o->output) : NULL;
  default:
    if (o->output)
      return ah_xstrdup(o->output);
    stem = ah_path_stem(src);
    r = ah_xasprintf("%s%s", stem, o->mode == AH_MODE_COMPILE ? ".o" : ".s");
    free(stem);
    return r;
  }
}

static const char *mode_flag(enum ah_mode m) {
  return m == AH_MODE_PREPROCESS ? "-E" : m == AH_MODE_ASSEMBLY ? "-S" : "-c";
}

/* Whether -g asks for debug information and no -gdwarf-N names its version.
 * clang 14's DWARF 5 (DW_FORM_rnglistx, strx) is more than valgrind 3.19
 * (Debian 12) reads, while g++ 12's DWARF 5 is not; the kernel compiler's
 * CPU pass then asks for DWARF 4, which every debugger reads. */
static int wants_default_dwarf(const struct ah_opts *o) {
  int g = 0;

  for (size_t i = 0; i < o->common_flags.n; i++) {
    const char *f = o->common_flags.v[i];

    if (strncmp(f, "-gdwarf", 7) == 0)
      return 0;
    if (strcmp(f, "-g0") == 0)
      g = 0;
    else if (strcmp(f, "-g") == 0 || strcmp(f, "-ggdb") == 0 || strcmp(f, "-g1") == 0 ||
             strcmp(f, "-g2") == 0 || strcmp(f, "-g3") == 0 || strcmp(f, "-ggdb3") == 0)
      g = 1;
  }
  return g;
}

/* Gives a CPU preparation step the directory for prepared headers and the
 * compile's include directories, in its printed command too. */
static void prepare_headers(struct ah_step *st, const char *headers, const struct ah_strv *flags,
                            int rdc) {
  st->headers = ah_xstrdup(headers);
  st->rdc = rdc;
  for (size_t i = 0; i < flags->n; i++) {
    const char *a = flags->v[i];
    int pair = strcmp(a, "-I") == 0 || strcmp(a, "-iquote") == 0;

    if (!pair && strncmp(a, "-I", 2) != 0 && strncmp(a, "-iquote", 7) != 0)
      continue;
    ah_strv_push(&st->flags, a);
    if (pair && i + 1 < flags->n)
      ah_strv_push(&st->flags, flags->v[++i]);
  }
  /* Printed before the input: `--ah-prepare --ah-target=cpu --ah-headers=DIR -I... in -o out`. */
  {
    struct ah_strv argv = {0};

    for (size_t i = 0; i < 3; i++)
      ah_strv_push(&argv, st->argv.v[i]);
    if (rdc)
      ah_strv_push(&argv, "-fgpu-rdc");
    ah_strv_pushf(&argv, "--ah-headers=%s", headers);
    ah_strv_append(&argv, &st->flags);
    for (size_t i = 3; i < st->argv.n; i++)
      ah_strv_push(&argv, st->argv.v[i]);
    ah_strv_free(&st->argv);
    st->argv = argv;
  }
}

/* Moves the NVIDIA pass's steps [lo, hi) after the CPU pass's compile, the
 * steps from hi to the end: a source that does not compile stops the build
 * there, with the host compiler's messages only, instead of nvcc's
 * first (naming the prepared copy) and a warning that the device code will
 * run on the CPU only. */
static void run_cpu_pass_first(struct ah_plan *p, size_t lo, size_t hi) {
  size_t nv = hi - lo, cpu = p->n - hi;
  struct ah_step *tmp;

  if (nv == 0 || cpu == 0)
    return;
  tmp = ah_xmalloc(nv * sizeof(*tmp));
  memcpy(tmp, p->steps + lo, nv * sizeof(*tmp));
  memmove(p->steps + lo, p->steps + hi, cpu * sizeof(*tmp));
  memcpy(p->steps + lo + cpu, tmp, nv * sizeof(*tmp));
  free(tmp);
}

/* Plans one source; appends what the link needs to `link`. */
static int plan_source(struct ah_plan *p, const struct ah_opts *o, const struct ah_toolchain *tc,
                       const struct ah_input *in, struct ah_strv *link, int *nv_warned) {
  struct ah_strv cmd = {0}, host_flags = {0}, extra = {0};
  char *out = source_output(p, o, in->arg), *obj = out, *compiled = (char *)in->arg;
  char *prep = NULL, *headers = NULL;
  int hip = in->lang == AH_LANG_HIP, rc = 1, to_stdout = 0, merge;
  size_t nv_lo = 0, nv_hi = 0; /* the NVIDIA pass's steps */

  if (hip && out == NULL) {
    /* -E to standard output: through a file, so its line markers can name
     * the user's source instead of the prepared copy. */
    out = obj = ah_plan_temp(p, in->arg, "-hip-cpu.ii");
    to_stdout = 1;
  }
  if (hip) {
    struct ah_step *st;

    prep = ah_plan_temp(p, in->arg, "-hip-cpu.cpp");
    headers = ah_plan_temp(p, in->arg, "-hip-cpu.inc");
    st = ah_plan_add_prepare(p, tc, in->arg, prep, AH_TARGET_CPU);
    prepare_headers(st, headers, &o->compile_flags, o->rdc);
    if (headers[0] != '/') {
      /* The compiler sees the prepared headers' absolute names. */
      char cwd[4096], *abs;

      if (getcwd(cwd, sizeof(cwd)) != NULL) {
        abs = ah_xasprintf("%s/%s", cwd, headers);
        free(headers);
        headers = abs;
      }
    }
    compiled = prep;
    if ((o->mode == AH_MODE_COMPILE || o->mode == AH_MODE_LINK) && !o->cpu_only) {
      struct ah_nvidia_ctx ctx = {.opts = o, .tc = tc, .src = in->arg, .plan = p,
                                  .host_flags = &host_flags, .extra_objs = &extra};

      nv_lo = p->n;
      switch (ah_nvidia_pass(&ctx)) {
      case AH_NVIDIA_ERROR:
        goto out;
      case AH_NVIDIA_UNAVAILABLE:
        if (!(*nv_warned)++)
          ah_warning("the NVIDIA pass is not available: nvcc was not found or this hipcc "
                     "was built without it; compiling for the CPU device only");
        break;
      default:
        break;
      }
      nv_hi = p->n;
    }
  }
  /* With -c (or for an archive) and NVIDIA device code, the host object is
   * merged with it below: one object per source, which an archive member must
   * be for its device code to come with it. */
  merge = extra.n > 0 && (o->mode == AH_MODE_COMPILE ||
                          (o->mode == AH_MODE_LINK && o->emit_static_lib));
  if (merge)
    obj = ah_plan_temp(p, in->arg, "-hip-cpu.o");

  ah_strv_append(&cmd, in->lang == AH_LANG_C ? &tc->cc
                       : hip                  ? ah_toolchain_cpu_cxx(tc)
                                              : &tc->cxx);
  if (hip && !o->has_std)
    ah_strv_push(&cmd, "-std=c++17");
  if (hip) {
    char *dir = ah_path_dir(in->arg);

    ah_toolchain_hip_flags(tc, &cmd);
    /* Device printf is the host's: without this the compiler turns
     * printf("%s\n", s) into puts(s), which faults on a NULL s where every
     * HIP and CUDA device prints it (docs/semantics.md). */
    ah_strv_push(&cmd, "-fno-builtin-printf");
    /* Run as clang++ (CMake's HIP language): clang's macro for a HIP
     * compile, which CMake's compiler checks require (docs/hipcc.md). */
    if (tc->as_clang)
      ah_strv_push(&cmd, "-D__HIP__=1");
    if (tc->kc == AH_KC_ON) {
      ah_strv_push(&cmd, "-D__ANYHIP_KERNEL_COMPILER__=1");
      /* Preprocessing runs no pass: clang would call the flag unused. */
      if (o->mode != AH_MODE_PREPROCESS)
        ah_strv_pushf(&cmd, "-fpass-plugin=%s", tc->kc_plugin);
    }
    /* The prepared file lives elsewhere: #include "x.h" must still find the
     * source's neighbours first. */
    ah_strv_push(&cmd, "-iquote");
    ah_strv_push(&cmd, dir);
    free(dir);
  } else {
    ah_strv_push(&cmd, "-D__HIP_PLATFORM_ANYHIP__=1");
    ah_strv_pushf(&cmd, "-I%s", tc->include_dir);
  }
  ah_strv_append(&cmd, &o->compile_flags);
  ah_strv_append(&cmd, &o->common_flags);
  ah_strv_append(&cmd, in->lang == AH_LANG_C ? &o->c_flags : &o->cxx_flags);
  if (hip && tc->kc == AH_KC_ON && wants_default_dwarf(o))
    ah_strv_push(&cmd, "-gdwarf-4");
  if (hip && o->deps_md) {
    /* gcc would name the .d file and its target after the temporary files. */
    char *target = o->mode == AH_MODE_LINK ? NULL : out;

    if (o->deps_file == NULL && target) {
      ah_strv_push(&cmd, "-MF");
      ah_strv_push(&cmd, replace_ext(target, ".d"));
    }
    if (!o->deps_target && target) {
      ah_strv_push(&cmd, "-MT");
      ah_strv_push(&cmd, target);
    }
  }
  if (hip) {
    ah_strv_push(&cmd, "-include");
    ah_strv_push(&cmd, "hip/hip_runtime.h");
    ah_strv_append(&cmd, &host_flags);
  }
  if (hip || (in->explicit_lang && in->lang == AH_LANG_CXX)) {
    ah_strv_push(&cmd, "-x");
    ah_strv_push(&cmd, "c++");
  } else if (in->explicit_lang && in->lang == AH_LANG_C) {
    ah_strv_push(&cmd, "-x");
    ah_strv_push(&cmd, "c");
  }
  ah_strv_push(&cmd, mode_flag(o->mode));
  ah_strv_push(&cmd, compiled);
  if (obj) {
    ah_strv_push(&cmd, "-o");
    ah_strv_push(&cmd, obj);
  }
  ah_plan_add_run(p, &cmd);
  run_cpu_pass_first(p, nv_lo, nv_hi);

  if (hip) {
    /* Files that name the prepared file: the .d file, and -E/-M output. */
    const char *fix[2] = {o->deps_file, o->mode == AH_MODE_PREPROCESS ? out : NULL};
    char *made = NULL;

    if (fix[0] == NULL && o->deps_md && o->mode != AH_MODE_LINK)
      fix[0] = made = replace_ext(out, ".d");
    /* Each file twice: the prepared source's name, then the prepared
     * headers' directory (what is left is the header's absolute name). */
    for (int k = 0; k < 4; k++) {
      struct fix_deps *d;
      struct ah_step *st;

      if (fix[k / 2] == NULL)
        continue;
      d = ah_xmalloc(sizeof(*d));
      d->file = ah_xstrdup(fix[k / 2]);
      d->from = ah_xstrdup(k % 2 ? headers : prep);
      d->to = ah_xstrdup(k % 2 ? "" : in->arg);
      st = ah_plan_add_fn(p, "", fix_deps, d);
      ah_strv_push(&st->argv, tc->self);
      ah_strv_push(&st->argv, "--ah-fix-deps");
      ah_strv_push(&st->argv, d->file);
      ah_strv_push(&st->argv, d->from);
      ah_strv_push(&st->argv, d->to);
    }
    free(made);
    if (to_stdout) {
      struct ah_step *st = ah_plan_add_fn(p, "", print_file, ah_xstrdup(out));

      ah_strv_push(&st->argv, "cat");
      ah_strv_push(&st->argv, out);
    }
  }
  if (merge) {
    struct ah_strv r = {0};

    ah_strv_append(&r, &tc->cxx);
    ah_strv_push(&r, "-r");
    ah_strv_push(&r, "-nostdlib");
    ah_strv_push(&r, obj);
    ah_strv_append(&r, &extra);
    ah_strv_push(&r, "-o");
    ah_strv_push(&r, out);
    ah_plan_add_run(p, &r);
    ah_strv_free(&r);
  }
  if (o->mode == AH_MODE_LINK) {
    ah_strv_push(link, merge ? out : obj);
    if (!merge)
      ah_strv_append(link, &extra);
  }
  rc = 0;
out:
  if (obj != out)
    free(obj);
  free(out);
  free(prep);
  free(headers);
  ah_strv_free(&cmd);
  ah_strv_free(&host_flags);
  ah_strv_free(&extra);
  return rc;
}

int ah_plan_compiles_hip(const struct ah_opts *o) {
  if (o->mode == AH_MODE_PREPROCESS)
    return 0;
  for (size_t i = 0; i < o->ninputs; i++)
    if (!o->inputs[i].is_flag && o->inputs[i].lang == AH_LANG_HIP)
      return 1;
  return 0;
}

/* -fopenmp (not -fopenmp-simd, which needs no runtime). */
static int has_openmp(const struct ah_opts *o) {
  for (size_t i = 0; i < o->common_flags.n; i++)
    if (strcmp(o->common_flags.v[i], "-fopenmp") == 0 ||
        strncmp(o->common_flags.v[i], "-fopenmp=", 9) == 0)
      return 1;
  return 0;
}

int ah_plan_needs_kernel_compiler(const struct ah_opts *o) {
  for (size_t i = 0; i < o->ninputs; i++)
    if (!o->inputs[i].is_flag && o->inputs[i].lang == AH_LANG_HIP)
      return 1;
  return o->mode == AH_MODE_LINK && has_openmp(o);
}

/* An archive named before the objects that use it would be passed over by
 * the linker (gcc's order rule). HIP's device libraries may come first
 * (ROCm links device code whatever the order), and on the CPU device a
 * device function is a host symbol: when an archive comes before an
 * object, the link's inputs become one group, searched until nothing new is
 * found. Other links keep gcc's order exactly. */
static void group_archives(struct ah_strv *link) {
  int archive = 0, later = 0;
  struct ah_strv g = {0};

  for (size_t i = 0; i < link->n; i++) {
    const char *a = link->v[i], *e = ah_path_ext(a);

    if (a[0] == '-')
      continue;
    if (strcmp(e, ".a") == 0)
      archive = 1;
    else if (archive)
      later = 1;
  }
  if (!later)
    return;
  ah_strv_push(&g, "-Wl,--start-group");
  ah_strv_append(&g, link);
  ah_strv_push(&g, "-Wl,--end-group");
  ah_strv_free(link);
  *link = g;
}

/* --emit-static-lib: the objects of the link, in order, into one archive
 * (`ar rcs`), after removing an old one (ar would keep its other members).
 * Archives, shared libraries and linker flags have no place in it. */
static int plan_archive(struct ah_plan *p, const struct ah_opts *o, const struct ah_strv *link) {
  struct ah_strv cmd = {0};
  const char *out = o->output ? o->output : "a.out", *ar = getenv("HIPCC_AR");
  struct ah_step *st;

  for (size_t i = 0; i < link->n; i++) {
    const char *a = link->v[i], *e = ah_path_ext(a);

    if (a[0] == '-') {
      ah_warning("'%s' is not used with --emit-static-lib (an archive is not linked)", a);
    } else if (strcmp(e, ".a") == 0 || strcmp(e, ".so") == 0 || strstr(a, ".so.") != NULL) {
      ah_error("--emit-static-lib cannot put the library '%s' into an archive; give its "
               "objects, or link it with the program",
               a);
      return 1;
    }
  }
  st = ah_plan_add_fn(p, "", remove_file, ah_xstrdup(out));
  ah_strv_push(&st->argv, "rm");
  ah_strv_push(&st->argv, "-f");
  ah_strv_push(&st->argv, out);
  ah_strv_split(&cmd, ar && *ar ? ar : "ar");
  ah_strv_push(&cmd, "rcs");
  ah_strv_push(&cmd, out);
  for (size_t i = 0; i < link->n; i++)
    if (link->v[i][0] != '-')
      ah_strv_push(&cmd, link->v[i]);
  ah_plan_add_run(p, &cmd);
  ah_strv_free(&cmd);
  return 0;
}

int ah_plan_build(struct ah_plan *p, const struct ah_opts *o, const struct ah_toolchain *tc) {
  struct ah_strv link = {0};
  int need_tmp = 0, nv_warned = 0, rc = 1;

  memset(p, 0, sizeof(*p));
  if (o->nsources > 1 && o->output && o->mode != AH_MODE_LINK) {
    ah_error("cannot specify '-o' with '-c', '-S' or '-E' with multiple files");
    return 1;
  }
  for (size_t i = 0; i < o->ninputs; i++) {
    const struct ah_input *in = &o->inputs[i];

    if (!in->is_flag && (in->lang == AH_LANG_HIP ||
                         (in->lang != AH_LANG_LINK && o->mode == AH_MODE_LINK)))
      need_tmp = 1;
  }
  if (o->mode == AH_MODE_LINK && o->rdc && !o->cpu_only && !o->emit_static_lib)
    need_tmp = 1; /* the device link's files */
  if (o->save_temps) {
    p->tmpdir = ah_xstrdup(".");
    p->tmpdir_is_cwd = 1;
  } else if (need_tmp) {
    p->tmpdir = ah_xasprintf("%s/hipcc-XXXXXX", tc->tmp_root);
    if (!o->dry_run && ah_tmpdir_create(p->tmpdir, 0))
      return 1;
  }

  for (size_t i = 0; i < o->ninputs; i++) {
    const struct ah_input *in = &o->inputs[i];

    if (in->is_flag || in->lang == AH_LANG_LINK) {
      ah_strv_push(&link, in->arg);
      continue;
    }
    if (plan_source(p, o, tc, in, &link, &nv_warned))
      goto out;
    p->counter++;
  }

  if (tc->kc == AH_KC_MISSING && ah_plan_compiles_hip(o))
    ah_note("anyhip's kernel compiler (clang 14 + plugin) not used: %s; kernels will run on "
            "the slower fiber engine (HIPCC_KERNEL_COMPILER=0 silences this)",
            tc->kc_why);
  if (o->mode == AH_MODE_LINK && o->emit_static_lib) {
    if (plan_archive(p, o, &link))
      goto out;
  } else if (o->mode == AH_MODE_LINK) {
    struct ah_strv cmd = {0};

    if (o->rdc && !o->cpu_only) {
      struct ah_strv dlink = {0};

      switch (ah_nvidia_device_link(o, tc, p, &link, &dlink)) {
      case AH_NVIDIA_ERROR:
        goto out;
      case AH_NVIDIA_UNAVAILABLE:
        if (!nv_warned++)
          ah_warning("the NVIDIA pass is not available: nvcc was not found or this hipcc "
                     "was built without it; compiling for the CPU device only");
        break;
      default:
        break;
      }
      ah_strv_append(&link, &dlink);
      ah_strv_free(&dlink);
    }
    group_archives(&link);

    /* clang's OpenMP code calls libomp (__kmpc_*), which g++ -fopenmp does not
     * link; libomp also serves g++'s (GOMP_*) objects. */
    ah_strv_append(&cmd, tc->kc == AH_KC_ON && has_openmp(o) ? &tc->kc_cxx : &tc->cxx);
    ah_strv_append(&cmd, &o->common_flags);
    ah_strv_append(&cmd, &o->link_flags);
    ah_strv_append(&cmd, &link);
    ah_strv_push(&cmd, "-o");
    ah_strv_push(&cmd, o->output ? o->output : "a.out");
    ah_strv_pushf(&cmd, "-L%s", tc->lib_dir);
    ah_strv_push(&cmd, "-lanyhip");
    ah_strv_pushf(&cmd, "-Wl,-rpath,%s", tc->lib_dir);
    ah_strv_push(&cmd, "-lpthread");
    ah_plan_add_run(p, &cmd);
    ah_strv_free(&cmd);
  }
  rc = 0;
out:
  ah_strv_free(&link);
  return rc;
}

void ah_plan_print(const struct ah_plan *p, void *f) {
  for (size_t i = 0; i < p->n; i++)
    ah_print_argv(f, p->steps[i].argv.v);
}

int ah_plan_run(struct ah_plan *p, int verbose) {
  for (size_t i = 0; i < p->n; i++) {
    struct ah_step *s = &p->steps[i];
    int rc = 0;

    if (verbose)
      ah_print_argv(stderr, s->argv.v);
    switch (s->kind) {
    case AH_STEP_RUN:
      rc = ah_spawn(s->argv.v);
      break;
    case AH_STEP_PREPARE:
      rc = ah_prepare_file(s->in, s->out, s->target, s->headers, &s->flags, s->rdc);
      break;
    case AH_STEP_FN:
      rc = s->fn(s->arg);
      break;
    }
    if (rc != 0)
      return rc;
  }
  return 0;
}
