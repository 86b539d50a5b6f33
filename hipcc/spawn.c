/* SPDX-License-Identifier: MIT */
/* Running sub-commands (posix_spawnp, the child's exit status handed back)
 * and the temporary directory: created once per hipcc run and removed at
 * exit, on success, failure or an interrupting signal, unless -save-temps.
 * Each sub-command runs in a process group of its own, so that SIGINT,
 * SIGTERM, SIGHUP or SIGQUIT to hipcc reach the compiler and everything it
 * started (g++ -> cc1plus, nvcc -> cicc ...): hipcc forwards the signal to
 * that group, waits for the child (SIGKILL after 2 s), removes its files and
 * dies of the same signal. */
#define _GNU_SOURCE
#include "hipcc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char *tmpdir;         /* the directory to remove, or NULL */
static volatile sig_atomic_t cleaning;
static volatile pid_t child;  /* the running sub-command (its group's id), or 0 */

/* One entry of getdents64(2). */
struct dirent64_raw {
  unsigned long long d_ino;
  long long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Removes `name` (in directory fd `parent`) and everything below it, `depth`
 * levels at most, with async-signal-safe calls only (openat, getdents64,
 * unlinkat: the signal handler cleans up too, and nftw allocates). Each pass
 * reads a batch of entries from the start and removes them, until a pass
 * finds none (64 passes at most). */
static void rm_tree_at(int parent, const char *name, int depth) {
  char buf[4096] __attribute__((aligned(8)));
  int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  long n;

  if (fd < 0) {
    unlinkat(parent, name, 0);
    return;
  }
  /* A bounded number of passes: an entry that cannot go would come back. */
  for (int pass = 0; pass < 64 && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0;
       pass++) {
    int removed = 0;

    for (long off = 0; off < n;) {
      struct dirent64_raw *d = (struct dirent64_raw *)(void *)(buf + off);

      off += d->d_reclen;
      if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
        continue;
      if (unlinkat(fd, d->d_name, 0) != 0 && depth > 0)
        rm_tree_at(fd, d->d_name, depth - 1); /* a directory (EISDIR) */
      removed = 1;
    }
    if (removed)
      lseek(fd, 0, SEEK_SET); /* entries moved as others went: read again */
  }
  close(fd);
  unlinkat(parent, name, AT_REMOVEDIR);
}

void ah_tmpdir_cleanup(void) {
  if (tmpdir == NULL || cleaning)
    return;
  cleaning = 1;
  rm_tree_at(AT_FDCWD, tmpdir, 16);
  tmpdir = NULL;
}

/* Ends the running sub-command's process group with sig; async-signal-safe. */
static void stop_child(int sig) {
  pid_t pid = child;
  struct timespec tick = {0, 10 * 1000 * 1000};
  int status;

  if (pid <= 0)
    return;
  kill(-pid, sig);
  if (sig != SIGKILL)
    kill(-pid, SIGCONT); /* a stopped group would never see sig */
  for (int i = 0; i < 200; i++) {
    pid_t r = waitpid(pid, &status, WNOHANG);

    if (r == pid || (r < 0 && errno != EINTR))
      break;
    nanosleep(&tick, NULL);
    if (i == 199) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
    }
  }
  /* The leader is gone; whatever it left in its group goes too. */
  kill(-pid, SIGKILL);
  child = 0;
}

/* A signal ends hipcc like it would have without a handler, minus the files
 * and the sub-command's processes. */
static void on_signal(int sig) {
  int saved = errno;

  stop_child(sig);
  ah_tmpdir_cleanup();
  signal(sig, SIG_DFL);
  raise(sig);
  errno = saved;
}

static const int fatal_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
#define NFATAL (sizeof(fatal_sigs) / sizeof(fatal_sigs[0]))

/* Once per run; a signal the caller ignores (nohup, `cmd &` in a script)
 * stays ignored, and the sub-commands inherit that. */
static void install_handlers(void) {
  static int done;

  if (done)
    return;
  done = 1;
  for (size_t i = 0; i < NFATAL; i++) {
    struct sigaction sa = {.sa_handler = on_signal}, old;

    if (sigaction(fatal_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < NFATAL; k++)
      sigaddset(&sa.sa_mask, fatal_sigs[k]);
    sigaction(fatal_sigs[i], &sa, NULL);
  }
}

/* posix_spawnp in a new process group, with the fatal signals blocked until
 * `child` names it, so that no signal can miss it. */
static int spawn_group(pid_t *pid, char *const argv[], const posix_spawn_file_actions_t *fa) {
  posix_spawnattr_t at;
  sigset_t block, old, none;
  int err;

  install_handlers();
  sigemptyset(&block);
  for (size_t i = 0; i < NFATAL; i++)
    sigaddset(&block, fatal_sigs[i]);
  sigemptyset(&none);
  posix_spawnattr_init(&at);
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  sigprocmask(SIG_BLOCK, &block, &old);
  err = posix_spawnp(pid, argv[0], fa, &at, argv, environ);
  if (err == 0)
    child = *pid;
  sigprocmask(SIG_SETMASK, &old, NULL);
  posix_spawnattr_destroy(&at);
  return err;
}

/* waitpid for the sub-command; the group is forgotten once it is reaped. */
static int wait_group(pid_t pid, int *status) {
  sigset_t block, old;
  int r;

  while ((r = waitpid(pid, status, 0)) < 0 && errno == EINTR)
    ;
  sigemptyset(&block);
  for (size_t i = 0; i < NFATAL; i++)
    sigaddset(&block, fatal_sigs[i]);
  sigprocmask(SIG_BLOCK, &block, &old);
  child = 0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  return r;
}

int ah_tmpdir_create(char *templ, int keep) {
  if (mkdtemp(templ) == NULL) {
    ah_error("cannot create a temporary directory '%s': %s", templ, strerror(errno));
    return 1;
  }
  if (keep)
    return 0;
  tmpdir = templ;
  atexit(ah_tmpdir_cleanup);
  install_handlers();
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

/* GCC shows the source line under each error whole: 4,000 errors on one
 * 100 KB line are 400 MB of output. When stderr is no terminal (a build log,
 * an IDE), the sub-command's stderr comes through this filter, which cuts an
 * indented line (a source line shown as "  12 | ...", its "     | ^~~", a
 * fix-it hint) to AH_SOURCE_SHOWN bytes and " [...]"; messages pass whole. On a terminal GCC colours its
 * output and nothing is filtered. */
#define AH_SOURCE_SHOWN 400

static int is_source_display(const char *l, size_t n) {
  /* Messages start at column 0 with a place ("x.hip:3:4: error: ...", "In
   * function"); source lines, carets and fix-it hints are indented. */
  return n > 0 && l[0] == ' ';
}

static void write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);

    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return;
    p += w;
    n -= (size_t)w;
  }
}

/* Copies fd to stderr line by line, cutting long source displays. */
static void filter_stderr(int fd) {
  static const char cut[] = " [...]\n";
  char buf[4096], line[AH_SOURCE_SHOWN + 1];
  size_t len = 0;   /* bytes of the current line held in `line` */
  int passing = 0;  /* the current line is a message: written through */
  int dropping = 0; /* the current source display is past the cut */
  ssize_t got;

  while ((got = read(fd, buf, sizeof(buf))) != 0) {
    if (got < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (ssize_t i = 0; i < got; i++) {
      char c = buf[i];

      if (c == '\n') {
        if (dropping)
          write_all(2, cut, sizeof(cut) - 1);
        else if (!passing)
          write_all(2, line, len);
        if (!dropping)
          write_all(2, "\n", 1);
        len = 0;
        passing = dropping = 0;
        continue;
      }
      if (passing) {
        write_all(2, &c, 1);
        continue;
      }
      if (dropping)
        continue;
      if (len < AH_SOURCE_SHOWN) {
        line[len++] = c;
        continue;
      }
      /* The line is longer than the cut: a message goes on whole. */
      if (is_source_display(line, len)) {
        size_t keep = len;

        while (keep > 0 && ((unsigned char)line[keep] & 0xc0) == 0x80)
          keep--; /* never half a UTF-8 character */
        write_all(2, line, keep);
        dropping = 1;
      } else {
        write_all(2, line, len);
        write_all(2, &c, 1);
        passing = 1;
      }
      len = 0;
    }
  }
  if (!passing && !dropping)
    write_all(2, line, len);
  else if (dropping)
    write_all(2, cut, sizeof(cut) - 2);
}

int ah_spawn(char *const argv[]) {
  posix_spawn_file_actions_t fa;
  int fds[2] = {-1, -1};
  int filter = !isatty(2) && pipe2(fds, O_CLOEXEC) == 0;
  pid_t pid;
  int status, err;

  fflush(stdout);
  fflush(stderr);
  if (filter) {
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  }
  err = spawn_group(&pid, argv, filter ? &fa : NULL);
  if (filter) {
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (err == 0)
      filter_stderr(fds[0]);
    close(fds[0]);
  }
  if (err != 0) {
    ah_error("cannot run '%s': %s", argv[0], strerror(err));
    return 127;
  }
  if (wait_group(pid, &status) < 0) {
    ah_error("waiting for '%s': %s", argv[0], strerror(errno));
    return 1;
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
  err = spawn_group(&pid, argv, &fa);
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
  if (wait_group(pid, &status) < 0)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
