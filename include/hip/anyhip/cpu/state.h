/* SPDX-License-Identifier: MIT */
/* The contract between host-compiled kernels and libanyhip's CPU engine:
 * the built-in variables (threadIdx, blockIdx, blockDim, gridDim, warpSize)
 * as thread-local objects the engine fills, and the few engine entry points
 * that the kernel language calls (barriers, warp collectives, counters).
 * Plain C, so that the engine (C11) and the kernel headers (C++17) share one
 * definition. */
#ifndef ANYHIP_CPU_STATE_H
#define ANYHIP_CPU_STATE_H

#include <hip/hip_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
#include <hip/hip_vector_types.h>
extern "C" {
#endif

/* threadIdx, blockIdx, blockDim and gridDim: three unsigned ints, usable
 * wherever HIP code expects a dim3 or a uint3. */
typedef struct ahCpuIndex {
  unsigned int x, y, z;
#ifdef __cplusplus
  operator dim3() const { return dim3(x, y, z); }
  operator uint3() const { return make_uint3(x, y, z); }
#endif
} ahCpuIndex;

/* What kernel code sees. The engine writes the running GPU thread's values
 * into these thread-local objects before it runs a thread (and again each
 * time a fiber is resumed): reading threadIdx.x is one load. They are
 * objects, not macros, so a local variable or a struct member of the same
 * name (`dim3 blockDim(256);`, hipLaunchParams::gridDim) still works; read
 * only outside the engine. Outside kernels: indices 0, dimensions 1.
 * Initial-exec TLS: libanyhip is loaded with the program. */
#ifdef AH_BUILDING_LIBRARY
#define AH_CPU_RO
#else
#define AH_CPU_RO const
#endif
/* The engine's entry points never throw: kernels calling them need no
 * unwind paths (the kernel compiler cuts kernels at these calls). */
#if defined(__cplusplus)
#define AH_CPU_NOTHROW noexcept
#else
#define AH_CPU_NOTHROW __attribute__((nothrow))
#endif
#define AH_CPU_TLS __thread __attribute__((tls_model("initial-exec")))
extern AH_CPU_TLS AH_CPU_RO ahCpuIndex threadIdx;
extern AH_CPU_TLS AH_CPU_RO ahCpuIndex blockIdx;
extern AH_CPU_TLS AH_CPU_RO ahCpuIndex blockDim;
extern AH_CPU_TLS AH_CPU_RO ahCpuIndex gridDim;
extern AH_CPU_TLS AH_CPU_RO unsigned int __ah_cpu_lane; /* linear id in block % warpSize */
extern AH_CPU_TLS void *AH_CPU_RO __ah_cpu_shared;      /* dynamic shared memory */
/* 64, or 32 with ANYHIP_CPU_WARP_SIZE=32; set when the first kernel runs. */
extern AH_CPU_RO int warpSize;

/* Block barrier. op is one of AH_CPU_BAR_*; returns, for every thread of the
 * block that has not exited, the count / and / or of the predicates of those
 * threads (0 for AH_CPU_BAR_SYNC). Includes a block-scope fence. */
enum { AH_CPU_BAR_SYNC, AH_CPU_BAR_COUNT, AH_CPU_BAR_AND, AH_CPU_BAR_OR };
int __ah_cpu_barrier(int op, int predicate) AH_CPU_NOTHROW;

/* Cooperative groups' grid.sync(): a block barrier that also waits for every
 * other block of the grid; only in a kernel launched with
 * hipLaunchCooperativeKernel (elsewhere the launch fails with a report).
 * __ah_cpu_grid_valid() tells whether the running kernel was. */
void __ah_cpu_grid_sync(void);
int __ah_cpu_grid_valid(void);

/* multi_grid_group: a block barrier that also waits for every block of every
 * grid of a hipLaunchCooperativeKernelMultiDevice launch (elsewhere the launch
 * fails with a report); and the group's numbers: returns whether the kernel
 * was launched so, out[0..3] = grids, this grid's rank, the multi-grid rank
 * of this grid's thread 0, all grids' threads (one grid otherwise). */
void __ah_cpu_multi_grid_sync(void);
int __ah_cpu_multi_grid(unsigned long long out[4]);

/* A polling point: clock64(), wall_clock64() and __builtin_amdgcn_s_sleep
 * call it. A thread that reads the clock again and again is waiting (for time
 * to pass, or for a block-mate's store), and on a GPU its block-mates run
 * meanwhile; here the engine lets the next thread of the block run. */
void __ah_cpu_poll(void) AH_CPU_NOTHROW;

/* Warp collective: waits for the lanes of the caller's warp that take part
 * (those in `mask` that have not exited, at the same call site), then
 * returns the caller's result. `value` carries the caller's operand (32-bit
 * types zero-extended to 64 bits, bit-for-bit); `arg` is the source lane,
 * delta or lane mask of a shuffle, or the AH_CPU_T_* type of a reduction. */
enum {
  AH_CPU_WARP_SYNC, /* __syncwarp: returns 0 */
  AH_CPU_WARP_SHFL,
  AH_CPU_WARP_SHFL_UP,
  AH_CPU_WARP_SHFL_DOWN,
  AH_CPU_WARP_SHFL_XOR,
  AH_CPU_WARP_BALLOT, /* bit n = lane n took part with value != 0 */
  AH_CPU_WARP_ANY,
  AH_CPU_WARP_ALL,
  AH_CPU_WARP_ACTIVE,    /* the lanes taking part */
  AH_CPU_WARP_MATCH_ANY, /* the lanes whose value equals the caller's */
  AH_CPU_WARP_MATCH_ALL, /* the lanes taking part if all values are equal, else 0 */
  AH_CPU_WARP_RED_ADD,
  AH_CPU_WARP_RED_MIN,
  AH_CPU_WARP_RED_MAX,
  AH_CPU_WARP_RED_AND,
  AH_CPU_WARP_RED_OR,
  AH_CPU_WARP_RED_XOR
};
enum { AH_CPU_T_I32, AH_CPU_T_U32, AH_CPU_T_I64, AH_CPU_T_U64, AH_CPU_T_F32, AH_CPU_T_F64 };
uint64_t __ah_cpu_warp(int op, uint64_t value, int arg, int width, uint64_t mask) AH_CPU_NOTHROW;

/* Debugging counters of the engine, since the process started: fibers made
 * for GPU threads (a block switches to fibers the first time one of its
 * threads reaches a barrier or a warp collective; kernels without either
 * make none), blocks run, and of those the blocks run by a kernel's compiled
 * block function (block_abi.h) instead of once per GPU thread. */
unsigned long long __ah_cpu_fibers_created(void);
unsigned long long __ah_cpu_blocks_run(void);
unsigned long long __ah_cpu_blocks_compiled(void);

#ifdef __cplusplus
}
#endif

#endif
