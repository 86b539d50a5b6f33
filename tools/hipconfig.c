/* SPDX-License-Identifier: MIT */
/* hipconfig: prints how anyhip is set up, with the options of HIP's own
 * hipconfig so that Makefiles and CMake's FindHIP that call it keep working.
 * Like HIP's, each answer is printed without a newline (add -n), several
 * options print their answers one after another, and no option prints --full.
 * Paths are found as hipcc finds them: relative to this executable, with the
 * source tree as the fallback in a build tree, and ANYHIP_PATH to override. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef AH_VERSION
#define AH_VERSION "0.0.0"
#endif
#ifndef AH_SOURCE_DIR
#define AH_SOURCE_DIR ""
#endif
#ifndef AH_INSTALL_LIBDIR
#define AH_INSTALL_LIBDIR "lib" /* CMake's CMAKE_INSTALL_LIBDIR, e.g. lib/x86_64-linux-gnu */
#endif

struct config {
  char self[PATH_MAX];
  char prefix[PATH_MAX];  /* HIP_PATH: what holds bin/hipcc */
  char include[PATH_MAX + 16]; /* holds hip/hip_runtime.h */
  char lib[PATH_MAX + sizeof(AH_INSTALL_LIBDIR) + 16]; /* holds libanyhip.so */
  const char *cxx, *cc;
};

static int exists(const char *path) {
  struct stat st;

  return stat(path, &st) == 0;
}

static int exists_in(const char *dir, const char *name) {
  char p[PATH_MAX * 2];

  snprintf(p, sizeof(p), "%s/%s", dir, name);
  return exists(p);
}

/* Cuts the last path component off p (in place). */
static void up(char *p) {
  char *s = strrchr(p, '/');

  if (s == p)
    s[1] = '\0';
  else if (s)
    *s = '\0';
}

/* The first word of a command held in an environment variable, or dflt. */
static const char *compiler(const char *var1, const char *var2, const char *dflt) {
  static char buf[2][PATH_MAX];
  static int n;
  const char *v = getenv(var1);
  char *b = buf[n++ % 2];

  if (v == NULL || *v == '\0')
    v = getenv(var2);
  if (v == NULL || *v == '\0' || strstr(v, "hipcc") != NULL)
    return dflt;
  while (*v == ' ' || *v == '\t')
    v++;
  snprintf(b, PATH_MAX, "%.*s", (int)strcspn(v, " \t"), v);
  return b;
}

static void find(struct config *c) {
  const char *env = getenv("ANYHIP_PATH"), *hp = getenv("HIP_PATH");
  char inc[PATH_MAX * 2];
  ssize_t n = readlink("/proc/self/exe", c->self, sizeof(c->self) - 1);

  c->self[n > 0 ? n : 0] = '\0';
  if ((env == NULL || *env == '\0') && hp && *hp) {
    snprintf(inc, sizeof(inc), "%s/include/hip/anyhip", hp);
    if (exists(inc))
      env = hp; /* HIP_PATH counts only when it is an anyhip tree, not ROCm */
  }
  if (env && *env) {
    snprintf(c->prefix, sizeof(c->prefix), "%s", env);
  } else {
    snprintf(c->prefix, sizeof(c->prefix), "%s", c->self);
    up(c->prefix);
    up(c->prefix);
  }
  snprintf(c->include, sizeof(c->include), "%s/include", c->prefix);
  if (!exists_in(c->include, "hip/anyhip") && AH_SOURCE_DIR[0] && !(env && *env))
    snprintf(c->include, sizeof(c->include), "%s/include", AH_SOURCE_DIR);
  snprintf(c->lib, sizeof(c->lib), "%s/%s", c->prefix, AH_INSTALL_LIBDIR);
  if (!exists_in(c->lib, "libanyhip.so"))
    snprintf(c->lib, sizeof(c->lib), "%s/lib64", c->prefix);
  if (!exists_in(c->lib, "libanyhip.so"))
    snprintf(c->lib, sizeof(c->lib), "%s/lib", c->prefix);
  c->cxx = compiler("HIPCC_CXX", "CXX", "g++");
  c->cc = compiler("HIPCC_CC", "CC", "gcc");
}

/* MAJOR.MINOR.PATCH[-GITHASH] from the headers' hip_version.h. */
static void hip_version(const struct config *c, char *out, size_t cap) {
  char path[PATH_MAX * 2], line[512], hash[128] = "";
  long major = -1, minor = -1, patch = 0;
  FILE *f;

  snprintf(path, sizeof(path), "%s/hip/hip_version.h", c->include);
  f = fopen(path, "r");
  if (f == NULL) {
    snprintf(out, cap, "unknown");
    return;
  }
  while (fgets(line, sizeof(line), f)) {
    char name[64], value[128];

    if (sscanf(line, " #define %63s %127[^\n]", name, value) != 2)
      continue;
    if (strcmp(name, "HIP_VERSION_MAJOR") == 0)
      major = strtol(value, NULL, 10);
    else if (strcmp(name, "HIP_VERSION_MINOR") == 0)
      minor = strtol(value, NULL, 10);
    else if (strcmp(name, "HIP_VERSION_PATCH") == 0)
      patch = strtol(value, NULL, 10);
    else if (strcmp(name, "HIP_VERSION_GITHASH") == 0)
      sscanf(value, "\"%127[^\"]\"", hash);
  }
  fclose(f);
  if (major < 0 || minor < 0)
    snprintf(out, cap, "unknown");
  else
    snprintf(out, cap, "%ld.%ld.%ld%s%s", major, minor, patch, hash[0] ? "-" : "", hash);
}

/* The kernel compiler hipcc's CPU pass would use, as the hipcc next to this
 * hipconfig decides it (`hipcc --ah-kernel-compiler`: the plugin's path or
 * "none", then the clang++ or the reason). plugin gets the first line,
 * detail the second; plugin is "none" when hipcc cannot be asked. */
static void kernel_compiler(const struct config *c, char *plugin, size_t pcap, char *detail,
                            size_t dcap) {
  char dir[PATH_MAX], cmd[PATH_MAX + 64];
  FILE *f;

  snprintf(plugin, pcap, "none");
  snprintf(detail, dcap, "hipcc not found");
  snprintf(dir, sizeof(dir), "%s", c->self);
  up(dir);
  if (!exists_in(dir, "hipcc") || strchr(dir, '\'') != NULL)
    return;
  snprintf(cmd, sizeof(cmd), "'%s/hipcc' --ah-kernel-compiler 2>/dev/null", dir);
  fflush(stdout);
  f = popen(cmd, "r");
  if (f == NULL)
    return;
  if (fgets(plugin, (int)pcap, f) == NULL || fgets(detail, (int)dcap, f) == NULL)
    detail[0] = '\0';
  pclose(f);
  plugin[strcspn(plugin, "\n")] = '\0';
  detail[strcspn(detail, "\n")] = '\0';
  if (plugin[0] == '\0')
    snprintf(plugin, pcap, "none");
}

/* HIP's hipconfig reads these from the environment too; anyhip is neither
 * amd nor nvidia, so its default answer is "anyhip" (docs/hipcc.md). */
static const char *env_or(const char *var, const char *dflt) {
  const char *v = getenv(var);

  return v && *v ? v : dflt;
}

static void cpp_config(const struct config *c, char *out, size_t cap) {
  snprintf(out, cap, " -D__HIP_PLATFORM_ANYHIP__=1 -I%s", c->include);
}

/* The directory of a program found on PATH, or "". */
static void program_dir(const char *prog, char *out, size_t cap) {
  const char *path = getenv("PATH");
  char copy[8192], *save = NULL;

  out[0] = '\0';
  if (strchr(prog, '/')) {
    snprintf(out, cap, "%s", prog);
    up(out);
    return;
  }
  if (path == NULL)
    return;
  snprintf(copy, sizeof(copy), "%s", path);
  for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    char cand[PATH_MAX * 2];

    snprintf(cand, sizeof(cand), "%s/%s", d, prog);
    if (access(cand, X_OK) == 0) {
      snprintf(out, cap, "%s", d);
      return;
    }
  }
}

static void full(const struct config *c) {
  static const char *const vars[] = {"ANYHIP_PATH", "HIP_PATH", "HIPCC_CXX", "HIPCC_CC",
                                     "HIPCC_NVCC", "HIPCC_KERNEL_COMPILER", "HIPCC_CLANG",
                                     "HIP_COMPILE_CXX_AS_HIP", "CXX", "CC", "ANYHIP_DEVICES",
                                     "HIP_VISIBLE_DEVICES", "HIP_PLATFORM", "CUDA_PATH", NULL};
  char v[256], cpp[PATH_MAX + 96], cmd[PATH_MAX + 32], kc[PATH_MAX], kc_detail[PATH_MAX];

  hip_version(c, v, sizeof(v));
  cpp_config(c, cpp, sizeof(cpp));
  printf("HIP version  : %s\n\n", v);
  printf("== hipconfig\n");
  printf("HIP_PATH     : %s\n", c->prefix);
  printf("ROCM_PATH    : %s\n", c->prefix);
  printf("HIP_COMPILER : %s\n", env_or("HIP_COMPILER", "anyhip"));
  printf("HIP_PLATFORM : %s\n", env_or("HIP_PLATFORM", "anyhip"));
  printf("HIP_RUNTIME  : %s\n", env_or("HIP_RUNTIME", "anyhip"));
  printf("CPP_CONFIG   : %s\n\n", cpp);
  printf("== anyhip\n");
  printf("anyhip version : %s\n", AH_VERSION);
  printf("hipcc          : %s/bin/hipcc\n", c->prefix);
  printf("include        : %s\n", c->include);
  printf("lib            : %s%s\n", c->lib,
         exists_in(c->lib, "libanyhip.so") ? "" : " (libanyhip.so not found)");
  printf("host C++       : %s\n", c->cxx);
  printf("host C         : %s\n", c->cc);
  kernel_compiler(c, kc, sizeof(kc), kc_detail, sizeof(kc_detail));
  printf("kernel compiler: %s (%s)\n\n", kc, kc_detail);
  printf("== host compiler\n");
  fflush(stdout);
  snprintf(cmd, sizeof(cmd), "'%s' --version 2>&1", c->cxx);
  if (strchr(c->cxx, '\'') == NULL && system(cmd) != 0)
    printf("(%s --version failed)\n", c->cxx);
  printf("\n== environment\n");
  for (int i = 0; vars[i]; i++)
    if (getenv(vars[i]))
      printf("%s=%s\n", vars[i], getenv(vars[i]));
}

/* --check: are the pieces hipcc needs where they should be? */
static int check(const struct config *c) {
  char cmd[PATH_MAX + 32];
  int bad = 0;

  if (!exists_in(c->include, "hip/hip_runtime.h")) {
    printf("missing: %s/hip/hip_runtime.h\n", c->include);
    bad = 1;
  }
  if (!exists_in(c->lib, "libanyhip.so")) {
    printf("missing: %s/libanyhip.so\n", c->lib);
    bad = 1;
  }
  snprintf(cmd, sizeof(cmd), "'%s' --version >/dev/null 2>&1", c->cxx);
  if (strchr(c->cxx, '\'') != NULL || system(cmd) != 0) {
    printf("cannot run the host C++ compiler '%s'\n", c->cxx);
    bad = 1;
  }
  if (!bad)
    printf("check ok\n");
  return bad;
}

static void usage(void) {
  puts("usage: hipconfig [OPTIONS]\n"
       "  --path,  -p        : print HIP_PATH (anyhip's install prefix)\n"
       "  --rocmpath,  -R    : print ROCM_PATH (the same: anyhip needs no ROCm)\n"
       "  --cpp_config, -C   : print C++ compiler options for host code using HIP\n"
       "  --compiler, -c     : print compiler (anyhip; HIP_COMPILER overrides)\n"
       "  --platform, -P     : print platform (anyhip; HIP_PLATFORM overrides)\n"
       "  --runtime, -r      : print runtime (anyhip; HIP_RUNTIME overrides)\n"
       "  --hipclangpath, -l : print <prefix>/llvm/bin (hipcc as clang++, for CMake's HIP\n"
       "                       language) in an install, else the host C++ compiler's directory\n"
       "  --kernel-compiler  : print the kernel compiler's plugin hipcc loads into clang 14,\n"
       "                       or none (the CPU device then runs kernels on fibers)\n"
       "  --full, -f         : print full config\n"
       "  --version, -v      : print the HIP version anyhip follows\n"
       "  --check            : check configuration\n"
       "  --newline, -n      : print newline\n"
       "  --help, -h         : print help message");
}

int main(int argc, char **argv) {
  struct config c;
  int printed = 0, newline = 0, want_full = 0, rc = 0;
  char buf[PATH_MAX + 96];

  find(&c);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];

#define IS(l, s) (strcmp(a, l) == 0 || strcmp(a, s) == 0)
    if (IS("--help", "-h")) {
      usage();
      return 0;
    } else if (IS("--path", "-p")) {
      fputs(c.prefix, stdout);
    } else if (IS("--rocmpath", "-R")) {
      fputs(c.prefix, stdout);
    } else if (IS("--cpp_config", "-C") || strcmp(a, "--cxx_config") == 0) {
      cpp_config(&c, buf, sizeof(buf));
      fputs(buf, stdout);
    } else if (IS("--compiler", "-c")) {
      fputs(env_or("HIP_COMPILER", "anyhip"), stdout);
    } else if (IS("--platform", "-P")) {
      fputs(env_or("HIP_PLATFORM", "anyhip"), stdout);
    } else if (IS("--runtime", "-r")) {
      fputs(env_or("HIP_RUNTIME", "anyhip"), stdout);
    } else if (IS("--hipclangpath", "-l")) {
      /* ROCm's answer is <rocm>/llvm/bin, where CMake's HIP language looks
       * for clang++: an install has its hipcc there under that name. */
      snprintf(buf, sizeof(buf), "%s/llvm/bin/clang++", c.prefix);
      if (access(buf, X_OK) == 0)
        snprintf(buf, sizeof(buf), "%s/llvm/bin", c.prefix);
      else
        program_dir(c.cxx, buf, sizeof(buf));
      fputs(buf, stdout);
    } else if (strcmp(a, "--kernel-compiler") == 0) {
      char detail[PATH_MAX];

      kernel_compiler(&c, buf, sizeof(buf), detail, sizeof(detail));
      fputs(buf, stdout);
    } else if (IS("--full", "-f") || strcmp(a, "--info") == 0) {
      want_full = 1;
      continue;
    } else if (IS("--version", "-v")) {
      hip_version(&c, buf, sizeof(buf));
      fputs(buf, stdout);
    } else if (strcmp(a, "--check") == 0) {
      rc |= check(&c);
    } else if (IS("--newline", "-n")) {
      newline = 1;
      continue;
    } else {
      fprintf(stderr, "hipconfig: unknown option '%s' (see hipconfig --help)\n", a);
      return 1;
    }
#undef IS
    printed = 1;
  }
  if (want_full || !printed) {
    if (printed)
      putchar('\n');
    full(&c);
  } else if (newline) {
    putchar('\n');
  }
  return rc;
}
