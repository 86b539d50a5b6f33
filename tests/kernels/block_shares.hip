// SPDX-License-Identifier: MIT
// Every block of a grid runs exactly once, whatever the worker count: the
// CPU device cuts a grid into one share per worker thread (cpu_sched.c), each
// claimed by its owner first, then by the others. Grids smaller than the
// share count, not a multiple of it, of one block, and 2D/3D grids; one
// thread per block and 96 (a barrier between two counts, so that a block's
// threads all run before it ends). The program runs itself again with
// ANYHIP_CPU_THREADS 1, 3, 16 and 64 (over-subscribed on most machines); on
// a GPU it runs once. Each count is checked against the host's loop.
#include "engine_test.h"

#include <sys/wait.h>
#include <unistd.h>
#include <vector>

__global__ void count_blocks(unsigned *hits, unsigned *threads) {
  unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  if (threadIdx.x == 0)
    atomicAdd(&hits[b], 1u);
  __syncthreads();
  atomicAdd(&threads[b], 1u);
}

static int check_grids() {
  const dim3 grids[] = {dim3(1), dim3(2), dim3(3), dim3(15), dim3(16), dim3(17), dim3(63),
                        dim3(64), dim3(65), dim3(1000), dim3(4097), dim3(7, 5), dim3(3, 4, 5)};
  const unsigned blocks[] = {1, 96};
  int fails = 0;

  for (const dim3 &g : grids)
    for (unsigned bs : blocks) {
      unsigned n = g.x * g.y * g.z;
      unsigned *hits, *threads;
      CHECK_HIP(hipMalloc(&hits, n * sizeof(unsigned)));
      CHECK_HIP(hipMalloc(&threads, n * sizeof(unsigned)));
      for (int rep = 0; rep < 3; rep++) { // the same grid again: the same shares
        CHECK_HIP(hipMemset(hits, 0, n * sizeof(unsigned)));
        CHECK_HIP(hipMemset(threads, 0, n * sizeof(unsigned)));
        count_blocks<<<g, bs>>>(hits, threads);
        CHECK_HIP(hipGetLastError());
        std::vector<unsigned> h(n), t(n);
        CHECK_HIP(hipMemcpy(h.data(), hits, n * sizeof(unsigned), hipMemcpyDeviceToHost));
        CHECK_HIP(hipMemcpy(t.data(), threads, n * sizeof(unsigned), hipMemcpyDeviceToHost));
        for (unsigned b = 0; b < n; b++)
          if ((h[b] != 1 || t[b] != bs) && fails++ < 10)
            std::fprintf(stderr, "grid (%u, %u, %u) x %u: block %u ran %u times, %u threads\n",
                         g.x, g.y, g.z, bs, b, h[b], t[b]);
      }
      CHECK_HIP(hipFree(hits));
      CHECK_HIP(hipFree(threads));
    }
  return fails == 0 ? AH_PASS : AH_FAIL;
}

int main(int argc, char **argv) {
  if (argc > 1) // a child: one worker count
    return check_grids();
  int r = check_grids();
  std::printf("default workers: %s\n", r == AH_PASS ? "passed" : "FAILED");
  if (r != AH_PASS || !ah_on_cpu_device())
    return r;
  for (const char *t : {"1", "3", "16", "64"}) {
    std::fflush(stdout);
    setenv("ANYHIP_CPU_THREADS", t, 1); // for the child: this process has its workers
    pid_t pid = fork();
    if (pid == 0) {
      char child[] = "child";
      char *args[] = {argv[0], child, nullptr};
      execv("/proc/self/exe", args);
      execv(argv[0], args);
      _exit(126);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != AH_PASS) {
      std::printf("ANYHIP_CPU_THREADS=%s: FAILED (status %d)\n", t, status);
      return AH_FAIL;
    }
    std::printf("ANYHIP_CPU_THREADS=%s: passed\n", t);
  }
  return AH_PASS;
}
