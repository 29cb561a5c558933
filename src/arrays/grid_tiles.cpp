#include "arrays/grid_tiles.hpp"

#include <algorithm>

#include "arrays/process_grid.hpp"

namespace remora::arrays {

void tile_tables(int64_t n, const std::vector<int64_t>& starts, int parts,
                 std::vector<int64_t>* before, std::vector<int64_t>* coord_extent) {
  const auto p = static_cast<size_t>(parts);
  before->clear();
  coord_extent->assign(p, 0);
  for (size_t c = 0; c < starts.size(); ++c) {
    before->push_back((*coord_extent)[c % p]);
    (*coord_extent)[c % p] += (c + 1 < starts.size() ? starts[c + 1] : n) - starts[c];
  }
}

GridTiles::GridTiles(std::vector<int64_t> dims, std::vector<std::vector<int64_t>> starts,
                     std::vector<int> grid)
    : dims_(std::move(dims)), starts_(std::move(starts)), grid_(std::move(grid)) {
  const size_t n = dims_.size();
  before_.resize(n);
  coord_extent_.resize(n);
  for (size_t d = 0; d < n; ++d)
    tile_tables(dims_[d], starts_[d], grid_[d], &before_[d], &coord_extent_[d]);
}

int64_t GridTiles::extent(int d, int64_t c) const {
  const auto& s = starts_[static_cast<size_t>(d)];
  const auto u = static_cast<size_t>(c);
  return (u + 1 < s.size() ? s[u + 1] : dims_[static_cast<size_t>(d)]) - s[u];
}

int64_t GridTiles::block_of(int d, int64_t index) const {
  const auto& s = starts_[static_cast<size_t>(d)];
  return static_cast<int64_t>(std::upper_bound(s.begin(), s.end(), index) - s.begin()) - 1;
}

int GridTiles::owner(const int64_t* coords) const {
  int rank = 0;
  for (size_t d = 0; d < grid_.size(); ++d)
    rank = rank * grid_[d] + static_cast<int>(coords[d] % grid_[d]);
  return rank;
}

// The owner's tiles before this one in row-major tile order: for each dimension d, those that
// share the tile's coordinates before d and come earlier at d, whatever follows (the owner's
// whole extent there).
int64_t GridTiles::offset(const int64_t* coords) const {
  const size_t n = dims_.size();
  int64_t total = 0, head = 1;
  for (size_t d = 0; d < n; ++d) {
    int64_t tail = 1;
    for (size_t e = d + 1; e < n; ++e)
      tail *= coord_extent_[e][static_cast<size_t>(coords[e] % grid_[e])];
    total += head * before_[d][static_cast<size_t>(coords[d])] * tail;
    head *= extent(static_cast<int>(d), coords[d]);
  }
  return total;
}

int64_t GridTiles::local_extent(int rank, int d) const {
  if (rank < 0 || rank >= grid_size(grid_)) return 0;
  const std::vector<int> c = grid_coords(grid_, rank);
  const auto u = static_cast<size_t>(d);
  return coord_extent_[u][static_cast<size_t>(c[u])];
}

int64_t GridTiles::local_elements(int rank) const {
  int64_t n = 1;
  for (int d = 0; d < ndim(); ++d) n *= local_extent(rank, d);
  return n;
}

bool GridTiles::same(const BlockStore& other) const {
  const auto* tiles = dynamic_cast<const GridTiles*>(&other);
  return tiles != nullptr && dims_ == tiles->dims_ && starts_ == tiles->starts_ &&
         grid_ == tiles->grid_;
}

}  // namespace remora::arrays
