#include "arrays/distribution.hpp"

#include <algorithm>

#include "arrays/block_deal.hpp"
#include "arrays/grid_tiles.hpp"
#include "arrays/process_grid.hpp"

namespace remora::arrays {

Distribution Distribution::blocked(remora_distribution_kind_t kind, std::vector<int64_t> dims,
                                   std::vector<std::vector<int64_t>> starts) {
  Distribution d;
  d.kind_ = kind;
  d.dims_ = std::move(dims);
  for (const auto& s : starts) d.grid_.push_back(static_cast<int>(s.size()));
  d.starts_ = std::move(starts);
  return d;
}

Distribution Distribution::cyclic(remora_distribution_kind_t kind, std::vector<int64_t> dims,
                                  std::vector<int64_t> block, std::vector<int> grid) {
  Distribution d;
  d.kind_ = kind;
  d.dims_ = std::move(dims);
  d.block_ = std::move(block);
  d.grid_ = std::move(grid);
  return d;
}

Distribution Distribution::cyclic_tiles(std::vector<int64_t> dims,
                                        std::vector<std::vector<int64_t>> starts,
                                        std::vector<int> grid) {
  Distribution d;
  d.kind_ = REMORA_DIST_BLOCK_CYCLIC;
  d.dims_ = std::move(dims);
  d.grid_ = std::move(grid);
  d.tiles_ = std::move(starts);
  const size_t n = d.dims_.size();
  d.block_.assign(n, 0);  // unused: the tiles give the extents
  d.tile_local_.resize(n);
  d.coord_extent_.resize(n);
  for (size_t u = 0; u < n; ++u)
    tile_tables(d.dims_[u], d.tiles_[u], d.grid_[u], &d.tile_local_[u], &d.coord_extent_[u]);
  return d;
}

Distribution Distribution::dealt(std::vector<int64_t> dims, std::vector<int64_t> block, int ranks) {
  Distribution d;
  d.kind_ = REMORA_DIST_BLOCK_CYCLIC;
  d.grid_.assign(dims.size(), 1);
  d.grid_.back() = ranks;
  d.store_ = std::make_shared<const BlockDeal>(dims, block, ranks);
  d.block_ = std::move(block);
  d.dims_ = std::move(dims);
  return d;
}

Distribution Distribution::tiled(std::vector<int64_t> dims,
                                 std::vector<std::vector<int64_t>> starts, std::vector<int> grid) {
  Distribution d;
  d.kind_ = REMORA_DIST_BLOCK_CYCLIC;
  d.store_ = std::make_shared<const GridTiles>(dims, std::move(starts), grid);
  d.grid_ = std::move(grid);
  d.block_.assign(dims.size(), 0);  // unused: the tiles give the extents
  d.dims_ = std::move(dims);
  return d;
}

Distribution Distribution::block_default(std::vector<int64_t> dims, int ranks) {
  const std::vector<int> grid = block_grid(ranks, dims);
  std::vector<std::vector<int64_t>> starts(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    // Global Arrays' blocking: ceil(n / parts) per block, the last ones shorter or empty.
    const int64_t chunk = (dims[d] + grid[d] - 1) / grid[d];
    for (int p = 0; p < grid[d]; ++p) starts[d].push_back(std::min(dims[d], p * chunk));
  }
  return blocked(REMORA_DIST_BLOCK, std::move(dims), std::move(starts));
}

int64_t Distribution::elements() const {
  int64_t n = 1;
  for (int64_t e : dims_) n *= e;
  return n;
}

bool Distribution::same_layout(const Distribution& other) const {
  if (dims_ != other.dims_ || grid_ != other.grid_ || is_cyclic() != other.is_cyclic())
    return false;
  if (store_ || other.store_) return store_ && other.store_ && store_->same(*other.store_);
  return is_cyclic() ? block_ == other.block_ && tiles_ == other.tiles_ : starts_ == other.starts_;
}

int64_t Distribution::tile_of(int d, int64_t index) const {
  const auto& s = tiles_[static_cast<size_t>(d)];
  return static_cast<int64_t>(std::upper_bound(s.begin(), s.end(), index) - s.begin()) - 1;
}

int64_t Distribution::tile_end(int d, int64_t b) const {
  const size_t u = static_cast<size_t>(d);
  return b + 1 < static_cast<int64_t>(tiles_[u].size()) ? tiles_[u][static_cast<size_t>(b) + 1]
                                                        : dims_[u];
}

std::vector<int> Distribution::coords(int rank) const {
  if (rank >= grid_size(grid_)) return std::vector<int>(grid_.size(), -1);
  return grid_coords(grid_, rank);
}

// Block kinds: the extent of block p of a dimension of n elements with these block starts.
static int64_t block_extent(int64_t n, const std::vector<int64_t>& starts, int parts, int p) {
  const int64_t end = p + 1 < parts ? starts[static_cast<size_t>(p) + 1] : n;
  return end - starts[static_cast<size_t>(p)];
}

static int64_t cyclic_extent(int64_t n, int64_t nb, int parts, int coord) {
  const int64_t cycle = nb * parts;
  const int64_t rest = n % cycle - coord * nb;
  return (n / cycle) * nb + std::clamp<int64_t>(rest, 0, nb);
}

int64_t Distribution::cyclic_local_extent(int d, int coord) const {
  const size_t u = static_cast<size_t>(d);
  if (!tiles_.empty()) return coord_extent_[u][static_cast<size_t>(coord)];
  return cyclic_extent(dims_[u], block_[u], grid_[u], coord);
}

int64_t Distribution::local_extent(int rank, int d) const {
  if (store_) return store_->local_extent(rank, d);
  const std::vector<int> c = coords(rank);
  const int p = c[static_cast<size_t>(d)];
  if (p < 0) return 0;
  const size_t u = static_cast<size_t>(d);
  return is_cyclic() ? cyclic_local_extent(d, p) : block_extent(dims_[u], starts_[u], grid_[u], p);
}

std::vector<int64_t> Distribution::local_extents(int rank) const {
  std::vector<int64_t> e(dims_.size());
  for (int d = 0; d < ndim(); ++d) e[static_cast<size_t>(d)] = local_extent(rank, d);
  return e;
}

int64_t Distribution::local_elements(int rank) const {
  int64_t n = 1;
  for (int d = 0; d < ndim(); ++d) n *= local_extent(rank, d);
  return n;
}

void Distribution::block_bounds(int rank, int64_t* lo, int64_t* hi) const {
  const std::vector<int> c = coords(rank);
  for (size_t d = 0; d < dims_.size(); ++d) {
    if (c[d] < 0) {
      lo[d] = 0;
      hi[d] = -1;
      continue;
    }
    lo[d] = starts_[d][static_cast<size_t>(c[d])];
    hi[d] = lo[d] + local_extent(rank, static_cast<int>(d)) - 1;
  }
}

std::vector<Run> Distribution::runs(int d, int coord, int64_t lo, int64_t hi) const {
  const size_t u = static_cast<size_t>(d);
  std::vector<Run> out;
  if (!is_cyclic()) {
    const int64_t start = starts_[u][static_cast<size_t>(coord)];
    const int64_t end =
        (coord + 1 < grid_[u] ? starts_[u][static_cast<size_t>(coord) + 1] : dims_[u]) - 1;
    const int64_t first = std::max(lo, start), last = std::min(hi, end);
    if (first <= last) out.push_back(Run{first, last - first + 1, 1, first - start});
    return out;
  }
  if (!tiles_.empty()) {
    for (int64_t b = tile_of(d, lo); b <= tile_of(d, hi); ++b) {
      if (b % grid_[u] != coord) continue;
      const int64_t start = tiles_[u][static_cast<size_t>(b)];
      const int64_t first = std::max(lo, start), last = std::min(hi, tile_end(d, b) - 1);
      out.push_back(
          Run{first, last - first + 1, 1, tile_local_[u][static_cast<size_t>(b)] + first - start});
    }
    return out;
  }
  const int64_t nb = block_[u], parts = grid_[u];
  if (nb == 1) {
    // One run with a stride: the coordinate's indices are every parts-th one.
    const int64_t first = lo + ((coord - lo % parts) % parts + parts) % parts;
    if (first <= hi) out.push_back(Run{first, (hi - first) / parts + 1, parts, first / parts});
    return out;
  }
  for (int64_t b = lo / nb; b <= hi / nb; ++b) {
    if (b % parts != coord) continue;
    const int64_t first = std::max(lo, b * nb), last = std::min(hi, b * nb + nb - 1);
    out.push_back(Run{first, last - first + 1, 1, (b / parts) * nb + (first - b * nb)});
  }
  return out;
}

std::vector<int> Distribution::owning_coords(int d, int64_t lo, int64_t hi) const {
  const size_t u = static_cast<size_t>(d);
  std::vector<int> out;
  if (!is_cyclic()) {
    for (int p = 0; p < grid_[u]; ++p)
      if (!runs(d, p, lo, hi).empty()) out.push_back(p);
    return out;
  }
  const int64_t lo_block = tiles_.empty() ? lo / block_[u] : tile_of(d, lo);
  const int64_t hi_block = tiles_.empty() ? hi / block_[u] : tile_of(d, hi);
  const int parts = static_cast<int>(std::min<int64_t>(hi_block - lo_block + 1, grid_[u]));
  const int first = static_cast<int>(lo_block % grid_[u]);
  for (int k = 0; k < parts; ++k) out.push_back((first + k) % grid_[u]);
  std::sort(out.begin(), out.end());
  return out;
}

bool Distribution::single_owner(const int64_t* lo, const int64_t* hi, OwnedPatch* patch) const {
  if (is_cyclic()) return false;
  int rank = 0;
  for (int d = 0; d < ndim(); ++d) {
    const int coord = owner_coord(d, lo[d]);
    if (coord != owner_coord(d, hi[d])) return false;
    const size_t u = static_cast<size_t>(d), c = static_cast<size_t>(coord);
    const int64_t start = starts_[u][c];
    const int64_t end = coord + 1 < grid_[u] ? starts_[u][c + 1] : dims_[u];
    rank = rank * grid_[u] + coord;  // grid_rank's row-major order
    patch->local_lo[d] = lo[d] - start;
    patch->local_extent[d] = end - start;
  }
  patch->owner = rank;
  return true;
}

int Distribution::owner_coord(int d, int64_t index) const {
  const size_t u = static_cast<size_t>(d);
  if (is_cyclic() && !tiles_.empty()) return static_cast<int>(tile_of(d, index) % grid_[u]);
  if (is_cyclic()) return static_cast<int>((index / block_[u]) % grid_[u]);
  const auto& s = starts_[u];
  // The last block whose start is <= index (empty blocks share a start: take the last).
  return static_cast<int>(std::upper_bound(s.begin(), s.end(), index) - s.begin()) - 1;
}

int64_t Distribution::local_index(int d, int64_t index) const {
  const size_t u = static_cast<size_t>(d);
  if (is_cyclic() && !tiles_.empty()) {
    const int64_t b = tile_of(d, index);
    return tile_local_[u][static_cast<size_t>(b)] + index - tiles_[u][static_cast<size_t>(b)];
  }
  if (is_cyclic()) {
    const int64_t nb = block_[u];
    return (index / (nb * grid_[u])) * nb + index % nb;
  }
  return index - starts_[u][static_cast<size_t>(owner_coord(d, index))];
}

void Distribution::locate(const int64_t* index, int* owner, int64_t* local) const {
  if (store_) return store_->locate(index, owner, local);
  int rank = 0;
  int64_t linear = 0;
  for (int d = 0; d < ndim(); ++d) {
    const int coord = owner_coord(d, index[d]);
    rank = rank * grid_[static_cast<size_t>(d)] + coord;  // grid_rank's row-major order
    const size_t u = static_cast<size_t>(d);
    const int64_t extent = is_cyclic() ? cyclic_local_extent(d, coord)
                                       : block_extent(dims_[u], starts_[u], grid_[u], coord);
    linear = linear * extent + local_index(d, index[d]);
  }
  *owner = rank;
  *local = linear;
}

}  // namespace remora::arrays
