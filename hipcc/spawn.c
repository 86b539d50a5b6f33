/* SPDX-License-Identifier: MIT */
/* Running sub-commands (posix_spawnp, the child's exit status handed back)
 * and the temporary directory: created once per hipcc run and removed at
 * exit, on success, failure or an interrupting signal, unless -save-temps. */
#define _GNU_SOURCE
#include "hipcc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char *tmpdir;         /* the directory to remove, or NULL */
static volatile sig_atomic_t cleaning;

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  if (flag == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

void ah_tmpdir_cleanup(void) {
  if (tmpdir == NULL || cleaning)
    return;
  cleaning = 1;
  nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  tmpdir = NULL;
}

/* A signal ends hipcc like it would have without a handler, minus the files. */
static void on_signal(int sig) {
  ah_tmpdir_cleanup();
  signal(sig, SIG_DFL);
  raise(sig);
}

int ah_tmpdir_create(char *templ, int keep) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

  if (mkdtemp(templ) == NULL) {
    ah_error("cannot create a temporary directory '%s': %s", templ, strerror(errno));
    return 1;
  }
  if (keep)
    return 0;
  tmpdir = templ;
  atexit(ah_tmpdir_cleanup);
  for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
    struct sigaction sa = {.sa_handler = on_signal};

    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
  return 0;
}

/* Quotes a word for a POSIX shell only when it needs it, so the printed plan
 * reads like a command line and can be pasted into one. */
static void print_word(FILE *f, const char *w) {
  int plain = *w != '\0';

  for (const char *p = w; *p; p++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%",
                *p))
      plain = 0;
  if (plain) {
    fputs(w, f);
    return;
  }
  fputc('\'', f);
  for (const char *p = w; *p; p++) {
    if (*p == '\'')
      fputs("'\\''", f);
    else
      fputc(*p, f);
  }
  fputc('\'', f);
}

void ah_print_argv(void *fp, char *const argv[]) {
  FILE *f = fp;

  for (size_t i = 0; argv[i]; i++) {
    if (i)
      fputc(' ', f);
    print_word(f, argv[i]);
  }
  fputc('\n', f);
}

int ah_spawn(char *const argv[]) {
  pid_t pid;
  int status, err;

  fflush(stdout);
  fflush(stderr);
  err = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  if (err != 0) {
    ah_error("cannot run '%s': %s", argv[0], strerror(err));
    return 127;
  }
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      ah_error("waiting for '%s': %s", argv[0], strerror(errno));
      return 1;
    }
  }
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    ah_error("'%s' was killed by signal %d (%s)", argv[0], WTERMSIG(status),
             strsignal(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return 1;
}

int ah_spawn_capture(char *const argv[], char *out, size_t cap) {
  posix_spawn_file_actions_t fa;
  int fds[2], status, err;
  size_t n = 0;
  ssize_t got;
  pid_t pid;

  out[0] = '\0';
  if (pipe2(fds, O_CLOEXEC) != 0)
    return -1;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    return -1;
  }
  /* Read to the end, keeping what fits, so the child never blocks on a full pipe. */
  for (;;) {
    char buf[512];

    got = read(fds[0], buf, sizeof(buf));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    for (ssize_t i = 0; i < got && n + 1 < cap; i++)
      out[n++] = buf[i];
  }
  out[n] = '\0';
  close(fds[0]);
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
