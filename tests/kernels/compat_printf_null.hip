// SPDX-License-Identifier: MIT
// Device printf of a NULL string and a NULL pointer (ROCm's unit suite,
// printfSpecifiers): `printf("%s\n", s)` must not become puts(s), which
// faults on NULL (hipcc passes -fno-builtin-printf to the host compiler).
// On the CPU device a NULL string prints nothing, as AMD's device library
// prints it (the suite's reference text; glibc and CUDA print "(null)"), and
// a NULL pointer "(nil)"; host printf of the same source stays the C
// library's (docs/semantics.md, "Device printf"). The program sends its
// stdout to a file while the kernel runs and reads the lines back.
#include "engine_test.h"

#include <string>
#include <vector>

__global__ void null_args(const char *s, int n) {
  const char *none = nullptr;
  printf("%s\n", none);          // the form a compiler turns into puts()
  printf("%s\n", s);             // the same through a kernel argument
  printf("%p\n", (void *)none);
  printf("[%s] %d\n", none, n);  // not the puts form: printf's own text
}

int main() {
  char path[] = "/tmp/anyhip-printf-null-XXXXXX";
  int fd = mkstemp(path), saved;

  CHECK(fd >= 0);
  unlink(path);
  std::fflush(stdout);
  saved = dup(1);
  CHECK(saved >= 0 && dup2(fd, 1) == 1);
  null_args<<<1, 1>>>(nullptr, 7);
  hipError_t err = hipDeviceSynchronize();
  const char *none = nullptr;
  int host_n = std::printf("host %s\n", none);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  CHECK_HIP(err);
  CHECK_EQ(host_n, 12); // "host (null)\n": the C library's

  FILE *in = fdopen(fd, "r");
  CHECK(in != NULL);
  std::rewind(in);
  std::vector<std::string> got;
  char buf[256];
  while (std::fgets(buf, sizeof(buf), in) != NULL)
    got.push_back(buf);
  std::fclose(in);
  std::vector<std::string> want = {"\n", "\n", "(nil)\n", "[] 7\n", "host (null)\n"};
  if (!ah_on_cpu_device()) { // NVIDIA: CUDA's printf
    want = {"(null)\n", "(null)\n", "(nil)\n", "[(null)] 7\n", "host (null)\n"};
  }
  CHECK_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) {
    if (got[i] != want[i]) {
      std::fprintf(stderr, "line %zu: got '%s', want '%s'\n", i, got[i].c_str(), want[i].c_str());
      return AH_FAIL;
    }
  }
  std::printf("NULL %%s and %%p: passed\n");
  return AH_PASS;
}
