/* SPDX-License-Identifier: MIT */
/* HIP's short vector types: char, uchar, short, ushort, int, uint, long,
 * ulong, longlong, ulonglong, float and double with 1 to 4 components (.x .y
 * .z .w), and make_<type>N(). In C they are plain structs; in C++ they also
 * have HIP's constructors and component-wise operators.
 *
 * Layout: the sizes and alignments are CUDA's, because host code and the
 * NVIDIA device share buffers and kernel arguments of these types. They equal
 * AMD's except for the four-component 8-byte types (long4, ulong4, longlong4,
 * ulonglong4, double4), aligned to 16 here as in CUDA, to 32 in ROCm.
 * Under nvcc CUDA's own structs and make_ functions are used; only the
 * operators are added. */
#ifndef HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H
#define HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H

#include <hip/hip_common.h>

#ifdef __cplusplus
#include <type_traits>
#endif

/* The list of base types: X(name, component type, align of 2, align of 4).
 * One- and three-component vectors have the component's alignment. */
#define AH_VECTOR_BASES(X)                                  \
  X(char, signed char, 2, 4)                                \
  X(uchar, unsigned char, 2, 4)                             \
  X(short, short, 4, 8)                                     \
  X(ushort, unsigned short, 4, 8)                           \
  X(int, int, 8, 16)                                        \
  X(uint, unsigned int, 8, 16)                              \
  X(long, long, 2 * sizeof(long), 16)                       \
  X(ulong, unsigned long, 2 * sizeof(unsigned long), 16)    \
  X(longlong, long long, 16, 16)                            \
  X(ulonglong, unsigned long long, 16, 16)                  \
  X(float, float, 8, 16)                                    \
  X(double, double, 16, 16)

/* ---- the structs (not under nvcc, which has CUDA's) ---------------------- */

#if !defined(__CUDACC__)

#if defined(__cplusplus)

namespace anyhip {
namespace detail {
template <typename U, typename T>
using if_convertible = std::enable_if_t<std::is_convertible<U, T>::value, int>;
} // namespace detail
} // namespace anyhip

/* HIP's constructors: default (trivial, so the types stay trivially
 * copyable), one value broadcast to every component (explicit), and one value
 * per component, each converted with static_cast. */
#define AH_VEC_CTORS(name, T)                                                         \
  typedef T value_type;                                                               \
  name() = default;

#define AH_VEC1(name, T, A)                                                           \
  struct name {                                                                       \
    T x;                                                                              \
    AH_VEC_CTORS(name, T)                                                             \
    template <typename U, anyhip::detail::if_convertible<U, T> = 0>                   \
    explicit constexpr name(U s) noexcept : x(static_cast<T>(s)) {}                   \
  };
#define AH_VEC2(name, T, A)                                                           \
  struct alignas(A) name {                                                            \
    T x, y;                                                                           \
    AH_VEC_CTORS(name, T)                                                             \
    template <typename U, anyhip::detail::if_convertible<U, T> = 0>                   \
    explicit constexpr name(U s) noexcept : x(static_cast<T>(s)), y(static_cast<T>(s)) {} \
    template <typename U0, typename U1, anyhip::detail::if_convertible<U0, T> = 0,    \
              anyhip::detail::if_convertible<U1, T> = 0>                              \
    constexpr name(U0 x_, U1 y_) noexcept : x(static_cast<T>(x_)), y(static_cast<T>(y_)) {} \
  };
#define AH_VEC3(name, T, A)                                                           \
  struct name {                                                                       \
    T x, y, z;                                                                        \
    AH_VEC_CTORS(name, T)                                                             \
    template <typename U, anyhip::detail::if_convertible<U, T> = 0>                   \
    explicit constexpr name(U s) noexcept                                             \
        : x(static_cast<T>(s)), y(static_cast<T>(s)), z(static_cast<T>(s)) {}         \
    template <typename U0, typename U1, typename U2,                                  \
              anyhip::detail::if_convertible<U0, T> = 0,                              \
              anyhip::detail::if_convertible<U1, T> = 0,                              \
              anyhip::detail::if_convertible<U2, T> = 0>                              \
    constexpr name(U0 x_, U1 y_, U2 z_) noexcept                                      \
        : x(static_cast<T>(x_)), y(static_cast<T>(y_)), z(static_cast<T>(z_)) {}      \
  };
#define AH_VEC4(name, T, A)                                                           \
  struct alignas(A) name {                                                            \
    T x, y, z, w;                                                                     \
    AH_VEC_CTORS(name, T)                                                             \
    template <typename U, anyhip::detail::if_convertible<U, T> = 0>                   \
    explicit constexpr name(U s) noexcept                                             \
        : x(static_cast<T>(s)), y(static_cast<T>(s)), z(static_cast<T>(s)),           \
          w(static_cast<T>(s)) {}                                                     \
    template <typename U0, typename U1, typename U2, typename U3,                     \
              anyhip::detail::if_convertible<U0, T> = 0,                              \
              anyhip::detail::if_convertible<U1, T> = 0,                              \
              anyhip::detail::if_convertible<U2, T> = 0,                              \
              anyhip::detail::if_convertible<U3, T> = 0>                              \
    constexpr name(U0 x_, U1 y_, U2 z_, U3 w_) noexcept                               \
        : x(static_cast<T>(x_)), y(static_cast<T>(y_)), z(static_cast<T>(z_)),        \
          w(static_cast<T>(w_)) {}                                                    \
  };

#else /* C */

#if defined(__GNUC__)
#define AH_VEC_ALIGNED(a) __attribute__((aligned(a)))
#else
#define AH_VEC_ALIGNED(a)
#endif
#define AH_VEC1(name, T, A) typedef struct name { T x; } name;
#define AH_VEC2(name, T, A) typedef struct AH_VEC_ALIGNED(A) name { T x, y; } name;
#define AH_VEC3(name, T, A) typedef struct name { T x, y, z; } name;
#define AH_VEC4(name, T, A) typedef struct AH_VEC_ALIGNED(A) name { T x, y, z, w; } name;

#endif /* C */

#define AH_VEC_STRUCTS(b, T, a2, a4) \
  AH_VEC1(b##1, T, 0)                \
  AH_VEC2(b##2, T, a2)               \
  AH_VEC3(b##3, T, 0)                \
  AH_VEC4(b##4, T, a4)
AH_VECTOR_BASES(AH_VEC_STRUCTS)
#undef AH_VEC_STRUCTS

/* make_<type>N(components...), as in HIP and CUDA. */
#define AH_VEC_MAKE(b, T, a2, a4)                                                          \
  static inline b##1 make_##b##1(T x) {                                                     \
    b##1 r;                                                                                 \
    r.x = x;                                                                                \
    return r;                                                                               \
  }                                                                                         \
  static inline b##2 make_##b##2(T x, T y) {                                                \
    b##2 r;                                                                                 \
    r.x = x;                                                                                \
    r.y = y;                                                                                \
    return r;                                                                               \
  }                                                                                         \
  static inline b##3 make_##b##3(T x, T y, T z) {                                           \
    b##3 r;                                                                                 \
    r.x = x;                                                                                \
    r.y = y;                                                                                \
    r.z = z;                                                                                \
    return r;                                                                               \
  }                                                                                         \
  static inline b##4 make_##b##4(T x, T y, T z, T w) {                                      \
    b##4 r;                                                                                 \
    r.x = x;                                                                                \
    r.y = y;                                                                                \
    r.z = z;                                                                                \
    r.w = w;                                                                                \
    return r;                                                                               \
  }
AH_VECTOR_BASES(AH_VEC_MAKE)
#undef AH_VEC_MAKE

#endif /* !__CUDACC__ */

/* ---- C++ operators (also for CUDA's structs under nvcc) ------------------ */

#if defined(__cplusplus)

namespace anyhip {
namespace detail {

/* vec_info<V>: the component type and count of a vector type; rank 0 for
 * everything else, which keeps the operators below out of overload sets. */
template <typename V> struct vec_info {
  static constexpr int rank = 0;
};

#define AH_VEC_INFO_ONE(name, T, N) \
  template <> struct vec_info<name> {      \
    typedef T type;                        \
    static constexpr int rank = N;         \
  };
#define AH_VEC_INFO(b, T, a2, a4) \
  AH_VEC_INFO_ONE(b##1, T, 1)     \
  AH_VEC_INFO_ONE(b##2, T, 2)     \
  AH_VEC_INFO_ONE(b##3, T, 3)     \
  AH_VEC_INFO_ONE(b##4, T, 4)

#if !defined(__CUDACC__) || defined(__NV_NO_VECTOR_DEPRECATION_DIAG)
AH_VECTOR_BASES(AH_VEC_INFO)
#else
/* CUDA 13 deprecates the 32-byte four-component types; naming them here
 * would warn in every file. Define __NV_NO_VECTOR_DEPRECATION_DIAG (hipcc's
 * NVIDIA pass does) to get their operators. */
#define AH_VEC_INFO_NO4(b, T, a2, a4) \
  AH_VEC_INFO_ONE(b##1, T, 1)         \
  AH_VEC_INFO_ONE(b##2, T, 2)         \
  AH_VEC_INFO_ONE(b##3, T, 3)
AH_VEC_INFO(char, signed char, 2, 4)
AH_VEC_INFO(uchar, unsigned char, 2, 4)
AH_VEC_INFO(short, short, 4, 8)
AH_VEC_INFO(ushort, unsigned short, 4, 8)
AH_VEC_INFO(int, int, 8, 16)
AH_VEC_INFO(uint, unsigned int, 8, 16)
AH_VEC_INFO_NO4(long, long, 16, 16)
AH_VEC_INFO_NO4(ulong, unsigned long, 16, 16)
AH_VEC_INFO_NO4(longlong, long long, 16, 16)
AH_VEC_INFO_NO4(ulonglong, unsigned long long, 16, 16)
AH_VEC_INFO(float, float, 8, 16)
AH_VEC_INFO_NO4(double, double, 16, 16)
#undef AH_VEC_INFO_NO4
#endif
#undef AH_VEC_INFO
#undef AH_VEC_INFO_ONE

template <typename V> using vec_t = typename vec_info<V>::type;
template <typename V> using if_vec = std::enable_if_t<(vec_info<V>::rank > 0), int>;
template <typename V>
using if_int_vec =
    std::enable_if_t<(vec_info<V>::rank > 0) && std::is_integral<vec_t<V>>::value, int>;

/* Component-wise helpers, one specialisation per rank (C++14 has no if
 * constexpr). The result of f is cast back to the component type: char + char
 * is an int in C++, a char component in HIP. EACH(M) expands M(c) for every
 * component c of the rank. */
template <int N> struct per_rank;
#define AH_VEC_MAP_ONE(c) r.c = static_cast<T>(f(a.c, b.c));
#define AH_VEC_SPLAT_ONE(c) r.c = s;
#define AH_VEC_EQ_ONE(c) &&a.c == b.c
#define AH_VEC_RANK(N, EACH)                                                    \
  template <> struct per_rank<N> {                                              \
    template <typename V, typename F>                                           \
    static AH_HOST_DEVICE constexpr V map2(const V &a, const V &b, F f) {       \
      typedef vec_t<V> T;                                                       \
      V r = a;                                                                  \
      EACH(AH_VEC_MAP_ONE)                                                      \
      return r;                                                                 \
    }                                                                           \
    template <typename V> static AH_HOST_DEVICE constexpr V splat(vec_t<V> s) { \
      V r = V();                                                                \
      EACH(AH_VEC_SPLAT_ONE)                                                    \
      return r;                                                                 \
    }                                                                           \
    template <typename V>                                                       \
    static AH_HOST_DEVICE constexpr bool equal(const V &a, const V &b) {        \
      return true EACH(AH_VEC_EQ_ONE);                                          \
    }                                                                           \
  };
#define AH_VEC_EACH1(M) M(x)
#define AH_VEC_EACH2(M) M(x) M(y)
#define AH_VEC_EACH3(M) M(x) M(y) M(z)
#define AH_VEC_EACH4(M) M(x) M(y) M(z) M(w)
AH_VEC_RANK(1, AH_VEC_EACH1)
AH_VEC_RANK(2, AH_VEC_EACH2)
AH_VEC_RANK(3, AH_VEC_EACH3)
AH_VEC_RANK(4, AH_VEC_EACH4)
#undef AH_VEC_RANK
#undef AH_VEC_EACH1
#undef AH_VEC_EACH2
#undef AH_VEC_EACH3
#undef AH_VEC_EACH4
#undef AH_VEC_MAP_ONE
#undef AH_VEC_SPLAT_ONE
#undef AH_VEC_EQ_ONE

template <typename V, typename F>
AH_HOST_DEVICE constexpr V map2(const V &a, const V &b, F f) {
  return per_rank<vec_info<V>::rank>::map2(a, b, f);
}
template <typename V> AH_HOST_DEVICE constexpr V splat(vec_t<V> s) {
  return per_rank<vec_info<V>::rank>::template splat<V>(s);
}
template <typename V> AH_HOST_DEVICE constexpr bool all_equal(const V &a, const V &b) {
  return per_rank<vec_info<V>::rank>::equal(a, b);
}

/* Function objects rather than lambdas: nvcc needs no extended-lambda flag. */
#define AH_VEC_FN(fname, op)                                        \
  struct fname {                                                    \
    template <typename T>                                           \
    AH_HOST_DEVICE constexpr auto operator()(T a, T b) const {      \
      return a op b;                                                \
    }                                                               \
  };
AH_VEC_FN(fn_add, +)
AH_VEC_FN(fn_sub, -)
AH_VEC_FN(fn_mul, *)
AH_VEC_FN(fn_div, /)
AH_VEC_FN(fn_mod, %)
AH_VEC_FN(fn_and, &)
AH_VEC_FN(fn_or, |)
AH_VEC_FN(fn_xor, ^)
AH_VEC_FN(fn_shl, <<)
AH_VEC_FN(fn_shr, >>)
#undef AH_VEC_FN

} // namespace detail
} // namespace anyhip

/* Binary operators: vector op vector, vector op scalar, scalar op vector, and
 * the compound forms. Templates, so a user's own non-template operator for the
 * same types wins over these rather than clashing. */
#define AH_VEC_BINOP(op, fname, cond)                                                        \
  template <typename V, ::anyhip::detail::cond<V> = 0>                                      \
  AH_HOST_DEVICE constexpr V operator op(const V &a, const V &b) {                          \
    return ::anyhip::detail::map2(a, b, ::anyhip::detail::fname{});                         \
  }                                                                                         \
  template <typename V, ::anyhip::detail::cond<V> = 0>                                      \
  AH_HOST_DEVICE constexpr V operator op(const V &a, ::anyhip::detail::vec_t<V> s) {        \
    return ::anyhip::detail::map2(a, ::anyhip::detail::splat<V>(s),                         \
                                  ::anyhip::detail::fname{});                               \
  }                                                                                         \
  template <typename V, ::anyhip::detail::cond<V> = 0>                                      \
  AH_HOST_DEVICE constexpr V operator op(::anyhip::detail::vec_t<V> s, const V &b) {        \
    return ::anyhip::detail::map2(::anyhip::detail::splat<V>(s), b,                         \
                                  ::anyhip::detail::fname{});                               \
  }                                                                                         \
  template <typename V, ::anyhip::detail::cond<V> = 0>                                      \
  AH_HOST_DEVICE constexpr V &operator op##=(V &a, const V &b) {                            \
    a = ::anyhip::detail::map2(a, b, ::anyhip::detail::fname{});                            \
    return a;                                                                               \
  }                                                                                         \
  template <typename V, ::anyhip::detail::cond<V> = 0>                                      \
  AH_HOST_DEVICE constexpr V &operator op##=(V &a, ::anyhip::detail::vec_t<V> s) {          \
    a = ::anyhip::detail::map2(a, ::anyhip::detail::splat<V>(s),                            \
                               ::anyhip::detail::fname{});                                  \
    return a;                                                                               \
  }
AH_VEC_BINOP(+, fn_add, if_vec)
AH_VEC_BINOP(-, fn_sub, if_vec)
AH_VEC_BINOP(*, fn_mul, if_vec)
AH_VEC_BINOP(/, fn_div, if_vec)
AH_VEC_BINOP(%, fn_mod, if_int_vec)
AH_VEC_BINOP(&, fn_and, if_int_vec)
AH_VEC_BINOP(|, fn_or, if_int_vec)
AH_VEC_BINOP(^, fn_xor, if_int_vec)
AH_VEC_BINOP(<<, fn_shl, if_int_vec)
AH_VEC_BINOP(>>, fn_shr, if_int_vec)
#undef AH_VEC_BINOP

template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr V operator+(const V &a) {
  return a;
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr V operator-(const V &a) {
  return ::anyhip::detail::splat<V>(0) - a;
}
template <typename V, ::anyhip::detail::if_int_vec<V> = 0>
AH_HOST_DEVICE constexpr V operator~(const V &a) {
  return a ^ ::anyhip::detail::splat<V>(static_cast<::anyhip::detail::vec_t<V>>(~0));
}

template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr V &operator++(V &a) {
  return a += ::anyhip::detail::vec_t<V>(1);
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr V operator++(V &a, int) {
  V old = a;
  a += ::anyhip::detail::vec_t<V>(1);
  return old;
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr V &operator--(V &a) {
  return a -= ::anyhip::detail::vec_t<V>(1);
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr V operator--(V &a, int) {
  V old = a;
  a -= ::anyhip::detail::vec_t<V>(1);
  return old;
}

/* == and != compare every component and give one bool, as in HIP. */
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr bool operator==(const V &a, const V &b) {
  return ::anyhip::detail::all_equal(a, b);
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr bool operator==(const V &a, ::anyhip::detail::vec_t<V> s) {
  return ::anyhip::detail::all_equal(a, ::anyhip::detail::splat<V>(s));
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr bool operator==(::anyhip::detail::vec_t<V> s, const V &b) {
  return ::anyhip::detail::all_equal(::anyhip::detail::splat<V>(s), b);
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr bool operator!=(const V &a, const V &b) {
  return !::anyhip::detail::all_equal(a, b);
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr bool operator!=(const V &a, ::anyhip::detail::vec_t<V> s) {
  return !::anyhip::detail::all_equal(a, ::anyhip::detail::splat<V>(s));
}
template <typename V, ::anyhip::detail::if_vec<V> = 0>
AH_HOST_DEVICE constexpr bool operator!=(::anyhip::detail::vec_t<V> s, const V &b) {
  return !::anyhip::detail::all_equal(::anyhip::detail::splat<V>(s), b);
}

#endif /* __cplusplus */

#endif
