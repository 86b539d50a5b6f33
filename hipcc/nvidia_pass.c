/* SPDX-License-Identifier: MIT */
/* The NVIDIA pass of hipcc: compiles a HIP source's device code with nvcc
 * (`nvcc --fatbin`, one cubin per --offload-arch=sm_NN plus PTX of the newest
 * for GPUs that came later) and embeds the fatbin in an object of its own:
 * the data in an .nv_fatbin section with nvcc's wrapper record in
 * .nvFatBinSegment (what cuobjdump, compute-sanitizer and cuda-gdb look
 * for), and a constructor that hands it to libanyhip (__ahRegisterFatbin).
 *
 * Steps per source: prepare (AH_TARGET_NVIDIA: chevrons and extern __shared__
 * stay CUDA's), nvcc, write the embedding C file, compile it with the host C
 * compiler; the object goes to ctx->extra_objs. With no sm_* target named the
 * pass uses its default (sm_90 SASS + compute_90 PTX) when nvcc exists, and
 * an nvcc failure is then a warning: the program still builds and runs on the
 * CPU device. A named sm_* target makes nvcc's failure the build's failure.
 * docs/nvidia.md describes all of it. */
#include "hipcc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Hopper natively, and PTX so that later GPUs compile it at load. */
#define DEFAULT_ARCH "90"

static char *executable(const char *path) {
  return access(path, X_OK) == 0 ? ah_xstrdup(path) : NULL;
}

char *ah_nvidia_find_nvcc(void) {
  const char *env = getenv("HIPCC_NVCC"), *path = getenv("PATH"), *cuda = getenv("CUDA_PATH");
  char *r;

  if (env != NULL)
    return (*env == '\0' || strcmp(env, "none") == 0) ? NULL : ah_xstrdup(env);
  if (path != NULL) {
    char *copy = ah_xstrdup(path), *save = NULL;

    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
      char *cand = ah_xasprintf("%s/nvcc", *d ? d : ".");

      r = executable(cand);
      free(cand);
      if (r != NULL) {
        free(copy);
        return r;
      }
    }
    free(copy);
  }
  if (cuda != NULL && *cuda) {
    char *cand = ah_xasprintf("%s/bin/nvcc", cuda);

    r = executable(cand);
    free(cand);
    if (r != NULL)
      return r;
  }
  return executable("/usr/local/cuda/bin/nvcc");
}

/* State of one source's pass, shared by its in-process steps. */
struct nv_job {
  struct ah_strv nvcc;  /* the nvcc command */
  const char *src;      /* the user's file, for messages */
  char *fatbin;         /* nvcc's output */
  char *embed_c;        /* the generated embedding source */
  int required;         /* an sm_* target was named: nvcc must succeed */
  int have_fatbin;      /* nvcc succeeded */
  int relocatable;      /* -fgpu-rdc compile: kept for the device link, not registered */
};

/* ---- targets ------------------------------------------------------------ */

/* "sm_90" -> "90", "sm_90a" -> "90a", "compute_90" -> "90" (ptx=1); NULL for
 * anything else (cpu, gfx*). */
static const char *nv_arch(const char *a, int *ptx) {
  const char *v = NULL;

  *ptx = 0;
  if (strncmp(a, "sm_", 3) == 0)
    v = a + 3;
  else if (strncmp(a, "compute_", 8) == 0) {
    v = a + 8;
    *ptx = 1;
  }
  if (v == NULL || v[0] < '1' || v[0] > '9')
    return NULL;
  return v;
}

/* The numeric part of an architecture ("90a" -> 90). */
static int arch_number(const char *v) {
  return atoi(v);
}

/* Adds -gencode flags: SASS for every sm_ target, PTX for the newest plain
 * one (and for every compute_ target). Returns the number of targets. */
static int add_targets(const struct ah_opts *o, struct ah_strv *cmd) {
  const char *newest = NULL;
  int n = 0;

  for (size_t i = 0; i < o->offload_archs.n; i++) {
    int ptx;
    const char *v = nv_arch(o->offload_archs.v[i], &ptx);

    if (v == NULL)
      continue;
    n++;
    if (ptx) {
      ah_strv_pushf(cmd, "-gencode=arch=compute_%s,code=compute_%s", v, v);
      continue;
    }
    ah_strv_pushf(cmd, "-gencode=arch=compute_%s,code=sm_%s", v, v);
    /* Architecture-specific targets (sm_90a) have no forward-compatible PTX. */
    if (strspn(v, "0123456789") == strlen(v) &&
        (newest == NULL || arch_number(v) > arch_number(newest)))
      newest = v;
  }
  if (n == 0) {
    ah_strv_push(cmd, "-gencode=arch=compute_" DEFAULT_ARCH ",code=sm_" DEFAULT_ARCH);
    newest = DEFAULT_ARCH;
    n = 1;
  }
  if (newest != NULL)
    ah_strv_pushf(cmd, "-gencode=arch=compute_%s,code=compute_%s", newest, newest);
  return n;
}

/* ---- flags -------------------------------------------------------------- */

static int starts(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}

/* Copies what nvcc understands of the host flags: -I -D -U -include -isystem
 * (joined or separate), -O levels and -std=c++NN. The rest (-f, -m, -W, -g,
 * dependency flags, ...) is for the host compiler, and nvcc would reject much
 * of it. */
static void add_user_flags(const struct ah_opts *o, struct ah_strv *cmd) {
  static const char *const pairs[] = {"-I", "-D", "-U", "-include", "-isystem", NULL};
  static const char *const dropped_pairs[] = {"-MF", "-MT", "-MQ", "-iquote", "-idirafter",
                                              "-imacros", NULL};
  const struct ah_strv *cf = &o->compile_flags;

  for (size_t i = 0; i < cf->n; i++) {
    const char *a = cf->v[i];
    int handled = 0;

    for (int k = 0; pairs[k] && !handled; k++) {
      if (strcmp(a, pairs[k]) == 0 && i + 1 < cf->n) {
        ah_strv_push(cmd, a);
        ah_strv_push(cmd, cf->v[++i]);
        handled = 1;
      } else if (strlen(pairs[k]) == 2 && starts(a, pairs[k])) {
        ah_strv_push(cmd, a);
        handled = 1;
      } else if (strlen(pairs[k]) > 2 && starts(a, pairs[k])) {
        ah_strv_push(cmd, pairs[k]); /* -isystemdir: nvcc wants it separate */
        ah_strv_push(cmd, a + strlen(pairs[k]));
        handled = 1;
      }
    }
    for (int k = 0; dropped_pairs[k] && !handled; k++)
      if (strcmp(a, dropped_pairs[k]) == 0) {
        i++; /* the flag's argument goes with it */
        handled = 1;
      }
  }
  for (size_t i = 0; i < o->common_flags.n; i++) {
    const char *a = o->common_flags.v[i];

    if (strcmp(a, "-O0") == 0 || strcmp(a, "-O1") == 0 || strcmp(a, "-O2") == 0 ||
        strcmp(a, "-O3") == 0)
      ah_strv_push(cmd, a);
  }
  for (size_t i = 0; i < o->cxx_flags.n; i++) {
    const char *a = o->cxx_flags.v[i], *std;

    if (!starts(a, "-std="))
      continue;
    std = a + 5;
    if (starts(std, "gnu++"))
      ah_strv_pushf(cmd, "-std=c++%s", std + 5);
    else
      ah_strv_push(cmd, a);
  }
}

/* ---- steps -------------------------------------------------------------- */

static int run_nvcc(void *arg) {
  struct nv_job *j = arg;
  int rc = ah_spawn(j->nvcc.v);

  if (rc == 0) {
    j->have_fatbin = 1;
    return 0;
  }
  if (j->required)
    return rc;
  if (j->src == NULL)
    ah_warning("nvcc could not link the relocatable device code (see above); the program "
               "will run on CPU devices only (--offload-arch=cpu skips the NVIDIA pass, "
               "--offload-arch=sm_NN makes this an error)");
  else
    ah_warning("nvcc could not compile the device code of '%s' (see above); it will run on "
               "CPU devices only (--offload-arch=cpu skips the NVIDIA pass, "
               "--offload-arch=sm_NN makes this an error)%s",
               j->src, j->relocatable ? "" : "; a __device__ function or variable defined in "
                                             "another source needs -fgpu-rdc");
  return 0;
}

/* Writes s as the body of a C string literal holding an assembler string
 * literal: both levels escape backslashes and quotes. */
static int put_asm_path(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\n' || *s == '\r')
      return 1;
    if (*s == '"' || *s == '\\')
      fputs("\\\\\\", f); /* C: \\ (assembler's backslash), then \ before the char */
    fputc(*s, f);
  }
  return 0;
}

static int write_embed(void *arg) {
  struct nv_job *j = arg;
  FILE *f = fopen(j->embed_c, "w");
  struct stat st;
  int bad = 0;

  if (f == NULL) {
    ah_error("cannot write '%s': %s", j->embed_c, strerror(errno));
    return 1;
  }
  fprintf(f, "/* Generated by hipcc: the NVIDIA device code of a HIP source. */\n");
  if (!j->have_fatbin || stat(j->fatbin, &st) != 0 || st.st_size == 0) {
    fprintf(f, "typedef int ah_no_device_code; /* nvcc failed: CPU only */\n");
  } else if (j->relocatable) {
    /* Relocatable device code (-fgpu-rdc) where nvcc's own -dc objects keep
     * it, so that `nvcc --device-link` finds it in this object and in
     * archives of it. Nothing is registered: the device link's output is. */
    fputs("/* Relocatable device code for the device link (-fgpu-rdc). */\n"
          "__asm__(\".section __nv_relfatbin,\\\"a\\\"\\n\"\n"
          "        \".balign 8\\n\"\n"
          "        \"ah_relfatbin_begin:\\n\"\n"
          "        \".incbin \\\"",
          f);
    bad = put_asm_path(f, j->fatbin);
    fputs("\\\"\\n\"\n"
          "        \".previous\\n\");\n"
          "extern const unsigned char ah_relfatbin_begin[] __asm__(\"ah_relfatbin_begin\")\n"
          "    __attribute__((visibility(\"hidden\")));\n"
          "static struct {\n"
          "  int magic, version;\n"
          "  const void *data;\n"
          "  void *filename_or_fatbins;\n"
          "} ah_relfatbin_wrapper\n"
          "    __attribute__((section(\".nvFatBinSegment\"), aligned(8), used)) = {\n"
          "        0x466243b1, 1, ah_relfatbin_begin, (void *)0};\n",
          f);
  } else {
    fputs("#include <stddef.h>\n"
          "#include <hip/anyhip/common/register.h>\n"
          "\n"
          "/* The fatbin itself, where CUDA's tools look for it. */\n"
          "__asm__(\".section .nv_fatbin,\\\"a\\\"\\n\"\n"
          "        \".balign 8\\n\"\n"
          "        \"ah_fatbin_begin:\\n\"\n"
          "        \".incbin \\\"",
          f);
    bad = put_asm_path(f, j->fatbin);
    fputs("\\\"\\n\"\n"
          "        \"ah_fatbin_end:\\n\"\n"
          "        \".previous\\n\");\n"
          "extern const unsigned char ah_fatbin_begin[] __asm__(\"ah_fatbin_begin\")\n"
          "    __attribute__((visibility(\"hidden\")));\n"
          "extern const unsigned char ah_fatbin_end[] __asm__(\"ah_fatbin_end\")\n"
          "    __attribute__((visibility(\"hidden\")));\n"
          "\n"
          "/* nvcc's own host objects describe their fatbin with this record. */\n"
          "static struct {\n"
          "  int magic, version;\n"
          "  const void *data;\n"
          "  void *filename_or_fatbins;\n"
          "} ah_fatbin_wrapper\n"
          "    __attribute__((section(\".nvFatBinSegment\"), aligned(8), used)) = {\n"
          "        0x466243b1, 1, ah_fatbin_begin, NULL};\n"
          "\n"
          "__attribute__((constructor)) static void ah_fatbin_register(void) {\n"
          "  __ahRegisterFatbin(ah_fatbin_wrapper.data,\n"
          "                     (size_t)(ah_fatbin_end - ah_fatbin_begin));\n"
          "}\n",
          f);
  }
  if (ferror(f) | fclose(f)) {
    ah_error("cannot write '%s': %s", j->embed_c, strerror(errno));
    return 1;
  }
  if (bad) {
    ah_error("cannot embed '%s': its path has a line break", j->fatbin);
    return 1;
  }
  return 0;
}

/* Joins argv into the one line -### and -v print for an in-process step. */
static char *describe(const struct ah_strv *argv) {
  size_t len = 1;
  char *s, *o;

  for (size_t i = 0; i < argv->n; i++)
    len += strlen(argv->v[i]) + 1;
  s = o = ah_xmalloc(len);
  for (size_t i = 0; i < argv->n; i++)
    o += sprintf(o, "%s%s", i ? " " : "", argv->v[i]);
  *o = '\0';
  return s;
}

/* nvcc and a new job for it, or NULL with *r saying why: no nvcc (an error
 * only when an NVIDIA target was asked for), or no memory. */
static struct nv_job *new_job(const struct ah_opts *o, char **nvcc, enum ah_nvidia_result *r) {
  struct nv_job *j;

  *nvcc = ah_nvidia_find_nvcc();
  if (*nvcc == NULL) {
    *r = o->want_nvidia ? AH_NVIDIA_UNAVAILABLE : AH_NVIDIA_SKIPPED;
    return NULL;
  }
  j = calloc(1, sizeof(*j));
  if (j == NULL) {
    free(*nvcc);
    ah_error("out of memory");
    *r = AH_NVIDIA_ERROR;
    return NULL;
  }
  j->required = o->want_nvidia;
  return j;
}

enum ah_nvidia_result ah_nvidia_pass(struct ah_nvidia_ctx *ctx) {
  const struct ah_opts *o = ctx->opts;
  char *nvcc, *prep, *obj, *dir, *desc;
  struct nv_job *j;
  struct ah_strv cc = {0};
  const char *extra = getenv("HIPCC_NVCC_FLAGS");
  enum ah_nvidia_result r;

  if ((j = new_job(o, &nvcc, &r)) == NULL)
    return r;
  j->src = ctx->src;
  j->relocatable = o->rdc;
  prep = ah_plan_temp(ctx->plan, ctx->src, "-hip-nvidia.cu");
  j->fatbin = ah_plan_temp(ctx->plan, ctx->src, "-hip-nvidia.fatbin");
  j->embed_c = ah_plan_temp(ctx->plan, ctx->src, "-hip-nvidia-embed.c");
  obj = ah_plan_temp(ctx->plan, ctx->src, "-hip-nvidia-embed.o");
  ah_plan_add_prepare(ctx->plan, ctx->tc, ctx->src, prep, AH_TARGET_NVIDIA);

  ah_strv_push(&j->nvcc, nvcc);
  ah_strv_push(&j->nvcc, "--fatbin");
  if (j->relocatable)
    ah_strv_push(&j->nvcc, "-rdc=true");
  /* HIP-Clang accepts what these allow in nvcc: constexpr host functions
   * (std::min, ...) and lambdas in device code. */
  ah_strv_push(&j->nvcc, "--expt-relaxed-constexpr");
  ah_strv_push(&j->nvcc, "--extended-lambda");
  /* Host-side warnings already come from the CPU pass: say them once. */
  ah_strv_push(&j->nvcc, "-diag-suppress=2810");
  if (!o->has_std)
    ah_strv_push(&j->nvcc, "-std=c++17");
  /* Device code compiled by nvcc is NVIDIA code: HIP's NVIDIA platform macros.
   * The host half of this compile is thrown away; in it, HIP streams are
   * CUDA's, so triple chevrons with a hipStream_t type-check. */
  ah_strv_push(&j->nvcc, "-D__HIP_PLATFORM_NVIDIA__=1");
  ah_strv_push(&j->nvcc, "-D__HIP_PLATFORM_NVCC__=1");
  ah_strv_push(&j->nvcc, "-DihipStream_t=CUstream_st");
  ah_toolchain_hip_flags(ctx->tc, &j->nvcc);
  /* The prepared file lives elsewhere: "x.h" must still find its neighbours. */
  dir = ah_path_dir(ctx->src);
  ah_strv_pushf(&j->nvcc, "-I%s", dir);
  free(dir);
  add_user_flags(o, &j->nvcc);
  add_targets(o, &j->nvcc);
  if (extra != NULL)
    ah_strv_split(&j->nvcc, extra);
  ah_strv_push(&j->nvcc, "-include");
  ah_strv_push(&j->nvcc, "hip/hip_runtime.h");
  ah_strv_push(&j->nvcc, "-o");
  ah_strv_push(&j->nvcc, j->fatbin);
  ah_strv_push(&j->nvcc, prep);
  desc = describe(&j->nvcc);
  ah_plan_add_fn(ctx->plan, desc, run_nvcc, j);
  free(desc);
  desc = ah_xasprintf(j->relocatable ? "hipcc-embed %s -> %s (__nv_relfatbin, for the device link)"
                                      : "hipcc-embed %s -> %s (.nv_fatbin, __ahRegisterFatbin)",
                      j->fatbin, j->embed_c);
  ah_plan_add_fn(ctx->plan, desc, write_embed, j);
  free(desc);

  ah_strv_append(&cc, &ctx->tc->cc);
  ah_strv_push(&cc, "-fPIC");
  ah_strv_pushf(&cc, "-I%s", ctx->tc->include_dir);
  ah_strv_push(&cc, "-c");
  ah_strv_push(&cc, j->embed_c);
  ah_strv_push(&cc, "-o");
  ah_strv_push(&cc, obj);
  ah_plan_add_run(ctx->plan, &cc);
  ah_strv_free(&cc);
  ah_strv_push(ctx->extra_objs, obj);
  free(prep);
  free(obj);
  free(nvcc);
  return AH_NVIDIA_ADDED;
}

/* ---- device link (-fgpu-rdc) -------------------------------------------- */

static int has_ext(const char *path, const char *ext) {
  size_t n = strlen(path), e = strlen(ext);

  return n > e && strcmp(path + n - e, ext) == 0;
}

/* libNAME.a in one of the -L directories of `link`, or NULL. */
static char *static_lib(const struct ah_strv *link, const char *name) {
  for (size_t i = 0; i < link->n; i++) {
    char *cand;

    if (strncmp(link->v[i], "-L", 2) != 0 || link->v[i][2] == '\0')
      continue;
    cand = ah_xasprintf("%s/lib%s.a", link->v[i] + 2, name);
    if (ah_file_exists(cand))
      return cand;
    free(cand);
  }
  return NULL;
}

enum ah_nvidia_result ah_nvidia_device_link(const struct ah_opts *o, const struct ah_toolchain *tc,
                                            struct ah_plan *p, const struct ah_strv *link,
                                            struct ah_strv *extra_objs) {
  char *nvcc, *obj, *desc;
  const char *name = o->output ? o->output : "a.out";
  struct nv_job *j;
  struct ah_strv cc = {0};
  int ntargets = 0;
  enum ah_nvidia_result r;

  if ((j = new_job(o, &nvcc, &r)) == NULL)
    return r;
  j->fatbin = ah_plan_temp(p, name, "-hip-nvidia-dlink.fatbin");
  j->embed_c = ah_plan_temp(p, name, "-hip-nvidia-dlink.c");
  obj = ah_plan_temp(p, name, "-hip-nvidia-dlink.o");

  ah_strv_push(&j->nvcc, nvcc);
  ah_strv_push(&j->nvcc, "--device-link");
  ah_strv_push(&j->nvcc, "--fatbin");
  /* nvlink links machine code only: SASS for each sm_NN (PTX cannot be
   * linked without -dlto, so later GPUs need their own sm_NN). */
  for (size_t i = 0; i < o->offload_archs.n; i++) {
    int ptx;
    const char *v = nv_arch(o->offload_archs.v[i], &ptx);

    if (v == NULL || ptx)
      continue;
    ah_strv_pushf(&j->nvcc, "-gencode=arch=compute_%s,code=sm_%s", v, v);
    ntargets++;
  }
  if (ntargets == 0)
    ah_strv_push(&j->nvcc, "-gencode=arch=compute_" DEFAULT_ARCH ",code=sm_" DEFAULT_ARCH);
  /* Every object and archive of the link, in any order: nvlink finds the
   * relocatable device code (__nv_relfatbin) in each, and resolves across
   * all of them whatever their order (a device library may come first). */
  for (size_t i = 0; i < link->n; i++) {
    const char *a = link->v[i];
    char *lib;

    if (a[0] != '-' && (has_ext(a, ".o") || has_ext(a, ".a"))) {
      ah_strv_push(&j->nvcc, a);
    } else if (strncmp(a, "-l", 2) == 0 && a[2] != ':' &&
               (lib = static_lib(link, a + 2)) != NULL) {
      ah_strv_push(&j->nvcc, lib);
      free(lib);
    }
  }
  ah_strv_push(&j->nvcc, "-o");
  ah_strv_push(&j->nvcc, j->fatbin);
  desc = describe(&j->nvcc);
  ah_plan_add_fn(p, desc, run_nvcc, j);
  free(desc);
  desc = ah_xasprintf("hipcc-embed %s -> %s (.nv_fatbin, __ahRegisterFatbin)", j->fatbin,
                      j->embed_c);
  ah_plan_add_fn(p, desc, write_embed, j);
  free(desc);

  ah_strv_append(&cc, &tc->cc);
  ah_strv_push(&cc, "-fPIC");
  ah_strv_pushf(&cc, "-I%s", tc->include_dir);
  ah_strv_push(&cc, "-c");
  ah_strv_push(&cc, j->embed_c);
  ah_strv_push(&cc, "-o");
  ah_strv_push(&cc, obj);
  ah_plan_add_run(p, &cc);
  ah_strv_free(&cc);
  ah_strv_push(extra_objs, obj);
  free(obj);
  free(nvcc);
  return AH_NVIDIA_ADDED;
}
