/* SPDX-License-Identifier: MIT */
/* Source preparation's shared state (prepare.c and the prepare_*.c files):
 * one translation unit (struct ctx) and each of its files (struct prep), what
 * the scan records in them (kernels, variables, launches, scopes, #if chains,
 * edits), and the functions one part of the preparation calls in another. */
#ifndef AH_HIPCC_PREPARE_INTERNAL_H
#define AH_HIPCC_PREPARE_INTERNAL_H

#include "hipcc.h"
#include "lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prep;

struct edit {
  size_t off, del, seq;
  char *ins;
};

enum scope_kind { SC_NS, SC_LINKAGE, SC_OTHER };

struct ns_comp {
  char *name; /* NULL: anonymous */
  int is_inline;
};

struct scope {
  enum scope_kind kind;
  struct ns_comp *comps; /* SC_NS: `namespace a::b {` has two */
  size_t ncomps;
  size_t decl;           /* the enclosing declaration's state when the brace opened */
  int paren;
  int c_linkage;         /* SC_LINKAGE: extern "C" */
};

/* One #if chain that is open: the directives of its branches seen so far. */
struct cond {
  struct ah_strv chain;
  int guard; /* an include guard (#ifndef X / #define X): not a condition to repeat */
  size_t nscopes; /* scope depth at the #if: each branch starts from it (ah_prep_directive) */
};

struct kernel {
  struct prep *owner; /* the file that declares it */
  struct ns_comp *ns; /* enclosing namespaces, outermost first */
  size_t nns;
  char *name;        /* as written at the definition (may be qualified) */
  char *key;         /* fully qualified, for grouping overloads */
  char *params;      /* parameter list, token texts joined */
  char *params_nodef; /* the same without default arguments (for a function type) */
  int has_default;   /* a parameter has a default argument */
  int is_template;
  int is_def;
  size_t line;
  struct ah_strv conds; /* one string per open #if level: its chain */
  char *helper;         /* a primary template: its deduction declaration (see deduce_helper) */
  size_t helper_off;    /* where that goes: right after the kernel's declaration */
  int helper_used;
  int tp_required;      /* a template's parameters without a default, packs left out */
  char *bounds;         /* __launch_bounds__'s first argument (max threads), or NULL */
  int empty;            /* a definition whose body is `{}`: launches need not run it */
};

/* A namespace-scope __device__, __constant__ or __managed__ variable. */
struct var {
  struct prep *owner;
  struct ns_comp *ns; /* enclosing namespaces, outermost first */
  size_t nns;
  char *name;
  char *mangled; /* its symbol, as the compiler names it (what the ELF tables say) */
  int managed;   /* __managed__: registered as managed memory too */
  size_t line;
  struct ah_strv conds;
};

/* A launch, rewritten once the whole file is known: whether its kernel is a
 * template of this file is only known then (a launch in a #define may come
 * before the kernel). Offsets into the source. */
struct launch {
  int ggl;       /* hipLaunchKernelGGL(k, ...) rather than k<<<...>>>(...) */
  size_t start;  /* the kernel expression; ggl: the macro's name */
  size_t open;   /* `<<<`; ggl: the comma after k */
  size_t close;  /* `>>>`; ggl: the comma after the stream, or the closing ')' */
  size_t close_len; /* chevron: the bytes of `>>>`, or of `> > >` */
  size_t paren;  /* `(` of the kernel's arguments (chevron) */
  int no_args;   /* no kernel arguments */
  char *qual;    /* a plain kernel name (`ns::k`, `::k`, `k`): "ns::", "::" or "" */
  char *base;    /* ... and "k"; NULL when the kernel is some other expression */
  int local;     /* base is unqualified and declared in the enclosing function (a parameter) */
  char *targs;   /* k<targs>: the explicit template arguments, or NULL */
};

/* An #include of a user header that was prepared too: the directive, and
 * the header's record. */
struct incl {
  size_t off, len;
  struct prep *child;
};

/* A namespace-scope declaration of a pure __device__ function (no body, not
 * __host__): where its `;` is, and its name. */
struct dev_decl {
  struct prep *owner;
  size_t semi;
  char *name;
};

/* One translation unit: the source and the user headers it includes (those
 * reached through quotes, or through <> and a -I directory), which share
 * what is known of kernels and variables. */
struct ctx {
  enum ah_target target;
  char *headers;            /* absolute root of the prepared headers' mirror, or NULL */
  struct ah_strv quote_dirs; /* -iquote, then -I: for "x.h" after the includer's directory */
  struct ah_strv dirs;       /* -I: for <x.h> */
  struct prep **files;      /* the source first, then each header once */
  size_t nfiles, capfiles;
  struct prep **order;      /* as their scans ended: a header before its includers */
  size_t norder, caporder;
  struct kernel *kernels;
  size_t nkernels, capkernels;
  struct var *vars;
  size_t nvars, capvars;
  struct ah_strv host_fns; /* names of namespace-scope functions that are not kernels */
  int rdc;                 /* -fgpu-rdc: device functions may be defined in other sources */
  struct dev_decl *dev_decls; /* pure __device__ function declarations (without rdc) */
  size_t ndev_decls, capdev_decls;
  struct ah_strv defined_fns; /* names of the namespace-scope functions defined */
  int errors;
};

/* One file being prepared. */
struct prep {
  struct ctx *cx;
  const char *file; /* as the compiler names it in messages */
  char *path;       /* its name as found; real: its canonical name */
  char *real;
  char *qfile;      /* file, quoted for a #line */
  char *text;       /* owned: what s points at */
  int is_header;
  int mirrored;     /* a header whose prepared copy is written (it changed) */
  char *mirror;     /* that copy's name */
  struct incl *incs;
  size_t nincs, capincs;
  const char *s;
  size_t len;
  size_t *lines;
  size_t nlines;
  struct ah_tokens toks;
  struct edit *edits;
  size_t nedits, capedits;
  struct scope *scopes;
  size_t nscopes, capscopes;
  struct cond *conds;
  size_t nconds, capconds;
  struct launch *launches;
  size_t nlaunches, caplaunches;
};

/* ---- small helpers ----------------------------------------------------- */

static inline void *grow_array(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return p;
  *cap = *cap ? *cap * 2 : 16;
  if (*cap < need)
    *cap = need;
  p = realloc(p, *cap * elem);
  if (p == NULL) {
    fputs("hipcc: error: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

static inline void add_edit(struct prep *p, size_t off, size_t del, char *ins) {
  p->edits = grow_array(p->edits, &p->capedits, p->nedits + 1, sizeof(*p->edits));
  p->edits[p->nedits] = (struct edit){.off = off, .del = del, .seq = p->nedits, .ins = ins};
  p->nedits++;
}

static inline int is(const struct prep *p, const struct ah_token *t, const char *s) {
  return ah_tok_is(p->s, t, s);
}

static inline int is_ident(const struct ah_token *t) {
  return t->kind == AH_TOK_IDENT;
}

/* ---- prepare_text.c: positions, diagnostics, tokens ------------------------ */

void ah_prep_index_lines(struct prep *p);

size_t ah_prep_line_of(const struct prep *p, size_t off);

/* gcc's format: "file:line:col: error: msg", then the line and a caret.
 * Of a long line only a window around the caret is shown, so that many
 * errors on one line do not print it again and again. */
void ah_prep_error_at(struct prep *p, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Index of the token closing the group opened at toks[i] ('(' '[' '{'), or
 * the index of EOF when unbalanced. Directives inside are skipped. */
size_t ah_prep_match_fwd(const struct prep *p, const struct ah_tokens *ts, size_t i);

/* Index of the opener matching the closer at toks[i], or (size_t)-1. */
size_t ah_prep_match_back(const struct prep *p, const struct ah_tokens *ts, size_t i);

/* Index of the '<' opening the template argument list closed by the '>' at
 * toks[i], or (size_t)-1. */
size_t ah_prep_match_angle_back(const struct prep *p, const struct ah_tokens *ts, size_t i);

/* Token texts from toks[a, b) joined, with one space where the source had
 * any gap (comments and newlines become one space). */
char *ah_prep_join_tokens(const struct prep *p, const struct ah_tokens *ts, size_t a, size_t b);

size_t ah_prep_count_newlines(const struct prep *p, size_t a, size_t b);

/* Skips an attribute at toks[k] ([[...]], __attribute__((...)), alignas(...),
 * __declspec(...), __align__(...), __launch_bounds__(...)); returns the index
 * after it, or k when there is none. */
size_t ah_prep_skip_attribute(const struct prep *p, const struct ah_tokens *ts, size_t k);

/* Index of the '>' closing the template parameter list whose '<' is toks[i],
 * or (size_t)-1. A '<' opens a list after a name (`std::pair<`, `template <`),
 * as the compiler reads it; parentheses are skipped. */
size_t ah_prep_match_angle_fwd(const struct prep *p, const struct ah_tokens *ts, size_t i,
                               size_t end);

int ah_prep_is_type_keyword(const struct prep *p, const struct ah_token *t);

/* The file name as a C string literal body. */
char *ah_prep_quote_file(const char *file);

/* ---- prepare_launch.c: launches -------------------------------------------- */

int ah_prep_stops_callee(const struct prep *p, const struct ah_token *t);

/* Records the launch whose `<<<` is toks[i]. Returns the index to resume at. */
size_t ah_prep_chevron(struct prep *p, const struct ah_tokens *ts, size_t i);

/* hipLaunchKernelGGL(k, grid, block, shm, stream, args...) at toks[i],
 * recorded when k is a plain name: if k turns out to be a template kernel
 * of this file, the call becomes a chevron_deduce launch (the header's
 * macro takes every other case). Commas split the macro's arguments as the
 * preprocessor splits them, outside parentheses only. */
void ah_prep_ggl_call(struct prep *p, const struct ah_tokens *ts, size_t i);

/* The declaration that lets a launch deduce a template kernel's arguments
 * as a call would: for
 *   template <typename T> __global__ void k(const T *in, T *out, int n)
 * it is
 *   template <typename T> auto __ah_deduce_k(const T *in, T *out, int n)
 *       -> decltype(&k<T>);
 * so decltype(__ah_deduce_k(args...)) is the type of the specialisation
 * that k(args...) would call (see chevron_deduce in launch.hpp). Never
 * defined: it only appears in decltype. Set on the kernel record kr, for a
 * primary template declared by its unqualified name, toks[a, b) being the
 * declaration up to its `{` or `;`; added to the output only when a launch
 * uses it. */
void ah_prep_deduce_helper(struct prep *p, struct kernel *kr, size_t a, size_t b, size_t name);

/* The last component of a kernel's qualified key, and the length before it. */
const char *ah_prep_key_base(const char *key, size_t *nslen);

/* Whether `base` is also the name of a namespace-scope host function (a
 * launch of it names an overload set that chevron cannot take). */
int ah_prep_host_function(const struct ctx *cx, const char *base);

/* Turns the recorded launches into edits, and adds the deduction
 * declarations that the deducing ones use. */
void ah_prep_rewrite_launches(struct prep *p);

/* The deduction declarations that launches use, each after its kernel's
 * declaration, in the file that has it. */
void ah_prep_add_helpers(struct ctx *cx);

/* ---- prepare_scope.c: scopes and directives -------------------------------- */

int ah_prep_at_namespace_scope(const struct prep *p);

void ah_prep_push_scope(struct prep *p, enum scope_kind kind, struct ns_comp *comps, size_t n);

void ah_prep_pop_scope(struct prep *p);

/* `inline? namespace name-or-nothing attrs? {` over toks[a, b): fills comps. */
int ah_prep_parse_namespace(const struct prep *p, size_t a, size_t b, struct ns_comp **out,
                            size_t *nout);

/* The namespaces open at this point, outermost first, into *ns; returns
 * their qualifier ("a::b::", "(anonymous)::"). */
char *ah_prep_current_namespaces(const struct prep *p, struct ns_comp **ns, size_t *nns);

/* The #if chains open at this point (include guards left out), one string
 * per level, for a registration to repeat. */
void ah_prep_current_conds(const struct prep *p, struct ah_strv *out);

/* Keeps the #if chains current (the branches a registration must repeat). */
void ah_prep_directive(struct prep *p, const struct ah_token *t);

/* Removes the tokens of `#if 0` branches (and their nested directives), so
 * that code commented out that way, balanced or not, is never looked at. */
void ah_prep_drop_dead(struct prep *p);

/* ---- prepare_headers.c: user headers --------------------------------------- */

/* `#include "x.h"` (or <x.h> found through -I) at t: prepares the header,
 * once per translation unit, and remembers the directive, which points at
 * the prepared copy if the header changed (see mirror_includes). */
void ah_prep_include_header(struct prep *p, const struct ah_token *t, size_t after);

/* Points p's #include lines at the prepared copies of the headers that
 * changed; a header that changed (or includes one that did) is itself
 * written out. Called for headers before their includers. */
void ah_prep_mirror_includes(struct prep *p);

int ah_prep_write_header(struct prep *p);

/* The include directories of a compile's flags, as the compiler searches
 * them for "x.h" (-iquote, then -I) and for <x.h> (-I). */
void ah_prep_include_dirs(struct ctx *cx, const struct ah_strv *flags);

/* ---- prepare_register.c: kernel registration ------------------------------- */

/* Looks at one namespace-scope declaration, toks[a, b) where toks[b] is the
 * `{` of a definition or the `;` of a declaration, and records it when it
 * declares a __global__ function. */
void ah_prep_note_kernel(struct prep *p, size_t a, size_t b, int is_def);

/* Appends the registrations: one static initializer per kernel, reopening
 * its namespaces so that its name and parameter types resolve as they did at
 * the definition. A name defined once is registered as &name; overloads
 * (or alternatives under #if) through a cast to their exact type; a name
 * that also names a template is skipped, since &name would be ambiguous. */
void ah_prep_emit_registrations(struct ctx *cx, FILE *f);

/* A kernel defined in a #define body, at sub->t[k] (its __global__): its
 * registration goes into the body, after the definition, so that each
 * expansion registers the kernel it defines (`__global__ void T##_k(...)
 * {...}` registers int_k where the macro is used with int). Returns the
 * index after what it looked at. */
size_t ah_prep_macro_kernel(struct prep *p, const struct ah_tokens *sub, size_t k);

/* A template kernel named without template arguments as an argument of
 * the occupancy or function-attribute templates, which the pointer type
 * they are given resolves (hipOccupancyMaxPotentialBlockSize<void (*)(int *)>
 * (&g, &b, k, 0, 0)), becomes ::anyhip::detail::kernel_ref([&](auto t) ->
 * decltype(t) { return k; }): it converts to that pointer type by picking
 * the specialisation as the plain name would, and registers it. */
void ah_prep_bare_template_arg(struct prep *p, size_t i);

/* A template kernel's specialisation used other than in a launch or a call,
 * `(const void *)k<T>`, `reinterpret_cast<const void *>(&ns::k<T>)`, at
 * toks[i] (the name), becomes ::anyhip::detail::registered(&ns::k<T>): the
 * specialisation registers itself where the program takes its address, so
 * that hipLaunchKernel, hipLaunchCooperativeKernel, hipGraphAddKernelNode
 * and hipFuncGetAttributes know it (HIP registers every instantiated
 * kernel; hipcc cannot list them). */
void ah_prep_by_address(struct prep *p, size_t i);

/* ---- prepare_vars.c: device variables and functions ------------------------ */

/* Looks at one namespace-scope declaration, toks[a, b) where toks[b] is its
 * `;` or a `{` (a braced initializer), and records the variables it defines
 * when it is a __device__, __constant__ or __managed__ variable definition:
 *   __device__ int x;  __constant__ float c[16] = {...};  __device__ T a, *b = &a;
 * A function (a `(` before any declarator ends), a declaration (`extern`), a
 * type, a template and anything not understood are left alone: those are
 * found through the ELF tables as before. */
void ah_prep_note_variables(struct prep *p, size_t a, size_t b, int at_brace);

/* A namespace-scope declaration toks[a, b): at a `{` (at_brace) the name of
 * the function it defines is noted; at a `;`, a declaration of a pure
 * __device__ function (not __host__, static, inline, a template, a reserved
 * __name, nor already renamed) is kept for rename_device_decls. */
void ah_prep_note_device_decl(struct prep *p, size_t a, size_t b, int at_brace);

/* Without -fgpu-rdc, HIP compiles each source's device code alone: a call to
 * a __device__ function that another source defines is an undefined symbol
 * when the program is linked. On the CPU device such a function is a host
 * function that would link; its declarations get an assembler name that no
 * source defines, so the link fails as HIP's does, naming the function:
 *   undefined reference to `twice.defined_in_another_source.needs_fgpu_rdc'
 * A function this translation unit also defines keeps its name. */
void ah_prep_rename_device_decls(struct ctx *cx);

/* With -fgpu-rdc, the pure __device__ functions this translation unit calls
 * but does not define are another source's: the kernel compiler cannot see
 * whether they wait at a barrier or read threadIdx, so the names go to it in
 * __anyhip_rdc_extern_device ("name" "\0" ...), and a kernel that calls one
 * keeps the fiber engine (kernel-compiler/kernel_module.cpp). */
void ah_prep_emit_extern_device(struct ctx *cx, FILE *f);

/* ---- prepare_shared.c: shared memory --------------------------------------- */

/* `extern __shared__ [attrs] T name[];` at ts->t[i] (the `extern`). In a
 * #define body (in_macro) the `;` may be left to the macro's user and the
 * scope is taken to be a function's. Returns the index after the
 * declaration, or i + 1 when this is some other extern. */
size_t ah_prep_extern_shared(struct prep *p, const struct ah_tokens *ts, size_t i, int in_macro,
                             const char *qfile);

/* `[static] __shared__ [attrs] T a[...], b;` with ts->t[i] the `__shared__`:
 * each declared name gets a static_assert after the `;` that its size fits
 * the device's shared memory, as a GPU toolchain refuses a kernel whose
 * static shared memory is over the limit. On the line of the `;` (line
 * numbers kept). Declarations it cannot read are left alone. */
void ah_prep_static_shared(struct prep *p, const struct ah_tokens *ts, size_t i);

/* ---- prepare.c: the pass --------------------------------------------------- */

/* Reads, tokenizes and scans one file (and, through its #include lines, the
 * user headers it includes). A header already seen in this translation unit
 * is returned as it is. parent: the includer, whose open #if branches the
 * header's registrations repeat; NULL for the source. NULL when the file
 * cannot be read (the source: after an error message). */
struct prep *ah_prep_prepare_one(struct ctx *cx, const char *path, const struct prep *parent);

/* Writes p with its edits, after a #line that names the original. */
void ah_prep_write_prepared(struct prep *p, FILE *f);

#endif
