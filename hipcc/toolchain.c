/* SPDX-License-Identifier: MIT */
/* Where hipcc finds what it adds to every command: the HIP headers and
 * libanyhip, relative to its own executable (<prefix>/bin/hipcc ->
 * <prefix>/include, <prefix>/lib) or, in a build tree, the source tree's
 * include/ and the build's lib/ compiled in by CMake; ANYHIP_PATH (and
 * HIP_PATH when it points at an anyhip install) override. Also the host
 * compilers (HIPCC_CXX/CXX, HIPCC_CC/CC), the kernel compiler of the CPU
 * pass (clang 14 and anyhip's LLVM plugin, when both are there) and the HIP
 * version mirrored. */
#include "hipcc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef AH_SOURCE_INCLUDE_DIR
#define AH_SOURCE_INCLUDE_DIR ""
#endif
#ifndef AH_BUILD_LIB_DIR
#define AH_BUILD_LIB_DIR ""
#endif
#ifndef AH_INSTALL_LIBDIR
#define AH_INSTALL_LIBDIR "lib"
#endif
/* The build tree's plugin, and the clang++ 14 CMake found; "" when the
 * kernel compiler was not built. */
#ifndef AH_BUILD_KERNEL_COMPILER
#define AH_BUILD_KERNEL_COMPILER ""
#endif
#ifndef AH_CLANGXX
#define AH_CLANGXX ""
#endif
/* 1 when configured with ANYHIP_KERNEL_COMPILER=OFF: no note then. */
#ifndef AH_KERNEL_COMPILER_OFF
#define AH_KERNEL_COMPILER_OFF 0
#endif
#define AH_KC_PLUGIN_NAME "anyhip/anyhip-kernel-compiler.so"

/* The absolute path of this executable. */
static char *find_self(const char *argv0) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  char *r;

  if (n > 0) {
    buf[n] = '\0';
    return ah_xstrdup(buf);
  }
  if (strchr(argv0, '/') && (r = realpath(argv0, NULL)) != NULL)
    return r;
  return ah_xstrdup(argv0);
}

static int is_anyhip_include(const char *dir) {
  char *p = ah_xasprintf("%s/hip/anyhip", dir);
  int ok = ah_file_exists(p);

  free(p);
  return ok;
}

static int has_lib(const char *dir) {
  char *p = ah_xasprintf("%s/libanyhip.so", dir);
  int ok = ah_file_exists(p);

  free(p);
  return ok;
}

/* <root>/<libdir> holding libanyhip.so, trying the install's libdir, lib, lib64. */
static char *lib_under(const char *root) {
  static const char *const dirs[] = {AH_INSTALL_LIBDIR, "lib", "lib64", NULL};

  for (int i = 0; dirs[i]; i++) {
    char *d = ah_xasprintf("%s/%s", root, dirs[i]);

    if (has_lib(d))
      return d;
    free(d);
  }
  return NULL;
}

/* A compiler from the environment, unless it is hipcc itself (CXX=hipcc in a
 * shell would otherwise make hipcc call itself forever). */
static int env_compiler(const char *var, const char *self, struct ah_strv *out) {
  const char *v = getenv(var);
  struct ah_strv words = {0};
  const char *base;
  char *real;
  int ok = 1;

  if (v == NULL || *v == '\0')
    return 0;
  ah_strv_split(&words, v);
  if (words.n == 0)
    return 0;
  base = strrchr(words.v[0], '/') ? strrchr(words.v[0], '/') + 1 : words.v[0];
  real = realpath(words.v[0], NULL);
  if (strcmp(base, "hipcc") == 0 || (real && strcmp(real, self) == 0))
    ok = 0;
  free(real);
  if (ok)
    ah_strv_append(out, &words);
  ah_strv_free(&words);
  return ok;
}

static int on_path(const char *name);

void ah_toolchain_find(struct ah_toolchain *tc, const char *argv0) {
  const char *env = getenv("ANYHIP_PATH"), *hp = getenv("HIP_PATH"), *t, *base;
  char *bindir, *prefix;

  memset(tc, 0, sizeof(*tc));
  tc->self = find_self(argv0);
  bindir = ah_path_dir(tc->self);
  prefix = ah_path_dir(bindir);

  /* HIP_PATH often points at ROCm: only an anyhip tree counts. */
  if ((env == NULL || *env == '\0') && hp && *hp) {
    char *inc = ah_xasprintf("%s/include", hp);

    if (is_anyhip_include(inc))
      env = hp;
    free(inc);
  }
  if (env && *env) {
    tc->include_dir = ah_xasprintf("%s/include", env);
    tc->lib_dir = lib_under(env);
    if (tc->lib_dir == NULL)
      tc->lib_dir = ah_xasprintf("%s/lib", env);
  } else {
    char *inc = ah_xasprintf("%s/include", prefix);

    if (is_anyhip_include(inc) || AH_SOURCE_INCLUDE_DIR[0] == '\0') {
      tc->include_dir = inc;
    } else {
      free(inc);
      tc->include_dir = ah_xstrdup(AH_SOURCE_INCLUDE_DIR); /* a build tree */
    }
    tc->lib_dir = lib_under(prefix);
    if (tc->lib_dir == NULL && AH_BUILD_LIB_DIR[0] && has_lib(AH_BUILD_LIB_DIR))
      tc->lib_dir = ah_xstrdup(AH_BUILD_LIB_DIR);
    if (tc->lib_dir == NULL)
      tc->lib_dir = ah_xasprintf("%s/lib", prefix);
  }
  free(bindir);
  free(prefix);

  base = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
  tc->as_clang = strncmp(base, "clang", 5) == 0;
  tc->cxx_from_hipcc = env_compiler("HIPCC_CXX", tc->self, &tc->cxx);
  if (!tc->cxx_from_hipcc && tc->as_clang) {
    /* CMake's HIP language takes its compiler for clang and tells its kind
     * from the macros of the compiler that ran (a g++ would be "GNU", for
     * which CMake has no HIP rules): a clang compiles, with or without the
     * kernel compiler's plugin. CXX, the project's C++ compiler, is not
     * asked. */
    if (on_path("clang++-14"))
      ah_strv_push(&tc->cxx, "clang++-14");
    else if (on_path("clang++"))
      ah_strv_push(&tc->cxx, "clang++");
  }
  if (tc->cxx.n == 0 && !env_compiler("CXX", tc->self, &tc->cxx))
    ah_strv_push(&tc->cxx, "g++");
  if (!env_compiler("HIPCC_CC", tc->self, &tc->cc) && !env_compiler("CC", tc->self, &tc->cc))
    ah_strv_push(&tc->cc, "gcc");

  t = getenv("HIP_COMPILE_CXX_AS_HIP");
  tc->cxx_as_hip = !(t && strcmp(t, "0") == 0);
  t = getenv("TMPDIR");
  tc->tmp_root = ah_xstrdup(t && *t ? t : "/tmp");
}

/* ---- the kernel compiler --------------------------------------------------- */

/* Whether name (no '/') is an executable on PATH. */
static int on_path(const char *name) {
  const char *path = getenv("PATH");
  char *copy, *save = NULL;
  int found = 0;

  if (path == NULL || *path == '\0')
    return 0;
  copy = ah_xstrdup(path);
  for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
    char *p = ah_xasprintf("%s/%s", *d ? d : ".", name);

    found = access(p, X_OK) == 0;
    free(p);
  }
  free(copy);
  return found;
}

/* Whether `cmd --version` says clang 14 (Debian: "Debian clang version 14.0.6"). */
static int is_clang14(const struct ah_strv *cmd) {
  struct ah_strv argv = {0};
  char out[1024];
  int ok;

  ah_strv_append(&argv, cmd);
  ah_strv_push(&argv, "--version");
  ok = ah_spawn_capture(argv.v, out, sizeof(out)) == 0 && strstr(out, "clang version 14.") != NULL;
  ah_strv_free(&argv);
  return ok;
}

/* Whether a word of cmd (a compiler, maybe behind ccache) is named like clang. */
static int names_clang(const struct ah_strv *cmd) {
  for (size_t i = 0; i < cmd->n; i++) {
    const char *base = strrchr(cmd->v[i], '/') ? strrchr(cmd->v[i], '/') + 1 : cmd->v[i];

    if (strstr(base, "clang"))
      return 1;
  }
  return 0;
}

/* The plugin: HIPCC_KERNEL_COMPILER=PATH, <lib_dir>/anyhip/, or this build tree's. */
static char *find_plugin(const struct ah_toolchain *tc, const char *env) {
  char *p;

  if (env && strchr(env, '/'))
    return ah_file_exists(env) ? ah_xstrdup(env) : NULL;
  p = ah_xasprintf("%s/%s", tc->lib_dir, AH_KC_PLUGIN_NAME);
  if (ah_file_exists(p))
    return p;
  free(p);
  /* The build tree's, only when hipcc runs from it (lib_dir is the build's lib). */
  if (AH_BUILD_KERNEL_COMPILER[0] && strcmp(tc->lib_dir, AH_BUILD_LIB_DIR) == 0 &&
      ah_file_exists(AH_BUILD_KERNEL_COMPILER))
    return ah_xstrdup(AH_BUILD_KERNEL_COMPILER);
  return NULL;
}

/* clang++ 14 for the CPU pass into tc->kc_cxx; 0 (and kc_why) when there is none. */
static int find_clang(struct ah_toolchain *tc) {
  const char *env = getenv("HIPCC_CLANG");
  struct ah_strv c = {0};

  if (tc->cxx_from_hipcc) {
    /* The user chose the host compiler: the plugin only goes with clang 14. */
    if (names_clang(&tc->cxx) && is_clang14(&tc->cxx)) {
      ah_strv_append(&tc->kc_cxx, &tc->cxx);
      return 1;
    }
    tc->kc_why = ah_xasprintf("HIPCC_CXX (%s) is not clang 14", tc->cxx.v[0]);
    return 0;
  }
  if (env && *env) {
    ah_strv_split(&tc->kc_cxx, env); /* the user's word: not checked */
    if (tc->kc_cxx.n > 0)
      return 1;
  }
  if (on_path("clang++-14")) {
    ah_strv_push(&tc->kc_cxx, "clang++-14");
    return 1;
  }
  if (AH_CLANGXX[0] && access(AH_CLANGXX, X_OK) == 0) {
    ah_strv_push(&tc->kc_cxx, AH_CLANGXX);
    return 1;
  }
  ah_strv_push(&c, "clang++");
  if (on_path("clang++") && is_clang14(&c)) {
    ah_strv_append(&tc->kc_cxx, &c);
    ah_strv_free(&c);
    return 1;
  }
  ah_strv_free(&c);
  tc->kc_why = ah_xstrdup("clang++-14 not found");
  return 0;
}

void ah_toolchain_kernel_compiler(struct ah_toolchain *tc, int off) {
  const char *env = getenv("HIPCC_KERNEL_COMPILER");

  if (tc->kc != AH_KC_UNKNOWN)
    return;
  if (off || (env && (strcmp(env, "0") == 0 || strcmp(env, "off") == 0 ||
                      strcmp(env, "none") == 0))) {
    tc->kc = AH_KC_OFF;
    tc->kc_why = ah_xstrdup(off ? "--no-kernel-compiler" : "HIPCC_KERNEL_COMPILER=0");
    return;
  }
  tc->kc_plugin = find_plugin(tc, env);
  if (tc->kc_plugin == NULL) {
    int built_off = AH_KERNEL_COMPILER_OFF && !(env && strchr(env, '/'));

    tc->kc = built_off ? AH_KC_OFF : AH_KC_MISSING;
    if (built_off)
      tc->kc_why = ah_xstrdup("built with ANYHIP_KERNEL_COMPILER=OFF");
    else if (env && strchr(env, '/'))
      tc->kc_why = ah_xasprintf("HIPCC_KERNEL_COMPILER: no file %s", env);
    else
      tc->kc_why = ah_xasprintf("no %s/%s", tc->lib_dir, AH_KC_PLUGIN_NAME);
    return;
  }
  if (!find_clang(tc)) {
    free(tc->kc_plugin);
    tc->kc_plugin = NULL;
    tc->kc = AH_KC_MISSING;
    return;
  }
  tc->kc = AH_KC_ON;
}

const struct ah_strv *ah_toolchain_cpu_cxx(const struct ah_toolchain *tc) {
  return tc->kc == AH_KC_ON ? &tc->kc_cxx : &tc->cxx;
}

/* Reads `#define NAME value` from text; -1 when absent. */
static long define_value(const char *text, const char *name) {
  size_t n = strlen(name);

  for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
    const char *q = p;

    if (p[n] != ' ' && p[n] != '\t')
      continue;
    while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
      q--;
    if (q - text < 7 || strncmp(q - 7, "#define", 7) != 0)
      continue;
    return strtol(p + n, NULL, 10);
  }
  return -1;
}

char *ah_toolchain_hip_version(const struct ah_toolchain *tc) {
  char *path = ah_xasprintf("%s/hip/hip_version.h", tc->include_dir);
  char *text = ah_read_file(path, NULL);
  long major, minor, patch;
  char *v;

  free(path);
  if (text == NULL)
    return ah_xstrdup("unknown");
  major = define_value(text, "HIP_VERSION_MAJOR");
  minor = define_value(text, "HIP_VERSION_MINOR");
  patch = define_value(text, "HIP_VERSION_PATCH");
  free(text);
  if (major < 0 || minor < 0)
    return ah_xstrdup("unknown");
  v = ah_xasprintf("%ld.%ld.%ld", major, minor, patch < 0 ? 0 : patch);
  return v;
}

void ah_toolchain_hip_flags(const struct ah_toolchain *tc, struct ah_strv *out) {
  ah_strv_push(out, "-D__HIP_PLATFORM_ANYHIP__=1");
  ah_strv_push(out, "-D__HIPCC__=1");
  ah_strv_pushf(out, "-I%s", tc->include_dir);
}
