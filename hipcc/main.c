/* SPDX-License-Identifier: MIT */
/* hipcc: anyhip's compiler driver. It reads a HIP-style command line, builds
 * the whole plan (prepare each HIP source, compile it with the host C++
 * compiler, the optional NVIDIA pass, link libanyhip), then prints it (-###)
 * or runs it step by step (-v shows each step), ending with the first
 * failing step's exit status. docs/hipcc.md is the user's guide. */
#include "hipcc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef AH_VERSION
#define AH_VERSION "0.0.0"
#endif

/* hipcc exits right after its steps and frees its plan to the OS, on
 * purpose. In ANYHIP_SANITIZE builds LeakSanitizer would call that a leak
 * and fail every compile; this hook, read by the sanitizer runtime only,
 * turns leak checking off for hipcc alone. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "detect_leaks=0";
}

static void usage(void) {
  puts("usage: hipcc [options] file...\n"
       "Compiles HIP programs for anyhip (the host CPU, and NVIDIA GPUs with the NVIDIA pass).\n"
       "\n"
       "inputs: .hip .cu (HIP), .cpp .cc .cxx (HIP too unless HIP_COMPILE_CXX_AS_HIP=0),\n"
       "        .c (C compiler), .o .a .so (linked)\n"
       "  -c, -S, -E            compile only / assembly / preprocess\n"
       "  -o FILE               output file\n"
       "  -x hip|cu|c++|c|none  language of the following inputs\n"
       "  -O0..-O3 -Os -g -I -D -U -L -l -std= -shared -fPIC -fopenmp -Wl,...\n"
       "  --genco               a code object for hipModuleLoad (a shared library)\n"
       "  -fgpu-rdc             relocatable device code (compiles and the link; device link)\n"
       "  --emit-static-lib     make a static library (ar) instead of a program\n"
       "  -Xcompiler a,b        flags for the host compiler\n"
       "  --offload-arch=T      target, repeatable: cpu (CPU only), sm_NN (NVIDIA); gfx* ignored\n"
       "  -save-temps           keep intermediate files in the current directory\n"
       "  --no-kernel-compiler  CPU pass without anyhip's kernel compiler (clang 14 + plugin)\n"
       "  --cuda-host-only      the CPU pass alone (clang's flag; as --offload-arch=cpu)\n"
       "  -print-targets        the targets; with -v the install as clang's HIP installation\n"
       "  -v                    print each command before running it\n"
       "  -###                  print the commands and run nothing\n"
       "  --version             versions of HIP mirrored, anyhip and the host compiler\n"
       "other flags go to the host compiler.\n"
       "environment: HIPCC_CXX or CXX (default g++), HIPCC_CC or CC (default gcc),\n"
       "  ANYHIP_PATH (an anyhip install), HIPCC_NVCC (nvcc, or none),\n"
       "  HIPCC_KERNEL_COMPILER (0: off; or the plugin's path), HIPCC_CLANG (clang++ 14),\n"
       "  HIP_COMPILE_CXX_AS_HIP, TMPDIR");
}

static int version(const struct ah_toolchain *tc) {
  char *hip = ah_toolchain_hip_version(tc);
  struct ah_strv cmd = {0};
  int rc;

  printf("HIP version: %s\n", hip);
  printf("anyhip version: %s (hipcc)\n", AH_VERSION);
  printf("InstalledDir: %s\n", tc->self);
  printf("Host compiler: %s\n", tc->cxx.v[0]);
  if (tc->kc == AH_KC_ON)
    printf("Kernel compiler: %s -fpass-plugin=%s\n", tc->kc_cxx.v[0], tc->kc_plugin);
  else
    printf("Kernel compiler: none (%s)\n", tc->kc_why);
  free(hip);
  fflush(stdout);
  ah_strv_append(&cmd, &tc->cxx);
  ah_strv_push(&cmd, "--version");
  rc = ah_spawn(cmd.v);
  ah_strv_free(&cmd);
  /* The compiler of HIP sources, when it is not the host compiler: clang's
   * "clang version" line is also how CMake 3.28+ tells a HIP compiler's kind. */
  if (rc == 0 && tc->kc == AH_KC_ON && strcmp(tc->kc_cxx.v[0], tc->cxx.v[0]) != 0) {
    fflush(stdout);
    memset(&cmd, 0, sizeof(cmd));
    ah_strv_append(&cmd, &tc->kc_cxx);
    ah_strv_push(&cmd, "--version");
    rc = ah_spawn(cmd.v);
    ah_strv_free(&cmd);
  }
  return rc;
}

/* -print-targets, clang's: the targets hipcc compiles for. With -v, on
 * stderr, the line clang prints where it finds ROCm: CMake's HIP language
 * (CMakeDetermineHIPCompiler) runs `<compiler> -v -print-targets` and takes
 * that directory as the ROCm root, where it loads lib/cmake/hip-lang (the
 * install's <prefix>/llvm/bin/clang++ is this hipcc; docs/install.md). */
static int print_targets(const struct ah_toolchain *tc, int verbose) {
  if (verbose) {
    char *hip = ah_toolchain_hip_version(tc);
    char *prefix = ah_path_dir(tc->include_dir);

    fprintf(stderr, "anyhip hipcc version %s (HIP %s)\n", AH_VERSION, hip);
    fprintf(stderr, "InstalledDir: %s\n", tc->self);
    fprintf(stderr, "Found HIP installation: %s, version %s\n", prefix, hip);
    free(prefix);
    free(hip);
  }
  puts("  Registered Targets:\n"
       "    cpu     - the anyhip CPU device (--offload-arch=cpu)\n"
       "    nvptx64 - NVIDIA GPUs through nvcc (--offload-arch=sm_NN)");
  return 0;
}

/* Whether -o names one of the input files (the same file, by device and
 * inode, so that ./x.hip and a link to it count too): writing the output
 * would destroy that input, so hipcc refuses, as gcc does for the files it
 * sees. 0 when the output does not exist yet or is no regular file
 * (-o /dev/null with /dev/null as input is a common probe). */
static int output_is_input(const struct ah_opts *o) {
  struct stat out, in;

  if (o->output == NULL || stat(o->output, &out) != 0 || !S_ISREG(out.st_mode))
    return 0;
  for (size_t i = 0; i < o->ninputs; i++) {
    if (o->inputs[i].is_flag || stat(o->inputs[i].arg, &in) != 0)
      continue;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
      ah_error("output file '%s' is the input file '%s'; refusing to overwrite it", o->output,
               o->inputs[i].arg);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  struct ah_toolchain tc;
  struct ah_opts o;
  struct ah_plan plan;

  if (argc == 5 && strcmp(argv[1], "--ah-fix-deps") == 0)
    return ah_plan_fix_deps(argv[2], argv[3], argv[4]);
  ah_toolchain_find(&tc, argv[0]);
  if (ah_args_parse(argc, argv, tc.cxx_as_hip, &o))
    return 1;
  if (o.print_help) {
    usage();
    return 0;
  }
  if (o.print_kernel_compiler) {
    /* hipconfig --kernel-compiler asks this: the plugin, or none. */
    ah_toolchain_kernel_compiler(&tc, o.no_kernel_compiler);
    puts(tc.kc == AH_KC_ON ? tc.kc_plugin : "none");
    if (tc.kc == AH_KC_ON)
      printf("%s\n", tc.kc_cxx.v[0]);
    else
      printf("%s\n", tc.kc_why);
    return 0;
  }
  if (o.print_version) {
    ah_toolchain_kernel_compiler(&tc, o.no_kernel_compiler);
    return version(&tc);
  }
  if (o.print_targets)
    return print_targets(&tc, o.verbose);
  if (output_is_input(&o))
    return 1;
  if (o.prepare_only) {
    if (o.ninputs != 1 || o.inputs[0].is_flag) {
      ah_error("--ah-prepare takes one source file");
      return 1;
    }
    return ah_prepare_file(o.inputs[0].arg, o.output ? o.output : "-", o.prepare_target,
                           o.prepare_headers, &o.compile_flags, o.rdc);
  }
  if (o.ninputs == 0) {
    struct ah_strv cmd = {0};
    int query = 0;

    for (size_t i = 0; i < o.common_flags.n; i++) {
      const char *f = o.common_flags.v[i];

      query |= strncmp(f, "-dump", 5) == 0 || strncmp(f, "-print-", 7) == 0 ||
               strncmp(f, "--print-", 8) == 0 || strncmp(f, "--help=", 7) == 0;
    }
    if (!query) {
      ah_error("no input files");
      return 1;
    }
    /* -dumpversion, -print-search-dirs ...: the host compiler answers. */
    ah_strv_append(&cmd, &tc.cxx);
    ah_strv_append(&cmd, &o.common_flags);
    if (o.dry_run || o.verbose)
      ah_print_argv(stderr, cmd.v);
    return o.dry_run ? 0 : ah_spawn(cmd.v);
  }
  if (ah_plan_needs_kernel_compiler(&o))
    ah_toolchain_kernel_compiler(&tc, o.no_kernel_compiler);
  if (ah_plan_build(&plan, &o, &tc))
    return 1;
  if (o.dry_run) {
    ah_plan_print(&plan, stderr);
    return 0;
  }
  return ah_plan_run(&plan, o.verbose);
}
