// SPDX-License-Identifier: MIT
// A kernel that writes through a null pointer (one thread of one block) does
// not bring the program down: hipDeviceSynchronize returns
// hipErrorLaunchFailure, and the engine reports the kernel's name, the
// signal, the address, the block and the thread on stderr:
//   anyhip: kernel 'write_null(int*, int)' faulted: SIGSEGV at address 0x14
//   (block (2,1,0), thread (5,0,0))
// The other blocks still finish (the grid does not hang).
#include "engine_test.h"
#include "fault_capture.h"

#include <string>

__global__ void write_null(int *p, int v) {
  if (blockIdx.x == 2 && blockIdx.y == 1 && threadIdx.x == 5)
    p[5] = v; // p is null: address 0x14
}

int main() {
  if (!ah_on_cpu_device())
    SKIP("the fault report is the CPU device's");
  hipError_t launch = hipErrorUnknown, sync = hipErrorUnknown;
  std::string err = ah_capture_stderr([&] {
    write_null<<<dim3(4, 2), 64>>>(nullptr, 7);
    launch = hipGetLastError();
    sync = hipDeviceSynchronize();
  });
  CHECK_ERR(launch, hipSuccess);
  CHECK_ERR(sync, hipErrorLaunchFailure);
  const char *want = "anyhip: kernel 'write_null(int*, int)' faulted: SIGSEGV at address 0x14 "
                     "(block (2,1,0), thread (5,0,0))\n";
  if (err.find(want) == std::string::npos) {
    std::fprintf(stderr, "expected the report:\n%s", want);
    return AH_FAIL;
  }
  std::printf("passed\n");
  return AH_PASS;
}
