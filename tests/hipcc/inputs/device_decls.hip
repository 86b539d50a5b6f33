// Declarations of __device__ functions: without -fgpu-rdc the pure ones that
// this translation unit does not define get a name no source defines.
#include <hip/hip_runtime.h>

extern __device__ int elsewhere(int);          // renamed
__device__ float elsewhere_too(float x);       // renamed
namespace lib { __device__ int in_ns(int); }   // renamed
__device__ int defined_later(int);             // defined below: kept
__host__ __device__ int both(int);             // callable from host: kept
static __device__ int internal(int);           // internal: kept
inline __device__ int inl(int);                // inline: kept
template <typename T> __device__ T templ(T);   // template: kept
__device__ float __fdividef(float, float);     // a built-in's name: kept
extern __device__ int var;                     // a variable: kept
__device__ int var_init(5);                    // a variable with an initializer: kept
__device__ int (*fnptr)(int);                  // a pointer variable: kept

__device__ int defined_later(int x) { return x + 1; }

__global__ void k(int *o) {
  o[0] = elsewhere(1) + int(elsewhere_too(2.f)) + lib::in_ns(3) + defined_later(4);
}
