/* SPDX-License-Identifier: MIT */
/* hipCreateChannelDesc<T>(): the channel descriptor of an element type, as HIP's template
 * gives it: bits per component for each of x, y, z, w that the type has, and the kind (signed,
 * unsigned or float). Types with no descriptor give {0, 0, 0, 0, hipChannelFormatKindNone}. */
#ifndef HIP_INCLUDE_HIP_CHANNEL_DESCRIPTOR_H
#define HIP_INCLUDE_HIP_CHANNEL_DESCRIPTOR_H

#ifdef __cplusplus

#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>

#include <type_traits>

namespace anyhip {
namespace channel {

template <typename T> struct scalar_kind {
  static constexpr hipChannelFormatKind kind =
      std::is_floating_point<T>::value ? hipChannelFormatKindFloat
      : std::is_signed<T>::value       ? hipChannelFormatKindSigned
                                       : hipChannelFormatKindUnsigned;
};

template <typename T, typename = void> struct info {
  static hipChannelFormatDesc desc() { return hipCreateChannelDesc(0, 0, 0, 0, hipChannelFormatKindNone); }
};

/* Scalars of 1, 2 or 4 bytes (8-byte types have no channel format in HIP). */
template <typename T>
struct info<T, typename std::enable_if<std::is_arithmetic<T>::value && sizeof(T) <= 4 &&
                                       !std::is_same<T, bool>::value>::type> {
  static hipChannelFormatDesc desc() {
    return hipCreateChannelDesc(int(8 * sizeof(T)), 0, 0, 0, scalar_kind<T>::kind);
  }
};

#define AH_CHANNEL_VEC(base, comp)                                                          \
  template <> struct info<base##1> {                                                        \
    static hipChannelFormatDesc desc() {                                                    \
      return hipCreateChannelDesc(int(8 * sizeof(comp)), 0, 0, 0, scalar_kind<comp>::kind); \
    }                                                                                       \
  };                                                                                        \
  template <> struct info<base##2> {                                                        \
    static hipChannelFormatDesc desc() {                                                    \
      int b = int(8 * sizeof(comp));                                                        \
      return hipCreateChannelDesc(b, b, 0, 0, scalar_kind<comp>::kind);                     \
    }                                                                                       \
  };                                                                                        \
  template <> struct info<base##4> {                                                        \
    static hipChannelFormatDesc desc() {                                                    \
      int b = int(8 * sizeof(comp));                                                        \
      return hipCreateChannelDesc(b, b, b, b, scalar_kind<comp>::kind);                     \
    }                                                                                       \
  };
AH_CHANNEL_VEC(char, signed char)
AH_CHANNEL_VEC(uchar, unsigned char)
AH_CHANNEL_VEC(short, short)
AH_CHANNEL_VEC(ushort, unsigned short)
AH_CHANNEL_VEC(int, int)
AH_CHANNEL_VEC(uint, unsigned int)
AH_CHANNEL_VEC(float, float)
#undef AH_CHANNEL_VEC

} // namespace channel
} // namespace anyhip

template <typename T> static inline hipChannelFormatDesc hipCreateChannelDesc() {
  return anyhip::channel::info<T>::desc();
}

#endif /* __cplusplus */

#endif
