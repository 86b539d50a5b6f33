/* SPDX-License-Identifier: MIT */
/* Opening another process's file descriptor (interprocess memory and
 * events share memfds this way). */
#ifndef AH_OS_PROCESS_FD_H
#define AH_OS_PROCESS_FD_H

#include <stdint.h>

/* Descriptor `fd` of process `pid`, opened read-write in this process, when
 * it is still the file (inode `ino` on device `devno`) of at least
 * `min_size` bytes; -1 when it cannot be opened or names another file now. */
int ah_os_process_fd(int pid, int fd, uint64_t ino, uint64_t devno, uint64_t min_size);

#endif
