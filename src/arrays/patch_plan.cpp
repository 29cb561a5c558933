#include "arrays/patch_plan.hpp"

#include <algorithm>
#include <cstring>

#include "arrays/process_grid.hpp"

namespace remora::arrays {

namespace {
// Layouts that store blocks contiguously: one tile per block that lo..hi meets, the blocks of
// an owner in row-major block order.
void for_each_stored_tile(const BlockStore& store, const int64_t* lo, const int64_t* hi,
                          const std::function<void(const Tile&)>& visit) {
  const int ndim = store.ndim();
  int64_t first[REMORA_ARRAY_MAX_DIM], last[REMORA_ARRAY_MAX_DIM], c[REMORA_ARRAY_MAX_DIM];
  for (int d = 0; d < ndim; ++d) {
    first[d] = c[d] = store.block_of(d, lo[d]);
    last[d] = store.block_of(d, hi[d]);
  }
  std::vector<Tile> tiles;
  for (;;) {
    Tile tile;
    tile.owner = store.owner(c);
    tile.local_base = store.offset(c);
    for (int d = 0; d < ndim; ++d) {
      const int64_t start = store.start(d, c[d]);
      const int64_t from = std::max(lo[d], start);
      const int64_t to = std::min(hi[d], start + store.extent(d, c[d]) - 1);
      tile.runs.push_back(Run{from, to - from + 1, 1, from - start});
      tile.local.push_back(store.extent(d, c[d]));
    }
    tiles.push_back(std::move(tile));
    int d = ndim - 1;
    while (d >= 0 && ++c[d] > last[d]) c[d] = first[d], --d;
    if (d < 0) break;
  }
  std::stable_sort(tiles.begin(), tiles.end(),
                   [](const Tile& a, const Tile& b) { return a.owner < b.owner; });
  for (const Tile& tile : tiles) visit(tile);
}
}  // namespace

void for_each_tile(const Distribution& dist, const int64_t* lo, const int64_t* hi,
                   const std::function<void(const Tile&)>& visit) {
  if (dist.store() != nullptr) return for_each_stored_tile(*dist.store(), lo, hi, visit);
  const int ndim = dist.ndim();
  std::vector<std::vector<int>> coords(static_cast<size_t>(ndim));
  for (int d = 0; d < ndim; ++d) {
    coords[static_cast<size_t>(d)] = dist.owning_coords(d, lo[d], hi[d]);
    if (coords[static_cast<size_t>(d)].empty()) return;
  }
  // Every combination of owning coordinates, row-major (so owners come in rank order).
  std::vector<size_t> pick(static_cast<size_t>(ndim), 0);
  std::vector<int> c(static_cast<size_t>(ndim));
  std::vector<std::vector<Run>> runs(static_cast<size_t>(ndim));
  for (;;) {
    for (size_t d = 0; d < pick.size(); ++d) {
      c[d] = coords[d][pick[d]];
      runs[d] = dist.runs(static_cast<int>(d), c[d], lo[d], hi[d]);
    }
    Tile tile;
    tile.owner = grid_rank(dist.grid(), c);
    tile.local = dist.local_extents(tile.owner);
    tile.runs.resize(static_cast<size_t>(ndim));
    // Every combination of runs of this owner.
    std::vector<size_t> r(static_cast<size_t>(ndim), 0);
    for (;;) {
      for (size_t d = 0; d < r.size(); ++d) tile.runs[d] = runs[d][r[d]];
      visit(tile);
      size_t d = r.size();
      while (d-- > 0 && ++r[d] == runs[d].size()) r[d] = 0;
      if (d == static_cast<size_t>(-1)) break;
    }
    size_t d = pick.size();
    while (d-- > 0 && ++pick[d] == coords[d].size()) pick[d] = 0;
    if (d == static_cast<size_t>(-1)) return;
  }
}

transport::StridedShape merged_shape(const std::vector<Axis>& axes, size_t element) {
  transport::StridedShape shape;
  shape.count[0] = element;
  for (size_t i = axes.size(); i-- > 0;) {
    const Axis& axis = axes[i];
    if (axis.count == 1) continue;
    const int top = shape.levels;
    // Contiguous on both sides with what is below: extend that level instead of adding one.
    const size_t below_a =
        top == 0 ? shape.count[0] : shape.local_stride[top - 1] * shape.count[top];
    const size_t below_b =
        top == 0 ? shape.count[0] : shape.remote_stride[top - 1] * shape.count[top];
    const size_t a = static_cast<size_t>(axis.stride_a), b = static_cast<size_t>(axis.stride_b);
    if (a == below_a && b == below_b) {
      shape.count[top] *= static_cast<size_t>(axis.count);
      continue;
    }
    shape.local_stride[top] = a;
    shape.remote_stride[top] = b;
    shape.count[top + 1] = static_cast<size_t>(axis.count);
    shape.levels = top + 1;
  }
  return shape;
}

std::vector<int64_t> buffer_strides(int ndim, const int64_t* ld) {
  std::vector<int64_t> strides(static_cast<size_t>(ndim), 1);
  for (int d = ndim - 2; d >= 0; --d)
    strides[static_cast<size_t>(d)] = strides[static_cast<size_t>(d) + 1] * ld[d];
  return strides;
}

TileTransfer tile_transfer(const Tile& tile, const int64_t* lo, const std::vector<int64_t>& user,
                           size_t element) {
  const size_t ndim = tile.runs.size();
  const std::vector<int64_t>& local = tile.local;
  std::vector<int64_t> local_strides(ndim, 1);
  for (size_t d = ndim - 1; d-- > 0;) local_strides[d] = local_strides[d + 1] * local[d + 1];
  const int64_t e = static_cast<int64_t>(element);
  std::vector<Axis> axes;
  TileTransfer t;
  t.remote_offset = static_cast<size_t>(tile.local_base * e);
  for (size_t d = 0; d < ndim; ++d) {
    const Run& run = tile.runs[d];
    axes.push_back(Axis{run.length, user[d] * run.step * e, local_strides[d] * e});
    t.user_offset += static_cast<size_t>((run.global_start - lo[d]) * user[d] * e);
    t.remote_offset += static_cast<size_t>(run.local_start * local_strides[d] * e);
  }
  t.shape = merged_shape(axes, element);
  return t;
}

void copy_strided(const transport::StridedShape& shape, const char* a, char* b) {
  shape.for_each_block([&](size_t ao, size_t bo) { std::memcpy(b + bo, a + ao, shape.count[0]); });
}

void copy_strided_back(const transport::StridedShape& shape, char* a, const char* b) {
  shape.for_each_block([&](size_t ao, size_t bo) { std::memcpy(a + ao, b + bo, shape.count[0]); });
}

}  // namespace remora::arrays
