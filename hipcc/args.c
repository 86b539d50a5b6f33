/* SPDX-License-Identifier: MIT */
/* hipcc's command line: HIP's conventions (and gcc's, which HIP users also
 * type) sorted into what each later step needs: flags for the compiles, for
 * the link, for both; inputs and link-order flags in command-line order; the
 * offload targets. Flags hipcc does not know go to the host compiler, and a
 * few that only mean something to AMD's compiler are dropped. */
#include "hipcc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flags that only mean something to AMD's device compiler (and nvcc's
 * -lineinfo): accepted so that build systems written for ROCm work, and
 * ignored. */
static const char *const amd_only[] = {
    "-munsafe-fp-atomics", "-mno-unsafe-fp-atomics",
    "-mwavefrontsize64", "-mno-wavefrontsize64", "-mcumode", "-mno-cumode",
    "--resource-usage", "-fgpu-flush-denormals-to-zero", "-fno-gpu-flush-denormals-to-zero",
    "-fhip-new-launch-api", "-fno-hip-new-launch-api", "--hip-link", "-lamdhip64",
    "-fno-gpu-allow-device-init", "-fgpu-allow-device-init", "-fcuda-flush-denormals-to-zero",
    "-fno-cuda-flush-denormals-to-zero", "-lineinfo", "-fgpu-sanitize", "-fno-gpu-sanitize",
    "-fgpu-exclude-wrong-side-overloads", "-fno-gpu-exclude-wrong-side-overloads",
    "--offload-new-driver", "--no-offload-new-driver", "-fhip-fp32-correctly-rounded-divide-sqrt",
    "-fno-hip-fp32-correctly-rounded-divide-sqrt", NULL};
static const char *const amd_only_prefix[] = {"--rocm-path=", "--hip-path=",
                                              "--hip-device-lib-path=", "--hip-version=",
                                              "-Rpass-analysis=kernel-resource-usage",
                                              "-mprintf-kind=", "-mcode-object-version=",
                                              "--offload-compress", "--no-offload-compress",
                                              "-fgpu-inline-threshold=", NULL};

/* Flags whose value is the next word, by where they go. */
static const char *const compile_pair[] = {
    "-I", "-D", "-U", "-iquote", "-isystem", "-idirafter", "-include", "-imacros", "-iprefix",
    "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-MF", "-MT", "-MQ", "-Xpreprocessor",
    "-Xassembler", "--param", NULL};
static const char *const link_pair[] = {"-T", "-u", "-z", "-e", NULL};
static const char *const link_only[] = {
    "-shared", "-static", "-static-libstdc++", "-static-libgcc", "-rdynamic", "-pie",
    "-no-pie", "-static-pie", "-nostartfiles", "-nodefaultlibs", "-nostdlib", "-s", "-r", NULL};

static int in_list(const char *const *list, const char *s) {
  for (int i = 0; list[i]; i++)
    if (strcmp(list[i], s) == 0)
      return 1;
  return 0;
}

static const char *prefix_of(const char *const *list, const char *s) {
  for (int i = 0; list[i]; i++)
    if (strncmp(s, list[i], strlen(list[i])) == 0)
      return list[i];
  return NULL;
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- @file expansion ------------------------------------------------------ */

/* Splits a response file like gcc: blanks separate words; quotes and
 * backslashes escape. */
static void split_response(const char *text, struct ah_strv *out) {
  const char *p = text;
  size_t cap = strlen(text) + 1;
  char *word = ah_xmalloc(cap);

  for (;;) {
    size_t n = 0;
    char quote = 0;

    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    if (*p == '\0')
      break;
    while (*p && (quote || !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))) {
      if (quote && *p == quote) {
        quote = 0;
      } else if (!quote && (*p == '"' || *p == '\'')) {
        quote = *p;
      } else if (*p == '\\' && p[1] && quote != '\'') {
        word[n++] = *++p;
      } else {
        word[n++] = *p;
      }
      p++;
    }
    word[n] = '\0';
    ah_strv_push(out, word);
  }
  free(word);
}

static int expand(const char *arg, struct ah_strv *out, int depth) {
  struct ah_strv words = {0};
  char *text;

  if (arg[0] != '@' || depth > 16) {
    ah_strv_push(out, arg);
    return 0;
  }
  text = ah_read_file(arg + 1, NULL);
  if (text == NULL) {
    if (errno == ENOENT) { /* gcc's rule: a missing @file is a plain argument */
      ah_strv_push(out, arg);
      return 0;
    }
    ah_error("cannot read response file '%s': %s", arg + 1, strerror(errno));
    return 1;
  }
  split_response(text, &words);
  free(text);
  for (size_t i = 0; i < words.n; i++)
    if (expand(words.v[i], out, depth + 1)) {
      ah_strv_free(&words);
      return 1;
    }
  ah_strv_free(&words);
  return 0;
}

/* ---- inputs ---------------------------------------------------------------- */

static enum ah_lang lang_of(const char *path, int cxx_as_hip) {
  const char *e = ah_path_ext(path);

  if (strcmp(e, ".hip") == 0 || strcmp(e, ".cu") == 0)
    return AH_LANG_HIP;
  if (strcmp(e, ".cpp") == 0 || strcmp(e, ".cc") == 0 || strcmp(e, ".cxx") == 0 ||
      strcmp(e, ".C") == 0 || strcmp(e, ".c++") == 0 || strcmp(e, ".cp") == 0 ||
      strcmp(e, ".CPP") == 0)
    return cxx_as_hip ? AH_LANG_HIP : AH_LANG_CXX;
  if (strcmp(e, ".ii") == 0)
    return AH_LANG_CXX;
  if (strcmp(e, ".c") == 0 || strcmp(e, ".i") == 0 || strcmp(e, ".s") == 0 ||
      strcmp(e, ".S") == 0 || strcmp(e, ".sx") == 0)
    return AH_LANG_C;
  return AH_LANG_LINK; /* .o .a .so .so.N and anything else: the linker decides */
}

static void add_input(struct ah_opts *o, const char *arg, enum ah_lang lang, int is_flag) {
  static size_t cap;

  if (o->ninputs == cap) {
    cap = cap ? cap * 2 : 16;
    o->inputs = realloc(o->inputs, cap * sizeof(*o->inputs));
    if (o->inputs == NULL) {
      fputs("hipcc: error: out of memory\n", stderr);
      exit(1);
    }
  }
  o->inputs[o->ninputs++] = (struct ah_input){.arg = ah_xstrdup(arg), .lang = lang,
                                              .is_flag = is_flag};
  if (!is_flag && lang != AH_LANG_LINK)
    o->nsources++;
}

static int parse_lang(const char *name, enum ah_lang *out) {
  if (strcmp(name, "hip") == 0 || strcmp(name, "cu") == 0 || strcmp(name, "cuda") == 0)
    *out = AH_LANG_HIP;
  else if (strcmp(name, "c++") == 0)
    *out = AH_LANG_CXX;
  else if (strcmp(name, "c") == 0)
    *out = AH_LANG_C;
  else if (strcmp(name, "none") == 0)
    *out = AH_LANG_NONE;
  else
    return 1;
  return 0;
}

/* --offload-arch=a,b: cpu, sm_NN (NVIDIA), gfx* (AMD: no AMD device here, ignored). */
static void add_arch(struct ah_opts *o, const char *list, int *saw_cpu) {
  char *copy = ah_xstrdup(list), *save = NULL;

  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    ah_strv_push(&o->offload_archs, a);
    if (strcmp(a, "cpu") == 0)
      *saw_cpu = 1;
    else if (starts(a, "sm_") || starts(a, "compute_"))
      o->want_nvidia = 1;
  }
  free(copy);
}

/* -Xcompiler a,b,c (nvcc's spelling): each to the host compiler. */
static void add_xcompiler(struct ah_opts *o, const char *list) {
  char *copy = ah_xstrdup(list), *save = NULL;

  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save))
    ah_strv_push(&o->common_flags, a);
  free(copy);
}

/* The value of a flag written "-Xval" or "-X val"; advances *i for the latter. */
static const char *value(struct ah_strv *args, size_t *i, const char *flag) {
  const char *a = args->v[*i];

  if (a[strlen(flag)] != '\0')
    return a + strlen(flag);
  if (*i + 1 >= args->n) {
    ah_error("missing argument to '%s'", flag);
    return NULL;
  }
  return args->v[++*i];
}

int ah_args_parse(int argc, char **argv, int cxx_as_hip, struct ah_opts *o) {
  struct ah_strv args = {0};
  enum ah_lang cur = AH_LANG_NONE;
  int saw_cpu = 0, rc = 1;
  const char *pf;

  memset(o, 0, sizeof(*o));
  for (int i = 1; i < argc; i++)
    if (expand(argv[i], &args, 0))
      goto out;

  for (size_t i = 0; i < args.n; i++) {
    const char *a = args.v[i], *v;

    if (a[0] != '-' || a[1] == '\0') {
      if (strcmp(a, "-") == 0) {
        ah_error("reading a source from standard input is not supported");
        goto out;
      }
      add_input(o, a, cur != AH_LANG_NONE ? cur : lang_of(a, cxx_as_hip), 0);
      o->inputs[o->ninputs - 1].explicit_lang = cur != AH_LANG_NONE;
    } else if (strcmp(a, "-###") == 0) {
      o->dry_run = 1;
    } else if (strcmp(a, "-v") == 0) {
      o->verbose = 1;
    } else if (strcmp(a, "--version") == 0) {
      o->print_version = 1;
    } else if (strcmp(a, "--help") == 0) {
      o->print_help = 1;
    } else if (strcmp(a, "-print-targets") == 0 || strcmp(a, "--print-targets") == 0) {
      o->print_targets = 1;
    } else if (strcmp(a, "--cuda-host-only") == 0 || strcmp(a, "--offload-host-only") == 0) {
      /* clang's "host side only" (CMake adds it to its HIP compiler checks):
       * the CPU pass alone, as with --offload-arch=cpu. */
      o->host_only = 1;
    } else if (strcmp(a, "-fgpu-rdc") == 0 || strcmp(a, "-fcuda-rdc") == 0 ||
               strcmp(a, "-rdc=true") == 0 || strcmp(a, "--relocatable-device-code") == 0 ||
               strcmp(a, "--relocatable-device-code=true") == 0) {
      o->rdc = 1; /* relocatable device code: a device link joins the sources */
    } else if (strcmp(a, "-fno-gpu-rdc") == 0 || strcmp(a, "-fno-cuda-rdc") == 0 ||
               strcmp(a, "-rdc=false") == 0 ||
               strcmp(a, "--relocatable-device-code=false") == 0) {
      o->rdc = 0;
    } else if (strcmp(a, "--emit-static-lib") == 0) {
      o->emit_static_lib = 1;
    } else if (strcmp(a, "--cuda-device-only") == 0 || strcmp(a, "--offload-device-only") == 0) {
      /* The CPU device's code is the host object itself: there is no
       * device-only output to give. */
      ah_error("'%s' is not supported: anyhip's CPU device runs the host object's code, so "
               "device code is not compiled apart (the NVIDIA pass's fatbin is kept with "
               "-save-temps)",
               a);
      goto out;
    } else if (strcmp(a, "-c") == 0) {
      o->mode = AH_MODE_COMPILE;
    } else if (strcmp(a, "-S") == 0) {
      o->mode = AH_MODE_ASSEMBLY;
    } else if (strcmp(a, "-E") == 0) {
      o->mode = AH_MODE_PREPROCESS;
    } else if (strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0) {
      o->mode = AH_MODE_PREPROCESS; /* gcc: -M implies -E */
      ah_strv_push(&o->compile_flags, a);
    } else if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0) {
      o->deps_md = 1;
      ah_strv_push(&o->compile_flags, a);
    } else if (starts(a, "-o")) {
      if ((v = value(&args, &i, "-o")) == NULL)
        goto out;
      o->output = v;
    } else if (starts(a, "-x")) {
      if ((v = value(&args, &i, "-x")) == NULL)
        goto out;
      if (parse_lang(v, &cur)) {
        ah_error("language '%s' not recognized (hipcc knows hip, cu, c++, c, none)", v);
        goto out;
      }
    } else if ((pf = prefix_of((const char *const[]){"--offload-arch=", "-offload-arch=",
                                                     "--cuda-gpu-arch=", "--amdgpu-target=",
                                                     NULL},
                               a))) {
      add_arch(o, a + strlen(pf), &saw_cpu);
    } else if (strcmp(a, "--offload-arch") == 0) {
      if ((v = value(&args, &i, a)) == NULL)
        goto out;
      add_arch(o, v, &saw_cpu);
    } else if (strcmp(a, "-save-temps") == 0 || strcmp(a, "--save-temps") == 0 ||
               starts(a, "-save-temps=")) {
      o->save_temps = 1;
      ah_strv_push(&o->compile_flags, "-save-temps");
    } else if (starts(a, "-std=") || starts(a, "--std=")) {
      const char *std = strchr(a, '=') + 1;

      if (starts(std, "c++") || starts(std, "gnu++")) {
        o->has_std = 1;
        ah_strv_pushf(&o->cxx_flags, "-std=%s", std);
      } else {
        ah_strv_pushf(&o->c_flags, "-std=%s", std);
      }
    } else if (strcmp(a, "-Xcompiler") == 0 || strcmp(a, "--compiler-options") == 0) {
      if ((v = value(&args, &i, a)) == NULL)
        goto out;
      add_xcompiler(o, v);
    } else if (starts(a, "-Xcompiler=") || starts(a, "--compiler-options=")) {
      add_xcompiler(o, strchr(a, '=') + 1);
    } else if (strcmp(a, "-mprintf-kind=buffered") == 0) {
      /* AMD's buffered device printf: the kernel header binds printf to it */
      ah_strv_push(&o->compile_flags, "-D__ANYHIP_PRINTF_BUFFERED=1");
    } else if (in_list(amd_only, a) || prefix_of(amd_only_prefix, a)) {
      continue;
    } else if (strcmp(a, "-Xlinker") == 0) {
      if ((v = value(&args, &i, a)) == NULL)
        goto out;
      add_input(o, ah_xasprintf("-Wl,%s", v), AH_LANG_LINK, 1);
    } else if (starts(a, "-Wl,") || starts(a, "-l") || starts(a, "-L")) {
      if (strlen(a) == 2) { /* "-l name", "-L dir" */
        if ((v = value(&args, &i, a)) == NULL)
          goto out;
        a = ah_xasprintf("%s%s", a, v);
      }
      if (strcmp(a, "-lamdhip64") == 0)
        continue; /* libanyhip is always linked */
      add_input(o, a, AH_LANG_LINK, 1);
    } else if (strcmp(a, "--genco") == 0 || strcmp(a, "-genco") == 0) {
      /* A code object for hipModuleLoad: a shared library (docs/modules.md).
       * -Bsymbolic-functions: the library's kernels are its own, even where
       * the program defines a function of the same name. */
      ah_strv_push(&o->link_flags, "-shared");
      ah_strv_push(&o->link_flags, "-Wl,-Bsymbolic-functions");
      ah_strv_push(&o->common_flags, "-fPIC");
    } else if (in_list(link_only, a)) {
      ah_strv_push(&o->link_flags, a);
    } else if (in_list(link_pair, a)) {
      if ((v = value(&args, &i, a)) == NULL)
        goto out;
      ah_strv_push(&o->link_flags, a);
      ah_strv_push(&o->link_flags, v);
    } else if (in_list(compile_pair, a) ||
               ((pf = prefix_of(compile_pair, a)) && (strlen(pf) == 2 || starts(pf, "-M")))) {
      /* -I dir, -Idir, -D x, -Dx, -include f, -MF f ... */
      if (strcmp(a, "-MF") == 0 || starts(a, "-MF"))
        o->deps_file = a[3] ? a + 3 : (i + 1 < args.n ? args.v[i + 1] : NULL);
      if (starts(a, "-MT") || starts(a, "-MQ"))
        o->deps_target = 1;
      ah_strv_push(&o->compile_flags, a);
      if (in_list(compile_pair, a)) {
        if (i + 1 >= args.n) {
          ah_error("missing argument to '%s'", a);
          goto out;
        }
        ah_strv_push(&o->compile_flags, args.v[++i]);
      }
    } else if (starts(a, "-Wa,") || starts(a, "-Wp,") || strcmp(a, "-MP") == 0 ||
               strcmp(a, "-MG") == 0 || starts(a, "-iquote") || starts(a, "-isystem") ||
               starts(a, "-idirafter")) {
      ah_strv_push(&o->compile_flags, a);
    } else if (strcmp(a, "--no-kernel-compiler") == 0) {
      o->no_kernel_compiler = 1;
    } else if (strcmp(a, "--ah-kernel-compiler") == 0) {
      o->print_kernel_compiler = 1;
    } else if (strcmp(a, "--ah-prepare") == 0) {
      o->prepare_only = 1;
    } else if (starts(a, "--ah-headers=")) {
      o->prepare_headers = a + 13;
    } else if (starts(a, "--ah-target=")) {
      if (strcmp(a + 12, "cpu") == 0) {
        o->prepare_target = AH_TARGET_CPU;
      } else if (strcmp(a + 12, "nvidia") == 0) {
        o->prepare_target = AH_TARGET_NVIDIA;
      } else {
        ah_error("unknown preparation target '%s' (cpu or nvidia)", a + 12);
        goto out;
      }
    } else {
      /* -O -g -f -m -W -pthread -w -p ... and anything unknown: the host compiler's. */
      ah_strv_push(&o->common_flags, a);
    }
  }
  o->cpu_only = (saw_cpu && !o->want_nvidia) || o->host_only;
  if (o->host_only)
    o->want_nvidia = 0;
  if (o->verbose && o->ninputs == 0 && o->common_flags.n == 0 && !o->print_targets)
    o->print_version = 1; /* `hipcc -v` alone, as gcc -v */
  rc = 0;
out:
  /* Strings handed out point into args; it lives as long as the process. */
  return rc;
}
