/* SPDX-License-Identifier: MIT */
/* Between hiprtc.c (programs, the CPU toolchain, the linker) and hiprtc_nvrtc.c (NVIDIA's
 * NVRTC, loaded with dlopen). docs/hiprtc.md. */
#ifndef AH_HIPRTC_INTERNAL_H
#define AH_HIPRTC_INTERNAL_H

#include <stddef.h>

/* A growing text (the compile log). */
struct ah_rtc_text {
  char *s;
  size_t len, cap;
};
void ah_rtc_append(struct ah_rtc_text *t, const char *s, size_t n);
void ah_rtc_appendf(struct ah_rtc_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Compiles src (named name, with the given headers) to PTX for arch ("compute_80") with
 * NVRTC; opts are the user's options that NVRTC understands (-D, -I, -std, ...). Each name
 * expression is added, and lowered[i] gets NVRTC's lowered name (malloc'd; NULL when it has
 * none). Returns 0 and *ptx (malloc'd, NUL-terminated, *ptx_size counting the NUL) or -1;
 * messages (NVRTC's log, or why NVRTC is missing) go to log. */
int ah_nvrtc_compile(const char *src, const char *name, int nheaders, char *const *headers,
                     char *const *include_names, int nopts, const char *const *opts,
                     const char *arch, size_t nnames, char *const *names, char **lowered,
                     char **ptx, size_t *ptx_size, struct ah_rtc_text *log);

#endif
