// Tiles on a process grid, stored as Global Arrays stores them (GA_Set_tiled_proc_grid,
// GA_Set_tiled_irreg_proc_grid): any ndim, per-dimension tile starts; tile (c_0, ..., c_n-1)
// lives on grid position (c_d mod grid[d]), ranks numbered row-major over the grid (ranks
// beyond it own nothing). Each rank stores its tiles one after another in row-major tile order,
// each dense and row-major with its own extents (BlockStore), so a tile is contiguous where a
// ScaLAPACK local array would interleave its rows with the other tiles'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arrays/block_store.hpp"

namespace remora::arrays {

// One dimension of n elements cut into tiles at starts, tile c on coordinate c mod parts, each
// coordinate keeping its tiles in order: per tile, its start in its coordinate's local extent
// (the extents of the coordinate's earlier tiles); per coordinate, that local extent.
void tile_tables(int64_t n, const std::vector<int64_t>& starts, int parts,
                 std::vector<int64_t>* before, std::vector<int64_t>* coord_extent);

class GridTiles final : public BlockStore {
 public:
  // starts[d]: the tile starts of dimension d (0 first, increasing, below dims[d]).
  GridTiles(std::vector<int64_t> dims, std::vector<std::vector<int64_t>> starts,
            std::vector<int> grid);

  int ndim() const override { return static_cast<int>(dims_.size()); }
  int64_t blocks(int d) const override {
    return static_cast<int64_t>(starts_[static_cast<size_t>(d)].size());
  }
  int64_t start(int d, int64_t c) const override {
    return starts_[static_cast<size_t>(d)][static_cast<size_t>(c)];
  }
  int64_t extent(int d, int64_t c) const override;
  int64_t block_of(int d, int64_t index) const override;
  int owner(const int64_t* coords) const override;
  int64_t offset(const int64_t* coords) const override;
  int64_t local_elements(int rank) const override;
  // The extent of the rank's tiles along d (the sum of their extents there).
  int64_t local_extent(int rank, int d) const override;
  bool same(const BlockStore& other) const override;

 private:
  std::vector<int64_t> dims_;
  std::vector<std::vector<int64_t>> starts_;
  std::vector<int> grid_;
  // Per dimension: the extents of the earlier tiles of the same grid coordinate, per tile, and
  // each coordinate's local extent.
  std::vector<std::vector<int64_t>> before_, coord_extent_;
};

}  // namespace remora::arrays
