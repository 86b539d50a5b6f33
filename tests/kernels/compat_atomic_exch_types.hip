// SPDX-License-Identifier: MIT
// atomicExch takes exactly HIP's types: int, unsigned int, unsigned long,
// unsigned long long, float and double. A long * or long long * has no
// overload, as with HIP-clang (ROCm's unit suite counts those compile errors
// in atomicExch_Negative_Parameters_RTC); the others exchange and return the
// old value.
#include "engine_test.h"

#include <type_traits>
#include <utility>

template <class T, class = void> struct has_exch : std::false_type {};
template <class T>
struct has_exch<T, std::void_t<decltype(atomicExch(std::declval<T *>(), std::declval<T>()))>>
    : std::true_type {};
template <class T, class = void> struct has_exch_system : std::false_type {};
template <class T>
struct has_exch_system<
    T, std::void_t<decltype(atomicExch_system(std::declval<T *>(), std::declval<T>()))>>
    : std::true_type {};

static_assert(!has_exch<long>::value, "atomicExch(long *) is no HIP overload");
static_assert(!has_exch<long long>::value, "atomicExch(long long *) is no HIP overload");
static_assert(!has_exch<short>::value, "atomicExch(short *) is no HIP overload");
static_assert(!has_exch_system<long>::value && !has_exch_system<long long>::value,
              "atomicExch_system: the same types");
static_assert(has_exch<int>::value && has_exch<unsigned int>::value &&
                  has_exch<unsigned long>::value && has_exch<unsigned long long>::value &&
                  has_exch<float>::value && has_exch<double>::value,
              "HIP's atomicExch overloads");

struct cells {
  unsigned long ul, ul_old;
  unsigned long long ull, ull_old;
  double d, d_old;
};

__global__ void exch(cells *c) {
  c->ul_old = atomicExch(&c->ul, 7ul);
  c->ull_old = atomicExch_system(&c->ull, 1ull << 40);
  c->d_old = atomicExch(&c->d, 2.5);
}

int main() {
  cells h = {3ul, 0, 5ull, 0, -1.0, 0}, *d = nullptr;
  CHECK_HIP(hipMalloc(&d, sizeof(h)));
  CHECK_HIP(hipMemcpy(d, &h, sizeof(h), hipMemcpyHostToDevice));
  exch<<<1, 1>>>(d);
  CHECK_HIP(hipMemcpy(&h, d, sizeof(h), hipMemcpyDeviceToHost));
  CHECK_HIP(hipFree(d));
  CHECK_EQ(h.ul, 7ul);
  CHECK_EQ(h.ul_old, 3ul);
  CHECK_EQ(h.ull, 1ull << 40);
  CHECK_EQ(h.ull_old, 5ull);
  CHECK(h.d == 2.5 && h.d_old == -1.0);
  std::printf("atomicExch: HIP's overloads only: passed\n");
  return AH_PASS;
}
