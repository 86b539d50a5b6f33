/* SPDX-License-Identifier: MIT */
/* How compiled HIP code launches kernels (C++14 and later). hipcc rewrites
 * `k<<<g, b, shm, s>>>(args)` into `::anyhip::detail::chevron(k, g, b, shm, s)(args)`;
 * hipLaunchKernelGGL does the same. Both convert each argument to the kernel's
 * parameter type exactly as a direct call would, point args[i] at it and call
 * the runtime's __ahLaunchKernel with the kernel's signature descriptor
 * (sig<P...>::value), which copies the arguments before returning. A template
 * kernel named without template arguments goes through chevron_deduce (hipcc)
 * or the deducing overload of hipLaunchKernelGGL, which find the
 * specialisation from the arguments. Also compiled by nvcc (host side) in
 * hipcc's NVIDIA pass. */
#ifndef ANYHIP_LAUNCH_HPP
#define ANYHIP_LAUNCH_HPP

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace anyhip {
namespace detail {

/* The stored form of a parameter: a kernel declared f(const T &) still gets
 * (a copy of) a T. */
template <typename P> using stored_t = std::remove_cv_t<std::remove_reference_t<P>>;

/* One descriptor per parameter-type list. `invoke` calls the kernel's host
 * function with args[i] read as the i-th parameter; the CPU device calls it
 * once per GPU thread. sizes/aligns get a trailing 0 so that a kernel without
 * parameters still has (unused) arrays. */
template <typename... P> struct sig {
  template <std::size_t... I>
  static void call(const void *fn, void **args, std::index_sequence<I...>) {
    (void)args; /* unused when P is empty */
    reinterpret_cast<void (*)(P...)>(const_cast<void *>(fn))(
        *static_cast<stored_t<P> *>(args[I])...);
  }
  static void invoke(const void *fn, void **args) {
    call(fn, args, std::index_sequence_for<P...>{});
  }
  static constexpr std::size_t sizes[sizeof...(P) + 1] = {sizeof(stored_t<P>)..., 0};
  static constexpr std::size_t aligns[sizeof...(P) + 1] = {alignof(stored_t<P>)..., 0};
  static const ahKernelSig value;
};

/* Out-of-class definitions keep this usable from C++14 (programs built with
 * -std=c++14 include hip_runtime.h too); C++17 makes the constexpr ones
 * redundant. */
#if __cplusplus < 201703L
template <typename... P> constexpr std::size_t sig<P...>::sizes[sizeof...(P) + 1];
template <typename... P> constexpr std::size_t sig<P...>::aligns[sizeof...(P) + 1];
#endif
template <typename... P>
const ahKernelSig sig<P...>::value = {&sig<P...>::invoke, (unsigned)sizeof...(P),
                                      sig<P...>::sizes, sig<P...>::aligns};

/* Grid and block sizes: an integer n (or enum) is dim3(n) without a narrowing
 * complaint; anything else converts as it would to a dim3 parameter (a dim3,
 * CUDA's uint3 under nvcc, a double from ceil()). */
template <typename D> inline dim3 to_dim3_(const D &d, std::true_type) {
  return dim3(static_cast<uint32_t>(d));
}
template <typename D> inline dim3 to_dim3_(const D &d, std::false_type) {
  return dim3(d);
}
template <typename D> inline dim3 to_dim3(const D &d) {
  return to_dim3_(d, std::integral_constant<bool, std::is_integral<D>::value ||
                                                      std::is_enum<D>::value>{});
}

/* What chevron() returns: call it with the kernel's arguments. Its call
 * operator takes exactly the kernel's parameter types, so each argument
 * converts as in a direct call (a literal 0 for a pointer, an int for a float).
 * A launch has no value, as in HIP; errors go to hipGetLastError. */
template <typename... P> struct launcher {
  void (*fn)(P...);
  dim3 grid;
  dim3 block;
  std::size_t shm;
  hipStream_t stream;

  void operator()(P... a) const {
    void *args[sizeof...(P) + 1] = {const_cast<void *>(static_cast<const void *>(&a))...,
                                    nullptr};
    (void)__ahLaunchKernel(reinterpret_cast<const void *>(fn), &sig<P...>::value, grid, block,
                           shm, stream, args);
  }
};

template <typename... P, typename G, typename B>
inline launcher<P...> chevron(void (*kernel)(P...), const G &grid, const B &block,
                              std::size_t shm = 0, hipStream_t stream = nullptr) {
  return launcher<P...>{kernel, to_dim3(grid), to_dim3(block), shm, stream};
}

/* C++20's std::type_identity, for C++14: a parameter of type nondeduced_t<X>
 * takes no part in template argument deduction, so X is computed from the
 * other arguments, and a template kernel's name passed there is resolved
 * against X, as `void (*f)(float *) = scale;` resolves scale<float>. */
template <typename T> struct type_identity {
  using type = T;
};
template <typename T> using nondeduced_t = typename type_identity<T>::type;

/* k<<<g, b, shm, s>>>(args) with k a template kernel named without template
 * arguments, as hipcc writes it:
 *   chevron_deduce(g, b, shm, s)(pick, args)
 * where pick is a lambda hipcc writes, whose return type is the type of the
 * specialisation a call k(args) would choose (found through a declaration
 * hipcc adds after the kernel's, __ah_deduce_k, with the kernel's template
 * and function parameters), and which returns k converted to that type.
 * Deduction is then a call's: k(const T *, T *, int) takes (float *, float *,
 * size_t). The arguments reach the kernel's parameters forwarded, so a literal
 * 0 does not become a null pointer here (write nullptr), and a braced list
 * `{}` cannot be an argument. */
template <typename... A> struct type_list {};
template <typename F, typename L, typename = void> struct can_pick : std::false_type {};
template <typename F, typename... A>
struct can_pick<F, type_list<A...>, decltype((void)std::declval<F &>()(std::declval<A>()...))>
    : std::true_type {};

struct deducing_launcher {
  dim3 grid;
  dim3 block;
  std::size_t shm;
  hipStream_t stream;

  template <typename F, typename... A> void operator()(F pick, A &&...a) const {
    static_assert(can_pick<F, type_list<A &&...>>::value,
                  "anyhip: the launch's arguments do not deduce the template kernel's template "
                  "arguments (the error below says why); name them: k<T><<<grid, block>>>(...)");
    chevron(pick(static_cast<A &&>(a)...), grid, block, shm, stream)(static_cast<A &&>(a)...);
  }
};

template <typename G, typename B>
inline deducing_launcher chevron_deduce(const G &grid, const B &block, std::size_t shm = 0,
                                        hipStream_t stream = nullptr) {
  return deducing_launcher{to_dim3(grid), to_dim3(block), shm, stream};
}

/* hipLaunchKernelGGL(k, grid, block, shm, stream, args...) expands to
 * ggl(grid, block, shm)((k), stream, args...): the stream travels with the
 * arguments, so the macro's variadic part is never empty. Two call operators:
 *   - k names one function (or a function pointer): its parameter types P
 *     are deduced from k and each argument converts to P as in a direct call
 *     (a literal 0 for a pointer or the stream, an int for a float);
 *   - k names a template kernel without template arguments (or an overload
 *     set): no P can be deduced from k, so the first one is not viable, and
 *     the second resolves k against void (*)(decay_t<A>...), the arguments'
 *     own types. The specialisation must take exactly those types (a
 *     k(const T *) given a float * does not match: write k<float>); hipcc
 *     rewrites such a hipLaunchKernelGGL of a template kernel it can see into
 *     chevron_deduce, which deduces as a call does.
 * When both are viable (a single kernel given exactly its parameter types),
 * the stream decides: the first takes hipStream_t, the second a ggl_stream
 * that a stream converts to through a constructor, a worse conversion. */
struct ggl_stream {
  hipStream_t value;
  ggl_stream(hipStream_t s) : value(s) {}
};

struct ggl_launcher {
  dim3 grid;
  dim3 block;
  std::size_t shm;

  template <typename... P>
  void operator()(void (*fn)(P...), hipStream_t stream, nondeduced_t<P>... a) const {
    void *args[sizeof...(P) + 1] = {const_cast<void *>(static_cast<const void *>(&a))...,
                                    nullptr};
    (void)__ahLaunchKernel(reinterpret_cast<const void *>(fn), &sig<P...>::value, grid, block,
                           shm, stream, args);
  }

  template <typename... A>
  void operator()(nondeduced_t<void (*)(std::decay_t<A>...)> fn, ggl_stream stream,
                  A &&...a) const {
    (*this)(fn, stream.value, static_cast<A &&>(a)...);
  }
};

template <typename G, typename B>
inline ggl_launcher ggl(const G &grid, const B &block, std::size_t shm) {
  return ggl_launcher{to_dim3(grid), to_dim3(block), shm};
}

/* The function form (HIP's HIP_TEMPLATE_KERNEL_LAUNCH variant). Arguments are
 * forwarded, so a bare literal 0 does not become a null pointer here. */
template <typename... P, typename G, typename B, typename... A>
inline void launch_ggl(void (*kernel)(P...), const G &grid, const B &block, std::size_t shm,
                       hipStream_t stream, A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A), "wrong number of kernel arguments");
  chevron(kernel, grid, block, shm, stream)(std::forward<A>(args)...);
}

/* Called from the static initialisers hipcc appends to each translation unit,
 * once per non-template __global__ function. */
template <typename... P> inline int register_kernel(void (*kernel)(P...)) {
  __ahRegisterKernel(reinterpret_cast<const void *>(kernel), &sig<P...>::value);
  return 0;
}

/* The same for a kernel declared with __launch_bounds__(max_threads, ...):
 * hipcc passes the bound's expression, and a launch of a larger block fails
 * (hipErrorLaunchFailure, as AMD's runtime). A bound that is not positive is
 * the compiler's business (HIP-clang refuses it); it is not recorded. */
template <typename... P> inline int register_kernel(void (*kernel)(P...), long long max_threads) {
  __ahRegisterKernelBounds(reinterpret_cast<const void *>(kernel), &sig<P...>::value,
                           max_threads > 0 && max_threads <= 0x7fffffff
                               ? static_cast<unsigned>(max_threads)
                               : 0u);
  return 0;
}

/* A kernel whose body is empty (`{}`, as hipcc sees it): launches of it
 * check their configuration and order in the stream as any launch, and the
 * CPU device runs no block (none could do anything). */
template <typename... P> inline int register_empty_kernel(void (*kernel)(P...)) {
  register_kernel(kernel);
  __ahRegisterKernelEmpty(reinterpret_cast<const void *>(kernel));
  return 0;
}

template <typename... P>
inline int register_empty_kernel(void (*kernel)(P...), long long max_threads) {
  register_kernel(kernel, max_threads);
  __ahRegisterKernelEmpty(reinterpret_cast<const void *>(kernel));
  return 0;
}

/* hipcc writes registered(k<T>) (or registered(&k<T>)) where a template
 * kernel's specialisation is used other than in a launch or a call, as in
 * hipLaunchKernel((const void *)k<T>, ...): it registers the specialisation
 * (again: registering is idempotent, a hash-table update) and returns it. */
template <typename... P> inline auto registered(void (*kernel)(P...)) -> void (*)(P...) {
  register_kernel(kernel);
  return kernel;
}

/* hipcc writes kernel_ref([&](auto t) -> decltype(t) { return k; }) for a
 * template kernel's bare name given to the occupancy and function-attribute
 * templates with an explicit pointer type (hipOccupancyMaxPotentialBlockSize
 * <void (*)(int *)>(&g, &b, k, 0, 0)): converted to that type, the lambda
 * picks the specialisation as `void (*p)(int *) = k;` would, and it is
 * registered as registered(k<int>) would. */
template <typename... P> using kernel_ptr_t = void (*)(P...);

template <typename L> struct kernel_ref_t {
  L pick;
  template <typename... P> operator kernel_ptr_t<P...>() const {
    return registered(pick(static_cast<kernel_ptr_t<P...>>(nullptr)));
  }
};

template <typename L> inline kernel_ref_t<L> kernel_ref(L pick) {
  return kernel_ref_t<L>{pick};
}

/* Called from the static initialisers hipcc appends for each namespace-scope
 * __device__, __constant__ and __managed__ variable it defines: its address,
 * size and symbol name, so that the runtime finds it without the ELF tables
 * (a stripped program). */
template <typename T> inline int register_variable(T &var, const char *name) {
  __ahRegisterVariable((const void *)__builtin_addressof(var), sizeof(T), name);
  return 0;
}

/* The same for a __managed__ variable, which is managed memory as well. */
template <typename T> inline int register_managed_variable(T &var, const char *name) {
  __ahRegisterManagedVariable((const void *)__builtin_addressof(var), sizeof(T), name);
  return 0;
}

} // namespace detail
} // namespace anyhip

/* Variadic after the kernel, as HIP's own macro is: the configuration may come
 * from one macro (`#define CFG dim3(64), dim3(1), 0, 0` then
 * `hipLaunchKernelGGL(k, CFG, a)`), which is expanded before the inner macro
 * splits it into grid, block, shared memory and the rest. */
#if defined(HIP_TEMPLATE_KERNEL_LAUNCH)
#define hipLaunchKernelGGL(kernelName, ...) ANYHIP_GGL_FN_((kernelName), __VA_ARGS__)
#define ANYHIP_GGL_FN_(kernelName, numBlocks, numThreads, memPerBlock, ...) \
  ::anyhip::detail::launch_ggl(kernelName, numBlocks, numThreads, memPerBlock, __VA_ARGS__)
#else
#define hipLaunchKernelGGL(kernelName, ...) ANYHIP_GGL_((kernelName), __VA_ARGS__)
#define ANYHIP_GGL_(kernelName, numBlocks, numThreads, memPerBlock, ...) \
  ::anyhip::detail::ggl(numBlocks, numThreads, memPerBlock)(kernelName, __VA_ARGS__)
#endif

#endif
