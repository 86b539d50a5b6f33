// SPDX-License-Identifier: MIT
// Device functions and a device variable that devfns.hip defines and
// main.hip uses: relocatable device code (-fgpu-rdc).
#pragma once
#include <hip/hip_runtime.h>

__device__ int scaled(int x);          // x * scale + bias()
__device__ int bias();
extern __device__ int scale;
// The sum of v over the block (a shared array and barriers), and the
// calling thread's index: what the kernel compiler cannot see from main.hip.
__device__ int block_sum(int v);
__device__ int my_thread();
namespace lib {
__device__ float half(float x);
}
// A __shared__ array of an inline function that both sources compile: one
// variable, as in C++ (anyhip's arena gives the linker one place to merge).
// main.hip's kernel writes it, devfns.hip's read_mailbox reads it.
__device__ inline int *mailbox() {
  static __shared__ int box[128];
  return box;
}
__device__ int read_mailbox(int t); // after a barrier: mailbox()[t]
