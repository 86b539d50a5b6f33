/* SPDX-License-Identifier: MIT */
/* Test helpers: a file descriptor sent to another process over a Unix
 * socket (SCM_RIGHTS), as hip-tests and CUDA's samples send a shareable
 * pool's or an external memory's descriptor. Used by the ext (pools) and
 * external (external memory) tests. */
#ifndef AH_TEST_FD_PASSING_H
#define AH_TEST_FD_PASSING_H

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

/* 0 when fd went out on sock, -1 otherwise. */
static inline int send_fd(int sock, int fd) {
  char ctl[CMSG_SPACE(sizeof(int))] = {0}, c = 0;
  struct iovec iov = {&c, 1};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                     .msg_controllen = sizeof(ctl)};
  struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

  cm->cmsg_level = SOL_SOCKET;
  cm->cmsg_type = SCM_RIGHTS;
  cm->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(cm), &fd, sizeof(int));
  return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

/* The descriptor that came in on sock, or -1. */
static inline int recv_fd(int sock) {
  char ctl[CMSG_SPACE(sizeof(int))], c;
  struct iovec iov = {&c, 1};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                     .msg_controllen = sizeof(ctl)};
  struct cmsghdr *cm;
  int fd;

  if (recvmsg(sock, &m, 0) != 1 || (cm = CMSG_FIRSTHDR(&m)) == NULL ||
      cm->cmsg_type != SCM_RIGHTS)
    return -1;
  memcpy(&fd, CMSG_DATA(cm), sizeof(int));
  return fd;
}

#endif
