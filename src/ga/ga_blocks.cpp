#include "ga/ga_blocks.hpp"

#include <algorithm>

namespace remora::ga {

bool is_cyclic(const GaArray& a) {
  return a.layout == Layout::BlockCyclic || a.layout == Layout::ScalapackCyclic ||
         a.layout == Layout::Tiled || a.layout == Layout::TiledIrregular;
}

namespace {
// GA_Set_tiled_irreg_proc_grid: dimension d's tile starts in a.map.
const int64_t* tile_starts(const GaArray& a, int d) {
  size_t offset = 0;
  for (int e = 0; e < d; ++e) offset += static_cast<size_t>(a.nblock[static_cast<size_t>(e)]);
  return a.map.data() + offset;
}
}  // namespace

int64_t block_start(const GaArray& a, int d, int64_t k) {
  if (a.layout == Layout::TiledIrregular) return tile_starts(a, d)[k];
  return k * a.block[static_cast<size_t>(d)];
}

int64_t block_of(const GaArray& a, int d, int64_t index) {
  if (a.layout != Layout::TiledIrregular) return index / a.block[static_cast<size_t>(d)];
  const int64_t* s = tile_starts(a, d);
  return (std::upper_bound(s, s + a.nblock[static_cast<size_t>(d)], index) - s) - 1;
}

void process_grid(const char* fn, const GaArray& a, int* grid) {
  // GA_Set_block_cyclic deals blocks without a process grid; GA 5.8 reports zeros.
  if (a.layout == Layout::BlockCyclic) return std::fill(grid, grid + a.ndim, 0);
  check(fn, remora_array_proc_grid(a.array, grid));
}

int64_t block_counts(const GaArray& a, int64_t* counts) {
  int64_t total = 1;
  for (int d = 0; d < a.ndim; ++d) {
    if (a.layout == Layout::TiledIrregular) {
      counts[d] = a.nblock[static_cast<size_t>(d)];
    } else {
      const int64_t b = a.block[static_cast<size_t>(d)];
      counts[d] = (a.dims[d] + b - 1) / b;
    }
    total *= counts[d];
  }
  return total;
}

void block_bounds(const char* fn, const GaArray& a, int64_t idx, int64_t* lo, int64_t* hi) {
  int64_t counts[GA_MAX_DIM];
  const int64_t total = block_counts(a, counts);
  if (idx < 0 || idx >= total)
    ga_fail(fn, "block index %lld is outside [0, %lld) of array '%s'", static_cast<long long>(idx),
            static_cast<long long>(total), a.name.c_str());
  for (int d = a.ndim - 1; d >= 0; --d) {
    const int64_t coord = idx % counts[d];
    idx /= counts[d];
    lo[d] = block_start(a, d, coord);
    hi[d] = (coord + 1 < counts[d] ? block_start(a, d, coord + 1) : a.dims[d]) - 1;
  }
}

int block_owner(const char* fn, const GaArray& a, const int64_t* coords) {
  if (a.layout == Layout::BlockCyclic) {  // block k on rank k mod P
    int64_t counts[GA_MAX_DIM], number = 0;
    block_counts(a, counts);
    for (int d = 0; d < a.ndim; ++d) number = number * counts[d] + coords[d];
    return static_cast<int>(number % array_ranks(a));
  }
  int grid[GA_MAX_DIM];
  process_grid(fn, a, grid);
  int64_t rank = 0;
  for (int d = 0; d < a.ndim; ++d) rank = rank * grid[d] + coords[d] % grid[d];
  return static_cast<int>(rank);
}

void owned_patch(const char* fn, const GaArray& a, int rank, int64_t* lo, int64_t* hi) {
  check(fn, remora_array_distribution(a.array, array_rank_of(a, rank), lo, hi));
  for (int d = 0; d < a.ndim; ++d)
    if (lo[d] > hi[d]) {
      for (int e = 0; e < a.ndim; ++e) {
        lo[e] = 0;
        hi[e] = -1;
      }
      return;
    }
}

}  // namespace remora::ga
