// SPDX-License-Identifier: MIT
// Device printf: 512 threads (half of them in blocks that switched to
// fibers at a barrier, so printf runs on fiber stacks too) each print one
// line with several conversions, and some a line longer than a stdio buffer
// chunk. The program sends its own stdout to a file while the kernels run,
// then checks that every expected line is there exactly once and whole
// (no line interleaved with another).
#include "engine_test.h"

#include <set>
#include <string>
#include <unistd.h>

__global__ void hello(int fibers) {
  if (fibers)
    __syncthreads();
  printf("line %d.%d %s %.2f %c %u\n", (int)blockIdx.x, (int)threadIdx.x, fibers ? "fiber" : "fast",
         threadIdx.x * 0.5, 'a' + (int)(threadIdx.x % 26), blockDim.x);
  if (threadIdx.x % 32 == 7)
    printf("long %d.%d.%d %0300d\n", fibers, (int)blockIdx.x, (int)threadIdx.x, 42);
}

static std::string line(int b, int t, bool fiber) {
  char s[128];
  std::snprintf(s, sizeof(s), "line %d.%d %s %.2f %c %u", b, t, fiber ? "fiber" : "fast", t * 0.5,
                'a' + t % 26, 64u);
  return s;
}

int main() {
  char path[] = "/tmp/anyhip-printf-XXXXXX";
  int fd = mkstemp(path), saved;
  std::set<std::string> want, got;
  int lines = 0;

  CHECK(fd >= 0);
  unlink(path);
  std::fflush(stdout);
  saved = dup(1);
  CHECK(saved >= 0 && dup2(fd, 1) == 1);
  hello<<<4, 64>>>(0);
  hello<<<4, 64>>>(1);
  hipError_t err = hipDeviceSynchronize();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  CHECK_HIP(err);

  for (int f = 0; f < 2; f++)
    for (int b = 0; b < 4; b++)
      for (int t = 0; t < 64; t++) {
        want.insert(line(b, t, f));
        if (t % 32 == 7) {
          char s[400];
          std::snprintf(s, sizeof(s), "long %d.%d.%d %0300d", f, b, t, 42);
          want.insert(s);
        }
      }
  FILE *in = fdopen(fd, "r");
  CHECK(in != NULL);
  std::rewind(in);
  char buf[1024];
  while (std::fgets(buf, sizeof(buf), in) != NULL) {
    std::string s(buf);
    CHECK(!s.empty() && s.back() == '\n');
    s.pop_back();
    if (want.count(s) == 0) {
      std::fprintf(stderr, "unexpected line: %s\n", s.c_str());
      return AH_FAIL;
    }
    if (!got.insert(s).second) {
      std::fprintf(stderr, "line twice: %s\n", s.c_str());
      return AH_FAIL;
    }
    lines++;
  }
  std::fclose(in);
  CHECK_EQ(lines, (int)want.size());
  std::printf("%d lines: passed\n", lines);
  return AH_PASS;
}
