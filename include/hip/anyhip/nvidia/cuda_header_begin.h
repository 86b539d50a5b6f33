/* SPDX-License-Identifier: MIT */
/* Include before one of CUDA's own headers in hipcc's NVIDIA pass, and
 * cuda_header_end.h after it. hip/anyhip/nvidia/kernel.h spells HIP's warp
 * functions as macros over CUDA's; CUDA's headers declare those names
 * themselves, so the macros are set aside while they are read. No include
 * guard: it brackets every CUDA header that needs it. */
#pragma push_macro("__shfl")
#undef __shfl
#pragma push_macro("__shfl_up")
#undef __shfl_up
#pragma push_macro("__shfl_down")
#undef __shfl_down
#pragma push_macro("__shfl_xor")
#undef __shfl_xor
#pragma push_macro("__ballot")
#undef __ballot
#pragma push_macro("__any")
#undef __any
#pragma push_macro("__all")
#undef __all
#pragma push_macro("__activemask")
#undef __activemask
#pragma push_macro("__ballot_sync")
#undef __ballot_sync
#pragma push_macro("__match_any_sync")
#undef __match_any_sync
#pragma push_macro("__match_all_sync")
#undef __match_all_sync
#pragma push_macro("__all_sync")
#undef __all_sync
#pragma push_macro("__any_sync")
#undef __any_sync
#pragma push_macro("__shfl_sync")
#undef __shfl_sync
#pragma push_macro("__shfl_up_sync")
#undef __shfl_up_sync
#pragma push_macro("__shfl_down_sync")
#undef __shfl_down_sync
#pragma push_macro("__shfl_xor_sync")
#undef __shfl_xor_sync
#pragma push_macro("__reduce_add_sync")
#undef __reduce_add_sync
#pragma push_macro("__reduce_min_sync")
#undef __reduce_min_sync
#pragma push_macro("__reduce_max_sync")
#undef __reduce_max_sync
#pragma push_macro("__reduce_and_sync")
#undef __reduce_and_sync
#pragma push_macro("__reduce_or_sync")
#undef __reduce_or_sync
#pragma push_macro("__reduce_xor_sync")
#undef __reduce_xor_sync
