// SPDX-License-Identifier: MIT
// Faults in compiled block functions (block_abi.h; written by hand here, as
// in compiled_blocks.hip). A block function keeps no threadIdx, so the
// engine runs the faulting block again through the per-thread kernel to
// name the thread: a store through a null pointer by thread (5,0,0) of block
// (2,0,0) is reported as that thread, and so is one after a barrier (the
// re-run goes through fibers). When the per-thread kernel does not
// fault again, the report says the thread is unknown and how to find it.
// Also the ANYHIP_LOG=cpu line at each kernel's first launch: compiled,
// fibers with the registered reason, fibers for an unregistered kernel.
// CPU device only.
#include "engine_test.h"
#include "fault_capture.h"

#include <string>
#include <vector>

__global__ void bad_thread(int *p) {
  int t = threadIdx.x;
  if (blockIdx.x == 2 && t == 5)
    *(volatile int *)nullptr = 1;
  p[blockIdx.x * blockDim.x + t] = 1;
}

__global__ void bad_block_fn(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

__global__ void bad_after_barrier(int *p) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  if (blockIdx.x == 1 && t == 7)
    *(volatile int *)(uintptr_t)16 = s[63 - t];
  p[blockIdx.x * blockDim.x + t] = s[63 - t];
}

__global__ void not_compiled(int *p) { p[threadIdx.x] = 2; }

// A barrier every thread reaches; the block functions below say (block_next's
// all == 3) that they wrote no pc[t] because every thread leaves a region the
// same way: once truly (the block runs on), once falsely (lo != hi: the
// engine must fail the block, not read pc[]). And a block function with no
// masked copy of a region the engine then asks for masked.
__global__ void uniform_ok(int *p) {
  __syncthreads();
  p[blockIdx.x * blockDim.x + threadIdx.x] = 4;
}
__global__ void uniform_lie(int *p) {
  __syncthreads();
  p[blockIdx.x * blockDim.x + threadIdx.x] = 5;
}

__global__ void refused(int *p) { p[threadIdx.x] = 3; }

// A block function whose threads part (some return before the barrier) but
// that has no masked copy of the region after it, as the kernel compiler
// would leave out where it wrongly found no divergent exit: the engine's
// masked answer must fail the launch (__ah_cpu_block_unknown), not end the
// block silently.
__global__ void no_masked_copy(int *p) {
  if (threadIdx.x % 2 == 1)
    return;
  __syncthreads();
  p[blockIdx.x * blockDim.x + threadIdx.x] = 6;
}

#if !defined(__HIP_PLATFORM_NVIDIA__)
#include <hip/anyhip/cpu/block_abi.h>

static const ahCpuBlockKernel no_splits = {AH_CPU_BLOCK_ABI, 0, 0, 0, nullptr};

static void bad_thread_block(int *p) {
  for (unsigned t = 0; t < blockDim.x; t++) {
    if (blockIdx.x == 2 && t == 5)
      *(volatile int *)nullptr = 1;
    p[blockIdx.x * blockDim.x + t] = 1;
  }
}

// Faults where its per-thread kernel does not (a kernel compiler bug, say).
static void bad_block_fn_block(int *p) {
  for (unsigned t = 0; t < blockDim.x; t++) {
    if (blockIdx.x == 1 && t == 9)
      *(volatile int *)(uintptr_t)8 = 1;
    p[blockIdx.x * blockDim.x + t] = 1;
  }
}

static const uint32_t one_barrier_info[] = {0, AH_CPU_BAR_SYNC};
static const ahCpuBlockKernel one_barrier = {AH_CPU_BLOCK_ABI, 0, 1, 0, one_barrier_info};
static thread_local int bad_after_barrier_s[64];
static void bad_after_barrier_block(int *p) {
  ahCpuBlockCtx *c = __ah_cpu_block_begin(&one_barrier);
  for (unsigned t = 0; t < blockDim.x; t++) {
    bad_after_barrier_s[t] = (int)t;
    c->pc[t] = 1;
  }
  if (__ah_cpu_block_next(c, 1, 1, 1) != 2)
    return;
  for (unsigned t = 0; t < blockDim.x; t++) {
    if (blockIdx.x == 1 && t == 7)
      *(volatile int *)(uintptr_t)16 = bad_after_barrier_s[63 - t];
    p[blockIdx.x * blockDim.x + t] = bad_after_barrier_s[63 - t];
    c->pc[t] = AH_CPU_PC_DONE;
  }
  (void)__ah_cpu_block_next(c, AH_CPU_PC_DONE, AH_CPU_PC_DONE, 1);
}

static void uniform_block(int *p, int value, bool lie) {
  ahCpuBlockCtx *c = __ah_cpu_block_begin(&one_barrier);
  // No pc[t] written: every thread stops at split point 1 (or, lying, some
  // are said to have returned).
  if (__ah_cpu_block_next(c, 1, lie ? AH_CPU_PC_DONE : 1, 3) != 2)
    return;
  for (unsigned t = 0; t < blockDim.x; t++)
    p[blockIdx.x * blockDim.x + t] = value;
  (void)__ah_cpu_block_next(c, AH_CPU_PC_DONE, AH_CPU_PC_DONE, 3);
}
// Region 0 as the plugin writes it when some threads return: every thread's
// pc, then the dispatch over the regions it has (region 1 unmasked only).
static void no_masked_copy_block(int *p) {
  ahCpuBlockCtx *c = __ah_cpu_block_begin(&one_barrier);
  uint32_t lo = AH_CPU_PC_DONE, hi = 0;
  for (unsigned t = 0; t < blockDim.x; t++) {
    c->pc[t] = t % 2 == 1 ? AH_CPU_PC_DONE : 1;
    lo &= c->pc[t];
    hi |= c->pc[t];
  }
  for (int32_t next = __ah_cpu_block_next(c, lo, hi, 1); next != -1;) {
    if (next != 2) {
      __ah_cpu_block_unknown(c, next);
      return;
    }
    for (unsigned t = 0; t < blockDim.x; t++)
      p[blockIdx.x * blockDim.x + t] = 6;
    next = __ah_cpu_block_next(c, AH_CPU_PC_DONE, AH_CPU_PC_DONE, 1);
  }
}

static void uniform_ok_block(int *p) { uniform_block(p, 4, false); }
static void uniform_lie_block(int *p) { uniform_block(p, 5, true); }

__attribute__((constructor)) static void register_blocks() {
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(uniform_ok),
                       reinterpret_cast<const void *>(uniform_ok_block), &one_barrier, nullptr);
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(uniform_lie),
                       reinterpret_cast<const void *>(uniform_lie_block), &one_barrier, nullptr);
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(bad_after_barrier),
                       reinterpret_cast<const void *>(bad_after_barrier_block), &one_barrier,
                       nullptr);
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(bad_thread),
                       reinterpret_cast<const void *>(bad_thread_block), &no_splits, nullptr);
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(bad_block_fn),
                       reinterpret_cast<const void *>(bad_block_fn_block), &no_splits, nullptr);
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(no_masked_copy),
                       reinterpret_cast<const void *>(no_masked_copy_block), &one_barrier,
                       nullptr);
  __ahCpuRegisterBlock(reinterpret_cast<const void *>(refused), nullptr, nullptr,
                       "calls grid.sync()");
}
#endif

static bool has(const std::string &text, const char *what) {
  if (text.find(what) != std::string::npos)
    return true;
  std::fprintf(stderr, "expected \"%s\" in the output above\n", what);
  return false;
}

int main() {
  setenv("ANYHIP_LOG", "cpu", 1); // read at the first HIP call, just below
  if (!ah_on_cpu_device())
    SKIP("block functions belong to the CPU device");
  const char *sw = std::getenv("ANYHIP_CPU_COMPILED");
  if (sw != nullptr && std::strcmp(sw, "0") == 0)
    SKIP("ANYHIP_CPU_COMPILED=0: this test is about block functions");
  int *d = nullptr;
  CHECK_HIP(hipMalloc(&d, 4 * 64 * sizeof(int)));

  std::string log = ah_capture_stderr([&] {
    not_compiled<<<1, 8>>>(d);
    refused<<<1, 8>>>(d);
    bad_block_fn<<<1, 8>>>(d);
    (void)hipDeviceSynchronize();
    not_compiled<<<1, 8>>>(d); // said once per kernel
    (void)hipDeviceSynchronize();
  });
  CHECK(has(log, "kernel 'not_compiled(int*)': fibers: not compiled by anyhip's kernel compiler"));
  CHECK(has(log, "kernel 'refused(int*)': fibers: calls grid.sync()"));
  CHECK(has(log, "kernel 'bad_block_fn(int*)': compiled block function (0 split points)"));
  CHECK_EQ(log.find("not_compiled"), log.rfind("not_compiled"));

  hipError_t err = hipSuccess;
  std::string report = ah_capture_stderr([&] {
    bad_thread<<<4, 64>>>(d);
    err = hipDeviceSynchronize();
  });
  CHECK_EQ(err, hipErrorLaunchFailure);
  CHECK(has(report, "kernel 'bad_thread(int*)' faulted: SIGSEGV at address 0x0 "
                    "(block (2,0,0), thread (5,0,0))"));
  CHECK_HIP(hipDeviceReset());
  CHECK_HIP(hipMalloc(&d, 4 * 64 * sizeof(int)));

  report = ah_capture_stderr([&] {
    bad_after_barrier<<<3, 64>>>(d);
    err = hipDeviceSynchronize();
  });
  CHECK_EQ(err, hipErrorLaunchFailure);
  CHECK(has(report, "kernel 'bad_after_barrier(int*)' faulted: SIGSEGV at address 0x10 "
                    "(block (1,0,0), thread (7,0,0))"));
  CHECK_HIP(hipDeviceReset());
  CHECK_HIP(hipMalloc(&d, 4 * 64 * sizeof(int)));

  report = ah_capture_stderr([&] {
    bad_block_fn<<<4, 64>>>(d);
    err = hipDeviceSynchronize();
  });
  CHECK_EQ(err, hipErrorLaunchFailure);
  CHECK(has(report, "kernel 'bad_block_fn(int*)' faulted: SIGSEGV at address 0x8 (block (1,0,0), "
                    "thread unknown (compiled block; rerun with ANYHIP_CPU_COMPILED=0))"));
  CHECK_HIP(hipDeviceReset());
  CHECK_HIP(hipMalloc(&d, 4 * 64 * sizeof(int)));

  // all == 3: no pc[] needed when every thread stopped at one place ...
  uniform_ok<<<4, 64>>>(d);
  CHECK_HIP(hipDeviceSynchronize());
  std::vector<int> h(4 * 64);
  CHECK_HIP(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int v : h)
    CHECK_EQ(v, 4);
  // ... and a failed launch, not a read of stale pc[], when they did not.
  report = ah_capture_stderr([&] {
    uniform_lie<<<4, 64>>>(d);
    err = hipDeviceSynchronize();
  });
  CHECK_EQ(err, hipErrorLaunchFailure);
  CHECK(has(report, "threads left a uniform region apart (kernel compiler bug)"));
  CHECK_HIP(hipDeviceReset());
  CHECK_HIP(hipMalloc(&d, 4 * 64 * sizeof(int)));

  // A masked answer with no masked copy to run: a failed launch, said so.
  report = ah_capture_stderr([&] {
    no_masked_copy<<<2, 64>>>(d);
    err = hipDeviceSynchronize();
  });
  CHECK_EQ(err, hipErrorLaunchFailure);
  CHECK(has(report, "the engine chose a region the block function does not have "
                    "(kernel compiler bug)"));
  CHECK_HIP(hipDeviceReset());
  std::printf("passed\n");
  return AH_PASS;
}
