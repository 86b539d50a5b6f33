// SPDX-License-Identifier: MIT
// Device variables registered at the end of the file (address, size, symbol
// name) in their namespaces and under their #if branches; functions, types,
// declarations and templates are not variables.
#include <hip/hip_runtime.h>

struct Pair { int a, b; };
template <typename A, typename B> struct Two { A a; B b; };

__device__ int counter;
__constant__ float coeff[16] = {1, 2, 3};
__device__ __managed__ double total = 0.5, *where = &total, grid[2][3];
static __device__ int hidden;
__device__ const int limit = 10;
__device__ const int *cptr, *const fixed = &limit;
__device__ Two<int, float> two;
__device__ Pair pair{1, 2};
__managed__ unsigned long long ticks __attribute__((aligned(16)));
__device__ std::size_t sized;

namespace ns {
__device__ int inner[4];
inline namespace v1 { __constant__ int versioned; }
namespace { __device__ int anon; }
static __device__ float ns_hidden;
}
namespace a::b { __device__ int nested; }
extern "C" { __device__ int c_named; }

#ifdef WITH_EXTRA
__device__ int extra;
#endif

// Not variables, or not defined here:
extern __device__ int elsewhere;
__device__ float device_fn(float x);
__device__ float device_def(float x) { return x; }
__host__ __device__ int both();
template <typename T> __device__ T var_template;
namespace ns { extern __device__ int late; }
__device__ int ns::late = 3;
struct __device__ S;
typedef __device__ int dint;
__global__ void kernel(int *p) { __device__ static int local; }
