// SPDX-License-Identifier: MIT
// Kernel registration across namespaces: nested, `a::b`, inline, anonymous,
// extern "C"; templates and overloads; declarations that are not definitions.
namespace outer {
__global__ void k_outer(int *p) { p[0] = 1; }
namespace inner {
__global__ void k_inner(float x) {}
} // namespace inner
} // namespace outer

namespace a::b {
__global__ void k_ab() {}
}

inline namespace v1 {
__global__ void k_inline(double d) {}
}

namespace {
__global__ void k_anon(int n) {}
}

extern "C" {
__global__ void k_c(unsigned *u) {}
}
extern "C" __global__ void k_c2(void) {}

static __global__ void __launch_bounds__(256, 2) k_bounds(int a = 4) {}
__global__ __launch_bounds__(128) void k_bounds2(char c) {}

__global__ void k_decl(int);          // a declaration: registered at its definition
__global__ void k_decl(int v) {}

__global__ void k_over(int) {}        // overloads: each through its exact type
__global__ void k_over(float, int *) {}

template <typename T> __global__ void k_mixed(T) {}
__global__ void k_mixed(long) {}      // shares its name with a template: skipped

struct S {
  static void member() {}             // class scope: nothing to register
};

void host() {
  outer::k_outer<<<1, 1>>>(nullptr);
  outer::inner::k_inner<<<1, 1>>>(1.0f);
  a::b::k_ab<<<1, 1>>>();
  k_over<<<1, 1>>>(3);
}
