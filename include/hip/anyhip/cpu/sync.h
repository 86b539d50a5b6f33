/* SPDX-License-Identifier: MIT */
/* Block barriers and memory fences on the CPU device. A barrier is a call
 * into the engine, which switches the block to fibers the first time and
 * counts only the threads that have not returned, as HIP does. Fences: all
 * threads of a block run on one OS thread, so a block-scope fence only has
 * to stop the compiler; device and system scope are full fences. */
#ifndef ANYHIP_CPU_SYNC_H
#define ANYHIP_CPU_SYNC_H

#include <hip/anyhip/cpu/state.h>

inline void __syncthreads() { (void)__ah_cpu_barrier(AH_CPU_BAR_SYNC, 1); }
inline int __syncthreads_count(int predicate) {
  return __ah_cpu_barrier(AH_CPU_BAR_COUNT, predicate);
}
inline int __syncthreads_and(int predicate) { return __ah_cpu_barrier(AH_CPU_BAR_AND, predicate); }
inline int __syncthreads_or(int predicate) { return __ah_cpu_barrier(AH_CPU_BAR_OR, predicate); }

inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#endif
