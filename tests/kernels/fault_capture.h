// SPDX-License-Identifier: MIT
// For the fault tests: runs a piece of the test with its stderr going to a
// file, and gives back what was written there (the engine's fault report).
#ifndef AH_FAULT_CAPTURE_H
#define AH_FAULT_CAPTURE_H

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

template <typename F> static std::string ah_capture_stderr(F body) {
  char path[] = "/tmp/anyhip-stderr-XXXXXX";
  int fd = mkstemp(path), saved;
  std::string text;
  char buf[4096];
  ssize_t n;

  if (fd < 0)
    return "(mkstemp failed)";
  unlink(path);
  std::fflush(stderr);
  saved = dup(2);
  dup2(fd, 2);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  lseek(fd, 0, SEEK_SET);
  while ((n = read(fd, buf, sizeof(buf))) > 0)
    text.append(buf, (size_t)n);
  close(fd);
  std::fprintf(stderr, "%s", text.c_str()); // still shown in the test's log
  return text;
}

#endif
