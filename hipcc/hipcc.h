/* SPDX-License-Identifier: MIT */
/* The types every part of hipcc shares: string vectors, the parsed command
 * line (struct ah_opts), the located toolchain (struct ah_toolchain) and the
 * plan (struct ah_plan), an ordered list of steps that `-###` prints and a
 * normal run executes. Driver flow: args -> toolchain -> plan -> run. */
#ifndef AH_HIPCC_H
#define AH_HIPCC_H

#include <stdarg.h>
#include <stddef.h>

/* ---- string vectors (util.c) ------------------------------------------ */

/* A growable NULL-terminated array of owned strings, usable as an argv. */
struct ah_strv {
  char **v;
  size_t n, cap;
};

void ah_strv_push(struct ah_strv *sv, const char *s);
void ah_strv_pushf(struct ah_strv *sv, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ah_strv_append(struct ah_strv *sv, const struct ah_strv *from);
/* Splits a command string (an env var such as CXX="ccache g++") into words. */
void ah_strv_split(struct ah_strv *sv, const char *words);
void ah_strv_free(struct ah_strv *sv);

void *ah_xmalloc(size_t n);
char *ah_xstrdup(const char *s);
char *ah_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads a whole file; NULL (errno set) on failure. */
char *ah_read_file(const char *path, size_t *len);
int ah_file_exists(const char *path);
/* "dir/name.ext" -> "name"; returns a new string. */
char *ah_path_stem(const char *path);
/* "dir/name.ext" -> ".ext" inside path, or "" */
const char *ah_path_ext(const char *path);
/* "dir/name" -> "dir", "name" -> "." ; returns a new string. */
char *ah_path_dir(const char *path);

/* Diagnostics: "hipcc: error: ..." on stderr. */
void ah_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ah_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ah_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- command line (args.c) --------------------------------------------- */

enum ah_lang {
  AH_LANG_NONE, /* from the file name */
  AH_LANG_HIP,  /* prepared, then compiled as C++ */
  AH_LANG_CXX,  /* compiled as C++ as is */
  AH_LANG_C,    /* compiled with the C compiler */
  AH_LANG_LINK, /* object, archive, shared library: given to the link */
};

enum ah_target {
  AH_TARGET_CPU,    /* host compiler: launches rewritten, kernels registered */
  AH_TARGET_NVIDIA, /* nvcc: the source stays CUDA-shaped (chevrons, extern __shared__) */
};

enum ah_mode {
  AH_MODE_LINK,       /* default: compile and link */
  AH_MODE_COMPILE,    /* -c */
  AH_MODE_ASSEMBLY,   /* -S */
  AH_MODE_PREPROCESS, /* -E, -M, -MM */
};

/* One input or one link-order-sensitive flag (-l, -L, -Wl, ...), in command
 * line order: the link keeps that order, as gcc does. */
struct ah_input {
  const char *arg;    /* file name, or the flag itself when is_flag */
  enum ah_lang lang;  /* resolved language (never AH_LANG_NONE for files) */
  int explicit_lang;  /* the language came from -x */
  int is_flag;
};

struct ah_opts {
  enum ah_mode mode;
  const char *output;           /* -o, or NULL */
  struct ah_input *inputs;
  size_t ninputs;
  int nsources;                 /* inputs that get compiled */
  struct ah_strv compile_flags; /* compiles only: -I -D -U -include -MD -Wa, ... */
  struct ah_strv common_flags;  /* compiles and the link: -O -g -f -m -W -pthread, unknown */
  struct ah_strv cxx_flags;     /* C++ compiles only: -std=c++NN */
  struct ah_strv c_flags;       /* C compiles only: -std=cNN */
  struct ah_strv link_flags;    /* the link only: -shared -static -rdynamic -T -z ... */
  struct ah_strv offload_archs; /* every --offload-arch value, in order */
  int has_std;                  /* -std given for C++ */
  int cpu_only;                 /* --offload-arch named cpu and no sm_* target, or --cuda-host-only */
  int host_only;                /* --cuda-host-only */
  int rdc;                      /* -fgpu-rdc: relocatable device code, a device link at the link */
  int emit_static_lib;          /* --emit-static-lib: the link makes an archive (ar) */
  int want_nvidia;              /* --offload-arch named an sm_* target */
  int no_kernel_compiler;       /* --no-kernel-compiler */
  int verbose;                  /* -v */
  int dry_run;                  /* -### */
  int save_temps;               /* -save-temps */
  int print_version;            /* --version, or -v alone */
  int print_targets;            /* -print-targets (clang's; CMake's HIP language asks it) */
  int print_help;               /* --help */
  int print_kernel_compiler;    /* --ah-kernel-compiler (for hipconfig): plugin, compiler */
  int deps_md;                  /* -MD or -MMD */
  const char *deps_file;        /* -MF */
  int deps_target;              /* -MT or -MQ given */
  /* --ah-prepare [--ah-target=cpu|nvidia] in -o out: the preparation alone. */
  int prepare_only;
  enum ah_target prepare_target;
  const char *prepare_headers;  /* --ah-headers=DIR */
};

/* Parses argv, expanding @file arguments. cxx_as_hip: .cpp/.cc/.cxx files are
 * HIP sources (HIP_COMPILE_CXX_AS_HIP). Returns 0, or 1 after printing an error. */
int ah_args_parse(int argc, char **argv, int cxx_as_hip, struct ah_opts *o);

/* ---- toolchain (toolchain.c) ------------------------------------------- */

/* Whether the CPU pass uses anyhip's kernel compiler (clang 14 + the LLVM
 * pass plugin in kernel-compiler/, DESIGN §7). */
enum ah_kc_state {
  AH_KC_UNKNOWN, /* not looked for yet (ah_toolchain_kernel_compiler) */
  AH_KC_ON,      /* kc_cxx with -fpass-plugin=kc_plugin */
  AH_KC_OFF,     /* turned off: --no-kernel-compiler, HIPCC_KERNEL_COMPILER=0, built without */
  AH_KC_MISSING, /* wanted but not there (kc_why says what): the CPU pass uses cxx */
};

struct ah_toolchain {
  char *self;          /* absolute path of this hipcc */
  char *include_dir;   /* holds hip/hip_runtime.h */
  char *lib_dir;       /* holds libanyhip.so */
  struct ah_strv cxx;  /* host C++ compiler and its own leading arguments */
  struct ah_strv cc;   /* host C compiler */
  int cxx_from_hipcc;  /* cxx came from HIPCC_CXX (it then also decides the CPU pass) */
  int cxx_as_hip;      /* HIP_COMPILE_CXX_AS_HIP: .cpp/.cc/.cxx are HIP sources */
  char *tmp_root;      /* $TMPDIR or /tmp */
  int as_clang;        /* run as clang++ (<prefix>/llvm/bin/clang++, CMake's HIP compiler):
                          HIP sources get clang's __HIP__ on the CPU pass */
  enum ah_kc_state kc;
  char *kc_plugin;     /* AH_KC_ON: the plugin's path */
  struct ah_strv kc_cxx; /* AH_KC_ON: the clang++ 14 that loads it */
  char *kc_why;        /* AH_KC_MISSING / AH_KC_OFF: why, for the note and --version */
};

void ah_toolchain_find(struct ah_toolchain *tc, const char *argv0);
/* Decides tc->kc and fills kc_*: off when `off` (--no-kernel-compiler) or
 * HIPCC_KERNEL_COMPILER=0; otherwise the plugin (HIPCC_KERNEL_COMPILER=PATH,
 * else <lib_dir>/anyhip/, else the build tree's) and clang++ 14 (HIPCC_CXX
 * when set and clang 14, else HIPCC_CLANG, else clang++-14, else clang++ of
 * version 14). May run `clang++ --version`, so it is called only when a
 * HIP source is compiled. */
void ah_toolchain_kernel_compiler(struct ah_toolchain *tc, int off);
/* The compiler of the CPU pass: kc_cxx when the kernel compiler is on, else cxx. */
const struct ah_strv *ah_toolchain_cpu_cxx(const struct ah_toolchain *tc);
/* HIP version this tree mirrors, read from <include_dir>/hip/hip_version.h;
 * "unknown" when the file cannot be read. Returns a new string "MAJOR.MINOR.PATCH". */
char *ah_toolchain_hip_version(const struct ah_toolchain *tc);

/* The flags every HIP compile gets (also what `hipconfig --cpp_config` prints). */
void ah_toolchain_hip_flags(const struct ah_toolchain *tc, struct ah_strv *out);

/* ---- plan (plan.c) ------------------------------------------------------ */

enum ah_step_kind {
  AH_STEP_RUN,     /* spawn argv */
  AH_STEP_PREPARE, /* source preparation, in process */
  AH_STEP_FN,      /* any in-process action (the NVIDIA pass may add these) */
};

struct ah_step {
  enum ah_step_kind kind;
  struct ah_strv argv; /* RUN: the command; PREPARE/FN: how -### and -v print it */
  /* PREPARE */
  char *in, *out;
  enum ah_target target;
  char *headers;         /* where prepared user headers go (NULL: headers left alone) */
  struct ah_strv flags;  /* the compile's -I and -iquote, to find those headers */
  int rdc;               /* -fgpu-rdc: device functions may come from other sources */
  /* FN: returns 0 on success, or an exit status after printing an error. */
  int (*fn)(void *arg);
  void *arg;
};

struct ah_plan {
  struct ah_step *steps;
  size_t n, cap;
  char *tmpdir;         /* where intermediate files go (created on run) */
  int tmpdir_is_cwd;    /* -save-temps: intermediates in the current directory */
  int counter;          /* index of the source being planned: keeps temporary names apart */
};

struct ah_step *ah_plan_add_run(struct ah_plan *p, const struct ah_strv *argv);
struct ah_step *ah_plan_add_prepare(struct ah_plan *p, const struct ah_toolchain *tc,
                                    const char *in, const char *out, enum ah_target target);
/* desc: the line printed by -### and -v; fn(arg) runs at that point of the plan. */
struct ah_step *ah_plan_add_fn(struct ah_plan *p, const char *desc, int (*fn)(void *),
                               void *arg);
/* A name for an intermediate file of source src: "<tmpdir>/<n>-<stem><suffix>"
 * (n: the source's index), or "<stem><suffix>" in the current directory
 * with -save-temps. */
char *ah_plan_temp(struct ah_plan *p, const char *src, const char *suffix);

/* Whether o compiles a HIP source (-c, -S or a link; not -E/-M). */
int ah_plan_compiles_hip(const struct ah_opts *o);
/* Whether the plan for o depends on the kernel compiler: a HIP source, or a
 * link with -fopenmp (linked with clang's OpenMP runtime when it is on). */
int ah_plan_needs_kernel_compiler(const struct ah_opts *o);
/* Builds the whole plan for o; tc->kc must be decided when
 * ah_plan_needs_kernel_compiler(o). Prints the kernel compiler's note when
 * it is missing. Returns 0, or 1 after printing an error. */
int ah_plan_build(struct ah_plan *p, const struct ah_opts *o, const struct ah_toolchain *tc);
/* Rewrites every FROM in FILE (a .d file, -E output) to TO; 0 when FILE is absent. */
int ah_plan_fix_deps(const char *file, const char *from, const char *to);
/* Prints every step (one shell-quoted line each) to f. */
void ah_plan_print(const struct ah_plan *p, void *f);
/* Runs the steps in order, stopping at the first failure; returns its exit status. */
int ah_plan_run(struct ah_plan *p, int verbose);

/* ---- processes and temporary files (spawn.c) ----------------------------- */

/* Runs argv (PATH searched) and waits. Returns the child's exit status, 128+signal when
 * it was killed, or 127 when it could not start (after printing why). */
int ah_spawn(char *const argv[]);
/* Creates the temporary directory and arranges for it to be removed at exit,
 * including on SIGINT/SIGTERM/SIGHUP. keep: leave it (and say where). */
int ah_tmpdir_create(char *templ, int keep);
void ah_tmpdir_cleanup(void);
/* Runs argv (PATH searched) with stdin and stderr on /dev/null and returns
 * the first cap-1 bytes of its standard output in out (NUL-terminated);
 * returns its exit status, or -1 when it could not start. */
int ah_spawn_capture(char *const argv[], char *out, size_t cap);
/* Prints argv shell-quoted on one line. */
void ah_print_argv(void *f, char *const argv[]);

/* ---- source preparation (prepare.c, prepare_*.c) ------------------------ */

/* Prepares `in` for `target`, writing `out`. With `headers`, the user
 * headers `in` includes (quoted, or <> found through a -I of `flags`),
 * transitively, are prepared too: each one that changes is written to
 * headers/<its absolute path> and the #include lines that reach it point
 * there. Without rdc (-fgpu-rdc), a CPU preparation renames the pure
 * __device__ functions a file declares and no file of it defines, so that a
 * call to one defined in another source is an undefined symbol at the link,
 * as in HIP. Errors go to stderr as "file:line:col: error: ..."; returns 0 or 1. */
int ah_prepare_file(const char *in, const char *out, enum ah_target target, const char *headers,
                    const struct ah_strv *flags, int rdc);

/* ---- NVIDIA pass hook (nvidia_pass.c) ------------------------------------ */

/* What the driver gives the NVIDIA pass for one HIP source. The pass appends
 * its own steps to `plan` (prepare with AH_TARGET_NVIDIA, nvcc, an embedding
 * step, ...) and may:
 *   - add flags to this source's host compile (host_flags), e.g. an -include
 *     of a generated file that embeds the fatbin and registers it;
 *   - add objects (extra_objs) that belong with this source's object: they
 *     are linked beside it, and with -c they are merged into the requested
 *     object with a relocatable link (`<cxx> -r`).
 * Its steps run before this source's host compile. */
struct ah_nvidia_ctx {
  const struct ah_opts *opts;     /* offload_archs, compile_flags, verbose, ... */
  const struct ah_toolchain *tc;
  const char *src;                /* the user's source file */
  struct ah_plan *plan;
  struct ah_strv *host_flags;
  struct ah_strv *extra_objs;
};

enum ah_nvidia_result {
  AH_NVIDIA_ADDED,       /* steps were added */
  AH_NVIDIA_SKIPPED,     /* nothing to do (no nvcc and no sm_* asked) */
  AH_NVIDIA_UNAVAILABLE, /* sm_* asked but the pass cannot run: the driver warns */
  AH_NVIDIA_ERROR,       /* an error was printed: hipcc fails */
};

/* Called once per HIP source when compiling (-c or a link), unless the
 * --offload-arch list names only CPU targets. */
enum ah_nvidia_result ah_nvidia_pass(struct ah_nvidia_ctx *ctx);

/* -fgpu-rdc at the link: `nvcc --device-link --fatbin` over the objects and
 * archives of `link` (the link's inputs in order; -lNAME found as libNAME.a in
 * a -L directory), and an embedding object, appended to extra_objs, that
 * registers the linked fatbin. Called once per link, after every source. */
enum ah_nvidia_result ah_nvidia_device_link(const struct ah_opts *o, const struct ah_toolchain *tc,
                                            struct ah_plan *p, const struct ah_strv *link,
                                            struct ah_strv *extra_objs);

/* nvcc to use, or NULL: HIPCC_NVCC (empty or "none": no nvcc), else nvcc on
 * PATH, $CUDA_PATH/bin/nvcc, /usr/local/cuda/bin/nvcc. Returns a new string. */
char *ah_nvidia_find_nvcc(void);

#endif
