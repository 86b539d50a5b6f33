// SPDX-License-Identifier: MIT
// Device printf compiled with -mprintf-kind=buffered (tests/CMakeLists.txt
// passes it for this test), as ROCm's unit suite's printfNonHost checks it:
// each call takes a frame of the launch's hipLimitPrintfFifoSize bytes and
// returns 0; once a frame does not fit, printf returns -1 and prints nothing;
// every launch starts with an empty buffer. AMD's frame: 4 bytes of control
// word, 8 of the format's hash, a string argument's bytes with its NUL
// rounded up to 8 (none for NULL), 8 for any other argument, after 8 bytes
// the buffer keeps for itself. Host printf in the same source keeps the C
// library's return value. The default limit is AMD's 4 MiB. stdout goes to
// a file while the kernels run; the lines are read back.
#include "engine_test.h"

#include <string>
#include <vector>

#define STR55 "Hello World from Device.Iam printing 55 bytes of data.\n"

__global__ void loop(int n, int *count) {
  for (int i = 0; i < n; i++)
    count[i] = printf("%s", STR55); // frame 4 + 8 + 56 = 68
}

__global__ void each_thread(int *count) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  count[t] = printf("%s", STR55);
}

__global__ void mixed(int *count) {
  const char *none = nullptr;
  count[0] = printf("[%s]\n", none);   // 12: a NULL string takes nothing
  count[1] = printf("%d %d\n", 1, 2); // 28
  count[2] = printf("%d\n", 3);       // 20: does not fit any more
}

static std::vector<std::string> lines(FILE *in) {
  std::vector<std::string> got;
  char buf[256];
  std::rewind(in);
  while (std::fgets(buf, sizeof(buf), in) != NULL)
    got.push_back(buf);
  return got;
}

int main() {
  if (!ah_on_cpu_device()) {
    std::printf("skipped: AMD's buffered printf is the CPU device's (CUDA buffers its own way)\n");
    return AH_SKIP;
  }
  size_t lim = 0;
  CHECK_HIP(hipDeviceGetLimit(&lim, hipLimitPrintfFifoSize));
  CHECK_EQ(lim, (size_t)4 << 20);

  char path[] = "/tmp/anyhip-printf-buffered-XXXXXX";
  int fd = mkstemp(path), saved;
  CHECK(fd >= 0);
  unlink(path);
  std::fflush(stdout);
  saved = dup(1);
  CHECK(saved >= 0 && dup2(fd, 1) == 1);

  int *d = nullptr, h[64];
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  // Room for 10 frames of 68 bytes and a bit, not 11.
  CHECK_HIP(hipDeviceSetLimit(hipLimitPrintfFifoSize, 8 + 10 * 68 + 60));
  int ok[3] = {0, 0, 0}, fail[3] = {0, 0, 0};
  for (int launch = 0; launch < 2; launch++) { // a fresh buffer for each launch
    CHECK_HIP(hipMemset(d, 0x55, sizeof(h)));
    loop<<<1, 1>>>(16, d);
    CHECK_HIP(hipMemcpy(h, d, 16 * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++) {
      if (h[i] == 0 && i < 10)
        ok[launch]++;
      else if (h[i] == -1 && i >= 10)
        fail[launch]++;
    }
  }
  // 64 threads of 2 blocks print once each: 10 of them get a frame.
  CHECK_HIP(hipMemset(d, 0x55, sizeof(h)));
  each_thread<<<2, 32>>>(d);
  CHECK_HIP(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) {
    if (h[i] == 0)
      ok[2]++;
    else if (h[i] == -1)
      fail[2]++;
  }
  CHECK_HIP(hipDeviceSetLimit(hipLimitPrintfFifoSize, 8 + 12 + 28 + 19));
  mixed<<<1, 1>>>(d);
  int m[3];
  CHECK_HIP(hipMemcpy(m, d, sizeof(m), hipMemcpyDeviceToHost));
  int host_n = std::printf("host %d\n", 42);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);

  FILE *in = fdopen(fd, "r");
  CHECK(in != NULL);
  std::vector<std::string> got = lines(in);
  std::fclose(in);
  CHECK_HIP(hipFree(d));

  for (int k = 0; k < 2; k++) {
    CHECK_EQ(ok[k], 10);
    CHECK_EQ(fail[k], 6);
  }
  CHECK_EQ(ok[2], 10);
  CHECK_EQ(fail[2], 54);
  CHECK_EQ(m[0], 0);
  CHECK_EQ(m[1], 0);
  CHECK_EQ(m[2], -1);
  CHECK_EQ(host_n, 8);
  // 10 + 10 + 10 strings, then "[]", "1 2", the host's line.
  CHECK_EQ(got.size(), (size_t)33);
  for (size_t i = 0; i < 30; i++)
    CHECK(got[i] == STR55);
  CHECK(got[30] == "[]\n");
  CHECK(got[31] == "1 2\n");
  CHECK(got[32] == "host 42\n");
  std::printf("buffered printf: frames, -1 when full, a buffer per launch: passed\n");
  return AH_PASS;
}
