// SPDX-License-Identifier: MIT
// All nine reduction kernels of the guide's reduction tutorial (§15.6, seed 000 lines
// 11529-12258), each run on the same input and checked against std::accumulate, for a sum
// (the guide's iota input, 0..N-1) and for a maximum (the text's other use case):
//   v1 naive shared tree           v4 first op during the load (upper half of the block)
//   v2 less thread divergence      v5 last warp without __syncthreads, WarpSize template
//   v3 sequential addressing       v6 all loops unrolled, BlockSize template, static shared
//   v7 last warp with __shfl_down  v8 warp reductions first, partials through shared memory
//   v9 ItemsPerThread values per thread (vector-friendly loads)
// The host repeats a variant's kernel until one value is left (double buffer front/back).
// Fixed/completed:
// - kernel_op and zero_elem are functors/values defined here (plus_op with 0, max_op with 0);
//   a functor rather than a lambda, because a host lambda is no device function on nvcc.
// - The rocm-examples helpers the listings use (tmp::static_for, static_switch and the
//   conditions/steps, hip::static_array, get<I>) are written here in C++17: the guide's
//   templated lambdas `[&]<int I>()` are C++20, so the loop index arrives as a
//   std::integral_constant argument instead (`constexpr int I = decltype(I_)::value`).
// - v5/v6 rely on a warp running in lockstep (the guide's note admits neither AMD nor NVIDIA
//   promises it), and its NVIDIA-only __syncwarp(mask) names lanes that do not call it. Here
//   only the first warp runs the unrolled steps, with a full __syncwarp() after each: correct
//   on any device, including the CPU device whose lanes are not in lockstep.
// - block_size is a fixed 256 (the guide takes it "from hipGetDeviceProperties()"; the
//   templated variants need it at compile time anyway); v9 uses 4 items per thread.
#include "common/example_utils.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

// ---- Compile-time helpers (the guide's tmp:: and hip::static_array, in C++17) ----
namespace tmp {
// Conditions (test) and steps (next) of static_for.
template <int N> struct not_equal {
  __host__ __device__ static constexpr bool test(int i) { return i != N; }
};
template <int N> struct greater_than {
  __host__ __device__ static constexpr bool test(int i) { return i > N; }
};
template <int N> struct less_than {
  __host__ __device__ static constexpr bool test(int i) { return i < N; }
};
template <int N> struct divide {
  __host__ __device__ static constexpr int next(int i) { return i / N; }
};
template <int N> struct divide_ceil {
  __host__ __device__ static constexpr int next(int i) { return (i + N - 1) / N; }
};
template <int N> struct increment {
  __host__ __device__ static constexpr int next(int i) { return i + N; }
};
template <int N> struct constant {
  __host__ __device__ static constexpr int next(int) { return N; }
};
template <class Cond, class Then, class Else> struct select {
  __host__ __device__ static constexpr int next(int i) {
    return Cond::test(i) ? Then::next(i) : Else::next(i);
  }
};

// for (int I = Start; Cond::test(I); I = Step::next(I)) f(I), with I a compile-time constant.
template <int Start, class Cond, class Step, class F> __host__ __device__ void static_for(F &&f) {
  if constexpr (Cond::test(Start)) {
    f(std::integral_constant<int, Start>{});
    static_for<Step::next(Start), Cond, Step>(f);
  }
}

// Calls f(std::integral_constant<uint32_t, W>{}) for the W in {32, 64} equal to value.
template <class F> bool static_switch_warp_size(int value, F &&f) {
  if (value == 32)
    f(std::integral_constant<std::uint32_t, 32>{});
  else if (value == 64)
    f(std::integral_constant<std::uint32_t, 64>{});
  else
    return false;
  return true;
}
}  // namespace tmp

namespace hip {
template <typename T, int N> struct static_array { T values[N]; };
template <int I, typename T, int N> __host__ __device__ T &get(static_array<T, N> &a) {
  return a.values[I];
}
}  // namespace hip

struct plus_op {
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct max_op {
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

// ---- v1: naive shared reduction (lines 11602-11648) ----
template <typename T, typename F>
__global__ void kernel_v1(T *front, T *back, F op, T zero_elem, uint32_t front_size) {
  extern __shared__ T shared[];
  // Overindex-safe read of input
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * blockDim.x + tid;

  // Read input from front buffer to shared
  shared[tid] = read_global_safe(gid);
  __syncthreads();
  // Shared reduction
  for (uint32_t i = 1; i < blockDim.x; i *= 2) {
    if (tid % (2 * i) == 0)
      shared[tid] = op(shared[tid], shared[tid + i]);
    __syncthreads();
  }
  // Write result from shared to back buffer
  if (tid == 0)
    back[bid] = shared[0];
}

// ---- v2: reducing thread divergence (lines 11652-11682) ----
template <typename T, typename F>
__global__ void kernel_v2(T *front, T *back, F op, T zero_elem, uint32_t front_size) {
  extern __shared__ T shared[];
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * blockDim.x + tid;

  shared[tid] = read_global_safe(gid);
  __syncthreads();
  for (uint32_t i = 1; i < blockDim.x; i *= 2) {
    if (uint32_t j = 2 * i * tid; j < blockDim.x)
      shared[j] = op(shared[j], shared[j + i]);
    __syncthreads();
  }
  if (tid == 0)
    back[bid] = shared[0];
}

// ---- v3: resolving bank conflicts, sequential addressing (lines 11684-11710) ----
template <typename T, typename F>
__global__ void kernel_v3(T *front, T *back, F op, T zero_elem, uint32_t front_size) {
  extern __shared__ T shared[];
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * blockDim.x + tid;

  shared[tid] = read_global_safe(gid);
  __syncthreads();
  for (uint32_t i = blockDim.x / 2; i != 0; i /= 2) {
    if (tid < i)
      shared[tid] = op(shared[tid], shared[tid + i]);
    __syncthreads();
  }
  if (tid == 0)
    back[bid] = shared[0];
}

// ---- v4: utilize the upper half of the block; factor = 2 * block (lines 11712-11739) ----
template <typename T, typename F>
__global__ void kernel_v4(T *front, T *back, F op, T zero_elem, uint32_t front_size) {
  extern __shared__ T shared[];
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * (blockDim.x * 2) + tid;

  shared[tid] = op(read_global_safe(gid), read_global_safe(gid + blockDim.x));
  __syncthreads();
  for (uint32_t i = blockDim.x / 2; i != 0; i /= 2) {
    if (tid < i)
      shared[tid] = op(shared[tid], shared[tid + i]);
    __syncthreads();
  }
  if (tid == 0)
    back[bid] = shared[0];
}

// The last warp's steps of v5 and v6: shared[0..2*WarpSize) down to shared[0]. Only the first
// warp takes part, and __syncwarp orders each step's writes before the next step's reads.
template <uint32_t WarpSize, typename T, typename F>
__device__ void warp_reduce_shared(T *shared, uint32_t tid, F op) {
  if (tid < WarpSize) {
    tmp::static_for<WarpSize, tmp::not_equal<0>, tmp::divide<2>>([&](auto I_) {
      constexpr int I = decltype(I_)::value;
      if (tid < I)
        shared[tid] = op(shared[tid], shared[tid + I]);
      __syncwarp();
    });
  }
}

// ---- v5: omit superfluous synchronisation (lines 11741-11984) ----
template <uint32_t WarpSize, typename T, typename F>
__global__ void kernel_v5(T *front, T *back, F op, T zero_elem, uint32_t front_size) {
  extern __shared__ T shared[];
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * (blockDim.x * 2) + tid;

  shared[tid] = op(read_global_safe(gid), read_global_safe(gid + blockDim.x));
  __syncthreads();
  for (uint32_t i = blockDim.x / 2; i > WarpSize; i /= 2) {
    if (tid < i)
      shared[tid] = op(shared[tid], shared[tid + i]);
    __syncthreads();
  }
  // Warp reduction
  warp_reduce_shared<WarpSize>(shared, tid, op);
  if (tid == 0)
    back[bid] = shared[0];
}

// ---- v6: unroll all loops (lines 11986-12023) ----
template <uint32_t BlockSize, uint32_t WarpSize, typename T, typename F>
__global__ __launch_bounds__(BlockSize) void kernel_v6(T *front, T *back, F op, T zero_elem,
                                                       uint32_t front_size) {
  __shared__ T shared[BlockSize];
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * (BlockSize * 2) + tid;

  shared[tid] = op(read_global_safe(gid), read_global_safe(gid + BlockSize));
  __syncthreads();
  // Shared reduction
  tmp::static_for<BlockSize / 2, tmp::greater_than<WarpSize>, tmp::divide<2>>([&](auto I_) {
    constexpr int I = decltype(I_)::value;
    if (tid < I)
      shared[tid] = op(shared[tid], shared[tid + I]);
    __syncthreads();
  });
  warp_reduce_shared<WarpSize>(shared, tid, op);
  if (tid == 0)
    back[bid] = shared[0];
}

// ---- v7: communicate using warp-collective functions (lines 12025-12047) ----
template <uint32_t BlockSize, uint32_t WarpSize, typename T, typename F>
__global__ __launch_bounds__(BlockSize) void kernel_v7(T *front, T *back, F op, T zero_elem,
                                                       uint32_t front_size) {
  __shared__ T shared[BlockSize];
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * (BlockSize * 2) + tid;

  shared[tid] = op(read_global_safe(gid), read_global_safe(gid + BlockSize));
  __syncthreads();
  tmp::static_for<BlockSize / 2, tmp::greater_than<WarpSize>, tmp::divide<2>>([&](auto I_) {
    constexpr int I = decltype(I_)::value;
    if (tid < I)
      shared[tid] = op(shared[tid], shared[tid + I]);
    __syncthreads();
  });
  // Warp reduction
  if (tid < WarpSize) {
    T res = op(shared[tid], shared[tid + WarpSize]);
    tmp::static_for<WarpSize / 2, tmp::not_equal<0>, tmp::divide<2>>([&](auto Delta_) {
      constexpr int Delta = decltype(Delta_)::value;
      res = op(res, __shfl_down(res, Delta));
    });
    // Write result from shared to back buffer
    if (tid == 0)
      back[bid] = res;
  }
}

// The end game of v8 and v9: warp reductions in registers, the warps' partial results
// exchanged through shared[WarpCount], until one value is left in thread 0.
template <uint32_t BlockSize, uint32_t WarpSize, typename T, typename F>
__device__ T block_reduce_warps(T res, T *shared, uint32_t tid, F op, T zero_elem) {
  static constexpr uint32_t WarpCount = BlockSize / WarpSize;
  auto read_shared_safe = [&](const uint32_t i) { return i < WarpCount ? shared[i] : zero_elem; };
  const uint32_t wid = tid / WarpSize, lid = tid % WarpSize;

  // for (ActiveWarps = WarpCount; ActiveWarps != 0;
  //      ActiveWarps = ActiveWarps != 1 ? divide_ceil(ActiveWarps, WarpSize) : 0)
  tmp::static_for<WarpCount, tmp::not_equal<0>,
                  tmp::select<tmp::not_equal<1>, tmp::divide_ceil<WarpSize>, tmp::constant<0>>>(
      [&](auto ActiveWarps_) {
        constexpr uint32_t ActiveWarps = decltype(ActiveWarps_)::value;
        if (wid < ActiveWarps) {
          // Warp reduction
          tmp::static_for<WarpSize / 2, tmp::not_equal<0>, tmp::divide<2>>([&](auto Delta_) {
            constexpr int Delta = decltype(Delta_)::value;
            res = op(res, __shfl_down(res, Delta));
          });
          // Write warp result from local to shared
          if (lid == 0)
            shared[wid] = res;
        }
        __syncthreads();
        // Read warp result from shared to local
        res = read_shared_safe(tid);
      });
  return res;
}

// ---- v8: prefer warp communication over shared (lines 12049-12148) ----
template <uint32_t BlockSize, uint32_t WarpSize, typename T, typename F>
__global__ __launch_bounds__(BlockSize) void kernel_v8(T *front, T *back, F op, T zero_elem,
                                                       uint32_t front_size) {
  __shared__ T shared[BlockSize / WarpSize];
  auto read_global_safe = [&](const uint32_t i) { return i < front_size ? front[i] : zero_elem; };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x, gid = bid * (blockDim.x * 2) + tid;

  // Read input from front buffer to local
  T res = op(read_global_safe(gid), read_global_safe(gid + blockDim.x));
  res = block_reduce_warps<BlockSize, WarpSize>(res, shared, tid, op, zero_elem);
  // Write result from local to back buffer
  if (tid == 0)
    back[bid] = res;
}

// v9's read of ItemsPerThread consecutive values: the fold expression front[i + I]... gives
// the compiler one contiguous (vector) load when the whole group is in range. The guide's
// IILE over std::make_integer_sequence needs a C++20 templated lambda; this is the same as a
// function template. `<` as in the guide: a group ending exactly at front_size takes the
// (equally correct) guarded path.
template <typename T, int32_t... I>
__device__ hip::static_array<T, sizeof...(I)>
read_items(const T *front, int32_t i, uint32_t front_size, T zero_elem,
           std::integer_sequence<int32_t, I...>) {
  constexpr int32_t ItemsPerThread = sizeof...(I);
  if (i + ItemsPerThread < front_size)
    return hip::static_array<T, ItemsPerThread>{front[i + I]...};
  else
    return hip::static_array<T, ItemsPerThread>{(i + I < front_size ? front[i + I] : zero_elem)...};
}

// ---- v9: amortize bookkeeping with ItemsPerThread (lines 12150-12258) ----
template <uint32_t BlockSize, uint32_t WarpSize, uint32_t ItemsPerThread, typename T, typename F>
__global__ static __launch_bounds__(BlockSize) void kernel_v9(T *front, T *back, F op,
                                                              T zero_elem, uint32_t front_size) {
  __shared__ T shared[BlockSize / WarpSize];
  // Signed index, so that the compiler may assume the group's addresses do not wrap.
  auto read_global_safe = [&](const int32_t i) {
    return read_items(front, i, front_size, zero_elem,
                      std::make_integer_sequence<int32_t, ItemsPerThread>());
  };
  const uint32_t tid = threadIdx.x, bid = blockIdx.x;
  const int32_t gid = (bid * BlockSize + tid) * ItemsPerThread;

  T res = [&]() {
    // Read input from front buffer to local
    hip::static_array<T, ItemsPerThread> arr = read_global_safe(gid);
    // Reduce ItemsPerThread to scalar
    tmp::static_for<1, tmp::less_than<ItemsPerThread>, tmp::increment<1>>([&](auto I_) {
      constexpr int I = decltype(I_)::value;
      hip::get<0>(arr) = op(hip::get<0>(arr), hip::get<I>(arr));
    });
    return hip::get<0>(arr);
  }();
  res = block_reduce_warps<BlockSize, WarpSize>(res, shared, tid, op, zero_elem);
  if (tid == 0)
    back[bid] = res;
}

// ---- Host side ----
constexpr uint32_t block_size = 256;
constexpr uint32_t items_per_thread = 4;

// Reduces input on the device: launch(grid, front, back, curr) runs one pass, each block
// reducing `factor` inputs to one output; passes repeat until one value is left in back.
template <typename Launch>
unsigned reduce_on_device(const std::vector<unsigned> &input, std::size_t factor, Launch launch) {
  auto new_size = [factor](const std::size_t actual) {
    // Every pass reduces input length by 'factor'. If actual size is not divisible by factor,
    // an extra output element is produced using some number of zero_elem inputs.
    return actual / factor + (actual % factor == 0 ? 0 : 1);
  };
  const std::size_t input_count = input.size();
  unsigned *front, *back;
  HIP_CHECK(hipMalloc((void **)&front, sizeof(unsigned) * input_count));
  HIP_CHECK(hipMalloc((void **)&back, sizeof(unsigned) * new_size(input_count)));
  HIP_CHECK(hipMemcpy(front, input.data(), input.size() * sizeof(unsigned),
                      hipMemcpyHostToDevice));

  for (uint32_t curr = input_count; curr > 1;) {
    launch(dim3(new_size(curr)), front, back, curr);
    HIP_CHECK(hipGetLastError());
    curr = new_size(curr);
    if (curr > 1)
      std::swap(front, back);
  }

  unsigned result;
  HIP_CHECK(hipMemcpy(&result, back, sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(front));
  HIP_CHECK(hipFree(back));
  return result;
}

// Runs the nine variants with one operator; returns the number of wrong results.
template <typename Op>
int run_all(const char *op_name, const std::vector<unsigned> &input, Op kernel_op,
            unsigned zero_elem, unsigned expected, int warp_size) {
  const std::size_t shm = block_size * sizeof(unsigned);
  const dim3 block(block_size);
  int failures = 0;
  auto check = [&](const char *variant, unsigned result) {
    std::cout << op_name << " " << variant << ": " << result;
    if (result != expected) {
      std::cout << " (expected " << expected << ") FAILED" << std::endl;
      ++failures;
    } else {
      std::cout << " PASSED" << std::endl;
    }
  };

  check("v1 naive", reduce_on_device(input, block_size, [&](dim3 grid, unsigned *f, unsigned *b,
                                                             uint32_t n) {
          hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v1<unsigned, Op>), grid, block, shm,
                             hipStreamDefault, f, b, kernel_op, zero_elem, n);
        }));
  check("v2 divergence", reduce_on_device(input, block_size, [&](dim3 grid, unsigned *f,
                                                                  unsigned *b, uint32_t n) {
          hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v2<unsigned, Op>), grid, block, shm,
                             hipStreamDefault, f, b, kernel_op, zero_elem, n);
        }));
  check("v3 bank conflicts", reduce_on_device(input, block_size, [&](dim3 grid, unsigned *f,
                                                                      unsigned *b, uint32_t n) {
          hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v3<unsigned, Op>), grid, block, shm,
                             hipStreamDefault, f, b, kernel_op, zero_elem, n);
        }));
  check("v4 upper half", reduce_on_device(input, 2 * block_size, [&](dim3 grid, unsigned *f,
                                                                      unsigned *b, uint32_t n) {
          hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v4<unsigned, Op>), grid, block, shm,
                             hipStreamDefault, f, b, kernel_op, zero_elem, n);
        }));

  // From v5 on the warp size is a template argument, chosen from the device's at run time.
  tmp::static_switch_warp_size(warp_size, [&](auto W) {
    constexpr uint32_t WarpSize = decltype(W)::value;
    constexpr uint32_t BlockSize = block_size;
    check("v5 warp unrolled", reduce_on_device(input, 2 * BlockSize, [&](dim3 grid, unsigned *f,
                                                                         unsigned *b, uint32_t n) {
            hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v5<WarpSize, unsigned, Op>), grid, block,
                               shm, hipStreamDefault, f, b, kernel_op, zero_elem, n);
          }));
    check("v6 all unrolled", reduce_on_device(input, 2 * BlockSize, [&](dim3 grid, unsigned *f,
                                                                         unsigned *b, uint32_t n) {
            hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v6<BlockSize, WarpSize, unsigned, Op>),
                               grid, block, 0, hipStreamDefault, f, b, kernel_op, zero_elem, n);
          }));
    check("v7 warp shuffle", reduce_on_device(input, 2 * BlockSize, [&](dim3 grid, unsigned *f,
                                                                         unsigned *b, uint32_t n) {
            hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v7<BlockSize, WarpSize, unsigned, Op>),
                               grid, block, 0, hipStreamDefault, f, b, kernel_op, zero_elem, n);
          }));
    check("v8 warp first", reduce_on_device(input, 2 * BlockSize, [&](dim3 grid, unsigned *f,
                                                                       unsigned *b, uint32_t n) {
            hipLaunchKernelGGL(HIP_KERNEL_NAME(kernel_v8<BlockSize, WarpSize, unsigned, Op>),
                               grid, block, 0, hipStreamDefault, f, b, kernel_op, zero_elem, n);
          }));
    check("v9 items per thread",
          reduce_on_device(input, items_per_thread * BlockSize,
                           [&](dim3 grid, unsigned *f, unsigned *b, uint32_t n) {
                             hipLaunchKernelGGL(
                                 HIP_KERNEL_NAME(kernel_v9<BlockSize, WarpSize, items_per_thread,
                                                           unsigned, Op>),
                                 grid, block, 0, hipStreamDefault, f, b, kernel_op, zero_elem, n);
                           }));
  });
  return failures;
}

int main() {
  // Odd size, so that every pass has a partly filled last block; N(N-1)/2 fits 32 bits.
  constexpr std::size_t input_count = 90001;
  const int warp_size = current_warp_size();
  if (warp_size != 32 && warp_size != 64) {
    std::cerr << "Unsupported warp size " << warp_size << std::endl;
    return 1;
  }
  std::cout << "Reducing " << input_count << " values, block size " << block_size
            << ", warp size " << warp_size << std::endl;

  // Initialize host-side storage: 0..N-1 as in the guide; the maximum uses the same values
  // shuffled (fixed seed), so that it is not simply the last element.
  std::vector<unsigned> input(input_count);
  std::iota(input.begin(), input.end(), 0);
  const unsigned sum = std::accumulate(input.begin(), input.end(), 0u);
  int failures = run_all("sum", input, plus_op{}, 0u, sum, warp_size);

  std::shuffle(input.begin(), input.end(), std::mt19937(11509));
  const unsigned maximum = *std::max_element(input.begin(), input.end());
  failures += run_all("max", input, max_op{}, 0u, maximum, warp_size);
  return report_check("reduction (18 runs)", failures);
}
