// Decomposition of a patch into per-owner transfers. For each owner the patch meets, each
// dimension contributes runs (one for block layouts, one strided run for element-cyclic, one
// per block for block-cyclic); a tile is one run per dimension, and every tile becomes one
// strided transfer whose contiguous levels are merged, so a block owner receives a single
// strided put/get however many rows the patch has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "arrays/distribution.hpp"
#include "transport/transport.hpp"

namespace remora::arrays {

struct Tile {
  int owner = 0;
  std::vector<Run> runs;  // one per dimension
  // The runs' local indices are into a row-major array of these extents that starts at element
  // local_base of the owner's local array: the owner's whole local array for grid layouts,
  // one block for dealt blocks and stored tiles (BlockStore).
  std::vector<int64_t> local;
  int64_t local_base = 0;
};

// The element strides of each dimension in the user's buffer (leading dimensions ld) and in the
// owner's local block, for for_each_owned_row and for_each_owned_slab.
struct OwnedStrides {
  int64_t user[REMORA_ARRAY_MAX_DIM];
  int64_t local[REMORA_ARRAY_MAX_DIM];
  OwnedStrides(const OwnedPatch& patch, int ndim, const int64_t* ld) {
    const int last = ndim - 1;
    user[last] = local[last] = 1;
    for (int d = last - 1; d >= 0; --d) {
      user[d] = user[d + 1] * ld[d];
      local[d] = local[d + 1] * patch.local_extent[d + 1];
    }
  }
};

// The rows (runs of the last dimension) of lo..hi when one rank's block holds the whole patch
// (Distribution::single_owner), in row-major order: visit(user_offset, remote_offset, bytes)
// with byte offsets into the user's buffer (leading dimensions ld) and the owner's local array.
// Allocates nothing: the fast path of patch transfers and accumulates.
template <typename Visit>
void for_each_owned_row(const OwnedPatch& patch, int ndim, const int64_t* lo, const int64_t* hi,
                        const int64_t* ld, size_t element, Visit&& visit) {
  const int last = ndim - 1;
  const auto e = static_cast<int64_t>(element);
  const OwnedStrides stride(patch, ndim, ld);
  int64_t index[REMORA_ARRAY_MAX_DIM] = {};  // offsets from lo, dimensions 0 .. last-1
  const auto bytes = static_cast<size_t>((hi[last] - lo[last] + 1) * e);
  for (;;) {
    int64_t user = 0, local = patch.local_lo[last];
    for (int d = 0; d < last; ++d) {
      user += index[d] * stride.user[d];
      local += (patch.local_lo[d] + index[d]) * stride.local[d];
    }
    visit(static_cast<size_t>(user * e), static_cast<size_t>(local * e), bytes);
    int d = last - 1;
    while (d >= 0 && ++index[d] > hi[d] - lo[d]) index[d--] = 0;
    if (d < 0) return;
  }
}

// The same patch as slabs: for each index of dimensions 0 .. ndim-3, the rows of the last two
// dimensions, which lie at fixed strides in the user's buffer and at the owner.
// visit(user_offset, remote_offset, row_bytes, rows, user_row_stride, remote_row_stride), all
// in bytes. A 1-d or 2-d patch is one slab. Allocates nothing.
template <typename Visit>
void for_each_owned_slab(const OwnedPatch& patch, int ndim, const int64_t* lo, const int64_t* hi,
                         const int64_t* ld, size_t element, Visit&& visit) {
  const int last = ndim - 1;
  const auto e = static_cast<int64_t>(element);
  const OwnedStrides stride(patch, ndim, ld);
  int64_t index[REMORA_ARRAY_MAX_DIM] = {};  // offsets from lo, dimensions 0 .. last-2
  const auto bytes = static_cast<size_t>((hi[last] - lo[last] + 1) * e);
  const int row_dim = last - 1;  // the dimension the rows of a slab step through (-1: 1-d)
  const auto rows = static_cast<size_t>(row_dim >= 0 ? hi[row_dim] - lo[row_dim] + 1 : 1);
  const auto user_row = static_cast<size_t>(row_dim >= 0 ? stride.user[row_dim] * e : 0);
  const auto local_row = static_cast<size_t>(row_dim >= 0 ? stride.local[row_dim] * e : 0);
  for (;;) {
    int64_t user = 0, local = patch.local_lo[last];
    for (int d = 0; d < last; ++d) {
      user += index[d] * stride.user[d];
      local += (patch.local_lo[d] + index[d]) * stride.local[d];
    }
    visit(static_cast<size_t>(user * e), static_cast<size_t>(local * e), bytes, rows, user_row,
          local_row);
    int d = last - 2;
    while (d >= 0 && ++index[d] > hi[d] - lo[d]) index[d--] = 0;
    if (d < 0) return;
  }
}

// Calls visit(tile) for every tile of lo..hi, grouped by owner in rank order (BlockStore layouts:
// one tile per block, in block order within an owner).
void for_each_tile(const Distribution& dist, const int64_t* lo, const int64_t* hi,
                   const std::function<void(const Tile&)>& visit);

// One dimension of a strided copy between two row-major spaces: count elements, stride in
// bytes on side a and on side b.
struct Axis {
  int64_t count;
  int64_t stride_a;
  int64_t stride_b;
};

// A strided shape (a = local side, b = remote side) for axes given outermost first, with
// element bytes contiguous at the bottom; adjacent axes that are contiguous on both sides are
// merged into one level.
transport::StridedShape merged_shape(const std::vector<Axis>& axes, size_t element);

// Element strides of a row-major buffer with leading dimensions ld (ndim-1 entries).
std::vector<int64_t> buffer_strides(int ndim, const int64_t* ld);

// The axes and offsets of tile between a user buffer (holding the patch from lo with element
// strides user) and the owner's local array.
struct TileTransfer {
  transport::StridedShape shape;
  size_t user_offset = 0;    // bytes from the buffer's start
  size_t remote_offset = 0;  // bytes from the owner's local array's start
};
TileTransfer tile_transfer(const Tile& tile, const int64_t* lo, const std::vector<int64_t>& user,
                           size_t element);

// Copies a StridedShape's blocks from src (a side) to dst (b side), or back when reverse.
void copy_strided(const transport::StridedShape& shape, const char* a, char* b);
void copy_strided_back(const transport::StridedShape& shape, char* a, const char* b);

}  // namespace remora::arrays
