/* SPDX-License-Identifier: MIT */
/* Cooperative groups on the CPU device, over the engine's primitives: a
 * block's sync is __syncthreads, a tile's and a coalesced group's sync and
 * collectives are warp collectives restricted to the group's lanes (the
 * engine waits for exactly those lanes), and grid.sync() is the engine's
 * grid barrier, which a cooperative launch (one OS thread per block) provides.
 * Everything that reaches a warp collective is always inlined, so that the
 * engine sees the kernel's own call site (see warp.h). */
#ifndef ANYHIP_CPU_COOPERATIVE_GROUPS_HPP
#define ANYHIP_CPU_COOPERATIVE_GROUPS_HPP

#include <hip/anyhip/cpu/state.h>
#include <hip/anyhip/cpu/sync.h>
#include <hip/anyhip/cpu/warp.h>

#include <cassert>
#include <cstdint>

#define AH_CG_INLINE inline __attribute__((always_inline))

namespace cooperative_groups {

using lane_mask = unsigned long long;

namespace internal {

/* HIP's group kinds, what cg_type() returns. */
typedef enum {
  cg_invalid,
  cg_multi_grid,
  cg_grid,
  cg_workgroup,
  cg_tiled_group,
  cg_coalesced_group
} group_type;

/* Keeps the constructors of the group types for this header's functions. */
struct make_tag {};

AH_CG_INLINE unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
AH_CG_INLINE unsigned block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
AH_CG_INLINE unsigned grid_size() {
  return (unsigned)((std::uint64_t)gridDim.x * gridDim.y * gridDim.z * block_size());
}
AH_CG_INLINE unsigned grid_rank() {
  std::uint64_t b =
      blockIdx.x + (std::uint64_t)gridDim.x * (blockIdx.y + (std::uint64_t)gridDim.y * blockIdx.z);
  return (unsigned)(b * block_size() + block_rank());
}

AH_CG_INLINE lane_mask low_bits(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
AH_CG_INLINE unsigned popc(lane_mask m) { return (unsigned)__builtin_popcountll(m); }

/* The lanes of the warp in the caller's tile of n lanes (n a power of 2 up
 * to warpSize: tiles never straddle warps). */
AH_CG_INLINE lane_mask tile_lanes(unsigned n) { return low_bits(n) << (__ah_cpu_lane & ~(n - 1)); }

/* The lane of member number `rank` (0-based) of `members`; 64 if none. */
AH_CG_INLINE unsigned member_lane(lane_mask members, unsigned rank) {
  for (; members != 0; members &= members - 1, rank--)
    if (rank == 0)
      return (unsigned)__builtin_ctzll(members);
  return 64;
}

/* Lane bits of `bits` (members only) renumbered by member rank: bit r of the
 * result is member r's bit. */
AH_CG_INLINE lane_mask by_rank(lane_mask members, lane_mask bits) {
  lane_mask out = 0;
  for (unsigned r = 0; members != 0; members &= members - 1, r++)
    if (bits & (members & -members))
      out |= 1ull << r;
  return out;
}

AH_CG_INLINE std::uint64_t warp(int op, std::uint64_t value, int arg, int width, lane_mask mask) {
  return __ah_cpu_warp(op, value, arg, width, mask);
}

/* The running launch's multi-grid (state.h, __ah_cpu_multi_grid): grids,
 * this grid's rank, the multi-grid rank of its thread 0, all threads. */
struct multi_info {
  unsigned long long v[4];
  int valid;
};
AH_CG_INLINE multi_info multi_grid() {
  multi_info m;
  m.valid = __ah_cpu_multi_grid(m.v);
  return m;
}
/* The caller's rank in the multi-grid: its grid's first rank plus its own. */
AH_CG_INLINE unsigned multi_grid_rank() { return (unsigned)(multi_grid().v[2] + grid_rank()); }

AH_CG_INLINE bool valid_tile_size(unsigned n) {
  return n != 0 && (n & (n - 1)) == 0 && n <= (unsigned)warpSize;
}

} // namespace internal

class thread_group;
class thread_block;
class grid_group;
class multi_grid_group;
class coalesced_group;
AH_CG_INLINE thread_group tiled_partition(const thread_group &parent, unsigned int tile_size);

/* The base of every group: a kind and what that kind needs. Generic device
 * functions take a thread_group (HIP's reduce_sum(thread_group g, ...)). */
class thread_group {
protected:
  internal::group_type type_;
  unsigned size_;      /* threads in the group */
  lane_mask mask_;     /* coalesced groups: the member lanes of the warp */
  unsigned meta_rank_; /* tiles and coalesced groups: rank among the parent's */
  unsigned meta_size_;
  unsigned tile_;      /* tiles: the tile size asked for (size_ is less in a last, partial tile) */

public:
  AH_CG_INLINE thread_group(internal::make_tag, internal::group_type type, unsigned size,
                            lane_mask mask = 0, unsigned meta_rank = 0, unsigned meta_size = 1,
                            unsigned tile = 0)
      : type_(type), size_(size), mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size),
        tile_(tile != 0 ? tile : size) {}

  AH_CG_INLINE unsigned int size() const { return size_; }
  AH_CG_INLINE unsigned int num_threads() const { return size_; }
  AH_CG_INLINE unsigned int cg_type() const { return type_; }

  AH_CG_INLINE unsigned int thread_rank() const {
    switch (type_) {
    case internal::cg_multi_grid:
      return internal::multi_grid_rank();
    case internal::cg_grid:
      return internal::grid_rank();
    case internal::cg_workgroup:
      return internal::block_rank();
    case internal::cg_tiled_group:
      return __ah_cpu_lane & (tile_ - 1);
    case internal::cg_coalesced_group:
      return internal::popc(mask_ & internal::low_bits(__ah_cpu_lane));
    default:
      return 0;
    }
  }

  AH_CG_INLINE bool is_valid() const {
    if (type_ == internal::cg_grid)
      return __ah_cpu_grid_valid() != 0;
    if (type_ == internal::cg_multi_grid)
      return internal::multi_grid().valid != 0;
    return type_ != internal::cg_invalid;
  }

  AH_CG_INLINE void sync() const {
    switch (type_) {
    case internal::cg_multi_grid:
      __ah_cpu_multi_grid_sync();
      break;
    case internal::cg_grid:
      __ah_cpu_grid_sync();
      break;
    case internal::cg_workgroup:
      __syncthreads();
      break;
    case internal::cg_tiled_group:
      (void)internal::warp(AH_CPU_WARP_SYNC, 0, 0, 0, internal::tile_lanes(tile_));
      break;
    case internal::cg_coalesced_group:
      (void)internal::warp(AH_CPU_WARP_SYNC, 0, 0, 0, mask_);
      break;
    default:
      break;
    }
  }

  AH_CG_INLINE unsigned int meta_group_rank() const { return meta_rank_; }
  AH_CG_INLINE unsigned int meta_group_size() const { return meta_size_; }
  /* This header's: a coalesced group's member lanes. */
  AH_CG_INLINE lane_mask member_lanes(internal::make_tag) const { return mask_; }
};

/* ---- the block ---- */

class thread_block : public thread_group {
public:
  AH_CG_INLINE explicit thread_block(internal::make_tag t)
      : thread_group(t, internal::cg_workgroup, internal::block_size()) {}

  AH_CG_INLINE dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  AH_CG_INLINE dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  AH_CG_INLINE dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  AH_CG_INLINE unsigned int thread_rank() const { return internal::block_rank(); }
  AH_CG_INLINE bool is_valid() const { return true; }
  AH_CG_INLINE void sync() const { __syncthreads(); }
};

AH_CG_INLINE thread_block this_thread_block() { return thread_block(internal::make_tag{}); }

/* ---- the grid ---- */

/* sync() needs a launch with hipLaunchCooperativeKernel, which runs every
 * block at once; in any other launch it ends the kernel with a report and
 * the launch fails (hipErrorLaunchFailure) instead of hanging. is_valid()
 * tells the two apart. */
class grid_group : public thread_group {
public:
  AH_CG_INLINE explicit grid_group(internal::make_tag t)
      : thread_group(t, internal::cg_grid, internal::grid_size()) {}

  AH_CG_INLINE unsigned int thread_rank() const { return internal::grid_rank(); }
  AH_CG_INLINE bool is_valid() const { return __ah_cpu_grid_valid() != 0; }
  AH_CG_INLINE void sync() const { __ah_cpu_grid_sync(); }
  AH_CG_INLINE dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
};

AH_CG_INLINE grid_group this_grid() { return grid_group(internal::make_tag{}); }

/* ---- the grids of a multi-device launch ---- */

/* Every thread of every grid of one hipLaunchCooperativeKernelMultiDevice
 * launch (one grid per CPU device); sync() waits for all of them, and in any
 * other launch ends the kernel with a report (the launch fails) instead of
 * hanging. Elsewhere the group is the launch's own grid, num_grids() 1 and
 * is_valid() false. */
class multi_grid_group : public thread_group {
public:
  AH_CG_INLINE explicit multi_grid_group(internal::make_tag t)
      : thread_group(t, internal::cg_multi_grid, (unsigned)internal::multi_grid().v[3]) {}

  AH_CG_INLINE unsigned int num_grids() const { return (unsigned)internal::multi_grid().v[0]; }
  AH_CG_INLINE unsigned int grid_rank() const { return (unsigned)internal::multi_grid().v[1]; }
  AH_CG_INLINE unsigned int thread_rank() const { return internal::multi_grid_rank(); }
  AH_CG_INLINE bool is_valid() const { return internal::multi_grid().valid != 0; }
  AH_CG_INLINE void sync() const { __ah_cpu_multi_grid_sync(); }
};

AH_CG_INLINE multi_grid_group this_multi_grid() {
  return multi_grid_group(internal::make_tag{});
}

/* ---- tiles of a block ---- */

template <unsigned int Size, class ParentT = void> class thread_block_tile;

namespace internal {

/* A tile of Size consecutive threads (lanes) of a warp. */
template <unsigned int Size> class tile_base : public thread_group {
  static_assert(Size != 0 && (Size & (Size - 1)) == 0 && Size <= 64,
                "a tile's size is a power of 2, at most the warp size (64)");

protected:
  AH_CG_INLINE tile_base(make_tag t, unsigned meta_rank, unsigned meta_size)
      : thread_group(t, cg_tiled_group, Size, 0, meta_rank, meta_size) {
    assert(Size <= (unsigned)warpSize && "a tile's size is at most warpSize");
  }
  AH_CG_INLINE static lane_mask lanes() { return tile_lanes(Size); }
  AH_CG_INLINE static unsigned base() { return __ah_cpu_lane & ~(Size - 1); }

public:
  AH_CG_INLINE static constexpr unsigned int size() { return Size; }
  AH_CG_INLINE static constexpr unsigned int num_threads() { return Size; }
  AH_CG_INLINE unsigned int thread_rank() const { return __ah_cpu_lane & (Size - 1); }
  AH_CG_INLINE bool is_valid() const { return true; }
  AH_CG_INLINE void sync() const { (void)warp(AH_CPU_WARP_SYNC, 0, 0, 0, lanes()); }

  template <class T> AH_CG_INLINE T shfl(T var, int srcRank) const {
    return anyhip::cpu::warp_unpack<T>(
        warp(AH_CPU_WARP_SHFL, anyhip::cpu::warp_pack(var), srcRank, (int)Size, lanes()));
  }
  template <class T> AH_CG_INLINE T shfl_down(T var, unsigned int lane_delta) const {
    return anyhip::cpu::warp_unpack<T>(warp(AH_CPU_WARP_SHFL_DOWN, anyhip::cpu::warp_pack(var),
                                            (int)lane_delta, (int)Size, lanes()));
  }
  template <class T> AH_CG_INLINE T shfl_up(T var, unsigned int lane_delta) const {
    return anyhip::cpu::warp_unpack<T>(warp(AH_CPU_WARP_SHFL_UP, anyhip::cpu::warp_pack(var),
                                            (int)lane_delta, (int)Size, lanes()));
  }
  template <class T> AH_CG_INLINE T shfl_xor(T var, unsigned int laneMask) const {
    return anyhip::cpu::warp_unpack<T>(
        warp(AH_CPU_WARP_SHFL_XOR, anyhip::cpu::warp_pack(var), (int)laneMask, (int)Size, lanes()));
  }
  /* Bit r is set when the tile's thread of rank r has pred != 0. */
  AH_CG_INLINE unsigned long long ballot(int pred) const {
    return (warp(AH_CPU_WARP_BALLOT, pred != 0, 0, 0, lanes()) >> base()) & low_bits(Size);
  }
  AH_CG_INLINE int any(int pred) const {
    return (int)warp(AH_CPU_WARP_ANY, pred != 0, 0, 0, lanes());
  }
  AH_CG_INLINE int all(int pred) const {
    return (int)warp(AH_CPU_WARP_ALL, pred != 0, 0, 0, lanes());
  }
  template <class T> AH_CG_INLINE unsigned long long match_any(T value) const {
    return (warp(AH_CPU_WARP_MATCH_ANY, anyhip::cpu::warp_pack(value), 0, 0, lanes()) >> base()) &
           low_bits(Size);
  }
  template <class T> AH_CG_INLINE unsigned long long match_all(T value, int &pred) const {
    lane_mask m = warp(AH_CPU_WARP_MATCH_ALL, anyhip::cpu::warp_pack(value), 0, 0, lanes());
    pred = m != 0;
    return (m >> base()) & low_bits(Size);
  }
};

} // namespace internal

/* thread_block_tile<Size> (ParentT void) is what every parent's tile
 * converts to; tiled_partition<Size>(g) gives thread_block_tile<Size, G>. */
template <unsigned int Size, class ParentT>
class thread_block_tile : public internal::tile_base<Size> {
public:
  AH_CG_INLINE thread_block_tile(internal::make_tag t, unsigned meta_rank, unsigned meta_size)
      : internal::tile_base<Size>(t, meta_rank, meta_size) {}
  AH_CG_INLINE operator thread_block_tile<Size, void>() const {
    return thread_block_tile<Size, void>(internal::make_tag{}, this->meta_rank_, this->meta_size_);
  }
};

template <unsigned int Size>
class thread_block_tile<Size, void> : public internal::tile_base<Size> {
public:
  AH_CG_INLINE thread_block_tile(internal::make_tag t, unsigned meta_rank, unsigned meta_size)
      : internal::tile_base<Size>(t, meta_rank, meta_size) {}
};

/* A tile of a block or of a larger tile. */
template <unsigned int Size, class ParentT>
AH_CG_INLINE thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g) {
  static_assert(Size != 0 && (Size & (Size - 1)) == 0 && Size <= 64,
                "a tile's size is a power of 2, at most the warp size (64)");
  unsigned n = g.size();
  return thread_block_tile<Size, ParentT>(internal::make_tag{}, g.thread_rank() / Size,
                                          (n + Size - 1) / Size);
}

/* ---- coalesced groups: the active lanes of a warp ---- */

class coalesced_group : public thread_group {
public:
  AH_CG_INLINE coalesced_group(internal::make_tag t, lane_mask members, unsigned meta_rank = 0,
                               unsigned meta_size = 1)
      : thread_group(t, internal::cg_coalesced_group, internal::popc(members), members, meta_rank,
                     meta_size) {}

  AH_CG_INLINE unsigned int size() const { return internal::popc(mask_); }
  AH_CG_INLINE unsigned int num_threads() const { return size(); }
  AH_CG_INLINE unsigned int thread_rank() const {
    return internal::popc(mask_ & internal::low_bits(__ah_cpu_lane));
  }
  AH_CG_INLINE bool is_valid() const { return mask_ != 0; }
  AH_CG_INLINE void sync() const { (void)internal::warp(AH_CPU_WARP_SYNC, 0, 0, 0, mask_); }

  /* The member of rank srcRank (modulo size()). */
  template <class T> AH_CG_INLINE T shfl(T var, int srcRank) const {
    unsigned n = size(), lane = internal::member_lane(mask_, n ? (unsigned)srcRank % n : 0);
    return read(var, lane);
  }
  /* The member lane_delta ranks up; the caller's own value past the last. */
  template <class T> AH_CG_INLINE T shfl_down(T var, unsigned int lane_delta) const {
    unsigned r = thread_rank() + lane_delta;
    return read(var, r < size() ? internal::member_lane(mask_, r) : __ah_cpu_lane);
  }
  /* The member lane_delta ranks down; the caller's own value before the first. */
  template <class T> AH_CG_INLINE T shfl_up(T var, unsigned int lane_delta) const {
    unsigned r = thread_rank();
    return read(var,
                lane_delta <= r ? internal::member_lane(mask_, r - lane_delta) : __ah_cpu_lane);
  }
  /* Bit r is set when the member of rank r has pred != 0. */
  AH_CG_INLINE unsigned long long ballot(int pred) const {
    return internal::by_rank(mask_, internal::warp(AH_CPU_WARP_BALLOT, pred != 0, 0, 0, mask_));
  }
  AH_CG_INLINE int any(int pred) const {
    return (int)internal::warp(AH_CPU_WARP_ANY, pred != 0, 0, 0, mask_);
  }
  AH_CG_INLINE int all(int pred) const {
    return (int)internal::warp(AH_CPU_WARP_ALL, pred != 0, 0, 0, mask_);
  }
  template <class T> AH_CG_INLINE unsigned long long match_any(T value) const {
    return internal::by_rank(
        mask_, internal::warp(AH_CPU_WARP_MATCH_ANY, anyhip::cpu::warp_pack(value), 0, 0, mask_));
  }
  template <class T> AH_CG_INLINE unsigned long long match_all(T value, int &pred) const {
    lane_mask m = internal::warp(AH_CPU_WARP_MATCH_ALL, anyhip::cpu::warp_pack(value), 0, 0, mask_);
    pred = m != 0;
    return internal::by_rank(mask_, m);
  }

private:
  template <class T> AH_CG_INLINE T read(T var, unsigned lane) const {
    return anyhip::cpu::warp_unpack<T>(
        internal::warp(AH_CPU_WARP_SHFL, anyhip::cpu::warp_pack(var), (int)lane, warpSize, mask_));
  }
};

/* The lanes of the caller's warp that reach this call together. */
AH_CG_INLINE coalesced_group coalesced_threads() {
  return coalesced_group(internal::make_tag{}, internal::warp(AH_CPU_WARP_ACTIVE, 0, 0, 0, ~0ull));
}

/* ---- binary_partition: the members that have the caller's predicate ---- */

/* The members of parent whose pred equals the caller's: a coalesced group
 * (HIP's, as CUDA's labeled_partition with two labels). */
AH_CG_INLINE coalesced_group binary_partition(const coalesced_group &parent, bool pred) {
  lane_mask members = parent.member_lanes(internal::make_tag{});
  lane_mask yes = internal::warp(AH_CPU_WARP_BALLOT, pred, 0, 0, members) & members;
  return coalesced_group(internal::make_tag{}, pred ? yes : members & ~yes);
}

/* The same of a tile's threads (those that reach the call together). */
template <unsigned int Size, class ParentT>
AH_CG_INLINE coalesced_group binary_partition(const thread_block_tile<Size, ParentT> &, bool pred) {
  lane_mask members = internal::warp(AH_CPU_WARP_ACTIVE, 0, 0, 0, internal::tile_lanes(Size));
  lane_mask yes = internal::warp(AH_CPU_WARP_BALLOT, pred, 0, 0, members) & members;
  return coalesced_group(internal::make_tag{}, pred ? yes : members & ~yes);
}

/* ---- tiled_partition with a size known at run time ---- */

/* Members [k * tile_size, (k + 1) * tile_size) of a coalesced group, k the
 * caller's rank / tile_size: a coalesced group again. */
AH_CG_INLINE coalesced_group tiled_partition(const coalesced_group &parent,
                                             unsigned int tile_size) {
  lane_mask members = parent.member_lanes(internal::make_tag{}), sub = 0;
  unsigned n = parent.size(), k, r = 0;

  assert(internal::valid_tile_size(tile_size) && "tile size: a power of 2, at most warpSize");
  k = parent.thread_rank() / tile_size;
  for (lane_mask m = members; m != 0; m &= m - 1, r++)
    if (r / tile_size == k)
      sub |= m & -m;
  return coalesced_group(internal::make_tag{}, sub, k, (n + tile_size - 1) / tile_size);
}

/* A tile of a block or of a tile (a thread_group of kind cg_tiled_group), or
 * of a coalesced group. */
AH_CG_INLINE thread_group tiled_partition(const thread_group &parent, unsigned int tile_size) {
  internal::make_tag t;

  if (parent.cg_type() == internal::cg_coalesced_group)
    return tiled_partition(coalesced_group(t, parent.member_lanes(t), parent.meta_group_rank(),
                                           parent.meta_group_size()),
                           tile_size);
  assert(internal::valid_tile_size(tile_size) && "tile size: a power of 2, at most warpSize");
  /* The parent's last tile holds what is left of it when its size is not a
   * multiple of tile_size (a block of 65 x 3 x 3 threads): its size() says so,
   * as on AMD's runtime (ROCm's unit suite checks it). */
  unsigned k = parent.thread_rank() / tile_size, n = parent.size();
  unsigned left = n - k * tile_size;
  return thread_group(t, internal::cg_tiled_group, left < tile_size ? left : tile_size, 0, k,
                      (n + tile_size - 1) / tile_size, tile_size);
}

AH_CG_INLINE thread_group tiled_partition(const thread_block &parent, unsigned int tile_size) {
  return tiled_partition(static_cast<const thread_group &>(parent), tile_size);
}

/* ---- free functions ---- */

template <class G> AH_CG_INLINE unsigned int group_size(const G &g) { return g.size(); }
template <class G> AH_CG_INLINE unsigned int thread_rank(const G &g) { return g.thread_rank(); }
template <class G> AH_CG_INLINE bool is_valid(const G &g) { return g.is_valid(); }
template <class G> AH_CG_INLINE void sync(const G &g) { g.sync(); }

} // namespace cooperative_groups

#endif
