/* SPDX-License-Identifier: MIT */
/* HIP runtime compilation (hiprtc). A program is compiled by the toolchain hipcc uses:
 * hiprtcCompileProgram writes the source (and the headers named at creation) to a private
 * temporary directory and runs `hipcc --genco --offload-arch=cpu` there, so the code object is
 * what hipModuleLoadData loads (a shared library for the host, docs/modules.md). When the
 * target is an NVIDIA GPU (the current device at compile time is one, or an option names an
 * sm_/compute_ architecture), NVRTC (hiprtc_nvrtc.c) compiles the source to PTX too, and the
 * PTX is put into the code object, registered like hipcc's NVIDIA pass registers its fatbins.
 * Name expressions are instantiated by code appended to the source, which also registers each
 * kernel with the runtime; their lowered (mangled) names are read from the code object's ELF
 * tables. The linker takes one code object and returns it. None of these functions touches
 * HIP's last error. docs/hiprtc.md. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <link.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hip/hip_version.h>
#include <hip/hiprtc.h>

#include "hiprtc_internal.h"
#include "internal.h"

extern char **environ;

#ifndef AH_HIPRTC_BIN_REL
#define AH_HIPRTC_BIN_REL "../bin" /* the install's bindir, seen from its libdir */
#endif

/* The symbol each name expression's address is stored in (with its index appended). */
#define NAME_SYM "__anyhip_rtc_name_"

struct ah_rtc_name {
  char *expr;
  char *lowered; /* after a successful compile; NULL if not found */
};

struct ah_rtc_program {
  struct ah_object obj;
  char *name, *src;
  int nheaders;
  char **headers, **include_names;
  struct ah_rtc_name *names;
  size_t nnames;
  struct ah_rtc_text log;
  unsigned char *code; /* the code object, after a successful compile */
  size_t code_size;
  int compiled, rdc;
};

struct ah_rtc_link {
  struct ah_object obj;
  unsigned char *data; /* the one input */
  size_t size;
  int ninputs;
  char *error_log; /* HIPRTC_JIT_ERROR_LOG_BUFFER given to hiprtcLinkCreate, or NULL */
  size_t error_log_size;
};

/* ---- small helpers --------------------------------------------------------- */

static int write_file(const char *path, const void *data, size_t size) {
  const char *p = data;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  if (fd < 0)
    return -1;
  while (size > 0) {
    ssize_t w = write(fd, p, size);

    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      close(fd);
      return -1;
    }
    p += w;
    size -= (size_t)w;
  }
  return close(fd);
}

/* The whole file, NUL-terminated (the NUL not counted in *size). */
static unsigned char *read_file(const char *path, size_t *size) {
  struct stat st;
  unsigned char *buf;
  size_t done = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (buf = malloc((size_t)st.st_size + 1)) == NULL) {
    close(fd);
    return NULL;
  }
  while (done < (size_t)st.st_size) {
    ssize_t r = read(fd, buf + done, (size_t)st.st_size - done);

    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    done += (size_t)r;
  }
  close(fd);
  buf[done] = '\0';
  *size = done;
  return buf;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

static void remove_tree(const char *dir) {
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- error strings and version -------------------------------------------- */

AH_EXPORT const char *hiprtcGetErrorString(hiprtcResult result) {
  switch (result) {
#define NAME(x) \
  case x:       \
    return #x;
    NAME(HIPRTC_SUCCESS)
    NAME(HIPRTC_ERROR_OUT_OF_MEMORY)
    NAME(HIPRTC_ERROR_PROGRAM_CREATION_FAILURE)
    NAME(HIPRTC_ERROR_INVALID_INPUT)
    NAME(HIPRTC_ERROR_INVALID_PROGRAM)
    NAME(HIPRTC_ERROR_INVALID_OPTION)
    NAME(HIPRTC_ERROR_COMPILATION)
    NAME(HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE)
    NAME(HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION)
    NAME(HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION)
    NAME(HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID)
    NAME(HIPRTC_ERROR_INTERNAL_ERROR)
    NAME(HIPRTC_ERROR_LINKING)
#undef NAME
  }
  return "Invalid HIPRTC error code";
}

AH_EXPORT hiprtcResult hiprtcVersion(int *major, int *minor) {
  if (major == NULL || minor == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  *major = HIP_VERSION_MAJOR;
  *minor = HIP_VERSION_MINOR;
  return HIPRTC_SUCCESS;
}

/* ---- programs --------------------------------------------------------------- */

static struct ah_rtc_program *program(hiprtcProgram p) {
  return ah_object_cast(p, AH_KIND_RTC_PROGRAM);
}

static void free_program(struct ah_rtc_program *p) {
  for (int i = 0; i < p->nheaders; i++) {
    free(p->headers[i]);
    free(p->include_names[i]);
  }
  free(p->headers);
  free(p->include_names);
  for (size_t i = 0; i < p->nnames; i++) {
    free(p->names[i].expr);
    free(p->names[i].lowered);
  }
  free(p->names);
  free(p->log.s);
  free(p->code);
  free(p->name);
  free(p->src);
  free(p);
}

AH_EXPORT hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name,
                                           int numHeaders, const char **headers,
                                           const char **includeNames) {
  struct ah_rtc_program *p;

  if (prog == NULL || src == NULL || numHeaders < 0 ||
      (numHeaders > 0 && (headers == NULL || includeNames == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  for (int i = 0; i < numHeaders; i++)
    if (headers[i] == NULL || includeNames[i] == NULL || includeNames[i][0] == '\0')
      return HIPRTC_ERROR_INVALID_INPUT;
  p = calloc(1, sizeof(*p));
  if (p == NULL)
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  p->name = strdup(name != NULL && name[0] != '\0' ? name : "default_program");
  p->src = strdup(src);
  if (numHeaders > 0) {
    p->headers = calloc((size_t)numHeaders, sizeof(char *));
    p->include_names = calloc((size_t)numHeaders, sizeof(char *));
  }
  if (p->name == NULL || p->src == NULL ||
      (numHeaders > 0 && (p->headers == NULL || p->include_names == NULL)))
    goto oom;
  for (int i = 0; i < numHeaders; i++) {
    p->headers[i] = strdup(headers[i]);
    p->include_names[i] = strdup(includeNames[i]);
    p->nheaders = i + 1;
    if (p->headers[i] == NULL || p->include_names[i] == NULL)
      goto oom;
  }
  if (ah_object_init(&p->obj, AH_KIND_RTC_PROGRAM) != hipSuccess)
    goto oom;
  *prog = (hiprtcProgram)p;
  return HIPRTC_SUCCESS;
oom:
  free_program(p);
  return HIPRTC_ERROR_OUT_OF_MEMORY;
}

AH_EXPORT hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog) {
  struct ah_rtc_program *p;

  if (prog == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  p = program(*prog);
  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  ah_object_fini(&p->obj);
  free_program(p);
  *prog = NULL;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression) {
  struct ah_rtc_program *p = program(prog);
  struct ah_rtc_name *names;

  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == NULL || name_expression[0] == '\0')
    return HIPRTC_ERROR_INVALID_INPUT;
  if (p->compiled)
    return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  for (size_t i = 0; i < p->nnames; i++)
    if (strcmp(p->names[i].expr, name_expression) == 0)
      return HIPRTC_SUCCESS;
  names = realloc(p->names, (p->nnames + 1) * sizeof(*names));
  if (names == NULL)
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  p->names = names;
  names[p->nnames].lowered = NULL;
  names[p->nnames].expr = strdup(name_expression);
  if (names[p->nnames].expr == NULL)
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  p->nnames++;
  return HIPRTC_SUCCESS;
}

/* ---- finding hipcc ------------------------------------------------------------ */

/* hipcc: ANYHIP_HIPRTC_HIPCC, else beside this library: <libdir>/AH_HIPRTC_BIN_REL/hipcc (an
 * install) or <libdir>/../bin/hipcc (the build tree). Returns a malloc'd path or NULL, and
 * says in log where it looked. */
static char *find_hipcc(struct ah_rtc_text *log) {
  const char *env = getenv("ANYHIP_HIPRTC_HIPCC");
  const char *rel[] = {AH_HIPRTC_BIN_REL, "../bin"};
  char dir[PATH_MAX], path[PATH_MAX + 32];
  Dl_info info;
  char *slash;

  if (env != NULL && env[0] != '\0') {
    if (access(env, X_OK) == 0)
      return strdup(env);
    ah_rtc_appendf(log, "anyhip: runtime compilation needs hipcc: ANYHIP_HIPRTC_HIPCC=%s is not an "
                        "executable\n", env);
    return NULL;
  }
  if (dladdr((void *)hiprtcCompileProgram, &info) == 0 || info.dli_fname == NULL ||
      realpath(info.dli_fname, dir) == NULL || (slash = strrchr(dir, '/')) == NULL) {
    ah_rtc_appendf(log, "anyhip: runtime compilation needs hipcc: libanyhip's location is unknown; "
                        "set ANYHIP_HIPRTC_HIPCC\n");
    return NULL;
  }
  *slash = '\0';
  for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
    snprintf(path, sizeof(path), "%s/%s/hipcc", dir, rel[i]);
    if (access(path, X_OK) == 0)
      return strdup(path);
  }
  ah_rtc_appendf(log, "anyhip: runtime compilation needs hipcc, which is not installed: not found "
                      "at %s/%s/hipcc nor %s/../bin/hipcc (set ANYHIP_HIPRTC_HIPCC)\n",
                 dir, AH_HIPRTC_BIN_REL, dir);
  return NULL;
}

/* ---- options ------------------------------------------------------------------- */

struct rtc_opts {
  const char **hipcc; /* options given to hipcc */
  int nhipcc;
  const char **nvrtc; /* options NVRTC understands */
  int nnvrtc;
  const char **defs; /* -DNAME[=VALUE] / -UNAME, as given (the value after -D or -U) */
  char *def_kind;    /* 'D' or 'U' for each */
  int ndefs;
  char **owned; /* strings made here (NVRTC's spelling of an option) */
  int nowned;
  int have_opt_level, rdc, cpu_only;
  char nv_arch[32]; /* "compute_80" when an NVIDIA target is named */
};

/* An NVIDIA architecture name (sm_80, compute_80) -> "compute_80"; 0 if not one. */
static int nvidia_arch(const char *v, char *out, size_t n) {
  const char *digits;

  if (starts(v, "sm_"))
    digits = v + 3;
  else if (starts(v, "compute_"))
    digits = v + 8;
  else
    return 0;
  if (digits[0] < '0' || digits[0] > '9')
    return 0;
  snprintf(out, n, "compute_%s", digits);
  return 1;
}

/* Sorts the user's options. Returns HIPRTC_SUCCESS or INVALID_OPTION with a line in log. */
static hiprtcResult parse_options(int n, const char **opts, struct rtc_opts *o,
                                  struct ah_rtc_text *log) {
  o->hipcc = calloc((size_t)n * 2 + 1, sizeof(char *));
  o->nvrtc = calloc((size_t)n * 2 + 1, sizeof(char *));
  o->defs = calloc((size_t)n + 1, sizeof(char *));
  o->def_kind = calloc((size_t)n + 1, 1);
  o->owned = calloc((size_t)n + 1, sizeof(char *));
  if (o->hipcc == NULL || o->nvrtc == NULL || o->defs == NULL || o->def_kind == NULL ||
      o->owned == NULL)
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  for (int i = 0; i < n; i++) {
    const char *a = opts[i], *v = NULL;

    if (a == NULL)
      return HIPRTC_ERROR_INVALID_INPUT;
    if (a[0] == '\0')
      continue;
    /* Targets: gfx names are AMD's (ignored, as hipcc does); sm_/compute_ add the NVIDIA
     * target. */
    if (starts(a, "--offload-arch=") || starts(a, "--gpu-architecture=") ||
        starts(a, "--cuda-gpu-arch=") || starts(a, "-arch=") || starts(a, "--amdgpu-target="))
      v = strchr(a, '=') + 1;
    else if ((strcmp(a, "-arch") == 0 || strcmp(a, "--gpu-architecture") == 0) && i + 1 < n)
      v = opts[++i];
    if (v != NULL) {
      if (strcmp(v, "cpu") == 0) { /* the CPU device's gcnArchName */
        o->cpu_only = 1;
        continue;
      }
      if (!nvidia_arch(v, o->nv_arch, sizeof(o->nv_arch)) && !starts(v, "gfx")) {
        ah_rtc_appendf(log, "anyhip: hiprtc: unknown target '%s' (cpu, gfx..., sm_NN or compute_NN)\n", v);
        return HIPRTC_ERROR_INVALID_OPTION;
      }
      continue;
    }
    if (strcmp(a, "-fgpu-rdc") == 0 || strcmp(a, "--relocatable-device-code=true") == 0 ||
        strcmp(a, "-rdc=true") == 0) {
      o->rdc = 1;
      continue;
    }
    if (strcmp(a, "-fno-gpu-rdc") == 0 || strcmp(a, "--relocatable-device-code=false") == 0 ||
        strcmp(a, "-rdc=false") == 0) {
      o->rdc = 0;
      continue;
    }
    /* NVRTC-only and HIP-clang-only switches with no meaning for a code object here. */
    if (strcmp(a, "-default-device") == 0 || strcmp(a, "--device-as-default-execution-space") == 0 ||
        strcmp(a, "-hip-pch") == 0 || strcmp(a, "--save-temps") == 0 || strcmp(a, "-save-temps") == 0 ||
        starts(a, "-mcumode") || starts(a, "-mno-cumode") || starts(a, "-mwavefrontsize64") ||
        starts(a, "-mno-wavefrontsize64") || starts(a, "-fgpu-") || starts(a, "--gpu-max-threads") ||
        starts(a, "-ffp-contract=") || strcmp(a, "-use_fast_math") == 0 ||
        strcmp(a, "--use_fast_math") == 0 || strcmp(a, "-lineinfo") == 0 ||
        strcmp(a, "--generate-line-info") == 0 || strcmp(a, "-G") == 0 ||
        strcmp(a, "--device-debug") == 0)
      continue;
    /* Options that would change what hipcc writes, or where. */
    if (strcmp(a, "-o") == 0 || starts(a, "-o") || strcmp(a, "-c") == 0 || strcmp(a, "-E") == 0 ||
        strcmp(a, "-S") == 0 || strcmp(a, "--genco") == 0 || strcmp(a, "-shared") == 0 ||
        strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 || strcmp(a, "--emit-static-lib") == 0 ||
        strcmp(a, "-x") == 0 || starts(a, "--cuda-") || starts(a, "-l") || starts(a, "-L") ||
        starts(a, "-Wl,")) {
      ah_rtc_appendf(log, "anyhip: hiprtc: option '%s' is not allowed here (hiprtc chooses the "
                          "output)\n", a);
      return HIPRTC_ERROR_INVALID_OPTION;
    }
    if (a[0] != '-') {
      ah_rtc_appendf(log, "anyhip: hiprtc: '%s' is not an option\n", a);
      return HIPRTC_ERROR_INVALID_OPTION;
    }
    /* Macros are defined in the source, after hipcc's implicit <hip/hip_runtime.h>, so that
     * -DT=float cannot change the runtime's headers. */
    if ((a[1] == 'D' || a[1] == 'U') && (a[2] != '\0' || (i + 1 < n && opts[i + 1] != NULL))) {
      const char *m = a[2] != '\0' ? a + 2 : opts[++i];

      o->def_kind[o->ndefs] = a[1];
      o->defs[o->ndefs++] = m; /* NVRTC gets them in the source too */
      continue;
    }
    if (starts(a, "-O"))
      o->have_opt_level = 1;
    o->hipcc[o->nhipcc++] = a;
    /* -I DIR given as two options stays together. */
    if ((strcmp(a, "-I") == 0 || strcmp(a, "-include") == 0 || strcmp(a, "-isystem") == 0) &&
        i + 1 < n && opts[i + 1] != NULL) {
      o->hipcc[o->nhipcc++] = opts[i + 1];
      if (a[1] != 'i' || a[2] == 'n') {
        char *joined = NULL;

        if (asprintf(&joined, "%s%s", a[1] == 'I' ? "--include-path=" : "--pre-include=",
                     opts[i + 1]) < 0)
          return HIPRTC_ERROR_OUT_OF_MEMORY;
        o->owned[o->nowned++] = joined;
        o->nvrtc[o->nnvrtc++] = joined;
      }
      i++;
      continue;
    }
    if (starts(a, "-include")) {
      char *joined = NULL;

      if (asprintf(&joined, "--pre-include=%s", a + 8) < 0)
        return HIPRTC_ERROR_OUT_OF_MEMORY;
      o->owned[o->nowned++] = joined;
      o->nvrtc[o->nnvrtc++] = joined;
    } else if (starts(a, "-I") || starts(a, "-std=") || starts(a, "--std=")) {
      o->nvrtc[o->nnvrtc++] = a;
    }
  }
  return HIPRTC_SUCCESS;
}

/* ---- the compile --------------------------------------------------------------- */

/* Writes the headers named at creation under dir/include. */
static int write_headers(struct ah_rtc_program *p, const char *dir, struct ah_rtc_text *log) {
  char path[2 * PATH_MAX + 16];

  for (int i = 0; i < p->nheaders; i++) {
    const char *name = p->include_names[i];
    char *slash;

    if (name[0] == '/' || strstr(name, "..") != NULL) {
      ah_rtc_appendf(log, "anyhip: hiprtc: header name '%s' must be a relative path without '..'\n",
                     name);
      return -1;
    }
    snprintf(path, sizeof(path), "%s/include/%s", dir, name);
    /* Its directories. */
    for (slash = strchr(path + strlen(dir) + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
      *slash = '\0';
      if (mkdir(path, 0700) != 0 && errno != EEXIST) {
        *slash = '/';
        return -1;
      }
      *slash = '/';
    }
    if (write_file(path, p->headers[i], strlen(p->headers[i])) != 0)
      return -1;
  }
  return 0;
}

/* The source hipcc compiles: the program's text, named as the program, then the code that
 * instantiates each name expression, stores its address under NAME_SYM<i> (the lowered name
 * is read from there) and registers it with the runtime when it is a kernel. */
/* The options' macros as #define/#undef lines, then the program's text, named as the program. */
static void program_text(struct ah_rtc_program *p, const struct rtc_opts *o, struct ah_rtc_text *t,
                         int nvrtc) {
  /* hiprtc's implicit headers: hipcc includes <hip/hip_runtime.h>; HIP's hiprtc also has
   * __half, hip_bfloat16, the complex types and __hip_internal's type traits (NVRTC gets
   * CUDA's own). */
  if (!nvrtc)
    ah_rtc_appendf(t, "#include <hip/hip_fp16.h>\n#include <hip/hip_bfloat16.h>\n"
                      "#include <hip/hip_complex.h>\n#include <cstddef>\n#include <type_traits>\n"
                      "namespace __hip_internal {\n"
                      "using std::is_same; using std::is_integral; using std::is_floating_point;\n"
                      "using std::is_signed; using std::is_unsigned; using std::enable_if;\n"
                      "using std::conditional; using std::remove_reference; using std::remove_cv;\n"
                      "typedef std::size_t size_t; typedef std::ptrdiff_t ptrdiff_t;\n}\n");
  for (int i = 0; i < o->ndefs; i++) {
    const char *v = o->defs[i], *eq = strchr(v, '=');

    if (o->def_kind[i] == 'U')
      ah_rtc_appendf(t, "#undef %s\n", v);
    else if (eq == NULL)
      ah_rtc_appendf(t, "#define %s 1\n", v);
    else
      ah_rtc_appendf(t, "#define %.*s %s\n", (int)(eq - v), v, eq + 1);
  }
  ah_rtc_appendf(t, "#line 1 \"%s\"\n", p->name);
  ah_rtc_append(t, p->src, strlen(p->src));
}

static int write_source(struct ah_rtc_program *p, const struct rtc_opts *o, const char *path) {
  struct ah_rtc_text t = {0};
  int r;

  program_text(p, o, &t, 0);
  if (p->nnames > 0) {
    ah_rtc_appendf(&t, "\n#line 1 \"<anyhip hiprtc name expressions>\"\n");
    ah_rtc_appendf(&t, "namespace __anyhip_rtc {\n"
                       "template <typename... P> inline int reg(void (*k)(P...)) {\n"
                       "  return ::anyhip::detail::register_kernel(k);\n}\n"
                       "inline int reg(const volatile void *) { return 0; }\n}\n");
    for (size_t i = 0; i < p->nnames; i++) {
      const char *e = p->names[i].expr;

      while (*e == ' ' || *e == '\t' || *e == '&')
        e++;
      ah_rtc_appendf(&t, "#line %zu\n", i + 1);
      ah_rtc_appendf(&t,
                     "extern \"C\" __attribute__((used, visibility(\"default\"))) const void *"
                     NAME_SYM "%zu = (const void *)&%s; "
                     "static int __anyhip_rtc_reg_%zu __attribute__((unused)) = "
                     "::__anyhip_rtc::reg(&%s);\n",
                     i, e, i, e);
    }
  }
  if (t.s == NULL)
    return -1;
  r = write_file(path, t.s, t.len);
  free(t.s);
  return r;
}

/* A C file that holds the PTX and registers it when the code object is loaded. */
static int write_ptx_source(const char *path, const char *ptx, size_t size) {
  struct ah_rtc_text t = {0};
  int r;

  ah_rtc_appendf(&t, "#include <stddef.h>\n"
                     "__attribute__((weak)) void __ahRegisterFatbin(const void *data, size_t size);\n"
                     "static const char anyhip_rtc_ptx[] =\n\"");
  for (size_t i = 0; i + 1 < size; i++) { /* the string literal adds the NUL */
    unsigned char c = (unsigned char)ptx[i];

    if (c == '\n')
      ah_rtc_append(&t, "\\n\"\n\"", 5);
    else if (c == '"' || c == '\\')
      ah_rtc_appendf(&t, "\\%c", c);
    else if (c < 32 || c > 126)
      ah_rtc_appendf(&t, "\\%03o", c);
    else
      ah_rtc_append(&t, (const char *)&c, 1);
  }
  ah_rtc_appendf(&t, "\";\n__attribute__((constructor)) static void anyhip_rtc_register(void) {\n"
                     "  if (__ahRegisterFatbin) /* a libanyhip without the NVIDIA device has none */\n"
                     "    __ahRegisterFatbin(anyhip_rtc_ptx, sizeof(anyhip_rtc_ptx));\n}\n");
  if (t.s == NULL)
    return -1;
  r = write_file(path, t.s, t.len);
  free(t.s);
  return r;
}

/* Runs argv with stdout and stderr into log_path and TMPDIR set to tmp (so that what hipcc
 * leaves there goes with the directory). Returns the exit status, or -1. */
static int run(char *const *argv, const char *log_path, const char *tmp) {
  posix_spawn_file_actions_t fa;
  char **env, *tmp_var = NULL;
  size_t n = 0, k = 0;
  pid_t pid;
  int status, r;

  while (environ[n] != NULL)
    n++;
  env = calloc(n + 2, sizeof(char *));
  if (env == NULL || asprintf(&tmp_var, "TMPDIR=%s", tmp) < 0) {
    free(env);
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "TMPDIR=", 7) != 0)
      env[k++] = environ[i];
  env[k++] = tmp_var;
  env[k] = NULL;
  if (posix_spawn_file_actions_init(&fa) != 0) {
    free(tmp_var);
    free(env);
    return -1;
  }
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  r = posix_spawn(&pid, argv[0], &fa, NULL, argv, env);
  posix_spawn_file_actions_destroy(&fa);
  free(tmp_var);
  free(env);
  if (r != 0) {
    errno = r;
    return -1;
  }
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Appends the compiler's messages to log, without the temporary directory's name. */
static void append_compiler_log(struct ah_rtc_text *log, const char *path, const char *dir) {
  size_t size, dlen = strlen(dir);
  unsigned char *text = read_file(path, &size);
  const char *s, *hit;

  if (text == NULL)
    return;
  for (s = (const char *)text; (hit = strstr(s, dir)) != NULL; s = hit + dlen) {
    ah_rtc_append(log, s, (size_t)(hit - s));
    if (hit[dlen] == '/')
      hit++;
  }
  ah_rtc_append(log, s, strlen(s));
  free(text);
}

/* ---- lowered names from the code object's ELF tables ---------------------------- */

struct elf_view {
  const unsigned char *p;
  size_t size;
  const ElfW(Shdr) *sh;
  unsigned nsh;
};

static const ElfW(Shdr) *section(const struct elf_view *e, unsigned i) {
  return i < e->nsh ? &e->sh[i] : NULL;
}

static int in_file(const struct elf_view *e, size_t off, size_t n) {
  return off <= e->size && n <= e->size - off;
}

/* The name of symbol k of symbol table s (NULL when out of range). */
static const char *sym_name(const struct elf_view *e, const ElfW(Shdr) *s, size_t k,
                            const ElfW(Sym) **out) {
  const ElfW(Shdr) *str = section(e, s->sh_link);
  const ElfW(Sym) *sym;

  if (str == NULL || s->sh_entsize != sizeof(ElfW(Sym)) || k >= s->sh_size / sizeof(ElfW(Sym)) ||
      !in_file(e, s->sh_offset, s->sh_size) || !in_file(e, str->sh_offset, str->sh_size))
    return NULL;
  sym = (const ElfW(Sym) *)(e->p + s->sh_offset) + k;
  if (sym->st_name >= str->sh_size)
    return NULL;
  if (out != NULL)
    *out = sym;
  return (const char *)e->p + str->sh_offset + sym->st_name;
}

/* Steps (*sec, *k) to the next named symbol of .dynsym or .symtab (start at
 * 0, 0): its name and *sym, or NULL past the last. */
static const char *next_sym(const struct elf_view *e, unsigned *sec, size_t *k,
                            const ElfW(Sym) **sym) {
  for (; *sec < e->nsh; (*sec)++, *k = 0) {
    const ElfW(Shdr) *s = &e->sh[*sec];

    if (s->sh_type != SHT_DYNSYM && s->sh_type != SHT_SYMTAB)
      continue;
    while (++*k < s->sh_size / sizeof(ElfW(Sym))) {
      const char *n = sym_name(e, s, *k, sym);

      if (n != NULL)
        return n;
    }
  }
  return NULL;
}

/* A symbol called name in .dynsym or .symtab: its value. */
static int find_value(const struct elf_view *e, const char *name, ElfW(Addr) *value) {
  unsigned sec = 0;
  size_t k = 0;
  const ElfW(Sym) *sym;
  const char *n;

  while ((n = next_sym(e, &sec, &k, &sym)) != NULL)
    if (strcmp(n, name) == 0 && sym->st_shndx != SHN_UNDEF) {
      *value = sym->st_value;
      return 0;
    }
  return -1;
}

/* The name of the function or variable at addr (a global one preferred). */
static const char *name_at(const struct elf_view *e, ElfW(Addr) addr) {
  unsigned sec = 0;
  size_t k = 0;
  const ElfW(Sym) *sym;
  const char *n, *best = NULL;

  while ((n = next_sym(e, &sec, &k, &sym)) != NULL) {
    int type = ELF64_ST_TYPE(sym->st_info);

    if (n[0] == '\0' || sym->st_value != addr || sym->st_shndx == SHN_UNDEF ||
        starts(n, "__anyhip_rtc") || (type != STT_FUNC && type != STT_OBJECT))
      continue;
    if (ELF64_ST_BIND(sym->st_info) != STB_LOCAL)
      return n;
    if (best == NULL)
      best = n;
  }
  return best;
}

#if defined(__x86_64__)
#define AH_R_RELATIVE R_X86_64_RELATIVE
#define AH_R_ABS R_X86_64_64
#define AH_R_GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define AH_R_RELATIVE R_AARCH64_RELATIVE
#define AH_R_ABS R_AARCH64_ABS64
#define AH_R_GLOB_DAT R_AARCH64_GLOB_DAT
#else
#define AH_R_RELATIVE (~0u)
#define AH_R_ABS (~0u)
#define AH_R_GLOB_DAT (~0u)
#endif

/* The name of what the pointer stored at addr points to: from its relocation, or (packed
 * relative relocations) from the value stored in place. */
static const char *pointee(const struct elf_view *e, ElfW(Addr) addr) {
  for (unsigned i = 0; i < e->nsh; i++) {
    const ElfW(Shdr) *s = &e->sh[i];
    const ElfW(Shdr) *symtab;

    if (s->sh_type != SHT_RELA || s->sh_entsize != sizeof(ElfW(Rela)) ||
        !in_file(e, s->sh_offset, s->sh_size))
      continue;
    symtab = section(e, s->sh_link);
    for (size_t k = 0; k < s->sh_size / sizeof(ElfW(Rela)); k++) {
      const ElfW(Rela) *r = (const ElfW(Rela) *)(e->p + s->sh_offset) + k;
      unsigned type = (unsigned)ELF64_R_TYPE(r->r_info);

      if (r->r_offset != addr)
        continue;
      if (type == AH_R_RELATIVE)
        return name_at(e, (ElfW(Addr))r->r_addend);
      if ((type == AH_R_ABS || type == AH_R_GLOB_DAT) && symtab != NULL)
        return sym_name(e, symtab, ELF64_R_SYM(r->r_info), NULL);
    }
  }
  for (unsigned i = 0; i < e->nsh; i++) {
    const ElfW(Shdr) *s = &e->sh[i];

    if (s->sh_type == SHT_PROGBITS && addr >= s->sh_addr && addr - s->sh_addr + sizeof(void *) <= s->sh_size &&
        in_file(e, s->sh_offset + (addr - s->sh_addr), sizeof(void *))) {
      ElfW(Addr) v;

      memcpy(&v, e->p + s->sh_offset + (addr - s->sh_addr), sizeof(v));
      return v != 0 ? name_at(e, v) : NULL;
    }
  }
  return NULL;
}

static void find_lowered_names(struct ah_rtc_program *p) {
  const ElfW(Ehdr) *h = (const ElfW(Ehdr) *)p->code;
  struct elf_view e = {p->code, p->code_size, NULL, 0};
  char sym[64];

  if (p->code_size < sizeof(*h) || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 ||
      h->e_shentsize != sizeof(ElfW(Shdr)) ||
      !in_file(&e, h->e_shoff, (size_t)h->e_shnum * sizeof(ElfW(Shdr))))
    return;
  e.sh = (const ElfW(Shdr) *)(p->code + h->e_shoff);
  e.nsh = h->e_shnum;
  for (size_t i = 0; i < p->nnames; i++) {
    ElfW(Addr) at;
    const char *n;

    snprintf(sym, sizeof(sym), NAME_SYM "%zu", i);
    if (find_value(&e, sym, &at) == 0 && (n = pointee(&e, at)) != NULL)
      p->names[i].lowered = strdup(n);
  }
}

/* The target is the NVIDIA device when an option names one, or when the current device is an
 * NVIDIA GPU (its compute capability); the CPU device otherwise. */
static void current_nvidia_arch(struct rtc_opts *o) {
  struct ah_device *dev;

  if (o->cpu_only)
    o->nv_arch[0] = '\0'; /* --offload-arch=cpu: the CPU device only, even next to sm_NN */
  if (o->cpu_only || o->nv_arch[0] != '\0' || ah_init_once() != hipSuccess)
    return;
  dev = ah_current_device();
  if (dev != NULL && dev->backend->runs_ptx)
    snprintf(o->nv_arch, sizeof(o->nv_arch), "compute_%d%d", dev->props.major, dev->props.minor);
}

static hiprtcResult compile(struct ah_rtc_program *p, struct rtc_opts *o) {
  char dir[PATH_MAX], src[PATH_MAX + 64], out[PATH_MAX + 64], logf[PATH_MAX + 64],
      incdir[PATH_MAX + 64], ptxsrc[PATH_MAX + 64];
  const char *tmp = getenv("TMPDIR");
  char **lowered_nv = NULL;
  const char **argv = NULL;
  char *hipcc, *ptx = NULL;
  size_t ptx_size = 0;
  hiprtcResult r = HIPRTC_ERROR_COMPILATION;
  int n = 0, status;

  hipcc = find_hipcc(&p->log);
  if (hipcc == NULL)
    return HIPRTC_ERROR_COMPILATION;
  snprintf(dir, sizeof(dir), "%s/anyhip-rtc-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) {
    ah_rtc_appendf(&p->log, "anyhip: hiprtc: cannot make a temporary directory %s: %s\n", dir,
                   strerror(errno));
    free(hipcc);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  snprintf(src, sizeof(src), "%s/anyhip-rtc.hip", dir);
  snprintf(out, sizeof(out), "%s/anyhip-rtc.co", dir);
  snprintf(logf, sizeof(logf), "%s/anyhip-rtc.log", dir);
  snprintf(incdir, sizeof(incdir), "-I%s/include", dir);
  snprintf(ptxsrc, sizeof(ptxsrc), "%s/anyhip-rtc-ptx.c", dir);
  if (mkdir(incdir + 2, 0700) != 0 || write_headers(p, dir, &p->log) != 0 ||
      write_source(p, o, src) != 0) {
    ah_rtc_appendf(&p->log, "anyhip: hiprtc: cannot write the source to %s\n", dir);
    r = HIPRTC_ERROR_INTERNAL_ERROR;
    goto out;
  }
  /* The NVIDIA target: PTX from NVRTC, put into the code object. */
  if (o->nv_arch[0] != '\0') {
    char **names = calloc(p->nnames + 1, sizeof(char *));
    struct ah_rtc_text text = {0};

    lowered_nv = calloc(p->nnames + 1, sizeof(char *));
    if (names == NULL || lowered_nv == NULL) {
      free(names);
      r = HIPRTC_ERROR_OUT_OF_MEMORY;
      goto out;
    }
    for (size_t i = 0; i < p->nnames; i++)
      names[i] = p->names[i].expr;
    program_text(p, o, &text, 1);
    status = text.s == NULL ? -1
                            : ah_nvrtc_compile(text.s, p->name, p->nheaders, p->headers,
                                               p->include_names, o->nnvrtc, o->nvrtc, o->nv_arch,
                                               p->nnames, names, lowered_nv, &ptx, &ptx_size,
                                               &p->log);
    free(text.s);
    free(names);
    if (status != 0)
      goto out;
    if (write_ptx_source(ptxsrc, ptx, ptx_size) != 0) {
      r = HIPRTC_ERROR_INTERNAL_ERROR;
      goto out;
    }
  }
  argv = calloc((size_t)o->nhipcc + 16, sizeof(char *));
  if (argv == NULL) {
    r = HIPRTC_ERROR_OUT_OF_MEMORY;
    goto out;
  }
  argv[n++] = hipcc;
  argv[n++] = "--genco";
  argv[n++] = "--offload-arch=cpu"; /* NVIDIA code comes from NVRTC, not from hipcc's nvcc pass */
  argv[n++] = "-D__HIPCC_RTC__=1";
  argv[n++] = incdir;
  if (!o->have_opt_level)
    argv[n++] = "-O2";
  for (int i = 0; i < o->nhipcc; i++)
    argv[n++] = o->hipcc[i];
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n++] = src;
  if (ptx != NULL)
    argv[n++] = ptxsrc;
  argv[n] = NULL;
  status = run((char *const *)argv, logf, dir);
  append_compiler_log(&p->log, logf, dir);
  if (status != 0) {
    if (status < 0)
      ah_rtc_appendf(&p->log, "anyhip: hiprtc: cannot run %s: %s\n", hipcc, strerror(errno));
    goto out;
  }
  p->code = read_file(out, &p->code_size);
  if (p->code == NULL) {
    ah_rtc_appendf(&p->log, "anyhip: hiprtc: hipcc wrote no code object\n");
    r = HIPRTC_ERROR_INTERNAL_ERROR;
    goto out;
  }
  find_lowered_names(p);
  for (size_t i = 0; lowered_nv != NULL && i < p->nnames; i++)
    if (lowered_nv[i] != NULL && p->names[i].lowered != NULL &&
        strcmp(lowered_nv[i], p->names[i].lowered) != 0)
      ah_rtc_appendf(&p->log, "anyhip: hiprtc: warning: '%s' is %s for the CPU and %s for NVRTC\n",
                     p->names[i].expr, p->names[i].lowered, lowered_nv[i]);
  r = HIPRTC_SUCCESS;
out:
  if (lowered_nv != NULL)
    for (size_t i = 0; i < p->nnames; i++)
      free(lowered_nv[i]);
  free(lowered_nv);
  free(argv);
  free(ptx);
  free(hipcc);
  remove_tree(dir);
  return r;
}

AH_EXPORT hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions,
                                            const char **options) {
  struct ah_rtc_program *p = program(prog);
  struct rtc_opts o = {0};
  hiprtcResult r;

  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (numOptions < 0 || (numOptions > 0 && options == NULL))
    return HIPRTC_ERROR_INVALID_INPUT;
  /* A second compile starts over. */
  p->log.len = 0;
  if (p->log.s != NULL)
    p->log.s[0] = '\0';
  free(p->code);
  p->code = NULL;
  p->code_size = 0;
  for (size_t i = 0; i < p->nnames; i++) {
    free(p->names[i].lowered);
    p->names[i].lowered = NULL;
  }
  p->compiled = 1;
  r = parse_options(numOptions, options, &o, &p->log);
  if (r == HIPRTC_SUCCESS) {
    p->rdc = o.rdc;
    current_nvidia_arch(&o);
    r = compile(p, &o);
  }
  free(o.hipcc);
  free(o.nvrtc);
  free(o.defs);
  free(o.def_kind);
  for (int i = 0; i < o.nowned; i++)
    free(o.owned[i]);
  free(o.owned);
  if (r != HIPRTC_SUCCESS)
    AH_LOG(API, "hiprtcCompileProgram(%s): %s", p->name, hiprtcGetErrorString(r));
  return r;
}

AH_EXPORT hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression,
                                            const char **lowered_name) {
  struct ah_rtc_program *p;

  if (name_expression == NULL || lowered_name == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  p = program(prog);
  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!p->compiled)
    return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  for (size_t i = 0; i < p->nnames; i++)
    if (strcmp(p->names[i].expr, name_expression) == 0 && p->names[i].lowered != NULL) {
      *lowered_name = p->names[i].lowered;
      return HIPRTC_SUCCESS;
    }
  return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
}

AH_EXPORT hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet) {
  struct ah_rtc_program *p;

  if (logSizeRet == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  p = program(prog);
  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  *logSizeRet = p->log.len + 1;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log) {
  struct ah_rtc_program *p;

  if (log == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  p = program(prog);
  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  memcpy(log, p->log.s != NULL ? p->log.s : "", p->log.len + 1);
  return HIPRTC_SUCCESS;
}

/* The code object; "bitcode" is the same code object, for a program compiled with -fgpu-rdc
 * (the linker below takes it). A program without code is an invalid program, as in HIP. */
static hiprtcResult code_of(hiprtcProgram prog, const void *out, int bitcode,
                           struct ah_rtc_program **pp) {
  struct ah_rtc_program *p;

  if (out == NULL) /* checked first, as HIP does */
    return HIPRTC_ERROR_INVALID_INPUT;
  p = program(prog);
  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (p->code == NULL || (bitcode && !p->rdc))
    return HIPRTC_ERROR_INVALID_PROGRAM;
  *pp = p;
  return HIPRTC_SUCCESS;
}

static hiprtcResult get_code(hiprtcProgram prog, char *out, int bitcode) {
  struct ah_rtc_program *p = NULL;
  hiprtcResult r = code_of(prog, out, bitcode, &p);

  if (r == HIPRTC_SUCCESS)
    memcpy(out, p->code, p->code_size);
  return r;
}

static hiprtcResult get_size(hiprtcProgram prog, size_t *size, int bitcode) {
  struct ah_rtc_program *p = NULL;
  hiprtcResult r = code_of(prog, size, bitcode, &p);

  if (r == HIPRTC_SUCCESS)
    *size = p->code_size;
  return r;
}

AH_EXPORT hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code) {
  return get_code(prog, code, 0);
}

AH_EXPORT hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet) {
  return get_size(prog, codeSizeRet, 0);
}

AH_EXPORT hiprtcResult hiprtcGetBitcode(hiprtcProgram prog, char *bitcode) {
  return get_code(prog, bitcode, 1);
}

AH_EXPORT hiprtcResult hiprtcGetBitcodeSize(hiprtcProgram prog, size_t *bitcode_size) {
  return get_size(prog, bitcode_size, 1);
}

/* ---- the linker: one code object in, the same out ------------------------------- */

static struct ah_rtc_link *link_state(hiprtcLinkState l) {
  return ah_object_cast(l, AH_KIND_RTC_LINK);
}

static void link_error(struct ah_rtc_link *l, const char *msg) {
  AH_LOG(API, "hiprtcLink: %s", msg);
  if (l->error_log != NULL && l->error_log_size > 0)
    snprintf(l->error_log, l->error_log_size, "%s", msg);
}

AH_EXPORT hiprtcResult hiprtcLinkCreate(unsigned int num_options, hiprtcJIT_option *option_ptr,
                                        void **option_vals_pptr,
                                        hiprtcLinkState *hip_link_state_ptr) {
  struct ah_rtc_link *l;

  if (hip_link_state_ptr == NULL ||
      (num_options > 0 && (option_ptr == NULL || option_vals_pptr == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  l = calloc(1, sizeof(*l));
  if (l == NULL)
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  for (unsigned i = 0; i < num_options; i++) {
    if (option_ptr[i] == HIPRTC_JIT_ERROR_LOG_BUFFER)
      l->error_log = option_vals_pptr[i];
    else if (option_ptr[i] == HIPRTC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      l->error_log_size = (size_t)(uintptr_t)option_vals_pptr[i];
    else if ((unsigned)option_ptr[i] >= HIPRTC_JIT_NUM_OPTIONS &&
             option_ptr[i] != HIPRTC_JIT_IR_TO_ISA_OPT_EXT &&
             option_ptr[i] != HIPRTC_JIT_IR_TO_ISA_OPT_COUNT_EXT) {
      free(l);
      return HIPRTC_ERROR_INVALID_OPTION;
    }
    /* The others tune a JIT that does not run here: accepted and ignored. */
  }
  if (ah_object_init(&l->obj, AH_KIND_RTC_LINK) != hipSuccess) {
    free(l);
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  }
  *hip_link_state_ptr = (hiprtcLinkState)l;
  return HIPRTC_SUCCESS;
}

/* The input types a code object may come as: HIP's (a program's "bitcode") and an object. */
static int link_type_ok(hiprtcJITInputType type) {
  return type == HIPRTC_JIT_INPUT_LLVM_BITCODE || type == HIPRTC_JIT_INPUT_LLVM_BUNDLED_BITCODE ||
         type == HIPRTC_JIT_INPUT_LLVM_ARCHIVES_OF_BUNDLED_BITCODE ||
         type == HIPRTC_JIT_INPUT_OBJECT;
}

static hiprtcResult link_add(struct ah_rtc_link *l, const void *data, size_t size) {
  const ElfW(Ehdr) *h = data;

  if (size < sizeof(*h) || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 || h->e_type != ET_DYN) {
    link_error(l, "anyhip: hiprtcLinkAdd: not an anyhip code object (hiprtcGetCode or "
                  "hiprtcGetBitcode of a program, or a file `hipcc --genco` wrote)");
    return HIPRTC_ERROR_PROGRAM_CREATION_FAILURE;
  }
  l->ninputs++;
  if (l->ninputs > 1)
    return HIPRTC_SUCCESS; /* hiprtcLinkComplete says why it cannot link them */
  l->data = malloc(size);
  if (l->data == NULL)
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  memcpy(l->data, data, size);
  l->size = size;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcLinkAddFile(hiprtcLinkState hip_link_state,
                                         hiprtcJITInputType input_type, const char *file_path,
                                         unsigned int num_options, hiprtcJIT_option *options_ptr,
                                         void **option_values) {
  struct ah_rtc_link *l = link_state(hip_link_state);
  unsigned char *data;
  size_t size;
  hiprtcResult r;

  if (l == NULL || file_path == NULL || file_path[0] == '\0' || !link_type_ok(input_type) ||
      (num_options > 0 && (options_ptr == NULL || option_values == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  data = read_file(file_path, &size);
  if (data == NULL) {
    link_error(l, "anyhip: hiprtcLinkAddFile: cannot read the file");
    return HIPRTC_ERROR_PROGRAM_CREATION_FAILURE;
  }
  r = link_add(l, data, size);
  free(data);
  return r;
}

AH_EXPORT hiprtcResult hiprtcLinkAddData(hiprtcLinkState hip_link_state,
                                         hiprtcJITInputType input_type, void *image,
                                         size_t image_size, const char *name,
                                         unsigned int num_options, hiprtcJIT_option *options_ptr,
                                         void **option_values) {
  struct ah_rtc_link *l = link_state(hip_link_state);

  (void)name;
  if (l == NULL || image == NULL || image_size == 0 || !link_type_ok(input_type) ||
      (num_options > 0 && (options_ptr == NULL || option_values == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  return link_add(l, image, image_size);
}

AH_EXPORT hiprtcResult hiprtcLinkComplete(hiprtcLinkState hip_link_state, void **bin_out,
                                          size_t *size_out) {
  struct ah_rtc_link *l = link_state(hip_link_state);

  if (l == NULL || bin_out == NULL || size_out == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  if (l->ninputs == 0) {
    link_error(l, "anyhip: hiprtcLinkComplete: nothing to link");
    return HIPRTC_ERROR_LINKING;
  }
  if (l->ninputs > 1) {
    link_error(l, "anyhip: hiprtcLinkComplete links one code object; several cannot be linked "
                  "into one yet (build them as one program)");
    return HIPRTC_ERROR_LINKING;
  }
  *bin_out = l->data; /* owned by the link state until hiprtcLinkDestroy */
  *size_out = l->size;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcLinkDestroy(hiprtcLinkState hip_link_state) {
  struct ah_rtc_link *l = link_state(hip_link_state);

  if (l == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  ah_object_fini(&l->obj);
  free(l->data);
  free(l);
  return HIPRTC_SUCCESS;
}
