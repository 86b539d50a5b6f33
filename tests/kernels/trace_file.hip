// SPDX-License-Identifier: MIT
// ANYHIP_TRACE=FILE writes a Chrome/Perfetto trace: every API call as a
// complete event ("cat":"api"), and on the CPU device every kernel (by its
// name, with grid and block) and copy (with its size). The program re-runs
// itself with the variable set (the library reads it when it loads), makes
// a few calls and checks the file line by line.
#include "engine_test.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

__global__ void trace_me_kernel(int *p) { p[threadIdx.x] = (int)threadIdx.x * 3; }

static bool has(const std::vector<std::string> &lines, const char *a, const char *b) {
  for (const std::string &l : lines)
    if (l.find(a) != std::string::npos && (b == nullptr || l.find(b) != std::string::npos))
      return true;
  return false;
}

int main(int argc, char **argv) {
  (void)argc;
  const char *path = std::getenv("ANYHIP_TRACE");
  if (path == nullptr) {
    static char file[] = "/tmp/anyhip-trace-XXXXXX";
    int fd = mkstemp(file);
    CHECK(fd >= 0);
    close(fd);
    setenv("ANYHIP_TRACE", file, 1);
    execv("/proc/self/exe", argv);
    std::perror("execv");
    return AH_FAIL;
  }
  int *d = nullptr, h[64];
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  trace_me_kernel<<<1, 64>>>(d);
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++)
    CHECK_EQ(h[i], i * 3);
  CHECK_EQ(hipFree((void *)1), hipErrorInvalidValue); // a failed call is traced too
  CHECK_HIP(hipFree(d));

  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  unlink(path);
  CHECK(lines.size() >= 6);
  CHECK(lines[0] == "[");
  for (size_t i = 1; i < lines.size(); i++) {
    const std::string &l = lines[i];
    if (l.rfind("{\"name\":\"", 0) != 0 || l.size() < 3 || l.compare(l.size() - 2, 2, "},") != 0 ||
        l.find("\"ph\":\"X\"") == std::string::npos || l.find("\"dur\":-") != std::string::npos) {
      std::fprintf(stderr, "bad trace line %zu: %s\n", i, l.c_str());
      return AH_FAIL;
    }
  }
  CHECK(has(lines, "\"name\":\"hipMalloc\"", "\"cat\":\"api\""));
  CHECK(has(lines, "\"name\":\"hipMemcpy\"", "\"cat\":\"api\""));
  CHECK(has(lines, "\"name\":\"hipFree\"", "\"cat\":\"api\""));
  if (ah_on_cpu_device()) {
    CHECK(has(lines, "trace_me_kernel", "\"grid\":\"1x1x1\",\"block\":\"64x1x1\""));
    CHECK(has(lines, "\"name\":\"copy\"", "\"bytes\":256"));
  } else {
    std::printf("not tested here: kernels and copies are traced on the CPU device only\n");
  }
  std::printf("passed\n");
  return AH_PASS;
}
