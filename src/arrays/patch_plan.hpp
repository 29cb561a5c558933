// Decomposition of a patch into per-owner transfers. For each owner the patch meets, each
// dimension contributes runs (one for block layouts, one strided run for element-cyclic, one
// per block for block-cyclic); a tile is one run per dimension, and every tile becomes one
// strided transfer whose contiguous levels are merged, so a block owner receives a single
// strided put/get however many rows the patch has.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "arrays/distribution.hpp"
#include "transport/transport.hpp"

namespace remora::arrays {

struct Tile {
  int owner = 0;
  std::vector<Run> runs;  // one per dimension
};

// Calls visit(tile) for every tile of lo..hi, grouped by owner in rank order.
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
// strides user) and the owner's local array (row-major with extents local).
struct TileTransfer {
  transport::StridedShape shape;
  size_t user_offset = 0;    // bytes from the buffer's start
  size_t remote_offset = 0;  // bytes from the owner's local array's start
};
TileTransfer tile_transfer(const Tile& tile, const int64_t* lo, const std::vector<int64_t>& user,
                           const std::vector<int64_t>& local, size_t element);

// Copies a StridedShape's blocks from src (a side) to dst (b side), or back when reverse.
void copy_strided(const transport::StridedShape& shape, const char* a, char* b);
void copy_strided_back(const transport::StridedShape& shape, char* a, const char* b);

}  // namespace remora::arrays
