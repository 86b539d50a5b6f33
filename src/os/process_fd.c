/* SPDX-License-Identifier: MIT */
/* Through /proc/<pid>/fd/<n>, which needs only the same user (ptrace "read"
 * access, which Yama's ptrace_scope does not restrict), else pidfd_getfd
 * (Linux 5.6, ptrace "attach" access: under Yama scope 1 only an ancestor
 * of the exporter gets it). */
#define _GNU_SOURCE
#include "process_fd.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int ah_os_process_fd(int pid, int fd, uint64_t ino, uint64_t devno, uint64_t min_size) {
  char path[64];
  struct stat st;
  int mine;

  snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
  mine = open(path, O_RDWR | O_CLOEXEC);
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
  if (mine < 0) {
    int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);

    if (pidfd >= 0) {
      mine = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
      close(pidfd);
    }
  }
#endif
  if (mine < 0)
    return -1;
  if (fstat(mine, &st) != 0 || (uint64_t)st.st_ino != ino || (uint64_t)st.st_dev != devno ||
      (uint64_t)st.st_size < min_size) {
    close(mine); /* the number names another file now: what was shared is gone */
    return -1;
  }
  return mine;
}
