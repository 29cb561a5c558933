// Layouts that keep every block contiguous in its owner's memory, as Global Arrays does for
// GA_Set_block_cyclic (block_deal.hpp: blocks dealt round-robin over the ranks) and for its
// tiled layouts (grid_tiles.hpp: tiles on a process grid). The array is cut into a grid of
// blocks (per-dimension starts); each rank stores the blocks it owns one after another in
// row-major block order, each dense and row-major with its own extents. Ownership and offsets
// differ per layout; patches go by blocks (for_each_tile), locating an element is shared.
#pragma once

#include <cstdint>
#include <vector>

namespace remora::arrays {

class BlockStore {
 public:
  virtual ~BlockStore() = default;

  virtual int ndim() const = 0;
  // Blocks along dimension d; block c's first index and extent; the block holding index.
  virtual int64_t blocks(int d) const = 0;
  virtual int64_t start(int d, int64_t c) const = 0;
  virtual int64_t extent(int d, int64_t c) const = 0;
  virtual int64_t block_of(int d, int64_t index) const = 0;
  // The owner of the block with block coordinates coords, and where that block starts in the
  // owner's local array (elements).
  virtual int owner(const int64_t* coords) const = 0;
  virtual int64_t offset(const int64_t* coords) const = 0;
  virtual int64_t local_elements(int rank) const = 0;
  // What remora_array_local_shape reports for rank (the product is its element count).
  virtual int64_t local_extent(int rank, int d) const = 0;
  // The same owner and offset for every block.
  virtual bool same(const BlockStore& other) const = 0;

  // The owner of one element and its index in the owner's local array.
  void locate(const int64_t* index, int* owner, int64_t* local) const;
};

}  // namespace remora::arrays
