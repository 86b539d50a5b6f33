/* SPDX-License-Identifier: MIT */
/* HIP runtime compilation (hiprtc). anyhip has no run-time compiler yet: programs are real
 * objects (created, given name expressions, queried for their log, destroyed, with HIP's
 * argument checks and codes), but hiprtcCompileProgram answers HIPRTC_ERROR_COMPILATION with
 * the log "anyhip: runtime compilation is not implemented", and hiprtcLinkComplete answers
 * HIPRTC_ERROR_LINKING. None of these functions touches HIP's last error. */
#include <stdlib.h>
#include <string.h>

#include <hip/hip_version.h>
#include <hip/hiprtc.h>

#include "internal.h"

#define NOT_IMPLEMENTED "anyhip: runtime compilation is not implemented\n"

struct ah_rtc_program {
  struct ah_object obj;
  char *name;
  const char *log; /* static text, or NULL before a compile */
  int compiled;
};

struct ah_rtc_link {
  struct ah_object obj;
};

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

static struct ah_rtc_program *program(hiprtcProgram p) {
  return ah_object_cast(p, AH_KIND_RTC_PROGRAM);
}

AH_EXPORT hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name,
                                           int numHeaders, const char **headers,
                                           const char **includeNames) {
  struct ah_rtc_program *p;

  if (prog == NULL || src == NULL || numHeaders < 0 ||
      (numHeaders > 0 && (headers == NULL || includeNames == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  p = calloc(1, sizeof(*p));
  if (p == NULL)
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  p->name = strdup(name != NULL ? name : "default_program");
  if (p->name == NULL || ah_object_init(&p->obj, AH_KIND_RTC_PROGRAM) != hipSuccess) {
    free(p->name);
    free(p);
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  }
  *prog = (hiprtcProgram)p;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog) {
  struct ah_rtc_program *p;

  if (prog == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  p = program(*prog);
  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  ah_object_fini(&p->obj);
  free(p->name);
  free(p);
  *prog = NULL;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression) {
  struct ah_rtc_program *p = program(prog);

  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  if (p->compiled)
    return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions,
                                            const char **options) {
  struct ah_rtc_program *p = program(prog);

  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (numOptions < 0 || (numOptions > 0 && options == NULL))
    return HIPRTC_ERROR_INVALID_INPUT;
  p->compiled = 1;
  p->log = NOT_IMPLEMENTED;
  return HIPRTC_ERROR_COMPILATION;
}

AH_EXPORT hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression,
                                            const char **lowered_name) {
  struct ah_rtc_program *p = program(prog);

  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == NULL || lowered_name == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  if (!p->compiled)
    return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID; /* nothing was compiled */
}

AH_EXPORT hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet) {
  struct ah_rtc_program *p = program(prog);

  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (logSizeRet == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  *logSizeRet = p->log != NULL ? strlen(p->log) + 1 : 1;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log) {
  struct ah_rtc_program *p = program(prog);

  if (p == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (log == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  strcpy(log, p->log != NULL ? p->log : "");
  return HIPRTC_SUCCESS;
}

/* Code and bitcode: a program never compiles, so there is none; HIP answers
 * HIPRTC_ERROR_INVALID_PROGRAM for a program without code. */
static hiprtcResult no_code(hiprtcProgram prog, const void *out) {
  if (program(prog) == NULL)
    return HIPRTC_ERROR_INVALID_PROGRAM;
  if (out == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  return HIPRTC_ERROR_INVALID_PROGRAM;
}

AH_EXPORT hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code) {
  return no_code(prog, code);
}

AH_EXPORT hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet) {
  return no_code(prog, codeSizeRet);
}

AH_EXPORT hiprtcResult hiprtcGetBitcode(hiprtcProgram prog, char *bitcode) {
  return no_code(prog, bitcode);
}

AH_EXPORT hiprtcResult hiprtcGetBitcodeSize(hiprtcProgram prog, size_t *bitcode_size) {
  return no_code(prog, bitcode_size);
}

AH_EXPORT hiprtcResult hiprtcLinkCreate(unsigned int num_options, hiprtcJIT_option *option_ptr,
                                        void **option_vals_pptr,
                                        hiprtcLinkState *hip_link_state_ptr) {
  struct ah_rtc_link *l;

  if (hip_link_state_ptr == NULL ||
      (num_options > 0 && (option_ptr == NULL || option_vals_pptr == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  l = calloc(1, sizeof(*l));
  if (l == NULL || ah_object_init(&l->obj, AH_KIND_RTC_LINK) != hipSuccess) {
    free(l);
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  }
  *hip_link_state_ptr = (hiprtcLinkState)l;
  return HIPRTC_SUCCESS;
}

AH_EXPORT hiprtcResult hiprtcLinkAddFile(hiprtcLinkState hip_link_state,
                                         hiprtcJITInputType input_type, const char *file_path,
                                         unsigned int num_options, hiprtcJIT_option *options_ptr,
                                         void **option_values) {
  (void)input_type;
  if (ah_object_cast(hip_link_state, AH_KIND_RTC_LINK) == NULL || file_path == NULL ||
      (num_options > 0 && (options_ptr == NULL || option_values == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  return HIPRTC_ERROR_PROGRAM_CREATION_FAILURE;
}

AH_EXPORT hiprtcResult hiprtcLinkAddData(hiprtcLinkState hip_link_state,
                                         hiprtcJITInputType input_type, void *image,
                                         size_t image_size, const char *name,
                                         unsigned int num_options, hiprtcJIT_option *options_ptr,
                                         void **option_values) {
  (void)input_type;
  (void)name;
  if (ah_object_cast(hip_link_state, AH_KIND_RTC_LINK) == NULL || image == NULL ||
      image_size == 0 || (num_options > 0 && (options_ptr == NULL || option_values == NULL)))
    return HIPRTC_ERROR_INVALID_INPUT;
  return HIPRTC_ERROR_PROGRAM_CREATION_FAILURE;
}

AH_EXPORT hiprtcResult hiprtcLinkComplete(hiprtcLinkState hip_link_state, void **bin_out,
                                          size_t *size_out) {
  if (ah_object_cast(hip_link_state, AH_KIND_RTC_LINK) == NULL || bin_out == NULL ||
      size_out == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  return HIPRTC_ERROR_LINKING;
}

AH_EXPORT hiprtcResult hiprtcLinkDestroy(hiprtcLinkState hip_link_state) {
  struct ah_rtc_link *l = ah_object_cast(hip_link_state, AH_KIND_RTC_LINK);

  if (l == NULL)
    return HIPRTC_ERROR_INVALID_INPUT;
  ah_object_fini(&l->obj);
  free(l);
  return HIPRTC_SUCCESS;
}
