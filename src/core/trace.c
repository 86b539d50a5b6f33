/* SPDX-License-Identifier: MIT */
/* ANYHIP_TRACE=FILE: a trace of every API call and of every command the CPU
 * device runs, in the Chrome trace event format (a JSON array of complete
 * events, one per line), which Perfetto (ui.perfetto.dev) and
 * chrome://tracing open. The closing bracket is left off, as the format
 * allows, and lines are flushed as written, so a crash loses nothing. The
 * file is opened when the library loads, so the first call is traced too. */
#define _GNU_SOURCE
#include "internal.h"
#include "../backends/backend.h"
#include "../os/symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int ah_trace_on;
static FILE *out;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((constructor)) static void trace_open(void) {
  const char *path = getenv("ANYHIP_TRACE");

  if (path == NULL || *path == '\0')
    return;
  out = fopen(path, "w");
  if (out == NULL) {
    fprintf(stderr, "anyhip: ANYHIP_TRACE: cannot write %s; no trace\n", path);
    return;
  }
  setvbuf(out, NULL, _IOLBF, 0);
  fputs("[\n", out);
  ah_trace_on = 1;
}

uint64_t ah_trace_now(void) {
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Writes s with JSON's two special characters escaped (names are C
 * identifiers or demangled C++ names: nothing else needs it). */
static void put_escaped(const char *s) {
  for (; *s != '\0'; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', out);
    fputc((unsigned char)*s >= 0x20 ? *s : '?', out);
  }
}

/* Set by hipProfilerStop, cleared by hipProfilerStart. */
static atomic_int paused;

void ah_trace_pause(int p) {
  atomic_store(&paused, p);
}

static void event(const char *name, const char *cat, uint64_t t0, uint64_t t1, const char *args) {
  if (atomic_load_explicit(&paused, memory_order_relaxed))
    return;
  pthread_mutex_lock(&out_lock);
  fputs("{\"name\":\"", out);
  put_escaped(name);
  fprintf(out, "\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%ld%s},\n",
          cat, t0 / 1e3, (t1 - t0) / 1e3, (int)getpid(), (long)syscall(SYS_gettid), args);
  pthread_mutex_unlock(&out_lock);
}

void ah_trace_api(const struct ah_trace_span *s) {
  event(s->name, "api", s->t0, ah_trace_now(), "");
}

void ah_trace_cmd(const struct ah_cmd *cmd, int op, uint64_t t0) {
  uint64_t t1 = ah_trace_now();
  char name[256], args[64];
  size_t bytes;

  switch (op) {
  case AH_CMD_KERNEL:
    ah_symbol_pretty(cmd->kernel.fn, name, sizeof(name));
    snprintf(args, sizeof(args), ",\"args\":{\"grid\":\"%ux%ux%u\",\"block\":\"%ux%ux%u\"}",
             cmd->kernel.grid.x, cmd->kernel.grid.y, cmd->kernel.grid.z, cmd->kernel.block.x,
             cmd->kernel.block.y, cmd->kernel.block.z);
    event(name, "kernel", t0, t1, args);
    return;
  case AH_CMD_COPY:
  case AH_CMD_COPY_2D:
  case AH_CMD_COPY_3D:
    bytes = op == AH_CMD_COPY      ? cmd->copy.bytes
            : op == AH_CMD_COPY_2D ? cmd->copy2d.width * cmd->copy2d.height
                                   : cmd->copy3d.width * cmd->copy3d.height * cmd->copy3d.depth;
    snprintf(args, sizeof(args), ",\"args\":{\"bytes\":%zu}", bytes);
    event(op == AH_CMD_COPY ? "copy" : op == AH_CMD_COPY_2D ? "copy 2D" : "copy 3D", "copy", t0,
          t1, args);
    return;
  case AH_CMD_SET:
    event("set", "copy", t0, t1, "");
    return;
  case AH_CMD_HOST_FN:
    event("host function", "host", t0, t1, "");
    return;
  default: /* the queue's own markers */
    return;
  }
}
