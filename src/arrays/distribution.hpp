// Where each element of an array lives: the distribution kind, the process grid and, per
// dimension, either block starts (block, irregular) or a block size dealt round-robin over
// the grid (block-cyclic; element-cyclic is block size 1). Every rank stores what it owns as
// a dense row-major local array; this class maps global indices to (owner, local index).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "arrays/block_store.hpp"
#include "remora/array.h"

namespace remora::arrays {

// The indices global_start, global_start + step, ... (length of them) of one dimension, which
// the owner stores at consecutive local indices from local_start.
struct Run {
  int64_t global_start = 0;
  int64_t length = 0;
  int64_t step = 1;
  int64_t local_start = 0;
};

// A patch that one rank's block holds entirely (Distribution::single_owner): where it sits in
// that rank's local array.
struct OwnedPatch {
  int owner = -1;  // grid rank (a rank of the array's communicator)
  int64_t local_lo[REMORA_ARRAY_MAX_DIM] = {};
  int64_t local_extent[REMORA_ARRAY_MAX_DIM] = {};  // the owner's local array
};

class Distribution {
 public:
  // Block or irregular: starts[d] holds the block starts of dimension d (grid[d] of them).
  static Distribution blocked(remora_distribution_kind_t kind, std::vector<int64_t> dims,
                              std::vector<std::vector<int64_t>> starts);
  // Block-cyclic / element-cyclic: block[d] elements per block, grid[d] ranks.
  static Distribution cyclic(remora_distribution_kind_t kind, std::vector<int64_t> dims,
                             std::vector<int64_t> block, std::vector<int> grid);
  // Block-cyclic with tiles of irregular extents (GA_Set_tiled_irreg_proc_grid): starts[d]
  // holds the tile starts of dimension d (0 first, increasing, < dims[d]); tile b of dimension d
  // goes to grid coordinate b mod grid[d], which stores its tiles in order.
  static Distribution cyclic_tiles(std::vector<int64_t> dims,
                                   std::vector<std::vector<int64_t>> starts, std::vector<int> grid);
  // Blocks dealt round-robin over ranks (GA_Set_block_cyclic; block_deal.hpp): any ndim, kind
  // block-cyclic, grid 1 x ... x ranks. Each rank's local array is its blocks one after another
  // (local extents 1, ..., 1, its element count); runs and owning_coords do not apply: patches
  // go by blocks (for_each_tile).
  static Distribution dealt(std::vector<int64_t> dims, std::vector<int64_t> block, int ranks);
  // Tiles on a process grid stored as GA stores them (GA_Set_tiled*; grid_tiles.hpp): any ndim,
  // kind block-cyclic; tile starts as cyclic_tiles', tile c on grid position (c_d mod grid[d]).
  // Each rank's local array is its tiles one after another; patches go by tiles.
  static Distribution tiled(std::vector<int64_t> dims, std::vector<std::vector<int64_t>> starts,
                            std::vector<int> grid);
  // The default block distribution of dims over ranks.
  static Distribution block_default(std::vector<int64_t> dims, int ranks);

  remora_distribution_kind_t kind() const { return kind_; }
  bool is_cyclic() const {
    return kind_ == REMORA_DIST_BLOCK_CYCLIC || kind_ == REMORA_DIST_ELEMENT_CYCLIC;
  }
  int ndim() const { return static_cast<int>(dims_.size()); }
  const std::vector<int64_t>& dims() const { return dims_; }
  const std::vector<int>& grid() const { return grid_; }
  // Layouts that store each block contiguously (dealt blocks, GA's tiles), else null.
  const BlockStore* store() const { return store_.get(); }
  int64_t elements() const;
  // Same owner and local index for every element (then local storage lines up).
  bool same_layout(const Distribution& other) const;

  // rank's coordinate in dimension d of the grid, or -1 if rank is outside the grid.
  std::vector<int> coords(int rank) const;
  // rank's local extent in dimension d (0 if it owns nothing).
  int64_t local_extent(int rank, int d) const;
  std::vector<int64_t> local_extents(int rank) const;
  int64_t local_elements(int rank) const;
  // Block kinds: rank's patch (lo > hi when empty).
  void block_bounds(int rank, int64_t* lo, int64_t* hi) const;

  // The runs of lo..hi (dimension d) stored at grid coordinate coord.
  std::vector<Run> runs(int d, int coord, int64_t lo, int64_t hi) const;
  // Grid coordinates (in dimension d) that own some index of lo..hi.
  std::vector<int> owning_coords(int d, int64_t lo, int64_t hi) const;
  // Block kinds: whether one rank's block holds all of lo..hi, and where (no allocation: the
  // fast path of patch transfers). False for cyclic kinds and patches that span blocks.
  bool single_owner(const int64_t* lo, const int64_t* hi, OwnedPatch* patch) const;
  // The owner of one element and its row-major index in the owner's local array.
  void locate(const int64_t* index, int* owner, int64_t* local_index) const;

 private:
  int owner_coord(int d, int64_t index) const;
  int64_t local_index(int d, int64_t index) const;
  // Cyclic kinds: the extent of dimension d stored at grid coordinate coord.
  int64_t cyclic_local_extent(int d, int coord) const;
  // Irregular tiles: the tile holding index, and the end (exclusive) of tile b.
  int64_t tile_of(int d, int64_t index) const;
  int64_t tile_end(int d, int64_t b) const;

  remora_distribution_kind_t kind_ = REMORA_DIST_BLOCK;
  std::vector<int64_t> dims_;
  std::vector<int> grid_;
  std::vector<std::vector<int64_t>> starts_;  // block kinds
  std::vector<int64_t> block_;                // cyclic kinds
  // Cyclic with irregular tiles (empty otherwise): tile starts, each tile's start in its
  // coordinate's local extent, and each coordinate's local extent, per dimension.
  std::vector<std::vector<int64_t>> tiles_, tile_local_, coord_extent_;
  std::shared_ptr<const BlockStore> store_;  // dealt blocks or stored tiles (null otherwise)
};

}  // namespace remora::arrays
